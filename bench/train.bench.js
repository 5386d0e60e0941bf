// Training speed: a traced train step (forward, tape, Adam update) of a 2-layer MLP, batch 32, vs raw tfjs (tf.train.adam + tf.variableGrads).
'use strict';

const ef = require('eagerflow');
const tf = require('@tensorflow/tfjs-core');
registerTfjsGradients();
const { measure, ratioRow, record } = require('./harness');

/**
 * tfjs-core ships its gradient functions as extension-less ES modules (the @tensorflow/tfjs umbrella,
 * not installed here, registers them). Bundle them once with esbuild: they register into tfjs's global
 * gradient registry and run their ops on the global engine, so raw tfjs gets its own gradients.
 */
function registerTfjsGradients() {
  const esbuild = require('esbuild');
  const entry = require.resolve('@tensorflow/tfjs-core/dist/register_all_gradients.js');
  const out = esbuild.buildSync({ entryPoints: [entry], bundle: true, format: 'cjs', platform: 'node', write: false, logLevel: 'error' });
  const m = new module.constructor(entry);
  m._compile(out.outputFiles[0].text, entry);
}

const B = 32, IN = 64, H = 128, OUT = 10;
const xData = Float32Array.from({ length: B * IN }, (_, i) => Math.sin(i * 0.37));
const yData = Int32Array.from({ length: B }, (_, i) => (i * 7) % OUT);
const w1Init = ef.initializers.glorotUniform({ seed: 1 })([IN, H]);
const w2Init = ef.initializers.glorotUniform({ seed: 2 })([H, OUT]);

// EagerFlow: the TF2 custom-training-loop step, traced once.
const x = ef.constant(xData, 'float32', [B, IN]);
const y = ef.constant(yData, 'int32', [B]);
const w1 = new ef.Variable(w1Init), b1 = new ef.Variable(ef.zeros([H]));
const w2 = new ef.Variable(w2Init), b2 = new ef.Variable(ef.zeros([OUT]));
const vars = [w1, b1, w2, b2];
const opt = new ef.optimizers.Adam({ learningRate: 1e-3 });
const step = ef.trace((xb, yb) => {
  const tape = new ef.GradientTape();
  const loss = tape.record(() => {
    const logits = ef.add(ef.matmul(ef.relu(ef.add(ef.matmul(xb, w1), b1)), w2), b2);
    return ef.losses.sparseCategoricalCrossentropy(yb, logits, { fromLogits: true });
  });
  const grads = tape.gradient(loss, vars);
  opt.applyGradients(grads.map((g, i) => [g, vars[i]]));
  return loss;
});

// Raw tfjs: the same model, loss and optimizer.
const tx = tf.tensor2d(xData, [B, IN]);
const tyOneHot = tf.oneHot(tf.tensor1d(yData, 'int32'), OUT);
const tw1 = tf.variable(w1Init.toTfjs().clone()), tb1 = tf.variable(tf.zeros([H]));
const tw2 = tf.variable(w2Init.toTfjs().clone()), tb2 = tf.variable(tf.zeros([OUT]));
const tfOpt = tf.train.adam(1e-3, 0.9, 0.999, 1e-7);
function tfStep() {
  const { value, grads } = tf.variableGrads(() => {
    const logits = tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(tx, tw1), tb1)), tw2), tb2);
    return tf.losses.softmaxCrossEntropy(tyOneHot, logits);
  }, [tw1, tb1, tw2, tb2]);
  tfOpt.applyGradients(grads);
  tf.dispose(grads);
  return value;
}

// Same losses step by step (float32 tolerance): the two loops train the same model.
for (let i = 0; i < 5; i++) {
  const a = step(x, y);
  const b = tfStep();
  const [la, lb] = [a.item(), b.dataSync()[0]];
  a.dispose();
  b.dispose();
  if (Math.abs(la - lb) > 1e-4 * Math.max(1, Math.abs(lb))) throw new Error(`train.bench: step ${i} loss differs: eagerflow ${la}, tfjs ${lb}`);
}

const before = tf.memory().numTensors;
const t = measure({ traced: () => step(x, y).dispose(), tfjs: () => tfStep().dispose() }, { batch: 20, rounds: 21, warmup: 3 });
if (tf.memory().numTensors !== before) throw new Error('train.bench: the timed loops leaked tensors.');
if (step.tracingCount !== 1) throw new Error(`train.bench: the train step retraced (${step.tracingCount} traces).`);

const us = (v) => `${v.toFixed(0)} us`;
console.log(`MLP ${IN}-${H}-${OUT}, batch ${B}, Adam: traced train step ${us(t.traced.cpu)}, tfjs ${us(t.tfjs.cpu)} (CPU time; wall ${us(t.traced.wall)} vs ${us(t.tfjs.wall)})`);
const ok = ratioRow('traced train step / tfjs variableGrads + adam CPU time', { group: 'training', name: 'train-step-adam-mlp', backend: 'cpu', ef: t.traced.cpu, tfjs: t.tfjs.cpu, ratio: t.traced.cpu / t.tfjs.cpu, target: 0.8 });
process.exitCode = ok || process.env.BENCH_STRICT !== '1' ? 0 : 1;
