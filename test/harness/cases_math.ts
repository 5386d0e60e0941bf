// Harness cases for the elementwise math family of issue 11 (basic_math.ts, arithmetic.ts), with TF kernel-test ports (round, floormod signs).
import * as ef from 'eagerflow';
import type * as efTypes from 'eagerflow';
type PrimitiveName = efTypes.internal.PrimitiveName;
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, TfCase, tfTensor } from './case';
import { Ref, Value, map, ref, zip } from './ref';
import * as IN from './tf_inputs';

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const V = (values: number[], dtype?: 'int32'): InputSpec => ({ shape: [values.length], values, ...(dtype ? { dtype } : {}) });
const I = (shape: number[], gen: Gen = 'int'): InputSpec => ({ shape, dtype: 'int32', gen });
type Unary = (x: ef.TensorLike) => ef.Tensor;
type Binary = (x: ef.TensorLike, y: ef.TensorLike) => ef.Tensor;

/** erf in float64 by its Maclaurin series (|x| <= 3 here; error far below float32's). */
export function erf64(x: number): number {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? NaN : Math.sign(x);
  if (Math.abs(x) > 5) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (-x * x) / n;
    const add = term / (2 * n + 1);
    sum += add;
    if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

/** Half-to-even rounding in float64 (numpy's rint), written independently of the kernels. */
export function rint(v: number): number {
  const r = Math.round(v);
  return Math.abs(v - Math.trunc(v)) === 0.5 ? 2 * Math.round(v / 2) : r;
}

/** Python's floor mod: the remainder takes the divisor's sign. */
const pyMod = (a: number, b: number): number => a - Math.floor(a / b) * b;

interface MathSpec {
  prim: PrimitiveName;
  /** The public op as its path on `ef` (top-level name where TF has one). */
  api: string;
  tf: string[];
  op: Unary;
  f: (v: number) => Value;
  gen?: Gen;
  /** Fixed inputs instead of draws (acosh needs x >= 1). */
  values?: number[];
  grad?: false;
  out?: 'bool';
  /** Also takes int32 (TF's round: identity on integers): no int32 error row, an int32 forward row. */
  int?: boolean;
  /** TensorFlow's call for the golden fixtures (rows' `tfCall`). */
  tfCall: TfCall;
}

const m = ef.math;
const SOFTPLUS = (x: number): number => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));

// The TF fixtures' inputs and own cases (scripts/tf-golden: after the shared `unary` cases).
const T = tfTensor;

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_math_divNoNan: TfCall = { fn: 'tf.math.divide_no_nan', cases: 'none', extra: [
    { name: 'zero denominators', args: [T([1, 0, NaN, Infinity, 3]), T([0, 0, 0, 0, 2])] },
    { name: 'broadcast', args: [IN.t2x3, T([0.5, 0, 1.5])] },
  ] };
const TF_math_floordiv: TfCall = { fn: 'tf.math.floordiv', cases: 'none', extra: [
    { name: 'float signs', args: [T([7, -7, 7, -7, 0, 1, -1]), T([2, 2, -2, -2, 3, 0, 0])], grad: false },
    { name: 'int32 signs', args: [T([7, -7, 7, -7, 0, 6, -6], 'int32'), T([2, 2, -2, -2, 3, 3, -3], 'int32')], grad: false },
    { name: 'int32 divide by zero', args: [T([1], 'int32'), T([0], 'int32')], grad: false },
    { name: 'broadcast', args: [IN.t2x3, T([0.5, -2, 1.5])], grad: false },
  ] };
const TF_math_floormod: TfCall = { fn: 'tf.math.floormod', cases: 'none', extra: [
    { name: 'float signs', args: [T([7, -7, 7, -7, 0, 5.5, -5.5]), T([2, 2, -2, -2, 3, 2, 2])] },
    { name: 'int32 signs', args: [T([7, -7, 7, -7, 0, 6, -6], 'int32'), T([2, 2, -2, -2, 3, 4, 4], 'int32')], grad: false },
    { name: 'broadcast', args: [IN.t2x3, T([0.5, -2, 1.5])] },
  ] };
