// tf.linalg composites built from existing ops: eye, diag family, bandPart, trace, matvec, tensordot, norm, cross.
import { composites } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import type { DType } from '../../values/dtype';
import { describe, showValue } from '../../values/dtype';
import * as o from '../ops';
import { Dim, SymShape, diagonalMask, dim, fillLike, isKnown, moveAxesToEnd, negZerosLike, padBy, rangeOf, reshapeTo, shapeOf, sliceTo, splitFirst, splitLast, withDim } from '../array/symbolic_dims';

import * as UNA from '../math/unary';
import { argError } from '../check';
import { einsum } from './einsum';
import { typeError } from '../../errors/error_toolkit';

const abs: (x: TensorLike) => Tensor = o.wrapperOf(UNA.abs);
const sqrt: (x: TensorLike) => Tensor = o.wrapperOf(UNA.sqrt);

/**
 * The leading dims and the last `count` dims of x as Dims (numbers when static, else read when the graph runs;
 * symbolic_dims.ts). A known rank below `count` is refused now; an unknown one is checked when the graph runs.
 */
function tailDims(op: string, x: Tensor, count: number, what: string): { head: SymShape; last: Dim[] } {
  const d = x.dims;
  if (d !== null && d.length < count) throw argError(op, `the input must have rank >= ${count}`, `rank ${d.length}`, `rank >= ${count} (${what})`, 'Reshape the input.');
  return splitLast(op, shapeOf(x), count);
}

/**
 * eye(numRows, numColumns?, batchShape?, dtype?): identity matrices ([...batchShape, numRows, numColumns]).
 * @example ef.eye(2).arraySync(); // [[1, 0], [0, 1]]
 */
function eye(numRows: number, numColumns: number | null = null, batchShape: number[] | null = null, dtype: DType = 'float32'): Tensor {
  const m = numColumns ?? numRows;
  for (const [n, v] of [['numRows', numRows], ['numColumns', m]] as const) {
    if (!Number.isInteger(v) || v < 0) throw argError('linalg.eye', `${n} must be a non-negative integer`, describe(v), 'an integer >= 0', `Pass a size for ${n}.`);
  }
  return tidy(() => {
    const mask = o.equal(o.reshape(o.range(numRows, null, 1, 'int32'), [numRows, 1]), o.reshape(o.range(m, null, 1, 'int32'), [1, m]));
    const e = o.cast(mask, dtype);
    return batchShape === null || batchShape.length === 0 ? e : o.broadcastTo(e, [...batchShape, numRows, m]);
  });
}

/**
 * diagPart(x): the main diagonals of the innermost matrices ([..., M, N] -> [..., min(M, N)]).
 * @example ef.linalg.diagPart([[1, 2], [3, 4]]).arraySync(); // [1, 4]
 */
function diagPart(x: TensorLike): Tensor {
  return tidy(() => {
    const t = convert('linalg.diagPart', x).t;
    numericOnly('linalg.diagPart', t);
    const { head, last: [m, n] } = tailDims('linalg.diagPart', t, 2, 'a batch of matrices');
    const k = dim.min(m, n);
    const sq = dim.equal(m, k) === true && dim.equal(n, k) === true ? t : sliceTo(t, [...fillLike(head, 0), 0, 0], [...fillLike(head, -1), k, k]);
    // Off the diagonal -0 (the sum keeps a -0 diagonal's sign), and a select, not a product by a 0/1 mask: the
    // gradient's structural zeros are then +0, as TF's MatrixDiagPart gradient (MatrixDiag's zero fill) writes them.
    return o.reduceSum(o.where(diagonalMask(k, k), sq, negZerosLike(sq)), -1);
  });
}

/** The diag family selects and sums: float32 or int32 only (strings, bools and complex64 are refused naming the op). */
function numericOnly(op: string, t: Tensor): void {
  if (t.dtype !== 'float32' && t.dtype !== 'int32') throw argError(op, 'unsupported dtype', t.dtype, 'float32 or int32', "Cast it first, e.g. ef.cast(x, 'float32').");
}

/**
 * diag(diagonal): square matrices with the given main diagonals ([..., K] -> [..., K, K]).
 * @example ef.linalg.diag([1, 2]).arraySync(); // [[1, 0], [0, 2]]
 */
function diag(diagonal: TensorLike): Tensor {
  return tidy(() => {
    const d = convert('linalg.diag', diagonal).t;
    numericOnly('linalg.diag', d);
    const { last: [k] } = tailDims('linalg.diag', d, 1, 'a batch of diagonals');
    // A select, not a product by the 0/1 mask (a negative diagonal times 0 would write -0): TF's MatrixDiag fills +0.
    const grid = o.mul(o.expandDims(d, -1), o.onesLike(o.expandDims(d, -2)));
    return o.where(diagonalMask(k, k), grid, o.zerosLike(grid));
  });
}

