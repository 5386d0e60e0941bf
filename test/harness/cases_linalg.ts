// Harness cases for ef.linalg composites: eye, diag family, bandPart, trace, matvec, cross, tensordot, norm and einsum (TF's equations).
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, tfTensor as T } from './case';
import { Ref, sizeOf, unravel } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_einsum: TfCall = { expr: 'lambda eq, *xs: tf.einsum(eq, *xs)', why: "ef's tensors follow the equation as varargs", cases: 'none', extra: [
    { name: 'matmul', args: ['ij,jk->ik', IN.t2x3, IN.t3x2] },
    { name: 'trace', args: ['ii->', IN.t3x3] },
    { name: 'transpose', args: ['ij->ji', IN.t2x3] },
    { name: 'outer', args: ['i,j->ij', T([1, 2]), T([3, -1, 0.5])] },
    { name: 'batch matmul', args: ['bij,bjk->bik', IN.t2x3x3, IN.t2x3x3] },
    { name: 'sum', args: ['ij->', IN.t2x3] },
    { name: 'bad equation', args: ['ij,jk', IN.t2x3], grad: false },
  ] };
const TF_eye: TfCall = { expr: "lambda n, m=None, b=None, d='float32': tf.eye(n, m, b, tf.as_dtype(d))", why: "ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'square', args: [3], grad: false },
    { name: 'rectangular', args: [2, 4], grad: false },
    { name: 'batch', args: [2, null, [2]], grad: false },
    { name: 'int32', args: [2, 3, null, 'int32'], grad: false },
    { name: 'empty', args: [0], grad: false },
  ] };
const TF_linalg_bandPart: TfCall = { fn: 'tf.linalg.band_part', cases: 'none', extra: [
    { name: 'lower', args: [IN.t3x3, -1, 0] },
    { name: 'upper', args: [IN.t3x3, 0, -1] },
    { name: 'tridiagonal', args: [IN.t3x3, 1, 1] },
    { name: 'diagonal', args: [IN.t2x3x3, 0, 0] },
    { name: 'rectangular', args: [IN.t2x3, 0, 1] },
    { name: 'int32', args: [T([1, 2, 3, 4], 'int32', [2, 2]), 0, -1], grad: false },
  ] };
const TF_linalg_cross: TfCall = { fn: 'tf.linalg.cross', cases: 'none', extra: [
    { name: 'vectors', args: [T([1, 2, 3]), T([-1, 0.5, 2])] },
    { name: 'batch', args: [IN.t2x3, T([0.5, 1, -1, 2, 0, 1], undefined, [2, 3])] },
    { name: 'not 3-vectors', args: [T([1, 2]), T([3, 4])], grad: false },
  ] };
const TF_linalg_diag: TfCall = { fn: 'tf.linalg.diag', cases: 'none', extra: [
    { name: 'vector', args: [T([1, -2, 3])] },
    { name: 'batch', args: [IN.t2x3] },
    { name: 'int32', args: [T([1, 2], 'int32')], grad: false },
    { name: 'empty', args: [T([])] },
  ] };
const TF_linalg_diagPart: TfCall = { fn: 'tf.linalg.diag_part', cases: 'none', extra: [
    { name: 'square', args: [IN.t3x3] },
    { name: 'rectangular', args: [IN.t2x3] },
    { name: 'batch', args: [IN.t2x3x3] },
    { name: 'rank 1', args: [T([1, 2])], grad: false },
  ] };
const TF_linalg_matvec: TfCall = { fn: 'tf.linalg.matvec', cases: 'none', params: ['a', 'b'], options: { transpose_a: ['transposeA', false] }, extra: [
    { name: 'basic', args: [IN.t2x3, T([1, -2, 0.5])] },
    { name: 'transposeA', args: [IN.t2x3, T([2, -1]), { transposeA: true }] },
    { name: 'batch', args: [IN.t2x3x3, T([1, 0, 2, -1, 0.5, 0.25], undefined, [2, 3])] },
    { name: 'size mismatch', args: [IN.t2x3, T([1, 2])], grad: false },
  ] };
const TF_linalg_setDiag: TfCall = { fn: 'tf.linalg.set_diag', cases: 'none', extra: [
    { name: 'square', args: [IN.t3x3, T([7, 8, 9])] },
    { name: 'rectangular', args: [IN.t2x3, T([-1, -2])] },
    { name: 'batch', args: [IN.t2x3x3, IN.t2x3] },
    { name: 'wrong diagonal length', args: [IN.t3x3, T([1, 2])], grad: false },
  ] };
