// Variable: mutable state read by reference (captured by reference in traces), with stateful assigns.
import * as backend from '../backend/backend';
import { DType, asDType } from './dtype';
import { Tensor, freshId, lateTable } from './tensor';
import { TensorLike, constant, convert, release } from './convert';
import { TensorShape } from './shape';
import type { NDArray } from './ndarray';
import { formatNumpy } from './format';
import { typeError } from '../errors/error_toolkit';

export interface VariableOptions {
  trainable?: boolean;
  name?: string;
  dtype?: DType;
}

/** Hooks the tracer installs: variables created inside a trace are checked there. */
export const variableHooks = {
  onCreate: (_v: Variable): void => undefined,
  onAccess: (_v: Variable): void => undefined,
  /** Evaluates a symbolic initial value that depends on no graph input (TensorFlow's init_scope). */
  lift: (_t: Tensor): Tensor | null => null,
};

/**
 * The variable records values/ reaches late (ops/state/variable_ops.ts: reads record on tapes and bind
 * read_variable; assignments bind assign_variable); ops/late_ops.ts fills the table when the ops load.
 */
export interface VariableOps {
  read(v: Variable): Tensor;
  assign(v: Variable, mode: AssignMode, value: Tensor): void;
}

/** The late-bound table of the variable records (filled by ops/late_ops.ts). */
export const variableOps = lateTable<VariableOps>('the variable ops');

let unnamed = 0;

/**
 * A mutable tensor-valued state, like tf.Variable.
 * @example
 * const v = new ef.Variable([1, 2]);
 * v.assignAdd([1, 1]);
 * v.value().arraySync(); // [2, 3]
 */
export class Variable {
  readonly isVariable = true as const;
  readonly id: number;
  readonly name: string;
  readonly trainable: boolean;
  readonly dtype: DType;
  /** The current value; replaced (never mutated) by assignments. */
  _value: Tensor;

  constructor(initial: TensorLike, options: VariableOptions = {}) {
    // Checked first, so a refused creation (a traced function's later trace) allocates nothing.
    variableHooks.onCreate(this);
    const dtype = options.dtype === undefined ? undefined : asDType(options.dtype, 'Variable');
    let init = constant(initial, dtype);
    if (init.isSymbolic) init = variableHooks.lift(init) ?? init;
    if (init.isSymbolic) {
      throw typeError('Variable', 'the initial value is a symbolic tensor', 'a value computed inside a trace', 'an eager value', 'Create variables from eager values, e.g. outside the traced function or from ef.zeros(shape).');
    }
    this.id = freshId();
    this.dtype = init.dtype;
    // TensorFlow (and the API contract): trainable defaults to true whatever the dtype.
    this.trainable = options.trainable ?? true;
    this.name = options.name ?? `Variable_${unnamed++}`;
    this._value = init === initial ? new Tensor(backend.share(init.concrete('Variable')), init.dtype) : init;
    backend.keepTf(this._value.concrete('Variable'));
  }

  get shape(): TensorShape {
    return this._value.shape;
  }

  /** Reads the current value (recorded by tapes, a graph node inside traces). */
  readVariable(): Tensor {
    variableHooks.onAccess(this);
    return variableOps.get('read')(this);
  }

  /** A tensor holding the current value. */
  value(): Tensor {
    return this.readVariable();
  }

  /**
   * A host copy of the current value (TF's `v.numpy()`); eager only, like `Tensor.numpy`.
   * @example
   * new ef.Variable([1, 2]).numpy().shape; // [2]
   */
  numpy(): NDArray {
    return this._value.numpy();
  }

  assign(value: TensorLike): Variable {
    return this.update('assign', value);
  }

  assignAdd(delta: TensorLike): Variable {
    return this.update('assignAdd', delta);
  }

  assignSub(delta: TensorLike): Variable {
    return this.update('assignSub', delta);
  }

  private update(mode: AssignMode, value: TensorLike): Variable {
    const c = convert(`Variable.${mode}`, value, this.dtype);
    try {
      variableOps.get('assign')(this, mode, c.t);
    } finally {
      release(c);
    }
    return this;
  }

  /** Swaps in a new value (the executor and eager assigns call this). */
  _set(next: Tensor): void {
    const old = this._value;
    this._value = next;
    backend.keepTf(next.concrete('Variable'));
    old.dispose();
  }

  dispose(): void {
    this._value.dispose();
  }

  /** TensorFlow's variable repr: `<tf.Variable 'v' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>`. */
  toString(): string {
    const v = this._value;
    if (v.isDisposed) return `<tf.Variable '${this.name}' shape=${v.shape.toString()} dtype=${this.dtype} (disposed)>`;
    const numpy = formatNumpy(this.dtype, v.dims as number[], v.dataSync());
    return `<tf.Variable '${this.name}' shape=${v.shape.toString()} dtype=${this.dtype}, numpy=${numpy.includes('\n') ? '\n' : ''}${numpy}>`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

export type AssignMode = 'assign' | 'assignAdd' | 'assignSub';
