// A mean of negated values, div(sum(neg(u)), c) for a constant c (the cross-entropies' reduceMean of -picked
// log-probabilities), is written Div(ReduceSum(u), -c): the same values, as negation commutes with every rounding
// of the sum and the quotient, but for the sign of a zero: ONNX Runtime sums zeros to +0 either way, so an all-zero
// mean is -0 (+0 / -c) where the unfolded nodes give +0. One Neg node fewer (the MLP train step's loss).
import { backend, isOnnxCodec, type OnnxSpec } from '@eagerflow/core';
import type { Graph, Node } from '../graph';
import { type FusedWriter, partUses } from './contractions';

/** A float32 scalar constant's value (a captured constant of one element), or null. */
function scalarConst(g: Graph, v: number): number | null {
  const val = g.values[v];
  if (val.kind !== 'const' || val.constant === undefined || val.dtype !== 'float32' || val.constant.shape.reduce((a, b) => a * b, 1) !== 1) return null;
  return (backend.readInfoSync(val.constant) as Float32Array)[0];
}

/** Adds writers for the div nodes of `nodes` dividing sum(neg(u)) (each read once, not `kept`) by a float32 scalar constant. */
export function foldNegatedSums(g: Graph, nodes: readonly Node[], kept: readonly number[], writers: Map<Node, FusedWriter>, absorbed: Set<Node>): void {
  const { readers, producer } = partUses(nodes, kept);
  const once = (v: number, name: string): Node | undefined => {
    const n = producer.get(v);
    return n !== undefined && n.prim.name === name && readers.get(v) === 1 && !writers.has(n) && !absorbed.has(n) ? n : undefined;
  };
  for (const div of nodes) {
    if (div.prim.name !== 'div' || writers.has(div) || absorbed.has(div) || g.values[div.outputs[0]].dtype !== 'float32') continue;
    const c = scalarConst(g, div.inputs[1]);
    const sum = once(div.inputs[0], 'sum');
    const neg = sum === undefined ? undefined : once(sum.inputs[0], 'neg');
    const spec = sum?.prim.onnx as OnnxSpec | undefined;
    if (c === null || sum === undefined || neg === undefined || spec === undefined || !isOnnxCodec(spec) || g.values[neg.inputs[0]].dtype !== 'float32') continue;
    absorbed.add(sum);
    absorbed.add(neg);
    writers.set(div, (s, nameOf) => s.add('Div', [spec.lower(s, sum, [nameOf(neg.inputs[0])])[0], s.scalar(-c, 'float32')]));
  }
}
