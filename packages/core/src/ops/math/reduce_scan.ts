// Reduction and scan records (tfjs-converter's reduction): reduceMin/Prod/Any/All, argMin, cumsum/cumprod, addN, topK.
// Composites: Composite math ops of issue 11 built from records: topK's named results, reduceVariance/Std/Logsumexp/EuclideanNorm, countNonzero.
import { lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import { withOnnx } from '../onnx_spec';
import type { DType } from '../../values/dtype';
import type { Info, Kernels } from '../../backend/backend';
import { isHostBackend, readInfoSync } from '../../backend/backend';
import { AVal, Primitive } from '../primitive';
import { api, arg, composites } from '../api_spec';
import { attr, outputRef, tfSpec } from '../graphdef_spec';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { dimsToString } from '../../values/shape';
import * as AR from './binary_functions';
import * as o from '../ops';
import { NUMERIC, argError, checkArity, checkDTypes, normalizeAxes } from '../check';
import { AxisParams, argInfer, keepDimsLike, tfArgReduce } from './reduce';
import { g0, I32 } from '../rule_helpers';
import { dim, dimsOf, isKnown, rangeOf, reshapeTo } from '../array/symbolic_dims';
import { describe } from '../../values/dtype';
import { TensorLike, convert } from '../../values/convert';
import { releasing } from '../op_builder';
import * as E from './unary';
import * as LG from './compare';
import * as BM from './unary_functions';
import * as BC from './bincount';


const bindReduce = (rec: Primitive, x: Tensor, axes: readonly number[] | null, keepDims: boolean): Tensor => bind(rec, [x], { axes, keepDims })[0];

/** TensorFlow splits the gradient of a min evenly between tied minima (as for max). */
export const min = defineOp({ family: 'reduce', name: 'min', api: ['math.reduceMin', 'reduceMin'], empty: (d) => (d === 'int32' ? 2147483647 : Infinity), onnx: lower.reduce('ReduceMin'), vjp: (c, [x], [y], p) => {
  const mask = o.cast(o.equal(x, o.broadcastLike(keepDimsLike(y, x, p), x)), x.dtype);
  const count = o.broadcastLike(keepDimsLike(o.reduceSum(mask, p.axes === null ? null : [...p.axes], false), x, { ...p, keepDims: false }), x);
  return [o.div(o.mul(o.broadcastLike(keepDimsLike(g0(c), x, p), x), mask), count)];
} });

/**
 * The product on the host, in the dtype's own arithmetic like TensorFlow: int32 wraps around
 * (Math.imul; tfjs multiplies in float64 and loses the low bits past 2^53), float32 rounds every
 * step (so 3e38·3e38·-0 is inf·-0 = NaN, not float64's -0). Sequential over each group.
 */
function hostProd(x: Info, axes: number[]): Int32Array | Float32Array {
  const int = x.dtype === 'int32';
  const v = readInfoSync(x) as Int32Array | Float32Array;
  const mul = int ? Math.imul : (a: number, b: number): number => Math.fround(a * b);
  const shape = x.shape;
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, d) => a * d, 1));
  const kept = shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const size = (ds: number[]): number => ds.reduce((a, i) => a * shape[i], 1);
  const out = (int ? new Int32Array(size(kept)) : new Float32Array(size(kept))).fill(1);
  const idx = new Array<number>(shape.length).fill(0);
  for (let flat = 0; flat < v.length; flat++) {
    let rem = flat;
    for (let i = 0; i < shape.length; i++) {
      idx[i] = Math.floor(rem / strides[i]);
      rem -= idx[i] * strides[i];
    }
    const o2 = kept.reduce((a, i) => a * shape[i] + idx[i], 0);
    out[o2] = mul(out[o2], v[flat]);
  }
  return out;
}

/**
 * Product; its gradient is the product of all other elements of each group, as TF's _ProdGrad builds it: the reduced
 * axes transposed to the front and flattened into one (run-time products of the dims), exclusive cumprods from both
 * ends along it (no division: right with zeros), and the result transposed back. One flattened axis, as TF, so the
 * second order propagates NaN and inf exactly as TF's does.
 */
