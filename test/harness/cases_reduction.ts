// Harness cases for issue 11's reductions and scans: reduceMin/Prod/Any/All, argMin, cumsum/cumprod, addN, topK, and the composite reductions.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCase, tfReduce, tfTensor, TfCall, tfTensors, tfTensor as T } from './case';
import { Ref, map, reduce, ref, sizeOf, stridesOf } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_addN: TfCall = { fn: 'tf.math.add_n', cases: 'none', extra: [
    { name: 'three', args: [tfTensors(IN.t2x3, IN.t2x3, T([1, 2, 3, 4, 5, 6], undefined, [2, 3]))] },
    { name: 'one', args: [tfTensors(T([1, NaN]))] },
    { name: 'int32', args: [tfTensors(T([1, 2], 'int32'), T([2147483647, -2], 'int32'))], grad: false },
    { name: 'shape mismatch', args: [tfTensors(T([1]), T([1, 2]))], grad: false },
  ] };
const TF_argMin: TfCall = { expr: 'lambda x, axis=0: tf.math.argmin(x, axis=axis, output_type=tf.int32)', why: 'ef returns int32 where TF defaults to int64', cases: 'none', extra: [
    { name: 'axis 0', args: [IN.t2x3, 0], grad: false },
    { name: 'axis -1', args: [IN.t2x3, -1], grad: false },
    { name: 'NaN', args: [T([1, NaN, -2]), 0], grad: false },
    { name: 'ties pick the first', args: [T([1, -3, -3]), 0], grad: false },
    { name: 'int32', args: [IN.t9i, 0], grad: false },
    { name: 'empty axis', args: [T([], undefined, [0, 3]), 0], grad: false },
  ] };
/** cumsum's and cumprod's TF calls (the same cases: axes, exclusive/reverse, special values, int32, empty). */
const tfScan = (fn: string): TfCall => ({ fn, cases: 'none', params: ['x', ['axis', 0]], keywords: { axis: 'axis' }, options: { exclusive: ['exclusive', false], reverse: ['reverse', false] }, extra: [
    { name: 'vector', args: [T([1, -2, 3, 0.5])] },
    { name: 'axis 1', args: [IN.t2x3, 1] },
    { name: 'axis -1 exclusive', args: [IN.t2x3, -1, { exclusive: true }] },
    { name: 'reverse', args: [IN.t2x3, 1, { reverse: true }] },
    { name: 'exclusive reverse', args: [IN.t2x3, 0, { exclusive: true, reverse: true }] },
    { name: 'special values', args: [T([1, Infinity, NaN, -0, 0, 2]), 0] },
    { name: 'with zeros', args: [T([2, 0, 3, 0, 4]), 0] },
    { name: 'int32', args: [T([3, -2, 7, 1], 'int32'), 0], grad: false },
    { name: 'axis out of range', args: [IN.t2x3, 2], grad: false },
    { name: 'scalar', args: [T(2), 0], grad: false },
    { name: 'empty', args: [T([], undefined, [0, 3]), 1] },
  ] });
const TF_cumsum = tfScan('tf.math.cumsum');
const TF_math_countNonzero: TfCall = tfReduce('tf.math.count_nonzero', [
    { name: 'all', args: [T([0, 1, -0, NaN, 2])], grad: false },
    { name: 'axis 1', args: [IN.t2x3, 1], grad: false },
    { name: 'int32 keepDims', args: [T([0, 1, 2, 0], 'int32', [2, 2]), 0, true], grad: false },
    { name: 'bool', args: [T([true, false, true], 'bool')], grad: false },
  ]);
const TF_math_cumprod = tfScan('tf.math.cumprod');
const TF_math_reduceEuclideanNorm: TfCall = tfReduce('tf.math.reduce_euclidean_norm', [
    { name: 'all axes', args: [IN.t2x3, null] },
    { name: 'axis 0', args: [IN.t2x3, 0] },
    { name: 'axis 1', args: [IN.t2x3, 1] },
    { name: 'axis -1 keepDims', args: [IN.t2x3, -1, true] },
    { name: 'axes [0, 1] keepDims', args: [IN.t2x3, [0, 1], true] },
    { name: 'axes [-2]', args: [IN.t2x3, [-2]] },
    { name: 'zeros', args: [T([0, 0]), null] },
  ]);
