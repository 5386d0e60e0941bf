// ef.TensorArray: TF's tf.TensorArray (write/read/stack/unstack/gather/concat/size) as an immutable list of tensors.
import { DType, OutOfRangeError, TOP, Tensor, TensorLike, TensorShape, argError, asDType, convert, describe, opError, tidy, typeError } from '@eagerflow/core';

export interface TensorArrayOptions {
  /** The number of elements (default 0; with `dynamicSize` writes past the end grow it). */
  size?: number;
  dynamicSize?: boolean;
  /** Every element's shape (checked on write; `stack` of an empty array uses it). */
  elementShape?: (number | null)[] | null;
  /** Accepted for TF's signature (reads never clear here: elements are immutable tensors). */
  clearAfterRead?: boolean;
  inferShape?: boolean;
}

/**
 * TF's `tf.TensorArray`, the canonical accumulator of a loop: `write` returns a new array (use its result, as in
 * TF), `stack` gives one tensor. Its elements are tensors, so gradients flow through `write` and `stack`, and in a
 * traced function the ops it does (a JS loop unrolled: `for (let i = 0; i < n; i++) ta = ta.write(i, f(x))`) are
 * graph ops. A TensorArray is also a loop variable of `ef.whileLoop` (TF's `for i in tf.range(n): ta = ta.write(i,
 * ...)`): there it is carried as one dense `[size, ...elementShape]` tensor, `write` with a symbolic int32 index
 * is a masked update of it and `read` a gather (an index out of range raises InvalidArgumentError when the graph
 * runs); the element shape comes from `{ elementShape }`, a write before the loop, or the body's first write, and
 * with `dynamicSize` a write past the end grows it.
 * @example
 * let ta = new ef.TensorArray('float32', { size: 0, dynamicSize: true });
 * for (let i = 0; i < 3; i++) ta = ta.write(i, ef.constant([i, 1]));
 * ta.stack().arraySync(); // [[0, 1], [1, 1], [2, 1]]
 * // A loop variable of ef.whileLoop, written at the symbolic index i (TF: for i in tf.range(3): ta = ta.write(i, ...)):
 * const [, sq] = ef.whileLoop((i) => ef.less(i, 3), (i, t) => [ef.add(i, 1), t.write(i, ef.cast(ef.square(i), 'float32'))], [ef.constant(0, 'int32'), new ef.TensorArray('float32', { size: 3 })]);
 * sq.stack().arraySync(); // [0, 1, 4]
 */
export class TensorArray {
  readonly dtype: DType;
  readonly dynamicSize: boolean;
  readonly elementShape: TensorShape;
  private readonly elements: readonly (Tensor | null)[];
  /** The dense form (`[size, ...elementShape]`) carried by `ef.whileLoop`, or null for the list of elements. */
  private readonly dense: Tensor | null;

  /** `elements`: the list of elements, or (internal, used by `ef.whileLoop`) the dense `[size, ...]` tensor. */
  constructor(dtype: DType, options: TensorArrayOptions = {}, elements?: readonly (Tensor | null)[] | Tensor) {
    this.dtype = asDType(dtype, 'TensorArray');
    const size = options.size ?? 0;
    if (!Number.isInteger(size) || size < 0) throw argError('TensorArray', 'size must be a non-negative integer', describe(size), 'an integer >= 0', 'Pass { size: n }.');
    this.dynamicSize = options.dynamicSize === true;
    if (elements instanceof Tensor) {
      this.dense = elements;
      this.elements = [];
      this.elementShape = new TensorShape(elements.dims === null ? null : elements.dims.slice(1));
    } else {
      this.dense = null;
      this.elementShape = new TensorShape(options.elementShape ?? null);
      this.elements = elements ?? new Array<Tensor | null>(size).fill(null);
    }
  }

  /** The number of elements, as an int32 scalar (TF's `size()`). */
  size(): Tensor {
    if (this.dense !== null && this.dense.dims?.[0] == null) return TOP.gather(TOP.shape(this.dense), 0, 0);
    return TOP.fill([], this.length(), 'int32');
  }

