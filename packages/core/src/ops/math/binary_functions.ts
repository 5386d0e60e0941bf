// Elementwise binary math records (tfjs-converter's arithmetic): atan2, floordiv, floormod (mod), squaredDifference, divNoNan, xlogy.
import type { Info, Kernels } from '../../backend/backend';
import { Params, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { lower } from '../onnx_lowerings';
import * as o from '../ops';
import { FLOAT, argError } from '../check';
import { OpRecord, binaryApi, defineOp } from '../define_op';
import { isHostBackend } from '../../backend/backend';
import { broadcastInfo, hostElementwise, intMultiply, intValues, sameShape, withScratch } from '../kernel_util';
import { g0 } from '../rule_helpers';

const NONE: Params = {};

/** Runs `mask ? 0 : value` with `mask` broadcast to value's shape (tfjs's Select does not broadcast). */
function zeroWhere(k: Kernels, mask: Info, value: Info): Info {
  const m = sameShape(mask.shape, value.shape) ? mask : broadcastInfo(k, mask, value.shape);
  const zeros = k.run('ZerosLike', { x: value }) as Info;
  const out = k.run('Select', { condition: m, t: zeros, e: value }) as Info;
  if (m !== mask) k.free(m);
  k.free(zeros);
  return out;
}

/** `value`, with 0 wherever `a` == 0 (TF's xlogy/xdivy convention); frees `value`. */
function zeroWhereZero(k: Kernels, a: Info, value: Info): Info {
  const zero = k.upload(Float32Array.of(0), [], 'float32');
  const mask = k.run('Equal', { a, b: zero }) as Info;
  k.free(zero);
  const out = zeroWhere(k, mask, value);
  k.free(mask);
  k.free(value);
  return out;
}

/** atan2(y, x): TF's argument order; the angle of the point (x, y). */
export const atan2 = defineOp({
  family: 'binary', name: 'atan2', api: api(['math.atan2', 'atan2'], [arg.tensor('y'), arg.tensor('x')], [], { poolScalars: true }),
  dtypes: FLOAT,
  saves: 'inputs',
  scalar: { fn: Math.atan2, expr: (a, b) => `Math.atan2(${a}, ${b})`, gpu: (a, b) => `ef_sel(isnan(${a}) || isnan(${b}), ef_nan(), ef_atan2(${a}, ${b}))` },
  // TF's _Atan2Grad: gradInv = g / (x² + y²); (x·gradInv, -y·gradInv) (so x = 3e38, y = 0 gives 0, not NaN).
  vjp: (c, [y, x], _o, _p, need) => {
    const inv = o.div(g0(c), o.add(o.square(x), o.square(y)));
    return [need[0] ? o.mul(x, inv) : null, need[1] ? o.mul(o.neg(y), inv) : null];
  },
  onnx: lower.atan2,
});

/**
 * floor(x / y). Floats divide then floor (tfjs's cpu FloorDiv returns int32 for every input, so
 * it only runs on int32). No gradient, like TensorFlow.
 */
export const floordiv = defineOp({
  family: 'binary', name: 'floordiv', kernel: 'FloorDiv', api: ['math.floordiv'],
  saves: 'none',
  // The quotient is rounded to float32 (RealDiv's output) before the floor, like TF's float kernel.
  scalar: { fn: (a, b) => Math.floor(Math.fround(a / b)), expr: (a, b) => `Math.floor(Math.fround(${a} / ${b}))`, gpu: (a, b) => `floor(${a} / ${b})`, exact: true },
  impl(k, [a, b]) {
    if (a.dtype === 'int32') {
      // TF's CPU kernel raises on an integer division by zero (checked where values are on the host).
      if (isHostBackend() && intValues(b).some((v) => v === 0)) throw argError('floordiv', 'integer division by zero', 'an int32 divisor of 0', 'nonzero int32 divisors', "Mask the zeros first, or divide floats: ef.math.floordiv(ef.cast(x, 'float32'), ef.cast(y, 'float32')).");
      return [k.run('FloorDiv', { a, b }) as Info];
    }
    const q = k.run('RealDiv', { a, b }) as Info;
    const out = k.run('Floor', { x: q }) as Info;
    k.free(q);
    return [out];
  },
  onnx: lower.floordiv,
});

/**
 * TF's FloorMod on floats: the truncated remainder (fmod, JavaScript's %), moved by the divisor where the two signs
 * differ; a zero remainder keeps the dividend's sign (floormod(-1.5, 0.5) = -0). tfjs's cpu Mod kernel moves it with
 * `(rem + b) % b`, which loses the remainder to rounding when b is large: floormod(-2.09375, 3.4e38) gave 0 where TF
 * gives 3.4e38.
 */
function floorModKernel(a: number, b: number): number {
  const m = a % b;
  return m !== 0 && b < 0 !== m < 0 ? m + b : m;
}
/** x - floor(x / y)·y with the divisor's sign (TF's FloorMod); also `ef.math.mod`. Gradient: (g, -g·floordiv(x, y)). */
export const floormod = defineOp({
  family: 'binary', name: 'floormod', kernel: 'Mod', api: ['math.floormod', 'math.mod'],
  saves: 'inputs',
  scalar: { fn: floorModKernel, expr: (a, b) => `((a, b) => { const m = a % b; return m !== 0 && b < 0 !== m < 0 ? m + b : m; })(${a}, ${b})` },
  impl(k, [a, b]) {
    if (a.dtype === 'int32') return [k.run('Mod', { a, b }) as Info];
    const host = hostElementwise(k, [a, b], floorModKernel);
    if (host !== null) return [host];
    return [withScratch(k, (s) => {
      const r = s.run('Mod', { a, b });
      // a·0 is a zero with a's sign (finite a; an infinite a gives a NaN remainder, never selected).
      const z = s.run('Multiply', { a, b: s.scalar(0) });
      return s.run('Select', { condition: s.run('Equal', { a: r, b: s.scalar(0) }), t: s.to(z, r.shape), e: r });
    })];
  },
  vjp: (c, [x, y], _o, _p, need) => [g0(c), need[1] ? o.neg(o.mul(g0(c), bind(floordiv as Primitive, [x, y], NONE)[0])) : null],
  tf: { op: 'FloorMod' },
  onnx: lower.floormod,
});

/** (x - y)²; int32 wraps around like TF (the square is Math.imul, not a float64 product). */
export const squaredDifference = defineOp({
  family: 'binary', name: 'squared_difference', api: ['math.squaredDifference'],
  saves: 'inputs',
  impl(k, [a, b]) {
    if (a.dtype !== 'int32') return [k.run('SquaredDifference', { a, b }) as Info];
    const d = k.run('Sub', { a, b }) as Info;
    const out = intMultiply(k, d, d);
    k.free(d);
    return [out];
  },
  scalar: { fn: (a, b) => (a - b) * (a - b), expr: (a, b) => `((d) => d * d)(${a} - ${b})`, gpu: (a, b) => `((${a} - ${b}) * (${a} - ${b}))` },
  vjp: (c, [x, y], _o, _p, need) => {
    const d = o.mul(o.mul(g0(c), o.sub(x, y)), 2);
    return [need[0] ? d : null, need[1] ? o.neg(d) : null];
  },
  onnx: lower.squaredDifference,
});

const divNoNanOf = (a: Tensor, b: Tensor): Tensor => bind(divNoNan as Primitive, [a, b], NONE)[0];
/** x / y, and 0 where y == 0 (TF's DivNoNan; tfjs has no kernel: RealDiv then Select). */
export const divNoNan: OpRecord<'div_no_nan', Params, ReturnType<typeof binaryApi<readonly ['math.divNoNan', 'math.divideNoNan']>>> = defineOp({
  family: 'binary', name: 'div_no_nan', api: ['math.divNoNan', 'math.divideNoNan'],
  dtypes: FLOAT,
  saves: 'inputs',
  scalar: { fn: (a, b) => (b === 0 ? 0 : a / b), expr: (a, b) => `((a, b) => (b === 0 ? 0 : a / b))(${a}, ${b})` },
  impl(k, [a, b]) {
    const q = k.run('RealDiv', { a, b }) as Info;
    const zero = k.upload(Float32Array.of(0), [], 'float32');
    const mask = k.run('Equal', { a: b, b: zero }) as Info;
    k.free(zero);
    const out = zeroWhere(k, mask, q);
    k.free(mask);
    k.free(q);
    return [out];
  },
  // TF's _DivNoNanGrad: (divNoNan(g, y), g·divNoNan(divNoNan(-x, y), y)).
  vjp: (c, [x, y], _o, _p, need) => [
    need[0] ? divNoNanOf(g0(c), y) : null,
    need[1] ? o.mul(g0(c), divNoNanOf(divNoNanOf(o.neg(x), y), y)) : null,
  ],
});

/** x·log(y), and 0 where x == 0 (TF's Xlogy; composed on tfjs: Log, Multiply, Select). */
export const xlogy: OpRecord<'xlogy', Params, ReturnType<typeof binaryApi<readonly ['math.xlogy']>>> = defineOp({
  family: 'binary', name: 'xlogy', api: ['math.xlogy'],
  dtypes: FLOAT,
  saves: 'inputs',
  scalar: { fn: (a, b) => (a === 0 ? 0 : a * Math.fround(Math.log(b))), expr: (a, b) => `((a, b) => (a === 0 ? 0 : a * Math.fround(Math.log(b))))(${a}, ${b})` },
  impl(k, [a, b]) {
    const l = k.run('Log', { x: b }) as Info;
    const m = k.run('Multiply', { a, b: l }) as Info;
    k.free(l);
    return [zeroWhereZero(k, a, m)];
  },
  // TF's _XLogyGrad: (g·xlogy(x != 0, y), g·xdivy(x, y)).
  vjp: (c, [x, y], _o, _p, need) => [
    need[0] ? o.mul(g0(c), bind(xlogy as Primitive, [nonzero(x), y], NONE)[0]) : null,
    need[1] ? o.mul(g0(c), xdivyOf(x, y)) : null,
  ],
});

/** 1 where x != 0, else 0 (TF's cast(not_equal(x, 0))): a constant of the gradients. */
const nonzero = (x: Tensor): Tensor => o.where(o.equal(x, 0), 0, 1);
const xdivyOf = (a: Tensor, b: Tensor): Tensor => bind(xdivy, [a, b], NONE)[0];

/**
 * x / y, and 0 where x == 0 (TF's Xdivy; composed on tfjs: RealDiv, Select). Internal (no public
 * path yet): xlogy's gradient, whose own gradient must not pass a NaN through x / y where x == 0.
 */
const xdivyRecord = defineOp({
  family: 'binary', name: 'xdivy', api: ['math.xdivy'],
  dtypes: FLOAT,
  saves: 'inputs',
  scalar: { fn: (a, b) => (a === 0 ? 0 : a / b), expr: (a, b) => `((a, b) => (a === 0 ? 0 : a / b))(${a}, ${b})` },
  impl(k, [a, b]) {
    return [zeroWhereZero(k, a, k.run('RealDiv', { a, b }) as Info)];
  },
  // TF's _XDivyGrad: (g·xdivy(x != 0, y), g·xdivy(-x, y²)).
  vjp: (c, [x, y], _o, _p, need) => [need[0] ? o.mul(g0(c), xdivyOf(nonzero(x), y)) : null, need[1] ? o.mul(g0(c), xdivyOf(o.neg(x), o.square(y))) : null],
});
export const xdivy = { ...xdivyRecord, api: undefined };
