// Train steps against TensorFlow 2 Python (issue 31): the three nets of bench/train_steps.js, each an SGD step
// traced with jitCompile (and traced only), against the faster of TF's tf.function and tf.function(jit_compile)
// in the same run: TF serves timing rounds (bench/tf_train_steps.py) that alternate with EagerFlow's, so both see
// the same machine load, and each row's ratio is the median over rounds; CPU time per step is printed besides.
// The first step's loss must equal TF's; the compiled step's target is <= 0.8x TF's best.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const ef = require('eagerflow');
const { median, ratioRow, record, tensorFlowPython } = require('./harness');
const { NETS, dataOf, efStep, writeForPython } = require('./train_steps');

/**
 * Alternating rounds per net, and steps per round (each side). Single rounds' ratios spread widely on this kind of
 * machine (MLP 0.43-1.51 over 40 rounds, whose median was 0.78: the host's load moves both sides by up to 2x within
 * seconds), so the medians take 21 rounds (9 until 2026-11-28; ~7 s for all three nets).
 */
const ROUNDS = 21;
const CALLS = { conv: 40, mlp: 15, attention: 40 };

/** tf_train_steps.py on the nets' files: { losses: {net: loss0}, time(net, calls), close() }, or null without TF. */
async function tensorFlow() {
  const python = tensorFlowPython();
  if (python === null) {
    console.log('TensorFlow Python: not found (set EF_TF_PYTHON, or create .venv-tf with tensorflow_cpu==2.21.0); TF columns left out');
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-train-'));
  writeForPython(dir);
  const child = spawn(python, [path.join(__dirname, 'tf_train_steps.py'), dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const lines = readline.createInterface({ input: child.stdout });
  const waiting = [];
  const losses = {};
  let ready;
  const started = new Promise((resolve, reject) => (ready = { resolve, reject }));
  lines.on('line', (l) => {
    if (!l.startsWith('{')) return;
    const row = JSON.parse(l);
    if (row.loss0 !== undefined) {
      losses[row.name] = row.loss0;
      if (Object.keys(losses).length === Object.keys(NETS).length) ready.resolve();
    } else if (row.graph_us !== undefined) waiting.shift()?.resolve(row);
  });
  child.on('exit', (code) => {
    fs.rmSync(dir, { recursive: true, force: true });
    const err = new Error(`tf_train_steps.py exited with ${code}: ${stderr.trim().split('\n').slice(-1)[0]}`);
    ready.reject(err);
    waiting.splice(0).forEach((w) => w.reject(err));
  });
  try {
    await started;
  } catch (e) {
    console.log(`TensorFlow Python failed: ${e.message}; TF columns left out`);
    return null;
  }
  return {
    losses,
    time(net, calls) {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`time ${net} ${calls}\n`);
      });
    },
    close() {
      child.stdin.end('quit\n');
    },
  };
}

/** `calls` steps: median wall microseconds and CPU microseconds per step. */
function timeSteps(fn, calls) {
  const samples = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    fn();
    samples.push((performance.now() - t) * 1000);
  }
  const c = process.cpuUsage(c0);
  return { wall: median(samples), cpu: (c.user + c.system) / calls };
}

async function main() {
  const tf = await tensorFlow();
  let ok = true;
  try {
    for (const net of Object.keys(NETS)) {
      const { x: xd, y: yd } = dataOf(net);
      const x = ef.constant(xd, 'float32', NETS[net].x);
      const y = ef.constant(yd, 'int32', [NETS[net].x[0]]);
      const jit = efStep(ef, net, true);
      const traced = efStep(ef, net, false);
      const loss0 = jit.step(x, y);
      const loss0Traced = traced.step(x, y);
      const [a, b] = [loss0.item(), loss0Traced.item()];
      ef.dispose([loss0, loss0Traced]);
      const tfLoss = tf?.losses[net];
      for (const [what, v] of [['jitCompile', a], ['traced', b], ...(tfLoss !== undefined ? [['TensorFlow', tfLoss]] : [])]) {
        if (Math.abs(v - b) > 1e-4 * Math.max(1, Math.abs(b))) throw new Error(`train_steps.bench: ${net} first-step loss differs: ${what} ${v}, traced ${b}`);
      }
      for (let i = 0; i < 5; i++) jit.step(x, y).dispose();
      const efRounds = [];
      const tfRounds = [];
      for (let r = 0; r < ROUNDS; r++) {
        efRounds.push(timeSteps(() => jit.step(x, y).dispose(), CALLS[net]));
        if (tf !== null) tfRounds.push(await tf.time(net, CALLS[net]));
      }
      const tracedRounds = [];
      for (let r = 0; r < 3; r++) tracedRounds.push(timeSteps(() => traced.step(x, y).dispose(), 2));
      const efUs = median(efRounds.map((e) => e.wall));
      const tracedUs = median(tracedRounds.map((e) => e.wall));
      const cpu = median(efRounds.map((e) => e.cpu));
      if (tf !== null) {
        const graphUs = median(tfRounds.map((t) => t.graph_us));
        const xlaUs = median(tfRounds.map((t) => t.xla_us));
        const tfBest = Math.min(graphUs, xlaUs);
        const ratios = efRounds.map((e, k) => e.wall / Math.min(tfRounds[k].graph_us, tfRounds[k].xla_us));
        const cpuNote = `CPU per step: ef ${cpu.toFixed(0)} us, TF tf.function ${median(tfRounds.map((t) => t.graph_cpu_us)).toFixed(0)} us, TF XLA ${median(tfRounds.map((t) => t.xla_cpu_us)).toFixed(0)} us`;
        console.log(`${NETS[net].what}: first loss ${a.toFixed(6)} (TF ${tfLoss.toFixed(6)}); jitCompile ${efUs.toFixed(0)} us, traced ${tracedUs.toFixed(0)} us, TF tf.function ${graphUs.toFixed(0)} us, TF XLA ${xlaUs.toFixed(0)} us; ${cpuNote} (round ratios ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`);
        ok = ratioRow(`${net} train step, jitCompile / TF's best`, { group: 'training', name: `train-step-${net}`, backend: 'cpu', ef: efUs, tf: tfBest, ratio: efUs / tfBest, target: 0.8 }) && ok;
        record({ group: 'training', name: `train-step-${net}-traced`, backend: 'cpu', ef: tracedUs, tf: tfBest });
      } else console.log(`${NETS[net].what}: first loss ${a.toFixed(6)}; jitCompile ${efUs.toFixed(0)} us (CPU ${cpu.toFixed(0)} us), traced ${tracedUs.toFixed(0)} us`);
      ef.dispose([x, y, ...jit.vars, ...traced.vars]);
      jit.step.dispose();
      traced.step.dispose();
    }
  } finally {
    tf?.close();
  }
  return ok;
}

main().then(
  (ok) => (process.exitCode = ok || process.env.BENCH_STRICT !== '1' ? 0 : 1),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
