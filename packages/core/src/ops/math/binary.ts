// arithmetic: elementwise binary records with broadcasting (add, subtract, multiply, divide, pow, maximum, minimum).
import { lower } from '../onnx_lowerings';
import type { Info } from '../../backend/backend';
import { isHostBackend } from '../../backend/backend';
import { ruleOps as o } from '../rule_ops';
import { NUMERIC, argError } from '../check';
import { intMultiply, intValues, withScratch } from '../kernel_util';
import { Impl, defineOp } from '../define_op';
import { conjOf, g0 } from '../rule_helpers';
import { stringAdd } from './string_concat';

/**
 * complex64 by parts, (ar·br - ai·bi) + i(ar·bi + ai·br): tfjs's complex Multiply gives NaN where it broadcasts.
 */
const mulImpl: Impl = (k, [a, b]) => [
  a.dtype === 'int32'
    ? intMultiply(k, a, b)
    : a.dtype !== 'complex64'
      ? (k.run('Multiply', { a, b }) as Info)
      : withScratch(k, (s) => {
          const [ar, ai, br, bi] = [s.run('Real', { input: a }), s.run('Imag', { input: a }), s.run('Real', { input: b }), s.run('Imag', { input: b })];
          const mul = (x: Info, y: Info): Info => s.run('Multiply', { a: x, b: y });
          return s.run('Complex', { real: s.run('Sub', { a: mul(ar, br), b: mul(ai, bi) }), imag: s.run('Add', { a: mul(ar, bi), b: mul(ai, br) }) });
        }),
];

/**
 * C's pow, as TensorFlow computes it: pow(1, y) = 1 and pow(-1, ±inf) = 1 even for NaN/inf y (JS's
 * Math.pow gives NaN). int32 powers with a negative exponent raise, like TensorFlow.
 */
const powImpl: Impl = (k, [a, b]) => {
  if (a.dtype === 'int32') {
    // Checked where values are on the host (cpu); a GPU backend would need a download per call.
    if (isHostBackend() && intValues(b).some((v) => v < 0)) throw argError('pow', 'integers to negative integer powers are not allowed', 'a negative int32 exponent', 'exponents >= 0 for int32', "Cast to float32 first: ef.pow(ef.cast(x, 'float32'), ef.cast(y, 'float32')).");
    return [k.run('Pow', { a, b }) as Info];
  }
  return [
    withScratch(k, (s) => {
      // The masks broadcast like the inputs, so cond has the output's shape (no broadcast copies).
      const p = s.run('Pow', { a, b });
      const one = s.run('Equal', { a, b: s.scalar(1) });
      const minusOne = s.run('Equal', { a, b: s.scalar(-1) });
      const infY = s.run('Equal', { a: s.run('Abs', { x: b }), b: s.scalar(Infinity) });
      const cond = s.run('LogicalOr', { a: one, b: s.run('LogicalAnd', { a: minusOne, b: infY }) });
      return s.run('Select', { condition: cond, t: s.run('OnesLike', { x: p }), e: p });
    }),
  ];
};

/** The same rule on numbers (the fused loop's fact). */
function cPow(a: number, b: number): number {
  return a === 1 || (a === -1 && Math.abs(b) === Infinity) ? 1 : Math.pow(a, b);
}

/** Numbers on the Add kernel; strings concatenate elementwise on the host (TF's Add on strings; tfjs has no kernel). */
const addImpl: Impl = (k, [a, b]) => [a.dtype === 'string' ? stringAdd(k, a, b) : (k.run('Add', { a, b }) as Info)];

