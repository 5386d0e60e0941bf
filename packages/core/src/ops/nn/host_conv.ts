// The cpu backend's fused conv (conv + BiasAdd + activation) in one host pass per output: the same float32 sums in the
// same order as tfjs's cpu Conv2D / DepthwiseConv2dNative kernels (so the values are bit-identical), kept in registers
// per block of output channels instead of re-read from memory per term, and the bias and activation applied in place
// (tfjs's cpu FusedConv2D adds a [C] bias through its slow broadcasting loop).
import { Info, Kernels, activeBackendName, readInfoSync } from '../../backend/backend';
import { samePads, windowOutSize } from './padding';

const fr = Math.fround;

export interface HostConvSpec {
  readonly strides: readonly number[];
  readonly dilations: readonly number[];
  readonly padding: 'SAME' | 'VALID';
  readonly depthwise: boolean;
  /** tfjs's activation name ('linear', 'relu', ...). */
  readonly activation: string;
  readonly leakyreluAlpha: number;
}

interface Geometry {
  B: number;
  H: number;
  W: number;
  C1: number;
  KH: number;
  KW: number;
  C2: number;
  OH: number;
  OW: number;
  sh: number;
  sw: number;
  dh: number;
  dw: number;
  pt: number;
  pl: number;
}

/** Output size and padding as tfjs's computeConv2DInfo gives them for 'same' / 'valid' (TF's rules). */
function geometry(x: readonly number[], f: readonly number[], s: HostConvSpec): Geometry {
  const [B, H, W, C1] = x;
  const [KH, KW] = f;
  const C2 = s.depthwise ? C1 * f[3] : f[3];
  const [sh, sw] = s.strides;
  const [dh, dw] = s.dilations;
  const [OH, OW] = [windowOutSize(H, KH, sh, dh, s.padding), windowOutSize(W, KW, sw, dw, s.padding)];
  const same = s.padding === 'SAME';
  return { B, H, W, C1, KH, KW, C2, OH, OW, sh, sw, dh, dw, pt: same ? samePads(H, KH, sh, dh)[0] : 0, pl: same ? samePads(W, KW, sw, dw)[0] : 0 };
}

/** The filter taps [from, to) of one output row/col that land inside the input. */
const taps = (start: number, d: number, n: number, k: number): [number, number] => [Math.max(0, Math.ceil(-start / d)), Math.min(k, Math.ceil((n - start) / d))];

/** Conv2D: y[b, r, c, o] = sum over (kr, kc, i) in that order of x · w, each step rounded to float32 as tfjs's kernel stores it. */
function conv2d(x: Float32Array, w: Float32Array, g: Geometry): Float32Array {
  const { B, H, W, C1, KW, C2, OH, OW, sh, sw, dh, dw, pt, pl } = g;
  const y = new Float32Array(B * OH * OW * C2);
  const [xRow, wRow, wCol] = [W * C1, KW * C1 * C2, C1 * C2];
  const C4 = C2 - (C2 % 4);
  for (let b = 0; b < B; b++) {
    const [xb, yb] = [b * H * xRow, b * OH * OW * C2];
    for (let yR = 0; yR < OH; yR++) {
      const xr0 = yR * sh - pt;
      const [r0, r1] = taps(xr0, dh, H, g.KH);
      for (let yC = 0; yC < OW; yC++) {
        const yo = yb + (yR * OW + yC) * C2;
        const xc0 = yC * sw - pl;
        const [c0, c1] = taps(xc0, dw, W, KW);
        for (let d2 = 0; d2 < C4; d2 += 4) {
          let [a0, a1, a2, a3] = [0, 0, 0, 0];
          for (let wR = r0; wR < r1; wR++) {
            const xo2 = xb + (xr0 + wR * dh) * xRow;
            const wo1 = wR * wRow + d2;
            for (let wC = c0; wC < c1; wC++) {
              const xo = xo2 + (xc0 + wC * dw) * C1;
              let wo = wo1 + wC * wCol;
              for (let d1 = 0; d1 < C1; d1++) {
                const xv = x[xo + d1];
                a0 = fr(a0 + xv * w[wo]);
                a1 = fr(a1 + xv * w[wo + 1]);
                a2 = fr(a2 + xv * w[wo + 2]);
                a3 = fr(a3 + xv * w[wo + 3]);
                wo += C2;
              }
            }
          }
          y[yo + d2] = a0;
          y[yo + d2 + 1] = a1;
          y[yo + d2 + 2] = a2;
          y[yo + d2 + 3] = a3;
        }
        for (let d2 = C4; d2 < C2; d2++) {
          let a = 0;
          for (let wR = r0; wR < r1; wR++) {
            const xo2 = xb + (xr0 + wR * dh) * xRow;
            for (let wC = c0; wC < c1; wC++) {
              const xo = xo2 + (xc0 + wC * dw) * C1;
              let wo = wR * wRow + wC * wCol + d2;
              for (let d1 = 0; d1 < C1; d1++) {
                a = fr(a + x[xo + d1] * w[wo]);
                wo += C2;
              }
            }
          }
          y[yo + d2] = a;
        }
      }
    }
  }
  return y;
}

