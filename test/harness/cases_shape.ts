// Harness cases for shape primitives: reshape, broadcasting helpers, transpose, concat/stack, slice, pad, gather, ...
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, tfTensors, tfTensor as T, tfNone } from './case';
import * as R from './ref';
import { Ref, ref } from './ref';
import * as IN from './tf_inputs';
import { TF_pad } from './cases_tf';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_broadcastTo: TfCall = { fn: 'tf.broadcast_to', cases: 'none', extra: [
    { name: '[3] -> [2,3]', args: [T([1, 2, 3]), [2, 3]] },
    { name: '[2,1] -> [2,3]', args: [T([1, 2], undefined, [2, 1]), [2, 3]] },
    { name: 'scalar -> [2,2]', args: [T(1.5), [2, 2]] },
    { name: 'same shape', args: [T([1, 2]), [2]] },
    { name: 'to empty', args: [T([1]), [0, 3]] },
    { name: 'incompatible', args: [T([1, 2, 3]), [2, 2]], grad: false },
    { name: 'higher rank', args: [T([1, 2], undefined, [1, 2]), [2]], grad: false },
  ] };
const TF_concat: TfCall = { fn: 'tf.concat', cases: 'none', params: ['xs', ['axis', 0]], extra: [
    { name: 'axis 0', args: [tfTensors(IN.t2x3, T([1, 2, 3], undefined, [1, 3])), 0] },
    { name: 'axis 1', args: [tfTensors(IN.t2x3, IN.t2x3), 1] },
    { name: 'axis -1', args: [tfTensors(IN.t2x3, T([9, 8], undefined, [2, 1])), -1] },
    { name: 'one tensor', args: [tfTensors(IN.t2x3), 0] },
    { name: 'with an empty piece', args: [tfTensors(T([], undefined, [0, 3]), IN.t2x3), 0] },
    { name: 'mismatched dims', args: [tfTensors(IN.t2x3, T([1, 2], undefined, [1, 2])), 0], grad: false },
    { name: 'rank mismatch', args: [tfTensors(IN.t2x3, T([1, 2, 3])), 0], grad: false },
    { name: 'axis out of range', args: [tfTensors(IN.t2x3, IN.t2x3), 2], grad: false },
    { name: 'axis -3 out of range', args: [tfTensors(IN.t2x3, IN.t2x3), -3], grad: false },
    { name: 'axis -2', args: [tfTensors(IN.t2x3, IN.t2x3), -2] },
    { name: 'dtype mismatch', args: [tfTensors(T([1]), T([1], 'int32')), 0], grad: false },
    { name: 'scalars', args: [tfTensors(T(1), T(2)), 0], grad: false },
    { name: 'strings', args: [tfTensors(T(['a', 'bc', '', 'd'], 'string'), T(['x'], 'string')), 0], grad: false },
    { name: 'int32', args: [tfTensors(T([1], 'int32'), T([2, 3], 'int32')), 0], grad: false },
  ] };
const TF_expandDims: TfCall = { fn: 'tf.expand_dims', cases: 'none', extra: [
    { name: 'axis 0', args: [T([1, 2]), 0] },
    { name: 'axis -1', args: [T([1, 2]), -1] },
    { name: 'axis 1', args: [T([1, 2]), 1] },
    { name: 'axis -2', args: [T([1, 2]), -2] },
    { name: 'axis 2 out of range', args: [T([1, 2]), 2], grad: false },
    { name: 'axis -3 out of range', args: [T([1, 2]), -3], grad: false },
    { name: 'scalar', args: [T(3), 0] },
    { name: 'strings', args: [T(['a', 'bc', '', 'd'], 'string'), 1], grad: false },
  ] };
const TF_gather: TfCall = { fn: 'tf.gather', cases: 'none', params: ['x', 'i', ['axis', 0]], keywords: { axis: 'axis' }, extra: [
    { name: 'axis 0', args: [IN.t2x3, T([1, 0, 1], 'int32')] },
    { name: 'axis 1', args: [IN.t2x3, T([2, 0], 'int32'), 1] },
    { name: 'axis -1', args: [IN.t2x3, T([2], 'int32'), -1] },
    { name: '2-D indices', args: [T([1, 2, 3]), T([0, 2, 1, 1], 'int32', [2, 2])] },
    { name: 'scalar index', args: [IN.t2x3, T(1, 'int32')] },
    { name: 'empty indices', args: [IN.t2x3, T([], 'int32'), 0] },
    { name: '2-D indices on axis 1', args: [IN.t2x3, T([2, 0, 1, 1], 'int32', [2, 2]), 1] },
    { name: 'index out of range', args: [IN.t2x3, T([2], 'int32')], grad: false },
    { name: 'negative index', args: [IN.t2x3, T([-1], 'int32')], grad: false },
    { name: 'axis out of range', args: [IN.t2x3, T([0], 'int32'), 2], grad: false },
    { name: 'float indices', args: [IN.t2x3, T([0])], grad: false },
    { name: 'strings', args: [T(['a', 'bc', '', 'd'], 'string'), T([3, 0, 0], 'int32')] },
    { name: 'int32 params', args: [IN.t9i, T([6, 7], 'int32')] },
  ] };
