// The epilogue pass in Chromium on webgl and webgpu: conv2d / depthwiseConv2d / matmul + bias + activation traced into one
// fused node on tfjs's fused kernels, equal to the unfused eager ops, gradients through it equal to the unfused ones,
// and 1,000 calls leave no tensors behind.
import type { Browser, Page } from 'playwright-core';
import { Site, describeBrowser, launch, startSite } from './support';

interface Block {
  name: string;
  nodes: string[];
  maxDiff: number;
  maxGradDiff: number;
}
interface Probe {
  blocks: Block[];
  leaked: number;
}

async function probe(page: Page, backend: 'webgl' | 'webgpu'): Promise<Probe> {
  return page.evaluate(async (b) => {
    type T = import('eagerflow').Tensor;
    type Ef = typeof import('eagerflow');
    const ef = (window as unknown as { ef: Ef }).ef;
    await ef.setBackend(b);
    const vals = (shape: number[], seed: number): T => {
      const n = shape.reduce((p, d) => p * d, 1);
      return ef.constant(Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed) * 0.5), 'float32', shape);
    };
    const W = vals([3, 3, 4, 8], 1);
    const DW = vals([3, 3, 4, 1], 2);
    const K = vals([16, 8], 3);
    const B8 = vals([8], 4);
    const B4 = vals([4], 5);
    const blocks: Record<string, { x: T; w: T[]; f: (x: T, w: T[]) => T }> = {
      'conv2d + biasAdd + relu': { x: vals([1, 8, 8, 4], 6), w: [W, B8], f: (x, [w, bb]) => ef.nn.relu(ef.nn.biasAdd(ef.nn.conv2d(x, w, 1, 'SAME'), bb)) },
      'conv2d strided + add + elu': { x: vals([1, 9, 9, 4], 7), w: [W, B8], f: (x, [w, bb]) => ef.nn.elu(ef.add(ef.nn.conv2d(x, w, 2, 'VALID'), bb)) },
      'depthwiseConv2d + biasAdd + relu6': { x: vals([1, 8, 8, 4], 8), w: [DW, B4], f: (x, [w, bb]) => ef.nn.relu6(ef.nn.biasAdd(ef.nn.depthwiseConv2d(x, w, [1, 1], 'SAME'), bb)) },
      'matmul + add + sigmoid': { x: vals([5, 16], 9), w: [K, B8], f: (x, [k, bb]) => ef.nn.sigmoid(ef.add(ef.matmul(x, k), bb)) },
      'matmul transposeB + biasAdd + leakyRelu': { x: vals([5, 8], 10), w: [K, vals([16], 11)], f: (x, [k, bb]) => ef.nn.leakyRelu(ef.nn.biasAdd(ef.matmul(x, k, false, true), bb), 0.1) },
    };
    const diff = (a: Float32Array, c: Float32Array): number => a.reduce((m, v, i) => Math.max(m, Math.abs(v - c[i])), 0);
    const grads = async (run: (x: T) => T, x: T, w: T[]): Promise<Float32Array[]> => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        w.forEach((t) => tape.watch(t));
        return ef.reduceSum(ef.square(run(x)));
      });
      const gs = tape.gradient(y, [x, ...w]) as T[];
      const out = await Promise.all(gs.map(async (g) => (await g.data()) as Float32Array));
      ef.dispose([y, ...gs]);
      return out;
    };
    const out: Block[] = [];
    let leaked = 0;
    for (const [name, s] of Object.entries(blocks)) {
      const traced = ef.trace((x: T, ...w: T[]) => s.f(x, w));
      const nodes = traced.getConcreteFunction(s.x, ...s.w).graph.nodes.map((n) => n.prim.name);
      const [a, e] = [traced(s.x, ...s.w) as T, s.f(s.x, s.w)];
      const maxDiff = diff((await a.data()) as Float32Array, (await e.data()) as Float32Array);
      ef.dispose([a, e]);
      const [gf, gu] = [await grads((x) => traced(x, ...s.w) as T, s.x, s.w), await grads((x) => s.f(x, s.w), s.x, s.w)];
      const maxGradDiff = Math.max(...gf.map((g, k) => diff(g, gu[k])));
      // 1,000 calls of the first block (SwiftShader is slow; the others share its record and executor path).
      const before = ef.memory().numTensors;
      for (let i = 0; i < (out.length === 0 ? 1000 : 0); i++) {
        const y = traced(s.x, ...s.w) as T;
        if (i % 250 === 249) await y.data();
        y.dispose();
      }
      leaked += ef.memory().numTensors - before;
      traced.dispose();
      out.push({ name, nodes, maxDiff, maxGradDiff });
    }
    ef.dispose([W, DW, K, B8, B4, ...Object.values(blocks).map((s) => s.x)]);
    await ef.setBackend('cpu');
    return { blocks: out, leaked };
  }, backend);
}

describeBrowser('fused conv / matmul epilogues on webgl and webgpu', () => {
  let browser: Browser;
  let site: Site;
  let page: Page;
  const results: Partial<Record<'webgl' | 'webgpu', Probe>> = {};

  beforeAll(async () => {
    [browser, site] = await Promise.all([launch(), startSite('epilogue-fusion')]);
    page = await browser.newPage();
    await page.goto(`${site.url}/browser/conformance.html`);
    results.webgl = await probe(page, 'webgl');
    results.webgpu = await probe(page, 'webgpu');
  }, 300_000);

  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await site?.close();
  });

  for (const b of ['webgl', 'webgpu'] as const) {
    test(`${b}: every block traces to one fused node, equal to the unfused eager ops with the same gradients (float32 tolerance)`, () => {
      const r = results[b] as Probe;
      console.log(`${b}: ${r.blocks.map((k) => `${k.name}: max |fused - unfused| ${k.maxDiff.toExponential(1)}, gradients ${k.maxGradDiff.toExponential(1)}`).join('; ')}`);
      expect(r.blocks.map((k) => [k.name, k.nodes])).toEqual(r.blocks.map((k) => [k.name, [k.name.startsWith('matmul') ? 'fused_matmul' : 'fused_conv2d']]));
      // GPU kernels sum in their own order: float32 rounding apart, not bits.
      expect(r.blocks.filter((k) => !(k.maxDiff < 1e-5))).toEqual([]);
      expect(r.blocks.filter((k) => !(k.maxGradDiff < 1e-4))).toEqual([]);
    });

    test(`${b}: 1,000 calls of a fused block leave no tensors behind`, () => {
      expect((results[b] as Probe).leaked).toBe(0);
    });
  }
});
