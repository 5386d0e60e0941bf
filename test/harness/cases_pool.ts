// Harness cases for pooling: avg/max 1d/2d/3d, pool, maxPoolWithArgmax, the gradient records, and bad input.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec, TfCall, tfTensor as T } from './case';
import { Ref, map } from './ref';
import * as R from './ref';
import { poolArgmax, poolGradRef, poolRef, toFirst, toLast } from './ref_nn';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_nn_avgPool: TfCall = { fn: 'tf.nn.avg_pool', cases: 'none', extra: [
    { name: '2-D 2 VALID', args: [IN.t1x5x5x2_2, 2, 2, 'VALID'] },
    { name: '2-D 3 SAME stride 1', args: [IN.t1x5x5x2_2, 3, 1, 'SAME'] },
    { name: '2-D 3 SAME stride 2', args: [IN.t1x5x5x2_2, 3, 2, 'SAME'] },
  ] };
const TF_nn_avgPool1d: TfCall = { fn: 'tf.nn.avg_pool1d', cases: 'none', extra: [
    { name: '1-D 2 VALID', args: [IN.t1x7x2, 2, 2, 'VALID'] },
    { name: '1-D 3 SAME stride 1', args: [IN.t1x7x2, 3, 1, 'SAME'] },
    { name: '1-D 3 SAME stride 2', args: [IN.t1x7x2, 3, 2, 'SAME'] },
  ] };
const TF_nn_avgPool2d: TfCall = { fn: 'tf.nn.avg_pool2d', cases: 'none', extra: [
    { name: '2x2 VALID', args: [IN.t1x5x5x2, 2, 2, 'VALID'] },
    { name: '3x3 SAME stride 2', args: [IN.t1x5x5x2, 3, 2, 'SAME'] },
    { name: '[2,3] stride [1,2] SAME', args: [IN.t1x5x5x2, [2, 3], [1, 2], 'SAME'] },
    { name: '3x3 stride 1 VALID', args: [IN.t1x5x5x2, 3, 1, 'VALID'] },
    { name: 'window larger than input', args: [IN.t1x5x5x2, 6, 1, 'VALID'], grad: false },
  ] };
const TF_nn_avgPool3d: TfCall = { fn: 'tf.nn.avg_pool3d', cases: 'none', extra: [
    { name: '3-D 2 VALID', args: [IN.t1x4x4x4x1, 2, 2, 'VALID'] },
    { name: '3-D 3 SAME stride 1', args: [IN.t1x4x4x4x1, 3, 1, 'SAME'] },
    { name: '3-D 3 SAME stride 2', args: [IN.t1x4x4x4x1, 3, 2, 'SAME'] },
  ] };
const TF_nn_maxPool: TfCall = { fn: 'tf.nn.max_pool', cases: 'none', extra: [
    { name: '1-D 2 VALID', args: [IN.t1x7x2, 2, 2, 'VALID'] },
    { name: '1-D 3 SAME stride 1', args: [IN.t1x7x2, 3, 1, 'SAME'] },
    { name: '1-D 3 SAME stride 2', args: [IN.t1x7x2, 3, 2, 'SAME'] },
  ] };
const TF_nn_maxPool1d: TfCall = { fn: 'tf.nn.max_pool1d', cases: 'none', extra: [
    { name: '1-D 2 VALID', args: [IN.t1x7x2, 2, 2, 'VALID'] },
    { name: '1-D 3 SAME stride 1', args: [IN.t1x7x2, 3, 1, 'SAME'] },
    { name: '1-D 3 SAME stride 2', args: [IN.t1x7x2, 3, 2, 'SAME'] },
  ] };
const TF_nn_maxPool2d: TfCall = { fn: 'tf.nn.max_pool2d', cases: 'none', extra: [
    { name: '2x2 VALID', args: [IN.t1x5x5x2, 2, 2, 'VALID'] },
    { name: '3x3 SAME stride 2', args: [IN.t1x5x5x2, 3, 2, 'SAME'] },
    { name: '[2,3] stride [1,2] SAME', args: [IN.t1x5x5x2, [2, 3], [1, 2], 'SAME'] },
    { name: '3x3 stride 1 VALID', args: [IN.t1x5x5x2, 3, 1, 'VALID'] },
    { name: 'window larger than input', args: [IN.t1x5x5x2, 6, 1, 'VALID'], grad: false },
  ] };
