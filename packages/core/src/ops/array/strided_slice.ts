// stridedSlice with TF's five masks, resolved here (not by the kernel) so shape inference, the kernel call and the gradient agree.
import type { DType } from '../../values/dtype';
import { defineOp } from '../define_op';
import { allocHost, describe } from '../../values/dtype';
import type { Info, Kernels } from '../../backend/backend';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { attr, tfOpOf } from '../graphdef_spec';
import { isShapeNode, squeeze as squeezeRecord, writeShapeOf } from './reshape';
import type { Attrs, ReadScope } from '../graphdef_spec';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { Dims, dimsToString } from '../../values/shape';
import { argError, checkArity, checkDTypes } from '../check';
import { lower } from '../onnx_lowerings';

export interface StridedSliceParams {
  readonly begin: readonly number[];
  readonly end: readonly number[];
  /** null: every stride 1. */
  readonly strides: readonly number[] | null;
  readonly beginMask: number;
  readonly endMask: number;
  readonly ellipsisMask: number;
  readonly newAxisMask: number;
  readonly shrinkAxisMask: number;
}

/** One input dim after resolution: first index, stride, count (null when the dim is unknown), and whether it is dropped. */
interface DimPick {
  readonly start: number | null;
  readonly stride: number;
  readonly count: number | null;
  readonly shrink: boolean;
}

const OP = 'stridedSlice';
const bit = (mask: number, i: number): boolean => ((mask >> i) & 1) === 1;

function checkSpec(p: StridedSliceParams): readonly number[] {
  const n = p.begin.length;
  const strides = p.strides ?? new Array<number>(n).fill(1);
  if (p.end.length !== n || strides.length !== n) throw argError(OP, 'begin, end and strides must have one entry each per index', `${n}, ${p.end.length} and ${strides.length} entries`, 'equal lengths', 'Pass one begin, end and stride per sliced dim.');
  if (strides.some((s) => s === 0)) throw argError(OP, 'strides must be non-zero', `[${strides}]`, 'non-zero strides', 'Use 1 (or -1 to reverse).');
  let e = p.ellipsisMask;
  let ones = 0;
  while (e) (ones += e & 1), (e >>= 1);
  if (ones > 1) throw argError(OP, 'at most one ellipsis', `ellipsisMask ${p.ellipsisMask}`, 'a mask with at most one bit', "Use '...' once.");
  return strides;
}

/** One sparse entry against a dim of size `d`: TF's clamping of begin/end and its count. */
function pickOne(p: StridedSliceParams, i: number, s: number, d: number | null): DimPick {
  if (bit(p.shrinkAxisMask, i)) {
    const b = p.begin[i];
    if (d === null) return { start: b < 0 ? null : b, stride: 1, count: 1, shrink: true };
    const bb = b < 0 ? b + d : b;
    if (bb < 0 || bb >= d) throw argError(OP, 'index out of range', `index ${b} for a dim of size ${d}`, `an index in [${-d}, ${d})`, 'Index inside the dim.');
    return { start: bb, stride: 1, count: 1, shrink: true };
  }
  if (d === null) return { start: null, stride: s, count: null, shrink: false };
  const [lo, hi] = s > 0 ? [0, d] : [-1, d - 1];
  const clamp = (v: number): number => Math.min(hi, Math.max(lo, v < 0 ? v + d : v));
  const b = bit(p.beginMask, i) ? (s > 0 ? 0 : d - 1) : clamp(p.begin[i]);
  const e = bit(p.endMask, i) ? (s > 0 ? d : -1) : clamp(p.end[i]);
  const count = s > 0 ? Math.max(0, Math.ceil((e - b) / s)) : Math.max(0, Math.ceil((b - e) / -s));
  return { start: b, stride: s, count, shrink: false };
}

