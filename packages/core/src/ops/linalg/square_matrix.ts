// matrices: tf.linalg's square-matrix ops (Cholesky, MatrixInverse, MatrixDeterminant, LogMatrixDeterminant, MatrixTriangularSolve, MatrixSolve) with float64 host kernels and TensorFlow's gradient rules in our own ops.
import type { Info, Kernels } from '../../backend/backend';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { tfSpec } from '../graphdef_spec';
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { bind } from '../bind';
import { Dims, dimsToString } from '../../values/shape';
import { argError, broadcastOrThrow, checkArity, checkDTypes, FLOAT } from '../check';
import { broadcastInfo, broadcastShape, sameShape } from '../kernel_util';
import { positionsAlong } from '../array/symbolic_dims';
import { Mat, cholesky as hostCholesky, determinant, identity, lu, luSolve, readMatrices, slogdet, transposeMat, triSolve, uploadMatrices } from './host_kernels';

/** The [..., M, M] shape of a batch of square matrices (`which` names the argument in errors). */
function squareShape(op: string, x: AVal, which = 'input'): Dims {
  checkDTypes(op, x, FLOAT, which);
  const s = x.shape;
  if (s === null) return null;
  if (s.length < 2) throw argError(op, `${which} must be a batch of matrices`, `shape ${dimsToString(s)}`, 'rank >= 2 ([..., M, M])', 'Reshape it to [..., M, M].');
  const [m, n] = s.slice(-2);
  if (m !== null && n !== null && m !== n) throw argError(op, `${which} must be square matrices`, `shape ${dimsToString(s)}`, `[..., ${m}, ${m}]`, 'Pass square matrices (the last two dims equal).');
  return s;
}

/** A matrix of a batch transposed (the last two dims swapped): TF's adjoint for real dtypes. */
export function mT(x: Tensor): Tensor {
  const r = x.rank;
  if (r === null) throw argError('linalg gradient', 'the rank must be known', 'unknown rank', 'a static rank', 'Give the traced input a TensorSpec with a rank.');
  return o.transpose(x, [...Array.from({ length: r - 2 }, (_, i) => i), r - 1, r - 2]);
}

/** The static size M of [..., M, M], or null when only the run time knows it (TF's MatrixBandPart takes that size). */
function sizeOf(x: Tensor): number | null {
  const d = x.dims;
  return d === null ? null : (d[d.length - 1] ?? null);
}

/**
 * A float32 matrix with `below`, `on` and `above` the diagonal (masks of the gradient graphs): n x n when the size `n`
 * is static, else in `like`'s run-time shape [..., M, M] (column minus row positions from cumsums, as bandPart's).
 */
function constMatrix(n: number | null, below: number, on: number, above: number, like?: Tensor): Tensor {
  const d = n !== null ? o.sub(o.reshape(o.range(0, n, 1, 'int32'), [1, n]), o.reshape(o.range(0, n, 1, 'int32'), [n, 1])) : o.sub(positionsAlong(like as Tensor, -1), positionsAlong(like as Tensor, -2));
  const part = (cond: Tensor, v: number): Tensor => o.mul(o.cast(cond, 'float32'), v);
  return o.add(o.add(part(o.less(d, 0), below), part(o.equal(d, 0), on)), part(o.greater(d, 0), above));
}

/** x with only its lower (or upper) triangle kept. */
export function triangle(x: Tensor, lower: boolean): Tensor {
  // A select, not a product with a 0/1 mask: the dropped triangle is +0 (TF's MatrixBandPart), never -0.
  const keep = o.greater(lower ? constMatrix(sizeOf(x), 1, 1, 0, x) : constMatrix(sizeOf(x), 0, 1, 1, x), 0);
  return o.where(keep, x, o.zerosLike(x));
}

/** Applies a per-matrix host function over a batch. */
function perMatrix(k: Kernels, x: Info, f: (a: Mat, n: number) => Mat): Info {
  const { batch, r, mats } = readMatrices(x);
  return uploadMatrices(k, mats.map((m) => f(m, r)), batch, r, r);
}

export interface AdjointParams {
  readonly adjoint: boolean;
}

