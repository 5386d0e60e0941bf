// ef.TensorArray: TF's tf.TensorArray (write/read/stack/unstack/gather/concat/size) as an immutable list of tensors.
import { DType, OutOfRangeError, TOP, Tensor, TensorLike, TensorShape, argError, asDType, convert, describe, opError, typeError } from '@eagerflow/core';

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
 * graph ops. Indices are JS numbers or eager int32 scalars; inside `ef.whileLoop` carry a stacked tensor instead
 * (docs/tf-idioms.md).
 * @example
 * let ta = new ef.TensorArray('float32', { size: 0, dynamicSize: true });
 * for (let i = 0; i < 3; i++) ta = ta.write(i, ef.constant([i, 1]));
 * ta.stack().arraySync(); // [[0, 1], [1, 1], [2, 1]]
 */
export class TensorArray {
  readonly dtype: DType;
  readonly dynamicSize: boolean;
  readonly elementShape: TensorShape;
  private readonly elements: readonly (Tensor | null)[];

  constructor(dtype: DType, options: TensorArrayOptions = {}, elements?: readonly (Tensor | null)[]) {
    this.dtype = asDType(dtype, 'TensorArray');
    const size = options.size ?? 0;
    if (!Number.isInteger(size) || size < 0) throw argError('TensorArray', 'size must be a non-negative integer', describe(size), 'an integer >= 0', 'Pass { size: n }.');
    this.dynamicSize = options.dynamicSize === true;
    this.elementShape = new TensorShape(options.elementShape ?? null);
    this.elements = elements ?? new Array<Tensor | null>(size).fill(null);
  }

  /** The number of elements, as an int32 scalar (TF's `size()`). */
  size(): Tensor {
    return TOP.fill([], this.elements.length, 'int32');
  }

  /** A new TensorArray with `value` at `index` (TF: writing an index twice is an error). */
  write(index: number | Tensor, value: TensorLike): TensorArray {
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
    const i = indexOf('TensorArray.read', index);
    if (i >= this.elements.length) throw opError(OutOfRangeError, 'TensorArray.read', 'index out of range', `index ${i}`, `an index below the size ${this.elements.length}`, 'Read a written index');
    return this.elements[i] ?? this.zeros();
  }

  /** All elements stacked on a new first axis (unwritten ones are zeros, as TF's). */
  stack(): Tensor {
    if (this.elements.length === 0) {
      const dims = this.elementShape.dims;
      if (dims === null || dims.some((d) => d === null)) return TOP.zeros([0], this.dtype);
      return TOP.zeros([0, ...(dims as number[])], this.dtype);
    }
    return TOP.stack(this.elements.map((e) => e ?? this.zeros()), 0);
  }

  /** The elements at `indices`, stacked. */
  gather(indices: readonly number[] | Tensor): Tensor {
    const idx = indices instanceof Tensor ? Array.from(indices.dataSync() as Int32Array) : indices;
    return TOP.stack(idx.map((i) => this.read(i)), 0);
  }

  /** The elements concatenated along their first axis. */
  concat(): Tensor {
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

function indexOf(api: string, index: number | Tensor): number {
  const i = index instanceof Tensor ? indexValue(api, index) : index;
  if (!Number.isInteger(i) || i < 0) throw argError(api, 'index must be a non-negative integer', describe(index), 'an integer >= 0', 'Pass a JS number or an int32 scalar');
  return i;
}

function indexValue(api: string, t: Tensor): number {
  if (t.isSymbolic) {
    throw typeError(api, 'the index is a symbolic tensor (known only when the graph runs)', `a symbolic ${t.dtype} tensor`, 'a JS number or an eager int32 scalar', 'Unroll the loop with JS numbers, or inside ef.whileLoop carry the stacked tensor and update it with ef.tensorScatterNdUpdate');
  }
  return Number(t.item());
}
