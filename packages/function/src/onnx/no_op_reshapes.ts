// reshape records whose static input shape is already the target shape (a gradient reshaping a keepDims sum back to
// the shape it has: the MLP train step's [128, 1] in its cross-entropy gradient) are written as no node: ONNX
// Runtime runs every Reshape as a node of its own (a copy-free one, but a scheduled kernel all the same).
import type { Graph, Node } from '../graph';
import type { FusedWriter } from './contractions';

const staticDims = (g: Graph, v: number): number[] | null => {
  const d = g.values[v].shape;
  return d !== null && d.every((x) => x !== null) ? (d as number[]) : null;
};

/** Adds writers for the one-input reshape nodes of `nodes` (not written another way, not `absorbed`) whose static input and output shapes are equal: the input's name. */
export function elideNoOpReshapes(g: Graph, nodes: readonly Node[], writers: Map<Node, FusedWriter>, absorbed: ReadonlySet<Node>): void {
  for (const n of nodes) {
    if (n.prim.name !== 'reshape' || n.inputs.length !== 1 || writers.has(n) || absorbed.has(n)) continue;
    const a = staticDims(g, n.inputs[0]);
    const b = staticDims(g, n.outputs[0]);
    if (a === null || b === null || a.length !== b.length || !a.every((d, k) => d === b[k])) continue;
    writers.set(n, (_s, nameOf) => [nameOf(n.inputs[0])]);
  }
}
