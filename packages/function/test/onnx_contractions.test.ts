// Contractions spread over several records, written as one ONNX Runtime node (src/onnx/contractions.ts): the weight
// gradient of a batched x @ W (a batched matmul summed over its batch axes -> one Gemm over stacked rows) and sums
// over the leading axes of rank-2/3 values (-> ones @ x). Compiled in strict mode against float64 references, the
// uncompiled trace, and the planner's own view of which nodes it fuses.
import * as ef from 'eagerflow';
import { planFusions } from '../src/onnx/contractions';
import { staticOr } from '../src/onnx/segment';
import type { Graph } from '../src/graph';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const vals = (n: number, a: number, b: number): Float32Array => Float32Array.from({ length: n }, (_, i) => Math.sin(a * i + b));
const size = (s: readonly number[]): number => s.reduce((x, y) => x * y, 1);
const arr = (t: ef.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>);
const close = (got: number[], want: number[]): void => {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(Math.abs(g - want[i])).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(want[i]))));
};

type Fn = ef.TracedFunction<(...a: ef.Tensor[]) => ef.Tensor | ef.Tensor[]>;

/** The traced graph of `f` at `args` and the fusions the ONNX writer plans over all of it. */
function plan(f: ef.TracedFunction, ...args: ef.Tensor[]): { fused: string[]; absorbed: string[] } {
  const g = (f.getConcreteFunction(...args) as unknown as { graph: Graph }).graph;
  const { writers, absorbed } = planFusions(g, g.nodes, g.outputs);
  return { fused: [...writers.keys()].map((n) => n.prim.name), absorbed: [...absorbed].map((n) => n.prim.name) };
}

/** The fusions planned over the compiled function's ONNX segment(s) (the graph it runs, variable updates joined in). */
function segmentPlan(f: ef.TracedFunction, ...args: ef.Tensor[]): { fused: string[]; absorbed: string[] } {
  const planGraph = (f.getConcreteFunction(...args) as unknown as { plan: { graph: Graph } }).plan.graph;
  const fused: string[] = [];
  const absorbed: string[] = [];
  for (const n of planGraph.nodes.filter((x) => x.prim.name === 'onnx_segment')) {
    const p = n.params as unknown as { src: { graph: Graph }; part: { nodes: Graph['nodes']; outputs: number[] } };
    const r = planFusions(p.src.graph, p.part.nodes, p.part.outputs);
    fused.push(...[...r.writers.keys()].map((x) => x.prim.name));
    absorbed.push(...[...r.absorbed].map((x) => x.prim.name).sort());
  }
  return { fused, absorbed };
}

/** Compiled (strict) and uncompiled results of `f` at `args`, checked for leaks; returns the compiled ones. */
function both(fn: (...a: ef.Tensor[]) => ef.Tensor | ef.Tensor[], args: ef.Tensor[]): { got: number[][]; plain: number[][]; jit: Fn } {
  const jit = ef.trace(fn, { jitCompile: 'strict' });
  const plainFn = ef.trace(fn);
  const list = (r: ef.Tensor | ef.Tensor[]): ef.Tensor[] => (Array.isArray(r) ? r : [r]);
  [...list(jit(...args) as ef.Tensor[]), ...list(plainFn(...args) as ef.Tensor[])].forEach((t) => t.dispose());
  const before = ef.memory().numTensors;
  const g = list(jit(...args) as ef.Tensor[]);
  const p = list(plainFn(...args) as ef.Tensor[]);
  const out = { got: g.map(arr), plain: p.map(arr), jit };
  [...g, ...p].forEach((t) => t.dispose());
  expect(ef.memory().numTensors).toBe(before);
  plainFn.dispose();
  return out;
}

