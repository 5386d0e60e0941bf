// The script bundle's WebGL add-on in Chromium: eagerflow.js starts on cpu and fetches eagerflow-webgl.js from next to
// itself on the first setBackend('webgl'); a missing add-on is a clear error. Also maxPool's gradient on webgl (which
// sums into the argmax taps without ScatterNd) against cpu in the same page, on windows that overlap and tie.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Site, describeBrowser, launch, root, serve, startSite } from './support';

type Ef = typeof import('eagerflow');

describeBrowser('the WebGL add-on of the script bundle in Chromium', () => {
  let browser: Browser;
  let site: Site;
  let bare: Site;
  let page: Page;
  const fetched: string[] = [];

  beforeAll(async () => {
    [browser, site] = await Promise.all([launch(), startSite('webgl-addon')]);
    // A directory with the bundle alone (no add-on beside it).
    const lone = path.join(root, 'test-output', 'webgl-addon', 'lone');
    fs.mkdirSync(lone, { recursive: true });
    fs.copyFileSync(path.join(root, 'test-output', 'webgl-addon', 'dist', 'eagerflow.js'), path.join(lone, 'eagerflow.js'));
    fs.writeFileSync(path.join(lone, 'index.html'), '<!doctype html><script src="eagerflow.js"></script>');
    bare = await serve({ '/': lone });
    page = await browser.newPage();
    page.on('request', (r) => void fetched.push(new URL(r.url()).pathname));
    await page.goto(`${site.url}/browser/conformance.html`);
    await page.waitForFunction(() => 'ef' in globalThis);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bare?.close();
    await site?.close();
  });

  test('the bundle starts on cpu without fetching WebGL; setBackend(webgl) fetches eagerflow-webgl.js once from beside it', async () => {
    const before = await page.evaluate(() => ({ backend: (globalThis as unknown as { ef: Ef }).ef.getBackend(), loaded: 'efWebgl' in globalThis }));
    expect(before).toEqual({ backend: 'cpu', loaded: false });
    expect(fetched.filter((f) => f.endsWith('eagerflow-webgl.js'))).toEqual([]);
    const after = await page.evaluate(async () => {
      const { ef } = globalThis as unknown as { ef: Ef };
      await ef.setBackend('webgl');
      await ef.setBackend('cpu');
      await ef.setBackend('webgl');
      return { backend: ef.getBackend(), sum: ef.add([1, 2], 1).arraySync() };
    });
    expect(after).toEqual({ backend: 'webgl', sum: [2, 3] });
    expect(fetched.filter((f) => f.endsWith('eagerflow-webgl.js'))).toEqual(['/packages/eagerflow/dist/eagerflow-webgl.js']);
  });

  test('the minified bundle keeps the public class names messages use (ef.Variable, ef.errors.*, ef.optimizers.*)', async () => {
    const names = await page.evaluate(() => {
      const { ef } = globalThis as unknown as { ef: Ef };
      const err = (() => {
        try {
          ef.reshape([1, 2, 3], [2, 2]);
          return null;
        } catch (e) {
          return e as Error;
        }
      })();
      const v = new ef.Variable(ef.constant([1]));
      const described = (() => {
        try {
          ef.cast([1], v as never);
          return '';
        } catch (e) {
          return (e as Error).message;
        }
      })();
      v.dispose();
      return [ef.Tensor.name, ef.Variable.name, ef.errors.InvalidArgumentError.name, new ef.errors.NotFoundError('x').name, err?.name, ef.optimizers.Adam.name, described.includes('Variable')];
    });
    expect(names).toEqual(['Tensor', 'Variable', 'InvalidArgumentError', 'NotFoundError', 'InvalidArgumentError', 'Adam', true]);
  });

  test('maxPool2d gradients on webgl: the sums into its argmax, equal to cpu where no window ties (overlapping SAME/VALID windows, strides, NCHW, batches)', async () => {
    const cases: [number[], number, number, 'SAME' | 'VALID', 'NHWC' | 'NCHW', boolean][] = [
      [[1, 29, 29, 8], 3, 2, 'SAME', 'NHWC', false],
      [[2, 9, 7, 3], 3, 1, 'VALID', 'NHWC', false],
      [[1, 8, 8, 2], 2, 2, 'VALID', 'NHWC', true],
      [[2, 3, 6, 5], 2, 1, 'SAME', 'NCHW', false],
      [[1, 6, 6, 4], 3, 2, 'SAME', 'NHWC', true],
    ];
    const r = await page.evaluate(async (cases) => {
      const { ef } = globalThis as unknown as { ef: Ef };
      const out: { grads: Record<string, number[]>; scattered: number[] | null; leaked: number }[] = [];
      for (const [shape, k, s, pad, fmt, ties] of cases) {
        const size = shape.reduce((a, b) => a * b, 1);
        // Ties: only four distinct values, so windows hold equal maxima.
        const values = Float32Array.from({ length: size }, (_, i) => (ties ? (i * 7) % 4 : Math.sin(i * 12.9898) * 43758.5453 % 1));
        const grads: Record<string, number[]> = {};
        for (const b of ['cpu', 'webgl']) {
          await ef.setBackend(b);
          const n0 = ef.memory().numTensors;
          const x = ef.constant(values, 'float32', shape);
          // The pooled values weighted 1, 2, 3, ...: a distinct cotangent per window (the tape's intermediates die in the tidy).
          const g = ef.tidy(() => {
            const tape = new ef.GradientTape();
            const y = tape.record(() => {
              tape.watch(x);
              const p = ef.nn.maxPool2d(x, k, s, pad, { dataFormat: fmt });
              const dims = p.shape.dims as number[];
              return ef.reduceSum(ef.multiply(p, ef.reshape(ef.range(1, dims.reduce((a, d) => a * d, 1) + 1), dims)));
            });
            return tape.gradient(y, x) as import('eagerflow').Tensor;
          });
          grads[b] = Array.from((await g.data()) as Float32Array);
          // What TF's MaxPoolGrad is on this backend's own argmax: the weights 1, 2, 3, ... summed at each window's argmax.
          let scattered: number[] | null = null;
          if (fmt === 'NHWC') {
            const { output, argmax } = ef.nn.maxPoolWithArgmax(x, k, s, pad, { includeBatchInIndex: true }) as unknown as Record<string, import('eagerflow').Tensor>;
            scattered = new Array(size).fill(0);
            (await argmax.data()).forEach((at, w) => void ((scattered as number[])[at as number] += w + 1));
            for (const t of [output, argmax]) t.dispose();
          }
          for (const t of [x, g]) t.dispose();
          if (b === 'webgl') out.push({ grads, scattered, leaked: ef.memory().numTensors - n0 });
        }
      }
      return out;
    }, cases);
    const worst = (a: number[], b: number[]): number => Math.max(...a.map((v, j) => Math.abs(v - b[j]) / Math.max(1, Math.abs(b[j]))));
    for (const [i, c] of r.entries()) {
      expect({ i, leaked: c.leaked }).toEqual({ i, leaked: 0 });
      expect(c.grads.webgl.length).toBe(c.grads.cpu.length);
      expect(c.grads.cpu.some((v) => v !== 0)).toBe(true);
      // The sums into webgl's own argmax, exactly (integers).
      if (c.scattered !== null) expect({ i, webgl: c.grads.webgl }).toEqual({ i, webgl: c.scattered });
      // And cpu's where no window ties; with ties tfjs-webgl's argmax is the last maximum of the window, cpu's
      // (TensorFlow's) the first, for MaxPoolWithArgmax as before this path.
      if (!cases[i][5]) expect({ i, close: worst(c.grads.webgl, c.grads.cpu) < 1e-5 }).toEqual({ i, close: true });
    }
  }, 120_000);

  test('without eagerflow-webgl.js beside the bundle, setBackend(webgl) throws a NotFoundError naming the file and stays on cpu', async () => {
    const p = await browser.newPage();
    await p.goto(`${bare.url}/index.html`);
    const r = await p.evaluate(async () => {
      const { ef } = globalThis as unknown as { ef: Ef };
      const n0 = ef.memory().numTensors;
      try {
        await ef.setBackend('webgl');
        return { ok: true, name: '', message: '', backend: ef.getBackend(), leaked: 0 };
      } catch (e) {
        return { ok: false, name: (e as Error).name, message: (e as Error).message, backend: ef.getBackend(), leaked: ef.memory().numTensors - n0 };
      }
    });
    await p.close();
    expect(r).toMatchObject({ ok: false, name: 'NotFoundError', backend: 'cpu', leaked: 0 });
    expect(r.message).toContain('eagerflow-webgl.js');
    expect(r.message).toContain('Serve dist/eagerflow-webgl.js beside the bundle');
  });
});