export const prod = defineOp({ family: 'reduce', name: 'prod', api: ['math.reduceProd', 'reduceProd'], empty: () => 1, host: hostProd, onnx: lower.reduce('ReduceProd'), vjp: (c, [x], _y, p): (Tensor | null)[] => {
  const rank = x.rank;
  if (rank === null) throw argError('reduceProd gradient', 'unknown input rank', 'a tensor of unknown rank', 'a known rank', 'Give the input a rank with setShape.');
  const axes = [...new Set(p.axes === null ? Array.from({ length: rank }, (_, i) => i) : p.axes.map((a) => (a < 0 ? a + rank : a)))];
  const others = axes.length === 0 ? null : othersProduct(x, axes, rank);
  const g = o.broadcastLike(keepDimsLike(g0(c), x, p), x);
  return [others === null ? g : o.mul(g, others)];
} });

/** The product of the other elements of each reduced group (TF's _ProdGrad without the cotangent). */
function othersProduct(x: Tensor, axes: number[], rank: number): Tensor {
  const perm = [...axes, ...Array.from({ length: rank }, (_, i) => i).filter((i) => !axes.includes(i))];
  const moved = perm.every((a, i) => a === i);
  const permuted = moved ? x : o.transpose(x, perm);
  const d = permuted.dims as (number | null)[];
  const flat =
    d.every((v) => v !== null)
      ? o.reshape(permuted, [(d as number[]).slice(0, axes.length).reduce((a, b) => a * b, 1), (d as number[]).slice(axes.length).reduce((a, b) => a * b, 1)])
      : o.reshapeWith(permuted, o.stack([prodOfVector(o.slice(o.shapeOf(permuted), [0], [axes.length])), prodOfVector(o.slice(o.shapeOf(permuted), [axes.length], [-1]))]));
  const left = bind(cumprod as Primitive, [flat], { axis: 0, exclusive: true, reverse: false })[0];
  const right = bind(cumprod as Primitive, [flat], { axis: 0, exclusive: true, reverse: true })[0];
  const y = o.reshapeLike(o.mul(left, right), permuted);
  if (moved) return y;
  const inverse = new Array<number>(rank);
  perm.forEach((a, i) => (inverse[a] = i));
  return o.transpose(y, inverse);
}

const prodOfVector = (v: Tensor): Tensor => bindReduce(prod as Primitive, v, null, false);

export const any = defineOp({ family: 'reduce', name: 'any', api: ['math.reduceAny', 'reduceAny'], dtypes: ['bool'], empty: () => false });
export const all = defineOp({ family: 'reduce', name: 'all', api: ['math.reduceAll', 'reduceAll'], dtypes: ['bool'], empty: () => true });

export const argMin = defineOp({
  name: 'arg_min',
  onnx: lower.arg('ArgMin'),
  infer: (ins: AVal[], p: AxisParams) => argInfer('argMin', ins, p, NUMERIC),
  impl: (k, [x], p: AxisParams) => {
    const axis = p.axis < 0 ? p.axis + x.shape.length : p.axis;
    return [x.dtype === 'float32' ? tfArgReduce(k, x, axis, 'ArgMin') : (k.run('ArgMin', { x }, { axis }) as Info)];
  },
  api: api(['math.argMin', 'argMin'], [arg.tensor('x'), arg.int('axis', 0)]),
  tf: tfSpec<AxisParams>({ op: 'ArgMin', inputs: ['x', { param: 'axis', shape: 'scalar' }], attrs: { T: { dtypeOf: 0 }, Tidx: I32, output_type: I32 } }),
});

export interface ScanParams {
  readonly axis: number;
  readonly exclusive: boolean;
  readonly reverse: boolean;
}

/** A scan along one axis (tfjs kernels Cumsum/Cumprod; TF ops of the same names). */
function scan<const N extends string, const P extends readonly string[]>(name: N, op: string, kernel: string, paths: P, vjp: Primitive<ScanParams>['vjp']) {
  return defineOp({
    name,
    infer(ins: AVal[], p: ScanParams) {
      checkArity(op, ins, 1);
      checkDTypes(op, ins[0], NUMERIC);
      const s = ins[0].shape;
      if (s !== null) {
        if (s.length === 0) throw argError(op, 'cannot scan a scalar', 'a rank-0 tensor', 'rank >= 1', 'Reshape the input to rank 1.');
        normalizeAxes(op, [p.axis], s.length);
      }
      return [{ dtype: ins[0].dtype, shape: s }];
    },
    impl: (k, [x], p: ScanParams) => [k.run(kernel, { x }, { axis: p.axis < 0 ? p.axis + x.shape.length : p.axis, exclusive: p.exclusive, reverse: p.reverse }) as Info],
    vjp,
    // A known rank makes the axis non-negative before binding: tfjs-converter's Cumsum/Cumprod reject negative axes.
    api: api(paths, [arg.tensor('x'), arg.int('axis', 0)], [arg.bool('exclusive', false), arg.bool('reverse', false)], {
      prepare: (_op: string, params: Record<string, unknown>, [x]: Tensor[]) => {
        const r = x.rank;
        if (r !== null && (params.axis as number) < 0 && (params.axis as number) >= -r) params.axis = (params.axis as number) + r;
      },
    }),
    tf: tfSpec<ScanParams>({
      op: kernel,
      inputs: ['x', { param: 'axis', shape: 'scalar' }],
      attrs: { T: { dtypeOf: 0 }, Tidx: I32, exclusive: { param: 'exclusive', kind: 'bool', default: false }, reverse: { param: 'reverse', kind: 'bool', default: false } },
    }),
  });
}

