// TF code as written (issue 28): shapes, call forms and the last divergences, against TensorFlow 2.21's own answers
// (fixtures/tf_idioms.json, written by scripts/tf-golden/idioms.py).
import * as ef from 'eagerflow';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

interface Enc {
  dtype: string;
  shape: number[];
  data: (number | string | boolean)[];
}
type Fixture = { shapes: Record<string, unknown>; values: Record<string, unknown> };
const FIX = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/tf_idioms.json'), 'utf8')) as Fixture;
const S = FIX.shapes as Record<string, Enc & unknown[] & number & string>;
const V = FIX.values as Record<string, { x: Enc | number[][]; y: Enc; first: Enc[]; second: Enc[] } & Enc>;

const num = (v: number | string | boolean): number | string | boolean => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === '-0' ? -0 : v);
const decode = (e: Enc): (number | string | boolean)[] => e.data.map(num);
/** Exact (Object.is, so NaN == NaN and -0 != 0 where TF's sign matters) or within float32 rounding. */
function expectTf(t: ef.Tensor, e: Enc, what: string, rtol = 0): void {
  expect([what, t.dtype, t.shape.asList()]).toEqual([what, e.dtype, e.shape]);
  const got: (number | string | boolean)[] = t.dtype === 'string' || t.dtype === 'bool' ? ([t.arraySync()] as unknown[]).flat(8) as (string | boolean)[] : Array.from(t.dataSync() as Float32Array);
  const want = decode(e);
  got.forEach((g, i) => {
    const w = want[i];
    const ok = typeof g === 'number' && typeof w === 'number' ? (Number.isNaN(w) ? Number.isNaN(g) : g === w || Math.abs(g - w) <= rtol * Math.abs(w)) : g === w;
    if (!ok) throw new Error(`${what}[${i}]: got ${String(g)}, TF ${String(w)}`);
  });
}
/** TF's Python error classes -> EagerFlow's (ValueError is a bad argument value: InvalidArgumentError). */
const errorClass = (name: string): new (...a: never[]) => Error => (name === 'TypeError' ? TypeError : ef.errors.InvalidArgumentError);

