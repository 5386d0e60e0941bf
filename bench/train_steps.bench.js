// Train steps against TensorFlow 2 Python (issue 31): the three nets of bench/train_steps.js, each an SGD step
// traced with jitCompile (and traced only), against the faster of TF's tf.function and tf.function(jit_compile)
// in the same run. The first step's loss must equal TF's; the compiled step's target is <= 0.8x TF's best.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const ef = require('eagerflow');
const { measure, ratioRow, record, tensorFlowPython } = require('./harness');
const { NETS, dataOf, efStep, writeForPython } = require('./train_steps');

function runTensorFlow() {
  const python = tensorFlowPython();
  if (python === null) {
    console.log('TensorFlow Python: not found (set EF_TF_PYTHON, or create .venv-tf with tensorflow_cpu==2.21.0); TF columns left out');
    return {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-train-'));
  try {
    writeForPython(dir);
    const r = spawnSync(python, [path.join(__dirname, 'tf_train_steps.py'), dir], { encoding: 'utf8', timeout: 15 * 60 * 1000 });
    if (r.status !== 0) {
      console.log(`TensorFlow Python failed: ${(r.stderr || String(r.error)).trim().split('\n').slice(-1)[0]}; TF columns left out`);
      return {};
    }
    return Object.fromEntries(r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).map((row) => [row.name, row]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const tfRows = runTensorFlow();
let ok = true;
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
  const tfRow = tfRows[net];
  for (const [what, v] of [['jitCompile', a], ['traced', b], ...(tfRow ? [['TensorFlow', tfRow.loss0]] : [])]) {
    if (Math.abs(v - b) > 1e-4 * Math.max(1, Math.abs(b))) throw new Error(`train_steps.bench: ${net} first-step loss differs: ${what} ${v}, traced ${b}`);
  }
  const slow = net === 'mlp' ? { batch: 2, rounds: 7, warmup: 1 } : { batch: 5, rounds: 7, warmup: 1 };
  const t = measure({ jit: () => jit.step(x, y).dispose() }, net === 'mlp' ? { batch: 10, rounds: 11, warmup: 2 } : { batch: 20, rounds: 11, warmup: 2 });
  const tt = measure({ traced: () => traced.step(x, y).dispose() }, slow);
  const tfBest = tfRow ? Math.min(tfRow.graph_us, tfRow.xla_us ?? Infinity) : undefined;
  console.log(`${NETS[net].what}: first loss ${a.toFixed(6)} (TF ${tfRow ? tfRow.loss0.toFixed(6) : 'n/a'}); jitCompile ${t.jit.wall.toFixed(0)} us, traced ${tt.traced.wall.toFixed(0)} us${tfRow ? `, TF tf.function ${tfRow.graph_us.toFixed(0)} us, TF XLA ${tfRow.xla_us.toFixed(0)} us` : ''}`);
  if (tfBest !== undefined) {
    ok = ratioRow(`${net} train step, jitCompile / TF's best`, { group: 'training', name: `train-step-${net}`, backend: 'cpu', ef: t.jit.wall, tf: tfBest, ratio: t.jit.wall / tfBest, target: 0.8 }) && ok;
    record({ group: 'training', name: `train-step-${net}-traced`, backend: 'cpu', ef: tt.traced.wall, tf: tfBest });
  }
  ef.dispose([x, y, ...jit.vars, ...traced.vars]);
  jit.step.dispose();
  traced.step.dispose();
}
process.exitCode = ok || process.env.BENCH_STRICT !== '1' ? 0 : 1;
