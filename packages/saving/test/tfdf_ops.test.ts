// TF-DF (TensorFlow Decision Forests) graphs: tfjs-converter runs their three SimpleML* ops only through the
// @tensorflow/tfjs-tfdf package, which supplies them with tfjs-converter's registerOp. EagerFlow takes the same
// registration through ef.registerOp. A synthetic serving graph wired as TF-DF wires it (resource handle -> load from a
// path Const -> inference on the packed feature matrices, the load a control input of the inference) runs a small
// decision tree that the registered ops load from a file and evaluate on the host, as tfjs-tfdf does with its WASM runtime.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

type T = ef.Tensor;
type Node = { name: string; op: string; input?: string[]; attr?: Record<string, unknown> };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-tfdf-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The "model on disk": one decision tree (feature index, threshold, children or leaf class probabilities). */
type TreeNode = { feature: number; threshold: number; below: TreeNode; above: TreeNode } | { leaf: number[] };
const TREE: TreeNode = {
  feature: 1, threshold: 50, // income >= 50 -> mostly class 1
  above: { leaf: [0.1, 0.9] },
  below: { feature: 0, threshold: 30, below: { leaf: [0.9, 0.1] }, above: { leaf: [0.4, 0.6] } }, // else split on age
};
const MODEL_DIR = path.join(tmp, 'assets');
fs.mkdirSync(MODEL_DIR);
fs.writeFileSync(path.join(MODEL_DIR, 'tree.json'), JSON.stringify({ classes: ['0', '1'], tree: TREE }));

const enc = new TextEncoder();
/** tfjs weight bytes: float32/int32 little-endian, strings as a uint32 length and the UTF-8 bytes. */
function stringBytes(s: string): Uint8Array {
  const b = enc.encode(s);
  const out = new Uint8Array(4 + b.length);
  new DataView(out.buffer).setUint32(0, b.length, true);
  out.set(b, 4);
  return out;
}

const dtype = (t: string): Record<string, unknown> => ({ type: t });
const placeholder = (name: string): Node => ({ name, op: 'Placeholder', attr: { dtype: dtype('DT_FLOAT'), shape: { shape: { dim: [{ size: '-1' }] } } } });
const constNode = (name: string, t: string): Node => ({ name, op: 'Const', attr: { dtype: dtype(t), value: {} } });

/** model.json artifacts shaped like a converted TF-DF SavedModel's serving graph. */
function tfdfArtifacts(modelPath: string): Record<string, unknown> {
  const nodes: Node[] = [
    placeholder('age'),
    placeholder('income'),
    { name: 'numerical', op: 'Pack', input: ['age', 'income'], attr: { N: { i: '2' }, T: dtype('DT_FLOAT'), axis: { i: '1' } } },
    constNode('boolean_features', 'DT_FLOAT'),
    constNode('categorical_int_features', 'DT_INT32'),
    constNode('categorical_set_values', 'DT_INT32'),
    constNode('row_splits_dim_1', 'DT_INT32'),
    constNode('row_splits_dim_2', 'DT_INT32'),
    constNode('model_path', 'DT_STRING'),
    { name: 'model_handle', op: 'SimpleMLCreateModelResource', attr: { container: { s: '' }, shared_name: { s: btoa('simple_ml_model_1') } } },
    {
      name: 'load_model', op: 'SimpleMLLoadModelFromPathWithHandle', input: ['model_handle', 'model_path'],
      attr: { output_types: { list: {} }, file_prefix: { s: btoa('tree') }, allow_slow_inference: { b: true } },
    },
    {
      name: 'inference', op: 'SimpleMLInferenceOpWithHandle',
      input: ['numerical', 'boolean_features', 'categorical_int_features', 'categorical_set_values', 'row_splits_dim_1', 'row_splits_dim_2', 'model_handle', '^load_model'],
      attr: { dense_output_dim: { i: '2' } },
    },
    { name: 'dense_predictions', op: 'Identity', input: ['inference'], attr: { T: dtype('DT_FLOAT') } },
    { name: 'dense_col_representation', op: 'Identity', input: ['inference:1'], attr: { T: dtype('DT_STRING') } },
  ];
  const pathBytes = stringBytes(modelPath);
  const weightSpecs = [
    { name: 'boolean_features', shape: [1, 0], dtype: 'float32' },
    { name: 'categorical_int_features', shape: [1, 0], dtype: 'int32' },
    { name: 'categorical_set_values', shape: [0], dtype: 'int32' },
    { name: 'row_splits_dim_1', shape: [1], dtype: 'int32' },
    { name: 'row_splits_dim_2', shape: [1], dtype: 'int32' },
    { name: 'model_path', shape: [], dtype: 'string' },
  ];
  const data = new Uint8Array(8 + pathBytes.length); // the two row splits ([0] each), then the path string
  data.set(pathBytes, 8);
  return { format: 'graph-model', modelTopology: { node: nodes, versions: { producer: 1286 } }, weightSpecs, weightData: data.buffer };
}