/** reduceStd's and reduceVariance's TF cases (the same moments cases: axes, keepDims, bad and repeated axes, special values). */
const MOMENT_CASES = [
    { name: 'all axes', args: [IN.t2x3, null] },
    { name: 'axis 0', args: [IN.t2x3, 0] },
    { name: 'axis 1', args: [IN.t2x3, 1] },
    { name: 'axis -1 keepDims', args: [IN.t2x3, -1, true] },
    { name: 'axes [0, 1] keepDims', args: [IN.t2x3, [0, 1], true] },
    { name: 'axes [-2]', args: [IN.t2x3, [-2]] },
    { name: 'axis out of range', args: [IN.t2x3, 2], grad: false },
    { name: 'axis -3 out of range', args: [IN.t2x3, -3], grad: false },
    { name: 'repeated axes', args: [IN.t2x3, [0, 0]], grad: false },
    { name: 'special values axis 1', args: [IN.t2x3_3, 1] },
  ];
const TF_math_reduceStd: TfCall = tfReduce('tf.math.reduce_std', MOMENT_CASES);
const TF_math_reduceVariance: TfCall = tfReduce('tf.math.reduce_variance', MOMENT_CASES);
const TF_math_topK: TfCall = { fn: 'tf.math.top_k', cases: 'none', params: ['x', ['k', 1]], options: { sorted: ['sorted', true] }, extra: [
    { name: 'k 2', args: [T([1, 5, 3, 5]), 2], grad: false },
    { name: 'rows', args: [IN.t2x3, 3], grad: false },
    { name: 'k too large', args: [T([1]), 2], grad: false },
    { name: 'NaN and inf', args: [T([1, Infinity, -Infinity, 0]), 4], grad: false },
  ] };
const TF_reduceLogsumexp: TfCall = tfReduce('tf.reduce_logsumexp', [
    { name: 'all axes', args: [IN.t2x3, null] },
    { name: 'axis 0', args: [IN.t2x3, 0] },
    { name: 'axis 1', args: [IN.t2x3, 1] },
    { name: 'axis -1 keepDims', args: [IN.t2x3, -1, true] },
    { name: 'axes [0, 1] keepDims', args: [IN.t2x3, [0, 1], true] },
    { name: 'axes [-2]', args: [IN.t2x3, [-2]] },
    { name: 'axis out of range', args: [IN.t2x3, 2], grad: false },
    { name: 'axis -3 out of range', args: [IN.t2x3, -3], grad: false },
    { name: 'repeated axes', args: [IN.t2x3, [0, 0]], grad: false },
    { name: 'special values axis 1', args: [IN.t2x3_3, 1] },
    { name: 'large', args: [T([1000, 1000, -Infinity]), null] },
  ]);

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const I = (shape: number[], gen: Gen = 'int'): InputSpec => ({ shape, dtype: 'int32', gen });
const B = (shape: number[]): InputSpec => ({ shape, dtype: 'bool' });
const m = ef.math;

type Axes = number | number[] | null;
const list = (a: Axes): number[] | null => (a === null ? null : Array.isArray(a) ? a : [a]);
const red = (a: Axes, keep: boolean, init: number, f: (s: number, v: number) => number) => (x: Ref): Ref => reduce(x, list(a), keep, init, f);
const asBool = (r: Ref): Ref => new Ref(r.shape, r.data.map((v) => Boolean(v)), 'bool');

/** Values along `axis` of x: for each outer/inner position, the flat indices of one line. */
function lines(shape: number[], axis: number): number[][] {
  const a = axis < 0 ? axis + shape.length : axis;
  const stride = stridesOf(shape)[a];
  const out: number[][] = [];
  for (let i = 0; i < sizeOf(shape); i++) {
    if (Math.floor(i / stride) % shape[a] !== 0) continue;
    out.push(Array.from({ length: shape[a] }, (_, k) => i + k * stride));
  }
  return out;
}

/** cumsum / cumprod in float64 with TF's exclusive and reverse. */
function scanRef(axis: number, exclusive: boolean, reverse: boolean, init: number, f: (a: number, b: number) => number) {
  return (x: Ref): Ref => {
    const out = new Array<number>(x.size).fill(0);
    for (const ln of lines(x.shape, axis)) {
      const order = reverse ? [...ln].reverse() : ln;
      let acc = init;
      for (const i of order) {
        if (exclusive) {
          out[i] = acc;
          acc = f(acc, x.num(i));
        } else {
          acc = f(acc, x.num(i));
          out[i] = acc;
        }
      }
    }
    return new Ref(x.shape, out, x.dtype);
  };
}