const scanOf = (rec: Primitive, x: Tensor, p: ScanParams, reverse: boolean): Tensor => bind(rec, [x], { ...p, reverse })[0];

/** cumsum(x, axis = 0, {exclusive, reverse}); gradient: the cotangent summed the other way (TF's _CumsumGrad). */
export const cumsum = withOnnx(scan('cumsum', 'cumsum', 'Cumsum', ['math.cumsum', 'cumsum'], (c, _x, _y, p): (Tensor | null)[] => [scanOf(cumsum as Primitive, g0(c), p, !p.reverse)]), lower.cumsum);

/** cumprod(x, axis = 0, {exclusive, reverse}); gradient as TF's _CumprodGrad: divNoNan(cumsum(cumprod(x)·g, reversed), x). */
export const cumprod = scan('cumprod', 'cumprod', 'Cumprod', ['math.cumprod'], (c, [x], _y, p): (Tensor | null)[] => {
  const prodX = scanOf(cumprod as Primitive, x, p, p.reverse);
  return [bind(AR.divNoNan as Primitive, [scanOf(cumsum as Primitive, o.mul(prodX, g0(c)), p, !p.reverse), x], {})[0]];
});

/** addN(inputs): the elementwise sum of same-shape tensors (TF's AddN: no broadcasting). */
export const addN = defineOp({
  name: 'add_n',
  onnx: lower.addN,
  infer(ins: AVal[]) {
    if (ins.length === 0) throw argError('addN', 'no tensors to add', '0 tensors', 'at least 1', 'Pass a non-empty array.');
    checkDTypes('addN', ins[0], NUMERIC);
    ins.forEach((x, i) => {
      if (x.dtype !== ins[0].dtype) throw argError('addN', `tensor ${i} has another dtype`, `${x.dtype} and ${ins[0].dtype}`, 'matching dtypes', `Cast it with ef.cast(x, '${ins[0].dtype}').`);
      const [a, b] = [x.shape, ins[0].shape];
      if (a !== null && b !== null && (a.length !== b.length || a.some((d, j) => d !== null && b[j] !== null && d !== b[j]))) {
        throw argError('addN', `tensor ${i} has another shape`, `${dimsToString(a)} and ${dimsToString(b)}`, 'equal shapes (addN does not broadcast)', 'Broadcast the inputs first, or use ef.add.');
      }
    });
    return [{ dtype: ins[0].dtype, shape: ins.find((x) => x.shape !== null)?.shape ?? null }];
  },
  impl(k, xs) {
    xs.forEach((x, i) => {
      if (x.shape.length !== xs[0].shape.length || x.shape.some((d, j) => d !== xs[0].shape[j])) {
        throw argError('addN', `tensor ${i} has another shape`, `[${x.shape}] and [${xs[0].shape}]`, 'equal shapes (addN does not broadcast)', 'Broadcast the inputs first, or use ef.add.');
      }
    });
    return [k.run('AddN', xs as unknown as Record<string, Info>) as Info];
  },
  vjp: (c, xs) => xs.map(() => g0(c)),
  saves: 'none',
  api: api(['math.addN', 'addN'], [arg.tensors('inputs')]),
  tf: tfSpec({ op: 'AddN', inputs: ['xs'], attrs: { T: { dtypeOf: 0 }, N: { count: true } } }),
});

/**
 * TF's TopKV2 on host values: each row's entries by value, largest first, ties and NaN (below every number, as TF
 * orders them) by index. tfjs's cpu kernel lost entries around an infinity (the top 2 of [0.72, 1.17, inf] read
 * [inf, 0.72]).
 */
