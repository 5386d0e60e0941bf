// Bundles the harness's case rows for the conformance page (esbuild IIFE `efRows`), using the page's `ef` bundle as `eagerflow`.
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { root } from './support';

/**
 * `import * as ef from 'eagerflow'` in the rows resolves to the page's global `ef` (the bundle under
 * test), so the rows run the very build the page loaded, not a second copy of EagerFlow.
 */
export const pageEf: esbuild.Plugin = {
  name: 'page-ef',
  setup(build) {
    build.onResolve({ filter: /^eagerflow$/ }, () => ({ path: 'eagerflow', namespace: 'page-ef' }));
    build.onLoad({ filter: /.*/, namespace: 'page-ef' }, () => ({ contents: 'module.exports = globalThis.ef;', loader: 'js' }));
  },
};

/** Writes the rows bundle to `outfile` (loaded after eagerflow.js; exposes `efRows.runRows(backend)`). */
export async function buildRows(outfile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(root, 'test', 'harness', 'browser_rows.ts')],
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    globalName: 'efRows',
    keepNames: true,
    logLevel: 'warning',
    plugins: [pageEf],
    outfile,
  });
}