const TF_nn_maxPool3d: TfCall = { fn: 'tf.nn.max_pool3d', cases: 'none', extra: [
    { name: '3-D 2 VALID', args: [IN.t1x4x4x4x1, 2, 2, 'VALID'] },
    { name: '3-D 3 SAME stride 1', args: [IN.t1x4x4x4x1, 3, 1, 'SAME'] },
    { name: '3-D 3 SAME stride 2', args: [IN.t1x4x4x4x1, 3, 2, 'SAME'] },
    { name: 'distinct values SAME', args: [T([0, 37, 10, 47, 20, 57, 30, 3, 40, 13, 50, 23, 60, 33, 6, 43, 16, 53, 26, 63, 36, 9, 46, 19, 56, 29, 2, 39, 12, 49, 22, 59, 32, 5, 42, 15, 52, 25, 62, 35, 8, 45, 18, 55, 28, 1, 38, 11, 48, 21, 58, 31, 4, 41, 14, 51, 24, 61, 34, 7, 44, 17, 54, 27], undefined, [1, 4, 4, 4, 1]), 3, 1, 'SAME'] },
  ] };
const TF_nn_maxPoolWithArgmax: TfCall = { fn: 'tf.nn.max_pool_with_argmax', cases: 'none', extra: [
    { name: '2x2 VALID', args: [IN.t1x4x4x2, 2, 2, 'VALID'], grad: false },
    { name: '3x3 SAME stride 2', args: [IN.t1x5x5x2_2, 3, 2, 'SAME'], grad: false },
  ] };
const TF_nn_pool: TfCall = { fn: 'tf.nn.pool', cases: 'none', params: ['x', 'w', 't', ['s', null], ['p', 'VALID']], keywords: { strides: 's', padding: 'p' }, extra: [
    { name: 'MAX 2x2', args: [IN.t1x5x5x2_2, [2, 2], 'MAX', [2, 2], 'VALID'] },
    { name: 'AVG 3x3 SAME', args: [IN.t1x5x5x2_2, [3, 3], 'AVG', [1, 1], 'SAME'] },
    { name: 'AVG 1-D', args: [IN.t1x7x2, [3], 'AVG', [2], 'VALID'] },
  ] };

const F = (...shape: number[]): InputSpec => ({ shape });
const I = (...shape: number[]): InputSpec => ({ shape, dtype: 'int32' });
type Pad = 'SAME' | 'VALID';
const bindRec = (name: ef.internal.PrimitiveName, ins: ef.Tensor[], params: Record<string, unknown>): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES[name], ins, params)[0];
const FMT_GAP = "the converter's pool ops ignore data_format (NCHW is read as NHWC)";

interface Row {
  kind: 'avg' | 'max';
  n: 2 | 3;
  x: number[];
  k: number;
  s: number;
  pad: Pad;
  nchw?: boolean;
}

const ROWS: Row[] = [
  { kind: 'avg', n: 2, x: [1, 4, 4, 2], k: 2, s: 2, pad: 'VALID' },
  { kind: 'avg', n: 2, x: [2, 5, 5, 1], k: 3, s: 2, pad: 'SAME' },
  { kind: 'avg', n: 2, x: [1, 2, 4, 4], k: 2, s: 1, pad: 'SAME', nchw: true },
  { kind: 'max', n: 2, x: [1, 4, 4, 2], k: 2, s: 2, pad: 'VALID' },
  { kind: 'max', n: 2, x: [2, 5, 5, 2], k: 3, s: 2, pad: 'SAME' },
  { kind: 'max', n: 2, x: [1, 2, 4, 4], k: 2, s: 1, pad: 'SAME', nchw: true },
  { kind: 'avg', n: 3, x: [1, 4, 4, 4, 1], k: 2, s: 2, pad: 'VALID' },
  { kind: 'avg', n: 3, x: [1, 3, 3, 3, 2], k: 2, s: 2, pad: 'SAME' },
  { kind: 'max', n: 3, x: [1, 4, 4, 4, 1], k: 2, s: 2, pad: 'VALID' },
  { kind: 'max', n: 3, x: [1, 3, 3, 3, 2], k: 3, s: 2, pad: 'SAME' },
];

