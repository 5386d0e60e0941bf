// Harness cases for reductions and matmul: sum (and reduceMean), max, argMax, batched matmul.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, tfReduce, TfCall, tfTensor as T } from './case';
import { Ref, argMax, map, matmul, reduce, ref, sizeOf } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_argMax: TfCall = { expr: 'lambda x, axis=0: tf.math.argmax(x, axis=axis, output_type=tf.int32)', why: 'ef returns int32 where TF defaults to int64', cases: 'none', extra: [
    { name: 'axis 0', args: [IN.t2x3, 0], grad: false },
    { name: 'axis 1', args: [IN.t2x3, 1], grad: false },
    { name: 'axis -1', args: [IN.t2x3, -1], grad: false },
    { name: 'axis out of range', args: [IN.t2x3, 2], grad: false },
    { name: 'NaN first', args: [T([NaN, 1, 2]), 0], grad: false },
    { name: 'NaN later', args: [T([1, NaN, 2, NaN]), 0], grad: false },
    { name: 'ties pick the first', args: [T([3, 1, 3]), 0], grad: false },
    { name: 'infinities', args: [T([-Infinity, Infinity, 3e38]), 0], grad: false },
    { name: 'bool input', args: [T([false, true, true], 'bool'), 0], grad: false },
    { name: 'int32', args: [IN.t9i, 0], grad: false },
    { name: 'empty axis', args: [T([], undefined, [0, 3]), 0], grad: false },
    { name: 'empty other axis', args: [T([], undefined, [0, 3]), 1], grad: false },
    { name: 'scalar', args: [T(1), 0], grad: false },
  ] };
export const TF_matmul: TfCall = { fn: 'tf.linalg.matmul', cases: 'none', params: ['a', 'b', ['ta', false], ['tb', false]], keywords: { transpose_a: 'ta', transpose_b: 'tb' }, extra: [
    { name: '[2,3] x [3,2]', args: [IN.t2x3, IN.t3x2_4] },
    { name: 'transposeA', args: [IN.t3x2, IN.t3x2_4, true, false] },
    { name: 'transposeB', args: [IN.t2x3, IN.t2x3, false, true] },
    { name: 'both transposed', args: [IN.t3x2, IN.t2x3, true, true] },
    { name: 'batch broadcast', args: [IN.t2x2x3, IN.t3x2_4] },
    { name: 'batch [2,1] x [1,3]', args: [T([0, 1, 2, 3, 4, 5, 6, 7], undefined, [2, 1, 2, 2]), T([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], undefined, [1, 3, 2, 2])] },
    { name: 'batch mismatch', args: [T([0, 1, 2, 3, 4, 5, 6, 7], undefined, [2, 2, 2]), T([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], undefined, [3, 2, 2])], grad: false },
    { name: 'special values', args: [T([Infinity, 0, NaN, 1], undefined, [2, 2]), T([0, 1, 2, 3e38], undefined, [2, 2])] },
    { name: 'empty inner', args: [T([], undefined, [2, 0]), T([], undefined, [0, 3])] },
    { name: 'empty rows', args: [T([], undefined, [0, 3]), IN.t3x2] },
    { name: 'inner mismatch', args: [IN.t2x3, IN.t2x3], grad: false },
    { name: 'rank 1', args: [T([1, 2]), T([1, 2])], grad: false },
    { name: 'int32', args: [T([1, 2, 3, 4], 'int32', [2, 2]), T([5, 6, 7, 8], 'int32', [2, 2])], grad: false },
    { name: 'int32 overflow wraps', args: [T([46341, 3, -70000, 1], 'int32', [2, 2]), T([46341, 5, 70000, 2147483647], 'int32', [2, 2])], grad: false },
    { name: 'dtype mismatch', args: [T([1], undefined, [1, 1]), T([1], 'int32', [1, 1])], grad: false },
  ] };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const I = (shape: number[], gen: Gen = 'int'): InputSpec => ({ shape, dtype: 'int32', gen });
