// Harness cases for creation, cast, identity-like ops, softmax/clip composites, print, ensureShape and variables.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, asVariable, TfCall, tfFloat, tfTensor as T, tfNone, tfReduce } from './case';
import * as R from './ref';
import { Ref, map, ref, reduce, zip } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_cast: TfCall = { expr: 'lambda x, d: tf.cast(x, tf.as_dtype(d))', why: "ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'float to int32 specials', args: [T([2.7, -2.7, 0.5, -0, NaN, Infinity, -Infinity, 3e38, -3e38, 2147483500, -2147483600]), 'int32'], grad: false },
    { name: 'float to bool', args: [T([0, -0, 0.5, NaN, -Infinity]), 'bool'], grad: false },
    { name: 'int32 to float', args: [IN.t9i, 'float32'], grad: false },
    { name: 'int32 to bool', args: [T([0, 3, -1], 'int32'), 'bool'], grad: false },
    { name: 'bool to float', args: [T([true, false], 'bool'), 'float32'], grad: false },
    { name: 'bool to int32', args: [T([true, false], 'bool'), 'int32'], grad: false },
    { name: 'float to float', args: [T([1.5, -0, NaN]), 'float32'] },
    { name: 'denormals to int32', args: [T([1e-40, -1e-40]), 'int32'], grad: false, tags: ['denormal'] },
  ] };
const TF_clipByValue: TfCall = { fn: 'tf.clip_by_value', cases: 'none', extra: [
    { name: 'basic', args: [T([-2, 0.5, 3]), T(-1), T(1)] },
    { name: 'min above max', args: [T([1, 2]), T(3), T(0)] },
    { name: 'special values', args: [T([NaN, Infinity, -Infinity, -0, 0]), T(-1), T(1)] },
    { name: 'at the bounds', args: [T([-1, 1, 0]), T(-1), T(1)] },
    { name: 'tensor bounds', args: [IN.t2x3, T([-1, 0, 0.5]), T([0, 1, 2])] },
    { name: 'NaN bound', args: [T([0.5, 2]), T(NaN), T(1)] },
    { name: 'int32', args: [T([-5, 0, 5], 'int32'), T(-1, 'int32'), T(1, 'int32')], grad: false },
    { name: 'bounds that broadcast the input', args: [T([0.5, 2, -3]), T([-1, 0], undefined, [2, 1]), T(1)], grad: false },
  ] };
const TF_ensureShape: TfCall = { fn: 'tf.ensure_shape', cases: 'none', extra: [
    { name: 'compatible', args: [IN.t2x3, [2, null]] },
    { name: 'exact', args: [IN.t2x3, [2, 3]] },
    { name: 'incompatible', args: [IN.t2x3, [3, 2]], grad: false },
    { name: 'wrong rank', args: [IN.t2x3, [6]], grad: false },
  ] };
export const TF_fill: TfCall = { expr: 'lambda dims, v, d=None: tf.fill(dims, tf.constant(v, dtype=tf.as_dtype(d) if d else None))', why: "ef's dtype string becomes a tf.DType; ef's value and dtype make TF's scalar", cases: 'none', extra: [
    { name: 'float', args: [[2, 3], 1.5], grad: false },
    { name: 'int32', args: [[2], 7, 'int32'], grad: false },
    { name: 'bool', args: [[2, 1], true, 'bool'], grad: false },
    { name: 'scalar', args: [[], tfFloat(-2)], grad: false },
    { name: 'empty', args: [[0, 2], tfFloat(1)], grad: false },
    { name: 'special value', args: [[2], NaN], grad: false },
    { name: 'negative dim', args: [[-1, 2], tfFloat(1)], grad: false },
    { name: 'string', args: [[2], 'ab', 'string'], grad: false },
  ] };
const TF_identity: TfCall = { fn: 'tf.identity', cases: 'unary', extra: [
    { name: 'strings', args: [T(['a', 'bc', '', 'd'], 'string')], grad: false },
  ] };