function argMinRef(axis: number) {
  return (x: Ref): Ref => {
    const a = axis < 0 ? axis + x.rank : axis;
    const data = lines(x.shape, a).map((ln) => ln.reduce((best, i, k) => (x.num(i) < x.num(ln[best]) ? k : best), 0));
    return new Ref(x.shape.filter((_, i) => i !== a), data, 'int32');
  };
}

/** topK along the last axis: descending, ties by lower index (TF's stable order). */
function topKRef(k: number) {
  return (x: Ref): { values: Ref; indices: Ref } => {
    const n = x.shape[x.rank - 1];
    const vals: number[] = [];
    const idx: number[] = [];
    for (let r = 0; r < x.size / n; r++) {
      const row = Array.from({ length: n }, (_, j) => j).sort((p, q) => x.num(r * n + q) - x.num(r * n + p) || p - q);
      for (const j of row.slice(0, k)) {
        vals.push(x.num(r * n + j));
        idx.push(j);
      }
    }
    const shape = [...x.shape.slice(0, -1), k];
    return { values: new Ref(shape, vals, x.dtype), indices: new Ref(shape, idx, 'int32') };
  };
}

const SHAPES: [string, Axes, boolean, number[]][] = [
  ['all axes', null, false, [2, 3]],
  ['axis -1 keepDims', -1, true, [2, 3]],
  ['axes [0, 2] of rank 3', [0, 2], false, [2, 3, 2]],
];

