// Harness rows for ef.random and nn.dropout: degenerate draws with exact results (stddev 0, minval == maxval, one possible class, equal rows).
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec, TfCall, tfFloat, tfTensor as T } from './case';
import * as R from './ref';
import { Ref } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_nn_dropout: TfCall = { expr: "lambda x, o: tf.nn.dropout(x, rate=o['rate'], seed=opt(o, 'seed', None))", why: "ef's options object becomes TF's keyword arguments", cases: 'none', extra: [
    { name: 'rate 0.5', args: [IN.t2x3, { rate: 0.5, seed: 7 }], grad: false, tags: ['random'] },
    { name: 'rate 0', args: [IN.t2x3, { rate: tfFloat(0), seed: 7 }], grad: false },
  ] };
const TF_random_categorical: TfCall = { expr: "lambda l, n, o={}: tf.random.categorical(l, n, dtype=tf.int32, seed=opt(o, 'seed', None))", why: "ef's options object becomes TF's keyword arguments; ef returns int32 where TF defaults to int64", cases: 'none', extra: [
    { name: 'two rows', args: [T([0, 1, 2, -1], undefined, [2, 2]), 3, { seed: 7 }], grad: false, tags: ['random'] },
  ] };
const TF_random_normal: TfCall = { fn: 'tf.random.normal', cases: 'none', params: ['s'], options: { seed: ['seed', null] }, extra: [
    { name: 'shape [2, 3]', args: [[2, 3], { seed: 7 }], grad: false, tags: ['random'] },
    { name: 'scalar', args: [[], { seed: 7 }], grad: false, tags: ['random'] },
  ] };
const TF_random_shuffle: TfCall = { fn: 'tf.random.shuffle', cases: 'none', params: ['v'], options: { seed: ['seed', null] }, extra: [
    { name: 'vector', args: [T([1, 2, 3, 4]), { seed: 7 }], grad: false, tags: ['random'] },
  ] };
const TF_random_statelessCategorical: TfCall = { expr: "lambda l, n, o: tf.random.stateless_categorical(l, n, o['seed'], dtype=tf.int32)", why: "ef's options object carries the seed, TF takes it positionally; ef returns int32 where TF defaults to int64", cases: 'none', extra: [
    { name: 'two rows', args: [T([0, 1, 2, -1], undefined, [2, 2]), 3, { seed: [1, 2] }], grad: false, tags: ['random'] },
  ] };
const TF_random_statelessNormal: TfCall = { expr: "lambda s, o: tf.random.stateless_normal(s, o['seed'])", why: "ef's options object carries the seed; TF takes it positionally", cases: 'none', extra: [
    { name: 'shape [3]', args: [[3], { seed: [1, 2] }], grad: false, tags: ['random'] },
  ] };
const TF_random_statelessTruncatedNormal: TfCall = { expr: "lambda s, o: tf.random.stateless_truncated_normal(s, o['seed'])", why: "ef's options object carries the seed; TF takes it positionally", cases: 'none', extra: [
    { name: 'shape [3]', args: [[3], { seed: [1, 2] }], grad: false, tags: ['random'] },
  ] };
const TF_random_statelessUniform: TfCall = { expr: "lambda s, o: tf.random.stateless_uniform(s, o['seed'])", why: "ef's options object carries the seed; TF takes it positionally", cases: 'none', extra: [
    { name: 'shape [3]', args: [[3], { seed: [1, 2] }], grad: false, tags: ['random'] },
  ] };
const TF_random_truncatedNormal: TfCall = { fn: 'tf.random.truncated_normal', cases: 'none', params: ['s'], options: { seed: ['seed', null] }, extra: [
    { name: 'shape [5]', args: [[5], { seed: 7 }], grad: false, tags: ['random'] },
  ] };
const TF_random_uniform: TfCall = { expr: "lambda s, o={}: tf.random.uniform(s, opt(o, 'minval', 0), opt(o, 'maxval', 1), dtype=tf.as_dtype(opt(o, 'dtype', 'float32')), seed=opt(o, 'seed', None))", why: "ef's options object becomes TF's keyword arguments; ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'float', args: [[4], { seed: 7 }], grad: false, tags: ['random'] },
    { name: 'int32', args: [[3], { minval: 0, maxval: 10, dtype: 'int32', seed: 7 }], grad: false, tags: ['random'] },
  ] };