/** DepthwiseConv2dNative: y[b, r, c, i·m + q] = sum over (kr, kc) in that order of x[.., i] · w[kr, kc, i, q]. */
function depthwise(x: Float32Array, w: Float32Array, g: Geometry): Float32Array {
  const { B, H, W, C1, KW, C2, OH, OW, sh, sw, dh, dw, pt, pl } = g;
  const m = C2 / C1;
  const y = new Float32Array(B * OH * OW * C2);
  const xRow = W * C1;
  for (let b = 0; b < B; b++) {
    const [xb, yb] = [b * H * xRow, b * OH * OW * C2];
    for (let yR = 0; yR < OH; yR++) {
      const xr0 = yR * sh - pt;
      const [r0, r1] = taps(xr0, dh, H, g.KH);
      for (let yC = 0; yC < OW; yC++) {
        const yo = yb + (yR * OW + yC) * C2;
        const xc0 = yC * sw - pl;
        const [c0, c1] = taps(xc0, dw, W, KW);
        // Multiplier 1 (the common case): four channels per pass, contiguous in x and w.
        const C4 = m === 1 ? C2 - (C2 % 4) : 0;
        for (let o = 0; o < C4; o += 4) {
          let [a0, a1, a2, a3] = [0, 0, 0, 0];
          for (let wR = r0; wR < r1; wR++) {
            const xo2 = xb + (xr0 + wR * dh) * xRow + o;
            for (let wC = c0; wC < c1; wC++) {
              const xo = xo2 + (xc0 + wC * dw) * C1;
              const wo = (wR * KW + wC) * C2 + o;
              a0 = fr(a0 + x[xo] * w[wo]);
              a1 = fr(a1 + x[xo + 1] * w[wo + 1]);
              a2 = fr(a2 + x[xo + 2] * w[wo + 2]);
              a3 = fr(a3 + x[xo + 3] * w[wo + 3]);
            }
          }
          y[yo + o] = a0;
          y[yo + o + 1] = a1;
          y[yo + o + 2] = a2;
          y[yo + o + 3] = a3;
        }
        for (let o = C4; o < C2; o++) {
          const i = m === 1 ? o : Math.floor(o / m);
          let a = 0;
          for (let wR = r0; wR < r1; wR++) {
            const xo2 = xb + (xr0 + wR * dh) * xRow + i;
            for (let wC = c0; wC < c1; wC++) a = fr(a + x[xo2 + (xc0 + wC * dw) * C1] * w[(wR * KW + wC) * C2 + o]);
          }
          y[yo + o] = a;
        }
      }
    }
  }
  return y;
}

/** Bias (one per channel) and the activation in place, each as tfjs's cpu kernels compute them. */
function epilogue(y: Float32Array, C: number, bias: Float32Array | null, act: string, alpha: Float32Array | null, leaky: number): void {
  const n = y.length;
  if (bias === null && act === 'linear') return;
  const na = alpha === null ? 0 : alpha.length;
  const b = bias ?? new Float32Array(C);
  // One loop per activation (the values are tfjs's kernels' formulas on the float32 sum).
  const loop = (f: (v: number, i: number) => number): void => {
    for (let i = 0; i < n; i++) y[i] = f(fr(y[i] + b[i % C]), i);
  };
  if (act === 'relu') loop((v) => Math.max(0, v));
  else if (act === 'relu6') loop((v) => Math.min(Math.max(0, v), 6));
  else if (act === 'elu') loop((v) => (v >= 0 ? v : Math.exp(v) - 1));
  else if (act === 'sigmoid') loop((v) => 1 / (1 + Math.exp(-v)));
  else if (act === 'leakyrelu') loop((v) => (v < 0 ? leaky * v : v));
  else if (act === 'prelu') loop((v, i) => (v < 0 ? (alpha as Float32Array)[i % na] * v : v));
  else loop((v) => v);
}

/**
 * Whether the host kernels here beat the backend's own: only on tfjs-cpu (wasm, also a host backend, has XNNPACK's
 * conv and its own Prelu, many times faster than a JS loop).
 */
export function hostKernelsPay(): boolean {
  return activeBackendName() === 'cpu';
}

/**
 * act(conv(x, filter) + bias) on the host (bias optional), or null where tfjs's kernel should run (other backends, dtypes,
 * a bias that is not one value per channel, a PReLU alpha that is not per channel or per position).
 */
export function hostFusedConv(k: Kernels, x: Info, filter: Info, bias: Info | undefined, alpha: Info | undefined, s: HostConvSpec): Info | null {
  if (!hostKernelsPay() || [x, filter, bias, alpha].some((t) => t !== undefined && t.dtype !== 'float32') || x.shape.length !== 4 || filter.shape.length !== 4) return null;
  // tfjs's kernels take strided or dilated convs, not both (TF's depthwise rejects both too).
  if (s.strides.some((v) => v !== 1) && s.dilations.some((v) => v !== 1)) return null;
  const g = geometry(x.shape, filter.shape, s);
  const per = g.OH * g.OW * g.C2;
  const biasSize = bias === undefined ? g.C2 : bias.shape.reduce((a, b) => a * b, 1);
  const a = alpha?.shape ?? [];
  const alphaSize = a.reduce((p, d) => p * d, 1);
  // PReLU's alpha broadcasts per channel ([.., C]) or per output position ([OH, OW, C]).
  const alphaOk = alpha === undefined || (a[a.length - 1] === g.C2 && (alphaSize === g.C2 || (alphaSize === per && a[a.length - 2] === g.OW && a[a.length - 3] === g.OH)));
  if ((bias !== undefined && bias.shape.length !== 1) || biasSize !== g.C2 || !alphaOk || !(g.OH > 0 && g.OW > 0) || filter.shape[2] !== g.C1) return null;
  const read = (t: Info): Float32Array => readInfoSync(t) as Float32Array;
  const xv = read(x);
  const y = s.depthwise ? depthwise(xv, read(filter), g) : conv2d(xv, read(filter), g);
  epilogue(y, g.C2, bias === undefined ? null : read(bias), s.activation, alpha === undefined ? null : read(alpha), s.leakyreluAlpha);
  return k.upload(y, [g.B, g.OH, g.OW, g.C2], 'float32');
}
