// The cpu backend's small float32 matmul as one plain host loop: the same float64 partial sums over the same blocks of
// the inner dimension, added into the float32 result in the same order as tfjs's cpu BatchMatMul kernel (so the values
// are bit-identical), without that kernel's fixed cost per call (two reshapes, a TensorBuffer, stride arrays, the
// block bookkeeping). For small matrices that fixed cost is most of the call: an [8,8] x [8,8] product took 6 us
// through the kernel against 1.4 us here once optimized, and 56 us against 26 us while V8 still interprets both (a
// process's first calls, issue 31's cold window).
import { Info, Kernels, activeBackendName, readInfoSync } from '../../backend/backend';

/** tfjs-backend-cpu's `blockSize`: its kernel sums the inner dimension in blocks of this many terms. */
const TFJS_CPU_BLOCK = 48;

/** Multiply-adds (batch * m * n * k) up to which the host loop runs; beyond, tfjs's blocked kernel (friendlier to caches) does. */
const hostMatMulConfig = { maxWork: 1 << 18 };

/**
 * The product on the host, or null where tfjs's kernel runs instead (another backend or dtype, a larger product).
 * `a` and `b` have batch shapes tfjs pairs correctly (equal, or one of them a single matrix); `batch` is their broadcast.
 */
export function hostMatMul(k: Kernels, a: Info, b: Info, transposeA: boolean, transposeB: boolean, batch: readonly number[]): Info | null {
  if (a.dtype !== 'float32' || b.dtype !== 'float32' || activeBackendName() !== 'cpu') return null;
  const ra = a.shape.length;
  const rb = b.shape.length;
  const M = transposeA ? a.shape[ra - 1] : a.shape[ra - 2];
  const K = transposeA ? a.shape[ra - 2] : a.shape[ra - 1];
  const N = transposeB ? b.shape[rb - 2] : b.shape[rb - 1];
  let batchA = 1;
  for (let d = 0; d < ra - 2; d++) batchA *= a.shape[d];
  let batchB = 1;
  for (let d = 0; d < rb - 2; d++) batchB *= b.shape[d];
  const batchOut = Math.max(batchA, batchB);
  if (batchOut * M * N * K > hostMatMulConfig.maxWork) return null;
  const av = readInfoSync(a) as Float32Array;
  const bv = readInfoSync(b) as Float32Array;
  const out = new Float32Array(batchOut * M * N);
  // Element (i, p) of a matrix of a, (p, j) of b: their steps along i, p and j.
  const aRow = transposeA ? 1 : K;
  const aInner = transposeA ? M : 1;
  const bInner = transposeB ? 1 : N;
  const bCol = transposeB ? K : 1;
  for (let bi = 0; bi < batchOut; bi++) {
    const a0 = (bi % batchA) * M * K;
    const b0 = (bi % batchB) * K * N;
    const o0 = bi * M * N;
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        const o = o0 + i * N + j;
        for (let p0 = 0; p0 < K; p0 += TFJS_CPU_BLOCK) {
          const end = Math.min(p0 + TFJS_CPU_BLOCK, K);
          let pa = a0 + i * aRow + p0 * aInner;
          let pb = b0 + j * bCol + p0 * bInner;
          let sum = 0.0;
          for (let p = p0; p < end; p++, pa += aInner, pb += bInner) sum += av[pa] * bv[pb];
          out[o] += sum;
        }
      }
    }
  }
  const shape = batch.slice();
  shape.push(M, N);
  return k.upload(out, shape, 'float32');
}
