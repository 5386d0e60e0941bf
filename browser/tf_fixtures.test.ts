// The TensorFlow 2.21 fixture suite (packages/eagerflow/test/conformance) on webgl in real Chromium: every fixture case eagerly,
// traced, traced with unknown dims and under first-order gradients, compared in the page with TensorFlow's values under webgl's
// float32 tolerances. Divergences outside the cpu allowlist and webgl's own (allowlist_webgl.ts, each with its measured reason) fail.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { Site, describeBrowser, launch, root, siteUrl, startSite } from './support';
import { pageEf } from './rows';
import { allowedBy } from '../packages/eagerflow/test/conformance/allowlist';
import { ALLOWLIST_WEBGL, WEBGL_PATHS, WEBGL_TOL, allowedOnWebgl } from '../packages/eagerflow/test/conformance/allowlist_webgl';
import type { Divergence } from '../packages/eagerflow/test/conformance/compare';
import { loadFixtures } from '../packages/eagerflow/test/conformance/load_fixtures';
import type { PathName } from '../packages/eagerflow/test/conformance/paths';
import type { PageRun } from './tf_fixtures_page';

const ops = loadFixtures().map((fx) => fx.op);
/** Ops per page.evaluate call. */
const BATCH = 40;

type PageGlobals = { ef: { setBackend(b: string): Promise<boolean>; getBackend(): string }; efTfFixtures: { runFixtures(ops: string[], paths: readonly PathName[], tol: typeof WEBGL_TOL): Promise<PageRun[]> } };

describeBrowser('TensorFlow 2.21 fixtures on webgl in Chromium', () => {
  let browser: Browser;
  let site: Site;
  let page: Page;
  const pageErrors: string[] = [];
  const runs = new Map<string, PageRun>();
  let seconds = 0;

  beforeAll(async () => {
    const bundle = path.join(root, 'test-output', 'tf-fixtures', 'page.js');
    [browser, site] = await Promise.all([
      launch(),
      startSite('tf-fixtures'),
      esbuild.build({ entryPoints: [path.join(__dirname, 'tf_fixtures_page.ts')], bundle: true, platform: 'browser', target: 'es2022', format: 'iife', globalName: 'efTfFixtures', logLevel: 'warning', plugins: [pageEf], outfile: bundle }),
    ]);
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${site.url}/browser/conformance.html`);
    await page.addScriptTag({ url: siteUrl(site, bundle) });
    await page.evaluate(() => (window as unknown as PageGlobals).ef.setBackend('webgl'));
    const t0 = Date.now();
    for (let i = 0; i < ops.length; i += BATCH) {
      const got = await page.evaluate(([o, p, t]) => (window as unknown as PageGlobals).efTfFixtures.runFixtures(o, p, t), [ops.slice(i, i + BATCH), WEBGL_PATHS, WEBGL_TOL] as const);
      for (const r of got) runs.set(r.op, r);
    }
    seconds = (Date.now() - t0) / 1000;
    // CONFORMANCE_DUMP=file: every divergence the page found and no allowlist explains (to triage new ones).
    if (process.env.CONFORMANCE_DUMP) fs.writeFileSync(process.env.CONFORMANCE_DUMP, JSON.stringify([...runs.values()].flatMap((r) => r.found.filter((d) => allowedBy(d) === undefined)), null, 1));
    const slowest = [...runs.values()].sort((a, b) => b.seconds - a.seconds).slice(0, 5);
    const perPath = WEBGL_PATHS.map((p) => `${p} ${[...runs.values()].reduce((s, r) => s + (r.pathSeconds[p] ?? 0), 0).toFixed(1)}`).join(', ');
    console.log(`TF fixtures on webgl: ${ops.length} ops in ${seconds.toFixed(1)} s (per path: ${perPath}; slowest ops: ${slowest.map((r) => `${r.op} ${r.seconds.toFixed(1)}`).join(', ')})`);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  test('the page ran on webgl, every op, every path, with no uncaught errors', async () => {
    expect(await page.evaluate(() => (window as unknown as PageGlobals).ef.getBackend())).toBe('webgl');
    expect(pageErrors).toEqual([]);
    expect([...runs.keys()].sort()).toEqual([...ops].sort());
    const ran = new Set([...runs.values()].flatMap((r) => Object.keys(r.ran)));
    expect([...ran].sort()).toEqual([...WEBGL_PATHS].sort());
  });

  const unexplained = (d: Divergence): boolean => allowedBy(d) === undefined && allowedOnWebgl(d) === undefined;

  for (const op of ops) {
    test(`${op} matches TensorFlow on webgl`, () => {
      const run = runs.get(op);
      expect(run).toBeDefined();
      expect((run as PageRun).found.filter(unexplained).map((d) => `${d.op} | ${d.case} | ${d.path} | ${d.what}: ${d.detail}`)).toEqual([]);
    });
  }

  test('every webgl allowlist entry is still needed (it explains a divergence cpu does not have)', () => {
    const used = new Set([...runs.values()].flatMap((r) => r.found.filter((d) => allowedBy(d) === undefined).map((d) => allowedOnWebgl(d)?.id)));
    expect(ALLOWLIST_WEBGL.map((a) => a.id).filter((id) => !used.has(id))).toEqual([]);
  });
});
