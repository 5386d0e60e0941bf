// ef.loadFunction(dir) on a SavedModel builds serving_default alone: only the variables it captures are read from
// variables/ (a Keras 3 export holds every weight twice in its object graph), no other restored function or
// signature is built, and the function owns what it restored (its dispose frees it). Checkpoint entries are read one
// at a time (positioned reads), so a shard cut short is refused naming the entry.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ef from 'eagerflow';

const DIR = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tf_files');
const EXPECTED = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8'));
const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ef-serving-'));

/** A Module whose serving signature reads `v` only; `w` (and the function `g` that reads it) are not serving's. */
async function savedWithUnusedState(): Promise<string> {
  class M extends ef.Module {
    v = new ef.Variable([1, 2, 3], { name: 'v' });
    w = new ef.Variable(ef.ones([64, 64]), { name: 'w' });
    f = ef.trace((x: ef.Tensor) => ef.multiply(x, this.v), { inputSignature: [new ef.TensorSpec([3], 'float32', 'x')] });
    g = ef.trace((x: ef.Tensor) => ef.matmul(x, this.w), { inputSignature: [new ef.TensorSpec([1, 64], 'float32', 'x')] });
  }
  const m = new M();
  const dir = tmp();
  await ef.savedModel.save(m, dir, { signatures: m.f });
  m.v.dispose();
  m.w.dispose();
  return dir;
}

test('loadFunction(dir) restores only the variables serving_default captures, and its dispose frees them', async () => {
  const dir = await savedWithUnusedState();
  const before = ef.memory().numTensors;
  const f = await ef.loadFunction(dir);
  expect(f.variables.map((v) => v.name)).toEqual(['v']);
  expect(ef.memory().numTensors - before).toBe(1); // v only: w is not read
  const x = ef.constant([2, 2, 2]);
  const y = f(x) as ef.Tensor;
  expect(Array.from(y.dataSync() as Float32Array)).toEqual([2, 4, 6]);
  x.dispose();
  y.dispose();
  f.dispose();
  expect(ef.memory().numTensors).toBe(before);
  // savedModel.load still restores everything, functions included.
  const m = await ef.savedModel.load(dir);
  expect(m.variables.map((v) => v.name).sort()).toEqual(['v', 'w']);
  expect(Array.from(((m.g as (x: ef.Tensor) => ef.Tensor)(ef.ones([1, 64]))).dataSync().slice(0, 2) as Float32Array)).toEqual([64, 64]);
  m.variables.forEach((v) => v.dispose());
});

test('TF 2.21 SavedModels through loadFunction: TF\'s outputs, nothing left after dispose (TF2 object graph and TF1 signature_def)', async () => {
  for (const [name, out] of [['sm_module', 'output_0'], ['sm_tf1', 'y']] as const) {
    const want = EXPECTED[name];
    const before = ef.memory().numTensors;
    const f = await ef.loadFunction(path.join(DIR, name));
    const x = ef.constant(want.inputs.x);
    const y = f(x) as ef.Tensor;
    const flat = (a: unknown): number[] => (Array.isArray(a) ? a.flatMap(flat) : [Number(a)]);
    const w = flat(want.outputs[out]);
    Array.from(y.dataSync() as Float32Array).forEach((v, i) => expect(Math.abs(v - w[i])).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(w[i]))));
    x.dispose();
    y.dispose();
    f.dispose();
    expect([name, ef.memory().numTensors]).toEqual([name, before]);
  }
});

test('a variables shard cut short: a DataLossError naming the entry and the shard, and nothing restored before it is kept', async () => {
  const dir = await savedWithUnusedState();
  const data = path.join(dir, 'variables', 'variables.data-00000-of-00001');
  const bytes = fs.readFileSync(data);
  fs.writeFileSync(data, bytes.subarray(0, bytes.length >> 1));
  const before = ef.memory().numTensors;
  await expect(ef.savedModel.load(dir)).rejects.toThrow(ef.errors.DataLossError);
  await expect(ef.savedModel.load(dir)).rejects.toThrow(/variables\.data-00000-of-00001 is corrupted: '.*' runs past the end of the shard/);
  expect(ef.memory().numTensors).toBe(before);
  fs.rmSync(data);
  await expect(ef.loadFunction(dir)).rejects.toThrow(/the data shard cannot be read/);
  expect(ef.memory().numTensors).toBe(before);
});

test('restored values are the variables\' own: assigning one loaded function\'s variable leaves another load of the same file unchanged', async () => {
  const dir = await savedWithUnusedState();
  const f = await ef.loadFunction(dir);
  const g = await ef.loadFunction(dir);
  f.variables[0].assign(ef.zeros([3]));
  expect(Array.from((f(ef.ones([3])) as ef.Tensor).dataSync() as Float32Array)).toEqual([0, 0, 0]);
  expect(Array.from((g(ef.ones([3])) as ef.Tensor).dataSync() as Float32Array)).toEqual([1, 2, 3]);
  f.dispose();
  g.dispose();
});
