// einsum: parses the equation and lowers it to diagonal masks, transposes, broadcasting multiplies and reductions.
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { argError } from '../check';
import { ELL, einsumDyn, matmulLabels, tr } from './runtime_einsum';

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

/** Takes the diagonal over every repeated label of one operand ('ii' -> 'i'). */
function dedupe(t: Tensor, labels: string[], dims: number[]): [Tensor, string[], number[]] {
  for (let q = 1; q < labels.length; q++) {
    const p = labels.indexOf(labels[q]);
    if (p === q) continue;
    if (dims[p] !== dims[q]) throw bad(`repeated label '${labels[q]}' spans dims of different sizes`, `${dims[p]} and ${dims[q]}`, 'equal sizes', 'Pass a square slice.');
    const n = dims[p];
    const eyeShape = dims.map((_, i) => (i === p || i === q ? n : 1));
    const mask = o.reshape(o.equal(o.reshape(o.range(n, null, 1, 'int32'), [n, 1]), o.reshape(o.range(n, null, 1, 'int32'), [1, n])), eyeShape);
    // A select, not a product by the 0/1 mask: an off-diagonal inf or NaN must not reach the diagonal (inf * 0).
    const r = o.reduceSum(o.where(mask, t, o.zerosLike(t)), [q]);
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

type Item = [Tensor, string[], number[]];

/** einsum of operands with dims unknown until run time; an unknown rank takes the subscript count (checked then). */
function einsumRunTime(ts: Tensor[], subs: string[], rhs: string | undefined, equation: string): Tensor {
  const ops = ts.map((t, i) => {
    if (t.dims !== null) return { t, labels: labelsOf(subs[i], t.dims.length, equation) };
    if (subs[i].includes('...')) throw bad('an ellipsis needs a known rank', `'${subs[i]}' for an operand of unknown rank`, 'operands of known rank with an ellipsis', 'Give the traced inputs a rank, or name every dim.');
    const labels = labelsOf(subs[i], subs[i].length, equation);
    // The shape vector reshaped to one entry per subscript raises when the graph runs for another rank.
    return { t: o.reshapeDynOf(t, o.reshape(o.shapeOf(t), [labels.length])), labels };
  });
  return einsumDyn(ops, outputLabels(rhs, ops.map((x) => x.labels), equation));
}

/** Two operands whose labels are all batch (both, kept), contracted (both, summed) or free (one, kept): one batched matmul. */
function viaMatmul([x, lx, dx]: Item, [y, ly, dy]: Item, out: string[]): Tensor | null {
  const { both, batch, con, fa, fb, fits } = matmulLabels(lx, ly, out);
  if (!fits || both.some((c) => dx[lx.indexOf(c)] !== dy[ly.indexOf(c)])) return null;
  const n = (ls: string[], l: string[], d: number[]): number => ls.reduce((s, c) => s * d[l.indexOf(c)], 1);
  const a = o.reshape(tr(x, [...batch, ...fa, ...con].map((c) => lx.indexOf(c))), [n(batch, lx, dx), n(fa, lx, dx), n(con, lx, dx)]);
  const b = o.reshape(tr(y, [...batch, ...con, ...fb].map((c) => ly.indexOf(c))), [n(batch, lx, dx), n(con, lx, dx), n(fb, ly, dy)]);
  const prodLabels = [...batch, ...fa, ...fb];
  const r = o.reshape(o.matmul(a, b), [...batch.map((c) => dx[lx.indexOf(c)]), ...fa.map((c) => dx[lx.indexOf(c)]), ...fb.map((c) => dy[ly.indexOf(c)])]);
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
    // Dims (or, without an ellipsis, ranks) known only at run time: the same lowering with run-time sizes.
    if (ts.some((t) => t.dims === null || t.dims.some((v) => v === null))) return einsumRunTime(ts, subs, rhs, equation);
    const raw: string[][] = [];
    const items: Item[] = ts.map((t, i) => {
      const d = t.dims as number[];
      const labels = labelsOf(subs[i], d.length, equation);
      raw.push(labels);
      return dedupe(t, labels, d);
    });
    const out = outputLabels(rhs, raw, equation);
    if (items.length === 2) {
      const fast = viaMatmul(items[0], items[1], out);
      if (fast !== null) return fast;
    }
    const all: string[] = [];
    const size = new Map<string, number>();
    for (const [, labels, dims] of items) {
      labels.forEach((c, i) => {
        if (!all.includes(c)) all.push(c);
        const s = size.get(c);
        const ok = s === undefined || s === dims[i] || (ELL.includes(c) && (s === 1 || dims[i] === 1));
        if (!ok) throw bad(`label '${c}' has mismatched sizes`, `${s} and ${dims[i]}`, 'equal sizes', 'Check the operand shapes.');
        // Broadcast: a 1 takes the other size (also 0: an empty broadcast dim, not the larger).
        size.set(c, s === undefined || s === 1 ? dims[i] : s);
      });
    }
    const aligned = items.map(([t, labels, dims]) => {
      const order = all.filter((c) => labels.includes(c));
      const moved = tr(t, order.map((c) => labels.indexOf(c)));
      return o.reshape(moved, all.map((c) => (labels.includes(c) ? dims[labels.indexOf(c)] : 1)));
    });
    let prod = aligned.reduce((acc, t) => o.mul(acc, t));
    const summed = all.map((c, i) => (out.includes(c) ? -1 : i)).filter((i) => i >= 0);
    if (summed.length > 0) prod = o.reduceSum(prod, summed);
    const kept = all.filter((c) => out.includes(c));
    prod = o.broadcastTo(prod, kept.map((c) => size.get(c) as number));
    return tr(prod, out.map((c) => kept.indexOf(c)));
  });
}