const TF_ones: TfCall = { expr: "lambda dims, d='float32': tf.ones(dims, tf.as_dtype(d))", why: "ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'float', args: [[2, 2]], grad: false },
    { name: 'int32', args: [[3], 'int32'], grad: false },
    { name: 'bool', args: [[2], 'bool'], grad: false },
    { name: 'scalar', args: [[]], grad: false },
  ] };
const TF_onesLike: TfCall = { fn: 'tf.ones_like', cases: 'unary', extra: [
    { name: 'strings', args: [T(['a', 'bc', '', 'd'], 'string')], grad: false },
  ] };
const TF_range: TfCall = { expr: "lambda a, b=None, d=1, dt='float32': tf.range(a, b, d, dtype=tf.as_dtype(dt))", why: "ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'limit', args: [5], grad: false },
    { name: 'start limit', args: [2, 6], grad: false },
    { name: 'fractional delta', args: [0, 1, 0.3], grad: false },
    { name: 'counting down', args: [5, 0, -2], grad: false },
    { name: 'int32', args: [0, 7, 3, 'int32'], grad: false },
    { name: 'equal bounds', args: [2, 2, 1, 'int32'], grad: false },
    { name: 'negative limit', args: [-3], grad: false },
    { name: 'negative fractional delta', args: [1, -1, -0.5], grad: false },
    { name: 'float bounds', args: [0.5, 3.25, 1], grad: false },
    { name: 'wrong direction', args: [5, 0, 1], grad: false },
    { name: 'zero delta', args: [0, 5, 0], grad: false },
  ] };
const TF_softmax: TfCall = { fn: 'tf.nn.softmax', cases: 'none', params: ['x', ['axis', -1]], keywords: { axis: 'axis' }, extra: [
    { name: 'vector', args: [T([1, 2, 3])] },
    { name: 'matrix axis -1', args: [IN.t2x3] },
    { name: 'matrix axis 0', args: [IN.t2x3, 0] },
    { name: 'with inf', args: [T([1, Infinity, 2])] },
    { name: 'all -inf', args: [T([-Infinity, -Infinity])] },
    { name: 'with NaN', args: [T([1, NaN])] },
    { name: 'large values', args: [T([3e38, -3e38, 0])] },
    { name: 'empty', args: [T([], undefined, [0, 3])] },
    { name: 'axis out of range', args: [IN.t2x3, 2], grad: false },
    { name: 'int32', args: [T([1, 2], 'int32')], grad: false },
  ] };
const TF_stopGradient: TfCall = { fn: 'tf.stop_gradient', cases: 'unary' };
const TF_zeros: TfCall = { expr: "lambda dims, d='float32': tf.zeros(dims, tf.as_dtype(d))", why: "ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'float', args: [[2, 2]], grad: false },
    { name: 'int32', args: [[3], 'int32'], grad: false },
    { name: 'bool', args: [[2], 'bool'], grad: false },
    { name: 'empty', args: [[0, 2]], grad: false },
    { name: 'negative dim', args: [[-2]], grad: false },
  ] };
const TF_zerosLike: TfCall = { fn: 'tf.zeros_like', cases: 'unary', extra: [
    { name: 'strings', args: [T(['a', 'bc', '', 'd'], 'string')], grad: false },
  ] };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const I = (shape: number[], gen: Gen = 'int'): InputSpec => ({ shape, dtype: 'int32', gen });
const B = (shape: number[]): InputSpec => ({ shape, dtype: 'bool' });
const S = (shape: number[]): InputSpec => ({ shape, dtype: 'string' });
const fixed = (values: number[], shape = [values.length]): InputSpec => ({ shape, values });

