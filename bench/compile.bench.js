// jitCompile (ONNX Runtime) speed: matmul 256 and conv2d vs a raw onnxruntime-node session on the same
// ONNX model (ef.toOnnx) and vs EagerFlow on tfjs-cpu; the 48-op chain compiled vs the fused CPU path.
'use strict';

const ef = require('eagerflow');
const ort = require('onnxruntime-node');
const { MODELS_DIR, converterArtifacts, measure, pairedRatio, ratioLine, rawOrtSession, record, tensorFlowPython } = require('./harness');

/**
 * `kernel` (optional): tfjs-cpu's own kernel for the workload, timed as the `_jit_vs_cpu` reference where ef on cpu no
 * longer runs it (matmul: ef's cpu matmul is its own WebAssembly loop, ~7x tfjs-cpu's BatchMatMul, since the 0.05x bound
 * was set against that kernel); ef on cpu is printed either way.
 */
function workload(name, fn, shapes, batch, targets, kernel) {
  const spec = shapes.map((s) => new ef.TensorSpec(s, 'float32'));
  const plain = ef.trace(fn, { inputSignature: spec });
  const compiled = ef.trace(fn, { inputSignature: spec, jitCompile: true });
  const args = shapes.map((s, k) => ef.random.normal(s, { seed: 7 + k }));
  const model = ef.toOnnx(plain);
  const session = rawOrtSession(model);
  const feeds = Object.fromEntries(args.map((a, k) => [`in${k}`, new ort.Tensor('float32', a.dataSync(), a.shape.asList())]));
  const fetches = { out0: null };
  const a = compiled(...args);
  const b = plain(...args);
  const [da, db] = [a.dataSync(), b.dataSync()];
  let err = 0;
  for (let i = 0; i < da.length; i++) err = Math.max(err, Math.abs(da[i] - db[i]));
  a.dispose();
  b.dispose();
  // V8 optimizes EagerFlow's call path (argument flattening, signature lookup, the plan) only after a few
  // thousand calls: a compiled [8,8] matmul took 50 us a call for the first 1,000 calls and 12 us from the
  // 4,000th on (the raw session: 7.5 us throughout). A long-running program sees the latter, so the call path
  // is warmed first on the same function at [8,8] (5,000 calls, ~60 ms), then the workload itself.
  const warm = ef.trace(fn, { jitCompile: true });
  const small = shapes.map((s) => ef.ones(s.map((d) => Math.min(d, 8))));
  for (let i = 0; i < 5000; i++) warm(...small).dispose();
  small.forEach((t) => t.dispose());
  for (let i = 0; i < 20; i++) {
    compiled(...args).dispose();
    session.run(feeds, fetches, {});
  }
  // jit vs raw ORT: the ratio with a target of 1.2 on kernels of about 1 ms, so many interleaved samples (with
  // few, one run read 1.21x and the next 1.01x); ef on tfjs-cpu (~40-90 ms a call) is timed on its own.
  const close = measure({ ef_jit: () => compiled(...args).dispose(), raw_ort: () => session.run(feeds, fetches, {}) }, { batch: 10, rounds: 21, warmup: 3 });
  const raw = kernel === undefined ? null : kernel(args);
  const m = { ...close, ...measure({ ef_cpu: () => plain(...args).dispose(), ...(raw === null ? {} : { tfjs_cpu: () => raw.run().dispose() }) }, batch) };
  const kernelNote = raw === null ? '' : `, tfjs-cpu's kernel ${m.tfjs_cpu.wall.toFixed(1)} us`;
  console.log(`${name}: ef jitCompile ${m.ef_jit.wall.toFixed(1)} us, raw onnxruntime-node ${m.raw_ort.wall.toFixed(1)} us, ef on tfjs-cpu ${m.ef_cpu.wall.toFixed(1)} us${kernelNote} (max |jit - cpu| = ${err.toExponential(2)})`);
  // Paired: the median of the rounds' own ratios (as train_steps.bench.js reads TF). Over twelve such measurements in two
  // processes, two identical raw sessions read 0.91-1.23x; this pair read 0.98-1.17x paired, where the ratio of the two
  // medians (printed beside) moved 0.93-1.47x.
  console.log(`  (${name}: ratio of the two medians ${(m.ef_jit.wall / m.raw_ort.wall).toFixed(2)}x)`);
  ratioLine(`${name}_jit_vs_ort`, 'ef jitCompile / raw onnxruntime-node session (median of paired rounds)', pairedRatio(m.ef_jit, m.raw_ort), targets[0]);
  if (raw === null) ratioLine(`${name}_jit_vs_cpu`, 'ef jitCompile / ef on tfjs-cpu', m.ef_jit.wall / m.ef_cpu.wall, targets[1]);
  else {
    ratioLine(`${name}_jit_vs_cpu`, "ef jitCompile / tfjs-cpu's kernel", m.ef_jit.wall / m.tfjs_cpu.wall, targets[1]);
    console.log(`  (ef jitCompile / ef on cpu: ${(m.ef_jit.wall / m.ef_cpu.wall).toFixed(3)}x)`);
    raw.dispose();
  }
  session.dispose();
  return { m, args, target: targets[0] };
}

