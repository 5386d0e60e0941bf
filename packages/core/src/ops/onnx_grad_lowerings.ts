// ONNX lowerings of the conv and pool gradient records (ONNX has no backprop ops): input backprops are
// ConvTranspose, filter backprops a Conv over transposed operands, MaxPoolGrad a ScatterElements(add) into
// MaxPool's Indices (a MaxUnpool when windows do not overlap), AvgPoolGrad a ConvTranspose with a ones kernel over dy divided by each window's count.
// All of them need static shapes (they write pads, output paddings and counts out).
import type { SpecNode } from './graphdef_spec';
import { codec, nhwc, one, padPairs, padsAttr, staticShape, toNchw, toNhwc, transpose, type ConvP, type Pads, type PoolP } from './onnx_lowerings';
import type { LowerScope, OnnxSpec } from './onnx_spec';

interface InputP extends ConvP { readonly inputShape: readonly (number | null)[]; readonly sizesFrom?: 'values' }
interface FilterP extends ConvP { readonly filterShape: readonly (number | null)[] }
interface PoolGradP extends PoolP { readonly inputShape: readonly (number | null)[] }

/** The static shape of value `i` (null when absent). */
const staticOf = (s: LowerScope, i: number | undefined): number[] | null => (i === undefined ? null : staticShape(s, i));

/** A shape param merged with an optional `like` input (its run-time shape source), static or null. */
function shapeOf(s: LowerScope, param: readonly (number | null)[], like: number | undefined): number[] | null {
  if (like !== undefined) return staticOf(s, like);
  return param.length > 0 && param.every((d) => d !== null && d >= 0) ? (param as number[]) : null;
}

/** Static sizes of a 2-D NHWC conv/pool: input [N,H,W,C], kernel [kh,kw], output [N,Ho,Wo,Co]; pads per spatial dim. */
interface Geometry {
  readonly input: number[];
  readonly out: number[];
  readonly k: number[];
  readonly pads: [number, number][];
}

function geometry(p: { strides: readonly number[]; padding: Pads }, dil: readonly number[], input: number[], k: number[], out: number[]): Geometry {
  const pairs = p.padding === 'VALID' ? [[0, 0], [0, 0]] : padPairs(p.padding, p.strides, dil, { input: [input[1], input[2]], kernel: k });
  const pads = [0, 1].map((i): [number, number] => [pairs[i][0], pairs[i][1]]);
  return { input, out, k, pads };
}

const padAttr = (g: Geometry): { ints: number[] } => padsAttr(g.pads);

/** ConvTranspose of NHWC `dy` with an OIHW-as-IOHW weight back to the conv's input size (output_padding makes up the rest). */
function convTranspose(s: LowerScope, dy: string, w: string, g: Geometry, strides: readonly number[], dil: readonly number[], group: number): string {
  const outPad = [0, 1].map((i) => g.input[1 + i] - ((g.out[1 + i] - 1) * strides[i] + (g.k[i] - 1) * dil[i] + 1 - g.pads[i][0] - g.pads[i][1]));
  const y = one(s.add('ConvTranspose', [toNchw(s, dy), w], { strides: { ints: strides }, dilations: { ints: dil }, pads: padAttr(g), output_padding: { ints: outPad }, group: { i: group } }));
  return toNhwc(s, y);
}

const allFloat = (s: LowerScope, n: SpecNode): boolean => n.inputs.slice(0, 2).every((i) => s.aval(i).dtype === 'float32');

