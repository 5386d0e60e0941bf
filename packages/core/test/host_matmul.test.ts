// The cpu backend's small float32 matmul host loop (ops/linalg/host_matmul.ts): bit-identical to tfjs's cpu
// BatchMatMul kernel on every shape kind it takes (transposes, batches paired or broadcast from one matrix, inner
// dimensions over tfjs's block of 48), eager and traced; what it does not take still runs the kernel.
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';

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
  [[1, 1], [1, 1], false, false],
];

describe('small float32 matmul on the cpu backend: one host loop, bit-identical to the kernel', () => {
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

  test('what the loop does not take (int32, a product over its work bound) runs the kernel, with the same values', () => {
    const ia = ef.constant([[1, 2], [3, 4]], 'int32');
    expect(ef.matmul(ia, ia).arraySync()).toEqual([[7, 10], [15, 22]]);
    const big = ef.random.normal([80, 80], { seed: 5 });
    expect(bitEqual(ef.matmul(big, big).dataSync(), kernel(big, big, false, false))).toBe(true);
  });
});
