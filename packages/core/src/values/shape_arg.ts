// Shape arguments as TensorFlow reads them: ints, a TensorShape, or int32 tensors (one vector, or scalars among the ints).
import { Tensor } from './tensor';
import { TensorShape } from './shape';
import { describe } from './dtype';
import { argError } from '../errors/error_toolkit';

/** One dim: an integer or a scalar int32 tensor. */
export type DimLike = number | Tensor;
/** A shape argument: dims, a TensorShape (`t.shape`), or a 1-D int32 tensor (`ef.shape(t)`). */
export type ShapeLike = readonly DimLike[] | TensorShape | Tensor;

/** Whether `v` is a shape argument that is not a plain array of numbers (a TensorShape, a tensor, or tensors among the dims). */
export function isTensorShapeArg(v: unknown): boolean {
  return v instanceof TensorShape || v instanceof Tensor || (Array.isArray(v) && v.some((d) => d instanceof Tensor));
}

/**
 * The errors of dims that exist only at run time: an op reading its params reports any other bad param first, as
 * it would eagerly (where the same tensor's dims are readable), so eager and traced calls fail alike.
 */
export const symbolicDimsErrors = new WeakSet<Error>();

/** Whether the dims of a shape argument exist only at run time (a symbolic tensor inside a trace). */
export function hasSymbolicDims(v: unknown): boolean {
  if (v instanceof Tensor) return v.isSymbolic;
  return Array.isArray(v) && v.some((d) => d instanceof Tensor && d.isSymbolic);
}

function intValuesOf(op: string, what: string, t: Tensor, rank: 0 | 1): number[] {
  if (t.dtype !== 'int32') {
    throw argError(op, `${what} must hold int32 values`, `a ${t.dtype} tensor`, 'an int32 tensor', `Cast it first: ef.cast(x, 'int32').`);
  }
  if (t.rank !== rank) {
    throw argError(op, `${what} must be ${rank === 0 ? 'a scalar tensor among the dims' : 'a 1-D tensor'}`, `a tensor of shape ${t.shape.toString()}`, rank === 0 ? 'shape ()' : 'a rank-1 int32 tensor', rank === 0 ? 'Pass one scalar per dim, or one vector of dims.' : 'Pass the dims as a vector.');
  }
  if (t.isSymbolic) {
    const e = argError(op, `${what} holds a symbolic tensor whose value is known only when the graph runs`, `a symbolic tensor '${t._sym?.label ?? '?'}'`, 'dims known while tracing', 'Pass the dims as numbers (t.shape gives the static ones), or use an op that takes a run-time shape: ef.reshape(x, ef.shape(y)) reshapes to a run-time shape.');
    symbolicDimsErrors.add(e);
    throw e;
  }
  return Array.from(t.dataSync() as Int32Array);
}

/**
 * The integer dims of a shape argument: numbers, a fully defined TensorShape, eager int32 tensors
 * (scalars among the dims, or one vector) read by value. An integer alone is a 1-D shape when `scalar`
 * (TF's `tf.zeros(2)`).
 */
export function dimsOf(op: string, what: string, v: unknown, scalar = false): number[] {
  if (scalar && typeof v === 'number') v = [v];
  if (v instanceof TensorShape) {
    if (!v.isFullyDefined()) {
      throw argError(op, `cannot use a partially known TensorShape as ${what}`, v.toString(), 'a fully defined shape', 'Use ef.shape(t) for the run-time shape, or give every dim.');
    }
    return v.dims as number[];
  }
  if (v instanceof Tensor) return intValuesOf(op, what, v, 1);
  if (!Array.isArray(v)) {
    throw argError(op, `${what} must be an array of integers`, describe(v), 'an array of integers, a TensorShape or an int32 tensor', 'Pass e.g. [2, 3].');
  }
  const out: number[] = [];
  for (const d of v as unknown[]) {
    if (d instanceof Tensor) out.push(intValuesOf(op, what, d, 0)[0]);
    else if (typeof d === 'number' && Number.isInteger(d)) out.push(d);
    else {
      const shown = v.length <= 16 ? `[${v.map((x: unknown) => (typeof x === 'number' ? String(x) : describe(x))).join(', ')}]` : describe(v);
      throw argError(op, `${what} must be an array of integers`, shown, 'an array of integers', 'Pass e.g. [2, 3].');
    }
  }
  return out;
}
