// Lets `node -r ./scripts/fuzz/register-src.js file.ts` run against the workspace sources (no build): TypeScript through
// esbuild, and `eagerflow` / `@eagerflow/*` resolved to packages/*/src/index.ts as Jest's moduleNameMapper does.
'use strict';

const Module = require('node:module');
const path = require('node:path');

require('../esbuild-ts').register();

const root = path.resolve(__dirname, '..', '..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveToSource(request, ...rest) {
  if (request === 'eagerflow') return path.join(root, 'packages/eagerflow/src/index.ts');
  const m = /^@eagerflow\/(core|function|callbacks|saving)$/.exec(request);
  if (m) return path.join(root, 'packages', m[1], 'src/index.ts');
  return resolve.call(this, request, ...rest);
};