/** tfjs-cpu's BatchMatMul on the same values (raw tfjs tensors, through the engine as tf.matMul dispatches). */
function tfjsMatMul([a, b]) {
  const tf = require('@tensorflow/tfjs-core');
  const [ta, tb] = [a, b].map((t) => tf.tensor(t.dataSync(), t.shape.asList()));
  return { run: () => tf.engine().runKernel('BatchMatMul', { a: ta, b: tb }, { transposeA: false, transposeB: false }), dispose: () => tf.dispose([ta, tb]) };
}

const matmulRun = workload('matmul256', (x, w) => ef.matmul(x, w), [[256, 256], [256, 256]], { batch: 5, rounds: 9, warmup: 2 }, [1.2, 0.05], tfjsMatMul);
const convRun = workload('conv2d', (x, f) => ef.nn.conv2d(x, f, 1, 'SAME'), [[1, 64, 64, 32], [3, 3, 32, 32]], { batch: 3, rounds: 7, warmup: 2 }, [1.2, 0.05]);

// The 48-op chain on [256]: jitCompile vs the fused CPU path. Its cheap ops on 256 elements run faster on the fused
// host loop than one ONNX Runtime call costs, so jitCompile's small-segment rule keeps them there (docs/compile.md).
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
const m = measure({ jit: () => jit(x).dispose(), fused: () => fused(x).dispose() }, { batch: 5000, rounds: 21, warmup: 3 });
console.log(`chain48: compiled ${m.jit.wall.toFixed(1)} us, fused CPU ${m.fused.wall.toFixed(1)} us`);
// "No slower": here both run the same one-step fused plan, so the ratio is 1 plus noise (five repeated runs of
// this measurement read 0.99-1.03); the 1.05 bound reads "no slower" with that noise, a lost rule would read ~3.4.
const CHAIN_TARGET = 1.05;
ratioLine('chain48_jit_vs_fused', 'compiled / fused CPU path (no slower: <= 1 + noise)', m.jit.wall / m.fused.wall, CHAIN_TARGET);

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

// ---- Side by side (bench/results.md): raw tfjs, a raw onnxruntime-node session, TensorFlow 2 Python, and an
// imported real model (blazeface, a MobileNet-class graph) compiled vs tfjs-converter on tfjs-cpu. ----
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const tf = require('@tensorflow/tfjs-core');
const tfc = require('@tensorflow/tfjs-converter');