describe('TensorShape and tensors as TF has them', () => {
  const t = ef.zeros([3, 2, 4, 5]);
  test('index (negative too), rank, length, iteration, asList', () => {
    const s = t.shape;
    expect([s[0], s[-1], s[1], s[-4]]).toEqual(S.index);
    expect(t.ndim).toBe(S.ndim);
    expect(s.length).toBe(S.len);
    expect([...s]).toEqual(S.list);
    expect(s.asList()).toEqual(S.asList);
    expect(s[4]).toBeUndefined(); // TF raises IndexError; a JS property read cannot (docs/tf_departures.md)
    expect(ef.TensorShape.unknown()[0]).toBe(S.unknownRankIndex);
    expect(() => [...ef.TensorShape.unknown()]).toThrow(/cannot iterate over a shape with unknown rank/);
    expect(() => ef.TensorShape.unknown().length).toThrow(ef.errors.InvalidArgumentError);
  });

  test('a TensorShape is a 1-D int32 tensor to ops, and a shape to shape arguments', () => {
    expectTf(ef.reduceProd(t.shape), S.reduceProd, 'reduceProd(t.shape)');
    expect(ef.zeros(new ef.TensorShape(t.shape.asList().slice(1))).shape.asList()).toEqual(S.zerosOfShape);
    expect(ef.reshape(t, t.shape).shape.asList()).toEqual([3, 2, 4, 5]);
    const before = ef.memory().numTensors;
    expect(() => ef.reduceSum(new ef.TensorShape([null, 2]))).toThrow(errorClass(S.partialShapeToTensor));
    expect(() => ef.zeros(new ef.TensorShape([null, 2]))).toThrow(/partially known TensorShape/);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('ef.zeros(2), ef.ones(3): an integer is a 1-D shape', () => {
    expectTf(ef.zeros(2), S.zeros2, 'zeros(2)');
    expectTf(ef.ones(3), S.ones3, 'ones(3)');
  });

  test('tensors as dimensions: fill and reshape (eager), reshape (traced, a run-time shape)', () => {
    const x = ef.constant(3);
    expectTf(ef.fill([ef.cast(x, 'int32')], x), S.fillTensorDim, 'fill([cast(x)], x)');
    expect(ef.reshape(t, [ef.constant(6, 'int32'), -1]).shape.asList()).toEqual(S.reshapeTensorDim);
    expect(ef.reshape(t, ef.constant([6, -1], 'int32')).shape.asList()).toEqual(S.reshapeTensorDim);
    const f = ef.trace((y: ef.Tensor, n: ef.Tensor) => ef.reshape(y, [n, -1]));
    expect(f(t, ef.constant(6, 'int32')).shape.asList()).toEqual(S.reshapeTensorDim);
    expect(f(t, ef.constant(4, 'int32')).shape.asList()).toEqual([4, 30]);
    expect(f.tracingCount).toBe(1);
    expect(() => ef.fill([ef.constant(2)], 1)).toThrow(/int32/);
    const g = ef.trace((n: ef.Tensor) => ef.zeros([n]));
    expect(() => g(ef.constant(2, 'int32'))).toThrow(/symbolic tensor whose value is known only when the graph runs/);
  });

  test('numpy() is the NDArray; convertToTensor as TF', () => {
    const v = new ef.Variable([1, 2]);
    expect(v.value().numpy()).toBeInstanceOf(ef.NDArray);
    const c = ef.constant(1);
    expect(ef.convertToTensor(c)).toBe(c);
    expect(() => ef.convertToTensor(c, 'int32')).toThrow(errorClass(S.convertDtypeMismatch));
    expectTf(ef.convertToTensor([1, 2], null, 'int32'), S.convertHint, 'convertToTensor hint');
    expect(ef.convertToTensor([1.5], null, 'int32').dtype).toBe('float32'); // a hint that does not fit is ignored
  });
});

describe('traced functions as TF has them', () => {
  test('a ConcreteFunction is callable; an extra argument is a TypeError', () => {
    const cf = ef.trace((x: ef.Tensor) => ef.multiply(x, 2)).getConcreteFunction(ef.constant([1, 2]));
    expectTf(cf(ef.constant([1, 2])) as ef.Tensor, S.cfCall, 'cf(x)');
    expect(typeof cf).toBe('function');
    expect(cf).toBeInstanceOf(ef.ConcreteFunction);
    expect(cf.name).toBe('traced');
    expect(() => cf(ef.constant([1, 2]), 3)).toThrow(errorClass(S.cfExtraArg));
    expect(() => cf.call(ef.constant([1, 2]), 3)).toThrow(/takes 1 positional argument but 2 were given/);
  });

  test('returned numbers and strings are tensors', () => {
    expectTf(ef.trace(() => 3.5)() as unknown as ef.Tensor, S.returnsNumber, 'returns 3.5');
    expectTf(ef.trace(() => 'a')() as unknown as ef.Tensor, S.returnsString, "returns 'a'");
  });

  test('a Variable created on every call is refused on the first call', () => {
    const f = ef.trace((x: ef.Tensor) => ef.add(new ef.Variable(1).value(), x));
    // TF raises ValueError; EagerFlow keeps its TypeError for variable creation in traces (docs/tf_departures.md).
    expect(S.variableEveryCall).toBe('ValueError');
    expect(() => f(ef.constant(1))).toThrow(/only supports singleton Variables created on the first call/);
  });
});

describe('values TF gives (no silent divergence)', () => {
  test('linspace: each value is start + i * step in float32, the last exactly stop (TF LinSpace)', () => {
    expectTf(ef.linspace(-10, 10, 201), V.linspace, 'linspace(-10, 10, 201)');
    expectTf(ef.linspace(0.1, 0.7, 7), V.linspaceSmall, 'linspace(0.1, 0.7, 7)');
    const f = ef.trace(() => ef.linspace(-10, 10, 201));
    expectTf(f() as ef.Tensor, V.linspace, 'linspace traced');
  });

  test('softmax of rows holding inf and NaN (TF default build; Eigen, oneDNN off, makes those rows all NaN)', () => {
    const eigen = (V.softmaxRows as unknown as { yEigen: Enc }).yEigen;
    expect(decode(eigen).slice(0, 3).every((v) => Number.isNaN(v))).toBe(true);
    const x = ef.constant(decode(V.softmaxRows.x as Enc) as number[], 'float32', (V.softmaxRows.x as Enc).shape);
    expectTf(ef.softmax(x), V.softmaxRows.y, 'softmax', 2e-7);
    expectTf(ef.nn.softmax(x), V.softmaxRows.y, 'nn.softmax', 2e-7);
    expectTf(ef.trace((y: ef.Tensor) => ef.softmax(y))(x), V.softmaxRows.y, 'softmax traced', 2e-7);
  });

  for (const op of ['divide', 'pow'] as const) {
    test(`${op}: first- and second-order gradients at its singular points`, () => {
      const c = V[op];
      const [a, b] = (c.x as number[][]).map((r) => ef.constant(r));
      const outer = new ef.GradientTape({ persistent: true });
      const { g, s } = outer.record(() => {
        outer.watch([a, b]);
        const inner = new ef.GradientTape();
        const y = inner.record(() => {
          inner.watch([a, b]);
          return ef.reduceSum(op === 'divide' ? ef.divide(a, b) : ef.pow(a, b));
        });
        const g = inner.gradient(y, [a, b]) as ef.Tensor[];
        return { g, s: ef.add(ef.reduceSum(g[0]), ef.reduceSum(g[1])) };
      });
      g.forEach((t, i) => expectTf(t, c.first[i], `${op} first-order d/dx${i}`, 1e-6));
      (outer.gradient(s, [a, b]) as ef.Tensor[]).forEach((t, i) => expectTf(t, c.second[i], `${op} second-order d/dx${i}`, 1e-6));
    });
  }
});

describe('weak types for JS numbers (JAX rule; TF gives the same dtypes for Python numbers)', () => {
  const W = (FIX as unknown as { weak: Record<string, Enc & string> }).weak;
  const i32 = ef.constant(1, 'int32');
  test('a tensor made only from JS numbers takes the strong operand dtype', () => {
    expectTf(ef.add(i32, 1), W.int32PlusNumber, 'int32 + 1');
    expectTf(ef.add(i32, ef.abs(2)), W.int32PlusAbs, 'int32 + abs(2)');
    expectTf(ef.multiply(ef.abs(-3), i32), W.int32TimesAbs, 'abs(-3) * int32');
    expect(ef.abs(2).weak).toBe(true);
    expect(ef.add(ef.abs(2), 1).weak).toBe(true);
  });
  test('alone it is float32, and it never changes a strong dtype', () => {
    expectTf(ef.abs(2.5), W.numbersAlone, 'abs(2.5)');
    expectTf(ef.add(ef.constant(1.5), ef.abs(1)), W.float32PlusNumber, 'float32 + abs(1)');
    expect(ef.add(ef.constant(1.5), ef.abs(1)).weak).toBe(false);
    expect(ef.constant(2).weak).toBe(false); // an explicit ef.constant is strong, as jnp.array
    expect(ef.gather([1, 2, 3], ef.constant([0], 'int32')).dtype).toBe('float32'); // only operands that share a dtype promote
    const frac = ef.abs(1.5);
    const before = ef.memory().numTensors;
    expect(() => ef.add(i32, frac)).toThrow(W.int32PlusFraction === 'InvalidArgumentError' ? ef.errors.InvalidArgumentError : TypeError);
    expect(ef.memory().numTensors).toBe(before);
  });
  test('traced functions carry the rule: inside, through their arguments and from their outputs', () => {
    const f = ef.trace((x: ef.Tensor | number) => ef.multiply(x, 2));
    expectTf(ef.add(f(2) as ef.Tensor, ef.constant(1, 'int32')), W.tracedNumberPlusInt32, 'f(2) + int32');
    const g = ef.trace((x: ef.Tensor, y: ef.Tensor) => ef.add(x, y));
    expectTf(g(i32, ef.abs(2)) as ef.Tensor, W.int32PlusAbs, 'traced int32 + abs(2)');
    expect((g(ef.constant(1.5), ef.abs(2)) as ef.Tensor).dtype).toBe('float32');
    expect(g.tracingCount).toBe(2);
    const h = ef.trace((x: ef.Tensor) => ef.add(x, ef.abs(2)));
    const cf = h.getConcreteFunction(i32);
    expect(cf.outputs[0].dtype).toBe('int32');
    // The graph holds the promoted dtypes: a saved and loaded function gives the same dtype and value.
    const loaded = ef.loadFunction(ef.saveFunction(cf));
    expectTf(loaded(i32) as ef.Tensor, W.int32PlusAbs, 'loaded int32 + abs(2)');
  });
});

describe('surface TF guides use', () => {
  const U = (FIX as unknown as { surface: { runEagerlySeen: number[]; tracedSeen: (number | null)[]; initScopeEager: boolean[]; initScopeValue: number } }).surface;
  const body = (seen: (number | null)[]) => (x: ef.Tensor) => {
    seen.push(x.isSymbolic ? null : (x.item() as number));
    return ef.add(x, 1);
  };
  test('config.runFunctionsEagerly(true): the body (a breakpoint-style side effect) runs on every call', () => {
    const seen: (number | null)[] = [];
    const f = ef.trace(body(seen));
    ef.config.runFunctionsEagerly(true);
    try {
      expect(ef.config.functionsRunEagerly()).toBe(true);
      for (const v of [1, 2, 3]) expect(f(ef.constant(v)).item()).toBe(v + 1);
    } finally {
      ef.config.runFunctionsEagerly(false);
    }
    expect(seen).toEqual(U.runEagerlySeen);
    expect(f.tracingCount).toBe(0);
    seen.length = 0;
    for (const v of [1, 2, 3]) f(ef.constant(v));
    expect(seen).toEqual(U.tracedSeen);
  });

  test('initScope: eager inside a trace, tapes paused', () => {
    const inside: boolean[] = [];
    const g = ef.trace((x: ef.Tensor) => {
      const c = ef.initScope(() => {
        const t = ef.add(ef.constant(1), 1);
        inside.push(!t.isSymbolic);
        return t;
      });
      return ef.add(x, c);
    });
    expect(g(ef.constant(1)).item()).toBe(U.initScopeValue);
    expect(inside).toEqual(U.initScopeEager);
    const x = ef.constant(2);
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(x);
      return ef.add(ef.initScope(() => ef.multiply(x, x)), x);
    });
    expect((tape.gradient(y, x) as ef.Tensor).item()).toBe(1);
  });
});

