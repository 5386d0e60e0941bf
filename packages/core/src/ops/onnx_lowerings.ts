// Shared ONNX lowerings that records name beside themselves (`onnx: lower.reduce('ReduceSum')`), like reduceTf for GraphDef.
import { FLOAT32_MAX, type DType } from '../values/dtype';
import type { SpecNode } from './graphdef_spec';
import { samePads } from './nn/padding';
import type { Padding } from './nn/padding';
import type { LowerScope, OnnxCodec, OnnxSpec } from './onnx_spec';
import { MAX_ELEMENTS } from './check';

/** ONNX `TensorProto.DataType` codes (onnx.proto: FLOAT = 1, INT32 = 6, INT64 = 7, BOOL = 9). */
export const ONNX_TYPE: Readonly<Record<string, number>> = { float32: 1, int32: 6, bool: 9 };

const FI: readonly DType[] = ['float32', 'int32'];
const FIB: readonly DType[] = ['float32', 'int32', 'bool'];
const I64_MAX = 9007199254740991;

const rankOf = (s: LowerScope, i: number): number | null => s.aval(i).shape?.length ?? null;
/** The static shape of value `i`, or null. */
export const staticShape = (s: LowerScope, i: number): number[] | null => {
  const d = s.aval(i).shape;
  return d !== null && d.every((x) => x !== null) ? (d as number[]) : null;
};
const firstIn = (dtypes: readonly DType[]) => (s: LowerScope, n: SpecNode): boolean => dtypes.includes(s.aval(n.inputs[0]).dtype);
export const one = (x: string[]): string => x[0];
/** An int32 size operand (a record's tensor form) as the int64 tensor ONNX's Reshape / Tile take. */
export const int64Operand = (s: LowerScope, t: string): string => one(s.add('Cast', [t], { to: { i: 7 } }));
/** float32 operands, or int32 ones divided by a captured constant without zeros. */
const floatOrIntByConst = (s: LowerScope, n: SpecNode): boolean => {
  const t = s.aval(n.inputs[0]).dtype;
  if (t === 'float32') return true;
  const c = t === 'int32' ? (s.constant?.(n.inputs[1]) ?? null) : null;
  return c !== null && c.every((v) => v !== 0);
};

/**
 * Indices for ONNX's Gather / GatherND, which count a negative index from the end where TensorFlow refuses it
 * (InvalidArgumentError naming the index; ONNX's range is [-n, n - 1]): a negative index becomes one no axis has, so
 * ONNX Runtime fails the run instead of reading another element, and the compiled segment replays its nodes uncompiled
 * for the error the function gives uncompiled (onnx/segment.ts). `t` is `name`'s element type (int32, or int64 after a
 * Cast); constant indices without negatives (value `id`, when the node's operand is one) pass as they are.
 */
export function nonNegativeIndices(s: LowerScope, name: string, t: 'int32' | 'int64', id?: number): string {
  const c = id === undefined ? null : (s.constant?.(id) ?? null);
  if (c !== null && c.every((v) => v >= 0)) return name;
  const zero = t === 'int32' ? s.scalar(0, 'int32') : s.int64s([0], []);
  const beyond = t === 'int32' ? s.scalar(2147483647, 'int32') : s.int64s([I64_MAX], []);
  return one(s.add('Where', [...s.add('Less', [name, zero]), beyond, name]));
}

/**
 * `carrier` (an int64 tensor the guarded node reads) plus 0 while no element of `bad` (bool, any shape) is true; else
 * the run fails there (a Gather at an index no vector has). ONNX has no assertion: this is how a lowering refuses the
 * run-time values TensorFlow refuses where the ONNX op would quietly clamp, wrap or broadcast them. The compiled
 * segment then replays its nodes uncompiled, for the error the function gives uncompiled (onnx/segment.ts).
 */
function refuseIf(s: LowerScope, bad: string, carrier: string): string {
  const anyBad = one(s.add('ReduceMax', [one(s.add('Cast', [bad], { to: { i: 7 } }))], { keepdims: { i: 0 } }));
  const gate = one(s.add('Gather', [s.int64s([0]), one(s.add('Mul', [anyBad, s.int64s([I64_MAX], [])]))], { axis: { i: 0 } }));
  return one(s.add('Add', [carrier, gate]));
}

/**
 * `carrier` as it is while `dims` (int64 [r], a result shape the input values give: a run-time padding, tiling or
 * broadcast target) holds at most MAX_ELEMENTS elements; else the run fails (refuseIf) before ONNX Runtime allocates
 * it, and the uncompiled replay gives the record's ResourceExhaustedError (a sequence mask of lengths [3, 2147483647]
 * padded a [2, 3] mask to [2, 2147483647]: ONNX Runtime spent minutes allocating and filling it).
 */
function sizeGuard(s: LowerScope, dims: string, carrier: string): string {
  const count = one(s.add('ReduceProd', [one(s.add('Cast', [dims], { to: { i: ONNX_TYPE.float32 } }))], { keepdims: { i: 0 } }));
  return refuseIf(s, one(s.add('Greater', [count, s.scalar(MAX_ELEMENTS, 'float32')])), carrier);
}

