// Harness cases for unsortedSegmentMax/Min/Prod, searchsorted and tensorScatterNdUpdate (issue 11).
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, tfTensor as T } from './case';
import { Ref } from './ref';
import * as IN from './tf_inputs';
import { TF_where } from './cases_elementwise';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_booleanMask: TfCall = { fn: 'tf.boolean_mask', cases: 'none', params: ['t', 'm', ['axis', 0]], keywords: { axis: 'axis' }, extra: [
    { name: 'vector', args: [T([1, 2, 3]), T([true, false, true], 'bool')] },
    { name: 'rows', args: [IN.t2x3, T([false, true], 'bool')] },
    { name: '2-D mask', args: [IN.t2x3, T([true, false, true, false, true, false], 'bool', [2, 3])] },
    { name: 'axis 1', args: [IN.t2x3, T([true, false, true], 'bool'), 1] },
    { name: 'mask shape mismatch', args: [IN.t2x3, T([true, false, true], 'bool')], grad: false },
  ] };
const TF_math_bincount: TfCall = { expr: "lambda a, o={}: tf.math.bincount(a, minlength=opt(o, 'minlength', None), maxlength=opt(o, 'maxlength', None), dtype=tf.as_dtype(opt(o, 'dtype', 'int32')))", why: "ef's options object becomes TF's keyword arguments; ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'counts', args: [T([1, 1, 3, 0], 'int32')], grad: false },
    { name: 'minlength', args: [T([1, 1], 'int32'), { minlength: 4 }], grad: false },
    { name: 'maxlength', args: [T([0, 5, 1], 'int32'), { maxlength: 2 }], grad: false },
    { name: 'empty', args: [T([], 'int32')], grad: false },
  ] };
/** unsortedSegmentMax/Min/Prod's TF calls (the same cases: empty segments, dropped ids and ties, special values, int32). */
const tfSegment = (fn: string): TfCall => ({ fn, cases: 'none', extra: [
    { name: 'basic', args: [T([1, -2, 3, 0.5, 4]), T([0, 1, 0, 2, 1], 'int32'), 3] },
    { name: 'empty segment', args: [T([1, 2]), T([0, 0], 'int32'), 3] },
    { name: 'rows', args: [IN.t2x3, T([1, 1], 'int32'), 2] },
    { name: 'negative ids dropped', args: [T([1, 2, 3]), T([0, -1, 1], 'int32'), 2] },
    { name: 'dropped ties', args: [T([2, 2, -1, 5, 3]), T([0, -1, 1, -1, 1], 'int32'), 2] },
    { name: 'special values', args: [T([NaN, 1, Infinity, -0]), T([0, 0, 1, 1], 'int32'), 2] },
    { name: 'int32', args: [T([3, -7, 2, 5], 'int32'), T([0, 1, 1, 0], 'int32'), 2], grad: false },
    { name: 'id out of range', args: [T([1, 2]), T([0, 2], 'int32'), 2], grad: false },
  ] });
const TF_math_unsortedSegmentMax = tfSegment('tf.math.unsorted_segment_max');
const TF_math_unsortedSegmentMin = tfSegment('tf.math.unsorted_segment_min');
const TF_math_unsortedSegmentProd = tfSegment('tf.math.unsorted_segment_prod');
const TF_searchsorted: TfCall = { expr: "lambda s, v, o={}: tf.searchsorted(s, v, side=opt(o, 'side', 'LEFT').lower(), out_type=tf.int32)", why: "ef's options object's side ('LEFT' or 'RIGHT') becomes TF's lower-case side keyword", cases: 'none', extra: [
    { name: 'left', args: [T([1, 2, 2, 5]), T([0, 2, 3, 9])], grad: false },
    { name: 'right', args: [T([1, 2, 2, 5]), T([0, 2, 3, 9]), { side: 'RIGHT' }], grad: false },
    { name: 'rows', args: [T([1, 3, 5, 0, 2, 4], undefined, [2, 3]), T([3, 6, 1, -1], undefined, [2, 2])], grad: false },
    { name: 'int32', args: [T([1, 3, 3, 8], 'int32'), T([3, 4], 'int32'), { side: 'RIGHT' }], grad: false },
  ] };
const TF_tensorScatterNdUpdate: TfCall = { fn: 'tf.tensor_scatter_nd_update', cases: 'none', extra: [
    { name: 'elements', args: [T([1, 2, 3, 4]), T([1, 3], 'int32', [2, 1]), T([9, 10])] },
    { name: 'rows', args: [IN.t2x3, T([1], 'int32', [1, 1]), T([7, 8, 9], undefined, [1, 3])] },
    { name: 'index out of range', args: [T([1, 2]), T([2], 'int32', [1, 1]), T([5])], grad: false },
  ] };
