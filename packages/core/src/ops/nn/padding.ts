// TF's SAME / VALID / explicit padding arithmetic of conv and pool windows, written once: the output size along a
// spatial dim and SAME's [before, after] pads (the extra pixel goes after). The kernels, the pool gradients, the
// host conv and the ONNX lowerings all read these. (image.extractPatches builds the same numbers as Dim arithmetic,
// symbolic_dims.ts, so they fold to numbers for static sizes and become int32 tensor ops for run-time ones.)

/** A window op's padding: TF's 'SAME' or 'VALID', or explicit [before, after] pairs per spatial dim. */
export type Padding = 'SAME' | 'VALID' | readonly (readonly [number, number])[];

/** The extent of a kernel of `k` taps dilated by `d`. */
const dilatedExtent = (k: number, d: number): number => (k - 1) * d + 1;

/** The output size along one spatial dim of `inp` for a window of `k` taps, stride `s`, dilation `d`. */
export function windowOutSize(inp: number, k: number, s: number, d: number, pad: 'SAME' | 'VALID' | readonly [number, number]): number {
  const eff = dilatedExtent(k, d);
  if (pad === 'SAME') return Math.ceil(inp / s);
  if (pad === 'VALID') return Math.max(0, Math.ceil((inp - eff + 1) / s));
  return Math.max(0, Math.floor((inp + pad[0] + pad[1] - eff) / s) + 1);
}

/** SAME's [before, after] pads along one dim (`out` defaults to SAME's output size). */
export function samePads(inp: number, k: number, s: number, d = 1, out = Math.ceil(inp / s)): [number, number] {
  const total = Math.max((out - 1) * s + dilatedExtent(k, d) - inp, 0);
  return [Math.floor(total / 2), total - Math.floor(total / 2)];
}
