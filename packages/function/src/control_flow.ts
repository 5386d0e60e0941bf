// ef.cond and ef.whileLoop: eager control flow, or graph nodes with traced bodies inside a trace.
import {
  AVal, GradientTape, Info, Primitive, Tensor, TensorLike, TensorShape,
  argError, backend, bind, convert, describe, flattenStructure, isStateful, packStructure, zerosLike, typeError,
  registerPrimitive,
} from '@eagerflow/core';
import { traceSubgraph } from './builder';
import { ControlOps, checkOut, writeCond } from './control_graphdef';
import { Graph } from './graph';
import { planOf, run } from './executor';
import { replay } from './replay';
import { condOnnx } from './onnx/control';

const isLeaf = (x: unknown): boolean => x instanceof Tensor;
function hasStateful(g: Graph): boolean {
  return g.nodes.some((n) => isStateful(n.prim, n.params));
}

function readBool(api: string, x: Info): boolean {
  if (x.shape.length !== 0 && !(x.shape.length === 1 && x.shape[0] === 1)) {
    throw argError(api, 'the predicate must be a scalar', `shape [${x.shape.join(',')}]`, 'a scalar bool', 'Reduce it, e.g. with ef.reduceMax or ef.less on a scalar.');
  }
  return backend.readInfoSync(x)[0] !== 0;
}

/** A traced branch or loop body: its graph and the parent tensors it captured. */
interface Body {
  graph: Graph;
  captures: Tensor[];
  structure: unknown;
}

function traceBody(name: string, fn: () => unknown): Body {
  const sub = traceSubgraph(name, [], fn, (structure) => {
    // A branch may return nothing (only side effects): no outputs.
    const raw = structure === undefined || structure === null ? [] : flattenStructure<unknown>(structure, isLeaf);
    return raw.map((x) => (x instanceof Tensor ? x : convert(`cond (${name}Fn)`, x as TensorLike).t));
  });
  return { graph: sub.graph, captures: sub.captures, structure: sub.result };
}

interface CondParams {
  readonly trueGraph: Graph;
  readonly falseGraph: Graph;
  readonly nTrue: number;
  readonly outAvals: AVal[];
}

/** TensorFlow's ops for cond: StatelessIf, or If when a branch is stateful. */
const IF_OPS: ControlOps = ['StatelessIf', 'If'];

export const condPrimitive: Primitive<CondParams> = {
  name: 'cond',
  effect: 'pure',
  foldable: false,
  statefulWhen: (p) => hasStateful(p.trueGraph) || hasStateful(p.falseGraph),
  infer: (_ins, p) => p.outAvals,
  impl(k, ins, p) {
    const pred = readBool('cond', ins[0]);
    const args = pred ? ins.slice(1, 1 + p.nTrue) : ins.slice(1 + p.nTrue);
    return run(planOf(pred ? p.trueGraph : p.falseGraph), args, k);
  },
  vjp(cts, ins, outs, p) {
    const pred = ins[0];
    const tIns = ins.slice(1, 1 + p.nTrue);
    const fIns = ins.slice(1 + p.nTrue);
    const seeds = cts.map((c, i) => c ?? zerosLike(outs[i]));
    const branchGrad = (graph: Graph, mine: Tensor[], other: Tensor[], first: boolean) => (): Tensor[] => {
      const tape = new GradientTape();
      const ys = tape.record(() => {
        tape.watch(mine);
        return replay(graph, mine);
      });
      const gs = tape.gradient(ys, mine, { outputGradients: seeds, unconnectedGradients: 'zero' }) as (Tensor | null)[];
      const own = gs.map((g, i) => g ?? zerosLike(mine[i]));
      const zeros = other.map((t) => zerosLike(t));
      return first ? [...own, ...zeros] : [...zeros, ...own];
    };
    const grads = cond(pred, branchGrad(p.trueGraph, tIns, fIns, true), branchGrad(p.falseGraph, fIns, tIns, false)) as Tensor[];
    return [null, ...grads.map((g, i) => (ins[i + 1].dtype === 'float32' ? g : null))];
  },
  replay: (ins, p) => replayCond(ins, p),
  saves: 'inputs',
  // The output types are on the left of the listing; the branch graphs are printed nested.
  printParams: (p) => `[nTrue=${p.nTrue}]`,
  // ONNX If, when every node of both branches lowers.
  onnx: condOnnx,
  tf: {
    // Both branches take every captured value; each reads its own slice.
    ops: IF_OPS,
    write: (s, n, ins) => writeCond(s, n, ins, IF_OPS),
    read(r): Tensor[] {
      r.arity(1, Number.MAX_SAFE_INTEGER);
      const [then, els] = [r.node.func('then_branch'), r.node.func('else_branch')];
      const args = r.inputs(1);
      return checkOut(r, cond(r.input(0), () => r.callFunction(then, args), () => r.callFunction(els, args)) as Tensor[], 'Tout');
    },
  },
};
registerPrimitive(condPrimitive as Primitive);

