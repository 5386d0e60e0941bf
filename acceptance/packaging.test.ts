// Release-readiness of the five workspaces: package.json metadata, exports maps, peers, LICENSE/README, sideEffects honesty, ESM in Node.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.resolve(__dirname, '..');
const WORKSPACES = ['core', 'function', 'callbacks', 'saving', 'eagerflow'];
/** The package.json fields these tests read. */
interface Pkg {
  name: string;
  version: string;
  description: string;
  license: string;
  engines: unknown;
  publishConfig?: unknown;
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  scripts: Record<string, string>;
  files: string[];
  exports: { '.': { import: Record<string, string>; require: Record<string, string> } } & Record<string, unknown>;
  main: string;
  module: string;
  types: string;
  browser?: string;
  unpkg?: string;
  sideEffects: string[] | false;
}
const readJson = <T = Pkg>(f: string): T => JSON.parse(fs.readFileSync(f, 'utf8')) as T;
const pkgOf = (w: string): Pkg => readJson(path.join(root, 'packages', w, 'package.json'));
const rootPkg = readJson(path.join(root, 'package.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { nextVersion } = require('../scripts/release.js') as { nextVersion(current: string, spec: string): string };

/** Every string target of an exports map (nested conditions flattened). */
function targets(x: unknown): string[] {
  if (typeof x === 'string') return [x];
  return Object.values(x as Record<string, unknown>).flatMap(targets);
}

/** The maintained libraries TF's file formats use (docs/io.md, docs/saving.md): protobuf, CRC32C, zlib, image codecs. */
const FORMAT_LIBRARIES = /^(protobufjs|crc-32|fflate|fast-png|jpeg-js)$/;

describe.each(WORKSPACES)('packages/%s', (w) => {
  const dir = path.join(root, 'packages', w);
  const pkg = pkgOf(w);

  test('metadata: version in lockstep, description, Apache-2.0, engines, public scope', () => {
    expect(pkg.version).toBe(rootPkg.version);
    expect(pkg.description.length).toBeGreaterThan(20);
    expect(pkg.license).toBe('Apache-2.0');
    expect(pkg.engines).toEqual({ node: '>=20.19.0' });
    if (pkg.name.startsWith('@')) expect(pkg.publishConfig).toEqual({ access: 'public' });
    for (const [dep, v] of Object.entries(pkg.dependencies ?? {})) {
      // tfjs is never a dependency (it is a peer); the file formats' libraries are, pinned exactly, in saving only.
      if (dep.startsWith('@eagerflow/')) expect(v).toBe(rootPkg.version);
      else {
        expect([w, dep]).toEqual(['saving', expect.stringMatching(FORMAT_LIBRARIES)]);
        expect(v).toMatch(/^\d+\.\d+\.\d+$/);
      }
    }
    expect(pkg.scripts.prepack).toBe(`node ../../scripts/prepack.js ${w}`);
    // The umbrella's ES-module script bundle and WebGPU add-on stay in the repository (the tarballs stay under 5 MB).
    // So do the wasm add-on and binaries the browser build writes beside the bundles (1.4 MB; docs/backends.md says where a CDN page gets them).
    // The WebGL add-on (dist/eagerflow-webgl.js) ships: the CDN script bundle fetches it from next to itself on setBackend('webgl').
    expect(pkg.files).toEqual(['dist', '!dist/**/*.map', '!dist/**/*.tsbuildinfo', ...(w === 'eagerflow' ? ['!dist/eagerflow.mjs', '!dist/*.wasm', '!dist/eagerflow-webgpu.js', '!dist/eagerflow-wasm.js'] : [])]);
  });

  test('tfjs packages are caret-range peers that the installed versions satisfy', () => {
    for (const [dep, range] of Object.entries(pkg.peerDependencies ?? {})) {
      expect(dep.startsWith('@tensorflow/tfjs-')).toBe(true);
      const m = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
      expect(m).not.toBeNull();
      const installed = readJson(path.join(root, 'node_modules', dep, 'package.json')).version;
      expect(installed.split('.')[0]).toBe(m![1]);
      expect(rootPkg.devDependencies[dep]).toBe(installed); // the monorepo pins what it develops against
    }
    if (w === 'core') expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['@tensorflow/tfjs-backend-cpu', '@tensorflow/tfjs-core']);
    if (w === 'eagerflow') expect(pkg.peerDependencies['@tensorflow/tfjs-backend-webgl']).toBe('^4.22.0');
  });

  test('exports: types first, import (ESM) and require (CommonJS), every target built', () => {
    const dot = pkg.exports['.'];
    expect(Object.keys(dot)).toEqual(['import', 'require']);
    expect(Object.keys(dot.import)[0]).toBe('types');
    expect(Object.keys(dot.require)[0]).toBe('types');
    expect(dot.import.default).toBe('./dist/esm/index.js');
    expect(dot.require.default).toBe('./dist/index.js');
    if (w === 'eagerflow') expect([dot.import.browser, dot.require.browser, pkg.browser, pkg.unpkg]).toEqual(['./dist/esm/browser.js', './dist/browser.js', 'dist/esm/browser.js', 'dist/eagerflow.js']);
    const files = [...targets(pkg.exports), pkg.main, pkg.module, pkg.types];
    const missing = files.filter((f) => !f.includes('*') && !fs.existsSync(path.join(dir, f)) && !/eagerflow\.m?js$/.test(f));
    // Deep paths are type-only: declaration files that print inferred types (the umbrella's op list) may
    // name a module under dist/, and TypeScript with NodeNext must resolve it; Node must not load it.
    if (w !== 'eagerflow') expect(pkg.exports['./dist/*']).toEqual({ import: { types: './dist/esm/*.d.ts' }, require: { types: './dist/*.d.ts' } });
    expect(missing).toEqual([]);
    expect(readJson<unknown>(path.join(dir, 'dist', 'esm', 'package.json'))).toEqual({ type: 'module' });
  });

  test('README and the same Apache-2.0 LICENSE as the repository', () => {
    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toBe(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'));
    expect(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toMatch(/npm i eagerflow/);
  });

  test('sideEffects lists exactly the modules with top-level effects (in src, dist and dist/esm)', () => {
    const effects = modulesWithEffects(path.join(dir, 'src'));
    const expected = effects.flatMap((m) => [`./dist/${m}.js`, `./dist/esm/${m}.js`, `./src/${m}.ts`]);
    const listed = pkg.sideEffects === false ? [] : pkg.sideEffects.filter((f) => !/eagerflow\.m?js$/.test(f));
    expect([...listed].sort()).toEqual(expected.sort());
    for (const f of listed) expect(fs.existsSync(path.join(dir, f))).toBe(true);
  });
});

/** Modules (relative to src, no extension) whose top level runs statements or bare imports: what a bundler must keep. */
function modulesWithEffects(src: string): string[] {
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  return walk(src)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .filter((f) => {
      const sf = ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.ES2022);
      return sf.statements.some((s) => ts.isExpressionStatement(s) || ts.isIfStatement(s) || (ts.isImportDeclaration(s) && s.importClause === undefined));
    })
    .map((f) => path.relative(src, f).replace(/\.ts$/, '').split(path.sep).join('/'));
}

test('the declarations carry their own lib reference for Symbol.dispose', () => {
  for (const f of ['values/tensor.d.ts', 'autodiff/gradient_tape.d.ts', 'esm/values/tensor.d.ts', 'esm/autodiff/gradient_tape.d.ts']) {
    expect(fs.readFileSync(path.join(root, 'packages', 'core', 'dist', f), 'utf8')).toMatch(/^\/\/\/ <reference lib="esnext\.disposable"[^>]*\/>$/m);
  }
});

test('Node loads the ES-module build (dist/esm) with named imports', () => {
  const code = [
    "import { add, GradientTape, constant, square } from 'eagerflow';",
    "import { trace } from '@eagerflow/function';",
    "const x = constant(3); const tape = new GradientTape();",
    'const y = tape.record(() => { tape.watch(x); return square(x); });',
    "const f = trace((v) => add(v, 1));",
    "console.log(import.meta.resolve('eagerflow'), tape.gradient(y, x).item(), JSON.stringify(f(constant([1])).arraySync()));",
  ].join('\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.stdout.trim()).toMatch(/\/packages\/eagerflow\/dist\/esm\/index\.js 6 \[2\]$/);
});

test('require and import of EagerFlow in one Node process: a warning names the dual-package mix-up', () => {
  const code = "require('eagerflow'); import('eagerflow').then((ef) => process.stdout.write(String(ef.add([1], 1).arraySync())));";
  const r = spawnSync(process.execPath, ['-e', code], { cwd: root, encoding: 'utf8' });
  expect(r.stdout).toBe('2');
  expect(r.stderr).toMatch(/^eagerflow: EagerFlow is loaded twice \(got 2 copies of @eagerflow\/core, expected one\)/);
});

test('release versions: explicit, patch, minor, major, prerelease; bad input says how', () => {
  expect(nextVersion('0.1.0', '0.2.0-rc.1')).toBe('0.2.0-rc.1');
  expect(nextVersion('0.1.0', 'patch')).toBe('0.1.1');
  expect(nextVersion('0.2.0-rc.1', 'patch')).toBe('0.2.0');
  expect(nextVersion('0.1.9', 'minor')).toBe('0.2.0');
  expect(nextVersion('1.4.2', 'major')).toBe('2.0.0');
  expect(() => nextVersion('0.1.0', 'v1')).toThrow("release: bad version (got 'v1', expected x.y.z, patch, minor or major). Example: npm run release -- patch");
});
