// Harness cases for tf.nn activations (relu6, elu, selu, softplus, leakyRelu, softsign, silu, gelu, logSoftmax), biasAdd and conv1d/separable/atrous.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, tfTensor as T } from './case';
import { Ref, map, reduce, sigmoid, zip } from './ref';
import { convRef, toFirst, toLast } from './ref_nn';
import * as R from './ref';
import * as IN from './tf_inputs';
import { TF_nn_relu6 } from './cases_math';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_nn_atrousConv2d: TfCall = { fn: 'tf.nn.atrous_conv2d', cases: 'none', extra: [
    { name: 'rate 2 VALID', args: [IN.t1x5x5x2_2, IN.t2x2x2x1, 2, 'VALID'] },
    { name: 'rate 2 SAME', args: [IN.t1x5x5x2_2, IN.t3x3x2x2, 2, 'SAME'] },
  ] };
const TF_nn_biasAdd: TfCall = { fn: 'tf.nn.bias_add', cases: 'none', params: ['v', 'b'], options: { data_format: ['dataFormat', 'NHWC'] }, extra: [
    { name: 'matrix', args: [IN.t2x3, T([0.5, -1, 2])] },
    { name: 'rank 4 NCHW', args: [T([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], undefined, [1, 2, 3, 2]), T([1, -1]), { dataFormat: 'NCHW' }] },
    { name: 'bias size mismatch', args: [IN.t2x3, T([1, 2])], grad: false },
    { name: 'int32', args: [T([1, 2], 'int32', [1, 2]), T([3, 4], 'int32')], grad: false },
  ] };
const TF_nn_conv1d: TfCall = { fn: 'tf.nn.conv1d', cases: 'none', extra: [
    { name: 'VALID', args: [IN.t1x7x2, IN.t3x2x2, 1, 'VALID'] },
    { name: 'SAME stride 2', args: [IN.t1x7x2, IN.t3x2x2, 2, 'SAME'] },
  ] };
const TF_nn_elu: TfCall = { fn: 'tf.nn.elu', cases: 'unary' };
const TF_nn_gelu: TfCall = { fn: 'tf.nn.gelu', cases: 'none', params: ['x'], options: { approximate: ['approximate', false] }, extra: [
    { name: 'exact', args: [T([-3, -1, -0.5, 0, 0.5, 1, 3])] },
    { name: 'approximate', args: [IN.t2x3, { approximate: true }] },
  ] };
const TF_nn_leakyRelu: TfCall = { fn: 'tf.nn.leaky_relu', cases: 'none', params: ['x', ['a', 0.2]], extra: [
    { name: 'default', args: [IN.t2x3] },
    { name: 'alpha 0.5', args: [T([-2, 0, 3, -Infinity, NaN]), 0.5] },
    { name: 'alpha 1.5', args: [IN.t2x3, 1.5] },
  ] };
const TF_nn_logSoftmax: TfCall = { fn: 'tf.nn.log_softmax', cases: 'none', params: ['x', ['axis', -1]], keywords: { axis: 'axis' }, extra: [
    { name: 'vector', args: [T([1, 2, 3])] },
    { name: 'axis 0', args: [IN.t2x3, 0] },
    { name: 'large', args: [T([1000, 0, -1000])] },
  ] };
const TF_nn_selu: TfCall = { fn: 'tf.nn.selu', cases: 'unary' };
const TF_nn_separableConv2d: TfCall = { expr: 'lambda x, d, pw, s, p: tf.nn.separable_conv2d(x, d, pw, [1, s, s, 1], p)', why: "ef's strides become TF's full-rank strides", cases: 'none', extra: [
    { name: 'VALID', args: [IN.t1x5x5x2_2, IN.t2x2x2x1, T([1, -0.5, 0.25, 2, 0.5, -1], undefined, [1, 1, 2, 3]), 1, 'VALID'] },
  ] };
const TF_nn_silu: TfCall = { fn: 'tf.nn.silu', cases: 'none', extra: [
    { name: 'special values', args: [T([0, -0, 1, -1, 3, -3, Infinity, -Infinity, NaN])] },
    { name: 'smooth matrix', args: [IN.t2x3] },
  ] };
const TF_nn_softplus: TfCall = { fn: 'tf.math.softplus', cases: 'unary', extra: [
    { name: 'large magnitudes', args: [T([-100, -20, 20, 100])] },
  ] };
