// random: normal, uniform, uniform int and truncated normal draws, stateful (TF's seed rules) and stateless (a seed pair).
// Composites: tf.random's public ops (seeded by TF's rules), the stateless family, ef.random.Generator, and nn.dropout.
import type { Info, Kernels } from '../../backend/backend';
import { defineOp } from '../define_op';
import type { DType } from '../../values/dtype';
import { showValue } from '../../values/dtype';
import type { AVal, Params, Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { argError, checkDimsValid, checkSize } from '../check';
import { typeError } from '../../errors/error_toolkit';
import { ReadScope, SpecNode, WriteScope, attr } from '../graphdef_spec';
import { bind } from '../bind';
import { tensorOfShapeNode, writeShapeOf } from '../array/reshape';
import { PhiloxStream } from './philox';
import { checkSeed, newGenerator, opSeeds, readSeedPair, statelessStream, streamFor } from './seeds';
import { composite, composites } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { releasing } from '../op_builder';
import { tidy } from '../../backend/memory';
import * as o from '../ops';
import * as S from './sampling';

/** Params of a stateful draw: (seed, seed2) as TF's kernels take them; (0, 0) = fresh entropy per run. */
export interface DrawParams {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly seed: number;
  readonly seed2: number;
  /** Set for draws of an ef.random.Generator (its own counter). */
  readonly generator?: number;
  /** random_uniform_int's bounds [minval, maxval). */
  readonly minval?: number;
  readonly maxval?: number;
}

/** Params of a stateless draw: a pure function of the seed pair. */
export interface StatelessParams {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly seed: readonly [number, number];
}

type Draw = (s: PhiloxStream) => number;

/** `n` draws into a float32 buffer. */
function sample(s: PhiloxStream, n: number, draw: Draw): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = draw(s);
  return out;
}

const sizeOf = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

function checkShape(op: string, p: { shape: readonly number[]; dtype: DType }, dtypes: readonly DType[]): AVal[] {
  checkDimsValid(op, p.shape);
  checkSize(op, p.shape);
  if (!dtypes.includes(p.dtype)) throw argError(op, 'unsupported dtype', p.dtype, dtypes.join(' or '), `Pass dtype '${dtypes[0]}'.`);
  return [{ dtype: p.dtype, shape: [...p.shape] }];
}

const bindP = (p: Primitive<DrawParams> | Primitive<StatelessParams>, params: object): Tensor[] => bind(p as unknown as Primitive, [], params as Params);

/**
 * A stateful float draw: never folded, merged or dropped, so every run (eager call, traced call) draws anew.
 * An optional input gives the shape at run time (its shape; traced with unknown dims, e.g. dropout's noise):
 * then TF's op reads Shape(like).
 */
function stateful<const N extends string>(name: N, op: string, tfOp: string, draw: Draw) {
  const rec = defineOp({
    name,
    effect: 'stateful',
    infer: (ins: AVal[], p: DrawParams) => (ins.length === 1 ? checkLike(op, ins[0], p) : checkShape(op, p, ['float32'])),
    impl: (k: Kernels, ins: Info[], p: DrawParams) => {
      const shape = ins.length === 1 ? ins[0].shape : p.shape;
      return [k.upload(sample(streamFor(p.seed, p.seed2, p.generator), sizeOf(shape), draw), [...shape], 'float32')];
    },
    tf: {
      ops: [tfOp],
      write: (s: WriteScope, n: SpecNode, ins: string[]) => {
        const shape = ins.length === 1 ? writeShapeOf(s, ins[0], n.inputs[0]) : s.ints('shape', (n.params as DrawParams).shape);
        return [s.add(tfOp, tfOp, [shape], seedAttrs(n.params as DrawParams))];
      },
      read: (r: ReadScope): Tensor[] => {
        const seeds = { seed: r.node.int('seed', 0), seed2: r.node.int('seed2', 0) };
        const like = tensorOfShapeNode(r, r.producer(0));
        if (like === null) return bindP(rec, { ...readShape(r), ...seeds });
        return bind(rec as unknown as Primitive, [like], { shape: [], dtype: r.node.dtype('dtype', 'float32'), ...seeds } as Params);
      },
    },
  });
  return rec;
}

/** A draw shaped like its input (run-time shape): float32 only. */
function checkLike(op: string, like: AVal, p: DrawParams): AVal[] {
  if (p.dtype !== 'float32') throw argError(op, 'unsupported dtype', p.dtype, 'float32', "Pass dtype 'float32'.");
  return [{ dtype: 'float32', shape: like.shape === null ? null : [...like.shape] }];
}

