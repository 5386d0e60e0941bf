// Gradient contractions written as single ONNX Runtime Gemm/MatMul nodes when a part's records spell them out in
// several (a node-by-node lowering cannot see across records): the weight gradient of a batched `x @ W`, which the
// matmul rule writes as a batched matmul summed over its batch axes, and sums over the leading axes of a rank-2 or
// rank-3 gradient (bias gradients). Both are the same sums in another order (as any two BLAS calls may differ).
import { isPrimitive, type LowerScope } from '@eagerflow/core';
import type { Graph, Node } from '../graph';
import { isGraph } from '../graph';

/** Writes a fused node's ONNX nodes: `nameOf` gives the ONNX name of a graph value; returns the node's outputs. */
export type FusedWriter = (s: LowerScope, nameOf: (v: number) => string) => string[];

/** The nodes written another way (by value-producing node) and the nodes they absorb (not written at all). */
export interface Fusions {
  readonly writers: Map<Node, FusedWriter>;
  readonly absorbed: Set<Node>;
}

interface MatmulP { readonly transposeA: boolean; readonly transposeB: boolean }
interface SumP { readonly axes: readonly number[] | null; readonly keepDims: boolean }

const staticDims = (g: Graph, v: number): number[] | null => {
  const d = g.values[v].shape;
  return d !== null && d.every((x) => x !== null) ? (d as number[]) : null;
};
const prod = (d: readonly number[]): number => d.reduce((a, b) => a * b, 1);
const isFloat = (g: Graph, v: number): boolean => g.values[v].dtype === 'float32';
/** The longest ones row a bias-gradient sum writes as a constant (256 KB). */
const MAX_ONES = 1 << 16;

/**
 * Plans the fusions of `nodes` (a part of `g`); `kept` are the values read after the part (its outputs). A value
 * a fusion hides must have one reader, the fused node, and not be kept. Parts with control flow (whose bodies read
 * outer values by name) are left as they are.
 */
export function planFusions(g: Graph, nodes: readonly Node[], kept: readonly number[]): Fusions {
  const writers = new Map<Node, FusedWriter>();
  const absorbed = new Set<Node>();
  if (nodes.some((n) => Object.values(n.params).some(isGraph))) return { writers, absorbed };
  const readers = new Map<number, number>();
  for (const n of nodes) for (const i of n.inputs) readers.set(i, (readers.get(i) ?? 0) + 1);
  for (const v of kept) readers.set(v, (readers.get(v) ?? 0) + 1);
  const producer = new Map<number, Node>();
  for (const n of nodes) for (const o of n.outputs) producer.set(o, n);
  const hidden = (v: number): Node | undefined => (readers.get(v) === 1 ? producer.get(v) : undefined);

  for (const n of nodes) {
    if (!isPrimitive(n.prim, 'sum') || !isFloat(g, n.inputs[0])) continue;
    const p = n.params as unknown as SumP;
    const xd = staticDims(g, n.inputs[0]);
    const out = staticDims(g, n.outputs[0]);
    if (xd === null || out === null || p.axes === null) continue;
    const r = xd.length;
    const axes = [...new Set(p.axes.map((a) => (a < 0 ? a + r : a)))].sort((a, b) => a - b);
    const mm = hidden(n.inputs[0]);
    const batchAxes = r >= 3 && axes.length === r - 2 && axes.every((a, k) => a === k);
    if (batchAxes && mm !== undefined && isPrimitive(mm.prim, 'matmul') && batchSummed(g, mm)) {
      // sum over batch of a_i^T b_i (a_i [M, K], b_i [M, N]) = A^T B with the batches' rows stacked: one Gemm.
      const [a, b] = mm.inputs;
      const ad = staticDims(g, a) as number[];
      const bd = staticDims(g, b) as number[];
      const rows = prod(ad.slice(0, -1));
      absorbed.add(mm);
      writers.set(n, (s, nameOf) => {
        const a2 = s.add('Reshape', [nameOf(a), s.int64s([rows, ad[r - 1]])])[0];
        const b2 = s.add('Reshape', [nameOf(b), s.int64s([rows, bd[r - 1]])])[0];
        const gemm = s.add('Gemm', [a2, b2], { transA: { i: 1 } })[0];
        return p.keepDims ? s.add('Reshape', [gemm, s.int64s(out)]) : [gemm];
      });
      continue;
    }
    // Bias gradients: a sum over the leading axes of a rank-2 or rank-3 value, as ones [1, M] @ x [M, K]. (Rank 4 is
    // left to ReduceSum: there the value is mostly a conv's, whose NHWC transposes ORT's optimizer moves through a
    // ReduceSum, making it a fast NCHW reduction, and not through a MatMul.)
    const leading = (r === 2 || r === 3) && axes.length === r - 1 && axes.every((a, k) => a === k);
    if (leading && xd.every((d) => d > 0) && prod(xd) <= MAX_ONES * xd[r - 1]) {
      const rows = prod(xd.slice(0, -1));
      writers.set(n, (s, nameOf) => {
        const ones = s.add('Constant', [], { value: { t: { dtype: 'float32', shape: [1, rows], data: new Float32Array(rows).fill(1) } } })[0];
        const x2 = r === 2 ? nameOf(n.inputs[0]) : s.add('Reshape', [nameOf(n.inputs[0]), s.int64s([rows, xd[r - 1]])])[0];
        return s.add('Reshape', [...s.add('MatMul', [ones, x2]), s.int64s(out)]);
      });
    }
  }
  return { writers, absorbed };
}

/** A batched matmul [B..., M, K]^T x [B..., M, N] with the same static batch dims on both sides, float32. */
function batchSummed(g: Graph, mm: Node): boolean {
  const p = mm.params as unknown as MatmulP;
  const [a, b] = mm.inputs;
  const ad = staticDims(g, a);
  const bd = staticDims(g, b);
  if (!p.transposeA || p.transposeB || ad === null || bd === null || !isFloat(g, a) || !isFloat(g, b)) return false;
  const r = ad.length;
  return r >= 3 && bd.length === r && ad.slice(0, r - 1).every((d, k) => d === bd[k]);
}