const TF_math_squaredDifference: TfCall = { fn: 'tf.math.squared_difference', cases: 'arith' };
const TF_math_xlogy: TfCall = { fn: 'tf.math.xlogy', cases: 'none', extra: [
    { name: 'zeros', args: [T([0, 0, 0, 1, 2, -1]), T([0, -1, NaN, 0, 3, 2])] },
    { name: 'broadcast', args: [IN.t2x3, T([0.5, 2, 1.5])] },
  ] };
export const TF_nn_relu6: TfCall = { fn: 'tf.nn.relu6', cases: 'unary', extra: [
    { name: 'at the kinks', args: [T([0, 6, -0, 5.999, 6.001])] },
  ] };
const UNIT = T([-1.0, -0.5, 0.0, -0, 0.25, 0.999, 1.0, 1.5, NaN, Infinity]);
const HALVES = T([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, -0, 0.49999997, 2.4, -2.6, 1e8 + 0.5, Infinity, NaN]);
const SPECIALS = T([0.0, Infinity, -Infinity, NaN, 3e38]);
const tfUnary = (fn: string, ...extra: TfCase[]): TfCall => ({ fn, cases: 'unary', ...(extra.length ? { extra } : {}) });
const tfOwn = (fn: string, ...extra: TfCase[]): TfCall => ({ fn, cases: 'none', extra });
const domain = (x: ReturnType<typeof T>): TfCase => ({ name: 'domain', args: [x] });

const TF_round: TfCall = tfUnary('tf.math.round', { name: 'half to even', args: [HALVES], grad: false });
const TF_erf: TfCall = tfUnary('tf.math.erf');
const TF_atan2: TfCall = { fn: 'tf.math.atan2', cases: 'arith' };