/** conv2d/depthwise input backprop: [dy, filter, like?] -> dx, as ConvTranspose (group C for depthwise). */
const convInput = (depthwise: boolean): OnnxSpec =>
  codec<InputP>((s, n, [dy, f]) => {
    const p = n.params;
    const fs = staticOf(s, n.inputs[1]) as number[];
    const g = geometry(p, p.dilations, shapeOf(s, p.inputShape, n.inputs[2]) as number[], fs.slice(0, 2), staticOf(s, n.inputs[0]) as number[]);
    // Conv2D HWIO -> ConvTranspose's [in = Co, out = Ci, kh, kw]; depthwise [kh,kw,C,M] -> [C*M, 1, kh, kw], group C.
    const w = depthwise ? transpose(s, one(s.add('Reshape', [f, s.int64s([fs[0], fs[1], fs[2] * fs[3], 1])])), [2, 3, 0, 1]) : transpose(s, f, [3, 2, 0, 1]);
    return [convTranspose(s, dy, w, g, p.strides, p.dilations, depthwise ? fs[2] : 1)];
  }, (s, n) => allFloat(s, n) && nhwc(n.params) && n.params.sizesFrom !== 'values' && staticOf(s, n.inputs[0]) !== null && staticOf(s, n.inputs[1]) !== null && shapeOf(s, n.params.inputShape, n.inputs[2]) !== null);

/**
 * conv2d/depthwise filter backprop: [x, dy, like?] -> dfilter. dW[i,j,ci,co] = sum over n, ho, wo of
 * x_pad[n, ho*s + i*d, wo*s + j*d, ci] * dy[n, ho, wo, co]: a Conv of x as [Ci, N, H, W] with dy as the
 * kernel [Co, N, Ho, Wo], the forward stride as its dilation and the forward dilation as its stride,
 * sliced to the filter size. Depthwise: one batch, channels (c, n), group C.
 */
const convFilter = (depthwise: boolean): OnnxSpec =>
  codec<FilterP>((s, n, [x, dy]) => {
    const p = n.params;
    const xs = staticOf(s, n.inputs[0]) as number[];
    const fs = shapeOf(s, p.filterShape, n.inputs[2]) as number[];
    const g = geometry(p, p.dilations, xs, fs.slice(0, 2), staticOf(s, n.inputs[1]) as number[]);
    if (!depthwise && smallPatches(g, fs)) return [filterByPatches(s, x, dy, g, fs, p)];
    const xt = transpose(s, x, [3, 0, 1, 2]);
    const input = depthwise ? one(s.add('Reshape', [xt, s.int64s([1, xs[3] * xs[0], xs[1], xs[2]])])) : xt;
    const kernel = transpose(s, dy, [3, 0, 1, 2]);
    const conv = one(s.add('Conv', [input, kernel], { strides: { ints: p.dilations }, dilations: { ints: p.strides }, pads: padAttr(g), group: { i: depthwise ? xs[3] : 1 } }));
    const cut = one(s.add('Slice', [conv, s.int64s([0, 0]), s.int64s([fs[0], fs[1]]), s.int64s([2, 3])]));
    // [Ci, Co, kh, kw] (or [1, C*M, kh, kw]) -> [kh, kw, Ci, Co].
    const four = depthwise ? one(s.add('Reshape', [cut, s.int64s([fs[2], fs[3], fs[0], fs[1]])])) : cut;
    return [transpose(s, four, [2, 3, 0, 1])];
  }, (s, n) => allFloat(s, n) && nhwc(n.params) && staticOf(s, n.inputs[0]) !== null && staticOf(s, n.inputs[1]) !== null && shapeOf(s, n.params.filterShape, n.inputs[2]) !== null);

/** Patch tensors up to this many elements (4 MB), and per-example products up to this many, go by filterByPatches. */
const PATCH_LIMIT = 1 << 20;
const PRODUCT_LIMIT = 1 << 18;
const smallPatches = (g: Geometry, fs: readonly number[]): boolean => {
  const taps = fs[0] * fs[1];
  const [nb, ci, co] = [g.input[0], fs[2], fs[3]];
  return taps <= 25 && nb * taps * ci * g.out[1] * g.out[2] <= PATCH_LIMIT && nb * taps * ci * co <= PRODUCT_LIMIT;
};

/**
 * conv2d filter backprop for small patch tensors: the taps' strided slices of the padded x (exact copies), stacked
 * as [N, kh·kw·Ci, Ho·Wo], times dy as [N, Co, Ho·Wo] transposed, summed over N: dW[(i, j, ci), co]. On the conv
 * train step ([16,28,28,1] x, 3x3 SAME, 8 filters) the Conv over transposed operands took ~220 us in ONNX Runtime
 * (its im2col of a 28x28 kernel), these nodes ~120 us.
 */