/** bench/tf_python_bench.py's rows by name ({ graph_us, xla_us? }), or {} with a printed note. `models`: [model.json, raw float32 input file]. */
function runTensorFlow(models) {
  const python = tensorFlowPython();
  if (python === null) {
    console.log('TensorFlow Python: not found (set EF_TF_PYTHON, or create .venv-tf with tensorflow_cpu==2.21.0); TF columns left out');
    return {};
  }
  const args = [path.join(__dirname, 'tf_python_bench.py'), ...models.flatMap(([m, input]) => ['--model', m, '--input', input])];
  const r = spawnSync(python, args, { encoding: 'utf8', timeout: 15 * 60 * 1000, maxBuffer: 1 << 24 });
  if (r.status !== 0) {
    console.log(`TensorFlow Python (${python}) failed: ${(r.stderr || String(r.error)).trim().split('\n').slice(-1)[0]}; TF columns left out`);
    return {};
  }
  const rows = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  const out = Object.fromEntries(rows.map((row) => [row.name, row]));
  console.log(`TensorFlow ${out.version?.tf} Python (${python}): ${rows.filter((x) => x.name !== 'version').map((x) => `${x.name} tf.function ${x.graph_us.toFixed(1)} us${x.xla_us ? `, XLA ${x.xla_us.toFixed(1)} us` : ''}`).join('; ')}`);
  return out;
}

/** TF's number for a row: the faster of tf.function and tf.function(jit_compile=True) (XLA). */
const tfUs = (row) => (row === undefined ? undefined : Math.min(row.graph_us, row.xla_us ?? Infinity));

/** Raw tfjs on its cpu backend: the same op on tfjs tensors, no EagerFlow in between. */
function rawTfjs(fn, inputs, opts) {
  const ts = inputs.map((t) => t.toTfjs());
  return measure({ tfjs: () => tf.tidy(() => fn(...ts)).dispose() }, opts).tfjs.wall;
}

/** An imported model: ef jitCompile vs tfjs-converter on tfjs-cpu, a raw session on its ef.toOnnx export, and TF. */
async function importedModel(name, xm, tfRows) {
  const file = path.join(MODELS_DIR, `${name}.json`);
  const plain = await ef.loadFunction(file);
  const jitFn = await ef.loadFunction(file, { jitCompile: true });
  const converter = await tfc.loadGraphModel(tf.io.fromMemory(converterArtifacts(name)));
  const shape = plain.inputSignature[0].shape.dims.map((d) => d ?? 1);
  const tx = xm.toTfjs();
  const session = rawOrtSession(ef.toOnnx(plain));
  const feeds = { in0: new ort.Tensor('float32', xm.dataSync(), shape) };
  const fetches = Object.fromEntries(plain.outputNames.map((_, k) => [`out${k}`, null]));
  const a = [jitFn(xm)].flat();
  const b = [converter.execute(tx)].flat();
  let err = 0;
  a.forEach((t, k) => {
    const [u, v] = [t.dataSync(), b[k].dataSync()];
    for (let i = 0; i < u.length; i++) err = Math.max(err, Math.abs(u[i] - v[i]));
  });
  [...a, ...b].forEach((t) => t.dispose());
  const dispose = (y) => [y].flat().forEach((t) => t.dispose());
  const mm = measure({ ef_jit: () => dispose(jitFn(xm)), raw_ort: () => session.run(feeds, fetches, {}) }, { batch: 5, rounds: 9, warmup: 2 });
  const conv = measure({ converter: () => dispose(converter.execute(tx)) }, { batch: 1, rounds: 5, warmup: 1 });
  const t = tfRows[`model:${name}`];
  if (t !== undefined) {
    // TensorFlow ran the same graph on the same input: its output sums must match ours.
    const ours = [plain(xm)].flat();
    ours.forEach((o, k) => {
      const sum = Array.from(o.dataSync()).reduce((p, v) => p + v, 0);
      const scale = Array.from(o.dataSync()).reduce((p, v) => p + Math.abs(v), 0);
      const want = t.sums[plain.outputNames[k]];
      if (!(Math.abs(sum - want) <= 1e-4 * Math.max(1, scale))) throw new Error(`compile.bench: ${name} output ${plain.outputNames[k]} sums to ${sum} here and ${want} in TensorFlow`);
      o.dispose();
    });
  }
  console.log(`${name} [${shape}]: ef jitCompile ${(mm.ef_jit.wall / 1000).toFixed(2)} ms, raw onnxruntime-node ${(mm.raw_ort.wall / 1000).toFixed(2)} ms, tfjs-converter on tfjs-cpu ${(conv.converter.wall / 1000).toFixed(1)} ms${t ? `, TensorFlow Python ${(t.graph_us / 1000).toFixed(2)} ms` : ''} (max |jit - converter| = ${err.toExponential(2)})`);
  const ratio = mm.ef_jit.wall / conv.converter.wall;
  ratioLine(`${name}_jit_vs_converter`, 'ef jitCompile / tfjs-converter on tfjs-cpu', ratio, 0.1);
  record({ group: 'compile', name: `${name} [${shape}] (imported TF graph model)`, backend: 'onnxruntime-node', ef: mm.ef_jit.wall, converter: conv.converter.wall, ort: mm.raw_ort.wall, tf: t?.graph_us, ratio, target: 0.1 });
  session.dispose();
  converter.dispose();
  tx.dispose();
  plain.dispose();
  jitFn.dispose();
}

