// TensorShape: static, possibly partial shapes (unknown dims and unknown rank), and broadcasting.
import { argError, typeError } from '../errors/error_toolkit';

/** A list of dims where `null` is an unknown dim; `null` for the whole list is unknown rank. */
export type Dims = (number | null)[] | null;

/**
 * A static shape, possibly partially known, printed like TensorFlow: `(None, 3)`. Like TF's
 * `TensorShape` it indexes (`shape[0]`, `shape[-1]`: a dim, `null` when unknown), iterates, has
 * `length` and `rank`, and converts to a 1-D int32 tensor wherever an op reads a tensor
 * (`ef.reduceProd(t.shape)`) or a shape (`ef.zeros(t.shape)`). A shape of unknown rank gives `null`
 * at every index, as TF's does.
 * @example
 * const s = ef.zeros([3, 2, 4]).shape;
 * [s[0], s[-1], s.length, [...s].join('x')]; // [3, 4, 3, "3x2x4"]
 */
export class TensorShape implements Iterable<number | null> {
  readonly dims: (number | null)[] | null;
  /** The dim at an index; a negative index counts from the end (TF's `shape[-1]`). */
  readonly [index: number]: number | null;

  constructor(dims: Dims | TensorShape | undefined) {
    if (dims instanceof TensorShape) {
      this.dims = dims.dims === null ? null : dims.dims.slice();
      return;
    }
    if (dims === null || dims === undefined) {
      this.dims = null;
      return;
    }
    if (!Array.isArray(dims)) {
      throw typeError('TensorShape', 'dims must be an array or null', typeof dims, 'an array of dims or null', 'Pass e.g. [2, null].');
    }
    for (const d of dims) {
      if (d !== null && !(Number.isInteger(d) && d >= 0)) {
        throw typeError('TensorShape', 'every dim must be a non-negative integer or null', `${String(d)} in [${dims.join(', ')}]`, 'integers >= 0 or null', 'Use null for an unknown dim.');
      }
    }
    this.dims = dims.slice();
  }

  static unknown(): TensorShape {
    return new TensorShape(null);
  }

  get rank(): number | null {
    return this.dims === null ? null : this.dims.length;
  }

  /** The rank (TF's `len(shape)`); throws for an unknown rank, as TF does. */
  get length(): number {
    if (this.dims === null) throw argError('TensorShape.length', 'the length of a shape of unknown rank is not defined', 'a shape of unknown rank', 'a known rank', 'Check shape.rank (null when unknown) first.');
    return this.dims.length;
  }

  /** The dims in order (TF iterates a TensorShape); throws for an unknown rank, as TF does. */
  *[Symbol.iterator](): Iterator<number | null> {
    if (this.dims === null) throw argError('TensorShape', 'cannot iterate over a shape with unknown rank', 'a shape of unknown rank', 'a known rank', 'Check shape.rank (null when unknown) first.');
    yield* this.dims;
  }

  isFullyDefined(): boolean {
    return this.dims !== null && this.dims.every((d) => d !== null);
  }

  /** Number of elements, or null when not fully known. */
  numElements(): number | null {
    if (!this.isFullyDefined()) return null;
    return (this.dims as number[]).reduce((a, b) => a * b, 1);
  }

  isCompatibleWith(other: TensorShape | Dims): boolean {
    const o = other instanceof TensorShape ? other : new TensorShape(other);
    if (this.dims === null || o.dims === null) return true;
    if (this.dims.length !== o.dims.length) return false;
    return this.dims.every((d, i) => d === null || o.dims![i] === null || d === o.dims![i]);
  }

  /** The most specific shape compatible with both (used to refine: setShape). */
  mergeWith(other: TensorShape): TensorShape {
    if (!this.isCompatibleWith(other)) {
      throw typeError('TensorShape', `shapes ${this.toString()} and ${other.toString()} are not compatible`, other.toString(), `a shape compatible with ${this.toString()}`, 'Merge only shapes that agree on every known dim.');
    }
    if (this.dims === null) return new TensorShape(other);
    if (other.dims === null) return new TensorShape(this);
    return new TensorShape(this.dims.map((d, i) => d ?? other.dims![i]));
  }

