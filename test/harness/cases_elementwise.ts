// Harness cases for elementwise primitives: unary math, broadcasting binary ops, comparisons, logic, select.
import * as ef from 'eagerflow';
import type * as efTypes from 'eagerflow';
type PrimitiveName = efTypes.internal.PrimitiveName;
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, TfCase, tfTensor } from './case';
import { Ref, Value, map, ref, sigmoid, zip, zipN } from './ref';
import * as IN from './tf_inputs';

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const I = (shape: number[], gen: Gen = 'int'): InputSpec => ({ shape, dtype: 'int32', gen });
const B = (shape: number[]): InputSpec => ({ shape, dtype: 'bool' });

type Unary = (x: ef.TensorLike) => ef.Tensor;
type Binary = (x: ef.TensorLike, y: ef.TensorLike) => ef.Tensor;

interface UnarySpec {
  prim: PrimitiveName;
  /** The public op (rows' `api`). */
  api: string;
  /** TensorFlow's GraphDef op (rows' `tfOps`). */
  tf: string;
  /** TensorFlow's Python function for the golden fixtures (rows' `tfCall`; the shared `unary` cases). */
  tfFn: string;
  op: Unary;
  f: (v: number) => number;
  gen?: Gen;
  /** Also accepts int32 (TensorFlow: neg, abs, sign, square, relu). */
  ints?: boolean;
  /** Analytic first and second derivatives (smooth ops): nested-tape checks in unary_derivatives.test.ts. */
  d1?: (v: number) => number;
  d2?: (v: number) => number;
}

const UNARY: UnarySpec[] = [
  { prim: 'neg', api: 'negative', tf: 'Neg', tfFn: 'tf.math.negative', op: ef.negative, f: (v) => -v, ints: true },
  { prim: 'abs', api: 'abs', tf: 'Abs', tfFn: 'tf.math.abs', op: ef.abs, f: Math.abs, gen: 'away', ints: true },
  { prim: 'sign', api: 'sign', tf: 'Sign', tfFn: 'tf.math.sign', op: ef.sign, f: Math.sign, gen: 'away', ints: true },
  { prim: 'exp', api: 'exp', tf: 'Exp', tfFn: 'tf.math.exp', op: ef.exp, f: Math.exp, d1: Math.exp, d2: Math.exp },
  { prim: 'log', api: 'log', tf: 'Log', tfFn: 'tf.math.log', op: ef.log, f: Math.log, gen: 'positive', d1: (x) => 1 / x, d2: (x) => -1 / (x * x) },
  { prim: 'sqrt', api: 'sqrt', tf: 'Sqrt', tfFn: 'tf.math.sqrt', op: ef.sqrt, f: Math.sqrt, gen: 'positive', d1: (x) => 0.5 / Math.sqrt(x), d2: (x) => -0.25 * Math.pow(x, -1.5) },
  { prim: 'square', api: 'square', tf: 'Square', tfFn: 'tf.math.square', op: ef.square, f: (v) => v * v, ints: true, d1: (x) => 2 * x, d2: () => 2 },
  { prim: 'sin', api: 'sin', tf: 'Sin', tfFn: 'tf.math.sin', op: ef.sin, f: Math.sin, d1: Math.cos, d2: (x) => -Math.sin(x) },
  { prim: 'cos', api: 'cos', tf: 'Cos', tfFn: 'tf.math.cos', op: ef.cos, f: Math.cos, d1: (x) => -Math.sin(x), d2: (x) => -Math.cos(x) },
  { prim: 'tanh', api: 'tanh', tf: 'Tanh', tfFn: 'tf.math.tanh', op: ef.tanh, f: Math.tanh, d1: (x) => 1 - Math.tanh(x) ** 2, d2: (x) => -2 * Math.tanh(x) * (1 - Math.tanh(x) ** 2) },
  { prim: 'sinh', api: 'sinh', tf: 'Sinh', tfFn: 'tf.math.sinh', op: ef.sinh, f: Math.sinh, d1: Math.cosh, d2: Math.sinh },
  { prim: 'cosh', api: 'cosh', tf: 'Cosh', tfFn: 'tf.math.cosh', op: ef.cosh, f: Math.cosh, d1: Math.sinh, d2: Math.cosh },
  { prim: 'sigmoid', api: 'sigmoid', tf: 'Sigmoid', tfFn: 'tf.math.sigmoid', op: ef.sigmoid, f: sigmoid, d1: (x) => sigmoid(x) * (1 - sigmoid(x)), d2: (x) => sigmoid(x) * (1 - sigmoid(x)) * (1 - 2 * sigmoid(x)) },
  { prim: 'relu', api: 'relu', tf: 'Relu', tfFn: 'tf.nn.relu', op: ef.relu, f: (v) => Math.max(v, 0), gen: 'away', ints: true },
];

