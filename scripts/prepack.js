// `npm pack` / `npm publish` hook of each workspace: builds what its tarball ships (CommonJS + types, the ESM tree, browser bundles).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { transformSync } = require('esbuild');
const { buildPackage, PACKAGES } = require('./build-esm');

const root = path.resolve(__dirname, '..');

/**
 * The tarball's .js files (CommonJS from tsc, ES modules from esbuild) are reprinted without comments
 * or indentation (esbuild, whitespace only: names and code unchanged, so stack traces stay readable) to
 * keep the five tarballs within 5 MB; the declarations keep every JSDoc comment users read.
 */
function compactJs(distDir) {
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) {
        walk(f);
      } else if (e.name.endsWith('.js') && !/^eagerflow\.m?js$/.test(e.name)) {
        const code = fs.readFileSync(f, 'utf8');
        fs.writeFileSync(f, transformSync(code, { loader: 'js', target: 'es2022', legalComments: 'none', minifyWhitespace: true }).code);
      }
    }
  };
  walk(distDir);
}

/** Builds packages/<name> (and, through tsc's project references, what it depends on). */
async function prepack(name) {
  if (!PACKAGES.includes(name)) throw new Error(`prepack: unknown package '${name}' (expected one of ${PACKAGES.join(', ')})`);
  const dir = path.join(root, 'packages', name);
  for (const f of ['README.md', 'LICENSE']) {
    if (!fs.existsSync(path.join(dir, f))) throw new Error(`prepack: packages/${name}/${f} is missing (every tarball ships a README and the Apache-2.0 LICENSE). Add it.`);
  }
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', dir], { cwd: root, stdio: 'inherit' });
  buildPackage(name);
  compactJs(path.join(dir, 'dist'));
  if (name === 'eagerflow') await require('../packages/eagerflow/browser/build.js').buildBrowser();
}

if (require.main === module) {
  prepack(process.argv[2] ?? '').catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}

module.exports = { prepack };