describe('weight gradient of a batched x @ W: one Gemm over the stacked rows', () => {
  const cases: [string, number[], number[], boolean][] = [
    ['x [3, 5, 4] @ W [4, 6]', [3, 5, 4], [4, 6], false],
    ['x [2, 3, 5, 4] @ W [4, 6]', [2, 3, 5, 4], [4, 6], false],
    ['x [3, 5, 4] @ W^T, W [6, 4]', [3, 5, 4], [6, 4], true],
  ];
  for (const [name, xs, ws, tb] of cases) {
    test(name, () => {
      const x = ef.constant(vals(size(xs), 0.91, 0.2), 'float32', xs);
      const w = ef.constant(vals(size(ws), 1.37, 0.5), 'float32', ws);
      const n = tb ? ws[0] : ws[1];
      const ys = [...xs.slice(0, -1), n];
      const c = ef.constant(vals(size(ys), 0.53, 1.1), 'float32', ys);
      const grad = (a: ef.Tensor, b: ef.Tensor): ef.Tensor => {
        const tape = new ef.GradientTape();
        const l = tape.record(() => {
          tape.watch(b);
          return ef.reduceSum(ef.multiply(ef.matmul(a, b, false, tb), c));
        });
        return tape.gradient(l, b) as ef.Tensor;
      };
      const { got, plain, jit } = both(grad, [x, w]);
      // float64: dW[k, j] = sum over rows r of x[r, k] c[r, j] (W^T: dW[j, k]).
      const [xd, cd] = [x, c].map((t) => Array.from(t.dataSync() as Float32Array));
      const k = xs[xs.length - 1];
      const rows = size(xs) / k;
      const want = new Array<number>(size(ws)).fill(0);
      for (let r = 0; r < rows; r++) for (let i = 0; i < k; i++) for (let j = 0; j < n; j++) want[tb ? j * k + i : i * n + j] += xd[r * k + i] * cd[r * n + j];
      close(got[0], want);
      close(plain[0], want);
      expect(plan(jit, x, w)).toEqual({ fused: ['sum'], absorbed: ['matmul'] });
      jit.dispose();
      [x, w, c].forEach((t) => t.dispose());
    });
  }

  test('a batched product read by anything else, or not transposed, stays as it is', () => {
    const a = ef.constant(vals(60, 0.3, 0.1), 'float32', [3, 5, 4]);
    const b = ef.constant(vals(90, 0.7, 0.4), 'float32', [3, 5, 6]);
    const twice = (p: ef.Tensor, q: ef.Tensor): ef.Tensor[] => {
      const m = ef.matmul(p, q, true, false);
      return [ef.reduceSum(m, 0), ef.multiply(m, 2)];
    };
    const r1 = both(twice, [a, b]);
    close(r1.got[0], r1.plain[0]);
    close(r1.got[1], r1.plain[1]);
    expect(plan(r1.jit, a, b).absorbed).toEqual([]);
    r1.jit.dispose();
    const c = ef.constant(vals(120, 0.2, 0.9), 'float32', [3, 4, 10]);
    const plainProduct = (p: ef.Tensor, q: ef.Tensor): ef.Tensor => ef.reduceSum(ef.matmul(p, q), 0);
    const r2 = both(plainProduct, [a, c]);
    close(r2.got[0], r2.plain[0]);
    expect(plan(r2.jit, a, c).absorbed).toEqual([]);
    r2.jit.dispose();
    [a, b, c].forEach((t) => t.dispose());
  });
});

