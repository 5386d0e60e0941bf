// jitCompile (ONNX Runtime) speed: matmul 256 and conv2d vs a raw onnxruntime-node session on the same
// ONNX model (ef.toOnnx) and vs EagerFlow on tfjs-cpu; the 48-op chain compiled vs the fused CPU path.
'use strict';

const ef = require('eagerflow');
const { binding } = require('onnxruntime-node/dist/binding');
const ort = require('onnxruntime-node');
const os = require('node:os');
const { measure, ratioLine, record } = require('./harness');

function rawSession(model) {
  require('onnxruntime-node/dist/binding').initOrt();
  const s = new binding.InferenceSession();
  s.loadModel(model.buffer, model.byteOffset, model.byteLength, { intraOpNumThreads: os.availableParallelism(), interOpNumThreads: 1, graphOptimizationLevel: 'all', extra: { session: { intra_op: { allow_spinning: '0' } } } });
  return s;
}

function workload(name, fn, shapes, batch, targets) {
  const spec = shapes.map((s) => new ef.TensorSpec(s, 'float32'));
  const plain = ef.trace(fn, { inputSignature: spec });
  const compiled = ef.trace(fn, { inputSignature: spec, jitCompile: true });
  const args = shapes.map((s, k) => ef.random.normal(s, { seed: 7 + k }));
  const model = ef.toOnnx(plain);
  const session = rawSession(model);
  const feeds = Object.fromEntries(args.map((a, k) => [`in${k}`, new ort.Tensor('float32', a.dataSync(), a.shape.asList())]));
  const fetches = { out0: null };
  const a = compiled(...args);
  const b = plain(...args);
  const [da, db] = [a.dataSync(), b.dataSync()];
  let err = 0;
  for (let i = 0; i < da.length; i++) err = Math.max(err, Math.abs(da[i] - db[i]));
  a.dispose();
  b.dispose();
  const m = measure(
    {
      ef_jit: () => compiled(...args).dispose(),
      raw_ort: () => session.run(feeds, fetches, {}),
      ef_cpu: () => plain(...args).dispose(),
    },
    batch,
  );
  console.log(`${name}: ef jitCompile ${m.ef_jit.wall.toFixed(1)} us, raw onnxruntime-node ${m.raw_ort.wall.toFixed(1)} us, ef on tfjs-cpu ${m.ef_cpu.wall.toFixed(1)} us (max |jit - cpu| = ${err.toExponential(2)})`);
  ratioLine(`${name}_jit_vs_ort`, 'ef jitCompile / raw onnxruntime-node session', m.ef_jit.wall / m.raw_ort.wall, targets[0]);
  ratioLine(`${name}_jit_vs_cpu`, 'ef jitCompile / ef on tfjs-cpu', m.ef_jit.wall / m.ef_cpu.wall, targets[1]);
  session.dispose();
}

workload('matmul256', (x, w) => ef.matmul(x, w), [[256, 256], [256, 256]], { batch: 5, rounds: 9, warmup: 2 }, [1.2, 0.05]);
workload('conv2d', (x, f) => ef.nn.conv2d(x, f, 1, 'SAME'), [[1, 64, 64, 32], [3, 3, 32, 32]], { batch: 3, rounds: 7, warmup: 2 }, [1.2, 0.05]);

// The 48-op chain on [256]: compiled vs today's fused CPU path.
const c1 = ef.constant(0.9);
const c2 = ef.constant(0.1);
const chain = (v) => {
  let y = v;
  for (let i = 0; i < 16; i++) y = ef.relu(ef.add(ef.multiply(y, c1), c2));
  return y;
};
const x = ef.constant(Float32Array.from({ length: 256 }, (_, i) => Math.sin(i) * 2));
const fused = ef.trace(chain);
const jit = ef.trace(chain, { jitCompile: true });
fused(x).dispose();
jit(x).dispose();
const m = measure({ jit: () => jit(x).dispose(), fused: () => fused(x).dispose() }, { batch: 500, rounds: 15, warmup: 3 });
console.log(`chain48: compiled ${m.jit.wall.toFixed(1)} us, fused CPU ${m.fused.wall.toFixed(1)} us`);
ratioLine('chain48_jit_vs_fused', 'compiled / fused CPU path', m.jit.wall / m.fused.wall, 1.0);

