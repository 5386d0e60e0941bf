// Runs one op's TensorFlow fixture cases on every path on the active backend (the conformance suites on cpu and wasm).
import * as ef from 'eagerflow';
import { Divergence, TOL, Tolerances, applies, compareOutcome } from './compare';
import { allowedBy } from './allowlist';
import { Case, OpFixture, isError } from './fixtures';
import { PATHS, PathName, hasInputs, runPath } from './paths';
import { OpRun } from './report';

export function runOp(op: string, fx: OpFixture): OpRun {
  const run: OpRun = { op, tfVersion: fx.tf_version, cases: fx.cases.length, raising: fx.cases.filter(isError).length, names: fx.cases.map((c) => (isError(c) ? `${c.name} (raises)` : c.name)), ran: {}, allowed: [], failed: [] };
  for (const c of fx.cases) {
    for (const p of PATHS) {
      const found = runCaseOnPath(op, c, p);
      if (found === null) continue;
      run.ran[p] = (run.ran[p] ?? 0) + 1;
      for (const d of found) {
        const by = allowedBy(d);
        if (by) run.allowed.push({ d, by });
        else run.failed.push(d);
      }
    }
  }
  return run;
}


/**
 * One fixture case on one path on the active backend: null where the path does not apply to it, else its
 * divergences from TensorFlow's values, tensors left behind included (also run by the browser page, browser/tf_fixtures_page.ts).
 */
export function runCaseOnPath(op: string, c: Case, p: PathName, tol: Tolerances = TOL): Divergence[] | null {
  if (!applies(c, p) || ((p === 'traced-unknown-dims' || p === 'traced-unknown-rank') && !hasInputs(c))) return null;
  const before = ef.memory().numTensors;
  const found = compareOutcome(op, c, p, runPath(op, c, p), tol);
  const leaked = ef.memory().numTensors - before;
  if (leaked !== 0) found.push({ op, case: c.name, tags: c.tags, path: p, what: 'leak', detail: `${leaked} tensors left behind` });
  return found;
}