function filterByPatches(s: LowerScope, x: string, dy: string, g: Geometry, fs: readonly number[], p: FilterP): string {
  const [nb, ci, co] = [g.input[0], fs[2], fs[3]];
  const [ho, wo] = [g.out[1], g.out[2]];
  const padded = g.pads.some((q) => q[0] !== 0 || q[1] !== 0);
  const xn = toNchw(s, x);
  const xp = padded ? one(s.add('Pad', [xn, s.int64s([0, 0, g.pads[0][0], g.pads[1][0], 0, 0, g.pads[0][1], g.pads[1][1]])], { mode: { s: 'constant' } })) : xn;
  const taps: string[] = [];
  for (let i = 0; i < fs[0]; i++) {
    for (let j = 0; j < fs[1]; j++) {
      const start = [i * p.dilations[0], j * p.dilations[1]];
      const end = [start[0] + (ho - 1) * p.strides[0] + 1, start[1] + (wo - 1) * p.strides[1] + 1];
      taps.push(one(s.add('Slice', [xp, s.int64s(start), s.int64s(end), s.int64s([2, 3]), s.int64s([...p.strides])])));
    }
  }
  const stacked = taps.length === 1 ? taps[0] : one(s.add('Concat', taps, { axis: { i: 1 } }));
  const patches = one(s.add('Reshape', [stacked, s.int64s([nb, taps.length * ci, ho * wo])]));
  const dyRows = transpose(s, one(s.add('Reshape', [toNchw(s, dy), s.int64s([nb, co, ho * wo])])), [0, 2, 1]);
  const perExample = one(s.add('MatMul', [patches, dyRows]));
  const summed = one(s.add('ReduceSum', [perExample, s.int64s([0])], { keepdims: { i: 0 } }));
  return one(s.add('Reshape', [summed, s.int64s([fs[0], fs[1], ci, co])]));
}

const poolAttrs = (p: PoolP, g: Geometry): Record<string, { ints: number[] }> => ({ kernel_shape: { ints: [...p.ksize] }, strides: { ints: [...p.strides] }, pads: padAttr(g) });

/** A 2-D NHWC max pool's geometry from the static shapes of its input and output. */
const poolGeometry = (p: PoolP, xs: number[], ys: number[]): Geometry => geometry(p, [1, 1], xs, [...p.ksize], ys);

/** MaxPool of NHWC `x` as NCHW: [y (NCHW), Indices]. */
const maxPoolNode = (s: LowerScope, p: PoolP, xs: number[], ys: number[], x: string): string[] => s.add('MaxPool', [toNchw(s, x)], poolAttrs(p, poolGeometry(p, xs, ys)), 2);

/**
 * max_pool_grad from MaxPool's Indices `idx` (flat NCHW): dy summed into each window's (first) argmax. Windows that
 * do not overlap (strides >= ksize: 2x2 stride 2, the common case) send each input pixel at most one dy, so
 * MaxUnpool (a plain scatter) writes them; it replaced ScatterElements(add) into a zero tensor, which took ~270 us
 * of the conv train step's [16,28,28,8] pool gradient (ORT profile), MaxUnpool ~30 us.
 */
function maxPoolGradFromIndices(s: LowerScope, p: PoolP, xs: number[], ys: number[], dy: string, idx: string): string {
  const g = poolGeometry(p, xs, ys);
  const nchw = s.int64s([xs[0], xs[3], xs[1], xs[2]]);
  if (p.strides[0] >= p.ksize[0] && p.strides[1] >= p.ksize[1]) {
    const unpooled = one(s.add('MaxUnpool', [toNchw(s, dy), idx, nchw], poolAttrs(p, g)));
    // Through a flat Reshape, as the scatter's result came: ORT's transpose optimizer then moves the NHWC
    // Transpose below into the ops after (a bias gradient's ReduceSum stays on NCHW: over NHWC [16,28,28,8] it
    // took ~550 us); straight after MaxUnpool it moved the relu gradient's operands to NHWC instead.
    const flatUnpooled = one(s.add('Reshape', [unpooled, s.int64s([-1])]));
    return toNhwc(s, one(s.add('Reshape', [flatUnpooled, nchw])));
  }
  const size = xs.reduce((a, b) => a * b, 1);
  const zeros = one(s.add('ConstantOfShape', [s.int64s([size])], { value: { t: { dtype: 'float32', shape: [1], data: Float32Array.of(0) } } }));
  const flat = (v: string): string => one(s.add('Reshape', [v, s.int64s([-1])]));
  const summed = one(s.add('ScatterElements', [zeros, flat(idx), flat(toNchw(s, dy))], { axis: { i: 0 }, reduction: { s: 'add' } }));
  return toNhwc(s, one(s.add('Reshape', [summed, nchw])));
}

