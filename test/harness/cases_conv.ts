// Harness cases for the conv family: conv2d/depthwise/conv3d, their transposes and backprop records, and bad input.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec, TfCall, tfTensor as T } from './case';
import { Ref } from './ref';
import { ConvSpec, convFilterRef, convInputRef, convRef, toFirst, toLast } from './ref_nn';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_nn_conv2d: TfCall = { fn: 'tf.nn.conv2d', cases: 'none', params: ['x', 'w', 's', 'p'], options: { dilations: ['dilations', null] }, extra: [
    { name: 'VALID', args: [IN.t1x5x5x2_3, IN.t3x3x2x2, 1, 'VALID'] },
    { name: 'SAME', args: [IN.t1x5x5x2_3, IN.t3x3x2x2, 1, 'SAME'] },
    { name: 'SAME stride 2', args: [IN.t1x5x5x2_3, IN.t3x3x2x2, 2, 'SAME'] },
    { name: 'VALID strides [2, 1]', args: [IN.t1x5x5x2_3, IN.t3x3x2x2, [2, 1], 'VALID'] },
    { name: 'dilation 2', args: [IN.t1x5x5x2_3, IN.t3x3x2x2, 1, 'VALID', { dilations: 2 }] },
    { name: 'explicit padding', args: [IN.t1x5x5x2_3, IN.t3x3x2x2, 1, [[0, 0], [1, 0], [0, 2], [0, 0]]] },
    { name: 'channel mismatch', args: [IN.t1x5x5x2_3, T([1, 1, 1, 1, 1, 1, 1, 1, 1], undefined, [3, 3, 1, 1]), 1, 'VALID'], grad: false },
    { name: 'bad padding', args: [IN.t1x5x5x2_3, IN.t3x3x2x2, 1, 'FULL'], grad: false },
  ] };
const TF_nn_conv2dTranspose: TfCall = { fn: 'tf.nn.conv2d_transpose', cases: 'none', extra: [
    { name: 'SAME stride 2', args: [IN.t1x4x4x2, IN.t3x3x2x2, [1, 8, 8, 2], 2, 'SAME'] },
    { name: 'VALID stride 1', args: [IN.t1x4x4x2, IN.t3x3x2x2, [1, 6, 6, 2], 1, 'VALID'] },
    { name: 'bad output shape', args: [IN.t1x4x4x2, IN.t3x3x2x2, [1, 5, 5, 2], 1, 'VALID'], grad: false },
  ] };
const TF_nn_conv3d: TfCall = { expr: 'lambda x, w, s, p: tf.nn.conv3d(x, w, [1, s, s, s, 1] if isinstance(s, int) else [1, *s, 1], p)', why: "ef's strides become TF's full-rank strides", cases: 'none', extra: [
    { name: 'VALID', args: [IN.t1x4x4x4x1, T([0.5, -1, 0.25, 2, -0.5, 1, 1.5, -0.25], undefined, [2, 2, 2, 1, 1]), 1, 'VALID'] },
    { name: 'SAME stride 2', args: [IN.t1x4x4x4x1, T([0.5, -1, 0.25, 2, -0.5, 1, 1.5, -0.25, 0.5, -1, 0.25, 2, -0.5, 1, 1.5, -0.25], undefined, [2, 2, 2, 1, 2]), 2, 'SAME'] },
  ] };
const TF_nn_conv3dTranspose: TfCall = { expr: 'lambda x, w, shape, s, p: tf.nn.conv3d_transpose(x, w, shape, [1, s, s, s, 1] if isinstance(s, int) else [1, *s, 1], p)', why: "ef's strides become TF's full-rank strides", cases: 'none', extra: [
    { name: 'SAME stride 2', args: [T([-2, -1, 0, 1, 2, -2, -1, 0], undefined, [1, 2, 2, 2, 1]), T([0.5, -1, 0.25, 2, -0.5, 1, 1.5, -0.25, 0.5, -1, 0.25, 2, -0.5, 1, 1.5, -0.25], undefined, [2, 2, 2, 2, 1]), [1, 4, 4, 4, 2], 2, 'SAME'] },
  ] };
