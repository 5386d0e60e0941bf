// Harness cases for issue 11's manipulation records: tile, reverse, unstack, split, oneHot, gatherNd, scatterNd, linspace.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, tfFloat, tfTensor as T } from './case';
import { Ref, Value, ravel, sizeOf, unravel } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_gatherNd: TfCall = { fn: 'tf.gather_nd', cases: 'none', extra: [
    { name: 'elements', args: [IN.t2x3, T([0, 1, 1, 2], 'int32', [2, 2])] },
    { name: 'rows', args: [IN.t2x3, T([1, 0], 'int32', [2, 1])] },
    { name: 'out of range', args: [IN.t2x3, T([2, 0], 'int32', [1, 2])], grad: false },
  ] };
const TF_linspace: TfCall = { fn: 'tf.linspace', cases: 'none', extra: [
    { name: 'five', args: [tfFloat(0), tfFloat(1), 5], grad: false },
    { name: 'descending', args: [tfFloat(2), tfFloat(-1), 4], grad: false },
    { name: 'one', args: [tfFloat(3), tfFloat(7), 1], grad: false },
    { name: 'zero', args: [tfFloat(0), tfFloat(1), 0], grad: false },
  ] };
const TF_oneHot: TfCall = { fn: 'tf.one_hot', cases: 'none', params: ['i', 'd'], options: { on_value: ['onValue', tfFloat(1)], off_value: ['offValue', tfFloat(0)], axis: ['axis', -1] }, extra: [
    { name: 'basic', args: [T([0, 2, -1, 3], 'int32'), 3] },
    { name: 'on off', args: [T([1, 0], 'int32'), 2, { onValue: tfFloat(5), offValue: tfFloat(-1) }] },
    { name: 'axis 0', args: [T([0, 1, 2, 0], 'int32', [2, 2]), 3, { axis: 0 }] },
  ] };
const TF_reverse: TfCall = { expr: 'lambda x, axis: tf.reverse(x, axis if isinstance(axis, list) else [axis])', why: 'ef takes a single axis or a list, TF a list', cases: 'none', extra: [
    { name: 'axis 0', args: [IN.t2x3, [0]] },
    { name: 'axes [0, 1]', args: [IN.t2x3, [0, 1]] },
    { name: 'axis -1', args: [IN.t2x3x4, [-1]] },
    { name: 'repeated axis', args: [IN.t2x3, [0, 0]], grad: false },
  ] };
const TF_scatterNd: TfCall = { fn: 'tf.scatter_nd', cases: 'none', extra: [
    { name: 'elements', args: [T([0, 2, 0], 'int32', [3, 1]), T([1, 2, 3]), [4]] },
    { name: 'rows', args: [T([1], 'int32', [1, 1]), T([1, 2, 3], undefined, [1, 3]), [2, 3]] },
  ] };
const TF_split: TfCall = { fn: 'tf.split', cases: 'none', params: ['x', 'n', ['axis', 0]], extra: [
    { name: 'three ways', args: [T([1, 2, 3, 4, 5, 6]), 3], grad: false },
    { name: 'sizes axis 1', args: [IN.t2x3, [1, 2], 1], grad: false },
    { name: 'sizes with -1', args: [IN.t2x3, [2, -1], 1], grad: false },
    { name: 'not divisible', args: [IN.t2x3, 4, 1], grad: false },
  ] };
const TF_tile: TfCall = { fn: 'tf.tile', cases: 'none', extra: [
    { name: '[2, 1]', args: [IN.t2x3, [2, 1]] },
    { name: '[1, 3]', args: [IN.t2x3, [1, 3]] },
    { name: 'zero', args: [IN.t2x3, [0, 2]] },
    { name: 'wrong length', args: [IN.t2x3, [2]], grad: false },
    { name: 'int32', args: [T([1, 2], 'int32'), [3]], grad: false },
  ] };
const TF_unstack: TfCall = { fn: 'tf.unstack', cases: 'none', params: ['x', ['axis', 0]], keywords: { axis: 'axis' }, extra: [
    { name: 'axis 0', args: [IN.t2x3], grad: false },
    { name: 'axis 1', args: [IN.t2x3, 1], grad: false },
    { name: 'axis -1', args: [IN.t2x3x3, -1], grad: false },
  ] };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const I = (shape: number[], values: number[]): InputSpec => ({ shape, dtype: 'int32', values });

