// Builds the browser bundles with esbuild: dist/eagerflow.js (IIFE, globalThis.ef, cpu inside), its add-ons
// dist/eagerflow-webgl.js and dist/eagerflow-wasm.js (fetched by the bundle on the first setBackend('webgl'/'wasm'))
// and dist/eagerflow-webgpu.js (loaded by the page), which register tfjs's backends with the page's globalThis.ef,
// and dist/eagerflow.mjs (ES module, WebGL inside).
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
  keepNames: false, // ~22 KB gzipped; nothing reads our class or function names (ef.errors classes carry theirs as data)
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

/** The add-ons, by output file: each registers a tfjs backend with the page's `ef` and tfjs-core (pageGlobals). */
const ADDONS = { 'eagerflow-webgl.js': 'webgl-entry.ts', 'eagerflow-wasm.js': 'wasm-entry.ts', 'eagerflow-webgpu.js': 'webgpu-entry.ts' };

/**
 * tfjs-core members the repository's own pages reach through `ef.internal.backend.tfjs` besides the add-ons: the
 * browser tests read `engine()` and `env()`, and bench/browser/cases.js runs its raw-tfjs baseline with
 * tensor/scalar/tidy/mul/add/relu.
 */
const INTEROP_MEMBERS = ['engine', 'env', 'version_core', 'tensor', 'scalar', 'tidy', 'mul', 'add', 'relu'];

/**
 * The tfjs-core members the add-ons import, read from their code: each is bundled as an ES module with tfjs-core
 * external, and its `import { ... } from "@tensorflow/tfjs-core"` lists (and `ns.member` reads of a namespace import) are collected.
 */
async function addonTfjsMembers() {
  const tfjsCore = require('@tensorflow/tfjs-core');
  const names = new Set(INTEROP_MEMBERS);
  await Promise.all(
    Object.values(ADDONS).map(async (entry) => {
      const r = await esbuild.build({ ...common, entryPoints: [path.join(__dirname, entry)], plugins: [], minify: false, sourcemap: false, format: 'esm', write: false, external: ['@tensorflow/tfjs-core', '@eagerflow/core'] });
      const code = r.outputFiles[0].text;
      for (const m of code.matchAll(/import\s*(?:\*\s*as\s*([\w$]+)|\{([^}]*)\})\s*from\s*"@tensorflow\/tfjs-core"/g)) {
        if (m[2] !== undefined) for (const part of m[2].split(',')) names.add(part.trim().split(/\s+as\s+/)[0]);
        else for (const use of code.matchAll(new RegExp(`(?<![\\w$.])${m[1].replace(/\$/g, '\\$')}\\.([\\w$]+)`, 'g'))) if (use[1] in tfjsCore) names.add(use[1]);
      }
      if (/from\s*"@tensorflow\/tfjs-core\//.test(code)) throw new Error(`build.js: ${entry} imports a tfjs-core subpath; the page's tfjs object holds only the package's top-level members`);
    }),
  );
  names.delete('');
  return [...names].sort();
}

/**
 * In the script bundle, `ef.internal.backend.tfjs` is an object of the tfjs-core members the add-ons (and the
 * repository's pages) use, not the whole namespace: the namespace would keep every tfjs op wrapper (~38 KB gzipped)
 * that EagerFlow itself never calls. backend.ts's namespace re-export is swapped for it.
 */
function pageTfjs(members) {
  const line = "export * as tfjs from '@tensorflow/tfjs-core';";
  return {
    name: 'page-tfjs',
    setup(build) {
      build.onLoad({ filter: /[\\/]packages[\\/]core[\\/]src[\\/]backend[\\/]backend\.ts$/ }, (args) => {
        const src = fs.readFileSync(args.path, 'utf8');
        if (!src.includes(line)) throw new Error(`build.js: ${args.path} no longer has the line \`${line}\` that the script bundle swaps for the add-ons' tfjs members`);
        return { contents: src.replace(line, 'export { tfjs } from "ef-page-tfjs";'), loader: 'ts', resolveDir: path.dirname(args.path) };
      });
      build.onResolve({ filter: /^ef-page-tfjs$/ }, () => ({ path: 'ef-page-tfjs', namespace: 'page-tfjs' }));
      build.onLoad({ filter: /.*/, namespace: 'page-tfjs' }, () => ({
        contents: `import { ${members.join(', ')} } from '@tensorflow/tfjs-core';\nexport const tfjs = Object.freeze({ ${members.join(', ')} });\n`,
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/** Writes eagerflow.js, its add-ons and eagerflow.mjs (with source maps) into `outdir`, and the wasm backend's .wasm files beside them. */
async function buildBrowser(outdir = path.join(__dirname, '..', 'dist')) {
  const members = await addonTfjsMembers();
  await Promise.all([
    esbuild.build({ ...common, plugins: [sourcesPlugin, pageTfjs(members)], format: 'iife', globalName: 'ef', outfile: path.join(outdir, 'eagerflow.js') }),
    esbuild.build({ ...common, entryPoints: [path.join(__dirname, 'esm-entry.ts')], format: 'esm', outfile: path.join(outdir, 'eagerflow.mjs') }),
    ...Object.entries(ADDONS).map(([file, entry]) => esbuild.build({ ...common, entryPoints: [path.join(__dirname, entry)], plugins: [pageGlobals], format: 'iife', outfile: path.join(outdir, file) })),
  ]);
  const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
  for (const f of WASM_FILES) fs.copyFileSync(path.join(wasmDir, 'dist', f), path.join(outdir, f));
  return { iife: path.join(outdir, 'eagerflow.js'), esm: path.join(outdir, 'eagerflow.mjs'), webgl: path.join(outdir, 'eagerflow-webgl.js'), wasm: path.join(outdir, 'eagerflow-wasm.js'), webgpu: path.join(outdir, 'eagerflow-webgpu.js') };
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
