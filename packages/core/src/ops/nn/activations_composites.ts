// tf.nn composites built from records: activations (softsign, silu, gelu, logSoftmax) and the conv wrappers (conv1d, separable, atrous).
import { composite } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import * as o from '../ops';
import * as UNA from '../math/unary';
import * as CONV from './conv';
import { argError } from '../check';
import { unimplemented } from '../../errors/error_toolkit';
import { describe, showValue } from '../../values/dtype';
import { primitiveByName } from '../table';

const sigmoid: (x: TensorLike) => Tensor = o.wrapperOf(UNA.sigmoid);
const tanh: (x: TensorLike) => Tensor = o.wrapperOf(UNA.tanh);
const abs: (x: TensorLike) => Tensor = o.wrapperOf(UNA.abs);
const conv2d = o.wrapperOf(CONV.conv2d);
const depthwiseConv2d = o.wrapperOf(CONV.depthwiseConv2d);

/** One float32 input of a composite (JS values converted; temporaries freed by the tidy around it). */
const input = (op: string, x: TensorLike): Tensor => convert(op, x, 'float32').t;

/**
 * softsign(x) = x / (1 + |x|).
 * @example ef.nn.softsign([1, -3]).arraySync(); // [0.5, -0.75]
 */
function softsign(features: TensorLike): Tensor {
  return tidy(() => {
    const x = input('softsign', features);
    // TF's Softsign has float kernels only (int32 raises there too).
    if (x.dtype !== 'float32') throw argError('softsign', 'unsupported dtype for features', x.dtype, 'float32', "Cast it first, e.g. ef.cast(x, 'float32').");
    return o.div(x, o.add(abs(x), 1));
  });
}

/**
 * silu(x) = x · sigmoid(x) (also `swish`).
 * @example ef.nn.silu([0]).arraySync(); // [0]
 */
function silu(features: TensorLike): Tensor {
  return tidy(() => {
    const x = input('silu', features);
    return o.mul(x, sigmoid(x));
  });
}

/**
 * gelu(x, {approximate}): x·Φ(x) exactly (with erf), or TF's tanh approximation.
 * @example ef.nn.gelu([0], { approximate: true }).arraySync(); // [0]
 */
function gelu(features: TensorLike, options: { approximate?: boolean } = {}): Tensor {
  const approximate = options.approximate ?? false;
  if (typeof approximate !== 'boolean') throw argError('gelu', 'approximate must be a boolean', describe(approximate), 'true or false', 'Pass { approximate: true } or false.');
  return tidy(() => {
    const x = input('gelu', features);
    if (approximate) {
      // TF: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
      const inner = o.mul(o.add(x, o.mul(o.mul(o.square(x), x), 0.044715)), Math.sqrt(2 / Math.PI));
      return o.mul(o.mul(x, 0.5), o.add(tanh(inner), 1));
    }
    // TF: 0.5·x·(1 + erf(x/√2)); erf is a math record (issue 11's math family).
    const erf = primitiveByName('erf');
    if (erf === undefined) throw unimplemented('gelu', 'the exact form needs the erf op, which this build lacks', 'approximate: false', 'approximate: true', 'Pass { approximate: true }.');
    const e = bind(erf, [o.mul(x, Math.SQRT1_2)], {})[0];
    return o.mul(o.mul(x, 0.5), o.add(e, 1));
  });
}

/**
 * logSoftmax(logits, axis = -1) = x - max - log(sum(exp(x - max))), stable for large logits.
 * @example ef.nn.logSoftmax([0, 0]).arraySync(); // [-0.6931471824645996, -0.6931471824645996]
 */
export function logSoftmax(logits: TensorLike, axis = -1): Tensor {
  if (!Number.isInteger(axis)) throw argError('logSoftmax', 'axis must be an integer', describe(axis), 'an integer', 'Pass e.g. -1.');
  return tidy(() => {
    const x = input('logSoftmax', logits);
    const shifted = o.sub(x, o.stopGradient(o.reduceMax(x, axis, true)));
    return o.sub(shifted, o.log(o.reduceSum(o.exp(shifted), axis, true)));
  });
}

type Pad = string | readonly (readonly number[])[];

/** Adds a unit spatial dim in front of the one spatial dim (NWC -> N1WC, NCW -> NC1W) and of the filter. */
function padding2d(op: string, p: Pad, fmt: string): Pad {
  if (typeof p === 'string') return p;
  if (!Array.isArray(p) || (p.length !== 3 && p.length !== 1)) throw argError(op, 'explicit padding has the wrong length', showValue(p), '3 [before, after] pairs (or 1 spatial pair)', 'Pass one pair per dim.');
  const sp = p.length === 1 ? p[0] : p[fmt === 'NCW' ? 2 : 1];
  const w = [sp[0], sp[1]];
  return fmt === 'NCW' ? [[0, 0], [0, 0], [0, 0], w] : [[0, 0], [0, 0], w, [0, 0]];
}

