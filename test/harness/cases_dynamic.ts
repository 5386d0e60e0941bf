// Harness cases for the tensor forms of slice, pad, reshape and unsortedSegmentSum: their sizes as int32 tensor inputs
// (TF's own operands), the records' form for sizes only the graph knows.
import * as ef from 'eagerflow';
import type { ErrorCase, ForwardCase, InputSpec } from './case';
import * as R from './ref';
import type { Ref } from './ref';
import { TF_reshape, TF_slice, TF_unsortedSegmentSum } from './cases_shape';
import { TF_pad } from './cases_tf';
import { TF_fill } from './cases_misc';

const F = (shape: number[]): InputSpec => ({ shape });
const I = (shape: number[]): InputSpec => ({ shape, dtype: 'int32', gen: 'int' });
const idx = (values: number[], shape = [values.length]): InputSpec => ({ shape, dtype: 'int32', values });
const ints = (r: Ref): number[] => Array.from({ length: r.size }, (_, i) => r.num(i));

/** The record bound in its tensor form (sizes as tensor inputs, no params), as gradients traced with unknown dims bind it. */
const bindDyn = (name: 'slice' | 'pad' | 'reshape' | 'unsorted_segment_sum' | 'fill') => (...xs: ef.Tensor[]): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES[name], xs, {})[0];
const NO_SEGMENT_SUM = 'the converter has no UnsortedSegmentSum mapping (tf.registerOp can add one)';

export const dynamicCases: ForwardCase[] = [
  // fill's tensor form (TF's Fill with dims and value as operands): the value's gradient is the cotangent's sum.
  { prim: 'fill', tfCall: TF_fill, tfOps: ['Fill'], name: 'fill with tensor dims and value', inputs: [idx([2, 3]), F([])], op: bindDyn('fill'), ref: (_d, v) => R.ref([[v.num(0), v.num(0), v.num(0)], [v.num(0), v.num(0), v.num(0)]]) },
  { prim: 'slice', tfCall: TF_slice, tfOps: ['Slice'], name: 'slice with tensor sizes: rows 1.. and all columns', inputs: [F([3, 4]), idx([1, 0]), idx([2, -1])], op: (x, b, z) => ef.slice(x, b, z), ref: (x, b, s) => R.slice(x, ints(b), ints(s)) },
  { prim: 'slice', tfCall: TF_slice, tfOps: ['Slice'], name: 'slice with tensor sizes: inner block of a rank-3 tensor', inputs: [F([2, 3, 4]), idx([0, 1, 1]), idx([2, 2, 2])], op: (x, b, z) => ef.slice(x, b, z), ref: (x, b, s) => R.slice(x, ints(b), ints(s)) },
  { prim: 'slice', tfCall: TF_slice, tfOps: ['Slice'], name: 'slice with tensor sizes: empty', inputs: [F([3, 2]), idx([3, 0]), idx([0, 2])], op: (x, b, z) => ef.slice(x, b, z), ref: (x, b, s) => R.slice(x, ints(b), ints(s)) },
  { prim: 'slice', tfCall: TF_slice, tfOps: ['Slice'], name: 'slice with tensor sizes: int32', inputs: [I([4]), idx([1]), idx([2])], op: (x, b, z) => ef.slice(x, b, z), ref: (x, b, s) => R.slice(x, ints(b), ints(s)) },
  { prim: 'pad', tfCall: TF_pad, tfOps: ['Pad'], name: 'pad with tensor sizes: of a matrix', inputs: [F([2, 3]), idx([1, 0, 2, 1], [2, 2])], op: (x, q) => ef.pad(x, q), ref: (x, p) => R.pad(x, [[p.num(0), p.num(1)], [p.num(2), p.num(3)]]) },
  { prim: 'pad', tfCall: TF_pad, tfOps: ['Pad'], name: 'pad with tensor sizes: zero pads', inputs: [F([3]), idx([0, 0], [1, 2])], op: (x, q) => ef.pad(x, q), ref: (x) => x },
  { prim: 'reshape', tfCall: TF_reshape, tfOps: ['Reshape'], name: 'reshape with tensor sizes: to [3, -1]', inputs: [F([2, 3]), idx([3, -1])], op: bindDyn('reshape'), ref: (x) => R.reshape(x, [3, 2]) },
  { prim: 'reshape', tfCall: TF_reshape, tfOps: ['Reshape'], name: 'reshape with tensor sizes: to rank 3', inputs: [F([4, 3]), idx([2, 2, 3])], op: bindDyn('reshape'), ref: (x) => R.reshape(x, [2, 2, 3]) },
  {
    prim: 'unsorted_segment_sum', api: 'unsortedSegmentSum', tfCall: TF_unsortedSegmentSum, tfOps: ['UnsortedSegmentSum'], noConverter: NO_SEGMENT_SUM, name: 'unsorted_segment_sum with tensor sizes: rows with an empty segment', inputs: [F([3, 2]), idx([3, 0, 3]), idx([4], [])],
    op: (x, i, n) => ef.unsortedSegmentSum(x, i, n), ref: (x, i) => R.segmentSum(x, i, 4),
  },
  {
    prim: 'unsorted_segment_sum', api: 'unsortedSegmentSum', tfCall: TF_unsortedSegmentSum, tfOps: ['UnsortedSegmentSum'], noConverter: NO_SEGMENT_SUM, name: 'unsorted_segment_sum with tensor sizes: drops negative ids', inputs: [F([4]), idx([0, -1, 1, 0]), idx([2], [])],
    op: (x, i, n) => ef.unsortedSegmentSum(x, i, n), ref: (x) => segmentRef(x, [0, -1, 1, 0], 2),
  },
];

/** A segment sum over a vector that drops negative ids (TF's rule). */
function segmentRef(x: Ref, ids: number[], n: number): Ref {
  const out = new Array<number>(n).fill(0);
  ids.forEach((s, i) => {
    if (s >= 0) out[s] += x.num(i);
  });
  return R.ref(out);
}

export const dynamicErrors: ErrorCase[] = [
  { prim: 'slice', name: 'slice with tensor sizes: out of bounds', inputs: [F([3, 4]), idx([2, 0]), idx([2, -1])], run: bindDyn('slice'), op: 'slice', got: 'begin 2, size 2 for dim 3', expected: '0 <= begin <= begin + size <= 3' },
  { prim: 'slice', name: 'slice with tensor sizes: begin of the wrong length', inputs: [F([3, 4]), idx([0]), idx([1, 1])], run: bindDyn('slice'), op: 'slice', got: 'shape [1] for an input of shape [3,4]', expected: '[2]' },
  { prim: 'pad', name: 'pad with tensor sizes: negative padding', inputs: [F([2]), idx([-1, 0], [1, 2])], run: bindDyn('pad'), op: 'pad', got: '[[-1, 0]]', expected: 'non-negative integer paddings' },
  { prim: 'reshape', name: 'reshape with tensor sizes: wrong size', inputs: [F([2, 3]), idx([4])], run: bindDyn('reshape'), op: 'reshape', got: 'a tensor with 6 elements (shape [2,3]) to [4]', expected: 'a shape with the same number of elements' },
  { prim: 'unsorted_segment_sum', name: 'unsorted_segment_sum with tensor sizes: id out of range', inputs: [F([3]), idx([0, 2, 1]), idx([2], [])], run: bindDyn('unsorted_segment_sum'), op: 'unsortedSegmentSum', got: 'segmentIds[1] = 2', expected: 'ids < numSegments = 2' },
];
