// Elementwise unary math records (tfjs-converter's basic_math): inverse trig, rounding, erf, expm1/log1p, reciprocal/rsqrt, isFinite/isInf/isNan, logSigmoid.
import { lower } from '../onnx_lowerings';
import type { Info } from '../../backend/backend';
import { Params, Primitive, ScalarFact } from '../primitive';
import { tfOpOf, typeAttrOf } from '../graphdef_spec';
import { softplus } from '../nn/activations';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import * as o from '../ops';
import { OpRecord, defineOp, unaryApi } from '../define_op';
import { hostElementwise, withScratch } from '../kernel_util';
import * as U from './unary';
import { g0 } from '../rule_helpers';

const NONE: Params = {};
const sqrt = (x: Tensor): Tensor => bind(U.sqrt, [x], NONE)[0];
const sigmoid = (x: Tensor): Tensor => bind(U.sigmoid, [x], NONE)[0];

/** A fact from a JS Math function of one argument (what tfjs's cpu kernel calls). */
type MathFn = 'acos' | 'acosh' | 'asin' | 'asinh' | 'atan' | 'atanh' | 'tan' | 'ceil' | 'floor' | 'expm1' | 'log1p';
const mathFact = (f: MathFn): ScalarFact => {
  const fn = Math[f];
  const fact = { fn: (a: number) => fn(a), expr: (a: string) => `Math.${f}(${a})`, gpu: MATH_GPU[f] };
  // floor and ceil of a float32 are float32 (the fused loop need not round them).
  return f === 'floor' || f === 'ceil' ? { ...fact, exact: true } : fact;
};

/** The shader templates of those functions, after tfjs's webgl snippets (NaN checks and domain edges). */
const MATH_GPU: Record<MathFn, (a: string) => string> = {
  acos: (a) => `ef_sel(isnan(${a}), ${a}, ef_sel(abs(${a}) > 1.0, ef_nan(), acos(${a})))`,
  asin: (a) => `ef_sel(isnan(${a}), ${a}, ef_sel(abs(${a}) > 1.0, ef_nan(), asin(${a})))`,
  atan: (a) => `ef_sel(isnan(${a}), ${a}, atan(${a}))`,
  acosh: (a) => `ef_sel(${a} < 1.0, ef_nan(), log(${a} + sqrt(${a} * ${a} - 1.0)))`,
  asinh: (a) => `ef_sel(isnan(${a}), ${a}, log(${a} + sqrt(${a} * ${a} + 1.0)))`,
  atanh: (a) => `ef_sel(${a} < -1.0 || ${a} > 1.0, ef_nan(), (log(1.0 + ${a}) - log(1.0 - ${a})) / 2.0)`,
  tan: (a) => `tan(${a})`,
  ceil: (a) => `ceil(${a})`,
  floor: (a) => `floor(${a})`,
  expm1: (a) => `(exp(${a}) - 1.0)`,
  log1p: (a) => `log(1.0 + ${a})`,
};

export const acos = defineOp({
  family: 'unary', name: 'acos', api: ['math.acos', 'acos'],
  saves: 'inputs', scalar: mathFact('acos'),
  vjp: (c, [x]) => [o.neg(o.div(g0(c), sqrt(o.sub(1, o.square(x)))))],
  onnx: true,
});
/** TF's _AcoshGrad: g / sinh(y), from the output (NaN outside the domain, like the value). */
export const acosh = defineOp({
  family: 'unary', name: 'acosh', api: ['math.acosh', 'acosh'],
  saves: 'outputs', scalar: mathFact('acosh'),
  vjp: (c, _x, [y]) => [o.div(g0(c), o.sinh(y))],
  onnx: true,
});
export const asin = defineOp({
  family: 'unary', name: 'asin', api: ['math.asin', 'asin'],
  saves: 'inputs', scalar: mathFact('asin'),
  vjp: (c, [x]) => [o.div(g0(c), sqrt(o.sub(1, o.square(x))))],
  onnx: true,
});
/** TF's _AsinhGrad: g / cosh(y), from the output. */
export const asinh = defineOp({
  family: 'unary', name: 'asinh', api: ['math.asinh', 'asinh'],
  saves: 'outputs', scalar: mathFact('asinh'),
  vjp: (c, _x, [y]) => [o.div(g0(c), o.cosh(y))],
  onnx: true,
});
export const atan = defineOp({
  family: 'unary', name: 'atan', api: ['math.atan', 'atan'],
  saves: 'inputs', scalar: mathFact('atan'),
  vjp: (c, [x]) => [o.div(g0(c), o.add(o.square(x), 1))],
  onnx: true,
});
export const atanh = defineOp({
  family: 'unary', name: 'atanh', api: ['math.atanh', 'atanh'],
  saves: 'inputs', scalar: mathFact('atanh'),
  vjp: (c, [x]) => [o.div(g0(c), o.sub(1, o.square(x)))],
  onnx: true,
});
/** tan' = 1 + tan² (TF: 1 / cos²), from the output. */
export const tan = defineOp({
  family: 'unary', name: 'tan', api: ['math.tan', 'tan'],
  saves: 'outputs', scalar: mathFact('tan'),
  vjp: (c, _x, [y]) => [o.mul(g0(c), o.add(o.square(y), 1))],
  onnx: true,
});
// TensorFlow registers no gradient (None) for Ceil, Floor and Round.
export const ceil = defineOp({ family: 'unary', name: 'ceil', api: ['math.ceil'], scalar: mathFact('ceil'), onnx: true });
export const floor = defineOp({ family: 'unary', name: 'floor', api: ['math.floor', 'floor'], scalar: mathFact('floor'), onnx: true });