/** Run-time tile multiples `m64` (int64) as they are while x's dims times them stay within the size limit (sizeGuard). */
export function tiledWithin(s: LowerScope, x: string, m64: string): string {
  return sizeGuard(s, one(s.add('Mul', [one(s.add('Shape', [x])), m64])), m64);
}

/**
 * ONNX's Slice clamps starts and ends into the axis (and counts negative ones from the end) where TensorFlow refuses
 * them: `begin` (int64 [r]) as it is when `0 <= begin <= dim` and, unless size is -1, `0 <= size` and
 * `begin + size <= dim` on every axis of `x`; otherwise the run fails (refuseIf). Returns it with `begin + size`.
 */
function checkedBegin(s: LowerScope, x: string, b64: string, z64: string, toEnd: string): { begin: string; end: string } {
  const dims = one(s.add('Shape', [x]));
  const zero = s.int64s([0], []);
  const or = (a: string, b: string): string => one(s.add('Or', [a, b]));
  const end = one(s.add('Add', [b64, z64]));
  const sized = or(one(s.add('Less', [z64, zero])), one(s.add('Greater', [end, dims])));
  return { begin: refuseIf(s, or(or(one(s.add('Less', [b64, zero])), one(s.add('Greater', [b64, dims]))), one(s.add('And', [one(s.add('Not', [toEnd])), sized]))), b64), end };
}

/**
 * broadcastTo's run-time target shape (int64 [R]) for ONNX's Expand, which broadcasts both ways ([3] to [1] gives [3])
 * where TensorFlow refuses a target the input does not broadcast to: as it is when R >= rank(x) and each of x's dims
 * equals the target's (right-aligned) or is 1; otherwise the run fails (refuseIf).
 */
export function checkedTarget(s: LowerScope, x: string, rank: number, s64: string): string {
  if (rank === 0) return s64;
  const short = one(s.add('Less', [one(s.add('Size', [s64])), s.int64s([rank], [])]));
  const tail = one(s.add('Slice', [s64, s.int64s([-rank]), s.int64s([I64_MAX])]));
  const dims = one(s.add('Shape', [x]));
  const fits = one(s.add('Or', [one(s.add('Equal', [dims, tail])), one(s.add('Equal', [dims, s.int64s([1], [])]))]));
  return sizeGuard(s, s64, refuseIf(s, one(s.add('Or', [short, one(s.add('Not', [fits]))])), s64));
}

/**
 * float32 `x` with NaN as `value`, for ONNX Runtime's MaxPool and ArgMax / ArgMin, which pick by position around a NaN
 * (its vector max takes the later operand when one is NaN: a pool window [inf, NaN, 2.25] gave 2.25). TF's kernels
 * skip NaN: as -inf for a max, inf for a min.
 */
function nanAs(s: LowerScope, x: string, value: number): string {
  return one(s.add('Where', [...s.add('IsNaN', [x]), s.scalar(value, 'float32'), x]));
}

export function codec<P>(lowerFn: (s: LowerScope, n: SpecNode<P>, ins: readonly string[]) => string[], accepts: (s: LowerScope, n: SpecNode<P>) => boolean): OnnxSpec {
  return { lower: lowerFn, accepts } as OnnxCodec<P> as unknown as OnnxSpec;
}

interface ReduceP { readonly axes: readonly number[] | null; readonly keepDims: boolean }
interface AxisP { readonly axis: number }
interface PermP { readonly perm: readonly number[] | null }
interface MatMulP { readonly transposeA: boolean; readonly transposeB: boolean }
interface SliceP { readonly begin: readonly number[]; readonly size: readonly number[] }
/** TF's conv padding: SAME, VALID or explicit [before, after] pairs (four: NHWC's, or one per spatial dim). */
export type Pads = Padding;
export interface ConvP { readonly strides: readonly number[]; readonly padding: Pads; readonly dataFormat: string; readonly dilations: readonly number[] }
export interface PoolP { readonly ksize: readonly number[]; readonly strides: readonly number[]; readonly padding: 'SAME' | 'VALID'; readonly dataFormat: string }

/** A Transpose of `x` by `perm`. */
export const transpose = (s: LowerScope, x: string, perm: readonly number[]): string => one(s.add('Transpose', [x], { perm: { ints: perm } }));
/** TF's NHWC <-> ONNX's NCHW (2-D spatial). */
export const toNchw = (s: LowerScope, x: string): string => transpose(s, x, [0, 3, 1, 2]);
export const toNhwc = (s: LowerScope, x: string): string => transpose(s, x, [0, 2, 3, 1]);

/** Static spatial sizes for TF's SAME pads: the input's (no batch, no channels) and the kernel's. */
interface PadSizes { readonly input: readonly number[]; readonly kernel: readonly number[] }

/**
 * TF's [before, after] pads per spatial dim, for SAME (from the static sizes; the extra pixel goes after) or
 * explicit pairs (as given; of four, NHWC's, the middle two).
 */
export function padPairs(padding: Exclude<Pads, 'VALID'>, strides: readonly number[], dilations: readonly number[], sizes?: PadSizes): [number, number][] {
  if (padding === 'SAME') {
    const { input, kernel } = sizes as PadSizes;
    return input.map((n, i) => samePads(n, kernel[i], strides[i], dilations[i]));
  }
  const pairs = padding.length === 4 ? padding.slice(1, 3) : padding;
  return pairs.map((q) => [q[0], q[1]]);
}