function unaryCases(u: UnarySpec): ForwardCase[] {
  const r = (x: Ref): Ref => map(x, u.f);
  const tfCall: TfCall = { fn: u.tfFn, cases: 'unary' };
  const cases: ForwardCase[] = [
    { prim: u.prim, api: u.api, tfOps: [u.tf], tfCall, name: `${u.prim} vector`, inputs: [F([5], u.gen)], op: (x) => u.op(x), ref: r },
    { prim: u.prim, api: u.api, tfOps: [u.tf], tfCall, name: `${u.prim} matrix`, inputs: [F([2, 3], u.gen)], op: (x) => u.op(x), ref: r },
    { prim: u.prim, api: u.api, tfOps: [u.tf], tfCall, name: `${u.prim} scalar`, inputs: [F([], u.gen)], op: (x) => u.op(x), ref: r },
    { prim: u.prim, api: u.api, tfOps: [u.tf], tfCall, name: `${u.prim} empty`, inputs: [F([0, 2], u.gen)], op: (x) => u.op(x), ref: r },
    { prim: u.prim, api: u.api, tfOps: [u.tf], tfCall, name: `${u.prim} of a JS array`, inputs: [], op: () => u.op([[0.5, 1.25]]), ref: () => r(ref([[0.5, 1.25]])) },
  ];
  if (u.ints) {
    cases.push({ prim: u.prim, api: u.api, tfOps: [u.tf], tfCall, name: `${u.prim} int32`, inputs: [I([2, 3])], op: (x) => u.op(x), ref: (x) => map(x, (v) => u.f(v) + 0) });
  }
  return cases;
}

function unaryErrors(u: UnarySpec): ErrorCase[] {
  const bad: InputSpec = u.ints ? B([2]) : I([2]);
  const expected = u.ints ? 'float32 or int32' : 'float32';
  return [
    { prim: u.prim, api: u.api, name: `${u.prim} rejects ${bad.dtype}`, inputs: [bad], run: (x) => u.op(x), op: u.prim, got: bad.dtype as string, expected },
    { prim: u.prim, api: u.api, name: `${u.prim} rejects a string array`, inputs: [], run: () => u.op(['a']), op: u.prim, got: 'string', expected },
  ];
}

interface BinarySpec {
  prim: PrimitiveName;
  api: string;
  tf: string;
  op: Binary;
  f: (a: number, b: number) => Value;
  gens?: [Gen, Gen];
  /** int32 behaviour (false: float only). */
  int?: ((a: number, b: number) => Value) | false;
  intGens?: [Gen, Gen];
  /** Output dtype for int32 inputs when not int32 (divide is true division: float32). */
  intOut?: 'float32';
  out?: 'bool';
  /** Accepted dtypes listed in the dtype error. */
  dtypes?: string;
  /** TensorFlow's call for the golden fixtures (rows' `tfCall`): the shared grid and the op's own cases. */
  tfCall: TfCall;
}

// The TF fixtures' own cases of some binary ops (scripts/tf-golden: after the shared grid).
const T = tfTensor;

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_logicalAnd: TfCall = { fn: 'tf.logical_and', cases: 'logic' };
const TF_logicalNot: TfCall = { fn: 'tf.logical_not', cases: 'none', extra: [
    { name: 'bools', args: [T([true, false], 'bool')] },
    { name: 'float', args: [T([1])], grad: false },
  ] };