export const TF_reshape: TfCall = { fn: 'tf.reshape', cases: 'none', extra: [
    { name: '[2,3] -> [3,2]', args: [IN.t2x3, [3, 2]] },
    { name: '-1', args: [IN.t2x3, [-1]] },
    { name: '[-1, 2]', args: [IN.t2x3, [-1, 2]] },
    { name: 'scalar -> [1]', args: [T(2), [1]] },
    { name: '[1] -> []', args: [T([2]), []] },
    { name: 'empty [0,3] -> [-1, 0]', args: [T([], undefined, [0, 3]), [-1, 0]] },
    { name: 'empty [0,3] -> [3, -1]', args: [T([], undefined, [0, 3]), [3, -1]] },
    { name: 'size mismatch', args: [IN.t2x3, [4]], grad: false },
    { name: 'two -1', args: [IN.t2x3, [-1, -1]], grad: false },
    { name: 'int32', args: [T([1, 2, 3, 4], 'int32'), [2, 2]], grad: false },
    { name: 'strings', args: [T(['a', 'bc', '', 'd'], 'string'), [2, 2]], grad: false },
    { name: 'bool', args: [T([true, false], 'bool'), [2, 1]], grad: false },
  ] };
const TF_shape: TfCall = { fn: 'tf.shape', cases: 'none', extra: [
    { name: 'matrix', args: [IN.t2x3], grad: false },
    { name: 'scalar', args: [T(1)], grad: false },
    { name: 'empty', args: [T([], undefined, [0, 3])], grad: false },
  ] };
export const TF_slice: TfCall = { fn: 'tf.slice', cases: 'none', extra: [
    { name: 'begin [0,1] size [2,-1]', args: [IN.t2x3, [0, 1], [2, -1]] },
    { name: 'size 0', args: [IN.t2x3, [1, 0], [0, 2]] },
    { name: 'whole', args: [IN.t2x3, [0, 0], [-1, -1]] },
    { name: 'out of bounds', args: [IN.t2x3, [1, 1], [2, 1]], grad: false },
    { name: 'negative begin', args: [IN.t2x3, [-1, 0], [1, 1]], grad: false },
    { name: 'fractional begin', args: [IN.t2x3, [0.5, 0], [1, 1]], grad: false },
    { name: 'wrong length', args: [IN.t2x3, [0], [1]], grad: false },
    { name: 'strings', args: [T(['a', 'bc', '', 'd'], 'string'), [1], [2]], grad: false },
    { name: 'int32', args: [IN.t9i, [5], [-1]], grad: false },
  ] };
const TF_squeeze: TfCall = { fn: 'tf.squeeze', cases: 'none', params: ['x', ['axis', null]], extra: [
    { name: 'all', args: [T([1, 2], undefined, [1, 2, 1])] },
    { name: 'axis 0', args: [T([1, 2], undefined, [1, 2, 1]), 0] },
    { name: 'axis -1', args: [T([1, 2], undefined, [1, 2, 1]), -1] },
    { name: 'axis of size 2', args: [T([1, 2], undefined, [1, 2, 1]), 1], grad: false },
    { name: 'axis out of range', args: [T([1, 2], undefined, [1, 2, 1]), 3], grad: false },
    { name: 'empty', args: [T([], undefined, [0, 1]), 1] },
    { name: 'to a scalar', args: [T([4], undefined, [1, 1]), null] },
    { name: 'negative axes', args: [T([1, 2], undefined, [1, 2, 1]), [-1, 0]] },
  ] };
const TF_stack: TfCall = { fn: 'tf.stack', cases: 'none', params: ['xs', ['axis', 0]], extra: [
    { name: 'axis 0', args: [tfTensors(T([1, 2]), T([3, 4])), 0] },
    { name: 'axis 1', args: [tfTensors(T([1, 2]), T([3, 4])), 1] },
    { name: 'axis -1', args: [tfTensors(IN.t2x3, IN.t2x3), -1] },
    { name: 'scalars', args: [tfTensors(T(1), T(2), T(-0)), 0] },
    { name: 'mismatched shapes', args: [tfTensors(T([1, 2]), T([3])), 0], grad: false },
    { name: 'axis out of range', args: [tfTensors(T([1]), T([2])), 2], grad: false },
    { name: 'strings', args: [tfTensors(T(['a', 'bc', '', 'd'], 'string'), T(['a', 'bc', '', 'd'], 'string')), 1], grad: false },
    { name: 'bools', args: [tfTensors(T([true], 'bool'), T([false], 'bool')), 0], grad: false },
  ] };
