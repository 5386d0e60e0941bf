// tf.random's public ops (seeded by TF's rules), the stateless family, ef.random.Generator, and nn.dropout.
import { composite } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { releasing } from '../op_builder';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import type { DType } from '../../values/dtype';
import type { Params, Primitive } from '../primitive';
import { bind } from '../bind';
import * as o from '../ops';
import { argError } from '../check';
import * as D from './draws';
import * as S from './sampling';
import { checkSeed, newGenerator, opSeeds } from './seeds';
import { showValue } from '../../values/dtype';

const draw = (rec: unknown, ins: Tensor[], params: object): Tensor => bind(rec as Primitive, ins, params as Params)[0];

/** mean + stddev * z (skipped for the standard distribution, so no extra nodes). */
const scaled = (z: Tensor, mean: TensorLike, stddev: TensorLike): Tensor =>
  mean === 0 && stddev === 1 ? z : o.add(o.mul(z, stddev), mean);

export interface NormalOptions { mean?: TensorLike; stddev?: TensorLike; dtype?: DType; seed?: number }
export interface UniformOptions { minval?: number; maxval?: number; dtype?: DType; seed?: number }

/**
 * Normal draws, seeded by TF's rules (global seed from setSeed + the op seed).
 * @example ef.random.normal([2, 3], { mean: 1, stddev: 0.5, seed: 7 }).shape.dims; // [2, 3]
 */
function normal(shape: readonly number[], options: NormalOptions = {}): Tensor {
  const [seed, seed2] = opSeeds('random.normal', options.seed);
  return tidy(() => scaled(draw(D.randomStandardNormal, [], { shape, dtype: options.dtype ?? 'float32', seed, seed2 }), options.mean ?? 0, options.stddev ?? 1));
}

/**
 * Normal draws redrawn beyond two standard deviations.
 * @example ef.random.truncatedNormal([4], { seed: 1 }).shape.dims; // [4]
 */
function truncatedNormal(shape: readonly number[], options: NormalOptions = {}): Tensor {
  const [seed, seed2] = opSeeds('random.truncatedNormal', options.seed);
  return tidy(() => scaled(draw(D.truncatedNormal, [], { shape, dtype: options.dtype ?? 'float32', seed, seed2 }), options.mean ?? 0, options.stddev ?? 1));
}

/** Uniform draws of one stream (shared by random.uniform and Generator.uniform). */
function uniformFrom(op: string, shape: readonly number[], options: UniformOptions, seeds: object): Tensor {
  const dtype = options.dtype ?? 'float32';
  if (dtype === 'int32') {
    if (options.maxval === undefined) throw argError(op, 'an int32 uniform needs maxval', 'no maxval', 'an integer maxval', 'Pass { maxval } (and minval, default 0).');
    return draw(D.randomUniformInt, [], { shape, dtype, minval: options.minval ?? 0, maxval: options.maxval, ...seeds });
  }
  const lo = options.minval ?? 0, hi = options.maxval ?? 1;
  return tidy(() => {
    const u = draw(D.randomUniform, [], { shape, dtype, ...seeds });
    return lo === 0 && hi === 1 ? u : o.add(o.mul(u, hi - lo), lo);
  });
}

/**
 * Uniform draws in [minval, maxval) (float32, or int32 with an integer maxval).
 * @example ef.random.uniform([3], { minval: 0, maxval: 10, dtype: 'int32', seed: 3 }).dtype; // 'int32'
 */
function uniform(shape: readonly number[], options: UniformOptions = {}): Tensor {
  const [seed, seed2] = opSeeds('random.uniform', options.seed);
  return uniformFrom('random.uniform', shape, options, { seed, seed2 });
}

/**
 * Class indices drawn per row of unnormalized log-probabilities: [batch, numSamples] int32.
 * @example ef.random.categorical([[0, -Infinity]], 3).arraySync(); // [[0, 0, 0]]
 */
