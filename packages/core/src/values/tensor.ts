// Tensor: an eager value backed by a tfjs tensor, or a symbolic value inside a trace.
/// <reference lib="esnext.disposable" preserve="true" />
import { DType, HostData } from './dtype';
import { Dims, TensorShape } from './shape';
import { NDArray, Nested, nest } from './ndarray';
import { formatNumpy } from './format';
import * as backend from '../backend/backend';
import { FailedPreconditionError } from '../errors/errors';
import { errorMessage, internalError, opError, typeError } from '../errors/error_toolkit';

let nextId = 1;
/** Ids tie tensors to tape entries; variables draw from the same counter. */
export function freshId(): number {
  return nextId++;
}

/** What a symbolic tensor knows about the graph it lives in (filled in by the tracer). */
export interface SymbolicRef {
  /** The builder that owns this value; `alive` turns false when its trace ends. */
  readonly owner: {
    readonly alive: boolean;
    readonly name: string;
    /**
     * Records a shape the graph's own inference did not derive (setShape): the owner adds a run-time
     * check where the value enters and returns the checked value's reference (null: nothing to record).
     */
    refine?(t: Tensor, dims: Dims): SymbolicRef | null;
  };
  /** Index of the value inside the owner's graph. */
  readonly index: number;
  /** A printable name such as `x` or `%3`. */
  readonly label: string;
}

/** Thrown when a symbolic tensor's values are read while tracing. */
export class SymbolicTensorError extends TypeError {}

/** One index of `x.at(...)`: an integer (drops the dim), a slice string, `'...'`, or `null` (a new axis of size 1). */
export type Index = number | string | null;

/**
 * The ops values/ reaches late: tensor methods and conversion call them through this one table, which the op
 * folders fill when they load (ops/late_ops.ts), so values/ imports no op file.
 */
export interface LateOps {
  /** The cast record (conversion with a dtype). */
  cast(x: Tensor, dtype: DType): Tensor;
  /** numpy-style indexing, `x.at(...)` (one stridedSlice). */
  at(x: Tensor, indices: readonly Index[]): Tensor;
}

/** A table of functions values/ calls but the op folders define, filled when the ops load (ops/late_ops.ts). */
export interface LateTable<T extends object> {
  /** Fills the table (once, when the ops load). */
  provide(ops: T): void;
  /** A function of the table; an InternalError if the ops are not loaded. */
  get<K extends keyof T>(name: K): T[K];
}

/** A late-bound table, `what` naming its ops in the error (values/ reaches ops through these, so it imports no op file). */
export function lateTable<T extends object>(what: string): LateTable<T> {
  const ops: Partial<T> = {};
  return {
    provide(filled: T): void {
      Object.assign(ops, filled);
    },
    get<K extends keyof T>(name: K): T[K] {
      const f = ops[name];
      if (f === undefined) throw internalError(String(name), `${what} are not loaded (import @eagerflow/core, whose entry loads them, before using tensors)`);
      return f as T[K];
    },
  };
}

const lateOps = lateTable<LateOps>('the ops');

/** Fills the late-bound table (ops/late_ops.ts, once, when the ops load). */
export function provideLateOps(ops: LateOps): void {
  lateOps.provide(ops);
}

/** An op of the late-bound table. */
export function lateOp<K extends keyof LateOps>(name: K): LateOps[K] {
  return lateOps.get(name);
}

/**
 * A multi-dimensional array with a dtype and a shape.
 * @example
 * const t = ef.constant([[1, 2], [3, 4]]);
 * t.shape.toString(); // '(2, 2)'
 */
export class Tensor {
  // The fields are `declare`d and set by the constructor alone: emitted class fields would each be defined a
  // second time, in a separate initializer function that every new tensor (every op result) runs.
  declare readonly id: number;
  declare readonly dtype: DType;
  /** The backing tfjs tensor (eager), or null when symbolic. */
  declare _tf: backend.TfTensor | null;
  /** Set when this tensor is a value inside a trace (setShape may move it to a checked value). */
  declare _sym: SymbolicRef | null;
  private declare _shape: TensorShape | null;
  /** Static dims of a symbolic tensor (the TensorShape object is made on demand: tracing is hot). */
  private declare _dims: Dims;
  /**
   * Weakly typed (JAX's `weak_type`): made only from JS numbers, or by ops on such tensors alone. A weak
   * float32 takes the dtype of the strong int32 or complex64 operand it meets (`ef.add(i32, 1)` is int32).
   */
  declare weak: boolean;