describe('TF call forms (API.md section 10: tensors, then TF required arguments positionally)', () => {
  type CallForms = { dropoutColumnsShared: boolean; dropoutValues: number[]; statelessNormalShape: number[]; statelessSame: boolean; statelessCategoricalShape: number[]; uniformInt: { dtype: string; min: number; max: number }; uniformInt64: string | null; logicalXor: Enc };
  const K = (FIX as unknown as { callForms: CallForms }).callForms;
  test('nn.dropout(x, rate, {noiseShape, seed})', () => {
    const d = ef.nn.dropout(ef.ones([3, 4]), 0.5, { noiseShape: [1, 4], seed: 1 }).arraySync() as number[][];
    const cols = [0, 1, 2, 3].map((j) => new Set(d.map((r) => r[j])).size === 1);
    expect(cols.every(Boolean)).toBe(K.dropoutColumnsShared);
    expect([...new Set(d.flat())].sort()).toEqual(expect.arrayContaining([...new Set(d.flat())].filter((v) => K.dropoutValues.includes(v))));
    expect(d.flat().every((v) => K.dropoutValues.includes(v))).toBe(true);
    expect(ef.nn.dropout([1, 2], { rate: 0 }).arraySync()).toEqual([1, 2]); // the older options form still works
    expect(() => ef.nn.dropout([1, 2], 1)).toThrow(ef.errors.InvalidArgumentError);
  });
  test('the stateless family takes the seed pair positionally', () => {
    expect(ef.random.statelessNormal([2, 3], [1, 2], { stddev: 2 }).shape.asList()).toEqual(K.statelessNormalShape);
    const a = ef.random.statelessUniform([4], [3, 4], { minval: -1, maxval: 1 }).arraySync();
    expect(ef.random.statelessUniform([4], [3, 4], { minval: -1, maxval: 1 }).arraySync()).toEqual(a);
    expect(K.statelessSame).toBe(true);
    expect(ef.random.statelessUniform([4], { seed: [3, 4], minval: -1, maxval: 1 }).arraySync()).toEqual(a);
    expect(ef.random.statelessTruncatedNormal([2], [1, 2]).shape.asList()).toEqual([2]);
    expect(ef.random.statelessCategorical([[0, 0]], 5, [1, 1]).shape.asList()).toEqual(K.statelessCategoricalShape);
    expect(() => ef.random.statelessNormal([2], [1] as unknown as [number, number])).toThrow(/seed must be a pair/);
  });
  test('random.uniform int32 with minval/maxval; int64 refused (no int64 in the contract)', () => {
    const u = ef.random.uniform([200], { minval: 2, maxval: 5, dtype: 'int32', seed: 1 });
    const v = Array.from(u.dataSync() as Int32Array);
    expect([u.dtype, Math.min(...v), Math.max(...v)]).toEqual([K.uniformInt.dtype, K.uniformInt.min, K.uniformInt.max]);
    expect(K.uniformInt64).toBeNull(); // TF draws int64; EagerFlow has none: section 10's TypeError
    expect(() => ef.random.uniform([2], { maxval: 5, dtype: 'int64' as ef.DType })).toThrow(TypeError);
  });
  test('math.logicalXor', () => {
    expectTf(ef.math.logicalXor([true, false, true, false], [true, true, false, false]), K.logicalXor, 'logicalXor');
  });
});