/** The registered ops, written as tfjs-tfdf writes its own: the model lives outside the graph, in this module. */
let loaded: { classes: string[]; tree: TreeNode } | null = null;
const loads: string[] = [];
function registerTfdfOps(): Array<() => void> {
  return [
    ef.registerOp('SimpleMLCreateModelResource', () => ef.constant(0)),
    ef.registerOp('SimpleMLLoadModelFromPathWithHandle', (inputs, attrs) =>
      ef.pyFunction(async (_handle, modelPath) => {
        const dir = (modelPath as T).arraySync() as unknown as string;
        loads.push(dir);
        loaded = JSON.parse(await fs.promises.readFile(path.join(dir, `${attrs.file_prefix as string}.json`), 'utf8'));
        return ef.constant(0);
      }, inputs, 'float32')),
    ef.registerOp('SimpleMLInferenceOpWithHandle', (inputs, attrs) =>
      ef.pyFunction((...xs) => {
        if (loaded === null) throw new Error('the model is not loaded');
        const rows = (xs[0] as T).arraySync() as number[][];
        const dim = attrs.dense_output_dim as number;
        const preds = rows.map((r) => {
          let n = loaded!.tree;
          while (!('leaf' in n)) n = r[n.feature] >= n.threshold ? n.above : n.below;
          return n.leaf.slice(0, dim);
        });
        return [ef.constant(preds, 'float32'), ef.constant(loaded.classes.slice(0, dim), 'string')];
      }, inputs, ['float32', 'string'])),
  ];
}

/** The tree above evaluated by hand for the rows below: (age, income) -> class probabilities. */
const AGE = [25, 40, 35, 29.5, 30];
const INCOME = [60, 20, 49.5, 10, 50];
const BY_HAND = [
  [0.1, 0.9], // income 60 >= 50
  [0.4, 0.6], // income 20 < 50, age 40 >= 30
  [0.4, 0.6], // income 49.5 < 50, age 35 >= 30
  [0.9, 0.1], // income 10 < 50, age 29.5 < 30
  [0.1, 0.9], // income 50 >= 50 (the threshold goes above)
];

const counts = (): [number, number] => [ef.memory().numTensors, ef.memory().numDataBuffers];

/** Loads `a`, expecting a clean load error matching every pattern, with no tensors or buffers leaked. */
function rejects(a: unknown, ...res: RegExp[]): string {
  const before = counts();
  const caught = thrown(() => ef.loadFunction(a as object));
  expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
  const msg = (caught as Error).message;
  expect(msg).toMatch(/^loadFunction: .*\(got .*, expected .*\)\. \S.*\.$/s);
  for (const re of res) expect(msg).toMatch(re);
  expect(counts()).toEqual(before);
  return msg;
}