const TF_unique: TfCall = { fn: 'tf.unique', cases: 'none', extra: [
    { name: 'floats', args: [T([3, 1, 3, 2, 1])], grad: false },
    { name: 'int32', args: [T([7, 7, -1], 'int32')], grad: false },
    { name: 'empty', args: [T([])], grad: false },
  ] };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const ids = (values: number[]): InputSpec => ({ shape: [values.length], dtype: 'int32', values });
const NO_CONV = 'tfjs-converter has no UnsortedSegmentMax/Min/Prod';
const LOWEST = -3.4028234663852886e38;

/** Segment reduction of rows of `data` by `ids` in float64 (empty segments get `empty`). */
function segRef(n: number, empty: number, f: (a: number, b: number) => number) {
  return (data: Ref, ix: Ref): Ref => {
    const inner = data.size / ix.size;
    const out = new Array<number>(n * inner).fill(NaN);
    for (let r = 0; r < ix.size; r++) {
      const s = ix.num(r);
      if (s < 0 || s >= n) continue;
      for (let j = 0; j < inner; j++) {
        const cur = out[s * inner + j];
        out[s * inner + j] = Number.isNaN(cur) ? data.num(r * inner + j) : f(cur, data.num(r * inner + j));
      }
    }
    return new Ref([n, ...data.shape.slice(ix.rank)], out.map((v) => (Number.isNaN(v) ? empty : v)), data.dtype);
  };
}

function searchRef(right: boolean) {
  return (seq: Ref, v: Ref): Ref => {
    const m = seq.shape[seq.rank - 1];
    const k = v.shape[v.rank - 1];
    const out = Array.from({ length: v.size }, (_, i) => {
      const row = Math.floor(i / k);
      let c = 0;
      for (let j = 0; j < m; j++) if (right ? seq.num(row * m + j) <= v.num(i) : seq.num(row * m + j) < v.num(i)) c++;
      return c;
    });
    return new Ref(v.shape, out, 'int32');
  };
}

