// The pooling records (tfjs-converter category "convolution"): avgPool2d/3d, maxPool2d/3d with gradient records, maxPoolWithArgmax.
// Composites: tf.nn pooling composites: avgPool/maxPool dispatching on rank, the 1-D forms, pool, and maxPoolWithArgmax's { output, argmax }.
import { lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import { gradLower } from '../onnx_grad_lowerings';
import { withOnnx } from '../onnx_spec';
import type { Info } from '../../backend/backend';
import type { AVal, Primitive } from '../primitive';
import type { ApiSpec } from '../api_spec';
import { api, arg, composites } from '../api_spec';
import { attr, outputRef, typeAttrOf } from '../graphdef_spec';
import { bind } from '../bind';
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { argError, checkArity, checkDTypes } from '../check';
import { formatArg, fullList, intList, show, spatialList } from './conv_util';
import { PoolKind, PoolParams, poolFamily, poolShape, readPoolAttrs } from './pool_family';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import { unimplemented } from '../../errors/error_toolkit';
import { describe } from '../../values/dtype';

const K2: PoolKind<''> = {
  n: 2, suffix: '', avgOp: 'avgPool2d', maxOp: 'maxPool2d', defFormat: 'NHWC', gradGrad: 'MaxPoolGradGrad',
  kernels: ['AvgPool', 'AvgPoolGrad', 'MaxPool', 'MaxPoolGrad'], tf: ['AvgPool', 'AvgPoolGrad', 'MaxPool', 'MaxPoolGrad'],
};
const K3: PoolKind<'3d'> = {
  n: 3, suffix: '3d', avgOp: 'avgPool3d', maxOp: 'maxPool3d', defFormat: 'NDHWC', gradGrad: 'MaxPool3DGradGrad',
  kernels: ['AvgPool3D', 'AvgPool3DGrad', 'MaxPool3D', 'MaxPool3DGrad'], tf: ['AvgPool3D', 'AvgPool3DGrad', 'MaxPool3D', 'MaxPool3DGrad'],
};

function withApi<R extends object, A extends ApiSpec>(rec: R, a: A): Omit<R, 'api'> & { readonly api: A } {
  (rec as { api?: A }).api = a;
  return rec as Omit<R, 'api'> & { readonly api: A };
}

/** 'SAME' or 'VALID' (any case): pools take no explicit padding in tfjs. */
export function poolPadding(op: string, v: unknown): 'SAME' | 'VALID' {
  const s = typeof v === 'string' ? v.toUpperCase() : v;
  if (s !== 'SAME' && s !== 'VALID') throw argError(op, 'unsupported padding', show(v), "'SAME' or 'VALID'", "Pass padding: 'SAME' or 'VALID'.");
  return s;
}

/** Normalizes TF's ksize/strides forms (1, n or n+2 values) to spatial lists. */
function preparePool(n: number) {
  return (op: string, p: Record<string, unknown>): void => {
    p.ksize = spatialList(op, 'ksize', p.ksize as number[], n, p.dataFormat as string);
    p.strides = spatialList(op, 'strides', p.strides as number[], n, p.dataFormat as string);
  };
}

const poolArgs = [arg.tensor('input', 'float32'), arg.custom('ksize', intList('ksize')), arg.custom('strides', intList('strides')), arg.custom('padding', poolPadding)] as const;
const fmt2 = [arg.custom('dataFormat', formatArg(['NHWC', 'NCHW']), 'NHWC')] as const;
const fmt3 = [arg.custom('dataFormat', formatArg(['NDHWC', 'NCDHW']), 'NDHWC')] as const;

const P2 = poolFamily(K2);
const P3 = poolFamily(K3);

/**
 * 2-D average pooling (TF's AvgPool): padded taps are not counted, like TF.
 * @example ef.nn.avgPool2d(ef.reshape([1, 2, 3, 4], [1, 2, 2, 1]), 2, 2, 'VALID').arraySync(); // [[[[2.5]]]]
 */
export const avgPool2d = withApi(withOnnx(P2.avg, lower.pool('AveragePool')), api(['nn.avgPool2d'], poolArgs, fmt2, { prepare: preparePool(2) }));
export const avgPool2dGrad = withOnnx(P2.avgGrad, gradLower.avgPoolGrad);
/** 2-D max pooling (TF's MaxPool). */
export const maxPool2d = withApi(withOnnx(P2.max, lower.pool('MaxPool')), api(['nn.maxPool2d'], poolArgs, fmt2, { prepare: preparePool(2) }));
export const maxPool2dGrad = withOnnx(P2.maxGrad, gradLower.maxPoolGrad);
export const maxPool2dGradGrad = P2.maxGradGrad;
export const avgPool3d = withApi(P3.avg, api(['nn.avgPool3d'], poolArgs, fmt3, { prepare: preparePool(3) }));
export const avgPool3dGrad = P3.avgGrad;
export const maxPool3d = withApi(P3.max, api(['nn.maxPool3d'], poolArgs, fmt3, { prepare: preparePool(3) }));
export const maxPool3dGrad = P3.maxGrad;
export const maxPool3dGradGrad = P3.maxGradGrad;

export interface ArgmaxParams extends PoolParams {
  readonly includeBatchInIndex: boolean;
}

/** The flat (batch-inclusive) argmax: adds b·H·W·C where TF's index leaves the batch out. */
function flatArgmax(argmax: Tensor, x: Tensor, p: ArgmaxParams): Tensor {
  if (p.includeBatchInIndex) return argmax;
  const d = x.dims as number[];
  const per = d[1] * d[2] * d[3];
  return o.add(argmax, o.reshape(o.mul(o.range(0, d[0], 1, 'int32'), per), [d[0], 1, 1, 1]));
}

/** maxPoolWithArgmax: { output, argmax } with TF's flat NHWC indices (int32 here). */
export const maxPoolWithArgmax = defineOp({
  name: 'max_pool_with_argmax',
  infer(ins: AVal[], p: ArgmaxParams) {
    checkArity('maxPoolWithArgmax', ins, 1);
    checkDTypes('maxPoolWithArgmax', ins[0], ['float32'], 'input');
    const s = poolShape('maxPoolWithArgmax', 2, ins[0].shape, p);
    return [{ dtype: 'float32', shape: s }, { dtype: 'int32', shape: s }];
  },
  impl: (k, [x], p: ArgmaxParams) => k.run('MaxPoolWithArgmax', { x }, { filterSize: [...p.ksize], strides: [...p.strides], pad: p.padding.toLowerCase(), includeBatchInIndex: p.includeBatchInIndex }) as Info[],
  // TF's MaxPoolGradWithArgmax: scatter the cotangent to the argmax positions (a segment sum, so any order).
  vjp(c, [x], [, argmax], p: ArgmaxParams) {
    const g = c[0];
    if (g === null) return [null];
    const d = x.dims as number[];
    const size = d.reduce((a, b) => a * b, 1);
    return [o.reshape(o.unsortedSegmentSum(o.reshape(g, [-1]), o.reshape(flatArgmax(argmax, x, p), [-1]), size), d)];
  },
  tf: {
    ops: ['MaxPoolWithArgmax'],
    write(s, n, [x]) {
      const p = n.params as ArgmaxParams;
      const node = s.add('MaxPoolWithArgmax', 'MaxPoolWithArgmax', [x], {
        T: typeAttrOf(s, n.inputs[0]), Targmax: attr.type('int32'), ksize: attr.ints(fullList(p.ksize, 'NHWC')), strides: attr.ints(fullList(p.strides, 'NHWC')),
        padding: attr.str(p.padding), include_batch_in_index: attr.bool(p.includeBatchInIndex),
      });
      return [node, outputRef(node, 1)];
    },
    read(r): Tensor[] {
      r.arity(1);
      return bind(maxPoolWithArgmax as unknown as Primitive, [r.input(0)], { ...readPoolAttrs(r, 2, 'NHWC'), includeBatchInIndex: r.node.bool('include_batch_in_index', false) });
    },
  },
});

type Ints = number | number[];
const avg2 = o.wrapperOf(avgPool2d);
const max2 = o.wrapperOf(maxPool2d);
const avg3 = o.wrapperOf(avgPool3d);
const max3 = o.wrapperOf(maxPool3d);

/** A pool over one spatial dim as TF lowers it: a unit height, the 2-D pool, then the height dropped. */
function pool1d(op: string, kind: 'avg' | 'max', input: TensorLike, ksize: Ints, strides: Ints, padding: string, dataFormat = 'NWC'): Tensor {
  const fmt = typeof dataFormat === 'string' ? dataFormat.toUpperCase() : dataFormat;
  if (fmt !== 'NWC' && fmt !== 'NCW') throw argError(op, 'unsupported dataFormat', describe(dataFormat), "'NWC' or 'NCW'", "Pass dataFormat: 'NWC'.");
  const k = spatialList(op, 'ksize', intList('ksize')(op, ksize) as number[], 1, fmt)[0];
  const s = spatialList(op, 'strides', intList('strides')(op, strides) as number[], 1, fmt)[0];
  return tidy(() => {
    const x = convert(op, input, 'float32').t;
    const h = fmt === 'NCW' ? 2 : 1;
    const f = kind === 'avg' ? avg2 : max2;
    // squeeze (not a static reshape): the batch and width may be known only at run time.
    return o.squeeze(f(o.expandDims(x, h), [1, k], [1, s], padding as 'SAME', { dataFormat: fmt === 'NCW' ? 'NCHW' : 'NHWC' }), [h]);
  });
}

/** avgPool1d(input, ksize, strides, padding, {dataFormat: 'NWC' | 'NCW'}). */
const avgPool1d = (input: TensorLike, ksize: Ints, strides: Ints, padding: string, options: { dataFormat?: string } = {}): Tensor => pool1d('avgPool1d', 'avg', input, ksize, strides, padding, options.dataFormat);
/** maxPool1d(input, ksize, strides, padding, {dataFormat: 'NWC' | 'NCW'}). */
const maxPool1d = (input: TensorLike, ksize: Ints, strides: Ints, padding: string, options: { dataFormat?: string } = {}): Tensor => pool1d('maxPool1d', 'max', input, ksize, strides, padding, options.dataFormat);

/** Dispatches on the input rank (3: 1-D, 4: 2-D, 5: 3-D), as tf.nn.avg_pool / max_pool do. */
function byRank(op: string, kind: 'avg' | 'max', input: TensorLike, ksize: Ints, strides: Ints, padding: string, dataFormat?: string, spatial?: number): Tensor {
  return tidy(() => {
    const x = convert(op, input, 'float32').t;
    // tf.nn.pool takes the rank from its window (so an unknown-rank input works); avg_pool/max_pool need it.
    const r = x.rank ?? (spatial === undefined ? null : spatial + 2);
    const opts = dataFormat === undefined ? {} : { dataFormat };
    if (r === 3) return pool1d(op, kind, x, ksize, strides, padding, dataFormat);
    if (r === 4) return (kind === 'avg' ? avg2 : max2)(x, ksize, strides, padding as 'SAME', opts);
    if (r === 5) return (kind === 'avg' ? avg3 : max3)(x, ksize, strides, padding as 'SAME', opts);
    throw argError(op, 'input must be rank 3, 4 or 5', r === null ? 'unknown rank' : `rank ${r}`, 'rank 3, 4 or 5 (N + 2 for N spatial dims)', 'Pass a batch of 1-D, 2-D or 3-D inputs.');
  });
}

/**
 * avgPool(input, ksize, strides, padding, {dataFormat}) for 1-D, 2-D or 3-D inputs.
 * @example ef.nn.avgPool(ef.reshape([1, 2, 3, 4], [1, 4, 1]), 2, 2, 'VALID').arraySync(); // [[[1.5], [3.5]]]
 */
const avgPool = (input: TensorLike, ksize: Ints, strides: Ints, padding: string, options: { dataFormat?: string } = {}): Tensor => byRank('avgPool', 'avg', input, ksize, strides, padding, options.dataFormat);
/**
 * maxPool(input, ksize, strides, padding, {dataFormat}) for 1-D, 2-D or 3-D inputs.
 * @example ef.nn.maxPool(ef.reshape([1, 2, 3, 4], [1, 4, 1]), 2, 2, 'VALID').arraySync(); // [[[2], [4]]]
 */
const maxPool = (input: TensorLike, ksize: Ints, strides: Ints, padding: string, options: { dataFormat?: string } = {}): Tensor => byRank('maxPool', 'max', input, ksize, strides, padding, options.dataFormat);

/**
 * pool(input, windowShape, poolingType, strides, padding, {dataFormat, dilations}) (TF's tf.nn.pool).
 * @example ef.nn.pool(ef.reshape([1, 2, 3, 4], [1, 4, 1]), [2], 'MAX', [2]).arraySync(); // [[[2], [4]]]
 */
function pool(input: TensorLike, windowShape: number[], poolingType: string, strides?: number[] | null, padding = 'VALID', options: { dataFormat?: string; dilations?: number[] } = {}): Tensor {
  const type = typeof poolingType === 'string' ? poolingType.toUpperCase() : poolingType;
  if (type !== 'AVG' && type !== 'MAX') throw argError('pool', 'unsupported poolingType', describe(poolingType), "'AVG' or 'MAX'", "Pass 'AVG' or 'MAX'.");
  if (!Array.isArray(windowShape) || windowShape.length < 1 || windowShape.length > 3) throw argError('pool', 'windowShape must list 1 to 3 sizes', describe(windowShape), 'e.g. [2, 2]', 'Pass one size per spatial dim.');
  if ((options.dilations ?? []).some((d) => d !== 1)) throw unimplemented('pool', 'dilations other than 1 are not supported', `[${options.dilations}]`, 'all 1', 'Use ef.nn.conv2d-based pooling or undilated windows.');
  return byRank('pool', type === 'AVG' ? 'avg' : 'max', input, windowShape, strides ?? windowShape.map(() => 1), padding, options.dataFormat, windowShape.length);
}

/**
 * maxPoolWithArgmax(input, ksize, strides, padding, {includeBatchInIndex}) -> { output, argmax } (argmax int32, flat NHWC indices).
 * @example ef.nn.maxPoolWithArgmax(ef.reshape([1, 4, 3, 2], [1, 2, 2, 1]), 2, 2, 'VALID').argmax.arraySync(); // [[[[1]]]]
 */
function maxPoolWithArgmaxOp(input: TensorLike, ksize: Ints, strides: Ints, padding: string, options: { dataFormat?: string; includeBatchInIndex?: boolean } = {}): { output: Tensor; argmax: Tensor } {
  const op = 'maxPoolWithArgmax';
  if (String(options.dataFormat ?? 'NHWC').toUpperCase() !== 'NHWC') throw argError(op, 'unsupported dataFormat', describe(options.dataFormat), "'NHWC'", "Pass dataFormat: 'NHWC' (TF's op is NHWC only).");
  const inc = options.includeBatchInIndex ?? false;
  if (typeof inc !== 'boolean') throw argError(op, 'includeBatchInIndex must be a boolean', describe(inc), 'true or false', 'Pass a boolean.');
  const params = {
    ksize: spatialList(op, 'ksize', intList('ksize')(op, ksize) as number[], 2, 'NHWC'),
    strides: spatialList(op, 'strides', intList('strides')(op, strides) as number[], 2, 'NHWC'),
    padding: poolPadding(op, padding),
    dataFormat: 'NHWC',
    includeBatchInIndex: inc,
  };
  const [output, argmax] = tidy(() => bind(maxPoolWithArgmax, [convert(op, input, 'float32').t], params));
  return { output, argmax };
}

/** The pool composites with their public paths (merged into COMPOSITES). */
export const POOL_COMPOSITES = composites('nn', { avgPool, maxPool, avgPool1d, maxPool1d, pool, maxPoolWithArgmax: maxPoolWithArgmaxOp });
