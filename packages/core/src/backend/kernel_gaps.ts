// The backend seam's gap filler: kernels a backend lacks (tfjs-backend-wasm 4.22 has no Conv2DBackpropFilter, FFT,
// complex64 kernels, ...) run on the cpu backend with an explicit data move, and each such run is counted.
// Part of the seam (like backend.ts it imports tfjs-core; eslint.config.mjs allows exactly these two files).
/* eslint-disable @typescript-eslint/no-explicit-any */
import * as tf from '@tensorflow/tfjs-core';

/**
 * The kernels EagerFlow's ops and gradients call that a backend does not register, per backend. Each is
 * registered on that backend by the seam: composed from the backend's own kernels where COMPOSED has a
 * rule that applies, otherwise as a host fallback (inputs read from the backend, the cpu kernel runs,
 * results uploaded back). docs/backends.md lists who calls them.
 */
export const KERNEL_GAPS: Readonly<Record<string, readonly string[]>> = {
  wasm: [
    'Complex', // ef.complex, the FFTs, the gradients of ef.math.real/imag
    'Conv2DBackpropFilter', // the filter gradient of conv2d (and conv1d, conv2dTranspose's input gradient path): composed
    'DepthwiseConv2dNativeBackpropFilter', // the filter gradient of depthwiseConv2d
    'DepthwiseConv2dNativeBackpropInput', // the input gradient of depthwiseConv2d
    'FFT',
    'IFFT',
    'Imag',
    'Real',
    'UnsortedSegmentSum', // ef.math.unsortedSegmentSum and the gradient of gather: composed
  ],
};

type Args = { inputs: Record<string, any>; attrs: any; backend: any };

const empty = (x: tf.TensorInfo): boolean => x.shape.includes(0);
const always = (): boolean => true;

/** Whether an index tuple (innermost axis of `indices`) falls outside `shape`: read from the backend (int32, small). */
function outOfRange(a: Args, indices: tf.TensorInfo, shape: readonly number[]): boolean {
  const k = indices.shape[indices.shape.length - 1] ?? 0;
  const v = a.backend.readSync(indices.dataId) as Int32Array;
  for (let i = 0; i < v.length; i++) if (v[i] < 0 || v[i] >= shape[i % k]) return true;
  return false;
}

/** Host values typed as `dtype` (some cpu kernels return int32 results in a Float32Array: convert, never reinterpret). */
function typed(vals: any, dtype: string): any {
  if (dtype === 'int32' && !(vals instanceof Int32Array)) return Int32Array.from(vals);
  if (dtype === 'bool' && !(vals instanceof Uint8Array)) return Uint8Array.from(vals);
  if (dtype === 'float32' && !(vals instanceof Float32Array)) return Float32Array.from(vals);
  return vals;
}

/** dtypes a backend's own kernels cannot hold or compute (wasm: strings live outside its heap; complex64 is interleaved pairs its float kernels misread). */
const FOREIGN_DTYPES: Readonly<Record<string, ReadonlySet<string>>> = { wasm: new Set(['string', 'complex64']) };

/**
 * Registered kernels that are wrong for some inputs on a backend (found by the wasm conformance rows):
 * with such inputs they run on cpu like the gaps above; otherwise the backend's own kernel runs.
 */
