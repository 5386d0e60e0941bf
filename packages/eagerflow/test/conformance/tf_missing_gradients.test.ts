// Gradients TensorFlow 2.21 cannot compute (dilated conv2d on CPU, softsign's and LRN's second order), checked against float64 finite differences.
import * as ef from 'eagerflow';
import { secondGradient } from '../../../../test/harness/tapes';

/** Central differences of a float64 JS function at x, contracted with dy. */
function numericGrad(f: (x: number[]) => number[], x: number[], dy: number[], h = 1e-5): number[] {
  return x.map((_, i) => {
    const [a, b] = [[...x], [...x]];
    a[i] += h;
    b[i] -= h;
    const [fa, fb] = [f(a), f(b)];
    return fa.reduce((s, v, j) => s + (dy[j] * (v - fb[j])) / (2 * h), 0);
  });
}

function grad(f: (x: ef.Tensor) => ef.Tensor, x: number[], shape: number[], dy: number[]): number[] {
  return ef.tidy(() => {
    const xt = ef.constant(x, 'float32', shape);
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(xt);
      return f(xt);
    });
    const g = tape.gradient(y, xt, { outputGradients: ef.constant(dy, 'float32', y.shape.asList() as number[]) }) as ef.Tensor;
    return Array.from(g.dataSync() as Float32Array);
  });
}

function close(a: number[], b: number[], tol = 2e-3): void {
  expect(a.length).toBe(b.length);
  a.forEach((v, i) => expect(Math.abs(v - b[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(b[i]))));
}

const X = [-2.5, -0.3, 0, 0.7, 1.5, 4];
const DY = [1, -0.5, 2, 0.25, -1, 0.75];

test('softsign: first and second order match finite differences', () => {
  const before = ef.memory().numTensors;
  const softsign = (x: number[]): number[] => x.map((v) => v / (1 + Math.abs(v)));
  close(grad((x) => ef.nn.softsign(x), X, [6], DY), numericGrad(softsign, X, DY));
  // d/dx of sum(dy · softsign'(x)): the derivative of the first-order gradient, by differences of the exact first derivative.
  const d1 = (x: number[]): number[] => x.map((v, i) => DY[i] / (1 + Math.abs(v)) ** 2);
  const second = ef.tidy(() => {
    const xt = ef.constant(X, 'float32', [6]);
    const h = secondGradient(xt, (v) => ef.nn.softsign(v), { inner: { outputGradients: ef.constant(DY, 'float32', [6]) } });
    return Array.from((h as ef.Tensor).dataSync() as Float32Array);
  });
  close(second.filter((_, i) => X[i] !== 0), numericGrad(d1, X, [1, 1, 1, 1, 1, 1]).filter((_, i) => X[i] !== 0));
  expect(ef.memory().numTensors).toBe(before);
});

test('conv2d with dilation 2: input gradient matches finite differences', () => {
  const [H, W, K] = [5, 5, 2];
  const x = Array.from({ length: H * W }, (_, i) => ((i * 7) % 11) / 5 - 1);
  const w = [0.5, -1, 0.25, 2];
  // VALID, dilation 2: out[i][j] = sum_{a,b} x[i + 2a][j + 2b] · w[a][b].
  const conv = (xs: number[]): number[] => {
    const out: number[] = [];
    for (let i = 0; i + 2 * (K - 1) < H; i++) for (let j = 0; j + 2 * (K - 1) < W; j++) {
      let s = 0;
      for (let a = 0; a < K; a++) for (let b = 0; b < K; b++) s += xs[(i + 2 * a) * W + j + 2 * b] * w[a * K + b];
      out.push(s);
    }
    return out;
  };
  const dy = conv(x).map((_, i) => [1, -0.5, 2, 0.25][i % 4]);
  const filter = ef.constant(w, 'float32', [K, K, 1, 1]);
  const got = grad((t) => ef.nn.conv2d(t, filter, 1, 'VALID', { dilations: 2 }), x, [1, H, W, 1], dy);
  filter.dispose();
  close(got, numericGrad(conv, x, dy));
});

test('localResponseNormalization: input gradient matches finite differences', () => {
  const C = 4;
  const x = [0.5, -1.2, 2.0, 0.3, -0.7, 1.1, 0.0, -2.2];
  const [r, bias, alpha, beta] = [1, 2, 0.5, 0.75];
  const lrn = (xs: number[]): number[] =>
    xs.map((v, i) => {
      const c = i % C;
      const base = i - c;
      let s = 0;
      for (let k = Math.max(0, c - r); k <= Math.min(C - 1, c + r); k++) s += xs[base + k] ** 2;
      return v / (bias + alpha * s) ** beta;
    });
  const dy = x.map((_, i) => [1, -0.5, 2, 0.25][i % 4]);
  const got = grad((t) => ef.nn.localResponseNormalization(t, { depthRadius: r, bias, alpha, beta }), x, [1, 1, 2, C], dy);
  close(got, numericGrad(lrn, x, dy));
});