const TF_nn_softsign: TfCall = { fn: 'tf.math.softsign', cases: 'unary' };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const I = (...shape: number[]): InputSpec => ({ shape, dtype: 'int32' });
const fixed = (values: number[], shape = [values.length]): InputSpec => ({ shape, values });

const SELU_SCALE = 1.0507009873554805;
const SELU_ALPHA = 1.6732632423543772;
const erf = (x: number): number => {
  // Float64 erf by its Maclaurin series (|x| < 3 here): converges fast enough in double precision.
  let sum = 0;
  let term = x;
  for (let n = 0; n < 80; n++) {
    sum += term / (2 * n + 1);
    term *= (-x * x) / (n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
};

interface Act {
  prim: ef.internal.PrimitiveName;
  api: string;
  tf: string[];
  op: (x: ef.Tensor) => ef.Tensor;
  f: (v: number) => number;
  gen?: Gen;
  values?: number[];
  noConverter?: string;
  tfCall: TfCall;
}

const ACTS: Act[] = [
  { prim: 'relu6', api: 'nn.relu6', tfCall: TF_nn_relu6, tf: ['Relu6'], op: (x) => ef.nn.relu6(x), f: (v) => Math.min(Math.max(v, 0), 6), values: [-1, 0.5, 3, 6.5, 7, -0.25] },
  { prim: 'elu', api: 'nn.elu', tfCall: TF_nn_elu, tf: ['Elu'], op: (x) => ef.nn.elu(x), f: (v) => (v > 0 ? v : Math.exp(v) - 1), gen: 'away' },
  { prim: 'selu', api: 'nn.selu', tfCall: TF_nn_selu, tf: ['Selu'], op: (x) => ef.nn.selu(x), f: (v) => SELU_SCALE * (v > 0 ? v : SELU_ALPHA * (Math.exp(v) - 1)), gen: 'away' },
  { prim: 'softplus', api: 'nn.softplus', tfCall: TF_nn_softplus, tf: ['Softplus'], op: (x) => ef.nn.softplus(x), f: (v) => Math.max(v, 0) + Math.log1p(Math.exp(-Math.abs(v))) },
  { prim: 'softplus', api: 'nn.softplus', tfCall: TF_nn_softplus, tf: ['Softplus'], op: (x) => ef.math.softplus(x), f: (v) => Math.max(v, 0) + Math.log1p(Math.exp(-Math.abs(v))), values: [-30, -8, 0, 8, 30, 100] },
  { prim: 'leaky_relu', api: 'nn.leakyRelu', tfCall: TF_nn_leakyRelu, tf: ['LeakyRelu'], op: (x) => ef.nn.leakyRelu(x), f: (v) => (v > 0 ? v : 0.2 * v), gen: 'away' },
  { prim: 'leaky_relu', api: 'nn.leakyRelu', tfCall: TF_nn_leakyRelu, tf: ['LeakyRelu'], op: (x) => ef.nn.leakyRelu(x, 0.01), f: (v) => (v > 0 ? v : 0.01 * v), gen: 'away' },
  { prim: 'div', api: 'nn.softsign', tfCall: TF_nn_softsign, tf: ['Abs', 'RealDiv'], op: (x) => ef.nn.softsign(x), f: (v) => v / (1 + Math.abs(v)), gen: 'away' },
  { prim: 'mul', api: 'nn.silu', tfCall: TF_nn_silu, tf: ['Sigmoid', 'Mul'], op: (x) => ef.nn.silu(x), f: (v) => v * sigmoid(v) },
  { prim: 'mul', api: 'nn.silu', tfCall: TF_nn_silu, tf: ['Sigmoid', 'Mul'], op: (x) => ef.nn.swish(x), f: (v) => v * sigmoid(v), values: [-3, 0, 2.5, 1] },
  { prim: 'tanh', api: 'nn.gelu', tfCall: TF_nn_gelu, tf: ['Tanh'], op: (x) => ef.nn.gelu(x, { approximate: true }), f: (v) => 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3))) },
];

const nameOf = (a: Act, i: number): string => `${a.api.split('.')[1]} ${a.values ? 'fixed values' : `${a.gen ?? 'normal'} draws`}${ACTS.findIndex((b) => b.api === a.api) === i ? '' : ` #${i}`}`;

