// The public ops the suite must cover, derived from the op table, and NOT_YET: the ones without fixtures, each with why (from their rows).
import * as ef from 'eagerflow';
import { forwardCases } from '../../../../test/harness';

/** The function at a public path ('add', 'nn.conv2d'), or undefined. */
export function opAt(path: string): unknown {
  let at: unknown = ef;
  for (const part of path.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
  return at;
}

/**
 * Every public op once, by its canonical name: the top-level name if it has one, else its first
 * TF path (`math.floordiv`). One op = one function, however many paths alias it. Fixture files
 * are named by the canonical name; a fixture under any alias also covers the op.
 */
export function publicOps(): { name: string; paths: string[] }[] {
  const byFn = new Map<unknown, string[]>();
  for (const [p, fn] of ef.internal.opEntries()) byFn.set(fn, [...(byFn.get(fn) ?? []), p]);
  return [...byFn.values()].map((paths) => ({ name: paths.find((p) => !p.includes('.')) ?? paths[0], paths }));
}

/**
 * Public ops without TensorFlow fixtures, by canonical name, each with why: the reason their harness rows give
 * (`tfCall: tfNone(why)`, test/harness/case.ts), so the row is the one place that says it. Only an op with
 * nothing numeric to compare may have one (complex64 values, which this suite does not encode, are checked
 * against TF in the core tests; print is a side effect).
 */
export const NOT_YET: Readonly<Record<string, string>> = notYet();

function notYet(): Record<string, string> {
  const canonical = new Map(publicOps().flatMap((o) => o.paths.map((p) => [p, o.name] as const)));
  const out: Record<string, string> = {};
  for (const row of forwardCases) {
    const name = canonical.get(row.api ?? row.prim);
    if (name !== undefined && 'none' in row.tfCall) out[name] = row.tfCall.none;
  }
  return out;
}
