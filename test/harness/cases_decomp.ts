// Harness cases for the tf.linalg decompositions (cholesky, inv, det, slogdet, logdet, triangularSolve, solve, qr, lstsq,
// choleskySolve) and matmul's adjoint options, against independent float64 references (Banachiewicz Cholesky,
// Gauss-Jordan inverses, cofactor determinants, modified Gram-Schmidt QR).
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec, TfCall, tfFloat, tfTensor as T } from './case';
import { Ref, matmul, sizeOf } from './ref';
import * as IN from './tf_inputs';
import { TF_matmul } from './cases_reduce';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_linalg_cholesky: TfCall = { fn: 'tf.linalg.cholesky', cases: 'none', extra: [
    { name: '3x3', args: [IN.t3x3_4] },
    { name: 'batch', args: [IN.t2x2x2_2] },
    { name: 'not positive definite', args: [T([1, 2, 2, 1], undefined, [2, 2])], grad: false },
    { name: 'not square', args: [IN.t2x3_2], grad: false },
  ] };
const TF_linalg_choleskySolve: TfCall = { fn: 'tf.linalg.cholesky_solve', cases: 'none', extra: [
    { name: '3x3', args: [IN.t3x3_3, IN.t3x2_2] },
  ] };
const TF_linalg_det: TfCall = { fn: 'tf.linalg.det', cases: 'none', extra: [
    { name: '3x3', args: [IN.t3x3_2] },
    { name: 'batch', args: [IN.t2x2x2] },
    { name: 'singular', args: [T([1, 2, 2, 4], undefined, [2, 2])], grad: false },
  ] };
const TF_linalg_inv: TfCall = { fn: 'tf.linalg.inv', cases: 'none', params: ['x'], options: { adjoint: ['adjoint', false] }, extra: [
    { name: '3x3', args: [IN.t3x3_2] },
    { name: 'adjoint batch', args: [IN.t2x2x2, { adjoint: true }] },
    { name: 'singular', args: [T([1, 2, 2, 4], undefined, [2, 2])], grad: false },
  ] };
const TF_linalg_logdet: TfCall = { fn: 'tf.linalg.logdet', cases: 'none', extra: [
    { name: '3x3', args: [IN.t3x3_4] },
    { name: 'batch', args: [IN.t2x2x2_2] },
  ] };
const TF_linalg_lstsq: TfCall = { fn: 'tf.linalg.lstsq', cases: 'none', params: ['a', 'b', ['l2', tfFloat(0)]], keywords: { l2_regularizer: 'l2' }, extra: [
    { name: 'deep', args: [IN.t3x2_3, T([1, 2, -1], undefined, [3, 1])] },
    { name: 'wide with l2 0.5', args: [IN.t2x3_2, T([1, 0, 2, -1], undefined, [2, 2]), 0.5] },
  ] };
const TF_linalg_qr: TfCall = { fn: 'tf.linalg.qr', cases: 'none', params: ['x'], options: { full_matrices: ['fullMatrices', false] }, extra: [
    { name: 'deep 3x2', args: [IN.t3x2_3] },
    { name: 'wide 2x3', args: [IN.t2x3_2] },
    { name: 'full 3x2', args: [IN.t3x2_3, { fullMatrices: true }] },
    { name: 'square', args: [IN.t3x3_2] },
  ] };
const TF_linalg_slogdet: TfCall = { fn: 'tf.linalg.slogdet', cases: 'none', extra: [
    { name: 'negative determinant', args: [T([1, 2, 3, 1], undefined, [2, 2])] },
    { name: 'batch', args: [IN.t2x2x2] },
  ] };
const TF_linalg_solve: TfCall = { fn: 'tf.linalg.solve', cases: 'none', params: ['a', 'b'], options: { adjoint: ['adjoint', false] }, extra: [
    { name: '3x3', args: [IN.t3x3_2, IN.t3x2_2] },
    { name: 'adjoint', args: [IN.t3x3_2, IN.t3x2_2, { adjoint: true }] },
    { name: 'singular', args: [T([1, 2, 2, 4], undefined, [2, 2]), T([1, 1], undefined, [2, 1])], grad: false },
  ] };
