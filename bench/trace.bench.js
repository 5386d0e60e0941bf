// Traced function speed: a 48-op elementwise chain vs raw tfjs eager, one-op call overhead, tracing cost.
'use strict';

const ef = require('eagerflow');
const tf = require('@tensorflow/tfjs-core');
const { measure, ratioLine, ratioRow } = require('./harness');

// 48 cheap elementwise ops on [256]: (multiply, add, relu) x 16, constants made once.
const N = 256;
const x = ef.constant(Float32Array.from({ length: N }, (_, i) => Math.sin(i) * 2));
const tx = x.toTfjs();
const c1 = ef.constant(0.9);
const c2 = ef.constant(0.1);
const t1 = c1.toTfjs();
const t2 = c2.toTfjs();

function chainEf(v) {
  let y = v;
  for (let i = 0; i < 16; i++) y = ef.relu(ef.add(ef.multiply(y, c1), c2));
  return y;
}
function chainTf(v) {
  let y = v;
  for (let i = 0; i < 16; i++) y = tf.relu(tf.add(tf.mul(y, t1), t2));
  return y;
}

const traced = ef.trace(chainEf);
traced(x).dispose();
const ref = tf.tidy(() => chainTf(tx).dataSync());
const got = traced(x).dataSync();
for (let i = 0; i < N; i++) if (ref[i] !== got[i]) throw new Error(`trace.bench: traced chain differs from tfjs at ${i}: ${got[i]} vs ${ref[i]}`);

const before = tf.memory().numTensors;
const chain = measure({ traced: () => traced(x).dispose(), tfjs: () => tf.tidy(() => chainTf(tx)).dispose() }, { batch: 100, rounds: 15 });
const one = ef.trace((v) => ef.multiply(v, c1));
one(x).dispose();
const call = measure({ tracedOneOp: () => one(x).dispose(), eagerOneOp: () => ef.multiply(x, c1).dispose() }, { batch: 1000, rounds: 15 });
if (tf.memory().numTensors !== before) throw new Error('trace.bench: the timed loops leaked tensors.');

// Tracing cost per op: a fresh ef.trace of the 48-op chain each time, up to a ready concrete function.
const spec = new ef.TensorSpec([N], 'float32');
const tracing = measure({ trace48: () => ef.trace((v) => chainEf(v)).getConcreteFunction(spec).dispose() }, { batch: 20, rounds: 15 });

const us = (v) => `${v.toFixed(1)} us`;
console.log(`traced 48-op chain: ${us(chain.traced.cpu)}/call, tfjs eager ${us(chain.tfjs.cpu)}/call (CPU time; wall ${us(chain.traced.wall)} vs ${us(chain.tfjs.wall)})`);
console.log(`one-op call: traced ${us(call.tracedOneOp.cpu)}, eager ${us(call.eagerOneOp.cpu)} (CPU time)`);
const ok1 = ratioRow('traced / tfjs eager CPU time', { group: 'traced chains', name: 'trace-chain-48', backend: 'cpu', ef: chain.traced.cpu, tfjs: chain.tfjs.cpu, ratio: chain.traced.cpu / chain.tfjs.cpu, target: 0.05 });
const ok2 = ratioLine('trace-call-1op', 'traced one-op call / eager op CPU time', call.tracedOneOp.cpu / call.eagerOneOp.cpu, 1.2);
const perOp = tracing.trace48.cpu / 48;
const ok3 = perOp <= 30;
console.log(`trace-cost: tracing = ${perOp.toFixed(1)} us/op CPU time, wall ${(tracing.trace48.wall / 48).toFixed(1)} us/op (target <= 30.0)${ok3 ? '' : '  OVER TARGET'}`);
process.exitCode = (ok1 && ok2 && ok3) || process.env.BENCH_STRICT !== '1' ? 0 : 1;
