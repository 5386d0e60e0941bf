// Costs of the reliability checks (issue 17): setShape's run-time check per call; loading 1e5 edges and 20k callbacks.
'use strict';

const ef = require('eagerflow');
const { measure, ratioLine } = require('./harness');

// A 48-op fused chain on [256]; one variant asserts its input shape with setShape (an ensure_shape
// node checked every call), the other is traced for the static shape directly.
const N = 256;
const x = ef.constant(Float32Array.from({ length: N }, (_, i) => Math.cos(i)));
function chain(v) {
  let y = v;
  for (let i = 0; i < 16; i++) y = ef.relu(ef.add(ef.multiply(y, 0.9), 0.1));
  return y;
}
const plain = ef.trace(chain, { inputSignature: [new ef.TensorSpec([N])] });
const asserted = ef.trace((v) => {
  v.setShape([N]);
  return chain(v);
}, { inputSignature: [new ef.TensorSpec([null])] });
plain(x).dispose();
asserted(x).dispose();
const a = plain(x).dataSync();
const b = asserted(x).dataSync();
for (let i = 0; i < N; i++) if (a[i] !== b[i]) throw new Error(`reliability.bench: asserted chain differs at ${i}`);
const before = ef.memory().numTensors;
// ~10 us calls: 3000 per sample, so CPU-time samples of ~30 ms (with 200, one run read 1.34x and the next 0.82x).
const m = measure({ plain: () => plain(x).dispose(), asserted: () => asserted(x).dispose() }, { batch: 3000, rounds: 21 });
if (ef.memory().numTensors !== before) throw new Error('reliability.bench: the timed loops leaked tensors.');
console.log(`48-op chain: plain ${m.plain.cpu.toFixed(1)} us/call, with a setShape check ${m.asserted.cpu.toFixed(1)} us/call (CPU time)`);
const ok1 = ratioLine('setshape-check', 'chain with setShape check / without, CPU time', m.asserted.cpu / m.plain.cpu, 1.15);

// Loading a topology whose Identity has 1e5 control inputs (quadratic ordering took ~180 s).
const saved = ef.saveFunction(ef.trace((v) => ef.add(v, 1), { inputSignature: [new ef.TensorSpec([2])] }));
const id = saved.modelTopology.node.find((n) => n.op === 'Identity');
for (let i = 0; i < 1e5; i++) id.input.push(`^${id.input[0]}`);
const times = [];
for (let r = 0; r < 5; r++) {
  const t0 = process.hrtime.bigint();
  const f = ef.loadFunction(saved);
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  f.dispose();
}
times.sort((p, q) => p - q);
const ms = times[2];
const ok2 = ms <= 1000;
console.log(`load-edges-1e5: loading 1e5 control edges = ${ms.toFixed(1)} ms (target <= 1000)${ok2 ? '' : '  OVER TARGET'}`);

// A function with 20k stateful host callbacks (the issue measured 5.8 s to load).
const inc = ef.registerHostFunction('bench.reliability.inc', (v) => v);
const many = ef.trace((v) => {
  let y = v;
  for (let i = 0; i < 20000; i++) y = ef.numpyFunction(inc, [y], 'float32', { stateful: true });
  return y;
}, { inputSignature: [new ef.TensorSpec([2])] });
const manySaved = ef.saveFunction(many);
many.dispose();
const t0 = process.hrtime.bigint();
const loadedMany = ef.loadFunction(manySaved);
const manyMs = Number(process.hrtime.bigint() - t0) / 1e6;
const y = loadedMany([1, 2]);
if (y.dataSync()[1] !== 2) throw new Error('reliability.bench: the loaded callback chain gave a wrong value');
y.dispose();
loadedMany.dispose();
const ok3 = manyMs <= 3000;
console.log(`load-callbacks-20k: loading 20k stateful callbacks = ${manyMs.toFixed(0)} ms (target <= 3000)${ok3 ? '' : '  OVER TARGET'}`);
process.exitCode = (ok1 && ok2 && ok3) || process.env.BENCH_STRICT !== '1' ? 0 : 1;
