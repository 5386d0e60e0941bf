// ef.random.gamma / poisson: TF's PRNG streams differ, so these check the distributions (moments, support), TF's seed
// rules (reproducible under setSeed, two calls differ, traced calls draw anew) and the result shapes and dtypes.
import * as ef from 'eagerflow';

const N = 20000;
/** Draws for the gradient moments (each needs an incomplete-gamma derivative). */
const M = 6000;
function moments(values: ArrayLike<number>, stride: number, j: number): [number, number] {
  let s = 0, s2 = 0, n = 0;
  for (let i = j; i < values.length; i += stride) {
    s += values[i];
    s2 += values[i] * values[i];
    n++;
  }
  const mean = s / n;
  return [mean, s2 / n - mean * mean];
}

afterEach(() => ef.random.setSeed(null));

test('gamma(alpha, beta): shape [...shape, ...alpha], positive draws with mean alpha/beta and variance alpha/beta^2', () => {
  const alpha = [0.3, 1, 3.5];
  const beta = 2;
  const before = ef.memory().numTensors;
  const g = ef.random.gamma([N], alpha, { beta, seed: 11 });
  expect(g.dims).toEqual([N, 3]);
  expect(g.dtype).toBe('float32');
  const v = g.dataSync() as Float32Array;
  expect(Array.from(v).every((x) => x >= 0 && Number.isFinite(x))).toBe(true);
  alpha.forEach((a, j) => {
    const [mean, variance] = moments(v, 3, j);
    const sd = Math.sqrt(a) / beta;
    expect(Math.abs(mean - a / beta)).toBeLessThan((5 * sd) / Math.sqrt(N));
    expect(Math.abs(variance / (a / beta ** 2) - 1)).toBeLessThan(0.1);
  });
  g.dispose();
  expect(ef.memory().numTensors).toBe(before);
});

test('gamma broadcasts alpha [2, 1] with beta [3] to [n, 2, 3]', () => {
  const g = ef.random.gamma([4], [[1], [2]], { beta: [1, 2, 4], seed: 1 });
  expect(g.dims).toEqual([4, 2, 3]);
  g.dispose();
});

test('poisson(lam): integer-valued draws with mean and variance lam (Knuth below 10, PTRS above), float32 or int32', () => {
  const lam = [0, 0.7, 4, 25, 300];
  const p = ef.random.poisson([N], lam, { seed: 5 });
  expect(p.dims).toEqual([N, 5]);
  const v = p.dataSync() as Float32Array;
  expect(Array.from(v).every((x) => x >= 0 && Number.isInteger(x))).toBe(true);
  lam.forEach((l, j) => {
    const [mean, variance] = moments(v, 5, j);
    if (l === 0) return expect([mean, variance]).toEqual([0, 0]);
    expect(Math.abs(mean - l)).toBeLessThan((5 * Math.sqrt(l)) / Math.sqrt(N));
    expect(Math.abs(variance / l - 1)).toBeLessThan(0.1);
  });
  p.dispose();
  const i = ef.random.poisson([3], 2, { dtype: 'int32', seed: 1 });
  expect(i.dtype).toBe('int32');
  i.dispose();
});

test("TF's seed rules: reproducible after setSeed, two calls of one op differ, traced calls draw anew", () => {
  const run = (): number[][] => {
    ef.random.setSeed(7);
    return [ef.random.gamma([5], 2, { seed: 1 }), ef.random.gamma([5], 2, { seed: 1 }), ef.random.poisson([5], 3)].map((t) => {
      const a = Array.from(t.dataSync() as ArrayLike<number>);
      t.dispose();
      return a;
    });
  };
  const [a, b] = [run(), run()];
  expect(a).toEqual(b);
  expect(a[0]).not.toEqual(a[1]);
  const f = ef.trace(() => ef.random.gamma([6], 1.5));
  const [x, y] = [f() as ef.Tensor, f() as ef.Tensor];
  expect(Array.from(x.dataSync() as ArrayLike<number>)).not.toEqual(Array.from(y.dataSync() as ArrayLike<number>));
  ef.dispose([x, y]);
});

test('bad input: int32 alpha, negative shape, bool dtype name the op', () => {
  expect(() => ef.random.gamma([2], ef.constant([1, 2], 'int32'))).toThrow(/random\.gamma: unsupported dtype for alpha \(got int32, expected float32\)/);
  expect(() => ef.random.poisson([-1], 2)).toThrow(/random\.poisson: invalid shape/);
  expect(() => ef.random.poisson([2], 2, { dtype: 'bool' })).toThrow(/random\.poisson: unsupported dtype \(got bool, expected float32 or int32\)/);
  // @ts-expect-error: float64 is not a DType; the test checks the run-time rejection of what the types forbid.
  expect(() => ef.random.gamma([2], 1, { dtype: 'float64' })).toThrow(TypeError);
});

test("gamma's alpha gradient: TF's RandomGammaGrad values at fixed (alpha, sample) pairs", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fx = require('./fixtures/tf_gamma_grad.json') as { tf_version: string; alpha: number[]; sample: number[][]; grad: number[][] };
  expect(fx.tf_version).toBe('2.21.0');
  const before = ef.memory().numTensors;
  ef.tidy(() => {
    const rec = (ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>).random_gamma_grad;
    const got = ef.internal.bind(rec, [ef.constant(fx.alpha), ef.constant(fx.sample)], {})[0].arraySync() as number[][];
    got.forEach((row, i) => row.forEach((v, j) => expect(Math.abs(v - fx.grad[i][j])).toBeLessThanOrEqual(2e-5 * (1 + Math.abs(fx.grad[i][j])))));
  });
  expect(ef.memory().numTensors).toBe(before);
});

test("gamma's alpha gradient (implicit reparameterization): E[dX/da] = 1/beta and E[d(X^2)/da] = (2a + 1)/beta^2", () => {
  ef.tidy(() => {
    const alpha = ef.constant([0.5, 3]);
    const tape = new ef.GradientTape({ persistent: true });
    const [x, x2] = tape.record(() => {
      tape.watch(alpha);
      const g = ef.random.gamma([M], alpha, { beta: 2, seed: 3 });
      return [ef.reduceSum(g), ef.reduceSum(ef.square(g))];
    });
    const d1 = (tape.gradient(x, alpha) as ef.Tensor).arraySync() as number[];
    const d2 = (tape.gradient(x2, alpha) as ef.Tensor).arraySync() as number[];
    [0.5, 3].forEach((a, j) => {
      expect(Math.abs(d1[j] / M - 1 / 2)).toBeLessThan(0.03);
      expect(Math.abs(d2[j] / M / ((2 * a + 1) / 4) - 1)).toBeLessThan(0.08);
    });
    tape.dispose();
  });
});
