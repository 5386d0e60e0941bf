// basic_math: elementwise unary records (TensorFlow's math ops on one tensor), each one line.
import { lower } from '../onnx_lowerings';
import type { Info } from '../../backend/backend';
import { ruleOps as o } from '../rule_ops';
import { NUMERIC } from '../check';
import { intMultiply, withScratch } from '../kernel_util';
import { Impl, defineOp } from '../define_op';
import { conjOf, g0 } from '../rule_helpers';

/** TensorFlow's Sign keeps NaN (tfjs's gives 0) and maps -0 to +0. */
const signImpl: Impl = (k, [x]) => [
  x.dtype !== 'float32' ? (k.run('Sign', { x }) as Info) : withScratch(k, (s) => s.run('Select', { condition: s.run('IsNan', { x }), t: x, e: s.run('Sign', { x }) })),
];
/** int32 abs without the float32 round trip (abs(2147483647) stays exact; abs(INT_MIN) wraps like TF). */
const absImpl: Impl = (k, [x]) => [x.dtype !== 'int32' ? (k.run('Abs', { x }) as Info) : withScratch(k, (s) => s.run('Maximum', { a: x, b: s.run('Neg', { x }) }))];
const expImpl: Impl = (k, [x]) => [
  x.dtype !== 'complex64'
    ? (k.run('Exp', { x }) as Info)
    : withScratch(k, (s) => {
        const e = s.run('Exp', { x: s.run('Real', { input: x }) });
        const b = s.run('Imag', { input: x });
        return s.run('Complex', { real: s.run('Multiply', { a: e, b: s.run('Cos', { x: b }) }), imag: s.run('Multiply', { a: e, b: s.run('Sin', { x: b }) }) });
      }),
];
const squareImpl: Impl = (k, [x]) => [x.dtype !== 'int32' ? (k.run('Square', { x }) as Info) : intMultiply(k, x, x)];

