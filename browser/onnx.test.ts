// jitCompile in real Chromium: the script bundle fetches onnxruntime-web (its wasm build, single-threaded) on the first
// compiled call, from where the page serves it (EF_ORT_PATHS), and a compiled row per lowered primitive, awaited with
// callAsync, equals the same row traced without jitCompile in the page.
import type { Browser, Page } from 'playwright-core';
import { Tolerance, differences } from './compare';
import { Site, describeBrowser, launch, root, siteUrl, startSite } from './support';
import { buildRows } from './rows';
import * as path from 'node:path';
import type { CompiledRowResult } from '../test/harness/browser_rows';

/** onnxruntime-web (wasm, float32) vs tfjs-cpu: the op-table export test's tolerance. */
const ORT_TOL: Tolerance = { rtol: 1e-4, atol: 1e-5 };

type EfGlobal = { ef: typeof import('eagerflow') };
type RowGlobals = { efRows: { runCompiledRows(perPrim: number): Promise<Record<string, CompiledRowResult>> } };

describeBrowser('jitCompile on onnxruntime-web in Chromium', () => {
  let browser: Browser;
  let site: Site;
  let page: Page;
  const pageErrors: string[] = [];
  const fetched: string[] = [];
  let before: string[] = [];
  let first: { sync: number[][]; compiled: number[][]; ir: string; ort: boolean; leaked: number } | null = null;
  let rows: Record<string, CompiledRowResult> = {};
  let missing = '';

  beforeAll(async () => {
    [browser, site] = await Promise.all([launch(), startSite('onnx')]);
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (p.includes('onnxruntime-web') || /ort[.-]/.test(p)) fetched.push(p);
    });
    await page.goto(`${site.url}/browser/conformance.html`);
    before = await page.evaluate(() => Array.from(document.scripts, (s) => s.src).filter((s) => s.includes('ort')));
    // Without EF_ORT_PATHS the bundle looks next to itself, where the npm package has no onnxruntime-web: a clear error.
    missing = await page.evaluate(async () => {
      const ef = (window as unknown as EfGlobal).ef;
      const f = ef.trace((x: import('eagerflow').Tensor) => ef.exp(x), { jitCompile: true });
      try {
        await f.callAsync(ef.constant([1]));
        return 'no error';
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      } finally {
        f.dispose();
      }
    });
    first = await page.evaluate(async (ortDir) => {
      const w = window as unknown as EfGlobal & { EF_ORT_PATHS?: string; EF_ORT_PROVIDERS?: string[]; ort?: unknown };
      w.EF_ORT_PATHS = ortDir;
      w.EF_ORT_PROVIDERS = ['wasm'];
      const ef = w.ef;
      const n0 = ef.memory().numTensors;
      const f = ef.trace((x: import('eagerflow').Tensor, y: import('eagerflow').Tensor) => ef.relu(ef.add(ef.matmul(x, y), 1)), { jitCompile: true });
      const x = ef.constant([[1, 2], [3, 4]]);
      const y = ef.constant([[1, -1], [0.5, -2]]);
      const a = (await f.callAsync(x, y)) as import('eagerflow').Tensor;
      // A synchronous call runs the uncompiled graph (onnxruntime-web is asynchronous): the same values.
      const b = f(x, y) as import('eagerflow').Tensor;
      const [compiled, sync] = [a.arraySync() as number[][], b.arraySync() as number[][]];
      const ir = f.getConcreteFunction(x, y).experimentalGetCompilerIr();
      f.dispose();
      ef.dispose([x, y, a, b]);
      return { sync, compiled, ir, ort: w.ort !== undefined, leaked: ef.memory().numTensors - n0 };
    }, `${site.url}/node_modules/onnxruntime-web/dist/`);
    const rowsFile = path.join(root, 'test-output', 'onnx', 'rows', 'rows.js');
    await buildRows(rowsFile);
    await page.addScriptTag({ url: siteUrl(site, rowsFile) });
    rows = await page.evaluate(() => (window as unknown as RowGlobals).efRows.runCompiledRows(1));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  test('onnxruntime-web is not loaded until a compiled call; then its wasm build comes from EF_ORT_PATHS; a missing runtime is a clear error', () => {
    expect(missing).toMatch(/^UnimplementedError: .*jitCompile in the browser needs onnxruntime-web.*EF_ORT_PATHS/);
    expect(before).toEqual([]);
    expect(first?.ort).toBe(true);
    expect(fetched).toContain('/node_modules/onnxruntime-web/dist/ort.wasm.min.js');
    expect(fetched.some((p) => p.endsWith('.wasm') && p.startsWith('/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded'))).toBe(true);
    // The first (failed) try: the page has a WebGPU adapter, so the WebGPU build, looked for next to eagerflow.js.
    // With EF_ORT_PROVIDERS = ['wasm'] only the wasm build and its binary.
    expect(fetched.filter((p) => p.includes('webgpu') || p.includes('jsep'))).toEqual(['/packages/eagerflow/dist/ort.webgpu.min.js']);
  });

  test('await f.callAsync runs the compiled segment; f(x) gives the same values uncompiled; nothing leaks', () => {
    expect(first?.compiled).toEqual([[3, 0], [6, 0]]);
    expect(first?.sync).toEqual([[3, 0], [6, 0]]);
    expect(first?.ir).toMatch(/onnx_segment\[matmul,add,relu\]/);
    expect(first?.leaked).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  test('one op-table row per lowered primitive: compiled on onnxruntime-web wasm equals traced on tfjs-cpu, without leaks', () => {
    const names = Object.keys(rows);
    expect(names.length).toBeGreaterThan(80);
    const problems: string[] = [];
    let compiledSegments = 0;
    for (const n of names) {
      const { compiled, traced, segments } = rows[n];
      compiledSegments += segments > 0 ? 1 : 0;
      if (compiled.leaked) problems.push(`${n}: compiled leaked ${compiled.leaked}`);
      if (Boolean(compiled.error) !== Boolean(traced.error)) problems.push(`${n}: compiled ${compiled.error ?? 'ok'}, traced ${traced.error ?? 'ok'}`);
      else if (!compiled.error) problems.push(...differences(compiled.value, traced.value, ORT_TOL).map((d) => `${n}: compiled vs traced ${d}`));
    }
    expect(problems).toEqual([]);
    // Most rows really ran on onnxruntime-web (the rest lower only for other dtypes/layouts and stay JS steps).
    expect(compiledSegments).toBeGreaterThan(names.length * 0.8);
  });
});
