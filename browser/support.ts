// Shared setup for the browser tests: Chromium detection (skips loudly), a fresh bundle, a local server, launch options.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';

export const root = path.resolve(__dirname, '..');
/** Debian's Chromium; EF_CHROMIUM overrides the path (e.g. to check the skip path). */
export const CHROMIUM = process.env.EF_CHROMIUM ?? '/usr/bin/chromium';
/**
 * Debian Chromium, headless, no network side traffic; WebGL2 and WebGPU through SwiftShader (WebGPU
 * only on a secure page: the test servers' http://127.0.0.1). Never a downloaded browser.
 */
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-swiftshader',
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
];

const hasChromium = fs.existsSync(CHROMIUM);
const required = process.env.EF_REQUIRE_BROWSER === '1';

/**
 * `describe` for browser suites: runs when /usr/bin/chromium exists; otherwise prints a visible
 * skip notice (or fails, when EF_REQUIRE_BROWSER=1 as in .ci/run).
 */
export function describeBrowser(name: string, body: () => void): void {
  if (hasChromium) {
    describe(name, body);
    return;
  }
  const why = `${CHROMIUM} not found (install Debian's chromium: apt-get install -y chromium)`;
  if (required) {
    describe(name, () => test(`needs Chromium: ${why}`, () => {
      throw new Error(`EF_REQUIRE_BROWSER=1 but ${why}`);
    }));
    return;
  }
  // Jest hides console output of suites whose tests are all skipped, so write the notice straight to stderr.
  process.stderr.write(`\nSKIPPED browser tests "${name}": ${why}.\n`);
  describe(name, () => test.skip(`SKIPPED: ${why}`, () => undefined));
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}

export interface Site {
  url: string;
  close(): Promise<void>;
}

/**
 * Builds the browser bundle from the current sources into test-output/<name>/ and serves the
 * repository at `url`, with /packages/eagerflow/dist/ mapped to that fresh bundle and, with
 * `playground`, /examples/browser/build/ to fresh playground chunks (editor, graph layout): only the
 * playground's pages load them.
 */
export async function startSite(name: string, { playground = false }: { playground?: boolean } = {}): Promise<Site> {
  const outdir = path.join(root, 'test-output', name, 'dist');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildBrowser } = require('../packages/eagerflow/browser/build.js') as { buildBrowser(dir: string): Promise<unknown> };
  const mounts: Record<string, string> = { '/': root, '/packages/eagerflow/dist/': outdir };
  const builds = [buildBrowser(outdir)];
  if (playground) {
    const chunks = path.join(root, 'test-output', name, 'playground-build');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { buildPlayground } = require('../scripts/build-playground.js') as { buildPlayground(dir: string): Promise<unknown> };
    builds.push(buildPlayground(chunks));
    mounts['/examples/browser/build/'] = chunks;
  }
  await Promise.all(builds);
  return serve(mounts);
}

/** The URL of repository file `file` on `site` (served from the repository root). */
export function siteUrl(site: Site, file: string): string {
  return `${site.url}/${path.relative(root, file).split(path.sep).join('/')}`;
}

/** Serves `mounts` (URL prefix -> directory) with the repository's static server. */
export function serve(mounts: Record<string, string>): Promise<Site> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startServer } = require('../scripts/static-server.js') as { startServer(mounts: Record<string, string>): Promise<Site> };
  return startServer(mounts);
}

/** Where screenshots and other artifacts go (ignored by git). */
export function outputPath(file: string): string {
  const p = path.join(root, 'test-output', file);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  return p;
}
