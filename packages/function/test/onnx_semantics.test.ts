// jitCompile semantics: variables (reads in, assignments written back), host callbacks between compiled
// segments (per call, in order), strict mode, and no leaks over many compiled calls.
import * as ef from 'eagerflow';
import { everySegmentInOnnxRuntime } from './onnx_hooks';
import { thrown } from '../../../test/harness/thrown';

everySegmentInOnnxRuntime();

const arr = (t: unknown): number[] => Array.from((t instanceof ef.Variable ? t.value() : (t as ef.Tensor)).dataSync() as ArrayLike<number>);

describe('variables under jitCompile', () => {
  // v += x * w; u = u * 0.5 + sum(v); returns relu(v) - u: reads, two assignments and a read after an assignment.
  const step = (v: ef.Variable, u: ef.Variable, w: ef.Tensor) => (x: ef.Tensor) => {
    v.assignAdd(ef.multiply(x, w));
    u.assign(ef.add(ef.multiply(u, 0.5), ef.reduceSum(v)));
    return ef.subtract(ef.relu(v), u);
  };

  test('compiled calls equal uncompiled ones, call after call, and leave the same variable state', () => {
    const w = ef.constant([0.5, -1, 2]);
    const [v1, v2] = [new ef.Variable(ef.constant([1, 2, -3])), new ef.Variable(ef.constant([1, 2, -3]))];
    const [u1, u2] = [new ef.Variable(ef.constant(0.25)), new ef.Variable(ef.constant(0.25))];
    const plain = ef.trace(step(v1, u1, w));
    const jit = ef.trace(step(v2, u2, w), { jitCompile: true });
    const xs = [ef.constant([1, 1, 1]), ef.constant([-2, 0.5, 3]), ef.constant([0.1, 0.2, 0.3])];
    for (const x of xs) {
      const a = plain(x) as ef.Tensor;
      const b = jit(x) as ef.Tensor;
      expect(arr(b)).toEqual(arr(a).map((q) => expect.closeTo(q, 5)));
      expect(arr(v2)).toEqual(arr(v1).map((q) => expect.closeTo(q, 5)));
      expect(arr(u2)[0]).toBeCloseTo(arr(u1)[0], 5);
      a.dispose();
      b.dispose();
    }
    // Hand-computed first step: v = [1.5, 1, 3], u = 0.125 + 5.5, out = relu(v) - u.
    expect(arr(v1)).not.toEqual([1, 2, -3]);
    const ir = jit.getConcreteFunction(xs[0]).experimentalGetCompilerIr();
    expect(ir).toMatch(/onnx_segment/);
    expect(ir).toMatch(/assign_variable/);
    plain.dispose();
    jit.dispose();
    [w, v1, v2, u1, u2, ...xs].forEach((t) => t.dispose());
  });

  test('the first compiled step matches hand-computed values', () => {
    const w = ef.constant([0.5, -1, 2]);
    const v = new ef.Variable(ef.constant([1, 2, -3]));
    const u = new ef.Variable(ef.constant(0.25));
    const jit = ef.trace(step(v, u, w), { jitCompile: true });
    const x = ef.constant([1, 1, 1]);
    const out = jit(x) as ef.Tensor;
    // v = [1.5, 1, -1]; u = 0.125 + 1.5 = 1.625; out = [1.5, 1, 0] - 1.625
    expect(arr(v)).toEqual([1.5, 1, -1]);
    expect(arr(u)[0]).toBeCloseTo(1.625, 6);
    expect(arr(out)).toEqual([1.5 - 1.625, 1 - 1.625, -1.625].map((q) => expect.closeTo(q, 6)));
    [out, x, w, v, u].forEach((t) => t.dispose());
    jit.dispose();
  });
});

describe('host callbacks between compiled segments', () => {
  test('each call runs every callback once, in program order, on the segment values', () => {
    const log: string[] = [];
    const f = ef.trace(
      (x: ef.Tensor) => {
        const a = ef.exp(ef.multiply(x, 0.5));
        const b = ef.pyFunction((t: ef.Tensor) => {
          log.push(`first ${arr(t).map((q) => q.toFixed(3)).join(',')}`);
          return ef.add(t, 1);
        }, [a], 'float32') as ef.Tensor;
        const c = ef.square(ef.add(b, x));
        const d = ef.pyFunction((t: ef.Tensor) => {
          log.push(`second ${arr(t).map((q) => q.toFixed(3)).join(',')}`);
          return ef.negative(t);
        }, [c], 'float32') as ef.Tensor;
        return ef.sqrt(ef.abs(d));
      },
      { jitCompile: true },
    );
    for (const v of [0, 2]) {
      const x = ef.constant([v, -v]);
      const y = f(x) as ef.Tensor;
      const a = [Math.exp(v / 2), Math.exp(-v / 2)];
      const c = [(a[0] + 1 + v) ** 2, (a[1] + 1 - v) ** 2];
      expect(log.splice(0)).toEqual([`first ${a.map((q) => q.toFixed(3)).join(',')}`, `second ${c.map((q) => q.toFixed(3)).join(',')}`]);
      expect(arr(y)).toEqual(c.map((q) => expect.closeTo(Math.sqrt(q), 4)));
      y.dispose();
      x.dispose();
    }
    const ir = f.getConcreteFunction(new ef.TensorSpec([2])).experimentalGetCompilerIr();
    expect(ir.match(/onnx_segment/g)?.length).toBe(3);
    f.dispose();
  });

  test("jitCompile: 'strict' refuses a host callback with an UnimplementedError naming the op", () => {
    const before = ef.memory().numTensors;
    const f = ef.trace((x: ef.Tensor) => ef.exp(ef.pyFunction((t: ef.Tensor) => t, [x], 'float32') as ef.Tensor), { jitCompile: 'strict' });
    const x = ef.constant([1, 2]);
    const err = thrown(() => f(x));
    expect(err).toBeInstanceOf(ef.errors.UnimplementedError);
    expect(String((err as Error).message)).toMatch(/host_callback/);
    expect(String((err as Error).message)).toMatch(/jitCompile: true/);
    x.dispose();
    f.dispose();
    expect(ef.memory().numTensors).toBe(before);
  });
});