  /** The most specific common supertype (reduceRetracing): differing dims -> null, differing rank -> unknown. */
  mostSpecificCommonSupertype(other: TensorShape): TensorShape {
    if (this.dims === null || other.dims === null || this.dims.length !== other.dims.length) {
      return TensorShape.unknown();
    }
    return new TensorShape(this.dims.map((d, i) => (d === other.dims![i] ? d : null)));
  }

  asList(): (number | null)[] {
    if (this.dims === null) {
      throw argError('TensorShape.asList', 'as_list() is not defined on an unknown TensorShape', 'a shape of unknown rank', 'a known rank', 'Use setShape or ensureShape to give a rank.');
    }
    return this.dims.slice();
  }

  equals(other: TensorShape | Dims): boolean {
    const o = other instanceof TensorShape ? other : new TensorShape(other);
    if (this.dims === null || o.dims === null) return this.dims === o.dims;
    return this.dims.length === o.dims.length && this.dims.every((d, i) => d === o.dims![i]);
  }

  toString(): string {
    if (this.dims === null) return '<unknown>';
    const parts = this.dims.map((d) => (d === null ? 'None' : String(d)));
    return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `TensorShape(${this.toString()})`;
  }
}

/**
 * Index getters on the prototype (no per-shape cost: shapes are made on hot paths): `shape[i]` for
 * 0 <= i < MAX_INDEXED_RANK and `shape[-k]`; an unknown rank answers null at every index, as TF's `TensorShape(None)[k]`.
 */
const MAX_INDEXED_RANK = 64;
for (let i = 0; i < MAX_INDEXED_RANK; i++) {
  Object.defineProperty(TensorShape.prototype, i, {
    get(this: TensorShape) {
      return this.dims === null ? null : this.dims[i];
    },
    enumerable: false,
  });
  Object.defineProperty(TensorShape.prototype, -(i + 1), {
    get(this: TensorShape) {
      const d = this.dims;
      return d === null ? null : d.length > i ? d[d.length - 1 - i] : undefined;
    },
    enumerable: false,
  });
}

/** Formats dims compactly for error messages: [2,3], [?,3], <unknown>. */
export function dimsToString(dims: Dims): string {
  if (dims === null) return '<unknown rank>';
  return `[${dims.map((d) => (d === null ? '?' : d)).join(',')}]`;
}

/**
 * Broadcasts two static shapes with NumPy/TensorFlow rules; returns null when incompatible.
 * Unknown dims broadcast to unknown unless the other side fixes them.
 */
export function broadcastDims(a: Dims, b: Dims): Dims | undefined {
  if (a === null || b === null) return null;
  const n = Math.max(a.length, b.length);
  const out: (number | null)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = i < n - a.length ? 1 : a[i - (n - a.length)];
    const y = i < n - b.length ? 1 : b[i - (n - b.length)];
    if (x === 1) out[i] = y;
    else if (y === 1) out[i] = x;
    else if (x === null) out[i] = y;
    else if (y === null) out[i] = x;
    else if (x === y) out[i] = x;
    else return undefined;
  }
  return out;
}

/** Resolves a possibly negative axis against a rank, or throws an InvalidArgumentError naming the op. */
export function normalizeAxis(op: string, axis: number, rank: number): number {
  if (!Number.isInteger(axis) || axis < -rank || axis >= rank) {
    throw argError(op, 'axis is out of range', `axis ${axis} for a rank-${rank} tensor`, `an integer in [${-rank}, ${rank})`, "Pass an axis inside the tensor's rank.");
  }
  return axis < 0 ? axis + rank : axis;
}