const B = (shape: number[]): InputSpec => ({ shape, dtype: 'bool' });

type Axes = number | number[] | null;
const axesList = (a: Axes): number[] | null => (a === null ? null : Array.isArray(a) ? a : [a]);
const sumRef = (a: Axes, keep = false) => (x: Ref): Ref => reduce(x, axesList(a), keep, 0, (s, v) => s + v);
const maxRef = (a: Axes, keep = false) => (x: Ref): Ref => reduce(x, axesList(a), keep, -Infinity, Math.max);

function meanRef(a: Axes, keep = false) {
  return (x: Ref): Ref => {
    const s = sumRef(a, keep)(x);
    const n = x.size / Math.max(1, sizeOf(reduce(x, axesList(a), false, 0, (p) => p).shape));
    return map(s, (v) => v / n);
  };
}

const REDUCTIONS: [string, Axes, boolean, number[]][] = [
  ['all axes', null, false, [2, 3]],
  ['axis 0', 0, false, [2, 3]],
  ['axis -1 keepDims', -1, true, [2, 3]],
  ['axes [0, 2] of rank 3', [0, 2], false, [2, 3, 2]],
  ['axes [1] keepDims of rank 3', [1], true, [2, 3, 2]],
  ['scalar input', null, false, []],
];

function reductionCases(): ForwardCase[] {
  const out: ForwardCase[] = [];
  for (const [name, axes, keep, shape] of REDUCTIONS) {
    out.push({ prim: 'sum', api: 'reduceSum', tfOps: ['Sum'], tfCall: tfReduce('tf.math.reduce_sum'), name: `reduceSum ${name}`, inputs: [F(shape)], op: (x) => ef.reduceSum(x, axes, keep), ref: sumRef(axes, keep) });
    out.push({ prim: 'max', api: 'reduceMax', tfOps: ['Max'], tfCall: tfReduce('tf.math.reduce_max'), name: `reduceMax ${name}`, inputs: [F(shape)], op: (x) => ef.reduceMax(x, axes, keep), ref: maxRef(axes, keep) });
    out.push({ prim: 'sum', api: 'reduceMean', tfOps: ['Sum'], tfCall: tfReduce('tf.math.reduce_mean'), name: `reduceMean ${name}`, inputs: [F(shape)], op: (x) => ef.reduceMean(x, axes, keep), ref: meanRef(axes, keep) });
  }
  out.push(
    { prim: 'sum', api: 'reduceSum', tfCall: tfReduce('tf.math.reduce_sum'), tfOps: ['Sum'], name: 'reduceSum int32', inputs: [I([2, 3])], op: (x) => ef.reduceSum(x, 1), ref: sumRef(1) },
    { prim: 'sum', api: 'reduceSum', tfCall: tfReduce('tf.math.reduce_sum'), tfOps: ['Sum'], name: 'reduceSum of an empty axis is 0', inputs: [F([0, 3])], op: (x) => ef.reduceSum(x, 0), ref: sumRef(0) },
    { prim: 'sum', api: 'reduceSum', tfCall: tfReduce('tf.math.reduce_sum'), tfOps: ['Sum'], name: 'reduceSum of a JS array', inputs: [], op: () => ef.reduceSum([[1, 2], [3, 4]], 0), ref: () => ref([4, 6]) },
    { prim: 'max', api: 'reduceMax', tfCall: tfReduce('tf.math.reduce_max'), tfOps: ['Max'], name: 'reduceMax int32', inputs: [I([2, 3])], op: (x) => ef.reduceMax(x, 0), ref: maxRef(0) },
    { prim: 'int_mean', api: 'reduceMean', tfCall: tfReduce('tf.math.reduce_mean'), tfOps: ['Mean'], noConverter: "tfjs-converter's int32 Mean returns float32 (TensorFlow's stays int32 and truncates)", name: 'reduceMean int32 truncates', inputs: [{ shape: [3], dtype: 'int32', values: [1, 2, 2] }], op: (x) => ef.reduceMean(x), ref: () => ref(1, 'int32') },
  );
  for (const [axis, shape] of [[0, [4]], [1, [2, 3]], [-1, [2, 3]], [0, [3, 2]]] as [number, number[]][]) {
    out.push({ prim: 'arg_max', api: 'argMax', tfCall: TF_argMax, tfOps: ['ArgMax'], name: `argMax axis ${axis} of [${shape}]`, inputs: [F(shape)], op: (x) => ef.argMax(x, axis), ref: (x) => argMax(x, axis) });
  }
  out.push(
    { prim: 'arg_max', api: 'argMax', tfCall: TF_argMax, tfOps: ['ArgMax'], name: 'argMax int32 picks the first of ties', inputs: [{ shape: [5], dtype: 'int32', values: [1, 4, 2, 4, 0] }], op: (x) => ef.argMax(x), ref: () => ref(1, 'int32') },
    { prim: 'arg_max', api: 'argMax', tfCall: TF_argMax, tfOps: ['ArgMax'], name: 'argMax default axis 0', inputs: [F([3, 2])], op: (x) => ef.argMax(x), ref: (x) => argMax(x, 0) },
  );
  return out;
}