/** The pool rows' TF calls, by their public op. */
const POOL_TF: Record<string, TfCall> = { 'nn.maxPool2d': TF_nn_maxPool2d, 'nn.avgPool2d': TF_nn_avgPool2d, 'nn.maxPool3d': TF_nn_maxPool3d, 'nn.avgPool3d': TF_nn_avgPool3d };

function poolRow(r: Row): ForwardCase {
  const api = `nn.${r.kind}Pool${r.n}d`;
  const tf = `${r.kind === 'avg' ? 'AvgPool' : 'MaxPool'}${r.n === 3 ? '3D' : ''}`;
  const fn = (ef.nn as unknown as Record<string, (...a: unknown[]) => ef.Tensor>)[`${r.kind}Pool${r.n}d`];
  const ks = new Array<number>(r.n).fill(r.k);
  const ss = new Array<number>(r.n).fill(r.s);
  const ref = (x: Ref): Ref => (r.nchw ? toFirst(poolRef(toLast(x), ks, ss, r.pad, r.kind)) : poolRef(x, ks, ss, r.pad, r.kind));
  return {
    prim: `${r.kind}_pool${r.n === 3 ? '3d' : ''}`, api, tfCall: POOL_TF[api], tfOps: [tf], name: `${r.kind}Pool${r.n}d ${r.pad} k${r.k} s${r.s}${r.nchw ? ' NCHW' : ''} [${r.x}]`,
    inputs: [F(...r.x)], op: (x) => fn(x, r.k, r.s, r.pad, r.nchw ? { dataFormat: 'NCHW' } : {}), ref,
    noConverter: r.nchw ? FMT_GAP : undefined,
  };
}

const p2 = (k: number, s: number, padding: Pad) => ({ ksize: [k, k], strides: [s, s], padding, dataFormat: 'NHWC' });
const p3 = (k: number, s: number, padding: Pad) => ({ ksize: [k, k, k], strides: [s, s, s], padding, dataFormat: 'NDHWC' });
const NO_GRAD_CONV = 'the converter has no pool gradient ops';

