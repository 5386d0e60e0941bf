// cond and whileLoop under jitCompile lower to ONNX If and Loop (branches and bodies as subgraphs): compiled
// results equal uncompiled ones and float64 values (nested, data-dependent trip counts, maximumIterations);
// a body with an op without a lowering keeps the whole loop a JS step (strict mode names the op); exported
// models with If/Loop run in onnxruntime-node; gradients through compiled cond/while equal uncompiled ones.
import * as ef from 'eagerflow';
import { runOnnxModels } from './onnx_child';
import { thrown } from '../../../test/harness/thrown';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const arr = (t: ef.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>);
const T = (x: unknown): ef.Tensor => x as ef.Tensor;
const irOf = (f: ef.TracedFunction, ...args: ef.Tensor[]): string => f.getConcreteFunction(...args).experimentalGetCompilerIr();

/** Doubles x until its sum passes `limit` (a data-dependent trip count), then a cond on the count. */
function doubling(x: ef.Tensor, limit: ef.Tensor): ef.Tensor[] {
  const [n, y] = ef.whileLoop(
    (_i: ef.Tensor, v: ef.Tensor) => ef.lessEqual(ef.reduceSum(v), limit),
    (i: ef.Tensor, v: ef.Tensor) => [ef.add(i, 1), ef.multiply(v, 2)],
    [ef.constant(0, 'int32'), x],
  );
  const z = ef.cond(ef.greater(n, 3), () => ef.subtract(y, limit), () => ef.add(y, ef.multiply(limit, 10))) as ef.Tensor;
  return [n, z];
}
function doublingRef(x: number[], limit: number): [number, number[]] {
  let v = x.slice();
  let n = 0;
  while (v.reduce((a, b) => a + b, 0) <= limit) {
    v = v.map((e) => e * 2);
    n++;
  }
  return [n, v.map((e) => (n > 3 ? e - limit : e + limit * 10))];
}

/** Nested control flow: a cond inside a while body, a while inside a cond branch, a while inside a while body. */
function nested(x: ef.Tensor, k: ef.Tensor): ef.Tensor {
  const [, acc] = ef.whileLoop(
    (i: ef.Tensor) => ef.less(i, k),
    (i: ef.Tensor, a: ef.Tensor) => {
      const odd = ef.equal(ef.math.floormod(i, 2), 1);
      const step = ef.cond(odd, () => ef.multiply(a, x), () => {
        // Inner loop: add x until the running value passes 5 (its trip count depends on a).
        const [b] = ef.whileLoop((v: ef.Tensor) => ef.less(ef.reduceMax(v), 5), (v: ef.Tensor) => [ef.add(v, x)], [a]);
        return ef.subtract(b, 1);
      }) as ef.Tensor;
      return [ef.add(i, 1), step];
    },
    [ef.constant(0), ef.onesLike(x)],
  );
  return ef.cond(ef.greater(ef.reduceSum(acc), 0), () => {
    const [r] = ef.whileLoop((v: ef.Tensor) => ef.greater(ef.reduceMax(v), 100), (v: ef.Tensor) => [ef.multiply(v, 0.5)], [acc]);
    return r;
  }, () => ef.negative(acc)) as ef.Tensor;
}
function nestedRef(x: number[], k: number): number[] {
  let a = x.map(() => 1);
  for (let i = 0; i < k; i++) {
    if (i % 2 === 1) a = a.map((v, j) => v * x[j]);
    else {
      let b = a;
      while (Math.max(...b) < 5) b = b.map((v, j) => v + x[j]);
      a = b.map((v) => v - 1);
    }
  }
  if (a.reduce((p, q) => p + q, 0) <= 0) return a.map((v) => -v);
  while (Math.max(...a) > 100) a = a.map((v) => v * 0.5);
  return a;
}