const TF_logicalOr: TfCall = { fn: 'tf.logical_or', cases: 'logic' };
const TF_math_logicalXor: TfCall = { fn: 'tf.math.logical_xor', cases: 'none', extra: [
    { name: 'same shape', args: [T([true, true, false, false], 'bool'), T([true, false, true, false], 'bool')] },
    { name: 'broadcast', args: [T([true, false], 'bool', [2, 1]), T([true, false, true], 'bool')] },
    { name: 'scalar', args: [T(true, 'bool'), T([false, true], 'bool')] },
  ] };
export const TF_where: TfCall = { fn: 'tf.where', cases: 'none', extra: [
    { name: 'select', args: [T([true, false, true], 'bool'), T([1, 2, 3]), T([4, 5, 6])] },
    { name: 'broadcast condition', args: [T([true, false], 'bool', [2, 1]), IN.t2x3, T([0.5, -1, 2])] },
    { name: 'special values', args: [T([true, false, true, false], 'bool'), T([NaN, Infinity, -0, 1]), T([1, NaN, 0, -Infinity])] },
    { name: 'broadcast all three', args: [T([true, false], 'bool'), T([1, 2, 3], undefined, [3, 1]), T(0.5)] },
    { name: 'scalar condition', args: [T(true, 'bool'), T([1, 2]), T([3, 4])] },
    { name: 'mismatched shapes', args: [T([true, false], 'bool'), T([1, 2, 3]), T([4, 5, 6])], grad: false },
    { name: 'float condition', args: [T([1, 0]), T([1, 2]), T([3, 4])], grad: false },
    { name: 'int32 values', args: [T([true, false], 'bool'), T([1, 2], 'int32'), T([3, 4], 'int32')], grad: false },
    { name: 'dtype mismatch', args: [T([true, false], 'bool'), T([1, 2]), T([3, 4], 'int32')], grad: false },
    { name: 'numeric JS condition', args: [[1, 0], T([1, 2]), T([3, 4])], grad: false },
    { name: 'strings', args: [T([true, false, false, true], 'bool'), T(['a', 'bc', '', 'd'], 'string'), T(['w', 'x', 'y', 'z'], 'string')], grad: false },
    { name: 'strings broadcast', args: [T([true, false], 'bool', [2, 1]), T(['a', 'b'], 'string'), T(['c', 'd'], 'string')], grad: false },
  ] };
const STR = T(['a', 'bc', '', 'd'], 'string');
const strings = (b: ReturnType<typeof T>): TfCase => ({ name: 'strings', args: [STR, b], grad: false });
const DIVIDE_CASES: TfCase[] = [
  { name: 'int32 true division', args: [T([7, -7, 1, 0], 'int32'), T([2, 2, 0, 0], 'int32')], grad: false },
  { name: 'tiny denominators', args: [T([1e-20, 0.0]), T([1e-23, 1e-30])] },
];
const POW_CASES: TfCase[] = [
  { name: 'int32 non-negative exponents', args: [T([2, -3, 0, 7, 1], 'int32'), T([3, 3, 0, 2, 30], 'int32')], grad: false },
  { name: 'int32 negative exponent', args: [T([2, 1], 'int32'), T([-1, 2], 'int32')], grad: false },
  { name: 'int32 overflow wraps', args: [T([3, 7, -3, 2, 46341, 10], 'int32'), T([25, 15, 21, 31, 2, 10], 'int32')], grad: false },
  { name: 'one to inf', args: [T([1.0, 1.0, -1.0]), T([Infinity, NaN, Infinity])] },
  { name: 'negative base', args: [T([-2.0, -2.0, -8.0]), T([2.0, 3.0, 1.0 / 3.0])] },
];

const TF_equal: TfCall = { fn: 'tf.math.equal', cases: 'compare', extra: [strings(T(['a', 'b', '', 'e'], 'string'))] };
const TF_notEqual: TfCall = { fn: 'tf.math.not_equal', cases: 'compare', extra: [strings(T(['a', 'b', '', 'e'], 'string'))] };