const TF_transpose: TfCall = { fn: 'tf.transpose', cases: 'none', params: ['x', ['perm', null]], extra: [
    { name: 'default', args: [IN.t2x3] },
    { name: '[1, 0]', args: [IN.t2x3, [1, 0]] },
    { name: 'rank 3 [2, 0, 1]', args: [IN.t2x3x4, [2, 0, 1]] },
    { name: 'negative perm [-1, 0, 1]', args: [IN.t2x3x4, [-1, 0, 1]] },
    { name: 'not a permutation', args: [IN.t2x3, [0, 0]], grad: false },
    { name: 'wrong length', args: [IN.t2x3, [0]], grad: false },
    { name: 'scalar', args: [T(1.5), null] },
    { name: 'empty', args: [T([], undefined, [0, 3]), null] },
    { name: 'strings', args: [T(['a', 'b', 'c', 'd'], 'string', [2, 2]), [1, 0]], grad: false },
  ] };
export const TF_unsortedSegmentSum: TfCall = { fn: 'tf.math.unsorted_segment_sum', cases: 'none', extra: [
    { name: 'basic', args: [T([1, 2, 3, 4]), T([0, 1, 0, 2], 'int32'), 3] },
    { name: 'rows', args: [IN.t2x3, T([1, 1], 'int32'), 2] },
    { name: 'negative ids dropped', args: [T([1, 2, 3]), T([0, -1, 1], 'int32'), 2] },
    { name: 'id out of range', args: [T([1, 2]), T([0, 2], 'int32'), 2], grad: false },
    { name: 'multi-dimensional ids', args: [IN.t2x2x3, T([0, 1, 1, 2], 'int32', [2, 2]), 3] },
    { name: 'ids shape mismatch', args: [IN.t2x3, T([0, 1, 0], 'int32'), 2], grad: false },
    { name: 'int32 data', args: [T([1, 2, 3], 'int32'), T([0, 0, 1], 'int32'), 2], grad: false },
    { name: 'zero segments', args: [T([1, 2]), T([-1, -1], 'int32'), 0] },
    { name: 'empty data', args: [T([], undefined, [0, 2]), T([], 'int32'), 3] },
  ] };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const I = (shape: number[], gen: Gen = 'int'): InputSpec => ({ shape, dtype: 'int32', gen });
const S = (shape: number[]): InputSpec => ({ shape, dtype: 'string' });
const idx = (values: number[], shape = [values.length]): InputSpec => ({ shape, dtype: 'int32', values });

/** Internal primitives (gradient helpers) have no public op of their own: bind them directly. */
const bind2 = (name: 'reshape_like' | 'broadcast_like' | 'reduce_like') => (x: ef.Tensor, like: ef.Tensor): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES[name], [x, like], {})[0];
const expand = (x: Ref, axis: number): Ref => {
  const a = axis < 0 ? axis + x.rank + 1 : axis;
  return new Ref([...x.shape.slice(0, a), 1, ...x.shape.slice(a)], x.data, x.dtype);
};
/** Sums `x` down to `shape` (the reference of reduce_like). */
const reduceTo = (x: Ref, shape: number[]): Ref => {
  const lead = x.rank - shape.length;
  const axes = x.shape.map((d, i) => (i < lead || (shape[i - lead] === 1 && d !== 1) ? i : -1)).filter((i) => i >= 0);
  return R.reshape(R.reduce(x, axes, true, 0, (a, b) => a + b), shape);
};

const NO_SEGMENT_SUM = 'the converter has no UnsortedSegmentSum mapping (tf.registerOp can add one)';