/**
 * setDiag(x, diagonal): x with its main diagonals replaced ([..., M, N] with [..., min(M, N)]).
 * @example ef.linalg.setDiag([[1, 2], [3, 4]], [9, 8]).arraySync(); // [[9, 2], [3, 8]]
 */
function setDiag(x: TensorLike, diagonal: TensorLike): Tensor {
  return tidy(() => {
    const t = convert('linalg.setDiag', x).t;
    const d = convert('linalg.setDiag', diagonal, t.dtype).t;
    numericOnly('linalg.setDiag', t);
    const { last: [m, n] } = tailDims('linalg.setDiag', t, 2, 'a batch of matrices');
    const { head, last: [k] } = tailDims('linalg.setDiag', d, 1, 'a batch of diagonals');
    const mn = dim.min(m, n);
    if (dim.equal(k, mn) === false) throw argError('linalg.setDiag', 'the diagonal length must be min(M, N)', `${String(k)} for a ${String(m)}x${String(n)} matrix`, `${String(mn)}`, 'Pass one value per diagonal entry.');
    // The diagonal ([..., K], K = min(M, N), checked when the graph runs for run-time sizes) padded to M spreads
    // along the rows; the diagonal mask picks entry i of row i.
    const checked = withDim(d, -1, mn);
    const rest = dim.sub(m, mn);
    const padded = rest === 0 ? checked : padBy(checked, [...fillLike(head, 0), 0], [...fillLike(head, 0), rest]);
    return o.where(diagonalMask(m, n), o.mul(o.expandDims(padded, -1), o.onesLike(t)), t);
  });
}

/**
 * bandPart(x, numLower, numUpper): keeps the entries with i - j <= numLower and j - i <= numUpper (negative: keep all).
 * @example ef.linalg.bandPart([[1, 2], [3, 4]], 0, -1).arraySync(); // [[1, 2], [0, 4]]
 */
function bandPart(x: TensorLike, numLower: number, numUpper: number): Tensor {
  for (const [n, v] of [['numLower', numLower], ['numUpper', numUpper]] as const) {
    if (!Number.isInteger(v)) throw argError('linalg.bandPart', `${n} must be an integer`, describe(v), 'an integer (negative keeps the whole triangle)', 'Pass e.g. 0 or -1.');
  }
  return tidy(() => {
    const t = convert('linalg.bandPart', x).t;
    // TF's MatrixBandPart has no string kernel.
    if (t.dtype === 'string') throw argError('linalg.bandPart', 'unsupported dtype', t.dtype, 'a numeric or bool dtype', 'Select on the host (numpyFunction) instead.');
    const { last: [m, n] } = tailDims('linalg.bandPart', t, 2, 'a batch of matrices');
    const diff = o.sub(o.reshape(rangeOf(m), [-1, 1]), o.reshape(rangeOf(n), [1, -1]));
    const lowerOk = numLower < 0 ? o.cast(o.onesLike(diff), 'bool') : o.lessEqual(diff, numLower);
    const upperOk = numUpper < 0 ? o.cast(o.onesLike(diff), 'bool') : o.lessEqual(o.neg(diff), numUpper);
    return o.where(o.logicalAnd(lowerOk, upperOk), t, o.zerosLike(t));
  });
}

/**
 * trace(x): the sum of each innermost matrix's main diagonal ([..., M, N] -> [...]).
 * @example ef.linalg.trace([[1, 2], [3, 4]]).arraySync(); // 5
 */
function trace(x: TensorLike): Tensor {
  return tidy(() => {
    const t = convert('linalg.trace', x).t;
    if (t.dtype === 'complex64' || t.dtype === 'string') throw argError('linalg.trace', 'unsupported dtype', t.dtype, 'float32 or int32', "Cast it first, e.g. ef.cast(x, 'float32').");
    return o.reduceSum(diagPart(t), -1);
  });
}

/**
 * matvec(a, b, {transposeA, adjointA}): matrix-vector products, batched ([..., M, N] x [..., N] -> [..., M]).
 * @example ef.linalg.matvec([[1, 2], [3, 4]], [1, 1]).arraySync(); // [3, 7]
 */
function matvec(a: TensorLike, b: TensorLike, options: { transposeA?: boolean; adjointA?: boolean } = {}): Tensor {
  const tA = (options.transposeA ?? false) || (options.adjointA ?? false); // real dtypes: the adjoint is the transpose
  return tidy(() => o.squeeze(o.matmul(a, o.expandDims(convert('linalg.matvec', b).t, -1), tA, false), [-1]));
}