  constructor(tf: backend.TfTensor | null, dtype: DType, dims?: Dims, sym?: SymbolicRef | null, id?: number) {
    this.id = id ?? nextId++;
    this._tf = tf;
    this.dtype = dtype;
    this._sym = sym ?? null;
    this._shape = null;
    this._dims = dims === undefined ? null : dims;
    this.weak = false;
  }

  static fromTf(tf: backend.TfTensor, id?: number): Tensor {
    return new Tensor(tf, tf.dtype as DType, undefined, null, id);
  }

  get shape(): TensorShape {
    if (this._shape === null) this._shape = new TensorShape(this._tf !== null ? this._tf.shape : this._dims);
    return this._shape;
  }

  /** Static dims (concrete for eager tensors). */
  get dims(): Dims {
    return this._tf !== null ? this._tf.shape : this._dims;
  }

  get rank(): number | null {
    return this._tf !== null ? this._tf.rank : this._dims === null ? null : this._dims.length;
  }

  /** The rank, as NumPy's and TF's `ndim` (null when unknown inside a trace). */
  get ndim(): number | null {
    return this.rank;
  }

  get size(): number | null {
    return this._tf !== null ? this._tf.size : this.shape.numElements();
  }

  get isSymbolic(): boolean {
    return this._sym !== null;
  }

  get isDisposed(): boolean {
    return this._tf !== null && backend.isDisposed(this._tf);
  }

  /** Refines the static shape (inside a trace); throws if incompatible. */
  setShape(dims: Dims | TensorShape): void {
    const other = dims instanceof TensorShape ? dims : new TensorShape(dims);
    if (!this.shape.isCompatibleWith(other)) {
      throw typeError('Tensor.setShape', `shape ${other.toString()} is not compatible with the tensor's shape ${this.shape.toString()}`, other.toString(), `a shape compatible with ${this.shape.toString()}`, 'Pass a shape that refines the static shape (ef.ensureShape also checks it at run time).');
    }
    const merged = this.shape.mergeWith(other);
    // Inside a trace the refined shape is asserted, not inferred: later nodes (and the fused cpu
    // loop) trust it, so the owner checks it at run time where the value enters (an ensure_shape node).
    if (this._sym !== null && this._sym.owner.alive && this._sym.owner.refine !== undefined && !merged.equals(this.shape)) {
      this._sym = this._sym.owner.refine(this, merged.dims) ?? this._sym;
    }
    this._shape = merged;
    this._dims = merged.dims;
  }

  /** The concrete tfjs tensor, or a clear error when symbolic or disposed. */
  concrete(api: string): backend.TfTensor {
    if (this._tf === null) {
      const where = this._sym && this._sym.owner.alive ? 'while tracing' : 'after its trace ended';
      throw new SymbolicTensorError(errorMessage(
        api, `cannot read the values of symbolic tensor '${this._sym?.label ?? '?'}' ${where}`,
        `a symbolic ${this.dtype} tensor of shape ${this.shape.toString()}`, 'an eager tensor',
        `Inside ef.trace the function body runs once to record a graph, so values do not exist yet: ` +
          `compute with ef ops (ef.cond / ef.whileLoop for value-dependent control flow, ef.print to print at run time), ` +
          `or return the tensor from the traced function and read it from the result.`,
      ));
    }
    if (this._tf.isDisposed) {
      throw opError(FailedPreconditionError, api, `tensor ${this.id} (dtype ${this.dtype}, shape ${this.shape.toString()}) is disposed`, 'a disposed tensor', 'a live one', 'Keep it with ef.keep or return it from ef.tidy.', null);
    }
    return this._tf;
  }

  dataSync(): HostData {
    return backend.readSync(this.concrete('Tensor.dataSync'));
  }

  data(): Promise<HostData> {
    return backend.readAsync(this.concrete('Tensor.data'));
  }

  /**
   * The bytes of a string tensor's elements, row-major (string tensors hold bytes, as TF's do: `dataSync`,
   * `numpy` and `arraySync` decode them as UTF-8, `bytes()` does not). Copies, so the caller may keep them.
   * @example
   * const t = ef.constant([new Uint8Array([0xff, 0]), new Uint8Array([65])]);
   * t.bytes().map((b) => Array.from(b)); // [[255, 0], [65]]
   */
  bytes(): Uint8Array[] {
    const tf = this.concrete('Tensor.bytes');
    if (this.dtype !== 'string') {
      throw typeError('Tensor.bytes', `bytes() reads string tensors, got a ${this.dtype} tensor`, this.dtype, 'a string tensor', 'Use dataSync() for numeric tensors, or ef.io.serializeTensor for their bytes.');
    }
    return backend.readBytesSync(tf).map((b) => new Uint8Array(b));
  }

