// The harness row is an op's one row: the rows that carry TensorFlow's call (ForwardCase.tfCall) drive the golden
// generator (scripts/tf-golden/export_rows.js -> harness_rows.py -> generate.py), so no Python table repeats them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { forwardCases } from '../../../../test/harness';

const ROOT = path.resolve(__dirname, '../../../..');
const GOLDEN = path.join(ROOT, 'scripts/tf-golden');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tfCalls, lossless } = require(path.join(GOLDEN, 'export_rows.js')) as {
  tfCalls: (rows: unknown[]) => Record<string, { fn: string; cases: string }>;
  lossless: (key: string, v: unknown) => unknown;
};

const calls = tfCalls(forwardCases);

test('the rows carrying a TF call export one call per op, each a path under tf with a known case set', () => {
  expect(Object.keys(calls).length).toBeGreaterThanOrEqual(54);
  for (const [api, call] of Object.entries(calls)) {
    expect([api, call.fn]).toEqual([api, expect.stringMatching(/^tf(\.\w+)+$/)]);
    expect(['unary', 'arith', 'compare', 'logic', 'reduce', 'none']).toContain(call.cases);
  }
});

test('each such op has its generated fixture and no Python table row of its own', () => {
  const tables = fs.readdirSync(GOLDEN).filter((f) => /^ops.*\.py$/.test(f)).map((f) => fs.readFileSync(path.join(GOLDEN, f), 'utf8'));
  for (const api of Object.keys(calls)) {
    const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', `${api}.json`), 'utf8')) as { op: string };
    expect(fixture.op).toBe(api);
    expect(tables.filter((t) => t.includes(`"${api}":`)).length).toBe(0);
  }
});

test("a row's own cases and numbers JSON cannot hold are exported losslessly (encode.py's spelling)", () => {
  const pow = JSON.parse(JSON.stringify(calls.pow, lossless)) as { extra: { name: string; args: { tensor: unknown }[] }[] };
  expect(pow.extra.find((c) => c.name === 'one to inf')?.args[1].tensor).toEqual([{ num: 'inf' }, { num: 'nan' }, { num: 'inf' }]);
  expect(JSON.parse(JSON.stringify([-0, 0, 1.5], lossless))).toEqual([{ num: '-0' }, 0, 1.5]);
});

test('two rows of one op with different TF calls are refused', () => {
  const row = (name: string, fn: string) => ({ api: 'exp', name, tfCall: { fn, cases: 'unary' } });
  expect(() => tfCalls([row('a', 'tf.math.exp'), row('b', 'tf.exp')])).toThrow(/the rows of exp carry different TF calls/);
});
