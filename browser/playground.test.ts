// End-to-end: the playground in Chromium runs every available example on cpu and webgl, draws graphs, and is screenshotted.
import * as fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import * as ef from 'eagerflow';
import { Site, describeBrowser, launch, outputPath, startSite } from './support';

interface Example {
  id: string;
  title: string;
  code: string;
  expect?: string;
  requires?: string[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { examples, missing } = require('../examples/browser/examples.js') as {
  examples: Example[];
  missing(e: Example, lib: unknown): string[];
};

describeBrowser('playground (examples/browser) in Chromium', () => {
  let browser: Browser;
  let site: Site;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [browser, site] = await Promise.all([launch(), startSite('playground', { playground: true })]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${site.url}/examples/browser/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  /** Selects an example, clicks Run, waits for the run to finish; returns the state and output text. */
  async function runExample(id: string): Promise<{ state: string; output: string }> {
    const runs = Number(await page.getAttribute('#output', 'data-runs'));
    await page.selectOption('#example', id);
    await page.click('#run');
    await page.waitForSelector(`#output[data-runs="${runs + 1}"]`, { timeout: 170_000 });
    return {
      state: (await page.getAttribute('body', 'data-state')) ?? '',
      output: await page.textContent('#output').then((t) => t ?? ''),
    };
  }

  /** Replaces the editor's code. */
  async function setCode(code: string): Promise<void> {
    await page.evaluate((c) => (window as unknown as { efPlayground: { setCode(c: string): void } }).efPlayground.setCode(c), code);
  }

  /** Clicks Run and waits for that run to finish. */
  async function clickRun(): Promise<void> {
    const runs = Number(await page.getAttribute('#output', 'data-runs'));
    await page.click('#run');
    await page.waitForSelector(`#output[data-runs="${runs + 1}"]`, { timeout: 170_000 });
  }

  test('examples needing features this build lacks are listed but disabled', async () => {
    const disabled = await page.$$eval('#example option', (os) => os.filter((o) => (o as HTMLOptionElement).disabled).map((o) => (o as HTMLOptionElement).value));
    expect(disabled.sort()).toEqual(examples.filter((e) => missing(e, ef).length > 0).map((e) => e.id).sort());
  });

  for (const backend of ['cpu', 'webgl']) {
    for (const ex of examples) {
      const lacks = missing(ex, ef);
      (lacks.length ? test.skip : test)(`${backend}: ${ex.title}${lacks.length ? ` (needs ef.${lacks.join(', ef.')})` : ''}`, async () => {
        if ((await page.inputValue('#backend')) !== backend) {
          await page.selectOption('#backend', backend);
          await page.waitForFunction((b) => document.getElementById('status')?.textContent === `backend: ${b}`, backend, { timeout: 30_000 });
        }
        const r = await runExample(ex.id);
        expect({ state: r.state, output: r.output }).toEqual({ state: 'done', output: expect.stringContaining(ex.expect ?? '') });
        if (ex.id === 'eager') expect(r.output).toContain(`backend: ${backend}`);
        if (ex.id === 'train-iris') {
          // The live loss curve: one point per epoch, and a progress line per epoch on this backend.
          expect(await page.getAttribute('#chart svg', 'data-points')).toBe('40');
          expect(r.output.split('\n').filter((l) => /^epoch\s+\d+\/40  loss /.test(l)).length).toBe(40);
          expect(r.output).toContain(`on ${backend}`);
          await page.screenshot({ path: outputPath(`playground-train-iris-${backend}.png`), fullPage: true });
        }
        if (ex.id === 'saliency') {
          expect(await page.$$eval('#images canvas', (cs) => cs.map((c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height]))).toEqual([[64, 64], [64, 64]]);
          await page.screenshot({ path: outputPath(`playground-saliency-${backend}.png`), fullPage: true });
        }
      }, 180_000);
    }
  }

  for (const id of ['eager', 'gradient', 'trace']) {
    test(`memory: the tensor count does not grow over 5 runs of "${id}"`, async () => {
      const counts: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await runExample(id);
        expect(r.state).toBe('done');
        counts.push(Number(await page.getAttribute('body', 'data-tensors')));
      }
      // The first run may leave what later runs reuse; from then on the count is flat and nothing warns.
      expect(counts.slice(1)).toEqual(Array(4).fill(counts[1]));
      expect(counts[1]).toBeLessThanOrEqual(counts[0]);
      expect(await page.getAttribute('body', 'data-tensor-growth')).toBe('0');
      expect(await page.textContent('#status')).toMatch(/tensors \d+$/);
    });
  }

  test('memory: a kept tensor survives the run and the status line warns that the count grew', async () => {
    const before = Number(await page.getAttribute('body', 'data-tensors'));
    await setCode('globalThis.kept = keep(ef.constant([1, 2, 3])); ef.constant([4, 5]); print(ef.add(1, 2));');
    await clickRun();
    expect(await page.getAttribute('body', 'data-state')).toBe('done');
    expect(Number(await page.getAttribute('body', 'data-tensors'))).toBe(before + 1);
    expect(await page.textContent('#status')).toMatch(/tensors \d+ ⚠ \+1 since the last run/);
    await setCode('print(await globalThis.kept.data()); globalThis.kept.dispose();');
    await clickRun();
    expect(await page.textContent('#output')).toContain('{"0":1,"1":2,"2":3}');
    expect(Number(await page.getAttribute('body', 'data-tensors'))).toBe(before);
  });

  test('drawGraph renders an SVG with a node per operation; screenshot saved', async () => {
    const r = await runExample('trace');
    expect(r.state).toBe('done');
    const svg = await page.$eval('#graph svg', (s) => ({ ops: Number(s.getAttribute('data-ops')), nodes: s.querySelectorAll('g.node').length, edges: s.querySelectorAll('g.edge').length }));
    expect(svg.ops).toBeGreaterThanOrEqual(3);
    expect(svg.nodes).toBe(svg.ops + 2); // the ops, input x and return[0]
    expect(svg.edges).toBeGreaterThanOrEqual(svg.ops);
    await page.screenshot({ path: outputPath('playground.png'), fullPage: true });
  });

  /** The graph stage's box and the drawing's box on screen (after the current view). */
  async function graphBoxes(): Promise<{ stage: DOMRect; drawing: DOMRect }> {
    return page.$eval('#graph', (g) => ({
      stage: (g.querySelector('.graph-stage') as HTMLElement).getBoundingClientRect().toJSON() as DOMRect,
      drawing: (g.querySelector('svg g.viewport') as SVGGElement).getBoundingClientRect().toJSON() as DOMRect,
    }));
  }

  test('the train step graph (35+ ops) fits the panel after "fit"; inputs on top, the loss returned at the bottom', async () => {
    const r = await runExample('train-step-graph');
    expect(r.state).toBe('done');
    expect(Number(await page.getAttribute('#graph svg', 'data-ops'))).toBeGreaterThanOrEqual(35);
    await page.click('#graph .graph-toolbar button:text-is("fit")');
    const { stage, drawing } = await graphBoxes();
    expect(drawing.left).toBeGreaterThanOrEqual(stage.left - 1);
    expect(drawing.right).toBeLessThanOrEqual(stage.right + 1);
    expect(drawing.top).toBeGreaterThanOrEqual(stage.top - 1);
    expect(drawing.bottom).toBeLessThanOrEqual(stage.bottom + 1);
    const y = (sel: string): Promise<number[]> => page.$$eval(sel, (gs) => gs.map((g) => g.getBoundingClientRect().top));
    const inputs = await y('#graph g.node.input');
    const outputs = await y('#graph g.node.output');
    const ops = await y('#graph g.node.op');
    expect(inputs).toHaveLength(2);
    expect(Math.max(...inputs)).toBeLessThan(Math.min(...ops));
    expect(outputs).toHaveLength(1);
    expect(Math.min(...outputs)).toBeGreaterThan(Math.max(...ops));
    await page.screenshot({ path: outputPath('playground-train-step-fit.png'), fullPage: true });
    await page.check('#graph input.optimized');
    await page.waitForFunction(() => document.querySelectorAll('#graph g.group').length > 0);
    await page.click('#graph .graph-toolbar button:text-is("fit")');
    await page.screenshot({ path: outputPath('playground-train-step-optimized.png'), fullPage: true });
  });

  test('outputs are marked from the return list; clicking the while node shows its cond and body', async () => {
    const r = await runExample('control-flow');
    expect(r.state).toBe('done');
    expect(await page.$$eval('#graph g.node.output', (gs) => gs.map((g) => g.textContent))).toEqual([expect.stringContaining('return[0]')]);
    const loop = page.locator('#graph g.node.expandable');
    await expect(loop.count()).resolves.toBe(1);
    const layouts = Number(await page.getAttribute('#graph', 'data-layout'));
    await loop.click();
    await page.waitForSelector(`#graph[data-layout="${layouts + 1}"]`);
    const frames = await page.$$eval('#graph g.body text', (ts) => ts.map((t) => t.textContent));
    expect(frames).toEqual(['cond graph', 'body graph']);
    // The body holds the cond op (floormod, equal...) and its outputs inside the opened node.
    expect(await page.$$eval('#graph g.node[data-id*=".body."]', (gs) => gs.length)).toBeGreaterThan(3);
    await page.click('#graph .graph-toolbar button:text-is("fit")');
    await page.screenshot({ path: outputPath('playground-while-open.png'), fullPage: true });
    // Clicking the opened frame closes it again.
    await page.click('#graph g.expanded > text');
    await page.waitForSelector(`#graph[data-layout="${layouts + 2}"]`);
    expect(await page.$$eval('#graph g.body', (gs) => gs.length)).toBe(0);
  });

  test('SVG and PNG downloads hold the whole graph', async () => {
    await runExample('trace');
    const [svgDl] = await Promise.all([page.waitForEvent('download'), page.click('#graph .graph-toolbar button:text-is("SVG")')]);
    const svgText = fs.readFileSync(await svgDl.path(), 'utf8');
    expect(svgText).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svgText).toContain('return[0]');
    const [pngDl] = await Promise.all([page.waitForEvent('download'), page.click('#graph .graph-toolbar button:text-is("PNG")')]);
    const png = fs.readFileSync(await pngDl.path());
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(png.readUInt32BE(16)).toBeGreaterThan(100); // width
  });

  test('the editor is CodeMirror with line numbers, no wrapping, Tab indents; reset restores the example; the URL holds the code', async () => {
    await page.selectOption('#example', 'eager');
    expect(await page.$$eval('.ef-editor .cm-lineNumbers .cm-gutterElement', (e) => e.length)).toBeGreaterThan(5);
    expect(await page.$eval('.ef-editor .cm-content', (e) => getComputedStyle(e).whiteSpace)).toBe('pre');
    expect(await page.$$eval('.ef-editor .cm-content span', (e) => e.length)).toBeGreaterThan(5); // highlighted tokens
    await page.click('.ef-editor .cm-content');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Tab');
    const edited: string = await page.evaluate(() => (window as unknown as { efPlayground: { getCode(): string } }).efPlayground.getCode());
    expect(edited.startsWith('  // Ops run at once')).toBe(true);
    const url = page.url();
    expect(url).toContain('#example=eager&code=');
    // A fresh page from the shared link shows the edited code.
    const other = await browser.newPage();
    await other.goto(url);
    await other.waitForSelector('body[data-ready="true"]');
    expect(await other.evaluate(() => (window as unknown as { efPlayground: { getCode(): string } }).efPlayground.getCode())).toBe(edited);
    await other.close();
    await page.click('#reset');
    expect(await page.evaluate(() => (window as unknown as { efPlayground: { getCode(): string } }).efPlayground.getCode())).toBe(examples.find((e) => e.id === 'eager')?.code);
    expect(page.url()).not.toContain('code=');
  });

  test('errors name the line of the user code (runtime and syntax errors)', async () => {
    await setCode('const a = ef.constant([1, 2]);\nconst b = ef.constant([1, 2, 3]);\n\nprint(ef.add(a, b));');
    await clickRun();
    expect(await page.getAttribute('#output', 'data-error-line')).toBe('4');
    expect(await page.textContent('#output')).toContain('at line 4 of your code:  print(ef.add(a, b));');
    await setCode('const a = 1;\nconst b = ;\nprint(a);');
    await clickRun();
    expect(await page.getAttribute('body', 'data-state')).toBe('error');
    expect(await page.getAttribute('#output', 'data-error-line')).toBe('2');
  });

  test('a failing snippet shows its error and leaves the page usable', async () => {
    await setCode("ef.add([1, 2], [1, 2, 3]);");
    await clickRun();
    expect(await page.getAttribute('body', 'data-state')).toBe('error');
    expect(await page.textContent('#output')).toMatch(/add: incompatible shapes/);
    expect(await page.getAttribute('#output', 'data-error-line')).toBe('1');
  });

  test('no uncaught page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
