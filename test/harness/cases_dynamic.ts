// Harness cases for the run-time-shaped records (sizes as int32 tensors): slice_dyn, pad_dyn, reshape_dyn, unsorted_segment_sum_dyn.
import * as ef from 'eagerflow';
import type { ErrorCase, ForwardCase, InputSpec } from './case';
import * as R from './ref';
import type { Ref } from './ref';
import { tfNone } from './case';

const F = (shape: number[]): InputSpec => ({ shape });
const I = (shape: number[]): InputSpec => ({ shape, dtype: 'int32', gen: 'int' });
const idx = (values: number[], shape = [values.length]): InputSpec => ({ shape, dtype: 'int32', values });
const ints = (r: Ref): number[] => Array.from({ length: r.size }, (_, i) => r.num(i));

/** The records have no public op (gradients and composites traced with unknown dims bind them): bind directly. */
const bindDyn = (name: 'slice_dyn' | 'pad_dyn' | 'reshape_dyn' | 'unsorted_segment_sum_dyn') => (...xs: ef.Tensor[]): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES[name], xs, {})[0];
const NO_SEGMENT_SUM = 'the converter has no UnsortedSegmentSum mapping (tf.registerOp can add one)';

export const dynamicCases: ForwardCase[] = [
  { prim: 'slice_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): slice with run-time begin/size (traced with unknown dims); its values are slice.json'), tfOps: ['Slice'], name: 'slice_dyn rows 1.. and all columns', inputs: [F([3, 4]), idx([1, 0]), idx([2, -1])], op: bindDyn('slice_dyn'), ref: (x, b, s) => R.slice(x, ints(b), ints(s)) },
  { prim: 'slice_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): slice with run-time begin/size (traced with unknown dims); its values are slice.json'), tfOps: ['Slice'], name: 'slice_dyn inner block of a rank-3 tensor', inputs: [F([2, 3, 4]), idx([0, 1, 1]), idx([2, 2, 2])], op: bindDyn('slice_dyn'), ref: (x, b, s) => R.slice(x, ints(b), ints(s)) },
  { prim: 'slice_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): slice with run-time begin/size (traced with unknown dims); its values are slice.json'), tfOps: ['Slice'], name: 'slice_dyn empty', inputs: [F([3, 2]), idx([3, 0]), idx([0, 2])], op: bindDyn('slice_dyn'), ref: (x, b, s) => R.slice(x, ints(b), ints(s)) },
  { prim: 'slice_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): slice with run-time begin/size (traced with unknown dims); its values are slice.json'), tfOps: ['Slice'], name: 'slice_dyn int32', inputs: [I([4]), idx([1]), idx([2])], op: bindDyn('slice_dyn'), ref: (x, b, s) => R.slice(x, ints(b), ints(s)) },
  { prim: 'pad_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): pad with run-time paddings (traced with unknown dims); its values are pad.json'), tfOps: ['Pad'], name: 'pad_dyn of a matrix', inputs: [F([2, 3]), idx([1, 0, 2, 1], [2, 2])], op: bindDyn('pad_dyn'), ref: (x, p) => R.pad(x, [[p.num(0), p.num(1)], [p.num(2), p.num(3)]]) },
  { prim: 'pad_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): pad with run-time paddings (traced with unknown dims); its values are pad.json'), tfOps: ['Pad'], name: 'pad_dyn zero pads', inputs: [F([3]), idx([0, 0], [1, 2])], op: bindDyn('pad_dyn'), ref: (x) => x },
  { prim: 'reshape_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): reshape to a run-time shape (traced with unknown dims); its values are reshape.json'), tfOps: ['Reshape'], name: 'reshape_dyn to [3, -1]', inputs: [F([2, 3]), idx([3, -1])], op: bindDyn('reshape_dyn'), ref: (x) => R.reshape(x, [3, 2]) },
  { prim: 'reshape_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): reshape to a run-time shape (traced with unknown dims); its values are reshape.json'), tfOps: ['Reshape'], name: 'reshape_dyn to rank 3', inputs: [F([4, 3]), idx([2, 2, 3])], op: bindDyn('reshape_dyn'), ref: (x) => R.reshape(x, [2, 2, 3]) },
  {
    prim: 'unsorted_segment_sum_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): unsortedSegmentSum with a run-time segment count (traced with unknown dims); its values are unsortedSegmentSum.json'), tfOps: ['UnsortedSegmentSum'], noConverter: NO_SEGMENT_SUM, name: 'unsorted_segment_sum_dyn rows with an empty segment', inputs: [F([3, 2]), idx([3, 0, 3]), idx([4], [])],
    op: bindDyn('unsorted_segment_sum_dyn'), ref: (x, i) => R.segmentSum(x, i, 4),
  },
  {
    prim: 'unsorted_segment_sum_dyn', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): unsortedSegmentSum with a run-time segment count (traced with unknown dims); its values are unsortedSegmentSum.json'), tfOps: ['UnsortedSegmentSum'], noConverter: NO_SEGMENT_SUM, name: 'unsorted_segment_sum_dyn drops negative ids', inputs: [F([4]), idx([0, -1, 1, 0]), idx([2], [])],
    op: bindDyn('unsorted_segment_sum_dyn'), ref: (x) => segmentRef(x, [0, -1, 1, 0], 2),
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
  { prim: 'slice_dyn', name: 'slice_dyn out of bounds', inputs: [F([3, 4]), idx([2, 0]), idx([2, -1])], run: bindDyn('slice_dyn'), op: 'slice', got: 'begin 2, size 2 for dim 3', expected: '0 <= begin <= begin + size <= 3' },
  { prim: 'slice_dyn', name: 'slice_dyn begin of the wrong length', inputs: [F([3, 4]), idx([0]), idx([1, 1])], run: bindDyn('slice_dyn'), op: 'slice', got: 'shape [1] for an input of shape [3,4]', expected: '[2]' },
  { prim: 'pad_dyn', name: 'pad_dyn negative padding', inputs: [F([2]), idx([-1, 0], [1, 2])], run: bindDyn('pad_dyn'), op: 'pad', got: '[[-1,0]]', expected: 'non-negative integer paddings' },
  { prim: 'reshape_dyn', name: 'reshape_dyn wrong size', inputs: [F([2, 3]), idx([4])], run: bindDyn('reshape_dyn'), op: 'reshape', got: 'a tensor with 6 elements (shape [2,3]) to [4]', expected: 'a shape with the same number of elements' },
  { prim: 'unsorted_segment_sum_dyn', name: 'unsorted_segment_sum_dyn id out of range', inputs: [F([3]), idx([0, 2, 1]), idx([2], [])], run: bindDyn('unsorted_segment_sum_dyn'), op: 'unsortedSegmentSum', got: 'segmentIds[1] = 2', expected: 'ids < numSegments = 2' },
];
