// Web half of the consumer test: browser-style strict TypeScript without @types/node, Vite apps built and run in Chromium on WebGL, bundle sizes.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { step, run, check, makeProject, typecheck, fixtures, root } = require('./consumer-project.js');

const VITE = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const CHROMIUM = process.env.EF_CHROMIUM ?? '/usr/bin/chromium';
// The flags the repository's browser tests use (browser/support.ts): Debian Chromium, WebGL2 through SwiftShader.
const LAUNCH_ARGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader'];

/** A Vite app in `dir` whose entry is the fixture `entry`; returns the built JS files with raw and gzipped sizes. */
function buildViteApp(dir, entry) {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(fixtures, 'index.html'), path.join(dir, 'index.html'));
  fs.copyFileSync(path.join(fixtures, entry), path.join(dir, 'main.ts'));
  fs.copyFileSync(path.join(fixtures, 'program.ts'), path.join(dir, 'program.ts'));
  fs.writeFileSync(path.join(dir, 'vite.config.mjs'), "export default { logLevel: 'warn', build: { chunkSizeWarningLimit: 5000 } };\n");
  run(process.execPath, [VITE, 'build'], dir);
  const assets = path.join(dir, 'dist', 'assets');
  const html = fs.readFileSync(path.join(dir, 'dist', 'index.html'), 'utf8');
  return fs.readdirSync(assets).filter((f) => f.endsWith('.js')).map((f) => {
    const bytes = fs.readFileSync(path.join(assets, f));
    return { file: f, entry: html.includes(`/assets/${f}`), raw: bytes.length, gzip: zlib.gzipSync(bytes).length };
  });
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
function report(name, files) {
  const entry = files.filter((f) => f.entry);
  const sum = (xs, k) => xs.reduce((a, f) => a + f[k], 0);
  const size = { entryGzip: sum(entry, 'gzip'), totalGzip: sum(files, 'gzip'), entryRaw: sum(entry, 'raw'), totalRaw: sum(files, 'raw') };
  console.log(`consumer: vite ${name}: loaded at start ${kb(size.entryRaw)} (${kb(size.entryGzip)} gzipped); all ${files.length} chunks ${kb(size.totalRaw)} (${kb(size.totalGzip)} gzipped)`);
  return size;
}