const HOST_FALLBACK_WHEN: Readonly<Record<string, Readonly<Record<string, { why: string; when: (a: Args) => boolean }>>>> = {
  wasm: {
    BatchMatMul: { why: 'tfjs-wasm multiplies float32 only', when: (a) => a.inputs.a.dtype !== 'float32' },
    Cast: { why: "tfjs-wasm's cast to bool writes the raw value, not 0/1", when: (a) => a.attrs.dtype === 'bool' },
    Conv3DBackpropFilterV2: { why: "tfjs-wasm's 3-D filter backprop is wrong with strides > 1 (stride 1 agreed in every run; it falls back always, like its input twin)", when: always },
    Conv3DBackpropInputV2: { why: "tfjs-wasm's 3-D input backprop is wrong with strides > 1, and with stride 1 depends on stale heap contents (a conv3d VALID gradient differed in some runs, in Node and in Chromium)", when: always },
    MaxPool3D: { why: 'tfjs-wasm starts the max from FLT_MIN (1.2e-38), not -inf: windows of negative values read 1.2e-38', when: always },
    MaxPool3DGrad: { why: 'tfjs-wasm finds the window max from FLT_MIN, not -inf: negative windows get no gradient', when: always },
    MaxPoolWithArgmax: { why: 'tfjs-wasm starts the max from FLT_MIN, not -inf (maxPool gradients use its argmax)', when: always },
    OneHot: { why: 'tfjs-wasm writes int32 values whatever the dtype', when: (a) => a.attrs.dtype !== 'int32' },
    StridedSlice: { why: 'tfjs-wasm slices int32 values as float32 bits', when: (a) => a.inputs.x.dtype !== 'float32' },
    // Found by the TensorFlow fixture suite on wasm (packages/eagerflow/test/conformance/conformance_wasm.test.ts):
    ...Object.fromEntries(['Maximum', 'Minimum', 'ClipByValue', 'Relu6'].map((k) => [k, { why: 'tfjs-wasm drops NaN (max/min do not propagate it as TensorFlow does)', when: always }])),
    ...Object.fromEntries(['Sin', 'Cos'].map((k) => [k, { why: 'tfjs-wasm loses accuracy for large arguments (sin(1e4) off by 0.3) and drops the sign of -0', when: always }])),
    ...Object.fromEntries(['Log1p', 'Elu', 'Selu'].map((k) => [k, { why: 'tfjs-wasm drops the sign of -0', when: always }])),
    Neg: { why: 'tfjs-wasm negates int32 in float32 (-2147483647 becomes -2147483648)', when: (a) => a.inputs.x.dtype === 'int32' },
    Pow: { why: 'tfjs-wasm raises int32 in float32 (no wrap-around)', when: (a) => a.inputs.a.dtype === 'int32' },
    GatherNd: { why: 'tfjs-wasm does not check indices (cpu raises for an out-of-range one, as TensorFlow does)', when: (a) => outOfRange(a, a.inputs.indices, a.inputs.params.shape) },
    ScatterNd: { why: 'tfjs-wasm does not check indices (cpu raises for an out-of-range one, as TensorFlow does)', when: (a) => outOfRange(a, a.inputs.indices, a.attrs.shape) },
  },
};

/** Runs `name` of the backend in `a` (its registered kernel: the seam's wrapper where it has one). */
function own(a: Args, name: string, inputs: Record<string, tf.TensorInfo>, attrs: Record<string, unknown>): tf.TensorInfo {
  return (tf.getKernel(name, 'wasm') as tf.KernelConfig).kernelFunc({ inputs, attrs: attrs as any, backend: a.backend }) as tf.TensorInfo;
}

/**
 * UnsortedSegmentSum as one ScatterNd (which sums rows with the same index, in order): ids [..m] become
 * indices [m, 1], data [..m, ...rest] updates [m, ...rest]. Null (host fallback) for ids outside
 * [0, numSegments) (TensorFlow drops negative ids, and wasm's ScatterNd would write out of bounds) and for
 * empty values (its output would stay uninitialized).
 */
function segmentSumByScatter(a: Args): tf.TensorInfo | null {
  const { x, segmentIds } = a.inputs;
  const n = a.attrs.numSegments as number;
  if ((x.dtype !== 'float32' && x.dtype !== 'int32') || empty(x) || empty(segmentIds)) return null;
  const ids = a.backend.readSync(segmentIds.dataId) as Int32Array;
  for (let i = 0; i < ids.length; i++) if (ids[i] < 0 || ids[i] >= n) return null;
  const rest = x.shape.slice(segmentIds.shape.length);
  const indices = own(a, 'Reshape', { x: segmentIds }, { shape: [ids.length, 1] });
  const updates = own(a, 'Reshape', { x }, { shape: [ids.length, ...rest] });
  const out = own(a, 'ScatterNd', { indices, updates }, { shape: [n, ...rest] });
  a.backend.disposeData(indices.dataId);
  a.backend.disposeData(updates.dataId);
  return out;
}

/**
 * Conv2DBackpropFilter as one Conv2D (XNNPACK): dW[i, j, c, o] = sum over n, y, x of
 * xpad[n, y*sh + i, x*sw + j, c] * dy[n, y, x, o], which is the convolution of x transposed to
 * [Ci, H, W, N] with dy transposed to [OH, OW, N, Co] as its filter, dilated by the forward strides,
 * padded with the forward top/left padding; the [Ci, KH, KW, Co] result transposes to [KH, KW, Ci, Co].
 */