const UNARY: MathSpec[] = [
  { prim: 'acos', api: 'acos', tf: ['Acos'], tfCall: tfUnary('tf.math.acos', domain(UNIT)), op: m.acos, f: Math.acos, gen: 'unit' },
  { prim: 'acosh', api: 'acosh', tf: ['Acosh'], tfCall: tfUnary('tf.math.acosh', domain(T([0.5, 1.0, 1.5, 10.0, Infinity]))), op: m.acosh, f: Math.acosh, values: [1.25, 1.5, 2, 3.5, 6] },
  { prim: 'asin', api: 'asin', tf: ['Asin'], tfCall: tfUnary('tf.math.asin', domain(UNIT)), op: m.asin, f: Math.asin, gen: 'unit' },
  { prim: 'asinh', api: 'asinh', tf: ['Asinh'], tfCall: tfUnary('tf.math.asinh'), op: m.asinh, f: Math.asinh },
  { prim: 'atan', api: 'atan', tf: ['Atan'], tfCall: tfUnary('tf.math.atan'), op: m.atan, f: Math.atan },
  { prim: 'atanh', api: 'atanh', tf: ['Atanh'], tfCall: tfUnary('tf.math.atanh', domain(UNIT)), op: m.atanh, f: Math.atanh, gen: 'unit' },
  { prim: 'tan', api: 'tan', tf: ['Tan'], tfCall: tfUnary('tf.math.tan'), op: m.tan, f: Math.tan, gen: 'unit' },
  { prim: 'ceil', api: 'math.ceil', tf: ['Ceil'], tfCall: tfUnary('tf.math.ceil'), op: m.ceil, f: Math.ceil, grad: false },
  { prim: 'floor', api: 'floor', tf: ['Floor'], tfCall: tfUnary('tf.math.floor'), op: m.floor, f: Math.floor, grad: false },
  { prim: 'round', api: 'round', tf: ['Round'], tfCall: TF_round, op: m.round, f: rint, grad: false, int: true },
  { prim: 'expm1', api: 'math.expm1', tf: ['Expm1'], tfCall: tfUnary('tf.math.expm1'), op: m.expm1, f: Math.expm1 },
  { prim: 'log1p', api: 'math.log1p', tf: ['Log1p'], tfCall: tfUnary('tf.math.log1p', domain(T([-1.0, -0.5, -2.0, 1e-8, -1e-8]))), op: m.log1p, f: Math.log1p, gen: 'unit' },
  { prim: 'reciprocal', api: 'math.reciprocal', tf: ['Reciprocal'], tfCall: tfUnary('tf.math.reciprocal'), op: m.reciprocal, f: (v) => 1 / v, gen: 'away' },
  { prim: 'rsqrt', api: 'math.rsqrt', tf: ['Rsqrt'], tfCall: tfUnary('tf.math.rsqrt'), op: m.rsqrt, f: (v) => 1 / Math.sqrt(v), gen: 'positive' },
  { prim: 'erf', api: 'math.erf', tf: ['Erf'], tfCall: TF_erf, op: m.erf, f: erf64 },
  { prim: 'log_sigmoid', api: 'math.logSigmoid', tf: ['Neg', 'Softplus'], tfCall: tfUnary('tf.math.log_sigmoid', { name: 'large magnitudes', args: [T([-100.0, -20.0, 20.0, 100.0])] }), op: m.logSigmoid, f: (v) => -SOFTPLUS(-v) },
  { prim: 'is_finite', api: 'math.isFinite', tf: ['IsFinite'], tfCall: tfOwn('tf.math.is_finite', { name: 'special values', args: [SPECIALS], grad: false }, { name: 'int32', args: [T([1], 'int32')], grad: false }), op: m.isFinite, f: Number.isFinite, out: 'bool' },
  { prim: 'is_inf', api: 'math.isInf', tf: ['IsInf'], tfCall: tfOwn('tf.math.is_inf', { name: 'special values', args: [SPECIALS], grad: false }), op: m.isInf, f: (v) => Math.abs(v) === Infinity, out: 'bool' },
  { prim: 'is_nan', api: 'math.isNan', tf: ['IsNan'], tfCall: tfOwn('tf.math.is_nan', { name: 'special values', args: [SPECIALS], grad: false }), op: m.isNan, f: Number.isNaN, out: 'bool' },
];

function unaryRows(u: MathSpec): ForwardCase[] {
  const r = (x: Ref): Ref => map(x, u.f, u.out ?? 'float32');
  const base = { prim: u.prim, api: u.api, tfOps: u.tf, ref: r, ...(u.grad === false ? { grad: false as const } : {}), tfCall: u.tfCall };
  const one = (x: ef.Tensor): ef.Tensor => u.op(x);
  const main: InputSpec = u.values ? V(u.values) : F([5], u.gen);
  const rows: ForwardCase[] = [
    { ...base, name: `${u.prim} vector`, inputs: [main], op: one },
    { ...base, name: `${u.prim} matrix`, inputs: [u.values ? { shape: [1, u.values.length], values: u.values } : F([2, 3], u.gen)], op: one },
    { ...base, name: `${u.prim} scalar`, inputs: [u.values ? { shape: [], values: [u.values[1]] } : F([], u.gen)], op: one },
    { ...base, name: `${u.prim} empty`, inputs: [F([0, 2], u.gen)], op: one },
  ];
  if (u.out === 'bool') {
    const special = [0, -0, 1.5, Infinity, -Infinity, NaN, 3.4e38, -1e-45];
    rows.push({ ...base, name: `${u.prim} on special values`, inputs: [V(special)], op: one });
  }
  return rows;
}

