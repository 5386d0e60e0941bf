// Gradients through compiled functions: a tape over a jitCompile call records one node whose vjp is the
// traced backward function, itself compiled (and so differentiable the same way: higher orders).
import { GradientTape, Tensor, Variable, backend, ctx, isStateful, recordOperation, zeros, isPrimitive } from '@eagerflow/core';
import type { Graph, Node } from '../graph';
import { replay } from '../replay';
import { resolveSlot } from '../variable_slots';
import type { JitMode } from './segment';

type Traced = ((...args: Tensor[]) => unknown) & { dispose(): void };
/** ef.trace, handed over by trace.ts (which imports the concrete functions this file serves). */
let traceBackward: ((fn: (...args: Tensor[]) => unknown, jit: JitMode) => Traced) | null = null;

export function setBackwardTracer(t: (fn: (...args: Tensor[]) => unknown, jit: JitMode) => Traced): void {
  traceBackward = t;
}

/** What a compiled call needs from its concrete function. */
export interface CompiledCall {
  readonly graph: Graph;
  readonly jitCompile: JitMode;
  /** Runs the compiled plan (no tape sees inside). */
  runCompiled(tensors: readonly Tensor[]): Tensor[];
}

const backwards = new WeakMap<Graph, Traced>();
const isDiff = (t: { dtype: string }): boolean => t.dtype === 'float32';

/** Whether a tape may see a compiled call as one node: pure except variable reads (no assignments, callbacks, state). */
function oneNode(g: Graph): boolean {
  return ctx.builder === null && g.nodes.every((n) => isPrimitive(n.prim, 'read_variable') || !isStateful(n.prim, n.params));
}

/**
 * Under eager tapes: runs the compiled plan and records one node (inputs: the tensor arguments and the
 * variables read, read through the tape). Returns null when the graph must be replayed op by op instead.
 */
export function tapedCompiledCall(cf: CompiledCall, tensors: readonly Tensor[]): Tensor[] | null {
  if (traceBackward === null || !oneNode(cf.graph)) return null;
  const readNodes = cf.graph.nodes.filter((n) => isPrimitive(n.prim, 'read_variable'));
  const vars: Variable[] = [];
  for (const n of readNodes) {
    const v = resolveSlot(n.params).variable as Variable;
    if (!vars.includes(v)) vars.push(v);
  }
  const outs = cf.runCompiled(tensors);
  // Reads through the tape: trainable variables get watched, and each read links its variable to the node.
  const reads = vars.map((v) => v.readVariable());
  const inputs = [...tensors, ...reads];
  const backward = backwardOf(cf, readNodes, vars);
  const shapes = outs.map((o) => o.shape.asList() as number[]);
  recordOperation('jit_compiled_call', inputs, outs, (cts) => {
    const dys = outs.flatMap((o, k) => (isDiff(o) ? [cts[k] ?? zeros(shapes[k], o.dtype)] : []));
    // Inputs the caller already disposed live on through the tape's pins: the backward call gets views.
    const views: Tensor[] = [];
    const live = inputs.map((t) => {
      const tf = t._tf;
      if (tf === null || !backend.isDisposed(tf)) return t;
      const v = new Tensor(backend.share(tf), t.dtype);
      views.push(v);
      return v;
    });
    try {
      const grads = backward(...live, ...dys) as Tensor[];
      let k = 0;
      return inputs.map((x) => (isDiff(x) ? grads[k++] : null));
    } finally {
      views.forEach((v) => v.dispose());
    }
  }, inputs);
  reads.forEach((r) => r.dispose());
  return outs;
}

/** The traced backward function: (inputs..., reads..., dys...) -> one gradient per float input; compiled like the forward. */
function backwardOf(cf: CompiledCall, readNodes: readonly Node[], vars: readonly Variable[]): Traced {
  const known = backwards.get(cf.graph);
  if (known !== undefined) return known;
  const nIn = cf.graph.inputs.length;
  const nAll = nIn + vars.length;
  const body = (...args: Tensor[]): Tensor[] => {
    const xs = args.slice(0, nAll);
    const dys = args.slice(nAll);
    const tape = new GradientTape({ persistent: false, watchAccessedVariables: false });
    const outs = tape.record(() => {
      xs.forEach((x) => isDiff(x) && tape.watch(x));
      const byNode = new Map(readNodes.map((n) => [n, xs[nIn + vars.indexOf(resolveSlot(n.params).variable as Variable)]]));
      return replay(cf.graph, xs.slice(0, nIn), (n) => byNode.get(n));
    });
    // One gradient per float input (zeros where unconnected: a traced function returns tensors).
    return tape.gradient(outs.filter(isDiff), xs.filter(isDiff), { outputGradients: dys, unconnectedGradients: 'zero' }) as Tensor[];
  };
  const traced = (traceBackward as NonNullable<typeof traceBackward>)(body, cf.jitCompile === 'strict' ? true : cf.jitCompile);
  backwards.set(cf.graph, traced);
  return traced;
}

/** Releases the backward function (and its sessions) of a compiled graph. */
export function disposeBackward(g: Graph): void {
  backwards.get(g)?.dispose();
  backwards.delete(g);
}
