// Issue 17 §5: run-time limits of loaded functions (largest tensor, while iterations), with safe defaults the caller can raise.
import * as ef from 'eagerflow';
import { thrownWithoutLeak } from '../../../test/harness/thrown';

type T = ef.Tensor;
const spec = (shape: (number | null)[] | null): ef.TensorSpec => new ef.TensorSpec(shape);
const count = (): number => ef.memory().numTensors;

/** The repro: a loop that doubles a tensor and never ends. */
const grow = ef.trace((x: T) => ef.whileLoop((v) => ef.less(ef.reduceSum(ef.zerosLike(v)), 1), (v) => [ef.concat([v, v], 0)], [x])[0], { inputSignature: [spec([2])] });
/** A loop that never ends on a scalar. */
const spin = ef.trace((x: T) => ef.whileLoop((v) => ef.greater(v, -1), (v) => [ef.add(v, 1)], [x])[0], { inputSignature: [spec([])] });
/** A loop that ends after `n` iterations. */
const upTo = ef.trace((x: T, n: T) => ef.whileLoop((v) => ef.less(v, n), (v) => [ef.add(v, 1)], [x])[0], { inputSignature: [spec([]), spec([])] });

function failure(call: () => unknown): Error {
  return thrownWithoutLeak(call, ef.errors.ResourceExhaustedError);
}

describe('defaults', () => {
  test('loaded functions get the limits of ef.loadLimits at load time; traced ones have none', () => {
    expect(ef.loadLimits.maxRunElements).toBe(2 ** 24);
    expect(ef.loadLimits.maxWhileIterations).toBe(100_000);
    const f = ef.loadFunction(ef.saveFunction(spin));
    expect(f.limits).toEqual({ maxElements: 2 ** 24, maxWhileIterations: 100_000 });
    f.dispose();
  });

  test('the growing loop of the issue fails on the default element limit (it ran until the OOM killer)', () => {
    const f = ef.loadFunction(ef.saveFunction(grow));
    const e = failure(() => f([1, 2]));
    expect(e.message).toMatch(/^loaded function: a node would produce a tensor of shape \[33554432\] \(got 33554432 elements, expected at most 16777216: limits\.maxElements\)/);
    expect(e.message).toMatch(/node: \w+: f32\[\?\] = concat\[axis=0\] v0 v0/);
    f.dispose();
  }, 120_000);
});

describe('raising and lowering', () => {
  test('maxElements per load: the same loop fails at a smaller size, and a trusted caller can raise it', () => {
    const f = ef.loadFunction(ef.saveFunction(grow), { limits: { maxElements: 1000 } });
    expect(failure(() => f([1, 2])).message).toMatch(/shape \[1024\] \(got 1024 elements, expected at most 1000/);
    // A bounded loop under the limit runs; raising the limit on the function takes effect on the next call.
    const cat = ef.trace((x: T) => ef.whileLoop((v) => ef.less(ef.reduceSum(ef.onesLike(v)), 3000), (v) => [ef.concat([v, v], 0)], [x])[0], { inputSignature: [spec([3])] });
    const g = ef.loadFunction<T>(ef.saveFunction(cat), { limits: { maxElements: 2000 } });
    expect(failure(() => g([1, 2, 3])).message).toMatch(/got 3072 elements, expected at most 2000/);
    g.limits.maxElements = 4000;
    expect(g([1, 2, 3]).shape.dims).toEqual([3072]);
    f.dispose();
    g.dispose();
    cat.dispose();
  });

  test('maxWhileIterations: a loop that does not end fails; one that ends within the limit runs; both under a tape too', () => {
    const s = ef.loadFunction<T>(ef.saveFunction(spin), { limits: { maxWhileIterations: 100 } });
    expect(failure(() => s(0)).message).toMatch(/^loaded function: a while loop did not end \(got more than 100 iterations, expected at most 100: limits\.maxWhileIterations\)/);
    const u = ef.loadFunction<T>(ef.saveFunction(upTo), { limits: { maxWhileIterations: 100 } });
    expect(u(0, 100).item()).toBe(100);
    expect(failure(() => u(0, 101)).message).toMatch(/more than 100 iterations/);
    const x = ef.constant(0);
    const tape = new ef.GradientTape();
    expect(failure(() => tape.record(() => {
      tape.watch(x);
      return u(x, 101);
    })).message).toMatch(/more than 100 iterations/);
    const tape2 = new ef.GradientTape();
    const y = tape2.record(() => {
      tape2.watch(x);
      return ef.multiply(u(x, 100), 2);
    });
    expect(y.item()).toBe(200);
    u.limits.maxWhileIterations = 1000;
    expect(u(0, 101).item()).toBe(101);
    ef.dispose([x, y]);
    s.dispose();
    u.dispose();
  });

  test('callAsync runs under the same limits', async () => {
    const s = ef.loadFunction<T>(ef.saveFunction(spin), { limits: { maxWhileIterations: 10 } });
    const before = count();
    await expect(s.callAsync(0)).rejects.toThrow(ef.errors.ResourceExhaustedError);
    const g = ef.loadFunction<T>(ef.saveFunction(grow), { limits: { maxElements: 100 } });
    await expect(g.callAsync([1, 2])).rejects.toThrow(/got 128 elements, expected at most 100/);
    expect(count()).toBe(before);
    s.dispose();
    g.dispose();
  });

  test('the default iteration limit ends a loop that would block forever', () => {
    const s = ef.loadFunction<T>(ef.saveFunction(spin));
    expect(failure(() => s(0)).message).toMatch(/more than 100000 iterations/);
    s.dispose();
  }, 120_000);

  test('bad limits options are an InvalidArgumentError', () => {
    expect(() => ef.loadFunction(ef.saveFunction(spin), { limits: { maxWhileIterations: -1 } })).toThrow(/^loadFunction: options\.limits\.maxWhileIterations must be a non-negative number \(got number -1/);
    expect(() => ef.loadFunction(ef.saveFunction(spin), { limits: 5 as never })).toThrow(ef.errors.InvalidArgumentError);
  });

  test('traced (not loaded) functions are not limited', () => {
    const x = ef.constant(0);
    const n = ef.constant(5000);
    expect(upTo(x, n).item()).toBe(5000);
    ef.dispose([x, n]);
  });
});
