// random: normal, uniform, uniform int and truncated normal draws, stateful (TF's seed rules) and stateless (a seed pair).
import type { Info, Kernels } from '../../backend/backend';
import type { DType } from '../../values/dtype';
import type { AVal, Params, Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { argError, checkDimsValid, checkSize } from '../check';
import { ReadScope, SpecNode, WriteScope, attr } from '../graphdef_spec';
import { bind } from '../bind';
import { tensorOfShapeNode, writeShapeOf } from '../array/reshape';
import { PhiloxStream } from './philox';
import { statelessStream, streamFor } from './seeds';

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
function stateful(name: string, op: string, tfOp: string, draw: Draw) {
  const rec = {
    name,
    effect: 'stateful',
    infer: (ins: AVal[], p: DrawParams) => (ins.length === 1 ? checkLike(op, ins[0], p) : checkShape(op, p, ['float32'])),
    impl: (k: Kernels, ins: Info[], p: DrawParams) => {
      const shape = ins.length === 1 ? ins[0].shape : p.shape;
      return [k.upload(sample(streamFor(p.seed, p.seed2, p.generator), sizeOf(shape), draw), [...shape], 'float32')];
    },
    vjp: null,
    saves: 'none',
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
  } satisfies Primitive<DrawParams>;
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
export const randomUniformInt = {
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
  vjp: null,
  saves: 'none',
  tf: { ops: ['RandomUniformInt'], write: writeUniformInt, read: readUniformInt },
} satisfies Primitive<DrawParams>;

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
function stateless(name: string, op: string, tfOp: string, draw: Draw) {
  const rec = {
    name,
    effect: 'pure',
    infer: (_ins: AVal[], p: StatelessParams) => checkShape(op, p, ['float32']),
    impl: (k: Kernels, _ins: Info[], p: StatelessParams) => [k.upload(sample(statelessStream(p.seed), sizeOf(p.shape), draw), [...p.shape], 'float32')],
    vjp: null,
    saves: 'none',
    tf: {
      ops: [tfOp],
      write: (s: WriteScope, n: SpecNode) => {
        const p = n.params as StatelessParams;
        return [s.add(tfOp, tfOp, [s.ints('shape', p.shape), s.ints('seed', p.seed)], { dtype: attr.type(p.dtype), T: attr.type('int32'), Tseed: attr.type('int32') })];
      },
      read: (r: ReadScope): Tensor[] => bindP(rec, { ...readShape(r), seed: readSeedPair(r, 1) }),
    },
  } satisfies Primitive<StatelessParams>;
  return rec;
}

/** The seed pair of a stateless node (input k, a Const of two ints). */
export function readSeedPair(r: ReadScope, k: number): [number, number] {
  const seed = r.numbers(k, 'the seed');
  if (seed.length !== 2) throw r.error('the seed must hold two integers', `[${seed.join(', ')}]`, 'a seed of shape [2]', 'Fix the seed input');
  return [seed[0], seed[1]];
}

export const statelessRandomNormal = stateless('stateless_random_normal', 'random.statelessNormal', 'StatelessRandomNormal', (s) => s.normal());
export const statelessRandomUniform = stateless('stateless_random_uniform', 'random.statelessUniform', 'StatelessRandomUniform', (s) => s.uniform());
export const statelessTruncatedNormal = stateless('stateless_truncated_normal', 'random.statelessTruncatedNormal', 'StatelessTruncatedNormal', (s) => s.truncatedNormal());