/** A Ref of `shape` whose element at each multi-index is x at `src(index)`. */
function pick(x: Ref, shape: number[], src: (idx: number[]) => number[]): Ref {
  const data = Array.from({ length: sizeOf(shape) }, (_, i) => x.data[ravel(src(unravel(i, shape)), x.shape)]);
  return new Ref(shape, data, x.dtype);
}

const tileRef = (reps: number[]) => (x: Ref): Ref => pick(x, x.shape.map((d, i) => d * reps[i]), (idx) => idx.map((v, i) => v % x.shape[i]));
const reverseRef = (axes: number[]) => (x: Ref): Ref => {
  const ax = axes.map((a) => (a < 0 ? a + x.rank : a));
  return pick(x, x.shape, (idx) => idx.map((v, i) => (ax.includes(i) ? x.shape[i] - 1 - v : v)));
};
function sliceAxis(x: Ref, axis: number, from: number, size: number): Ref {
  const shape = x.shape.map((d, i) => (i === axis ? size : d));
  return pick(x, shape, (idx) => idx.map((v, i) => (i === axis ? v + from : v)));
}
const unstackRef = (axis: number) => (x: Ref): Ref[] => {
  const a = axis < 0 ? axis + x.rank : axis;
  return Array.from({ length: x.shape[a] }, (_, k) => {
    const s = sliceAxis(x, a, k, 1);
    return new Ref(x.shape.filter((_, i) => i !== a), s.data, x.dtype);
  });
};
const splitRef = (sizes: number[], axis: number) => (x: Ref): Ref[] => {
  let from = 0;
  return sizes.map((n) => {
    const r = sliceAxis(x, axis < 0 ? axis + x.rank : axis, from, n);
    from += n;
    return r;
  });
};
function oneHotRef(depth: number, on: number, off: number, axis: number, dtype: 'float32' | 'int32') {
  return (ix: Ref): Ref => {
    const a = axis === -1 ? ix.rank : axis;
    const shape = [...ix.shape.slice(0, a), depth, ...ix.shape.slice(a)];
    const data = Array.from({ length: sizeOf(shape) }, (_, i) => {
      const idx = unravel(i, shape);
      const c = idx[a];
      const rest = idx.filter((_, j) => j !== a);
      return ix.num(ravel(rest, ix.shape)) === c ? on : off;
    });
    return new Ref(shape, data, dtype);
  };
}
function gatherNdRef(p: Ref, ix: Ref): Ref {
  const depth = ix.shape[ix.rank - 1];
  const outer = ix.shape.slice(0, -1);
  const inner = p.shape.slice(depth);
  const shape = [...outer, ...inner];
  return pick(p, shape, (idx) => {
    const o = ravel(idx.slice(0, outer.length), outer);
    const head = Array.from({ length: depth }, (_, k) => ix.num(o * depth + k));
    return [...head, ...idx.slice(outer.length)];
  });
}
function scatterNdRef(shape: number[]) {
  return (ix: Ref, u: Ref): Ref => {
    const depth = ix.shape[ix.rank - 1];
    const inner = sizeOf(shape.slice(depth));
    const out = new Array<number>(sizeOf(shape)).fill(0);
    const rows = ix.size / depth;
    for (let r = 0; r < rows; r++) {
      const head = Array.from({ length: depth }, (_, k) => ix.num(r * depth + k));
      const base = ravel([...head, ...new Array<number>(shape.length - depth).fill(0)], shape);
      for (let j = 0; j < inner; j++) out[base + j] += u.num(r * inner + j);
    }
    return new Ref(shape, out, u.dtype);
  };
}
const lin = (a: number, b: number, n: number): Ref => new Ref([n], Array.from({ length: n }, (_, i) => (n === 1 ? a : a + ((b - a) * i) / (n - 1))) as Value[], 'float32');