export const segmentCases: ForwardCase[] = [
  { prim: 'unsorted_segment_max', api: 'math.unsortedSegmentMax', tfCall: TF_math_unsortedSegmentMax, tfOps: ['UnsortedSegmentMax'], noConverter: NO_CONV, name: 'unsortedSegmentMax rows', inputs: [F([4, 2]), ids([0, 1, 0, 2])], op: (d, i) => ef.math.unsortedSegmentMax(d, i, 3), ref: segRef(3, LOWEST, Math.max), grad: [0] },
  // An empty segment holds the lowest float32 (TF); no gradient check there (its 1e38 swamps finite differences).
  { prim: 'unsorted_segment_max', api: 'math.unsortedSegmentMax', tfCall: TF_math_unsortedSegmentMax, tfOps: ['UnsortedSegmentMax'], noConverter: NO_CONV, name: 'unsortedSegmentMax with an empty segment', grad: false, backends: { only: ['cpu'], why: "tfjs-webgl's max reduction starts from -1e20, so a segment of lowest floats reads -1e20" }, inputs: [F([3]), ids([0, 2, 0])], op: (d, i) => ef.math.unsortedSegmentMax(d, i, 3), ref: segRef(3, LOWEST, Math.max) },
  { prim: 'unsorted_segment_min', api: 'math.unsortedSegmentMin', tfCall: TF_math_unsortedSegmentMin, tfOps: ['UnsortedSegmentMin'], noConverter: NO_CONV, name: 'unsortedSegmentMin of a vector', inputs: [F([5]), ids([1, 1, 0, 1, 0])], op: (d, i) => ef.math.unsortedSegmentMin(d, i, 2), ref: segRef(2, -LOWEST, Math.min), grad: [0] },
  { prim: 'unsorted_segment_min', api: 'math.unsortedSegmentMin', tfCall: TF_math_unsortedSegmentMin, tfOps: ['UnsortedSegmentMin'], noConverter: NO_CONV, name: 'unsortedSegmentMin int32 drops negative ids', inputs: [{ shape: [4], dtype: 'int32', values: [4, -2, 7, 1] }, ids([0, -1, 1, 0])], op: (d, i) => ef.math.unsortedSegmentMin(d, i, 2), ref: segRef(2, 2147483647, Math.min) },
  { prim: 'unsorted_segment_prod', api: 'math.unsortedSegmentProd', tfCall: TF_math_unsortedSegmentProd, tfOps: ['UnsortedSegmentProd'], noConverter: NO_CONV, name: 'unsortedSegmentProd rows', inputs: [F([4, 3]), ids([1, 0, 1, 1])], op: (d, i) => ef.math.unsortedSegmentProd(d, i, 3), ref: segRef(3, 1, (a, b) => a * b), grad: [0] },
  { prim: 'unsorted_segment_prod', api: 'math.unsortedSegmentProd', tfCall: TF_math_unsortedSegmentProd, tfOps: ['UnsortedSegmentProd'], noConverter: NO_CONV, name: 'unsortedSegmentProd with a zero (exact gradient)', inputs: [{ shape: [4], values: [2, 0, 1.5, -3] }, ids([0, 0, 1, 0])], op: (d, i) => ef.math.unsortedSegmentProd(d, i, 2), ref: segRef(2, 1, (a, b) => a * b), grad: [0], secondOrder: false },
  // Dropped (negative-id) elements, one equal to segment 0's result: finite differences of the reference give them 0.
  { prim: 'unsorted_segment_max', api: 'math.unsortedSegmentMax', tfCall: TF_math_unsortedSegmentMax, tfOps: ['UnsortedSegmentMax'], noConverter: NO_CONV, name: 'unsortedSegmentMax drops negative ids (zero gradient)', inputs: [{ shape: [4], values: [1.5, 1.5, -0.5, 0.75] }, ids([0, -1, 1, -2])], op: (d, i) => ef.math.unsortedSegmentMax(d, i, 2), ref: segRef(2, LOWEST, Math.max), grad: [0] },
  { prim: 'unsorted_segment_prod', api: 'math.unsortedSegmentProd', tfCall: TF_math_unsortedSegmentProd, tfOps: ['UnsortedSegmentProd'], noConverter: NO_CONV, name: 'unsortedSegmentProd drops negative ids (zero gradient)', inputs: [{ shape: [4, 2], values: [2, -1, 0.5, 3, 1.25, 0.8, -1.5, 2] }, ids([0, -1, 0, -3])], op: (d, i) => ef.math.unsortedSegmentProd(d, i, 2), ref: segRef(2, 1, (a, b) => a * b), grad: [0] },
  { prim: 'searchsorted', tfCall: TF_searchsorted, tfOps: ['LowerBound'], name: 'searchsorted left', grad: false, inputs: [{ shape: [2, 4], values: [0, 1, 1, 3, -2, 0, 5, 9] }, { shape: [2, 3], values: [1, 3, 4, -5, 5, 10] }], op: (s, v) => ef.searchsorted(s, v), ref: searchRef(false) },
  { prim: 'searchsorted', tfCall: TF_searchsorted, tfOps: ['UpperBound'], noConverter: "tfjs-converter's UpperBound returns a [1, n] result for 1-D inputs", name: 'searchsorted right', grad: false, inputs: [{ shape: [5], values: [0, 1, 1, 3, 7] }, { shape: [4], values: [1, 3, -1, 7] }], op: (s, v) => ef.searchsorted(s, v, { side: 'right' as 'RIGHT' }), ref: searchRef(true) },
  { prim: 'tensor_scatter_nd_update', api: 'tensorScatterNdUpdate', tfCall: TF_tensorScatterNdUpdate, tfOps: ['TensorScatterUpdate'], name: 'tensorScatterNdUpdate rows', inputs: [F([3, 2]), { shape: [2, 1], dtype: 'int32', values: [2, 0] }, F([2, 2])], op: (t, i, u) => ef.tensorScatterNdUpdate(t, i, u), ref: (t, _i, u) => new Ref([3, 2], t.data.map((v, k) => (k >= 4 ? u.data[k - 4] : k < 2 ? u.data[k + 2] : v)), 'float32') },
  { prim: 'unique', api: 'unique', tfCall: TF_unique, tfOps: ['Unique'], grad: false, name: 'unique float32 in first-seen order', inputs: [{ shape: [7], values: [4, 1, 4, 2, 1, 7, 2] }], op: (x) => ef.unique(x), ref: (x) => uniqueRef(x) },
  { prim: 'unique', api: 'unique', tfCall: TF_unique, tfOps: ['Unique'], grad: false, name: 'unique int32', inputs: [{ shape: [5], dtype: 'int32', values: [3, 3, -1, 0, -1] }], op: (x) => ef.unique(x), ref: (x) => uniqueRef(x) },
  {
    prim: 'where_coords', api: 'where', tfCall: TF_where, tfOps: ['Where'], noConverter: "the converter's Where is a dynamic op: the harness's execute() refuses it (executeAsync would run it)",
    name: 'where(condition) gives the coordinates of true entries', inputs: [{ shape: [2, 3], dtype: 'bool', values: [true, false, true, false, false, true] }],
    op: (c) => ef.where(c), ref: () => new Ref([3, 2], [0, 0, 0, 2, 1, 2], 'int32'),
  },
  { prim: 'where_coords', api: 'booleanMask', tfCall: TF_booleanMask, tfOps: ['Where'], noConverter: "the converter's Where is a dynamic op: the harness's execute() refuses it (executeAsync would run it)", name: 'booleanMask of a vector', inputs: [F([5]), { shape: [5], dtype: 'bool', values: [true, false, true, true, false] }], op: (x, m) => ef.booleanMask(x, m), ref: (x, m) => new Ref([3], x.data.filter((_, i) => m.data[i]), 'float32') },
  { prim: 'where_coords', api: 'booleanMask', tfCall: TF_booleanMask, tfOps: ['Where'], noConverter: "the converter's Where is a dynamic op: the harness's execute() refuses it (executeAsync would run it)", name: 'booleanMask 2-D mask on axis 1', inputs: [F([2, 2, 3]), { shape: [2, 3], dtype: 'bool', values: [false, true, true, false, false, true] }], op: (x, m) => ef.booleanMask(x, m, 1), ref: (x) => new Ref([2, 3], [1, 2, 5, 7, 8, 11].map((i) => x.data[i]), 'float32') },
  { prim: 'where_coords', api: 'booleanMask', tfCall: TF_booleanMask, tfOps: ['Where'], noConverter: "the converter's Where is a dynamic op: the harness's execute() refuses it (executeAsync would run it)", name: 'booleanMask all false is empty', inputs: [F([3, 2]), { shape: [3], dtype: 'bool', values: [false, false, false] }], op: (x, m) => ef.booleanMask(x, m), ref: () => new Ref([0, 2], [], 'float32') },
  { prim: 'bincount', api: 'math.bincount', tfCall: TF_math_bincount, tfOps: ['Bincount'], name: 'bincount counts (int32)', inputs: [ids([1, 4, 1, 0, 4, 4])], op: (a) => ef.math.bincount(a), ref: (a) => binRef(a, null, 0) },
  { prim: 'bincount', api: 'math.bincount', tfCall: TF_math_bincount, tfOps: ['Bincount'], name: 'bincount weights and minlength', grad: false, inputs: [ids([2, 0, 2]), F([3])], op: (a, w) => ef.math.bincount(a, { weights: w, minlength: 5 }), ref: (a, w) => binRef(a, w, 5) },
  { prim: 'bincount', api: 'math.bincount', tfCall: TF_math_bincount, tfOps: ['Bincount'], name: 'bincount capped by maxlength', inputs: [ids([0, 3, 1, 1])], op: (a) => ef.math.bincount(a, { maxlength: 2 }), ref: (a) => binRef(a, null, 0, 2) },
];