const filled = (shape: number[], v: R.Value, dtype: ef.DType): Ref => new Ref(shape, new Array<R.Value>(R.sizeOf(shape)).fill(v), dtype);
const like = (v: R.Value, dtype?: ef.DType) => (x: Ref): Ref => filled(x.shape, v, dtype ?? x.dtype);

const casts: ForwardCase[] = [
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast float -> int32 truncates toward zero', inputs: [fixed([1.7, -1.7, 0.2, -2.5])], op: (x) => ef.cast(x, 'int32'), ref: (x) => R.cast(x, 'int32') },
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast int32 -> float32', inputs: [I([2, 2])], op: (x) => ef.cast(x, 'float32'), ref: (x) => R.cast(x, 'float32') },
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast float -> bool', inputs: [fixed([0.5, 0, -2])], op: (x) => ef.cast(x, 'bool'), ref: (x) => R.cast(x, 'bool') },
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast bool -> float32', inputs: [B([3])], op: (x) => ef.cast(x, 'float32'), ref: (x) => R.cast(x, 'float32') },
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast bool -> int32', inputs: [B([2])], op: (x) => ef.cast(x, 'int32'), ref: (x) => R.cast(x, 'int32') },
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast int32 -> bool', inputs: [I([4])], op: (x) => ef.cast(x, 'bool'), ref: (x) => R.cast(x, 'bool') },
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast through int32 has a zero gradient', inputs: [F([4])], op: (x) => ef.tidy(() => ef.cast(ef.cast(x, 'int32'), 'float32')), ref: (x) => R.cast(R.cast(x, 'int32'), 'float32') },
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast through complex64 keeps the gradient', inputs: [F([3])], op: (x) => ef.tidy(() => ef.cast(ef.cast(x, 'complex64'), 'float32')), ref: (x) => x },
  { prim: 'cast', tfCall: TF_cast, tfOps: ['Cast'], name: 'cast of a JS array', inputs: [], op: () => ef.cast([1, 2], 'int32'), ref: () => ref([1, 2], 'int32') },
];

const identities: ForwardCase[] = [
  { prim: 'identity', tfCall: TF_identity, tfOps: ['Identity'], name: 'identity float', inputs: [F([2, 3])], op: (x) => ef.identity(x), ref: (x) => x },
  { prim: 'identity', tfCall: TF_identity, tfOps: ['Identity'], name: 'identity strings', inputs: [S([2])], op: (x) => ef.identity(x), ref: (x) => x },
  { prim: 'identity', api: 'cast', tfCall: TF_cast, tfOps: ['Identity'], name: 'cast to the same dtype is an identity', inputs: [F([3])], op: (x) => ef.cast(x, 'float32'), ref: (x) => x },
  { prim: 'stop_gradient', api: 'stopGradient', tfCall: TF_stopGradient, tfOps: ['StopGradient'], name: 'stopGradient blocks the gradient', inputs: [F([3])], op: (x) => ef.stopGradient(x), ref: (x) => x, gradRef: like(0) },
  { prim: 'stop_gradient', api: 'stopGradient', tfCall: TF_stopGradient, tfOps: ['StopGradient'], name: 'stopGradient inside an expression', inputs: [F([3])], op: (x) => ef.tidy(() => ef.multiply(x, ef.stopGradient(x))), ref: (x) => zip(x, x, (a, b) => a * b), gradRef: (x) => map(x, (v) => (v * v) / 2), secondOrder: false },
  { prim: 'zeros_like', api: 'zerosLike', tfCall: TF_zerosLike, tfOps: ['ZerosLike'], name: 'zerosLike float', inputs: [F([2, 2])], op: (x) => ef.zerosLike(x), ref: like(0) },
  { prim: 'zeros_like', api: 'zerosLike', tfCall: TF_zerosLike, tfOps: ['ZerosLike'], name: 'zerosLike int32', inputs: [I([3])], op: (x) => ef.zerosLike(x), ref: like(0) },
  { prim: 'zeros_like', api: 'zerosLike', tfCall: TF_zerosLike, tfOps: ['ZerosLike'], name: 'zerosLike bool', inputs: [B([2])], op: (x) => ef.zerosLike(x), ref: like(false) },
  { prim: 'zeros_like', api: 'zerosLike', tfCall: TF_zerosLike, tfOps: ['ZerosLike'], name: 'zerosLike string', noConverter: "the converter's ZerosLike takes numeric tensors only", inputs: [S([2])], op: (x) => ef.zerosLike(x), ref: like('') },
  { prim: 'ones_like', api: 'onesLike', tfCall: TF_onesLike, tfOps: ['OnesLike'], name: 'onesLike float', inputs: [F([2, 2])], op: (x) => ef.onesLike(x), ref: like(1) },
  { prim: 'ones_like', api: 'onesLike', tfCall: TF_onesLike, tfOps: ['OnesLike'], name: 'onesLike int32', inputs: [I([])], op: (x) => ef.onesLike(x), ref: like(1) },
  { prim: 'ones_like', api: 'onesLike', tfCall: TF_onesLike, tfOps: ['OnesLike'], name: 'onesLike bool', inputs: [B([3])], op: (x) => ef.onesLike(x), ref: like(true) },
];