/** The lower Cholesky factor of symmetric positive-definite matrices (TF's Cholesky; only the lower triangle is read). */
export const cholesky = {
  name: 'cholesky',
  effect: 'pure',
  infer(ins: AVal[]) {
    checkArity('linalg.cholesky', ins, 1);
    return [{ dtype: 'float32', shape: squareShape('linalg.cholesky', ins[0]) }];
  },
  impl(k, [x]) {
    return [perMatrix(k, x, (a, n) => {
      const l = hostCholesky(a, n);
      if (l === null) throw argError('linalg.cholesky', 'Cholesky decomposition was not successful: the input must be symmetric positive definite', 'a matrix with a non-positive pivot', 'a positive-definite matrix', 'Check the input, or add a small multiple of the identity.');
      return l;
    })];
  },
  // TF's _CholeskyGrad (Murray 2016): symmetric, from the factor and its inverse.
  vjp(c, _i, [l]) {
    const g = c[0] as Tensor;
    const n = sizeOf(l);
    const lInv = bind(matrixTriangularSolve as Primitive, [l, n === null ? constMatrix(null, 0, 1, 0, l) : identityT(n)], { lower: true, adjoint: false })[0];
    const middle = o.mul(o.matmul(l, g, true, false), constMatrix(n, 1, 0.5, 0, l));
    const ga = o.matmul(o.matmul(lInv, middle, true, false), lInv);
    return [o.mul(o.add(ga, mT(ga)), 0.5)];
  },
  saves: 'outputs',
  api: api(['linalg.cholesky'], [arg.tensor('input', 'float32')]),
  tf: tfSpec({ op: 'Cholesky' }),
} satisfies Primitive;

function identityT(n: number): Tensor {
  return constMatrix(n, 0, 1, 0);
}

/** Inverses (or inverses of the transposes, `adjoint`) of square matrices (TF's MatrixInverse; singular input is an error). */
export const matrixInverse = {
  name: 'matrix_inverse',
  effect: 'pure',
  infer(ins: AVal[]) {
    checkArity('linalg.inv', ins, 1);
    return [{ dtype: 'float32', shape: squareShape('linalg.inv', ins[0]) }];
  },
  impl(k, [x], p: AdjointParams) {
    return [perMatrix(k, x, (a, n) => {
      const fac = lu(p.adjoint ? transposeMat(a, n, n) : a, n);
      if (fac.singular) throw argError('linalg.inv', 'the input is not invertible', 'a singular matrix', 'an invertible matrix', 'Check the input, or use a pseudo-inverse (lstsq) instead.');
      return luSolve(fac, identity(n), n, n);
    })];
  },
  // TF's _MatrixInverseGrad: -A^-T g A^-T (adjoint flips the sides).
  vjp(c, _i, [ainv], p: AdjointParams) {
    const g = c[0] as Tensor;
    return [o.neg(o.matmul(ainv, o.matmul(g, ainv, p.adjoint, !p.adjoint), !p.adjoint, false))];
  },
  saves: 'outputs',
  api: api(['linalg.inv'], [arg.tensor('input', 'float32')], [arg.bool('adjoint', false)]),
  tf: tfSpec<AdjointParams>({ op: 'MatrixInverse', attrs: { T: { dtypeOf: 0 }, adjoint: { param: 'adjoint', kind: 'bool', default: false } } }),
} satisfies Primitive<AdjointParams>;

const inverseT = (a: Tensor): Tensor => bind(matrixInverse as Primitive, [a], { adjoint: true })[0];