describe('TF-DF serving graphs through ef.registerOp (as @tensorflow/tfjs-tfdf registers them with tfjs-converter)', () => {
  let off: Array<() => void> = [];
  beforeEach(() => {
    off = registerTfdfOps();
    loaded = null;
    loads.length = 0;
  });
  afterEach(() => {
    for (const f of off) f();
  });

  test('the registered ops load the tree from the path Const and run it: outputs match the tree by hand', async () => {
    const before = counts();
    const g = ef.loadFunction<T[]>(tfdfArtifacts(MODEL_DIR));
    expect(g.inputNames).toEqual(['age', 'income']);
    expect(g.outputNames).toEqual(['dense_predictions', 'dense_col_representation']);
    expect(loads).toEqual([]); // nothing ran at load: the load op is stateful, never folded
    const age = ef.constant(AGE);
    const income = ef.constant(INCOME);
    const [preds, cols] = await g.callAsync({ age, income });
    // The load op ran first (a control input of the inference op), with the path Const's string and the file_prefix attr.
    expect(loads).toEqual([MODEL_DIR]);
    expect(preds.dtype).toBe('float32');
    expect([...preds.shape]).toEqual([5, 2]);
    const got = preds.arraySync() as number[][];
    got.forEach((row, k) => row.forEach((v, j) => expect(v).toBeCloseTo(BY_HAND[k][j], 6)));
    expect(cols.dtype).toBe('string');
    expect(cols.arraySync()).toEqual(['0', '1']);
    // Every call runs the graph again (tfjs-converter runs the load op on every execute too).
    loaded = null;
    const [age1, income1] = [ef.constant([31]), ef.constant([0])];
    const again = await g.callAsync(age1, income1);
    expect(again[0].arraySync()).toEqual([[0.4000000059604645, 0.6000000238418579]]);
    expect(loads.length).toBe(2);
    for (const t of [preds, cols, ...again, age, income, age1, income1]) t.dispose();
    g.dispose();
    expect(counts()).toEqual(before);
  });

  test('a missing model file fails the call with the host error, and leaks nothing', async () => {
    const g = ef.loadFunction<T[]>(tfdfArtifacts(path.join(tmp, 'nowhere')));
    const before = counts();
    const x = ef.constant([1]);
    await expect(g.callAsync(x, x)).rejects.toThrow(/ENOENT.*nowhere/s);
    x.dispose();
    expect(counts()).toEqual(before);
    g.dispose();
  });

  test('without the registration, loading lists all three ops and says to register them with ef.registerOp', () => {
    for (const f of off) f();
    const msg = rejects(
      tfdfArtifacts(MODEL_DIR),
      /the model uses 3 ops EagerFlow cannot run: SimpleMLCreateModelResource, SimpleMLInferenceOpWithHandle, SimpleMLLoadModelFromPathWithHandle/,
      /Supply them with ef\.registerOp\('SimpleMLCreateModelResource'/,
      /TensorFlow Decision Forests model, which tfjs-converter runs only after @tensorflow\/tfjs-tfdf registers these ops with its registerOp; register them the same way with ef\.registerOp/,
    );
    expect(msg).not.toMatch(/Placeholder|Pack|Identity/);
    // Registering again loads; unregistering one op restores the error for that op alone.
    off = registerTfdfOps();
    ef.loadFunction(tfdfArtifacts(MODEL_DIR)).dispose();
    off[2]();
    rejects(tfdfArtifacts(MODEL_DIR), /the model uses 1 op EagerFlow cannot run: SimpleMLInferenceOpWithHandle \(/, /@tensorflow\/tfjs-tfdf/);
  });

  test('an async op function (tfjs-tfdf style, returning a Promise) is refused at load with the way to run it', async () => {
    const unregister = ef.registerOp('SimpleMLLoadModelFromPathWithHandle', (async () => ef.constant(0)) as unknown as ef.CustomOp);
    let unhandled = 0;
    const count = (): void => void unhandled++;
    process.on('unhandledRejection', count);
    try {
      const before = counts();
      const caught = thrown(() => ef.loadFunction(tfdfArtifacts(MODEL_DIR)));
      expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
      expect((caught as Error).message).toMatch(/node 'load_model' \(SimpleMLLoadModelFromPathWithHandle\).*the registered op 'SimpleMLLoadModelFromPathWithHandle' returned a Promise.*ef\.pyFunction\(async/s);
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toBe(0);
      expect(counts()).toEqual(before); // the tensors it resolves to are released
    } finally {
      process.off('unhandledRejection', count);
      unregister();
    }
  });
});

test('an op supplied by ef.registerOp is never folded at load, even on constant inputs', () => {
  let runs = 0;
  const unregister = ef.registerOp('TestCountingShape', (inputs) => ef.pyFunction((s) => (runs++, s), inputs, 'int32'));
  try {
    const a = {
      format: 'graph-model',
      modelTopology: { node: [
        { name: 'x', op: 'Placeholder', attr: { dtype: dtype('DT_FLOAT'), shape: { shape: { dim: [{ size: '6' }] } } } },
        constNode('shape', 'DT_INT32'),
        { name: 'counted', op: 'TestCountingShape', input: ['shape'] },
        { name: 'y', op: 'Reshape', input: ['x', 'counted'], attr: { T: dtype('DT_FLOAT'), Tshape: dtype('DT_INT32') } },
      ] },
      weightSpecs: [{ name: 'shape', shape: [2], dtype: 'int32' }],
      weightData: new Int32Array([2, 3]),
    };
    const g = ef.loadFunction<T>(a);
    expect(runs).toBe(0);
    const y = g(ef.constant([1, 2, 3, 4, 5, 6]));
    expect(y.arraySync()).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(runs).toBe(1);
    y.dispose();
    g.dispose();
  } finally {
    unregister();
  }
});
