// logSoftmax's records (max, stop_gradient, sub, exp, sum, log, sub: nn/activations_composites.ts) written as one
// ONNX LogSoftmax node, and their gradient's products (r / sum(exp)) · exp as r · Softmax(x). A sparse softmax
// cross-entropy and its gradient over [128, 10] logits (the MLP train step) were ReduceMax, Sub, Exp, ReduceSum,
// Log, Sub, Div, Mul: eight small ONNX Runtime nodes, now three. ONNX Runtime's kernels compute the same formulas
// (x - max - log(sum(exp(x - max))); exp(x - max) / sum) with their own exp and summation order: the values may
// differ from the records' in the last bits.
import { isOnnxCodec, type LowerScope, type OnnxCodec, type OnnxSpec } from '@eagerflow/core';
import type { Graph, Node } from '../graph';
import type { FusedWriter } from './contractions';

interface ReduceP { readonly axes: readonly number[] | null; readonly keepDims: boolean }

const staticDims = (g: Graph, v: number): number[] | null => {
  const d = g.values[v].shape;
  return d !== null && d.every((x) => x !== null) ? (d as number[]) : null;
};

const sameShape = (g: Graph, u: number, v: number): boolean => {
  const [a, b] = [staticDims(g, u), staticDims(g, v)];
  return a !== null && b !== null && a.length === b.length && a.every((d, k) => d === b[k]);
};

/**
 * Adds writers for each logSoftmax of `nodes` whose inner values (the max, the shifted logits, the log of the sum)
 * are read by its own records alone and not `kept`, and whose exp and sum are read, besides, only by gradient
 * products mul(broadcast_to?(div(r, sum)), exp) of the logits' shape: the last sub writes LogSoftmax(x), each
 * product Mul(r, Softmax(x)); the rest is absorbed. Nodes already written another way or absorbed are left alone.
 */