/**
 * cross(a, b): cross products of 3-vectors along the last axis.
 * @example ef.linalg.cross([1, 0, 0], [0, 1, 0]).arraySync(); // [0, 0, 1]
 */
function cross(a: TensorLike, b: TensorLike): Tensor {
  return tidy(() => {
    const x = convert('linalg.cross', a).t;
    const y = convert('linalg.cross', b, x.dtype).t;
    // The last dims must be 3: checked now when known, else when the graph runs (withDim's slices raise).
    const [xc, yc] = [x, y].map((t) => {
      const { last: [c] } = tailDims('linalg.cross', t, 1, 'vectors of 3');
      if (isKnown(c) && c !== 3) throw argError('linalg.cross', 'the last dim must be 3', t.shape.toString(), '(..., 3)', 'Pass 3-vectors.');
      return withDim(t, -1, 3);
    });
    const yzx = [1, 2, 0];
    const zxy = [2, 0, 1];
    const g = (t: Tensor, idx: number[]): Tensor => o.gather(t, convert('linalg.cross', idx, 'int32').t, -1);
    return o.sub(o.mul(g(xc, yzx), g(yc, zxy)), o.mul(g(xc, zxy), g(yc, yzx)));
  });
}

/**
 * tensordot(a, b, axes): contracts the last `axes` dims of a with the first of b, or the listed axis pairs `[[aAxes], [bAxes]]`.
 * @example ef.tensordot([[1, 2], [3, 4]], [[1, 0], [0, 1]], 1).arraySync(); // [[1, 2], [3, 4]]
 */
function tensordot(a: TensorLike, b: TensorLike, axes: number | [number[], number[]] | [number, number]): Tensor {
  const op = 'linalg.tensordot';
  // TF requires axes (no default): an integer or a pair of axis lists.
  if (typeof axes !== 'number' && !(Array.isArray(axes) && axes.length === 2)) {
    throw typeError(op, 'axes is required', describe(axes), 'an integer N (the last N dims of a with the first N of b) or a pair [aAxes, bAxes]', 'Pass axes, e.g. ef.linalg.tensordot(a, b, 1).');
  }
  return tidy(() => {
    const x = convert(op, a).t;
    const y = convert(op, b, x.dtype).t;
    // One path for static and run-time sizes and ranks (Dims, symbolic_dims.ts): each operand brought to
    // [free..., contracted...] / [contracted..., free...], reshaped to a matrix by the Dim products, one matmul, and
    // the free dims restored. Contracted sizes that only the run time knows are checked then (withDim).
    const [rx, ry] = [x.rank, y.rank];
    const mismatch = (ax: number[], by: number[]): Error => argError(op, 'the contracted dims must pair up with equal sizes', `${x.shape.toString()} axes [${ax}] and ${y.shape.toString()} axes [${by}]`, 'equal-length axis lists over dims of equal size', 'Check the axes.');
    let ax: number[];
    let by: number[];
    if (typeof axes === 'number') {
      if (!Number.isInteger(axes) || axes < 0 || (rx !== null && axes > rx) || (ry !== null && axes > ry)) throw argError(op, 'axes must be an integer within both ranks', describe(axes), rx !== null && ry !== null ? `0..${Math.min(rx, ry)}` : 'a count <= both ranks', 'Pass how many dims to contract.');
      ax = Array.from({ length: axes }, (_, i) => (rx === null ? i - axes : rx - axes + i));
      by = Array.from({ length: axes }, (_, i) => i);
    } else {
      const [p, q] = axes;
      ax = (Array.isArray(p) ? p : [p]).map((v) => (v < 0 && rx !== null ? v + rx : v));
      by = (Array.isArray(q) ? q : [q]).map((v) => (v < 0 && ry !== null ? v + ry : v));
      const inRange = (v: number, r: number | null): boolean => Number.isInteger(v) && (r === null || (v >= 0 && v < r));
      if (ax.length !== by.length || ax.some((v, i) => !inRange(v, rx) || !inRange(by[i], ry))) throw mismatch(ax, by);
    }
    if (new Set(ax).size !== ax.length || new Set(by).size !== by.length) throw mismatch(ax, by);
    const mx = moveAxesToEnd(op, x, ax);
    // b's contracted axes already leading in order (tensordot(a, b, n), of any rank): no transpose of b.
    const front = by.every((v, i) => v === i);
    const my = front ? (({ first, tail }) => ({ moved: y, free: tail, axesDims: first }))(splitFirst(op, shapeOf(y), by.length)) : moveAxesToEnd(op, y, by);
    let xm = mx.moved;
    mx.axesDims.forEach((d, i) => {
      const same = dim.equal(d, my.axesDims[i]);
      if (same === false) throw mismatch(ax, by);
      if (same === null) xm = withDim(xm, i - ax.length, my.axesDims[i]);
    });
    const k = dim.prod(mx.axesDims);
    const am = reshapeTo(xm, [dim.prod(mx.free), k]);
    const bm = front ? reshapeTo(y, [k, dim.prod(my.free)]) : reshapeTo(my.moved, [dim.prod(my.free), k]);
    return reshapeTo(o.matmul(am, bm, false, !front), [...mx.free, ...my.free]);
  });
}

