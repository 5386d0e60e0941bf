// Higher-order gradients ported from TensorFlow's backprop_test.py: nested tapes, gradients recorded on persistent tapes.
import * as ef from 'eagerflow';
import { captureWarnings, noLeak, taped, val } from './tape_helpers';

const warn = captureWarnings();

const close = (t: ef.Tensor | null, want: number): void => {
  expect(Math.abs((t?.item() as number) - want)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(want)));
};

test('testGradientTape: an inner tape inside an outer one (inner 2, outer 6)', () =>
  noLeak(() => {
    const g = new ef.GradientTape();
    const x = ef.constant(3);
    const y = g.record(() => {
      g.watch(x);
      let y = ef.multiply(x, x);
      const gg = new ef.GradientTape();
      const z = gg.record(() => (gg.watch(y), ef.multiply(2, y)));
      const inner = gg.gradient(z, [y])[0] as ef.Tensor;
      expect(val(inner)).toBe(2);
      y = ef.add(y, inner);
      return y;
    });
    expect(val(g.gradient(y, [x])[0])).toBe(6);
  }));

test('testPersistentNestedTape: inner gradient twice, then 6 and 12 from the outer tape', () =>
  noLeak(() => {
    const g = new ef.GradientTape({ persistent: true });
    const x = ef.constant(3);
    let z: ef.Tensor | null = null;
    const y = g.record(() => {
      g.watch(x);
      const y0 = ef.multiply(x, x);
      const gg = new ef.GradientTape({ persistent: true });
      z = gg.record(() => (gg.watch(y0), ef.multiply(2, y0)));
      let inner: ef.Tensor | null = null;
      for (let i = 0; i < 2; i++) {
        inner = gg.gradient(z, [y0])[0];
        expect(val(inner)).toBe(2);
      }
      gg.dispose();
      return ef.add(y0, inner as ef.Tensor);
    });
    expect(val(g.gradient(y, [x])[0])).toBe(6);
    expect(val(g.gradient(z, [x])[0])).toBe(12);
    g.dispose();
  }));

test('testHigherOrderGradient: x^3 at 3 gives 27, 27, 18, 6 on one persistent tape', () =>
  noLeak(() => {
    const g = new ef.GradientTape({ persistent: true });
    const x = ef.constant(3);
    const [y, dy, d2y] = g.record(() => {
      g.watch(x);
      const y = ef.pow(x, 3);
      const dy = g.gradient(y, x) as ef.Tensor;
      const d2y = g.gradient(dy, x) as ef.Tensor;
      return [y, dy, d2y];
    });
    const d3y = g.gradient(d2y, x);
    expect(val(y)).toBe(27);
    expect(val(dy)).toBe(27);
    expect(val(d2y)).toBe(18);
    expect(val(d3y)).toBe(6);
    g.dispose();
  }));

test('testWatchingIsTapeLocal: d2y = 12 and d2z = null', () => {
  const x1 = new ef.Variable(2, { trainable: false });
  const x2 = new ef.Variable(2, { trainable: false });
  noLeak(() => {
    const tape1 = new ef.GradientTape();
    const tape2 = new ef.GradientTape();
    const [dy, dz] = tape1.record(() =>
      tape2.record(() => {
        tape1.watch(x1);
        tape2.watch([x1, x2]);
        const y = ef.pow(x1, 3);
        const z = ef.pow(x2, 2);
        return tape2.gradient([y, z], [x1, x2]) as ef.Tensor[];
      }),
    );
    const [d2y, d2z] = tape1.gradient([dy, dz], [x1, x2]);
    expect(val(d2y)).toBe(12);
    expect(d2z).toBeNull();
  });
  [x1, x2].forEach((v) => v.dispose());
});

test('testGradGrad and testGradGradExp: grad of grad is 2 for x*x and 1 for exp at 0', () =>
  noLeak(() => {
    const gradSq = (x: ef.Tensor): ef.Tensor => ef.grad((v) => ef.multiply(v, v))(x) as ef.Tensor;
    expect(val(ef.grad(gradSq)(ef.constant(3)))).toBe(2);
    const gradExp = (x: ef.Tensor): ef.Tensor => ef.grad((v) => ef.exp(v))(x) as ef.Tensor;
    expect(val(ef.grad(gradExp)(ef.constant(0)))).toBe(1);
  }));

test('testSecondGrad: second derivative of softmax cross-entropy with a single logit is 0', () =>
  noLeak(() => {
    const labels = ef.constant([[0]]);
    const first = (x: ef.Tensor): ef.Tensor => ef.reduceSum(ef.negative(ef.reduceSum(ef.multiply(labels, ef.log(ef.softmax(x))), 1)), [0]);
    const second = (x: ef.Tensor): ef.Tensor => ef.reduceSum(ef.grad(first)(x) as ef.Tensor, [0]);
    expect(val(ef.grad(second)(ef.constant([[0.1]])))).toEqual([[0]]);
  }));

test('third derivatives through nested tapes: tanh at 0.5 (tfjs fails these, tensorflow/tfjs#3252)', () =>
  noLeak(() => {
    const x = ef.constant(0.5);
    const t1 = new ef.GradientTape();
    const t2 = new ef.GradientTape();
    const t3 = new ef.GradientTape();
    const d2 = t1.record(() => {
      t1.watch(x);
      const d1 = t2.record(() => {
        t2.watch(x);
        const y = t3.record(() => (t3.watch(x), ef.tanh(x)));
        return t3.gradient(y, x) as ef.Tensor;
      });
      return t2.gradient(d1, x) as ef.Tensor;
    });
    const d3 = t1.gradient(d2, x);
    const th = Math.tanh(0.5);
    // tanh''' = -2 (1 - t^2)(1 - 3 t^2)
    close(d3, -2 * (1 - th * th) * (1 - 3 * th * th));
    close(d2, -2 * th * (1 - th * th));
  }));

