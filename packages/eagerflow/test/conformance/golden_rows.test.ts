// The harness row is an op's one row: the rows that carry TensorFlow's call (ForwardCase.tfCall) drive the golden
// generator (scripts/tf-golden/export_rows.js -> harness_rows.py -> generate.py), so no Python table repeats them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { forwardCases } from '../../../../test/harness';

const ROOT = path.resolve(__dirname, '../../../..');
const GOLDEN = path.join(ROOT, 'scripts/tf-golden');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tfCalls } = require(path.join(GOLDEN, 'export_rows.js')) as { tfCalls: (rows: unknown[]) => Record<string, { fn: string; cases: string }> };

const calls = tfCalls(forwardCases);

test('the rows carrying a TF call export one call per op, each a path under tf with a known case set', () => {
  expect(Object.keys(calls).length).toBeGreaterThanOrEqual(22);
  for (const [api, call] of Object.entries(calls)) {
    expect([api, call.fn]).toEqual([api, expect.stringMatching(/^tf(\.\w+)+$/)]);
    expect(['unary', 'arith', 'compare', 'logic']).toContain(call.cases);
  }
});

test("each such op has its generated fixture and no Python table row of its own", () => {
  const tables = fs.readdirSync(GOLDEN).filter((f) => /^ops.*\.py$/.test(f)).map((f) => fs.readFileSync(path.join(GOLDEN, f), 'utf8'));
  for (const api of Object.keys(calls)) {
    const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', `${api}.json`), 'utf8')) as { op: string };
    expect(fixture.op).toBe(api);
    expect(tables.filter((t) => t.includes(`"${api}":`)).length).toBe(0);
  }
});

test('two rows of one op with different TF calls are refused', () => {
  const row = (name: string, fn: string) => ({ api: 'exp', name, tfCall: { fn, cases: 'unary' } });
  expect(() => tfCalls([row('a', 'tf.math.exp'), row('b', 'tf.exp')])).toThrow(/the rows of exp carry different TF calls/);
});
