// WebGL vs CPU in Debian Chromium (SwiftShader WebGL2): runs bench/browser/cases.js, prints webgl/cpu ratios and callback overheads.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { ratioLine, record } = require('./harness');

const CHROMIUM = '/usr/bin/chromium';
// Same flags as browser/support.ts: Debian Chromium only, no side traffic, WebGL2 through SwiftShader.
// WebGPU through SwiftShader too (only on a secure page: the bench server's http://127.0.0.1).
const LAUNCH_ARGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'];
const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'packages', 'eagerflow', 'dist', 'eagerflow.js');

const elements = (xs) => (xs.length === 0 ? 'none' : xs.join(' + '));

/** A case against its baseline on several GPU backends (timed in the same rounds): one ratio line per GPU backend. */
function gpuOverheadLines(name, c, t, base) {
  record({ group: 'Chromium: traced chain vs raw tfjs eager (wall time incl. readback)', name, backend: 'cpu (browser)', ef: t.cpu * 1000, tfjs: base.cpu * 1000, ratio: t.cpu / base.cpu });
  for (const b of c.gpus) {
    console.log(`${name}: vs ${c.baseline} on ${b}: ${base[b].toFixed(2)} -> ${t[b].toFixed(2)} ms per call (incl. readback)`);
    ratioLine(`${name} [${b}]`, `${b} time/${c.baseline}`, t[b] / base[b], c.overheadTarget);
    // The baseline of these cases is the same chain in raw tfjs eager (bench/browser/cases.js).
    record({ group: 'Chromium: traced chain vs raw tfjs eager (wall time incl. readback)', name, backend: b, ef: t[b] * 1000, tfjs: base[b] * 1000, ratio: t[b] / base[b], target: c.overheadTarget });
  }
}

/** A case against its baseline (timed in the same rounds): per-call ms on each backend, the webgl ratio line, what one webgl call moves. */
function overheadLines(name, c, t, base, moves) {
  const added = (b) => `${b} ${base[b].toFixed(2)} -> ${t[b].toFixed(2)} ms (${t[b] >= base[b] ? '+' : ''}${(t[b] - base[b]).toFixed(2)} ms, ${(t[b] / base[b]).toFixed(2)}x)`;
  console.log(`${name}: vs ${c.baseline}: ${added('cpu')}, ${added('webgl')}; webgl moves per call (elements): downloads ${elements(moves.downloads)}, uploads ${elements(moves.uploads)}`);
  ratioLine(name, 'webgl time/baseline', t.webgl / base.webgl, c.overheadTarget);
}

/** Median ms per call of each case in `names` on cpu and `gpus`, interleaving backends and cases over `rounds` rounds. */
async function timeRounds(page, names, rounds, gpus = ['webgl']) {
  const backends = ['cpu', ...gpus];
  const ms = Object.fromEntries(names.map((n) => [n, Object.fromEntries(backends.map((b) => [b, []]))]));
  for (let round = 0; round < rounds; round++) {
    for (const backend of round % 2 ? [...backends].reverse() : backends) {
      for (const name of round % 2 ? [...names].reverse() : names) {
        ms[name][backend].push(await page.evaluate(([n, b]) => window.efBench.time(n, b), [name, backend]));
      }
    }
  }
  const med = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(names.map((n) => [n, Object.fromEntries(backends.map((b) => [b, med(ms[n][b])]))]));
}

async function main() {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`webgl.bench: SKIPPED (${CHROMIUM} not found; apt-get install -y chromium)`);
    return;
  }
  if (!fs.existsSync(bundle)) throw new Error(`webgl.bench: ${path.relative(root, bundle)} is missing; run npm run build first.`);
  const { chromium } = require('playwright-core');
  const { startServer } = require('../scripts/static-server.js');
  const site = await startServer({ '/': root });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${site.url}/bench/browser/index.html`);
    const cases = await page.evaluate(() => Object.fromEntries(window.efBenchCases.map((c) => [c.name, { target: c.target, baseline: c.baseline, overheadTarget: c.overheadTarget, rounds: c.rounds, gpus: c.gpus }])));
    // `node bench/webgl.bench.js callback` runs only the cases whose names contain an argument.
    const only = process.argv.slice(2);
    for (const name of await page.evaluate(() => window.efBench.names())) {
      if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
      const c = cases[name];
      // A case with a baseline is timed together with it, round by round, so drift hits both alike.
      const group = c.baseline !== undefined ? [c.baseline, name] : [name];
      const t = await timeRounds(page, group, c.rounds ?? 3, c.gpus);
      console.log(`${name}: ${Object.entries(t[name]).map(([b, v]) => `${b} ${v.toFixed(2)} ms`).join(', ')} per call (incl. readback)`);
      if (c.target !== undefined) ratioLine(name, 'webgl/cpu time', t[name].webgl / t[name].cpu, c.target);
      if (c.baseline !== undefined && c.gpus !== undefined) gpuOverheadLines(name, c, t[name], t[c.baseline]);
      else if (c.baseline !== undefined) overheadLines(name, c, t[name], t[c.baseline], await page.evaluate((n) => window.efBench.transfers(n), name));
    }
  } finally {
    await browser.close();
    await site.close();
  }
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});
