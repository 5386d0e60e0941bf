// broadcast_to values that only ONNX's broadcasting elementwise ops read, each of whose results already has the
// target shape, need no Expand: the readers take the value as it was, and multidirectional broadcasting gives them
// the same elements (a gradient's broadcast of a reduced value into a mask, a product or a sum). Each Expand
// elided saves a pass writing the whole target (attention train step: [8,32,64] and [8,32,32] ones).
import type { Graph, Node } from '../graph';
import type { FusedWriter } from './contractions';

/** Records lowered to one ONNX op that broadcasts all its inputs (Add, Sub, Mul, Div, Where, Max, Min). */
const BROADCASTING = new Set(['add', 'sub', 'mul', 'div', 'select', 'maximum', 'minimum']);

const staticDims = (g: Graph, v: number): number[] | null => {
  const d = g.values[v].shape;
  return d !== null && d.every((x) => x !== null) ? (d as number[]) : null;
};

/**
 * Adds writers to `writers` for the broadcast_to nodes of `nodes` whose output every reader can take unexpanded:
 * readers written node by node (not fused, not `absorbed`), broadcasting, with results of the target shape and
 * another input of that shape; the output is not `kept` (read after the part).
 */
export function elideBroadcasts(g: Graph, nodes: readonly Node[], kept: readonly number[], writers: Map<Node, FusedWriter>, absorbed: ReadonlySet<Node>): void {
  const readers = new Map<number, Node[]>();
  for (const n of nodes) for (const i of n.inputs) readers.set(i, [...(readers.get(i) ?? []), n]);
  const keptSet = new Set(kept);
  const broadcastOuts = new Set(nodes.filter((n) => n.prim.name === 'broadcast_to').map((n) => n.outputs[0]));
  for (const n of nodes) {
    if (n.prim.name !== 'broadcast_to' || n.inputs.length !== 1 || writers.has(n) || absorbed.has(n)) continue;
    const out = n.outputs[0];
    const target = staticDims(g, out);
    const rs = readers.get(out) ?? [];
    if (target === null || keptSet.has(out) || rs.length === 0 || staticDims(g, n.inputs[0]) === null) continue;
    const same = (d: number[] | null): boolean => d !== null && d.length === target.length && d.every((x, k) => x === target[k]);
    // Another input of full shape (and no broadcast itself) keeps each reader's result shape.
    const fullOther = (r: Node): boolean => r.inputs.some((i) => i !== out && !broadcastOuts.has(i) && same(staticDims(g, i)));
    if (!rs.every((r) => BROADCASTING.has(r.prim.name) && !writers.has(r) && !absorbed.has(r) && same(staticDims(g, r.outputs[0])) && fullOther(r))) continue;
    writers.set(n, (_s, nameOf) => [nameOf(n.inputs[0])]);
  }
}