const reshapes: ForwardCase[] = [
  { prim: 'reshape', tfCall: TF_reshape, tfOps: ['Reshape'], name: 'reshape 2x3 -> 3x2', inputs: [F([2, 3])], op: (x) => ef.reshape(x, [3, 2]), ref: (x) => R.reshape(x, [3, 2]) },
  { prim: 'reshape', tfCall: TF_reshape, tfOps: ['Reshape'], name: 'reshape with -1', inputs: [F([2, 3])], op: (x) => ef.reshape(x, [-1]), ref: (x) => R.reshape(x, [6]) },
  { prim: 'reshape', tfCall: TF_reshape, tfOps: ['Reshape'], name: 'reshape to rank 3 with -1', inputs: [I([2, 3])], op: (x) => ef.reshape(x, [3, -1, 1]), ref: (x) => R.reshape(x, [3, 2, 1]) },
  { prim: 'reshape', tfCall: TF_reshape, tfOps: ['Reshape'], name: 'reshape scalar to [1, 1]', inputs: [F([])], op: (x) => ef.reshape(x, [1, 1]), ref: (x) => R.reshape(x, [1, 1]) },
  { prim: 'reshape', tfCall: TF_reshape, tfOps: ['Reshape'], name: 'reshape strings', inputs: [S([4])], op: (x) => ef.reshape(x, [2, 2]), ref: (x) => R.reshape(x, [2, 2]) },
  { prim: 'reshape_like', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): the gradient rules\' reshape to another tensor\'s shape (TF writes Reshape(x, Shape(like)))'), name: 'reshapeLike', inputs: [F([2, 3]), F([3, 2])], op: bind2('reshape_like'), ref: (x, l) => R.reshape(x, l.shape) },
  { prim: 'broadcast_like', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): the gradient rules\' broadcast to another tensor\'s shape (TF writes BroadcastTo(x, Shape(like)))'), name: 'broadcastLike', inputs: [F([3]), F([2, 3])], op: bind2('broadcast_like'), ref: (x, l) => R.broadcastTo(x, l.shape) },
  { prim: 'broadcast_like', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): the gradient rules\' broadcast to another tensor\'s shape (TF writes BroadcastTo(x, Shape(like)))'), name: 'broadcastLike of [2, 1] to [2, 3]', inputs: [F([2, 1]), F([2, 3])], op: bind2('broadcast_like'), ref: (x, l) => R.broadcastTo(x, l.shape) },
  { prim: 'reduce_like', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): the gradient rules\' sum down to another tensor\'s shape (TF writes Sum over BroadcastGradientArgs)'), name: 'reduceLike leading axis', inputs: [F([2, 3]), F([3])], op: bind2('reduce_like'), ref: (x, l) => reduceTo(x, l.shape) },
  { prim: 'reduce_like', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): the gradient rules\' sum down to another tensor\'s shape (TF writes Sum over BroadcastGradientArgs)'), name: 'reduceLike kept axis', inputs: [F([2, 3]), F([2, 1])], op: bind2('reduce_like'), ref: (x, l) => reduceTo(x, l.shape) },
  { prim: 'reduce_like', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): the gradient rules\' sum down to another tensor\'s shape (TF writes Sum over BroadcastGradientArgs)'), name: 'reduceLike same shape', inputs: [F([2, 2]), F([2, 2])], op: bind2('reduce_like'), ref: (x) => x },
  { prim: 'broadcast_to', api: 'broadcastTo', tfCall: TF_broadcastTo, tfOps: ['BroadcastTo'], name: 'broadcastTo [3] -> [2, 3]', inputs: [F([3])], op: (x) => ef.broadcastTo(x, [2, 3]), ref: (x) => R.broadcastTo(x, [2, 3]) },
  { prim: 'broadcast_to', api: 'broadcastTo', tfCall: TF_broadcastTo, tfOps: ['BroadcastTo'], name: 'broadcastTo [2, 1] -> [2, 2, 3]', inputs: [F([2, 1])], op: (x) => ef.broadcastTo(x, [2, 2, 3]), ref: (x) => R.broadcastTo(x, [2, 2, 3]) },
  { prim: 'broadcast_to', api: 'broadcastTo', tfCall: TF_broadcastTo, tfOps: ['BroadcastTo'], name: 'broadcastTo scalar int', inputs: [I([])], op: (x) => ef.broadcastTo(x, [2, 2]), ref: (x) => R.broadcastTo(x, [2, 2]) },
];

const transposes: ForwardCase[] = [
  { prim: 'transpose', tfCall: TF_transpose, tfOps: ['Transpose'], name: 'transpose matrix', inputs: [F([2, 3])], op: (x) => ef.transpose(x), ref: (x) => R.transpose(x) },
  { prim: 'transpose', tfCall: TF_transpose, tfOps: ['Transpose'], name: 'transpose perm [1, 0, 2]', inputs: [F([2, 3, 2])], op: (x) => ef.transpose(x, [1, 0, 2]), ref: (x) => R.transpose(x, [1, 0, 2]) },
  { prim: 'transpose', tfCall: TF_transpose, tfOps: ['Transpose'], name: 'transpose perm [2, 0, 1] int', inputs: [I([2, 3, 2])], op: (x) => ef.transpose(x, [2, 0, 1]), ref: (x) => R.transpose(x, [2, 0, 1]) },
  { prim: 'transpose', tfCall: TF_transpose, tfOps: ['Transpose'], name: 'transpose vector is identity', inputs: [F([3])], op: (x) => ef.transpose(x), ref: (x) => x },
];