export const transformationCases: ForwardCase[] = [
  { prim: 'tile', tfCall: TF_tile, tfOps: ['Tile'], name: 'tile a matrix [2, 3]', inputs: [F([2, 2])], op: (x) => ef.tile(x, [2, 3]), ref: tileRef([2, 3]) },
  { prim: 'tile', tfCall: TF_tile, tfOps: ['Tile'], name: 'tile rank 3 with a 1', inputs: [F([1, 2, 3])], op: (x) => ef.tile(x, [3, 1, 2]), ref: tileRef([3, 1, 2]) },
  { prim: 'tile', tfCall: TF_tile, tfOps: ['Tile'], name: 'tile int32', inputs: [I([3], [1, -2, 3])], op: (x) => ef.tile(x, [2]), ref: tileRef([2]) },
  { prim: 'reverse', tfCall: TF_reverse, tfOps: ['ReverseV2'], name: 'reverse axis 1', inputs: [F([2, 3])], op: (x) => ef.reverse(x, [1]), ref: reverseRef([1]) },
  { prim: 'reverse', tfCall: TF_reverse, tfOps: ['ReverseV2'], name: 'reverse axes [0, -1] of rank 3', inputs: [F([2, 2, 3])], op: (x) => ef.reverse(x, [0, -1]), ref: reverseRef([0, -1]) },
  { prim: 'reverse', tfCall: TF_reverse, tfOps: ['ReverseV2'], name: 'reverse with an integer axis', inputs: [F([4])], op: (x) => ef.reverse(x, 0), ref: reverseRef([0]) },
  { prim: 'unstack', tfCall: TF_unstack, tfOps: ['Unpack'], noUnknownDims: 'unstack needs the static axis size (its number of results)', name: 'unstack axis 0', inputs: [F([3, 2])], op: (x) => ef.unstack(x), ref: unstackRef(0) },
  { prim: 'unstack', tfCall: TF_unstack, tfOps: ['Unpack'], noUnknownDims: 'unstack needs the static axis size (its number of results)', name: 'unstack axis -1 of rank 3', inputs: [F([2, 2, 3])], op: (x) => ef.unstack(x, -1), ref: unstackRef(-1) },
  { prim: 'split', tfCall: TF_split, tfOps: ['SplitV'], name: 'split into 3 along axis 1', inputs: [F([2, 6])], op: (x) => ef.split(x, 3, 1), ref: splitRef([2, 2, 2], 1) },
  { prim: 'split', tfCall: TF_split, tfOps: ['SplitV'], name: 'split by sizes with -1', inputs: [F([5, 2])], op: (x) => ef.split(x, [1, -1, 2]), ref: splitRef([1, 2, 2], 0) },
  { prim: 'one_hot', api: 'oneHot', tfCall: TF_oneHot, tfOps: ['OneHot'], name: 'oneHot default (float32, last axis)', inputs: [I([4], [0, 2, 1, 5])], op: (ix) => ef.oneHot(ix, 3), ref: oneHotRef(3, 1, 0, -1, 'float32') },
  { prim: 'one_hot', api: 'oneHot', tfCall: TF_oneHot, tfOps: ['OneHot'], name: 'oneHot axis 0 with on/off values', inputs: [I([2, 2], [1, 0, -1, 2])], op: (ix) => ef.oneHot(ix, 3, { onValue: 5, offValue: -1, axis: 0 }), ref: oneHotRef(3, 5, -1, 0, 'float32') },
  { prim: 'one_hot', api: 'oneHot', tfCall: TF_oneHot, tfOps: ['OneHot'], name: 'oneHot int32 dtype', inputs: [I([3], [2, 0, 1])], op: (ix) => ef.oneHot(ix, 4, { dtype: 'int32' }), ref: oneHotRef(4, 1, 0, -1, 'int32') },
  { prim: 'gather_nd', api: 'gatherNd', tfCall: TF_gatherNd, tfOps: ['GatherNd'], name: 'gatherNd elements', inputs: [F([3, 3]), I([4, 2], [0, 0, 2, 1, 1, 2, 0, 0])], op: (p, ix) => ef.gatherNd(p, ix), ref: gatherNdRef },
  { prim: 'gather_nd', api: 'gatherNd', tfCall: TF_gatherNd, tfOps: ['GatherNd'], name: 'gatherNd rows of rank 3', inputs: [F([3, 2, 2]), I([2, 1], [2, 0])], op: (p, ix) => ef.gatherNd(p, ix), ref: gatherNdRef },
  { prim: 'scatter_nd', api: 'scatterNd', tfCall: TF_scatterNd, tfOps: ['ScatterNd'], name: 'scatterNd with a duplicate index (sums)', inputs: [I([3, 1], [4, 1, 4]), F([3])], op: (ix, u) => ef.scatterNd(ix, u, [6]), ref: scatterNdRef([6]) },
  { prim: 'scatter_nd', api: 'scatterNd', tfCall: TF_scatterNd, tfOps: ['ScatterNd'], name: 'scatterNd rows into a matrix', inputs: [I([2, 1], [2, 0]), F([2, 3])], op: (ix, u) => ef.scatterNd(ix, u, [4, 3]), ref: scatterNdRef([4, 3]) },
  { prim: 'linspace', tfCall: TF_linspace, tfOps: ['LinSpace'], name: 'linspace 5 from -1 to 1', inputs: [], op: () => ef.linspace(-1, 1, 5), ref: () => lin(-1, 1, 5) },
  { prim: 'linspace', tfCall: TF_linspace, tfOps: ['LinSpace'], name: 'linspace of one value', inputs: [], op: () => ef.linspace(3, 7, 1), ref: () => lin(3, 7, 1) },
  // tf.linspace(0, 1, 0) is empty; TF's LinSpace op rejects num = 0, so the saved graph holds a Const of shape [0].
  { prim: 'linspace', tfCall: TF_linspace, tfOps: ['Const'], name: 'linspace num 0 is empty', inputs: [], op: () => ef.linspace(0, 1, 0), ref: () => new Ref([0], [], 'float32') },
];