const TF_nn_depthwiseConv2d: TfCall = { expr: "lambda x, w, s, p, o={}: tf.nn.depthwise_conv2d(x, w, [1, s, s, 1] if isinstance(s, int) else [1, *s, 1], p, dilations=None if opt(o, 'dilations', None) is None else [o['dilations']] * 2)", why: "ef's options object becomes TF's keyword arguments; ef's strides become TF's full-rank strides", cases: 'none', extra: [
    { name: 'VALID', args: [IN.t1x5x5x2_4, IN.t2x2x2x1, 1, 'VALID'] },
    { name: 'SAME stride 2', args: [IN.t1x5x5x2_4, IN.t2x2x2x1, 2, 'SAME'] },
    { name: 'multiplier 2 dilation 2', args: [IN.t1x5x5x2_4, T([0.5, -1, 0.25, 2, 0.5, -1, 0.25, 2, 0.5, -1, 0.25, 2, 0.5, -1, 0.25, 2], undefined, [2, 2, 2, 2]), 1, 'VALID', { dilations: 2 }] },
  ] };

const F = (...shape: number[]): InputSpec => ({ shape });
const I = (...shape: number[]): InputSpec => ({ shape, dtype: 'int32' });
type Pad = 'SAME' | 'VALID' | [number, number][];

const bindRec = (name: ef.internal.PrimitiveName, ins: ef.Tensor[], params: Record<string, unknown>): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES[name], ins, params)[0];
const canon = (n: number, s: number, d: number, padding: Pad, dataFormat: string) => ({ strides: new Array<number>(n).fill(s), dilations: new Array<number>(n).fill(d), padding, dataFormat });

interface Conv2dRow {
  name: string;
  x: number[];
  f: number[];
  s: number;
  pad: Pad;
  d?: number;
  /** Explicit pairs as the user passes them (full rank). */
  userPad?: [number, number][];
  stridesList?: number[];
  nchw?: boolean;
  noConverter?: string;
}

const CONV2D: Conv2dRow[] = [
  { name: 'conv2d VALID stride 1', x: [1, 4, 4, 2], f: [3, 3, 2, 3], s: 1, pad: 'VALID' },
  { name: 'conv2d SAME stride 2 batch 2', x: [2, 5, 5, 2], f: [3, 3, 2, 2], s: 2, pad: 'SAME' },
  { name: 'conv2d SAME even filter', x: [1, 4, 4, 1], f: [2, 2, 1, 2], s: 1, pad: 'SAME' },
  { name: 'conv2d explicit padding, strides [1, 2]', x: [1, 4, 3, 1], f: [2, 2, 1, 2], s: 1, pad: [[1, 0], [2, 1]], userPad: [[0, 0], [1, 0], [2, 1], [0, 0]], stridesList: [1, 1, 2, 1] },
  { name: 'conv2d dilations 2 (atrous)', x: [1, 5, 5, 1], f: [2, 2, 1, 2], s: 1, pad: 'SAME', d: 2 },
  { name: 'conv2d NCHW', x: [1, 2, 4, 4], f: [3, 3, 2, 2], s: 1, pad: 'SAME', nchw: true },
];

function specOf(r: Conv2dRow): ConvSpec {
  const strides = r.stridesList ? [r.stridesList[1], r.stridesList[2]] : [r.s, r.s];
  return { strides, dilations: [r.d ?? 1, r.d ?? 1], padding: r.pad };
}

function conv2dRow(r: Conv2dRow): ForwardCase {
  const spec = specOf(r);
  const fmt = r.nchw ? 'NCHW' : 'NHWC';
  return {
    prim: 'conv2d', api: 'nn.conv2d', tfCall: TF_nn_conv2d, tfOps: ['Conv2D'], name: r.name, inputs: [F(...r.x), F(...r.f)], noConverter: r.noConverter,
    op: (x, f) => ef.nn.conv2d(x, f, r.stridesList ?? r.s, r.userPad ?? r.pad, { dataFormat: fmt, dilations: [r.d ?? 1] }),
    ref: (x, f) => (r.nchw ? toFirst(convRef(toLast(x), f, spec)) : convRef(x, f, spec)),
  };
}