/** The bool cases of reduceAny's and reduceAll's TF fixtures (their TF calls are on their rows). */
const BOOLS = tfTensor([[true, false, true], [true, true, true]], 'bool');
const BOOL_REDUCE: TfCase[] = [
  { name: 'all axes', args: [BOOLS, null] },
  { name: 'axis 0', args: [BOOLS, 0] },
  { name: 'axis 1 keepDims', args: [BOOLS, 1, true] },
  { name: 'empty', args: [tfTensor([], 'bool', [0, 2]), 0] },
  { name: 'float input', args: [tfTensor([-1.5, -0.25, 0.75, 2.0, 0.3, -3.0], 'float32', [2, 3]), null] },
];
function reductionRows(): ForwardCase[] {
  const out: ForwardCase[] = [];
  for (const [name, axes, keep, shape] of SHAPES) {
    out.push({ prim: 'min', api: 'reduceMin', tfOps: ['Min'], tfCall: tfReduce('tf.math.reduce_min'), name: `reduceMin ${name}`, inputs: [F(shape)], op: (x) => ef.reduceMin(x, axes, keep), ref: red(axes, keep, Infinity, Math.min) });
    out.push({ prim: 'prod', api: 'reduceProd', tfOps: ['Prod'], tfCall: tfReduce('tf.math.reduce_prod'), name: `reduceProd ${name}`, inputs: [F(shape)], op: (x) => ef.reduceProd(x, axes, keep), ref: red(axes, keep, 1, (a, b) => a * b) });
    out.push({ prim: 'any', api: 'reduceAny', tfOps: ['Any'], tfCall: tfReduce('tf.math.reduce_any', BOOL_REDUCE), name: `reduceAny ${name}`, inputs: [B(shape)], op: (x) => ef.reduceAny(x, axes, keep), ref: (x) => asBool(red(axes, keep, 0, (a, b) => a || b)(x)) });
    out.push({ prim: 'all', api: 'reduceAll', tfOps: ['All'], tfCall: tfReduce('tf.math.reduce_all', BOOL_REDUCE), name: `reduceAll ${name}`, inputs: [B(shape)], op: (x) => ef.reduceAll(x, axes, keep), ref: (x) => asBool(red(axes, keep, 1, (a, b) => a && b)(x)) });
    out.push({ prim: 'squared_difference', api: 'math.reduceVariance', tfCall: TF_math_reduceVariance, name: `reduceVariance ${name}`, inputs: [F(shape)], op: (x) => m.reduceVariance(x, axes, keep), ref: varRef(axes, keep) });
    out.push({ prim: 'sqrt', api: 'math.reduceStd', tfCall: TF_math_reduceStd, name: `reduceStd ${name}`, inputs: [F(shape)], op: (x) => m.reduceStd(x, axes, keep), ref: (x) => map(varRef(axes, keep)(x), Math.sqrt) });
    out.push({ prim: 'is_finite', api: 'reduceLogsumexp', tfCall: TF_reduceLogsumexp, name: `reduceLogsumexp ${name}`, inputs: [F(shape)], op: (x) => ef.reduceLogsumexp(x, axes, keep), ref: (x) => map(red(axes, keep, 0, (a, b) => a + Math.exp(b))(x), Math.log) });
    out.push({ prim: 'sqrt', api: 'math.reduceEuclideanNorm', tfCall: TF_math_reduceEuclideanNorm, name: `reduceEuclideanNorm ${name}`, inputs: [F(shape)], op: (x) => m.reduceEuclideanNorm(x, axes, keep), ref: (x) => map(red(axes, keep, 0, (a, b) => a + b * b)(x), Math.sqrt) });
  }
  const cnt = (axes: Axes) => (x: Ref): Ref => {
    const r = red(axes, false, 0, (a, b) => a + (b !== 0 ? 1 : 0))(x);
    return new Ref(r.shape, r.data, 'int32');
  };
  out.push(
    { prim: 'prod', api: 'reduceProd', tfCall: tfReduce('tf.math.reduce_prod'), tfOps: ['Prod'], name: 'reduceProd with a zero (gradient without division)',
      // The second derivative at an exact zero runs through cumprod's gradient, which divides by x like TF's _CumprodGrad.
      secondOrder: false, inputs: [{ shape: [2, 3], values: [0.5, 0, 2, -1.5, 1.25, 0.75] }], op: (x) => ef.reduceProd(x, 1), ref: red(1, false, 1, (a, b) => a * b) },
    { prim: 'prod', api: 'reduceProd', tfCall: tfReduce('tf.math.reduce_prod'), tfOps: ['Prod'], name: 'reduceProd int32', inputs: [I([2, 3])], op: (x) => ef.reduceProd(x, 0), ref: red(0, false, 1, (a, b) => a * b) },
    { prim: 'min', api: 'reduceMin', tfCall: tfReduce('tf.math.reduce_min'), tfOps: ['Min'], name: 'reduceMin int32', inputs: [I([3, 2])], op: (x) => ef.reduceMin(x, 1), ref: red(1, false, Infinity, Math.min) },
    { prim: 'is_finite', api: 'reduceLogsumexp', tfCall: TF_reduceLogsumexp, name: 'reduceLogsumexp is stable for large inputs', inputs: [{ shape: [2, 2], values: [1000, 1000, -1000, -999] }], op: (x) => ef.reduceLogsumexp(x, 1), ref: lseRows },
    { prim: 'is_finite', api: 'reduceLogsumexp', tfCall: TF_reduceLogsumexp, name: 'reduceLogsumexp of -inf rows is -inf', grad: false, backends: { only: ['cpu'], why: "tfjs-webgl's log(0) is -88.03 (a GLSL float floor), not -inf" }, inputs: [{ shape: [2, 2], values: [-Infinity, -Infinity, 0, 0] }], op: (x) => ef.reduceLogsumexp(x, 1, true), ref: () => ref([[-Infinity], [Math.log(2)]]) },
    { prim: 'not_equal', api: 'math.countNonzero', tfCall: TF_math_countNonzero, name: 'countNonzero float32 along axis 1', inputs: [{ shape: [2, 3], values: [0, 1.5, -0, 2, 0, -3] }], op: (x) => m.countNonzero(x, 1), ref: cnt(1) },
    { prim: 'not_equal', api: 'math.countNonzero', tfCall: TF_math_countNonzero, name: 'countNonzero int32, all axes', inputs: [I([3, 3], 'index')], op: (x) => m.countNonzero(x), ref: cnt(null) },
    { prim: 'not_equal', api: 'math.countNonzero', tfCall: TF_math_countNonzero, name: 'countNonzero bool keepDims', inputs: [B([2, 3])], op: (x) => m.countNonzero(x, 0, true), ref: (x) => { const r = red(0, true, 0, (a, b) => a + (b ? 1 : 0))(x); return new Ref(r.shape, r.data, 'int32'); } },
  );
  return out;
}

/** Stable log-sum-exp of each row of a matrix, in float64. */
function lseRows(x: Ref): Ref {
  const [r, c] = x.shape;
  const out = Array.from({ length: r }, (_, i) => {
    const row = Array.from({ length: c }, (_, j) => x.num(i * c + j));
    const mx = Math.max(...row);
    return mx + Math.log(row.reduce((a, v) => a + Math.exp(v - mx), 0));
  });
  return new Ref([r], out, 'float32');
}