const TF_linalg_triangularSolve: TfCall = { fn: 'tf.linalg.triangular_solve', cases: 'none', params: ['a', 'b'], options: { lower: ['lower', true], adjoint: ['adjoint', false] }, extra: [
    { name: 'lower', args: [IN.t3x3_3, IN.t3x2_2] },
    { name: 'upper adjoint', args: [T([2, 0.5, -1, 0, 1.5, 0.25, 0, 0, 3], undefined, [3, 3]), IN.t3x2_2, { lower: false, adjoint: true }] },
    { name: 'rhs rows differ', args: [IN.t3x3_3, IN.t2x3_2], grad: false },
  ] };

const F = (shape: number[], gen: InputSpec['gen'] = 'unit'): InputSpec => ({ shape, gen });
type M = number[][];

/** Applies a per-matrix function over the batch of a [..., r, c] Ref (results may change the matrix shape). */
function perMatrix(x: Ref, f: (m: M) => M): Ref {
  const [r, c] = x.shape.slice(-2);
  const batch = x.shape.slice(0, -2);
  const out: number[] = [];
  let shape: number[] = [];
  for (let b = 0; b < sizeOf(batch); b++) {
    const m = Array.from({ length: r }, (_, i) => Array.from({ length: c }, (_, j) => x.num(b * r * c + i * c + j)));
    const y = f(m);
    shape = [...batch, y.length, y[0]?.length ?? 0];
    out.push(...y.flat());
  }
  return new Ref(shape, out, 'float32');
}
const perScalar = (x: Ref, f: (m: M) => number): Ref => {
  const y = perMatrix(x, (m) => [[f(m)]]);
  return new Ref(x.shape.slice(0, -2), y.data, 'float32');
};
const pair = (a: Ref, b: Ref, f: (m: M, r: M) => M): Ref => {
  // a's batch equals b's or a is a single matrix (the rows use no other broadcasting).
  const [n] = a.shape.slice(-1);
  const single = a.rank === 2;
  let k = 0;
  return perMatrix(b, (r) => {
    const off = single ? 0 : (k++) * n * n;
    const m = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => a.num(off + i * n + j)));
    return f(m, r);
  });
};

const tp = (m: M): M => m[0].map((_, j) => m.map((row) => row[j]));
const mm = (a: M, b: M): M => a.map((row) => b[0].map((_, j) => row.reduce((s, v, q) => s + v * b[q][j], 0)));
/** Cholesky-Banachiewicz (row by row; reads the lower triangle). */
function chol(a: M): M {
  const n = a.length;
  const l: M = a.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i][j];
      for (let p = 0; p < j; p++) s -= l[i][p] * l[j][p];
      l[i][j] = i === j ? Math.sqrt(s) : s / l[j][j];
    }
  }
  return l;
}
/** Gauss-Jordan inverse with partial pivoting on [A | I]. */
function inv(a: M): M {
  const n = a.length;
  const g = a.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(g[i][c]) > Math.abs(g[p][c])) p = i;
    [g[c], g[p]] = [g[p], g[c]];
    const d = g[c][c];
    g[c] = g[c].map((v) => v / d);
    for (let i = 0; i < n; i++) if (i !== c) g[i] = g[i].map((v, j) => v - g[i][c] * g[c][j]);
  }
  return g.map((row) => row.slice(n));
}
/** Cofactor expansion along the first row. */
function det(a: M): number {
  if (a.length === 1) return a[0][0];
  return a[0].reduce((s, v, j) => s + (j % 2 === 0 ? 1 : -1) * v * det(a.slice(1).map((row) => row.filter((_, c) => c !== j))), 0);
}
/** Modified Gram-Schmidt: Q (m x k) and R (k x n) with R's diagonal positive. */
function mgs(a: M): [M, M] {
  const [m, n] = [a.length, a[0].length];
  const k = Math.min(m, n);
  const v = tp(a);
  const q: M = [];
  const r: M = Array.from({ length: k }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j++) {
    const w = v[j].slice();
    for (let i = 0; i < Math.min(j, k); i++) {
      r[i][j] = q[i].reduce((s, x, t) => s + x * w[t], 0);
      for (let t = 0; t < m; t++) w[t] -= r[i][j] * q[i][t];
    }
    if (j < k) {
      r[j][j] = Math.hypot(...w);
      q.push(w.map((x) => x / r[j][j]));
    }
  }
  return [tp(q), r];
}
const tri = (a: M, lower: boolean): M => a.map((row, i) => row.map((v, j) => ((lower ? j <= i : j >= i) ? v : 0)));
const addEye = (a: M, s: number): M => a.map((row, i) => row.map((v, j) => v + (i === j ? s : 0)));