const dws: ForwardCase[] = [
  { prim: 'depthwise_conv2d', api: 'nn.depthwiseConv2d', tfCall: TF_nn_depthwiseConv2d, tfOps: ['DepthwiseConv2dNative'], name: 'depthwiseConv2d SAME', inputs: [F(1, 4, 4, 2), F(3, 3, 2, 2)], op: (x, f) => ef.nn.depthwiseConv2d(x, f, [1, 1, 1, 1], 'SAME'), ref: (x, f) => convRef(x, f, { strides: [1, 1], padding: 'SAME', depthwise: true }) },
  { prim: 'depthwise_conv2d', api: 'nn.depthwiseConv2d', tfCall: TF_nn_depthwiseConv2d, tfOps: ['DepthwiseConv2dNative'], name: 'depthwiseConv2d VALID stride 2', inputs: [F(1, 5, 5, 3), F(2, 2, 3, 1)], op: (x, f) => ef.nn.depthwiseConv2d(x, f, 2, 'VALID'), ref: (x, f) => convRef(x, f, { strides: [2, 2], padding: 'VALID', depthwise: true }) },
  { prim: 'depthwise_conv2d', api: 'nn.depthwiseConv2d', tfCall: TF_nn_depthwiseConv2d, tfOps: ['DepthwiseConv2dNative'], name: 'depthwiseConv2d dilations 2', inputs: [F(1, 5, 5, 2), F(2, 2, 2, 1)], op: (x, f) => ef.nn.depthwiseConv2d(x, f, 1, 'SAME', { dilations: [2, 2] }), ref: (x, f) => convRef(x, f, { strides: [1, 1], dilations: [2, 2], padding: 'SAME', depthwise: true }) },
  {
    prim: 'depthwise_conv2d', api: 'nn.depthwiseConv2d', tfCall: TF_nn_depthwiseConv2d, tfOps: ['DepthwiseConv2dNative'], name: 'depthwiseConv2d NCHW', noConverter: "the converter's depthwiseConv2d reads strides[1..2], which are batch/channel entries in NCHW",
    inputs: [F(1, 2, 4, 4), F(2, 2, 2, 2)], op: (x, f) => ef.nn.depthwiseConv2d(x, f, 1, 'VALID', { dataFormat: 'NCHW' }), ref: (x, f) => toFirst(convRef(toLast(x), f, { strides: [1, 1], padding: 'VALID', depthwise: true })),
  },
];

const c3: ForwardCase[] = [
  { prim: 'conv3d', api: 'nn.conv3d', tfCall: TF_nn_conv3d, tfOps: ['Conv3D'], name: 'conv3d VALID', inputs: [F(1, 3, 4, 3, 2), F(2, 2, 2, 2, 2)], op: (x, f) => ef.nn.conv3d(x, f, 1, 'VALID'), ref: (x, f) => convRef(x, f, { strides: [1, 1, 1], padding: 'VALID' }) },
  { prim: 'conv3d', api: 'nn.conv3d', tfCall: TF_nn_conv3d, tfOps: ['Conv3D'], name: 'conv3d SAME stride 2', inputs: [F(1, 3, 3, 3, 1), F(2, 2, 2, 1, 2)], op: (x, f) => ef.nn.conv3d(x, f, [1, 2, 2, 2, 1], 'SAME'), ref: (x, f) => convRef(x, f, { strides: [2, 2, 2], padding: 'SAME' }) },
];