const TF_linalg_trace: TfCall = { fn: 'tf.linalg.trace', cases: 'none', extra: [
    { name: 'square', args: [IN.t3x3] },
    { name: 'rectangular', args: [IN.t2x3] },
    { name: 'batch', args: [IN.t2x3x3] },
    { name: 'special values', args: [T([Infinity, 1, 2, NaN], undefined, [2, 2])] },
    { name: 'rank 1', args: [T([1])], grad: false },
  ] };
const TF_norm: TfCall = { fn: 'tf.norm', cases: 'none', params: ['x', ['ord', 'euclidean'], ['axis', null], ['keep', false]], extra: [
    { name: 'euclidean all', args: [IN.t2x3] },
    { name: 'euclidean axis 1', args: [IN.t2x3, 'euclidean', 1] },
    { name: 'ord 1 vector', args: [T([1, -2, 3]), 1] },
    { name: 'ord inf vector', args: [T([1, -4, 3]), Infinity] },
    { name: 'fro matrix', args: [IN.t2x3, 'fro', [0, 1]] },
    { name: 'ord 1 matrix', args: [IN.t3x3, 1, [0, 1]] },
    { name: 'keepDims', args: [IN.t2x3, 'euclidean', 0, true] },
    { name: 'zero vector', args: [T([0, 0])] },
  ] };
const TF_tensordot: TfCall = { fn: 'tf.tensordot', cases: 'none', extra: [
    { name: 'axes 1', args: [IN.t2x3, IN.t3x2, 1] },
    { name: 'axes 0 (outer)', args: [T([1, 2]), T([3, -1, 0.5]), 0] },
    { name: 'axes 2', args: [IN.t2x3, IN.t2x3, 2] },
    { name: 'axes lists', args: [IN.t2x3x3, IN.t3x2, [[1], [0]]] },
    { name: 'size mismatch', args: [IN.t2x3, IN.t2x3, 1], grad: false },
  ] };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const build = (shape: number[], f: (idx: number[]) => number): Ref => new Ref(shape, Array.from({ length: sizeOf(shape) }, (_, i) => f(unravel(i, shape))), 'float32');
const at = (x: Ref, idx: number[]): number => {
  let flat = 0;
  for (let i = 0; i < idx.length; i++) flat = flat * x.shape[i] + idx[i];
  return x.num(flat);
};

/** Float64 einsum by brute force over every label assignment (explicit '->', no ellipsis: rows expand it by hand). */
function refEinsum(eq: string, ...xs: Ref[]): Ref {
  const [lhs, out] = eq.split('->');
  const subs = lhs.split(',');
  const size = new Map<string, number>();
  subs.forEach((s, k) => [...s].forEach((c, i) => size.set(c, xs[k].shape[i])));
  const labels = [...size.keys()];
  const sum = labels.filter((c) => !out.includes(c));
  const sumShape = sum.map((c) => size.get(c) as number);
  return build([...out].map((c) => size.get(c) as number), (oi) => {
    let acc = 0;
    for (let f = 0; f < sizeOf(sumShape); f++) {
      const si = unravel(f, sumShape);
      const val = (c: string): number => (out.includes(c) ? oi[out.indexOf(c)] : si[sum.indexOf(c)]);
      acc += xs.reduce((p, x, k) => p * at(x, [...subs[k]].map(val)), 1);
    }
    return acc;
  });
}

function refNormVec(x: Ref, ord: number): number {
  const a = x.data.map((v) => Math.abs(Number(v)));
  if (ord === Infinity) return Math.max(...a);
  return a.reduce((s, v) => s + v ** ord, 0) ** (1 / ord);
}

const ein = (eq: string, inputs: InputSpec[], refEq = eq, extra: Partial<ForwardCase> = {}): ForwardCase => ({
  prim: 'mul', api: 'einsum', tfCall: TF_einsum, name: `einsum '${eq}'`, inputs, op: (...xs) => ef.einsum(eq, ...xs), ref: (...xs) => refEinsum(refEq, ...xs), rtol: 1e-5, atol: 1e-5, ...extra,
});