const gradRows: ForwardCase[] = [
  {
    prim: 'avg_pool_grad', api: 'nn.avgPool2d', tfCall: TF_nn_avgPool2d, tfOps: ['AvgPoolGrad'], name: 'avgPool2d gradient record SAME (padded taps not counted)', noConverter: NO_GRAD_CONV, inputs: [F(1, 3, 3, 2)],
    op: (dy) => bindRec('avg_pool_grad', [dy], { ...p2(3, 2, 'SAME'), inputShape: [1, 5, 5, 2] }), ref: (dy) => poolGradRef(new Ref([1, 5, 5, 2], new Array<number>(50).fill(0), 'float32'), dy, [3, 3], [2, 2], 'SAME', 'avg'),
  },
  {
    prim: 'max_pool_grad', api: 'nn.maxPool2d', tfCall: TF_nn_maxPool2d, tfOps: ['MaxPoolGrad'], name: 'maxPool2d gradient record', noConverter: NO_GRAD_CONV, inputs: [F(1, 4, 4, 2), F(1, 2, 2, 2)],
    op: (x, dy) => ef.tidy(() => bindRec('max_pool_grad', [x, ef.nn.maxPool2d(x, 2, 2, 'VALID'), dy], p2(2, 2, 'VALID'))), ref: (x, dy) => poolGradRef(x, dy, [2, 2], [2, 2], 'VALID', 'max'),
  },
  {
    prim: 'max_pool_grad_grad', api: 'nn.maxPool2d', tfCall: TF_nn_maxPool2d, tfOps: ['MaxPoolGradGrad'], name: 'maxPool2d grad-grad record', noConverter: NO_GRAD_CONV, inputs: [F(1, 5, 5, 1), F(1, 5, 5, 1)],
    op: (x, gg) => ef.tidy(() => bindRec('max_pool_grad_grad', [x, ef.nn.maxPool2d(x, 3, 2, 'SAME'), gg], p2(3, 2, 'SAME'))),
    ref: (x, gg) => map(poolArgmax(x, [3, 3], [2, 2], 'SAME'), (i) => gg.num(i), 'float32'),
  },
  {
    prim: 'avg_pool3d_grad', api: 'nn.avgPool3d', tfCall: TF_nn_avgPool3d, tfOps: ['AvgPool3DGrad'], name: 'avgPool3d gradient record', noConverter: NO_GRAD_CONV, inputs: [F(1, 2, 2, 2, 1)],
    op: (dy) => bindRec('avg_pool3d_grad', [dy], { ...p3(2, 2, 'SAME'), inputShape: [1, 3, 3, 3, 1] }), ref: (dy) => poolGradRef(new Ref([1, 3, 3, 3, 1], new Array<number>(27).fill(0), 'float32'), dy, [2, 2, 2], [2, 2, 2], 'SAME', 'avg'),
  },
  {
    prim: 'max_pool3d_grad', api: 'nn.maxPool3d', tfCall: TF_nn_maxPool3d, tfOps: ['MaxPool3DGrad'], name: 'maxPool3d gradient record', noConverter: NO_GRAD_CONV, inputs: [F(1, 4, 4, 4, 1), F(1, 2, 2, 2, 1)],
    op: (x, dy) => ef.tidy(() => bindRec('max_pool3d_grad', [x, ef.nn.maxPool3d(x, 2, 2, 'VALID'), dy], p3(2, 2, 'VALID'))), ref: (x, dy) => poolGradRef(x, dy, [2, 2, 2], [2, 2, 2], 'VALID', 'max'),
  },
  {
    prim: 'max_pool3d_grad_grad', api: 'nn.maxPool3d', tfCall: TF_nn_maxPool3d, tfOps: ['MaxPool3DGradGrad'], name: 'maxPool3d grad-grad record SAME (first argmax)', noConverter: NO_GRAD_CONV, inputs: [F(1, 3, 3, 3, 2), F(1, 3, 3, 3, 2)],
    op: (x, gg) => ef.tidy(() => bindRec('max_pool3d_grad_grad', [x, ef.nn.maxPool3d(x, 3, 2, 'SAME'), gg], p3(3, 2, 'SAME'))),
    ref: (x, gg) => map(poolArgmax(x, [3, 3, 3], [2, 2, 2], 'SAME'), (i) => gg.num(i), 'float32'),
  },
];

const argmaxRows: ForwardCase[] = [
  {
    prim: 'max_pool_with_argmax', api: 'nn.maxPoolWithArgmax', tfCall: TF_nn_maxPoolWithArgmax, tfOps: ['MaxPoolWithArgmax'], name: 'maxPoolWithArgmax batch 2 (argmax without the batch)', inputs: [F(2, 4, 4, 2)],
    op: (x) => ef.nn.maxPoolWithArgmax(x, 2, 2, 'VALID'),
    ref: (x) => ({ output: poolRef(x, [2, 2], [2, 2], 'VALID', 'max'), argmax: map(poolArgmax(x, [2, 2], [2, 2], 'VALID'), (i) => i % 32) }),
  },
  {
    prim: 'max_pool_with_argmax', api: 'nn.maxPoolWithArgmax', tfCall: TF_nn_maxPoolWithArgmax, tfOps: ['MaxPoolWithArgmax'], name: 'maxPoolWithArgmax SAME includeBatchInIndex', inputs: [F(2, 3, 3, 1)],
    op: (x) => ef.nn.maxPoolWithArgmax(x, 2, 2, 'SAME', { includeBatchInIndex: true }),
    ref: (x) => ({ output: poolRef(x, [2, 2], [2, 2], 'SAME', 'max'), argmax: poolArgmax(x, [2, 2], [2, 2], 'SAME') }),
  },
];

