// GPU conformance in real Chromium: every harness case row (eager, traced, gradient) and every browser/cases/*.js case runs on webgl,
// webgpu and cpu in the page, and on cpu in Node. Traced runs go through the executor's elementwise fusion (generated shaders on the
// GPUs); on webgl every traced row and case runs again with fusion off, so fused == unfused == cpu.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import * as ef from 'eagerflow';
import { Tolerance, differences } from './compare';
import { Site, describeBrowser, launch, root, siteUrl, startSite } from './support';
import { buildRows } from './rows';
import { ROW_MODES, RowResult, rowRunsIn, rows, runRows } from '../test/harness/browser_rows';
import { WEBGPU_ROWS, runsOn, toleranceOf } from '../test/harness/case';

interface Case {
  name: string;
  tol?: Partial<Tolerance>;
  requires?: (e: unknown) => true | string;
  expectError?: RegExp;
}
interface Result {
  value?: unknown;
  error?: string;
  skipped?: string;
  leaked?: number;
}
type Results = Record<string, Result>;
interface Harness {
  runAll(e: unknown, backend: string): Promise<Results>;
  runCase(e: unknown, c: Case): Promise<Result>;
}

// The same case files the page runs, loaded here too: names for the tests, and Node's cpu results.
const caseDir = path.join(__dirname, 'cases');
const caseFiles = fs.readdirSync(caseDir).filter((f) => f.endsWith('.js')).sort();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const harness = require('./harness.js') as Harness;
for (const f of caseFiles) require(path.join(caseDir, f));
const cases = (globalThis as unknown as { efCases: { list: Case[] } }).efCases.list;

/** webgl vs cpu (float32 on both; transcendental functions differ a little in GLSL). */
const WEBGL_TOL: Tolerance = { rtol: 5e-4, atol: 1e-5 };
/** the bundle on cpu in Chromium vs the sources on cpu in Node: the same JS kernels. */
const BUNDLE_TOL: Tolerance = { rtol: 1e-5, atol: 1e-7 };

/** webgpu vs cpu: WGSL float32 (SwiftShader), like webgl. */
const WEBGPU_TOL: Tolerance = WEBGL_TOL;
/**
 * tfjs-webgpu reads GPU data synchronously (dataSync, and EagerFlow's own host reads: printing, cond
 * predicates, data-dependent shapes, host callbacks) through a WebGPU canvas. In headless SwiftShader
 * that read returns zeros and loses the device, failing everything after it. The page makes such a
 * read throw this instead, and the suite reports those runs as needing a synchronous read.
 */
const SYNC_READ = 'webgpu synchronous read of GPU data';

type PageBackend = 'cpu' | 'webgl' | 'webglUnfused' | 'webgpu';
type PageGlobals = { ef: typeof ef & { internal: { executorConfig: { fuse: boolean } } }; efHarness: Harness & { runAll(e: unknown, backend: string, names?: string[], read?: string): Promise<Results> } };
type RowGlobals = { efRows: { runRows(b: string, opts?: { modes?: string[]; read?: string }): Promise<Record<string, RowResult>> } };

const needsSyncRead = (r: { error?: string } | undefined): boolean => r?.error?.includes(SYNC_READ) === true;

