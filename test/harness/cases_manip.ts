// Harness cases for issue 11's manipulation composites: sort/argsort, repeat, roll, meshgrid, sequenceMask, clipByNorm, clipByGlobalNorm, size, rank, tensorScatterNdAdd.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, tfFloat, tfTensors, tfTensor as T } from './case';
import { Ref, ref, sizeOf } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_argsort: TfCall = { expr: "lambda x, axis=-1, o={}: tf.argsort(x, axis, opt(o, 'direction', 'ASCENDING'), stable=True)", why: "ef's options object becomes TF's keyword arguments; ef's argsort is stable (TF's default is not)", cases: 'none', extra: [
    { name: 'ascending with ties', args: [T([3, -1, 2, -1, 0.5])], grad: false },
    { name: 'descending rows', args: [IN.t2x3, -1, { direction: 'DESCENDING' }], grad: false },
    { name: 'axis 0', args: [IN.t2x3, 0], grad: false },
  ] };
const TF_clipByGlobalNorm: TfCall = { fn: 'tf.clip_by_global_norm', cases: 'none', extra: [
    { name: 'clipped', args: [tfTensors(T([3, 4]), T([12])), 6.5], grad: false },
    { name: 'not clipped', args: [tfTensors(T([3, 4]), T([12])), tfFloat(20)], grad: false },
  ] };
const TF_clipByNorm: TfCall = { fn: 'tf.clip_by_norm', cases: 'none', params: ['t', 'c', ['axes', null]], extra: [
    { name: 'clipped', args: [T([3, 4]), 2.5] },
    { name: 'not clipped', args: [T([3, 4]), tfFloat(10)] },
    { name: 'axes 1', args: [IN.t2x3, tfFloat(1), [1]] },
  ] };
const TF_meshgrid: TfCall = { expr: "lambda *a: tf.meshgrid(*[x for x in a if not isinstance(x, dict)], indexing=next((x['indexing'] for x in a if isinstance(x, dict)), 'xy'))", why: "ef's trailing options object becomes TF's indexing keyword", cases: 'none', extra: [
    { name: 'xy', args: [T([1, 2, 3]), T([4, 5])], grad: false },
    { name: 'ij', args: [T([1, 2, 3]), T([4, 5]), { indexing: 'ij' }], grad: false },
  ] };
const TF_rank: TfCall = { fn: 'tf.rank', cases: 'none', extra: [
    { name: 'matrix', args: [IN.t2x3], grad: false },
    { name: 'scalar', args: [T(1)], grad: false },
    { name: 'rank 3', args: [IN.t2x3x3], grad: false },
  ] };
const TF_repeat: TfCall = { fn: 'tf.repeat', cases: 'none', params: ['x', 'r', ['axis', null]], extra: [
    { name: 'flat', args: [IN.t2x3, 2] },
    { name: 'axis 1 per element', args: [IN.t2x3, [1, 0, 2], 1] },
    { name: 'axis 0', args: [IN.t2x3, 3, 0] },
  ] };
const TF_roll: TfCall = { fn: 'tf.roll', cases: 'none', extra: [
    { name: 'vector', args: [T([1, 2, 3, 4]), 1, 0] },
    { name: 'negative shift', args: [IN.t2x3, -1, 1] },
    { name: 'two axes', args: [IN.t2x3, [1, 2], [0, 1]] },
    { name: 'big shift', args: [T([1, 2, 3]), 7, 0] },
  ] };
const TF_sequenceMask: TfCall = { expr: "lambda l, m=None, d='bool': tf.sequence_mask(l, m, tf.as_dtype(d))", why: "ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'default maxlen', args: [T([1, 3, 0], 'int32')], grad: false },
    { name: 'maxlen 4', args: [T([2, 0], 'int32'), 4], grad: false },
    { name: 'float32', args: [T([1, 2], 'int32', [2, 1]), 3, 'float32'], grad: false },
  ] };
const TF_size: TfCall = { fn: 'tf.size', cases: 'none', extra: [
    { name: 'matrix', args: [IN.t2x3], grad: false },
    { name: 'scalar', args: [T(1)], grad: false },
    { name: 'empty', args: [T([], undefined, [0, 3])], grad: false },
  ] };