// The op side builds the same well-posed matrices from the random inputs (they stay differentiable).
const spdOf = (x: ef.Tensor): ef.Tensor => ef.add(ef.matmul(x, x, false, true), ef.multiply(ef.eye(x.dims?.at(-1) as number), 3));
const spdRef = (m: M): M => addEye(mm(m, tp(m)), 3);
const wellOf = (x: ef.Tensor): ef.Tensor => ef.add(x, ef.multiply(ef.eye(x.dims?.at(-1) as number), 3));
/** Q R with R's diagonal made positive (sign-free: Householder's signs are checked against TF in linalg_tf.test.ts). */
const qrPositive = (x: ef.Tensor, fullMatrices = false): ef.Tensor[] => ef.tidy(() => {
  const { q, r } = ef.linalg.qr(x, { fullMatrices });
  const s = ef.sign(ef.linalg.diagPart(r));
  return [ef.multiply(q, ef.expandDims(s, -2)), ef.multiply(r, ef.expandDims(s, -1))];
});

const NOCONV = (op: string): string => `tfjs-converter has no ${op} op`;

export const decompCases: ForwardCase[] = [
  { prim: 'cholesky', api: 'linalg.cholesky', tfCall: TF_linalg_cholesky, name: 'cholesky of x x^T + 3I', inputs: [F([3, 3])], op: (x) => ef.tidy(() => ef.linalg.cholesky(spdOf(x))), ref: (x) => perMatrix(x, (m) => chol(spdRef(m))), tfOps: ['Cholesky'], noConverter: NOCONV('Cholesky'), rtol: 1e-4, atol: 1e-5, noUnknownDims: 'the input is built with eye(n) from the static n' },
  { prim: 'cholesky', api: 'linalg.cholesky', tfCall: TF_linalg_cholesky, name: 'cholesky batch (SPD input)', inputs: [{ shape: [2, 2, 2], values: [4, 2, 2, 3, 9, -3, -3, 5] }], op: (x) => ef.linalg.cholesky(x), ref: (x) => perMatrix(x, chol), tfOps: ['Cholesky'], noConverter: NOCONV('Cholesky'), rtol: 1e-5, grad: false },
  { prim: 'matrix_inverse', api: 'linalg.inv', tfCall: TF_linalg_inv, name: 'inv of a batch', inputs: [F([2, 3, 3])], op: (x) => ef.tidy(() => ef.linalg.inv(wellOf(x))), ref: (x) => perMatrix(x, (m) => inv(addEye(m, 3))), tfOps: ['MatrixInverse'], noConverter: NOCONV('MatrixInverse'), rtol: 1e-4, atol: 1e-5, noUnknownDims: 'the input is built with eye(n) from the static n' },
  { prim: 'matrix_inverse', api: 'linalg.inv', tfCall: TF_linalg_inv, name: 'inv adjoint', inputs: [{ shape: [2, 2], values: [2, 1, -1, 3] }], op: (x) => ef.linalg.inv(x, { adjoint: true }), ref: (x) => perMatrix(x, (m) => inv(tp(m))), tfOps: ['MatrixInverse'], noConverter: NOCONV('MatrixInverse'), rtol: 1e-5 },
  { prim: 'matrix_determinant', api: 'linalg.det', tfCall: TF_linalg_det, name: 'det of a batch', inputs: [F([2, 3, 3], 'normal')], op: (x) => ef.linalg.det(x), ref: (x) => perScalar(x, det), tfOps: ['MatrixDeterminant'], noConverter: NOCONV('MatrixDeterminant'), rtol: 1e-4, atol: 1e-4 },
  { prim: 'log_matrix_determinant', api: 'linalg.slogdet', tfCall: TF_linalg_slogdet, name: 'slogdet', inputs: [F([3, 3], 'normal')], op: (x) => { const s = ef.linalg.slogdet(x); return { sign: s.sign, logAbsDeterminant: s.logAbsDeterminant }; }, ref: (x) => ({ sign: perScalar(x, (m) => Math.sign(det(m))), logAbsDeterminant: perScalar(x, (m) => Math.log(Math.abs(det(m)))) }), tfOps: ['LogMatrixDeterminant'], noConverter: NOCONV('LogMatrixDeterminant'), rtol: 1e-4, atol: 1e-4 },
  { prim: 'cholesky', api: 'linalg.logdet', tfCall: TF_linalg_logdet, name: 'logdet of x x^T + 3I', inputs: [F([3, 3])], op: (x) => ef.tidy(() => ef.linalg.logdet(spdOf(x))), ref: (x) => perScalar(x, (m) => Math.log(det(spdRef(m)))), tfOps: ['Cholesky', 'Log'], noConverter: NOCONV('Cholesky'), rtol: 1e-4, noUnknownDims: 'diagPart builds a mask from the static n' },
  { prim: 'matrix_triangular_solve', api: 'linalg.triangularSolve', tfCall: TF_linalg_triangularSolve, name: 'triangularSolve lower, batch broadcast', inputs: [F([3, 3]), F([2, 3, 2], 'normal')], op: (a, b) => ef.tidy(() => ef.linalg.triangularSolve(wellOf(a), b)), ref: (a, b) => pair(a, b, (m, r) => mm(inv(tri(addEye(m, 3), true)), r)), tfOps: ['MatrixTriangularSolve'], noConverter: NOCONV('MatrixTriangularSolve'), rtol: 1e-4, atol: 1e-5, noUnknownDims: 'the input is built with eye(n) from the static n' },
  { prim: 'matrix_triangular_solve', api: 'linalg.triangularSolve', tfCall: TF_linalg_triangularSolve, name: 'triangularSolve upper adjoint', inputs: [F([3, 3]), F([3, 1], 'normal')], op: (a, b) => ef.tidy(() => ef.linalg.triangularSolve(wellOf(a), b, { lower: false, adjoint: true })), ref: (a, b) => pair(a, b, (m, r) => mm(inv(tp(tri(addEye(m, 3), false))), r)), tfOps: ['MatrixTriangularSolve'], noConverter: NOCONV('MatrixTriangularSolve'), rtol: 1e-4, atol: 1e-5, noUnknownDims: 'the input is built with eye(n) from the static n' },
  { prim: 'matrix_solve', api: 'linalg.solve', tfCall: TF_linalg_solve, name: 'solve batch', inputs: [F([2, 3, 3]), F([2, 3, 2], 'normal')], op: (a, b) => ef.tidy(() => ef.linalg.solve(wellOf(a), b)), ref: (a, b) => pair(a, b, (m, r) => mm(inv(addEye(m, 3)), r)), tfOps: ['MatrixSolve'], noConverter: NOCONV('MatrixSolve'), rtol: 1e-4, atol: 1e-5, noUnknownDims: 'the input is built with eye(n) from the static n' },
  { prim: 'matrix_solve', api: 'linalg.solve', tfCall: TF_linalg_solve, name: 'solve adjoint', inputs: [{ shape: [2, 2], values: [2, 1, -1, 3] }, F([2, 1], 'normal')], op: (a, b) => ef.linalg.solve(a, b, { adjoint: true }), ref: (a, b) => pair(a, b, (m, r) => mm(inv(tp(m)), r)), tfOps: ['MatrixSolve'], noConverter: NOCONV('MatrixSolve'), rtol: 1e-5, atol: 1e-6 },
  { prim: 'qr', api: 'linalg.qr', tfCall: TF_linalg_qr, name: 'qr deep 3x2 (R diagonal made positive)', inputs: [F([3, 2], 'normal')], op: (x) => qrPositive(x), ref: (x) => [perMatrix(x, (m) => mgs(m)[0]), perMatrix(x, (m) => mgs(m)[1])], tfOps: ['Qr'], noConverter: NOCONV('Qr'), rtol: 1e-4, atol: 1e-5 },
  { prim: 'qr', api: 'linalg.qr', tfCall: TF_linalg_qr, name: 'qr wide batch 2x2x3', inputs: [F([2, 2, 3], 'normal')], op: (x) => qrPositive(x), ref: (x) => [perMatrix(x, (m) => mgs(m)[0]), perMatrix(x, (m) => mgs(m)[1])], tfOps: ['Qr'], noConverter: NOCONV('Qr'), rtol: 1e-4, atol: 1e-5 },
  { prim: 'qr', api: 'linalg.qr', tfCall: TF_linalg_qr, name: 'qr full 3x2: Q^T Q and Q R', inputs: [F([3, 2], 'normal')], op: (x) => ef.tidy(() => { const { q, r } = ef.linalg.qr(x, { fullMatrices: true }); return [ef.matmul(q, q, true, false), ef.matmul(q, r)]; }), ref: (x) => [perMatrix(x, () => [[1, 0, 0], [0, 1, 0], [0, 0, 1]]), x], tfOps: ['Qr'], noConverter: NOCONV('Qr'), rtol: 1e-4, atol: 1e-5, grad: false },
  { prim: 'cholesky', api: 'linalg.lstsq', tfCall: TF_linalg_lstsq, name: 'lstsq deep with l2 0.1', inputs: [F([4, 2], 'normal'), F([4, 1], 'normal')], op: (a, b) => ef.linalg.lstsq(a, b, 0.1), ref: (a, b) => { const [A, B] = [a.nested() as M, b.nested() as M]; return new Ref([2, 1], mm(inv(addEye(mm(tp(A), A), 0.1)), mm(tp(A), B)).flat(), 'float32'); }, tfOps: ['Cholesky', 'MatrixTriangularSolve'], noConverter: NOCONV('Cholesky'), rtol: 1e-3, atol: 1e-4 },
  { prim: 'matrix_triangular_solve', api: 'linalg.choleskySolve', tfCall: TF_linalg_choleskySolve, name: 'choleskySolve', inputs: [F([3, 3]), F([3, 2], 'normal')], op: (a, b) => ef.tidy(() => ef.linalg.choleskySolve(wellOf(a), b)), ref: (a, b) => pair(a, b, (m, r) => { const l = tri(addEye(m, 3), true); return mm(inv(mm(l, tp(l))), r); }), tfOps: ['MatrixTriangularSolve'], noConverter: NOCONV('MatrixTriangularSolve'), rtol: 1e-4, atol: 1e-5, noUnknownDims: 'the input is built with eye(n) from the static n' },
  { prim: 'matmul', api: 'linalg.matmul', tfCall: TF_matmul, name: 'matmul adjointA, adjointB', inputs: [F([3, 2], 'normal'), F([4, 3], 'normal')], op: (a, b) => ef.linalg.matmul(a, b, false, false, { adjointA: true, adjointB: true }), ref: (a, b) => matmul(a, b, true, true), tfOps: ['MatMul'], rtol: 1e-5 },
];

