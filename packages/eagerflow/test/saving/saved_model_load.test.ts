// ef.savedModel.load on SavedModels TF 2.21 wrote (scripts/tf-files/write_tf_files.py): signatures and restored
// functions give TF's outputs; variables are restored under their attribute names.
import * as fs from 'fs';
import * as path from 'path';
import * as ef from 'eagerflow';

const DIR = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tf_files');
const EXPECTED = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8'));

function close(t: ef.Tensor, want: unknown, tol = 1e-5): void {
  const got = (t.arraySync() as unknown) as number[];
  const flat = (x: unknown): number[] => (Array.isArray(x) ? x.flatMap(flat) : [Number(x)]);
  const g = flat(got);
  const w = flat(want);
  expect(g.length).toBe(w.length);
  g.forEach((v, i) => expect(Math.abs(v - w[i])).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w[i]))));
}

test('a tf.Module with variables and a signature: signature, restored __call__, variables by name', async () => {
  const want = EXPECTED.sm_module;
  const m = await ef.savedModel.load(path.join(DIR, 'sm_module'));
  const out = m.signatures.serving_default({ x: ef.constant(want.inputs.x) });
  expect(Object.keys(out)).toEqual(Object.keys(want.outputs));
  close(out.output_0, want.outputs.output_0);
  close((m.__call__ as (x: ef.Tensor) => ef.Tensor)(ef.constant(want.inputs.x)), want.call);
  close((m.w as ef.Variable).value(), want.w);
  expect(m.variables.length).toBe(2);
});

test('two signatures and a non-signature function', async () => {
  const want = EXPECTED.sm_two_sigs;
  const m = await ef.savedModel.load(path.join(DIR, 'sm_two_sigs'));
  expect(Object.keys(m.signatures).sort()).toEqual(['combine', 'scale']);
  const s = m.signatures.scale({ x: ef.constant(want.scale.inputs.x) });
  close(s.output_0, want.scale.outputs.output_0);
  const c = m.signatures.combine({ a: ef.constant(want.combine.inputs.a), b: ef.constant(want.combine.inputs.b) });
  expect(Object.keys(c).sort()).toEqual(['prod', 'sum']);
  close(c.prod, want.combine.outputs.prod);
  close(c.sum, want.combine.outputs.sum);
  close((m.helper as (x: ef.Tensor) => ef.Tensor)(ef.constant(want.helper.inputs[0])), want.helper.output);
});

test('round trip: what ef.savedModel.save wrote (two signatures, while/cond, stateful counter) loads back here', async () => {
  const m = await ef.savedModel.load(path.join(DIR, '..', 'ef_files', 'sm_multi'));
  expect(Object.keys(m.signatures).sort()).toEqual(['loop', 'scale', 'serving_default']);
  const a = ef.constant([1, 2]);
  const b = ef.constant([3, -1]);
  const r1 = m.signatures.serving_default({ a, b });
  const r2 = m.signatures.serving_default({ a, b });
  close(r1.sum, [4, 1]);
  close(r1.prod, [9, -6]);
  expect([r1.calls.item(), r2.calls.item()]).toEqual([1, 2]);
  close((m.count as ef.Variable).value(), 2);
  let acc = [1, 2];
  for (let i = 0; i < 4; i++) acc = acc[0] + acc[1] > 10 ? acc.map((v) => v * 0.5) : acc.map((v) => v * 2 + 1);
  close(m.signatures.loop({ x: a, n: ef.constant(4, 'int32') }).output_0, acc);
  // The loop body reads the live variable (a resource threaded through While/If), not a saved copy.
  (m.k as ef.Variable).assign(ef.constant(6));
  let acc6 = [1, 2];
  for (let i = 0; i < 4; i++) acc6 = acc6[0] + acc6[1] > 10 ? acc6.map((v) => v * 0.5) : acc6.map((v) => v * 2 + 2);
  close(m.signatures.loop({ x: a, n: ef.constant(4, 'int32') }).output_0, acc6);
  (m.k as ef.Variable).assign(ef.constant(3));
  close((m.helper as (x: ef.Tensor) => ef.Tensor)(a), [-2, 1]);
  // Restored functions are differentiable to the restored variables.
  const k = m.k as ef.Variable;
  const tape = new ef.GradientTape();
  const y = tape.record(() => ef.reduceSum((m.scale as (x: ef.Tensor) => ef.Tensor)(a)));
  close(tape.gradient(y, k) as ef.Tensor, 3);
});

