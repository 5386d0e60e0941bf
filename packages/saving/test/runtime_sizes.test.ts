// Shape arguments a graph computes when it runs (scripts/tf-golden/runtime_sizes.py, TF 2.21): Conv2DBackpropInput's
// input_sizes stacked from shape parts, SpaceToBatchND/BatchToSpaceND paddings and crops of a dilated depthwise conv on
// unknown spatial dims, and tf.map_fn's TensorArrayV3 of a computed size with no element shape. One loaded function
// runs two input sizes, called directly and traced with null dims, and must match TF's outputs and input gradients.
// Sizes fed as graph inputs (truly run-time values) are checked when the op runs: a bad one is an InvalidArgumentError.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';

type T = ef.Tensor;
type Nested = number | Nested[];
const DIR = path.join(__dirname, 'fixtures', 'runtime_sizes');
interface Run {
  feeds: Record<string, Nested>;
  expect: Record<string, Nested>;
  lossWeights: Record<string, Nested>;
  grads: Record<string, Nested>;
}
interface Fixture {
  inputs: Record<string, { name: string; shape: number[] }>;
  outputs: Record<string, { name: string }>;
  runs: Run[];
  ops: string[];
}

const flat = (x: Nested): number[] => (Array.isArray(x) ? x.flatMap(flat) : [x]);
const shapeOf = (x: Nested): number[] => (Array.isArray(x) ? [x.length, ...(x.length ? shapeOf(x[0]) : [])] : []);
const vals = (t: T): number[] => Array.from(t.dataSync() as Float32Array);
const tensorOf = (x: Nested): T => ef.constant(flat(x), 'float32', shapeOf(x));

function close(got: T, want: Nested, what: string, tol = 1e-5): void {
  expect([what, got.dims]).toEqual([what, shapeOf(want)]);
  const g = Array.from(got.dataSync() as Float32Array);
  const w = flat(want);
  const scale = Math.max(1, ...w.map(Math.abs));
  const err = Math.max(0, ...g.map((v, i) => Math.abs(v - w[i])));
  if (err > tol * scale) throw new Error(`${what}: max error ${err} (scale ${scale})\n got  ${g.slice(0, 8)}\n want ${w.slice(0, 8)}`);
}

function load(name: string): { f: ef.LoadedFunction; fx: Fixture } {
  const fx = JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Fixture;
  const graph = ef.internal.readTfGraph(new Uint8Array(fs.readFileSync(path.join(DIR, `${name}.pb`))));
  const inputs = Object.fromEntries(Object.entries(fx.inputs).map(([k, v]) => [k, { name: v.name }]));
  const f = ef.internal.signatureFunction(graph, { inputs, outputs: fx.outputs }, { outputs: 'dict' });
  return { f, fx };
}

/** Every run of the fixture through `call`: outputs and the input gradients of sum(out * weights) == TF's. */
function checkRuns(fx: Fixture, call: (feeds: Record<string, T>) => Record<string, T>, how: string): void {
  for (const [k, run] of fx.runs.entries()) {
    const feeds = Object.fromEntries(Object.entries(run.feeds).map(([key, v]) => [key, tensorOf(v)]));
    const tape = new ef.GradientTape();
    let outs: Record<string, T> = {};
    const loss = tape.record(() => {
      Object.values(feeds).forEach((x) => tape.watch(x));
      outs = call(feeds);
      return Object.entries(run.lossWeights).map(([key, w]) => ef.reduceSum(ef.multiply(outs[key], tensorOf(w)))).reduce((a, b) => ef.add(a, b));
    });
    for (const [key, want] of Object.entries(run.expect)) close(outs[key], want, `${how} run ${k}: output ${key}`);
    for (const [key, want] of Object.entries(run.grads)) close(tape.gradient(loss, feeds[key]) as T, want, `${how} run ${k}: gradient of ${key}`);
    // A call outside a tape leaves nothing behind but its outputs.
    const mark = ef.memory().numTensors;
    Object.values(call(feeds)).forEach((t) => t.dispose());
    expect(ef.memory().numTensors).toBe(mark);
  }
}

describe.each(['conv_transpose', 'dilated_depthwise', 'map_fn'])('%s: sizes TF computes from unknown dims == TF 2.21', (name) => {
  test('imported, called at two input sizes', () => {
    const { f, fx } = load(name);
    checkRuns(fx, (feeds) => f(feeds) as Record<string, T>, 'imported');
    f.dispose();
  });

  test('traced with the placeholders\' null dims (one trace runs both sizes)', () => {
    const { f, fx } = load(name);
    const keys = Object.keys(fx.inputs);
    const outKeys = Object.keys(fx.outputs);
    const specs = keys.map((k) => new ef.TensorSpec(fx.inputs[k].shape.map((d) => (d >= 0 ? d : null))));
    const traced = ef.trace((...xs: T[]) => {
      const o = f(Object.fromEntries(keys.map((k, i) => [k, xs[i]]))) as Record<string, T>;
      return outKeys.map((k) => o[k]);
    }, { inputSignature: specs });
    checkRuns(fx, (feeds) => {
      const ys = traced(...keys.map((k) => feeds[k])) as T[];
      return Object.fromEntries(outKeys.map((k, i) => [k, ys[i]]));
    }, 'traced');
    f.dispose();
  });
});

