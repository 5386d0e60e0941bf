// The harness row is an op's one row: every row carries TensorFlow's call (ForwardCase.tfCall) or says why its op has
// none (tfNone), and the calls drive the golden generator (scripts/tf-golden/export_rows.js -> harness_rows.py ->
// generate.py), which keeps no per-op table of its own.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { forwardCases } from '../../../../test/harness';
import { NOT_YET, publicOps } from './public_ops';

const ROOT = path.resolve(__dirname, '../../../..');
const GOLDEN = path.join(ROOT, 'scripts/tf-golden');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tfCalls, lossless } = require(path.join(GOLDEN, 'export_rows.js')) as {
  tfCalls: (rows: unknown[], canon?: Map<string, string>) => Record<string, { fn?: string; expr?: string; why?: string; cases: string }>;
  lossless: (key: string, v: unknown) => unknown;
};

const calls = tfCalls(forwardCases);

test('every row carries a TF call or why its op has none', () => {
  const missing = forwardCases.filter((r) => (r as { tfCall?: unknown }).tfCall === undefined).map((r) => r.name);
  expect(missing).toEqual([]);
  expect(() => tfCalls([{ api: 'exp', name: 'no call' }])).toThrow(/row 'no call' \(exp\) carries no tfCall/);
});

test('one call per public op, each a path under tf or an expression with why, with a known case set', () => {
  expect(Object.keys(calls).length).toBeGreaterThanOrEqual(227);
  for (const [api, call] of Object.entries(calls)) {
    if (call.expr !== undefined) {
      expect([api, call.expr]).toEqual([api, expect.stringMatching(/^lambda [^:]*: .*\btf\./)]);
      expect([api, call.why]).toEqual([api, expect.stringMatching(/\w{3,}/)]);
    } else {
      expect([api, call.fn]).toEqual([api, expect.stringMatching(/^tf(\.\w+)+$/)]);
    }
    expect(['unary', 'arith', 'compare', 'logic', 'reduce', 'none']).toContain(call.cases);
  }
  expect(() => tfCalls([{ api: 'exp', name: 'bare', tfCall: { expr: 'lambda x: tf.exp(x)', cases: 'unary' } }])).toThrow(/expr needs why/);
});

test('every public op has its fixture from the rows, or is in NOT_YET and its rows say why (tfNone)', () => {
  const ops = publicOps().map((o) => o.name);
  const noneApis = new Set(forwardCases.filter((r) => 'none' in (r.tfCall ?? {})).map((r) => r.api ?? r.prim));
  for (const op of ops) {
    if (op in NOT_YET) {
      expect([op, calls[op]]).toEqual([op, undefined]);
      expect([op, noneApis.has(op)]).toEqual([op, true]);
    } else {
      expect([op, calls[op] !== undefined]).toEqual([op, true]);
    }
  }
  expect(Object.keys(calls).filter((api) => !ops.includes(api))).toEqual([]);
});

test('each op has its generated fixture, and the generator keeps no Python table of ops', () => {
  for (const api of Object.keys(calls)) {
    const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', `${api}.json`), 'utf8')) as { op: string; call: unknown };
    expect(fixture.op).toBe(api);
    // Generated from the rows' current call (a changed row needs its fixture regenerated: scripts/tf-golden/README.md).
    expect([api, fixture.call]).toEqual([api, JSON.parse(JSON.stringify(calls[api], lossless))]);
  }
  expect(fs.readdirSync(GOLDEN).filter((f) => /^ops.*\.py$/.test(f))).toEqual([]);
  // The generator's only source of ops is the exported rows.
  expect(fs.readFileSync(path.join(GOLDEN, 'generate.py'), 'utf8')).toMatch(/from harness_rows import harness_ops/);
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