function categorical(logits: TensorLike, numSamples: number, options: { dtype?: DType; seed?: number } = {}): Tensor {
  checkInt32('random.categorical', options.dtype);
  const [seed, seed2] = opSeeds('random.categorical', options.seed);
  const c = convert('random.categorical', logits, 'float32');
  return releasing([c], () => draw(S.multinomial, [c.t], { numSamples, seed, seed2 }));
}

/**
 * A random permutation along the first dimension.
 * @example ef.random.shuffle([[1, 2], [3, 4], [5, 6]]).shape.dims; // [3, 2]
 */
function shuffle(value: TensorLike, options: { seed?: number } = {}): Tensor {
  const [seed, seed2] = opSeeds('random.shuffle', options.seed);
  const c = convert('random.shuffle', value);
  return releasing([c], () => draw(S.randomShuffle, [c.t], { seed, seed2 }));
}

function checkInt32(op: string, dtype: DType | undefined): void {
  if (dtype !== undefined && dtype !== 'int32') throw argError(op, 'unsupported output dtype', dtype, 'int32', "Pass dtype 'int32' (EagerFlow has no int64).");
}

/** The seed pair of a stateless op: two integers. */
function seedPair(op: string, seed: unknown): [number, number] {
  if (!Array.isArray(seed) || seed.length !== 2) throw argError(op, 'seed must be a pair of integers', showValue(seed), '[a, b]', 'Pass { seed: [a, b] }.');
  return [checkSeed(op, seed[0]), checkSeed(op, seed[1])];
}

export interface StatelessNormalOptions { seed: readonly [number, number]; mean?: TensorLike; stddev?: TensorLike; dtype?: DType }

/**
 * Normal draws that are a pure function of the seed pair (the same pair gives the same values, eager and traced).
 * @example ef.random.statelessNormal([2], { seed: [1, 2] }).arraySync(); // the same two numbers at every call
 */
function statelessNormal(shape: readonly number[], options: StatelessNormalOptions): Tensor {
  const seed = seedPair('random.statelessNormal', options?.seed);
  return tidy(() => scaled(draw(D.statelessRandomNormal, [], { shape, dtype: options.dtype ?? 'float32', seed }), options.mean ?? 0, options.stddev ?? 1));
}

/**
 * Truncated normal draws, a pure function of the seed pair.
 * @example ef.random.statelessTruncatedNormal([2], { seed: [1, 2] }).shape.dims; // [2]
 */
function statelessTruncatedNormal(shape: readonly number[], options: StatelessNormalOptions): Tensor {
  const seed = seedPair('random.statelessTruncatedNormal', options?.seed);
  return tidy(() => scaled(draw(D.statelessTruncatedNormal, [], { shape, dtype: options.dtype ?? 'float32', seed }), options.mean ?? 0, options.stddev ?? 1));
}

/**
 * Uniform float32 draws in [minval, maxval), a pure function of the seed pair.
 * @example ef.random.statelessUniform([2], { seed: [3, 4], minval: -1, maxval: 1 }).shape.dims; // [2]
 */
function statelessUniform(shape: readonly number[], options: { seed: readonly [number, number]; minval?: number; maxval?: number; dtype?: DType }): Tensor {
  const seed = seedPair('random.statelessUniform', options?.seed);
  const lo = options.minval ?? 0, hi = options.maxval ?? 1;
  return tidy(() => {
    const u = draw(D.statelessRandomUniform, [], { shape, dtype: options.dtype ?? 'float32', seed });
    return lo === 0 && hi === 1 ? u : o.add(o.mul(u, hi - lo), lo);
  });
}

/**
 * Categorical draws, a pure function of the seed pair.
 * @example ef.random.statelessCategorical([[-Infinity, 0]], 2, { seed: [1, 1] }).arraySync(); // [[1, 1]]
 */
