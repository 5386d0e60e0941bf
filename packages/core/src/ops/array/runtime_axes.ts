// Axis moves for tensors whose rank is known only at run time (traced with TensorSpec(null)): TF builds these perms at
// run time (sort's swap of the axis with the last, the images' height/width swap); ef's transpose takes a static perm, so
// the tensor is reshaped around the moved axes to a known rank (run-time products of the untouched groups), transposed,
// and reshaped back. Out-of-range axes raise when the graph runs: the run-time slices of the shape check their bounds.
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { prod1, rankOf } from './runtime_util';

/** x with the axis at run-time position `p` ([1] int32) moved to the end; a slice at p raises when it is out of range. */
function axisToEndAt(x: Tensor, p: Tensor): { moved: Tensor; head: Tensor; d: Tensor; tail: Tensor } {
  const shp = o.shapeOf(x);
  const d = o.sliceDynOf(shp, p, o.ints([1]));
  const head = o.sliceDynOf(shp, o.ints([0]), p);
  const tail = o.sliceDynOf(shp, o.add(p, 1), o.ints([-1]));
  const moved = o.reshapeDynOf(o.transpose(o.reshapeDynOf(x, o.concat([prod1(head), d, prod1(tail)], 0)), [0, 2, 1]), o.concat([head, tail, d], 0));
  return { moved, head, d, tail };
}

/**
 * x with `axis` moved to the end (the other axes keep their order), and the inverse move for a result of the moved
 * shape. The axis is resolved against the run-time rank (negative counts from the end) and must be in range.
 */
export function axisToEndDyn(x: Tensor, axis: number): { moved: Tensor; back: (y: Tensor) => Tensor } {
  const p = axis < 0 ? o.add(rankOf(o.shapeOf(x)), axis) : o.ints([axis]);
  const { moved, head, d, tail } = axisToEndAt(x, p);
  const back = (y: Tensor): Tensor => o.reshapeDynOf(o.transpose(o.reshapeDynOf(y, o.concat([prod1(head), prod1(tail), d], 0)), [0, 2, 1]), o.concat([head, d, tail], 0));
  return { moved, back };
}

/**
 * x with `axes` moved to the end in the given order (the free axes keep theirs: TF's tensordot perm free + axes, built
 * at run time), with the free and the moved dims as run-time vectors. Each axis must be in range (a run-time slice).
 */
export function axesToEndDyn(x: Tensor, axes: readonly number[]): { moved: Tensor; free: Tensor; contracted: Tensor } {
  const shp = o.shapeOf(x);
  const r = rankOf(shp);
  const pos = axes.map((a) => (a < 0 ? o.add(r, a) : o.ints([a])));
  let moved = x;
  pos.forEach((p, i) => {
    // Each axis moved before this one from a lower position shifted it down by one.
    const before = pos.slice(0, i).map((q) => o.cast(o.less(q, p), 'int32'));
    moved = axisToEndAt(moved, before.length === 0 ? p : o.sub(p, before.reduce((a, b) => o.add(a, b)))).moved;
  });
  const contracted = pos.length === 0 ? o.fill([0], 0, 'int32') : o.concat(pos.map((p) => o.sliceDynOf(shp, p, o.ints([1]))), 0);
  return { moved, free: o.sliceDynOf(o.shapeOf(moved), o.ints([0]), o.sub(r, axes.length)), contracted };
}