const MATMULS: [string, number[], number[], boolean, boolean][] = [
  ['2x3 @ 3x4', [2, 3], [3, 4], false, false],
  ['transposeA', [3, 2], [3, 4], true, false],
  ['transposeB', [2, 3], [4, 3], false, true],
  ['both transposed', [3, 2], [4, 3], true, true],
  ['batched', [2, 2, 3], [2, 3, 2], false, false],
  ['broadcast batch', [2, 1, 2, 3], [3, 3, 2], false, false],
  ['batched with transposeB', [2, 2, 3], [4, 3], false, true],
  ['1x1', [1, 1], [1, 1], false, false],
];

function matmulCases(): ForwardCase[] {
  const out: ForwardCase[] = MATMULS.map(([name, a, b, ta, tb]) => ({
    prim: 'matmul', tfCall: TF_matmul,
    tfOps: [a.length > 2 || b.length > 2 ? 'BatchMatMulV2' : 'MatMul'],
    ...(name === 'broadcast batch' ? { noConverter: "the converter's BatchMatMulV2 computes wrong values when batch dims broadcast ([2,1] with [3])" } : {}),
    name: `matmul ${name}`,
    inputs: [F(a), F(b)],
    op: (x: ef.Tensor, y: ef.Tensor) => ef.matmul(x, y, ta, tb),
    ref: (x: Ref, y: Ref) => matmul(x, y, ta, tb),
  }));
  out.push(
    { prim: 'matmul', tfCall: TF_matmul, tfOps: ['MatMul'], name: 'matmul int32', inputs: [I([2, 3]), I([3, 2])], op: (a, b) => ef.matmul(a, b), ref: (a, b) => matmul(a, b) },
    { prim: 'matmul', tfCall: TF_matmul, tfOps: ['MatMul'], name: 'matmul of JS arrays', inputs: [], op: () => ef.matmul([[1, 2]], [[3], [4]]), ref: () => ref([[11]]) },
    { prim: 'matmul', tfCall: TF_matmul, tfOps: ['MatMul'], name: 'matmul with an empty inner dim', inputs: [F([2, 0]), F([0, 3])], op: (a, b) => ef.matmul(a, b), ref: (a, b) => matmul(a, b) },
  );
  return out;
}

export const reduceCases: ForwardCase[] = [...reductionCases(), ...matmulCases()];

