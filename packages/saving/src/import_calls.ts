// TF 2.x function calls and resource variables as TensorFlow's runtime runs them: PartitionedCall and
// StatefulPartitionedCall interpret the library's FunctionDef inline (nested calls too, so gradients flow through
// them), If/While whose inputs include resource handles pass the Variables to their branches and bodies, and
// TF1 reference variables (VariableV2 with Assign/AssignAdd/AssignSub) map onto ef.Variables.
import { Tensor, TfImport, Variable } from '@eagerflow/core';
import { cond, whileLoop } from '@eagerflow/function';
import type { ArgValue, NodeReader, OpReader } from './reader';

/** The NodeReader behind a ReadScope (the import rows are typed against core's ReadScope). */
const reader = (r: unknown): NodeReader => r as NodeReader;

/** Tensors of a call's results; resource results are reported to the scope as the node's resource outputs. */
function tensorsOf(r: NodeReader, outs: ArgValue[]): Tensor[] {
  const tensors: Tensor[] = [];
  outs.forEach((v, k) => {
    if (v instanceof Variable) {
      (r.resourceOutputs ??= new Map()).set(k, v);
      tensors.push(undefined as unknown as Tensor);
    } else tensors.push(v);
  });
  return tensors;
}

function readCall(rs: unknown): Tensor[] {
  const r = reader(rs);
  return tensorsOf(r, r.scope.ctx.callFunctionValues(r.node.func('f'), r.values()));
}

/** Splits call arguments into tensors (loop or branch values) and the resource positions. */
function split(args: ArgValue[]): { tensors: Tensor[]; merge: (ts: readonly Tensor[]) => ArgValue[] } {
  const tensors = args.filter((a): a is Tensor => !(a instanceof Variable));
  return {
    tensors,
    merge: (ts) => {
      let k = 0;
      return args.map((a) => (a instanceof Variable ? a : ts[k++]));
    },
  };
}

const onlyTensors = (r: NodeReader, name: string, outs: ArgValue[]): Tensor[] =>
  outs.map((v, k) => {
    if (v instanceof Variable) throw r.error(`function '${name}' returns a resource at output ${k}`, `variable '${v.name}'`, 'tensor outputs (resources only pass through a While)', 'Return tensors from the branch');
    return v;
  });

/** If/StatelessIf with resource inputs: the branches get the Variables; the tensors go through ef.cond. */
function readIfWithResources(r: NodeReader): Tensor[] {
  const [then, els] = [r.node.func('then_branch'), r.node.func('else_branch')];
  const { tensors, merge } = split(r.values(1));
  const ctx = r.scope.ctx;
  const run = (name: string) => (): Tensor[] => onlyTensors(r, name, ctx.callFunctionValues(name, merge(tensors)));
  return cond(r.input(0), run(then), run(els)) as Tensor[];
}

/** While/StatelessWhile with resource loop inputs: they pass through unchanged (as TF's while_v2 writes them). */
function readWhileWithResources(r: NodeReader): Tensor[] {
  const [c, body] = [r.node.func('cond'), r.node.func('body')];
  const args = r.values();
  const { tensors, merge } = split(args);
  const ctx = r.scope.ctx;
  const outs = whileLoop(
    (...vs) => onlyTensors(r, c, ctx.callFunctionValues(c, merge(vs)))[0],
    (...vs) => ctx.callFunctionValues(body, merge(vs)).filter((_v, k) => !(args[k] instanceof Variable)) as Tensor[],
    tensors,
  );
  return tensorsOf(r, merge(outs));
}

/** The reader of If/While nodes that take resource handles (others are read by their records). */
export function resourceControlReader(r: NodeReader): OpReader | undefined {
  const op = r.node.op;
  const isIf = op === 'If' || op === 'StatelessIf';
  if (!isIf && op !== 'While' && op !== 'StatelessWhile') return undefined;
  for (let k = isIf ? 1 : 0; k < r.count; k++) if (r.isResource(k)) return isIf ? readIfWithResources : readWhileWithResources;
  return undefined;
}

/** TF1 reference-variable updates: the variable is updated, and the node's output is its new value. */
function readRefAssign(mode: 'assign' | 'assignAdd' | 'assignSub') {
  return (rs: unknown): Tensor[] => {
    const r = reader(rs);
    r.arity(2);
    const v = r.variable(0);
    v[mode](r.input(1));
    return [v.value()];
  };
}

/** Import rows of calls, resource-variable helpers and TF1 reference variables. */
export const CALL_IMPORT_ROWS: readonly TfImport[] = [
  { ops: ['PartitionedCall', 'StatefulPartitionedCall'], read: readCall },
  // A variable the loaded function reads exists (EagerFlow creates every variable with its value).
  { ops: ['VarIsInitializedOp', 'IsVariableInitialized'], read: (r) => (r.arity(1), reader(r).variable(0), [reader(r).scope.ctx.constTensor({ dtype: 'bool', shape: [], data: Uint8Array.of(1) })]) },
  // Copy-on-read hints of TF's save functions: nothing to do.
  { ops: ['DisableCopyOnRead'], read: () => [] },
  // Not fed: its default (a fed one is an input: signatureFunction, or an extra named input of loadFunction).
  { ops: ['PlaceholderWithDefault'], read: (r) => (r.arity(1), [r.input(0)]) },
  { ops: ['Assign'], read: readRefAssign('assign') },
  { ops: ['AssignAdd'], read: readRefAssign('assignAdd') },
  { ops: ['AssignSub'], read: readRefAssign('assignSub') },
];
