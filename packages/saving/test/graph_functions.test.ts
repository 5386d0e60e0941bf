// TF 2.21 graphs as SavedModels hold them (scripts/tf-golden/graph_functions.py): the serving signature's main graph
// with StatefulPartitionedCall into the function library, resource variables (reads, assign/assign_add/assign_sub),
// While/If with TensorLists, the newly imported ops, and a TF1 graph with reference variables and
// PlaceholderWithDefault. Each runs through readTfGraph + signatureFunction (imported), called directly and inside
// ef.trace (traced), and must match TF's outputs, TF's gradients (inputs and variables) and TF's variable updates.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import { decodeTfProto } from '../src/proto/tf_protos';
import { thrown } from '../../../test/harness/thrown';

type T = ef.Tensor;
const DIR = path.join(__dirname, 'fixtures', 'tf_graphs');
type Nested = number | boolean | Nested[];
interface Fixture {
  inputs: Record<string, { name: string; dtype: string; shape: number[] }>;
  outputs: Record<string, { name: string }>;
  variables: Record<string, { dtype: 'float32' | 'int32'; shape: number[]; values: Nested }>;
  feeds: Record<string, Nested>;
  feedDtypes?: Record<string, 'float32' | 'int32'>;
  expect: Record<string, Nested>;
  lossWeights?: Record<string, Nested>;
  grads?: Record<string, Nested | null>;
  variablesAfter: Record<string, Nested>;
  ops: string[];
}

const fixture = (name: string): { graph: ef.internal.TfGraph; fx: Fixture } => ({
  graph: ef.internal.readTfGraph(new Uint8Array(fs.readFileSync(path.join(DIR, `${name}.pb`)))),
  fx: JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Fixture,
});

const flat = (x: Nested): number[] => (Array.isArray(x) ? x.flatMap(flat) : [Number(x)]);

function close(got: T | null, want: Nested, what: string, tol = 1e-5): void {
  expect(got).not.toBeNull();
  const g = Array.from((got as T).dataSync() as ArrayLike<number>);
  const w = flat(want);
  expect([what, g.length]).toEqual([what, w.length]);
  const scale = Math.max(1, ...w.map(Math.abs));
  const err = Math.max(0, ...g.map((v, i) => Math.abs(v - w[i])));
  if (err > tol * scale) throw new Error(`${what}: max error ${err} (scale ${scale})\n got  ${g.slice(0, 8)}\n want ${w.slice(0, 8)}`);
}

function variablesOf(fx: Fixture): Record<string, ef.Variable> {
  return Object.fromEntries(Object.entries(fx.variables).map(([k, v]) => [k, new ef.Variable(ef.constant(flat(v.values), v.dtype, v.shape), { name: k })]));
}

const signature = (fx: Fixture) => ({
  inputs: Object.fromEntries(Object.entries(fx.inputs).map(([k, v]) => [k, { name: v.name }])),
  outputs: fx.outputs,
});

/** One call under a tape: outputs, gradients of sum(out * weights) to the inputs and the float variables. */
function runOnce(f: (feeds: Record<string, T>) => Record<string, T>, fx: Fixture, vars: Record<string, ef.Variable>) {
  const feeds = Object.fromEntries(Object.entries(fx.feeds).map(([k, v]) => [k, ef.constant(flat(v), fx.feedDtypes?.[k] ?? 'float32', fx.inputs[k]?.shape.map((d, i) => (d >= 0 ? d : shapeOf(v)[i])) ?? shapeOf(v))]));
  const tape = new ef.GradientTape({ persistent: true });
  let outs: Record<string, T> = {};
  const loss = tape.record(() => {
    Object.values(feeds).forEach((x) => x.dtype === 'float32' && tape.watch(x));
    outs = f(feeds);
    const terms = Object.entries(fx.lossWeights ?? {}).map(([k, w]) => ef.reduceSum(ef.multiply(outs[k], ef.constant(flat(w), 'float32', outs[k].dims as number[]))));
    return terms.length ? terms.reduce((a, b) => ef.add(a, b)) : ef.constant(0);
  });
  const grads: Record<string, T | null> = {};
  for (const k of Object.keys(fx.grads ?? {})) grads[k] = tape.gradient(loss, (feeds[k] ?? vars[k]) as T) as T | null;
  return { outs, grads };
}