export const transformationErrors: ErrorCase[] = [
  { prim: 'tile', name: 'tile multiples of the wrong length', inputs: [F([2, 2])], run: (x) => ef.tile(x, [2]), op: 'tile', got: '1 entries for shape [2,2]', expected: '2 entries' },
  { prim: 'reverse', name: 'reverse axis out of range', inputs: [F([2])], run: (x) => ef.reverse(x, [1]), op: 'reverse', got: 'axis 1 for a rank-1 tensor', expected: 'an integer in [-1, 1)' },
  { prim: 'split', name: 'split count that does not divide', inputs: [F([5])], run: (x) => ef.split(x, 2), op: 'split', got: '2 for an axis of 5', expected: 'a divisor of 5' },
  { prim: 'split', name: 'split sizes that do not add up', inputs: [F([5])], run: (x) => ef.split(x, [2, 2]), op: 'split', got: '[2,2] for an axis of 5', expected: 'sizes adding up to 5' },
  { prim: 'unstack', name: 'unstack axis out of range', inputs: [F([2])], run: (x) => ef.unstack(x, 1), op: 'unstack', got: 'axis 1 for a rank-1 tensor', expected: 'an integer in [-1, 1)' },
  { prim: 'one_hot', api: 'oneHot', name: 'oneHot float indices', inputs: [F([2])], run: (x) => ef.oneHot(x, 3), op: 'oneHot', got: 'float32', expected: 'int32' },
  { prim: 'gather_nd', api: 'gatherNd', name: 'gatherNd float indices', inputs: [F([2, 2]), F([1, 2])], run: (p, ix) => ef.gatherNd(p, ix), op: 'gatherNd', got: 'float32', expected: 'int32' },
  { prim: 'gather_nd', api: 'gatherNd', name: 'gatherNd index too deep', inputs: [F([2, 2]), I([1, 3], [0, 0, 0])], run: (p, ix) => ef.gatherNd(p, ix), op: 'gatherNd', got: 'indices [1,3] for params [2,2]', expected: 'a last indices dim <= 2' },
  { prim: 'scatter_nd', api: 'scatterNd', name: 'scatterNd updates of the wrong shape', inputs: [I([2, 1], [0, 1]), F([3])], run: (ix, u) => ef.scatterNd(ix, u, [4]), op: 'scatterNd', got: 'indices [2,1], updates [3], shape [4]', expected: 'updates of shape [2]' },
  { prim: 'linspace', name: 'linspace negative num', inputs: [], run: () => ef.linspace(0, 1, -1), op: 'linspace', got: '-1', expected: 'an integer >= 0' },
];
