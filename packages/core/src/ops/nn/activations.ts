// Activation records of tf.nn (tfjs-converter category "basic_math"): relu6, elu, selu, leakyRelu, softplus; plus biasAdd.
import { lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import { onnxSpec, withOnnx } from '../onnx_spec';
import type { Info } from '../../backend/backend';
import type { DType } from '../../values/dtype';
import type { AVal, Primitive, ScalarFact, VjpRule, Params } from '../primitive';
import type { Tensor } from '../../values/tensor';
import type { TensorLike } from '../../values/convert';
import { api, arg } from '../api_spec';
import { tfSpec } from '../graphdef_spec';
import * as o from '../ops';
import * as E from '../math/unary';
import { FLOAT, argError, checkArity, checkDTypes } from '../check';
import { formatArg } from './conv_util';
import { g0 } from '../rule_helpers';

const sigmoid: (x: TensorLike) => Tensor = o.wrapperOf(E.sigmoid);

/** A float32 unary activation record under `paths`; `kernel` is the tfjs kernel and TF op. */
function activation<const N extends string, const P extends readonly string[]>(name: N, kernel: string, paths: P, saves: Primitive['saves'], vjp: VjpRule<Params>, scalar: ScalarFact, dtypes: readonly DType[] = FLOAT) {
  return defineOp({
    name,
    infer(ins: AVal[]) {
      checkArity(name, ins, 1);
      checkDTypes(paths[0].slice(paths[0].lastIndexOf('.') + 1), ins[0], dtypes, 'features');
      return [{ dtype: ins[0].dtype, shape: ins[0].shape }];
    },
    impl: (k, [x]) => [k.run(kernel, { x }) as Info],
    vjp,
    saves,
    scalar,
    api: api(paths, [arg.tensor('features', 'float32')]),
    tf: { op: kernel },
  });
}

/** TF's Relu6Grad: g·(0 < x < 6) (a product, so -0.5·0 = -0; the mask is a constant, so relu6'' = 0 like TF). */
export const relu6 = withOnnx(activation('relu6', 'Relu6', ['nn.relu6'], 'inputs', (c, [x]) => [o.mul(g0(c), o.where(o.logicalAnd(o.greater(x, 0), o.less(x, 6)), 1, 0))], {
  fn: (a) => Math.min(Math.max(0, a), 6),
  expr: (a) => `Math.min(Math.max(0, ${a}), 6)`,
  gpu: (a) => `ef_sel(isnan(${a}), ${a}, ef_sel(${a} < 0.0, 0.0, min(6.0, ${a})))`,
  exact: true,
}, ['float32', 'int32']), lower.relu6);

/**
 * TF's EluGrad from the output: g·(y + 1) where y < 0, else g (so g at y = 0 and at NaN). The select
 * is taken before the product so the second order is +0 off the negative branch (TF's EluGradGrad).
 */
export const elu = withOnnx(activation('elu', 'Elu', ['nn.elu'], 'outputs', (c, _x, [y]) => [o.mul(g0(c), o.where(o.less(y, 0), o.add(y, 1), 1))], {
  fn: (a) => (a >= 0 ? a : Math.exp(a) - 1),
  expr: (a) => `(${a} >= 0 ? ${a} : (Math.exp(${a}) - 1))`,
  gpu: (a) => `ef_sel(${a} >= 0.0, ${a}, exp(${a}) - 1.0)`,
}), { op: 'Elu' });

// tfjs-core's backend_util.SELU_SCALE / SELU_SCALEALPHA (the kernel's constants).
const SELU_SCALE = 1.0507009873554804934193349852946;
const SELU_SCALEALPHA = 1.7580993408473768599402175208123;
/** TF's SeluGrad from the output: g·(y + scale·alpha) where y < 0, else g·scale (also at y = 0 and NaN). */
export const selu = withOnnx(activation('selu', 'Selu', ['nn.selu'], 'outputs', (c, _x, [y]) => [o.mul(g0(c), o.where(o.less(y, 0), o.add(y, SELU_SCALEALPHA), SELU_SCALE))], {
  fn: (a) => (a >= 0 ? SELU_SCALE * a : SELU_SCALEALPHA * (Math.exp(a) - 1)),
  expr: (a) => `(${a} >= 0 ? ${SELU_SCALE} * ${a} : ${SELU_SCALEALPHA} * (Math.exp(${a}) - 1))`,
  gpu: (a) => `ef_sel(${a} >= 0.0, ${SELU_SCALE} * ${a}, ${SELU_SCALEALPHA} * (exp(${a}) - 1.0))`,
}), { op: 'Selu' });

// tfjs's Softplus kernel thresholds (float32 machine epsilon): exp(x) below, x above, log1p(exp(x)) between.
const SOFTPLUS_T = Math.log(1.1920928955078125e-7) + 2.0;
/** Numerically stable softplus; gradient g·sigmoid(x) (TF's SoftplusGrad). */
export const softplus = withOnnx(activation('softplus', 'Softplus', ['nn.softplus', 'math.softplus'], 'inputs', (c, [x]) => [o.mul(g0(c), sigmoid(x))], {
  fn: (a) => (a < SOFTPLUS_T ? Math.exp(a) : a > -SOFTPLUS_T ? a : Math.log(1.0 + Math.exp(a))),
  expr: (a) => `((xi) => (xi < ${SOFTPLUS_T} ? Math.exp(xi) : xi > ${-SOFTPLUS_T} ? xi : Math.log(1.0 + Math.exp(xi))))(${a})`,
  gpu: (a) => `ef_sel(${a} < ${SOFTPLUS_T}, exp(${a}), ef_sel(${a} > ${-SOFTPLUS_T}, ${a}, log(1.0 + exp(${a}))))`,
}), { op: 'Softplus' });

export interface AlphaParams {
  readonly alpha: number;
}

/** leakyRelu(features, alpha = 0.2); TF's LeakyReluGrad: g where x > 0, else g·alpha. */
export const leakyRelu = defineOp({
  name: 'leaky_relu',
  onnx: onnxSpec<AlphaParams>({ op: 'LeakyRelu', attrs: { alpha: { param: 'alpha', kind: 'float' } } }),
  infer(ins: AVal[]) {
    checkArity('leakyRelu', ins, 1);
    checkDTypes('leakyRelu', ins[0], FLOAT, 'features');
    return [{ dtype: ins[0].dtype, shape: ins[0].shape }];
  },
  impl: (k, [x], p: AlphaParams) => [k.run('LeakyRelu', { x }, { alpha: p.alpha }) as Info],
  vjp: (c, [x], _y, p: AlphaParams) => [o.where(o.greater(x, 0), g0(c), o.mul(g0(c), p.alpha))],
  saves: 'inputs',
  api: api(['nn.leakyRelu'], [arg.tensor('features', 'float32'), arg.number('alpha', 0.2)]),
  tf: tfSpec<AlphaParams>({ op: 'LeakyRelu', attrs: { T: { dtypeOf: 0 }, alpha: { param: 'alpha', kind: 'float', default: 0.2 } } }),
});

export interface FormatParams {
  readonly dataFormat: string;
}

/** The channel axis of biasAdd's value (NHWC: last; NCHW: 1). */
function biasAxis(rank: number, fmt: string): number {
  return fmt === 'NCHW' ? 1 : rank - 1;
}

/** biasAdd(value, bias, {dataFormat}): adds a rank-1 bias along the channel axis (TF's BiasAdd). */
export const biasAdd = defineOp({
  name: 'bias_add',
  onnx: lower.biasAdd,
  infer(ins: AVal[], p: FormatParams) {
    checkArity('biasAdd', ins, 2);
    checkDTypes('biasAdd', ins[0], ['float32', 'int32'], 'value');
    checkDTypes('biasAdd', ins[1], [ins[0].dtype], 'bias');
    const [v, b] = [ins[0].shape, ins[1].shape];
    if (b !== null && b.length !== 1) throw argError('biasAdd', 'bias must be rank 1', `shape [${b.join(', ')}]`, 'rank 1', 'Pass one bias per channel.');
    if (v === null) return [{ dtype: ins[0].dtype, shape: null }];
    const minRank = p.dataFormat === 'NCHW' ? 3 : 2;
    if (v.length < minRank) throw argError('biasAdd', 'value rank is too small', `shape [${v.join(', ')}]`, `rank >= ${minRank}`, 'Pass a batch of values.');
    const c = v[biasAxis(v.length, p.dataFormat)];
    if (b !== null && b[0] !== null && c !== null && b[0] !== c) {
      throw argError('biasAdd', 'bias size does not match the channels', `${b[0]} biases for ${c} channels`, `${c} biases`, `Check dataFormat ('${p.dataFormat}').`);
    }
    return [{ dtype: ins[0].dtype, shape: v }];
  },
  impl(k, [v, b], p: FormatParams) {
    const ax = biasAxis(v.shape.length, p.dataFormat);
    if (v.shape[ax] !== b.shape[0]) throw argError('biasAdd', 'bias size does not match the channels', `${b.shape[0]} biases for ${v.shape[ax]} channels`, `${v.shape[ax]} biases`, 'Check dataFormat.');
    if (ax === v.shape.length - 1) return [k.run('Add', { a: v, b }) as Info];
    const rb = k.run('Reshape', { x: b }, { shape: [b.shape[0], ...v.shape.slice(ax + 1).map(() => 1)] }) as Info;
    const out = k.run('Add', { a: v, b: rb }) as Info;
    k.free(rb);
    return [out];
  },
  // TF's BiasAddGrad: the bias gets the cotangent summed over every axis but channels.
  vjp: (c, [v], _y, p: FormatParams, need) => {
    const r = v.rank as number;
    const ax = biasAxis(r, p.dataFormat);
    return [g0(c), need[1] ? o.reduceSum(g0(c), Array.from({ length: r }, (_, i) => i).filter((i) => i !== ax)) : null];
  },
  saves: 'inputs',
  api: api(['nn.biasAdd'], [arg.tensor('value'), arg.tensor('bias')], [arg.custom('dataFormat', formatArg(['NHWC', 'NCHW']), 'NHWC')]),
  tf: tfSpec<FormatParams>({ op: 'BiasAdd', readAlso: ['BiasAddV1'], attrs: { T: { dtypeOf: 0 }, data_format: { param: 'dataFormat', kind: 'str', default: 'NHWC' } } }),
});
