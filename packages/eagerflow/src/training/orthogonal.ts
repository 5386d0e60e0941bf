// The orthogonal initializer: Keras's QR of a normal matrix, via modified Gram-Schmidt in float64.
import { constant, argError } from '@eagerflow/core';
import type { Initializer, SeedOptions } from './initializer';
import { generatorFor } from './prng';

/**
 * Orthonormalizes the columns of a row-major rows x cols matrix (rows >= cols) in place. Gram-Schmidt
 * gives R a positive diagonal, which is exactly Keras's `q * sign(diag(r))` normalization of QR.
 */
function gramSchmidt(a: Float64Array, rows: number, cols: number): void {
  for (let j = 0; j < cols; j++) {
    for (let k = 0; k < j; k++) {
      let dot = 0;
      for (let i = 0; i < rows; i++) dot += a[i * cols + k] * a[i * cols + j];
      for (let i = 0; i < rows; i++) a[i * cols + j] -= dot * a[i * cols + k];
    }
    let norm = 0;
    for (let i = 0; i < rows; i++) norm += a[i * cols + j] ** 2;
    norm = Math.sqrt(norm);
    for (let i = 0; i < rows; i++) a[i * cols + j] /= norm;
  }
}

/**
 * Keras's Orthogonal: flattens the shape to (prod(shape[:-1]), shape[-1]), orthonormalizes a normal
 * sample (rows or columns, whichever is fewer) and scales by `gain`.
 * @example
 * const q = ef.initializers.orthogonal({ seed: 7 })([3, 3]);
 * const qtq = ef.matmul(q, q, true).arraySync() as number[][];
 * Math.abs(qtq[0][0] - 1) < 1e-5 && Math.abs(qtq[0][1]) < 1e-5; // true
 */
export function orthogonal(o: SeedOptions & { gain?: number } = {}): Initializer {
  const { gain = 1, seed } = o;
  return (shape, dtype = 'float32') => {
    if (!Array.isArray(shape) || shape.length < 2 || shape.some((d) => !Number.isInteger(d) || d <= 0)) {
      throw argError('initializers.orthogonal', 'shape must have rank >= 2 and positive dims', JSON.stringify(shape), 'e.g. [64, 64]', 'Use another initializer for vectors.');
    }
    if (dtype !== 'float32') throw argError('initializers.orthogonal', 'produces floats', `dtype ${dtype}`, 'float32', 'Use float32.');
    const cols = shape[shape.length - 1];
    const rows = shape.slice(0, -1).reduce((a, b) => a * b, 1);
    const tall = Math.max(rows, cols);
    const wide = Math.min(rows, cols);
    const g = generatorFor(seed);
    const a = new Float64Array(tall * wide);
    for (let i = 0; i < a.length; i++) a[i] = g.normal();
    gramSchmidt(a, tall, wide);
    const out = new Float32Array(rows * cols);
    // q is tall x wide; when rows < cols Keras transposes it to rows x cols.
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) out[r * cols + c] = gain * (rows >= cols ? a[r * wide + c] : a[c * wide + r]);
    }
    return constant(out, 'float32', shape);
  };
}