function hostTopK(k: Kernels, x: Info, kk: number): Info[] {
  const vals = readInfoSync(x) as Float32Array | Int32Array;
  const n = x.shape[x.shape.length - 1];
  const rows = n === 0 ? 0 : vals.length / n;
  const outV = x.dtype === 'int32' ? new Int32Array(rows * kk) : new Float32Array(rows * kk);
  const outI = new Int32Array(rows * kk);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let r = 0; r < rows; r++) {
    const base = r * n;
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((i, j) => {
      const a = vals[base + i];
      const b = vals[base + j];
      if (a !== a || b !== b) return a !== a ? (b !== b ? i - j : 1) : -1;
      return a === b ? i - j : a > b ? -1 : 1;
    });
    for (let c = 0; c < kk; c++) {
      outV[r * kk + c] = vals[base + order[c]];
      outI[r * kk + c] = order[c];
    }
  }
  const shape = [...x.shape.slice(0, -1), kk];
  return [k.upload(outV, shape, x.dtype as DType), k.upload(outI, shape.slice(), 'int32')];
}

export interface TopKParams {
  readonly k: number;
  readonly sorted: boolean;
}

/**
 * The k largest entries along the last axis and their int32 indices (TF's TopKV2; ties: lower index first). An
 * optional int32 scalar input gives k at run time (sort and argsort of an axis whose size only the run time knows).
 */
export const topK = defineOp({
  name: 'top_k',
  infer(ins: AVal[], p: TopKParams) {
    if (ins.length !== 2) checkArity('topK', ins, 1);
    checkDTypes('topK', ins[0], NUMERIC, 'input');
    if (ins.length === 2) {
      checkDTypes('topK', ins[1], ['int32'], 'k');
      const s = ins[0].shape;
      if (s !== null && s.length === 0) throw argError('topK', 'input must have rank >= 1', 'a rank-0 tensor', 'rank >= 1', 'Reshape the input to rank 1.');
      const out = s === null ? null : [...s.slice(0, -1), null];
      return [{ dtype: ins[0].dtype, shape: out }, { dtype: 'int32' as DType, shape: out }];
    }
    if (!Number.isInteger(p.k) || p.k < 0) throw argError('topK', 'k must be a non-negative integer', String(p.k), 'an integer >= 0', 'Pass e.g. k = 1.');
    const s = ins[0].shape;
    if (s === null) return [{ dtype: ins[0].dtype, shape: null }, { dtype: 'int32', shape: null }];
    if (s.length === 0) throw argError('topK', 'input must have rank >= 1', 'a rank-0 tensor', 'rank >= 1', 'Reshape the input to rank 1.');
    const n = s[s.length - 1];
    if (n !== null && p.k > n) throw argError('topK', 'k is larger than the last dimension', `k = ${p.k} for shape ${dimsToString(s)}`, `k <= ${n}`, 'Pass a smaller k.');
    const out = [...s.slice(0, -1), p.k];
    return [{ dtype: ins[0].dtype, shape: out }, { dtype: 'int32', shape: out }];
  },
  impl(k, [x, kIn], p: TopKParams) {
    const n = x.shape[x.shape.length - 1];
    const kk = kIn === undefined ? p.k : Number(readInfoSync(kIn)[0]);
    if (kk < 0 || kk > n) throw argError('topK', 'k is larger than the last dimension', `k = ${kk} for shape [${x.shape}]`, `0 <= k <= ${n}`, 'Pass a smaller k.');
    if (isHostBackend() && (x.dtype === 'float32' || x.dtype === 'int32')) return hostTopK(k, x, kk);
    return k.run('TopK', { x }, { k: kk, sorted: p.sorted }) as Info[];
  },
  // Scatter the values' cotangent back to the chosen positions (TF's _TopKGrad), with a segment sum; one path for static
  // and run-time sizes (Dims: rows, n and k read from the shapes when the graph runs, as TF's gradient does).
  vjp(c, [x, kIn], [, indices]) {
    const g = c[0];
    const extra = kIn === undefined ? [] : [null];
    if (g === null) return [o.zerosLike(x), ...extra];
    if (x.rank === null) throw argError('topK gradient', 'unknown input rank', dimsToString(x.dims), 'a known rank', 'Give the input a known rank (ensureShape).');
    const shape = dimsOf(x);
    const n = shape[shape.length - 1];
    const kk = dimsOf(indices)[shape.length - 1];
    const rows = dim.prod(shape.slice(0, -1));
    const offsets = o.reshape(o.multiply(rangeOf(rows), dim.tensor(n)), [-1, 1]);
    const flat = reshapeTo(o.add(reshapeTo(indices, [rows, kk]), offsets), [dim.mul(rows, kk)]);
    const count = dim.mul(rows, n);
    const values = reshapeTo(g, [dim.mul(rows, kk)]);
    const summed = isKnown(count) ? o.unsortedSegmentSum(values, flat, count) : o.segmentSumWith(values, flat, dim.tensor(count));
    return [reshapeTo(summed, shape), ...extra];
  },
  onnx: lower.topK,
  tf: {
    ops: ['TopKV2'],
    write: (s, n, [x, kIn]) => {
      const p = n.params as TopKParams;
      const node = s.add('TopKV2', 'TopKV2', [x, kIn ?? s.ints('k', [p.k], [])], { T: attr.type(s.dtype(n.inputs[0])), sorted: attr.bool(p.sorted) });
      return [node, outputRef(node, 1)];
    },
    read(r): Tensor[] {
      r.arity(2);
      const sorted = r.node.bool('sorted', true);
      if (r.producer(1)?.op === 'Const') return bind(topK as Primitive, [r.input(0)], { k: r.number(1, 'k'), sorted });
      return bind(topK as Primitive, [r.input(0), r.input(1)], { k: 0, sorted });
    },
  },
});