/** Determinants of square matrices (TF's MatrixDeterminant: [..., M, M] -> [...]; 0 for singular ones). */
export const matrixDeterminant = {
  name: 'matrix_determinant',
  effect: 'pure',
  infer(ins: AVal[]) {
    checkArity('linalg.det', ins, 1);
    const s = squareShape('linalg.det', ins[0]);
    return [{ dtype: 'float32', shape: s === null ? null : s.slice(0, -2) }];
  },
  impl(k, [x]) {
    const { batch, r, mats } = readMatrices(x);
    const out = Float32Array.from(mats, (m) => determinant(m, r));
    return [k.upload(out, batch, 'float32')];
  },
  // TF's _MatrixDeterminantGrad: g * det * A^-T.
  vjp(c, [a], [det]) {
    const g = c[0] as Tensor;
    return [o.mul(o.expandDims(o.expandDims(o.mul(g, det), -1), -1), inverseT(a))];
  },
  saves: 'both',
  api: api(['linalg.det'], [arg.tensor('input', 'float32')]),
  tf: tfSpec({ op: 'MatrixDeterminant' }),
} satisfies Primitive;

/** sign(det) and log|det| of square matrices (TF's LogMatrixDeterminant; sign 0 and -inf for singular ones). */
export const logMatrixDeterminant = {
  name: 'log_matrix_determinant',
  effect: 'pure',
  infer(ins: AVal[]) {
    checkArity('linalg.slogdet', ins, 1);
    const s = squareShape('linalg.slogdet', ins[0]);
    const out = { dtype: 'float32' as const, shape: s === null ? null : s.slice(0, -2) };
    return [out, { ...out }];
  },
  impl(k, [x]) {
    const { batch, r, mats } = readMatrices(x);
    const both = mats.map((m) => slogdet(m, r));
    return [k.upload(Float32Array.from(both, (b) => b[0]), batch, 'float32'), k.upload(Float32Array.from(both, (b) => b[1]), batch, 'float32')];
  },
  // TF's _LogMatrixDeterminantGrad: the sign is piecewise constant; g_logabs * A^-T.
  vjp(c, [a]) {
    const g = c[1];
    if (g === null) return [o.zerosLike(a)];
    return [o.mul(o.expandDims(o.expandDims(g, -1), -1), inverseT(a))];
  },
  saves: 'inputs',
  tf: tfSpec({ op: 'LogMatrixDeterminant' }),
} satisfies Primitive;

export interface TriSolveParams {
  readonly lower: boolean;
  readonly adjoint: boolean;
}

/** The [..., M, K] result shape of a solve with matrices [..., M, M] and right-hand sides [..., M, K]. */
function solveShape(op: string, ins: AVal[], broadcast: boolean): AVal[] {
  checkArity(op, ins, 2);
  const a = squareShape(op, ins[0], 'matrix');
  checkDTypes(op, ins[1], FLOAT, 'rhs');
  const b = ins[1].shape;
  if (a === null || b === null) return [{ dtype: 'float32', shape: b === null ? null : b.map(() => null) }];
  if (b.length < 2) throw argError(op, 'rhs must be a batch of matrices', `shape ${dimsToString(b)}`, 'rank >= 2 ([..., M, K])', 'Add a trailing axis for one right-hand side: ef.expandDims(rhs, -1).');
  const [m, rb] = [a[a.length - 1], b[b.length - 2]];
  if (m !== null && rb !== null && m !== rb) throw argError(op, 'matrix and rhs rows differ', `matrix ${dimsToString(a)} and rhs ${dimsToString(b)}`, `rhs [..., ${m}, K]`, 'Pass a right-hand side with as many rows as the matrix.');
  let batch: Dims;
  if (broadcast) batch = broadcastOrThrow(op, a.slice(0, -2), b.slice(0, -2));
  else {
    const [ba, bb] = [a.slice(0, -2), b.slice(0, -2)];
    if (ba.length !== bb.length || ba.some((d, i) => d !== null && bb[i] !== null && d !== bb[i])) throw argError(op, 'matrix and rhs batch shapes differ', `${dimsToString(a)} and ${dimsToString(b)}`, 'equal batch dims', 'Broadcast them to one batch shape first (ef.broadcastTo).');
    batch = ba.map((d, i) => d ?? bb[i]);
  }
  return [{ dtype: 'float32', shape: [...(batch as (number | null)[]), m ?? rb, b[b.length - 1]] }];
}

