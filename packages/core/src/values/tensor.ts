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

const lateOps: Partial<LateOps> = {};

/** Fills the late-bound table (ops/late_ops.ts, once, when the ops load). */
export function provideLateOps(ops: LateOps): void {
  Object.assign(lateOps, ops);
}

/** An op of the late-bound table. */
export function lateOp<K extends keyof LateOps>(name: K): LateOps[K] {
  const f = lateOps[name];
  if (f === undefined) throw internalError(name, 'the ops are not loaded (import @eagerflow/core, whose entry loads them, before using tensors)');
  return f as LateOps[K];
}

/**
 * A multi-dimensional array with a dtype and a shape.
 * @example
 * const t = ef.constant([[1, 2], [3, 4]]);
 * t.shape.toString(); // '(2, 2)'
 */
export class Tensor {
  readonly id: number;
  readonly dtype: DType;
  /** The backing tfjs tensor (eager), or null when symbolic. */
  _tf: backend.TfTensor | null;
  /** Set when this tensor is a value inside a trace (setShape may move it to a checked value). */
  _sym: SymbolicRef | null;
  private _shape: TensorShape | null;
  /** Static dims of a symbolic tensor (the TensorShape object is made on demand: tracing is hot). */
  private _dims: Dims;

  constructor(tf: backend.TfTensor | null, dtype: DType, dims?: Dims, sym?: SymbolicRef | null, id?: number) {
    this.id = id ?? nextId++;
    this._tf = tf;
    this.dtype = dtype;
    this._sym = sym ?? null;
    this._shape = null;
    this._dims = dims === undefined ? null : dims;
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
    if (backend.isDisposed(this._tf)) {
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
    if (this._tf !== null && !backend.isDisposed(this._tf)) this._tf.dispose();
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
}