type Axis = number | number[] | null;
const NONE = {};

function axesOf(op: string, axis: Axis | undefined): number[] | null {
  if (axis === undefined || axis === null) return null;
  const axes = Array.isArray(axis) ? axis : [axis];
  if (axes.some((a) => !Number.isInteger(a))) throw argError(op, 'axis must be integers', describe(axis), 'an integer or array of integers', 'Pass e.g. 0 or [0, 1].');
  return axes;
}

function boolArg(op: string, name: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw argError(op, `${name} must be a boolean`, describe(v), 'true or false', `Pass ${name}: true or false.`);
  return v;
}

/** Runs `body` on the converted input; intermediates are disposed (tapes keep what they saved). */
function withInput(op: string, x: TensorLike, body: (t: Tensor, temps: Tensor[]) => Tensor): Tensor {
  const c = convert(op, x);
  return releasing([c], () => {
    const temps: Tensor[] = [];
    try {
      return body(c.t, temps);
    } finally {
      for (const t of temps) t.dispose();
    }
  });
}

/** Keeps `t` for disposal after the composite and returns it. */
const tmp = (temps: Tensor[], t: Tensor): Tensor => (temps.push(t), t);

/**
 * The k largest entries along the last axis, as TF's `{values, indices}` (indices int32).
 * @example
 * const { values, indices } = ef.math.topK([1, 4, 2, 3], 2);
 * values.arraySync(); // [4, 3]
 * indices.arraySync(); // [1, 3]
 */
function topKOp(input: TensorLike, k = 1, options: { sorted?: boolean } = {}): { values: Tensor; indices: Tensor } {
  if (typeof k !== 'number' || !Number.isInteger(k)) throw argError('topK', 'k must be an integer', describe(k), 'an integer >= 0', 'Pass e.g. 1.');
  const sorted = boolArg('topK', 'sorted', options.sorted ?? true);
  const c = convert('topK', input);
  return releasing([c], () => {
    const [values, indices] = bind(topK, [c.t], { k, sorted });
    return { values, indices };
  });
}

/**
 * Variance over `axis` (all axes by default): mean((x - mean(x))²), like tf.math.reduce_variance.
 * @example ef.math.reduceVariance([1, 2, 3, 4]).arraySync(); // 1.25
 */
function reduceVariance(x: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const axes = axesOf('reduceVariance', axis);
  boolArg('reduceVariance', 'keepDims', keepDims);
  return withInput('reduceVariance', x, (t, temps) => {
    const mean = tmp(temps, o.reduceMean(t, axes, true));
    const sq = tmp(temps, bind(AR.squaredDifference as Primitive, [t, mean], NONE)[0]);
    return o.reduceMean(sq, axes, keepDims);
  });
}

/**
 * Standard deviation over `axis`: sqrt(reduceVariance).
 * @example ef.math.reduceStd([1, 3]).arraySync(); // 1
 */
function reduceStd(x: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const v = reduceVariance(x, axis, keepDims);
  try {
    return bind(E.sqrt, [v], NONE)[0];
  } finally {
    v.dispose();
  }
}

/**
 * log(sum(exp(x))) over `axis`, stable: the (finite) max is subtracted first, as in TF.
 * @example ef.reduceLogsumexp([0, 0]).arraySync(); // 0.6931471824645996
 */
