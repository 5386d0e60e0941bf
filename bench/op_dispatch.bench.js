// Ops added in issue 11 (erf, atan2, floormod, round, cumsum, reduceMin): eager dispatch vs the same raw tfjs op (target <= 1.25x), and a traced chain mixing old and new elementwise ops vs raw tfjs eager (target <= 0.3x).
'use strict';

const ef = require('eagerflow');
const tf = require('@tensorflow/tfjs-core');
const { measure, ratioRow } = require('./harness');

if (ef.internal.backend.tfjs.engine() !== tf.engine()) {
  throw new Error('op_dispatch.bench: eagerflow and @tensorflow/tfjs-core resolve to different engines; the comparison would be meaningless.');
}

const a = ef.constant([[0.5, -1.5], [2.25, -0.75]]);
const b = ef.constant([[1.5, 2], [-3, 0.5]]);
const ta = a.toTfjs();
const tb = b.toTfjs();

// Eager dispatch on 2x2 tensors: the wrapper's overhead is what differs (same kernels).
const PAIRS = {
  erf: [() => ef.math.erf(a).dispose(), () => tf.erf(ta).dispose()],
  atan2: [() => ef.atan2(a, b).dispose(), () => tf.atan2(ta, tb).dispose()],
  floormod: [() => ef.math.floormod(a, b).dispose(), () => tf.mod(ta, tb).dispose()],
  round: [() => ef.round(a).dispose(), () => tf.round(ta).dispose()],
  cumsum: [() => ef.cumsum(a, 1).dispose(), () => tf.cumsum(ta, 1).dispose()],
  reduceMin: [() => ef.reduceMin(a, 1).dispose(), () => tf.min(ta, 1).dispose()],
};

const before = tf.memory().numTensors;
const oks = [];
for (const [name, [efFn, tfFn]] of Object.entries(PAIRS)) {
  const us = measure({ ef: efFn, tfjs: tfFn }, { batch: 1000, rounds: 21, warmup: 8 });
  console.log(`eager ${name} 2x2: ef ${us.ef.cpu.toFixed(2)} us, tfjs ${us.tfjs.cpu.toFixed(2)} us (CPU time)`);
  oks.push(ratioRow('ef / tfjs cpu time', { group: 'eager dispatch (2x2)', name: `eager-${name}-2x2`, backend: 'cpu', ef: us.ef.cpu, tfjs: us.tfjs.cpu, ratio: us.ef.cpu / us.tfjs.cpu, target: 1.25 }));
}
if (tf.memory().numTensors !== before) throw new Error('op_dispatch.bench: the timed eager loops leaked tensors.');

// A 48-op chain on [256] mixing old (multiply, add, relu) and new (erf, floor, log1p) elementwise ops, the shape of
// bench/trace.bench.js's chain; CPU fusion runs it as one loop when traced.
const N = 256;
const x = ef.constant(Float32Array.from({ length: N }, (_, i) => Math.sin(i) * 2));
const tx = x.toTfjs();
function chainEf(v) {
  let y = v;
  for (let i = 0; i < 6; i++) {
    const e = ef.math.erf(ef.multiply(y, 0.9));
    const f = ef.floor(ef.multiply(y, 2));
    y = ef.math.log1p(ef.relu(ef.add(ef.add(e, ef.multiply(f, 0.125)), 0.5)));
  }
  return y;
}
function chainTf(v) {
  let y = v;
  for (let i = 0; i < 6; i++) {
    const e = tf.erf(tf.mul(y, 0.9));
    const f = tf.floor(tf.mul(y, 2));
    y = tf.log1p(tf.relu(tf.add(tf.add(e, tf.mul(f, 0.125)), 0.5)));
  }
  return y;
}
const traced = ef.trace(chainEf);
traced(x).dispose();
const want = tf.tidy(() => chainTf(tx).dataSync());
const got = traced(x).dataSync();
for (let i = 0; i < N; i++) if (want[i] !== got[i]) throw new Error(`op_dispatch.bench: the traced chain differs from tfjs at ${i}: ${got[i]} vs ${want[i]}`);
const beforeChain = tf.memory().numTensors;
const chain = measure({ traced: () => traced(x).dispose(), tfjs: () => tf.tidy(() => chainTf(tx)).dispose() }, { batch: 50, rounds: 15 });
if (tf.memory().numTensors !== beforeChain) throw new Error('op_dispatch.bench: the timed chain loops leaked tensors.');
console.log(`traced mixed chain (48 ops, [${N}]): ${chain.traced.cpu.toFixed(1)} us/call, tfjs eager ${chain.tfjs.cpu.toFixed(1)} us/call (CPU time)`);
oks.push(ratioRow('traced / tfjs eager CPU time', { group: 'traced chains', name: 'trace-chain-mixed-11', backend: 'cpu', ef: chain.traced.cpu, tfjs: chain.tfjs.cpu, ratio: chain.traced.cpu / chain.tfjs.cpu, target: 0.3 }));
process.exitCode = oks.every(Boolean) || process.env.BENCH_STRICT !== '1' ? 0 : 1;