/** ONNX's `pads` attr of [before, after] pairs: all befores, then all afters. */
export const padsAttr = (pairs: readonly (readonly [number, number])[]): { ints: number[] } => ({ ints: [...pairs.map((q) => q[0]), ...pairs.map((q) => q[1])] });

/** TF's padding as ONNX attrs: SAME puts the extra pixel at the end (SAME_UPPER), explicit pairs become pads. */
function padAttrs(p: ConvP | PoolP, sizes?: PadSizes): Record<string, { s: string } | { ints: number[] }> {
  const dil = (p as ConvP).dilations ?? [];
  // ONNX Runtime refuses auto_pad SAME with dilations: TF's SAME pads written out (needs static sizes).
  if (p.padding === 'SAME' && dil.some((d) => d !== 1)) return { pads: padsAttr(padPairs(p.padding, p.strides, dil, sizes)) };
  if (p.padding === 'SAME') return { auto_pad: { s: 'SAME_UPPER' } };
  if (p.padding === 'VALID') return { auto_pad: { s: 'VALID' } };
  return { pads: padsAttr(padPairs(p.padding, p.strides, dil)) };
}

/** Channels-last data format (TF's default when unset). */
export const nhwc = (p: { dataFormat: string }): boolean => p.dataFormat === 'NHWC' || p.dataFormat === undefined;
const nhwc2d = (s: LowerScope, n: SpecNode<{ dataFormat: string }>): boolean => s.aval(n.inputs[0]).dtype === 'float32' && rankOf(s, n.inputs[0]) === 4 && nhwc(n.params);
/** Convs: NHWC, and static spatial sizes when SAME padding is dilated. */
const convAccepts = (s: LowerScope, n: SpecNode<ConvP>): boolean =>
  nhwc2d(s, n) && staticShape(s, n.inputs[1]) !== null && (n.params.padding !== 'SAME' || n.params.dilations.every((d) => d === 1) || staticShape(s, n.inputs[0]) !== null);
const convSizes = (s: LowerScope, n: SpecNode<ConvP>): { input: number[]; kernel: number[] } | undefined => {
  const x = staticShape(s, n.inputs[0]);
  const f = staticShape(s, n.inputs[1]);
  return x === null || f === null ? undefined : { input: x.slice(1, 3), kernel: f.slice(0, 2) };
};

/**
 * Resize's 4-D `sizes` for NHWC `x` resized to [h, w]: batch and channels as they are (from Shape(x) when not
 * static). Not the `axes` attr: ONNX Runtime's transpose optimizer mis-rewrites Resize with axes after a Conv.
 */
export function nhwcSizes(s: LowerScope, i: number, x: string, hw: readonly number[]): string {
  const d = staticShape(s, i);
  if (d !== null) return s.int64s([d[0], hw[0], hw[1], d[3]]);
  const shape = one(s.add('Shape', [x]));
  const at = (k: number): string => one(s.add('Slice', [shape, s.int64s([k]), s.int64s([k + 1])]));
  return one(s.add('Concat', [at(0), s.int64s([...hw]), at(3)], { axis: { i: 0 } }));
}

/**
 * The shared lowerings.
 * @example
 * // not-run
 * onnx: lower.reduce('ReduceSum', ['float32', 'int32'])
 */
