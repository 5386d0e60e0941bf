// The image crops and pads when the image's dims (or rank) are known only at run time: begin, size and paddings are
// built from the run-time shape, and the run-time slice and pad raise for a box outside the image or a target too
// small, as TF's run-time asserts in crop_to_bounding_box / pad_to_bounding_box do.
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { positionsTo } from '../array/runtime_shape';
import { floordivBy, rankOf } from '../array/runtime_util';

/** The run-time shape split as [leading batch dims], [H, W] ([n] int32 vectors) of a checked image or batch. */
function parts(x: Tensor): { lead: Tensor; hw: Tensor } {
  const shp = o.shapeOf(x);
  const r3 = o.sub(rankOf(shp), 3);
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

const ceilDiv = (a: Tensor, s: number): Tensor => floordivBy(o.add(a, s - 1), s);

/**
 * extractPatches of an image batch [B, H, W, C] with dims (or the rank, checked to be 4 then) known only at run time:
 * TF's output size and SAME padding from the run-time H and W, and the patch gather indices built by broadcasting
 * run-time row and column positions (the static path's index list).
 */
export function extractPatchesDyn(x: Tensor, k: [number, number], s: [number, number], r: [number, number], same: boolean): Tensor {
  const t = x.rank === null ? o.reshapeDynOf(x, o.reshape(o.shapeOf(x), [4])) : x;
  const shp = o.shapeOf(t);
  const [h, w, c] = [1, 2, 3].map((i) => o.slice(shp, [i], [1]));
  const e = [(k[0] - 1) * r[0] + 1, (k[1] - 1) * r[1] + 1];
  const outOf = (n: Tensor, i: number): Tensor => (same ? ceilDiv(n, s[i]) : o.maximum(ceilDiv(o.sub(n, e[i] - 1), s[i]), 0));
  const [oh, ow] = [outOf(h, 0), outOf(w, 1)];
  const span = (on: Tensor, i: number): Tensor => o.add(o.mul(o.sub(on, 1), s[i]), e[i]);
  const before = (n: Tensor, on: Tensor, i: number): Tensor => (same ? floordivBy(o.maximum(o.sub(span(on, i), n), 0), 2) : o.ints([0]));
  const [pt, pl] = [before(h, oh, 0), before(w, ow, 1)];
  const [hp, wp] = [o.maximum(o.add(h, pt), span(oh, 0)), o.maximum(o.add(w, pl), span(ow, 1))];
  const zero = o.ints([0, 0]);
  const padded = o.padDynOf(t, o.stack([zero, o.concat([pt, o.sub(o.sub(hp, h), pt)], 0), o.concat([pl, o.sub(o.sub(wp, w), pl)], 0), zero]));
  const rows = o.reshape(o.mul(positionsTo(oh), s[0]), [-1, 1, 1, 1]);
  const cols = o.reshape(o.mul(positionsTo(ow), s[1]), [1, -1, 1, 1]);
  const a = o.reshape(o.ints(Array.from({ length: k[0] }, (_, i) => i * r[0])), [1, 1, k[0], 1]);
  const b = o.reshape(o.ints(Array.from({ length: k[1] }, (_, i) => i * r[1])), [1, 1, 1, k[1]]);
  const idx = o.reshape(o.add(o.add(o.mul(o.add(rows, a), o.reshape(wp, [])), cols), b), [-1]);
  const taken = o.gather(o.reshapeDynOf(padded, o.concat([o.ints([-1]), o.mul(hp, wp), c], 0)), idx, 1);
  return o.reshapeDynOf(taken, o.concat([o.ints([-1]), oh, ow, o.mul(c, k[0] * k[1])], 0));
}