const BINARY: BinarySpec[] = [
  { prim: 'add', api: 'add', tf: 'AddV2', tfCall: { fn: 'tf.math.add', cases: 'arith' }, op: ef.add, f: (a, b) => a + b },
  { prim: 'sub', api: 'subtract', tf: 'Sub', tfCall: { fn: 'tf.math.subtract', cases: 'arith' }, op: ef.subtract, f: (a, b) => a - b },
  { prim: 'mul', api: 'multiply', tf: 'Mul', tfCall: { fn: 'tf.math.multiply', cases: 'arith' }, op: ef.multiply, f: (a, b) => a * b },
  // Integer RealDiv truncates toward zero (TensorFlow's realdiv / C++ semantics).
  { prim: 'div', api: 'divide', tf: 'RealDiv', tfCall: { fn: 'tf.math.divide', cases: 'arith', extra: DIVIDE_CASES }, op: ef.divide, f: (a, b) => a / b, gens: ['normal', 'away'], int: (a, b) => a / b, intGens: ['int', 'count'], intOut: 'float32' },
  { prim: 'pow', api: 'pow', tf: 'Pow', tfCall: { fn: 'tf.math.pow', cases: 'arith', extra: POW_CASES }, op: ef.pow, f: (a, b) => Math.pow(a, b), gens: ['positive', 'normal'], int: (a, b) => Math.pow(a, b), intGens: ['int', 'index'] },
  { prim: 'maximum', api: 'maximum', tf: 'Maximum', tfCall: { fn: 'tf.math.maximum', cases: 'arith' }, op: ef.maximum, f: Math.max },
  { prim: 'minimum', api: 'minimum', tf: 'Minimum', tfCall: { fn: 'tf.math.minimum', cases: 'arith' }, op: ef.minimum, f: Math.min },
  { prim: 'less', api: 'less', tf: 'Less', tfCall: { fn: 'tf.math.less', cases: 'compare', extra: [strings(STR)] }, op: ef.less, f: (a, b) => a < b, out: 'bool' },
  { prim: 'less_equal', api: 'lessEqual', tf: 'LessEqual', tfCall: { fn: 'tf.math.less_equal', cases: 'compare' }, op: ef.lessEqual, f: (a, b) => a <= b, out: 'bool' },
  { prim: 'greater', api: 'greater', tf: 'Greater', tfCall: { fn: 'tf.math.greater', cases: 'compare' }, op: ef.greater, f: (a, b) => a > b, out: 'bool' },
  { prim: 'greater_equal', api: 'greaterEqual', tf: 'GreaterEqual', tfCall: { fn: 'tf.math.greater_equal', cases: 'compare' }, op: ef.greaterEqual, f: (a, b) => a >= b, out: 'bool' },
  { prim: 'equal', api: 'equal', tf: 'Equal', tfCall: TF_equal, op: ef.equal, f: (a, b) => a === b, out: 'bool', dtypes: 'float32 or int32 or bool or string or complex64' },
  { prim: 'not_equal', api: 'notEqual', tf: 'NotEqual', tfCall: TF_notEqual, op: ef.notEqual, f: (a, b) => a !== b, out: 'bool', dtypes: 'float32 or int32 or bool or string or complex64' },
];

/** Maps -0 to 0: int32 tensors have no negative zero. */
const plusZero = (v: Value): Value => (typeof v === 'number' ? v + 0 : v);