// complex64 too: the tape sums complex cotangents (fft, complex) with it.
export const add = defineOp({ family: 'binary', name: 'add', api: ['math.add', 'add'], dtypes: [...NUMERIC, 'complex64', 'string'], saves: 'none', vjp: (c) => [g0(c), g0(c)], scalar: { fn: (a, b) => a + b, expr: (a, b) => `(${a} + ${b})`, gpu: (a, b) => `(${a} + ${b})` }, impl: addImpl, tf: { op: 'AddV2', readAlso: ['Add'] }, onnx: { op: 'Add', dtypes: ['float32', 'int32'] } });
export const sub = defineOp({ family: 'binary', name: 'sub', api: ['math.subtract', 'subtract'], saves: 'none', vjp: (c, _x, _y, _p, need) => [g0(c), need[1] ? o.neg(g0(c)) : null], scalar: { fn: (a, b) => a - b, expr: (a, b) => `(${a} - ${b})`, gpu: (a, b) => `(${a} - ${b})` }, onnx: { dtypes: ['float32', 'int32'] } });
/** complex64 too (TF's Mul): dx = g * conj(y), dy = conj(x) * g. */
export const mul = defineOp({ family: 'binary', name: 'mul', kernel: 'Multiply', api: ['math.multiply', 'multiply'], dtypes: [...NUMERIC, 'complex64'], saves: 'inputs', vjp: (c, [a, b], _y, _p, need) => [need[0] ? o.mul(g0(c), conjOf(b)) : null, need[1] ? o.mul(conjOf(a), g0(c)) : null], scalar: { fn: (a, b) => a * b, expr: (a, b) => `(${a} * ${b})`, gpu: (a, b) => `(${a} * ${b})` }, impl: mulImpl, tf: { op: 'Mul' }, onnx: { dtypes: ['float32', 'int32'] } });
/** TensorFlow's RealDiv gradient: dx = g / y, dy = g * ((-x / y) / y) (no y^2: it overflows for tiny y). */
export const div = defineOp({ family: 'binary', name: 'div', kernel: 'RealDiv', api: [], saves: 'inputs', vjp: (c, [a, b], _y, _p, need) => [
  need[0] ? o.div(g0(c), b) : null,
  need[1] ? o.mul(g0(c), o.div(o.div(o.neg(a), b), b)) : null,
], scalar: { fn: (a, b) => a / b, expr: (a, b) => `(${a} / ${b})`, gpu: (a, b) => `(${a} / ${b})` }, onnx: { op: 'Div' } });
/** TensorFlow's Pow gradient, in its association order: dx = (g * y) * x^(y-1), dy = (g * z) * log(x) where x > 0. */
export const pow = defineOp({ family: 'binary', name: 'pow', api: ['math.pow', 'pow'], vjp: (c, [a, b], [y], _p, need) => [
  need[0] ? o.mul(o.mul(g0(c), b), o.pow(a, o.sub(b, 1))) : null,
  need[1] ? o.mul(o.mul(g0(c), y), o.where(o.greater(a, 0), o.log(o.where(o.greater(a, 0), a, 1)), 0)) : null,
], scalar: { fn: cPow, expr: (a, b) => `(${a} === 1 || (${a} === -1 && Math.abs(${b}) === Infinity) ? 1 : Math.pow(${a}, ${b}))` }, impl: powImpl, onnx: true });
export const maximum = defineOp({ family: 'binary', name: 'maximum', api: ['math.maximum', 'maximum'], saves: 'inputs', vjp: (c, [a, b]) => {
  const mask = o.greaterEqual(a, b);
  return [o.where(mask, g0(c), 0), o.where(mask, 0, g0(c))];
}, scalar: { fn: Math.max, expr: (a, b) => `Math.max(${a}, ${b})`, gpu: (a, b) => `ef_sel(isnan(${a}), ${a}, ef_sel(isnan(${b}), ${b}, max(${a}, ${b})))`, exact: true }, onnx: lower.maximum });
export const minimum = defineOp({ family: 'binary', name: 'minimum', api: ['math.minimum', 'minimum'], saves: 'inputs', vjp: (c, [a, b]) => {
  const mask = o.lessEqual(a, b);
  return [o.where(mask, g0(c), 0), o.where(mask, 0, g0(c))];
}, scalar: { fn: Math.min, expr: (a, b) => `Math.min(${a}, ${b})`, gpu: (a, b) => `ef_sel(isnan(${a}), ${a}, ef_sel(isnan(${b}), ${b}, min(${a}, ${b})))`, exact: true }, onnx: lower.minimum });