// Ported from TensorFlow's cwise_ops_unary_test (testRound: np.rint semantics) and math_ops_test.
const TF_PORTS: ForwardCase[] = [
  {
    prim: 'round', api: 'round', tfCall: TF_round, tfOps: ['Round'], grad: false, name: 'round: half to even (TF cwise_ops test values)',
    inputs: [V([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.4, -0.6, 3.7, -4.51, 1e7 + 0.5])],
    op: (x) => m.round(x), ref: (x) => map(x, rint),
  },
  {
    prim: 'floormod', api: 'math.floormod', tfCall: TF_math_floormod, tfOps: ['FloorMod'], name: 'floormod int32 signs follow the divisor (TF math_ops_test)',
    inputs: [{ shape: [8], dtype: 'int32', values: [7, -7, 7, -7, 6, -6, 0, 1] }, { shape: [8], dtype: 'int32', values: [3, 3, -3, -3, 3, -3, 5, -5] }],
    op: (x, y) => m.floormod(x, y), ref: (x, y) => zip(x, y, (a, b) => pyMod(a, b) + 0, 'int32'),
  },
  {
    prim: 'floormod', api: 'math.floormod', tfCall: TF_math_floormod, tfOps: ['FloorMod'], name: 'floormod float signs (Python semantics)',
    inputs: [V([5.5, -5.5, 5.5, -5.5, 0.75, -0.25]), V([2, 2, -2, -2, 0.5, 0.5])],
    op: (x, y) => m.mod(x, y), ref: (x, y) => zip(x, y, pyMod), grad: [0],
  },
  {
    prim: 'floordiv', api: 'math.floordiv', tfCall: TF_math_floordiv, tfOps: ['FloorDiv'], name: 'floordiv int32 rounds toward -inf (TF math_ops_test)',
    inputs: [{ shape: [6], dtype: 'int32', values: [7, -7, 7, -7, 0, -1] }, { shape: [6], dtype: 'int32', values: [3, 3, -3, -3, 2, 2] }],
    op: (x, y) => m.floordiv(x, y), ref: (x, y) => zip(x, y, (a, b) => Math.floor(a / b) + 0, 'int32'),
  },
  {
    prim: 'div_no_nan', api: 'math.divNoNan', tfCall: TF_math_divNoNan, tfOps: ['DivNoNan'], name: 'divNoNan is 0 where y == 0 (TF math_ops_test)',
    inputs: [V([1, -2, 0, 3.5, 4]), V([0, 2, 0, -0, 0.5])],
    op: (x, y) => m.divNoNan(x, y), ref: (x, y) => zip(x, y, (a, b) => (b === 0 ? 0 : a / b)), grad: [0],
  },
  {
    // The internal record behind xlogy's gradient (TF's Xdivy): 0 where x == 0, even at y == 0; its own gradient by TF's _XDivyGrad.
    prim: 'xdivy', api: 'math.xlogy', tfCall: TF_math_xlogy, tfOps: ['Xdivy'], noConverter: 'tfjs-converter has no Xdivy op', name: 'xdivy (xlogy gradient record) is 0 where x == 0',
    inputs: [V([0, 0, 1.5, 2, -1]), V([0, 2, 0.5, 3, 1.25])],
    op: (x, y) => ef.internal.bind(ef.internal.PRIMITIVES.xdivy, [x, y], {})[0], ref: (x, y) => zip(x, y, (a, b) => (a === 0 ? 0 : a / b)), grad: false,
  },
  {
    prim: 'xdivy', api: 'math.xlogy', tfCall: TF_math_xlogy, tfOps: ['Xdivy'], noConverter: 'tfjs-converter has no Xdivy op', name: 'xdivy (xlogy gradient record) away from zero, with gradients',
    inputs: [V([0.5, -1.5, 2, 3]), V([1.25, 2, -0.75, 4])],
    op: (x, y) => ef.internal.bind(ef.internal.PRIMITIVES.xdivy, [x, y], {})[0], ref: (x, y) => zip(x, y, (a, b) => a / b),
  },
  {
    prim: 'xlogy', api: 'math.xlogy', tfCall: TF_math_xlogy, tfOps: ['Xlogy'], noConverter: 'tfjs-converter has no Xlogy op', name: 'xlogy is 0 where x == 0, even at y == 0',
    inputs: [V([0, 0, 1.5, 2, -1]), V([0, 2, 0.5, 3, 1.25])],
    op: (x, y) => m.xlogy(x, y), ref: (x, y) => zip(x, y, (a, b) => (a === 0 ? 0 : a * Math.log(b))), grad: false,
  },
];