const TF_sort: TfCall = { expr: "lambda x, axis=-1, o={}: tf.sort(x, axis, opt(o, 'direction', 'ASCENDING'))", why: "ef's options object becomes TF's keyword arguments", cases: 'none', extra: [
    { name: 'ascending', args: [T([3, -1, 2, -1, 0.5])], grad: false },
    { name: 'descending rows', args: [IN.t2x3, -1, { direction: 'DESCENDING' }], grad: false },
    { name: 'axis 0', args: [IN.t2x3, 0], grad: false },
    { name: 'int32', args: [T([3, -7, 2147483647, -2147483648], 'int32')], grad: false },
  ] };
const TF_tensorScatterNdAdd: TfCall = { fn: 'tf.tensor_scatter_nd_add', cases: 'none', extra: [
    { name: 'elements with repeats', args: [T([1, 2, 3, 4]), T([1, 3, 1], 'int32', [3, 1]), T([9, 10, -1])] },
    { name: 'rows', args: [IN.t2x3, T([0], 'int32', [1, 1]), T([7, 8, 9], undefined, [1, 3])] },
    { name: 'int32', args: [T([1, 2], 'int32'), T([0], 'int32', [1, 1]), T([5], 'int32')], grad: false },
  ] };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const rows = (x: Ref): number[][] => {
  const n = x.shape[x.rank - 1];
  return Array.from({ length: x.size / n }, (_, r) => Array.from({ length: n }, (_, j) => x.num(r * n + j)));
};
const sortRef = (desc: boolean, want: 'values' | 'indices') => (x: Ref): Ref => {
  const out = rows(x).flatMap((row) => {
    const order = row.map((_, j) => j).sort((p, q) => (desc ? row[q] - row[p] : row[p] - row[q]) || p - q);
    return want === 'values' ? order.map((j) => row[j]) : order;
  });
  return new Ref(x.shape, out, want === 'values' ? x.dtype : 'int32');
};
const l2 = (xs: number[]): number => Math.sqrt(xs.reduce((a, v) => a + v * v, 0));