export const neg = defineOp({ family: 'unary', name: 'neg', api: ['math.negative', 'negative'], dtypes: NUMERIC, saves: 'none', vjp: (c) => [o.neg(g0(c))], scalar: { fn: (a) => -a, expr: (a) => `(-${a})`, gpu: (a) => `(-${a})`, exact: true }, onnx: { dtypes: ['float32', 'int32'] } });
export const abs = defineOp({ family: 'unary', name: 'abs', api: ['math.abs', 'abs'], dtypes: NUMERIC, saves: 'inputs', vjp: (c, [x]) => [o.mul(g0(c), o.sign(x))], scalar: { fn: Math.abs, expr: (a) => `Math.abs(${a})`, gpu: (a) => `abs(${a})`, exact: true }, impl: absImpl, onnx: { dtypes: ['float32', 'int32'] } });
/** TensorFlow's Sign gradient is zeros (not None), so abs'' is 0 rather than unconnected. */
export const sign = defineOp({ family: 'unary', name: 'sign', api: ['math.sign', 'sign'], dtypes: NUMERIC, saves: 'none', vjp: (c) => [o.zerosLike(g0(c))], scalar: { fn: (a) => (a > 0 ? 1 : a < 0 ? -1 : a === 0 ? 0 : a), expr: (a) => `(${a} > 0 ? 1 : ${a} < 0 ? -1 : ${a} === 0 ? 0 : ${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, sign(${a}))`, exact: true }, impl: signImpl, onnx: { dtypes: ['float32', 'int32'] } });
/** complex64 too (TF's Exp): exp(a + ib) = e^a (cos b + i sin b); TF's gradient g * conj(y). */
export const exp = defineOp({ family: 'unary', name: 'exp', api: ['math.exp', 'exp'], dtypes: ['float32', 'complex64'], saves: 'outputs', vjp: (c, _x, [y]) => [o.mul(g0(c), conjOf(y))], impl: expImpl, scalar: { fn: Math.exp, expr: (a) => `Math.exp(${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, exp(${a}))` }, onnx: true });
export const log = defineOp({ family: 'unary', name: 'log', api: ['math.log', 'log'], saves: 'inputs', vjp: (c, [x]) => [o.div(g0(c), x)], scalar: { fn: Math.log, expr: (a) => `Math.log(${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, ef_sel(${a} < 0.0, ef_nan(), log(${a})))` }, onnx: true });
export const sqrt = defineOp({ family: 'unary', name: 'sqrt', api: ['math.sqrt', 'sqrt'], saves: 'outputs', vjp: (c, _x, [y]) => [o.div(g0(c), o.mul(y, 2))], scalar: { fn: Math.sqrt, expr: (a) => `Math.sqrt(${a})`, gpu: (a) => `sqrt(${a})` }, onnx: true });
export const square = defineOp({ family: 'unary', name: 'square', api: ['math.square', 'square'], dtypes: NUMERIC, saves: 'inputs', vjp: (c, [x]) => [o.mul(g0(c), o.mul(x, 2))], scalar: { fn: (a) => a * a, expr: (a) => `(${a} * ${a})`, gpu: (a) => `(${a} * ${a})` }, impl: squareImpl, onnx: lower.square });
export const sin = defineOp({ family: 'unary', name: 'sin', api: ['math.sin', 'sin'], saves: 'inputs', vjp: (c, [x]) => [o.mul(g0(c), o.cos(x))], scalar: { fn: Math.sin, expr: (a) => `Math.sin(${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, sin(${a}))` }, onnx: true });
export const cos = defineOp({ family: 'unary', name: 'cos', api: ['math.cos', 'cos'], saves: 'inputs', vjp: (c, [x]) => [o.neg(o.mul(g0(c), o.sin(x)))], scalar: { fn: Math.cos, expr: (a) => `Math.cos(${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, cos(${a}))` }, onnx: true });
export const tanh = defineOp({ family: 'unary', name: 'tanh', api: ['math.tanh', 'nn.tanh', 'tanh'], saves: 'outputs', vjp: (c, _x, [y]) => [o.mul(g0(c), o.sub(1, o.square(y)))], scalar: { fn: Math.tanh, expr: (a) => `Math.tanh(${a})`, gpu: (a) => `ef_tanh(${a})` }, onnx: true });
export const sinh = defineOp({ family: 'unary', name: 'sinh', api: ['math.sinh', 'sinh'], saves: 'inputs', vjp: (c, [x]) => [o.mul(g0(c), o.cosh(x))], scalar: { fn: Math.sinh, expr: (a) => `Math.sinh(${a})`, gpu: (a) => `((exp(${a}) - 1.0 / exp(${a})) / 2.0)` }, onnx: true });
export const cosh = defineOp({ family: 'unary', name: 'cosh', api: ['math.cosh', 'cosh'], saves: 'inputs', vjp: (c, [x]) => [o.mul(g0(c), o.sinh(x))], scalar: { fn: Math.cosh, expr: (a) => `Math.cosh(${a})`, gpu: (a) => `((exp(-${a}) + 1.0 / exp(-${a})) / 2.0)` }, onnx: true });
export const sigmoid = defineOp({ family: 'unary', name: 'sigmoid', api: ['math.sigmoid', 'nn.sigmoid', 'sigmoid'], saves: 'outputs', vjp: (c, _x, [y]) => [o.mul(g0(c), o.mul(y, o.sub(1, y)))], scalar: { fn: (a) => 1 / (1 + Math.exp(-a)), expr: (a) => `(1 / (1 + Math.exp(-${a})))`, gpu: (a) => `(1.0 / (1.0 + exp(-1.0 * ${a})))` }, onnx: true });
/**
 * TensorFlow's ReluGrad: dy * (x > 0), so NaN inputs get 0. The mask is where(x > 0, sign(x), 0):
 * the same values, and it stays connected to x through sign (whose gradient is zeros), so relu'' is
 * a connected 0 like TensorFlow's ReluGrad gradient.
 */
export const relu = defineOp({ family: 'unary', name: 'relu', api: ['nn.relu', 'relu'], dtypes: NUMERIC, saves: 'inputs', vjp: (c, [x]) => [o.mul(g0(c), o.where(o.greater(x, 0), o.sign(x), 0))], scalar: { fn: (a) => Math.max(0, a), expr: (a) => `Math.max(0, ${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, ef_sel(${a} < 0.0, 0.0, ${a}))`, exact: true }, onnx: true });