function statelessCategorical(logits: TensorLike, numSamples: number, options: { seed: readonly [number, number]; dtype?: DType }): Tensor {
  const seed = seedPair('random.statelessCategorical', options?.seed);
  checkInt32('random.statelessCategorical', options.dtype);
  const c = convert('random.statelessCategorical', logits, 'float32');
  return releasing([c], () => draw(S.statelessMultinomial, [c.t], { numSamples, seed }));
}

/**
 * tf.nn.dropout: zeroes entries with probability `rate` and scales the rest by 1 / (1 - rate).
 * @example ef.nn.dropout([1, 2, 3], { rate: 0 }).arraySync(); // [1, 2, 3]
 */
function dropout(x: TensorLike, options: { rate: number; noiseShape?: readonly number[]; seed?: number }): Tensor {
  const rate = options?.rate;
  if (typeof rate !== 'number' || !(rate >= 0 && rate < 1)) throw argError('nn.dropout', 'rate must be in [0, 1)', String(rate), 'a number in [0, 1)', 'Pass { rate } with 0 <= rate < 1.');
  const c = convert('nn.dropout', x, 'float32');
  return releasing([c], () => {
    if (rate === 0) return o.identity(c.t);
    const dims = options.noiseShape ?? c.t.dims;
    // Unknown dims (traced): the noise takes x's shape when the graph runs (TF's RandomUniform(Shape(x))).
    const runtime = options.noiseShape === undefined && (dims === null || dims.some((d) => d === null));
    if (!runtime && (dims === null || dims.some((d) => d === null))) throw argError('nn.dropout', 'the noise shape must be known', String(dims), 'static dims', 'Pass static noiseShape dims.');
    const [seed, seed2] = opSeeds('nn.dropout', options.seed);
    return tidy(() => {
      const noise = draw(D.randomUniform, runtime ? [c.t] : [], { shape: runtime ? [] : dims, dtype: 'float32', seed, seed2 });
      const keep = o.cast(o.greaterEqual(noise, rate), 'float32');
      return o.mul(o.mul(c.t, 1 / (1 - rate)), keep);
    });
  });
}

/**
 * tf.random.Generator: its own stream of draws from a seed (unaffected by setSeed).
 * @example
 * const g = ef.random.Generator.fromSeed(5);
 * g.normal([2]).shape.dims; // [2]
 */
export class Generator {
  private constructor(private readonly seed: number, private readonly id: number) {}

  /** A generator whose draws are a function of `seed` (two generators of one seed draw the same). */
  static fromSeed(seed: number): Generator {
    return new Generator(checkSeed('random.Generator.fromSeed', seed), newGenerator());
  }

  normal(shape: readonly number[], options: Omit<NormalOptions, 'seed'> = {}): Tensor {
    const p = { shape, dtype: options.dtype ?? 'float32', seed: this.seed, seed2: 0, generator: this.id };
    return tidy(() => scaled(draw(D.randomStandardNormal, [], p), options.mean ?? 0, options.stddev ?? 1));
  }

  uniform(shape: readonly number[], options: Omit<UniformOptions, 'seed'> = {}): Tensor {
    return uniformFrom('random.Generator.uniform', shape, options, { seed: this.seed, seed2: 0, generator: this.id });
  }
}

export const RANDOM_COMPOSITES = {
  normal: composite(['random.normal'], normal),
  uniform: composite(['random.uniform'], uniform),
  truncatedNormal: composite(['random.truncatedNormal'], truncatedNormal),
  categorical: composite(['random.categorical'], categorical),
  shuffle: composite(['random.shuffle'], shuffle),
  statelessNormal: composite(['random.statelessNormal'], statelessNormal),
  statelessUniform: composite(['random.statelessUniform'], statelessUniform),
  statelessTruncatedNormal: composite(['random.statelessTruncatedNormal'], statelessTruncatedNormal),
  statelessCategorical: composite(['random.statelessCategorical'], statelessCategorical),
  dropout: composite(['nn.dropout'], dropout),
};