function seedAttrs(p: DrawParams) {
  return { seed: attr.int(p.seed), seed2: attr.int(p.seed2), dtype: attr.type(p.dtype), T: attr.type('int32') };
}

function readShape(r: ReadScope): { shape: number[]; dtype: DType } {
  r.arity(1, 3);
  const shape = r.numbers(0, 'the shape');
  r.checkSize(shape);
  return { shape, dtype: r.node.dtype(r.node.has('Tout') ? 'Tout' : 'dtype', 'float32') };
}

/** tf.random.normal's kernel: standard normal draws (mean and stddev are applied by the public op). */
export const randomStandardNormal = stateful('random_standard_normal', 'random.normal', 'RandomStandardNormal', (s) => s.normal());
/** tf.random.uniform's float kernel: [0, 1) draws. */
export const randomUniform = stateful('random_uniform', 'random.uniform', 'RandomUniform', (s) => s.uniform());
/** tf.random.truncated_normal's kernel: standard normal draws redrawn outside [-2, 2]. */
export const truncatedNormal = stateful('truncated_normal', 'random.truncatedNormal', 'TruncatedNormal', (s) => s.truncatedNormal());

/** tf.random.uniform with an int32 dtype: integers in [minval, maxval). */
export const randomUniformInt = defineOp({
  name: 'random_uniform_int',
  effect: 'stateful',
  infer(_ins: AVal[], p: DrawParams) {
    const lo = p.minval ?? 0, hi = p.maxval ?? 0;
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || !(hi > lo) || hi - lo > 0xffffffff) {
      throw argError('random.uniform', 'an int32 uniform needs integer bounds with minval < maxval', `minval ${lo}, maxval ${hi}`, 'integers with minval < maxval', 'Pass an integer maxval greater than minval.');
    }
    return checkShape('random.uniform', p, ['int32']);
  },
  impl(k, _ins, p: DrawParams) {
    const s = streamFor(p.seed, p.seed2, p.generator);
    const out = new Int32Array(sizeOf(p.shape));
    for (let i = 0; i < out.length; i++) out[i] = s.int(p.minval as number, p.maxval as number);
    return [k.upload(out, [...p.shape], 'int32')];
  },
  tf: { ops: ['RandomUniformInt'], write: writeUniformInt, read: readUniformInt },
});

function writeUniformInt(s: WriteScope, n: SpecNode): string[] {
  const p = n.params as DrawParams;
  const ins = [s.ints('shape', p.shape), s.ints('minval', [p.minval as number], []), s.ints('maxval', [p.maxval as number], [])];
  return [s.add('RandomUniformInt', 'RandomUniformInt', ins, { seed: attr.int(p.seed), seed2: attr.int(p.seed2), Tout: attr.type('int32'), T: attr.type('int32') })];
}

function readUniformInt(r: ReadScope): Tensor[] {
  r.arity(3);
  const params = { ...readShape(r), minval: r.number(1, 'minval'), maxval: r.number(2, 'maxval'), seed: r.node.int('seed', 0), seed2: r.node.int('seed2', 0) };
  return bindP(randomUniformInt, params);
}

/** A stateless float draw: pure (the same seed pair gives the same values, eager and traced). */
function stateless<const N extends string>(name: N, op: string, tfOp: string, draw: Draw) {
  const rec = defineOp({
    name,
    infer: (_ins: AVal[], p: StatelessParams) => checkShape(op, p, ['float32']),
    impl: (k: Kernels, _ins: Info[], p: StatelessParams) => [k.upload(sample(statelessStream(p.seed), sizeOf(p.shape), draw), [...p.shape], 'float32')],
    tf: {
      ops: [tfOp],
      write: (s: WriteScope, n: SpecNode) => {
        const p = n.params as StatelessParams;
        return [s.add(tfOp, tfOp, [s.ints('shape', p.shape), s.ints('seed', p.seed)], { dtype: attr.type(p.dtype), T: attr.type('int32'), Tseed: attr.type('int32') })];
      },
      read: (r: ReadScope): Tensor[] => bindP(rec, { ...readShape(r), seed: readSeedPair(r, 1) }),
    },
  });
  return rec;
}