describe('tensors in JS conditions', () => {
  test('eager one-element tensors compare and convert by value', () => {
    const x = ef.constant(2);
    expect((x as unknown as number) > 1).toBe(true);
    expect(+(x as unknown as number)).toBe(2);
    expect((ef.greater(x, 3) as unknown as number) > 0).toBe(false);
    expect(`${x}`).toBe(x.toString());
    expect(() => +(ef.constant([1, 2]) as unknown as number)).toThrow(/only one-element tensors have a JS number value/);
  });
  test('a symbolic tensor in a numeric or string context throws inside a trace, pointing to ef.cond', () => {
    const numeric = ef.trace((t: ef.Tensor) => ((t as unknown as number) > 0 ? ef.add(t, 1) : t));
    expect(() => numeric(ef.constant(1))).toThrow(/used as a JS number inside a trace.*ef\.cond\(ef\.greater\(t, 0\)/);
    const text = ef.trace((t: ef.Tensor) => `${t}`);
    expect(() => text(ef.constant(1))).toThrow(/used as a JS string inside a trace/);
    const ok = ef.trace((t: ef.Tensor) => ef.cond(ef.greater(t, 0), () => ef.add(t, 1), () => t));
    expect((ok(ef.constant(1)) as ef.Tensor).item()).toBe(2);
  });
});

describe('custom gradients through traces and saving (never dropped silently)', () => {
  const G = (FIX as unknown as { customGradient: { eager: number; traced: number; savedLoaded: number; plain: number } }).customGradient;
  const sq = ef.customGradient((x: ef.Tensor) => ({ value: ef.multiply(x, x), grad: (dy: ef.Tensor) => ef.multiply(dy, x) }));
  const gradAt2 = (fn: (x: ef.Tensor) => ef.Tensor): number => {
    const x = ef.constant(2);
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(x);
      return fn(x);
    });
    return (tape.gradient(y, x) as ef.Tensor).item() as number;
  };
  test('eager and traced use the custom rule', () => {
    const f = ef.trace((x: ef.Tensor) => sq(x) as ef.Tensor, { inputSignature: [new ef.TensorSpec([], 'float32')] });
    expect(gradAt2((x) => sq(x) as ef.Tensor)).toBe(G.eager);
    expect(gradAt2((x) => f(x) as ef.Tensor)).toBe(G.traced);
    expect(gradAt2((x) => ef.multiply(x, x))).toBe(G.plain);
    // a tape inside the trace sees the rule too
    const g = ef.trace((x: ef.Tensor) => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        return sq(x) as ef.Tensor;
      });
      return tape.gradient(y, x) as ef.Tensor;
    });
    expect(g(ef.constant(2)).item()).toBe(G.traced);
  });
  test('saving refuses clearly (TF keeps it; EagerFlow would lose it)', () => {
    const f = ef.trace((x: ef.Tensor) => sq(x) as ef.Tensor, { inputSignature: [new ef.TensorSpec([], 'float32')] });
    expect(G.savedLoaded).toBe(G.traced);
    expect(() => ef.saveFunction(f)).toThrow(/customGradient cannot be saved yet: its gradient would be lost/);
  });
});