function varRef(axes: Axes, keep: boolean) {
  return (x: Ref): Ref => {
    const ax = list(axes);
    const n = x.size / sizeOf(reduce(x, ax, false, 0, (p) => p).shape);
    const mean = map(red(ax, true, 0, (a, b) => a + b)(x), (v) => v / n);
    const idxMean = (i: number): number => {
      const a = (ax ?? x.shape.map((_, k) => k)).map((v) => (v < 0 ? v + x.rank : v));
      let off = 0;
      let rest = i;
      const st = stridesOf(x.shape);
      const kept = x.shape.map((d, k) => (a.includes(k) ? 1 : d));
      const kst = stridesOf(kept);
      for (let k = 0; k < x.rank; k++) {
        const c = Math.floor(rest / st[k]);
        rest -= c * st[k];
        if (!a.includes(k)) off += c * kst[k];
      }
      return mean.num(off);
    };
    const sq = new Ref(x.shape, x.data.map((v, i) => (Number(v) - idxMean(i)) ** 2), 'float32');
    return map(red(ax, keep, 0, (a, b) => a + b)(sq), (v) => v / n);
  };
}

const SCANS: [string, number, boolean, boolean, number[]][] = [
  ['axis 0', 0, false, false, [3, 2]],
  ['axis 1 exclusive', 1, true, false, [2, 4]],
  ['axis -1 reverse', -1, false, true, [2, 3]],
  ['axis 0 exclusive reverse of rank 3', 0, true, true, [3, 2, 2]],
];

function scanRows(): ForwardCase[] {
  return SCANS.flatMap(([name, axis, exclusive, reverse, shape]): ForwardCase[] => [
    { prim: 'cumsum', api: 'cumsum', tfCall: TF_cumsum, tfOps: ['Cumsum'], name: `cumsum ${name}`, inputs: [F(shape)], op: (x) => ef.cumsum(x, axis, { exclusive, reverse }), ref: scanRef(axis, exclusive, reverse, 0, (a, b) => a + b) },
    { prim: 'cumprod', api: 'math.cumprod', tfCall: TF_math_cumprod, tfOps: ['Cumprod'], name: `cumprod ${name}`, inputs: [F(shape, 'away')], op: (x) => m.cumprod(x, axis, { exclusive, reverse }), ref: scanRef(axis, exclusive, reverse, 1, (a, b) => a * b) },
  ]).concat([
    { prim: 'cumsum', api: 'cumsum', tfCall: TF_cumsum, tfOps: ['Cumsum'], name: 'cumsum int32 default axis', inputs: [I([4, 2])], op: (x) => ef.cumsum(x), ref: scanRef(0, false, false, 0, (a, b) => a + b) },
    { prim: 'cumprod', api: 'math.cumprod', tfCall: TF_math_cumprod, tfOps: ['Cumprod'], name: 'cumprod int32 reverse', inputs: [I([2, 3], 'count')], op: (x) => m.cumprod(x, 1, { reverse: true }), ref: scanRef(1, false, true, 1, (a, b) => a * b) },
  ]);
}

const argRows: ForwardCase[] = [
  { prim: 'arg_min', api: 'argMin', tfCall: TF_argMin, tfOps: ['ArgMin'], name: 'argMin axis 0', inputs: [F([3, 4])], op: (x) => ef.argMin(x), ref: argMinRef(0) },
  { prim: 'arg_min', api: 'argMin', tfCall: TF_argMin, tfOps: ['ArgMin'], name: 'argMin axis -1 of rank 3', inputs: [F([2, 2, 5])], op: (x) => ef.argMin(x, -1), ref: argMinRef(-1) },
  { prim: 'arg_min', api: 'argMin', tfCall: TF_argMin, tfOps: ['ArgMin'], name: 'argMin int32 with ties takes the first', inputs: [{ shape: [2, 4], dtype: 'int32', values: [3, 1, 1, 2, 0, 0, 5, 0] }], op: (x) => ef.argMin(x, 1), ref: argMinRef(1) },
];

const addNRows: ForwardCase[] = [
  { prim: 'add_n', api: 'addN', tfCall: TF_addN, tfOps: ['AddN'], name: 'addN of three', inputs: [F([2, 3]), F([2, 3]), F([2, 3])], op: (a, b, c) => ef.addN([a, b, c]), ref: (a, b, c) => new Ref(a.shape, a.data.map((v, i) => Number(v) + b.num(i) + c.num(i)), 'float32') },
  { prim: 'add_n', api: 'addN', tfCall: TF_addN, tfOps: ['AddN'], name: 'addN of one', inputs: [F([4])], op: (a) => ef.addN([a]), ref: (a) => a },
  { prim: 'add_n', api: 'addN', tfCall: TF_addN, tfOps: ['AddN'], name: 'addN int32', inputs: [I([3]), I([3])], op: (a, b) => ef.addN([a, b]), ref: (a, b) => new Ref(a.shape, a.data.map((v, i) => Number(v) + b.num(i)), 'int32') },
];

