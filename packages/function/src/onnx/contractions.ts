// Gradient contractions written as single ONNX Runtime Gemm/MatMul nodes when a part's records spell them out in
// several (a node-by-node lowering cannot see across records): the weight gradient of a batched `x @ W`, which the
// matmul rule writes as a batched matmul summed over its batch axes; sums over the leading axes of a rank-2 or
// rank-3 gradient (bias gradients); and an SGD step w - c * (a @ b), Gemm's C input with alpha = -c. The first two
// are the same sums in another order (as any two BLAS calls may differ); in the third, MLAS may round c * (a @ b)
// and the subtraction once (a fused multiply-add) where the records round twice: a last-bit difference in w.
import { backend, isPrimitive, type LowerScope } from '@eagerflow/core';
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
const size = (d: readonly number[]): number => d.reduce((a, b) => a * b, 1);
const isFloat = (g: Graph, v: number): boolean => g.values[v].dtype === 'float32';
/** The longest ones row a bias-gradient sum writes as a constant (256 KB). */
const MAX_ONES = 1 << 16;

/** A Gemm's operands: graph values `a` and `b` (seen as [rows, cols] when `rows` is set) and its transpose flags. */
interface GemmOperands {
  readonly a: number;
  readonly b: number;
  readonly transA: boolean;
  readonly transB: boolean;
  /** Stacked rows of a batched product's operands (both flattened to [rows, last dim]), or null for rank 2. */
  readonly rows: number | null;
  /** The nodes the Gemm stands for. */
  readonly nodes: readonly Node[];
}

/** The Gemm node of `o` plus `extra` inputs (C) and attrs; operands of a batched product are flattened first. */
function writeGemm(s: LowerScope, nameOf: (v: number) => string, g: Graph, o: GemmOperands, c: readonly string[] = [], attrs: Record<string, { f: number }> = {}): string {
  const flat = (v: number): string => {
    if (o.rows === null) return nameOf(v);
    const d = staticDims(g, v) as number[];
    return s.add('Reshape', [nameOf(v), s.int64s([o.rows, d[d.length - 1]])])[0];
  };
  return s.add('Gemm', [flat(o.a), flat(o.b), ...c], { transA: { i: o.transA ? 1 : 0 }, transB: { i: o.transB ? 1 : 0 }, ...attrs })[0];
}

/** A float32 scalar constant's value (a captured constant of one element), or null. */
function scalarConst(g: Graph, v: number): number | null {
  const val = g.values[v];
  if (val.kind !== 'const' || val.constant === undefined || val.dtype !== 'float32' || size(val.constant.shape) !== 1) return null;
  return (backend.readInfoSync(val.constant) as Float32Array)[0];
}

/**
 * Plans the fusions of `nodes` (a part of `g`); `kept` are the values read after the part (its outputs). A value
 * a fusion hides must have one reader, the fused node, and not be kept. `flatOutputs`: values read only as outputs
 * may be written in another shape of their size (buildModel's flag). Parts with control flow (whose bodies read
 * outer values by name) are left as they are.
 */
/** Within a part's `nodes`: how many nodes read each value (values in `kept` count one more), and each value's producer. */
export function partUses(nodes: readonly Node[], kept: readonly number[]): { readers: Map<number, number>; producer: Map<number, Node> } {
  const readers = new Map<number, number>();
  for (const n of nodes) for (const i of n.inputs) readers.set(i, (readers.get(i) ?? 0) + 1);
  for (const v of kept) readers.set(v, (readers.get(v) ?? 0) + 1);
  const producer = new Map<number, Node>();
  for (const n of nodes) for (const o of n.outputs) producer.set(o, n);
  return { readers, producer };
}