const actRows: ForwardCase[] = ACTS.map((a, i) => ({
  prim: a.prim, api: a.api, tfCall: a.tfCall, tfOps: a.tf, name: nameOf(a, i), inputs: [a.values ? fixed(a.values, [2, a.values.length / 2]) : F([2, 3], a.gen)],
  op: (x) => a.op(x), ref: (x) => map(x, a.f),
}));

// Exact gelu needs the erf record (the math family of issue 11): its rows join once erf is in the table.
const exactGelu: ForwardCase[] = ef.internal.PRIMITIVES.erf === undefined ? [] : [
  { prim: 'erf', api: 'nn.gelu', tfCall: TF_nn_gelu, tfOps: ['Erf'], name: 'gelu exact', inputs: [F([2, 3])], op: (x) => ef.nn.gelu(x), ref: (x) => map(x, (v) => 0.5 * v * (1 + erf(v / Math.SQRT2))), rtol: 2e-4, atol: 2e-4 },
];

function logSoftmaxRef(x: Ref, axis: number): Ref {
  const ax = axis < 0 ? axis + x.rank : axis;
  const m = reduce(x, [ax], true, -Infinity, Math.max);
  const s = reduce(zip(x, m, (a, b) => Math.exp(a - b)), [ax], true, 0, (a, b) => a + b);
  return zip(zip(x, m, (a, b) => a - b), s, (a, b) => a - Math.log(b));
}

const composites: ForwardCase[] = [
  { prim: 'log', api: 'nn.logSoftmax', tfCall: TF_nn_logSoftmax, tfOps: ['Log', 'Exp', 'Max'], name: 'logSoftmax last axis', inputs: [F([2, 4])], op: (x) => ef.nn.logSoftmax(x), ref: (x) => logSoftmaxRef(x, -1) },
  { prim: 'log', api: 'nn.logSoftmax', tfCall: TF_nn_logSoftmax, tfOps: ['Log'], name: 'logSoftmax axis 0 with large logits', inputs: [fixed([1000, -1000, 3, 1001, 2, 4], [2, 3])], op: (x) => ef.nn.logSoftmax(x, 0), ref: (x) => logSoftmaxRef(x, 0) },
  {
    prim: 'bias_add', api: 'nn.biasAdd', tfCall: TF_nn_biasAdd, tfOps: ['BiasAdd'], name: 'biasAdd NHWC', inputs: [F([2, 2, 3]), F([3])], op: (v, b) => ef.nn.biasAdd(v, b),
    ref: (v, b) => zip(v, R.broadcastTo(b, v.shape), (x, y) => x + y),
  },
  {
    prim: 'bias_add', api: 'nn.biasAdd', tfCall: TF_nn_biasAdd, tfOps: ['BiasAdd'], name: 'biasAdd NCHW', noConverter: "the converter's BiasAdd is a broadcasting add (it ignores data_format)", inputs: [F([1, 2, 2, 2]), F([2])],
    op: (v, b) => ef.nn.biasAdd(v, b, { dataFormat: 'NCHW' }), ref: (v, b) => zip(v, R.broadcastTo(R.reshape(b, [2, 1, 1]), v.shape), (x, y) => x + y),
  },
  { prim: 'bias_add', api: 'nn.biasAdd', tfCall: TF_nn_biasAdd, tfOps: ['BiasAdd'], name: 'biasAdd int32', inputs: [I(2, 3), I(3)], op: (v, b) => ef.nn.biasAdd(v, b), ref: (v, b) => zip(v, R.broadcastTo(b, v.shape), (x, y) => x + y) },
  {
    prim: 'conv2d', api: 'nn.conv1d', tfCall: TF_nn_conv1d, tfOps: ['Conv2D'], name: 'conv1d NWC SAME stride 2', inputs: [F([2, 5, 2]), F([3, 2, 3])], op: (x, f) => ef.nn.conv1d(x, f, 2, 'SAME'),
    ref: (x, f) => R.reshape(convRef(R.reshape(x, [2, 1, 5, 2]), R.reshape(f, [1, 3, 2, 3]), { strides: [1, 2], padding: 'SAME' }), [2, 3, 3]),
  },
  {
    prim: 'conv2d', api: 'nn.conv1d', tfCall: TF_nn_conv1d, tfOps: ['Conv2D'], name: 'conv1d NCW dilated', noConverter: "the converter's Conv2D reads strides[1..2], the batch/channel entries in NCHW", inputs: [F([1, 2, 6]), F([2, 2, 1])],
    op: (x, f) => ef.nn.conv1d(x, f, 1, 'VALID', { dataFormat: 'NCW', dilations: 2 }),
    ref: (x, f) => R.reshape(toFirst(convRef(toLast(R.reshape(x, [1, 2, 1, 6])), R.reshape(f, [1, 2, 2, 1]), { strides: [1, 1], dilations: [1, 2], padding: 'VALID' })), [1, 1, 4]),
  },
  { prim: 'conv2d', api: 'nn.atrousConv2d', tfCall: TF_nn_atrousConv2d, tfOps: ['Conv2D'], name: 'atrousConv2d rate 2', inputs: [F([1, 5, 5, 1]), F([2, 2, 1, 2])], op: (x, f) => ef.nn.atrousConv2d(x, f, 2, 'SAME'), ref: (x, f) => convRef(x, f, { strides: [1, 1], dilations: [2, 2], padding: 'SAME' }) },
  {
    prim: 'depthwise_conv2d', api: 'nn.separableConv2d', tfCall: TF_nn_separableConv2d, tfOps: ['DepthwiseConv2dNative', 'Conv2D'], name: 'separableConv2d', inputs: [F([1, 4, 4, 2]), F([2, 2, 2, 2]), F([1, 1, 4, 3])],
    op: (x, d, p) => ef.nn.separableConv2d(x, d, p, 1, 'SAME'), ref: (x, d, p) => convRef(convRef(x, d, { strides: [1, 1], padding: 'SAME', depthwise: true }), p, { strides: [1, 1], padding: 'VALID' }),
  },
];