describeBrowser('conformance: webgl and webgpu vs cpu in Chromium', () => {
  let browser: Browser;
  let site: Site;
  let page: Page;
  const pageErrors: string[] = [];
  /** The page's console lines about WebGPU (tfjs logs why a backend failed to start there). */
  const consoleNotes: string[] = [];
  const results: Record<PageBackend | 'node', Results> & { renderer: string; seconds: Record<string, number> } = { cpu: {}, webgl: {}, webglUnfused: {}, webgpu: {}, node: {}, renderer: '', seconds: {} };
  const rowResults: Record<PageBackend | 'node', Record<string, RowResult>> = { cpu: {}, webgl: {}, webglUnfused: {}, webgpu: {}, node: {} };
  /** Times each page run (printed: the GPU runs are most of this suite's time). */
  const timed = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    try {
      return await run();
    } finally {
      results.seconds[what] = (Date.now() - t0) / 1000;
    }
  };
  const guardWebgpuSyncReads = (): Promise<void> =>
    page.evaluate(async (message) => {
      const e = (window as unknown as PageGlobals).ef;
      try {
        await e.setBackend('webgpu');
      } catch (err) {
        const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
        const adapter = gpu === undefined ? 'no navigator.gpu' : (await gpu.requestAdapter()) === null ? 'requestAdapter() gave null' : 'an adapter now';
        throw new Error(`${(err as Error).message} [secure context: ${isSecureContext}; ${adapter}]`);
      }
      type Data = { values?: unknown; dtype: string; complexTensorInfos?: unknown };
      const b = (e.internal as unknown as { backend: { tfjs: { engine(): { findBackend(n: string): { readSync(id: object): unknown; tensorMap: { get(id: object): Data | undefined } } } } } }).backend.tfjs.engine().findBackend('webgpu');
      const read = b.readSync.bind(b);
      b.readSync = (id: object) => {
        const d = b.tensorMap.get(id);
        if (d !== undefined && d.values == null && d.dtype !== 'string' && d.complexTensorInfos == null) throw new Error(message);
        return read(id);
      };
    }, SYNC_READ);
  const setFusion = (on: boolean): Promise<void> => page.evaluate((v) => void ((window as unknown as PageGlobals).ef.internal.executorConfig.fuse = v), on);

  beforeAll(async () => {
    [browser, site] = await Promise.all([launch(), startSite('conformance')]);
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => {
      if (/webgpu|adapter|device/i.test(m.text())) consoleNotes.push(m.text().slice(0, 500));
    });
    await page.goto(`${site.url}/browser/conformance.html`);
    for (const f of caseFiles) await page.addScriptTag({ url: `${site.url}/browser/cases/${f}` });
    results.renderer = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      return gl ? String(gl.getParameter(gl.VERSION)) : 'no webgl2';
    });
    const runAll = (b: string, read = 'sync'): Promise<Results> => page.evaluate(([b, read]) => (window as unknown as PageGlobals).efHarness.runAll((window as unknown as PageGlobals).ef, b, undefined, read), [b, read]);
    results.cpu = await timed('cases cpu', () => runAll('cpu'));
    results.webgl = await timed('cases webgl', () => runAll('webgl'));
    await setFusion(false);
    results.webglUnfused = await timed('cases webgl unfused', () => runAll('webgl'));
    await setFusion(true);
    await guardWebgpuSyncReads().catch(async (e: Error) => {
      await new Promise((r) => setTimeout(r, 500)); // console events arrive after the rejection
      throw new Error(`${e.message}\npage console: ${consoleNotes.join(' | ')}`);
    });
    results.webgpu = await timed('cases webgpu', () => runAll('webgpu', 'async'));
    for (const c of cases) results.node[c.name] = await harness.runCase(ef, c);
    // The harness's case rows: bundled against the page's ef, run on both backends there and on cpu here.
    const rowsFile = path.join(root, 'test-output', 'conformance', 'rows', 'rows.js');
    await buildRows(rowsFile);
    await page.addScriptTag({ url: siteUrl(site, rowsFile) });
    const pageRows = (b: string, opts: { modes?: string[]; read?: string } = {}): Promise<Record<string, RowResult>> =>
      page.evaluate(([b, opts]) => (window as unknown as RowGlobals).efRows.runRows(b as string, opts as { modes?: string[]; read?: string }), [b, opts] as const);
    rowResults.cpu = await timed('rows cpu', () => pageRows('cpu'));
    rowResults.webgl = await timed('rows webgl', () => pageRows('webgl'));
    await setFusion(false);
    rowResults.webglUnfused = await timed('rows webgl unfused (traced)', () => pageRows('webgl', { modes: ['traced'] }));
    await setFusion(true);
    rowResults.webgpu = await timed('rows webgpu', () => pageRows('webgpu', { read: 'async' }));
    rowResults.node = await runRows('cpu');
    console.log(`conformance page runs (s): ${Object.entries(results.seconds).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  test('the page has WebGL2 and no uncaught errors', () => {
    expect(results.renderer).toMatch(/^WebGL 2\.0/);
    expect(pageErrors).toEqual([]);
  });

  test('the ES module build (eagerflow.mjs) imports and runs on webgl', async () => {
    const p = await browser.newPage();
    p.on('pageerror', (e) => pageErrors.push(String(e)));
    await p.goto(`${site.url}/browser/esm.html`);
    await p.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    const r = await p.evaluate(async () => {
      const m = (window as unknown as { efModule: typeof ef }).efModule;
      await m.setBackend('webgl');
      return { backend: m.getBackend(), printed: m.add([1, 2], 1).toString() };
    });
    expect(r).toEqual({ backend: 'webgl', printed: '<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>' });
    await p.close();
  });

  test('every case ran in the page on every backend', () => {
    for (const b of ['cpu', 'webgl', 'webglUnfused', 'webgpu'] as const) expect(`${b}: ${Object.keys(results[b]).sort().join('|')}`).toBe(`${b}: ${cases.map((c) => c.name).sort().join('|')}`);
  });

  // One test per case row and mode: the same rows every Node checker iterates (test/harness).
  for (const c of rows) {
    for (const mode of ROW_MODES.filter((m) => rowRunsIn(c, m))) {
      const key = `${mode}: ${c.name}`;
      test(`row ${key}`, () => {
        const problems: string[] = [];
        const gpus = [
          ['webgl', 'webgl', WEBGL_TOL],
          ...(mode === 'traced' ? [['webglUnfused', 'webgl', WEBGL_TOL] as const] : []),
          ...(needsSyncRead(rowResults.webgpu[key]) ? [] : [['webgpu', 'webgpu', WEBGPU_TOL] as const]),
        ] as const;
        for (const b of ['node', 'cpu', ...gpus.map((g) => g[0])] as const) {
          const r = rowResults[b][key];
          const gpu = gpus.find((g) => g[0] === b);
          if (r === undefined) problems.push(`${b}: no result`);
          else if (r.error && (gpu === undefined || runsOn(c, gpu[1], mode))) problems.push(`${b}: threw ${r.error}`);
          if (r?.leaked) problems.push(`${b}: leaked ${r.leaked} tensor(s)`);
        }
        if (problems.length > 0) return void expect(problems).toEqual([]);
        const cpuTol = toleranceOf(c, 'cpu', BUNDLE_TOL) as Tolerance;
        problems.push(...differences(rowResults.cpu[key].value, rowResults.node[key].value, cpuTol).map((d) => `browser cpu vs node cpu ${d}`));
        for (const [b, backend, base] of gpus) {
          const r = rowResults[b][key];
          const wrong = r.error ? [r.error] : differences(r.value, rowResults.cpu[key].value, toleranceOf(c, backend, base as Required<Tolerance>) as Tolerance);
          if (runsOn(c, backend, mode)) problems.push(...wrong.map((d) => `${b} vs cpu ${d}`));
          else if (wrong.length === 0) problems.push(`${b} now agrees with cpu: remove the row's backends restriction (${c.backends?.why})`);
        }
        expect(problems).toEqual([]);
      });
    }
  }

  test('webgpu: the runs that need a synchronous read (skipped there) are listed, and include no fusion case', () => {
    const rowsNeeding = Object.keys(rowResults.webgpu).filter((k) => needsSyncRead(rowResults.webgpu[k]));
    const casesNeeding = Object.keys(results.webgpu).filter((k) => needsSyncRead(results.webgpu[k]));
    const ran = Object.keys(rowResults.webgpu).length + Object.keys(results.webgpu).length;
    console.log(`webgpu: ${ran - rowsNeeding.length - casesNeeding.length} of ${ran} row and case runs compared with cpu; ${rowsNeeding.length + casesNeeding.length} need a synchronous read of GPU data: ${[...casesNeeding, ...rowsNeeding].join('; ')}`);
    expect(casesNeeding.filter((k) => k.startsWith('fusion:'))).toEqual([]);
  });

  test('the webgpu gap table names existing rows', () => {
    const names = new Set(rows.map((r) => r.name));
    expect(Object.keys(WEBGPU_ROWS).filter((n) => !names.has(n))).toEqual([]);
  });

  test('rows restricted to some backends say why', () => {
    for (const c of rows.filter((r) => r.backends !== undefined)) expect(`${c.name}: ${(c.backends?.why.length ?? 0) > 10}`).toBe(`${c.name}: true`);
  });

  for (const c of cases) {
    const tol = (base: Tolerance): Tolerance => ({ ...base, ...c.tol });
    test(c.name, () => {
      const node = results.node[c.name];
      if (node?.skipped) {
        console.warn(`conformance case "${c.name}" skipped: ${node.skipped}`);
        return;
      }
      const problems: string[] = [];
      const gpus = needsSyncRead(results.webgpu[c.name]) ? (['webgl', 'webglUnfused'] as const) : (['webgl', 'webglUnfused', 'webgpu'] as const);
      for (const [backend, r] of [['node cpu', node], ['cpu', results.cpu[c.name]], ...gpus.map((g) => [g, results[g][c.name]] as const)] as const) {
        if (r === undefined) problems.push(`${backend}: no result`);
        else if (r.skipped) problems.push(`${backend}: skipped in the page (${r.skipped}) but not in Node`);
        else if (c.expectError && !(r.error && c.expectError.test(r.error))) problems.push(`${backend}: expected an error matching ${c.expectError}, got ${r.error ?? 'a value'}`);
        else if (!c.expectError && r.error) problems.push(`${backend}: threw ${r.error}`);
        if (r?.leaked) problems.push(`${backend}: leaked ${r.leaked} tensor(s)`);
      }
      if (problems.length === 0 && !c.expectError) {
        for (const g of gpus) problems.push(...differences(results[g][c.name].value, results.cpu[c.name].value, tol(g === 'webgpu' ? WEBGPU_TOL : WEBGL_TOL)).map((d) => `${g} vs cpu ${d}`));
        const bundle = differences(results.cpu[c.name].value, node.value, tol(BUNDLE_TOL));
        problems.push(...bundle.map((d) => `browser cpu vs node cpu ${d}`));
      }
      expect(problems).toEqual([]);
    });
  }
});