const creation: ForwardCase[] = [
  { prim: 'fill', tfCall: TF_fill, tfOps: ['Fill'], name: 'fill float', inputs: [], op: () => ef.fill([2, 3], 1.5), ref: () => filled([2, 3], 1.5, 'float32') },
  { prim: 'fill', tfCall: TF_fill, tfOps: ['Fill'], name: 'fill int32', inputs: [], op: () => ef.fill([2], 7, 'int32'), ref: () => filled([2], 7, 'int32') },
  { prim: 'fill', tfCall: TF_fill, tfOps: ['Fill'], name: 'fill bool', inputs: [], op: () => ef.fill([2, 1], true), ref: () => filled([2, 1], true, 'bool') },
  { prim: 'fill', tfCall: TF_fill, tfOps: ['Fill'], name: 'fill string', inputs: [], op: () => ef.fill([3], 'ab'), ref: () => filled([3], 'ab', 'string') },
  { prim: 'fill', tfCall: TF_fill, tfOps: ['Fill'], name: 'fill scalar', inputs: [], op: () => ef.fill([], -2), ref: () => filled([], -2, 'float32') },
  { prim: 'fill', api: 'zeros', tfCall: TF_zeros, tfOps: ['Fill'], name: 'zeros', inputs: [], op: () => ef.zeros([2, 2]), ref: () => filled([2, 2], 0, 'float32') },
  { prim: 'fill', api: 'ones', tfCall: TF_ones, tfOps: ['Fill'], name: 'ones int32', inputs: [], op: () => ef.ones([3], 'int32'), ref: () => filled([3], 1, 'int32') },
  { prim: 'fill', api: 'zeros', tfCall: TF_zeros, tfOps: ['Fill'], name: 'zeros bool', inputs: [], op: () => ef.zeros([2], 'bool'), ref: () => filled([2], false, 'bool') },
  { prim: 'fill', api: 'zeros', tfCall: TF_zeros, name: 'zeros empty', inputs: [], op: () => ef.zeros([0, 2]), ref: () => filled([0, 2], 0, 'float32') },
  { prim: 'range', tfCall: TF_range, tfOps: ['Range'], name: 'range(limit)', inputs: [], op: () => ef.range(5), ref: () => ref([0, 1, 2, 3, 4]) },
  { prim: 'range', tfCall: TF_range, tfOps: ['Range'], name: 'range with a fractional delta', inputs: [], op: () => ef.range(1, 3, 0.5), ref: () => ref([1, 1.5, 2, 2.5]) },
  { prim: 'range', tfCall: TF_range, tfOps: ['Range'], name: 'range counting down', inputs: [], op: () => ef.range(5, 0, -2), ref: () => ref([5, 3, 1]) },
  { prim: 'range', tfCall: TF_range, tfOps: ['Range'], name: 'range int32', inputs: [], op: () => ef.range(0, 7, 3, 'int32'), ref: () => ref([0, 3, 6], 'int32') },
  { prim: 'range', tfCall: TF_range, name: 'range empty when start == limit', inputs: [], op: () => ef.range(2, 2, 1, 'int32'), ref: () => new Ref([0], [], 'int32') },
];

