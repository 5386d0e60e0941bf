// Keras applications exported by TensorFlow 2.21 as SavedModels (issue 31): MobileNetV2, ResNet50 and EfficientNetB0
// at 224x224 (weights=None: the bench has no network; keras.utils.set_random_seed(0)), exported by
// bench/tf_keras_apps.py into the git-ignored bench/.cache/keras_apps (once; later runs reuse them). EagerFlow loads
// each with ef.loadFunction(dir, { jitCompile: true }) and runs it at batch 1 and 8: logits equal TF's (1e-5 absolute,
// 1e-4 of their scale), and
// time per call against the faster of TF's tf.function and tf.function(jit_compile=True) on the same SavedModel,
// rounds alternating between the two processes (target <= 1.0x). A fresh process that loads and runs the compiled
// MobileNetV2 measures the first (compiling) call (target < 300 ms) and its peak RSS against TF's (target <= 0.5x),
// medians of three fresh processes each.
// Without a TensorFlow Python the rows are skipped with a message.
// Run: node bench/keras_apps.bench.js [model ...]
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { spawn, spawnSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { median, ratioLine, ratioRow, tensorFlowPython } = require('./harness');

const CACHE = path.join(__dirname, '.cache', 'keras_apps');
const PY = path.join(__dirname, 'tf_keras_apps.py');
const APPS = ['MobileNetV2', 'ResNet50', 'EfficientNetB0'];
const PIXELS = 224 * 224 * 3;
/** Alternating rounds per (model, batch) and calls per round: enough for a median on a shared machine, ~1 min a model. */
const ROUNDS = { 1: 5, 8: 5 };
const CALLS = { 1: 5, 8: 2 };
/** Fresh processes (each side) for the first-call and peak-RSS rows: their medians are the rows. */
const FRESH = 3;

function readF32(file) {
  const b = fs.readFileSync(file);
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

/** The child mode: a fresh process loads `dir`, runs the compiled function at batch 1, prints first-call ms and peak RSS. */
async function rssChild(dir) {
  const ef = require('eagerflow');
  const f = await ef.loadFunction(dir, { jitCompile: true });
  const x = ef.constant(readF32(path.join(CACHE, 'input.bin')).subarray(0, PIXELS), 'float32', [1, 224, 224, 3]);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f(x).dispose();
  const firstMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  for (let i = 0; i < 5; i++) f(x).dispose();
  console.log(JSON.stringify({ firstMs, firstCpuMs: (c.user + c.system) / 1000, maxRssKb: peakRssKb() }));
}

/**
 * This process's own peak RSS in kB: /proc/self/status VmHWM (the high-water mark of its address space, new at
 * exec). process.resourceUsage().maxRSS (getrusage) is kept across fork and exec on Linux: a child spawned by this
 * bench read the parent's peak (359 MB three times in a row, against 250-265 MB run alone).
 */
function peakRssKb() {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.existsSync('/proc/self/status') ? fs.readFileSync('/proc/self/status', 'utf8') : '');
  return m ? Number(m[1]) : process.resourceUsage().maxRSS;
}

/** tf_keras_apps.py serve: one JSON answer per `time NAME BATCH ROUNDS` line. */
function tensorFlowServer(python) {
  const child = spawn(python, [PY, 'serve', CACHE], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (l) => l.startsWith('{') && waiting.shift()?.resolve(JSON.parse(l)));
  child.on('exit', (code) => waiting.splice(0).forEach((w) => w.reject(new Error(`tf_keras_apps.py serve exited with ${code}`))));
  return {
    time(name, batch, calls) {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`time ${name} ${batch} ${calls}\n`);
      });
    },
    /** Resolves when the server has exited (its teardown would otherwise run beside the fresh-process rows). */
    close() {
      const exited = child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.on('exit', resolve));
      child.stdin.end('quit\n');
      return exited;
    },
  };
}