export const lower = {
  /** Reductions (opset 18: axes are an input); `axes: []` is the identity, as in TF. */
  reduce: (op: string, dtypes: readonly DType[] = FI): OnnxSpec =>
    codec<ReduceP>((s, n, [x]) => {
      if (n.params.axes !== null && n.params.axes.length === 0) return s.add('Identity', [x]);
      const axes = n.params.axes === null ? [] : [s.int64s(n.params.axes)];
      const keepdims = { keepdims: { i: n.params.keepDims ? 1 : 0 } };
      if ((op === 'ReduceSum' || op === 'ReduceProd') && s.aval(n.inputs[0]).dtype === 'int32') {
        // ONNX Runtime's int32 sums and products saturate (2147483647 + 5 gave 2147483647) where TF's wrap around: in
        // int64, whose wrapped result's low 32 bits are the int32 wrap, cast back.
        const wide = s.add(op, [one(s.add('Cast', [x], { to: { i: 7 } })), ...axes], keepdims);
        return s.add('Cast', wide, { to: { i: ONNX_TYPE.int32 } });
      }
      const r = s.add(op, [x, ...axes], keepdims);
      if ((op !== 'ReduceMax' && op !== 'ReduceMin' && op !== 'ReduceProd') || s.aval(n.inputs[0]).dtype !== 'float32') return r;
      // TF's max, min and product of a run holding NaN are NaN; ONNX Runtime's skip it (or not, by position; a
      // product with a 0 came out 0): the same reduction's sum of NaN-or-0 added on (x + 0 is x; -inf and inf stay).
      const nans = one(s.add('Where', [...s.add('IsNaN', [x]), s.scalar(NaN, 'float32'), s.scalar(0, 'float32')]));
      return s.add('Add', [r[0], ...s.add('ReduceSum', [nans, ...axes], keepdims)]);
    }, firstIn(dtypes)),
  /** ArgMax/ArgMin: first index on ties (TF's), int64 cast to int32. */
  arg: (op: 'ArgMax' | 'ArgMin'): OnnxSpec =>
    codec<AxisP>((s, n, [x]) => {
      const attrs = { axis: { i: n.params.axis }, keepdims: { i: 0 }, select_last_index: { i: 0 } };
      if (s.aval(n.inputs[0]).dtype !== 'float32') return s.add('Cast', s.add(op, [x], attrs), { to: { i: ONNX_TYPE.int32 } });
      // TF's reducer (and the records' uncompiled kernels, tfArgReduce) start from the lowest (highest) finite float at
      // index 0 and take strictly greater (smaller) values: NaN is never picked and -inf (inf) never beats index 0.
      // x mapped to that order first, as the records do.
      const max = op === 'ArgMax';
      const bounded = one(s.add(max ? 'Max' : 'Min', [nanAs(s, x, max ? -Infinity : Infinity), s.scalar(max ? -FLOAT32_MAX : FLOAT32_MAX, 'float32')]));
      return s.add('Cast', s.add(op, [bounded], attrs), { to: { i: ONNX_TYPE.int32 } });
    }, firstIn(FI)),
  /**
   * matmul with TF's transpose flags. Rank 2 with a flag: Gemm's transA / transB (the BLAS call reads the
   * operand transposed in place; the gradient matmuls of every dense layer are these). Batched: a swap of
   * the last two axes before MatMul.
   */
  matmul: codec<MatMulP>((s, n, [a, b]) => {
    const swap = (v: string, r: number): string => one(s.add('Transpose', [v], { perm: { ints: [...Array.from({ length: r - 2 }, (_, i) => i), r - 1, r - 2] } }));
    const ra = rankOf(s, n.inputs[0]) as number;
    const rb = rankOf(s, n.inputs[1]) as number;
    const { transposeA, transposeB } = n.params;
    if (ra === 2 && rb === 2 && (transposeA || transposeB)) return s.add('Gemm', [a, b], { transA: { i: transposeA ? 1 : 0 }, transB: { i: transposeB ? 1 : 0 } });
    return s.add('MatMul', [transposeA ? swap(a, ra) : a, transposeB ? swap(b, rb) : b]);
  }, (s, n) => s.aval(n.inputs[0]).dtype === 'float32' && (rankOf(s, n.inputs[0]) ?? 0) >= 2 && (rankOf(s, n.inputs[1]) ?? 0) >= 2),
  transpose: codec<PermP>((s, n, [x]) => s.add('Transpose', [x], n.params.perm === null ? {} : { perm: { ints: n.params.perm } }), firstIn(FIB)),
  /** Slice(begin, size): size -1 runs to the end. */
  slice: codec<SliceP>((s, n, [x, b, z]) => {
    if (b !== undefined) {
      // The tensor form: ends = begin + size, or the end where size is -1.
      const [b64, z64] = [int64Operand(s, b), int64Operand(s, z)];
      const toEnd = one(s.add('Equal', [z64, s.int64s([-1], [])]));
      const { begin, end } = checkedBegin(s, x, b64, z64, toEnd);
      return s.add('Slice', [x, begin, one(s.add('Where', [toEnd, s.int64s([I64_MAX], []), end]))]);
    }
    const ends = n.params.size.map((z, i) => (z === -1 ? I64_MAX : n.params.begin[i] + z));
    return s.add('Slice', [x, s.int64s(n.params.begin), s.int64s(ends)]);
  }, firstIn(FIB)),
  /** squeeze: listed axes, or every size-1 axis (needs the static shape). */
  squeeze: codec<{ readonly axes: readonly number[] | null }>((s, n, [x]) => {
    const shape = s.aval(n.inputs[0]).shape as (number | null)[];
    const axes = n.params.axes ?? shape.flatMap((d, i) => (d === 1 ? [i] : []));
    return s.add('Squeeze', [x, s.int64s(axes)]);
  }, (s, n) => FIB.includes(s.aval(n.inputs[0]).dtype) && (n.params.axes !== null || staticShape(s, n.inputs[0]) !== null)),
  cast: codec<{ readonly dtype: DType }>((s, n, [x]) => s.add('Cast', [x], { to: { i: ONNX_TYPE[n.params.dtype] } }), (s, n) => FIB.includes(s.aval(n.inputs[0]).dtype) && ONNX_TYPE[n.params.dtype] !== undefined),
  /** x*x (ONNX has no Square). */
  square: codec((s, _n, [x]) => s.add('Mul', [x, x]), firstIn(FI)),
  rsqrt: codec((s, _n, [x]) => s.add('Reciprocal', s.add('Sqrt', [x])), firstIn(['float32'])),
  isFinite: codec((s, _n, [x]) => s.add('Not', s.add('Or', [...s.add('IsNaN', [x]), ...s.add('IsInf', [x])])), firstIn(['float32'])),
  /**
   * TF's ReluGrad dy·(x > 0): Mul(dy, Cast(Greater(x, 0))), the product keeps TF's NaN and -0 results. ORT's profiler on
   * the conv train step ([16, 8, 28, 28]): 65.5 us per step, against 72 us for Where(Greater(x, 0), dy, 0) and 205 us for
   * relu's former gradient Mul(dy, Where(Greater(x, 0), Sign(x), 0)).
   */
  reluGrad: codec((s, n, [dy, x]) => s.add('Mul', [dy, ...s.add('Cast', s.add('Greater', [x, s.scalar(0, s.aval(n.inputs[1]).dtype)]), { to: { i: ONNX_TYPE[s.aval(n.inputs[0]).dtype] } })]), firstIn(FI)),
  relu6: codec((s, _n, [x]) => s.add('Clip', [x, s.scalar(0, 'float32'), s.scalar(6, 'float32')]), firstIn(['float32'])),
  squaredDifference: codec((s, _n, [a, b]) => {
    const d = one(s.add('Sub', [a, b]));
    return s.add('Mul', [d, d]);
  }, firstIn(FI)),
  notEqual: codec((s, _n, [a, b]) => s.add('Not', s.add('Equal', [a, b])), firstIn(FIB)),
  /** Shape as int32 (ONNX's is int64). */
  shape: codec((s, _n, [x]) => s.add('Cast', s.add('Shape', [x]), { to: { i: ONNX_TYPE.int32 } }), firstIn(FIB)),
  /** bias_add in NHWC is a broadcasting Add over the last axis. */
  biasAdd: codec<{ readonly dataFormat: string }>((s, _n, [x, b]) => s.add('Add', [x, b]), (s, n) => FI.includes(s.aval(n.inputs[0]).dtype) && !n.params.dataFormat.startsWith('NC')),
  /** conv2d NHWC x HWIO -> Conv on NCHW x OIHW. */
  conv2d: codec<ConvP>((s, n, [x, f]) => {
    const w = transpose(s, f, [3, 2, 0, 1]);
    const y = one(s.add('Conv', [toNchw(s, x), w], { strides: { ints: n.params.strides }, dilations: { ints: n.params.dilations }, ...padAttrs(n.params, convSizes(s, n)) }));
    return [toNhwc(s, y)];
  }, convAccepts),
  /** depthwise [H,W,C,M] -> grouped Conv with weight [C*M, 1, H, W], group C (needs C and M). */
  depthwiseConv2d: codec<ConvP>((s, n, [x, f]) => {
    const [h, w, c, m] = staticShape(s, n.inputs[1]) as number[];
    const r = one(s.add('Reshape', [f, s.int64s([h, w, 1, c * m])]));
    const wt = transpose(s, r, [3, 2, 0, 1]);
    const y = one(s.add('Conv', [toNchw(s, x), wt], { group: { i: c }, strides: { ints: n.params.strides }, dilations: { ints: n.params.dilations }, ...padAttrs(n.params, convSizes(s, n)) }));
    return [toNhwc(s, y)];
  }, convAccepts),
  /** avg/max pooling NHWC; averages leave the padding out of the count (TF's); max pooling skips NaN (nanAs -inf). */
  pool: (op: 'AveragePool' | 'MaxPool'): OnnxSpec =>
    codec<PoolP>((s, n, [x]) => {
      const attrs = { kernel_shape: { ints: n.params.ksize }, strides: { ints: n.params.strides }, ...padAttrs(n.params), ...(op === 'AveragePool' ? { count_include_pad: { i: 0 } } : {}) };
      return [toNhwc(s, one(s.add(op, [toNchw(s, op === 'MaxPool' ? nanAs(s, x, -Infinity) : x)], attrs)))];
    }, nhwc2d),
  /** cumsum: ONNX CumSum has TF's exclusive/reverse flags. */
  cumsum: codec<AxisP & { readonly exclusive: boolean; readonly reverse: boolean }>(
    (s, n, [x]) => s.add('CumSum', [x, s.int64s([n.params.axis], [])], { exclusive: { i: n.params.exclusive ? 1 : 0 }, reverse: { i: n.params.reverse ? 1 : 0 } }),
    firstIn(FI),
  ),
  /** Round (half to even, TF's); int32 is returned as it is (TF's). */
  round: codec((s, n, [x]) => s.add(s.aval(n.inputs[0]).dtype === 'int32' ? 'Identity' : 'Round', [x]), firstIn(FI)),
  /** Constant pad: ONNX pads are [begins..., ends...]; the fill value in x's dtype. */
  pad: codec<{ readonly paddings: readonly (readonly [number, number])[]; readonly constantValue?: number }>((s, n, [x, q]) => {
    // The tensor form's [rank, 2] pairs as ONNX's [befores..., afters...]: transposed and flattened.
    // A negative run-time padding (ONNX's Pad crops there; TF refuses it) fails the run (refuseIf).
    const flat = (v: string): string => one(s.add('Reshape', [one(s.add('Transpose', [int64Operand(s, v)], { perm: { ints: [1, 0] } })), s.int64s([-1])]));
    const nonNegative = (v: string): string => refuseIf(s, one(s.add('Less', [v, s.int64s([0], [])])), v);
    const sized = (v: string): string => {
      // The padded shape, x's dims plus the befores and the afters, within the size limit (sizeGuard).
      const r = rankOf(s, n.inputs[0]) as number;
      const part = (k: number): string => one(s.add('Slice', [v, s.int64s([k * r]), s.int64s([(k + 1) * r])]));
      return sizeGuard(s, one(s.add('Add', [one(s.add('Add', [one(s.add('Shape', [x])), part(0)])), part(1)])), v);
    };
    const pads = q !== undefined ? sized(nonNegative(flat(q))) : s.int64s([...n.params.paddings.map((r) => r[0]), ...n.params.paddings.map((r) => r[1])]);
    return s.add('Pad', [x, pads, s.scalar(n.params.constantValue ?? 0, s.aval(n.inputs[0]).dtype)], { mode: { s: 'constant' } });
  }, firstIn(FIB)),
  /** OneHot: TF gives negative indices an all-off row (ONNX would wrap them), so they are moved out of range. */
  oneHot: codec<{ readonly depth: number; readonly onValue: number; readonly offValue: number; readonly axis: number; readonly dtype: DType }>((s, n, [x]) => {
    const p = n.params;
    // ORT's CPU OneHot takes int64 indices and depth, float values; int32 results are cast after.
    const depth = s.int64s([p.depth], []);
    const wide = one(s.add('Cast', [x], { to: { i: 7 } }));
    const idx = one(s.add('Where', [...s.add('Less', [x, s.scalar(0, 'int32')]), depth, wide]));
    const values = one(s.add('Concat', [...s.add('Reshape', [s.scalar(p.offValue, 'float32'), s.int64s([1])]), ...s.add('Reshape', [s.scalar(p.onValue, 'float32'), s.int64s([1])])], { axis: { i: 0 } }));
    const hot = s.add('OneHot', [idx, depth, values], { axis: { i: p.axis } });
    return p.dtype === 'float32' ? hot : s.add('Cast', hot, { to: { i: ONNX_TYPE[p.dtype] } });
  }, (s, n) => s.aval(n.inputs[0]).dtype === 'int32' && n.params.depth > 0 && rankOf(s, n.inputs[0]) !== 0),
  /** floormod on floats: fmod, moved to the divisor's sign; a zero takes the dividend's sign (TF's kernel). On int32 (a constant non-zero divisor): ONNX's integer Mod has the divisor's sign already. */
  floormod: codec((s, n, [a, b]) => {
    if (s.aval(n.inputs[0]).dtype === 'int32') return s.add('Mod', [a, b]);
    const r = one(s.add('Mod', [a, b], { fmod: { i: 1 } }));
    const zero = s.scalar(0, 'float32');
    const isZero = one(s.add('Equal', [r, zero]));
    const signsDiffer = one(s.add('Xor', [...s.add('Less', [r, zero]), ...s.add('Less', [b, zero])]));
    const adjusted = one(s.add('Where', [signsDiffer, ...s.add('Add', [r, b]), r]));
    return s.add('Where', [isZero, ...s.add('Mul', [a, zero]), adjusted]);
  }, floatOrIntByConst),
  /** expm1 without cancellation (Kahan): u = e^x; x where u == 1; u - 1 where u is 0 or inf; else (u - 1)·x / log u. */
  expm1: codec((s, _n, [x]) => {
    const u = one(s.add('Exp', [x]));
    const um1 = one(s.add('Sub', [u, s.scalar(1, 'float32')]));
    // (u - 1)·(x / log u): the product first overflowed where the result does not (expm1(88) = 1.65e38).
    const kahan = one(s.add('Mul', [um1, ...s.add('Div', [x, ...s.add('Log', [u])])]));
    const edge = one(s.add('Or', [...s.add('Equal', [u, s.scalar(0, 'float32')]), ...s.add('IsInf', [u])]));
    return s.add('Where', [...s.add('Equal', [u, s.scalar(1, 'float32')]), x, ...s.add('Where', [edge, um1, kahan])]);
  }, firstIn(['float32'])),
  /** log1p without cancellation (Kahan): u = 1 + x; x where u == 1; log u where u is 0 or inf; else log u · x / (u - 1). */
  log1p: codec((s, _n, [x]) => {
    const u = one(s.add('Add', [x, s.scalar(1, 'float32')]));
    const lu = one(s.add('Log', [u]));
    // log u·(x / (u - 1)): the product first overflowed where the result does not (log1p(3.4e38) = 88.7).
    const kahan = one(s.add('Mul', [lu, ...s.add('Div', [x, ...s.add('Sub', [u, s.scalar(1, 'float32')])])]));
    const edge = one(s.add('Or', [...s.add('Equal', [u, s.scalar(0, 'float32')]), ...s.add('IsInf', [u])]));
    return s.add('Where', [...s.add('Equal', [u, s.scalar(1, 'float32')]), x, ...s.add('Where', [edge, lu, kahan])]);
  }, firstIn(['float32'])),
  /**
   * atan2(y, x) by composition (ONNX has no Atan2), with C's special cases: atan(y/x) moved by ±pi when x
   * is negative (sign bits: v < 0 or 1/v < 0, so -0 counts), ±pi/2 or the signed zeros/pi on x = ±0, ±pi/4 or
   * ±3pi/4 when both are infinite, NaN when either is.
   */
  atan2: codec((s, _n, [y, x]) => {
    const c = (v: number): string => s.scalar(v, 'float32');
    const signBit = (v: string): string => one(s.add('Or', [...s.add('Less', [v, c(0)]), ...s.add('Less', [...s.add('Reciprocal', [v]), c(0)])]));
    const negY = signBit(y);
    const negX = signBit(x);
    const pi = one(s.add('Where', [negY, c(-Math.PI), c(Math.PI)]));
    const base = one(s.add('Atan', s.add('Div', [y, x])));
    const main = one(s.add('Where', [negX, ...s.add('Add', [base, pi]), base]));
    const onZero = one(s.add('Where', [...s.add('Equal', [y, c(0)]), ...s.add('Where', [negX, pi, y]), ...s.add('Where', [negY, c(-Math.PI / 2), c(Math.PI / 2)])]));
    const finite = one(s.add('Where', [...s.add('Equal', [x, c(0)]), onZero, main]));
    const q = one(s.add('Where', [negX, c((3 * Math.PI) / 4), c(Math.PI / 4)]));
    const corner = one(s.add('Where', [negY, ...s.add('Neg', [q]), q]));
    const bothInf = one(s.add('And', [...s.add('IsInf', [x]), ...s.add('IsInf', [y])]));
    const res = one(s.add('Where', [bothInf, corner, finite]));
    const nan = one(s.add('Or', [...s.add('IsNaN', [x]), ...s.add('IsNaN', [y])]));
    return s.add('Where', [nan, ...s.add('Add', [x, y]), res]);
  }, firstIn(['float32'])),
  /** zerosLike/onesLike: ConstantOfShape(Shape(x)) with the value in x's dtype (x's NaNs do not leak in). */
  likeConst: (value: number): OnnxSpec =>
    codec((s, n, [x]) => {
      const dtype = s.aval(n.inputs[0]).dtype;
      const data = dtype === 'float32' ? Float32Array.of(value) : dtype === 'int32' ? Int32Array.of(value) : Uint8Array.of(value);
      return s.add('ConstantOfShape', s.add('Shape', [x]), { value: { t: { dtype, shape: [1], data } } });
    }, firstIn(FIB)),
  /**
   * floordiv on floats: the float32 quotient, floored (TF's float kernel). On int32 only by a constant without
   * zeros (a zero divisor raises in TF; ONNX Runtime's integer Div would trap): the truncated quotient, minus
   * one where the remainder is non-zero and the signs differ.
   */
  floordiv: codec((s, n, [a, b]) => {
    if (s.aval(n.inputs[0]).dtype !== 'int32') return s.add('Floor', s.add('Div', [a, b]));
    const zero = s.scalar(0, 'int32');
    const inexact = one(s.add('Not', s.add('Equal', [...s.add('Mod', [a, b], { fmod: { i: 1 } }), zero])));
    const signsDiffer = one(s.add('Xor', [...s.add('Less', [a, zero]), ...s.add('Less', [b, zero])]));
    const fix = one(s.add('Cast', s.add('And', [inexact, signsDiffer]), { to: { i: ONNX_TYPE.int32 } }));
    return s.add('Sub', [...s.add('Div', [a, b]), fix]);
  }, floatOrIntByConst),
  /**
   * TF2's image resizes on NHWC (half-pixel centers). Bilinear is ONNX's `half_pixel` linear; TF's nearest source
   * index floor((dst + 0.5)·in/out) is `half_pixel`'s (dst + 0.5)·in/out - 0.5 rounded half up. TF1's modes
   * for nearest (alignCorners, legacy) stay on the tfjs kernels; bilinear's lower to align_corners / asymmetric.
   */
  resize: (mode: 'linear' | 'nearest'): OnnxSpec =>
    codec<{ readonly size: readonly (number | null)[]; readonly alignCorners?: boolean; readonly halfPixelCenters?: boolean }>((s, n, [x]) => {
      // Bilinear's TF1 modes have ONNX names too: align_corners, and legacy sampling is asymmetric (src = dst · in/out).
      const { alignCorners = false, halfPixelCenters = true } = n.params;
      const coordinates = alignCorners ? 'align_corners' : halfPixelCenters ? 'half_pixel' : 'asymmetric';
      const attrs = { mode: { s: mode }, coordinate_transformation_mode: { s: coordinates }, ...(mode === 'nearest' ? { nearest_mode: { s: 'round_prefer_ceil' } } : {}) };
      return s.add('Resize', [x, '', '', nhwcSizes(s, n.inputs[0], x, n.params.size as number[])], attrs);
    }, (s, n) => FI.includes(s.aval(n.inputs[0]).dtype) && n.inputs.length === 1 && rankOf(s, n.inputs[0]) === 4 && n.params.size.every((d) => d !== null && d > 0) && (mode === 'linear' || (n.params.alignCorners !== true && n.params.halfPixelCenters !== false))),
  /** TopK on the last axis (ties: lower index first in both), indices cast to int32. */
  topK: codec<{ readonly k: number }>((s, n, [x]) => {
    const [v, i] = s.add('TopK', [x, s.int64s([n.params.k])], { axis: { i: -1 }, largest: { i: 1 }, sorted: { i: 1 } }, 2);
    return [v, one(s.add('Cast', [i], { to: { i: ONNX_TYPE.int32 } }))];
  }, (s, n) => n.inputs.length === 1 && FI.includes(s.aval(n.inputs[0]).dtype) && (rankOf(s, n.inputs[0]) ?? 0) >= 1),
  /** split: Split by the piece sizes (resolved against the static axis size), or into equal pieces (`num_outputs`) of an axis only the run time knows. */
  split: codec<{ readonly axis: number; readonly sizes: readonly number[] }>((s, n, [x]) => {
    const r = rankOf(s, n.inputs[0]) as number;
    const axis = n.params.axis < 0 ? n.params.axis + r : n.params.axis;
    const sizes = n.outputs.map((o) => s.aval(o).shape?.[axis] ?? null);
    if (sizes.some((d) => d === null)) return s.add('Split', [x], { axis: { i: axis }, num_outputs: { i: n.outputs.length } }, n.outputs.length);
    return s.add('Split', [x, s.int64s(sizes as number[])], { axis: { i: axis } }, n.outputs.length);
  }, (s, n) => FIB.includes(s.aval(n.inputs[0]).dtype) && rankOf(s, n.inputs[0]) !== null && (n.params.sizes.length === 0 || n.outputs.every((o) => staticShape(s, o) !== null))),
  /** unstack: Split into pieces of 1, each squeezed. */
  unstack: codec<{ readonly axis: number; readonly num: number }>((s, n, [x]) => {
    const r = rankOf(s, n.inputs[0]) as number;
    const axis = n.params.axis < 0 ? n.params.axis + r : n.params.axis;
    const parts = n.params.num === 1 ? [x] : s.add('Split', [x, s.int64s(new Array<number>(n.params.num).fill(1))], { axis: { i: axis } }, n.params.num);
    return parts.map((q) => one(s.add('Squeeze', [q, s.int64s([axis])])));
  }, (s, n) => FIB.includes(s.aval(n.inputs[0]).dtype) && rankOf(s, n.inputs[0]) !== null && n.params.num >= 1),
  /**
   * stridedSlice: the spec resolved against the static input shape (by the record's `resolve`), one Slice over
   * every input dim (steps may be negative; an end before index 0 is written as -inf, not -1, which would wrap),
   * then a Reshape that drops shrunk axes and adds new ones.
   */
  stridedSlice: <P>(resolve: (shape: readonly (number | null)[], p: P) => { picks: readonly { start: number | null; stride: number; count: number | null }[]; out: readonly (number | null)[] | null }): OnnxSpec =>
    codec<P>((s, n, [x]) => {
      const { picks, out } = resolve(s.aval(n.inputs[0]).shape as number[], n.params);
      const starts = picks.map((q) => q.start as number);
      const ends = picks.map((q) => (q.start as number) + (q.count as number) * q.stride);
      const sliced = one(s.add('Slice', [x, s.int64s(starts), s.int64s(ends.map((e) => (e < 0 ? -I64_MAX : e))), s.int64s(picks.map((_, i) => i)), s.int64s(picks.map((q) => q.stride))]));
      return s.add('Reshape', [sliced, s.int64s(out as number[])]);
    }, (s, n) => n.inputs.length === 1 && FIB.includes(s.aval(n.inputs[0]).dtype) && staticShape(s, n.inputs[0]) !== null),
  /** fusedBatchNorm (inference): BatchNormalization on channels-first, so channels-last x is transposed in and out. */
  batchNorm: codec<{ readonly epsilon: number; readonly dataFormat: string }>((s, n, ins) => {
    const r = rankOf(s, n.inputs[0]) as number;
    const last = !n.params.dataFormat.startsWith('NC') && r > 2;
    const perm = [0, r - 1, ...Array.from({ length: r - 2 }, (_, i) => i + 1)];
    const x = last ? one(s.add('Transpose', [ins[0]], { perm: { ints: perm } })) : ins[0];
    const y = one(s.add('BatchNormalization', [x, ...ins.slice(1)], { epsilon: { f: n.params.epsilon } }));
    return last ? s.add('Transpose', [y], { perm: { ints: [0, ...Array.from({ length: r - 2 }, (_, i) => i + 2), 1] } }) : [y];
  }, (s, n) => n.inputs.every((i) => s.aval(i).dtype === 'float32') && (rankOf(s, n.inputs[0]) ?? 0) >= 2),
  /** gatherNd: GatherND on int64 indices, negative ones refused as TF does (nonNegativeIndices). */
  gatherNd: codec((s, n, [x, i]) => s.add('GatherND', [x, nonNegativeIndices(s, int64Operand(s, i), 'int64', n.inputs[1])]), firstIn(FIB)),
  /** gather: Gather along the axis, negative indices refused as TF does (nonNegativeIndices). */
  gather: codec<AxisP>((s, n, [x, i]) => s.add('Gather', [x, nonNegativeIndices(s, i, 'int32', n.inputs[1])], { axis: { i: n.params.axis } }), firstIn(FIB)),
  identity: { op: 'Identity', dtypes: FIB } as OnnxSpec,
  // ONNX names that are other records' TF op names (kept here, so each TF name stays typed once).
  maximum: { op: 'Max', dtypes: FI } as OnnxSpec,
  minimum: { op: 'Min', dtypes: FI } as OnnxSpec,
  /** select: Where on float32 / int32 values (ONNX Runtime's CPU Where has no bool values: those select uncompiled). */
  where: codec((s, _n, ins) => s.add('Where', ins), (s, n) => s.aval(n.inputs[0]).dtype === 'bool' && n.inputs.slice(1).every((i) => FI.includes(s.aval(i).dtype))),
  addN: { op: 'Sum' } as OnnxSpec,
};
