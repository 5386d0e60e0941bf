// The variable records (TensorFlow's resource variable ops): read_variable and assign_variable. values/variable.ts
// reaches them only through its late-bound table, which ops/late_ops.ts fills with the functions below.
import * as backend from '../../backend/backend';
import type { Info } from '../../backend/backend';
import { Tensor } from '../../values/tensor';
import { TensorShape } from '../../values/shape';
import type { AssignMode, Variable } from '../../values/variable';
import { bind, ctx } from '../bind';
import type { AVal, Primitive } from '../primitive';
import { attr } from '../graphdef_spec';
import { argError } from '../../errors/error_toolkit';

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


/** A variable's read: tapes recording now watch the variable, then one read_variable node (a graph node inside traces). */
export function readVariableOf(v: Variable): Tensor {
  for (const t of ctx.tapes) (t as { variableAccessed?(v: Variable): void }).variableAccessed?.(v);
  return bind(readVariable, [], { variable: v })[0];
}

/** A variable's assignment: one stateful assign_variable node (the value already converted to the variable's dtype). */
export function assignVariableOf(v: Variable, mode: AssignMode, value: Tensor): void {
  bind(assignVariable, [value], { variable: v, mode });
}
