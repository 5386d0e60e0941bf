// The tf.linalg mask composites (bandPart, diag family, cross) when the matrix sizes are known only at run time:
// row and column positions come from exclusive cumsums over the input (positionsAlong), so no size is needed
// statically; sizes that must match are checked when the graph runs by run-time slices (a slice past a dim raises).
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { positionsAlong } from '../array/runtime_shape';
import { negZerosLike, rankOf } from '../array/runtime_util';

/** Whether the last `count` dims are all known (then the static composites apply). */
export function knownTail(x: Tensor, count: number): boolean {
  const d = x.dims;
  return d !== null && d.length >= count && d.slice(d.length - count).every((v) => v !== null);
}

/** i - j over the innermost matrices of x (int32, x's run-time shape). */
const rowMinusCol = (x: Tensor): Tensor => o.sub(positionsAlong(x, -2), positionsAlong(x, -1));

/** Whether each entry of x's innermost matrices is on the main diagonal (bool, x's run-time shape). */
export const onDiagonal = (x: Tensor): Tensor => o.equal(positionsAlong(x, -2), positionsAlong(x, -1));

/** bandPart: keeps i - j <= numLower and j - i <= numUpper (negative: no limit). */
export function bandPartDyn(t: Tensor, numLower: number, numUpper: number): Tensor {
  const diff = rowMinusCol(t);
  const lowerOk = numLower < 0 ? null : o.lessEqual(diff, numLower);
  const upperOk = numUpper < 0 ? null : o.lessEqual(o.neg(diff), numUpper);
  const keep = lowerOk === null ? upperOk : upperOk === null ? lowerOk : o.logicalAnd(lowerOk, upperOk);
  return keep === null ? o.identity(t) : o.where(keep, t, o.zerosLike(t));
}

/** The shape vector and the index of its last entry (rank - 1), both read at run time when the rank is unknown. */
function lastIndex(x: Tensor): { shp: Tensor; last: Tensor } {
  const shp = o.shapeOf(x);
  return { shp, last: x.rank === null ? o.sub(rankOf(shp), 1) : o.ints([x.rank - 1]) };
}

/** shape(x) with its last entry replaced by `v` ([1] int32), at run time. */
function withLast(x: Tensor, v: Tensor): Tensor {
  const { shp, last } = lastIndex(x);
  return o.concat([o.sliceDynOf(shp, o.ints([0]), last), v], 0);
}

/** min(M, N) of x's innermost matrices as a [1] int32 vector. */
function minMN(x: Tensor): Tensor {
  const { shp, last } = lastIndex(x);
  const mn = o.sliceDynOf(shp, o.sub(last, 1), o.ints([2]));
  return o.neg(o.reduceMax(o.neg(mn), null, true));
}

/** diagPart: [..., M, N] -> [..., min(M, N)]. Off-diagonal entries count as -0, so a -0 diagonal keeps its sign. */
export function diagPartDyn(t: Tensor): Tensor {
  const rows = o.reduceSum(o.where(onDiagonal(t), t, negZerosLike(t)), -1);
  // rows is [..., M]; the diagonal is its first min(M, N) entries.
  return o.sliceDynOf(rows, o.mul(o.shapeOf(rows), 0), withLast(rows, minMN(t)));
}

/** diag: [..., K] -> [..., K, K] with +0 off the diagonal (TF's MatrixDiag fill). */
export function diagDyn(d: Tensor): Tensor {
  const grid = o.mul(o.expandDims(d, -1), o.onesLike(o.expandDims(d, -2)));
  return o.where(onDiagonal(grid), grid, o.zerosLike(grid));
}

/**
 * setDiag: x with its main diagonals replaced. The diagonal ([..., K]) must have K = min(M, N): checked at run
 * time by slicing it to min(M, N) and back to its own shape; padded to M, it spreads along the rows.
 */
export function setDiagDyn(t: Tensor, d: Tensor): Tensor {
  const k = minMN(t);
  const checked = o.sliceDynOf(o.sliceDynOf(d, o.mul(o.shapeOf(d), 0), withLast(d, k)), o.mul(o.shapeOf(d), 0), o.shapeOf(d));
  const { shp, last } = lastIndex(t);
  const m = o.sliceDynOf(shp, o.sub(last, 1), o.ints([1]));
  // Pad the last axis by M - K at the end (zeros elsewhere): [..., M].
  const pads = o.stack([o.mul(o.shapeOf(d), 0), o.sub(withLast(d, m), o.shapeOf(d))], 1);
  const spread = o.expandDims(o.padDynOf(checked, pads), -1);
  return o.where(onDiagonal(t), o.mul(spread, o.onesLike(t)), t);
}

/**
 * cross of 3-vectors along the last axis. The last dim must be 3: each operand is sliced to 3 (raising below 3)
 * and the rotated copies back to its own shape (raising above 3).
 */
export function crossDyn(x: Tensor, y: Tensor): Tensor {
  const g = (t: Tensor, idx: number[]): Tensor => {
    // Sliced to 3 first (raises below 3 on every backend: a GPU gather does not check its indices), back after (above 3).
    const t3 = o.sliceDynOf(t, o.mul(o.shapeOf(t), 0), withLast(t, o.ints([3])));
    const r = o.gather(t3, o.ints(idx), -1);
    return o.sliceDynOf(r, o.mul(o.shapeOf(t), 0), o.shapeOf(t));
  };
  return o.sub(o.mul(g(x, [1, 2, 0]), g(y, [2, 0, 1])), o.mul(g(x, [2, 0, 1]), g(y, [1, 2, 0])));
}