export function planFusions(g: Graph, nodes: readonly Node[], kept: readonly number[], flatOutputs = false): Fusions {
  const writers = new Map<Node, FusedWriter>();
  const absorbed = new Set<Node>();
  if (nodes.some((n) => Object.values(n.params).some(isGraph))) return { writers, absorbed };
  const { readers, producer } = partUses(nodes, kept);
  const hidden = (v: number): Node | undefined => (readers.get(v) === 1 ? producer.get(v) : undefined);

  /** The batched product a sum over its batch axes reads (hidden), or null. */
  const batchedUnder = (n: Node): Node | null => {
    if (!isPrimitive(n.prim, 'sum') || !isFloat(g, n.inputs[0])) return null;
    const p = n.params as unknown as SumP;
    const xd = staticDims(g, n.inputs[0]);
    if (xd === null || p.axes === null || staticDims(g, n.outputs[0]) === null) return null;
    const r = xd.length;
    const axes = sortedAxes(p.axes, r);
    const mm = hidden(n.inputs[0]);
    const batchAxes = r >= 3 && axes.length === r - 2 && axes.every((a, k) => a === k);
    return batchAxes && mm !== undefined && isPrimitive(mm.prim, 'matmul') && batchSummed(g, mm) ? mm : null;
  };
  /** The Gemm operands of value `v` when its producer (hidden) is a rank-2 matmul, or a batched x^T dy summed over its batch (then maybe reshaped to rank 2). */
  const gemmOf = (v: number): GemmOperands | null => {
    let n = hidden(v);
    if (n === undefined) return null;
    const chain: Node[] = [];
    if (isPrimitive(n.prim, 'reshape') && staticDims(g, v)?.length === 2) {
      chain.push(n);
      n = hidden(n.inputs[0]);
      if (n === undefined) return null;
    }
    if (isPrimitive(n.prim, 'matmul') && chain.length === 0) {
      const [a, b] = n.inputs;
      const p = n.params as unknown as MatmulP;
      const ok = isFloat(g, a) && isFloat(g, b) && staticDims(g, a)?.length === 2 && staticDims(g, b)?.length === 2;
      return ok ? { a, b, transA: p.transposeA, transB: p.transposeB, rows: null, nodes: [n] } : null;
    }
    const mm = batchedUnder(n);
    if (mm === null || (chain.length === 0 && (n.params as unknown as SumP).keepDims)) return null;
    const ad = staticDims(g, mm.inputs[0]) as number[];
    return { a: mm.inputs[0], b: mm.inputs[1], transA: true, transB: false, rows: size(ad.slice(0, -1)), nodes: [...chain, n, mm] };
  };

  /** The leading-axes sum of a rank-2/3 value `v` comes from (hidden, maybe through hidden reshapes), as ones [1, rows] @ x [rows, K]; or null. */
  const leadingSumOf = (v: number): GemmOperands | null => {
    let n = hidden(v);
    const chain: Node[] = [];
    while (n !== undefined && isPrimitive(n.prim, 'reshape') && chain.length < 2) {
      chain.push(n);
      n = hidden(n.inputs[0]);
    }
    if (n === undefined || !isPrimitive(n.prim, 'sum') || !isFloat(g, n.inputs[0])) return null;
    const p = n.params as unknown as SumP;
    const xd = staticDims(g, n.inputs[0]);
    if (xd === null || p.axes === null || staticDims(g, n.outputs[0]) === null) return null;
    const r = xd.length;
    const axes = sortedAxes(p.axes, r);
    const leading = (r === 2 || r === 3) && axes.length === r - 1 && axes.every((a, k) => a === k);
    if (!leading || !xd.every((d) => d > 0) || size(xd) > MAX_ONES * xd[r - 1]) return null;
    return { a: -1, b: n.inputs[0], transA: false, transB: false, rows: size(xd.slice(0, -1)), nodes: [...chain, n] };
  };

  // SGD steps on a weight: w - c * (a @ b) -> Gemm(a, b, w, alpha = -c, beta = 1): the update rides the product's
  // output pass (MLP 784-256-256-10: the [784, 256] Mul and Sub after the Gemm were ~150 us of ORT profile time).
  // On a bias [K], w - c * sum(x over leading axes) -> Gemm(ones [1, rows], x, w, alpha = -c) reshaped to [K]: two
  // nodes for the five of MatMul, two Reshapes, Mul and Sub (MLP step: 52 -> 43 ORT nodes).
  for (const n of nodes) {
    if (!isPrimitive(n.prim, 'sub') || !isFloat(g, n.inputs[0])) continue;
    const [w, m] = n.inputs;
    const mul = hidden(m);
    const wd = staticDims(g, w);
    if (mul === undefined || !isPrimitive(mul.prim, 'mul') || wd === null || (wd.length !== 2 && wd.length !== 1) || !sameDims(staticDims(g, n.outputs[0]), wd)) continue;
    const k = scalarConst(g, mul.inputs[1]) !== null ? 1 : scalarConst(g, mul.inputs[0]) !== null ? 0 : -1;
    if (k < 0 || !sameDims(staticDims(g, mul.inputs[1 - k]), wd)) continue;
    const c = scalarConst(g, mul.inputs[k]) as number;
    const update = { alpha: { f: -c }, beta: { f: 1 } };
    if (wd.length === 1) {
      const o = leadingSumOf(mul.inputs[1 - k]);
      const xd = o === null ? null : (staticDims(g, o.b) as number[]);
      if (o === null || xd === null || xd[xd.length - 1] !== wd[0]) continue;
      [mul, ...o.nodes].forEach((x) => absorbed.add(x));
      const outputOnly = flatOutputs && readers.get(n.outputs[0]) === 1 && kept.includes(n.outputs[0]);
      writers.set(n, (s, nameOf) => {
        const rows = o.rows as number;
        const ones = s.add('Constant', [], { value: { t: { dtype: 'float32', shape: [1, rows], data: new Float32Array(rows).fill(1) } } })[0];
        const x2 = xd.length === 2 ? nameOf(o.b) : s.add('Reshape', [nameOf(o.b), s.int64s([rows, wd[0]])])[0];
        const gemm = s.add('Gemm', [ones, x2, nameOf(w)], update)[0];
        // Read only as an output of a compiled segment: its [1, K] is adopted as [K] (no Reshape node).
        return outputOnly ? [gemm] : s.add('Reshape', [gemm, s.int64s(wd)]);
      });
      continue;
    }
    const o = gemmOf(mul.inputs[1 - k]);
    if (o === null) continue;
    [mul, ...o.nodes].forEach((x) => absorbed.add(x));
    writers.set(n, (s, nameOf) => [writeGemm(s, nameOf, g, o, [nameOf(w)], update)]);
  }

  for (const n of nodes) {
    if (absorbed.has(n) || !isPrimitive(n.prim, 'sum') || !isFloat(g, n.inputs[0])) continue;
    const p = n.params as unknown as SumP;
    const xd = staticDims(g, n.inputs[0]);
    const out = staticDims(g, n.outputs[0]);
    if (xd === null || out === null || p.axes === null) continue;
    const r = xd.length;
    const axes = sortedAxes(p.axes, r);
    const mm = batchedUnder(n);
    if (mm !== null) {
      // sum over batch of a_i^T b_i (a_i [M, K], b_i [M, N]) = A^T B with the batches' rows stacked: one Gemm.
      const o: GemmOperands = { a: mm.inputs[0], b: mm.inputs[1], transA: true, transB: false, rows: size(xd.slice(0, -2)) * (staticDims(g, mm.inputs[0]) as number[])[r - 2], nodes: [mm] };
      absorbed.add(mm);
      writers.set(n, (s, nameOf) => {
        const gemm = writeGemm(s, nameOf, g, o);
        return p.keepDims ? s.add('Reshape', [gemm, s.int64s(out)]) : [gemm];
      });
      continue;
    }
    // Bias gradients: a sum over the leading axes of a rank-2 or rank-3 value, as ones [1, M] @ x [M, K]. (Rank 4 is
    // left to ReduceSum: there the value is mostly a conv's, whose NHWC transposes ORT's optimizer moves through a
    // ReduceSum, making it a fast NCHW reduction, and not through a MatMul.)
    const leading = (r === 2 || r === 3) && axes.length === r - 1 && axes.every((a, k) => a === k);
    if (leading && xd.every((d) => d > 0) && size(xd) <= MAX_ONES * xd[r - 1]) {
      const rows = size(xd.slice(0, -1));
      writers.set(n, (s, nameOf) => {
        const ones = s.add('Constant', [], { value: { t: { dtype: 'float32', shape: [1, rows], data: new Float32Array(rows).fill(1) } } })[0];
        const x2 = r === 2 ? nameOf(n.inputs[0]) : s.add('Reshape', [nameOf(n.inputs[0]), s.int64s([rows, xd[r - 1]])])[0];
        return s.add('Reshape', [...s.add('MatMul', [ones, x2]), s.int64s(out)]);
      });
    }
  }
  return { writers, absorbed };
}

const sortedAxes = (axes: readonly number[], r: number): number[] => [...new Set(axes.map((a) => (a < 0 ? a + r : a)))].sort((a, b) => a - b);
const sameDims = (a: readonly number[] | null, b: readonly number[]): boolean => a !== null && a.length === b.length && a.every((d, k) => d === b[k]);

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