const concats: ForwardCase[] = [
  { prim: 'concat', tfCall: TF_concat, tfOps: ['ConcatV2'], name: 'concat axis 0', inputs: [F([2, 3]), F([1, 3])], op: (a, b) => ef.concat([a, b], 0), ref: (a, b) => R.concat([a, b], 0) },
  { prim: 'concat', tfCall: TF_concat, tfOps: ['ConcatV2'], name: 'concat axis 1', inputs: [F([2, 1]), F([2, 3])], op: (a, b) => ef.concat([a, b], 1), ref: (a, b) => R.concat([a, b], 1) },
  { prim: 'concat', tfCall: TF_concat, tfOps: ['ConcatV2'], name: 'concat three along axis -1', inputs: [F([2, 1, 2]), F([2, 1, 1]), F([2, 1, 3])], op: (a, b, c) => ef.concat([a, b, c], -1), ref: (a, b, c) => R.concat([a, b, c], -1) },
  { prim: 'concat', tfCall: TF_concat, tfOps: ['ConcatV2'], name: 'concat a single tensor', inputs: [F([3])], op: (a) => ef.concat([a]), ref: (a) => a },
  { prim: 'concat', tfCall: TF_concat, tfOps: ['ConcatV2'], name: 'concat int32 vectors', inputs: [I([2]), I([3])], op: (a, b) => ef.concat([a, b]), ref: (a, b) => R.concat([a, b], 0) },
  { prim: 'concat', tfCall: TF_concat, tfOps: ['ConcatV2'], name: 'concat strings', inputs: [S([1]), S([2])], op: (a, b) => ef.concat([a, b]), ref: (a, b) => R.concat([a, b], 0) },
  { prim: 'concat', tfCall: TF_concat, tfOps: ['ConcatV2'], name: 'concat tensor with JS array', inputs: [F([2])], op: (a) => ef.concat([a, [7]]), ref: (a) => R.concat([a, ref([7])], 0) },
  { prim: 'concat', api: 'stack', tfCall: TF_stack, tfOps: ['ConcatV2'], name: 'stack axis 0', inputs: [F([3]), F([3])], op: (a, b) => ef.stack([a, b]), ref: (a, b) => R.concat([expand(a, 0), expand(b, 0)], 0) },
  { prim: 'concat', api: 'stack', tfCall: TF_stack, tfOps: ['ConcatV2'], name: 'stack axis -1', inputs: [F([2, 2]), F([2, 2]), F([2, 2])], op: (a, b, c) => ef.stack([a, b, c], -1), ref: (a, b, c) => R.concat([a, b, c].map((x) => expand(x, -1)), -1) },
  { prim: 'concat', api: 'stack', tfCall: TF_stack, tfOps: ['ConcatV2'], name: 'stack scalars', inputs: [F([]), F([])], op: (a, b) => ef.stack([a, b]), ref: (a, b) => R.concat([expand(a, 0), expand(b, 0)], 0) },
];

const slices: ForwardCase[] = [
  { prim: 'slice', tfCall: TF_slice, tfOps: ['Slice'], name: 'slice begin/size', inputs: [F([3, 4])], op: (x) => ef.slice(x, [1, 1], [2, 2]), ref: (x) => R.slice(x, [1, 1], [2, 2]) },
  { prim: 'slice', tfCall: TF_slice, tfOps: ['Slice'], name: 'slice size -1', inputs: [F([3, 4])], op: (x) => ef.slice(x, [0, 2], [-1, -1]), ref: (x) => R.slice(x, [0, 2], [-1, -1]) },
  { prim: 'slice', tfCall: TF_slice, tfOps: ['Slice'], name: 'slice with a number begin', inputs: [F([4, 2])], op: (x) => ef.slice(x, 1, 2), ref: (x) => R.slice(x, [1, 0], [2, -1]) },
  { prim: 'slice', tfCall: TF_slice, tfOps: ['Slice'], name: 'slice empty', inputs: [I([3])], op: (x) => ef.slice(x, [1], [0]), ref: (x) => R.slice(x, [1], [0]) },
  { prim: 'pad', tfCall: TF_pad, tfOps: ['Pad'], name: 'pad 2d', inputs: [F([2, 2])], op: (x) => ef.pad(x, [[1, 0], [0, 2]]), ref: (x) => R.pad(x, [[1, 0], [0, 2]]) },
  { prim: 'pad', tfCall: TF_pad, tfOps: ['Pad'], name: 'pad int32 vector', inputs: [I([3])], op: (x) => ef.pad(x, [[2, 1]]), ref: (x) => R.pad(x, [[2, 1]]) },
  { prim: 'pad', tfCall: TF_pad, tfOps: ['Pad'], name: 'pad nothing', inputs: [F([2])], op: (x) => ef.pad(x, [[0, 0]]), ref: (x) => x },
];

