// Exports the harness rows' TensorFlow calls (test/harness: ForwardCase.tfCall) as JSON for the golden generator:
// { "<api>": { "fn": "tf.math.exp", "cases": "unary" }, ... }, one entry per public op, sorted. generate.py runs it,
// so the harness row is the one place an op's TF call is written. Every row of one op must carry the same call.
// Usage: node scripts/tf-golden/export_rows.js [out.json]   (stdout without an argument)
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const root = path.resolve(__dirname, '../..');
require(path.join(root, 'scripts/esbuild-ts')).register();
// The workspace packages resolve to their sources, as in Jest and tsconfig.all.json (no build needed).
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspace(request, ...rest) {
  const m = /^(?:eagerflow|@eagerflow\/(core|function|callbacks|saving))$/.exec(request);
  return m ? path.join(root, 'packages', m[1] ?? 'eagerflow', 'src/index.ts') : resolveFilename.call(this, request, ...rest);
};

/**
 * The public op a row covers by its canonical name (the fixture's name: its top-level name, else its first TF
 * path, as packages/eagerflow/test/conformance/public_ops.ts names it); `canon` maps every public path to it.
 */
function canonicalNames() {
  const ef = require(path.join(root, 'packages/eagerflow/src/index.ts'));
  const byFn = new Map();
  for (const [p, fn] of ef.internal.opEntries()) byFn.set(fn, [...(byFn.get(fn) ?? []), p]);
  const canon = new Map();
  for (const paths of byFn.values()) {
    const name = paths.find((p) => !p.includes('.')) ?? paths[0];
    for (const p of paths) canon.set(p, name);
  }
  return canon;
}

/**
 * api -> TfCall over the rows (by canonical op name); throws when two rows of one op disagree, when a row
 * carries no call, or when a call is malformed. Rows with `{ none: why }` export nothing.
 */
function tfCalls(rows, canon = canonicalNames()) {
  const calls = new Map();
  for (const row of rows) {
    const api = canon.get(row.api ?? row.prim) ?? row.api ?? row.prim;
    const call = row.tfCall;
    if (call === undefined) throw new Error(`export_rows: row '${row.name}' (${api}) carries no tfCall; give TF's call, or tfNone(why) when TF has no fixture for it`);
    if (typeof call.none === 'string') continue;
    if ((call.fn === undefined) === (call.expr === undefined)) throw new Error(`export_rows: row '${row.name}' (${api}): a TF call has either fn (a path under tf) or expr (a Python lambda) and why`);
    if (call.expr !== undefined && !(typeof call.why === 'string' && call.why.length > 0)) throw new Error(`export_rows: row '${row.name}' (${api}): expr needs why (what TF's expression adapts)`);
    const seen = calls.get(api);
    if (seen !== undefined && JSON.stringify(seen, lossless) !== JSON.stringify(call, lossless)) {
      throw new Error(`export_rows: the rows of ${api} carry different TF calls (${JSON.stringify(seen)} and ${JSON.stringify(call)} on '${row.name}'); one op has one call`);
    }
    calls.set(api, call);
  }
  return Object.fromEntries([...calls].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** JSON.stringify replacer: the numbers JSON cannot hold become {"num": "nan" | "inf" | "-inf" | "-0"} (encode.py's spelling). */
function lossless(_key, v) {
  if (typeof v !== 'number') return v;
  if (Number.isNaN(v)) return { num: 'nan' };
  if (v === Infinity) return { num: 'inf' };
  if (v === -Infinity) return { num: '-inf' };
  return Object.is(v, -0) ? { num: '-0' } : v;
}

module.exports = { tfCalls, lossless, canonicalNames };

if (require.main === module) {
  const { forwardCases } = require(path.join(root, 'test/harness/rows.ts'));
  const text = `${JSON.stringify(tfCalls(forwardCases), lossless, 1)}\n`;
  if (process.argv[2]) fs.writeFileSync(process.argv[2], text);
  else process.stdout.write(text);
}