export const manipCases: ForwardCase[] = [
  { prim: 'top_k', api: 'sort', tfCall: TF_sort, name: 'sort ascending (last axis)', inputs: [F([3, 4])], op: (x) => ef.sort(x), ref: sortRef(false, 'values') },
  { prim: 'top_k', api: 'sort', tfCall: TF_sort, name: 'sort descending int32', inputs: [{ shape: [5], dtype: 'int32', values: [3, -1, 4, 1, 5] }], op: (x) => ef.sort(x, -1, { direction: 'DESCENDING' }), ref: sortRef(true, 'values') },
  { prim: 'top_k', api: 'sort', tfCall: TF_sort, name: 'sort along axis 0', inputs: [F([4, 2])], op: (x) => ef.sort(x, 0), ref: (x) => { const t = new Ref([2, 4], [0, 2, 4, 6, 1, 3, 5, 7].map((i) => x.data[i]), 'float32'); const s = sortRef(false, 'values')(t); return new Ref([4, 2], [0, 4, 1, 5, 2, 6, 3, 7].map((i) => s.data[i]), 'float32'); } },
  { prim: 'top_k', api: 'argsort', tfCall: TF_argsort, name: 'argsort ascending with ties (stable)', inputs: [{ shape: [6], values: [2, 1, 2, 0, 1, 3] }], op: (x) => ef.argsort(x), ref: sortRef(false, 'indices') },
  { prim: 'top_k', api: 'argsort', tfCall: TF_argsort, name: 'argsort descending of a matrix', inputs: [F([2, 5])], op: (x) => ef.argsort(x, -1, { direction: 'DESCENDING' }), ref: sortRef(true, 'indices') },
  { prim: 'gather', api: 'repeat', tfCall: TF_repeat, name: 'repeat a count, flattened', inputs: [F([2, 2])], op: (x) => ef.repeat(x, 2), ref: (x) => new Ref([8], x.data.flatMap((v) => [v, v]), 'float32') },
  { prim: 'gather', api: 'repeat', tfCall: TF_repeat, name: 'repeat per-row counts on axis 0', inputs: [F([3, 2])], op: (x) => ef.repeat(x, [2, 0, 1], 0), ref: (x) => new Ref([3, 2], [0, 1, 0, 1, 4, 5].map((i) => x.data[i]), 'float32') },
  { prim: 'gather', api: 'roll', tfCall: TF_roll, name: 'roll by 1 on axis 0', inputs: [F([4])], op: (x) => ef.roll(x, 1, 0), ref: (x) => new Ref([4], [3, 0, 1, 2].map((i) => x.data[i]), 'float32') },
  { prim: 'gather', api: 'roll', tfCall: TF_roll, name: 'roll two axes with a negative shift', inputs: [F([2, 3])], op: (x) => ef.roll(x, [1, -1], [0, 1]), ref: (x) => new Ref([2, 3], [4, 5, 3, 1, 2, 0].map((i) => x.data[i]), 'float32') },
  { prim: 'broadcast_to', api: 'meshgrid', tfCall: TF_meshgrid, name: 'meshgrid xy', inputs: [F([3]), F([2])], op: (a, b) => ef.meshgrid(a, b), ref: (a, b) => [new Ref([2, 3], [0, 1, 2, 0, 1, 2].map((i) => a.data[i]), 'float32'), new Ref([2, 3], [0, 0, 0, 1, 1, 1].map((i) => b.data[i]), 'float32')] },
  { prim: 'broadcast_to', api: 'meshgrid', tfCall: TF_meshgrid, name: 'meshgrid ij', inputs: [F([3]), F([2])], op: (a, b) => ef.meshgrid(a, b, { indexing: 'ij' }), ref: (a, b) => [new Ref([3, 2], [0, 0, 1, 1, 2, 2].map((i) => a.data[i]), 'float32'), new Ref([3, 2], [0, 1, 0, 1, 0, 1].map((i) => b.data[i]), 'float32')] },
  { prim: 'less', api: 'sequenceMask', tfCall: TF_sequenceMask, name: 'sequenceMask with maxlen', inputs: [{ shape: [3], dtype: 'int32', values: [1, 3, 0] }], op: (l) => ef.sequenceMask(l, 4), ref: (l) => new Ref([3, 4], Array.from({ length: 12 }, (_, i) => i % 4 < l.num(Math.floor(i / 4))), 'bool') },
  { prim: 'less', api: 'sequenceMask', tfCall: TF_sequenceMask, name: 'sequenceMask float32 with default maxlen', inputs: [{ shape: [2], dtype: 'int32', values: [2, 1] }], op: (l) => ef.sequenceMask(l, null, 'float32'), ref: () => ref([[1, 1], [1, 0]]) },
  { prim: 'maximum', api: 'clipByNorm', tfCall: TF_clipByNorm, name: 'clipByNorm clips a long vector', inputs: [{ shape: [3], values: [3, 4, 12] }], op: (x) => ef.clipByNorm(x, 2), ref: (x) => new Ref([3], x.data.map((v) => (Number(v) * 2) / l2(x.data.map(Number))), 'float32') },
  { prim: 'maximum', api: 'clipByNorm', tfCall: TF_clipByNorm, name: 'clipByNorm per row (axes 1) keeps short rows', inputs: [F([2, 3])], op: (x) => ef.clipByNorm(x, 1.5, 1), ref: (x) => { const rs = rows(x); return new Ref([2, 3], rs.flatMap((r) => r.map((v) => (v * 1.5) / Math.max(l2(r), 1.5))), 'float32'); } },
  { prim: 'add_n', api: 'clipByGlobalNorm', tfCall: TF_clipByGlobalNorm, name: 'clipByGlobalNorm of two tensors', inputs: [F([2]), F([3])], op: (a, b) => { const [c, n] = ef.clipByGlobalNorm([a, b], 1); return [...c, n]; }, ref: (a, b) => { const g = l2([...a.data, ...b.data].map(Number)); const s = 1 / Math.max(g, 1); return [new Ref([2], a.data.map((v) => Number(v) * s), 'float32'), new Ref([3], b.data.map((v) => Number(v) * s), 'float32'), ref(g)]; } },
  { prim: 'fill', api: 'size', tfCall: TF_size, name: 'size of a matrix', grad: false, inputs: [F([2, 3])], op: (x) => ef.size(x), ref: (x) => ref(sizeOf(x.shape), 'int32') },
  { prim: 'fill', api: 'rank', tfCall: TF_rank, name: 'rank of a rank-3 tensor', grad: false, inputs: [F([2, 1, 2])], op: (x) => ef.rank(x), ref: () => ref(3, 'int32') },
  { prim: 'scatter_nd', api: 'tensorScatterNdAdd', tfCall: TF_tensorScatterNdAdd, name: 'tensorScatterNdAdd rows', inputs: [F([3, 2]), { shape: [2, 1], dtype: 'int32', values: [2, 0] }, F([2, 2])], op: (t, i, u) => ef.tensorScatterNdAdd(t, i, u), ref: (t, _i, u) => new Ref([3, 2], t.data.map((v, k) => Number(v) + (k >= 4 ? u.num(k - 4) : k < 2 ? u.num(k + 2) : 0)), 'float32') },
];

