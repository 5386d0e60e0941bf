// Helpers for composites whose sizes are known only at run time (traced with unknown dims or rank).
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import type { Primitive } from '../primitive';
import * as o from '../ops';
import * as RM from '../math/reduce_scan';
import { rankOf, zerosOfLength } from './runtime_util';

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
