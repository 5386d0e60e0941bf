// matrices: QR decomposition (TF's Qr) by Householder reflections in float64, with TensorFlow's _QrGrad in our own ops.
import type { Info } from '../../backend/backend';
import { defineOp } from '../define_op';
import { AVal, Primitive } from '../primitive';
import { tfSpec } from '../graphdef_spec';
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { bind } from '../bind';
import { dimsToString } from '../../values/shape';
import { argError, checkArity, checkDTypes, FLOAT } from '../check';
import { qr as hostQr, readMatrices, uploadMatrices } from './host_kernels';
import { matrixTriangularSolve, mT, triangle } from './square_matrix';

export interface QrParams {
  readonly fullMatrices: boolean;
}

/** x R^-T for upper-triangular R (TF's _TriangularSolve helper of _QrGrad). */
function solveRight(x: Tensor, r: Tensor): Tensor {
  return mT(bind(matrixTriangularSolve as Primitive, [r, mT(x)], { lower: false, adjoint: false })[0]);
}

/** _QrGradSquareAndDeepMatrices: m >= n, reduced Q. */
function qrGradDeep(q: Tensor, r: Tensor, dq: Tensor, dr: Tensor): Tensor {
  const qdq = o.matmul(q, dq, true, false);
  const rdr = o.matmul(r, dr, false, true);
  const tril = triangle(o.add(o.sub(qdq, mT(qdq)), o.sub(rdr, mT(rdr))), true);
  const gradA = o.matmul(q, o.add(dr, solveRight(tril, r)));
  const gradB = solveRight(o.sub(dq, o.matmul(q, qdq)), r);
  return o.add(gradA, gradB);
}

/** Static [m, n] of the input (the gradient slices by them). */
function matrixDims(a: Tensor): [number, number] {
  const d = a.dims;
  const [m, n] = d === null ? [null, null] : d.slice(-2);
  if (m === null || n === null || m === undefined || n === undefined) throw argError('linalg.qr gradient', 'the matrix dims must be known', dimsToString(d), 'static [..., M, N]', 'Give the traced input a TensorSpec with the matrix dims set.');
  return [m, n];
}

/** Q and R with A = Q R (TF's Qr: Q [..., M, K] and R [..., K, N], K = min(M, N); M x M and M x N with `fullMatrices`). */
export const qr = defineOp({
  name: 'qr',
  infer(ins: AVal[], p: QrParams) {
    checkArity('linalg.qr', ins, 1);
    checkDTypes('linalg.qr', ins[0], FLOAT, 'input');
    const s = ins[0].shape;
    if (s === null) return [{ dtype: 'float32', shape: null }, { dtype: 'float32', shape: null }];
    if (s.length < 2) throw argError('linalg.qr', 'the input must be a batch of matrices', `shape ${dimsToString(s)}`, 'rank >= 2 ([..., M, N])', 'Reshape it to [..., M, N].');
    const [m, n] = s.slice(-2);
    const kk = m === null || n === null ? null : Math.min(m, n);
    const batch = s.slice(0, -2);
    return [
      { dtype: 'float32', shape: [...batch, m, p.fullMatrices ? m : kk] },
      { dtype: 'float32', shape: [...batch, p.fullMatrices ? m : kk, n] },
    ];
  },
  impl(k, [x], p: QrParams): Info[] {
    const { batch, r: m, c: n, mats } = readMatrices(x);
    const res = mats.map((a) => hostQr(a, m, n, p.fullMatrices));
    const qc = p.fullMatrices ? m : Math.min(m, n);
    return [uploadMatrices(k, res.map((d) => d.q), batch, m, qc), uploadMatrices(k, res.map((d) => d.r), batch, qc, n)];
  },
  // TF's _QrGrad: deep/square matrices directly, wide ones through the square left block.
  vjp(c, [a], [q, r], p: QrParams) {
    const [m, n] = matrixDims(a);
    if (p.fullMatrices && m > n) throw argError('linalg.qr gradient', 'QR gradient is not implemented (as in TensorFlow) when M > N and fullMatrices is true', `M = ${m}, N = ${n}`, 'M <= N, or fullMatrices false', 'Use fullMatrices: false.');
    const dq = c[0] ?? o.zerosLike(q);
    const dr = c[1] ?? o.zerosLike(r);
    if (m >= n) return [qrGradDeep(q, r, dq, dr)];
    const lead = new Array<number>((a.rank as number) - 2).fill(0);
    const all = new Array<number>((a.rank as number) - 2).fill(-1);
    const cols = (t: Tensor, from: number, size: number): Tensor => o.slice(t, [...lead, 0, from], [...all, -1, size]);
    const y = cols(a, m, n - m);
    const u = cols(r, 0, m);
    const dv = cols(dr, m, n - m);
    const du = cols(dr, 0, m);
    const dy = o.matmul(q, dv);
    const dx = qrGradDeep(q, u, o.add(dq, o.matmul(y, dv, false, true)), du);
    return [o.concat([dx, dy], -1)];
  },
  tf: tfSpec<QrParams>({ op: 'Qr', attrs: { T: { dtypeOf: 0 }, full_matrices: { param: 'fullMatrices', kind: 'bool', default: false } } }),
});