/** Runs a per-pair host solve over broadcast batches. */
function solvePairs(k: Kernels, a: Info, b: Info, f: (m: Mat, r: Mat, n: number, kk: number) => Mat): Info {
  const batch = broadcastShape(a.shape.slice(0, -2), b.shape.slice(0, -2));
  const full = (x: Info): Info => (sameShape(x.shape.slice(0, -2), batch) ? x : broadcastInfo(k, x, [...batch, ...x.shape.slice(-2)]));
  const [fa, fb] = [full(a), full(b)];
  try {
    const A = readMatrices(fa);
    const B = readMatrices(fb);
    return uploadMatrices(k, A.mats.map((m, i) => f(m, B.mats[i], A.r, B.c)), batch, B.r, B.c);
  } finally {
    if (fa !== a) k.free(fa);
    if (fb !== b) k.free(fb);
  }
}

/** Solves triangular systems op(A) X = B (TF's MatrixTriangularSolve; batch dims broadcast). */
export const matrixTriangularSolve = {
  name: 'matrix_triangular_solve',
  effect: 'pure',
  infer: (ins: AVal[]) => solveShape('linalg.triangularSolve', ins, true),
  impl(k, [a, b], p: TriSolveParams) {
    return [solvePairs(k, a, b, (m, r, n, kk) => triSolve(m, r, n, kk, p.lower, p.adjoint))];
  },
  // TF's _MatrixTriangularSolveGrad.
  vjp(c, [a, b], [x], p: TriSolveParams, need): (Tensor | null)[] {
    const g = c[0] as Tensor;
    const gb: Tensor = bind(matrixTriangularSolve as Primitive, [a, g], { lower: p.lower, adjoint: !p.adjoint })[0];
    const gaFull: Tensor | null = need[0] ? o.neg(p.adjoint ? o.matmul(x, gb, false, true) : o.matmul(gb, x, false, true)) : null;
    return [gaFull === null ? null : o.reduceLike(triangle(gaFull, p.lower), a), need[1] ? o.reduceLike(gb, b) : null];
  },
  saves: 'both',
  api: api(['linalg.triangularSolve'], [arg.tensor('matrix', 'float32'), arg.tensor('rhs', 'float32')], [arg.bool('lower', true), arg.bool('adjoint', false)]),
  tf: tfSpec<TriSolveParams>({ op: 'MatrixTriangularSolve', attrs: { T: { dtypeOf: 0 }, lower: { param: 'lower', kind: 'bool', default: true }, adjoint: { param: 'adjoint', kind: 'bool', default: false } } }),
} satisfies Primitive<TriSolveParams>;

/** Solves A X = B (or A^T X = B, `adjoint`) by LU with partial pivoting (TF's MatrixSolve; singular A is an error). */
export const matrixSolve = {
  name: 'matrix_solve',
  effect: 'pure',
  infer: (ins: AVal[]) => solveShape('linalg.solve', ins, false),
  impl(k, [a, b], p: AdjointParams) {
    return [solvePairs(k, a, b, (m, r, n, kk) => {
      const fac = lu(p.adjoint ? transposeMat(m, n, n) : m, n);
      if (fac.singular) throw argError('linalg.solve', 'the matrix is not invertible', 'a singular matrix', 'an invertible matrix', 'Check the input, or use linalg.lstsq for a least-squares solution.');
      return luSolve(fac, r, n, kk);
    })];
  },
  // TF's _MatrixSolveGrad.
  vjp(c, [a], [x], p: AdjointParams, need): (Tensor | null)[] {
    const g = c[0] as Tensor;
    const gb: Tensor = bind(matrixSolve as Primitive, [a, g], { adjoint: !p.adjoint })[0];
    const ga: Tensor | null = need[0] ? o.neg(p.adjoint ? o.matmul(x, gb, false, true) : o.matmul(gb, x, false, true)) : null;
    return [ga, gb];
  },
  saves: 'both',
  api: api(['linalg.solve'], [arg.tensor('matrix', 'float32'), arg.tensor('rhs', 'float32')], [arg.bool('adjoint', false)]),
  tf: tfSpec<AdjointParams>({ op: 'MatrixSolve', attrs: { T: { dtypeOf: 0 }, adjoint: { param: 'adjoint', kind: 'bool', default: false } } }),
} satisfies Primitive<AdjointParams>;