const einsumCases: ForwardCase[] = [
  ein('ij,jk->ik', [F([2, 3]), F([3, 4])], undefined, { prim: 'matmul' }),
  ein('bij,bjk->bik', [F([2, 2, 3]), F([2, 3, 2])], undefined, { prim: 'matmul' }),
  ein('ii->i', [F([3, 3])], undefined, { prim: 'select' }),
  ein('ii', [F([3, 3])], 'ii->', { prim: 'select' }),
  ein('ij->ji', [F([2, 3])], 'ij->ji', { prim: 'transpose' }),
  ein('i,i->', [F([4]), F([4])], undefined, { prim: 'matmul' }),
  ein('ij,j->i', [F([2, 3]), F([3])], undefined, { prim: 'matmul' }),
  ein('ij,jk', [F([2, 3]), F([3, 2])], 'ij,jk->ik', { prim: 'matmul' }),
  ein('i,j->ij', [F([2]), F([3])], undefined, { prim: 'matmul' }),
  ein('...ij,...jk->...ik', [F([2, 2, 3]), F([2, 3, 2])], 'aij,ajk->aik', { prim: 'matmul' }),
  { ...ein('...ij,jk->...ik', [F([2, 2, 3]), F([3, 2])], 'aij,jk->aik', { prim: 'matmul' }), name: "einsum '...ij,jk->...ik' (ellipsis on one side)" },
  { ...ein('...ij,...jk->...ik', [F([2, 1, 2, 3]), F([3, 3, 2])]), name: "einsum broadcasting ellipsis (2,1) with (3,)", ref: (a, b) => build([2, 3, 2, 2], ([p, q, i, k]) => [0, 1, 2].reduce((s, j) => s + at(a, [p, 0, i, j]) * at(b, [q, j, k]), 0)) },
  ein('ij,ij,ij->i', [F([2, 3]), F([2, 3]), F([2, 3])]),
];

const I2 = (n: number): Ref => build([n, n], ([i, j]) => (i === j ? 1 : 0));