/** softmax reference in float64. */
function softmaxRef(x: Ref): Ref {
  const m = reduce(x, [-1], true, -Infinity, Math.max);
  const e = zip(x, m, (a, b) => Math.exp(a - b));
  const s = reduce(e, [-1], true, 0, (a, b) => a + b);
  return zip(e, s, (a, b) => a / b);
}

const composites: ForwardCase[] = [
  { prim: 'exp', api: 'softmax', tfCall: TF_softmax, tfOps: ['Exp'], name: 'softmax of a matrix', inputs: [F([2, 3])], op: (x) => ef.softmax(x), ref: softmaxRef },
  { prim: 'max', api: 'softmax', tfCall: TF_softmax, tfOps: ['Max'], name: 'softmax along axis 0', inputs: [F([3, 2])], op: (x) => ef.softmax(x, 0), ref: (x) => R.transpose(softmaxRef(R.transpose(x))) },
  { prim: 'maximum', api: 'clipByValue', tfCall: TF_clipByValue, tfOps: ['Maximum'], name: 'clipByValue', inputs: [fixed([-2, -0.5, 0.25, 1.75])], op: (x) => ef.clipByValue(x, -1, 1), ref: (x) => map(x, (v) => Math.min(Math.max(v, -1), 1)) },
  { prim: 'minimum', api: 'clipByValue', tfCall: TF_clipByValue, tfOps: ['Minimum'], name: 'clipByValue int32', inputs: [I([5])], op: (x) => ef.clipByValue(x, -2, 2), ref: (x) => map(x, (v) => Math.min(Math.max(v, -2), 2)) },
];

/** Runs `fn` with ef.print redirected and returns what it printed as one string scalar. */
function printed(fn: () => void): ef.Tensor {
  const lines: string[] = [];
  const saved = ef.internal.printOutput.write;
  ef.internal.printOutput.write = (line: string) => void lines.push(line);
  try {
    ef.tidy(fn);
  } finally {
    ef.internal.printOutput.write = saved;
  }
  return ef.constant(lines.join('\n'));
}

const str = (s: string) => (): Ref => new Ref([], [s], 'string');

// tf.print formats tensors with TensorFlow's C++ summarizer: %g-style floats, 3 items at each end.
const prints: ForwardCase[] = [
  { prim: 'print', tfCall: tfNone('a side effect: writes its arguments to the console when run and returns nothing, so there is no output to compare with TensorFlow (tf.print writes to stderr in its own format)'), name: 'print a vector with a label', inputs: [fixed([1, 2.5, -3])], op: (x) => printed(() => ef.print('x:', x)), ref: str('x: [1 2.5 -3]'), eagerOnly: true },
  { prim: 'print', tfCall: tfNone('a side effect: writes its arguments to the console when run and returns nothing, so there is no output to compare with TensorFlow (tf.print writes to stderr in its own format)'), name: 'print a matrix', inputs: [fixed([1, 2, 3, 4], [2, 2])], op: (x) => printed(() => ef.print(x)), ref: str('[[1 2]\n [3 4]]'), eagerOnly: true },
  { prim: 'print', tfCall: tfNone('a side effect: writes its arguments to the console when run and returns nothing, so there is no output to compare with TensorFlow (tf.print writes to stderr in its own format)'), name: 'print summarizes long vectors', inputs: [], op: () => printed(() => ef.print(ef.range(10, null, 1, 'int32'))), ref: str('[0 1 2 ... 7 8 9]'), eagerOnly: true },
  { prim: 'print', tfCall: tfNone('a side effect: writes its arguments to the console when run and returns nothing, so there is no output to compare with TensorFlow (tf.print writes to stderr in its own format)'), name: 'print scalars, strings and bools', inputs: [fixed([0.1], [])], op: (x) => printed(() => ef.print(x, ef.constant(['a', 'b']), ef.constant([true, false]))), ref: str('0.1 ["a" "b"] [1 0]'), eagerOnly: true },
  { prim: 'print', tfCall: tfNone('a side effect: writes its arguments to the console when run and returns nothing, so there is no output to compare with TensorFlow (tf.print writes to stderr in its own format)'), name: 'print uses 9 digits when 6 do not round-trip', inputs: [fixed([1 / 3, 1e-5, 123456789])], op: (x) => printed(() => ef.print(x)), ref: str('[0.333333343 1e-05 123456792]'), eagerOnly: true },
];