/** `promise`, or an error naming `what` after `ms` (every browser step is bounded: CI has a time limit). */
function within(ms, what, promise) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`consumer: ${what} took over ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Opens each built app in Chromium and returns what it left in window.efResult (or throws its error). */
async function openInChromium(apps) {
  const { chromium } = require(require.resolve('playwright-core', { paths: [root] }));
  const { startServer } = require(path.join(root, 'scripts', 'static-server.js'));
  const browser = await within(180000, 'launching Chromium', chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS }));
  const results = {};
  try {
    for (const [name, dir] of Object.entries(apps)) {
      const started = Date.now();
      const site = await startServer({ '/': path.join(dir, 'dist') });
      let page;
      try {
        page = await within(60000, `opening a page for the ${name} app`, browser.newPage());
        const errors = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(`${site.url}/`, { timeout: 60000 });
        await page.waitForFunction(() => window.efResult !== undefined || window.efError !== undefined, null, { timeout: 60000 });
        const { efResult, efError } = await within(30000, `reading the ${name} app's result`, page.evaluate(() => ({ efResult: window.efResult, efError: window.efError })));
        check(efError === undefined && errors.length === 0, `the ${name} app failed in Chromium`, efError ?? errors.join('\n'), 'no error');
        results[name] = efResult;
      } finally {
        // The page goes first, then the server (which also drops any socket the browser still holds).
        if (page !== undefined) await within(30000, `closing the ${name} page`, page.close()).catch(() => undefined);
        await within(30000, `stopping the ${name} app's server`, site.close());
      }
      console.log(`consumer:   ${name} app ran in Chromium in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    // A browser that will not close is not a consumer failure: say so and go on (main exits the process at the end).
    await within(60000, 'closing Chromium', browser.close()).catch((e) => console.log(`${e.message}; going on`));
  }
  return results;
}

/** A project with nothing but eagerflow (no backend; @types/node only through tfjs-data): types, Vite builds, Chromium on webgl, the size of `add` alone. */
async function webProject(work, packs, packed) {
  const dir = path.join(work, 'web-app');
  makeProject(dir, packs, packed);
  // @types/node may only arrive through tfjs-data's own dependency (@types/node-fetch); nothing of ours needs it.
  const nodeTypes = JSON.parse(run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ls', '@types/node', '--all', '--json'], dir));
  const via = [];
  const walk = (deps, trail) => {
    for (const [name, d] of Object.entries(deps ?? {})) {
      if (name === '@types/node') via.push(trail.join(' > '));
      walk(d.dependencies, [...trail, name]);
    }
  };
  walk(nodeTypes.dependencies, []);
  const stray = via.filter((t) => !t.includes('@tensorflow/tfjs-data > @types/node-fetch'));
  check(stray.length === 0, 'the web project got @types/node through something other than tfjs-data', stray, 'only @tensorflow/tfjs-data > @types/node-fetch');
  // With @types/node on disk, the `web-types` check below (types: ['long'], at the floor and current TypeScript)
  // is the one that proves EagerFlow's reachable declarations need no Node types.
  step(`web-app installed (only the eagerflow tarball; the tfjs packages arrive as peers${via.length ? '; @types/node only via tfjs-data' : ''})`);
  for (const f of ['program.ts', 'web-full.ts', 'web-add.ts', 'web-tfjs.ts']) fs.copyFileSync(path.join(fixtures, f), path.join(dir, f));
  const sources = ['program.ts', 'web-full.ts', 'web-add.ts', 'web-tfjs.ts'];
  // Automatic @types at the current TypeScript only: tfjs-data brings the newest @types/node, which needs TypeScript >= 5.6
  // (README: on an older TypeScript, list `types` or pin @types/node); the listed-types check runs at the floor too.
  typecheck(dir, 'web', { module: 'ESNext', moduleResolution: 'Bundler' }, sources, ['current']);
  // The README's advice for a tsconfig that lists `types`: tfjs-core's declarations need "long".
  typecheck(dir, 'web-types', { module: 'ESNext', moduleResolution: 'Bundler', types: ['long'] }, sources);
  const apps = { full: 'web-full.ts', add: 'web-add.ts', tfjs: 'web-tfjs.ts' };
  const sizes = {};
  for (const [name, entry] of Object.entries(apps)) sizes[name] = report(`app ${name} (${entry})`, buildViteApp(path.join(dir, `app-${name}`), entry));
  step('vite builds done');
  const pages = Object.fromEntries(Object.keys(apps).map((n) => [n, path.join(dir, `app-${n}`)]));
  const results = await openInChromium({ ...pages, script: scriptTagPage(dir) });
  check(JSON.stringify(results.script) === '{"backend":"webgl","sum":[2,3]}', 'the script-tag bundle (unpkg/jsdelivr) failed', results.script, '{"backend":"webgl","sum":[2,3]}');
  const r = results.full;
  check(r.backend === 'webgl', 'the Vite app is not on webgl', r.backend, "'webgl'");
  check(JSON.stringify(r.result) === JSON.stringify(r.expected), 'the Vite app printed something else on webgl', r.result, JSON.stringify(r.expected));
  for (const n of ['add', 'tfjs']) check(JSON.stringify(results[n]) === '[2,3]', `the ${n} app printed something else`, results[n], '[2,3]');
  step('Chromium: the Vite app ran the program on webgl; the `add` apps printed [2,3]; the script-tag bundle ran on webgl');
  compareSizes(sizes, dir, work);
}

/** A plain page loading the tarball's script bundle (what the `unpkg` / `jsdelivr` fields point at) with a script tag. */
function scriptTagPage(dir) {
  const page = path.join(dir, 'script-tag');
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'eagerflow', 'package.json'), 'utf8'));
  check(pkg.unpkg === 'dist/eagerflow.js' && pkg.jsdelivr === pkg.unpkg, 'the CDN fields do not point at the script bundle', [pkg.unpkg, pkg.jsdelivr], 'dist/eagerflow.js');
  fs.mkdirSync(path.join(page, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(dir, 'node_modules', 'eagerflow', pkg.unpkg), path.join(page, 'dist', 'eagerflow.js'));
  // The bundle fetches its WebGL add-on from next to itself on setBackend('webgl'): the tarball ships it beside the bundle.
  const webgl = path.join(dir, 'node_modules', 'eagerflow', 'dist', 'eagerflow-webgl.js');
  check(fs.existsSync(webgl), "the tarball lacks the script bundle's WebGL add-on", 'no dist/eagerflow-webgl.js', 'dist/eagerflow-webgl.js beside dist/eagerflow.js');
  fs.copyFileSync(webgl, path.join(page, 'dist', 'eagerflow-webgl.js'));
  const script = "ef.setBackend('webgl').then(() => { window.efResult = { backend: ef.getBackend(), sum: ef.add([1, 2], 1).arraySync() }; }, (e) => { window.efError = String(e); });";
  fs.writeFileSync(path.join(page, 'dist', 'index.html'), `<!doctype html>\n<script src="eagerflow.js"></script>\n<script>${script}</script>\n`);
  return page;
}

/** `import { add }` must stay well under the whole library; its overhead over raw tfjs-core + CPU is printed. */
function compareSizes(sizes, dir, work) {
  // The ES-module bundle stays in the repository (browser tests, playground); the tarball ships the script bundle.
  const script = fs.readFileSync(path.join(dir, 'node_modules', 'eagerflow', 'dist', 'eagerflow.js'));
  const webgl = fs.readFileSync(path.join(dir, 'node_modules', 'eagerflow', 'dist', 'eagerflow-webgl.js'));
  // The whole library for script tags: the bundle (cpu), its WebGL add-on (in the tarball beside it) and the two
  // add-ons the build writes beside it, wasm's JS glue and WebGPU (kept out of the tarball for its size).
  const built = path.join(work, 'clone', 'packages', 'eagerflow', 'dist');
  const addOns = ['eagerflow-wasm.js', 'eagerflow-webgpu.js'].map((f) => zlib.gzipSync(fs.readFileSync(path.join(built, f))).length);
  const fullBundle = zlib.gzipSync(script).length + zlib.gzipSync(webgl).length + addOns[0] + addOns[1];
  const add = sizes.add.entryGzip;
  console.log(`consumer: gzipped size of a Vite bundle importing \`add\` alone: ${kb(add)} (${kb(sizes.add.entryRaw)} minified)`);
  console.log(`consumer:   vs the whole library (script-tag bundle with cpu, plus the WebGL, wasm and WebGPU add-ons): ${kb(fullBundle)} (${((100 * add) / fullBundle).toFixed(0)}%)`);
  console.log(`consumer:   vs the Vite app running the whole program before webgl loads: ${kb(sizes.full.entryGzip)}`);
  console.log(`consumer:   vs raw tfjs-core + cpu doing the same add: ${kb(sizes.tfjs.entryGzip)} (EagerFlow adds ${kb(add - sizes.tfjs.entryGzip)})`);
  // The criterion: well under the whole library. The umbrella's op names come from the generated op table, so
  // `add` brings every record (the overhead over raw tfjs grows with the op set: 92.8 KB at 190 ops, 110 KB at 225);
  // WebGL, by contrast, is split off. Per-op shaking is open work; this guards against shaking failing altogether.
  check(add < 0.5 * fullBundle, '`import { add }` does not tree-shake', kb(add), `under half of the ${kb(fullBundle)} of the whole library`);
}

module.exports = { webProject };