export const manipErrors: ErrorCase[] = [
  { prim: 'top_k', api: 'sort', name: 'sort with a bad direction', inputs: [F([3])], run: (x) => ef.sort(x, -1, { direction: 'UP' as 'ASCENDING' }), op: 'sort', got: '"UP"', expected: "'ASCENDING' or 'DESCENDING'" },
  { prim: 'top_k', api: 'argsort', name: 'argsort axis out of range', inputs: [F([3])], run: (x) => ef.argsort(x, 1), op: 'argsort', got: 'axis 1 for a rank-1 tensor', expected: 'an integer in [-1, 1)' },
  { prim: 'gather', api: 'repeat', name: 'repeat counts of the wrong length', inputs: [F([3])], run: (x) => ef.repeat(x, [1, 2], 0), op: 'repeat', got: 'array of length 2', expected: 'an integer >= 0 or 3 of them' },
  { prim: 'gather', api: 'roll', name: 'roll shift/axis count mismatch', inputs: [F([3])], run: (x) => ef.roll(x, [1, 2], 0), op: 'roll', got: 'array of length 2 and 0', expected: 'matching integer lists' },
  { prim: 'broadcast_to', api: 'meshgrid', name: 'meshgrid bad indexing', inputs: [F([2])], run: (x) => ef.meshgrid(x, { indexing: 'yx' as 'xy' }), op: 'meshgrid', got: '"yx"', expected: "'xy' or 'ij'" },
  { prim: 'less', api: 'sequenceMask', name: 'sequenceMask float lengths', inputs: [F([2])], run: (l) => ef.sequenceMask(l, 3), op: 'sequenceMask', got: 'float32', expected: 'int32' },
  { prim: 'maximum', api: 'clipByNorm', name: 'clipByNorm axis out of range', inputs: [F([2])], run: (x) => ef.clipByNorm(x, 1, 3), op: 'reduceSum', got: 'axis 3 for a rank-1 tensor', expected: 'an integer in [-1, 1)' },
  { prim: 'add_n', api: 'clipByGlobalNorm', name: 'clipByGlobalNorm non-positive clipNorm', inputs: [F([2])], run: (x) => ef.clipByGlobalNorm([x], 0), op: 'clipByGlobalNorm', got: '0', expected: 'a number > 0' },
  { prim: 'scatter_nd', api: 'tensorScatterNdAdd', name: 'tensorScatterNdAdd updates of the wrong shape', inputs: [F([3]), { shape: [1, 1], dtype: 'int32', values: [0] }, F([2])], run: (t, i, u) => ef.tensorScatterNdAdd(t, i, u), op: 'scatterNd', got: 'indices [1,1], updates [2], shape [3]', expected: 'updates of shape [1]' },
];