const axisRange = (op: string): ErrorCase[] => [
  { prim: op === 'reduceSum' ? 'sum' : 'max', name: `${op} axis out of range`, inputs: [F([2, 3])], run: (x) => (op === 'reduceSum' ? ef.reduceSum(x, 2) : ef.reduceMax(x, -3)), op, got: op === 'reduceSum' ? 'axis 2 for a rank-2 tensor' : 'axis -3 for a rank-2 tensor', expected: 'an integer in [-2, 2)' },
  { prim: op === 'reduceSum' ? 'sum' : 'max', name: `${op} rejects bool`, inputs: [B([2])], run: (x) => (op === 'reduceSum' ? ef.reduceSum(x) : ef.reduceMax(x)), op, got: 'bool', expected: 'float32 or int32' },
  { prim: op === 'reduceSum' ? 'sum' : 'max', name: `${op} repeated axis`, inputs: [F([2, 3])], run: (x) => (op === 'reduceSum' ? ef.reduceSum(x, [0, -2]) : ef.reduceMax(x, [1, 1])), op, got: op === 'reduceSum' ? '[0, -2]' : '[1, 1]', expected: 'distinct axes' },
];

export const reduceErrors: ErrorCase[] = [
  ...axisRange('reduceSum'),
  ...axisRange('reduceMax'),
  { prim: 'sum', api: 'reduceSum', name: 'reduceSum non-integer axis', inputs: [F([2])], run: (x) => ef.reduceSum(x, 0.5), op: 'reduceSum', got: '0.5', expected: 'an integer or array of integers' },
  { prim: 'sum', api: 'reduceMean', name: 'reduceMean rejects bool', inputs: [B([2])], run: (x) => ef.reduceMean(x), op: 'reduceSum', got: 'bool', expected: 'float32 or int32' },
  { prim: 'arg_max', api: 'argMax', name: 'argMax of a scalar', inputs: [F([])], run: (x) => ef.argMax(x), op: 'argMax', got: 'a rank-0 tensor', expected: 'rank >= 1' },
  { prim: 'arg_max', api: 'argMax', name: 'argMax axis out of range', inputs: [F([2, 2])], run: (x) => ef.argMax(x, 2), op: 'argMax', got: 'axis 2 for a rank-2 tensor', expected: 'an integer in [-2, 2)' },
  { prim: 'arg_max', api: 'argMax', name: 'argMax rejects strings', inputs: [{ shape: [2], dtype: 'string' }], run: (x) => ef.argMax(x), op: 'argMax', got: 'string', expected: 'float32 or int32' },
  { prim: 'matmul', name: 'matmul inner mismatch', inputs: [F([2, 3]), F([2, 3])], run: (a, b) => ef.matmul(a, b), op: 'matmul', got: 'a: [2,3], b: [2,3]', expected: 'equal inner dimensions' },
  { prim: 'matmul', name: 'matmul rank 1', inputs: [F([3]), F([3, 1])], run: (a, b) => ef.matmul(a, b), op: 'matmul', got: 'shapes [3] and [3,1]', expected: 'rank >= 2 for both' },
  { prim: 'matmul', name: 'matmul dtype mismatch', inputs: [F([2, 2]), I([2, 2])], run: (a, b) => ef.matmul(a, b), op: 'matmul', got: 'float32 and int32', expected: 'matching dtypes' },
  { prim: 'matmul', name: 'matmul rejects bool', inputs: [B([2, 2]), B([2, 2])], run: (a, b) => ef.matmul(a, b), op: 'matmul', got: 'bool', expected: 'float32 or int32' },
  { prim: 'matmul', name: 'matmul batch mismatch', inputs: [F([2, 2, 2]), F([3, 2, 2])], run: (a, b) => ef.matmul(a, b), op: 'matmul', got: '[2] and [3]', expected: 'shapes whose trailing dims are equal or 1' },
  { prim: 'matmul', name: 'matmul JS arrays inner mismatch (no leak)', inputs: [], run: () => ef.matmul([[1, 2]], [[1, 2]]), op: 'matmul', got: 'a: [1,2], b: [1,2]', expected: 'equal inner dimensions' },
];