function shapeOf(x: Nested): number[] {
  return Array.isArray(x) ? [x.length, ...(x.length ? shapeOf(x[0]) : [])] : [];
}

const V2 = ['dense', 'counter', 'loop', 'branch', 'new_ops', 'upsample', 'resize_cond', 'raw_ops', 'converter_ops', 'ragged_ops', 'transform_ops'];

describe('TF 2.21 SavedModel graphs run as TF runs them', () => {
  test.each(V2)('%s: imported signature == TF (outputs, gradients, variable updates)', (name) => {
    const { graph, fx } = fixture(name);
    const vars = variablesOf(fx);
    const f = ef.internal.signatureFunction(graph, signature(fx), { variables: vars, outputs: 'dict' });
    const { outs, grads } = runOnce((feeds) => f(feeds) as Record<string, T>, fx, vars);
    for (const [k, want] of Object.entries(fx.expect)) close(outs[k], want, `${name} output ${k}`);
    for (const [k, want] of Object.entries(fx.grads ?? {})) {
      if (want === null) expect([k, grads[k]]).toEqual([k, null]);
      else close(grads[k], want, `${name} gradient of ${k}`);
    }
    for (const [k, want] of Object.entries(fx.variablesAfter)) close(vars[k].value(), want, `${name} variable ${k} after the call`);
    f.dispose();
    // The caller's variables stay alive.
    expect(Object.values(vars).every((v) => v.value().dims !== null)).toBe(true);
  });

  test.each(V2)('%s: called inside ef.trace == TF', (name) => {
    const { graph, fx } = fixture(name);
    const vars = variablesOf(fx);
    const f = ef.internal.signatureFunction(graph, signature(fx), { variables: vars, outputs: 'dict' });
    const keys = Object.keys(fx.inputs);
    const outKeys = Object.keys(fx.expect);
    const traced = ef.trace((...xs: T[]) => {
      const o = f(Object.fromEntries(keys.map((k, i) => [k, xs[i]]))) as Record<string, T>;
      return outKeys.map((k) => o[k]);
    });
    const { outs, grads } = runOnce((feeds) => {
      const ys = traced(...keys.map((k) => feeds[k])) as T[];
      return Object.fromEntries(outKeys.map((k, i) => [k, ys[i]]));
    }, fx, vars);
    for (const [k, want] of Object.entries(fx.expect)) close(outs[k], want, `${name} traced output ${k}`);
    for (const [k, want] of Object.entries(fx.grads ?? {})) if (want !== null && k in fx.inputs) close(grads[k], want, `${name} traced gradient of ${k}`);
  });

  test('the library FunctionDef of a signature runs alone, its captures bound to the variables', () => {
    const { graph, fx } = fixture('dense');
    const vars = variablesOf(fx);
    const fname = [...graph.library.keys()].find((k) => k.startsWith('__inference_serve_')) as string;
    const f = ef.internal.libraryFunction(graph, fname, { captures: [vars.w, vars.b] });
    expect(f.inputSignature.map(String)).toEqual(["TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')"]);
    close(f(ef.constant(flat(fx.feeds.x), 'float32', [2, 3])) as T, fx.expect.y, 'dense via the FunctionDef');
  });

  test('TF1 graph: VariableV2 with AssignAdd, PlaceholderWithDefault defaults, an extra Placeholder as a named input', () => {
    const { graph, fx } = fixture('v1_refvars');
    const v = new ef.Variable(ef.constant(flat(fx.variables.v.values), 'float32', [2]), { name: 'v' });
    const f = ef.internal.signatureFunction(graph, { inputs: { x: { name: 'x:0' }, extra: { name: 'extra:0' } }, outputs: fx.outputs }, { variables: { v }, outputs: 'dict' });
    const out = f({ x: ef.constant(flat(fx.feeds.x), 'float32', [3, 2]), extra: ef.constant(flat(fx.feeds.extra), 'float32', [2]) }) as Record<string, T>;
    close(out.y, fx.expect.y, 'v1 y');
    close(out.z, fx.expect.z, 'v1 z');
    close(v.value(), fx.variablesAfter.v, 'v1 variable after the call');
    // Without the extra feed, fetching z names the Placeholder it needs.
    expect(() => ef.internal.signatureFunction(graph, { inputs: { x: { name: 'x:0' } }, outputs: fx.outputs }, { variables: { v } })).toThrow(/Placeholder.*'extra'/);
  });

  test('a missing variable, ops without a kernel and a wrong run-time shape fail clearly, without leaks', () => {
    const { graph, fx } = fixture('dense');
    const before = ef.memory().numTensors;
    expect(() => ef.internal.signatureFunction(graph, signature(fx), { variables: {} })).toThrow(/variable 'b' has no initial value|variable 'w' has no initial value/);
    expect(ef.memory().numTensors).toBe(before);
    const vars = variablesOf(fx);
    const f = ef.internal.signatureFunction(graph, signature(fx), { variables: vars });
    expect(() => f(ef.zeros([2, 5]))).toThrow(/does not match the signature/);
    f.dispose();
  });

  test('ops without a kernel fail at load, all listed at once (also inside library functions), without leaks', () => {
    const { graph, fx } = fixture('new_ops');
    const json = JSON.parse(JSON.stringify(graph.json)) as ef.internal.GraphDefJson;
    for (const f of json.library?.function ?? []) for (const n of (f.nodeDef as { op: string }[]) ?? []) if (n.op === 'Erfc' || n.op === 'Einsum') n.op = n.op === 'Erfc' ? 'MyErfc' : 'MyEinsum';
    const before = ef.memory().numTensors;
    expect(() => ef.internal.signatureFunction(ef.internal.readTfGraph(json as never), signature(fx))).toThrow(/uses 2 ops EagerFlow cannot run: MyEinsum, MyErfc/);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('a shape that is only wrong at run time raises InvalidArgumentError naming the TF node', () => {
    const F = { type: 'DT_FLOAT' };
    const shape = (d: number[]) => ({ shape: { dim: d.map((size) => ({ size: String(size) })) } });
    const g = ef.internal.readTfGraph({ node: [
      { name: 'x', op: 'Placeholder', attr: { dtype: F, shape: shape([-1, 3]) } },
      { name: 'y', op: 'Placeholder', attr: { dtype: F, shape: shape([-1, 3]) } },
      { name: 'sum', op: 'AddV2', input: ['x', 'y'], attr: { T: F } },
      { name: 'out', op: 'Identity', input: ['sum'], attr: { T: F } },
    ] } as never);
    const f = ef.internal.signatureFunction(g, { inputs: { x: { name: 'x:0' }, y: { name: 'y:0' } }, outputs: { out: { name: 'out:0' } } });
    const [x, y] = [ef.zeros([2, 3]), ef.zeros([4, 3])];
    const before = ef.memory().numTensors;
    const caught = thrown(() => f({ x, y }));
    expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect((caught as Error).message).toMatch(/read from the graph: node 'sum' \(AddV2\)/);
    expect(ef.memory().numTensors).toBe(before);
    f.dispose();
  });

  test('string_ops: StaticRegexReplace, StringToHashBucketFast, StringSplit, StringNGrams imported == TF, called and traced', () => {
    const { graph, fx } = fixture('string_ops');
    const f = ef.internal.signatureFunction(graph, signature(fx), { outputs: 'dict' });
    const feed = (k: string): T => ef.constant(fx.feeds[k] as unknown as string[]);
    const keys = Object.keys(fx.expect).sort();
    const traced = ef.trace((s: T, words: T) => {
      const o = f({ s, words }) as Record<string, T>;
      return keys.map((k) => o[k]);
    });
    const direct = f({ s: feed('s'), words: feed('words') }) as Record<string, T>;
    const viaTrace = traced(feed('s'), feed('words')) as T[];
    for (const [i, k] of keys.entries()) {
      expect([k, direct[k].arraySync()]).toEqual([k, fx.expect[k]]);
      expect([k, viaTrace[i].arraySync()]).toEqual([k, fx.expect[k]]);
    }
    f.dispose();
  });

  test('TF1 TensorArraySplitV3 (equal lengths) and TensorArrayConcatV3 == TF; unequal lengths are refused naming the node', () => {
    const { graph, fx } = fixture('v1_tensor_array');
    const f = ef.internal.signatureFunction(graph, { inputs: { x: { name: 'x:0' } }, outputs: fx.outputs }, { outputs: 'dict' });
    const out = f({ x: ef.constant(flat(fx.feeds.x), 'float32', [6, 2]) }) as Record<string, T>;
    close(out.cat, fx.expect.cat, 'TensorArrayConcatV3');
    close(out.item, fx.expect.item, 'TensorArrayReadV3 after TensorArraySplitV3');
    f.dispose();
    const I = { type: 'DT_INT32' };
    const lengths = { name: 'lengths', op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: { dim: [{ size: '2' }] }, int_val: [2, 4] } } } };
    const g = ef.internal.readTfGraph({ node: [
      { name: 'x', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' }, shape: { shape: { dim: [{ size: '6' }, { size: '2' }] } } } },
      { name: 'size', op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: {}, int_val: [2] } } } },
      { name: 'ta', op: 'TensorArrayV3', input: ['size'], attr: { dtype: { type: 'DT_FLOAT' } } },
      lengths,
      { name: 'sp', op: 'TensorArraySplitV3', input: ['ta', 'x', 'lengths', 'ta:1'], attr: { T: { type: 'DT_FLOAT' } } },
      { name: 'cat', op: 'TensorArrayConcatV3', input: ['ta', 'sp'], attr: { dtype: { type: 'DT_FLOAT' } } },
    ] } as never);
    expect(() => ef.internal.signatureFunction(g, { inputs: { x: { name: 'x:0' } }, outputs: { y: { name: 'cat:0' } } })).toThrow(/node 'sp' \(TensorArraySplitV3\).*equal lengths/);
  });

  test('TF1 hash tables: HashTableV2 filled by LookupTableImportV2, LookupTableFindV2 with defaults, LookupTableSizeV2 == TF', () => {
    const { graph, fx } = fixture('v1_hash_tables');
    const f = ef.internal.signatureFunction(graph, { inputs: { words: { name: 'words:0' }, ids: { name: 'ids:0' } }, outputs: fx.outputs }, { outputs: 'dict' });
    const feeds = () => ({ words: ef.constant(fx.feeds.words as unknown as string[]), ids: ef.constant(flat(fx.feeds.ids), 'int32') });
    const out = f(feeds()) as Record<string, T>;
    for (const k of ['found', 'scaled', 'size']) close(out[k], fx.expect[k], `hash table ${k}`);
    const traced = ef.trace((words: T, ids: T) => {
      const o = f({ words, ids }) as Record<string, T>;
      return [o.found, o.scaled];
    });
    const [found, scaled] = traced(feeds().words, feeds().ids) as T[];
    close(found, fx.expect.found, 'traced lookup (string keys)');
    close(scaled, fx.expect.scaled, 'traced lookup (int keys)');
    // Keys of the wrong dtype: an InvalidArgumentError naming the node, at load, without leaks.
    const before = ef.memory().numTensors;
    const [S, I] = [{ type: 'DT_STRING' }, { type: 'DT_INT32' }];
    const g = ef.internal.readTfGraph({ node: [
      { name: 'x', op: 'Placeholder', attr: { dtype: I, shape: { shape: { dim: [{ size: '2' }] } } } },
      { name: 'table', op: 'HashTableV2', attr: { key_dtype: S, value_dtype: I } },
      { name: 'keys', op: 'Const', attr: { dtype: S, value: { tensor: { dtype: 'DT_STRING', tensor_shape: { dim: [{ size: '2' }] }, string_val: ['YQ==', 'Yg=='] } } } },
      { name: 'vals', op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: { dim: [{ size: '2' }] }, int_val: [1, 2] } } } },
      { name: 'dflt', op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: {}, int_val: [0] } } } },
      { name: 'fill', op: 'LookupTableImportV2', input: ['table', 'keys', 'vals'], attr: { Tin: S, Tout: I } },
      { name: 'find', op: 'LookupTableFindV2', input: ['table', 'x', 'dflt'], attr: { Tin: I, Tout: I } },
    ] } as never);
    let caught: unknown;
    try {
      ef.internal.signatureFunction(g, { inputs: { x: { name: 'x:0' } }, outputs: { y: { name: 'find:0' } } });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect((caught as Error).message).toMatch(/node 'find' \(LookupTableFindV2\).*wrong dtype.*int32 keys.*string keys/);
    expect(ef.memory().numTensors).toBe(before);
    f.dispose();
  });

  test('converter ops refuse bad operands at load, naming the node, without leaks', () => {
    const [F, I] = [{ type: 'DT_FLOAT' }, { type: 'DT_INT32' }];
    const shape = (d: number[]) => ({ shape: { dim: d.map((size) => ({ size: String(size) })) } });
    const load = (nodes: unknown[]) => () => ef.internal.signatureFunction(ef.internal.readTfGraph({ node: nodes } as never), { inputs: { x: { name: 'x:0' } }, outputs: { out: { name: 'out:0' } } });
    const before = ef.memory().numTensors;
    // BitwiseAnd on floats (TF's op takes integers only).
    expect(load([
      { name: 'x', op: 'Placeholder', attr: { dtype: F, shape: shape([3]) } },
      { name: 'band', op: 'BitwiseAnd', input: ['x', 'x'], attr: { T: F } },
      { name: 'out', op: 'Identity', input: ['band'], attr: { T: F } },
    ])).toThrow(/node 'band' \(BitwiseAnd\).*int32 operands/);
    // Dilation2D on an input whose spatial size is unknown.
    expect(load([
      { name: 'x', op: 'Placeholder', attr: { dtype: F, shape: shape([1, -1, -1, 1]) } },
      { name: 'f', op: 'Const', attr: { dtype: F, value: { tensor: { dtype: 'DT_FLOAT', tensor_shape: { dim: [{ size: '2' }, { size: '2' }, { size: '1' }] }, float_val: [0] } } } },
      { name: 'dil', op: 'Dilation2D', input: ['x', 'f'], attr: { T: F, strides: { list: { i: ['1', '1', '1', '1'] } }, rates: { list: { i: ['1', '1', '1', '1'] } }, padding: { s: 'VkFMSUQ=' } } },
      { name: 'out', op: 'Identity', input: ['dil'], attr: { T: F } },
    ])).toThrow(/node 'dil' \(Dilation2D\).*static height/);
    // SparseReshape to a shape of another element count.
    const ints = (name: string, v: number[], dims: number[]) => ({ name, op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: { dim: dims.map((size) => ({ size: String(size) })) }, int_val: v } } } });
    expect(load([
      { name: 'x', op: 'Placeholder', attr: { dtype: I, shape: shape([2, 2]) } },
      ints('from', [2, 6], [2]), ints('to', [5, -1], [2]),
      { name: 'sr', op: 'SparseReshape', input: ['x', 'from', 'to'] },
      { name: 'out', op: 'Identity', input: ['sr:1'], attr: { T: I } },
    ])).toThrow(/node 'sr' \(SparseReshape\).*\[2,6\] to \[5,-1\]/);
    // A string op on numbers.
    expect(load([
      { name: 'x', op: 'Placeholder', attr: { dtype: F, shape: shape([2]) } },
      { name: 'rr', op: 'StaticRegexReplace', input: ['x'], attr: { pattern: { s: 'YQ==' }, rewrite: { s: 'Yg==' } } },
      { name: 'out', op: 'Identity', input: ['rr'], attr: { T: { type: 'DT_STRING' } } },
    ])).toThrow(/node 'rr' \(StaticRegexReplace\).*string input/);
    // RaggedRange with float starts and int limits.
    expect(load([
      { name: 'x', op: 'Placeholder', attr: { dtype: F, shape: shape([2]) } },
      ints('lim', [3, 4], [2]),
      { name: 'rg', op: 'RaggedRange', input: ['x', 'lim', 'lim'], attr: { T: F } },
      { name: 'out', op: 'Identity', input: ['rg:1'], attr: { T: F } },
    ])).toThrow(/node 'rg' \(RaggedRange\).*one numeric dtype/);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('Const TensorProtos: *_val lists (the last value repeats), tensor_content, int64 and half narrowed, out-of-range int64 refused', () => {
    const dim = (d: number[]) => ({ dim: d.map((size) => ({ size: String(size) })) });
    const c = (name: string, dtype: string, d: number[], fields: Record<string, unknown>) => ({ name, op: 'Const', attr: { dtype: { type: dtype }, value: { tensor: { dtype, tensorShape: dim(d), ...fields } } } });
    const bytes = new Uint8Array(new Float32Array([1.5, -2, 3.25]).buffer);
    const graph = (consts: Record<string, unknown>[]) => ef.internal.readTfGraph({ node: [...consts, ...consts.map((k) => ({ name: `out_${k.name as string}`, op: 'Identity', input: [k.name], attr: {} }))] } as never);
    const run = (consts: Record<string, unknown>[]) => {
      const f = ef.internal.signatureFunction(graph(consts), { inputs: {}, outputs: Object.fromEntries(consts.map((k) => [k.name as string, { name: `out_${k.name as string}:0` }])) }, { outputs: 'dict' });
      const o = f() as Record<string, T>;
      const out = Object.fromEntries(Object.entries(o).map(([k, t]) => [k, [t.dtype, t.arraySync()]]));
      f.dispose();
      return out;
    };
    expect(run([
      c('splat', 'DT_FLOAT', [2, 2], { floatVal: [1, 2.5] }),
      c('i64', 'DT_INT64', [3], { int64Val: ['5', '-7', '9'] }),
      c('half', 'DT_HALF', [2], { halfVal: [0x3c00, 0xc100] }),
      c('raw', 'DT_FLOAT', [3], { tensorContent: Buffer.from(bytes).toString('base64') }),
      c('dbl', 'DT_DOUBLE', [], { doubleVal: [0.25] }),
    ])).toEqual({ splat: ['float32', [[1, 2.5], [2.5, 2.5]]], i64: ['int32', [5, -7, 9]], half: ['float32', [1, -2.5]], raw: ['float32', [1.5, -2, 3.25]], dbl: ['float32', 0.25] });
    expect(() => run([c('big', 'DT_INT64', [1], { int64Val: ['4294967296'] })])).toThrow(/DT_INT64 Const does not fit int32/);
    expect(() => run([c('short', 'DT_FLOAT', [2], { tensorContent: Buffer.from([1, 2, 3]).toString('base64') })])).toThrow(/Const tensor is invalid \(got 3 content bytes/);
  });

  test('eager: the new ops called as ef ops on the fixture inputs == TF', () => {
    const { fx } = fixture('new_ops');
    const image = ef.constant(flat(fx.feeds.image), 'float32', [1, 5, 5, 2]);
    const a = ef.constant(flat(fx.feeds.a), 'float32', [3, 3]);
    const crops = ef.image.cropAndResize(image, [[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 0.5, 0.5]], [0, 0], [3, 2]);
    close(crops, fx.expect.crops, 'eager cropAndResize');
    close(ef.einsum('ij,kj->ik', a, a), fx.expect.einsum, 'eager einsum');
    const mag = ef.sqrt(ef.add(ef.square(a), ef.square(ef.multiply(a, 2))));
    close(ef.add(ef.multiply(ef.cast(ef.size(a), 'float32'), mag), ef.subtract(1, ef.math.erf(a))), fx.expect.size, 'eager size * |complex| + erfc');
  });

  test("a tf.function's concrete graph: captured variables are DT_RESOURCE Placeholders bound by name", () => {
    const { graph, fx } = fixture('concrete');
    const vars = variablesOf(fx);
    const f = ef.internal.signatureFunction(graph, signature(fx), { variables: vars, outputs: 'dict' });
    close((f({ x: ef.constant(flat(fx.feeds.x), 'float32', [2, 3]) }) as Record<string, T>).y, fx.expect.y, 'concrete graph output');
    expect(() => ef.internal.signatureFunction(graph, signature(fx), {})).toThrow(/has no initial value/);
  });

  test('readTfGraph takes the message as protobufjs decodes it (snake_case, byte arrays, enum numbers) and GraphDef JSON alike', () => {
    const { fx } = fixture('dense');
    const bytes = new Uint8Array(fs.readFileSync(path.join(DIR, 'dense.pb')));
    const decoded = decodeTfProto('tensorflow.GraphDef', bytes);
    for (const graph of [ef.internal.readTfGraph(decoded), ef.internal.readTfGraph(JSON.parse(JSON.stringify(ef.internal.readTfGraph(bytes).json)))]) {
      const f = ef.internal.signatureFunction(graph, signature(fx), { variables: variablesOf(fx), outputs: 'dict' });
      close((f({ x: ef.constant(flat(fx.feeds.x), 'float32', [2, 3]) }) as Record<string, T>).y, fx.expect.y, 'dense from a decoded message');
    }
    expect(() => ef.internal.readTfGraph(bytes.subarray(0, 100))).toThrow(/not a valid tensorflow.GraphDef protobuf/);
  });
});