export const statelessRandomNormal = stateless('stateless_random_normal', 'random.statelessNormal', 'StatelessRandomNormal', (s) => s.normal());
export const statelessRandomUniform = stateless('stateless_random_uniform', 'random.statelessUniform', 'StatelessRandomUniform', (s) => s.uniform());
export const statelessTruncatedNormal = stateless('stateless_truncated_normal', 'random.statelessTruncatedNormal', 'StatelessTruncatedNormal', (s) => s.truncatedNormal());

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
  return tidy(() => scaled(draw(randomStandardNormal, [], { shape, dtype: options.dtype ?? 'float32', seed, seed2 }), options.mean ?? 0, options.stddev ?? 1));
}

/**
 * Normal draws redrawn beyond two standard deviations.
 * @example ef.random.truncatedNormal([4], { seed: 1 }).shape.dims; // [4]
 */
function truncatedNormalOp(shape: readonly number[], options: NormalOptions = {}): Tensor {
  const [seed, seed2] = opSeeds('random.truncatedNormal', options.seed);
  return tidy(() => scaled(draw(truncatedNormal, [], { shape, dtype: options.dtype ?? 'float32', seed, seed2 }), options.mean ?? 0, options.stddev ?? 1));
}

/** Uniform draws of one stream (shared by random.uniform and Generator.uniform). */
function uniformFrom(op: string, shape: readonly number[], options: UniformOptions, seeds: object): Tensor {
  const dtype = options.dtype ?? 'float32';
  const wide = dtype as string;
  if (wide === 'int64' || wide === 'float64') {
    // API.md section 10: no 64-bit dtypes; TF's int64 draw is an int32 one here.
    throw typeError(op, `dtype ${wide} is not supported (tfjs has no 64-bit dtypes)`, wide, wide === 'int64' ? 'int32' : 'float32', `Pass dtype '${wide === 'int64' ? 'int32' : 'float32'}'.`);
  }
  if (dtype === 'int32') {
    if (options.maxval === undefined) throw argError(op, 'an int32 uniform needs maxval', 'no maxval', 'an integer maxval', 'Pass { maxval } (and minval, default 0).');
    return draw(randomUniformInt, [], { shape, dtype, minval: options.minval ?? 0, maxval: options.maxval, ...seeds });
  }
  const lo = options.minval ?? 0, hi = options.maxval ?? 1;
  return tidy(() => {
    const u = draw(randomUniform, [], { shape, dtype, ...seeds });
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
  if (!Array.isArray(seed) || seed.length !== 2) throw argError(op, 'seed must be a pair of integers', showValue(seed), '[a, b]', 'Pass the seed pair after the shape, as TF: (shape, [a, b], {...}).');
  return [checkSeed(op, seed[0]), checkSeed(op, seed[1])];
}

type SeedArg = readonly [number, number];
export interface DropoutOptions { rate: number; noiseShape?: readonly number[]; seed?: number }
/**
 * TF's positional form `(shape, seed, {...options})`, or the older `(shape, {seed, ...options})`: the options with
 * the seed pair in them.
 */
function statelessArgs<O extends object>(seedOrOptions: SeedArg | (O & { seed: SeedArg }), options?: O): O & { seed: SeedArg } {
  if (Array.isArray(seedOrOptions)) return { ...(options ?? ({} as O)), seed: seedOrOptions as SeedArg };
  return seedOrOptions as O & { seed: SeedArg };
}

export interface StatelessNormalOptions { seed: readonly [number, number]; mean?: TensorLike; stddev?: TensorLike; dtype?: DType }
type StatelessNormalRest = Omit<StatelessNormalOptions, 'seed'>;
type StatelessUniformRest = { minval?: number; maxval?: number; dtype?: DType };

/**
 * Normal draws that are a pure function of the seed pair (the same pair gives the same values, eager and traced).
 * @example ef.random.statelessNormal([2], [1, 2], { stddev: 2 }).shape.dims; // [2]
 */
function statelessNormal(shape: readonly number[], seedOrOptions: SeedArg | StatelessNormalOptions, rest?: StatelessNormalRest): Tensor {
  const options = statelessArgs<StatelessNormalRest>(seedOrOptions, rest);
  const seed = seedPair('random.statelessNormal', options?.seed);
  return tidy(() => scaled(draw(statelessRandomNormal, [], { shape, dtype: options.dtype ?? 'float32', seed }), options.mean ?? 0, options.stddev ?? 1));
}

/**
 * Truncated normal draws, a pure function of the seed pair.
 * @example ef.random.statelessTruncatedNormal([2], [1, 2]).shape.dims; // [2]
 */
function statelessTruncatedNormalOp(shape: readonly number[], seedOrOptions: SeedArg | StatelessNormalOptions, rest?: StatelessNormalRest): Tensor {
  const options = statelessArgs<StatelessNormalRest>(seedOrOptions, rest);
  const seed = seedPair('random.statelessTruncatedNormal', options?.seed);
  return tidy(() => scaled(draw(statelessTruncatedNormal, [], { shape, dtype: options.dtype ?? 'float32', seed }), options.mean ?? 0, options.stddev ?? 1));
}

/**
 * Uniform float32 draws in [minval, maxval), a pure function of the seed pair.
 * @example ef.random.statelessUniform([2], [3, 4], { minval: -1, maxval: 1 }).shape.dims; // [2]
 */
function statelessUniform(shape: readonly number[], seedOrOptions: SeedArg | (StatelessUniformRest & { seed: SeedArg }), rest?: StatelessUniformRest): Tensor {
  const options = statelessArgs<StatelessUniformRest>(seedOrOptions, rest);
  const seed = seedPair('random.statelessUniform', options?.seed);
  const lo = options.minval ?? 0, hi = options.maxval ?? 1;
  return tidy(() => {
    const u = draw(statelessRandomUniform, [], { shape, dtype: options.dtype ?? 'float32', seed });
    return lo === 0 && hi === 1 ? u : o.add(o.mul(u, hi - lo), lo);
  });
}

/**
 * Categorical draws, a pure function of the seed pair.
 * @example ef.random.statelessCategorical([[-Infinity, 0]], 2, [1, 1]).arraySync(); // [[1, 1]]
 */
function statelessCategorical(logits: TensorLike, numSamples: number, seedOrOptions: SeedArg | { seed: SeedArg; dtype?: DType }, rest?: { dtype?: DType }): Tensor {
  const options = statelessArgs<{ dtype?: DType }>(seedOrOptions, rest);
  const seed = seedPair('random.statelessCategorical', options?.seed);
  checkInt32('random.statelessCategorical', options.dtype);
  const c = convert('random.statelessCategorical', logits, 'float32');
  return releasing([c], () => draw(S.statelessMultinomial, [c.t], { numSamples, seed }));
}

/**
 * tf.nn.dropout(x, rate, {noiseShape, seed}): zeroes entries with probability `rate` and scales the rest by
 * 1 / (1 - rate). The older `(x, {rate, noiseShape, seed})` form is accepted too.
 * @example ef.nn.dropout([1, 2, 3], 0).arraySync(); // [1, 2, 3]
 */
function dropout(x: TensorLike, rateOrOptions: number | DropoutOptions, rest?: Omit<DropoutOptions, 'rate'>): Tensor {
  const options: DropoutOptions = typeof rateOrOptions === 'number' ? { ...(rest ?? {}), rate: rateOrOptions } : rateOrOptions;
  const rate = options?.rate;
  if (typeof rate !== 'number' || !(rate >= 0 && rate < 1)) throw argError('nn.dropout', 'rate must be in [0, 1)', String(rate), 'a number in [0, 1)', 'Pass the rate after x, as TF: ef.nn.dropout(x, 0.5), with 0 <= rate < 1.');
  const c = convert('nn.dropout', x, 'float32');
  return releasing([c], () => {
    if (rate === 0) return o.identity(c.t);
    const dims = options.noiseShape ?? c.t.dims;
    // Unknown dims (traced): the noise takes x's shape when the graph runs (TF's RandomUniform(Shape(x))).
    const runtime = options.noiseShape === undefined && (dims === null || dims.some((d) => d === null));
    if (!runtime && (dims === null || dims.some((d) => d === null))) throw argError('nn.dropout', 'the noise shape must be known', String(dims), 'static dims', 'Pass static noiseShape dims.');
    const [seed, seed2] = opSeeds('nn.dropout', options.seed);
    return tidy(() => {
      const noise = draw(randomUniform, runtime ? [c.t] : [], { shape: runtime ? [] : dims, dtype: 'float32', seed, seed2 });
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
    return tidy(() => scaled(draw(randomStandardNormal, [], p), options.mean ?? 0, options.stddev ?? 1));
  }

  uniform(shape: readonly number[], options: Omit<UniformOptions, 'seed'> = {}): Tensor {
    return uniformFrom('random.Generator.uniform', shape, options, { seed: this.seed, seed2: 0, generator: this.id });
  }
}

export const RANDOM_COMPOSITES = {
  ...composites('random', {
    normal, uniform, truncatedNormal: truncatedNormalOp, categorical, shuffle, statelessNormal, statelessUniform,
    statelessTruncatedNormal: statelessTruncatedNormalOp, statelessCategorical,
  }),
  dropout: composite(['nn.dropout'], dropout),
};