const transposes: ForwardCase[] = [
  {
    prim: 'conv2d_backprop_input', api: 'nn.conv2dTranspose', tfCall: TF_nn_conv2dTranspose, tfOps: ['Conv2DBackpropInput'], name: 'conv2dTranspose SAME stride 2', inputs: [F(1, 3, 3, 2), F(3, 3, 4, 2)],
    op: (y, f) => ef.nn.conv2dTranspose(y, f, [1, 6, 6, 4], 2), ref: (y, f) => convInputRef([1, 6, 6, 4], f, y, { strides: [2, 2], padding: 'SAME' }),
  },
  {
    prim: 'conv2d_backprop_input', api: 'nn.conv2dTranspose', tfCall: TF_nn_conv2dTranspose, tfOps: ['Conv2DBackpropInput'], name: 'conv2dTranspose VALID', inputs: [F(2, 2, 2, 1), F(2, 2, 2, 1)],
    op: (y, f) => ef.nn.conv2dTranspose(y, f, [2, 3, 3, 2], 1, 'VALID'), ref: (y, f) => convInputRef([2, 3, 3, 2], f, y, { strides: [1, 1], padding: 'VALID' }),
  },
  {
    prim: 'conv2d_backprop_input', api: 'nn.conv2dTranspose', tfCall: TF_nn_conv2dTranspose, tfOps: ['Conv2DBackpropInput'], name: 'conv2dTranspose dilated', noConverter: "the converter's conv2dTranspose takes no dilations",
    inputs: [F(1, 2, 2, 1), F(2, 2, 2, 1)], op: (y, f) => ef.nn.conv2dTranspose(y, f, [1, 4, 4, 2], 1, 'VALID', { dilations: 2 }), ref: (y, f) => convInputRef([1, 4, 4, 2], f, y, { strides: [1, 1], dilations: [2, 2], padding: 'VALID' }),
  },
  {
    prim: 'conv3d_backprop_input', api: 'nn.conv3dTranspose', tfCall: TF_nn_conv3dTranspose, tfOps: ['Conv3DBackpropInputV2'], name: 'conv3dTranspose SAME stride 2', noConverter: 'the converter has no Conv3DBackpropInputV2',
    inputs: [F(1, 2, 2, 2, 2), F(2, 2, 2, 1, 2)], op: (y, f) => ef.nn.conv3dTranspose(y, f, [1, 4, 4, 3, 1], 2), ref: (y, f) => convInputRef([1, 4, 4, 3, 1], f, y, { strides: [2, 2, 2], padding: 'SAME' }),
  },
];

/** Backprop records without their own public op (conv gradients): bound directly, their rows cover the forward op. */
function backpropRows(): ForwardCase[] {
  const NO = 'the converter has no filter/depthwise-input backprop ops';
  const row = (prim: ef.internal.PrimitiveName, api: string, tfCall: TfCall, tf: string, name: string, xs: number[], ys: number[], params: Record<string, unknown>, ref: (a: Ref, b: Ref) => Ref): ForwardCase =>
    ({ prim, api, tfCall, tfOps: [tf], name, noConverter: NO, inputs: [F(...xs), F(...ys)], op: (a, b) => bindRec(prim, [a, b], params), ref });
  const p2 = canon(2, 2, 1, 'SAME', 'NHWC');
  const pd = canon(2, 1, 2, 'VALID', 'NHWC');
  return [
    row('conv2d_backprop_filter', 'nn.conv2d', TF_nn_conv2d, 'Conv2DBackpropFilter', 'conv2d filter backprop SAME stride 2', [1, 4, 4, 2], [1, 2, 2, 3], { ...p2, filterShape: [3, 3, 2, 3] }, (x, dy) => convFilterRef(x, [3, 3, 2, 3], dy, { strides: [2, 2], padding: 'SAME' })),
    row('conv2d_backprop_filter', 'nn.conv2d', TF_nn_conv2d, 'Conv2DBackpropFilter', 'conv2d filter backprop dilated', [1, 4, 4, 1], [1, 2, 2, 2], { ...pd, filterShape: [2, 2, 1, 2] }, (x, dy) => convFilterRef(x, [2, 2, 1, 2], dy, { strides: [1, 1], dilations: [2, 2], padding: 'VALID' })),
    row('depthwise_conv2d_backprop_input', 'nn.depthwiseConv2d', TF_nn_depthwiseConv2d, 'DepthwiseConv2dNativeBackpropInput', 'depthwise input backprop SAME stride 2', [1, 2, 2, 4], [3, 3, 2, 2], { ...p2, inputShape: [1, 4, 4, 2] }, (dy, f) => convInputRef([1, 4, 4, 2], f, dy, { strides: [2, 2], padding: 'SAME', depthwise: true })),
    row('depthwise_conv2d_backprop_filter', 'nn.depthwiseConv2d', TF_nn_depthwiseConv2d, 'DepthwiseConv2dNativeBackpropFilter', 'depthwise filter backprop dilated', [1, 4, 4, 2], [1, 2, 2, 2], { ...pd, filterShape: [2, 2, 2, 1] }, (x, dy) => convFilterRef(x, [2, 2, 2, 1], dy, { strides: [1, 1], dilations: [2, 2], padding: 'VALID', depthwise: true })),
    row('conv3d_backprop_filter', 'nn.conv3d', TF_nn_conv3d, 'Conv3DBackpropFilterV2', 'conv3d filter backprop VALID', [1, 3, 3, 2, 1], [1, 2, 2, 1, 2], { ...canon(3, 1, 1, 'VALID', 'NDHWC'), filterShape: [2, 2, 2, 1, 2] }, (x, dy) => convFilterRef(x, [2, 2, 2, 1, 2], dy, { strides: [1, 1, 1], padding: 'VALID' })),
  ];
}