describe('sums over leading axes (bias gradients): ones @ x', () => {
  const cases: [string, number[], number[], boolean][] = [
    ['[128, 33] over axis 0', [128, 33], [0], false],
    ['[7, 9] over axis -2, keepDims', [7, 9], [-2], true],
    ['[4, 6, 5] over axes [0, 1]', [4, 6, 5], [0, 1], false],
    ['[4, 6, 5] over axes [1, 0], keepDims', [4, 6, 5], [1, 0], true],
  ];
  for (const [name, xs, axes, keepDims] of cases) {
    test(name, () => {
      const x = ef.constant(vals(size(xs), 0.77, 0.3), 'float32', xs);
      // A product first: a sum of an input alone would be the whole function (nothing to compile around it).
      const f = (a: ef.Tensor): ef.Tensor => ef.reduceSum(ef.multiply(a, 3), axes, keepDims);
      const { got, plain, jit } = both(f, [x]);
      const k = xs[xs.length - 1];
      const xd = Array.from(x.dataSync() as Float32Array);
      const want = new Array<number>(k).fill(0);
      xd.forEach((v, i) => (want[i % k] += 3 * v));
      close(got[0], want);
      close(plain[0], want);
      expect(plan(jit, x).fused).toEqual(['sum']);
      const shape = (jit(x) as ef.Tensor);
      expect(shape.shape.asList()).toEqual(keepDims ? [...xs.slice(0, -1).map(() => 1), k] : [k]);
      shape.dispose();
      jit.dispose();
      x.dispose();
    });
  }

  test('other sums (a middle axis, the last axis, rank 4, all axes) stay ReduceSum', () => {
    const x = ef.constant(vals(120, 0.5, 0.2), 'float32', [2, 3, 4, 5]);
    const y = ef.constant(vals(60, 0.5, 0.2), 'float32', [3, 4, 5]);
    const f = (a: ef.Tensor, b: ef.Tensor): ef.Tensor[] => [ef.reduceSum(ef.multiply(a, 2), [0, 1, 2]), ef.reduceSum(ef.multiply(b, 2), [1]), ef.reduceSum(ef.multiply(b, 3), [2]), ef.reduceSum(ef.multiply(b, 4))];
    const { got, plain, jit } = both(f, [x, y]);
    got.forEach((g, i) => close(g, plain[i]));
    expect(plan(jit, x, y).fused).toEqual([]);
    jit.dispose();
    [x, y].forEach((t) => t.dispose());
  });
});

