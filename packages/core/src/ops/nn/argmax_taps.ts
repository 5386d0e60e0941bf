// MaxPoolGrad's scatter-to-argmax without ScatterNd, for webgl: tfjs-webgl's ScatterNd shader loops over every
// update for each output element (O(input x output): a 29x29x128 max pool's gradient took 80 s in SwiftShader).
import type { Info, Kernels } from '../../backend/backend';
import { isHostBackend, readInfoSync } from '../../backend/backend';
import { withScratch } from '../kernel_util';
import { samePads } from './padding';

/** TF's SAME padding before the input along one dim (the extra pixel goes after); 0 for VALID. */
export function padBefore(inp: number, k: number, s: number, out: number, same: boolean): number {
  return same ? samePads(inp, k, s, 1, out)[0] : 0;
}

/**
 * dy summed into each window's argmax (`idx`: MaxPoolWithArgmax's flat NHWC indices, batch included) of the
 * rank-4 NHWC input `x`, as O(input x taps) work: tap m of every window keeps dy where the argmax is that tap's
 * input position (compared with the taps' flat indices, made here; -1 for padding), and one
 * DepthwiseConv2dNativeBackpropInput whose filter is one-hot per tap (channel multiplier = taps) adds each tap's
 * values into its input position. The same sums as ScatterNd, with the same argmax, so the same tie rule.
 */
export function tapsToArgmax(k: Kernels, x: Info, dy: Info, idx: Info, ksize: readonly number[], strides: readonly number[], padding: 'SAME' | 'VALID'): Info {
  const [N, H, W, C] = x.shape;
  const [Oh, Ow] = dy.shape.slice(1, 3);
  const [kh, kw] = ksize;
  const [sh, sw] = strides;
  const T = kh * kw;
  const [pt, pl] = [padBefore(H, kh, sh, Oh, padding === 'SAME'), padBefore(W, kw, sw, Ow, padding === 'SAME')];
  const M = N * Oh * Ow;
  const taps = new Int32Array(M * C * T);
  let at = 0;
  for (let n = 0; n < N; n++) {
    for (let oh = 0; oh < Oh; oh++) {
      for (let ow = 0; ow < Ow; ow++) {
        for (let c = 0; c < C; c++) {
          for (let a = 0; a < kh; a++) {
            const h = oh * sh - pt + a;
            for (let b = 0; b < kw; b++) {
              const w = ow * sw - pl + b;
              taps[at++] = h < 0 || h >= H || w < 0 || w >= W ? -1 : ((n * H + h) * W + w) * C + c;
            }
          }
        }
      }
    }
  }
  const filter = new Float32Array(T * C * T);
  for (let t = 0; t < T; t++) for (let c = 0; c < C; c++) filter[(t * C + c) * T + t] = 1;
  return withScratch(k, (s) => {
    const tapIdx = s.upload(taps, [M, C, T], 'int32');
    const f = s.upload(filter, [kh, kw, C, T], 'float32');
    const hit = s.run('Equal', { a: s.run('Reshape', { x: idx }, { shape: [M, C, 1] }), b: tapIdx });
    const spread = s.run('Tile', { x: s.run('Reshape', { x: dy }, { shape: [M, C, 1] }) }, { reps: [1, 1, T] });
    const kept = s.run('Select', { condition: hit, t: spread, e: s.run('Fill', {}, { shape: [M, C, T], value: 0, dtype: dy.dtype }) });
    const perTap = s.run('Reshape', { x: kept }, { shape: [N, Oh, Ow, C * T] });
    return s.run('DepthwiseConv2dNativeBackpropInput', { dy: perTap, filter: f }, { strides: [sh, sw], dilations: [1, 1], pad: padding.toLowerCase(), dimRoundingMode: undefined, inputShape: [N, H, W, C] });
  });
}

/**
 * MaxPoolWithArgmax's flat NHWC indices (batch included) of the rank-4 input `x`, with TF's argmax where tfjs's kernel
 * differs. TF's kernel starts each window at its first in-bounds element and moves on only to a larger value, so a
 * window whose first element is NaN keeps it, and a window of -inf keeps its first element; tfjs's compares with `>`
 * from -inf, skipping NaN, so it picks a later element then, or none (-1, which ScatterNd and GatherV2 refuse).
 * Returns `idx` itself when nothing differs (checked on the host backends); otherwise a new value, and the caller frees
 * both.
 */
export function argmaxOrFirst(k: Kernels, x: Info, idx: Info, ksize: readonly number[], strides: readonly number[], padding: 'SAME' | 'VALID'): Info {
  const [N, H, W, C] = x.shape;
  const [Oh, Ow] = idx.shape.slice(1, 3);
  const [pt, pl] = [padBefore(H, ksize[0], strides[0], Oh, padding === 'SAME'), padBefore(W, ksize[1], strides[1], Ow, padding === 'SAME')];
  // Each window's first in-bounds element, in MaxPoolWithArgmax's index order (TF's first candidate).
  const first = new Int32Array(N * Oh * Ow * C);
  let at = 0;
  for (let n = 0; n < N; n++) {
    for (let oh = 0; oh < Oh; oh++) {
      const h = Math.max(oh * strides[0] - pt, 0);
      for (let ow = 0; ow < Ow; ow++) {
        const w = Math.max(ow * strides[1] - pl, 0);
        for (let c = 0; c < C; c++) first[at++] = ((n * H + h) * W + w) * C + c;
      }
    }
  }
  if (isHostBackend()) {
    const v = readInfoSync(idx) as Int32Array;
    const xv = readInfoSync(x) as Float32Array;
    let out: Int32Array | null = null;
    for (let i = 0; i < v.length; i++) {
      if (v[i] >= 0 && !Number.isNaN(xv[first[i]])) continue;
      out ??= Int32Array.from(v);
      out[i] = first[i];
    }
    return out === null ? idx : k.upload(out, idx.shape.slice(), 'int32');
  }
  return withScratch(k, (s) => {
    const firsts = s.upload(first, idx.shape.slice(), 'int32');
    const none = s.run('Less', { a: idx, b: s.upload(Int32Array.of(0), [], 'int32') });
    const nanFirst = s.run('IsNan', { x: s.run('GatherV2', { x: s.run('Reshape', { x }, { shape: [-1] }), indices: firsts }, { axis: 0, batchDims: 0 }) });
    return s.run('Select', { condition: s.run('LogicalOr', { a: none, b: nanFirst }), t: firsts, e: idx });
  });
}
