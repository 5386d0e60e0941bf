// relu's gradient reads relu's output instead of its input where both are in one part: x > 0 exactly where
// relu(x) > 0 (a NaN or a zero of either sign is neither), so the mask is the same. The relu's input is then read
// by the relu alone, and ONNX Runtime's optimizer fuses a Gemm (with its bias Add) and the Relu after it into one
// FusedGemm: the MLP train step's two hidden layers each lose a Relu node and its pass over [128, 256].
import { isOnnxCodec, type OnnxSpec } from '@eagerflow/core';
import type { Graph, Node } from '../graph';
import type { FusedWriter } from './contractions';

/**
 * Adds writers to `writers` for the relu_grad nodes of `nodes` whose features input is the input of a relu written
 * earlier in `nodes` (neither node written another way nor `absorbed`): the gradient's own lowering on [dy, relu(x)].
 */
export function readReluOutputs(g: Graph, nodes: readonly Node[], writers: Map<Node, FusedWriter>, absorbed: ReadonlySet<Node>): void {
  const relus = new Map<number, Node>();
  for (const n of nodes) {
    if (absorbed.has(n) || writers.has(n)) continue;
    if (n.prim.name === 'relu' && !relus.has(n.inputs[0])) relus.set(n.inputs[0], n);
    const spec = n.prim.onnx as OnnxSpec | undefined;
    if (n.prim.name !== 'relu_grad' || spec === undefined || !isOnnxCodec(spec)) continue;
    const [dy, x] = n.inputs;
    const relu = relus.get(x);
    if (relu === undefined || g.values[relu.outputs[0]].dtype !== g.values[x].dtype) continue;
    writers.set(n, (s, nameOf) => spec.lower(s, n, [nameOf(dy), nameOf(relu.outputs[0])]));
  }
}
