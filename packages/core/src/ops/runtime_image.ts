// The image crops and pads when the image's dims (or rank) are known only at run time: begin, size and paddings are
// built from the run-time shape, and the run-time slice and pad raise for a box outside the image or a target too
// small, as TF's run-time asserts in crop_to_bounding_box / pad_to_bounding_box do.
import type { Tensor } from '../values/tensor';
import * as o from './ops';

/** The run-time shape split as [leading batch dims], [H, W] ([n] int32 vectors) of a checked image or batch. */
function parts(x: Tensor): { lead: Tensor; hw: Tensor } {
  const shp = o.shapeOf(x);
  const r3 = o.sub(o.reduceSum(o.onesLike(shp), null, true), 3);
  return { lead: o.sliceDynOf(shp, o.ints([0]), r3), hw: o.sliceDynOf(shp, r3, o.ints([2])) };
}

/** The window of [th, tw] at [oh, ow] (int32 [1] tensors or numbers) of every image. */
function window(x: Tensor, oh: Tensor | number, ow: Tensor | number, th: Tensor | number, tw: Tensor | number): Tensor {
  const { lead } = parts(x);
  const v = (n: Tensor | number): Tensor => (typeof n === 'number' ? o.ints([n]) : n);
  const begin = o.concat([o.mul(lead, 0), v(oh), v(ow), o.ints([0])], 0);
  const size = o.concat([o.sub(o.mul(lead, 0), 1), v(th), v(tw), o.ints([-1])], 0);
  return o.sliceDynOf(x, begin, size);
}

export function cropToBoxDyn(x: Tensor, oh: number, ow: number, th: number, tw: number): Tensor {
  return window(x, oh, ow, th, tw);
}

export function padToBoxDyn(x: Tensor, oh: number, ow: number, th: number, tw: number): Tensor {
  const { lead, hw } = parts(x);
  const after = o.sub(o.ints([th - oh, tw - ow]), hw);
  const zeros = o.mul(lead, 0);
  return o.padDynOf(x, o.stack([o.concat([zeros, o.ints([oh, ow, 0])], 0), o.concat([zeros, after, o.ints([0])], 0)], 1));
}

/**
 * The central fraction f of height and width: starts trunc((n - n f) / 2) computed in float32 at run time (TF computes
 * them in float64; the two agree unless (n - n f) / 2 lies within float32 rounding of an integer).
 */
export function centralCropDyn(x: Tensor, f: number): Tensor {
  const { hw } = parts(x);
  const n = o.cast(hw, 'float32');
  const start = o.cast(o.div(o.sub(n, o.mul(n, f)), 2), 'int32');
  const size = o.sub(hw, o.mul(start, 2));
  const at = (v: Tensor, i: number): Tensor => o.sliceDynOf(v, o.ints([i]), o.ints([1]));
  return window(x, at(start, 0), at(start, 1), at(size, 0), at(size, 1));
}
