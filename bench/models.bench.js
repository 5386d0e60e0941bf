// Real graph models (@vladmandic/human): blazeface, emotion and facemesh run by ef.loadFunction vs tfjs-converter's
// GraphModel.execute in one process on the same cpu backend; per-model times and the ratio (target <= 1.0x).
'use strict';

const path = require('node:path');
const ef = require('eagerflow');
const tf = require('@tensorflow/tfjs-core');
const tfc = require('@tensorflow/tfjs-converter');
const { MODELS_DIR, converterArtifacts: artifacts, measure, ratioRow } = require('./harness');

if (ef.internal.backend.tfjs.engine() !== tf.engine()) {
  throw new Error('models.bench: eagerflow and @tensorflow/tfjs-core resolve to different engines; the comparison would be meaningless.');
}


/** Seeded uniform [0, 1) values (mulberry32), so every run times the same input. */
function seeded(n, seed) {
  let a = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  });
}

const disposeAll = (y) => (Array.isArray(y) ? y.forEach((t) => t.dispose()) : y.dispose());

async function main() {
  const oks = [];
  const rows = [];
  for (const name of ['blazeface', 'emotion', 'facemesh']) {
    const g = await ef.loadFunction(path.join(MODELS_DIR, `${name}.json`));
    const model = await tfc.loadGraphModel(tf.io.fromMemory(artifacts(name)));
    const shape = g.inputSignature[0].shape.dims.map((d) => d ?? 1);
    const x = ef.constant(seeded(shape.reduce((p, d) => p * d, 1), 7), 'float32', shape);
    const tx = x.toTfjs();
    // Same values first (the test suite checks this per model; here it guards the timing).
    const a = [g(x)].flat();
    const b = [model.execute(tx)].flat();
    a.forEach((t, k) => {
      const d = tf.max(tf.abs(tf.sub(t.toTfjs(), b[k]))).dataSync()[0];
      if (!(d <= 1e-3 * Math.max(1, tf.max(tf.abs(b[k])).dataSync()[0]))) throw new Error(`models.bench: ${name} output ${k} differs from tfjs-converter by ${d}`);
    });
    a.forEach((t) => t.dispose());
    b.forEach((t) => t.dispose());
    const before = tf.memory().numTensors;
    const us = measure({ ef: () => disposeAll(g(x)), tfjs: () => disposeAll(model.execute(tx)) }, { batch: 1, rounds: 15, warmup: 3 });
    if (tf.memory().numTensors !== before) throw new Error(`models.bench: ${name} leaked tensors in the timed loop.`);
    rows.push(`${name} [${shape.join(',')}]: ef ${(us.ef.cpu / 1000).toFixed(2)} ms, tfjs-converter ${(us.tfjs.cpu / 1000).toFixed(2)} ms (CPU time per call)`);
    console.log(rows[rows.length - 1]);
    oks.push(ratioRow('ef / tfjs-converter cpu time', { group: 'real models (tfjs-converter graphs)', name: `model-${name}`, backend: 'cpu', ef: us.ef.cpu, converter: us.tfjs.cpu, ratio: us.ef.cpu / us.tfjs.cpu, target: 1.0 }));
    x.dispose();
    tx.dispose();
    g.dispose();
    model.dispose();
  }
  process.exitCode = oks.every(Boolean) || process.env.BENCH_STRICT !== '1' ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