export type Ord = 'euclidean' | 'fro' | number;
export interface NormOptions { ord?: Ord; axis?: number | [number, number] | null; keepDims?: boolean }

/** A vector p-norm over one axis (kept). */
function vectorNorm(t: Tensor, ord: Ord, axis: number): Tensor {
  if (ord === 'euclidean' || ord === 'fro' || ord === 2) return sqrt(o.reduceSum(o.square(t), [axis], true));
  if (ord === 1) return o.reduceSum(abs(t), [axis], true);
  if (ord === Infinity) return o.reduceMax(abs(t), [axis], true);
  if (ord === -Infinity) return o.neg(o.reduceMax(o.neg(abs(t)), [axis], true));
  if (typeof ord === 'number' && ord > 0 && Number.isFinite(ord)) return o.pow(o.reduceSum(o.pow(abs(t), ord), [axis], true), 1 / ord);
  throw argError('norm', 'ord must be a supported vector norm', describe(ord), "'euclidean', 'fro', 1, 2, Infinity, -Infinity or a number > 0", 'Pass one of those.');
}

/** A matrix norm over two axes (kept): Frobenius, max column sum (1) or max row sum (Infinity). */
function matrixNorm(t: Tensor, ord: Ord, [r, c]: [number, number]): Tensor {
  if (ord === 'euclidean' || ord === 'fro') return sqrt(o.reduceSum(o.square(t), [r, c], true));
  if (ord === 1) return o.reduceMax(o.reduceSum(abs(t), [r], true), [c], true);
  if (ord === Infinity) return o.reduceMax(o.reduceSum(abs(t), [c], true), [r], true);
  throw argError('norm', 'ord must be a supported matrix norm', describe(ord), "'euclidean', 'fro', 1 or Infinity (2 needs an SVD, which EagerFlow lacks)", 'Pass one of those.');
}

/**
 * norm(x, ord?, axis?, keepDims?) or norm(x, {ord, axis, keepDims}): vector norms (one axis or the whole flattened
 * tensor) and matrix norms (an axis pair), per tf.norm.
 * @example ef.norm([3, 4]).arraySync(); // 5
 */
function norm(x: TensorLike, ordOrOptions: Ord | NormOptions = 'euclidean', axis: number | [number, number] | null = null, keepDims = false): Tensor {
  const opts: NormOptions = typeof ordOrOptions === 'object' && ordOrOptions !== null ? ordOrOptions : { ord: ordOrOptions, axis, keepDims };
  const ord = opts.ord ?? 'euclidean';
  const keep = opts.keepDims ?? false;
  return tidy(() => {
    const t = convert('norm', x, 'float32').t;
    // An unknown rank (traced) keeps the axes as given: the reductions resolve them at run time, as in TF.
    const rank = t.rank;
    const ax = opts.axis ?? null;
    if (ax === null) {
      const flat = o.reshape(t, [-1]);
      const v = o.reshape(vectorNorm(flat, ord === 'fro' ? 'euclidean' : ord, 0), []);
      if (!keep) return v;
      return rank === null ? o.reshapeLike(v, o.reduceSum(t, null, true)) : o.reshape(v, new Array<number>(rank).fill(1));
    }
    const list = (Array.isArray(ax) ? ax : [ax]).map((a) => (a < 0 && rank !== null ? a + rank : a));
    const inRange = (a: number): boolean => rank === null || (a >= 0 && a < rank);
    if (list.length > 2 || list.some((a) => !Number.isInteger(a) || !inRange(a)) || (list.length === 2 && list[0] === list[1])) {
      throw argError('norm', 'axis must be one axis or a pair of distinct axes in range', showValue(ax), rank === null ? 'one or two distinct integer axes' : `axes in [-${rank}, ${rank})`, 'Pass e.g. -1 or [-2, -1].');
    }
    const v = list.length === 1 ? vectorNorm(t, ord, list[0]) : matrixNorm(t, ord, [list[0], list[1]]);
    return keep ? v : o.squeeze(v, list);
  });
}

/** The linalg composites with their public paths (merged into COMPOSITES). */
export const LINALG_COMPOSITES = composites('linalg', {
  eye, diag, diagPart, setDiag, bandPart, trace, matvec, cross, tensordot, norm, einsum,
}, { eye: ['eye'], tensordot: ['tensordot'], norm: ['norm'], einsum: ['einsum'] });
