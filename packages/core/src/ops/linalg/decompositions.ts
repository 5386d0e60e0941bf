// tf.linalg decompositions with several results or built from the decomposition records: qr, slogdet, logdet, lstsq.
import { composite } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { bind } from '../bind';
import { tidy } from '../../backend/memory';
import { releasing } from '../op_builder';
import type { Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { describe } from '../../values/dtype';
import * as o from '../ops';
import { argError, unimplemented } from '../../errors/error_toolkit';
import * as LIN from './square_matrix';
import { qr as qrRecord } from './qr';
import { LINALG_COMPOSITES } from './diag_band_products';
import { diagonalMask, dim, shapeOf, splitLast } from '../array/symbolic_dims';

const boolOpt = (op: string, name: string, v: unknown, def: boolean): boolean => {
  if (v === undefined) return def;
  if (typeof v !== 'boolean') throw argError(op, `${name} must be a boolean`, describe(v), 'true or false', `Pass ${name}: true or false.`);
  return v;
};

/**
 * qr(input, {fullMatrices}): the QR decomposition of a batch of matrices, as `{q, r}` (TF's Qr; R's
 * diagonal signs as TensorFlow's Householder reflections give them).
 * @example
 * const { q, r } = ef.linalg.qr([[3, 0], [4, 5]]);
 * ef.matmul(q, r).arraySync(); // [[3, 0], [4, 5]] (up to rounding)
 */
function qr(input: TensorLike, options: { fullMatrices?: boolean } = {}): { q: Tensor; r: Tensor } {
  const fullMatrices = boolOpt('linalg.qr', 'fullMatrices', options.fullMatrices, false);
  const c = convert('linalg.qr', input, 'float32');
  return releasing([c], () => {
    const [q, r] = bind(qrRecord as Primitive, [c.t], { fullMatrices });
    return { q, r };
  });
}

/**
 * slogdet(input): `{sign, logAbsDeterminant}` of a batch of square matrices (TF's LogMatrixDeterminant).
 * @example ef.linalg.slogdet([[2, 0], [0, -3]]).sign.arraySync(); // -1
 */
function slogdet(input: TensorLike): { sign: Tensor; logAbsDeterminant: Tensor } {
  const c = convert('linalg.slogdet', input, 'float32');
  return releasing([c], () => {
    const [sign, logAbsDeterminant] = bind(LIN.logMatrixDeterminant as Primitive, [c.t], {});
    return { sign, logAbsDeterminant };
  });
}

const cholesky = (x: TensorLike): Tensor => bind(LIN.cholesky as Primitive, [convert('linalg.cholesky', x, 'float32').t], {})[0];
const triSolve = (a: Tensor, b: Tensor, lower: boolean, adjoint: boolean): Tensor => bind(LIN.matrixTriangularSolve as Primitive, [a, b], { lower, adjoint })[0];
/** Solves (L L^T) X = B from the Cholesky factor L (TF's cholesky_solve). */
const cholSolve = (l: Tensor, b: Tensor): Tensor => triSolve(l, triSolve(l, b, true, false), true, true);

/**
 * logdet(matrix): log det of Hermitian positive-definite matrices, from the Cholesky factor (TF's linalg.logdet).
 * @example ef.linalg.logdet([[4, 0], [0, 9]]).arraySync(); // log(36) ≈ 3.5835
 */
function logdet(matrix: TensorLike): Tensor {
  return tidy(() => o.mul(o.reduceSum(o.log(LINALG_COMPOSITES.diagPart.fn(cholesky(matrix))), -1), 2));
}

/**
 * choleskySolve(chol, rhs): solves A X = rhs given A's lower Cholesky factor (TF's linalg.cholesky_solve).
 * @example ef.linalg.choleskySolve([[2, 0], [0, 3]], [[4], [9]]).arraySync(); // [[1], [1]]
 */
function choleskySolve(chol: TensorLike, rhs: TensorLike): Tensor {
  return tidy(() => cholSolve(convert('linalg.choleskySolve', chol, 'float32').t, convert('linalg.choleskySolve', rhs, 'float32').t));
}

/**
 * lstsq(matrix, rhs, l2Regularizer = 0, {fast}): least-squares solutions of matrix X = rhs by TF's fast path
 * (Cholesky of the regularized normal equations; minimum-norm for wide matrices). `fast: false` is unimplemented.
 * @example ef.linalg.lstsq([[1, 0], [0, 1], [1, 1]], [[1], [1], [2]]).arraySync(); // [[1], [1]]
 */
function lstsq(matrix: TensorLike, rhs: TensorLike, l2Regularizer = 0, options: { fast?: boolean } = {}): Tensor {
  const op = 'linalg.lstsq';
  if (typeof l2Regularizer !== 'number' || !(l2Regularizer >= 0)) throw argError(op, 'l2Regularizer must be a number >= 0', describe(l2Regularizer), 'a number >= 0', 'Pass e.g. 0 or 1e-3.');
  if (!boolOpt(op, 'fast', options.fast, true)) throw unimplemented(op, 'the complete orthogonal decomposition path (fast: false) is not implemented', 'fast: false', 'fast: true', 'Use fast: true (Cholesky of the normal equations), with l2Regularizer > 0 for ill-conditioned problems.');
  return tidy(() => {
    const a = convert(op, matrix, 'float32').t;
    const b = convert(op, rhs, 'float32').t;
    const d = a.dims;
    const [m, n] = d === null || d.length < 2 ? [null, null] : d.slice(-2);
    if (m === null || n === null) return lstsqRunTime(a, b, l2Regularizer);
    const reg = (k: number): Tensor => o.mul(LINALG_COMPOSITES.eye.fn(k), l2Regularizer);
    if (m >= n) return cholSolve(cholesky(o.add(o.matmul(a, a, true, false), reg(n))), o.matmul(a, b, true, false));
    return o.matmul(a, cholSolve(cholesky(o.add(o.matmul(a, a, false, true), reg(m))), b), true, false);
  });
}

/**
 * lstsq with matrix dims known only at run time. TF picks the overdetermined (M >= N) or underdetermined normal
 * equations there with a tf.cond; ef's core has no conditional, so both are built and the result selected, with the
 * unused side's Gram matrix replaced by the identity (its Cholesky then cannot fail, and the select gives it a zero
 * cotangent). Twice the work of TF's one branch, in this traced-with-unknown-dims case only.
 */
function lstsqRunTime(a: Tensor, b: Tensor, l2: number): Tensor {
  const eyeLike = (g: Tensor): Tensor => {
    const { last: [m, n] } = splitLast('linalg.lstsq', shapeOf(g), 2);
    return o.mul(o.cast(diagonalMask(m, n), 'float32'), o.onesLike(g));
  };
  const { last: [m, n] } = splitLast('linalg.lstsq', shapeOf(a), 2);
  const [rows, cols] = [dim.tensor(m), dim.tensor(n)];
  const [over, under] = [o.greaterEqual(rows, cols), o.less(rows, cols)];
  const gram = (g: Tensor, used: Tensor): Tensor => {
    const e = eyeLike(g);
    return o.where(used, o.add(g, o.mul(e, l2)), e);
  };
  const x1 = cholSolve(cholesky(gram(o.matmul(a, a, true, false), over)), o.matmul(a, b, true, false));
  const x2 = o.matmul(a, cholSolve(cholesky(gram(o.matmul(a, a, false, true), under)), b), true, false);
  return o.where(over, x1, x2);
}

export const LINALG2_COMPOSITES = {
  qr: composite(['linalg.qr'], qr),
  slogdet: composite(['linalg.slogdet'], slogdet),
  logdet: composite(['linalg.logdet'], logdet),
  choleskySolve: composite(['linalg.choleskySolve'], choleskySolve),
  lstsq: composite(['linalg.lstsq'], lstsq),
};
