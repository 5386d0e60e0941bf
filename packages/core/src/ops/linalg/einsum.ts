// einsum: parses the equation and lowers it to diagonal masks, transposes, broadcasting multiplies and reductions.
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { argError } from '../check';
import { Dim, diagonalMask, dim, dimsOf, isKnown, negZerosLike, reshapeTo, withDim, withRank } from '../array/symbolic_dims';

/** Ellipsis dims get these private labels (right-aligned), so they broadcast like numpy's. */
const ELL = '0123456789';

/** Transposes only for a real permutation: tfjs-webgl's transpose shader fails to compile for identity perms of rank 1. */
function tr(t: Tensor, perm: number[]): Tensor {
  return perm.every((p, i) => p === i) ? t : o.transpose(t, perm);
}

/**
 * The labels of two operands split for one batched matmul: in both and kept (batch), in both and summed (con), in one
 * only (fa, fb). The matmul applies when every one-operand label is kept (`fits`).
 */
function matmulLabels(lx: string[], ly: string[], out: string[]): { both: string[]; batch: string[]; con: string[]; fa: string[]; fb: string[]; fits: boolean } {
  const both = lx.filter((c) => ly.includes(c));
  const batch = both.filter((c) => out.includes(c));
  const con = both.filter((c) => !out.includes(c));
  const fa = lx.filter((c) => !ly.includes(c));
  const fb = ly.filter((c) => !lx.includes(c));
  return { both, batch, con, fa, fb, fits: [...fa, ...fb].every((c) => out.includes(c)) };
}

const OP = 'einsum';

function bad(what: string, got: string, expected: string, fix: string): Error {
  return argError(OP, what, got, expected, fix);
}

/** Splits one operand's subscripts into labels, expanding '...' to the operand's leftover dims. */
function labelsOf(sub: string, rank: number, eq: string): string[] {
  const parts = sub.split('...');
  if (parts.length > 2) throw bad('an operand has more than one ellipsis', `'${eq}'`, "at most one '...' per operand", 'Remove the extra ellipsis.');
  for (const ch of parts.join('')) if (!/[a-zA-Z]/.test(ch)) throw bad('subscripts must be letters', `'${ch}' in '${eq}'`, 'letters a-z, A-Z and one optional ...', 'Fix the equation.');
  const named = parts.join('').length;
  if (parts.length === 1) {
    if (named !== rank) throw bad('an operand has the wrong number of subscripts', `'${sub}' for rank ${rank}`, `${rank} subscripts`, 'Give one letter per dim (or use ...).');
    return [...sub];
  }
  const e = rank - named;
  if (e < 0 || e > ELL.length) throw bad('an operand has more subscripts than dims', `'${sub}' for rank ${rank}`, `at most ${rank} letters`, 'Fix the equation.');
  return [...parts[0], ...ELL.slice(ELL.length - e), ...parts[1]];
}

/**
 * Takes the diagonal over every repeated label of one operand ('ii' -> 'i'): a select (off the diagonal -0, so a sum
 * keeps a -0 diagonal's sign, as TF's diag_part; and an off-diagonal inf or NaN never reaches the diagonal). Sizes
 * only the run time knows are checked then (withDim).
 */
function dedupe(t: Tensor, labels: string[], dims: Dim[]): Item {
  for (let q = 1; q < labels.length; q++) {
    const p = labels.indexOf(labels[q]);
    if (p === q) continue;
    const same = dim.equal(dims[p], dims[q]);
    if (same === false) throw bad(`repeated label '${labels[q]}' spans dims of different sizes`, `${String(dims[p])} and ${String(dims[q])}`, 'equal sizes', 'Pass a square slice.');
    const c = same === null ? withDim(t, q, dims[p]) : t;
    const n = dims[p];
    const mask = reshapeTo(diagonalMask(n, n), dims.map((_, i) => (i === p || i === q ? n : 1)));
    const r = o.reduceSum(o.where(mask, c, negZerosLike(c)), [q]);
    return dedupe(r, labels.filter((_, i) => i !== q), dims.filter((_, i) => i !== q));
  }
  return [t, labels, dims];
}

/** The output labels: explicit after '->' (with '...' expanded), else TF's implicit rule. */
function outputLabels(rhs: string | undefined, ins: string[][], eq: string): string[] {
  const ell = [...ELL].filter((c) => ins.some((l) => l.includes(c)));
  if (rhs === undefined) {
    const count = new Map<string, number>();
    for (const l of ins) for (const c of l) if (!ELL.includes(c)) count.set(c, (count.get(c) ?? 0) + 1);
    return [...ell, ...[...count.keys()].filter((c) => count.get(c) === 1).sort()];
  }
  const parts = rhs.split('...');
  if (parts.length > 2) throw bad('the output has more than one ellipsis', `'${eq}'`, "at most one '...'", 'Fix the equation.');
  const out = parts.length === 2 ? [...parts[0], ...ell, ...parts[1]] : [...rhs];
  for (const c of out) {
    if (!ins.some((l) => l.includes(c))) throw bad(`output label '${c}' appears in no input`, `'${eq}'`, 'output labels taken from the inputs', 'Fix the equation.');
    if (out.indexOf(c) !== out.lastIndexOf(c)) throw bad(`output label '${c}' repeats`, `'${eq}'`, 'each output label once', 'Fix the equation.');
  }
  return out;
}

type Item = [Tensor, string[], Dim[]];

