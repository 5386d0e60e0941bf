// Issue 17 §6-§7: sizes checked before allocating, no leak on failure, graph constants counted, error classes and messages.
import * as ef from 'eagerflow';
import { thrownWithoutLeak } from '../../../test/harness/thrown';

type T = ef.Tensor;
const count = (): number => ef.memory().numTensors;

/** Runs `call`, expecting an error of class `cls` matching `pattern`, with no tensor left behind. */
function fails(call: () => unknown, cls: new (...a: never[]) => Error, pattern: RegExp): void {
  expect(thrownWithoutLeak(call, cls).message).toMatch(pattern);
}

describe('huge shapes are refused before allocating', () => {
  const x = ef.constant([1, 2]);
  afterAll(() => x.dispose());

  test.each([
    ['zeros', () => ef.zeros([1e6, 1e6]), /^fill: OOM when allocating a tensor of shape \[1000000,1000000\] \(got 1000000000000 elements, expected at most 2147483647\)/],
    ['ones (just past the limit)', () => ef.ones([2 ** 31]), /^fill: OOM .* \(got 2147483648 elements/],
    ['fill int32', () => ef.fill([5e4, 5e4], 3, 'int32'), /^fill: OOM .*shape \[50000,50000\]/],
    ['range', () => ef.range(0, 1e12), /^range: OOM when allocating a tensor of shape \[1000000000000\]/],
    ['range with a tiny delta', () => ef.range(0, 1, 1e-12), /^range: OOM/],
    ['pad', () => ef.pad(x, [[0, 1e10]]), /^pad: OOM when allocating a tensor of shape \[10000000002\]/],
    ['broadcastTo', () => ef.broadcastTo(x, [1e5, 1e5, 2]), /^broadcastTo: OOM when allocating a tensor of shape \[100000,100000,2\]/],
  ])('%s: ResourceExhaustedError naming the op and the size', (_name, call, pattern) => {
    fails(call, ef.errors.ResourceExhaustedError, pattern);
  });

  test('inside a trace the same check fails the trace, before anything runs', () => {
    const f = ef.trace((a: T) => ef.add(a, ef.zeros([1e5, 1e5])));
    fails(() => f(x), ef.errors.ResourceExhaustedError, /^fill: OOM/);
    expect(f.tracingCount).toBe(0);
  });

  test('sizes at the limit are not refused by the check (a 0-element and a normal tensor)', () => {
    expect(ef.zeros([2 ** 31 - 1, 0]).shape.dims).toEqual([2147483647, 0]);
    expect(ef.broadcastTo(x, [3, 2]).arraySync()).toEqual([[1, 2], [1, 2], [1, 2]]);
  });
});

describe('broadcastTo failures leak nothing', () => {
  const x = ef.constant([1, 2, 3]);
  afterAll(() => x.dispose());

  test.each([
    ['incompatible', [2], /^broadcastTo: incompatible shapes for broadcasting \(got \[3\] and \[2\]/],
    ['negative dim', [-1, 3], /^broadcastTo: invalid shape \(got \[-1, 3\], expected non-negative integer dims\)/],
    ['fractional dim', [2, 1.5], /^broadcastTo: shape must be an array of integers \(got \[2, 1\.5\]/],
    ['NaN dim', [NaN, 3], /^broadcastTo: shape must be an array of integers \(got \[NaN, 3\]/],
    ['lower rank than the input', [], /^broadcastTo:/],
  ])('%s, 1000 times: no tensor left behind', (_name, shape, pattern) => {
    const before = count();
    for (let i = 0; i < 1000; i++) {
      try {
        ef.broadcastTo(x, shape as number[]);
      } catch (e) {
        expect(e).toBeInstanceOf(ef.errors.InvalidArgumentError);
        expect((e as Error).message).toMatch(pattern);
      }
    }
    expect(count()).toBe(before);
  });

  test('a JS array input converted by broadcastTo is released on failure too', () => {
    fails(() => ef.broadcastTo([1, 2, 3], [-2, 3]), ef.errors.InvalidArgumentError, /invalid shape/);
  });
});

describe('graph constants are counted in memory().numGraphBytes', () => {
  test('400 dropped-or-kept traced functions: the bytes show, and dispose() frees them at once', () => {
    const base = ef.memory().numGraphBytes;
    const tensors = count();
    const fns = Array.from({ length: 400 }, () => ef.trace((a: T) => ef.add(a, ef.constant(new Float32Array(1000).fill(1)))));
    const x = ef.zeros([1000]);
    for (const f of fns) f(x).dispose();
    expect(ef.memory().numGraphBytes - base).toBe(400 * 4000);
    expect(count()).toBe(tensors + 1);
    for (const f of fns) f.dispose();
    expect(ef.memory().numGraphBytes).toBe(base);
    x.dispose();
  });

  test('one buffer captured by two functions is counted once; folded constants and loaded weights count too', () => {
    const base = ef.memory().numGraphBytes;
    const c = ef.constant(new Float32Array(500));
    const f = ef.trace((a: T) => ef.add(a, c));
    const g = ef.trace((a: T) => ef.multiply(a, c));
    const x = ef.zeros([500]);
    f(x).dispose();
    g(x).dispose();
    expect(ef.memory().numGraphBytes - base).toBe(2000);
    const folded = ef.trace((a: T) => ef.add(a, ef.ones([10, 10], 'int32')));
    const i = ef.zeros([10, 10], 'int32');
    folded(i).dispose();
    expect(ef.memory().numGraphBytes - base).toBe(2000 + 400);
    const source = ef.trace((a: T) => ef.add(a, ef.constant(new Float32Array(250))), { inputSignature: [new ef.TensorSpec([250])] });
    const saved = ef.saveFunction(source);
    expect(ef.memory().numGraphBytes - base).toBe(2000 + 400 + 1000);
    source.dispose();
    const loaded = ef.loadFunction(saved);
    expect(ef.memory().numGraphBytes - base).toBe(2000 + 400 + 1000);
    for (const fn of [f, g, folded, loaded]) fn.dispose();
    expect(ef.memory().numGraphBytes).toBe(base);
    ef.dispose([c, x, i]);
  });
});

describe('error classes and messages', () => {
  test.each([
    [NaN, 'int32', /got NaN, expected a value representable as int32/],
    [Infinity, 'int32', /got Infinity, expected/],
    [1.5, 'int32', /got 1\.5, expected/],
    ['a', 'float32', /got "a", expected a value representable as float32/],
    [2, 'bool', /got 2, expected a value representable as bool/],
  ])('fill([2], %p, %s) names the value', (value, dtype, pattern) => {
    fails(() => ef.fill([2], value as number, dtype as ef.DType), ef.errors.InvalidArgumentError, pattern);
  });

  test('a disposed tensor is a FailedPreconditionError, eager, traced and when read', () => {
    const t = ef.constant([1, 2]);
    t.dispose();
    const pattern = /is disposed \(got a disposed tensor, expected a live one\)/;
    fails(() => ef.add(t, 1), ef.errors.FailedPreconditionError, pattern);
    fails(() => t.arraySync(), ef.errors.FailedPreconditionError, pattern);
    fails(() => t.item(), ef.errors.FailedPreconditionError, pattern);
    const f = ef.trace((a: T) => ef.multiply(a, 2));
    fails(() => f(t), ef.errors.FailedPreconditionError, pattern);
  });

  test("setBackend('webgl') in Node says there is no WebGL here; unknown backends are NotFoundError", async () => {
    await expect(ef.setBackend('webgl')).rejects.toThrow(/^setBackend: WebGL is not available in Node\.js \(got 'webgl', expected 'cpu' in Node\)\. Node has no WebGL/);
    await expect(ef.setBackend('webgl')).rejects.toBeInstanceOf(ef.errors.NotFoundError);
    await expect(ef.setBackend('webgl')).rejects.toThrow('npm i @tensorflow/tfjs-backend-webgl');
    await expect(ef.setBackend('tpu')).rejects.toBeInstanceOf(ef.errors.NotFoundError);
    expect(ef.getBackend()).toBe('cpu');
  });

  test('tape misuse is a FailedPreconditionError (TF raises RuntimeError)', () => {
    const x = ef.constant(2);
    const t = new ef.GradientTape();
    expect(() => t.record(() => t.record(() => 1))).toThrow(ef.errors.FailedPreconditionError);
    expect(() => t.stopRecording(() => 1)).toThrow(ef.errors.FailedPreconditionError);
    const y = t.record(() => {
      t.watch(x);
      return ef.square(x);
    });
    t.gradient(y, x)?.dispose();
    expect(() => t.gradient(y, x)).toThrow(ef.errors.FailedPreconditionError);
    ef.dispose([x, y]);
  });

  test('a kernel that cannot allocate its result: ResourceExhaustedError eager and traced, nothing leaks', () => {
    const a = ef.ones([70000, 1]);
    const b = ef.ones([1, 70000]);
    fails(() => ef.matmul(a, b), ef.errors.ResourceExhaustedError, /^matmul: OOM when allocating the result/);
    const f = ef.trace((p: T, q: T) => ef.matmul(p, q));
    fails(() => f(a, b), ef.errors.ResourceExhaustedError, /^matmul: OOM when allocating the result/);
    ef.dispose([a, b]);
    f.dispose();
  });

  test('toOpError keeps ef.errors and TypeErrors, maps plain kernel Errors to InvalidArgumentError with the cause', () => {
    const typeError = new TypeError('t');
    expect(ef.internal.toOpError(typeError, 'op')).toBe(typeError);
    const own = new ef.errors.OutOfRangeError('o');
    expect(ef.internal.toOpError(own, 'op')).toBe(own);
    const plain = new Error('Operands could not be broadcast together with shapes 2 and 3.');
    const mapped = ef.internal.toOpError(plain, 'add') as ef.errors.InvalidArgumentError;
    expect(mapped).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(mapped.message).toBe('add: Operands could not be broadcast together with shapes 2 and 3.');
    expect(mapped.cause).toBe(plain);
    expect(mapped.opName).toBe('add');
    class Custom extends Error {}
    const custom = new Custom('c');
    expect(ef.internal.toOpError(custom, 'op')).toBe(custom);
  });
});