interface BinSpec {
  prim: PrimitiveName;
  api: string;
  tf: string;
  op: Binary;
  f: (a: number, b: number) => number;
  gens: [Gen, Gen];
  int?: (a: number, b: number) => number;
  intGens?: [Gen, Gen];
  grad?: number[] | false;
  noConverter?: string;
  /** Why the converter cannot run the float32 rows (int32 rows must run). */
  floatNoConverter?: string;
  /** TensorFlow's call for the golden fixtures (rows' `tfCall`). */
  tfCall: TfCall;
}

const BINARY: BinSpec[] = [
  { prim: 'atan2', api: 'atan2', tf: 'Atan2', tfCall: TF_atan2, op: m.atan2, f: Math.atan2, gens: ['away', 'away'] },
  // Quotients stay away from integers in the random rows (floor is flat there: no gradient anyway).
  { prim: 'floordiv', api: 'math.floordiv', tfCall: TF_math_floordiv, tf: 'FloorDiv', op: m.floordiv, f: (a, b) => Math.floor(a / b), gens: ['normal', 'away'], int: (a, b) => Math.floor(a / b), intGens: ['int', 'count'], grad: false, floatNoConverter: "tfjs's cpu FloorDiv kernel returns int32 for float32 inputs (so the converter's floorDiv does)" },
  { prim: 'floormod', api: 'math.floormod', tfCall: TF_math_floormod, tf: 'FloorMod', op: m.floormod, f: pyMod, gens: ['normal', 'positive'], int: pyMod, intGens: ['int', 'count'] },
  { prim: 'squared_difference', api: 'math.squaredDifference', tfCall: TF_math_squaredDifference, tf: 'SquaredDifference', op: m.squaredDifference, f: (a, b) => (a - b) * (a - b), gens: ['normal', 'normal'], int: (a, b) => (a - b) * (a - b), intGens: ['int', 'int'] },
  { prim: 'div_no_nan', api: 'math.divNoNan', tfCall: TF_math_divNoNan, tf: 'DivNoNan', op: m.divNoNan, f: (a, b) => (b === 0 ? 0 : a / b), gens: ['normal', 'away'] },
  { prim: 'xlogy', api: 'math.xlogy', tfCall: TF_math_xlogy, tf: 'Xlogy', op: m.xlogy, f: (a, b) => (a === 0 ? 0 : a * Math.log(b)), gens: ['normal', 'positive'], noConverter: 'tfjs-converter has no Xlogy op' },
];

function binaryRows(s: BinSpec): ForwardCase[] {
  const r = (a: Ref, b: Ref): Ref => zip(a, b, s.f);
  const base = { prim: s.prim, api: s.api, tfOps: [s.tf], ...(s.grad !== undefined ? { grad: s.grad } : {}), ...(s.noConverter ? { noConverter: s.noConverter } : {}), tfCall: s.tfCall };
  const two = (x: ef.Tensor, y: ef.Tensor): ef.Tensor => s.op(x, y);
  const [ga, gb] = s.gens;
  const fl = { ...base, ...(s.floatNoConverter ? { noConverter: s.floatNoConverter } : {}) };
  const rows: ForwardCase[] = [
    { ...fl, name: `${s.prim} same shape`, inputs: [F([2, 3], ga), F([2, 3], gb)], op: two, ref: r },
    { ...fl, name: `${s.prim} broadcast row`, inputs: [F([2, 3], ga), F([3], gb)], op: two, ref: r },
    { ...fl, name: `${s.prim} broadcast outer`, inputs: [F([2, 1], ga), F([1, 3], gb)], op: two, ref: r },
    { ...fl, name: `${s.prim} scalar and matrix`, inputs: [F([], ga), F([2, 2], gb)], op: two, ref: r },
  ];
  if (s.int) {
    const fi = s.int;
    const [ia, ib] = s.intGens ?? ['int', 'int'];
    rows.push({ ...base, name: `${s.prim} int32 broadcast`, inputs: [I([2, 3], ia), I([3], ib)], op: two, ref: (a, b) => zip(a, b, (x, y) => fi(x, y) + 0, 'int32') });
  }
  return rows;
}

