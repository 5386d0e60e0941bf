// A class mask equal(expand_dims(gather(ids, labels), -1), ids) over a constant ids = range(C) (the sparse
// cross-entropies' classMask, nn/losses.ts) is row `label` of the C x C identity: one ONNX Gather of a constant
// bool identity by the labels, for Gather, Unsqueeze and Equal. The same elements, and the same bounds as the gather
// it replaces: a label outside [0, C) fails the run (a negative one too, nonNegativeIndices: ONNX would count it from
// the end), and the segment's uncompiled replay raises the gather's error.
import { backend, nonNegativeIndices } from '@eagerflow/core';
import type { Graph, Node } from '../graph';
import { type FusedWriter, partUses } from './contractions';

/** The largest class count written as an identity (C² bools: 1 MB). */
const MAX_CLASSES = 1024;

/** Whether value `v` is a captured int32 constant [0, 1, ..., C - 1] of rank 1; its C, or null. */
function rangeLength(g: Graph, v: number): number | null {
  const val = g.values[v];
  if (val.kind !== 'const' || val.constant === undefined || val.dtype !== 'int32' || val.constant.shape.length !== 1) return null;
  const c = val.constant.shape[0];
  if (c < 1 || c > MAX_CLASSES) return null;
  const data = backend.readInfoSync(val.constant) as ArrayLike<number>;
  for (let i = 0; i < c; i++) if (data[i] !== i) return null;
  return c;
}

/**
 * Adds writers for the equal nodes of `nodes` that compare expand_dims(gather(ids, labels, axis 0), -1) with ids, a
 * constant range: Gather(identity, labels). The gather and expand_dims are absorbed when the mask alone reads them
 * and they are not `kept`.
 */
export function writeClassMasks(g: Graph, nodes: readonly Node[], kept: readonly number[], writers: Map<Node, FusedWriter>, absorbed: Set<Node>): void {
  const { readers, producer } = partUses(nodes, kept);
  const free = (n: Node | undefined, name: string): n is Node => n !== undefined && n.prim.name === name && !writers.has(n) && !absorbed.has(n) && readers.get(n.outputs[0]) === 1;
  for (const eq of nodes) {
    if (eq.prim.name !== 'equal' || writers.has(eq) || absorbed.has(eq)) continue;
    const [lhs, ids] = eq.inputs;
    const expand = producer.get(lhs);
    if (!free(expand, 'expand_dims') || ((expand.params as unknown as { axis: number }).axis !== -1 && (expand.params as unknown as { axis: number }).axis !== 1)) continue;
    const gather = producer.get(expand.inputs[0]);
    if (!free(gather, 'gather') || gather.inputs[0] !== ids || gather.inputs.length !== 2 || (gather.params as unknown as { axis: number }).axis !== 0) continue;
    const labels = gather.inputs[1];
    const c = rangeLength(g, ids);
    const ld = g.values[labels].shape;
    if (c === null || g.values[labels].dtype !== 'int32' || ld === null || ld.length !== 1) continue;
    absorbed.add(gather);
    absorbed.add(expand);
    writers.set(eq, (s, nameOf) => {
      const eye = new Uint8Array(c * c);
      for (let i = 0; i < c; i++) eye[i * c + i] = 1;
      const table = s.add('Constant', [], { value: { t: { dtype: 'bool', shape: [c, c], data: eye } } })[0];
      return s.add('Gather', [table, nonNegativeIndices(s, nameOf(labels), 'int32', labels)], { axis: { i: 0 } });
    });
  }
}
