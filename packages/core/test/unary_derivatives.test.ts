// Higher derivatives of unary ops through nested tapes vs analytic float64 values (tfjs gets these wrong: tfjs#3252).
import * as ef from 'eagerflow';
import { Rng, SMOOTH_UNARY, expectClose } from '../../../test/harness';
import { secondGradient } from '../../../test/harness/tapes';

type Unary = (x: ef.TensorLike) => ef.Tensor;

/**
 * [f'(x), ..., f^(n)(x)] elementwise: n nested tapes, each differentiating the one inside it
 * (elementwise ops, so the gradient of the sum is the elementwise derivative).
 */
function derivatives(op: Unary, x: ef.Tensor, n: number): number[][] {
  return ef.tidy(() => {
    const found: ef.Tensor[] = [];
    const nest = (k: number): ef.Tensor => {
      if (k === 0) return op(x);
      const tape = new ef.GradientTape();
      const inner = tape.record(() => {
        tape.watch(x);
        return nest(k - 1);
      });
      const g = tape.gradient(inner, x, { unconnectedGradients: 'zero' }) as ef.Tensor;
      found.push(g);
      return g;
    };
    nest(n);
    return found.map((g) => Array.from(g.dataSync() as Float32Array));
  });
}

/** [f'(x), f''(x)] elementwise via two nested tapes. */
function firstAndSecond(op: Unary, x: ef.Tensor): [number[], number[]] {
  const [d1, d2] = derivatives(op, x, 2);
  return [d1, d2];
}

/** f'''(x) elementwise via three nested tapes. */
function third(op: Unary, x: ef.Tensor): number[] {
  return derivatives(op, x, 3)[2];
}

function points(gen: string, n: number, seed: number): number[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => (gen === 'positive' ? rng.uniform(0.3, 2.5) : rng.uniform(-2, 2)));
}

describe('second derivatives of smooth unary ops (nested GradientTapes)', () => {
  test.each(SMOOTH_UNARY.map((u) => [u.name, u] as const))('%s: first and second derivative', (_n, u) => {
    const xs = points(u.gen, 7, 1234);
    const x = ef.constant(xs);
    const before = ef.memory().numTensors;
    const [d1, d2] = firstAndSecond(u.op, x);
    expect(ef.memory().numTensors).toBe(before);
    expectClose(d1, xs.map(u.d1), 1e-5, 1e-6, `${u.name}'`);
    expectClose(d2, xs.map(u.d2), 1e-4, 1e-5, `${u.name}''`);
    x.dispose();
  });

  test('the tfjs#3252 cases: exp, tanh and sigmoid second derivatives at x = 0.5', () => {
    const x = ef.constant(0.5);
    expect(firstAndSecond(ef.exp, x)[1][0]).toBeCloseTo(Math.exp(0.5), 5);
    const t = Math.tanh(0.5);
    expect(firstAndSecond(ef.tanh, x)[1][0]).toBeCloseTo(-2 * t * (1 - t * t), 5);
    const s = 1 / (1 + Math.exp(-0.5));
    expect(firstAndSecond(ef.sigmoid, x)[1][0]).toBeCloseTo(s * (1 - s) * (1 - 2 * s), 5);
    x.dispose();
  });
});

describe('third derivatives', () => {
  const cases: [string, Unary, (v: number) => number][] = [
    ['exp', ef.exp, Math.exp],
    ['sin', ef.sin, (v) => -Math.cos(v)],
    ['tanh', ef.tanh, (v) => {
      const t = Math.tanh(v);
      return -2 * (1 - t * t) * (1 - 3 * t * t);
    }],
    ['log', ef.log, (v) => 2 / v ** 3],
  ];
  test.each(cases)('%s', (name, op, d3) => {
    const xs = points(name === 'log' ? 'positive' : 'normal', 5, 99);
    const x = ef.constant(xs);
    expectClose(third(op, x), xs.map(d3), 1e-3, 1e-4, `${name}'''`);
    x.dispose();
  });
});

describe('piecewise-linear ops: relu and abs', () => {
  const xs = [-1.5, -0.25, 0.25, 2];
  test.each([
    ['relu', ef.relu, (v: number) => (v > 0 ? 1 : 0)],
    ['abs', ef.abs, (v: number) => Math.sign(v)],
  ] as [string, Unary, (v: number) => number][])('%s: first derivative exact, second derivative zero (connected, like TensorFlow)', (_name, op, d1) => {
    const x = ef.constant(xs);
    const [g1, g2] = firstAndSecond(op, x);
    expect(g1).toEqual(xs.map(d1));
    expect(g2).toEqual([0, 0, 0, 0]);
    const zero = ef.tidy(() => secondGradient(x, op, { then: (dx) => dx }));
    expect(zero).not.toBeNull();
    ef.dispose([x, zero]);
  });

  test('relu has gradient 0 at exactly 0 (TensorFlow: features > 0)', () => {
    const x = ef.constant([0]);
    expect(firstAndSecond(ef.relu, x)[0]).toEqual([0]);
    x.dispose();
  });
});
