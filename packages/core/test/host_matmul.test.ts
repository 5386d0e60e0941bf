// The cpu backend's small float32 matmul host loop (ops/linalg/host_matmul.ts): bit-identical to tfjs's cpu
// BatchMatMul kernel on every shape kind it takes (transposes, batches paired or broadcast from one matrix, inner
// dimensions over tfjs's block of 48), eager and traced, both as WebAssembly and as the JavaScript fallback; what it
// does not take still runs the kernel. The committed WebAssembly binary is what wabt assembles from host_matmul.wat.
import * as path from 'node:path';
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { hostMatMulConfig, hostMatMulKernel } from '../src/ops/linalg/host_matmul';
import { WASM_BASE64 } from '../src/ops/linalg/host_matmul_wasm';

const ENGINE = tf.engine();

/** tfjs's own kernel on the same data (the reference the host loop must equal bit for bit). */
function kernel(a: ef.Tensor, b: ef.Tensor, transposeA: boolean, transposeB: boolean): Float32Array {
  const ta = tf.tensor(a.dataSync() as Float32Array, a.shape.asList() as number[]);
  const tb = tf.tensor(b.dataSync() as Float32Array, b.shape.asList() as number[]);
  const out = ENGINE.runKernel('BatchMatMul', { a: ta, b: tb }, { transposeA, transposeB }) as tf.Tensor;
  const v = out.dataSync() as Float32Array;
  tf.dispose([ta, tb, out]);
  return v;
}

const bitEqual = (x: unknown, y: ArrayLike<number>): boolean => (x as ArrayLike<number>).length === y.length && Array.from(x as ArrayLike<number>).every((v, i) => Object.is(v, y[i]));

const CASES: [number[], number[], boolean, boolean][] = [
  [[8, 8], [8, 8], false, false],
  [[3, 5], [5, 2], false, false],
  [[5, 3], [5, 2], true, false],
  [[3, 5], [2, 5], false, true],
  [[5, 3], [2, 5], true, true],
  [[4, 3, 7], [4, 7, 2], false, false],
  [[3, 7], [4, 7, 2], false, false],
  [[2, 3, 4, 7], [7, 5], false, false],
  [[2, 100], [100, 3], false, false],
  [[1, 60, 6], [1, 6, 60], true, true],
  [[4, 50], [9, 50], false, true],
  [[1, 1], [1, 1], false, false],
  // Past the WebAssembly memory's first 64 KiB page (17,360 floats): the memory grows.
  [[128, 100], [100, 20], false, false],
  // Past the JavaScript loop's work bound (tfjs's kernel runs there); WebAssembly takes it, with the same bits.
  [[2, 120, 130], [130, 97], false, false],
  [[130, 120], [97, 130], true, true],
];

afterEach(() => {
  hostMatMulConfig.wasm = true;
});

describe.each([['WebAssembly', true], ['JavaScript', false]])('small float32 matmul on the cpu backend (%s): one host loop, bit-identical to the kernel', (_what, useWasm) => {
  beforeEach(() => {
    hostMatMulConfig.wasm = useWasm;
  });

  test('the loop that runs', () => {
    expect(hostMatMulKernel()).toBe(useWasm ? 'wasm' : 'js');
  });

  test.each(CASES)('%j x %j (transposeA %s, transposeB %s), eager and traced', (sa, sb, ta, tb) => {
    const a = ef.random.normal(sa, { seed: 3 });
    const b = ef.random.normal(sb, { seed: 4 });
    const want = kernel(a, b, ta, tb);
    const before = ef.memory().numTensors;
    const eager = ef.matmul(a, b, ta, tb);
    expect(bitEqual(eager.dataSync(), want)).toBe(true);
    const f = ef.trace((x: ef.Tensor, y: ef.Tensor) => ef.matmul(x, y, ta, tb));
    const traced = f(a, b) as ef.Tensor;
    expect(bitEqual(traced.dataSync(), want)).toBe(true);
    expect(traced.shape.asList()).toEqual(eager.shape.asList());
    eager.dispose();
    traced.dispose();
    expect(ef.memory().numTensors).toBe(before);
  });

  test('NaN and infinities propagate as through the kernel', () => {
    const a = ef.constant([[NaN, 1], [Infinity, 2], [0, -Infinity]]);
    const b = ef.constant([[1, 0], [0, 1]]);
    expect(bitEqual(ef.matmul(a, b).dataSync(), kernel(a, b, false, false))).toBe(true);
  });

  test('what the loop does not take (int32, a product over its work or memory bound) runs the kernel, with the same values', () => {
    const ia = ef.constant([[1, 2], [3, 4]], 'int32');
    expect(ef.matmul(ia, ia).arraySync()).toEqual([[7, 10], [15, 22]]);
    const big = ef.random.normal([80, 80], { seed: 5 });
    const saved = hostMatMulConfig.maxWasmFloats;
    try {
      for (const floats of [saved, 1000]) {
        hostMatMulConfig.maxWasmFloats = floats;
        expect(bitEqual(ef.matmul(big, big).dataSync(), kernel(big, big, false, false))).toBe(true);
      }
    } finally {
      hostMatMulConfig.maxWasmFloats = saved;
    }
  });
});

describe('the WebAssembly kernel', () => {
  test('the committed binary is what wabt assembles from host_matmul.wat (rerun scripts/wasm/build-host-kernels.js)', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const build = require(path.join(__dirname, '..', '..', '..', 'scripts', 'wasm', 'build-host-kernels.js')) as { assemble(wat: string): Promise<Buffer> };
    const bytes = await build.assemble('packages/core/src/ops/linalg/host_matmul.wat');
    expect(bytes.toString('base64')).toBe(WASM_BASE64);
  });

  test('a run of calls switching between the WebAssembly loop and the JavaScript loop gives the same bits', () => {
    const a = ef.random.normal([3, 6, 50], { seed: 8 });
    const b = ef.random.normal([50, 7], { seed: 9 });
    const want = kernel(ef.reshape(a, [18, 50]), b, false, false);
    for (const useWasm of [true, false, true]) {
      hostMatMulConfig.wasm = useWasm;
      const out = ef.matmul(a, b);
      expect(bitEqual(out.dataSync(), want)).toBe(true);
      out.dispose();
    }
  });
});