const gathers: ForwardCase[] = [
  { prim: 'gather', tfCall: TF_gather, tfOps: ['GatherV2'], name: 'gather vector with repeats', inputs: [F([4]), idx([2, 0, 2])], op: (x, i) => ef.gather(x, i), ref: (x, i) => R.gather(x, i, 0) },
  { prim: 'gather', tfCall: TF_gather, tfOps: ['GatherV2'], name: 'gather rows', inputs: [F([3, 2]), idx([1, 1, 0, 2])], op: (x, i) => ef.gather(x, i), ref: (x, i) => R.gather(x, i, 0) },
  { prim: 'gather', tfCall: TF_gather, tfOps: ['GatherV2'], name: 'gather axis 1 with 2-D indices', inputs: [F([2, 3]), idx([0, 2, 2, 1], [2, 2])], op: (x, i) => ef.gather(x, i, 1), ref: (x, i) => R.gather(x, i, 1) },
  { prim: 'gather', tfCall: TF_gather, tfOps: ['GatherV2'], name: 'gather axis -1 of rank 3', inputs: [F([2, 2, 3]), idx([2, 0])], op: (x, i) => ef.gather(x, i, -1), ref: (x, i) => R.gather(x, i, -1) },
  { prim: 'gather', tfCall: TF_gather, tfOps: ['GatherV2'], name: 'gather with a JS index array', inputs: [F([3])], op: (x) => ef.gather(x, [2, 1]), ref: (x) => R.gather(x, ref([2, 1], 'int32'), 0) },
  { prim: 'gather', tfCall: TF_gather, tfOps: ['GatherV2'], name: 'gather strings', noConverter: "the converter's GatherV2 takes numeric tensors only", inputs: [S([3]), idx([0, 0, 2])], op: (x, i) => ef.gather(x, i), ref: (x, i) => R.gather(x, i, 0) },
  { prim: 'unsorted_segment_sum', api: 'unsortedSegmentSum', tfCall: TF_unsortedSegmentSum, tfOps: ['UnsortedSegmentSum'], noConverter: NO_SEGMENT_SUM, name: 'unsortedSegmentSum vector', inputs: [F([4]), idx([0, 2, 0, 1])], op: (x, i) => ef.unsortedSegmentSum(x, i, 3), ref: (x, i) => R.segmentSum(x, i, 3) },
  { prim: 'unsorted_segment_sum', api: 'unsortedSegmentSum', tfCall: TF_unsortedSegmentSum, tfOps: ['UnsortedSegmentSum'], noConverter: NO_SEGMENT_SUM, name: 'unsortedSegmentSum rows with an empty segment', inputs: [F([3, 2]), idx([3, 0, 3])], op: (x, i) => ef.unsortedSegmentSum(x, i, 4), ref: (x, i) => R.segmentSum(x, i, 4) },
  { prim: 'unsorted_segment_sum', api: 'unsortedSegmentSum', tfCall: TF_unsortedSegmentSum, tfOps: ['UnsortedSegmentSum'], noConverter: NO_SEGMENT_SUM, name: 'unsortedSegmentSum int32', inputs: [I([3]), idx([1, 1, 0])], op: (x, i) => ef.unsortedSegmentSum(x, i, 2), ref: (x, i) => R.segmentSum(x, i, 2) },
];