/**
 * The symbolic_dims case's computation written with EagerFlow's own ops: every composite that once had a second,
 * run-time-shaped copy (the *Dyn functions), now written once against Dims (core's symbolic_dims.ts).
 */
function symbolicDimsEf({ img, s, m, v }: Record<string, T>): Record<string, T> {
  const col0 = (t: T): T => ef.gather(t, ef.constant(0, 'int32'), 1);
  const s0 = ef.gather(s, ef.constant(0, 'int32'), 0);
  const v0 = col0(v);
  const [g1, g2] = ef.meshgrid(s0, v0);
  return {
    frame: ef.signal.frame(s, 4, 3, { padEnd: true, padValue: 0.5 }),
    oa: ef.signal.overlapAndAdd(ef.signal.frame(s, 4, 2), 2),
    crop: ef.image.cropToBoundingBox(img, 1, 1, 3, 2),
    padbox: ef.image.padToBoundingBox(img, 1, 2, 8, 9),
    central: ef.image.centralCrop(img, 0.5),
    patches: ef.image.extractPatches(img, [1, 2, 2, 1], [1, 2, 1, 1], [1, 1, 1, 1], 'SAME'),
    transpose: ef.image.transpose(img),
    standard: ef.image.perImageStandardization(img),
    roll: ef.roll(m, 1, 0),
    repeat: ef.repeat(m, 2, 0),
    sort: ef.sort(m, 0),
    diag_part: ef.linalg.diagPart(m),
    band: ef.linalg.bandPart(m, 1, 0),
    set_diag: ef.linalg.setDiag(m, ef.add(ef.multiply(ef.linalg.diagPart(m), 2), 1)),
    diag: ef.linalg.diag(v0),
    cross: ef.linalg.cross(v, ef.add(ef.multiply(v, 2), 1)),
    tensordot: ef.tensordot(m, v, [[0], [0]]),
    einsum: ef.einsum('ij,ik->jk', m, v),
    mask: ef.booleanMask(m, ef.greater(col0(m), 0)),
    mesh: ef.multiply(g1, g2),
  };
}

