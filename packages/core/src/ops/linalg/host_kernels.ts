// Float64 host kernels of the tf.linalg decompositions tfjs has no kernel for: Cholesky, LU (inverse, determinant, solve), triangular solve, Householder QR.
import type { Info, Kernels } from '../../backend/backend';
import { readInfoSync } from '../../backend/backend';

/** One matrix (row-major float64) of a batch. */
export type Mat = Float64Array;

const count = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);

/** The matrices of a [..., r, c] value as float64 copies. */
export function readMatrices(x: Info): { batch: number[]; r: number; c: number; mats: Mat[] } {
  const s = x.shape;
  const [r, c] = [s[s.length - 2], s[s.length - 1]];
  const batch = s.slice(0, -2);
  const data = readInfoSync(x) as Float32Array;
  const mats: Mat[] = [];
  for (let b = 0; b < count(batch); b++) mats.push(Float64Array.from(data.subarray(b * r * c, (b + 1) * r * c)));
  return { batch, r, c, mats };
}

/** Uploads float64 matrices (one per batch entry) as a float32 value of shape [...batch, r, c]. */
export function uploadMatrices(k: Kernels, mats: Mat[], batch: number[], r: number, c: number): Info {
  const out = new Float32Array(mats.length * r * c);
  mats.forEach((m, b) => out.set(m, b * r * c));
  return k.upload(out, [...batch, r, c], 'float32');
}

/** The transpose of an r x c matrix. */
export function transposeMat(a: Mat, r: number, c: number): Mat {
  const t = new Float64Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) t[j * r + i] = a[i * c + j];
  return t;
}

/** The lower Cholesky factor of the n x n matrix (only its lower triangle is read), or null when it is not positive definite. */
export function cholesky(a: Mat, n: number): Mat | null {
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let p = 0; p < j; p++) d -= l[j * n + p] * l[j * n + p];
    if (!(d > 0)) return null;
    const ljj = Math.sqrt(d);
    l[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let p = 0; p < j; p++) s -= l[i * n + p] * l[j * n + p];
      l[i * n + j] = s / ljj;
    }
  }
  return l;
}

/** LU with partial pivoting: packed factors, row permutation, permutation sign; `singular` when a pivot is exactly zero. */
export function lu(a: Mat, n: number): { f: Mat; perm: number[]; sign: number; singular: boolean } {
  const f = Float64Array.from(a);
  const perm = Array.from({ length: n }, (_, i) => i);
  let sign = 1;
  let singular = false;
  for (let j = 0; j < n; j++) {
    let p = j;
    for (let i = j + 1; i < n; i++) if (Math.abs(f[i * n + j]) > Math.abs(f[p * n + j])) p = i;
    if (p !== j) {
      for (let c = 0; c < n; c++) [f[j * n + c], f[p * n + c]] = [f[p * n + c], f[j * n + c]];
      [perm[j], perm[p]] = [perm[p], perm[j]];
      sign = -sign;
    }
    const piv = f[j * n + j];
    if (piv === 0) {
      singular = true;
      continue;
    }
    for (let i = j + 1; i < n; i++) {
      const m = (f[i * n + j] /= piv);
      for (let c = j + 1; c < n; c++) f[i * n + c] -= m * f[j * n + c];
    }
  }
  return { f, perm, sign, singular };
}

/** Solves A X = B (A n x n as LU factors, B n x k). */
export function luSolve(fac: { f: Mat; perm: number[] }, b: Mat, n: number, k: number): Mat {
  const { f, perm } = fac;
  const x = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) x[i * k + c] = b[perm[i] * k + c];
  for (let i = 0; i < n; i++) for (let p = 0; p < i; p++) for (let c = 0; c < k; c++) x[i * k + c] -= f[i * n + p] * x[p * k + c];
  for (let i = n - 1; i >= 0; i--) {
    for (let p = i + 1; p < n; p++) for (let c = 0; c < k; c++) x[i * k + c] -= f[i * n + p] * x[p * k + c];
    for (let c = 0; c < k; c++) x[i * k + c] /= f[i * n + i];
  }
  return x;
}

/** The identity n x n. */
export function identity(n: number): Mat {
  const e = new Float64Array(n * n);
  for (let i = 0; i < n; i++) e[i * n + i] = 1;
  return e;
}

