// Shared shape/dtype checks for primitive rules; every message names the op, what it got and expected.
import { DType, describe } from '../values/dtype';
import { ResourceExhaustedError } from '../errors/errors';
import { argError, opError } from '../errors/error_toolkit';
import { Dims, broadcastDims, dimsToString } from '../values/shape';
import type { AVal } from './aval';

// The primitives' argError is the toolkit's (one error toolkit for every package).
export { argError };

/**
 * The most elements an op may create from a shape it is given (fill, range, pad, broadcastTo): past
 * it typed arrays cannot be allocated (a bare RangeError), or memory runs out.
 */
export const MAX_ELEMENTS = 2 ** 31 - 1;

/** Checks, before anything is allocated, that an op's result of `dims` is not too large. */
export function checkSize(op: string, dims: readonly (number | null)[] | null): void {
  if (dims === null) return;
  let n = 1;
  for (const d of dims) if (d !== null) n *= d;
  if (n > MAX_ELEMENTS) {
    throw opError(ResourceExhaustedError, op, `OOM when allocating a tensor of shape [${dims.map((d) => d ?? '?').join(',')}]`, `${n} elements`, `at most ${MAX_ELEMENTS}`, 'Make the shape smaller, or split the work into parts.');
  }
}

/** A target shape given as numbers must be non-negative integers (an InvalidArgumentError naming the op). */
export function checkDimsValid(op: string, dims: readonly number[]): void {
  if (!Array.isArray(dims) || dims.some((d) => !Number.isInteger(d) || d < 0)) {
    // Formatted without converting its entries: a symbolic tensor refuses a JS string conversion inside a trace.
    const got = Array.isArray(dims) ? `[${dims.map((d) => (typeof d === 'number' ? String(d) : describe(d))).join(', ')}]` : describe(dims);
    throw argError(op, 'invalid shape', got, 'non-negative integer dims', 'Fix the shape.');
  }
}

export function checkArity(op: string, inputs: AVal[], n: number): void {
  if (inputs.length !== n) {
    throw argError(op, 'wrong number of inputs', String(inputs.length), String(n), 'Pass exactly the inputs the op takes.');
  }
}

export function checkDTypes(op: string, x: AVal, allowed: readonly DType[], which = 'input'): void {
  if (!allowed.includes(x.dtype)) {
    throw argError(op, `unsupported dtype for ${which}`, x.dtype, allowed.join(' or '), `Cast it first, e.g. ef.cast(x, '${allowed[0]}').`);
  }
}

export function checkSameDType(op: string, a: AVal, b: AVal): void {
  if (a.dtype !== b.dtype) {
    throw argError(op, 'inputs must have the same dtype', `${a.dtype} and ${b.dtype}`, 'matching dtypes', `EagerFlow, like TensorFlow, never casts implicitly: use ef.cast(x, '${a.dtype}').`);
  }
}

export function broadcastOrThrow(op: string, a: Dims, b: Dims): Dims {
  const out = broadcastDims(a, b);
  if (out === undefined) {
    throw argError(op, 'incompatible shapes for broadcasting', `${dimsToString(a)} and ${dimsToString(b)}`, 'shapes whose trailing dims are equal or 1', 'Reshape or expandDims one input so the shapes broadcast.');
  }
  return out;
}

export const NUMERIC: readonly DType[] = ['float32', 'int32'];
export const FLOAT: readonly DType[] = ['float32'];
export const ALL: readonly DType[] = ['float32', 'int32', 'bool', 'string', 'complex64'];

/** Checks a static axis list against a rank, normalizing negatives. */
export function normalizeAxes(op: string, axes: readonly number[], rank: number): number[] {
  const out = axes.map((a) => {
    if (!Number.isInteger(a) || a < -rank || a >= rank) {
      throw argError(op, 'axis out of range', `axis ${typeof a === 'number' ? a : describe(a)} for a rank-${rank} tensor`, `an integer in [${-rank}, ${rank})`, 'Pass an axis inside the tensor rank.');
    }
    return a < 0 ? a + rank : a;
  });
  if (new Set(out).size !== out.length) {
    throw argError(op, 'repeated axis', `[${axes.join(', ')}]`, 'distinct axes', 'Remove the duplicate axis.');
  }
  return out;
}

/**
 * A size argument given as an int32 tensor (TF's Slice begin/size, Pad paddings): one entry (`pairs`: one
 * [before, after] row) per dim of `x`, checked on what the shapes know (now when tracing, on the values' shapes
 * when the op runs).
 */
export function checkSizeTensor(op: string, x: AVal, v: AVal, what: string, pairs = false): void {
  checkDTypes(op, v, ['int32'], what);
  const s = v.shape;
  if (s === null) return;
  const bad = pairs ? s.length !== 2 || (s[1] !== null && s[1] !== 2) : s.length !== 1;
  const r = x.shape?.length ?? null;
  if (bad || (r !== null && s[0] !== null && s[0] !== r)) {
    throw argError(op, `${what} must have one ${pairs ? 'pair' : 'entry'} per dim`, `shape ${dimsToString(s)} for an input of shape ${dimsToString(x.shape)}`, pairs ? `[${r ?? 'rank'}, 2]` : `[${r ?? 'rank'}]`, `Pass one ${pairs ? '[before, after] pair' : 'entry'} per dim.`);
  }
}

/** Dims of a result whose sizes are tensors: the rank (the input's, else the size vector's length) with unknown dims. */
export function unknownDimsOfRank(x: AVal, v: AVal): (number | null)[] | null {
  const rank = x.shape?.length ?? v.shape?.[0] ?? null;
  return rank === null ? null : new Array<number | null>(rank).fill(null);
}