test('a Keras 3 model.export SavedModel', async () => {
  const want = EXPECTED.sm_keras;
  const m = await ef.savedModel.load(path.join(DIR, 'sm_keras'));
  const sig = m.signatures.serving_default;
  const [name] = sig.inputNames;
  const out = sig({ [name]: ef.constant(Object.values(want.inputs)[0] as number[][]) });
  for (const k of Object.keys(want.outputs)) close(out[k], want.outputs[k]);
});

test('a TF1-style SavedModel (VariableV2, signature_def)', async () => {
  const want = EXPECTED.sm_tf1;
  const m = await ef.savedModel.load(path.join(DIR, 'sm_tf1'));
  const out = m.signatures.serving_default({ x: ef.constant(want.inputs.x) });
  close(out.y, want.outputs.y);
  expect(m.variables.map((v) => v.name).sort()).toEqual(['b', 'w']);
});

test('ef.loadFunction(dir) on a SavedModel directory returns serving_default (TF2 and TF1 graphs)', async () => {
  const want = EXPECTED.sm_module;
  const f = await ef.loadFunction(path.join(DIR, 'sm_module'));
  expect(f.inputNames).toEqual(['x']);
  expect(f.outputNames).toEqual(['output_0']);
  close(f(ef.constant(want.inputs.x)) as ef.Tensor, want.outputs.output_0);
  close(f({ x: ef.constant(want.inputs.x) }) as ef.Tensor, want.outputs.output_0);
  const g = await ef.loadFunction(path.join(DIR, 'sm_tf1'));
  close(g(ef.constant(EXPECTED.sm_tf1.inputs.x)) as ef.Tensor, EXPECTED.sm_tf1.outputs.y);
});

test('a Keras 3 model.export SavedModel through ef.loadFunction(dir, {jitCompile: true}): one ONNX Runtime segment, TF\'s outputs', async () => {
  // Keras 3 saves `variables`/`trainable_variables` lists on the root (a Module here, whose getters of those names
  // stay); the serving signature binds its captured variables by node id, and loadFunction's options reach it.
  const want = EXPECTED.sm_keras;
  const f = await ef.loadFunction(path.join(DIR, 'sm_keras'), { jitCompile: true });
  const x = ef.constant(Object.values(want.inputs)[0] as number[][]);
  close(f(x) as ef.Tensor, Object.values(want.outputs)[0]);
  expect(f.getConcreteFunction().experimentalGetCompilerIr()).toMatch(/onnx_segment/);
  const m = await ef.savedModel.load(path.join(DIR, 'sm_keras'));
  expect(m.variables.map((v) => v.shape.asList())).toEqual([[4, 3], [3], [3, 2], [2]]);
});

test('bad input: a missing directory is a NotFoundError, a corrupted saved_model.pb or variables shard a DataLossError naming the file', async () => {
  const os = await import('os');
  await expect(ef.savedModel.load(path.join(DIR, 'no_such_model'))).rejects.toThrow(ef.errors.NotFoundError);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-smbad-'));
  fs.cpSync(path.join(DIR, 'sm_module'), tmp, { recursive: true });
  const pb = fs.readFileSync(path.join(tmp, 'saved_model.pb'));
  fs.writeFileSync(path.join(tmp, 'saved_model.pb'), pb.subarray(0, pb.length >> 1));
  await expect(ef.savedModel.load(tmp)).rejects.toThrow(/saved_model.pb is corrupted/);
  fs.writeFileSync(path.join(tmp, 'saved_model.pb'), pb);
  const data = path.join(tmp, 'variables', 'variables.data-00000-of-00001');
  const bytes = fs.readFileSync(data);
  // Corrupt b, which is restored after w: w must not outlive the failed load.
  const { readBundleIndex } = await import('../../../saving/src/tensor_bundle');
  const index = readBundleIndex(fs.readFileSync(path.join(tmp, 'variables', 'variables.index')), 'variables.index');
  bytes[index.entries.get('b/.ATTRIBUTES/VARIABLE_VALUE')!.offset] ^= 0xff;
  fs.writeFileSync(data, bytes);
  const before = ef.memory().numTensors;
  await expect(ef.savedModel.load(tmp)).rejects.toThrow(ef.errors.DataLossError);
  expect(ef.memory().numTensors).toBe(before); // the variables restored before the bad one are released
  fs.rmSync(data);
  await expect(ef.savedModel.load(tmp)).rejects.toThrow(/variables.data-00000-of-00001 is corrupted: the data shard cannot be read/);
});

