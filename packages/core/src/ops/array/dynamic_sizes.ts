// Run-time-shaped slice, pad, reshape and segment sum: their sizes are int32 tensors (TF's Slice, Pad, Reshape and
// UnsortedSegmentSum with non-Const operands). Gradients and composites traced with unknown dims build their sizes
// from `shape` at run time with these, as TensorFlow does; with static shapes the ops keep their Const-sized records.
import { showValue } from '../../values/dtype';
import type { Info, Kernels } from '../../backend/backend';
import { convert } from '../../values/convert';
import type { DType } from '../../values/dtype';
import { AVal, Primitive } from '../primitive';
import { ReadScope, WriteScope, attr, tfOpOf, typeAttrOf } from '../graphdef_spec';
import { bind } from '../bind';
import type { Tensor } from '../../values/tensor';
import { dimsToString } from '../../values/shape';
import { ruleOps as o } from '../rule_ops';
import { argError, checkArity, checkDTypes } from '../check';
import { intValues } from '../kernel_util';
import { slice } from './slice_concat_gather';
import { pad } from './pad';
import { isShapeNode, reshape, resolveReshape, shape } from './reshape';
import { gatherDropNegatives, unsortedSegmentSum } from '../math/segment_sum';
import { g0 } from '../rule_helpers';

const I32 = attr.type('int32');
const bind1 = (p: Primitive, ins: Tensor[]): Tensor => bind(p, ins, {})[0];
/** shape(x) as an int32 tensor (read when the graph runs). */
export const shapeOf = (x: Tensor): Tensor => bind1(shape as Primitive, [x]);
/** Whether input k of a node being loaded is not a Const (then its sizes are only known at run time). */
const dynamicInput = (r: ReadScope, k: number): boolean => r.producer(k)?.op !== 'Const';
/** The rank a size vector gives (its static length), else the input's rank. */
const rankOf = (x: AVal, v: AVal): number | null => x.shape?.length ?? v.shape?.[0] ?? null;
const unknownDims = (rank: number | null): (number | null)[] | null => (rank === null ? null : new Array<number | null>(rank).fill(null));

function checkSizes(op: string, x: AVal, v: AVal, what: string, pairs = false): void {
  checkDTypes(op, v, ['int32'], what);
  const s = v.shape;
  if (s === null) return;
  const bad = pairs ? s.length !== 2 || (s[1] !== null && s[1] !== 2) : s.length !== 1;
  const r = x.shape?.length ?? null;
  if (bad || (r !== null && s[0] !== null && s[0] !== r)) {
    throw argError(op, `${what} must have one ${pairs ? 'pair' : 'entry'} per dim`, `shape ${dimsToString(s)} for an input of shape ${dimsToString(x.shape)}`, pairs ? `[${r ?? 'rank'}, 2]` : `[${r ?? 'rank'}]`, `Pass one ${pairs ? '[before, after] pair' : 'entry'} per dim.`);
  }
}

/** An empty complex64 value shaped like the empty float32 `z` (freed): tfjs's Fill has no complex64. */
function complexZeros(k: Kernels, z: Info): Info {
  const out = k.run('Complex', { real: z, imag: z }) as Info;
  k.free(z);
  return out;
}

