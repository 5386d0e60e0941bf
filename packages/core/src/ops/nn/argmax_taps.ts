// MaxPoolGrad's scatter-to-argmax without ScatterNd, for webgl: tfjs-webgl's ScatterNd shader loops over every
// update for each output element (O(input x output): a 29x29x128 max pool's gradient took 80 s in SwiftShader).
import type { Info, Kernels } from '../../backend/backend';
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