const e = (prim: ErrorCase['prim'], api: string, name: string, inputs: InputSpec[], run: ErrorCase['run'], op: string, got: string, expected: string, cls?: ErrorCase['cls']): ErrorCase => ({ prim, api, name, inputs, run, op, got, expected, cls });

export const decompErrors: ErrorCase[] = [
  e('cholesky', 'linalg.cholesky', 'cholesky of a non-square matrix', [F([2, 3])], (x) => ef.linalg.cholesky(x), 'linalg.cholesky', 'shape [2,3]', '[..., 2, 2]'),
  e('cholesky', 'linalg.cholesky', 'cholesky of an indefinite matrix', [{ shape: [2, 2], values: [1, 2, 2, 1] }], (x) => ef.linalg.cholesky(x), 'linalg.cholesky', 'a matrix with a non-positive pivot', 'a positive-definite matrix'),
  e('matrix_inverse', 'linalg.inv', 'inv of a singular matrix', [{ shape: [2, 2], values: [1, 2, 2, 4] }], (x) => ef.linalg.inv(x), 'linalg.inv', 'a singular matrix', 'an invertible matrix'),
  e('matrix_inverse', 'linalg.inv', 'inv of a vector', [F([3])], (x) => ef.linalg.inv(x), 'linalg.inv', 'shape [3]', 'rank >= 2'),
  e('matrix_inverse', 'linalg.inv', 'inv of int32', [{ shape: [2, 2], dtype: 'int32', gen: 'int' }], (x) => ef.linalg.inv(x), 'linalg.inv', 'int32', 'float32'),
  e('matrix_determinant', 'linalg.det', 'det of a non-square matrix', [F([3, 2])], (x) => ef.linalg.det(x), 'linalg.det', 'shape [3,2]', '[..., 3, 3]'),
  e('log_matrix_determinant', 'linalg.slogdet', 'slogdet of a non-square batch', [F([2, 2, 3])], (x) => ef.linalg.slogdet(x).sign, 'linalg.slogdet', 'shape [2,2,3]', '[..., 2, 2]'),
  e('matrix_solve', 'linalg.solve', 'solve with mismatched rows', [F([3, 3]), F([2, 1])], (a, b) => ef.linalg.solve(a, b), 'linalg.solve', 'matrix [3,3] and rhs [2,1]', 'rhs [..., 3, K]'),
  e('matrix_solve', 'linalg.solve', 'solve with different batches', [F([2, 2, 2]), F([3, 2, 1])], (a, b) => ef.linalg.solve(a, b), 'linalg.solve', '[2,2,2] and [3,2,1]', 'equal batch dims'),
  e('matrix_triangular_solve', 'linalg.triangularSolve', 'triangularSolve with a vector rhs', [F([2, 2]), F([2])], (a, b) => ef.linalg.triangularSolve(a, b), 'linalg.triangularSolve', 'shape [2]', 'rank >= 2'),
  e('qr', 'linalg.qr', 'qr of a vector', [F([3])], (x) => ef.linalg.qr(x).q, 'linalg.qr', 'shape [3]', 'rank >= 2'),
  e('matmul', 'linalg.matmul', 'matmul transposeA and adjointA', [F([2, 2]), F([2, 2])], (a, b) => ef.linalg.matmul(a, b, true, false, { adjointA: true }), 'matmul', 'transposeA: true, adjointA: true', 'at most one of them'),
  e('cholesky', 'linalg.lstsq', 'lstsq with a negative l2Regularizer', [F([3, 2]), F([3, 1])], (a, b) => ef.linalg.lstsq(a, b, -1), 'linalg.lstsq', '-1', 'a number >= 0'),
  e('cholesky', 'linalg.lstsq', 'lstsq fast: false', [F([3, 2]), F([3, 1])], (a, b) => ef.linalg.lstsq(a, b, 0, { fast: false }), 'linalg.lstsq', 'fast: false', 'fast: true', ef.errors.UnimplementedError),
];
