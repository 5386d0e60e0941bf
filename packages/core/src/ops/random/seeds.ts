// TensorFlow's seed rules: the global seed (setSeed), op seeds, and the per-(seed, seed2) counters that make calls differ.
import { argError } from '../check';
import type { ReadScope } from '../graphdef_spec';
import { PhiloxStream } from './philox';

/** tf.random's DEFAULT_GRAPH_SEED: the global seed used when only an op seed is given. */
const DEFAULT_GRAPH_SEED = 87654321;
/** The largest int64 TF folds a (0, 0) pair to: here an int32, since seeds travel as int32 attrs. */
const MAXINT = 0x7fffffff;

let globalSeed: number | null = null;
/** TF's internal operation seed: the op seed of an unseeded op when a global seed is set. */
let opCounter = 0;
/** How many draws each (seed, seed2) pair has made since the last setSeed (TF's kernel state). */
const draws = new Map<string, number>();
/** Generator objects' own draw counters, by generator id (setSeed leaves them alone, as in TF). */
const generators = new Map<number, number>();
let nextGenerator = 1;

/** Checks a user seed (an integer) and folds it to int32 (seeds travel as int32 attrs; different seeds rarely collide). */
export function checkSeed(op: string, seed: unknown): number {
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
    throw argError(op, 'seed must be an integer', String(seed), 'an integer', 'Pass an integer seed, or leave it out.');
  }
  return (seed | 0) === seed ? seed : ((seed % 0x100000000) ^ Math.floor(seed / 0x100000000)) | 0;
}

/**
 * Sets TF's global seed: afterwards the program's random ops are reproducible (their op seeds come
 * from a counter reset here, and every (seed, seed2) pair starts its sequence again).
 * @example
 * ef.random.setSeed(1);
 * const a = ef.random.uniform([2]).arraySync();
 * ef.random.setSeed(1);
 * ef.random.uniform([2]).arraySync(); // the same values as a
 */
export function setSeed(seed: number | null): void {
  globalSeed = seed === null ? null : checkSeed('random.setSeed', seed);
  opCounter = 0;
  draws.clear();
}

/**
 * TF's get_seed: the (seed, seed2) pair of one op from the global seed and the op seed. (0, 0) means
 * nondeterministic: the op draws from fresh entropy at every run.
 */
export function opSeeds(op: string, seed: number | undefined): [number, number] {
  const s = seed === undefined ? undefined : checkSeed(op, seed);
  if (globalSeed === null) return s === undefined ? [0, 0] : [DEFAULT_GRAPH_SEED, s];
  const pair: [number, number] = [globalSeed, s ?? ++opCounter];
  return pair[0] === 0 && pair[1] === 0 ? [0, MAXINT] : pair;
}

/** A fresh uint32 of entropy (unseeded programs differ run to run). */
const entropy = (): number => Math.floor(Math.random() * 0x100000000) >>> 0;

/**
 * The stream of one run of a stateful random node: its (seed, seed2) pair's next sequence, or the
 * generator's next one, or fresh entropy when unseeded.
 */
export function streamFor(seed: number, seed2: number, generator?: number): PhiloxStream {
  if (generator !== undefined) {
    const n = generators.get(generator) ?? 0;
    generators.set(generator, n + 1);
    return new PhiloxStream(seed, seed2 ^ 0x6e6e6e6e, n);
  }
  if (seed === 0 && seed2 === 0) return new PhiloxStream(entropy(), entropy(), entropy());
  const key = `${seed},${seed2}`;
  const n = draws.get(key) ?? 0;
  draws.set(key, n + 1);
  return new PhiloxStream(seed, seed2, n);
}

/** The stream of a stateless op: a pure function of its seed pair. */
export const statelessStream = (seed: readonly [number, number]): PhiloxStream => new PhiloxStream(seed[0], seed[1], 0x5747);

/** A new generator's id (its own draw counter). */
export function newGenerator(): number {
  const id = nextGenerator++;
  generators.set(id, 0);
  return id;
}

/** A stateless op's seed input read from a GraphDef (input k): the pair of int32s TF's stateless kernels take. */
export function readSeedPair(r: ReadScope, k: number): [number, number] {
  const seed = r.numbers(k, 'the seed');
  if (seed.length !== 2) throw r.error('the seed must hold two integers', `[${seed.join(', ')}]`, 'a seed of shape [2]', 'Fix the seed input');
  return [seed[0], seed[1]];
}
