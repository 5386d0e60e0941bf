// TFRecords, Examples and PNGs in real Chromium: the script bundle reads a GZIP TFRecord file TF 2.21 wrote from a
// fetch Response (streamed, inflated by fflate) and from an ArrayBuffer, parses its Examples to TF's parse_example
// values, and decodes TF's PNGs (fast-png) to TF's pixels.
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Site, describeBrowser, launch, root, siteUrl, startSite } from './support';

const FIX = path.join(root, 'packages', 'saving', 'test', 'fixtures', 'tfrecord');
const CODECS = path.join(root, 'packages', 'eagerflow', 'test', 'fixtures', 'io', 'codecs.json');

describeBrowser('TFRecords, Examples and PNG decoding in Chromium', () => {
  let browser: Browser;
  let site: Site;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [browser, site] = await Promise.all([launch(), startSite('records')]);
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${site.url}/browser/conformance.html`);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  test('a GZIP TFRecord of Examples TF wrote, from fetch and from an ArrayBuffer, parses to TF\'s values', async () => {
    const urls = { file: siteUrl(site, path.join(FIX, 'examples.gzip.tfrecord')), json: siteUrl(site, path.join(FIX, 'examples.json')) };
    type EfGlobal = { ef: typeof import('eagerflow') };
    const got = await page.evaluate(async (u) => {
      const ef = (window as unknown as EfGlobal).ef;
      const spec = { x: ef.io.FixedLenFeature([2], 'float32'), id: ef.io.FixedLenFeature([], 'int64', { defaultValue: -1 }), tags: ef.io.VarLenFeature('string') };
      const viaFetch = ef.data.TFRecordDataset([await fetch(u.file)], { compressionType: 'GZIP' }).batch(3).map((r: import('eagerflow').Tensor) => {
        const p = ef.io.parseExample(r, { x: spec.x, id: spec.id });
        return [p.x, p.id];
      });
      const [[x, id]] = (await viaFetch.toArray()) as import('eagerflow').Tensor[][];
      const buffer = await (await fetch(u.file)).arrayBuffer();
      const records = (await ef.data.TFRecordDataset([buffer], { compressionType: 'GZIP' }).toArray()) as import('eagerflow').Tensor[];
      const tags = ef.io.parseExample(records.map((r) => r.bytes()[0]), { tags: spec.tags }).tags as import('eagerflow').SparseTensor;
      const hex = (b: Uint8Array): string => Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
      const want = await (await fetch(u.json)).json();
      return {
        x: x.arraySync(), id: id.arraySync(), tags: { indices: tags.indices.arraySync(), values: tags.values.bytes().map(hex), dense_shape: tags.denseShape.arraySync() },
        want: { x: want.parse_example.x, id: want.parse_example.id, tags: want.parse_example.tags },
        env: typeof process === 'undefined' ? 'browser' : 'node?',
      };
    }, urls);
    expect(got.env).toBe('browser');
    expect({ x: got.x, id: got.id, tags: got.tags }).toEqual(got.want);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  test('decodePng gives TF\'s pixels for the PNGs TF encoded; encodePng round-trips', async () => {
    const got = await page.evaluate(async (url) => {
      const ef = (window as unknown as { ef: typeof import('eagerflow') }).ef;
      const fx = await (await fetch(url)).json();
      const unhex = (s: string): Uint8Array => new Uint8Array((s.match(/../g) ?? []).map((h) => parseInt(h, 16)));
      return (fx.png as { name: string; png: string; decoded: unknown }[]).map((p) => {
        const img = ef.io.decodePng(unhex(p.png));
        const again = ef.io.decodePng(ef.io.encodePng(p.name === 'rgb16' ? ef.constant([[[1, 2, 3]]], 'int32') : img)).arraySync();
        return { name: p.name, same: JSON.stringify(img.arraySync()) === JSON.stringify(p.decoded), roundTrip: p.name === 'rgb16' || JSON.stringify(again) === JSON.stringify(p.decoded) };
      });
    }, siteUrl(site, CODECS));
    expect(got).toEqual([
      { name: 'rgb', same: true, roundTrip: true },
      { name: 'rgba', same: true, roundTrip: true },
      { name: 'gray', same: true, roundTrip: true },
      { name: 'rgb16', same: true, roundTrip: true },
    ]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