describe('SGD steps on weights: w - c * (a @ b) as one Gemm with alpha = -c, beta = 1', () => {
  test('rank-2 products, the constant on either side', () => {
    const w = ef.constant(vals(24, 0.4, 0.3), 'float32', [4, 6]);
    const a = ef.constant(vals(20, 0.9, 0.1), 'float32', [5, 4]);
    const b = ef.constant(vals(30, 1.3, 0.7), 'float32', [5, 6]);
    const bt = ef.transpose(b);
    const f = (p: ef.Tensor, q: ef.Tensor, r: ef.Tensor, rt: ef.Tensor): ef.Tensor[] => [
      ef.subtract(p, ef.multiply(ef.matmul(q, r, true, false), 0.01)),
      ef.subtract(p, ef.multiply(0.5, ef.matmul(q, rt, true, true))),
    ];
    const { got, plain, jit } = both(f, [w, a, b, bt]);
    const [wd, ad, bd] = [w, a, b].map((t) => Array.from(t.dataSync() as Float32Array));
    const product = Array.from({ length: 24 }, (_, k) => {
      let acc = 0;
      for (let r = 0; r < 5; r++) acc += ad[r * 4 + Math.floor(k / 6)] * bd[r * 6 + (k % 6)];
      return acc;
    });
    close(got[0], wd.map((v, k) => v - 0.01 * product[k]));
    close(got[1], wd.map((v, k) => v - 0.5 * product[k]));
    got.forEach((g, i) => close(g, plain[i]));
    expect(plan(jit, w, a, b, bt)).toEqual({ fused: ['sub', 'sub'], absorbed: ['mul', 'matmul', 'mul', 'matmul'] });
    jit.dispose();
    [w, a, b, bt].forEach((t) => t.dispose());
  });

  test('a train step on variables: dense and batched weights (their updates join the segment) match the uncompiled steps', () => {
    const make = (): ef.Variable[] => [
      new ef.Variable(ef.constant(vals(64 * 10, 0.3, 0.2).map((v) => v * 0.2), 'float32', [64, 10])),
      new ef.Variable(ef.constant(vals(16 * 64, 0.7, 0.4).map((v) => v * 0.2), 'float32', [16, 64])),
      new ef.Variable(ef.zeros([64])),
    ];
    const x = ef.constant(vals(8 * 5 * 16, 0.11, 0.5), 'float32', [8, 5, 16]);
    const stepOf = (vars: ef.Variable[], jitCompile: boolean | 'strict'): Fn =>
      ef.trace((inp: ef.Tensor) => {
        const [wOut, wIn, bias] = vars;
        const tape = new ef.GradientTape();
        const loss = tape.record(() => {
          const h = ef.relu(ef.add(ef.matmul(inp, wIn), bias));
          return ef.reduceSum(ef.square(ef.matmul(ef.reduceMean(h, 1), wOut)));
        });
        const grads = tape.gradient(loss, vars) as ef.Tensor[];
        grads.forEach((g, i) => vars[i].assignSub(ef.multiply(g, 0.05)));
        return loss;
      }, { jitCompile });
    const [va, vb] = [make(), make()];
    const jit = stepOf(va, 'strict');
    const plainStep = stepOf(vb, false);
    for (let i = 0; i < 3; i++) {
      const [l1, l2] = [jit(x) as ef.Tensor, plainStep(x) as ef.Tensor];
      close(arr(l1), arr(l2));
      [l1, l2].forEach((t) => t.dispose());
    }
    va.forEach((v, i) => close(arr(v.value()), arr(vb[i].value())));
    // The bias update leaves the segment as Gemm's [1, 64], adopted in the variable's shape.
    expect(va[2].value().shape.asList()).toEqual([64]);
    // wOut: a rank-2 product; wIn: a batched one summed over its batch (and reshaped); the bias: Gemm(ones, dy, bias).
    const { fused, absorbed } = segmentPlan(jit, x);
    expect(fused.filter((n) => n === 'sub')).toHaveLength(3);
    expect(absorbed.filter((n) => n === 'matmul')).toHaveLength(2);
    expect(absorbed.filter((n) => n === 'sum')).toHaveLength(2);
    jit.dispose();
    plainStep.dispose();
    [...va, ...vb, x].forEach((t) => t.dispose());
  });
});