const dims: ForwardCase[] = [
  { prim: 'expand_dims', api: 'expandDims', tfCall: TF_expandDims, tfOps: ['ExpandDims'], name: 'expandDims axis 0', inputs: [F([3])], op: (x) => ef.expandDims(x, 0), ref: (x) => expand(x, 0) },
  { prim: 'expand_dims', api: 'expandDims', tfCall: TF_expandDims, tfOps: ['ExpandDims'], name: 'expandDims axis -1', inputs: [F([2, 2])], op: (x) => ef.expandDims(x, -1), ref: (x) => expand(x, -1) },
  { prim: 'expand_dims', api: 'expandDims', tfCall: TF_expandDims, tfOps: ['ExpandDims'], name: 'expandDims middle int', inputs: [I([2, 2])], op: (x) => ef.expandDims(x, 1), ref: (x) => expand(x, 1) },
  { prim: 'expand_dims', api: 'expandDims', tfCall: TF_expandDims, tfOps: ['ExpandDims'], name: 'expandDims of a scalar', inputs: [F([])], op: (x) => ef.expandDims(x, 0), ref: (x) => expand(x, 0) },
  { prim: 'squeeze', tfCall: TF_squeeze, tfOps: ['Squeeze'], name: 'squeeze all', inputs: [F([1, 3, 1])], op: (x) => ef.squeeze(x), ref: (x) => R.reshape(x, [3]) },
  { prim: 'squeeze', tfCall: TF_squeeze, tfOps: ['Squeeze'], name: 'squeeze one axis', inputs: [F([1, 3, 1])], op: (x) => ef.squeeze(x, -1), ref: (x) => R.reshape(x, [1, 3]) },
  { prim: 'squeeze', tfCall: TF_squeeze, tfOps: ['Squeeze'], name: 'squeeze to scalar', inputs: [I([1, 1])], op: (x) => ef.squeeze(x), ref: (x) => R.reshape(x, []) },
  { prim: 'shape', tfCall: TF_shape, name: 'shape of a matrix', inputs: [F([2, 3])], op: (x) => ef.shape(x), ref: (x) => ref(x.shape, 'int32') },
  { prim: 'shape', tfCall: TF_shape, name: 'shape of a scalar', inputs: [S([])], op: (x) => ef.shape(x), ref: () => new Ref([0], [], 'int32') },
  { prim: 'shape', tfCall: TF_shape, name: 'shape of an empty tensor', inputs: [I([0, 2])], op: (x) => ef.shape(x), ref: () => ref([0, 2], 'int32') },
];

export const shapeCases: ForwardCase[] = [...reshapes, ...transposes, ...concats, ...slices, ...gathers, ...dims];

const bcast = 'shapes whose trailing dims are equal or 1';