const topKRows: ForwardCase[] = [
  { prim: 'top_k', api: 'math.topK', tfCall: TF_math_topK, tfOps: ['TopKV2'], name: 'topK k=2 of a matrix', inputs: [F([3, 5])], op: (x) => m.topK(x, 2), ref: topKRef(2) },
  { prim: 'top_k', api: 'math.topK', tfCall: TF_math_topK, tfOps: ['TopKV2'], name: 'topK default k=1 of a vector', inputs: [F([6])], op: (x) => m.topK(x), ref: topKRef(1) },
  { prim: 'top_k', api: 'math.topK', tfCall: TF_math_topK, tfOps: ['TopKV2'], name: 'topK k = n of rank 3', inputs: [F([2, 2, 3])], op: (x) => ef.nn.topK(x, 3), ref: topKRef(3) },
  { prim: 'top_k', api: 'math.topK', tfCall: TF_math_topK, tfOps: ['TopKV2'], name: 'topK int32 with ties (lower index first)', inputs: [{ shape: [2, 4], dtype: 'int32', values: [1, 3, 3, 2, 5, 5, 5, 0] }], op: (x) => m.topK(x, 3), ref: topKRef(3) },
];

export const reductionCases: ForwardCase[] = [...reductionRows(), ...scanRows(), ...argRows, ...addNRows, ...topKRows];

export const reductionErrors: ErrorCase[] = [
  { prim: 'min', api: 'reduceMin', name: 'reduceMin axis out of range', inputs: [F([2, 3])], run: (x) => ef.reduceMin(x, 2), op: 'reduceMin', got: 'axis 2 for a rank-2 tensor', expected: 'an integer in [-2, 2)' },
  { prim: 'prod', api: 'reduceProd', name: 'reduceProd rejects bool', inputs: [B([2])], run: (x) => ef.reduceProd(x), op: 'reduceProd', got: 'bool', expected: 'float32 or int32' },
  { prim: 'any', api: 'reduceAny', name: 'reduceAny rejects float', inputs: [F([2])], run: (x) => ef.reduceAny(x), op: 'reduceAny', got: 'float32', expected: 'bool' },
  { prim: 'all', api: 'reduceAll', name: 'reduceAll axis out of range', inputs: [B([2])], run: (x) => ef.reduceAll(x, -2), op: 'reduceAll', got: 'axis -2 for a rank-1 tensor', expected: 'an integer in [-1, 1)' },
  { prim: 'arg_min', api: 'argMin', name: 'argMin of a scalar', inputs: [F([])], run: (x) => ef.argMin(x), op: 'argMin', got: 'a rank-0 tensor', expected: 'rank >= 1' },
  { prim: 'cumsum', api: 'cumsum', name: 'cumsum axis out of range', inputs: [F([2, 3])], run: (x) => ef.cumsum(x, 2), op: 'cumsum', got: 'axis 2 for a rank-2 tensor', expected: 'an integer in [-2, 2)' },
  { prim: 'cumprod', api: 'math.cumprod', name: 'cumprod of a scalar', inputs: [F([])], run: (x) => m.cumprod(x), op: 'cumprod', got: 'a rank-0 tensor', expected: 'rank >= 1' },
  { prim: 'add_n', api: 'addN', name: 'addN shape mismatch', inputs: [F([2]), F([3])], run: (a, b) => ef.addN([a, b]), op: 'addN', got: '[3] and [2]', expected: 'equal shapes (addN does not broadcast)' },
  { prim: 'add_n', api: 'addN', name: 'addN dtype mismatch', inputs: [F([2]), I([2])], run: (a, b) => ef.addN([a, b]), op: 'addN', got: 'int32 and float32', expected: 'matching dtypes' },
  { prim: 'top_k', api: 'math.topK', name: 'topK k larger than the last dim', inputs: [F([2, 3])], run: (x) => m.topK(x, 4), op: 'topK', got: 'k = 4 for shape [2,3]', expected: 'k <= 3' },
  { prim: 'top_k', api: 'math.topK', name: 'topK of a scalar', inputs: [F([])], run: (x) => m.topK(x), op: 'topK', got: 'a rank-0 tensor', expected: 'rank >= 1' },
];