const r1 = (x: Ref): Ref => R.reshape(x, [x.shape[0], 1, x.shape[1], x.shape[2]]);
const un1 = (y: Ref): Ref => R.reshape(y, [y.shape[0], y.shape[2], y.shape[3]]);

const composites: ForwardCase[] = [
  { prim: 'avg_pool', api: 'nn.avgPool', tfCall: TF_nn_avgPool, tfOps: ['AvgPool'], name: 'avgPool of a rank-3 input (1-D)', inputs: [F(2, 6, 2)], op: (x) => ef.nn.avgPool(x, 2, 2, 'VALID'), ref: (x) => un1(poolRef(r1(x), [1, 2], [1, 2], 'VALID', 'avg')) },
  { prim: 'max_pool3d', api: 'nn.maxPool', tfCall: TF_nn_maxPool, tfOps: ['MaxPool3D'], name: 'maxPool of a rank-5 input (3-D)', inputs: [F(1, 2, 4, 4, 1)], op: (x) => ef.nn.maxPool(x, [1, 2, 2], [1, 2, 2], 'VALID'), ref: (x) => poolRef(x, [1, 2, 2], [1, 2, 2], 'VALID', 'max') },
  { prim: 'avg_pool', api: 'nn.avgPool1d', tfCall: TF_nn_avgPool1d, tfOps: ['AvgPool'], name: 'avgPool1d SAME stride 2', inputs: [F(1, 5, 3)], op: (x) => ef.nn.avgPool1d(x, 3, 2, 'SAME'), ref: (x) => un1(poolRef(r1(x), [1, 3], [1, 2], 'SAME', 'avg')) },
  {
    prim: 'max_pool', api: 'nn.maxPool1d', tfCall: TF_nn_maxPool1d, tfOps: ['MaxPool'], name: 'maxPool1d NCW', noConverter: FMT_GAP, inputs: [F(1, 2, 6)], op: (x) => ef.nn.maxPool1d(x, 2, 2, 'VALID', { dataFormat: 'NCW' }),
    ref: (x) => R.transpose(un1(poolRef(r1(R.transpose(x, [0, 2, 1])), [1, 2], [1, 2], 'VALID', 'max')), [0, 2, 1]),
  },
  { prim: 'avg_pool', api: 'nn.pool', tfCall: TF_nn_pool, tfOps: ['AvgPool'], name: 'pool AVG 2-D SAME', inputs: [F(1, 4, 4, 1)], op: (x) => ef.nn.pool(x, [2, 2], 'AVG', [2, 2], 'SAME'), ref: (x) => poolRef(x, [2, 2], [2, 2], 'SAME', 'avg') },
];

export const poolCases: ForwardCase[] = [...ROWS.map(poolRow), ...gradRows, ...argmaxRows, ...composites];

const e = (prim: ef.internal.PrimitiveName, api: string, name: string, inputs: InputSpec[], run: (...xs: ef.Tensor[]) => unknown, op: string, got: string, expected: string, cls?: ErrorCase['cls']): ErrorCase => ({ prim, api, name, inputs, run, op, got, expected, cls });

