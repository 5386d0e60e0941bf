// The conv records (tfjs-converter category "convolution"): conv2d, depthwiseConv2d, conv3d, their input/filter backprops and transposes.
// Composites: Composites: the conv wrappers TF builds from Conv2D and DepthwiseConv2dNative (conv1d, atrous, separable).
import { lower } from '../onnx_lowerings';
import { gradLower } from '../onnx_grad_lowerings';
import { withOnnx } from '../onnx_spec';
import { api, arg, composites } from '../api_spec';
import type { ApiSpec } from '../api_spec';
import { attr } from '../graphdef_spec';
import { argError } from '../check';
import { ConvKind, convFamily } from './conv_family';
import { formatArg, intList, paddingArg, spatialList, spatialPadding } from './conv_util';
import type { TensorLike } from '../../values/convert';
import { convert, release } from '../../values/convert';
import { tidy } from '../../backend/memory';
import { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import type { Primitive } from '../primitive';
import * as o from '../ops';
import { describe, showValue } from '../../values/dtype';

const KIND2D: ConvKind<'conv2d'> = {
  op: 'conv2d', ir: 'conv2d', n: 2, depthwise: false, defFormat: 'NHWC', explicitAttr: true,
  kernels: ['Conv2D', 'Conv2DBackpropInput', 'Conv2DBackpropFilter'], tf: ['Conv2D', 'Conv2DBackpropInput', 'Conv2DBackpropFilter'],
  extraAttrs: { use_cudnn_on_gpu: attr.bool(true) },
};
const KIND_DW: ConvKind<'depthwise_conv2d'> = {
  op: 'depthwiseConv2d', ir: 'depthwise_conv2d', n: 2, depthwise: true, defFormat: 'NHWC', explicitAttr: true,
  kernels: ['DepthwiseConv2dNative', 'DepthwiseConv2dNativeBackpropInput', 'DepthwiseConv2dNativeBackpropFilter'],
  tf: ['DepthwiseConv2dNative', 'DepthwiseConv2dNativeBackpropInput', 'DepthwiseConv2dNativeBackpropFilter'],
  extraAttrs: {},
};
const KIND3D: ConvKind<'conv3d'> = {
  op: 'conv3d', ir: 'conv3d', n: 3, depthwise: false, defFormat: 'NDHWC', explicitAttr: false,
  kernels: ['Conv3D', 'Conv3DBackpropInputV2', 'Conv3DBackpropFilterV2'], tf: ['Conv3D', 'Conv3DBackpropInputV2', 'Conv3DBackpropFilterV2'],
  extraAttrs: {},
};

/** Sets a record's public API (the record object itself: vjps bind the same object, the table keys it by name). */
function withApi<R extends object, A extends ApiSpec>(rec: R, a: A): Omit<R, 'api'> & { readonly api: A } {
  (rec as { api?: A }).api = a;
  return rec as Omit<R, 'api'> & { readonly api: A };
}

/** Normalizes TF's strides/dilations/padding forms to the records' canonical spatial params. */
function prepareConv(n: number, explicitOk: boolean, shapeKey?: string) {
  return (op: string, p: Record<string, unknown>): void => {
    const fmt = p.dataFormat as string;
    p.strides = spatialList(op, 'strides', p.strides as number[], n, fmt);
    p.dilations = spatialList(op, 'dilations', p.dilations as number[], n, fmt);
    p.padding = spatialPadding(op, p.padding as string, n, fmt, explicitOk);
    const shape = shapeKey === undefined ? undefined : (p[shapeKey] as number[]);
    if (shape !== undefined && (shape.length !== n + 2 || shape.some((d) => d < 0))) {
      throw argError(op, 'outputShape has the wrong rank', `[${shape.join(', ')}]`, `${n + 2} non-negative dims`, `Pass the full ${fmt} output shape.`);
    }
  };
}

const F2 = ['NHWC', 'NCHW'] as const;
const F3 = ['NDHWC', 'NCDHW'] as const;
const strides = arg.custom('strides', intList('strides'));
const padding = arg.custom('padding', paddingArg);
const dilations = arg.custom('dilations', intList('dilations'), 1 as number | number[]);
const fmt2 = arg.custom('dataFormat', formatArg(F2), 'NHWC');
const fmt3 = arg.custom('dataFormat', formatArg(F3), 'NDHWC');

const C2 = convFamily(KIND2D);
const DW = convFamily(KIND_DW);
const C3 = convFamily(KIND3D);

/**
 * 2-D convolution (TF's Conv2D): `padding` 'SAME' / 'VALID' or explicit pairs, NHWC or NCHW.
 * @example
 * const y = ef.nn.conv2d(ef.ones([1, 3, 3, 1]), ef.ones([2, 2, 1, 1]), 1, 'VALID');
 * y.arraySync(); // [[[[4], [4]], [[4], [4]]]]
 */
export const conv2d = withApi(withOnnx(C2.fwd, lower.conv2d), api(['nn.conv2d'], [arg.tensor('input'), arg.tensor('filters'), strides, padding], [fmt2, dilations], { prepare: prepareConv(2, true) }));
/**
 * nn.conv2dTranspose with `outputShape` an int32 tensor (TF's output_shape operand, e.g. stacked from tf.shape parts):
 * the sizes are read when the op runs, traced functions keep them a tensor input of the op.
 */
function conv2dTransposeBySizes(op: string, args: readonly unknown[]): Tensor | undefined {
  const [input, filters, shapeArg, s, pad, options] = args as [TensorLike, TensorLike, unknown, unknown, unknown, { dataFormat?: unknown; dilations?: unknown } | undefined];
  const withTensors = Array.isArray(shapeArg) && shapeArg.some((d) => d instanceof Tensor);
  if ((!(shapeArg instanceof Tensor) && !withTensors) || args.length > 6) return undefined;
  // Dims with scalar tensors among them ([b, h * 2, w * 2, 4]) are stacked into the sizes vector.
  const outputShape = withTensors ? tidy(() => o.concat((shapeArg as (number | Tensor)[]).map((d) => (d instanceof Tensor ? o.reshape(o.cast(d, 'int32'), [1]) : Int32Array.of(d))), 0)) : (shapeArg as Tensor);
  const p: Record<string, unknown> = {
    strides: intList('strides')(op, s),
    padding: paddingArg(op, pad ?? 'SAME'),
    dataFormat: formatArg(F2)(op, options?.dataFormat ?? 'NHWC'),
    dilations: intList('dilations')(op, options?.dilations ?? 1),
  };
  prepareConv(2, true)(op, p);
  const cs = [convert(op, input, 'float32'), convert(op, filters, 'float32')];
  try {
    return bind(conv2dBackpropInput as unknown as Primitive, [cs[0].t, cs[1].t, outputShape], { ...p, inputShape: [], sizesFrom: 'values' })[0];
  } finally {
    cs.forEach(release);
    if (withTensors) outputShape.dispose();
  }
}

/** The gradient of conv2d with respect to its input (TF's Conv2DBackpropInput), public as conv2dTranspose. */
export const conv2dBackpropInput = withApi(
  withOnnx(C2.input, gradLower.convInput(false)),
  api(['nn.conv2dTranspose'], [arg.tensor('input'), arg.tensor('filters'), arg.ints('outputShape', 'inputShape'), strides, arg.custom('padding', paddingArg, 'SAME')], [fmt2, dilations], { prepare: prepareConv(2, true, 'inputShape'), dynamic: conv2dTransposeBySizes }),
);
/** The gradient of conv2d with respect to its filter (TF's Conv2DBackpropFilter). */
export const conv2dBackpropFilter = withOnnx(C2.filter, gradLower.convFilter(false));
/** Depthwise 2-D convolution (TF's DepthwiseConv2dNative): filters [kh, kw, inChannels, multiplier]. */
export const depthwiseConv2d = withApi(withOnnx(DW.fwd, lower.depthwiseConv2d), api(['nn.depthwiseConv2d'], [arg.tensor('input'), arg.tensor('filter'), strides, padding], [fmt2, dilations], { prepare: prepareConv(2, true) }));
export const depthwiseConv2dBackpropInput = withOnnx(DW.input, gradLower.convInput(true));
export const depthwiseConv2dBackpropFilter = withOnnx(DW.filter, gradLower.convFilter(true));
/** 3-D convolution (TF's Conv3D), NDHWC or NCDHW, 'SAME' or 'VALID'. */
export const conv3d = withApi(C3.fwd, api(['nn.conv3d'], [arg.tensor('input'), arg.tensor('filters'), strides, padding], [fmt3, dilations], { prepare: prepareConv(3, false) }));
/** The gradient of conv3d with respect to its input (TF's Conv3DBackpropInputV2), public as conv3dTranspose. */
export const conv3dBackpropInput = withApi(
  C3.input,
  api(['nn.conv3dTranspose'], [arg.tensor('input'), arg.tensor('filters'), arg.ints('outputShape', 'inputShape'), strides, arg.custom('padding', paddingArg, 'SAME')], [fmt3, dilations], { prepare: prepareConv(3, false, 'inputShape') }),
);
export const conv3dBackpropFilter = C3.filter;

const conv2dOp = o.wrapperOf(conv2d);
const depthwiseConv2dOp = o.wrapperOf(depthwiseConv2d);

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
    const y = conv2dOp(o.expandDims(x, hAxis), o.expandDims(f, 0), [1, s], padding2d('conv1d', padding, fmt), { dataFormat: fmt === 'NCW' ? 'NCHW' : 'NHWC', dilations: [1, d] });
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
  return conv2dOp(value, filters, 1, padding, { dilations: [rate, rate] });
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
    const dw = depthwiseConv2dOp(input, depthwiseFilter, strides, padding, options);
    return conv2dOp(dw, pointwiseFilter, 1, 'VALID', { dataFormat: options.dataFormat ?? 'NHWC' });
  });
}

/** The conv composites with their public paths (merged into COMPOSITES). */
export const CONV_COMPOSITES = composites('nn', { conv1d, atrousConv2d, separableConv2d });