/** Resolves the sparse spec against `shape`: a pick per input dim and the output shape. */
export function resolveStridedSlice(shape: readonly (number | null)[], p: StridedSliceParams): { picks: DimPick[]; out: Dims } {
  const strides = checkSpec(p);
  const n = p.begin.length;
  const consuming = Array.from({ length: n }, (_, i) => i).filter((i) => !bit(p.ellipsisMask, i) && !bit(p.newAxisMask, i)).length;
  const rank = shape.length;
  if (consuming > rank) throw argError(OP, 'too many indices', `${consuming} indices for a rank-${rank} tensor`, `at most ${rank}`, 'Index at most every dim.');
  const full = (d: number | null): DimPick => ({ start: 0, stride: 1, count: d, shrink: false });
  const picks: DimPick[] = [];
  const out: (number | null)[] = [];
  let dim = 0;
  const take = (pk: DimPick): void => {
    picks.push(pk);
    if (!pk.shrink) out.push(pk.count);
  };
  for (let i = 0; i < n; i++) {
    if (bit(p.ellipsisMask, i)) {
      for (let k = 0; k < rank - consuming; k++) take(full(shape[dim++]));
    } else if (bit(p.newAxisMask, i)) {
      out.push(1);
    } else {
      take(pickOne(p, i, strides[i], shape[dim]));
      dim++;
    }
  }
  while (dim < rank) take(full(shape[dim++]));
  return { picks, out };
}

/** Flat input indices of the selected elements in output order (row-major over the picks). */
function selected(shape: readonly number[], picks: DimPick[]): Int32Array {
  const total = picks.reduce((a, q) => a * (q.count as number), 1);
  const out = new Int32Array(total);
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const idx = new Array<number>(picks.length).fill(0);
  for (let k = 0; k < total; k++) {
    let flat = 0;
    for (let j = 0; j < picks.length; j++) flat += ((picks[j].start as number) + idx[j] * picks[j].stride) * strides[j];
    out[k] = flat;
    for (let j = picks.length - 1; j >= 0; j--) {
      if (++idx[j] < (picks[j].count as number)) break;
      idx[j] = 0;
    }
  }
  return out;
}

/** The slice on concrete shapes: a dense, mask-free StridedSlice kernel call, then a Reshape to the output shape. */
function sliceImpl(k: Kernels, x: Info, p: StridedSliceParams): Info {
  const { picks, out } = resolveStridedSlice(x.shape, p);
  const dims = out as number[];
  if (dims.some((d) => d === 0)) return k.upload(allocHost(x.dtype as DType, 0), dims, x.dtype as DType);
  // A negative stride that runs to index 0 ends "before 0": the end mask says so (an end of -1 would wrap).
  const endMask = picks.reduce((m, q, i) => (q.stride < 0 && (q.start as number) + (q.count as number) * q.stride < 0 ? m | (1 << i) : m), 0);
  const s = k.run('StridedSlice', { x }, {
    begin: picks.map((q) => q.start as number),
    end: picks.map((q) => (q.start as number) + (q.count as number) * q.stride),
    strides: picks.map((q) => q.stride),
    beginMask: 0, endMask, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0,
  }) as Info;
  const r = k.run('Reshape', { x: s }, { shape: dims }) as Info;
  k.free(s);
  return r;
}

const maskArg = (name: string) => arg.int(name, 0);

/** The five mask attrs of StridedSlice / StridedSliceGrad. */
function maskAttrs(p: StridedSliceParams): Attrs {
  return {
    begin_mask: attr.int(p.beginMask), end_mask: attr.int(p.endMask), ellipsis_mask: attr.int(p.ellipsisMask),
    new_axis_mask: attr.int(p.newAxisMask), shrink_axis_mask: attr.int(p.shrinkAxisMask),
  };
}

/** Params from a node whose begin/end/strides are Const inputs `from`..`from + 2`. */
function readParams(r: ReadScope, from: number): StridedSliceParams {
  const nd = r.node;
  return {
    begin: r.numbers(from, 'begin'), end: r.numbers(from + 1, 'end'), strides: r.numbers(from + 2, 'strides'),
    beginMask: nd.int('begin_mask', 0), endMask: nd.int('end_mask', 0), ellipsisMask: nd.int('ellipsis_mask', 0), newAxisMask: nd.int('new_axis_mask', 0), shrinkAxisMask: nd.int('shrink_axis_mask', 0),
  };
}

/**
 * A slice that shrinks axes while striding others by other than 1, as a StridedSlice keeping those axes (size 1)
 * and a Squeeze of them. tfjs-core's strided kernel indexes the input with the shrunk output's coordinates
 * (`x[0, ::2, 1:5]` reads past the end in tfjs-converter); TF runs both forms alike. Null when the plain form is
 * safe, or when an unknown rank hides where a shrunk axis lands after an ellipsis.
 */