export const poolErrors: ErrorCase[] = [
  e('avg_pool', 'nn.avgPool2d', 'avgPool2d bad padding', [F(1, 4, 4, 1)], (x) => ef.nn.avgPool2d(x, 2, 2, 'FULL' as 'SAME'), 'avgPool2d', '"FULL"', "'SAME' or 'VALID'"),
  e('avg_pool', 'nn.avgPool2d', 'avgPool2d int32 input', [I(1, 4, 4, 1)], (x) => ef.nn.avgPool2d(x, 2, 2, 'VALID'), 'avgPool2d', 'int32', 'float32'),
  e('max_pool', 'nn.maxPool2d', 'maxPool2d rank-3 input', [F(4, 4, 1)], (x) => ef.nn.maxPool2d(x, 2, 2, 'VALID'), 'maxPool2d', 'shape [4, 4, 1]', 'rank 4'),
  e('avg_pool3d', 'nn.avgPool3d', 'avgPool3d ksize of the wrong length', [F(1, 2, 2, 2, 1)], (x) => ef.nn.avgPool3d(x, [2, 2], 1, 'SAME'), 'avgPool3d', '[2, 2]', '1, 3 or 5 values'),
  e('max_pool3d', 'nn.maxPool3d', 'maxPool3d bad dataFormat', [F(1, 2, 2, 2, 1)], (x) => ef.nn.maxPool3d(x, 1, 1, 'SAME', { dataFormat: 'NHWC' }), 'maxPool3d', '"NHWC"', "'NDHWC' or 'NCDHW'"),
  e('avg_pool', 'nn.pool', 'pool bad poolingType', [F(1, 4, 4, 1)], (x) => ef.nn.pool(x, [2, 2], 'MIN'), 'pool', '"MIN"', "'AVG' or 'MAX'"),
  e('avg_pool', 'nn.avgPool', 'avgPool rank-2 input', [F(4, 4)], (x) => ef.nn.avgPool(x, 2, 2, 'VALID'), 'avgPool', 'rank 2', 'rank 3, 4 or 5 (N + 2 for N spatial dims)'),
  e('max_pool_with_argmax', 'nn.maxPoolWithArgmax', 'maxPoolWithArgmax NCHW', [F(1, 1, 4, 4)], (x) => ef.nn.maxPoolWithArgmax(x, 2, 2, 'VALID', { dataFormat: 'NCHW' }), 'maxPoolWithArgmax', '"NCHW"', "'NHWC'"),
  e('max_pool_with_argmax', 'nn.maxPoolWithArgmax', 'maxPoolWithArgmax int32 input', [I(1, 4, 4, 1)], (x) => ef.nn.maxPoolWithArgmax(x, 2, 2, 'VALID'), 'maxPoolWithArgmax', 'int32', 'float32'),
  e('avg_pool_grad', 'nn.avgPool2d', 'avgPool2d gradient record with int32 dy', [I(1, 2, 2, 1)], (dy) => bindRec('avg_pool_grad', [dy], { ...p2(2, 2, 'VALID'), inputShape: [1, 4, 4, 1] }), 'avgPool2d', 'int32', 'float32'),
  e('max_pool_grad', 'nn.maxPool2d', 'maxPool2d gradient record with int32 dy', [F(1, 4, 4, 1), F(1, 2, 2, 1), I(1, 2, 2, 1)], (x, y, dy) => bindRec('max_pool_grad', [x, y, dy], p2(2, 2, 'VALID')), 'maxPool2d', 'int32', 'float32'),
  e('max_pool_grad_grad', 'nn.maxPool2d', 'maxPool2d grad-grad record with int32 x', [I(1, 4, 4, 1), F(1, 2, 2, 1), F(1, 4, 4, 1)], (x, y, g) => bindRec('max_pool_grad_grad', [x, y, g], p2(2, 2, 'VALID')), 'maxPool2d', 'int32', 'float32'),
  e('avg_pool3d_grad', 'nn.avgPool3d', 'avgPool3d gradient record with int32 dy', [I(1, 1, 1, 1, 1)], (dy) => bindRec('avg_pool3d_grad', [dy], { ...p3(2, 2, 'VALID'), inputShape: [1, 2, 2, 2, 1] }), 'avgPool3d', 'int32', 'float32'),
  e('max_pool3d_grad_grad', 'nn.maxPool3d', 'maxPool3d grad-grad record with int32 gg', [F(1, 2, 2, 2, 1), F(1, 1, 1, 1, 1), I(1, 2, 2, 2, 1)], (x, y, g) => bindRec('max_pool3d_grad_grad', [x, y, g], p3(2, 2, 'VALID')), 'maxPool3d', 'int32', 'float32'),
  e('max_pool3d_grad', 'nn.maxPool3d', 'maxPool3d gradient record with int32 dy', [F(1, 2, 2, 2, 1), F(1, 1, 1, 1, 1), I(1, 1, 1, 1, 1)], (x, y, dy) => bindRec('max_pool3d_grad', [x, y, dy], p3(2, 2, 'VALID')), 'maxPool3d', 'int32', 'float32'),
];
