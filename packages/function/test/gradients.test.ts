// Gradients and traced functions: tapes around traced calls (cond, whileLoop, higher order) and tapes inside traced bodies.
import * as ef from 'eagerflow';
import { secondGradient } from '../../../test/harness/tapes';

type T = ef.Tensor;

function expectClose(got: T | null, want: number[] | number, digits = 4): void {
  expect(got).not.toBeNull();
  const g = (got as T).dataSync() as Float32Array;
  const w = typeof want === 'number' ? [want] : want;
  expect(g.length).toBe(w.length);
  w.forEach((v, i) => expect(g[i]).toBeCloseTo(v, digits));
}

/** d f(x) / dx with a tape around the call. */
function gradOf(f: (x: T) => T, xs: number[] | number): T | null {
  const x = ef.constant(xs);
  const tape = new ef.GradientTape();
  const y = tape.record(() => {
    tape.watch(x);
    return f(x);
  });
  return tape.gradient(y, x);
}

/** d2 sum(f(x)) / dx2 (the Hessian's row sums) with nested tapes around the call. */
function secondOf(f: (x: T) => T, xs: number[] | number): T | null {
  return secondGradient(ef.constant(xs), f);
}

describe('a tape recording a call of a traced function', () => {
  test('plain ops', () => {
    const f = ef.trace((x: T) => ef.reduceSum(ef.multiply(ef.sin(x), x)));
    const xs = [0.5, 1.5];
    expectClose(gradOf(f, xs), xs.map((v) => Math.cos(v) * v + Math.sin(v)));
  });

  test('cond: the taken branch is differentiated', () => {
    const f = ef.trace((x: T) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.multiply(x, x), () => ef.sin(x)) as T);
    expectClose(gradOf(f, [1, 2]), [2, 4]);
    expectClose(gradOf(f, [-1, -2]), [Math.cos(-1), Math.cos(-2)]);
    expect(f.tracingCount).toBe(1);
  });

  test('whileLoop: y = x^n gives n x^(n-1), for any n with one trace', () => {
    const pow = ef.trace((x: T, n: T) => ef.whileLoop((i: T) => ef.less(i, n), (i: T, a: T) => [ef.add(i, 1), ef.multiply(a, x)], [ef.constant(0, 'int32'), ef.onesLike(x)])[1]);
    for (const n of [1, 2, 3]) {
      expectClose(gradOf((x) => pow(x, ef.constant(n, 'int32')), [2, 3]), [2, 3].map((v) => n * v ** (n - 1)));
    }
    // Zero iterations: the result does not depend on x (null, or zeros on request).
    const x = ef.constant([2, 3]);
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(x);
      return pow(x, ef.constant(0, 'int32'));
    });
    expect(tape.gradient(y, x, { unconnectedGradients: 'zero' })?.arraySync()).toEqual([0, 0]);
    expect(pow.tracingCount).toBe(1);
  });

  test('variables read by the graph get gradients', () => {
    const w = new ef.Variable([1, -1]);
    const f = ef.trace((x: T) => ef.reduceSum(ef.multiply(ef.square(w), x)));
    const tape = new ef.GradientTape();
    const y = tape.record(() => f(ef.constant([3, 4])));
    expectClose(tape.gradient(y, w), [6, -8]);
  });

  test('a traced call inside another traced function, under a tape', () => {
    const inner = ef.trace((x: T) => ef.exp(ef.multiply(x, 2)));
    const outer = ef.trace((x: T) => ef.reduceSum(ef.multiply(inner(x), x)));
    const xs = [0.1, -0.3];
    expectClose(gradOf(outer, xs), xs.map((v) => Math.exp(2 * v) * (2 * v + 1)));
  });

  test('integer inputs get null gradients; leaks nothing', () => {
    const f = ef.trace((x: T, k: T) => ef.multiply(x, ef.cast(k, 'float32')));
    const x = ef.constant([1, 2]);
    const k = ef.constant([3, 4], 'int32');
    const run = (): void => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch([x, k]);
        return f(x, k);
      });
      const [gx, gk] = tape.gradient(y, [x, k]);
      expect(gk).toBeNull();
      expect(gx?.arraySync()).toEqual([3, 4]);
    };
    ef.tidy(run);
    const before = ef.memory().numTensors;
    ef.tidy(run);
    expect(ef.memory().numTensors).toBe(before);
  });
});

describe('second order through traced calls (nested tapes)', () => {
  test('plain: d2/dx2 sum(x^3) = 6x', () => {
    const f = ef.trace((x: T) => ef.reduceSum(ef.multiply(ef.multiply(x, x), x)));
    expectClose(secondOf(f, [2, 3]), [12, 18]);
  });

  test('cond: each branch has its own second derivative', () => {
    const f = ef.trace((x: T) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.reduceSum(ef.pow(x, 3)), () => ef.reduceSum(ef.sin(x))) as T);
    expectClose(secondOf(f, [1, 2]), [6, 12], 3);
    expectClose(secondOf(f, [-1, -0.5]), [Math.sin(1), Math.sin(0.5)], 4);
  });

  test('whileLoop: d2/dx2 x^3 = 6x', () => {
    const f = ef.trace((x: T) => ef.whileLoop((i: T) => ef.less(i, 3), (i: T, a: T) => [ef.add(i, 1), ef.multiply(a, x)], [ef.constant(0), ef.onesLike(x)])[1]);
    expectClose(secondOf(f, [1.5, -2]), [9, -12], 3);
  });
});

describe('a tape used inside a traced function', () => {
  test('ordinary ops: the gradient is part of the graph', () => {
    const f = ef.trace((x: T) => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        return ef.reduceSum(ef.multiply(ef.sin(x), x));
      });
      return tape.gradient(y, x) as T;
    });
    const xs = [0.5, 1.5];
    expectClose(f(ef.constant(xs)), xs.map((v) => Math.cos(v) * v + Math.sin(v)));
    expectClose(f(ef.constant([0])), [0]);
    expect(f.tracingCount).toBe(2);
  });

  test('cond inside the tape: one trace, both branches', () => {
    const f = ef.trace((x: T) => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        return ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.reduceSum(ef.multiply(x, x)), () => ef.reduceSum(ef.sin(x))) as T;
      });
      return tape.gradient(y, x) as T;
    });
    expectClose(f(ef.constant([1, 2])), [2, 4]);
    expectClose(f(ef.constant([-1, -2])), [Math.cos(-1), Math.cos(-2)]);
    expect(f.tracingCount).toBe(1);
  });

  test('whileLoop inside the tape', () => {
    const f = ef.trace((x: T, n: T) => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        return ef.whileLoop((i: T) => ef.less(i, n), (i: T, a: T) => [ef.add(i, 1), ef.multiply(a, x)], [ef.constant(0), ef.onesLike(x)])[1];
      });
      return tape.gradient(y, x) as T;
    });
    expectClose(f(ef.constant([2, 3]), ef.constant(3)), [12, 27]);
    expectClose(f(ef.constant([2, 3]), ef.constant(1)), [1, 1]);
    expect(f.tracingCount).toBe(1);
  });

  test('variables: the gradient reads the variable at call time', () => {
    const v = new ef.Variable([1, 2]);
    const f = ef.trace((x: T) => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => ef.reduceSum(ef.multiply(ef.square(v), x)));
      return tape.gradient(y, v) as T;
    });
    expectClose(f(ef.constant([3, 4])), [6, 16]);
    v.assign([-1, 0.5]);
    expectClose(f(ef.constant([3, 4])), [-6, 4]);
  });
});
