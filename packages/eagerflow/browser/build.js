// Builds the browser bundles with esbuild: dist/eagerflow.js (IIFE, globalThis.ef), dist/eagerflow.mjs (ES module) and
// dist/eagerflow-webgpu.js (an add-on IIFE registering tfjs's WebGPU backend with the page's globalThis.ef).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..', '..', '..');
const packages = ['core', 'function', 'callbacks', 'saving'];

/** Workspace packages are bundled from their TypeScript sources, so the bundle never depends on a stale dist. */
const sourcesPlugin = {
  name: 'eagerflow-sources',
  setup(build) {
    build.onResolve({ filter: /^@eagerflow\/(core|function|callbacks|saving)$/ }, (args) => {
      const pkg = args.path.slice('@eagerflow/'.length);
      return packages.includes(pkg) ? { path: path.join(root, 'packages', pkg, 'src', 'index.ts') } : undefined;
    });
  },
};

const common = {
  entryPoints: [path.join(__dirname, 'entry.ts')],
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  minify: true,
  keepNames: true,
  sourcemap: 'external', // maps stay in dist for debugging; tarballs leave them out (npm run release packs them separately)
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [sourcesPlugin],
  define: { 'process.env.NODE_ENV': '"production"' },
};

/** tfjs-backend-wasm's binaries (plain, SIMD, threaded SIMD): the bundles fetch them from next to the script on ef.setBackend('wasm'). */
const WASM_FILES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];

/**
 * The add-on's imports of EagerFlow and tfjs-core resolve to the page's `ef` (its `internal` re-exports
 * core; `internal.backend.tfjs` is the bundle's tfjs-core namespace), so the add-on holds only the
 * WebGPU backend and shares the page's one engine.
 */
const pageGlobals = {
  name: 'page-globals',
  setup(build) {
    const globals = { '@eagerflow/core': 'globalThis.ef.internal', '@tensorflow/tfjs-core': 'globalThis.ef.internal.backend.tfjs' };
    build.onResolve({ filter: /^(@eagerflow\/core|@tensorflow\/tfjs-core)$/ }, (args) => ({ path: args.path, namespace: 'page-globals' }));
    build.onLoad({ filter: /.*/, namespace: 'page-globals' }, (args) => ({
      contents: `if (!globalThis.ef) throw new Error('eagerflow-webgpu.js: load eagerflow.js first (got no globalThis.ef, expected the EagerFlow bundle)'); module.exports = ${globals[args.path]};`,
      loader: 'js',
    }));
  },
};

/** Writes eagerflow.js, eagerflow.mjs and eagerflow-webgpu.js (with source maps) into `outdir`, and the wasm backend's .wasm files beside them. */
async function buildBrowser(outdir = path.join(__dirname, '..', 'dist')) {
  await Promise.all([
    esbuild.build({ ...common, format: 'iife', globalName: 'ef', outfile: path.join(outdir, 'eagerflow.js') }),
    esbuild.build({ ...common, format: 'esm', outfile: path.join(outdir, 'eagerflow.mjs') }),
    esbuild.build({ ...common, entryPoints: [path.join(__dirname, 'webgpu-entry.ts')], plugins: [pageGlobals], format: 'iife', outfile: path.join(outdir, 'eagerflow-webgpu.js') }),
    esbuild.build({ ...common, entryPoints: [path.join(__dirname, 'wasm-entry.ts')], plugins: [pageGlobals], format: 'iife', outfile: path.join(outdir, 'eagerflow-wasm.js') }),
  ]);
  const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
  for (const f of WASM_FILES) fs.copyFileSync(path.join(wasmDir, 'dist', f), path.join(outdir, f));
  return { iife: path.join(outdir, 'eagerflow.js'), esm: path.join(outdir, 'eagerflow.mjs'), webgpu: path.join(outdir, 'eagerflow-webgpu.js') };
}

module.exports = { buildBrowser };

if (require.main === module) {
  const t0 = Date.now();
  buildBrowser(process.argv[2] ? path.resolve(process.argv[2]) : undefined).then(
    (out) => console.log(`browser bundles: ${path.relative(process.cwd(), out.iife)}, ${path.relative(process.cwd(), out.esm)} (${Date.now() - t0} ms)`),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