function binaryCases(s: BinarySpec): ForwardCase[] {
  const [ga, gb] = s.gens ?? ['normal', 'normal'];
  const dt = s.out ?? 'float32';
  const r = (a: Ref, b: Ref): Ref => zip(a, b, s.f, dt);
  const c = (name: string, a: InputSpec, b: InputSpec): ForwardCase => ({ prim: s.prim, api: s.api, tfOps: [s.tf], tfCall: s.tfCall, name: `${s.prim} ${name}`, inputs: [a, b], op: (x, y) => s.op(x, y), ref: r });
  const cases: ForwardCase[] = [
    c('same shape', F([2, 3], ga), F([2, 3], gb)),
    c('broadcast row', F([2, 3], ga), F([3], gb)),
    c('broadcast outer', F([2, 1], ga), F([1, 3], gb)),
    c('scalar and matrix', F([], ga), F([2, 2], gb)),
    c('rank 3 and rank 1', F([2, 1, 2], ga), F([2], gb)),
    c('empty', F([0, 3], ga), F([3], gb)),
    {
      prim: s.prim,
      api: s.api, tfOps: [s.tf], tfCall: s.tfCall,
      name: `${s.prim} with a JS scalar (takes the tensor's dtype)`,
      inputs: [F([3], ga)],
      op: (x: ef.Tensor) => s.op(x, 1.5),
      ref: (x: Ref) => zip(x, ref(1.5), s.f, dt),
    },
  ];
  if (s.int !== false) {
    const fi = s.int ?? s.f;
    const [ia, ib] = s.intGens ?? ['int', 'int'];
    const ri = (a: Ref, b: Ref): Ref => zip(a, b, (x, y) => plusZero(fi(x, y)), s.out ?? s.intOut ?? 'int32');
    cases.push({ prim: s.prim, api: s.api, tfOps: [s.tf], tfCall: s.tfCall, name: `${s.prim} int32 broadcast`, inputs: [I([2, 3], ia), I([3], ib)], op: (x, y) => s.op(x, y), ref: ri });
    cases.push({ prim: s.prim, api: s.api, tfOps: [s.tf], tfCall: s.tfCall, name: `${s.prim} int32 with a JS number`, inputs: [I([3], ia)], op: (x) => s.op(x, 2), ref: (x) => ri(x, ref(2, 'int32')) });
  }
  return cases;
}

function binaryErrors(s: BinarySpec): ErrorCase[] {
  const p = s.prim;
  const errs: ErrorCase[] = [
    { prim: p, name: `${p} shape mismatch`, inputs: [F([2]), F([3])], run: (a, b) => s.op(a, b), op: p, got: '[2] and [3]', expected: 'shapes whose trailing dims are equal or 1' },
    { prim: p, name: `${p} shape mismatch from JS arrays`, inputs: [], run: () => s.op([[1, 2]], [1, 2, 3]), op: p, got: '[1,2] and [3]', expected: 'shapes whose trailing dims are equal or 1' },
    { prim: p, name: `${p} dtype mismatch`, inputs: [F([2]), I([2])], run: (a, b) => s.op(a, b), op: p, got: 'float32 and int32', expected: 'matching dtypes' },
  ];
  if (!s.dtypes) {
    errs.push({ prim: p, name: `${p} rejects bool`, inputs: [B([2]), B([2])], run: (a, b) => s.op(a, b), op: p, got: 'bool', expected: 'float32 or int32' });
  }
  return errs;
}

const stringCases: ForwardCase[] = [
  {
    prim: 'equal',
    tfCall: TF_equal,
    tfOps: ['Equal'],
    name: 'equal on strings',
    inputs: [{ shape: [3], dtype: 'string', values: ['a', 'b', ''] }, { shape: [], dtype: 'string', values: ['b'] }],
    op: (a, b) => ef.equal(a, b),
    ref: (a, b) => zipN([a, b], ([x, y]) => x === y, 'bool'),
  },
  {
    prim: 'not_equal',
    api: 'notEqual',
    tfCall: TF_notEqual,
    tfOps: ['NotEqual'],
    name: 'notEqual on bools',
    inputs: [B([2, 2]), B([2])],
    op: (a, b) => ef.notEqual(a, b),
    ref: (a, b) => zipN([a, b], ([x, y]) => x !== y, 'bool'),
  },
  {
    prim: 'equal',
    tfCall: TF_equal,
    tfOps: ['Equal'],
    name: 'equal on int32 with ties',
    inputs: [I([6], 'index'), I([6], 'index')],
    op: (a, b) => ef.equal(a, b),
    ref: (a, b) => zip(a, b, (x, y) => x === y, 'bool'),
  },
];

const bool2 = (f: (a: boolean, b: boolean) => boolean) => (a: Ref, b: Ref): Ref => zipN([a, b], ([x, y]) => f(x as boolean, y as boolean), 'bool');

