// The consumer tests' shared project tools (.ci/consumer-test.js for Node, .ci/consumer-web.js for the Vite app):
// progress steps, commands that fail with their output, checks that say what they got, a fresh project on the
// tarballs, strict type-checks at the TypeScript floor and the current TypeScript.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const fixtures = path.join(__dirname, 'consumer');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = { current: require.resolve('typescript/bin/tsc'), floor: path.join(__dirname, 'ts-floor', 'node_modules', 'typescript', 'bin', 'tsc') };
/** npm name -> folder under packages/, for every workspace of the root package.json. */
const WORKSPACES = Object.fromEntries(
  require('../package.json').workspaces.map((w) => [require(path.join(root, w, 'package.json')).name, path.basename(w)]),
);
// 5 MB since TF's file formats joined (TF's protobuf schemas and op tables, the io, summary, SavedModel and checkpoint code): 4.7 MB.
// 5.5 MB with issue 31 (5.01 MB): the WebAssembly cpu matmul (its module inline in core), the repeat-call fast path and
// jitCompile's training lowerings (log_softmax, contractions, relu/class masks, pool indices, broadcasts), typings included.
const MAX_UNPACKED = 5.5 * 1024 * 1024;
const QUIET = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

let t0 = Date.now();
let lastStep = 'start';
/** Restarts the step clock (the times `step` prints are from here). */
function startClock() {
  t0 = Date.now();
}
/** The last step that finished (for the time-limit message). */
const lastFinished = () => lastStep;
function step(what) {
  lastStep = what;
  console.log(`consumer: ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
function run(cmd, args, cwd, env = {}) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  } catch (e) {
    throw new Error(`consumer: \`${cmd} ${args.join(' ')}\` failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}
function check(ok, what, got, expected) {
  if (!ok) throw new Error(`consumer: ${what} (got ${typeof got === 'string' ? got : JSON.stringify(got)}, expected ${expected})`);
}
const writeJson = (f, v) => fs.writeFileSync(f, `${JSON.stringify(v, null, 2)}\n`);

/** A fresh project depending on the eagerflow tarball; the @eagerflow/* tarballs stand in for the registry via overrides. */
function makeProject(dir, packs, packed, extra = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const tgz = (name) => `file:${path.join(packs, packed[name].filename)}`;
  const overrides = Object.fromEntries(Object.keys(WORKSPACES).filter((n) => n !== 'eagerflow').map((n) => [n, tgz(n)]));
  writeJson(path.join(dir, 'package.json'), { name: path.basename(dir), private: true, version: '1.0.0', dependencies: { eagerflow: tgz('eagerflow') }, overrides, ...extra });
  run(npm, ['install', ...QUIET], dir);
  for (const peer of ['@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-cpu', '@tensorflow/tfjs-backend-webgl']) {
    check(fs.existsSync(path.join(dir, 'node_modules', peer)), `npm did not install the peer ${peer}`, 'missing', 'installed with eagerflow');
  }
  const cores = run(npm, ['ls', '@tensorflow/tfjs-core', '--all', '--parseable'], dir).trim().split('\n');
  check(new Set(cores).size === 1, 'more than one @tensorflow/tfjs-core was installed', cores, 'one');
}

/** Strict type-check at the TypeScript floor and the current TypeScript, skipLibCheck off. */
function typecheck(dir, name, compilerOptions, files, versions = Object.keys(TSC)) {
  const options = { strict: true, skipLibCheck: false, noEmit: true, target: 'ES2022', lib: ['ES2022', 'DOM'], ...compilerOptions };
  writeJson(path.join(dir, `tsconfig.${name}.json`), { compilerOptions: options, files });
  for (const which of versions) {
    const tsc = TSC[which];
    const version = run(process.execPath, [tsc, '-v'], dir).trim();
    run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], dir);
    step(`tsc ${name} (${version}, ${which}): no errors`);
  }
}

module.exports = { root, fixtures, npm, WORKSPACES, MAX_UNPACKED, QUIET, step, startClock, lastFinished, run, check, writeJson, makeProject, typecheck };