// ---- issue 19c: a traced train step of a small conv net, compiled vs uncompiled (kept as one block for merging) ----
/**
 * conv 3x3 (1 -> 8) SAME, relu, max pool 2x2, dense to 10 classes, softmax cross-entropy, SGD on Variables,
 * with the tape inside the traced function: compiled, forward, backward (conv2d_backprop_filter,
 * max_pool_grad, ...) and the update math run as one ONNX Runtime session (variable reads/writes in JS).
 */
function convTrainStepRows() {
  const batch = 16;
  const init = (n, scale, a) => Float32Array.from({ length: n }, (_, i) => scale * Math.sin(a * i + 0.3));
  const net = () => ({
    filter: new ef.Variable(ef.constant(init(72, 0.3, 1.7), 'float32', [3, 3, 1, 8])),
    bias: new ef.Variable(ef.zeros([8])),
    dense: new ef.Variable(ef.constant(init(14 * 14 * 8 * 10, 0.02, 2.3), 'float32', [14 * 14 * 8, 10])),
  });
  const stepOf = (v, jitCompile) =>
    ef.trace((x, y) => {
      const tape = new ef.GradientTape();
      const loss = tape.record(() => {
        const h = ef.relu(ef.nn.biasAdd(ef.nn.conv2d(x, v.filter, 1, 'SAME'), v.bias));
        const p = ef.nn.maxPool(h, 2, 2, 'VALID');
        const logits = ef.matmul(ef.reshape(p, [batch, 14 * 14 * 8]), v.dense);
        return ef.reduceMean(ef.nn.softmaxCrossEntropyWithLogits(y, logits));
      });
      const vars = [v.filter, v.bias, v.dense];
      const grads = tape.gradient(loss, vars);
      vars.forEach((w, k) => w.assignSub(ef.multiply(grads[k], 0.05)));
      return loss;
    }, { jitCompile });
  const [va, vb] = [net(), net()];
  const plain = stepOf(va, false);
  const jit = stepOf(vb, true);
  const x = ef.constant(init(batch * 28 * 28, 1, 0.77), 'float32', [batch, 28, 28, 1]);
  const y = ef.oneHot(ef.constant(Int32Array.from({ length: batch }, (_, i) => (i * 7) % 10), 'int32', [batch]), 10);
  // Same start, same data: the losses of the first steps agree (checked before timing).
  const la = plain(x, y);
  const lb = jit(x, y);
  const diff = Math.abs(la.dataSync()[0] - lb.dataSync()[0]);
  [la, lb].forEach((t) => t.dispose());
  const segments = (jit.getConcreteFunction(x, y).experimentalGetCompilerIr().match(/onnx_segment/g) || []).length;
  const m = measure({ jit: () => jit(x, y).dispose(), plain: () => plain(x, y).dispose() }, { batch: 3, rounds: 9, warmup: 2 });
  console.log(`conv_train_step (batch ${batch}, 28x28x1, conv8-relu-maxpool-dense10, xent, SGD): compiled ${m.jit.wall.toFixed(0)} us, uncompiled (tfjs-cpu) ${m.plain.wall.toFixed(0)} us = ${(m.jit.wall / m.plain.wall).toFixed(4)}x; ${segments} ONNX segment(s); |first loss diff| = ${diff.toExponential(2)}`);
  const ratio = m.jit.wall / m.plain.wall;
  ratioLine('conv_train_step_jit_vs_traced', 'a traced train step of a small conv net, compiled / uncompiled', ratio, 0.2);
  const name = `train step, small conv net (batch ${batch}, 28x28x1)`;
  record({ group: 'compile', name: `${name}, jitCompile`, backend: 'onnxruntime-node', ef: m.jit.wall, ratio, target: 0.2 });
  record({ group: 'compile', name: `${name}, uncompiled`, backend: 'cpu', ef: m.plain.wall });
  [plain, jit].forEach((f) => f.dispose());
  [x, y].forEach((t) => t.dispose());
  [va, vb].forEach((v) => Object.values(v).forEach((w) => w.dispose()));
}

convTrainStepRows();
