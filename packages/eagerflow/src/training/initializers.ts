// ef.initializers: Keras's weight initializers as seedable factories, sampled on the host (Philox) and uploaded.
/**
 * Seeded weight initializers (`glorotUniform`, `heNormal`, `zeros`, ...), as in tf.keras.initializers.
 * @module
 */
import { DType, constant, fill, argError } from '@eagerflow/core';
import { Philox, generatorFor } from './prng';

import type { Initializer, SeedOptions } from './initializer';

export type { Initializer, SeedOptions } from './initializer';

function checkShape(api: string, shape: unknown): number[] {
  if (!Array.isArray(shape) || shape.some((d) => !Number.isInteger(d) || (d as number) < 0)) {
    throw argError(`initializers.${api}`, 'shape must be an array of non-negative integers', JSON.stringify(shape), 'e.g. [784, 128]', `Pass the variable's full static shape.`);
  }
  return shape as number[];
}

function checkFloat(api: string, dtype: DType | undefined): DType {
  const d = dtype ?? 'float32';
  if (d !== 'float32') {
    throw argError(`initializers.${api}`, 'random initializers produce floats', `dtype ${d}`, 'float32', 'Use float32, or ef.initializers.zeros/ones/constant for other dtypes.');
  }
  return d;
}

const sizeOf = (shape: number[]): number => shape.reduce((a, b) => a * b, 1);

function sample(api: string, seed: number | null | undefined, draw: (g: Philox) => number): Initializer {
  return (shape, dtype) => {
    const s = checkShape(api, shape);
    const d = checkFloat(api, dtype);
    const g = generatorFor(seed);
    const data = new Float32Array(sizeOf(s));
    for (let i = 0; i < data.length; i++) data[i] = draw(g);
    return constant(data, d, s);
  };
}

/**
 * Keras's fans: rank 0 -> 1/1, rank 1 -> n/n, rank 2 -> [in, out], conv kernels (rank >= 3, e.g.
 * [kh, kw, inC, outC]) multiply the channel dims by the receptive field size.
 * @example
 * ef.initializers.computeFans([3, 3, 16, 32]); // [144, 288]
 */
export function computeFans(shape: number[]): [number, number] {
  if (shape.length === 0) return [1, 1];
  if (shape.length === 1) return [shape[0], shape[0]];
  if (shape.length === 2) return [shape[0], shape[1]];
  const receptive = sizeOf(shape.slice(0, -2));
  return [shape[shape.length - 2] * receptive, shape[shape.length - 1] * receptive];
}

/** VarianceScaling's `{ scale, mode, distribution, seed }` (tf.keras.initializers.VarianceScaling). */
export interface VarianceScalingOptions extends SeedOptions {
  scale?: number;
  mode?: 'fan_in' | 'fan_out' | 'fan_avg';
  distribution?: 'truncated_normal' | 'untruncated_normal' | 'uniform';
}

/** Keras's stddev correction: the stddev of a unit normal truncated to [-2, 2]. */
export const TRUNCATED_STDDEV = 0.87962566103423978;

/**
 * Keras's VarianceScaling: samples with variance `scale / fan` (fan chosen by `mode`).
 * @example
 * const w = ef.initializers.varianceScaling({ scale: 2, mode: 'fan_in', distribution: 'uniform', seed: 1 })([4, 3]);
 * w.shape.asList(); // [4, 3]
 */
export function varianceScaling(options: VarianceScalingOptions = {}): Initializer {
  const { scale = 1, mode = 'fan_in', distribution = 'truncated_normal', seed } = options;
  if (!(scale > 0)) throw argError('initializers.varianceScaling', 'scale must be positive', String(scale), '> 0', 'Pass e.g. scale: 1.');
  if (!['fan_in', 'fan_out', 'fan_avg'].includes(mode)) throw argError('initializers.varianceScaling', 'unknown mode', String(mode), `'fan_in', 'fan_out' or 'fan_avg'`, 'Pick one of those.');
  if (!['truncated_normal', 'untruncated_normal', 'uniform'].includes(distribution)) {
    throw argError('initializers.varianceScaling', 'unknown distribution', String(distribution), `'truncated_normal', 'untruncated_normal' or 'uniform'`, 'Pick one of those.');
  }
  return (shape, dtype) => {
    const [fanIn, fanOut] = computeFans(checkShape('varianceScaling', shape));
    const fan = mode === 'fan_in' ? fanIn : mode === 'fan_out' ? fanOut : (fanIn + fanOut) / 2;
    const s = scale / Math.max(1, fan);
    if (distribution === 'uniform') {
      const limit = Math.sqrt(3 * s);
      return sample('varianceScaling', seed, (g) => (2 * g.uniform() - 1) * limit)(shape, dtype);
    }
    if (distribution === 'untruncated_normal') return sample('varianceScaling', seed, (g) => g.normal() * Math.sqrt(s))(shape, dtype);
    const stddev = Math.sqrt(s) / TRUNCATED_STDDEV;
    return sample('varianceScaling', seed, (g) => g.truncatedNormal() * stddev)(shape, dtype);
  };
}