export const nnActCases: ForwardCase[] = [...actRows, ...exactGelu, ...composites];

const e = (prim: ef.internal.PrimitiveName, api: string, name: string, inputs: InputSpec[], run: (...xs: ef.Tensor[]) => unknown, op: string, got: string, expected: string): ErrorCase => ({ prim, api, name, inputs, run, op, got, expected });

export const nnActErrors: ErrorCase[] = [
  e('relu6', 'nn.relu6', 'relu6 of bool', [{ shape: [2], dtype: 'bool' }], (x) => ef.nn.relu6(x), 'relu6', 'bool', 'float32 or int32'),
  e('elu', 'nn.elu', 'elu of int32', [I(2)], (x) => ef.nn.elu(x), 'elu', 'int32', 'float32'),
  e('selu', 'nn.selu', 'selu of int32', [I(2)], (x) => ef.nn.selu(x), 'selu', 'int32', 'float32'),
  e('softplus', 'nn.softplus', 'softplus of int32', [I(2)], (x) => ef.nn.softplus(x), 'softplus', 'int32', 'float32'),
  e('leaky_relu', 'nn.leakyRelu', 'leakyRelu of int32', [I(2)], (x) => ef.nn.leakyRelu(x), 'leakyRelu', 'int32', 'float32'),
  e('bias_add', 'nn.biasAdd', 'biasAdd channel mismatch', [F([2, 3]), F([4])], (v, b) => ef.nn.biasAdd(v, b), 'biasAdd', '4 biases for 3 channels', '3 biases'),
  e('bias_add', 'nn.biasAdd', 'biasAdd rank-2 bias', [F([2, 3]), F([1, 3])], (v, b) => ef.nn.biasAdd(v, b), 'biasAdd', 'shape [1, 3]', 'rank 1'),
  e('conv2d', 'nn.conv1d', 'conv1d bad dataFormat', [F([1, 3, 1]), F([1, 1, 1])], (x, f) => ef.nn.conv1d(x, f, 1, 'VALID', { dataFormat: 'NHWC' }), 'conv1d', '"NHWC"', "'NWC' or 'NCW'"),
  e('conv2d', 'nn.atrousConv2d', 'atrousConv2d rate 0', [F([1, 3, 3, 1]), F([1, 1, 1, 1])], (x, f) => ef.nn.atrousConv2d(x, f, 0, 'SAME'), 'atrousConv2d', '0', 'an integer >= 1'),
  e('log', 'nn.logSoftmax', 'logSoftmax axis out of range', [F([2, 3])], (x) => ef.nn.logSoftmax(x, 2), 'reduceMax', 'axis 2 for a rank-2 tensor', 'an integer in [-2, 2)'),
];
