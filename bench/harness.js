// Shared timing helpers for bench/*.bench.js: interleaved batches, warm-up, medians, ratio lines.
'use strict';

const { performance } = require('node:perf_hooks');

/** Median of a numeric array. */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Times each variant in `variants` ({ name: () => void }, one call = one operation) in interleaved
 * batches of `batch` calls, rotating the order every round so drift and GC hit all variants alike.
 * Each batch is timed by this process's CPU time (process.cpuUsage) and by wall time: on a shared
 * machine other processes stretch wall time unevenly, while CPU time measures our own work.
 * Returns { name: { cpu, wall } }, medians in microseconds per call.
 */
function measure(variants, { batch = 1000, rounds = 31, warmup = 5 } = {}) {
  const names = Object.keys(variants);
  const samples = Object.fromEntries(names.map((n) => [n, { cpu: [], wall: [] }]));
  for (let r = 0; r < warmup + rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length];
      const fn = variants[name];
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) fn();
      const wall = ((performance.now() - t0) * 1000) / batch;
      const c = process.cpuUsage(c0);
      if (r >= warmup) {
        samples[name].cpu.push((c.user + c.system) / batch);
        samples[name].wall.push(wall);
      }
    }
  }
  return Object.fromEntries(names.map((n) => [n, { cpu: median(samples[n].cpu), wall: median(samples[n].wall), walls: samples[n].wall }]));
}

/**
 * The median over rounds of `a`'s wall time over `b`'s in the same round (`measure`'s results): each round runs both
 * back to back, so a slow stretch of the machine moves both sides of a round's ratio (the ratio of the two medians
 * takes each side's median from different rounds).
 */
function pairedRatio(a, b) {
  return median(a.walls.map((w, r) => w / b.walls[r]));
}

/**
 * Wall-time medians only ({ name: microseconds per call }), with the original defaults; kept for
 * benches written against it (bench/trace.bench.js). Prefer `measure` on shared machines.
 */
function compare(variants, { batch = 2000, rounds = 15, warmup = 3 } = {}) {
  const m = measure(variants, { batch, rounds, warmup });
  return Object.fromEntries(Object.entries(m).map(([n, t]) => [n, t.wall]));
}

/** Prints `name: what = N.NNx (target <= T)` and returns whether the target is met. */
function ratioLine(name, what, ratio, target) {
  const ok = ratio <= target;
  console.log(`${name}: ${what} = ${ratio.toFixed(2)}x (target <= ${target.toFixed(2)})${ok ? '' : '  OVER TARGET'}`);
  return ok;
}

/**
 * Records one side-by-side timing for bench/results.md: prints `BENCH-ROW {json}`, which
 * bench/run-all.js collects. `row` is { group, name, backend, ef, tfjs?, converter?, ort?, tf? }, each
 * time in microseconds per call (omit the systems not measured), plus optional { ratio, target }.
 */
function record(row) {
  console.log(`BENCH-ROW ${JSON.stringify(row)}`);
}

/**
 * A ratio with a target, printed as its `name: what = N.NNx (target <= T)` line and recorded for results.md:
 * `row` is record's row with its name, ratio and target. Returns whether the target is met.
 */
function ratioRow(what, row) {
  const ok = ratioLine(row.name, what, row.ratio, row.target);
  record(row);
  return ok;
}

/** The real TensorFlow graph models @vladmandic/human ships (tfjs-converter model.json + weight shards). */
const MODELS_DIR = require('node:path').join(__dirname, '..', 'node_modules', '@vladmandic', 'human', 'models');

/** tfjs-converter's view of model `name`: its model.json plus its weights, in memory. */
function converterArtifacts(name) {
  const fs = require('node:fs');
  const path = require('node:path');
  const json = JSON.parse(fs.readFileSync(path.join(MODELS_DIR, `${name}.json`), 'utf8'));
  const data = Buffer.concat(json.weightsManifest.flatMap((g) => g.paths.map((p) => fs.readFileSync(path.join(MODELS_DIR, p)))));
  return { ...json, weightSpecs: json.weightsManifest.flatMap((g) => g.weights), weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.length) };
}

/** A TensorFlow Python: EF_TF_PYTHON, /work/main/.venv-tf or ./.venv-tf; null when none is there. */
function tensorFlowPython() {
  const fs = require('node:fs');
  const candidates = [process.env.EF_TF_PYTHON, '/work/main/.venv-tf/bin/python', require('node:path').join(__dirname, '..', '.venv-tf', 'bin', 'python')];
  return candidates.find((p) => p && fs.existsSync(p)) ?? null;
}

/**
 * The raw onnxruntime-node sessions the benches compare against, built with the options EagerFlow's heavy compiled
 * sessions use (packages/function/src/onnx/runtime.ts sessionOptions: threads, spinning and its bound), read from the
 * build so the two cannot drift apart.
 */
function rawOrtSession(model) {
  const path = require('node:path');
  const os = require('node:os');
  const { sessionOptions } = require(path.join(path.dirname(require.resolve('@eagerflow/function')), 'onnx', 'runtime.js'));
  const { binding, initOrt } = require('onnxruntime-node/dist/binding');
  initOrt();
  const session = new binding.InferenceSession();
  session.loadModel(model.buffer, model.byteOffset, model.byteLength, sessionOptions(os.availableParallelism()));
  return session;
}

module.exports = { median, measure, pairedRatio, compare, ratioLine, record, ratioRow, MODELS_DIR, converterArtifacts, tensorFlowPython, rawOrtSession };