describe('symbolic dims: EagerFlow ops == TF 2.21 with unknown batch and spatial dims', () => {
  const check = (name: string, f: (feeds: Record<string, T>) => Record<string, T>): void => {
    const { fx } = fixture('symbolic_dims');
    const { outs, grads } = runOnce(f, fx, {});
    for (const [k, want] of Object.entries(fx.expect)) close(outs[k], want, `${name} output ${k}`);
    for (const [k, want] of Object.entries(fx.grads ?? {})) close(grads[k], want as Nested, `${name} gradient of ${k}`);
  };

  test('eager (direct ops)', () => check('eager', symbolicDimsEf));

  test('imported: the GraphDef == TF (outputs and gradients), computed static parameters folded at load', () => {
    // tf.image's run-time Asserts stay run-time checks; tf.signal.frame's GatherV2 axis is StridedSlice(Range(Rank)),
    // folded when the graph loads (constant_fold.ts); the unknown batch and spatial dims are read when it runs.
    const { graph, fx } = fixture('symbolic_dims');
    const f = ef.internal.signatureFunction(graph, signature(fx), { variables: {}, outputs: 'dict' });
    check('imported', (feeds) => f(feeds) as Record<string, T>);
    f.dispose();
  });

  test('imported: contracted dims that only disagree when the graph runs raise InvalidArgumentError naming the TF node, without leaks', () => {
    const { graph, fx } = fixture('symbolic_dims');
    const f = ef.internal.signatureFunction(graph, signature(fx), { variables: {}, outputs: 'dict' });
    const feeds = Object.fromEntries(Object.entries(fx.feeds).map(([k, v]) => [k, ef.constant(flat(v), 'float32', shapeOf(v))]));
    // v with 5 rows against m's 4: tensordot and einsum contract m's rows with v's.
    feeds.v.dispose();
    feeds.v = ef.ones([5, 3]);
    const before = ef.memory().numTensors;
    const e = thrown(() => f(feeds));
    expect(e).toBeInstanceOf(ef.errors.InvalidArgumentError);
    // As TF's own MatMul kernel raises for this graph: the imported node named, with both shapes.
    expect(String(e)).toMatch(/inner dimensions do not match.*\[5,3\][^]*node 'Tensordot\/MatMul' \(MatMul\)/);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose(Object.values(feeds));
    f.dispose();
  });

  test('imported, then called inside ef.trace with the signature\'s null dims', () => {
    const { graph, fx } = fixture('symbolic_dims');
    const f = ef.internal.signatureFunction(graph, signature(fx), { variables: {}, outputs: 'dict' });
    const keys = Object.keys(fx.inputs).sort();
    const outKeys = Object.keys(fx.expect);
    const specs = keys.map((k) => new ef.TensorSpec(fx.inputs[k].shape.map((d) => (d >= 0 ? d : null))));
    const traced = ef.trace((...xs: T[]) => {
      const o = f(Object.fromEntries(keys.map((k, i) => [k, xs[i]]))) as Record<string, T>;
      return outKeys.map((k) => o[k]);
    }, { inputSignature: specs });
    check('imported-then-traced', (feeds) => {
      const ys = traced(...keys.map((k) => feeds[k])) as T[];
      return Object.fromEntries(outKeys.map((k, i) => [k, ys[i]]));
    });
    f.dispose();
  });

  test('traced with the signature\'s null dims (one trace, the shapes read when the graph runs)', () => {
    const { fx } = fixture('symbolic_dims');
    const keys = Object.keys(fx.inputs).sort();
    const outKeys = Object.keys(fx.expect);
    const specs = keys.map((k) => new ef.TensorSpec(fx.inputs[k].shape.map((d) => (d >= 0 ? d : null))));
    expect(specs.map((sp) => sp.shape.toString())).toEqual(['(None, None, None, 3)', '(None, None)', '(None, None)', '(None, 3)']);
    const traced = ef.trace((...xs: T[]) => {
      const o = symbolicDimsEf(Object.fromEntries(keys.map((k, i) => [k, xs[i]])));
      return outKeys.map((k) => o[k]);
    }, { inputSignature: specs });
    check('traced', (feeds) => {
      const ys = traced(...keys.map((k) => feeds[k])) as T[];
      return Object.fromEntries(outKeys.map((k, i) => [k, ys[i]]));
    });
  });
});
