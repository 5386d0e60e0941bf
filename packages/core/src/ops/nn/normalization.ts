// Normalization records (tfjs-converter category "normalization"): fused batch norm (inference form, any-order vjp) and LRN.
// Composites: Composites: tf.nn's normalizations built from records (moments, batchNormalization, fusedBatchNorm, l2Normalize).
import type { Info, Kernels } from '../../backend/backend';
import { defineOp } from '../define_op';
import type { AVal, Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import type { TensorLike } from '../../values/convert';
import { api, arg, composite, composites } from '../api_spec';
import { ReadScope, attr, tfSpec, typeAttrOf } from '../graphdef_spec';
import { bind } from '../bind';
import * as o from '../ops';
import * as E from '../math/unary';
import { argError, checkArity, checkDTypes } from '../check';
import { dimsToString } from '../../values/shape';
import { channelsLast } from './conv_util';
import { lower } from '../onnx_lowerings';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import { describe } from '../../values/dtype';

const sqrt: (x: TensorLike) => Tensor = o.wrapperOf(E.sqrt);

export interface BatchNormParams {
  readonly epsilon: number;
  readonly dataFormat: string;
}

const chAxis = (rank: number, fmt: string): number => (fmt.startsWith('NC') ? 1 : rank - 1);

/** A [C] vector shaped to broadcast along the channel axis of a rank-`rank` tensor. */
export function alongChannels(v: Tensor, rank: number, fmt: string): Tensor {
  const ax = chAxis(rank, fmt);
  return ax === rank - 1 ? v : o.reshape(v, [-1, ...new Array<number>(rank - 1 - ax).fill(1)]);
}

/** Every axis but the channel axis. */
export const nonChannelAxes = (rank: number, fmt: string): number[] => Array.from({ length: rank }, (_, i) => i).filter((i) => i !== chAxis(rank, fmt));

/** TF's inference-mode FusedBatchNormGrad, written with ops (so it differentiates again). */
function batchNormVjp(g: Tensor, [x, scale, , mean, variance]: Tensor[], p: BatchNormParams, need: readonly boolean[]): (Tensor | null)[] {
  const r = x.rank as number;
  const b = (v: Tensor): Tensor => alongChannels(v, r, p.dataFormat);
  const axes = nonChannelAxes(r, p.dataFormat);
  const inv = o.div(1, sqrt(o.add(variance, p.epsilon)));
  const centered = o.sub(x, b(mean));
  const gSum = o.reduceSum(g, axes);
  const gCentered = need[1] || need[4] ? o.reduceSum(o.mul(g, centered), axes) : null;
  return [
    need[0] ? o.mul(g, b(o.mul(scale, inv))) : null,
    need[1] ? o.mul(gCentered as Tensor, inv) : null,
    need[2] ? gSum : null,
    need[3] ? o.neg(o.mul(gSum, o.mul(scale, inv))) : null,
    need[4] ? o.mul(o.mul(gCentered as Tensor, scale), o.mul(o.mul(inv, o.square(inv)), -0.5)) : null,
  ];
}

function bnImpl(k: Kernels, [x, scale, offset, mean, variance]: Info[], p: BatchNormParams): Info {
  return channelsLast(k, p.dataFormat, [x, null], ([xl]) => k.run('FusedBatchNorm', { x: xl, mean, variance, offset, scale }, { varianceEpsilon: p.epsilon }) as Info);
}

/** y = (x - mean) / sqrt(variance + epsilon) * scale + offset along channels (TF's FusedBatchNormV3, is_training=false). */
export const fusedBatchNorm = defineOp({
  name: 'fused_batch_norm',
  infer(ins: AVal[], p: BatchNormParams) {
    checkArity('fusedBatchNorm', ins, 5);
    ins.forEach((v, i) => checkDTypes('fusedBatchNorm', v, ['float32'], ['x', 'scale', 'offset', 'mean', 'variance'][i]));
    const x = ins[0].shape;
    if (x !== null && x.length < 2) throw argError('fusedBatchNorm', 'x must be at least rank 2', `shape [${x.join(', ')}]`, 'rank >= 2', 'Pass a batch of values with channels.');
    const c = x === null ? null : x[chAxis(x.length, p.dataFormat)];
    ins.slice(1).forEach((v, i) => {
      const s = v.shape;
      if (s !== null && (s.length !== 1 || (c !== null && s[0] !== null && s[0] !== c))) {
        throw argError('fusedBatchNorm', `${['scale', 'offset', 'mean', 'variance'][i]} must be a vector of one value per channel`, `shape [${s.join(', ')}]`, `shape [${c ?? '?'}]`, `Check dataFormat ('${p.dataFormat}').`);
      }
    });
    return [{ dtype: 'float32', shape: x }];
  },
  impl: (k, ins, p: BatchNormParams) => {
    // Traced with unknown dims the shape rule could not check the channel count: check the real shapes.
    const c = ins[0].shape[chAxis(ins[0].shape.length, p.dataFormat)];
    ins.slice(1).forEach((v, i) => {
      if (v.shape.length !== 1 || v.shape[0] !== c) throw argError('fusedBatchNorm', `${['scale', 'offset', 'mean', 'variance'][i]} must be a vector of one value per channel`, `shape [${v.shape.join(', ')}]`, `shape [${c}]`, `Check dataFormat ('${p.dataFormat}').`);
    });
    return [bnImpl(k, ins, p)];
  },
  vjp: (c, ins, _y, p: BatchNormParams, need) => (c[0] === null ? ins.map(() => null) : batchNormVjp(c[0], ins, p, need)),
  saves: 'inputs',
  onnx: lower.batchNorm,
  tf: {
    ops: ['FusedBatchNormV3', 'FusedBatchNorm', 'FusedBatchNormV2'],
    write(s, n, ins) {
      const p = n.params as BatchNormParams;
      const T = typeAttrOf(s, n.inputs[0]);
      return [s.add('FusedBatchNormV3', 'FusedBatchNormV3', ins, { T, U: T, epsilon: attr.float(p.epsilon), data_format: attr.str(p.dataFormat), is_training: attr.bool(false), exponential_avg_factor: attr.float(1) })];
    },
    read: readFusedBatchNorm,
  },
});

/** Reads FusedBatchNorm*: inference binds the record; training normalizes with the batch's moments (TF's batch_variance is unbiased). */
function readFusedBatchNorm(r: ReadScope): Tensor[] {
  r.arity(5);
  const [x, scale, offset] = r.inputs(0, 3);
  const p = { epsilon: r.node.float('epsilon', 1e-4), dataFormat: r.node.str('data_format', 'NHWC') };
  if (!r.node.bool('is_training', true)) {
    const [mean, variance] = r.inputs(3, 5);
    const y = bind(fusedBatchNorm as unknown as Primitive, [x, scale, offset, mean, variance], p)[0];
    return [y, mean, variance, mean, variance, variance];
  }
  const { y, mean, variance, unbiased } = trainingBatchNorm(x, scale, offset, p);
  return [y, mean, unbiased, mean, variance, variance];
}

/** Batch statistics over every non-channel axis, then the record with them (gradients reach x through the moments too). */
export function trainingBatchNorm(x: Tensor, scale: Tensor, offset: Tensor, p: BatchNormParams): { y: Tensor; mean: Tensor; variance: Tensor; unbiased: Tensor } {
  // An unknown rank is the data format's (TF's fused_batch_norm sets rank 4 for 'NHWC'/'NCHW').
  const r = x.rank ?? p.dataFormat.length;
  const axes = nonChannelAxes(r, p.dataFormat);
  const mean = o.reduceMean(x, axes);
  const variance = o.reduceMean(o.square(o.sub(x, alongChannels(mean, r, p.dataFormat))), axes);
  // The count may be unknown while tracing: take it from the data's shape at run time.
  const count = o.reduceSum(o.onesLike(x), axes);
  const unbiased = o.mul(variance, o.div(count, o.maximum(o.sub(count, 1), 1)));
  const y = bind(fusedBatchNorm as unknown as Primitive, [x, scale, offset, mean, variance], p)[0];
  return { y, mean, variance, unbiased };
}

export interface LrnParams {
  readonly depthRadius: number;
  readonly bias: number;
  readonly alpha: number;
  readonly beta: number;
}

const lrnAttrs = (p: LrnParams) => ({ depthRadius: p.depthRadius, bias: p.bias, alpha: p.alpha, beta: p.beta });
const LRN_TF = {
  depth_radius: { param: 'depthRadius', kind: 'int', default: 5 }, bias: { param: 'bias', kind: 'float', default: 1 },
  alpha: { param: 'alpha', kind: 'float', default: 1 }, beta: { param: 'beta', kind: 'float', default: 0.5 },
} as const;

function checkLrn(op: string, ins: AVal[]): void {
  ins.forEach((v) => checkDTypes(op, v, ['float32'], 'input'));
  const s = ins[0].shape;
  if (s !== null && s.length !== 4) throw argError(op, 'input must be rank 4', `shape [${s.join(', ')}]`, 'rank 4 (NHWC)', 'Pass a batch of NHWC images.');
}

/** TF's LRNGrad (TF registers no gradient for it: LRN is differentiable once). */
export const lrnGrad = defineOp({
  name: 'lrn_grad',
  infer(ins: AVal[]) {
    checkArity('localResponseNormalization', ins, 3);
    checkLrn('localResponseNormalization', ins);
    // TF's LRNGrad: dy, the input and the output have one shape.
    const [a, b, c] = ins.map((v) => v.shape);
    for (const other of [a, c]) {
      if (b !== null && other !== null && (other.length !== b.length || other.some((d, i) => d !== null && b[i] !== null && d !== b[i]))) {
        throw argError('localResponseNormalization', 'dy, the input and the output must have the same shape', `${dimsToString(a)}, ${dimsToString(b)} and ${dimsToString(c)}`, 'equal shapes', 'Pass the gradient of the output of this input.');
      }
    }
    return [{ dtype: 'float32', shape: b }];
  },
  impl: (k, [dy, x, y], p: LrnParams) => [k.run('LRNGrad', { x, y, dy }, lrnAttrs(p)) as Info],
  tf: tfSpec<LrnParams>({ op: 'LRNGrad', attrs: { T: { dtypeOf: 0 }, ...LRN_TF } }),
});

/** localResponseNormalization(input, {depthRadius, bias, alpha, beta}) over the last axis (TF's LRN). */
export const lrn = defineOp({
  name: 'lrn',
  infer: (ins: AVal[]) => (checkArity('localResponseNormalization', ins, 1), checkLrn('localResponseNormalization', ins), [{ dtype: 'float32' as const, shape: ins[0].shape }]),
  impl: (k, [x], p: LrnParams) => [k.run('LRN', { x }, lrnAttrs(p)) as Info],
  vjp: (c, [x], [y], p: LrnParams) => [bind(lrnGrad as unknown as Primitive, [c[0] as Tensor, x, y], p)[0]],
  api: api(['nn.localResponseNormalization', 'nn.lrn'], [arg.tensor('input', 'float32')], [arg.int('depthRadius', 5), arg.number('bias', 1), arg.number('alpha', 1), arg.number('beta', 0.5)]),
  tf: tfSpec<LrnParams>({ op: 'LRN', attrs: { T: { dtypeOf: 0 }, ...LRN_TF } }),
});

/** An argument as a real tensor (JS values as float32); complex64 and string tensors are refused naming the op. */
export function f32(op: string, x: TensorLike): Tensor {
  const t = convert(op, x, 'float32');
  if (t.t.dtype === 'complex64' || t.t.dtype === 'string') {
    if (t.temp) t.t.dispose();
    throw argError(op, 'unsupported dtype', t.t.dtype, 'float32', "Cast it first, e.g. ef.cast(x, 'float32').");
  }
  return t.t;
}

/**
 * moments(x, axes, {keepDims}) -> { mean, variance }. Unlike tf.nn.moments the variance does not stop the mean's gradient,
 * so second derivatives are exact (first derivatives agree: the centered values sum to zero).
 * @example ef.nn.moments([1, 2, 3, 4], [0]).variance.arraySync(); // 1.25
 */
function moments(x: TensorLike, axes: number | number[], options: { keepDims?: boolean } = {}): { mean: Tensor; variance: Tensor } {
  const keep = options.keepDims ?? false;
  if (typeof keep !== 'boolean') throw argError('moments', 'keepDims must be a boolean', describe(keep), 'true or false', 'Pass a boolean.');
  const ax = Array.isArray(axes) ? axes : [axes];
  return tidy(() => {
    const t = f32('moments', x);
    const mean = o.reduceMean(t, ax, true);
    const variance = o.reduceMean(o.square(o.sub(t, mean)), ax, true);
    if (keep) return { mean, variance };
    return { mean: o.reduceSum(mean, ax), variance: o.reduceSum(variance, ax) };
  });
}

/**
 * batchNormalization(x, mean, variance, offset, scale, varianceEpsilon): (x - mean)·scale/sqrt(variance + eps) + offset, broadcasting.
 * @example ef.nn.batchNormalization([1, 3], 2, 1, null, null, 0).arraySync(); // [-1, 1]
 */
function batchNormalization(x: TensorLike, mean: TensorLike, variance: TensorLike, offset: TensorLike | null, scale: TensorLike | null, varianceEpsilon: number): Tensor {
  if (typeof varianceEpsilon !== 'number') throw argError('batchNormalization', 'varianceEpsilon must be a number', describe(varianceEpsilon), 'a small positive number', 'Pass e.g. 1e-3.');
  return tidy(() => {
    const op = 'batchNormalization';
    let inv = o.div(1, sqrt(o.add(f32(op, variance), varianceEpsilon)));
    if (scale !== null && scale !== undefined) inv = o.mul(inv, f32(op, scale));
    const shift = o.mul(f32(op, mean), inv);
    const y = o.add(o.mul(f32(op, x), inv), o.neg(shift));
    return offset === null || offset === undefined ? y : o.add(y, f32(op, offset));
  });
}

export interface FusedOptions {
  mean?: TensorLike | null;
  variance?: TensorLike | null;
  epsilon?: number;
  dataFormat?: string;
  isTraining?: boolean;
}

/**
 * fusedBatchNorm(x, scale, offset, {mean, variance, epsilon, dataFormat, isTraining}) -> { y, batchMean, batchVariance }
 * (TF's FusedBatchNormV3: training normalizes with the batch's moments and reports the unbiased variance).
 * @example ef.nn.fusedBatchNorm([[1], [3]], [1], [0]).y.arraySync(); // [[-0.9995003], [0.9995003]]
 */
function fusedBatchNormOp(x: TensorLike, scale: TensorLike, offset: TensorLike, options: FusedOptions = {}): { y: Tensor; batchMean: Tensor; batchVariance: Tensor } {
  const op = 'fusedBatchNorm';
  const fmt = (options.dataFormat ?? 'NHWC').toUpperCase();
  if (fmt !== 'NHWC' && fmt !== 'NCHW') throw argError(op, 'unsupported dataFormat', describe(options.dataFormat), "'NHWC' or 'NCHW'", "Pass dataFormat: 'NHWC'.");
  const p = { epsilon: options.epsilon ?? 0.001, dataFormat: fmt };
  const training = options.isTraining ?? true;
  return tidy(() => {
    const [t, s, b] = [f32(op, x), f32(op, scale), f32(op, offset)];
    if (training) {
      const r = trainingBatchNorm(t, s, b, p);
      return { y: r.y, batchMean: r.mean, batchVariance: r.unbiased };
    }
    if (options.mean == null || options.variance == null) throw argError(op, 'inference needs mean and variance', 'isTraining: false without them', 'mean and variance tensors', 'Pass { mean, variance } or isTraining: true.');
    const [m, v] = [f32(op, options.mean), f32(op, options.variance)];
    const y = bind(fusedBatchNorm as unknown as Primitive, [t, s, b, m, v], p)[0];
    return { y, batchMean: o.identity(m), batchVariance: o.identity(v) };
  });
}

/**
 * l2Normalize(x, axis, {epsilon}) = x / sqrt(max(sum(x², axis), epsilon)).
 * @example ef.math.l2Normalize([3, 4]).arraySync(); // [0.6, 0.8]
 */
function l2Normalize(x: TensorLike, axis: number | number[] | null = null, options: { epsilon?: number } = {}): Tensor {
  return tidy(() => {
    const t = f32('l2Normalize', x);
    const ss = o.reduceSum(o.square(t), axis, true);
    return o.div(t, sqrt(o.maximum(ss, options.epsilon ?? 1e-12)));
  });
}

/** The normalization composites with their public paths (merged into COMPOSITES). */
export const NORM_COMPOSITES = {
  ...composites('nn', { moments, batchNormalization, fusedBatchNorm: fusedBatchNormOp }),
  l2Normalize: composite(['math.l2Normalize', 'nn.l2Normalize', 'linalg.l2Normalize'], l2Normalize),
};