/** tfjs's cpu Round (banker's rounding, TF's half-to-even), statement for statement. */
function roundHalfEven(v: number): number {
  const base = Math.floor(v);
  if (v - base < 0.5) return Math.floor(v);
  if (v - base > 0.5) return Math.ceil(v);
  return base % 2.0 === 0.0 ? base : base + 1.0;
}
/** round's scalar fact: a zero result takes x's sign. */
const roundSigned = (v: number): number => {
  const r = roundHalfEven(v);
  return r === 0 ? v * 0 : r;
};
/** Half to even like TF's Round (C's rint): a zero result keeps x's sign (round(-0.5) = -0); int32 is returned as it is. */
export const round = defineOp({
  family: 'unary', name: 'round', api: ['math.round', 'round'],
  dtypes: ['float32', 'int32'],
  scalar: { fn: roundSigned, gpu: (a) => `ef_round(${a})`, exact: true, expr: (a) => `((v) => { const b = Math.floor(v); const r = v - b < 0.5 ? b : v - b > 0.5 ? Math.ceil(v) : b % 2.0 === 0.0 ? b : b + 1.0; return r === 0 ? v * 0 : r; })(${a})` },
  impl: (k, ins) => {
    const x = ins[0];
    if (x.dtype === 'int32') return [k.run('Identity', { x }) as Info];
    const host = hostElementwise(k, [x], roundSigned);
    if (host !== null) return [host];
    return [
      withScratch(k, (s) => {
        const r = s.run('Round', { x });
        return s.run('Select', { condition: s.run('Equal', { a: r, b: s.scalar(0) }), t: s.run('Multiply', { a: x, b: s.scalar(0) }), e: r });
      }),
    ];
  },
  onnx: lower.round,
});
export const expm1 = defineOp({
  family: 'unary', name: 'expm1', api: ['math.expm1'],
  saves: 'inputs', scalar: mathFact('expm1'),
  vjp: (c, [x]) => [o.mul(g0(c), o.exp(x))],
  onnx: lower.expm1,
});
export const log1p = defineOp({
  family: 'unary', name: 'log1p', api: ['math.log1p'],
  saves: 'inputs', scalar: mathFact('log1p'),
  vjp: (c, [x]) => [o.div(g0(c), o.add(x, 1))],
  onnx: lower.log1p,
});
/** TF's ReciprocalGrad: -g·y². */
export const reciprocal = defineOp({
  family: 'unary', name: 'reciprocal', api: ['math.reciprocal'],
  saves: 'outputs', scalar: { fn: (a) => 1 / a, expr: (a) => `(1 / ${a})`, gpu: (a) => `(1.0 / ${a})` },
  vjp: (c, _x, [y]) => [o.neg(o.mul(g0(c), o.square(y)))],
  onnx: true,
});
/** TF's RsqrtGrad: -g·y³/2. */
export const rsqrt = defineOp({
  family: 'unary', name: 'rsqrt', api: ['math.rsqrt'],
  saves: 'outputs', scalar: { fn: (a) => 1 / Math.sqrt(a), expr: (a) => `(1 / Math.sqrt(${a}))`, gpu: (a) => `ef_rsqrt(${a})` },
  vjp: (c, _x, [y]) => [o.mul(g0(c), o.mul(o.mul(y, o.square(y)), -0.5))],
  onnx: lower.rsqrt,
});