/** det as the signed product of the LU pivots (a singular matrix gives TF's signed zero). */
export function determinant(a: Mat, n: number): number {
  const { f, sign } = lu(a, n);
  let d = sign;
  for (let i = 0; i < n; i++) d *= f[i * n + i];
  return d;
}

/** sign(det) and log|det| from LU factors (sign 0 and -Infinity when singular, as TF). */
export function slogdet(a: Mat, n: number): [number, number] {
  const { f, sign, singular } = lu(a, n);
  if (singular) return [0, -Infinity];
  let s = sign;
  let logAbs = 0;
  for (let i = 0; i < n; i++) {
    const d = f[i * n + i];
    if (d < 0) s = -s;
    logAbs += Math.log(Math.abs(d));
  }
  return [s, logAbs];
}

/**
 * Solves op(A) X = B with A triangular (n x n; only the `lower` or upper triangle is read), op = transpose
 * when `adjoint`. Substitution in float64; a zero diagonal gives inf/NaN, as TF.
 */
export function triSolve(a: Mat, b: Mat, n: number, k: number, lower: boolean, adjoint: boolean): Mat {
  // op(A) is lower triangular when exactly one of (lower, adjoint) holds... of the effective matrix.
  const at = (i: number, j: number): number => (adjoint ? a[j * n + i] : a[i * n + j]);
  const effLower = lower !== adjoint;
  const x = new Float64Array(n * k);
  const order = effLower ? Array.from({ length: n }, (_, i) => i) : Array.from({ length: n }, (_, i) => n - 1 - i);
  for (const i of order) {
    for (let c = 0; c < k; c++) {
      let s = b[i * k + c];
      if (effLower) for (let p = 0; p < i; p++) s -= at(i, p) * x[p * k + c];
      else for (let p = i + 1; p < n; p++) s -= at(i, p) * x[p * k + c];
      x[i * k + c] = s / at(i, i);
    }
  }
  return x;
}

/**
 * Householder QR of an m x n matrix: Q (m x m when `full`, else m x min(m, n)) and R. R's diagonal
 * follows LAPACK/Eigen's reflector sign (R[j][j] = -sign(x_j) * ||x||), which is what TensorFlow returns.
 */
export function qr(a: Mat, m: number, n: number, full: boolean): { q: Mat; r: Mat; qc: number; rr: number } {
  const r = Float64Array.from(a);
  const q = identity(m);
  const steps = Math.min(m - 1, n);
  for (let j = 0; j < steps; j++) {
    let norm = 0;
    for (let i = j; i < m; i++) norm += r[i * n + j] ** 2;
    norm = Math.sqrt(norm);
    const x0 = r[j * n + j];
    let tailSq = norm * norm - x0 * x0;
    if (tailSq <= 0) tailSq = 0;
    if (tailSq === 0) continue; // already upper triangular in this column (Eigen: tau = 0)
    const beta = x0 >= 0 ? -norm : norm;
    // v = x - beta e1, normalized so v[0] = 1; H = I - tau v v^T.
    const v0 = x0 - beta;
    const v = new Float64Array(m - j);
    v[0] = 1;
    for (let i = j + 1; i < m; i++) v[i - j] = r[i * n + j] / v0;
    const tau = (beta - x0) / beta;
    for (let c = 0; c < n; c++) {
      let s = 0;
      for (let i = j; i < m; i++) s += v[i - j] * r[i * n + c];
      s *= tau;
      for (let i = j; i < m; i++) r[i * n + c] -= s * v[i - j];
    }
    // Q <- Q H (H symmetric).
    for (let row = 0; row < m; row++) {
      let s = 0;
      for (let i = j; i < m; i++) s += q[row * m + i] * v[i - j];
      s *= tau;
      for (let i = j; i < m; i++) q[row * m + i] -= s * v[i - j];
    }
  }
  for (let i = 1; i < m; i++) for (let c = 0; c < Math.min(i, n); c++) r[i * n + c] = 0;
  const kk = Math.min(m, n);
  if (full || kk === m) return { q, r, qc: m, rr: m };
  const qs = new Float64Array(m * kk);
  for (let i = 0; i < m; i++) for (let c = 0; c < kk; c++) qs[i * kk + c] = q[i * m + c];
  return { q: qs, r: r.slice(0, kk * n), qc: kk, rr: kk };
}