const ENSURE = "the converter's EnsureShape reads the shape from a second input, which cannot hold unknown dims";

const ensures: ForwardCase[] = [
  { prim: 'ensure_shape', api: 'ensureShape', tfCall: TF_ensureShape, tfOps: ['EnsureShape'], name: 'ensureShape with an unknown dim', noConverter: ENSURE, inputs: [F([2, 3])], op: (x) => ef.ensureShape(x, [null, 3]), ref: (x) => x },
  { prim: 'ensure_shape', api: 'ensureShape', tfCall: TF_ensureShape, tfOps: ['EnsureShape'], name: 'ensureShape with unknown rank', noConverter: ENSURE, inputs: [I([2])], op: (x) => ef.ensureShape(x, null), ref: (x) => x },
];

const variables: ForwardCase[] = [
  { prim: 'read_variable', tfCall: tfNone('a Variable\'s read (ReadVariableOp): no public op; Variables are checked against TF in the saving and checkpoint suites'), name: 'Variable.value()', inputs: [F([2, 2])], variables: true, op: (v) => asVariable(v).value(), ref: (x) => x },
  { prim: 'read_variable', tfCall: tfNone('a Variable\'s read (ReadVariableOp): no public op; Variables are checked against TF in the saving and checkpoint suites'), tfOps: ['Mul', 'Sin'], name: 'a Variable passed to an op', inputs: [F([3]), F([3])], variables: true, op: (v, w) => ef.tidy(() => ef.multiply(v, ef.sin(w))), ref: (a, b) => zip(a, b, (x, y) => x * Math.sin(y)) },
  { prim: 'read_variable', tfCall: tfNone('a Variable\'s read (ReadVariableOp): no public op; Variables are checked against TF in the saving and checkpoint suites'), name: 'an int32 Variable is read but not differentiated', inputs: [I([2])], variables: true, op: (v) => ef.tidy(() => ef.multiply(ef.constant(2, 'int32'), v)), ref: (x) => map(x, (a) => 2 * a) },
  { prim: 'assign_variable', tfCall: tfNone('a Variable\'s assign (AssignVariableOp): no public op; Variables are checked against TF in the saving and checkpoint suites'), name: 'Variable.assign', noConverter: 'the converter has no resource variables (VarHandleOp, AssignVariableOp, ReadVariableOp)', inputs: [F([2]), F([2])], variables: true, grad: false, op: (v, x) => asVariable(v).assign(x).value(), ref: (_v, x) => x },
  { prim: 'assign_variable', tfCall: tfNone('a Variable\'s assign (AssignVariableOp): no public op; Variables are checked against TF in the saving and checkpoint suites'), name: 'Variable.assignAdd (first call)', inputs: [F([2]), F([2])], variables: true, grad: false, eagerOnly: true, op: (v, x) => assignOnce(v, x, 'assignAdd'), ref: (v, x) => zip(v, x, (a, b) => a + b) },
  { prim: 'assign_variable', tfCall: tfNone('a Variable\'s assign (AssignVariableOp): no public op; Variables are checked against TF in the saving and checkpoint suites'), name: 'Variable.assignSub from a JS array', inputs: [fixed([5, 6])], variables: true, grad: false, eagerOnly: true, op: (v) => assignOnce(v, [1, 2], 'assignSub'), ref: (v) => zip(v, ref([1, 2]), (a, b) => a - b) },
];