const fixed = (values: number[], shape = [values.length]): InputSpec => ({ shape, values });
const filled = (shape: number[], v: R.Value, dtype: ef.DType = 'float32'): Ref => new Ref(shape, new Array<R.Value>(R.sizeOf(shape)).fill(v), dtype);
const scalarOf = (m: Ref): number => Number(m.data[0]);
/** Logits where only one class per row is possible (-Infinity elsewhere): every sample is that class. */
const oneClass = fixed([-Infinity, 0.5, -Infinity, 1, -Infinity, -Infinity], [2, 3]);
const oneClassRef = (): Ref => new Ref([2, 4], [1, 1, 1, 1, 0, 0, 0, 0], 'int32');
const STATELESS = 'tfjs-converter has no Stateless* random kernels';

export const randomCases: ForwardCase[] = [
  { prim: 'random_standard_normal', api: 'random.normal', tfCall: TF_random_normal, tfOps: ['RandomStandardNormal'], name: 'random.normal with stddev 0 is its mean (gradient 1 per entry)', inputs: [{ shape: [] }], op: (m) => ef.random.normal([2, 3], { mean: m, stddev: 0, seed: 1 }), ref: (m) => filled([2, 3], scalarOf(m)) },
  { prim: 'truncated_normal', api: 'random.truncatedNormal', tfCall: TF_random_truncatedNormal, tfOps: ['TruncatedNormal'], name: 'random.truncatedNormal with stddev 0 is its mean', inputs: [{ shape: [] }], op: (m) => ef.random.truncatedNormal([3], { mean: m, stddev: 0, seed: 2 }), ref: (m) => filled([3], scalarOf(m)) },
  { prim: 'random_uniform', api: 'random.uniform', tfCall: TF_random_uniform, tfOps: ['RandomUniform'], name: 'random.uniform with minval == maxval', inputs: [], op: () => ef.random.uniform([2, 2], { minval: 1.5, maxval: 1.5, seed: 3 }), ref: () => filled([2, 2], 1.5) },
  { prim: 'random_uniform_int', api: 'random.uniform', tfCall: TF_random_uniform, tfOps: ['RandomUniformInt'], name: 'random.uniform int32 over one value', inputs: [], op: () => ef.random.uniform([3], { minval: 4, maxval: 5, dtype: 'int32', seed: 3 }), ref: () => filled([3], 4, 'int32'), noConverter: "tfjs-converter reads RandomUniformInt's minval/maxval as attrs (TensorFlow's op has them as inputs), so it draws zeros" },
  { prim: 'multinomial', api: 'random.categorical', tfCall: TF_random_categorical, tfOps: ['Multinomial'], name: 'random.categorical with one possible class per row', inputs: [oneClass], op: (l) => ef.random.categorical(l, 4, { seed: 1 }), ref: oneClassRef },
  { prim: 'random_shuffle', api: 'random.shuffle', tfCall: TF_random_shuffle, tfOps: ['RandomShuffle'], name: 'random.shuffle of equal rows', inputs: [fixed([1, 2, 1, 2, 1, 2], [3, 2])], op: (x) => ef.random.shuffle(x, { seed: 4 }), ref: (x) => x, grad: false, noConverter: 'tfjs-converter has no RandomShuffle kernel' },
  { prim: 'stateless_random_normal', api: 'random.statelessNormal', tfCall: TF_random_statelessNormal, tfOps: ['StatelessRandomNormal'], name: 'random.statelessNormal with stddev 0 is its mean', inputs: [{ shape: [] }], op: (m) => ef.random.statelessNormal([2], { seed: [1, 2], mean: m, stddev: 0 }), ref: (m) => filled([2], scalarOf(m)), noConverter: STATELESS },
  { prim: 'stateless_truncated_normal', api: 'random.statelessTruncatedNormal', tfCall: TF_random_statelessTruncatedNormal, tfOps: ['StatelessTruncatedNormal'], name: 'random.statelessTruncatedNormal with stddev 0 is its mean', inputs: [{ shape: [] }], op: (m) => ef.random.statelessTruncatedNormal([2], { seed: [3, 4], mean: m, stddev: 0 }), ref: (m) => filled([2], scalarOf(m)), noConverter: STATELESS },
  { prim: 'stateless_random_uniform', api: 'random.statelessUniform', tfCall: TF_random_statelessUniform, tfOps: ['StatelessRandomUniform'], name: 'random.statelessUniform with minval == maxval', inputs: [], op: () => ef.random.statelessUniform([3], { seed: [5, 6], minval: -2, maxval: -2 }), ref: () => filled([3], -2), noConverter: STATELESS },
  { prim: 'stateless_multinomial', api: 'random.statelessCategorical', tfCall: TF_random_statelessCategorical, tfOps: ['StatelessMultinomial'], name: 'random.statelessCategorical with one possible class per row', inputs: [oneClass], op: (l) => ef.random.statelessCategorical(l, 4, { seed: [7, 8] }), ref: oneClassRef, noConverter: STATELESS },
  { prim: 'identity', api: 'nn.dropout', tfCall: TF_nn_dropout, name: 'nn.dropout with rate 0 returns x', inputs: [{ shape: [2, 3] }], op: (x) => ef.nn.dropout(x, { rate: 0 }), ref: (x) => x },
  { prim: 'random_uniform', api: 'nn.dropout', tfCall: TF_nn_dropout, tfOps: ['RandomUniform'], name: 'nn.dropout of zeros is zeros', inputs: [fixed([0, 0, 0, 0], [2, 2])], op: (x) => ef.nn.dropout(x, { rate: 0.5, seed: 1 }), ref: (x) => x, grad: false },
];

