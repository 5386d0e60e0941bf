// cond/while as TensorFlow's (Stateless)If and (Stateless)While over library functions: the writers and the output check.
import { AVal, Params, Primitive, PrimitiveName, ReadScope, SpecNode, Tensor, WriteScope, attr, getRecord, isStateful, outputRef, tfOpOf } from '@eagerflow/core';
import type { Graph } from './graph';

const range = (a: number, b: number): number[] => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
const SCALAR_I32: AVal = { dtype: 'int32', shape: [] };

interface CondParams {
  readonly trueGraph: Graph;
  readonly falseGraph: Graph;
  readonly nTrue: number;
}

/** A control-flow record's TF ops: the stateless form first, then the stateful one (its codec's `ops`). */
export type ControlOps = readonly [stateless: string, stateful: string];

/** The stateful op when the node's record says the node is stateful (a stateful body), else the stateless one. */
function opFor(n: SpecNode<unknown>, [stateless, stateful]: ControlOps): string {
  const prim = (n as SpecNode<unknown> & { prim?: Primitive }).prim;
  return prim !== undefined && isStateful(prim, n.params as Params) ? stateful : stateless;
}

/** The TF op another record writes (the loop counter's Less, LogicalAnd and AddV2). */
const opOf = (name: PrimitiveName): string => tfOpOf(getRecord(name));

/** cond -> (Stateless)If: both branches take every captured value; each reads its own slice. */
export function writeCond(s: WriteScope, n: SpecNode<unknown>, ins: string[], ops: ControlOps): string[] {
  const p = n.params as unknown as CondParams;
  const argAvals = n.inputs.slice(1).map((i) => s.aval(i));
  const then = s.writeFunction(`${s.graphName}_then`, p.trueGraph, argAvals, range(0, p.nTrue));
  const els = s.writeFunction(`${s.graphName}_else`, p.falseGraph, argAvals, range(p.nTrue, argAvals.length));
  const outs = n.outputs.map((o) => s.aval(o));
  const name = s.add(opFor(n, ops), 'cond', ins.slice(), {
    Tcond: attr.type('bool'),
    Tin: attr.types(argAvals.map((a) => a.dtype)),
    Tout: attr.types(outs.map((a) => a.dtype)),
    then_branch: attr.func(then),
    else_branch: attr.func(els),
    output_shapes: attr.shapes(outs.map((a) => a.shape)),
  });
  return n.outputs.map((_, k) => outputRef(name, k));
}

/** The `while` node's params (while_loop.ts builds them): its cond and body graphs, the split of their inputs, the limit. */
export interface WhileParams {
  readonly condGraph: Graph;
  readonly bodyGraph: Graph;
  readonly nVars: number;
  readonly nCondCaps: number;
  readonly maximumIterations: number | null;
  readonly outAvals: AVal[];
}

/**
 * while -> (Stateless)While. Loop variables are [counter, max]? ++ vars ++ cond captures ++ body
 * captures (TensorFlow's while_v2 layout: captures ride along unchanged; with maximumIterations a
 * counter and the limit come first and the condition is `counter < max && cond(...)`).
 */
export function writeWhile(s: WriteScope, n: SpecNode<unknown>, ins: string[], ops: ControlOps): string[] {
  const p = n.params as unknown as WhileParams;
  const [nV, nC] = [p.nVars, p.nCondCaps];
  const counted = p.maximumIterations !== null;
  const off = counted ? 2 : 0;
  const args = counted ? [s.ints('loop_counter', [0], []), s.ints('maximum_iterations', [p.maximumIterations as number], []), ...ins] : ins.slice();
  const avals = [...(counted ? [SCALAR_I32, SCALAR_I32] : []), ...n.inputs.map((i) => s.aval(i))];
  for (let k = 0; k < nV; k++) avals[off + k] = s.aval(n.outputs[k]);
  const condBind = p.condGraph.inputs.map((_, k) => (k < nV ? off + k : off + nV + (k - nV)));
  const bodyBind = p.bodyGraph.inputs.map((_, k) => (k < nV ? off + k : off + nV + nC + (k - nV)));
  const cond = s.writeFunction(`${s.graphName}_while_cond`, p.condGraph, avals, condBind, (fs, outs, a) => {
    if (!counted) return outs;
    const [lessOp, andOp] = [opOf('less'), opOf('logical_and')];
    const less = fs.add(lessOp, lessOp, [a[0], a[1]], { T: attr.type('int32') });
    return [{ ref: fs.add(andOp, andOp, [less, outs[0].ref]), aval: outs[0].aval }];
  });
  const body = s.writeFunction(`${s.graphName}_while_body`, p.bodyGraph, avals, bodyBind, (fs, outs, a) => {
    const passed = range(off + nV, a.length).map((k) => ({ ref: a[k], aval: avals[k] }));
    if (!counted) return [...outs, ...passed];
    const addOp = opOf('add');
    const next = fs.add(addOp, addOp, [a[0], fs.ints('one', [1], [])], { T: attr.type('int32') });
    return [{ ref: next, aval: SCALAR_I32 }, { ref: a[1], aval: SCALAR_I32 }, ...outs, ...passed];
  });
  const name = s.add(opFor(n, ops), 'while', args, {
    T: attr.types(avals.map((a) => a.dtype)),
    cond: attr.func(cond),
    body: attr.func(body),
    output_shapes: attr.shapes(avals.map((a) => a.shape)),
    parallel_iterations: attr.int(10),
  });
  return n.outputs.map((_, k) => outputRef(name, off + k));
}


/** The branch or body outputs must match `key` (Tout/T) when the attr is present. */
export function checkOut(r: ReadScope, outs: Tensor[], key: string): Tensor[] {
  if (!r.node.has(key)) return outs;
  // DT_VARIANT entries (TensorLists, dense tensors here) match any dtype.
  const want = r.node.dtypesOrVariant(key);
  const got = outs.map((t) => t.dtype);
  if (want.length !== got.length || want.some((d, i) => d !== null && d !== got[i])) throw r.error(`outputs do not match ${key}`, `[${got.join(', ')}]`, `[${want.map((d) => d ?? 'variant').join(', ')}]`, `Fix ${key} or the functions`);
  return outs;
}
