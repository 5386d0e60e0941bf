// Builds each workspace's ES-module tree (dist/esm: one .js per source file plus .d.ts with explicit extensions) next to tsc's CommonJS dist.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('esbuild');

const root = path.resolve(__dirname, '..');
// The workspaces in build order (the root package.json lists them so).
const PACKAGES = require('../package.json').workspaces.map((w) => path.basename(w));
// Same semantics as tsc and the Jest transform: ES2022, define-semantics class fields, standard decorators.
const tsconfigRaw = { compilerOptions: { experimentalDecorators: false, useDefineForClassFields: true, verbatimModuleSyntax: false } };
// Relative specifiers ('./x', '../x', '..') in `from '...'`, `import '...'`, `import('...')` (also declarations' import types) and `export ... from '...'`.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}(?:\/[^'"]*)?)\2/g;

/** Every .ts source under `dir` (tests excluded), relative to `dir`. */
function sources(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) return sources(dir, r);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [r] : [];
  });
}

/**
 * ESM needs full file names: './tensor' -> './tensor.js', './saving' -> './saving/index.js'.
 * `fromDir` is the importing file's folder inside src; resolution checks the TypeScript sources.
 */
function withExtensions(code, srcDir, fromDir, file) {
  return code.replace(SPECIFIER, (whole, lead, quote, spec) => {
    if (/\.(m?js|json)$/.test(spec)) return whole;
    const target = path.join(srcDir, fromDir, spec);
    let out;
    if (fs.existsSync(`${target}.ts`)) out = `${spec}.js`;
    else if (fs.existsSync(path.join(target, 'index.ts'))) out = `${spec.replace(/\/$/, '')}/index.js`;
    else throw new Error(`build-esm: ${file} imports '${spec}', which is neither a .ts file nor a folder with index.ts`);
    return `${lead}${quote}${out}${quote}`;
  });
}

/** Writes packages/<name>/dist/esm from src (code) and dist (tsc's declarations, which must be built first). */
function buildPackage(name) {
  const pkgDir = path.join(root, 'packages', name);
  const srcDir = path.join(pkgDir, 'src');
  const outDir = path.join(pkgDir, 'dist', 'esm');
  fs.rmSync(outDir, { recursive: true, force: true });
  for (const rel of sources(srcDir)) {
    const fromDir = path.dirname(rel);
    const js = transformSync(fs.readFileSync(path.join(srcDir, rel), 'utf8'), {
      loader: 'ts', format: 'esm', target: 'es2022', platform: 'neutral', sourcefile: rel, tsconfigRaw,
    }).code;
    const base = rel.replace(/\.ts$/, '');
    fs.mkdirSync(path.join(outDir, fromDir), { recursive: true });
    fs.writeFileSync(path.join(outDir, `${base}.js`), withExtensions(js, srcDir, fromDir, rel));
    const dts = path.join(pkgDir, 'dist', `${base}.d.ts`);
    if (!fs.existsSync(dts)) throw new Error(`build-esm: ${path.relative(root, dts)} is missing; run tsc -b first`);
    // The ES module's declarations re-export the CommonJS tree's (same types, one copy in the tarball: the
    // duplicated tree cost ~0.5 MB of the five tarballs' budget, then 4 MB). ESM may import CommonJS types.
    const cjs = path.relative(path.join(outDir, fromDir), path.join(pkgDir, 'dist', `${base}.js`)).split(path.sep).join('/');
    const refs = fs.readFileSync(dts, 'utf8').split('\n').filter((l) => l.startsWith('/// <reference'));
    fs.writeFileSync(path.join(outDir, `${base}.d.ts`), [...refs, `export * from '${cjs}';`, ''].join('\n'));
  }
  // Marks the tree as ES modules for Node and for TypeScript's node16/bundler resolution.
  fs.writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
}

module.exports = { buildPackage, withExtensions, PACKAGES };

if (require.main === module) {
  const t0 = Date.now();
  const names = process.argv.slice(2);
  for (const n of names.length > 0 ? names : PACKAGES) {
    if (!PACKAGES.includes(n)) throw new Error(`build-esm: unknown package '${n}' (expected one of ${PACKAGES.join(', ')})`);
    buildPackage(n);
  }
  console.log(`esm builds: ${(names.length > 0 ? names : PACKAGES).join(', ')} (${Date.now() - t0} ms)`);
}