describe('SGD steps on biases: b - c * sum(x over leading axes) as Gemm(ones, x, b, alpha = -c) reshaped', () => {
  const cases: [string, number[], number[]][] = [
    ['x [128, 10] over axis 0', [128, 10], [0]],
    ['x [4, 6, 5] over axes [0, 1]', [4, 6, 5], [0, 1]],
  ];
  for (const [name, xs, axes] of cases) {
    test(name, () => {
      const k = xs[xs.length - 1];
      const b = ef.constant(vals(k, 0.4, 0.3), 'float32', [k]);
      const x = ef.constant(vals(size(xs), 0.77, 0.3), 'float32', xs);
      // The gradient form: a sum, a reshape to the bias shape, a product with the rate (either side), the difference.
      const f = (p: ef.Tensor, q: ef.Tensor): ef.Tensor[] => {
        return [ef.subtract(p, ef.multiply(ef.reshape(ef.reduceSum(ef.multiply(q, 3), axes), [k]), 0.01)), ef.subtract(p, ef.multiply(0.5, ef.reduceSum(ef.multiply(q, 4), axes)))];
      };
      const { got, plain, jit } = both(f, [b, x]);
      const [bd, xd] = [b, x].map((t) => Array.from(t.dataSync() as Float32Array));
      const sum = new Array<number>(k).fill(0);
      xd.forEach((v, i) => (sum[i % k] += v));
      const steps = [0.01 * 3, 0.5 * 4];
      steps.forEach((c, i) => close(got[i], bd.map((v, j) => v - c * sum[j])));
      // Against the uncompiled trace: the same sums in another order, rounded once (alpha·product + b) where the
      // records round the product and the difference apart: a few float32 ulps of |b| + |c·sum|.
      steps.forEach((c, i) => got[i].forEach((v, j) => expect(Math.abs(v - plain[i][j])).toBeLessThanOrEqual(8 * 2 ** -23 * (Math.abs(bd[j]) + Math.abs(c * sum[j])))));
      const p = plan(jit, b, x);
      expect(p.fused).toEqual(['sub', 'sub']);
      expect(p.absorbed.filter((n) => n === 'sum')).toHaveLength(2);
      jit.dispose();
      [b, x].forEach((t) => t.dispose());
    });
  }

  test('the updated bias returned (Gemm [1, K] adopted as [K]) or read further in the part (Reshape kept): shapes and values', () => {
    const b = ef.constant(vals(6, 0.4, 0.3), 'float32', [6]);
    const x = ef.constant(vals(48, 0.77, 0.3), 'float32', [8, 6]);
    const f = (p: ef.Tensor, q: ef.Tensor): ef.Tensor[] => {
      const nb = ef.subtract(p, ef.multiply(ef.reduceSum(ef.multiply(q, 3), 0), 0.01));
      const read = ef.subtract(p, ef.multiply(ef.reduceSum(ef.multiply(q, 4), 0), 0.02));
      return [nb, ef.add(read, 1)];
    };
    const { got, plain, jit } = both(f, [b, x]);
    got.forEach((g, i) => close(g, plain[i]));
    const outs = jit(b, x) as ef.Tensor[];
    expect(outs.map((t) => t.shape.asList())).toEqual([[6], [6]]);
    outs.forEach((t) => t.dispose());
    expect(plan(jit, b, x).fused).toEqual(['sub', 'sub']);
    jit.dispose();
    [b, x].forEach((t) => t.dispose());
  });

  test('adoption reshapes only the leading 1 a bias Gemm adds: another shape of the same size stays visible', () => {
    expect(staticOr([6], [1, 6])).toEqual([6]);
    expect(staticOr([], [1])).toEqual([]);
    expect(staticOr([2, 3], [2, 3])).toEqual([2, 3]);
    // Same element count, another layout: a wrong lowering, shown as it is (never silently reshaped).
    expect(staticOr([2, 3], [3, 2])).toEqual([3, 2]);
    expect(staticOr([6], [6, 1])).toEqual([6, 1]);
    expect(staticOr([6], [2, 3])).toEqual([2, 3]);
    expect(staticOr([2, null], [1, 2, 5])).toEqual([1, 2, 5]);
    expect(staticOr(null, [4])).toEqual([4]);
  });

  test('a sum read elsewhere, a sum over a middle axis, a rate that is not a constant: no bias Gemm', () => {
    const b = ef.constant(vals(4, 0.4, 0.3), 'float32', [4]);
    const x = ef.constant(vals(48, 0.77, 0.3), 'float32', [3, 4, 4]);
    const r = ef.constant(vals(4, 0.2, 0.1), 'float32', [4]);
    const f = (p: ef.Tensor, q: ef.Tensor, rate: ef.Tensor): ef.Tensor[] => {
      const dy = ef.multiply(q, 3);
      const s = ef.reduceSum(dy, [0, 1]);
      return [ef.subtract(p, ef.multiply(s, 0.01)), s, ef.subtract(p, ef.multiply(ef.reduceSum(ef.multiply(q, 2), [0, 2]), 0.01)), ef.subtract(p, ef.multiply(ef.reduceSum(ef.multiply(q, 5), [0, 1]), rate))];
    };
    const { got, plain, jit } = both(f, [b, x, r]);
    got.forEach((g, i) => close(g, plain[i]));
    expect(plan(jit, b, x, r).fused.filter((n) => n === 'sub')).toEqual([]);
    jit.dispose();
    [b, x, r].forEach((t) => t.dispose());
  });
});
