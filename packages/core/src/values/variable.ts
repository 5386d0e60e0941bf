// Variable: mutable state read by reference (captured by reference in traces), with stateful assigns.
import * as backend from '../backend/backend';
import type { Info } from '../backend/backend';
import { DType, asDType } from './dtype';
import { Tensor, freshId } from './tensor';
import { bind, ctx } from '../ops/bind';
import { AVal, Primitive } from '../ops/primitive';
import { TensorLike, constant, convert, release } from './convert';
import { TensorShape } from './shape';
import type { NDArray } from './ndarray';
import { formatNumpy } from './format';
import { attr } from '../ops/graphdef_spec';
import { argError, typeError } from '../errors/error_toolkit';

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
    for (const t of ctx.tapes) (t as { variableAccessed?(v: Variable): void }).variableAccessed?.(this);
    return bind(readVariable, [], { variable: this })[0];
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
      bind(assignVariable, [c.t], { variable: this, mode });
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

export interface VarParams {
  readonly variable: Variable;
}

/** read_variable: no tensor inputs; the variable is a tape source by its own id. */
export const readVariable = {
  name: 'read_variable',
  effect: 'stateful',
  foldable: false,
  infer: (_ins: AVal[], p: VarParams) => [{ dtype: p.variable.dtype, shape: p.variable._value.dims }],
  impl: (k, _ins, p: VarParams) => [k.run('Identity', { x: p.variable._value.concrete('read_variable') }) as Info],
  vjp: (cts) => [cts[0]],
  saves: 'none',
  sourceIds: (p: VarParams) => [p.variable.id],
  printParams: (p: VarParams) => `[${p.variable.name}]`,
  tf: {
    // Frozen to a Const when nothing in the function assigns the variable; else a resource read.
    ops: ['ReadVariableOp'],
    write: (s, n) => [s.readVariable((n.params as VarParams).variable)],
    read(r): Tensor[] {
      r.arity(1);
      const v = r.variable(0);
      const dtype = r.node.dtype('dtype', v.dtype);
      if (dtype !== v.dtype) throw r.error('dtype does not match the variable', dtype, v.dtype, 'Fix the dtype attr');
      return [v.value()];
    },
  },
  // Replayed reads go through Variable.readVariable so recording tapes watch accessed variables
  // (a tape around a traced call differentiates with respect to the variables it read).
  replay: (_ins: Tensor[], p: VarParams) => [p.variable.readVariable()],
} satisfies Primitive<VarParams> & { sourceIds(p: VarParams): number[] };

export interface AssignParams extends VarParams {
  readonly mode: AssignMode;
}

const ASSIGN_OPS = { assign: 'AssignVariableOp', assignAdd: 'AssignAddVariableOp', assignSub: 'AssignSubVariableOp' } as const;

/** assign_variable: stateful, never dropped, merged or reordered. */
export const assignVariable = {
  name: 'assign_variable',
  effect: 'stateful',
  foldable: false,
  infer(ins: AVal[], p: AssignParams) {
    const v = p.variable;
    if (ins[0].dtype !== v.dtype) {
      throw argError(`Variable.${p.mode}`, 'dtype does not match the variable', ins[0].dtype, v.dtype, `Cast the value with ef.cast(x, '${v.dtype}').`);
    }
    if (!new TensorShape(ins[0].shape).isCompatibleWith(v._value.dims)) {
      throw argError(`Variable.${p.mode}`, 'shape does not match the variable', new TensorShape(ins[0].shape).toString(), v.shape.toString(), 'Assign a value of the variable shape.');
    }
    return [];
  },
  impl(k, [x], p: AssignParams) {
    const v = p.variable;
    const cur = v._value.concrete('assign');
    if (x.shape.length !== cur.shape.length || x.shape.some((d, i) => d !== cur.shape[i])) {
      throw argError(`Variable.${p.mode}`, 'shape does not match the variable', `[${x.shape}]`, `[${cur.shape}]`, 'Assign a value of the variable shape.');
    }
    const next =
      p.mode === 'assign' ? (k.run('Identity', { x }) as Info)
      : p.mode === 'assignAdd' ? (k.run('Add', { a: cur, b: x }) as Info)
      : (k.run('Sub', { a: cur, b: x }) as Info);
    v._set(new Tensor(backend.adopt(next), v.dtype));
    return [];
  },
  vjp: null,
  saves: 'none',
  printParams: (p: AssignParams) => `[${p.variable.name}, ${p.mode}]`,
  tf: {
    ops: Object.values(ASSIGN_OPS),
    write(s, n, [x]) {
      const p = n.params as AssignParams;
      const op = ASSIGN_OPS[p.mode];
      s.add(op, op, [s.variableHandle(p.variable), x], { dtype: attr.type(p.variable.dtype) });
      return [];
    },
    read(r): Tensor[] {
      r.arity(2);
      const mode = (Object.keys(ASSIGN_OPS) as AssignParams['mode'][]).find((m) => ASSIGN_OPS[m] === r.node.op) as AssignParams['mode'];
      r.variable(0)[mode](r.input(1));
      return [];
    },
  },
} satisfies Primitive<AssignParams>;