  /** The number of elements, as a JS number. */
  private length(): number {
    return this.dense === null ? this.elements.length : (this.dense.dims as number[])[0];
  }

  /**
   * The array as one `[size, ...elementShape]` tensor (unwritten elements are zeros) and whether it is a new tensor
   * (not the dense form this array already holds). Used by `ef.whileLoop` to carry the array as a loop variable.
   */
  toDense(api: string, like?: Tensor): { dense: Tensor; made: boolean } {
    if (this.dense !== null) return { dense: this.dense, made: false };
    const dims = this.elementShape.dims;
    const known = this.elements.find((e): e is Tensor => e !== null);
    // The element shape: a written element's, the declared one, else (TF's inference) the first written value's.
    const full = (d: (number | null)[] | null): d is number[] => d !== null && d.every((x) => x !== null);
    const shape = known?.dims ?? (full(dims) ? dims : full(like?.dims ?? null) ? (like as Tensor).dims : null);
    if (shape === null || shape.some((d) => d === null)) {
      throw argError(api, 'a TensorArray loop variable needs a known element shape', this.elementShape.toString(), 'a full elementShape or an element written before the loop', 'Pass { elementShape: [...] } to the TensorArray');
    }
    if (this.elements.length === 0) return { dense: TOP.zeros([0, ...(shape as number[])], this.dtype), made: true };
    return { dense: tidy(() => TOP.stack(this.elements.map((e) => e ?? TOP.zeros(shape as number[], this.dtype)), 0)), made: true };
  }

  /** A new TensorArray with `value` at `index` (TF: writing an index twice is an error). */
  write(index: number | Tensor, value: TensorLike): TensorArray {
    if (this.dense !== null || isSymbolicIndex(index)) return this.writeDense('TensorArray.write', index, value);
    const i = indexOf('TensorArray.write', index);
    if (i >= this.elements.length && !this.dynamicSize) {
      throw opError(OutOfRangeError, 'TensorArray.write', 'index out of range', `index ${i}`, `an index below the size ${this.elements.length}`, 'Create it with { dynamicSize: true } to grow, or a larger size');
    }
    if (i < this.elements.length && this.elements[i] !== null) {
      throw argError('TensorArray.write', 'could not write to TensorArray index because it has already been written to', `index ${i}`, 'an index written once', 'Write each index once (TF raises too)');
    }
    const t = convert('TensorArray.write', value, this.dtype).t;
    if (t.dtype !== this.dtype) throw typeError('TensorArray.write', `value has dtype ${t.dtype}`, t.dtype, this.dtype, `Cast it: ef.cast(v, '${this.dtype}').`);
    if (!this.elementShape.isCompatibleWith(t.shape)) {
      throw argError('TensorArray.write', 'value shape does not match the element shape', t.shape.toString(), this.elementShape.toString(), 'Write elements of one shape');
    }
    const next = this.elements.slice();
    while (next.length <= i) next.push(null);
    next[i] = t;
    return new TensorArray(this.dtype, { dynamicSize: this.dynamicSize, elementShape: this.elementShape.dims }, next);
  }

  /** The element at `index`. */
  read(index: number | Tensor): Tensor {
    if (this.dense !== null || isSymbolicIndex(index)) {
      const dense = this.toDense('TensorArray.read').dense;
      const idx = denseIndex('TensorArray.read', index);
      // gather raises on an index out of range (when the graph runs, for a symbolic one).
      return tidy(() => TOP.gather(dense, idx, 0));
    }
    const i = indexOf('TensorArray.read', index);
    if (i >= this.elements.length) throw opError(OutOfRangeError, 'TensorArray.read', 'index out of range', `index ${i}`, `an index below the size ${this.elements.length}`, 'Read a written index');
    return this.elements[i] ?? this.zeros();
  }