test('1,000 compiled calls leak no tensors (segments, a callback and a variable update)', () => {
  const v = new ef.Variable(ef.zeros([8]));
  const f = ef.trace(
    (x: ef.Tensor) => {
      v.assignAdd(ef.multiply(x, 1e-3));
      const h = ef.pyFunction((t: ef.Tensor) => ef.tanh(t), [ef.add(v, x)], 'float32') as ef.Tensor;
      return ef.reduceSum(ef.matmul(ef.reshape(h, [2, 4]), ef.ones([4, 3])));
    },
    { jitCompile: true },
  );
  const x = ef.linspace(-1, 1, 8);
  (f(x) as ef.Tensor).dispose();
  expect(f.getConcreteFunction(x).experimentalGetCompilerIr()).toMatch(/onnx_segment\[.*matmul.*\]/);
  const before = ef.memory().numTensors;
  for (let i = 0; i < 1000; i++) (f(x) as ef.Tensor).dispose();
  expect(ef.memory().numTensors).toBe(before);
  expect(arr(v)[7]).toBeCloseTo(1001 * 1e-3, 4);
  f.dispose();
  x.dispose();
  v.dispose();
});

describe('control flow under jitCompile (cond and whileLoop inside compiled segments, as ONNX If and Loop)', () => {
  // Newton iterations for sqrt(a) in a whileLoop, then a cond on the result; matmuls around them compile.
  const fn = (a: ef.Tensor, m: ef.Tensor): ef.Tensor => {
    const s = ef.reduceSum(ef.matmul(m, m));
    const [, r] = ef.whileLoop(
      (i: ef.Tensor) => ef.less(i, 6),
      (i: ef.Tensor, x: ef.Tensor) => [ef.add(i, 1), ef.multiply(0.5, ef.add(x, ef.divide(ef.add(a, s), x)))],
      [ef.constant(0), ef.onesLike(a)],
    ) as ef.Tensor[];
    return ef.cond(ef.greater(ef.reduceMax(r), 3), () => ef.multiply(r, 2), () => ef.negative(r)) as ef.Tensor;
  };

  test('results equal the uncompiled function and float64 values, on both cond branches; gradients too', () => {
    const plain = ef.trace(fn);
    const jit = ef.trace(fn, { jitCompile: true });
    const m = ef.constant([[0.5, 0], [0, 0.5]]);
    for (const [vals, branch] of [[[4, 9], 2], [[1, 2], -1]] as const) {
      const a = ef.constant(vals.slice());
      const want = vals.map((v) => {
        let x = 1;
        for (let i = 0; i < 6; i++) x = 0.5 * (x + (v + 0.5) / x);
        return x;
      });
      const scale = Math.max(...want) > 3 ? 2 : -1;
      expect(scale).toBe(branch);
      const y = jit(a, m) as ef.Tensor;
      const z = plain(a, m) as ef.Tensor;
      expect(arr(y)).toEqual(want.map((v) => expect.closeTo(v * scale, 4)));
      expect(arr(y)).toEqual(arr(z).map((v) => expect.closeTo(v, 5)));
      const grad = (f: typeof jit): number[] => {
        const tape = new ef.GradientTape();
        const out = tape.record(() => {
          tape.watch(a);
          return ef.reduceSum(f(a, m) as ef.Tensor);
        });
        const g = tape.gradient(out, a) as ef.Tensor;
        const r = arr(g);
        [out, g].forEach((t) => t.dispose());
        return r;
      };
      expect(grad(jit)).toEqual(grad(plain).map((v) => expect.closeTo(v, 4)));
      [a, y, z].forEach((t) => t.dispose());
    }
    const ir = jit.getConcreteFunction(m, m).experimentalGetCompilerIr();
    expect(ir).toMatch(/onnx_segment\[matmul/);
    expect(ir).toMatch(/onnx_segment\[matmul[^\]]*while[^\]]*cond/);
    m.dispose();
    plain.dispose();
    jit.dispose();
  });
});

test('atan2 (an ONNX composition) matches Math.atan2 on every pair of special values: signed zeros, infinities, NaN', () => {
  const vals = [0, -0, 1, -1, 2.5, -3, Infinity, -Infinity, NaN, 1e-30, -1e30];
  const ys: number[] = [];
  const xs: number[] = [];
  for (const a of vals) for (const b of vals) { ys.push(a); xs.push(b); }
  const y = ef.constant(ys);
  const x = ef.constant(xs);
  const f = ef.trace((p: ef.Tensor, q: ef.Tensor) => ef.atan2(p, q), { jitCompile: 'strict' });
  const got = Array.from((f(y, x) as ef.Tensor).dataSync() as ArrayLike<number>);
  const want = ys.map((v, i) => Math.fround(Math.atan2(v, xs[i])));
  const bad = got.map((g, i) => [ys[i], xs[i], g, want[i]]).filter(([, , g, w]) => !(Object.is(g, w) || Math.abs((g as number) - (w as number)) <= 1e-6 * Math.abs(w as number)));
  expect(bad).toEqual([]);
  expect(f.getConcreteFunction(y, x).experimentalGetCompilerIr()).toMatch(/onnx_segment\[atan2\]/);
  f.dispose();
  [y, x].forEach((t) => t.dispose());
});