export function shrinkAsSqueeze(p: StridedSliceParams, rank: number | null): { p: StridedSliceParams; axes: number[] } | null {
  const strides = p.strides ?? p.begin.map(() => 1);
  if (p.shrinkAxisMask === 0 || strides.every((st, i) => st === 1 || bit(p.shrinkAxisMask, i))) return null;
  const n = p.begin.length;
  const ellipsis = Array.from({ length: n }, (_, i) => i).find((i) => bit(p.ellipsisMask, i));
  const sparseDims = Array.from({ length: n }, (_, i) => i).filter((i) => !bit(p.newAxisMask, i) && !bit(p.ellipsisMask, i)).length;
  if (ellipsis !== undefined && rank === null && Array.from({ length: n }, (_, i) => i).some((i) => i > ellipsis && bit(p.shrinkAxisMask, i))) return null;
  const spread = ellipsis === undefined || rank === null ? 0 : rank - sparseDims - 1; // output dims the ellipsis adds beyond one
  const axes: number[] = [];
  const begin = p.begin.slice();
  const end = p.end.slice();
  const st = strides.slice();
  let endMask = p.endMask;
  let beginMask = p.beginMask;
  for (let i = 0; i < n; i++) {
    if (!bit(p.shrinkAxisMask, i) || bit(p.ellipsisMask, i) || bit(p.newAxisMask, i)) continue;
    axes.push(i + (ellipsis !== undefined && i > ellipsis ? spread : 0));
    const b = bit(p.beginMask, i) ? 0 : begin[i];
    beginMask &= ~(1 << i);
    begin[i] = b;
    st[i] = 1;
    // begin + 1 as the end, except for the last index (-1), whose end is the end of the axis.
    if (b === -1) endMask |= 1 << i;
    else {
      end[i] = b + 1;
      endMask &= ~(1 << i);
    }
  }
  return { p: { ...p, begin, end, strides: st, beginMask, endMask, shrinkAxisMask: 0 }, axes };
}

/** stridedSlice(input, begin, end, strides?, {beginMask, endMask, ellipsisMask, newAxisMask, shrinkAxisMask}): TF's numpy-style slice. */
export const stridedSlice = defineOp({
  name: 'strided_slice',
  infer(ins: AVal[], p: StridedSliceParams) {
    checkArity(OP, ins, 1);
    const s = ins[0].shape;
    if (s === null) {
      checkSpec(p);
      return [{ dtype: ins[0].dtype, shape: null }];
    }
    return [{ dtype: ins[0].dtype, shape: resolveStridedSlice(s, p).out }];
  },
  impl: (k, [x], p: StridedSliceParams) => [sliceImpl(k, x, p)],
  vjp: (c, [x], _o, p: StridedSliceParams): (Tensor | null)[] => [bind(stridedSliceGrad as Primitive, [c[0] as Tensor, x], p)[0]],
  saves: 'inputs',
  api: api(['stridedSlice'], [arg.tensor('input'), arg.ints('begin'), arg.ints('end'), arg.custom<number[] | null, 'strides', null>('strides', stridesArg, null)], [
    maskArg('beginMask'), maskArg('endMask'), maskArg('ellipsisMask'), maskArg('newAxisMask'), maskArg('shrinkAxisMask'),
  ]),
  onnx: lower.stridedSlice(resolveStridedSlice),
  tf: {
    ops: ['StridedSlice'],
    write(s, n, [x]) {
      const p0 = n.params as StridedSliceParams;
      const split = shrinkAsSqueeze(p0, s.aval(n.inputs[0]).shape?.length ?? null);
      const p = split?.p ?? p0;
      const strides = p.strides ?? p.begin.map(() => 1);
      const T = attr.type(s.dtype(n.inputs[0]));
      const y = s.add('StridedSlice', 'StridedSlice', [x, s.ints('begin', p.begin), s.ints('end', p.end), s.ints('strides', strides)], { T, Index: attr.type('int32'), ...maskAttrs(p) });
      return [split === null ? y : s.add(tfOpOf(squeezeRecord), 'shrink', [y], { T, squeeze_dims: attr.ints(split.axes) })];
    },
    read(r): Tensor[] {
      r.arity(4);
      return bind(stridedSlice as Primitive, [r.input(0)], readParams(r, 1));
    },
  },
});