/**
 * conv1d(input, filters, stride, padding, {dataFormat: 'NWC' | 'NCW', dilations}) as TF lowers it: Conv2D with a unit height.
 * @example ef.nn.conv1d([[[1], [2], [3]]], [[[1]], [[1]]], 1, 'VALID').arraySync(); // [[[3], [5]]]
 */
function conv1d(input: TensorLike, filters: TensorLike, stride: number | number[], padding: Pad, options: { dataFormat?: string; dilations?: number | number[] } = {}): Tensor {
  const fmt = (options.dataFormat ?? 'NWC').toUpperCase();
  if (fmt !== 'NWC' && fmt !== 'NCW') throw argError('conv1d', 'unsupported dataFormat', describe(options.dataFormat), "'NWC' or 'NCW'", "Pass dataFormat: 'NWC'.");
  const one = (v: number | number[], what: string): number => {
    const l = typeof v === 'number' ? [v] : v;
    if (!Array.isArray(l) || ![1, 3].includes(l.length) || !Number.isInteger(l[l.length === 3 ? (fmt === 'NCW' ? 2 : 1) : 0])) throw argError('conv1d', `${what} must be an integer or 3 integers`, showValue(v), 'e.g. 1 or [1, 2, 1]', `Pass ${what} as TensorFlow does.`);
    return l[l.length === 3 ? (fmt === 'NCW' ? 2 : 1) : 0];
  };
  const s = one(stride, 'stride');
  const d = one(options.dilations ?? 1, 'dilations');
  return tidy(() => {
    const x = convert('conv1d', input, 'float32').t;
    const f = convert('conv1d', filters, 'float32').t;
    const hAxis = fmt === 'NCW' ? 2 : 1;
    const y = conv2d(o.expandDims(x, hAxis), o.expandDims(f, 0), [1, s], padding2d('conv1d', padding, fmt), { dataFormat: fmt === 'NCW' ? 'NCHW' : 'NHWC', dilations: [1, d] });
    // squeeze (not a static reshape): the batch and width may be known only at run time.
    return o.squeeze(y, [hAxis]);
  });
}

/**
 * atrousConv2d(value, filters, rate, padding): conv2d with dilations [rate, rate] (TF's atrous_conv2d).
 * @example ef.nn.atrousConv2d(ef.ones([1, 3, 3, 1]), ef.ones([2, 2, 1, 1]), 2, 'VALID').arraySync(); // [[[[4]]]]
 */
function atrousConv2d(value: TensorLike, filters: TensorLike, rate: number, padding: string): Tensor {
  if (!Number.isInteger(rate) || rate < 1) throw argError('atrousConv2d', 'rate must be a positive integer', describe(rate), 'an integer >= 1', 'Pass e.g. 2.');
  return conv2d(value, filters, 1, padding, { dilations: [rate, rate] });
}

/**
 * separableConv2d(input, depthwiseFilter, pointwiseFilter, strides, padding, {dataFormat, dilations}):
 * a depthwise conv, then a 1x1 conv mixing channels.
 * @example ef.nn.separableConv2d(ef.ones([1, 2, 2, 1]), ef.ones([2, 2, 1, 1]), ef.ones([1, 1, 1, 2]), 1, 'VALID').arraySync(); // [[[[4, 4]]]]
 */
function separableConv2d(
  input: TensorLike, depthwiseFilter: TensorLike, pointwiseFilter: TensorLike, strides: number | number[], padding: Pad, options: { dataFormat?: string; dilations?: number | number[] } = {},
): Tensor {
  return tidy(() => {
    const dw = depthwiseConv2d(input, depthwiseFilter, strides, padding, options);
    return conv2d(dw, pointwiseFilter, 1, 'VALID', { dataFormat: options.dataFormat ?? 'NHWC' });
  });
}

/** The nn composites with their public paths (merged into COMPOSITES). */
export const NN_COMPOSITES = {
  softsign: composite(['nn.softsign', 'math.softsign'], softsign),
  silu: composite(['nn.silu', 'nn.swish'], silu),
  gelu: composite(['nn.gelu'], gelu),
  logSoftmax: composite(['nn.logSoftmax', 'math.logSoftmax'], logSoftmax),
  conv1d: composite(['nn.conv1d'], conv1d),
  atrousConv2d: composite(['nn.atrousConv2d'], atrousConv2d),
  separableConv2d: composite(['nn.separableConv2d'], separableConv2d),
};