test('saved_model.pbtxt (text format) loads like the binary one; restored functions run inside ef.trace', async () => {
  const m = await ef.savedModel.load(path.join(DIR, 'sm_tf1_pbtxt'));
  const out = m.signatures.serving_default({ x: ef.constant(EXPECTED.sm_tf1.inputs.x) });
  close(out.y, EXPECTED.sm_tf1_pbtxt.outputs_via_tf.y);
  const t = await ef.savedModel.load(path.join(DIR, 'sm_module'));
  const call = t.__call__ as (x: ef.Tensor) => ef.Tensor;
  const outer = ef.trace((x: ef.Tensor) => ef.multiply(call(x), 2), { inputSignature: [new ef.TensorSpec([null, 3])] });
  close(outer(ef.constant(EXPECTED.sm_module.inputs.x)), (EXPECTED.sm_module.call as number[][]).map((r) => r.map((v) => 2 * v)));
});

test('while_loop + cond + TensorArray with a stateful counter (TF 2.21 SavedModel): outputs and the counter across calls', async () => {
  const want = EXPECTED.sm_control;
  const m = await ef.savedModel.load(path.join(DIR, 'sm_control'));
  const feeds = { x: ef.constant(want.inputs.x), n: ef.constant(want.inputs.n, 'int32') };
  const r1 = m.signatures.serving_default(feeds);
  for (const k of Object.keys(want.outputs)) close(r1[k], want.outputs[k]);
  const r2 = m.signatures.serving_default(feeds);
  for (const k of Object.keys(want.outputs_again)) close(r2[k], want.outputs_again[k]);
});

test("a restored function jit-compiles (ONNX Runtime) inside ef.trace, with TF's values and gradients to its variables", async () => {
  const want = EXPECTED.sm_module;
  const m = await ef.savedModel.load(path.join(DIR, 'sm_module'));
  const call = m.__call__ as (x: ef.Tensor) => ef.Tensor;
  const x = ef.constant(want.inputs.x);
  const compiled = ef.trace((v: ef.Tensor) => call(v), { jitCompile: 'strict', inputSignature: [new ef.TensorSpec([null, 3])] });
  close(compiled(x), want.call);
  expect(compiled.getConcreteFunction(x).experimentalGetCompilerIr()).toMatch(/onnx_segment/);
  // The same loss, differentiated to the restored variables through the compiled call and through the plain one.
  const grads = (f: (v: ef.Tensor) => ef.Tensor): number[][] => {
    const tape = new ef.GradientTape();
    const loss = tape.record(() => ef.reduceSum(ef.square(f(x))));
    return (tape.gradient(loss, m.variables) as ef.Tensor[]).map((g) => Array.from(g.dataSync() as Float32Array));
  };
  const [a, b] = [grads(compiled), grads(call)];
  a.forEach((g, i) => close(ef.constant(g), b[i]));
  compiled.dispose();
});

test('a damaged object graph (file fuzzer cases 67116, 88103: bit flips in the Keras export) leaks no variable: unreachable ones are freed, ones only functions capture are listed', async () => {
  const { fileBases, fileCase } = await import('../../../../test/fuzz/file_fuzz');
  const b = await fileBases();
  const dir = b.dirs.get('sm_keras') as string;
  for (const i of [67116, 88103]) {
    const c = fileCase(32, i);
    fs.writeFileSync(path.join(dir, 'saved_model.pb'), c.bytes);
    const before = ef.memory().numTensors;
    const m = await ef.savedModel.load(dir);
    m.variables.forEach((v) => v.dispose());
    expect([i, ef.memory().numTensors]).toEqual([i, before]);
    fs.writeFileSync(path.join(dir, 'saved_model.pb'), c.base.bytes);
  }
});
