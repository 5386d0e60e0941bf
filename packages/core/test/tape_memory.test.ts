// Memory of the tape: what it saves, when it frees it, and gradients of tensors the user already disposed.
import * as ef from 'eagerflow';
import { captureWarnings, noLeak, taped, val } from './tape_helpers';

captureWarnings();

const buffers = (): number => ef.memory().numDataBuffers;

describe('what the tape keeps alive', () => {
  test('a non-persistent tape frees what it saved after gradient', () =>
    noLeak(() => {
      const x = ef.constant([0.5, 1]);
      const base = buffers();
      const tape = new ef.GradientTape();
      // Intermediates are disposed by the inner tidy; sin saves its input, exp its output.
      const y = tape.record(() => ef.tidy(() => (tape.watch(x), ef.reduceSum(ef.exp(ef.sin(ef.multiply(x, 3)))))));
      expect(buffers()).toBeGreaterThan(base + 1); // y, plus the pinned sin input and exp output
      const g = tape.gradient(y, x) as ef.Tensor;
      expect(buffers()).toBe(base + 2); // y and g only
      const want = [0.5, 1].map((v) => 3 * Math.cos(3 * v) * Math.exp(Math.sin(3 * v)));
      (g.arraySync() as number[]).forEach((d, i) => expect(d).toBeCloseTo(want[i], 4));
    }));

  test('a persistent tape keeps what it saved until dispose()', () =>
    noLeak(() => {
      const x = ef.constant([0.5, 1]);
      const base = buffers();
      const tape = new ef.GradientTape({ persistent: true });
      const y = tape.record(() => ef.tidy(() => (tape.watch(x), ef.reduceSum(ef.exp(ef.sin(ef.multiply(x, 3)))))));
      const g1 = tape.gradient(y, x) as ef.Tensor;
      const g2 = tape.gradient(y, x) as ef.Tensor;
      expect(val(g2)).toEqual(val(g1));
      expect(buffers()).toBeGreaterThan(base + 3);
      tape.dispose();
      expect(buffers()).toBe(base + 3); // y, g1, g2
    }));

  test('ops whose vjp reads no values (add, reshape, sum) pin nothing', () =>
    noLeak(() => {
      const base = buffers();
      const tape = new ef.GradientTape();
      const x = ef.constant([1, 2]);
      const y = tape.record(() => ef.tidy(() => (tape.watch(x), ef.reduceSum(ef.reshape(ef.add(x, x), [2, 1])))));
      expect(buffers()).toBe(base + 2); // x and y
      expect(val(tape.gradient(y, x))).toEqual([2, 2]);
    }));

  test('reset and re-recording a used tape release the old pins', () =>
    noLeak(() => {
      const x = ef.constant(2);
      const base = buffers();
      const tape = new ef.GradientTape();
      tape.record(() => ef.tidy(() => (tape.watch(x), void ef.exp(ef.multiply(x, x)))));
      expect(buffers()).toBe(base + 1); // exp's output, pinned (x*x was freed by the tidy)
      tape.reset();
      expect(buffers()).toBe(base);
    }));

  test('valueAndGrad frees its tape even when f throws', () =>
    noLeak(() => {
      const base = buffers();
      expect(() => ef.valueAndGrad((x) => (ef.exp(x), null))(1)).toThrow(/Cannot differentiate/);
      expect(buffers()).toBe(base);
    }));
});

describe('gradients of tensors the user disposed (pinning)', () => {
  test('sources, targets and intermediates disposed before gradient still differentiate', () =>
    noLeak(() => {
      const x = ef.constant([0.2, 0.4]);
      const tape = new ef.GradientTape();
      let mid: ef.Tensor | null = null;
      const y = tape.record(() => {
        tape.watch(x);
        mid = ef.sin(x); // saves x
        return ef.multiply(mid, mid); // saves mid twice
      });
      x.dispose();
      (mid as unknown as ef.Tensor).dispose();
      const g = tape.gradient(y, x) as ef.Tensor;
      y.dispose();
      const want = [0.2, 0.4].map((v) => 2 * Math.sin(v) * Math.cos(v));
      (g.arraySync() as number[]).forEach((d, i) => expect(d).toBeCloseTo(want[i], 5));
      expect(x.isDisposed).toBe(true); // the user's tensor is not brought back to life
      expect((mid as unknown as ef.Tensor).isDisposed).toBe(true);
    }));

  test('a persistent tape differentiates disposed values more than once', () =>
    noLeak(() => {
      const x = ef.constant(0.3);
      const tape = new ef.GradientTape({ persistent: true });
      const y = tape.record(() => (tape.watch(x), ef.tanh(ef.exp(x))));
      x.dispose();
      const g1 = (tape.gradient(y, x) as ef.Tensor).item() as number;
      const g2 = (tape.gradient(y, x) as ef.Tensor).item() as number;
      const t = Math.tanh(Math.exp(0.3));
      expect(g1).toBeCloseTo((1 - t * t) * Math.exp(0.3), 5);
      expect(g2).toBe(g1);
      tape.dispose();
    }));

  test('higher order with everything disposed between the passes', () =>
    noLeak(() => {
      const x = ef.constant(1.5);
      const [outer, dy] = taped(x, () => {
        const inner = new ef.GradientTape();
        const y = inner.record(() => ef.tidy(() => (inner.watch(x), ef.multiply(ef.square(x), x))));
        const d = inner.gradient(y, x) as ef.Tensor;
        y.dispose();
        return d;
      });
      x.dispose();
      expect((dy.item() as number)).toBeCloseTo(3 * 1.5 * 1.5, 5);
      expect((outer.gradient(dy, x) as ef.Tensor).item()).toBeCloseTo(6 * 1.5, 5);
    }));

  test('a variable assigned after the forward pass: the gradient uses the value that was read', () => {
    const v = new ef.Variable(3);
    noLeak(() => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => ef.multiply(v, v));
      v.assign(10);
      expect(val(tape.gradient(y, v))).toBe(6);
    });
    v.dispose();
  });

  test('jacobian and batchJacobian leak nothing, inside a tidy or not', () => {
    const before = ef.memory();
    const x = ef.constant([[1, 2], [3, 4]]);
    const tape = new ef.GradientTape({ persistent: true });
    const e = tape.record(() => (tape.watch(x), ef.exp(x)));
    const y = tape.record(() => ef.multiply(e, x));
    const j = tape.jacobian(y, x) as ef.Tensor;
    const b = tape.batchJacobian(y, x);
    expect(j.shape.asList()).toEqual([2, 2, 2, 2]);
    expect(b.shape.asList()).toEqual([2, 2, 2]);
    tape.dispose();
    ef.dispose([x, e, y, j, b]);
    const after = ef.memory();
    expect([after.numTensors, after.numDataBuffers]).toEqual([before.numTensors, before.numDataBuffers]);
  });
});