function stridesArg(op: string, v: unknown): number[] | null {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'number' || !Number.isInteger(s))) throw argError(op, 'strides must be an array of integers', describe(v), 'an array of integers or null', 'Pass e.g. [1, 2].');
  return v as number[];
}

/** The gradient of stridedSlice: the cotangent scattered into zeros of the input's shape (TF's StridedSliceGrad). */
export const stridedSliceGrad = defineOp({
  name: 'strided_slice_grad',
  infer(ins: AVal[], p: StridedSliceParams) {
    checkArity('stridedSliceGrad', ins, 2);
    // A cotangent is numeric (a string one would be scattered into undecodable bytes).
    checkDTypes('stridedSliceGrad', ins[0], ['float32', 'int32', 'complex64'], 'the cotangent');
    const [g, x] = [ins[0].shape, ins[1].shape];
    const want = x === null ? null : resolveStridedSlice(x, p).out;
    if (g !== null && want !== null && (g.length !== want.length || g.some((d, i) => d !== null && want[i] !== null && d !== want[i]))) {
      throw argError('stridedSliceGrad', 'the cotangent does not have the slice shape', `${dimsToString(g)} for a slice of shape ${dimsToString(want)}`, dimsToString(want), 'Pass the gradient of the slice output.');
    }
    return [{ dtype: ins[0].dtype, shape: x }];
  },
  impl(k, [g, x], p: StridedSliceParams) {
    // Traced with unknown dims, infer could not check the cotangent: check it on the concrete shapes.
    stridedSliceGrad.infer([{ dtype: g.dtype as DType, shape: g.shape }, { dtype: x.dtype as DType, shape: x.shape }], p);
    const { picks } = resolveStridedSlice(x.shape, p);
    const flat = selected(x.shape, picks);
    // An empty slice has an all-zero gradient (webgl's ScatterNd cannot take empty updates).
    if (flat.length === 0) return [k.run('ZerosLike', { x }) as Info];
    const size = x.shape.reduce((a, b) => a * b, 1);
    const idx = k.upload(flat, [flat.length, 1], 'int32');
    const upd = k.run('Reshape', { x: g }, { shape: [flat.length] }) as Info;
    const sc = k.run('ScatterNd', { indices: idx, updates: upd }, { shape: [size] }) as Info;
    const out = k.run('Reshape', { x: sc }, { shape: x.shape }) as Info;
    for (const t of [idx, upd, sc]) k.free(t);
    return [out];
  },
  // Linear in the cotangent: its own gradient is the slice again.
  vjp: (c, _i, _o, p: StridedSliceParams): (Tensor | null)[] => [bind(stridedSlice as Primitive, [c[0] as Tensor], p)[0], null],
  saves: 'none',
  tf: {
    ops: ['StridedSliceGrad'],
    // StridedSliceGrad(Shape(x), begin, end, strides, dy): read back from that pattern.
    write(s, n, [g, x]) {
      const p = n.params as StridedSliceParams;
      const strides = p.strides ?? p.begin.map(() => 1);
      const shape = writeShapeOf(s, x, n.inputs[1]);
      return [s.add('StridedSliceGrad', 'StridedSliceGrad', [shape, s.ints('begin', p.begin), s.ints('end', p.end), s.ints('strides', strides), g], { T: attr.type(s.dtype(n.inputs[0])), Index: attr.type('int32'), ...maskAttrs(p) })];
    },
    matches: (r) => isShapeNode(r.producer(0)),
    read(r): Tensor[] {
      r.arity(5);
      const shapeOf = r.producer(0);
      if (shapeOf === undefined || shapeOf.inputs.length !== 1) throw r.error('a Shape input', 'another input', 'StridedSliceGrad(Shape(x), ...)', 'Save the graph with EagerFlow.');
      return bind(stridedSliceGrad as Primitive, [r.input(4), r.tensorOf(shapeOf.inputs[0], shapeOf.name)], readParams(r, 1));
    },
  },
});