describe('ef.data as tf.data', () => {
  const D = (FIX as unknown as { data: { textLines: string[]; textFile: string; textFileLines: string[]; reduce: number; filterUnknownShape: number[]; loopInFunction: number } }).data;
  test('TextLineDataset keeps empty lines', async () => {
    const out: unknown[] = [];
    for await (const s of ef.data.TextLineDataset(['a', '', 'b']).asNumpyIterator()) out.push(s);
    expect(out).toEqual(D.textLines);
  });
  test('TextLineDataset keeps empty lines of a file (CRLF and a trailing empty line as TF reads them)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-lines-'));
    try {
      const file = path.join(dir, 'lines.txt');
      fs.writeFileSync(file, D.textFile);
      const out: unknown[] = [];
      for await (const s of ef.data.TextLineDataset(file).asNumpyIterator()) out.push(s);
      expect(out).toEqual(D.textFileLines);
      const missing = ef.data.TextLineDataset(path.join(dir, 'nope.txt'));
      const before = ef.memory().numTensors;
      await expect((async () => {
        for await (const s of missing) (s as ef.Tensor).dispose();
      })()).rejects.toThrow(/ef.data.TextLineDataset: .*nope.txt does not exist/);
      expect(() => missing.asNumpyIterator()).toThrow(ef.errors.NotFoundError); // on iteration, not at construction
      expect(ef.memory().numTensors).toBe(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  test('Dataset.reduce', async () => {
    const total = await ef.data.Dataset.range(5).reduce(ef.constant(0, 'int32'), (s: ef.Tensor, x: ef.Tensor) => ef.add(s, x));
    expect(total.item()).toBe(D.reduce);
  });
  test('filter accepts a bool of unknown shape (numpyFunction) and checks it per element', async () => {
    const even = (x: ef.Tensor): ef.Tensor => ef.numpyFunction((v: ef.NDArray) => ef.ndarray([(v.data[0] as number) % 2 === 0], [], 'bool'), [x], 'bool') as ef.Tensor;
    const out: number[] = [];
    for await (const x of ef.data.Dataset.range(6).filter(even)) out.push((x as ef.Tensor).item() as number);
    expect(out).toEqual(D.filterUnknownShape);
    const pair = (x: ef.Tensor): ef.Tensor => ef.numpyFunction(() => ef.ndarray([true, false], [2], 'bool'), [x], 'bool') as ef.Tensor;
    await expect(ef.data.Dataset.range(2).filter(pair).toArray()).rejects.toThrow(/the predicate must return a scalar bool/);
  });
  test('synchronous iteration, and a finite dataset looped over inside a traced function (unrolled)', () => {
    const seen: number[] = [];
    for (const x of ef.data.Dataset.range(3).map((v: ef.Tensor) => ef.multiply(v, 2))) seen.push((x as ef.Tensor).item() as number);
    expect(seen).toEqual([0, 2, 4]);
    const f = ef.trace(() => {
      let s = ef.constant(0, 'int32');
      for (const x of ef.data.Dataset.range(4)) s = ef.add(s, x as ef.Tensor);
      return s;
    });
    expect((f() as ef.Tensor).item()).toBe(D.loopInFunction);
    expect(() => [...ef.data.Dataset.range(3).filter((x: ef.Tensor) => ef.less(x, 2))]).toThrow(/for await/);
  });
});

describe('ef.TensorArray as tf.TensorArray', () => {
  const T = (FIX as unknown as { tensorArray: { stack: Enc; size: number; read1: Enc; writePastSize: string; grad: number; traced: Enc; unstackGather: Enc } }).tensorArray;
  test('write, stack, size, read; a write past a fixed size is OutOfRangeError', () => {
    let ta = new ef.TensorArray('float32', { size: 0, dynamicSize: true });
    for (let i = 0; i < 3; i++) ta = ta.write(i, ef.constant([i, 1]));
    expectTf(ta.stack(), T.stack, 'stack');
    expect(ta.size().item()).toBe(T.size);
    expectTf(ta.read(ef.constant(1, 'int32')), T.read1, 'read(1)');
    expect(T.writePastSize).toBe('OutOfRangeError');
    expect(() => new ef.TensorArray('float32', { size: 2 }).write(2, 1)).toThrow(ef.errors.OutOfRangeError);
    expectTf(new ef.TensorArray('float32', { size: 3 }).unstack([[1, 2], [3, 4], [5, 6]]).gather([2, 0]), T.unstackGather, 'unstack/gather');
  });
  test('differentiable, and traced into the graph', () => {
    const x = ef.constant(2);
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(x);
      let ta = new ef.TensorArray('float32', { size: 3 });
      for (let i = 0; i < 3; i++) ta = ta.write(i, ef.multiply(x, i + 1));
      return ef.reduceSum(ta.stack());
    });
    expect((tape.gradient(y, x) as ef.Tensor).item()).toBe(T.grad);
    const f = ef.trace((v: ef.Tensor) => {
      let acc = new ef.TensorArray('float32', { size: 4 });
      for (let i = 0; i < 4; i++) acc = acc.write(i, ef.multiply(v, i));
      return acc.stack();
    });
    expectTf(f(ef.constant(3)) as ef.Tensor, T.traced, 'traced stack');
    expect(f.getConcreteFunction(ef.constant(3)).graph.operations.map((o) => o.type)).toContain('concat');
  });
});