const logicCases: ForwardCase[] = [
  { prim: 'logical_and', api: 'logicalAnd', tfCall: TF_logicalAnd, tfOps: ['LogicalAnd'], name: 'logicalAnd broadcast', inputs: [B([2, 3]), B([3])], op: (a, b) => ef.logicalAnd(a, b), ref: bool2((a, b) => a && b) },
  { prim: 'logical_or', api: 'logicalOr', tfCall: TF_logicalOr, tfOps: ['LogicalOr'], name: 'logicalOr broadcast', inputs: [B([2, 1]), B([1, 3])], op: (a, b) => ef.logicalOr(a, b), ref: bool2((a, b) => a || b) },
  { prim: 'logical_and', api: 'logicalAnd', tfCall: TF_logicalAnd, tfOps: ['LogicalAnd'], name: 'logicalAnd with a JS boolean', inputs: [B([4])], op: (a) => ef.logicalAnd(a, true), ref: (a) => a },
  { prim: 'logical_and', api: 'math.logicalXor', tfCall: TF_math_logicalXor, tfOps: ['LogicalAnd', 'LogicalOr', 'LogicalNot'], name: 'logicalXor broadcast (TF composes it)', inputs: [B([2, 3]), B([3])], op: (a, b) => ef.math.logicalXor(a, b), ref: bool2((a, b) => a !== b) },
  { prim: 'logical_not', api: 'logicalNot', tfCall: TF_logicalNot, tfOps: ['LogicalNot'], name: 'logicalNot', inputs: [B([2, 3])], op: (a) => ef.logicalNot(a), ref: (a) => new Ref(a.shape, a.data.map((v) => !v), 'bool') },
  { prim: 'logical_not', api: 'logicalNot', tfCall: TF_logicalNot, tfOps: ['LogicalNot'], name: 'logicalNot scalar', inputs: [B([])], op: (a) => ef.logicalNot(a), ref: (a) => new Ref(a.shape, a.data.map((v) => !v), 'bool') },
];

const logicErrors: ErrorCase[] = [
  { prim: 'logical_and', api: 'logicalAnd', name: 'logicalAnd rejects float', inputs: [F([2]), F([2])], run: (a, b) => ef.logicalAnd(a, b), op: 'logical_and', got: 'float32', expected: 'bool' },
  { prim: 'logical_or', api: 'logicalOr', name: 'logicalOr shape mismatch', inputs: [B([2]), B([3])], run: (a, b) => ef.logicalOr(a, b), op: 'logical_or', got: '[2] and [3]', expected: 'shapes whose trailing dims are equal or 1' },
  { prim: 'logical_not', api: 'logicalNot', name: 'logicalNot rejects int', inputs: [I([2])], run: (a) => ef.logicalNot(a), op: 'logical_not', got: 'int32', expected: 'bool' },
];

const pick = ([c, a, b]: Value[]): Value => (c ? a : b);

const selectCases: ForwardCase[] = [
  { prim: 'select', api: 'where', tfCall: TF_where, tfOps: ['SelectV2'], name: 'where same shapes', inputs: [B([2, 3]), F([2, 3]), F([2, 3])], op: (c, a, b) => ef.where(c, a, b), ref: (c, a, b) => zipN([c, a, b], pick, 'float32') },
  { prim: 'select', api: 'where', tfCall: TF_where, tfOps: ['SelectV2'], name: 'where broadcasts condition and branches', inputs: [B([3]), F([2, 1]), F([])], op: (c, a, b) => ef.where(c, a, b), ref: (c, a, b) => zipN([c, a, b], pick, 'float32') },
  { prim: 'select', api: 'where', tfCall: TF_where, tfOps: ['SelectV2'], name: 'where with JS branches', inputs: [B([4])], op: (c) => ef.where(c, 1, [5, 6, 7, 8]), ref: (c) => zipN([c, ref(1), ref([5, 6, 7, 8])], pick, 'float32') },
  { prim: 'select', api: 'where', tfCall: TF_where, tfOps: ['SelectV2'], name: 'where on int32', inputs: [B([2, 2]), I([2, 2]), I([2])], op: (c, a, b) => ef.where(c, a, b), ref: (c, a, b) => zipN([c, a, b], pick, 'int32') },
  { prim: 'select', api: 'where', tfCall: TF_where, tfOps: ['SelectV2'], name: 'where on strings', noConverter: "the converter's SelectV2 takes numeric tensors only", inputs: [B([3]), { shape: [3], dtype: 'string' }, { shape: [], dtype: 'string', values: ['z'] }], op: (c, a, b) => ef.where(c, a, b), ref: (c, a, b) => zipN([c, a, b], pick, 'string') },
];

