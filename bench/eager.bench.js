// Eager overhead: ef.add on 2x2 tensors vs raw tfjs tf.add on the same engine (target <= 1.25x).
'use strict';

const ef = require('eagerflow');
const tf = require('@tensorflow/tfjs-core');
const { measure, ratioRow } = require('./harness');

if (ef.internal.backend.tfjs.engine() !== tf.engine()) {
  throw new Error('eager.bench: eagerflow and @tensorflow/tfjs-core resolve to different engines; the comparison would be meaningless.');
}

const a = ef.constant([[1, 2], [3, 4]]);
const b = ef.constant([[5, 6], [7, 8]]);
const ta = a.toTfjs();
const tb = b.toTfjs();

const before = tf.memory().numTensors;
const engine = tf.engine();
const us = measure({
  ef: () => ef.add(a, b).dispose(),
  tfjs: () => tf.add(ta, tb).dispose(),
  // The floor: the engine call both of the above end in, without any op-level work.
  runKernel: () => engine.runKernel('Add', { a: ta, b: tb }, {}).dispose(),
});
if (tf.memory().numTensors !== before) throw new Error('eager.bench: the timed loops leaked tensors.');

const f = (t) => `${t.cpu.toFixed(2)} us cpu / ${t.wall.toFixed(2)} us wall`;
console.log(`eager add 2x2 per op: ef ${f(us.ef)}; tf.add ${f(us.tfjs)}; engine.runKernel floor ${f(us.runKernel)}`);
console.log(`eager-add-2x2 (info): wall-time ratio ef/tf ${(us.ef.wall / us.tfjs.wall).toFixed(2)}x; ef.add / engine.runKernel cpu time ${(us.ef.cpu / us.runKernel.cpu).toFixed(2)}x`);
const ok = ratioRow('ef.add / tf.add cpu time', { group: 'eager dispatch (2x2)', name: 'eager-add-2x2', backend: 'cpu', ef: us.ef.cpu, tfjs: us.tfjs.cpu, ratio: us.ef.cpu / us.tfjs.cpu, target: 1.25 });
process.exitCode = ok || process.env.BENCH_STRICT !== '1' ? 0 : 1;