export const shapeErrors: ErrorCase[] = [
  { prim: 'reshape', name: 'reshape wrong size', inputs: [F([2, 3])], run: (x) => ef.reshape(x, [4]), op: 'reshape', got: 'a tensor with 6 elements (shape [2,3]) to [4]', expected: 'a shape with the same number of elements' },
  { prim: 'reshape', name: 'reshape two -1', inputs: [F([2, 3])], run: (x) => ef.reshape(x, [-1, -1]), op: 'reshape', got: '[-1, -1]', expected: 'non-negative dims and at most one -1' },
  { prim: 'reshape', name: 'reshape JS array wrong size (no leak)', inputs: [], run: () => ef.reshape([1, 2, 3], [2, 2]), op: 'reshape', got: 'a tensor with 3 elements (shape [3]) to [2, 2]', expected: 'a shape with the same number of elements' },
  { prim: 'reshape_like', name: 'reshapeLike wrong size', inputs: [F([2, 3]), F([4])], run: (x, l) => bind2('reshape_like')(x, l), op: 'reshape_like', got: 'a tensor with 6 elements (shape [2,3]) to [4]', expected: 'a shape with the same number of elements' },
  { prim: 'broadcast_like', name: 'broadcastLike incompatible', inputs: [F([3]), F([2, 2])], run: (x, l) => bind2('broadcast_like')(x, l), op: 'broadcast_like', got: '[3] and [2,2]', expected: bcast },
  { prim: 'reduce_like', name: 'reduceLike incompatible', inputs: [F([2, 3]), F([2])], run: (x, l) => bind2('reduce_like')(x, l), op: 'reduce_like', got: '[2,3] to [2]', expected: 'a shape that broadcasts to [2,3]' },
  { prim: 'broadcast_to', api: 'broadcastTo', name: 'broadcastTo incompatible', inputs: [F([3])], run: (x) => ef.broadcastTo(x, [2, 2]), op: 'broadcastTo', got: '[3] and [2,2]', expected: bcast },
  { prim: 'broadcast_to', api: 'broadcastTo', name: 'broadcastTo lower rank', inputs: [F([1, 2])], run: (x) => ef.broadcastTo(x, [2]), op: 'broadcastTo', got: '[1,2]', expected: 'rank <= 1' },
  { prim: 'transpose', name: 'transpose bad perm', inputs: [F([2, 3])], run: (x) => ef.transpose(x, [0, 0]), op: 'transpose', got: 'perm [0, 0] for rank 2', expected: 'a permutation of 0..1' },
  { prim: 'transpose', name: 'transpose perm of wrong length', inputs: [F([2, 3])], run: (x) => ef.transpose(x, [1, 0, 2]), op: 'transpose', got: 'perm [1, 0, 2] for rank 2', expected: 'a permutation of 0..1' },
  { prim: 'concat', name: 'concat rank mismatch', inputs: [F([2]), F([1, 1])], run: (a, b) => ef.concat([a, b]), op: 'concat', got: 'shape [1,1]', expected: 'rank 1' },
  { prim: 'concat', name: 'concat dim mismatch', inputs: [F([2, 2]), F([1, 3])], run: (a, b) => ef.concat([a, b], 0), op: 'concat', got: 'shape [1,3]', expected: 'dim 2 on axis 1' },
  { prim: 'concat', name: 'concat dtype mismatch', inputs: [F([2]), I([2])], run: (a, b) => ef.concat([a, b]), op: 'concat', got: 'int32', expected: 'float32' },
  { prim: 'concat', name: 'concat axis out of range', inputs: [F([2]), F([2])], run: (a, b) => ef.concat([a, b], 1), op: 'concat', got: 'axis 1 for a rank-1 tensor', expected: 'an integer in [-1, 1)' },
  { prim: 'concat', name: 'concat of nothing', inputs: [], run: () => ef.concat([]), op: 'concat', got: '0 tensors', expected: 'at least 1' },
  { prim: 'concat', name: 'concat of JS arrays with mismatched ranks (no leak)', inputs: [], run: () => ef.concat([[1, 2], [[1]]]), op: 'concat', got: 'shape [1,1]', expected: 'rank 1' },
  { prim: 'concat', api: 'stack', name: 'stack shape mismatch', inputs: [F([2]), F([3])], run: (a, b) => ef.stack([a, b]), op: 'stack', got: '(3,)', expected: '(2,)' },
  { prim: 'slice', name: 'slice out of bounds', inputs: [F([3, 4])], run: (x) => ef.slice(x, [2, 0], [2, 1]), op: 'slice', got: 'begin 2, size 2 for dim 3', expected: '0 <= begin <= begin + size <= 3' },
  { prim: 'slice', name: 'slice begin of wrong length', inputs: [F([3, 4])], run: (x) => ef.slice(x, [0], [1]), op: 'slice', got: 'begin [0], size [1] for shape [3,4]', expected: '2 entries each' },
  { prim: 'pad', name: 'pad wrong number of pairs', inputs: [F([2, 2])], run: (x) => ef.pad(x, [[1, 1]]), op: 'pad', got: '1 pairs', expected: '2' },
  { prim: 'pad', name: 'pad negative', inputs: [F([2])], run: (x) => ef.pad(x, [[-1, 0]]), op: 'pad', got: '[[-1, 0]]', expected: 'non-negative integer paddings' },
  { prim: 'gather', name: 'gather float indices', inputs: [F([3]), F([2])], run: (x, i) => ef.gather(x, i), op: 'gather', got: 'float32', expected: 'int32' },
  { prim: 'gather', name: 'gather index out of range', inputs: [F([3]), idx([0, 3])], run: (x, i) => ef.gather(x, i), op: 'gather', got: 'index 3', expected: 'indices in [0, 3)' },
  { prim: 'gather', name: 'gather axis out of range', inputs: [F([3]), idx([0])], run: (x, i) => ef.gather(x, i, 1), op: 'gather', got: 'axis 1 for a rank-1 tensor', expected: 'an integer in [-1, 1)' },
  { prim: 'unsorted_segment_sum', api: 'unsortedSegmentSum', name: 'unsortedSegmentSum float ids', inputs: [F([3]), F([3])], run: (x, i) => ef.unsortedSegmentSum(x, i, 2), op: 'unsortedSegmentSum', got: 'float32', expected: 'int32' },
  { prim: 'unsorted_segment_sum', api: 'unsortedSegmentSum', name: 'unsortedSegmentSum id out of range', inputs: [F([3]), idx([1, 3, -1])], run: (x, i) => ef.unsortedSegmentSum(x, i, 3), op: 'unsortedSegmentSum', got: 'segmentIds[1] = 3', expected: 'ids < numSegments = 3' },
  { prim: 'unsorted_segment_sum', api: 'unsortedSegmentSum', name: 'unsortedSegmentSum ids shape mismatch', inputs: [F([3]), idx([0, 1])], run: (x, i) => ef.unsortedSegmentSum(x, i, 2), op: 'unsortedSegmentSum', got: '[2]', expected: 'a prefix of the data shape [3]' },
  { prim: 'expand_dims', api: 'expandDims', name: 'expandDims axis out of range', inputs: [F([2])], run: (x) => ef.expandDims(x, 2), op: 'expandDims', got: 'axis 2 for a rank-1 tensor', expected: 'an integer in [-2, 2)' },
  { prim: 'squeeze', name: 'squeeze a non-1 axis', inputs: [F([2, 2])], run: (x) => ef.squeeze(x, 1), op: 'squeeze', got: 'dim 2 in shape [2,2]', expected: 'a dim of size 1' },
  { prim: 'squeeze', name: 'squeeze axis out of range', inputs: [F([1])], run: (x) => ef.squeeze(x, 1), op: 'squeeze', got: 'axis 1 for a rank-1 tensor', expected: 'an integer in [-1, 1)' },
];