/**
 * max_pool_grad [x, y, dy] -> dx: MaxPool's Indices of x (max pooling pads with -inf, so a padded tap is never the
 * argmax; indices leave the padding out), then maxPoolGradFromIndices. ONNX Runtime's MaxPool with Indices starts each
 * window at its first element and moves on a greater one only: TF's MaxPoolGrad routing, a leading NaN included. Its
 * values are not TF's MaxPool values, which skip NaN from the lowest float ([NaN, 1, 2] -> 2, where it reads NaN), so
 * the forward pool of the same segment stays a plain MaxPool of its own (once shared, at ~100 us less per conv train
 * step, it read NaN and -inf there).
 */
const maxPoolGrad: OnnxSpec = codec<PoolP>((s, n, [x, , dy]) => {
  const xs = staticOf(s, n.inputs[0]) as number[];
  const ys = staticOf(s, n.inputs[2]) as number[];
  const [, idx] = maxPoolNode(s, n.params, xs, ys, x);
  return [maxPoolGradFromIndices(s, n.params, xs, ys, dy, idx)];
}, (s, n) => n.inputs.every((i) => s.aval(i).dtype === 'float32') && nhwc(n.params) && staticOf(s, n.inputs[0]) !== null && staticOf(s, n.inputs[2]) !== null);

/** avg_pool_grad [dy, like?] -> dx: dy / (valid taps of its window), spread back by a ConvTranspose with a ones kernel (group C). */
const avgPoolGrad: OnnxSpec = codec<PoolGradP>((s, n, [dy]) => {
  const p = n.params;
  const xs = shapeOf(s, p.inputShape, n.inputs[1]) as number[];
  const ys = staticOf(s, n.inputs[0]) as number[];
  const g = geometry(p, [1, 1], xs, [...p.ksize], ys);
  // TF leaves the padding out of each window's count.
  const taps = [0, 1].map((i) => Array.from({ length: ys[1 + i] }, (_, o) => {
    const start = o * p.strides[i] - g.pads[i][0];
    return Math.min(start + p.ksize[i], xs[1 + i]) - Math.max(start, 0);
  }));
  const counts = Float32Array.from({ length: ys[1] * ys[2] }, (_, k) => taps[0][Math.floor(k / ys[2])] * taps[1][k % ys[2]]);
  const cst = one(s.add('Constant', [], { value: { t: { dtype: 'float32', shape: [1, ys[1], ys[2], 1], data: counts } } }));
  const scaled = one(s.add('Div', [dy, cst]));
  const c = xs[3];
  const ones = one(s.add('Constant', [], { value: { t: { dtype: 'float32', shape: [c, 1, p.ksize[0], p.ksize[1]], data: new Float32Array(c * p.ksize[0] * p.ksize[1]).fill(1) } } }));
  return [convTranspose(s, scaled, ones, g, p.strides, [1, 1], c)];
}, (s, n) => s.aval(n.inputs[0]).dtype === 'float32' && nhwc(n.params) && staticOf(s, n.inputs[0]) !== null && shapeOf(s, n.params.inputShape, n.inputs[1]) !== null);

/**
 * The gradient lowerings, set on the records' family objects (their vjps bind those objects).
 * @example
 * // not-run
 * withOnnx(C2.input, gradLower.convInput(false));
 */
export const gradLower = { convInput, convFilter, maxPoolGrad, avgPoolGrad };