/** Applies an update to a copy of the variable, so repeated calls of the case see the same state. */
function assignOnce(v: ef.Tensor, x: ef.TensorLike, mode: 'assignAdd' | 'assignSub'): ef.Tensor {
  const copy = new ef.Variable(asVariable(v));
  copy[mode](x);
  const out = copy.value();
  copy.dispose();
  return out;
}

/** Rows whose op returns several results: every checker handles arrays and named outputs (topK's { values, indices } shape). */
const multiOutput: ForwardCase[] = [
  {
    prim: 'max', api: 'reduceMax', tfCall: tfReduce('tf.math.reduce_max'), tfOps: ['Max', 'ArgMax'], name: 'reduceMax with argMax as { values, indices } (named outputs)', inputs: [F([3, 4])],
    // In a tidy: when argMax fails (an empty axis), reduceMax's result is not left behind (the fuzzer checks leaks).
    op: (x) => ef.tidy(() => ({ values: ef.reduceMax(x, -1), indices: ef.argMax(x, -1) })),
    ref: (x) => ({ values: reduce(x, [-1], false, -Infinity, Math.max), indices: R.argMax(x, -1) }),
  },
  {
    prim: 'sum', api: 'reduceSum', tfCall: tfReduce('tf.math.reduce_sum'), tfOps: ['Sum', 'Max'], name: 'reduceSum and reduceMax of one input (array of outputs)', inputs: [F([2, 3]), F([3])],
    op: (x, y) => ef.tidy(() => [ef.reduceSum(x, 0), ef.reduceMax(ef.multiply(x, y), 1)]),
    ref: (x, y) => [reduce(x, [0], false, 0, (a, b) => a + b), reduce(zip(x, y, (a, b) => a * b), [1], false, -Infinity, Math.max)],
  },
];

/** ef.constant binds no primitive of its own (it makes an eager tensor): its row checks it through the op that uses it. */
const constants: ForwardCase[] = [
  {
    prim: 'mul', api: 'constant', tfCall: tfNone("ef.constant makes a tensor from JS values (its row checks nested arrays and a dtype); TF's tf.constant has nothing numeric to compare"), tfOps: ['Const', 'Mul'], name: 'constant from nested JS arrays with a dtype', inputs: [I([2, 3])],
    op: (x) => ef.tidy(() => ef.multiply(x, ef.constant([[1, -2, 3], [0, 5, -6]], 'int32'))),
    ref: (x) => zip(x, ref([[1, -2, 3], [0, 5, -6]], 'int32'), (a, b) => a * b + 0),
  },
];

export const miscCases: ForwardCase[] = [...multiOutput, ...constants, ...casts, ...identities, ...creation, ...composites, ...prints, ...ensures, ...variables];

/** Primitives that cannot fail on a user's dtype or shape, with the reason. */
export const NO_ERROR_CASES: Partial<Record<ef.internal.PrimitiveName, string>> = {
  identity: 'accepts every dtype and shape',
  stop_gradient: 'accepts every dtype and shape',
  zeros_like: 'accepts every dtype and shape',
  shape: 'accepts every dtype and shape',
  print: 'prints every dtype and shape',
  read_variable: 'takes no tensor input; the variable fixes dtype and shape',
  mirror_pad_grad: "internal: only mirror_pad's gradient binds it, on a cotangent of the padded shape",
  xdivy: "internal: only xlogy's gradient binds it, on float operands xlogy already checked",
};