test('second and third derivatives of sigmoid, exp, sin and log match their closed forms', () =>
  noLeak(() => {
    const derivs = (f: (x: ef.Tensor) => ef.Tensor, at: number): number[] => {
      const x = ef.constant(at);
      const d1 = (v: ef.Tensor): ef.Tensor => ef.grad(f)(v) as ef.Tensor;
      const d2 = (v: ef.Tensor): ef.Tensor => ef.grad(d1)(v) as ef.Tensor;
      const d3 = (v: ef.Tensor): ef.Tensor => ef.grad(d2)(v) as ef.Tensor;
      return [d1(x), d2(x), d3(x)].map((t) => t.item() as number);
    };
    const s = 1 / (1 + Math.exp(-0.3));
    const want: [(x: ef.Tensor) => ef.Tensor, number, number[]][] = [
      [ef.sigmoid, 0.3, [s * (1 - s), s * (1 - s) * (1 - 2 * s), s * (1 - s) * (1 - 6 * s + 6 * s * s)]],
      [ef.exp, 0.7, [Math.exp(0.7), Math.exp(0.7), Math.exp(0.7)]],
      [ef.sin, 0.4, [Math.cos(0.4), -Math.sin(0.4), -Math.cos(0.4)]],
      [ef.log, 2, [0.5, -0.25, 0.25]],
    ];
    for (const [f, at, expected] of want) derivs(f, at).forEach((d, i) => expect(d).toBeCloseTo(expected[i], 4));
  }));

test('hessian-vector product with broadcasting: reduceSum(x * w + b) twice differentiated', () =>
  noLeak(() => {
    const x = ef.constant([[1, 2], [3, 4]]);
    const w = ef.constant([0.5, -1]);
    const [outer, g] = taped(w, () => {
      const inner = new ef.GradientTape();
      const y = inner.record(() => (inner.watch(w), ef.reduceSum(ef.square(ef.multiply(x, w)))));
      return inner.gradient(y, w) as ef.Tensor; // 2 * w * sum_rows(x^2) = [10, -40]
    });
    expect(val(g)).toEqual([10, -40]);
    expect(val(outer.gradient(g, w))).toEqual([20, 40]); // diag of the hessian, summed: 2 * sum_rows(x^2)
  }));

test('testOverrideSecondOrderWithCustomGradient: custom first and second derivatives', () =>
  noLeak(() => {
    const f = ef.customGradient((x) => ({
      value: ef.add(x, 10),
      grad: (dz) => {
        const firstOrderCustom = ef.customGradient(() => ({ value: ef.constant(-1.1), grad: (ddz) => ef.multiply(-2.1, ddz) }));
        return ef.multiply(dz, firstOrderCustom(x) as ef.Tensor);
      },
    }));
    const c = ef.constant(1);
    const [outer, dd] = taped(c, () => {
      const inner = new ef.GradientTape();
      const d = inner.record(() => (inner.watch(c), ef.pow(f(c) as ef.Tensor, 4)));
      return inner.gradient(d, c) as ef.Tensor;
    });
    const fc = 11;
    close(dd, 4 * fc ** 3 * -1.1);
    close(outer.gradient(dd, c), 3 * 4 * fc ** 2 * -1.1 * -1.1 + 4 * fc ** 3 * -2.1);
  }));

test('testCustomGradientForwardprop: gradients with respect to the output gradient itself', () =>
  noLeak(() => {
    const f = ef.customGradient((x) => ({
      value: ef.multiply(2, ef.constant(x.item() as number)),
      grad: (dz) => {
        const firstOrder = ef.customGradient(() => ({ value: ef.constant(2.1), grad: () => [2.2, 3.1] }));
        return firstOrder(x, dz) as ef.Tensor;
      },
    }));
    const t = new ef.GradientTape({ persistent: true });
    const c = ef.constant(1);
    const outputGrad = ef.ones([]);
    const gc = t.record(() => {
      const tt = new ef.GradientTape();
      const output = tt.record(() => {
        t.watch(c);
        tt.watch(c);
        t.watch(outputGrad);
        return f(c) as ef.Tensor;
      });
      close(output, 2);
      return tt.gradient(output, c, { outputGradients: outputGrad }) as ef.Tensor;
    });
    close(gc, 2.1);
    close(t.gradient(gc, c), 2.2);
    close(t.gradient(gc, outputGrad), 3.1);
    t.dispose();
  }));

test('gradient inside record of a persistent tape warns once and records the backward pass', () =>
  noLeak(() => {
    const x = ef.constant(2);
    const [g, d1] = taped(x, (tape) => {
      const y = ef.multiply(ef.multiply(x, x), x);
      tape.gradient(y, x);
      return tape.gradient(y, x) as ef.Tensor;
    }, { persistent: true });
    expect(warn().mock.calls.filter(([m]) => String(m).includes('persistent tape inside its record()'))).toHaveLength(1);
    expect(val(g.gradient(d1, x))).toBe(12);
    g.dispose();
  }));