function filterGradByConv(a: Args): tf.TensorInfo | null {
  const { x, dy } = a.inputs;
  const { strides, pad, dimRoundingMode, filterShape, dataFormat } = a.attrs;
  if ((dataFormat !== undefined && dataFormat !== 'NHWC') || empty(x) || empty(dy)) return null;
  const info = tf.backend_util.computeConv2DInfo(x.shape, filterShape, strides, 1, pad, dimRoundingMode);
  const [KH, KW] = filterShape as number[];
  const { strideHeight: sh, strideWidth: sw, outHeight: OH, outWidth: OW } = info;
  const [H, W] = [x.shape[1], x.shape[2]];
  const { top, left } = info.padInfo;
  // Bottom/right padding so the output is exactly KH x KW; when the forward pass left rows unused, it is cut after.
  const bottom = Math.max(0, KH + (OH - 1) * sh - H - top);
  const right = Math.max(0, KW + (OW - 1) * sw - W - left);
  const xt = own(a, 'Transpose', { x }, { perm: [3, 1, 2, 0] });
  const ft = own(a, 'Transpose', { x: dy }, { perm: [1, 2, 0, 3] });
  let g = own(a, 'Conv2D', { x: xt, filter: ft }, { strides: [1, 1], dilations: [sh, sw], pad: [[0, 0], [top, bottom], [left, right], [0, 0]], dataFormat: 'NHWC' });
  const temps = [xt, ft];
  if (g.shape[1] !== KH || g.shape[2] !== KW) {
    temps.push(g);
    g = own(a, 'Slice', { x: g }, { begin: [0, 0, 0, 0], size: [g.shape[0], KH, KW, g.shape[3]] });
  }
  const out = own(a, 'Transpose', { x: g }, { perm: [1, 2, 0, 3] });
  for (const t of [...temps, g]) a.backend.disposeData(t.dataId);
  return out;
}

/** Gap kernels composed from the backend's own kernels (a rule returns null where it does not apply). */
const COMPOSED: Readonly<Record<string, Readonly<Record<string, (a: Args) => tf.TensorInfo | null>>>> = {
  wasm: { UnsortedSegmentSum: segmentSumByScatter, Conv2DBackpropFilter: filterGradByConv },
};

const counts = new Map<string, number>();
const filled = new Set<string>();

/** How many times each kernel ran on the host instead of `backend` since the last reset (kernel name -> runs). */
export function hostFallbackCounts(): Record<string, number> {
  return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

export function resetHostFallbackCounts(): void {
  counts.clear();
}

/** The real and imaginary parts of interleaved (real, imag) complex64 host values. */
export function splitComplex(values: Float32Array): [Float32Array, Float32Array] {
  const n = values.length >> 1;
  const re = new Float32Array(n);
  const im = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    re[i] = values[2 * i];
    im[i] = values[2 * i + 1];
  }
  return [re, im];
}

interface CpuSide {
  cpu: any;
  temps: object[];
}

/** A copy of `x` (a value of `from`) on the cpu backend; complex64 is rebuilt from its parts, as cpu stores it. */
function toCpu(x: any, from: any, side: CpuSide): any {
  const vals = from.readSync(x.dataId);
  const { cpu, temps } = side;
  if (x.dtype !== 'complex64') {
    const dataId = cpu.write(vals, x.shape, x.dtype);
    temps.push(dataId);
    return { dataId, shape: x.shape, dtype: x.dtype };
  }
  const [re, im] = splitComplex(vals);
  const real = { dataId: cpu.write(re, x.shape, 'float32'), shape: x.shape, dtype: 'float32' };
  const imag = { dataId: cpu.write(im, x.shape, 'float32'), shape: x.shape, dtype: 'float32' };
  const z = (tf.getKernel('Complex', 'cpu') as tf.KernelConfig).kernelFunc({ inputs: { real, imag } as any, attrs: {}, backend: cpu }) as tf.TensorInfo;
  temps.push(real.dataId, imag.dataId, z.dataId);
  return z;
}

/** Uploads a cpu result to `to` (complex64 as interleaved pairs, what cpu's readSync returns) and frees it on cpu. */
function fromCpu(r: any, cpu: any, to: any): tf.TensorInfo {
  const vals = r instanceof tf.Tensor ? r.dataSync() : cpu.readSync(r.dataId);
  const out = { dataId: to.write(typed(vals, r.dtype), r.shape, r.dtype), shape: r.shape, dtype: r.dtype };
  if (r instanceof tf.Tensor) r.dispose();
  else cpu.disposeData(r.dataId, true);
  return out;
}

