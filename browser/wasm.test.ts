// The wasm backend in real Chromium: the script bundle loads tfjs-backend-wasm on ef.setBackend('wasm'), fetches its
// SIMD binary from next to eagerflow.js, and every harness row (eager, traced, gradient) on wasm equals cpu in the page.
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Tolerance, differences } from './compare';
import { Site, describeBrowser, launch, root, siteUrl, startSite } from './support';
import { buildRows } from './rows';
import type { RowResult } from '../test/harness/browser_rows';

/** wasm vs cpu: both float32 on the CPU (as in Node: packages/eagerflow/test/backends/wasm.test.ts). */
const WASM_TOL: Tolerance = { rtol: 1e-5, atol: 1e-6 };

describeBrowser('wasm backend in Chromium', () => {
  let browser: Browser;
  let site: Site;
  let page: Page;
  const pageErrors: string[] = [];
  const wasmFetches: string[] = [];
  const rows: Record<'cpu' | 'wasm', Record<string, RowResult>> = { cpu: {}, wasm: {} };
  let first: { backend: string; product: number[][]; segments: number[]; imag: number[]; counts: Record<string, number>; simd: boolean; threads: boolean } | null = null;

  beforeAll(async () => {
    [browser, site] = await Promise.all([launch(), startSite('wasm')]);
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('request', (r) => {
      if (r.url().endsWith('.wasm')) wasmFetches.push(new URL(r.url()).pathname);
    });
    await page.goto(`${site.url}/browser/conformance.html`);
    type EfGlobal = { ef: typeof import('eagerflow') };
    first = await page.evaluate(async () => {
      const ef = (window as unknown as EfGlobal).ef;
      await ef.setBackend('wasm');
      ef.internal.backend.resetHostFallbackCounts();
      const product = ef.tidy(() => ef.matmul([[1, 2]], [[3], [4]]).arraySync() as number[][]);
      // Composed on wasm (ScatterNd): not counted.
      const segments = ef.tidy(() => ef.math.unsortedSegmentSum([1, 2, 3], [0, 1, 0], 2).arraySync() as number[]);
      // Host fallbacks: counted.
      const imag = ef.tidy(() => ef.math.imag(ef.complex([1, 2], [3, 4])).arraySync() as number[]);
      const env = ef.internal.backend.tfjs.env();
      return { backend: ef.getBackend(), product, segments, imag, counts: ef.internal.backend.hostFallbackCounts(), simd: env.getBool('WASM_HAS_SIMD_SUPPORT'), threads: env.getBool('WASM_HAS_MULTITHREAD_SUPPORT') };
    });
    const rowsFile = path.join(root, 'test-output', 'wasm', 'rows', 'rows.js');
    await buildRows(rowsFile);
    await page.addScriptTag({ url: siteUrl(site, rowsFile) });
    type RowGlobals = { efRows: { runRows(b: string): Promise<Record<string, RowResult>> } };
    rows.cpu = await page.evaluate(() => (window as unknown as RowGlobals).efRows.runRows('cpu'));
    rows.wasm = await page.evaluate(() => (window as unknown as RowGlobals).efRows.runRows('wasm'));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  test('setBackend(wasm) loads the backend, its SIMD binary from next to eagerflow.js, and counts the host fallback', () => {
    expect(first).toEqual({ backend: 'wasm', product: [[11]], segments: [4, 2], imag: [3, 4], counts: { Complex: 1, Imag: 1 }, simd: true, threads: false });
    // Not cross-origin isolated: no SharedArrayBuffer, so the single-threaded SIMD binary.
    expect(wasmFetches).toEqual(['/packages/eagerflow/dist/tfjs-backend-wasm-simd.wasm']);
    expect(pageErrors).toEqual([]);
  });

  test('every row in every mode gives the same results on wasm as on cpu in the page, without leaks', () => {
    const keys = Object.keys(rows.cpu);
    expect(keys.length).toBeGreaterThan(2000);
    const problems: string[] = [];
    for (const k of keys) {
      const [c, w] = [rows.cpu[k], rows.wasm[k]];
      if (w === undefined) problems.push(`${k}: no wasm result`);
      else if (w.leaked) problems.push(`${k}: wasm leaked ${w.leaked}`);
      else if (Boolean(c.error) !== Boolean(w.error)) problems.push(`${k}: cpu ${c.error ?? 'ok'}, wasm ${w.error ?? 'ok'}`);
      else if (!c.error) problems.push(...differences(w.value, c.value, WASM_TOL).map((d) => `${k}: wasm vs cpu ${d}`));
    }
    expect(problems).toEqual([]);
  });
});