export function writeLogSoftmaxes(g: Graph, nodes: readonly Node[], kept: readonly number[], writers: Map<Node, FusedWriter>, absorbed: Set<Node>): void {
  const readers = new Map<number, Node[]>();
  for (const n of nodes) for (const i of n.inputs) readers.set(i, [...(readers.get(i) ?? []), n]);
  const keptSet = new Set(kept);
  const producer = new Map<number, Node>();
  for (const n of nodes) for (const o of n.outputs) producer.set(o, n);
  const free = (n: Node | undefined): n is Node => n !== undefined && !writers.has(n) && !absorbed.has(n);
  const prod = (v: number, name: string): Node | undefined => {
    const n = producer.get(v);
    return free(n) && n.prim.name === name && !keptSet.has(v) ? n : undefined;
  };
  /** Whether `v` is read exactly by `want` (as a set of nodes), once each. */
  const readOnlyBy = (v: number, want: readonly Node[]): boolean => {
    const rs = readers.get(v) ?? [];
    return rs.length === want.length && want.every((w) => rs.includes(w));
  };
  for (const last of nodes) {
    if (!free(last) || last.prim.name !== 'sub' || g.values[last.outputs[0]].dtype !== 'float32') continue;
    const [zv, lv] = last.inputs;
    const log = prod(lv, 'log');
    const sum = log === undefined ? undefined : prod(log.inputs[0], 'sum');
    const exp = sum === undefined ? undefined : prod(sum.inputs[0], 'exp');
    const shift = prod(zv, 'sub');
    if (log === undefined || sum === undefined || exp === undefined || shift === undefined || exp.inputs[0] !== zv) continue;
    const [x, mv] = shift.inputs;
    const stop = producer.get(mv)?.prim.name === 'stop_gradient' ? prod(mv, 'stop_gradient') : undefined;
    const max = prod(stop === undefined ? mv : stop.inputs[0], 'max');
    const xd = staticDims(g, x);
    if (max === undefined || max.inputs[0] !== x || xd === null || g.values[x].dtype !== 'float32') continue;
    const r = xd.length;
    const axisOf = (n: Node): number | null => {
      const p = n.params as unknown as ReduceP;
      if (p.axes === null || p.axes.length !== 1 || !p.keepDims) return null;
      return p.axes[0] < 0 ? p.axes[0] + r : p.axes[0];
    };
    const axis = axisOf(max);
    if (axis === null || axisOf(sum) !== axis || r === 0) continue;
    const same = (v: number): boolean => {
      const d = staticDims(g, v);
      return d !== null && d.length === r && d.every((k, i) => k === xd[i]);
    };
    if (!same(zv) || !same(last.outputs[0])) continue;
    // The gradient products: mul(broadcast_to?(div(rv, S)), E) of x's shape, rv broadcasting into x's shape.
    const products: { mul: Node; div: Node; bcast?: Node; rv: number }[] = [];
    const sumOut = sum.outputs[0];
    const expOut = exp.outputs[0];
    for (const mul of readers.get(expOut) ?? []) {
      if (mul === sum) continue;
      if (!free(mul) || mul.prim.name !== 'mul' || !same(mul.outputs[0])) break;
      const other = mul.inputs[0] === expOut ? mul.inputs[1] : mul.inputs[0];
      const bcast = producer.get(other)?.prim.name === 'broadcast_to' ? prod(other, 'broadcast_to') : undefined;
      const div = prod(bcast === undefined ? other : bcast.inputs[0], 'div');
      const rd = div === undefined ? null : staticDims(g, div.inputs[0]);
      if (div === undefined || div.inputs[1] !== sumOut || rd === null || rd.length !== r || !rd.every((k, i) => k === 1 || k === xd[i])) break;
      if ((bcast !== undefined && !readOnlyBy(bcast.outputs[0], [mul])) || !readOnlyBy(div.outputs[0], [bcast ?? mul])) break;
      products.push({ mul, div, bcast, rv: div.inputs[0] });
    }
    const inner = [max, ...(stop === undefined ? [] : [stop]), shift, exp, sum, log];
    const readsOk =
      readOnlyBy(max.outputs[0], [stop ?? shift]) &&
      (stop === undefined || readOnlyBy(stop.outputs[0], [shift])) &&
      readOnlyBy(zv, [exp, last]) &&
      readOnlyBy(expOut, [sum, ...products.map((q) => q.mul)]) &&
      readOnlyBy(sumOut, [log, ...products.map((q) => q.div)]) &&
      readOnlyBy(lv, [last]);
    if (!readsOk) continue;
    for (const n of [...inner, ...products.flatMap((q) => (q.bcast === undefined ? [q.div] : [q.div, q.bcast]))]) absorbed.add(n);
    const attrs = { axis: { i: axis } };
    writers.set(last, (s, nameOf) => s.add('LogSoftmax', [nameOf(x)], attrs));
    let softmax: string | null = null;
    const softmaxOf = (s: LowerScope, nameOf: (v: number) => string): string => (softmax ??= s.add('Softmax', [nameOf(x)], attrs)[0]);
    for (const q of products) {
      const folded = negatedSum(q.rv, q.div, q.mul);
      if (folded === null) {
        writers.set(q.mul, (s, nameOf) => s.add('Mul', [nameOf(q.rv), softmaxOf(s, nameOf)]));
        continue;
      }
      // a + sum(-a) · softmax = a - sum(a) · softmax: negation commutes with the sum's roundings, so the values are
      // the same but for the sign of a zero (a row of zeros sums to +0 either way: -0 - 0 is -0 where -0 + 0 was +0).
      const { add, a, sumNode, chain } = folded;
      for (const n of [q.mul, sumNode, ...chain]) absorbed.add(n);
      const lowerSum = sumNode.prim.onnx as OnnxCodec;
      writers.set(add, (s, nameOf) => s.add('Sub', [nameOf(a), s.add('Mul', [lowerSum.lower(s, sumNode, [nameOf(a)])[0], softmaxOf(s, nameOf)])[0]]));
    }
  }

  /**
   * For a gradient product `mul` of `rv` (read by `div`) = [no-op reshape of] sum(neg(a)) whose only reader is add(a, mul): that
   * add, a, the sum and the nodes between (neg, reshape), each read once and not kept; else null.
   */
  function negatedSum(rv: number, div: Node, mul: Node): { add: Node; a: number; sumNode: Node; chain: Node[] } | null {
    const chain: Node[] = [];
    let v = rv;
    const reshape = prod(v, 'reshape');
    if (reshape !== undefined) {
      const [i, o] = [staticDims(g, reshape.inputs[0]), staticDims(g, v)];
      if (reshape.inputs.length !== 1 || i === null || o === null || i.length !== o.length || !i.every((d, k) => d === o[k]) || !readOnlyBy(v, [div])) return null;
      chain.push(reshape);
      v = reshape.inputs[0];
    }
    const sumNode = prod(v, 'sum');
    const neg = sumNode === undefined ? undefined : prod(sumNode.inputs[0], 'neg');
    if (sumNode === undefined || neg === undefined || !readOnlyBy(v, [chain[0] ?? div]) || !readOnlyBy(neg.outputs[0], [sumNode]) || !isOnnxCodec(sumNode.prim.onnx as OnnxSpec)) return null;
    const a = neg.inputs[0];
    const adds = readers.get(mul.outputs[0]) ?? [];
    const add = adds[0];
    if (adds.length !== 1 || !free(add) || add.prim.name !== 'add' || keptSet.has(mul.outputs[0]) || !add.inputs.includes(a) || !add.inputs.includes(mul.outputs[0]) || !sameShape(g, add.outputs[0], mul.outputs[0])) return null;
    chain.push(neg);
    return { add, a, sumNode, chain };
  }
}
