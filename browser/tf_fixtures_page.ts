// The TensorFlow 2.21 fixture cases as the browser page runs them (bundled by browser/tf_fixtures.test.ts against the page's `ef`):
// each case on the chosen paths, compared there with TF's values; only the divergences (plain JSON) go back to Node.
import * as ef from 'eagerflow';
import type { Divergence, Tolerances } from '../packages/eagerflow/test/conformance/compare';
import type { OpFixture } from '../packages/eagerflow/test/conformance/fixtures';
import type { PathName } from '../packages/eagerflow/test/conformance/paths';
import { runCaseOnPath } from '../packages/eagerflow/test/conformance/run_op';

export interface PageRun {
  op: string;
  /** Cases run per path. */
  ran: Partial<Record<PathName, number>>;
  /** Every divergence from TensorFlow's values (the allowlists are applied in Node). */
  found: Divergence[];
  seconds: number;
  /** Seconds spent per path. */
  pathSeconds: Partial<Record<PathName, number>>;
}

/** Fetches `/packages/eagerflow/test/conformance/fixtures/<op>.json` for each op and runs its cases on `paths` on the active backend. */
export async function runFixtures(ops: string[], paths: PathName[], tol: Tolerances): Promise<PageRun[]> {
  ef.retraceConfig.warn = () => undefined;
  const out: PageRun[] = [];
  for (const op of ops) {
    const res = await fetch(`/packages/eagerflow/test/conformance/fixtures/${op}.json`);
    if (!res.ok) throw new Error(`tf fixtures: ${op}.json: HTTP ${res.status}`);
    const fx = (await res.json()) as OpFixture;
    const t0 = performance.now();
    const run: PageRun = { op, ran: {}, found: [], seconds: 0, pathSeconds: {} };
    for (const c of fx.cases) {
      for (const p of paths) {
        const t1 = performance.now();
        const found = runCaseOnPath(op, c, p, tol);
        if (found === null) continue;
        run.pathSeconds[p] = (run.pathSeconds[p] ?? 0) + (performance.now() - t1) / 1000;
        run.ran[p] = (run.ran[p] ?? 0) + 1;
        run.found.push(...found);
      }
    }
    run.seconds = (performance.now() - t0) / 1000;
    out.push(run);
  }
  return out;
}