export const miscErrors: ErrorCase[] = [
  { prim: 'cast', name: 'cast from string', inputs: [S([1])], run: (x) => ef.cast(x, 'float32'), op: 'cast', got: 'string -> float32', expected: 'numeric or bool dtypes' },
  { prim: 'cast', name: 'cast to string', inputs: [F([1])], run: (x) => ef.cast(x, 'string'), op: 'cast', got: 'float32 -> string', expected: 'numeric or bool dtypes' },
  { prim: 'cast', name: 'cast to an unknown dtype', inputs: [F([1])], run: (x) => ef.cast(x, 'float64' as ef.DType), cls: TypeError, op: 'cast', got: '"float64"', expected: 'one of float32, int32, bool, string, complex64' },
  { prim: 'ones_like', api: 'onesLike', name: 'onesLike of strings', inputs: [S([2])], run: (x) => ef.onesLike(x), op: 'ones_like', got: 'string', expected: 'float32 or int32 or bool or complex64' },
  { prim: 'fill', name: 'fill negative dim', inputs: [], run: () => ef.fill([-1], 1), op: 'fill', got: '[-1]', expected: 'non-negative integer dims' },
  { prim: 'fill', name: 'fill value not representable', inputs: [], run: () => ef.fill([2], 1.5, 'int32'), op: 'fill', got: '1.5', expected: 'a value representable as int32' },
  { prim: 'range', name: 'range step zero', inputs: [], run: () => ef.range(0, 3, 0), op: 'range', got: '0', expected: 'a non-zero step' },
  { prim: 'range', name: 'range counting the wrong way raises like TensorFlow', inputs: [], run: () => ef.range(5, 0), op: 'range', got: 'start 5, limit 0, delta 1', expected: 'start <= limit when delta > 0' },
  { prim: 'range', name: 'range(negative limit) raises like TensorFlow', inputs: [], run: () => ef.range(-3), op: 'range', got: 'start 0, limit -3, delta 1', expected: 'start <= limit when delta > 0' },
  { prim: 'range', name: 'range int32 with a fractional delta', inputs: [], run: () => ef.range(0, 3, 0.5, 'int32'), op: 'range', got: '0, 3, 0.5', expected: 'integers for an int32 range' },
  { prim: 'ensure_shape', api: 'ensureShape', name: 'ensureShape incompatible', inputs: [F([2])], run: (x) => ef.ensureShape(x, [3]), op: 'ensureShape', got: '[2]', expected: '[3]' },
  { prim: 'ensure_shape', api: 'ensureShape', name: 'ensureShape wrong rank', inputs: [F([2])], run: (x) => ef.ensureShape(x, [2, null]), op: 'ensureShape', got: '[2]', expected: '[2,?]' },
  { prim: 'assign_variable', name: 'assign wrong dtype', inputs: [I([2])], run: (x) => withVariable((v) => v.assign(x)), op: 'Variable.assign', got: 'int32', expected: 'float32' },
  { prim: 'assign_variable', name: 'assignAdd wrong shape', inputs: [F([3])], run: (x) => withVariable((v) => v.assignAdd(x)), op: 'Variable.assignAdd', got: '(3,)', expected: '(2,)' },
  { prim: 'assign_variable', name: 'assignSub wrong shape from a JS array (no leak)', inputs: [], run: () => withVariable((v) => v.assignSub([[1, 2]])), op: 'Variable.assignSub', got: '(1, 2)', expected: '(2,)' },
];

/**
 * One float32 [2] variable for these error cases (each call fails, so its value never changes). It is made
 * once, not per call: a traced function that creates a variable on every call is refused, as in TF.
 */
const shared = new ef.Variable([1, 2]);
function withVariable(fn: (v: ef.Variable) => unknown): unknown {
  return fn(shared);
}