  /** All elements stacked on a new first axis (unwritten ones are zeros, as TF's). */
  stack(): Tensor {
    if (this.dense !== null) return this.dense;
    if (this.elements.length === 0) {
      const dims = this.elementShape.dims;
      if (dims === null || dims.some((d) => d === null)) return TOP.zeros([0], this.dtype);
      return TOP.zeros([0, ...(dims as number[])], this.dtype);
    }
    return TOP.stack(this.elements.map((e) => e ?? this.zeros()), 0);
  }

  /** The elements at `indices`, stacked. */
  gather(indices: readonly number[] | Tensor): Tensor {
    if (this.dense !== null || (indices instanceof Tensor && indices.isSymbolic)) {
      const dense = this.toDense('TensorArray.gather').dense;
      return TOP.gather(dense, indices instanceof Tensor ? indices : convert('TensorArray.gather', indices as number[], 'int32').t, 0);
    }
    const idx = indices instanceof Tensor ? Array.from(indices.dataSync() as Int32Array) : indices;
    return TOP.stack(idx.map((i) => this.read(i)), 0);
  }

  /** The elements concatenated along their first axis. */
  concat(): Tensor {
    if (this.dense !== null) {
      const dims = this.dense.dims as number[];
      if (dims.length < 2) throw argError('TensorArray.concat', 'elements must have rank >= 1 to concatenate', this.elementShape.toString(), 'elements of rank >= 1', 'Use stack() for scalars');
      return TOP.reshape(this.dense, [-1, ...dims.slice(2)]);
    }
    return TOP.concat(this.elements.map((e) => e ?? this.zeros()), 0);
  }

  /** A TensorArray of `value`'s slices along its first axis. */
  unstack(value: TensorLike): TensorArray {
    const t = convert('TensorArray.unstack', value, this.dtype).t;
    const parts = TOP.unstack(t, 0) as Tensor[];
    return new TensorArray(this.dtype, { dynamicSize: this.dynamicSize, elementShape: this.elementShape.dims }, parts);
  }

  /** A TensorArray of `value` split along its first axis into pieces of `lengths`. */
  split(value: TensorLike, lengths: number[]): TensorArray {
    const t = convert('TensorArray.split', value, this.dtype).t;
    const parts = TOP.split(t, lengths, 0) as Tensor[];
    return new TensorArray(this.dtype, { dynamicSize: this.dynamicSize }, parts);
  }

  /** Whether the dense form's shape is known (a full element shape, or a written element). */
  hasDenseShape(): boolean {
    const dims = this.dense?.dims ?? this.elementShape.dims;
    return this.dense !== null || this.elements.some((e) => e !== null) || (dims !== null && dims.every((d) => d !== null));
  }

  /** This array with the element shape `dims` (learned from a write in a loop body: TF's shape inference). */
  withElementShape(dims: (number | null)[] | null): TensorArray {
    if (this.dense !== null) return this;
    return new TensorArray(this.dtype, { dynamicSize: this.dynamicSize, elementShape: dims }, this.elements);
  }

  /** write on the dense form: the element at `index` replaced through a one-hot mask (differentiable in both). */
  private writeDense(api: string, index: number | Tensor, value: TensorLike): TensorArray {
    const idx = denseIndex(api, index);
    const t = convert(api, value, this.dtype).t;
    if (t.dtype !== this.dtype) throw typeError(api, `value has dtype ${t.dtype}`, t.dtype, this.dtype, `Cast it: ef.cast(v, '${this.dtype}').`);
    if (!this.elementShape.isCompatibleWith(t.shape) || (t.dims !== null && this.elementShape.dims !== null && t.dims.length !== this.elementShape.dims.length)) {
      throw argError(api, 'value shape does not match the element shape', t.shape.toString(), this.elementShape.toString(), 'Write elements of one shape');
    }
    const { dense, made } = this.toDense(api, t);
    const rank = (dense.dims as number[]).length;
    if (this.dynamicSize) {
      const grown = tidy(() => writeGrowing(dense, idx, t));
      if (made) dense.dispose();
      return new TensorArray(this.dtype, { dynamicSize: true }, grown);
    }
    const n = this.length();
    const next = tidy(() => {
      const ids = TOP.range(0, n, 1, 'int32');
      // gather(ids, i) is i itself, and raises on an index out of range (when the graph runs, for a symbolic one).
      const hit = TOP.equal(ids, TOP.gather(ids, idx, 0));
      const mask = TOP.reshape(hit, [n, ...new Array<number>(rank - 1).fill(1)]);
      return TOP.where(mask, TOP.expandDims(t, 0), dense);
    });
    if (made) dense.dispose();
    return new TensorArray(this.dtype, {}, next);
  }