/**
 * Runs trueFn() or falseFn() depending on `pred`; inside a trace both are traced into one node.
 * @example
 * ef.cond(ef.constant(true), () => ef.constant(1), () => ef.constant(2)).item(); // 1
 */
export function cond<T>(pred: TensorLike | boolean, trueFn: () => T, falseFn: () => T): T {
  if (typeof trueFn !== 'function' || typeof falseFn !== 'function') {
    throw typeError('cond', 'trueFn and falseFn must be functions', `${describe(trueFn)} and ${describe(falseFn)}`, 'two functions', 'Pass e.g. ef.cond(pred, () => a, () => b).');
  }
  if (typeof pred === 'boolean') return pred ? trueFn() : falseFn();
  const p = convert('cond', pred, 'bool');
  if (p.t.dtype !== 'bool') throw argError('cond', 'pred must be a bool tensor', p.t.dtype, 'bool', 'Compare first, e.g. ef.greater(x, 0).');
  if (!p.t.isSymbolic) {
    const v = readBool('cond', p.t.concrete('cond'));
    if (p.temp) p.t.dispose();
    return v ? trueFn() : falseFn();
  }
  const dims = p.t.dims;
  if (dims !== null && dims.length > 0 && !(dims.length === 1 && dims[0] === 1)) {
    throw argError('cond', 'the predicate must be a scalar', `shape ${p.t.shape.toString()}`, 'a scalar bool', 'Reduce it, e.g. with ef.reduceMax or ef.less on a scalar.');
  }
  const t = traceBody('true', trueFn as () => unknown);
  let f: Body | null = null;
  let outAvals: AVal[];
  try {
    f = traceBody('false', falseFn as () => unknown);
    outAvals = mergeBranches(t, f);
  } catch (e) {
    // A branch that traced fine pinned its constants: release them with the failed cond.
    t.graph.dispose();
    f?.graph.dispose();
    throw e;
  }
  const outs = bind(condPrimitive as Primitive, [p.t, ...t.captures, ...f.captures], { trueGraph: t.graph, falseGraph: f.graph, nTrue: t.captures.length, outAvals });
  return repack(t.structure, outs) as T;
}

function mergeBranches(t: Body, f: Body): AVal[] {
  const a = t.graph.outputs.map((i) => t.graph.aval(i));
  const b = f.graph.outputs.map((i) => f.graph.aval(i));
  const sa = JSON.stringify(structureOf(t.structure));
  const sb = JSON.stringify(structureOf(f.structure));
  if (sa !== sb || a.length !== b.length) {
    throw typeError('cond', 'trueFn and falseFn must return the same structure', `${sa} and ${sb}`, 'equal structures', 'Return matching arrays/objects of tensors from both branches.');
  }
  return a.map((x, i) => {
    if (x.dtype !== b[i].dtype) throw typeError('cond', `output ${i} has different dtypes in the branches`, `${x.dtype} from trueFn and ${b[i].dtype} from falseFn`, 'equal dtypes', `Cast one branch's output.`);
    return { dtype: x.dtype, shape: new TensorShape(x.shape).mostSpecificCommonSupertype(new TensorShape(b[i].shape)).dims };
  });
}

function structureOf(s: unknown): unknown {
  if (s instanceof Tensor || typeof s !== 'object' || s === null) return isLeaf(s) || typeof s === 'number' || typeof s === 'boolean' ? 'T' : typeof s;
  if (Array.isArray(s)) return s.map(structureOf);
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, structureOf(v)]));
}

function repack(structure: unknown, outs: Tensor[]): unknown {
  if (structure === undefined || structure === null) return structure;
  if (structure instanceof Tensor || typeof structure !== 'object' || structure === null) return outs[0];
  return packStructure(structure, outs, (x) => !Array.isArray(x) && !(typeof x === 'object' && x !== null && Object.getPrototypeOf(x) === Object.prototype));
}

/** Replays a cond node: ef.cond again, its branches replayed into the current context. */
function replayCond(ins: Tensor[], p: CondParams): Tensor[] {
  const tIns = ins.slice(1, 1 + p.nTrue);
  const fIns = ins.slice(1 + p.nTrue);
  return cond(ins[0], () => replay(p.trueGraph, tIns), () => replay(p.falseGraph, fIns)) as Tensor[];
}