/** slice_dyn(x, begin, size): TF's Slice with run-time begin and size (size -1: to the end). */
export const sliceDyn = {
  name: 'slice_dyn',
  effect: 'pure',
  infer(ins: AVal[]) {
    checkArity('slice', ins, 3);
    checkSizes('slice', ins[0], ins[1], 'begin');
    checkSizes('slice', ins[0], ins[2], 'size');
    return [{ dtype: ins[0].dtype, shape: unknownDims(rankOf(ins[0], ins[1])) }];
  },
  impl(k: Kernels, [x, b, s]: Info[]) {
    for (const [v, what] of [[b, 'begin'], [s, 'size']] as const) checkSizes('slice', { dtype: x.dtype as DType, shape: x.shape }, { dtype: 'int32', shape: v.shape }, what);
    const begin = Array.from(intValues(b));
    const size = Array.from(intValues(s)).map((n, i) => (n === -1 ? x.shape[i] - begin[i] : n));
    x.shape.forEach((d, i) => {
      if (begin[i] < 0 || size[i] < 0 || begin[i] + size[i] > d) throw argError('slice', `slice out of bounds on axis ${i}`, `begin ${begin[i]}, size ${size[i]} for dim ${d}`, `0 <= begin <= begin + size <= ${d}`, 'Fix begin/size.');
    });
    // A rank-0 slice is the scalar itself (tfjs's Slice reads a scalar's empty begin as garbage: NaN); an empty input
    // or result is a fill (tfjs's Slice fails on an empty input's data).
    if (x.shape.length === 0) return [k.run('Identity', { x }) as Info];
    if (x.shape.includes(0) || size.includes(0)) return [k.run('Fill', {}, { shape: size, value: x.dtype === 'string' ? '' : 0, dtype: x.dtype === 'complex64' ? 'float32' : x.dtype }) as Info].map((z) => (x.dtype === 'complex64' ? complexZeros(k, z) : z));
    return [k.run('Slice', { x }, { begin, size }) as Info];
  },
  // TF's _SliceGrad: pad the cotangent by begin before and shape(x) - shape(y) - begin after.
  vjp: (c, [x, begin]) => {
    const after = o.sub(o.sub(shapeOf(x), shapeOf(g0(c))), begin);
    return [padDynOf(g0(c), o.stack([begin, after], 1)), null, null];
  },
  saves: 'inputs',
  tf: {
    ops: [tfOpOf(slice)],
    write: (s: WriteScope, n, [x, b, z]) => [s.add(tfOpOf(slice), tfOpOf(slice), [x, b, z], { T: typeAttrOf(s, n.inputs[0]), Index: I32 })],
    matches: (r) => dynamicInput(r, 1) || dynamicInput(r, 2),
    read: (r): Tensor[] => (r.arity(3), [bind1(sliceDyn as Primitive, [r.input(0), r.input(1), r.input(2)])]),
  },
} satisfies Primitive;

/** pad_dyn(x, paddings): TF's Pad (zeros) with run-time [rank, 2] paddings. */
export const padDyn = {
  name: 'pad_dyn',
  effect: 'pure',
  infer(ins: AVal[]) {
    checkArity('pad', ins, 2);
    checkSizes('pad', ins[0], ins[1], 'paddings', true);
    return [{ dtype: ins[0].dtype, shape: unknownDims(rankOf(ins[0], ins[1])) }];
  },
  impl(k: Kernels, [x, p]: Info[]) {
    checkSizes('pad', { dtype: x.dtype as DType, shape: x.shape }, { dtype: 'int32', shape: p.shape }, 'paddings', true);
    const v = Array.from(intValues(p));
    const pairs = x.shape.map((_, i) => [v[2 * i], v[2 * i + 1]]);
    if (v.some((n) => n < 0)) throw argError('pad', 'invalid paddings', showValue(pairs), 'non-negative integer paddings', 'Pass [before, after] pairs of counts >= 0.');
    return [k.run('PadV2', { x }, { paddings: pairs, constantValue: 0 }) as Info];
  },
  // TF's _PadGrad: the cotangent sliced at the befores, x's (run-time) shape.
  vjp: (c, [x, p]) => [sliceDynOf(g0(c), o.reshape(o.slice(p, [0, 0], [-1, 1]), [-1]), shapeOf(x)), null],
  saves: 'inputs',
  tf: {
    ops: [tfOpOf(pad)],
    write: (s: WriteScope, n, [x, p]) => [s.add(tfOpOf(pad), tfOpOf(pad), [x, p], { T: typeAttrOf(s, n.inputs[0]), Tpaddings: I32 })],
    matches: (r) => dynamicInput(r, 1),
    read: (r): Tensor[] => (r.arity(2), [bind1(padDyn as Primitive, [r.input(0), r.input(1)])]),
  },
} satisfies Primitive;