const selectErrors: ErrorCase[] = [
  { prim: 'select', api: 'where', name: 'where rejects a float condition', inputs: [F([2]), F([2]), F([2])], run: (c, a, b) => ef.where(c, a, b), op: 'where', got: 'float32', expected: 'bool' },
  { prim: 'select', api: 'where', name: 'where branch dtype mismatch', inputs: [B([2]), F([2]), I([2])], run: (c, a, b) => ef.where(c, a, b), op: 'where', got: 'float32 and int32', expected: 'matching dtypes' },
  { prim: 'select', api: 'where', name: 'where shape mismatch', inputs: [B([3]), F([2]), F([2])], run: (c, a, b) => ef.where(c, a, b), op: 'where', got: '[3] and [2]', expected: 'shapes whose trailing dims are equal or 1' },
];

/** relu's gradient record (TF's ReluGrad, dy·(x > 0)), bound directly: NaN and 0 features give 0, its own gradient is TF's ReluGradGrad. */
const reluGradOf = (dy: ef.Tensor, x: ef.Tensor): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES.relu_grad, [dy, x], {})[0];
const TF_relu: TfCall = { fn: 'tf.nn.relu', cases: 'unary' };
const reluGradRef = (dy: Ref, x: Ref): Ref => zip(dy, x, (a, b) => a * (b > 0 ? 1 : 0));
const reluGradCases: ForwardCase[] = [
  {
    prim: 'relu_grad', api: 'relu', tfCall: TF_relu, tfOps: ['ReluGrad'], noConverter: 'tfjs-converter has no ReluGrad op', name: 'relu_grad (relu gradient record) is dy where x > 0, else 0 (also at 0 and NaN)',
    inputs: [{ shape: [6], values: [1.5, -2, 0.25, 3, -0.5, 4] }, { shape: [6], values: [2, 0.5, 0, -1, -3, NaN] }], op: reluGradOf, ref: reluGradRef, grad: false,
  },
  {
    prim: 'relu_grad', api: 'relu', tfCall: TF_relu, tfOps: ['ReluGrad'], noConverter: 'tfjs-converter has no ReluGrad op', name: 'relu_grad away from 0, with gradients (d/ddy = relu_grad(ddy, x), d/dx = 0)',
    inputs: [{ shape: [2, 3], values: [1.5, -2, 0.25, 3, -0.5, 4] }, { shape: [2, 3], values: [2, 0.5, -0.75, -1, 1.25, -3] }], op: reluGradOf, ref: reluGradRef,
  },
  {
    prim: 'relu_grad', api: 'relu', tfCall: TF_relu, tfOps: ['ReluGrad'], noConverter: 'tfjs-converter has no ReluGrad op', name: 'relu_grad int32',
    inputs: [{ shape: [4], values: [3, -2, 5, 7], dtype: 'int32' }, { shape: [4], values: [1, 0, -4, 9], dtype: 'int32' }], op: reluGradOf, ref: (dy, x) => zip(dy, x, (a, b) => (b > 0 ? a : 0), 'int32'),
  },
];

export const elementwiseCases: ForwardCase[] = [
  ...reluGradCases,
  ...UNARY.flatMap(unaryCases),
  ...BINARY.flatMap(binaryCases),
  ...stringCases,
  ...logicCases,
  ...selectCases,
];

export const elementwiseErrors: ErrorCase[] = [...UNARY.flatMap(unaryErrors), ...BINARY.flatMap(binaryErrors), ...logicErrors, ...selectErrors];

/** Smooth unary ops and their analytic first and second derivatives in float64 (tfjs#3252): the UNARY lines with `d1`/`d2`. */
export const SMOOTH_UNARY: { name: string; op: Unary; f: (v: number) => number; d1: (v: number) => number; d2: (v: number) => number; gen: Gen }[] = UNARY.flatMap((u) =>
  u.d1 && u.d2 ? [{ name: u.prim, op: u.op, f: u.f, d1: u.d1, d2: u.d2, gen: u.gen ?? 'normal' }] : [],
);