  private zeros(): Tensor {
    const dims = this.elementShape.dims;
    const known = this.elements.find((e): e is Tensor => e !== null);
    if (known !== undefined) return TOP.zerosLike(known);
    if (dims === null || dims.some((d) => d === null)) {
      throw argError('TensorArray', 'cannot make an unwritten element without a known element shape', this.elementShape.toString(), 'a written element or a full elementShape', 'Write every index, or pass { elementShape }');
    }
    return TOP.zeros(dims as number[], this.dtype);
  }
}

/**
 * dynamicSize's write on the dense form: the rows grown to max(size, index + 1) (new rows zeros, the size read when
 * the graph runs), then the row at `index` replaced through a one-hot mask.
 */
function writeGrowing(dense: Tensor, index: Tensor | number, value: Tensor): Tensor {
  const dims = dense.dims as (number | null)[];
  const i = index instanceof Tensor ? index : TOP.fill([], index, 'int32');
  const n = TOP.gather(TOP.shape(dense), 0, 0);
  const m = TOP.maximum(n, TOP.add(i, 1));
  const ids = TOP.subtract(TOP.cumsum(TOP.ones([m], 'int32')), 1);
  // Row n of [dense; zeros] is the zero row every new row copies.
  const zeroRow = TOP.zeros([1, ...(dims.slice(1) as number[])], dense.dtype);
  const grown = TOP.gather(TOP.concat([dense, zeroRow], 0), TOP.minimum(ids, n), 0);
  // gather(ids, i) is i itself, and raises on a negative index (when the graph runs, for a symbolic one).
  const hit = TOP.equal(ids, TOP.gather(ids, i, 0));
  const mask = TOP.reshape(hit, [-1, ...new Array<number>(dims.length - 1).fill(1)]);
  return TOP.where(mask, TOP.expandDims(value, 0), grown);
}

function isSymbolicIndex(index: number | Tensor): boolean {
  return index instanceof Tensor && index.isSymbolic;
}

/** An index of the dense form: an int32 scalar tensor (a JS number made one). */
function denseIndex(api: string, index: number | Tensor): Tensor | number {
  if (!(index instanceof Tensor)) {
    if (!Number.isInteger(index) || index < 0) throw argError(api, 'index must be a non-negative integer', describe(index), 'an integer >= 0', 'Pass a JS number or an int32 scalar');
    return index;
  }
  if (index.dtype !== 'int32' || (index.dims !== null && index.dims.length !== 0)) {
    throw typeError(api, 'the index must be an int32 scalar', `a ${index.dtype} tensor of shape ${index.shape.toString()}`, 'an int32 scalar', "Cast it: ef.cast(i, 'int32').");
  }
  return index;
}

function indexOf(api: string, index: number | Tensor): number {
  const i = index instanceof Tensor ? indexValue(api, index) : index;
  if (!Number.isInteger(i) || i < 0) throw argError(api, 'index must be a non-negative integer', describe(index), 'an integer >= 0', 'Pass a JS number or an int32 scalar');
  return i;
}

function indexValue(api: string, t: Tensor): number {
  if (t.dtype !== 'int32' || (t.size ?? 0) !== 1) throw typeError(api, 'the index must be an int32 scalar', `a ${t.dtype} tensor of shape ${t.shape.toString()}`, 'an int32 scalar', "Cast it: ef.cast(i, 'int32').");
  return Number(t.item());
}
