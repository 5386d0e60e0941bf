// einsum when operand dims (or ranks, without an ellipsis) are known only at run time: the same lowering as the static
// path (diagonals of repeated labels, one batched matmul for two operands, else broadcasting products and sums), with
// every size read from the run-time shapes. Sizes a label must share are checked when the graph runs (TF's Einsum
// kernel raises there), so no dim of size 1 broadcasts silently.
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { positionsAlong } from '../array/runtime_shape';
import { negZerosLike, prod1, zerosOfLength } from '../array/runtime_util';

/** Ellipsis dims get these private labels (right-aligned), so they broadcast like numpy's. */
export const ELL = '0123456789';

export interface DynOperand {
  t: Tensor;
  labels: string[];
}

const dimAt = (t: Tensor, i: number): Tensor => o.slice(o.shapeOf(t), [i], [1]);
/** A zero scalar that raises when the graph runs unless the [1] sizes a and b are equal (slices of an a-vector to b and back). */
function equalGuard(a: Tensor, b: Tensor): Tensor {
  const zeros = zerosOfLength(a);
  return o.reduceSum(o.sliceDynOf(o.sliceDynOf(zeros, o.ints([0]), b), o.ints([0]), a));
}
/** Transposes only for a real permutation: tfjs-webgl's transpose shader fails to compile for identity perms of rank 1. */
export function tr(t: Tensor, perm: number[]): Tensor {
  return perm.every((p, i) => p === i) ? t : o.transpose(t, perm);
}

/**
 * The labels of two operands split for one batched matmul: in both and kept (batch), in both and summed (con), in one
 * only (fa, fb). The matmul applies when every one-operand label is kept (`fits`).
 */
export function matmulLabels(lx: string[], ly: string[], out: string[]): { both: string[]; batch: string[]; con: string[]; fa: string[]; fb: string[]; fits: boolean } {
  const both = lx.filter((c) => ly.includes(c));
  const batch = both.filter((c) => out.includes(c));
  const con = both.filter((c) => !out.includes(c));
  const fa = lx.filter((c) => !ly.includes(c));
  const fb = ly.filter((c) => !lx.includes(c));
  return { both, batch, con, fa, fb, fits: [...fa, ...fb].every((c) => out.includes(c)) };
}

/** The diagonal over every repeated label ('ii' -> 'i'): a select (off the diagonal -0, so a sum keeps a -0 diagonal's sign). */
function dedupeDyn(t: Tensor, labels: string[], guards: Tensor[]): DynOperand {
  for (let q = 1; q < labels.length; q++) {
    const p = labels.indexOf(labels[q]);
    if (p === q) continue;
    guards.push(equalGuard(dimAt(t, p), dimAt(t, q)));
    const off = negZerosLike(t);
    const r = o.reduceSum(o.where(o.equal(positionsAlong(t, p), positionsAlong(t, q)), t, off), [q]);
    return dedupeDyn(r, labels.filter((_, i) => i !== q), guards);
  }
  return { t, labels };
}

export function einsumDyn(operands: DynOperand[], out: string[]): Tensor {
  const guards: Tensor[] = [];
  const items = operands.map(({ t, labels }) => dedupeDyn(t, labels, guards));
  // Each label's size from its first operand; every other occurrence must equal it.
  const size = new Map<string, Tensor>();
  for (const { t, labels } of items) {
    labels.forEach((c, i) => {
      const s = size.get(c);
      if (s === undefined) size.set(c, dimAt(t, i));
      else if (!ELL.includes(c)) guards.push(equalGuard(s, dimAt(t, i)));
    });
  }
  const sizes = (ls: string[]): Tensor => (ls.length === 0 ? o.fill([0], 0, 'int32') : o.concat(ls.map((c) => size.get(c) as Tensor), 0));
  const n = (ls: string[]): Tensor => prod1(sizes(ls));
  let result: Tensor;
  // Ellipsis dims broadcast (1 against n, as numpy's): the general path's multiplies do that; the matmul needs equal sizes.
  if (items.length === 2 && !items.some(({ labels }) => labels.some((c) => ELL.includes(c)))) {
    const [{ t: x, labels: lx }, { t: y, labels: ly }] = items;
    const { batch, con, fa, fb, fits } = matmulLabels(lx, ly, out);
    if (fits) {
      const a = o.reshapeDynOf(tr(x, [...batch, ...fa, ...con].map((c) => lx.indexOf(c))), o.concat([n(batch), n(fa), n(con)], 0));
      const b = o.reshapeDynOf(tr(y, [...batch, ...con, ...fb].map((c) => ly.indexOf(c))), o.concat([n(batch), n(con), n(fb)], 0));
      const prodLabels = [...batch, ...fa, ...fb];
      const r = o.reshapeDynOf(o.matmul(a, b), o.reshape(sizes(prodLabels), [prodLabels.length]));
      result = tr(r, out.map((c) => prodLabels.indexOf(c)));
      return checked(result, guards);
    }
  }
  const all: string[] = [];
  for (const { labels } of items) for (const c of labels) if (!all.includes(c)) all.push(c);
  // Each operand transposed to the common label order, with size-1 axes for the labels it lacks.
  const aligned = items.map(({ t, labels }) => {
    let a = tr(t, all.filter((c) => labels.includes(c)).map((c) => labels.indexOf(c)));
    all.forEach((c, i) => {
      if (!labels.includes(c)) a = o.expandDims(a, i);
    });
    return a;
  });
  let prod = aligned.reduce((acc, t) => o.mul(acc, t));
  const summed = all.map((c, i) => (out.includes(c) ? -1 : i)).filter((i) => i >= 0);
  if (summed.length > 0) prod = o.reduceSum(prod, summed);
  const kept = all.filter((c) => out.includes(c));
  return checked(tr(prod, out.map((c) => kept.indexOf(c))), guards);
}

/** The result reshaped to its own shape plus the guards' zero: the graph keeps (and runs) every size check. */
function checked(r: Tensor, guards: Tensor[]): Tensor {
  if (guards.length === 0) return r;
  const g = guards.reduce((a, b) => o.add(a, b));
  const shape = o.add(o.shapeOf(r), g);
  return r.rank === null ? o.reshapeDynOf(r, shape) : o.reshapeDynOf(r, o.reshape(shape, [r.rank]));
}
