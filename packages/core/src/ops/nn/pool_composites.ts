// tf.nn pooling composites: avgPool/maxPool dispatching on rank, the 1-D forms, pool, and maxPoolWithArgmax's { output, argmax }.
import { composite } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import * as o from '../ops';
import * as P from './pool';
import { argError } from '../check';
import { unimplemented } from '../../errors/error_toolkit';
import { describe } from '../../values/dtype';
import { intList, spatialList } from './conv_util';

type Ints = number | number[];
const avg2 = o.wrapperOf(P.avgPool2d);
const max2 = o.wrapperOf(P.maxPool2d);
const avg3 = o.wrapperOf(P.avgPool3d);
const max3 = o.wrapperOf(P.maxPool3d);

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
function maxPoolWithArgmax(input: TensorLike, ksize: Ints, strides: Ints, padding: string, options: { dataFormat?: string; includeBatchInIndex?: boolean } = {}): { output: Tensor; argmax: Tensor } {
  const op = 'maxPoolWithArgmax';
  if (String(options.dataFormat ?? 'NHWC').toUpperCase() !== 'NHWC') throw argError(op, 'unsupported dataFormat', describe(options.dataFormat), "'NHWC'", "Pass dataFormat: 'NHWC' (TF's op is NHWC only).");
  const inc = options.includeBatchInIndex ?? false;
  if (typeof inc !== 'boolean') throw argError(op, 'includeBatchInIndex must be a boolean', describe(inc), 'true or false', 'Pass a boolean.');
  const params = {
    ksize: spatialList(op, 'ksize', intList('ksize')(op, ksize) as number[], 2, 'NHWC'),
    strides: spatialList(op, 'strides', intList('strides')(op, strides) as number[], 2, 'NHWC'),
    padding: P.poolPadding(op, padding),
    dataFormat: 'NHWC',
    includeBatchInIndex: inc,
  };
  const [output, argmax] = tidy(() => bind(P.maxPoolWithArgmax, [convert(op, input, 'float32').t], params));
  return { output, argmax };
}

/** The pool composites with their public paths (merged into COMPOSITES). */
export const POOL_COMPOSITES = {
  avgPool: composite(['nn.avgPool'], avgPool),
  maxPool: composite(['nn.maxPool'], maxPool),
  avgPool1d: composite(['nn.avgPool1d'], avgPool1d),
  maxPool1d: composite(['nn.maxPool1d'], maxPool1d),
  pool: composite(['nn.pool'], pool),
  maxPoolWithArgmax: composite(['nn.maxPoolWithArgmax'], maxPoolWithArgmax),
};