/** reshape_dyn(x, shape): TF's Reshape to a run-time int32 shape (one -1 allowed). */
export const reshapeDyn = {
  name: 'reshape_dyn',
  effect: 'pure',
  infer(ins: AVal[]) {
    checkArity('reshape', ins, 2);
    checkDTypes('reshape', ins[1], ['int32'], 'shape');
    if (ins[1].shape !== null && ins[1].shape.length !== 1) throw argError('reshape', 'shape must be a vector', dimsToString(ins[1].shape), 'a rank-1 int32 tensor', 'Pass the target dims as a vector.');
    return [{ dtype: ins[0].dtype, shape: unknownDims(ins[1].shape?.[0] ?? null) }];
  },
  impl: (k: Kernels, [x, s]: Info[]) => [k.run('Reshape', { x }, { shape: resolveReshape('reshape', x.shape, Array.from(intValues(s))) as number[] }) as Info],
  vjp: (c, [x]) => [o.reshapeLike(g0(c), x), null],
  saves: 'none',
  tf: {
    ops: [tfOpOf(reshape)],
    write: (s: WriteScope, n, [x, z]) => [s.add(tfOpOf(reshape), tfOpOf(reshape), [x, z], { T: typeAttrOf(s, n.inputs[0]), Tshape: I32 })],
    // Reshape(x, Shape(like)) is reshape_like's pattern; a Const shape is reshape's.
    matches: (r) => dynamicInput(r, 1) && !isShapeNode(r.producer(1)),
    read: (r): Tensor[] => (r.arity(2), [bind1(reshapeDyn as Primitive, [r.input(0), r.input(1)])]),
  },
} satisfies Primitive;

/** segment_sum_dyn(data, segmentIds, numSegments): unsortedSegmentSum with a run-time scalar count. */
export const segmentSumDyn = {
  name: 'unsorted_segment_sum_dyn',
  effect: 'pure',
  infer(ins: AVal[]) {
    checkArity('unsortedSegmentSum', ins, 3);
    checkDTypes('unsortedSegmentSum', ins[2], ['int32'], 'numSegments');
    if (ins[2].shape !== null && ins[2].shape.length !== 0) throw argError('unsortedSegmentSum', 'numSegments must be a scalar', dimsToString(ins[2].shape), 'a scalar', 'Pass the number of segments.');
    const [y] = unsortedSegmentSum.infer(ins.slice(0, 2), { numSegments: 0 });
    return [{ dtype: y.dtype, shape: y.shape === null ? null : [null, ...y.shape.slice(1)] }];
  },
  impl(k: Kernels, [x, ids, n]: Info[]) {
    const numSegments = intValues(n)[0];
    if (numSegments < 0) throw argError('unsortedSegmentSum', 'numSegments must be a non-negative integer', String(numSegments), 'an integer >= 0', 'Pass the number of segments.');
    // The record's own rule on the run-time count (its size check included) before the kernel.
    unsortedSegmentSum.infer([{ dtype: x.dtype as DType, shape: x.shape }, { dtype: 'int32', shape: ids.shape }], { numSegments });
    return unsortedSegmentSum.impl(k, [x, ids], { numSegments });
  },
  vjp: (c, [, ids]) => [gatherDropNegatives(g0(c), ids), null, null],
  saves: 'inputs',
  tf: {
    ops: [tfOpOf(unsortedSegmentSum)],
    write: (s: WriteScope, n, [x, ids, z]) => [s.add(tfOpOf(unsortedSegmentSum), tfOpOf(unsortedSegmentSum), [x, ids, z], { T: typeAttrOf(s, n.inputs[0]), Tindices: I32, Tnumsegments: I32 })],
    matches: (r) => dynamicInput(r, 2),
    read: (r): Tensor[] => (r.arity(3), [bind1(segmentSumDyn as Primitive, [r.input(0), r.input(1), r.input(2)])]),
  },
} satisfies Primitive;

/** Binds slice_dyn: `x` sliced at int32 `begin` with int32 `size` (tensors). */
export const sliceDynOf = (x: Tensor, begin: Tensor, size: Tensor): Tensor => bind1(sliceDyn as Primitive, [x, begin, size]);
/** Binds pad_dyn: `x` padded with zeros by int32 [rank, 2] `paddings`. */
export const padDynOf = (x: Tensor, paddings: Tensor): Tensor => bind1(padDyn as Primitive, [x, paddings]);
/** Binds reshape_dyn: `x` reshaped to the int32 vector `dims`. */
export const reshapeDynOf = (x: Tensor, dims: Tensor): Tensor => bind1(reshapeDyn as Primitive, [x, dims]);
/** Binds unsorted_segment_sum_dyn with a scalar int32 `numSegments` tensor. */
export const segmentSumDynOf = (x: Tensor, ids: Tensor, numSegments: Tensor): Tensor => bind1(segmentSumDyn as Primitive, [x, ids, numSegments]);
/** An int32 constant vector. */
export const ints = (v: readonly number[]): Tensor => convert('ints', Int32Array.from(v), 'int32').t;