const linalgRows: ForwardCase[] = [
  { prim: 'equal', api: 'eye', tfCall: TF_eye, name: 'eye(2, 3, [2]) added to x', inputs: [F([2, 2, 3])], op: (x) => ef.tidy(() => ef.add(x, ef.eye(2, 3, [2]))), ref: (x) => build([2, 2, 3], ([b, i, j]) => at(x, [b, i, j]) + (i === j ? 1 : 0)) },
  { prim: 'equal', api: 'linalg.eye', tfCall: TF_eye, name: 'linalg.eye(3) times x', inputs: [F([3, 3])], op: (x) => ef.tidy(() => ef.multiply(x, ef.linalg.eye(3))), ref: (x) => build([3, 3], ([i, j]) => at(x, [i, j]) * at(I2(3), [i, j])) },
  { prim: 'mul', api: 'linalg.diagPart', tfCall: TF_linalg_diagPart, name: 'diagPart of a batch of 3x2 matrices', inputs: [F([2, 3, 2])], op: (x) => ef.linalg.diagPart(x), ref: (x) => build([2, 2], ([b, i]) => at(x, [b, i, i])) },
  { prim: 'mul', api: 'linalg.diag', tfCall: TF_linalg_diag, name: 'diag of a batch of vectors', inputs: [F([2, 3])], op: (x) => ef.linalg.diag(x), ref: (x) => build([2, 3, 3], ([b, i, j]) => (i === j ? at(x, [b, i]) : 0)) },
  { prim: 'select', api: 'linalg.setDiag', tfCall: TF_linalg_setDiag, name: 'setDiag on 2x3', inputs: [F([2, 3]), F([2])], op: (x, d) => ef.linalg.setDiag(x, d), ref: (x, d) => build([2, 3], ([i, j]) => (i === j ? d.num(i) : at(x, [i, j]))) },
  { prim: 'select', api: 'linalg.setDiag', tfCall: TF_linalg_setDiag, name: 'setDiag on batched 3x2', inputs: [F([2, 3, 2]), F([2, 2])], op: (x, d) => ef.linalg.setDiag(x, d), ref: (x, d) => build([2, 3, 2], ([b, i, j]) => (i === j ? at(d, [b, i]) : at(x, [b, i, j]))) },
  { prim: 'select', api: 'linalg.bandPart', tfCall: TF_linalg_bandPart, name: 'bandPart(x, 1, 0) (lower bidiagonal)', inputs: [F([3, 4])], op: (x) => ef.linalg.bandPart(x, 1, 0), ref: (x) => build([3, 4], ([i, j]) => (i - j <= 1 && j - i <= 0 ? at(x, [i, j]) : 0)) },
  { prim: 'select', api: 'linalg.bandPart', tfCall: TF_linalg_bandPart, name: 'bandPart(x, -1, 1) batched', inputs: [F([2, 3, 3])], op: (x) => ef.linalg.bandPart(x, -1, 1), ref: (x) => build([2, 3, 3], ([b, i, j]) => (j - i <= 1 ? at(x, [b, i, j]) : 0)) },
  { prim: 'sum', api: 'linalg.trace', tfCall: TF_linalg_trace, name: 'trace of a batch', inputs: [F([2, 3, 3])], op: (x) => ef.linalg.trace(x), ref: (x) => build([2], ([b]) => at(x, [b, 0, 0]) + at(x, [b, 1, 1]) + at(x, [b, 2, 2])) },
  { prim: 'matmul', api: 'linalg.matvec', tfCall: TF_linalg_matvec, name: 'matvec batched', inputs: [F([2, 2, 3]), F([2, 3])], op: (a, b) => ef.linalg.matvec(a, b), ref: (a, b) => refEinsum('bij,bj->bi', a, b), rtol: 1e-5 },
  { prim: 'matmul', api: 'linalg.matvec', tfCall: TF_linalg_matvec, name: 'matvec adjointA', inputs: [F([3, 2]), F([3])], op: (a, b) => ef.linalg.matvec(a, b, { adjointA: true }), ref: (a, b) => refEinsum('ji,j->i', a, b), rtol: 1e-5 },
  { prim: 'gather', api: 'linalg.cross', tfCall: TF_linalg_cross, name: 'cross of batched 3-vectors', inputs: [F([2, 3]), F([2, 3])], op: (a, b) => ef.linalg.cross(a, b), ref: (a, b) => build([2, 3], ([n, i]) => at(a, [n, (i + 1) % 3]) * at(b, [n, (i + 2) % 3]) - at(a, [n, (i + 2) % 3]) * at(b, [n, (i + 1) % 3])) },
  { prim: 'matmul', api: 'tensordot', tfCall: TF_tensordot, name: 'tensordot axes=1', inputs: [F([2, 3]), F([3, 2])], op: (a, b) => ef.tensordot(a, b, 1), ref: (a, b) => refEinsum('ij,jk->ik', a, b), rtol: 1e-5 },
  { prim: 'matmul', api: 'linalg.tensordot', tfCall: TF_tensordot, name: 'tensordot axis pairs [[0, 2], [2, 0]]', inputs: [F([2, 3, 4]), F([4, 2, 2])], op: (a, b) => ef.linalg.tensordot(a, b, [[0, 2], [2, 0]]), ref: (a, b) => refEinsum('ijk,kli->jl', a, b), rtol: 1e-5 },
  { prim: 'sqrt', api: 'norm', tfCall: TF_norm, name: 'norm euclidean of everything', inputs: [F([2, 3])], op: (x) => ef.norm(x), ref: (x) => new Ref([], [refNormVec(x, 2)], 'float32') },
  { prim: 'sqrt', api: 'linalg.norm', tfCall: TF_norm, name: 'norm fro over [-2, -1] keepDims', inputs: [F([2, 2, 3])], op: (x) => ef.linalg.norm(x, { ord: 'fro', axis: [-2, -1], keepDims: true }), ref: (x) => build([2, 1, 1], ([b]) => Math.sqrt([0, 1].reduce((s, i) => s + [0, 1, 2].reduce((t, j) => t + at(x, [b, i, j]) ** 2, 0), 0))) },
  { prim: 'abs', api: 'norm', tfCall: TF_norm, name: 'norm ord 1 along axis 1', inputs: [F([2, 3], 'away')], op: (x) => ef.norm(x, 1, 1), ref: (x) => build([2], ([i]) => [0, 1, 2].reduce((s, j) => s + Math.abs(at(x, [i, j])), 0)) },
  { prim: 'pow', api: 'norm', tfCall: TF_norm, name: 'norm ord 3 along axis 0', inputs: [F([3, 2], 'away')], op: (x) => ef.norm(x, 3, 0), ref: (x) => build([2], ([j]) => [0, 1, 2].reduce((s, i) => s + Math.abs(at(x, [i, j])) ** 3, 0) ** (1 / 3)), rtol: 1e-4 },
  { prim: 'max', api: 'norm', tfCall: TF_norm, name: 'norm ord Infinity (vector)', inputs: [F([5], 'away')], op: (x) => ef.norm(x, Infinity, 0), ref: (x) => new Ref([], [refNormVec(x, Infinity)], 'float32') },
  { prim: 'max', api: 'norm', tfCall: TF_norm, name: 'matrix norm ord 1 (max column sum)', inputs: [F([3, 2], 'away')], op: (x) => ef.norm(x, 1, [0, 1]), ref: (x) => new Ref([], [Math.max(...[0, 1].map((j) => [0, 1, 2].reduce((s, i) => s + Math.abs(at(x, [i, j])), 0)))], 'float32') },
  { prim: 'max', api: 'norm', tfCall: TF_norm, name: 'matrix norm ord Infinity (max row sum)', inputs: [F([3, 2], 'away')], op: (x) => ef.norm(x, Infinity, [0, 1]), ref: (x) => new Ref([], [Math.max(...[0, 1, 2].map((i) => [0, 1].reduce((s, j) => s + Math.abs(at(x, [i, j])), 0)))], 'float32') },
];

