// signal.frame and signal.overlapAndAdd when the framed sizes (or the rank) are known only at run time, as TF's
// frame / overlap_and_add build them: the counts (frames, segments, output length) are int32 arithmetic on the
// run-time shape, the tensor is reshaped to a known rank around the framed axis, and the run-time slices check ranks.
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { positionsTo } from '../array/runtime_shape';
import { floordivBy, prod1, rankOf } from '../array/runtime_util';

/** A run-time count as a vector of static shape [1] (so the shape vectors built from it have a static length: known ranks). */
const one = (v: Tensor): Tensor => o.reshape(v, [1]);

/** frame(x, frameLength, frameStep, padEnd, padValue, axis) with the framed axis's length (or the rank) read at run time. */
export function frameDyn(x: Tensor, frameLength: number, frameStep: number, padEnd: boolean, padValue: number, axis: number): Tensor {
  const shp = o.shapeOf(x);
  const r = x.rank;
  // The axis at run time (a slice at it raises when it is out of range); with a known rank the split is static, so
  // the result keeps a known rank.
  const a = r === null ? null : axis < 0 ? axis + r : axis;
  const p = a !== null ? o.ints([a]) : axis < 0 ? o.add(rankOf(shp), axis) : o.ints([axis]);
  const len = one(o.sliceDynOf(shp, p, o.ints([1])));
  const head = a !== null && r !== null ? o.slice(shp, [0], [a]) : o.sliceDynOf(shp, o.ints([0]), p);
  const tail = a !== null && r !== null ? o.slice(shp, [a + 1], [r - a - 1]) : o.sliceDynOf(shp, o.add(p, 1), o.ints([-1]));
  const x3 = o.reshapeDynOf(x, o.concat([prod1(head), len, prod1(tail)], 0));
  const frames = one(padEnd ? floordivBy(o.add(len, frameStep - 1), frameStep) : o.maximum(o.add(floordivBy(o.sub(len, frameLength), frameStep), 1), 0));
  // The samples the frames read, (frames - 1) * step + length (none without frames); padEnd pads up to them with padValue.
  const need = o.mul(o.add(o.mul(o.sub(frames, 1), frameStep), frameLength), o.cast(o.greater(frames, 0), 'int32'));
  let padded = x3;
  if (padEnd) {
    const extra = one(o.maximum(o.sub(need, len), 0));
    const empty = o.sliceDynOf(x3, o.ints([0, 0, 0]), o.ints([-1, 0, -1]));
    const zeros = o.padDynOf(empty, o.stack([o.ints([0, 0, 0]), o.concat([o.ints([0]), extra, o.ints([0])], 0)], 1));
    // A pad value of 0 is the pad's own fill; bool signals take the value as eager's pad does (nonzero: true).
    const block = padValue === 0 ? zeros : x.dtype === 'bool' ? o.cast(o.add(o.cast(zeros, 'float32'), padValue), 'bool') : o.add(zeros, padValue);
    padded = o.concat([x3, block], 1);
  }
  const idx = o.add(o.expandDims(o.mul(positionsTo(frames), frameStep), 1), o.expandDims(positionsTo(o.ints([frameLength])), 0));
  const taken = o.gather(padded, idx, 1);
  return o.reshapeDynOf(taken, o.concat([head, frames, o.ints([frameLength]), tail], 0));
}

/** overlapAndAdd(x, frameStep) of [..., frames, frameLength] with dims (or the rank) read at run time: TF's skew-and-sum. */
export function overlapAndAddDyn(x: Tensor, frameStep: number): Tensor {
  const shp = o.shapeOf(x);
  const r2 = o.sub(rankOf(shp), 2);
  const last2 = o.sliceDynOf(shp, r2, o.ints([2]));
  const outer = x.rank === null ? o.sliceDynOf(shp, o.ints([0]), r2) : o.slice(shp, [0], [x.rank - 2]);
  const frames = one(o.sliceDynOf(last2, o.ints([0]), o.ints([1])));
  const len = one(o.sliceDynOf(last2, o.ints([1]), o.ints([1])));
  const out = o.mul(o.add(o.mul(o.sub(frames, 1), frameStep), len), o.cast(o.greater(frames, 0), 'int32'));
  const seg = floordivBy(o.add(len, frameStep - 1), frameStep);
  const rows = o.add(frames, seg);
  const step = o.ints([frameStep]);
  const b = o.padDynOf(o.reshapeDynOf(x, o.concat([o.ints([-1]), frames, len], 0)), o.stack([o.ints([0, 0, 0]), o.concat([o.ints([0]), seg, o.sub(o.mul(seg, frameStep), len)], 0)], 1));
  const skew = o.reshapeDynOf(o.transpose(o.reshapeDynOf(b, o.concat([o.ints([-1]), rows, seg, step], 0)), [0, 2, 1, 3]), o.concat([o.ints([-1]), o.mul(seg, rows), step], 0));
  const cut = o.reshapeDynOf(o.sliceDynOf(skew, o.ints([0, 0, 0]), o.concat([o.ints([-1]), o.mul(o.sub(rows, 1), seg), step], 0)), o.concat([o.ints([-1]), seg, o.sub(rows, 1), step], 0));
  const summed = o.reshapeDynOf(o.reduceSum(cut, 1), o.concat([o.ints([-1]), o.mul(o.sub(rows, 1), frameStep)], 0));
  return o.reshapeDynOf(o.sliceDynOf(summed, o.ints([0, 0]), o.concat([o.ints([-1]), out], 0)), o.concat([outer, out], 0));
}
