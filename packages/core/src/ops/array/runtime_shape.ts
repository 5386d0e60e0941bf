// Helpers for composites whose sizes are known only at run time (traced with unknown dims or rank).
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import type { Primitive } from '../primitive';
import * as o from '../ops';
import { argError } from '../check';
import { describe } from '../../values/dtype';
import * as RM from '../math/reduce_scan';
import { axesToEndDyn } from './runtime_axes';
import { prodOf, rankOf, zerosOfLength } from './runtime_util';

/**
 * The int32 positions 0..n-1 along `axis`, in x's (run-time) shape: an exclusive cumsum of ones. Stands in
 * for range(n) broadcast against x where n is not static.
 */
export function positionsAlong(x: Tensor, axis: number): Tensor {
  return bind(RM.cumsum as Primitive, [o.onesLike(o.cast(x, 'int32'))], { axis, exclusive: true, reverse: false })[0];
}

/** reduceAny over `axis` (bool). */
export const anyAlong = (x: Tensor, axis: number): Tensor => bind(RM.any as Primitive, [x], { axes: [axis], keepDims: false })[0];

/** 0, 1, ..., n - 1 for a run-time n ([1] int32). */
export const positionsTo = (n: Tensor): Tensor => positionsAlong(zerosOfLength(n), 0);

const take = (sh: Tensor, idx: readonly number[]): Tensor => o.gather(sh, o.ints(idx), 0);
const span = (a: number, b: number): number[] => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);

/**
 * tensordot with dims known only at run time (TF's _tensordot_reshape): each operand transposed to
 * free + contracted axes and reshaped to a matrix by run-time products, a matmul, and the free dims restored.
 * A count of axes works with unknown ranks too (the split points are read at run time).
 */
export function tensordotDyn(op: string, x: Tensor, y: Tensor, axes: number | [number[], number[]] | [number, number]): Tensor {
  const [rx, ry] = [x.rank, y.rank];
  const shx = o.shapeOf(x);
  const shy = o.shapeOf(y);
  const matmulOf = (am: Tensor, bm: Tensor, outDims: Tensor): Tensor => o.reshapeDynOf(o.matmul(am, bm), outDims);
  if (typeof axes === 'number') {
    if (!Number.isInteger(axes) || axes < 0 || (rx !== null && axes > rx) || (ry !== null && axes > ry)) throw argError(op, 'axes must be an integer within both ranks', describe(axes), 'a count <= both ranks', 'Pass how many dims to contract.');
    if (rx === null || ry === null) {
      const cut = rx !== null ? o.ints([rx - axes]) : o.sub(rankOf(shx), axes);
      const [headX, tailX] = [o.sliceDynOf(shx, o.ints([0]), cut), o.sliceDynOf(shx, cut, o.ints([-1]))];
      const [headY, tailY] = [o.sliceDynOf(shy, o.ints([0]), o.ints([axes])), o.sliceDynOf(shy, o.ints([axes]), o.ints([-1]))];
      const am = o.reshapeDynOf(x, o.stack([prodOf(headX), prodOf(tailX)]));
      const bm = o.reshapeDynOf(y, o.stack([prodOf(headY), prodOf(tailY)]));
      return matmulOf(am, bm, o.concat([headX, tailY], 0));
    }
    return tensordotDyn(op, x, y, [span(rx - axes, rx), span(0, axes)]);
  }
  const [p, q] = axes;
  if (rx === null || ry === null) {
    // Unknown ranks: the contracted axes moved to the end at run time (TF's run-time perm free + axes), a matmul of
    // [free, contracted] by its transpose, and the free dims restored.
    const [ax, by] = [Array.isArray(p) ? p : [p], Array.isArray(q) ? q : [q]];
    if (ax.length !== by.length) throw argError(op, 'the axis lists must have equal lengths', `[${ax}] and [${by}]`, 'equal-length axis lists', 'Pair each contracted axis of a with one of b.');
    const [mx, my] = [axesToEndDyn(x, ax), axesToEndDyn(y, by)];
    const am = o.reshapeDynOf(mx.moved, o.stack([prodOf(mx.free), prodOf(mx.contracted)]));
    const bm = o.reshapeDynOf(my.moved, o.stack([prodOf(my.free), prodOf(my.contracted)]));
    return o.reshapeDynOf(o.matmul(am, bm, false, true), o.concat([mx.free, my.free], 0));
  }
  const ax = (Array.isArray(p) ? p : [p]).map((v) => (v < 0 ? v + rx : v));
  const by = (Array.isArray(q) ? q : [q]).map((v) => (v < 0 ? v + ry : v));
  const [dx, dy] = [x.dims as (number | null)[], y.dims as (number | null)[]];
  if (ax.length !== by.length || ax.some((v, i) => !(v >= 0 && v < rx && by[i] >= 0 && by[i] < ry && (dx[v] === null || dy[by[i]] === null || dx[v] === dy[by[i]])))) {
    throw argError(op, 'the contracted dims must pair up with equal sizes', `${x.shape.toString()} axes [${ax}] and ${y.shape.toString()} axes [${by}]`, 'equal-length axis lists over dims of equal size', 'Check the axes.');
  }
  const freeA = span(0, rx).filter((i) => !ax.includes(i));
  const freeB = span(0, ry).filter((i) => !by.includes(i));
  const am = o.reshapeDynOf(o.transpose(x, [...freeA, ...ax]), o.stack([prodOf(take(shx, freeA)), prodOf(take(shx, ax))]));
  const bm = o.reshapeDynOf(o.transpose(y, [...by, ...freeB]), o.stack([prodOf(take(shy, by)), prodOf(take(shy, freeB))]));
  return matmulOf(am, bm, o.concat([take(shx, freeA), take(shy, freeB)], 0));
}

/**
 * A run-time same-shape check for two tensors whose static shapes could not decide it: each is sliced to the
 * other's run-time shape (a slice past a dim or of another rank raises), and the checked copies are returned for
 * the computation to use (so a graph keeps the check).
 */
export function sameShapeAtRunTime(a: Tensor, b: Tensor): [Tensor, Tensor] {
  const zeros = (t: Tensor): Tensor => o.mul(o.shapeOf(t), 0);
  return [o.sliceDynOf(a, zeros(a), o.shapeOf(b)), o.sliceDynOf(b, zeros(b), o.shapeOf(a))];
}

/** The last dim of x as a [1] int32 vector read at run time (x of any rank >= 1, known or not). */
export function lastDim(x: Tensor): Tensor {
  const shp = o.shapeOf(x);
  const last = x.rank === null ? o.sub(rankOf(shp), 1) : o.ints([x.rank - 1]);
  return o.sliceDynOf(shp, last, o.ints([1]));
}