const JS_ROWS: ForwardCase[] = [
  { prim: 'atan2', api: 'atan2', tfCall: TF_atan2, tfOps: ['Atan2'], name: 'atan2 of a JS scalar and a tensor (all four quadrants)', inputs: [V([1, 1, -1, -1])], op: (x) => m.atan2(x, -0.5), ref: (x) => zip(x, ref(-0.5), Math.atan2) },
  { prim: 'erf', api: 'math.erf', tfCall: TF_erf, tfOps: ['Erf'], name: 'erf of a JS array', inputs: [], op: () => m.erf([[-3, -0.5, 0, 0.25, 2.5]]), ref: () => map(ref([[-3, -0.5, 0, 0.25, 2.5]]), erf64) },
];

const INT_ROWS: ForwardCase[] = [
  { prim: 'round', api: 'round', tfCall: TF_round, tfOps: ['Round'], grad: false, name: 'round of int32 is the identity (TF)', inputs: [V([-7, 0, 3, 2147483647], 'int32')], op: (x) => m.round(x), ref: (x) => x },
  { prim: 'relu6', api: 'nn.relu6', tfCall: TF_nn_relu6, tfOps: ['Relu6'], grad: false, name: 'relu6 of int32 clips in int32 (TF)', inputs: [V([-7, 0, 3, 6, 9], 'int32')], op: (x) => ef.nn.relu6(x), ref: (x) => map(x, (v) => Math.min(Math.max(v, 0), 6)) },
];

export const mathCases: ForwardCase[] = [...INT_ROWS, ...UNARY.flatMap(unaryRows), ...BINARY.flatMap(binaryRows), ...TF_PORTS, ...JS_ROWS];

function unaryErrors(u: MathSpec): ErrorCase[] {
  const op = u.api.replace('math.', '');
  return [
    ...(u.int ? [] : [{ prim: u.prim, api: u.api, name: `${u.prim} rejects int32`, inputs: [I([2])], run: (x: ef.Tensor) => u.op(x), op, got: 'int32', expected: 'float32' }]),
    { prim: u.prim, api: u.api, name: `${u.prim} rejects a string array`, inputs: [], run: () => u.op(['a']), op, got: 'string', expected: 'float32' },
  ];
}

function binaryErrors(s: BinSpec): ErrorCase[] {
  const p = s.prim;
  const rows: ErrorCase[] = [
    { prim: p, api: s.api, name: `${p} shape mismatch`, inputs: [F([2]), F([3])], run: (a, b) => s.op(a, b), op: p, got: '[2] and [3]', expected: 'shapes whose trailing dims are equal or 1' },
    { prim: p, api: s.api, name: `${p} dtype mismatch`, inputs: [F([2]), I([2])], run: (a, b) => s.op(a, b), op: p, got: 'float32 and int32', expected: 'matching dtypes' },
    { prim: p, api: s.api, name: `${p} rejects bool`, inputs: [{ shape: [2], dtype: 'bool' }, { shape: [2], dtype: 'bool' }], run: (a, b) => s.op(a, b), op: p, got: 'bool', expected: s.int ? 'float32 or int32' : 'float32' },
  ];
  return rows;
}

export const mathErrors: ErrorCase[] = [...UNARY.flatMap(unaryErrors), ...BINARY.flatMap(binaryErrors)];

/** The float32 elementwise records of this family with their float64 references (the scalar-fact test reads these). */
export const MATH_UNARY_OPS = UNARY.filter((u) => u.out === undefined).map((u) => ({ prim: u.prim, op: u.op }));
export const MATH_BINARY_OPS = BINARY.map((b) => ({ prim: b.prim, op: b.op }));