export const linalgCases: ForwardCase[] = [...einsumCases, ...linalgRows];

const e = (prim: ErrorCase['prim'], api: string, name: string, inputs: InputSpec[], run: ErrorCase['run'], op: string, got: string, expected: string): ErrorCase => ({ prim, api, name, inputs, run, op, got, expected });

export const linalgErrors: ErrorCase[] = [
  e('mul', 'einsum', 'einsum output label not in inputs', [F([2, 2]), F([2, 2])], (a, b) => ef.einsum('ij,jk->iq', a, b), 'einsum', "'ij,jk->iq'", 'output labels taken from the inputs'),
  e('mul', 'einsum', 'einsum operand count', [F([2, 2])], (a) => ef.einsum('ij,jk->ik', a), 'einsum', "1 operands for 'ij,jk->ik'", '2'),
  e('mul', 'einsum', 'einsum mismatched contraction dims', [F([2, 3]), F([4, 2])], (a, b) => ef.einsum('ij,jk->ik', a, b), 'einsum', '3 and 4', 'equal sizes'),
  e('mul', 'einsum', 'einsum subscripts vs rank', [F([2, 3])], (a) => ef.einsum('ijk->i', a), 'einsum', "'ijk' for rank 2", '2 subscripts'),
  e('mul', 'einsum', 'einsum non-square repeated label', [F([2, 3])], (a) => ef.einsum('ii->i', a), 'einsum', '2 and 3', 'equal sizes'),
  e('mul', 'linalg.setDiag', 'setDiag wrong diagonal length', [F([2, 3]), F([3])], (x, d) => ef.linalg.setDiag(x, d), 'linalg.setDiag', '3 for a 2x3 matrix', '2'),
  e('mul', 'linalg.diagPart', 'diagPart of a vector', [F([3])], (x) => ef.linalg.diagPart(x), 'linalg.diagPart', 'rank 1', 'rank >= 2'),
  e('gather', 'linalg.cross', 'cross of 2-vectors', [F([2]), F([2])], (a, b) => ef.linalg.cross(a, b), 'linalg.cross', '(2,)', '(..., 3)'),
  e('matmul', 'tensordot', 'tensordot mismatched dims', [F([2, 3]), F([2, 3])], (a, b) => ef.tensordot(a, b, 1), 'linalg.tensordot', '(2, 3) axes [1]', 'equal-length axis lists'),
  e('sqrt', 'norm', 'norm ord 2 on a matrix (needs an SVD)', [F([2, 2])], (x) => ef.norm(x, 2, [0, 1]), 'norm', '2', "'euclidean', 'fro', 1 or Infinity"),
  e('sqrt', 'norm', 'norm axis out of range', [F([2, 2])], (x) => ef.norm(x, 'euclidean', 5), 'norm', '5', 'axes in [-2, 2)'),
];