  /** A host copy as an NDArray. */
  numpy(): NDArray {
    const tf = this.concrete('Tensor.numpy');
    const d = backend.readSync(tf);
    return new NDArray(d.slice() as HostData, tf.shape, this.dtype);
  }

  arraySync(): Nested {
    const tf = this.concrete('Tensor.arraySync');
    const d = backend.readSync(tf);
    const flat: (number | string | boolean)[] = this.dtype === 'bool' ? Array.from(d as Uint8Array, (v) => v !== 0) : Array.from(d as ArrayLike<number | string>);
    return nest(flat, tf.shape);
  }

  /** The single value of a one-element tensor. */
  item(): number | boolean | string {
    const tf = this.concrete('Tensor.item');
    if (tf.size !== 1) {
      throw typeError('Tensor.item', 'only one-element tensors can be converted to a scalar', `shape ${this.shape.toString()} with ${tf.size} elements`, '1 element', 'Index or reduce first.');
    }
    const v = backend.readSync(tf)[0];
    return this.dtype === 'bool' ? v !== 0 : v;
  }

  /** The backing tfjs tensor (no copy). */
  toTfjs(): backend.TfTensor {
    return this.concrete('Tensor.toTfjs');
  }

  /**
   * numpy-style indexing (TF's `x[...]`): integers, `'start:stop:step'` strings, `'...'` and `null` (new axis).
   * @example ef.constant([[1, 2], [3, 4]]).at(-1).arraySync(); // [3, 4]
   */
  at(...indices: Index[]): Tensor {
    return lateOp('at')(this, indices);
  }

  dispose(): void {
    // (A tf.Variable's dispose does not check whether it is disposed already.)
    const tf = this._tf;
    if (tf !== null && !tf.isDisposed) tf.dispose();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  toString(): string {
    if (this._tf === null) {
      return `<ef.Tensor '${this._sym?.label ?? '?'}' shape=${this.shape.toString()} dtype=${this.dtype}>`;
    }
    if (backend.isDisposed(this._tf)) return `<ef.Tensor (disposed) shape=${this.shape.toString()} dtype=${this.dtype}>`;
    const numpy = formatNumpy(this.dtype, this._tf.shape, backend.readSync(this._tf));
    // TensorFlow's numpy_text starts a multi-line repr on its own line.
    return `<tf.Tensor: shape=${this.shape.toString()}, dtype=${this.dtype}, numpy=${numpy.includes('\n') ? '\n' : ''}${numpy}>`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }

  /**
   * A tensor in a JS numeric or string context (`t > 0`, `+t`, `` `${t}` ``). Eagerly a one-element tensor gives
   * its value (a string context its printout); inside a trace there is no value yet, so this throws and points to
   * ef.cond / ef.greater (JS cannot intercept `if (t)`: docs/tf-idioms.md recommends
   * @typescript-eslint/strict-boolean-expressions for that).
   */
  [Symbol.toPrimitive](hint: 'number' | 'string' | 'default'): number | string {
    if (this._tf === null) {
      const label = this._sym?.label ?? '?';
      throw new SymbolicTensorError(errorMessage(
        'Tensor', `symbolic tensor '${label}' used as a JS ${hint === 'string' ? 'string' : 'number'} inside a trace: its value exists only when the graph runs`,
        `a symbolic ${this.dtype} tensor of shape ${this.shape.toString()}`, 'an eager tensor',
        'Use ef ops for value-dependent logic: ef.cond(ef.greater(t, 0), thenFn, elseFn) instead of `t > 0 ? ...`, ef.whileLoop for loops, ef.print or ef.strings to format at run time',
      ));
    }
    if (hint === 'string') return this.toString();
    const tf = this.concrete('Tensor');
    if (tf.size !== 1) {
      throw typeError('Tensor', 'only one-element tensors have a JS number value', `shape ${this.shape.toString()}`, '1 element', 'Compare with ef ops (ef.greater, ef.equal) and reduce (ef.reduceAll) first.');
    }
    if (this.dtype === 'string') return String(backend.readSync(tf)[0]);
    return Number(backend.readSync(tf)[0]);
  }
}