const dtypeError = (prim: ef.internal.PrimitiveName, op: string, run: () => unknown): ErrorCase => ({ prim, name: `${op} of int32`, inputs: [], run, op, got: 'int32', expected: 'float32' });

export const randomErrors: ErrorCase[] = [
  dtypeError('random_standard_normal', 'random.normal', () => ef.random.normal([2], { dtype: 'int32' })),
  dtypeError('truncated_normal', 'random.truncatedNormal', () => ef.random.truncatedNormal([2], { dtype: 'int32' })),
  { prim: 'random_uniform', api: 'random.uniform', name: 'random.uniform of bool', inputs: [], run: () => ef.random.uniform([2], { dtype: 'bool' }), op: 'random.uniform', got: 'bool', expected: 'float32' },
  { prim: 'random_uniform_int', api: 'random.uniform', name: 'random.uniform int32 with an empty range', inputs: [], run: () => ef.random.uniform([2], { dtype: 'int32', minval: 3, maxval: 3 }), op: 'random.uniform', got: 'minval 3, maxval 3', expected: 'integers with minval < maxval' },
  { prim: 'multinomial', api: 'random.categorical', name: 'random.categorical of 1-D logits', inputs: [{ shape: [3] }], run: (l) => ef.random.categorical(l, 2), op: 'random.categorical', got: 'shape [3]', expected: 'a 2-D tensor' },
  { prim: 'random_shuffle', api: 'random.shuffle', name: 'random.shuffle of a scalar', inputs: [{ shape: [] }], run: (x) => ef.random.shuffle(x), op: 'random.shuffle', got: 'a scalar', expected: 'a tensor of rank >= 1' },
  dtypeError('stateless_random_normal', 'random.statelessNormal', () => ef.random.statelessNormal([2], { seed: [1, 2], dtype: 'int32' })),
  dtypeError('stateless_truncated_normal', 'random.statelessTruncatedNormal', () => ef.random.statelessTruncatedNormal([2], { seed: [1, 2], dtype: 'int32' })),
  dtypeError('stateless_random_uniform', 'random.statelessUniform', () => ef.random.statelessUniform([2], { seed: [1, 2], dtype: 'int32' })),
  { prim: 'stateless_multinomial', api: 'random.statelessCategorical', name: 'random.statelessCategorical of 1-D logits', inputs: [{ shape: [3] }], run: (l) => ef.random.statelessCategorical(l, 2, { seed: [1, 2] }), op: 'random.statelessCategorical', got: 'shape [3]', expected: 'a 2-D tensor' },
];
