// ONNX lowerings of cond and while (beside their records in control_flow.ts and while_loop.ts): ONNX If and Loop,
// their branch and body graphs written as subgraph attributes that read captured values from the outer scope.
import type { AVal, LowerScope, OnnxSpec, SpecNode } from '@eagerflow/core';
import type { Graph } from '../graph';
import { Formal, Scope, graphLowers, lowerGraph, subgraph } from './model';

interface CondP {
  readonly trueGraph: Graph;
  readonly falseGraph: Graph;
  readonly nTrue: number;
  readonly outAvals: readonly AVal[];
}

interface WhileP {
  readonly condGraph: Graph;
  readonly bodyGraph: Graph;
  readonly nVars: number;
  readonly nCondCaps: number;
  readonly maximumIterations: number | null;
  readonly outAvals: readonly AVal[];
}

/** ONNX `TensorProto.DataType` INT64 (Loop's iteration number and trip count). */
const INT64 = 7;

/**
 * cond -> If. Each branch is a subgraph without formal inputs: the values it captured are the outer names
 * the cond node reads (ONNX's outer-scope references). Lowers when every node of both branches lowers.
 */
export const condOnnx: OnnxSpec = {
  lower(ls: LowerScope, node: SpecNode, ins: readonly string[]): string[] {
    const s = ls as Scope;
    const n = node as unknown as SpecNode<CondP>;
    const p = n.params;
    const branch = (g: Graph, caps: readonly string[], name: string): { g: object } => {
      const b = s.on(g, []);
      const outs = lowerGraph(b, caps);
      return subgraph(b, name, [], outs.map((o, k) => [o, p.outAvals[k].dtype]));
    };
    const thenBranch = branch(p.trueGraph, ins.slice(1, 1 + p.nTrue), 'then');
    const elseBranch = branch(p.falseGraph, ins.slice(1 + p.nTrue), 'else');
    return s.add('If', [ins[0]], { then_branch: thenBranch, else_branch: elseBranch }, p.outAvals.length);
  },
  accepts: (_s: LowerScope, n: SpecNode) => {
    const p = n.params as unknown as CondP;
    // A cond without outputs (side effects only) has nothing to compute natively.
    return p.outAvals.length > 0 && graphLowers(p.trueGraph) && graphLowers(p.falseGraph);
  },
};

/**
 * while -> Loop: the loop variables are Loop-carried dependencies; the trip count is empty (or
 * maximumIterations); the first condition is computed before the loop, the next ones at the end of the
 * body on the new variables. Cond and body captures are outer-scope references.
 */
export const whileOnnx: OnnxSpec = {
  lower(ls: LowerScope, node: SpecNode, ins: readonly string[]): string[] {
    const s = ls as Scope;
    const p = (node as unknown as SpecNode<WhileP>).params;
    const vars = ins.slice(0, p.nVars);
    const condCaps = ins.slice(p.nVars, p.nVars + p.nCondCaps);
    const bodyCaps = ins.slice(p.nVars + p.nCondCaps);
    const [first] = lowerGraph(s.on(p.condGraph), [...vars, ...condCaps]);
    const b = s.on(p.bodyGraph, []);
    const iter = b.fresh('iter');
    const condIn = b.fresh('cond_in');
    const carried = vars.map(() => b.fresh('carried'));
    const next = lowerGraph(b, [...carried, ...bodyCaps]);
    const [again] = lowerGraph(b.on(p.condGraph), [...next, ...condCaps]);
    const dtypes = p.outAvals.map((a) => a.dtype);
    const formals: Formal[] = [[iter, INT64, []], [condIn, 'bool', []], ...carried.map((c, k): Formal => [c, dtypes[k], p.outAvals[k].shape])];
    const body = subgraph(b, 'body', formals, [[again, 'bool'], ...next.map((v, k): Formal => [v, dtypes[k]])]);
    const trips = p.maximumIterations === null ? '' : s.int64s([p.maximumIterations], []);
    return s.add('Loop', [trips, first, ...vars], { body }, p.nVars);
  },
  accepts: (_s: LowerScope, n: SpecNode) => {
    const p = n.params as unknown as WhileP;
    return p.nVars > 0 && graphLowers(p.condGraph) && graphLowers(p.bodyGraph);
  },
};
