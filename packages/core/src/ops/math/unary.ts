// basic_math: elementwise unary records (TensorFlow's math ops on one tensor), each one line.
import { lower } from '../onnx_lowerings';
import { withOnnx } from '../onnx_spec';
import type { Info } from '../../backend/backend';
import { ruleOps as o } from '../rule_ops';
import { FLOAT, NUMERIC } from '../check';
import { intMultiply, withScratch } from '../kernel_util';
import { Impl, unary } from '../elementwise';
import { g0 } from '../rule_helpers';

/** TensorFlow's Sign keeps NaN (tfjs's gives 0) and maps -0 to +0. */
const signImpl: Impl = (k, [x]) => [
  x.dtype !== 'float32' ? (k.run('Sign', { x }) as Info) : withScratch(k, (s) => s.run('Select', { condition: s.run('IsNan', { x }), t: x, e: s.run('Sign', { x }) })),
];
/** int32 abs without the float32 round trip (abs(2147483647) stays exact; abs(INT_MIN) wraps like TF). */
const absImpl: Impl = (k, [x]) => [x.dtype !== 'int32' ? (k.run('Abs', { x }) as Info) : withScratch(k, (s) => s.run('Maximum', { a: x, b: s.run('Neg', { x }) }))];
const squareImpl: Impl = (k, [x]) => [x.dtype !== 'int32' ? (k.run('Square', { x }) as Info) : intMultiply(k, x, x)];

export const neg = withOnnx(unary('neg', 'Neg', ['math.negative', 'negative'], NUMERIC, 'none', (c) => [o.neg(g0(c))], { fn: (a) => -a, expr: (a) => `(-${a})`, gpu: (a) => `(-${a})`, exact: true }), { op: 'Neg', dtypes: ['float32', 'int32'] });
export const abs = withOnnx(unary('abs', 'Abs', ['math.abs', 'abs'], NUMERIC, 'inputs', (c, [x]) => [o.mul(g0(c), o.sign(x))], { fn: Math.abs, expr: (a) => `Math.abs(${a})`, gpu: (a) => `abs(${a})`, exact: true }, absImpl), { op: 'Abs', dtypes: ['float32', 'int32'] });
/** TensorFlow's Sign gradient is zeros (not None), so abs'' is 0 rather than unconnected. */
export const sign = withOnnx(unary('sign', 'Sign', ['math.sign', 'sign'], NUMERIC, 'none', (c) => [o.zerosLike(g0(c))], { fn: (a) => (a > 0 ? 1 : a < 0 ? -1 : a === 0 ? 0 : a), expr: (a) => `(${a} > 0 ? 1 : ${a} < 0 ? -1 : ${a} === 0 ? 0 : ${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, sign(${a}))`, exact: true }, signImpl), { op: 'Sign', dtypes: ['float32', 'int32'] });
export const exp = withOnnx(unary('exp', 'Exp', ['math.exp', 'exp'], FLOAT, 'outputs', (c, _x, [y]) => [o.mul(g0(c), y)], { fn: Math.exp, expr: (a) => `Math.exp(${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, exp(${a}))` }), { op: 'Exp' });
export const log = withOnnx(unary('log', 'Log', ['math.log', 'log'], FLOAT, 'inputs', (c, [x]) => [o.div(g0(c), x)], { fn: Math.log, expr: (a) => `Math.log(${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, ef_sel(${a} < 0.0, ef_nan(), log(${a})))` }), { op: 'Log' });
export const sqrt = withOnnx(unary('sqrt', 'Sqrt', ['math.sqrt', 'sqrt'], FLOAT, 'outputs', (c, _x, [y]) => [o.div(g0(c), o.mul(y, 2))], { fn: Math.sqrt, expr: (a) => `Math.sqrt(${a})`, gpu: (a) => `sqrt(${a})` }), { op: 'Sqrt' });
export const square = withOnnx(unary('square', 'Square', ['math.square', 'square'], NUMERIC, 'inputs', (c, [x]) => [o.mul(g0(c), o.mul(x, 2))], { fn: (a) => a * a, expr: (a) => `(${a} * ${a})`, gpu: (a) => `(${a} * ${a})` }, squareImpl), lower.square);
export const sin = withOnnx(unary('sin', 'Sin', ['math.sin', 'sin'], FLOAT, 'inputs', (c, [x]) => [o.mul(g0(c), o.cos(x))], { fn: Math.sin, expr: (a) => `Math.sin(${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, sin(${a}))` }), { op: 'Sin' });
export const cos = withOnnx(unary('cos', 'Cos', ['math.cos', 'cos'], FLOAT, 'inputs', (c, [x]) => [o.neg(o.mul(g0(c), o.sin(x)))], { fn: Math.cos, expr: (a) => `Math.cos(${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, cos(${a}))` }), { op: 'Cos' });
export const tanh = withOnnx(unary('tanh', 'Tanh', ['math.tanh', 'nn.tanh', 'tanh'], FLOAT, 'outputs', (c, _x, [y]) => [o.mul(g0(c), o.sub(1, o.square(y)))], { fn: Math.tanh, expr: (a) => `Math.tanh(${a})`, gpu: (a) => `ef_tanh(${a})` }), { op: 'Tanh' });
export const sinh = withOnnx(unary('sinh', 'Sinh', ['math.sinh', 'sinh'], FLOAT, 'inputs', (c, [x]) => [o.mul(g0(c), o.cosh(x))], { fn: Math.sinh, expr: (a) => `Math.sinh(${a})`, gpu: (a) => `((exp(${a}) - 1.0 / exp(${a})) / 2.0)` }), { op: 'Sinh' });
export const cosh = withOnnx(unary('cosh', 'Cosh', ['math.cosh', 'cosh'], FLOAT, 'inputs', (c, [x]) => [o.mul(g0(c), o.sinh(x))], { fn: Math.cosh, expr: (a) => `Math.cosh(${a})`, gpu: (a) => `((exp(-${a}) + 1.0 / exp(-${a})) / 2.0)` }), { op: 'Cosh' });
export const sigmoid = withOnnx(unary('sigmoid', 'Sigmoid', ['math.sigmoid', 'nn.sigmoid', 'sigmoid'], FLOAT, 'outputs', (c, _x, [y]) => [o.mul(g0(c), o.mul(y, o.sub(1, y)))], { fn: (a) => 1 / (1 + Math.exp(-a)), expr: (a) => `(1 / (1 + Math.exp(-${a})))`, gpu: (a) => `(1.0 / (1.0 + exp(-1.0 * ${a})))` }), { op: 'Sigmoid' });
/**
 * TensorFlow's ReluGrad: dy * (x > 0), so NaN inputs get 0. The mask is where(x > 0, sign(x), 0):
 * the same values, and it stays connected to x through sign (whose gradient is zeros), so relu'' is
 * a connected 0 like TensorFlow's ReluGrad gradient.
 */
export const relu = withOnnx(unary('relu', 'Relu', ['nn.relu', 'relu'], NUMERIC, 'inputs', (c, [x]) => [o.mul(g0(c), o.where(o.greater(x, 0), o.sign(x), 0))], { fn: (a) => Math.max(0, a), expr: (a) => `Math.max(0, ${a})`, gpu: (a) => `ef_sel(isnan(${a}), ${a}, ef_sel(${a} < 0.0, 0.0, ${a}))`, exact: true }), { op: 'Relu' });