test('saved and loaded again, the sizes stay tensor inputs of the TF ops (Conv2DBackpropInput, SpaceToBatchND, BatchToSpaceND) and the results hold', () => {
  for (const [name, ops] of [['conv_transpose', ['Conv2DBackpropInput']], ['dilated_depthwise', ['SpaceToBatchND', 'BatchToSpaceND']]] as const) {
    const { f, fx } = load(name);
    const saved = ef.saveFunction(f);
    const nodes = saved.modelTopology.node;
    for (const op of ops) {
      const n = nodes.filter((m) => m.op === op);
      expect([name, op, n.length > 0]).toEqual([name, op, true]);
      // The size input is computed in the graph (not a Const written from params).
      const sizeInput = op === 'Conv2DBackpropInput' ? 0 : 2;
      for (const m of n) expect(nodes.find((c) => c.name === (m.input ?? [])[sizeInput].split(':')[0])?.op).not.toBe('Const');
    }
    const again = ef.loadFunction(saved);
    checkRuns(fx, (feeds) => {
      const ys = again(feeds.x) as T | T[] | Record<string, T>;
      if (!(ys instanceof ef.Tensor) && !Array.isArray(ys)) return ys;
      const list = Array.isArray(ys) ? ys : [ys];
      return Object.fromEntries(Object.keys(fx.outputs).map((k, i) => [k, list[i]]));
    }, `${name} saved and loaded`);
    [f, again].forEach((g) => g.dispose());
  }
});

test('the fixtures hold the ops the importer reads with run-time sizes', () => {
  const ops = (name: string): string[] => (JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Fixture).ops;
  expect(ops('conv_transpose')).toEqual(expect.arrayContaining(['Conv2DBackpropInput', 'Pack', 'Shape']));
  expect(ops('dilated_depthwise')).toEqual(expect.arrayContaining(['SpaceToBatchND', 'BatchToSpaceND', 'FloorMod']));
  expect(ops('map_fn')).toEqual(expect.arrayContaining(['TensorArrayV3', 'TensorArrayScatterV3', 'TensorArrayGatherV3']));
});

// Sizes that are graph inputs: only known when the graph runs.
const I = { type: 'DT_INT32' };
const F = { type: 'DT_FLOAT' };
const ph = (name: string, dtype: object, dims: number[]) => ({ name, op: 'Placeholder', attr: { dtype, shape: { shape: { dim: dims.map((d) => ({ size: String(d) })) } } } });
const ints = (v: number[]) => ({ list: { i: v.map(String) } });
const str = (v: string) => ({ s: Buffer.from(v).toString('base64') });
const filterConst = (name: string, shape: number[], values: number[]) => ({ name, op: 'Const', attr: { dtype: F, value: { tensor: { dtype: 'DT_FLOAT', tensor_shape: { dim: shape.map((d) => ({ size: String(d) })) }, float_val: values } } } });
const intConst = (name: string, shape: number[], values: number[]) => ({ name, op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: { dim: shape.map((d) => ({ size: String(d) })) }, int_val: values } } } });
const seq = (n: number, scale: number): number[] => Array.from({ length: n }, (_, i) => Math.sin(i + 1) * scale);