// tfjs's Erf kernel: Abramowitz-Stegun 7.1.26 with tfjs-core's constants (erf_util.ts).
const ERF = { p: 0.3275911, a1: 0.254829592, a2: -0.284496736, a3: 1.421413741, a4: -1.453152027, a5: 1.061405429 };
function erfKernel(xi: number): number {
  const sign = Math.sign(xi);
  const v = Math.abs(xi);
  const t = 1.0 / (1.0 + ERF.p * v);
  return sign * (1.0 - (((((ERF.a5 * t + ERF.a4) * t) + ERF.a3) * t + ERF.a2) * t + ERF.a1) * t * Math.exp(-v * v));
}
const erfExpr = (a: string): string =>
  `((xi) => { const v = Math.abs(xi); const t = 1.0 / (1.0 + ${ERF.p} * v); return Math.sign(xi) * (1.0 - (((((${ERF.a5} * t + ${ERF.a4}) * t) + ${ERF.a3}) * t + ${ERF.a2}) * t + ${ERF.a1}) * t * Math.exp(-v * v)); })(${a})`;
/** erf' = 2/√π · exp(-x²) (exact, like TF, though the forward is tfjs's approximation). */
export const erf = defineOp({
  family: 'unary', name: 'erf', api: ['math.erf'],
  saves: 'inputs', scalar: { fn: erfKernel, expr: erfExpr },
  vjp: (c, [x]) => [o.mul(g0(c), o.mul(o.exp(o.neg(o.square(x))), 2 / Math.sqrt(Math.PI)))],
  onnx: true,
});

// Predicates: bool results, no gradient (TF: not differentiable).
export const isFinite = defineOp({ family: 'unary', name: 'is_finite', api: ['math.isFinite'], op: 'isFinite', out: 'bool', onnx: lower.isFinite });
export const isInf = defineOp({ family: 'unary', name: 'is_inf', api: ['math.isInf'], op: 'isInf', out: 'bool', onnx: true });
export const isNan = defineOp({ family: 'unary', name: 'is_nan', api: ['math.isNan'], op: 'isNan', out: 'bool', onnx: { op: 'IsNaN' } });

// tfjs's Softplus kernel thresholds (float32 machine epsilon), used by logSigmoid(x) = -softplus(-x).
const SOFTPLUS_T = Math.log(1.1920928955078125e-7) + 2.0;
function negSoftplusNeg(a: number): number {
  const xi = -a;
  const e = Math.exp(xi);
  return -(xi < SOFTPLUS_T ? e : xi > -SOFTPLUS_T ? xi : Math.log(1.0 + e));
}
const negSoftplusNegExpr = (a: string): string =>
  `((xi) => { const e = Math.exp(xi); return -(xi < ${SOFTPLUS_T} ? e : xi > ${-SOFTPLUS_T} ? xi : Math.log(1.0 + e)); })(-(${a}))`;

/**
 * log(sigmoid(x)) computed stably as -softplus(-x) (TensorFlow's definition and GraphDef:
 * Neg -> Softplus -> Neg); gradient g·sigmoid(-x).
 */
export const logSigmoid: OpRecord<'log_sigmoid', Params, ReturnType<typeof unaryApi<readonly ['math.logSigmoid']>>> = defineOp({
  family: 'unary', name: 'log_sigmoid', kernel: null, api: ['math.logSigmoid'],
  op: 'logSigmoid',
  saves: 'inputs',
  scalar: { fn: negSoftplusNeg, expr: negSoftplusNegExpr },
  vjp: (c, [x]) => [o.mul(g0(c), sigmoid(o.neg(x)))],
  impl(k, [x]) {
    const n = k.run('Neg', { x }) as Info;
    const s = k.run('Softplus', { x: n }) as Info;
    k.free(n);
    const out = k.run('Neg', { x: s }) as Info;
    k.free(s);
    return [out];
  },
  tf: {
    // The Neg and Softplus records' TF ops (read lazily: the reader table is built after every module loads).
    get ops() {
      return [tfOpOf(softplus)];
    },
    write(s, n, [x]) {
      const T = typeAttrOf(s, n.inputs[0]);
      const [negOp, softplusOp] = [tfOpOf(U.neg), tfOpOf(softplus)];
      const neg = s.add(negOp, negOp, [x], { T });
      return [s.add(negOp, negOp, [s.add(softplusOp, softplusOp, [neg], { T })], { T })];
    },
    // Softplus(Neg(x)) = -logSigmoid(x): read that pattern here, so a saved logSigmoid loads without a softplus record.
    matches: (r) => r.producer(0)?.op === tfOpOf(U.neg),
    read(r): Tensor[] {
      r.arity(1);
      const neg = r.producer(0);
      if (neg === undefined || neg.inputs.length !== 1) throw r.error('a Softplus of a Neg', 'another input', 'Softplus(Neg(x))', 'Save the graph with EagerFlow.');
      const x = r.tensorOf(neg.inputs[0], neg.name);
      return [o.neg(bind(logSigmoid as Primitive, [x], NONE)[0])];
    },
  },
});