function maxAbsDiff(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

async function main() {
  const python = tensorFlowPython();
  if (python === null) {
    console.log('keras_apps: skipped, no TensorFlow Python (set EF_TF_PYTHON, or create .venv-tf with tensorflow_cpu==2.21.0): the SavedModels come from TF itself');
    return true;
  }
  const apps = process.argv.length > 2 ? process.argv.slice(2) : APPS;
  const exp = spawnSync(python, [PY, 'export', CACHE, ...apps], { encoding: 'utf8', timeout: 30 * 60 * 1000 });
  if (exp.status !== 0) {
    console.log(`keras_apps: skipped, exporting the Keras applications failed: ${(exp.stderr || String(exp.error)).trim().split('\n').slice(-1)[0]}`);
    return true;
  }
  const ef = require('eagerflow');
  const input = readF32(path.join(CACHE, 'input.bin'));
  const tf = tensorFlowServer(python);
  let ok = true;
  try {
    for (const name of apps) {
      const dir = path.join(CACHE, name);
      const f = await ef.loadFunction(dir, { jitCompile: true });
      for (const batch of [1, 8]) {
        const x = ef.constant(input.subarray(0, batch * PIXELS), 'float32', [batch, 224, 224, 3]);
        const t0 = performance.now();
        const y = f(x);
        const firstMs = performance.now() - t0;
        const want = readF32(path.join(dir, `tf_out${batch}.bin`));
        const err = maxAbsDiff(y.dataSync(), want);
        const rel = err / maxAbsDiff(want, new Float32Array(want.length));
        y.dispose();
        // The logits of randomly initialized nets are small (MobileNetV2's about 1e-11): equal to 1e-5 absolutely, and
        // to 1e-4 of their own scale (float32 through 50-170 layers, in other summation orders than TF's oneDNN).
        if (!(err <= 1e-5 && rel <= 1e-4)) throw new Error(`keras_apps.bench: ${name} batch ${batch}: max |EagerFlow - TF| = ${err} (${rel} of the largest logit), expected <= 1e-5 and <= 1e-4 relative`);
        for (let i = 0; i < 2; i++) f(x).dispose();
        const efRounds = [];
        const efCpu = [];
        const tfRounds = [];
        for (let r = 0; r < ROUNDS[batch]; r++) {
          const calls = [];
          const c0 = process.cpuUsage();
          for (let i = 0; i < CALLS[batch]; i++) {
            const t = performance.now();
            f(x).dispose();
            calls.push((performance.now() - t) * 1000);
          }
          const c = process.cpuUsage(c0);
          efRounds.push(median(calls));
          efCpu.push((c.user + c.system) / CALLS[batch]);
          tfRounds.push(await tf.time(name, batch, CALLS[batch]));
        }
        x.dispose();
        const efUs = median(efRounds);
        const graphUs = median(tfRounds.map((t) => t.graph_us));
        const xlaUs = median(tfRounds.map((t) => t.xla_us));
        const tfBest = Math.min(graphUs, xlaUs);
        const ratios = efRounds.map((e, k) => e / Math.min(tfRounds[k].graph_us, tfRounds[k].xla_us));
        const ms = (v) => `${(v / 1000).toFixed(1)} ms`;
        // CPU time (all threads of each process) besides: on a loaded machine wall time also measures how each runtime's
        // threads fare against the other processes (ONNX Runtime's sleep when idle, TF's Eigen pool spins).
        const cpuNote = `CPU time per call: ef ${ms(median(efCpu))}, TF tf.function ${ms(median(tfRounds.map((t) => t.graph_cpu_us)))}, TF XLA ${ms(median(tfRounds.map((t) => t.xla_cpu_us)))}`;
        console.log(`${name} batch ${batch}: ef jitCompile ${ms(efUs)}, TF tf.function ${ms(graphUs)}, TF XLA ${ms(xlaUs)}; ${cpuNote} (max |ef - TF| = ${err.toExponential(1)}, ${rel.toExponential(1)} of the largest logit; first call ${firstMs.toFixed(0)} ms; round ratios ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`);
        ok = ratioRow(`${name} batch ${batch}, jitCompile / TF's best`, { group: 'keras applications (SavedModel)', name: `keras-${name.toLowerCase()}-b${batch}`, backend: 'cpu', ef: efUs, tf: tfBest, ratio: efUs / tfBest, target: 1.0 }) && ok;
      }
      f.getConcreteFunction?.().dispose?.();
    }
  } finally {
    await tf.close();
  }
  if (apps.includes('MobileNetV2')) {
    const dir = path.join(CACHE, 'MobileNetV2');
    const last = (r) => JSON.parse(r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).slice(-1)[0] ?? 'null');
    // Fresh processes, one at a time, alternating EagerFlow and TF; medians of FRESH runs each (one fresh process is one
    // sample of a loaded machine's scheduling: its first call read 125-1,050 ms on this shared 2-core machine).
    const efRuns = [];
    const tfRuns = [];
    for (let r = 0; r < FRESH; r++) {
      const efChild = spawnSync(process.execPath, [__filename, '--rss', dir], { encoding: 'utf8', timeout: 10 * 60 * 1000 });
      const tfChild = spawnSync(python, [PY, 'rss', CACHE, 'MobileNetV2'], { encoding: 'utf8', timeout: 10 * 60 * 1000 });
      const e = last(efChild);
      const t = last(tfChild);
      if (e === null || t === null) throw new Error(`keras_apps.bench: the RSS processes failed: ${efChild.stderr || ''}${tfChild.stderr || ''}`);
      efRuns.push(e);
      tfRuns.push(t);
    }
    const firstMs = median(efRuns.map((e) => e.firstMs));
    const efRss = median(efRuns.map((e) => e.maxRssKb));
    const tfRss = median(tfRuns.map((t) => t.max_rss_kb));
    const list = (xs, f) => xs.map(f).join(', ');
    console.log(`MobileNetV2 in ${FRESH} fresh processes: first (compiling) call ${list(efRuns, (e) => e.firstMs.toFixed(0))} ms (CPU ${list(efRuns, (e) => e.firstCpuMs.toFixed(0))} ms); peak RSS ${list(efRuns, (e) => (e.maxRssKb / 1024).toFixed(0))} MB, TF ${list(tfRuns, (t) => (t.max_rss_kb / 1024).toFixed(0))} MB`);
    // Milliseconds, not a ratio: printed in ratioLine's form with its unit (bench/run-all.js summarizes either).
    const firstOk = firstMs <= 300;
    console.log(`keras-mobilenetv2-first-call: first (compiling) call in a fresh process = ${firstMs.toFixed(1)} ms (target <= 300.0)${firstOk ? '' : '  OVER TARGET'}`);
    ok = ratioLine('keras-mobilenetv2-rss', 'peak RSS of a process that loads and runs it, ef / TF', efRss / tfRss, 0.5) && firstOk && ok;
  }
  return ok;
}

if (process.argv[2] === '--rss') {
  rssChild(process.argv[3]).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().then(
    (ok) => (process.exitCode = ok || process.env.BENCH_STRICT !== '1' ? 0 : 1),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
