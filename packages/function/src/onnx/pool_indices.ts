// A 2-D max pool and its gradient in one part share one MaxPool node with Indices: the gradient's lowering
// recomputes MaxPool's Indices from the pool's input, and ONNX Runtime's MaxPool with Indices costs several times
// the plain one (conv train step, [16,28,28,8]: ~120-170 us against ~30-35 us in ORT profiles), so the forward
// pool takes the Indices node's output instead of a MaxPool of its own.
import { maxPoolGradFromIndices, maxPoolWithIndices } from '@eagerflow/core';
import type { Graph, Node } from '../graph';
import type { FusedWriter } from './contractions';

interface PoolP {
  readonly ksize: readonly number[];
  readonly strides: readonly number[];
  readonly padding: 'SAME' | 'VALID';
  readonly dataFormat: string;
}

const staticDims = (g: Graph, v: number): number[] | null => {
  const d = g.values[v].shape;
  return d !== null && d.every((x) => x !== null) ? (d as number[]) : null;
};
const sameInts = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((d, k) => d === b[k]);
const samePool = (p: PoolP, q: PoolP): boolean => sameInts(p.ksize, q.ksize) && sameInts(p.strides, q.strides) && p.padding === q.padding && p.dataFormat === q.dataFormat;
const nhwc4 = (g: Graph, p: PoolP, v: number): boolean => (p.dataFormat === 'NHWC' || p.dataFormat === undefined) && g.values[v].dtype === 'float32' && staticDims(g, v)?.length === 4;

/**
 * Adds writers to `writers` for each max_pool_grad of `nodes` whose pooled input `y` is the output of a max_pool
 * of the same `x` and window in `nodes` (neither written another way nor `absorbed`): the pool writes MaxPool with
 * Indices, the gradient scatters dy by them.
 */
export function shareMaxPoolIndices(g: Graph, nodes: readonly Node[], writers: Map<Node, FusedWriter>, absorbed: ReadonlySet<Node>): void {
  const producer = new Map<number, Node>();
  for (const n of nodes) for (const o of n.outputs) producer.set(o, n);
  for (const n of nodes) {
    if (n.prim.name !== 'max_pool_grad' || writers.has(n) || absorbed.has(n)) continue;
    const [x, y, dy] = n.inputs;
    const pool = producer.get(y);
    if (pool === undefined || pool.prim.name !== 'max_pool' || pool.inputs[0] !== x || writers.has(pool) || absorbed.has(pool)) continue;
    const [p, q] = [n.params as unknown as PoolP, pool.params as unknown as PoolP];
    const xs = staticDims(g, x);
    const ys = staticDims(g, y);
    if (!samePool(p, q) || xs === null || ys === null || !nhwc4(g, p, x) || !nhwc4(g, p, dy)) continue;
    let indices: string | null = null;
    writers.set(pool, (s, nameOf) => {
      const [out, idx] = maxPoolWithIndices(s, q, xs, ys, nameOf(x));
      indices = idx;
      return [out];
    });
    writers.set(n, (s, nameOf) => [maxPoolGradFromIndices(s, p, xs, ys, nameOf(dy), indices as string)]);
  }
}