describe('sizes fed as graph inputs', () => {
  const filter = seq(3 * 3 * 2 * 2, 1);
  const convGraph = () => ef.internal.readTfGraph({ node: [
    ph('x', F, [-1, -1, -1, 2]), ph('sizes', I, [4]), filterConst('f', [3, 3, 2, 2], filter),
    { name: 'y', op: 'Conv2DBackpropInput', input: ['sizes', 'f', 'x'], attr: { T: F, strides: ints([1, 2, 2, 1]), padding: str('SAME'), data_format: str('NHWC') } },
  ] } as never);

  test('Conv2DBackpropInput: any consistent input_sizes runs (== conv2dTranspose with static sizes, gradients too); a wrong one is an InvalidArgumentError and nothing leaks', () => {
    const f = ef.internal.signatureFunction(convGraph(), { inputs: { x: { name: 'x:0' }, sizes: { name: 'sizes:0' } }, outputs: { y: { name: 'y:0' } } });
    const w = ef.constant(filter, 'float32', [3, 3, 2, 2]);
    for (const [shape, out] of [[[1, 2, 3, 2], [1, 4, 6, 2]], [[2, 3, 3, 2], [2, 5, 6, 2]]] as const) {
      const x = ef.constant(seq((shape as readonly number[]).reduce((a, b) => a * b, 1), 0.5), 'float32', [...shape]);
      const sizes = ef.constant([...out], 'int32');
      const tape = new ef.GradientTape({ persistent: true });
      const [got, want] = tape.record(() => (tape.watch(x), [f(x, sizes) as T, ef.nn.conv2dTranspose(x, w, [...out], 2, 'SAME')]));
      expect(got.dims).toEqual([...out]);
      expect(vals(got)).toEqual(vals(want));
      const [gg, gw] = [tape.gradient(got, x) as T, tape.gradient(want, x) as T];
      expect(vals(gg)).toEqual(vals(gw));
      [x, sizes, got, want, gg, gw].forEach((t) => t.dispose());
    }
    const x = ef.ones([1, 2, 3, 2]);
    const before = ef.memory().numTensors;
    for (const bad of [[1, 7, 6, 2], [1, 4, 6, -2], [1, 4, 6, 3]]) {
      const sizes = ef.constant(bad, 'int32');
      expect(() => f(x, sizes)).toThrow(ef.errors.InvalidArgumentError);
      sizes.dispose();
    }
    const bad = ef.constant([1, 7, 6, 2], 'int32');
    // The run-time error names the TF node it was read from.
    expect(() => f(x, bad)).toThrow(/dy does not match the conv's output shape[\s\S]*read from the graph: node 'y' \(Conv2DBackpropInput\)/);
    bad.dispose();
    expect(ef.memory().numTensors).toBe(before);
    [x, w].forEach((t) => t.dispose());
    f.dispose();
  });

  test('SpaceToBatchND / BatchToSpaceND: run-time paddings and crops (== the static ops, gradients too); bad ones are InvalidArgumentErrors', () => {
    const g = ef.internal.readTfGraph({ node: [
      ph('x', F, [-1, -1, -1, 1]), ph('pads', I, [2, 2]), ph('crops', I, [2, 2]), intConst('block', [2], [2, 2]),
      { name: 's2b', op: 'SpaceToBatchND', input: ['x', 'block', 'pads'], attr: { T: F, Tblock_shape: I, Tpaddings: I } },
      { name: 'sq', op: 'Square', input: ['s2b'], attr: { T: F } },
      { name: 'y', op: 'BatchToSpaceND', input: ['sq', 'block', 'crops'], attr: { T: F, Tblock_shape: I, Tcrops: I } },
    ] } as never);
    const f = ef.internal.signatureFunction(g, { inputs: { x: { name: 'x:0' }, pads: { name: 'pads:0' }, crops: { name: 'crops:0' } }, outputs: { y: { name: 'y:0' } } });
    const x = ef.constant(seq(15, 1), 'float32', [1, 3, 5, 1]);
    const pairs: [number, number][] = [[0, 1], [1, 2]];
    const crops: [number, number][] = [[0, 1], [0, 3]];
    const tape = new ef.GradientTape({ persistent: true });
    const [got, want] = tape.record(() => (tape.watch(x), [
      f(x, ef.constant(pairs.flat(), 'int32', [2, 2]), ef.constant(crops.flat(), 'int32', [2, 2])) as T,
      ef.batchToSpaceNd(ef.square(ef.spaceToBatchNd(x, [2, 2], pairs)), [2, 2], crops),
    ]));
    expect(got.dims).toEqual([1, 3, 5, 1]);
    expect(vals(got)).toEqual(vals(want));
    expect(vals(tape.gradient(got, x) as T)).toEqual(vals(tape.gradient(want, x) as T));
    const before = ef.memory().numTensors;
    // Padded sizes not divisible by the block; a negative padding; crops larger than the size.
    for (const [p, c] of [[[0, 0, 0, 0], [0, 0, 0, 0]], [[0, 1, -1, 2], [0, 0, 0, 0]], [[0, 1, 1, 2], [0, 9, 0, 0]]]) {
      const [pt, ct] = [ef.constant(p, 'int32', [2, 2]), ef.constant(c, 'int32', [2, 2])];
      expect(() => f(x, pt, ct)).toThrow(ef.errors.InvalidArgumentError);
      [pt, ct].forEach((t) => t.dispose());
    }
    const [pt, ct] = [ef.constant([0, 0, 0, 0], 'int32', [2, 2]), ef.constant([0, 0, 0, 0], 'int32', [2, 2])];
    expect(() => f(x, pt, ct)).toThrow(/padded spatial size must be divisible by the block[\s\S]*read from the graph: node 's2b' \(SpaceToBatchND\)/);
    [pt, ct].forEach((t) => t.dispose());
    expect(ef.memory().numTensors).toBe(before);
    f.dispose();
  });
});

describe('the eager ops take those sizes as tensors (TF\'s operands)', () => {
  const x = () => ef.constant(seq(2 * 3 * 5 * 2, 0.5), 'float32', [2, 3, 5, 2]);
  const w = () => ef.constant(seq(3 * 3 * 4 * 2, 1), 'float32', [3, 3, 4, 2]);

  test('nn.conv2dTranspose(x, f, outputShape as a tensor) == the static form, eager and traced with null dims (sizes from ef.shape), with gradients', () => {
    const [xv, wv] = [x(), w()];
    const tape = new ef.GradientTape({ persistent: true });
    const traced = ef.trace((t: T) => {
      const s = ef.shape(t);
      // Dims with scalar tensors among them, as Keras's Conv2DTranspose builds its output shape.
      return ef.nn.conv2dTranspose(t, wv, [ef.gather(s, 0), ef.multiply(ef.gather(s, 1), 2), ef.multiply(ef.gather(s, 2), 2), 4], 2, 'SAME');
    }, { inputSignature: [new ef.TensorSpec([null, null, null, 2])] });
    const [byTensor, viaTrace, want] = tape.record(() => (tape.watch(xv), [
      ef.nn.conv2dTranspose(xv, wv, ef.constant([2, 6, 10, 4], 'int32'), [2, 2], 'SAME'),
      traced(xv) as T,
      ef.nn.conv2dTranspose(xv, wv, [2, 6, 10, 4], [2, 2], 'SAME'),
    ]));
    for (const got of [byTensor, viaTrace]) {
      expect(got.dims).toEqual([2, 6, 10, 4]);
      expect(vals(got)).toEqual(vals(want));
      expect(vals(tape.gradient(got, xv) as T)).toEqual(vals(tape.gradient(want, xv) as T));
    }
    expect(String(traced.getConcreteFunction().graph)).toContain('sizesFrom="values"');
    // A wrong size is found when the op runs.
    expect(() => ef.nn.conv2dTranspose(xv, wv, ef.constant([2, 9, 10, 4], 'int32'), 2, 'SAME')).toThrow(ef.errors.InvalidArgumentError);
    expect(() => ef.nn.conv2dTranspose(xv, wv, ef.constant([2, 6, 10], 'int32'), 2, 'SAME')).toThrow(/input_sizes must be a vector of 4 sizes/);
  });

  test('spaceToBatchNd / batchToSpaceNd with paddings and crops as tensors == the static forms, eager and traced, with gradients', () => {
    const xv = x();
    const pads = [[1, 0], [0, 1]] as [number, number][];
    const crops = [[0, 1], [1, 0]] as [number, number][];
    const tape = new ef.GradientTape({ persistent: true });
    const traced = ef.trace((t: T, p: T, c: T) => ef.batchToSpaceNd(ef.exp(ef.spaceToBatchNd(t, [2, 2], p)), [2, 2], c), {
      inputSignature: [new ef.TensorSpec([null, null, null, 2]), new ef.TensorSpec([2, 2], 'int32'), new ef.TensorSpec([2, 2], 'int32')],
    });
    const [pt, ct] = [ef.constant(pads.flat(), 'int32', [2, 2]), ef.constant(crops.flat(), 'int32', [2, 2])];
    const [eager, viaTrace, want] = tape.record(() => (tape.watch(xv), [
      ef.batchToSpaceNd(ef.exp(ef.nn.spaceToBatchNd(xv, [2, 2], pt)), [2, 2], ct),
      traced(xv, pt, ct) as T,
      ef.batchToSpaceNd(ef.exp(ef.spaceToBatchNd(xv, [2, 2], pads)), [2, 2], crops),
    ]));
    for (const got of [eager, viaTrace]) {
      expect(got.dims).toEqual([2, 3, 5, 2]);
      expect(vals(got)).toEqual(vals(want));
      expect(vals(tape.gradient(got, xv) as T)).toEqual(vals(tape.gradient(want, xv) as T));
    }
    expect(() => ef.spaceToBatchNd(xv, [2, 2], ef.constant([0, 0, 0, 0, 0, 0], 'int32', [3, 2]))).toThrow(/paddings must be \[2, 2\]/);
    expect(() => ef.spaceToBatchNd(xv, [2, 2], ef.constant([0, 0, 0, 0], 'int32', [2, 2]))).toThrow(/padded spatial size must be divisible/);
  });
});