async function sideBySide() {
  // The model's input, also written for TensorFlow Python.
  const input = path.join(require('node:os').tmpdir(), `ef-compile-bench-${process.pid}.f32`);
  const xIn = ef.random.uniform([1, 256, 256, 3], { seed: 7 });
  fs.writeFileSync(input, Buffer.from(xIn.dataSync().buffer));
  const tfRows = runTensorFlow([[path.join(MODELS_DIR, 'blazeface.json'), input]]);
  fs.rmSync(input, { force: true });
  const heavy = [
    ['matmul 256x256', matmulRun, (a, b) => tf.matMul(a, b), 'matmul256'],
    ['conv2d [1,64,64,32] x [3,3,32,32] SAME', convRun, (a, b) => tf.conv2d(a, b, 1, 'same'), 'conv2d'],
  ];
  for (const [name, run, fn, key] of heavy) {
    const tfjsUs = rawTfjs(fn, run.args, { batch: 2, rounds: 5, warmup: 1 });
    const ratio = pairedRatio(run.m.ef_jit, run.m.raw_ort);
    record({ group: 'compile', name, backend: 'onnxruntime-node', ef: run.m.ef_jit.wall, tfjs: tfjsUs, ort: run.m.raw_ort.wall, tf: tfUs(tfRows[key]), ratio, target: run.target });
  }
  // The chain: raw tfjs eager (48 kernels), a raw session on the exported chain, TF's tf.function / XLA.
  const chainSession = rawOrtSession(ef.toOnnx(fused));
  const chainFeeds = { in0: new ort.Tensor('float32', x.dataSync(), [256]) };
  const raw = measure({ ort: () => chainSession.run(chainFeeds, { out0: null }, {}) }, { batch: 500, rounds: 9, warmup: 2 }).ort.wall;
  const tx = x.toTfjs();
  const tfjsChain = measure({ tfjs: () => tf.tidy(() => {
    let y = tx;
    for (let i = 0; i < 16; i++) y = tf.relu(tf.add(tf.mul(y, 0.9), 0.1));
    return y;
  }).dispose() }, { batch: 200, rounds: 9, warmup: 2 }).tfjs.wall;
  record({ group: 'compile', name: '48-op chain on [256], jitCompile', backend: 'onnxruntime-node', ef: m.jit.wall, tfjs: tfjsChain, ort: raw, tf: tfUs(tfRows.chain48), ratio: m.jit.wall / m.fused.wall, target: CHAIN_TARGET });
  record({ group: 'compile', name: '48-op chain on [256], traced (fused CPU path)', backend: 'cpu', ef: m.fused.wall, tfjs: tfjsChain, tf: tfRows.chain48?.graph_us });
  chainSession.dispose();
  await importedModel('blazeface', xIn, tfRows);
  xIn.dispose();
}

sideBySide().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