/** TF's bincount in float64: size max(max + 1, minlength) capped by maxlength; values past the size are dropped. */
function binRef(a: Ref, w: Ref | null, minlength: number, maxlength?: number): Ref {
  let n = Math.max(Math.max(...a.data.map(Number)) + 1, minlength);
  if (maxlength !== undefined) n = Math.min(n, maxlength);
  const out = new Array<number>(n).fill(0);
  a.data.forEach((v, i) => {
    if (Number(v) < n) out[Number(v)] += w === null ? 1 : w.num(i);
  });
  return new Ref([n], out, w === null ? 'int32' : 'float32');
}

function uniqueRef(x: Ref): { y: Ref; idx: Ref } {
  const seen: number[] = [];
  const idx = x.data.map((v) => {
    const k = seen.indexOf(Number(v));
    if (k >= 0) return k;
    seen.push(Number(v));
    return seen.length - 1;
  });
  return { y: new Ref([seen.length], seen, x.dtype), idx: new Ref(x.shape, idx, 'int32') };
}

export const segmentErrors: ErrorCase[] = [
  { prim: 'unsorted_segment_max', api: 'math.unsortedSegmentMax', name: 'unsortedSegmentMax ids shape mismatch', inputs: [F([3, 2]), ids([0, 1])], run: (d, i) => ef.math.unsortedSegmentMax(d, i, 2), op: 'unsortedSegmentMax', got: 'ids [2] for data [3,2]', expected: 'a prefix of [3,2]' },
  { prim: 'unsorted_segment_min', api: 'math.unsortedSegmentMin', name: 'unsortedSegmentMin float ids', inputs: [F([2]), F([2])], run: (d, i) => ef.math.unsortedSegmentMin(d, i, 2), op: 'unsortedSegmentMin', got: 'float32', expected: 'int32' },
  // TF's CPU kernels raise on an id >= numSegments (negative ids are dropped); the message names the position and the id.
  { prim: 'unsorted_segment_max', api: 'math.unsortedSegmentMax', name: 'unsortedSegmentMax id out of range', inputs: [F([3]), ids([0, -1, 2])], run: (d, i) => ef.math.unsortedSegmentMax(d, i, 2), op: 'unsortedSegmentMax', got: 'segmentIds[2] = 2', expected: 'ids < numSegments = 2' },
  { prim: 'unsorted_segment_min', api: 'math.unsortedSegmentMin', name: 'unsortedSegmentMin id out of range', inputs: [F([2, 2]), ids([5, 0])], run: (d, i) => ef.math.unsortedSegmentMin(d, i, 3), op: 'unsortedSegmentMin', got: 'segmentIds[0] = 5', expected: 'ids < numSegments = 3' },
  { prim: 'unsorted_segment_prod', api: 'math.unsortedSegmentProd', name: 'unsortedSegmentProd 2-D id out of range', inputs: [F([2, 2]), { shape: [2, 2], dtype: 'int32', values: [0, 1, 1, 4] }], run: (d, i) => ef.math.unsortedSegmentProd(d, i, 2), op: 'unsortedSegmentProd', got: 'segmentIds[1, 1] = 4', expected: 'ids < numSegments = 2' },
  { prim: 'unsorted_segment_prod', api: 'math.unsortedSegmentProd', name: 'unsortedSegmentProd any id with zero segments', inputs: [F([1]), ids([0])], run: (d, i) => ef.math.unsortedSegmentProd(d, i, 0), op: 'unsortedSegmentProd', got: 'segmentIds[0] = 0', expected: 'ids < numSegments = 0' },
  { prim: 'unsorted_segment_prod', api: 'math.unsortedSegmentProd', name: 'unsortedSegmentProd negative numSegments', inputs: [F([2]), ids([0, 0])], run: (d, i) => ef.math.unsortedSegmentProd(d, i, -1), op: 'unsortedSegmentProd', got: '-1', expected: 'an integer >= 0' },
  { prim: 'searchsorted', name: 'searchsorted leading dims mismatch', inputs: [F([2, 3]), F([3, 1])], run: (s, v) => ef.searchsorted(s, v), op: 'searchsorted', got: '[2,3] and [3,1]', expected: 'equal ranks >= 1 with equal leading dims' },
  { prim: 'tensor_scatter_nd_update', api: 'tensorScatterNdUpdate', name: 'tensorScatterNdUpdate dtype mismatch', inputs: [F([3]), ids([0]), { shape: [1], dtype: 'int32', values: [1] }], run: (t, i, u) => ef.tensorScatterNdUpdate(t, i, u), op: 'tensorScatterNdUpdate', got: 'float32 and int32', expected: 'matching dtypes' },
  { prim: 'unique', api: 'unique', name: 'unique of a matrix', inputs: [F([2, 2])], run: (x) => ef.unique(x), op: 'unique', got: '[2,2]', expected: 'a rank-1 tensor' },
  { prim: 'where_coords', api: 'booleanMask', name: 'booleanMask float mask', inputs: [F([2]), F([2])], run: (x, m) => ef.booleanMask(x, m), op: 'booleanMask', got: 'float32', expected: 'bool' },
  { prim: 'where_coords', api: 'booleanMask', name: 'booleanMask shape mismatch', inputs: [F([3]), { shape: [2], dtype: 'bool', values: [true, false] }], run: (x, m) => ef.booleanMask(x, m), op: 'booleanMask', got: 'mask (2,) for tensor (3,) at axis 0', expected: '[3]' },
  { prim: 'bincount', api: 'math.bincount', name: 'bincount weights of the wrong length', inputs: [ids([0, 1]), F([3])], run: (a, w) => ef.math.bincount(a, { weights: w }), op: 'bincount', got: '[3] for arr [2]', expected: '[2] or no weights' },
];