/** Two operands whose labels are all batch (both, kept), contracted (both, summed) or free (one, kept): one batched matmul. */
function viaMatmul([x, lx, dx]: Item, [y, ly, dy]: Item, out: string[]): Tensor | null {
  const { both, batch, con, fa, fb, fits } = matmulLabels(lx, ly, out);
  // Shared labels of equal size (an ellipsis pair of 1 and n broadcasts: the general path); a named label's sizes were
  // checked against each other, now or (run-time sizes) when the graph runs.
  if (!fits || both.some((c) => dim.equal(dx[lx.indexOf(c)], dy[ly.indexOf(c)]) !== true && ELL.includes(c))) return null;
  const n = (ls: string[], l: string[], d: Dim[]): Dim => dim.prod(ls.map((c) => d[l.indexOf(c)]));
  const a = reshapeTo(tr(x, [...batch, ...fa, ...con].map((c) => lx.indexOf(c))), [n(batch, lx, dx), n(fa, lx, dx), n(con, lx, dx)]);
  const b = reshapeTo(tr(y, [...batch, ...con, ...fb].map((c) => ly.indexOf(c))), [n(batch, lx, dx), n(con, lx, dx), n(fb, ly, dy)]);
  const prodLabels = [...batch, ...fa, ...fb];
  const r = reshapeTo(o.matmul(a, b), [...batch.map((c) => dx[lx.indexOf(c)]), ...fa.map((c) => dx[lx.indexOf(c)]), ...fb.map((c) => dy[ly.indexOf(c)])]);
  return tr(r, out.map((c) => prodLabels.indexOf(c)));
}

/**
 * einsum(equation, ...operands): Einstein summation per tf.einsum (explicit '->' or implicit output, '...' broadcasting,
 * repeated labels take diagonals). Two-operand contractions lower to one batched matmul, the rest to broadcasting
 * products and sums, so it is differentiable to any order.
 * @example ef.einsum('ij,jk->ik', [[1, 2]], [[3], [4]]).arraySync(); // [[11]]
 */
export function einsum(equation: string, ...operands: TensorLike[]): Tensor {
  if (typeof equation !== 'string') throw bad('the equation must be a string', typeof equation, "e.g. 'ij,jk->ik'", 'Pass the equation first.');
  const eq = equation.replace(/\s+/g, '');
  const [lhs, rhs, ...rest] = eq.split('->');
  const subs = lhs.split(',');
  if (rest.length > 0) throw bad("the equation has more than one '->'", `'${equation}'`, "one '->' at most", 'Fix the equation.');
  if (subs.length !== operands.length) throw bad('the number of operands does not match the equation', `${operands.length} operands for '${equation}'`, `${subs.length}`, 'Pass one tensor per comma-separated input.');
  return tidy(() => {
    const ts0 = operands.map((x) => convert(OP, x).t);
    const dt = ts0[0].dtype;
    // Products and sums: numeric only, refused before any path (the run-time path would fail elsewhere, differently).
    if (dt !== 'float32' && dt !== 'int32') throw argError(OP, 'unsupported dtype', dt, 'float32 or int32', "Cast the operands first, e.g. ef.cast(x, 'float32').");
    const ts = ts0.map((t) => (t.dtype === dt ? t : convert(OP, t, dt).t));
    // One lowering for static and run-time sizes (Dims, symbolic_dims.ts). An unknown rank takes the subscript count
    // (no ellipsis then), checked when the graph runs.
    const raw: string[][] = [];
    const items: Item[] = ts.map((t, i) => {
      if (t.dims === null && subs[i].includes('...')) throw bad('an ellipsis needs a known rank', `'${subs[i]}' for an operand of unknown rank`, 'operands of known rank with an ellipsis', 'Give the traced inputs a rank, or name every dim.');
      const labels = labelsOf(subs[i], t.dims === null ? subs[i].length : t.dims.length, equation);
      const tk = withRank(t, labels.length);
      raw.push(labels);
      return dedupe(tk, labels, dimsOf(tk));
    });
    // Each named label's size from its first operand; another operand's size must equal it (checked when the graph
    // runs when only the run time knows it); ellipsis dims broadcast (1 against n).
    const all: string[] = [];
    const size = new Map<string, Dim>();
    items.forEach((item, k) => {
      const [, labels, dims] = item;
      labels.forEach((c, i) => {
        if (!all.includes(c)) all.push(c);
        const s = size.get(c);
        const same = s === undefined ? true : dim.equal(s, dims[i]);
        const ok = same !== false || (ELL.includes(c) && (s === 1 || dims[i] === 1));
        if (!ok) throw bad(`label '${c}' has mismatched sizes`, `${String(s)} and ${String(dims[i])}`, 'equal sizes', 'Check the operand shapes.');
        if (same === null && !ELL.includes(c)) items[k] = [withDim(items[k][0], i, s as Dim), labels, dims];
        // Broadcast: a 1 takes the other size (also 0: an empty broadcast dim, not the larger).
        size.set(c, s === undefined || s === 1 ? dims[i] : s);
      });
    });
    const out = outputLabels(rhs, raw, equation);
    if (items.length === 2) {
      const fast = viaMatmul(items[0], items[1], out);
      if (fast !== null) return fast;
    }
    const aligned = items.map(([t, labels, dims]) => {
      const order = all.filter((c) => labels.includes(c));
      const moved = tr(t, order.map((c) => labels.indexOf(c)));
      return reshapeTo(moved, all.map((c) => (labels.includes(c) ? dims[labels.indexOf(c)] : 1)));
    });
    let prod = aligned.reduce((acc, t) => o.mul(acc, t));
    const summed = all.map((c, i) => (out.includes(c) ? -1 : i)).filter((i) => i >= 0);
    if (summed.length > 0) prod = o.reduceSum(prod, summed);
    const kept = all.filter((c) => out.includes(c));
    const keptSizes = kept.map((c) => size.get(c) as Dim);
    if (keptSizes.every(isKnown)) prod = o.broadcastTo(prod, keptSizes);
    return tr(prod, out.map((c) => kept.indexOf(c)));
  });
}