/** Runs cpu's `name` on `backend`'s values: read, run on cpu, upload the results back; counted. */
function runOnHost(name: string, args: Args): tf.TensorInfo | tf.TensorInfo[] {
  const cpu = tf.engine().findBackend('cpu');
  const side: CpuSide = { cpu, temps: [] };
  try {
    // Concat, AddN, Pack and friends take an array of inputs; the rest a record.
    const inputs: any = Array.isArray(args.inputs) ? args.inputs.map((x: any) => toCpu(x, args.backend, side)) : {};
    if (!Array.isArray(args.inputs)) for (const [k, x] of Object.entries(args.inputs)) if (x != null) inputs[k] = toCpu(x, args.backend, side);
    const r = (tf.getKernel(name, 'cpu') as tf.KernelConfig).kernelFunc({ inputs, attrs: args.attrs, backend: cpu }) as any;
    counts.set(name, (counts.get(name) ?? 0) + 1);
    return Array.isArray(r) ? r.map((x) => fromCpu(x, cpu, args.backend)) : fromCpu(r, cpu, args.backend);
  } finally {
    for (const id of side.temps) cpu.disposeData(id, true);
  }
}

/**
 * Fills the gaps of `backendName` (once; a no-op for backends without gaps, or while the backend's own
 * kernels are not registered yet): registers each missing kernel (composed, else the host fallback) and
 * wraps each own kernel so the inputs it gets wrong take the host fallback. True when it did.
 */
export function fillKernelGaps(backendName: string): boolean {
  const gaps = KERNEL_GAPS[backendName];
  if (gaps === undefined || filled.has(backendName) || tf.getKernelsForBackend(backendName).length === 0 || tf.getKernel('Add', 'cpu') === undefined) return false;
  filled.add(backendName);
  for (const name of gaps) {
    if (tf.getKernel(name, backendName) !== undefined) continue;
    const compose = COMPOSED[backendName]?.[name];
    tf.registerKernel({ kernelName: name, backendName, kernelFunc: (args) => (compose?.(args as Args) ?? runOnHost(name, args as Args)) as any });
  }
  const foreign = FOREIGN_DTYPES[backendName] ?? new Set<string>();
  const rules = HOST_FALLBACK_WHEN[backendName] ?? {};
  // Every own kernel: values of a foreign dtype (in or out) run on cpu; so do empty inputs (tfjs-wasm leaves
  // what it computes from them uninitialized: a reduction over an empty axis, a matmul with an empty inner
  // dim read stale heap bytes; the move is of empty data), and the inputs a rule names.
  for (const mine of tf.getKernelsForBackend(backendName)) {
    const rule = rules[mine.kernelName];
    if (gaps.includes(mine.kernelName)) continue;
    const name = mine.kernelName;
    const host = (a: Args): boolean =>
      foreign.has(a.attrs?.dtype) || Object.values(a.inputs).some((x) => x != null && (foreign.has(x.dtype) || empty(x))) || (rule !== undefined && rule.when(a));
    tf.unregisterKernel(name, backendName);
    tf.registerKernel({ ...mine, kernelFunc: (args) => (host(args as Args) ? runOnHost(name, args as Args) : mine.kernelFunc(args)) as any });
  }
  return true;
}

const patched = new WeakSet<object>();

/**
 * tfjs-wasm stores a complex64 value as interleaved (re, im) float32 pairs in its heap but its readSync
 * cannot read that dtype ("Unknown dtype complex64"): the backend instance reads them as the pairs
 * (what cpu's readSync returns for complex64), so dataSync and the host fallbacks work.
 */
export function patchBackendInstance(backendName: string, instance: any): void {
  if (backendName !== 'wasm' || instance == null || patched.has(instance)) return;
  patched.add(instance);
  const own = instance.readSync.bind(instance);
  instance.readSync = (dataId: object, start?: number, end?: number) => {
    const d = instance.dataIdMap.get(dataId);
    if (d?.dtype !== 'complex64') return own(dataId, start, end);
    const n = 2 * tf.util.sizeFromShape(d.shape);
    return new Float32Array(instance.wasm.HEAPU8.slice(d.memoryOffset, d.memoryOffset + 4 * n).buffer);
  };
}
