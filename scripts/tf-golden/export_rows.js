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

/** api -> TfCall over the rows; throws when two rows of one op disagree. */
function tfCalls(rows) {
  const calls = new Map();
  for (const row of rows) {
    if (row.tfCall === undefined) continue;
    const api = row.api ?? row.prim;
    const seen = calls.get(api);
    if (seen !== undefined && JSON.stringify(seen, lossless) !== JSON.stringify(row.tfCall, lossless)) {
      throw new Error(`export_rows: the rows of ${api} carry different TF calls (${JSON.stringify(seen)} and ${JSON.stringify(row.tfCall)} on '${row.name}'); one op has one call`);
    }
    calls.set(api, row.tfCall);
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

module.exports = { tfCalls, lossless };

if (require.main === module) {
  const { forwardCases } = require(path.join(root, 'test/harness/rows.ts'));
  const text = `${JSON.stringify(tfCalls(forwardCases), lossless, 1)}\n`;
  if (process.argv[2]) fs.writeFileSync(process.argv[2], text);
  else process.stdout.write(text);
}