export const convCases: ForwardCase[] = [...CONV2D.map(conv2dRow), ...dws, ...c3, ...transposes, ...backpropRows()];

const err = (prim: ef.internal.PrimitiveName, api: string, name: string, inputs: InputSpec[], run: (...xs: ef.Tensor[]) => unknown, op: string, got: string, expected: string, cls?: ErrorCase['cls']): ErrorCase =>
  ({ prim, api, name, inputs, run, op, got, expected, cls });

export const convErrors: ErrorCase[] = [
  err('conv2d', 'nn.conv2d', 'conv2d mismatched channels', [F(1, 4, 4, 3), F(2, 2, 2, 1)], (x, f) => ef.nn.conv2d(x, f, 1, 'SAME'), 'conv2d', '3 input channels and a filter for 2', 'input channels == filter dim 2 (2)'),
  err('conv2d', 'nn.conv2d', 'conv2d bad padding string', [F(1, 4, 4, 1), F(2, 2, 1, 1)], (x, f) => ef.nn.conv2d(x, f, 1, 'FULL' as 'SAME'), 'conv2d', '"FULL"', "'SAME', 'VALID' or explicit [before, after] pairs"),
  err('conv2d', 'nn.conv2d', 'conv2d rank-3 input', [F(4, 4, 1), F(2, 2, 1, 1)], (x, f) => ef.nn.conv2d(x, f, 1, 'SAME'), 'conv2d', 'shape [4, 4, 1]', 'rank 4'),
  err('conv2d', 'nn.conv2d', 'conv2d int32 input', [I(1, 4, 4, 1), F(2, 2, 1, 1)], (x, f) => ef.nn.conv2d(x, f, 1, 'SAME'), 'conv2d', 'int32', 'float32'),
  err('conv2d', 'nn.conv2d', 'conv2d strides of the wrong length', [F(1, 4, 4, 1), F(2, 2, 1, 1)], (x, f) => ef.nn.conv2d(x, f, [1, 2, 2], 'SAME'), 'conv2d', '[1, 2, 2]', '1, 2 or 4 values'),
  err('conv2d', 'nn.conv2d', 'conv2d bad dataFormat', [F(1, 4, 4, 1), F(2, 2, 1, 1)], (x, f) => ef.nn.conv2d(x, f, 1, 'SAME', { dataFormat: 'HWCN' }), 'conv2d', '"HWCN"', "'NHWC' or 'NCHW'"),
  err('conv2d', 'nn.conv2d', 'conv2d filter larger than the input (VALID)', [F(1, 2, 2, 1), F(3, 3, 1, 1)], (x, f) => ef.nn.conv2d(x, f, 1, 'VALID'), 'conv2d', 'input size 2 (+0 padding) for an effective filter size 3 in spatial dim 0', 'input size + padding >= (filter size - 1) * dilation + 1'),
  err('conv2d', 'nn.conv2d', 'conv2d of JS arrays with bad padding (no leak)', [], () => ef.nn.conv2d([[[[1]]]], [[[[1]]]], 1, [[1, 1]]), 'conv2d', '[[1,1]]', '4 [before, after] pairs (or 2 spatial pairs)'),
  err('conv2d_backprop_input', 'nn.conv2dTranspose', 'conv2dTranspose dy does not match outputShape', [F(1, 2, 2, 1), F(2, 2, 1, 1)], (y, f) => ef.nn.conv2dTranspose(y, f, [1, 5, 5, 1], 1, 'VALID'), 'conv2d', '[1, 2, 2, 1]', '[1, 4, 4, 1]'),
  err('conv2d_backprop_filter', 'nn.conv2d', 'conv2d filter backprop with int32 dy', [F(1, 2, 2, 1), I(1, 2, 2, 1)], (x, dy) => bindRec('conv2d_backprop_filter', [x, dy], { ...canon(2, 1, 1, 'SAME', 'NHWC'), filterShape: [1, 1, 1, 1] }), 'conv2d', 'int32', 'float32'),
  err('depthwise_conv2d', 'nn.depthwiseConv2d', 'depthwiseConv2d mismatched channels', [F(1, 4, 4, 2), F(2, 2, 3, 1)], (x, f) => ef.nn.depthwiseConv2d(x, f, 1, 'SAME'), 'depthwiseConv2d', '2 input channels and a filter for 3', 'input channels == filter dim 2 (3)'),
  err('depthwise_conv2d_backprop_input', 'nn.depthwiseConv2d', 'depthwise input backprop with a wrong dy', [F(1, 3, 3, 2), F(2, 2, 2, 1)], (dy, f) => bindRec('depthwise_conv2d_backprop_input', [dy, f], { ...canon(2, 1, 1, 'VALID', 'NHWC'), inputShape: [1, 3, 3, 2] }), 'depthwiseConv2d', '[1, 3, 3, 2]', '[1, 2, 2, 2]'),
  err('depthwise_conv2d_backprop_filter', 'nn.depthwiseConv2d', 'depthwise filter backprop with int32 x', [I(1, 3, 3, 2), F(1, 2, 2, 2)], (x, dy) => bindRec('depthwise_conv2d_backprop_filter', [x, dy], { ...canon(2, 1, 1, 'VALID', 'NHWC'), filterShape: [2, 2, 2, 1] }), 'depthwiseConv2d', 'int32', 'float32'),
  err('conv3d', 'nn.conv3d', 'conv3d explicit padding', [F(1, 2, 2, 2, 1), F(1, 1, 1, 1, 1)], (x, f) => ef.nn.conv3d(x, f, 1, [[0, 0], [1, 1], [1, 1], [1, 1], [0, 0]]), 'conv3d', '[[0,0],[1,1],[1,1],[1,1],[0,0]]', "'SAME' or 'VALID'"),
  err('conv3d_backprop_input', 'nn.conv3dTranspose', 'conv3dTranspose outputShape of the wrong rank', [F(1, 2, 2, 2, 1), F(1, 1, 1, 1, 1)], (y, f) => ef.nn.conv3dTranspose(y, f, [1, 2, 2, 1], 1), 'conv3dTranspose', '[1, 2, 2, 1]', '5 non-negative dims'),
  err('conv3d_backprop_filter', 'nn.conv3d', 'conv3d filter backprop with a rank-4 x', [F(1, 2, 2, 1), F(1, 2, 2, 2, 1)], (x, dy) => bindRec('conv3d_backprop_filter', [x, dy], { ...canon(3, 1, 1, 'VALID', 'NDHWC'), filterShape: [1, 1, 1, 1, 1] }), 'conv3d', 'shape [1, 2, 2, 1]', 'rank 5'),
];