describe('cond and whileLoop compile to ONNX If and Loop', () => {
  test('data-dependent trip counts and both cond branches: strict compiled == uncompiled == float64, one segment, no leaks', () => {
    const jit = ef.trace(doubling, { jitCompile: 'strict' });
    const plain = ef.trace(doubling);
    const x = ef.constant([0.5, 1.25, -0.25]);
    for (const lim of [1, 3, 40, 1000]) {
      const limit = ef.constant(lim);
      const [n, z] = jit(x, limit) as ef.Tensor[];
      const [pn, pz] = plain(x, limit) as ef.Tensor[];
      const [wn, wz] = doublingRef([0.5, 1.25, -0.25], lim);
      expect(n.dtype).toBe('int32');
      expect(arr(n)).toEqual([wn]);
      expect(arr(z)).toEqual(wz.map((v) => expect.closeTo(v, 4)));
      expect(arr(z)).toEqual(arr(pz));
      expect(arr(n)).toEqual(arr(pn));
      [n, z, pn, pz, limit].forEach((t) => t.dispose());
    }
    // Everything, the loop and the cond included, is one ONNX Runtime session.
    const limit = ef.constant(10);
    const ir = irOf(jit, x, limit);
    expect(ir).toMatch(/onnx_segment\[[^\]]*while[^\]]*cond[^\]]*\]/);
    expect(ir.split('\n').filter((l) => / = /.test(l))).toHaveLength(1);
    const before = ef.memory().numTensors;
    for (let i = 0; i < 20; i++) (jit(x, limit) as ef.Tensor[]).forEach((t) => t.dispose());
    expect(ef.memory().numTensors).toBe(before);
    [x, limit].forEach((t) => t.dispose());
    [jit, plain].forEach((f) => f.dispose());
  });

  test('nested: cond in a loop body, a loop in a cond branch, loops in loops', () => {
    const jit = ef.trace(nested, { jitCompile: 'strict' });
    const plain = ef.trace(nested);
    for (const [xs, k] of [[[1.5, 0.5], 5], [[3, -2], 4], [[0.75, 2], 0], [[2, 1], 7]] as [number[], number][]) {
      const x = ef.constant(xs);
      const kk = ef.constant(k);
      const got = T(jit(x, kk));
      const want = T(plain(x, kk));
      expect(arr(got)).toEqual(nestedRef(xs, k).map((v) => expect.closeTo(v, 3)));
      expect(arr(got)).toEqual(arr(want).map((v) => expect.closeTo(v, 5)));
      [x, kk, got, want].forEach((t) => t.dispose());
    }
    [jit, plain].forEach((f) => f.dispose());
  });

  test('maximumIterations becomes the Loop trip count; a loop whose condition is false at once runs zero times', () => {
    const fn = (x: ef.Tensor, stop: ef.Tensor): ef.Tensor[] => ef.whileLoop((i: ef.Tensor) => ef.less(i, stop), (i: ef.Tensor, v: ef.Tensor) => [ef.add(i, 1), ef.add(v, x)], [ef.constant(0), ef.zerosLike(x)], { maximumIterations: 4 });
    const jit = ef.trace(fn, { jitCompile: 'strict' });
    const x = ef.constant([1, 2]);
    for (const [stop, n] of [[2, 2], [10, 4], [-1, 0]]) {
      const s = ef.constant(stop);
      const [i, v] = jit(x, s) as ef.Tensor[];
      expect(arr(i)).toEqual([n]);
      expect(arr(v)).toEqual([n, 2 * n]);
      [s, i, v].forEach((t) => t.dispose());
    }
    const s = ef.constant(1);
    expect(irOf(jit, x, s)).toMatch(/onnx_segment\[[^\]]*while/);
    [x, s].forEach((t) => t.dispose());
    jit.dispose();
  });

  test('loop variables whose shape grows, and cond branches of different shapes, compile', () => {
    const grow = ef.trace((x: ef.Tensor, n: ef.Tensor) => ef.whileLoop((v: ef.Tensor) => ef.less(ef.cast(ef.size(v), 'float32'), n), (v: ef.Tensor) => [ef.concat([v, ef.multiply(v, 2)], 0)], [x])[0], { jitCompile: 'strict' });
    const pick = ef.trace((x: ef.Tensor, p: ef.Tensor) => ef.cond(p, () => ef.concat([x, ef.negative(x)], 0), () => x), { jitCompile: 'strict' });
    const x = ef.constant([1, 2]);
    const n = ef.constant(7);
    const [t, f] = [ef.constant(true), ef.constant(false)];
    const outs = [T(grow(x, n)), T(pick(x, t)), T(pick(x, f))];
    expect(outs.map(arr)).toEqual([[1, 2, 2, 4, 2, 4, 4, 8], [1, 2, -1, -2], [1, 2]]);
    expect(irOf(grow, x, n)).toMatch(/f32\[\?\] = onnx_segment\[while\]/);
    [x, n, t, f, ...outs].forEach((q) => q.dispose());
    [grow, pick].forEach((q) => q.dispose());
  });

  test('a loop body reading a Variable stays a JS step and reads its current value each call', () => {
    const v = new ef.Variable(ef.constant([1, 1]));
    const fn = (x: ef.Tensor): ef.Tensor => ef.whileLoop((i: ef.Tensor) => ef.less(i, 3), (i: ef.Tensor, a: ef.Tensor) => [ef.add(i, 1), ef.add(a, v as unknown as ef.Tensor)], [ef.constant(0), x])[1];
    const jit = ef.trace(fn, { jitCompile: true });
    const x = ef.constant([1, 2]);
    const first = T(jit(x));
    v.assign(ef.constant([10, 10]));
    const second = T(jit(x));
    expect([arr(first), arr(second)]).toEqual([[4, 5], [31, 32]]);
    expect(irOf(jit, x)).toMatch(/^\s*\w+: f32\[\], \w+: f32\[2\] = while\[/m);
    const strict = ef.trace(fn, { jitCompile: 'strict' });
    expect(() => strict(x)).toThrow(/op 'read_variable' \(inside 'while'/);
    [x, first, second, v].forEach((q) => q.dispose());
    [jit, strict].forEach((q) => q.dispose());
  });

  test('a body with an op without a lowering keeps the whole loop a JS step (equal results); strict mode names that op', () => {
    // reverse has no ONNX lowering: the while node runs in JS between compiled segments.
    const fn = (x: ef.Tensor): ef.Tensor => {
      const h = ef.exp(ef.multiply(x, 0.5));
      const [, r] = ef.whileLoop((i: ef.Tensor) => ef.less(i, 3), (i: ef.Tensor, v: ef.Tensor) => [ef.add(i, 1), ef.add(ef.reverse(v, [0]), h)], [ef.constant(0), h]);
      return ef.tanh(r);
    };
    const jit = ef.trace(fn, { jitCompile: true });
    const plain = ef.trace(fn);
    const x = ef.constant([0.1, -0.4, 0.7]);
    const [got, want] = [T(jit(x)), T(plain(x))];
    expect(arr(got)).toEqual(arr(want).map((v) => expect.closeTo(v, 6)));
    const ir = irOf(jit, x);
    expect(ir).toMatch(/^\s*\w+: f32\[\], \w+: f32\[3\] = while\[/m);
    expect(ir).not.toMatch(/onnx_segment\[[^\]]*while/);
    const strict = ef.trace(fn, { jitCompile: 'strict' });
    const before = ef.memory().numTensors;
    const err = thrown(() => strict(x));
    expect(err).toBeInstanceOf(ef.errors.UnimplementedError);
    expect((err as Error).message).toMatch(/op 'reverse' \(inside 'while', which becomes ONNX Loop only when every op of its bodies lowers\) has no ONNX lowering/);
    expect(ef.memory().numTensors).toBe(before);
    [x, got, want].forEach((t) => t.dispose());
    [jit, plain, strict].forEach((f) => f.dispose());
  });

  test('a cond branch with an op without a lowering: strict mode names it (inside cond)', () => {
    const fn = (x: ef.Tensor): ef.Tensor => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.math.cumprod(x), () => ef.negative(x)) as ef.Tensor;
    const strict = ef.trace(fn, { jitCompile: 'strict' });
    const x = ef.constant([1, 2]);
    expect(() => strict(x)).toThrow(/op 'cumprod' \(inside 'cond', which becomes ONNX If/);
    const jit = ef.trace(fn, { jitCompile: true });
    const got = T(jit(x));
    expect(arr(got)).toEqual([1, 2]);
    [x, got].forEach((t) => t.dispose());
    [jit, strict].forEach((f) => f.dispose());
  });
});

test('exported models with If and Loop run in onnxruntime-node with equal results', () => {
  const cases: [(...a: ef.Tensor[]) => unknown, number[][], number[][]][] = [
    [doubling, [[0.5, 1.25, -0.25], [40]], [[], []]],
    [nested, [[1.5, 0.5], [5]], [[2], []]],
  ];
  const jobs = cases.map(([fn, vals]) => {
    const args = vals.map((v, k) => (k === 1 ? ef.constant(v[0]) : ef.constant(v)));
    const f = ef.trace(fn);
    const out = f(...args);
    const outs = (Array.isArray(out) ? out : [out]) as ef.Tensor[];
    const eager = outs.map(arr);
    const model = Buffer.from(ef.toOnnx(f)).toString('base64');
    const feeds = Object.fromEntries(args.map((a, k) => [`in${k}`, { type: a.dtype, dims: a.shape.asList() as number[], data: arr(a) }]));
    [...outs, ...args].forEach((t) => t.dispose());
    f.dispose();
    return { model, feeds, eager };
  });
  const results = runOnnxModels(jobs);
  results.forEach((r, k) => {
    expect(r.error).toBeUndefined();
    jobs[k].eager.forEach((want, j) => expect(r.outputs?.[`out${j}`].data).toEqual(want.map((v) => expect.closeTo(v, 4))));
  });
});

test("a Loop's condition, lowered before the loop and again in its body, writes each captured constant once", () => {
  // 1,000 distinct weights the condition captures: their bytes appear once in the model, not once per lowering.
  const w = ef.constant(Float32Array.from({ length: 1000 }, (_, i) => 1 + i / 997));
  const f = ef.trace((x: ef.Tensor) =>
    ef.whileLoop(
      (v: ef.Tensor) => ef.less(ef.reduceSum(ef.multiply(v, w)), 5e5),
      (v: ef.Tensor) => [ef.multiply(v, 2)],
      [x],
    )[0] as ef.Tensor,
  );
  const x = ef.ones([1000]);
  f(x).dispose();
  const model = Buffer.from(ef.toOnnx(f));
  const bytes = Buffer.from((w.dataSync() as Float32Array).buffer);
  let count = 0;
  for (let at = model.indexOf(bytes); at >= 0; at = model.indexOf(bytes, at + 1)) count++;
  expect(count).toBe(1);
  [w, x].forEach((t) => t.dispose());
  f.dispose();
});

describe('gradients through compiled cond and whileLoop', () => {
  // Newton steps for sqrt(a + s) in a loop whose trip count depends on a, then a cond: d/da of the result.
  const fn = (a: ef.Tensor, w: ef.Tensor): ef.Tensor => {
    const s = ef.reduceSum(ef.multiply(w, w));
    const [, r] = ef.whileLoop(
      (i: ef.Tensor, x: ef.Tensor) => ef.logicalAnd(ef.less(i, 8), ef.greater(ef.reduceMax(ef.abs(ef.subtract(ef.multiply(x, x), ef.add(a, s)))), 1e-3)),
      (i: ef.Tensor, x: ef.Tensor) => [ef.add(i, 1), ef.multiply(0.5, ef.add(x, ef.divide(ef.add(a, s), x)))],
      [ef.constant(0), ef.onesLike(a)],
    );
    return ef.reduceSum(ef.cond(ef.greater(ef.reduceMax(r), 2), () => ef.multiply(r, w), () => ef.square(r)) as ef.Tensor);
  };

  test('a tape over the compiled call (one node, compiled backward) equals the uncompiled gradients on both branches', () => {
    const jit = ef.trace(fn, { jitCompile: true });
    const plain = ef.trace(fn);
    const w = ef.constant([0.5, -1]);
    for (const vals of [[4, 9], [0.5, 1]]) {
      const a = ef.constant(vals);
      const grad = (f: typeof jit): number[][] => {
        const tape = new ef.GradientTape();
        const y = tape.record(() => {
          tape.watch([a, w]);
          return T(f(a, w));
        });
        const names = (tape as unknown as { entries: { name: string }[] }).entries.map((e) => e.name);
        if (f === jit) expect(names).toEqual(['jit_compiled_call']);
        const gs = tape.gradient(y, [a, w]) as ef.Tensor[];
        const out = [arr(y), ...gs.map(arr)];
        [y, ...gs].forEach((t) => t.dispose());
        return out;
      };
      const want = grad(plain);
      const got = grad(jit);
      got.forEach((g, k) => expect(g).toEqual(want[k].map((v) => expect.closeTo(v, 3))));
      a.dispose();
    }
    w.dispose();
    [jit, plain].forEach((f) => f.dispose());
  });

  test('a tape inside a strict compiled function: the backward loops and conds lower too (one segment)', () => {
    const grads = (a: ef.Tensor, w: ef.Tensor): ef.Tensor[] => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch([a, w]);
        return fn(a, w);
      });
      return tape.gradient(y, [a, w]) as ef.Tensor[];
    };
    const jit = ef.trace(grads, { jitCompile: 'strict' });
    const plain = ef.trace(grads);
    const a = ef.constant([4, 9]);
    const w = ef.constant([0.5, -1]);
    const got = jit(a, w) as ef.Tensor[];
    const want = plain(a, w) as ef.Tensor[];
    got.forEach((g, k) => expect(arr(g)).toEqual(arr(want[k]).map((v) => expect.closeTo(v, 3))));
    expect(irOf(jit, a, w).split('\n').filter((l) => / = /.test(l))).toHaveLength(1);
    [a, w, ...got, ...want].forEach((t) => t.dispose());
    [jit, plain].forEach((f) => f.dispose());
  });
});