function reduceLogsumexp(x: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const axes = axesOf('reduceLogsumexp', axis);
  boolArg('reduceLogsumexp', 'keepDims', keepDims);
  return withInput('reduceLogsumexp', x, (t, temps) => {
    const raw = tmp(temps, o.reduceMax(t, axes, true));
    const finite = tmp(temps, bind(BM.isFinite as Primitive, [raw], NONE)[0]);
    const shift = tmp(temps, o.stopGradient(tmp(temps, o.where(finite, raw, 0))));
    const e = tmp(temps, o.exp(tmp(temps, o.sub(t, shift))));
    const lse = tmp(temps, o.log(tmp(temps, o.reduceSum(e, axes, keepDims))));
    // Squeezing the kept dims of the shift: a sum over size-1 axes.
    const back = keepDims ? shift : tmp(temps, o.reduceSum(shift, axes, false));
    return o.add(lse, back);
  });
}

/**
 * sqrt(sum(x²)) over `axis` (TF's EuclideanNorm).
 * @example ef.math.reduceEuclideanNorm([3, 4]).arraySync(); // 5
 */
function reduceEuclideanNorm(x: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const axes = axesOf('reduceEuclideanNorm', axis);
  boolArg('reduceEuclideanNorm', 'keepDims', keepDims);
  return withInput('reduceEuclideanNorm', x, (t, temps) => bind(E.sqrt, [tmp(temps, o.reduceSum(tmp(temps, o.square(t)), axes, keepDims))], NONE)[0]);
}

/**
 * The number of non-zero (non-false, non-empty) entries over `axis`, as int32.
 * @example ef.math.countNonzero([[0, 1], [2, 0]], 1).arraySync(); // [1, 1]
 */
function countNonzero(input: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const axes = axesOf('countNonzero', axis);
  boolArg('countNonzero', 'keepDims', keepDims);
  return withInput('countNonzero', input, (t, temps) => {
    const zero = t.dtype === 'bool' ? false : t.dtype === 'string' ? '' : 0;
    const nz = tmp(temps, bind(LG.notEqual, [t, tmp(temps, o.fill([], zero, t.dtype))], NONE)[0]);
    return o.reduceSum(tmp(temps, o.cast(nz, 'int32')), axes, keepDims);
  });
}

/**
 * Counts each value of the int32 `arr` (or sums `weights` there) in bins [0, size), size = max(max(arr) + 1, minlength),
 * capped by maxlength (TF's tf.math.bincount; int32 counts, or the weights' dtype).
 * @example ef.math.bincount([1, 1, 3]).arraySync(); // [0, 2, 0, 1]
 */
function bincount(arr: TensorLike, options: { weights?: TensorLike; minlength?: number; maxlength?: number; dtype?: DType } = {}): Tensor {
  const minlength = options.minlength ?? 0;
  if (!Number.isInteger(minlength) || minlength < 0) throw argError('bincount', 'minlength must be a non-negative integer', describe(minlength), 'an integer >= 0', 'Pass e.g. 0.');
  if (options.maxlength !== undefined && (!Number.isInteger(options.maxlength) || options.maxlength < 0)) throw argError('bincount', 'maxlength must be a non-negative integer', describe(options.maxlength), 'an integer >= 0', 'Pass e.g. 10.');
  const c = convert('bincount', arr, 'int32');
  return releasing([c], () => {
    const temps: Tensor[] = [];
    const tmp = (t: Tensor): Tensor => (temps.push(t), t);
    try {
      const flat = tmp(o.reshape(c.t, [-1]));
      const top = tmp(o.add(tmp(o.reduceMax(flat)), 1));
      let size = tmp(o.maximum(top, tmp(o.fill([], minlength, 'int32'))));
      if (options.maxlength !== undefined) size = tmp(o.minimum(size, tmp(o.fill([], options.maxlength, 'int32'))));
      const w = options.weights === undefined ? tmp(o.zeros([0], options.dtype ?? 'int32')) : tmp(o.reshape(options.weights, [-1]));
      return bind(BC.bincount as Primitive, [flat, size, w], NONE)[0];
    } finally {
      for (const t of temps) t.dispose();
    }
  });
}

/** The composites of this file with their public paths (merged into COMPOSITES). */
export const MATH_COMPOSITES = composites('math', {
  topK: topKOp, reduceVariance, reduceStd, reduceLogsumexp, reduceEuclideanNorm, countNonzero, bincount,
}, { topK: ['nn.topK'], reduceLogsumexp: ['reduceLogsumexp'] });