/**
 * Glorot (Xavier) uniform: U(-limit, limit), limit = sqrt(6 / (fanIn + fanOut)).
 * @example
 * const w = ef.initializers.glorotUniform({ seed: 42 })([2, 3]);
 * Math.max(...w.dataSync().map(Math.abs)) <= Math.sqrt(6 / 5); // true
 */
export const glorotUniform = (o: SeedOptions = {}): Initializer => varianceScaling({ scale: 1, mode: 'fan_avg', distribution: 'uniform', seed: o.seed });
/**
 * Glorot normal: truncated normal with stddev sqrt(2 / (fanIn + fanOut)).
 * @example
 * ef.initializers.glorotNormal({ seed: 1 })([3, 3]).shape.asList(); // [3, 3]
 */
export const glorotNormal = (o: SeedOptions = {}): Initializer => varianceScaling({ scale: 1, mode: 'fan_avg', distribution: 'truncated_normal', seed: o.seed });
/**
 * He normal: truncated normal with stddev sqrt(2 / fanIn).
 * @example
 * ef.initializers.heNormal({ seed: 1 })([3, 3]).shape.asList(); // [3, 3]
 */
export const heNormal = (o: SeedOptions = {}): Initializer => varianceScaling({ scale: 2, mode: 'fan_in', distribution: 'truncated_normal', seed: o.seed });
/**
 * He uniform: U(-limit, limit), limit = sqrt(6 / fanIn).
 * @example
 * ef.initializers.heUniform({ seed: 1 })([3, 3]).shape.asList(); // [3, 3]
 */
export const heUniform = (o: SeedOptions = {}): Initializer => varianceScaling({ scale: 2, mode: 'fan_in', distribution: 'uniform', seed: o.seed });
/**
 * LeCun normal: truncated normal with stddev sqrt(1 / fanIn).
 * @example
 * ef.initializers.lecunNormal({ seed: 1 })([3, 3]).shape.asList(); // [3, 3]
 */
export const lecunNormal = (o: SeedOptions = {}): Initializer => varianceScaling({ scale: 1, mode: 'fan_in', distribution: 'truncated_normal', seed: o.seed });
/**
 * LeCun uniform: U(-limit, limit), limit = sqrt(3 / fanIn).
 * @example
 * ef.initializers.lecunUniform({ seed: 1 })([3, 3]).shape.asList(); // [3, 3]
 */
export const lecunUniform = (o: SeedOptions = {}): Initializer => varianceScaling({ scale: 1, mode: 'fan_in', distribution: 'uniform', seed: o.seed });

/**
 * Normal samples (Keras defaults mean 0, stddev 0.05).
 * @example
 * ef.initializers.randomNormal({ mean: 1, stddev: 0.1, seed: 3 })([2]).shape.asList(); // [2]
 */
export function randomNormal(o: SeedOptions & { mean?: number; stddev?: number } = {}): Initializer {
  const { mean = 0, stddev = 0.05, seed } = o;
  return sample('randomNormal', seed, (g) => mean + stddev * g.normal());
}

/**
 * Uniform samples in [minval, maxval) (Keras defaults -0.05, 0.05).
 * @example
 * ef.initializers.randomUniform({ minval: 0, maxval: 1, seed: 3 })([2]).shape.asList(); // [2]
 */
export function randomUniform(o: SeedOptions & { minval?: number; maxval?: number } = {}): Initializer {
  const { minval = -0.05, maxval = 0.05, seed } = o;
  if (!(maxval > minval)) throw argError('initializers.randomUniform', 'maxval must exceed minval', `minval ${minval}, maxval ${maxval}`, 'minval < maxval', 'Swap or widen the bounds.');
  return sample('randomUniform', seed, (g) => minval + (maxval - minval) * g.uniform());
}

/**
 * Normal samples redrawn beyond two stddevs (Keras defaults mean 0, stddev 0.05).
 * @example
 * const t = ef.initializers.truncatedNormal({ stddev: 1, seed: 3 })([100]);
 * t.dataSync().every((v) => Math.abs(v) <= 2); // true
 */
export function truncatedNormal(o: SeedOptions & { mean?: number; stddev?: number } = {}): Initializer {
  const { mean = 0, stddev = 0.05, seed } = o;
  return sample('truncatedNormal', seed, (g) => mean + stddev * g.truncatedNormal());
}

/**
 * All zeros.
 * @example
 * ef.initializers.zeros()([2]).arraySync(); // [0, 0]
 */
export const zeros = (): Initializer => (shape, dtype = 'float32') => fill(checkShape('zeros', shape), dtype === 'bool' ? false : 0, dtype);
/**
 * All ones.
 * @example
 * ef.initializers.ones()([2]).arraySync(); // [1, 1]
 */
export const ones = (): Initializer => (shape, dtype = 'float32') => fill(checkShape('ones', shape), dtype === 'bool' ? true : 1, dtype);
/**
 * Every element `value` (Keras default 0).
 * @example
 * ef.initializers.constant({ value: 3 })([2]).arraySync(); // [3, 3]
 */
const constantInit = (o: { value?: number } = {}): Initializer => (shape, dtype = 'float32') => fill(checkShape('constant', shape), o.value ?? 0, dtype);
export { constantInit as constant };
export { orthogonal } from './orthogonal';
