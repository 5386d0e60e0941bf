// The cpu backend's float32 matmul as one plain host loop: the same float64 partial sums over the same blocks of the
// inner dimension, added into the float32 result in the same order as tfjs's cpu BatchMatMul kernel (so the values are
// bit-identical), without that kernel's fixed cost per call (two reshapes, a TensorBuffer, stride arrays, the block
// bookkeeping). The loop runs as WebAssembly (host_matmul.wat, four output columns per pass) where the engine has it,
// and as the JavaScript loop below otherwise (no WebAssembly, or a page whose CSP forbids compiling it).
// - Speed, steady state (traced x @ x, this machine): [8,8] 3-5 us either way; [32,32] 25-31 us in WebAssembly, 63-109 us
//   in JavaScript; [64,64] 105-128 vs 457-497 us; beyond the JavaScript loop's bound, against tfjs's kernel: [96,96]
//   0.48-0.51 ms vs 3.8-4.0 ms, [128,128] 0.9 vs 6.6-9.1 ms, [256,256] 6.9-8.4 vs 53-67 ms.
// - The cold window (a process's first calls, issue 31): the WebAssembly module is compiled when first used and runs
//   compiled from its first call, where the JavaScript loop runs interpreted until V8's optimizing compile of it lands,
//   ~10 ms into a process (calls 2-101 of a traced [8,8] matmul: ~50 us -> ~20 us per call).
import { Info, Kernels, activeBackendName, readInfoSync } from '../../backend/backend';
import { WASM_BASE64 } from './host_matmul_wasm';

/** tfjs-backend-cpu's `blockSize`: its kernel sums the inner dimension in blocks of this many terms. */
const TFJS_CPU_BLOCK = 48;

/**
 * Where the host loop runs instead of tfjs's kernel: up to `maxWork` multiply-adds (batch * m * n * k) in JavaScript
 * (beyond, tfjs's blocked kernel is friendlier to caches), up to `maxWasmWork` in WebAssembly as long as its operands and
 * result fit in `maxWasmFloats` floats (the module's memory grows to hold them and is kept: 8 MiB at most).
 * `wasm: false` runs the JavaScript loop (tests compare the two).
 */
export const hostMatMulConfig = { maxWork: 1 << 18, maxWasmWork: 1 << 28, maxWasmFloats: 1 << 21, wasm: true };

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
  const work = batchOut * M * N * K;
  const floats = batchA * M * K + batchB * K * N + batchOut * M * N;
  const kernel = work <= hostMatMulConfig.maxWasmWork && floats <= hostMatMulConfig.maxWasmFloats ? wasmKernel() : null;
  if (kernel === null && work > hostMatMulConfig.maxWork) return null;
  const av = readInfoSync(a) as Float32Array;
  const bv = readInfoSync(b) as Float32Array;
  // Element (i, p) of a matrix of a, (p, j) of b: their steps along i, p and j.
  const aRow = transposeA ? 1 : K;
  const aInner = transposeA ? M : 1;
  const bInner = transposeB ? 1 : N;
  const bCol = transposeB ? K : 1;
  const shape = batch.slice();
  shape.push(M, N);
  if (kernel !== null) {
    const size = batchOut * M * N;
    const mem = wasmFloats(kernel, av.length + bv.length + size);
    if (mem === null) return null;
    mem.set(av, 0);
    mem.set(bv, av.length);
    const o = av.length + bv.length;
    kernel.matmul(0, av.length, o, batchA, batchB, batchOut, M, N, K, aRow, aInner, bInner, bCol);
    return k.upload(mem.slice(o, o + size), shape, 'float32');
  }
  const out = new Float32Array(batchOut * M * N);
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
  return k.upload(out, shape, 'float32');
}

/** The instantiated WebAssembly kernel: its export and memory (and a float32 view of it, renewed when it grows). */
interface WasmKernel {
  matmul(a: number, b: number, out: number, batchA: number, batchB: number, batchOut: number, M: number, N: number, K: number, aRow: number, aInner: number, bInner: number, bCol: number): void;
  memory: WebAssembly.Memory;
  view: Float32Array;
}

/** The kernel once instantiated; null where WebAssembly is missing or refused (then the JavaScript loop runs); false before the first try. */
let wasm: WasmKernel | null | false = false;

/** Whether the WebAssembly kernel is used (tests read it; `hostMatMulConfig.wasm = false` turns it off). */
export function hostMatMulKernel(): 'wasm' | 'js' {
  return hostMatMulConfig.wasm && wasmKernel() !== null ? 'wasm' : 'js';
}

function wasmKernel(): WasmKernel | null {
  if (!hostMatMulConfig.wasm) return null;
  if (wasm !== false) return wasm;
  try {
    const bin = atob(WASM_BASE64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    // Synchronous: the module is 385 bytes (browsers refuse only large modules on the main thread).
    const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as { matmul: WasmKernel['matmul']; memory: WebAssembly.Memory };
    wasm = { matmul: exports.matmul, memory: exports.memory, view: new Float32Array(exports.memory.buffer) };
  } catch {
    // No WebAssembly, or a Content-Security-Policy without 'wasm-unsafe-eval': the JavaScript loop serves.
    wasm = null;
  }
  return wasm;
}

/** The kernel's memory as float32, at least `n` elements (grown in 64 KiB pages as needed), or null when it cannot grow (then tfjs's kernel runs). */
function wasmFloats(kernel: WasmKernel, n: number): Float32Array | null {
  if (kernel.view.length < n) {
    try {
      kernel.memory.grow(Math.ceil((n * 4 - kernel.memory.buffer.byteLength) / 65536));
    } catch {
      return null;
    }
    kernel.view = new Float32Array(kernel.memory.buffer);
  }
  return kernel.view;
}
