// The TensorFlow differential suite: every fixture case on every path, divergences outside the allowlist fail.
import * as fs from 'fs';
import * as path from 'path';
import * as ef from 'eagerflow';
import { loadFixtures } from './load_fixtures';
import { OpRun, buildReport } from './report';
import { runOp } from './run_op';
import { NOT_YET, opAt, publicOps } from './public_ops';

const REPORT = path.join(__dirname, '../../../../docs/conformance.md');

const fixtures = loadFixtures();
const runs: OpRun[] = [];

beforeAll(() => {
  ef.retraceConfig.warn = () => undefined;
});

describe('TensorFlow 2.21 conformance', () => {
  test('fixtures cover the public ops (derived from the op table; NOT_YET only shrinks)', () => {
    const covered = new Set(fixtures.map((fx) => fx.op));
    const ops = publicOps();
    const has = (o: { paths: string[] }): boolean => o.paths.some((p) => covered.has(p));
    // Every public op has fixtures or a documented NOT_YET entry...
    expect(ops.filter((o) => !has(o) && !(o.name in NOT_YET)).map((o) => o.name)).toEqual([]);
    // ...and an op that gained fixtures leaves NOT_YET; entries name real public ops.
    expect(ops.filter((o) => has(o) && o.name in NOT_YET).map((o) => o.name)).toEqual([]);
    const names = new Set(ops.map((o) => o.name));
    expect(Object.keys(NOT_YET).filter((n) => !names.has(n))).toEqual([]);
    for (const fx of fixtures) expect(typeof opAt(fx.op)).toBe('function');
    // Recorded from TensorFlow 2.21 (scripts/tf-golden): another version would change the reference.
    expect([...new Set(fixtures.map((fx) => fx.tf_version.split('.').slice(0, 2).join('.')))]).toEqual(['2.21']);
  });

  for (const fx of fixtures) {
    test(`${fx.op} matches TensorFlow`, () => {
      const run = runOp(fx.op, fx);
      runs.push(run);
      const lines = run.failed.map((d) => `${d.op} | ${d.case} | ${d.path} | ${d.what}: ${d.detail}`);
      expect(lines).toEqual([]);
    });
  }

  test('docs/conformance.md is the report of this run', () => {
    expect(runs.length).toBe(fixtures.length);
    const report = buildReport(runs);
    if (process.env.UPDATE_CONFORMANCE === '1') fs.writeFileSync(REPORT, report);
    if (process.env.CONFORMANCE_DUMP) fs.writeFileSync(process.env.CONFORMANCE_DUMP, JSON.stringify(runs.flatMap((r) => r.failed), null, 1));
    const committed = fs.existsSync(REPORT) ? fs.readFileSync(REPORT, 'utf8') : '';
    expect(committed).toBe(report);
  });
});
