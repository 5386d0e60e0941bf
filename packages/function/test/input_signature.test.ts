// inputSignature: exactly one trace; compatible inputs converted; incompatible ones a TypeError that traces nothing.
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

const vec = (dtype: ef.DType = 'float32'): ef.TensorSpec => new ef.TensorSpec([null], dtype);
const mem = (): number => ef.memory().numTensors;

describe('inputSignature: one trace for every compatible call', () => {
  test('tensors of every length share the (None,) trace, seen with the spec shape', () => {
    const shapes: (number | null)[][] = [];
    const f = ef.trace(
      (x: ef.Tensor) => {
        shapes.push(x.shape.asList());
        return ef.add(x, 1);
      },
      { inputSignature: [vec()] },
    );
    expect(f(ef.constant([1])).arraySync()).toEqual([2]);
    expect(f(ef.constant([1, 2, 3])).arraySync()).toEqual([2, 3, 4]);
    expect(f.tracingCount).toBe(1);
    expect(shapes).toEqual([[null]]);
  });

  test('(2, None) stays (2, None) for inputs [2,1] and [2,3]', () => {
    const f = ef.trace((x: ef.Tensor) => ef.reduceSum(x, 1), { inputSignature: [new ef.TensorSpec([2, null])] });
    expect(f(ef.constant([[1], [2]])).arraySync()).toEqual([1, 2]);
    expect(f(ef.constant([[1, 2, 3], [4, 5, 6]])).arraySync()).toEqual([6, 15]);
    const cf = f.getConcreteFunction();
    expect(cf.inputs[0].shape.dims).toEqual([2, null]);
    expect(cf.outputs[0].shape.dims).toEqual([2]);
    expect(f.tracingCount).toBe(1);
  });

  test('nested arrays and NDArrays are converted to the spec', () => {
    const f = ef.trace((x: ef.Tensor) => ef.identity(x), { inputSignature: [new ef.TensorSpec([null, null], 'float32')] });
    const a = f([[0], [1.0], [1]] as unknown as ef.Tensor);
    expect(a.shape.dims).toEqual([3, 1]);
    expect(a.dtype).toBe('float32');
    const g = ef.trace((x: ef.Tensor) => ef.identity(x), { inputSignature: [new ef.TensorSpec([null, null], 'int32')] });
    const b = g(ef.ndarray([1, 1, 2, 2], [2, 2], 'int32') as unknown as ef.Tensor);
    expect(b.arraySync()).toEqual([[1, 1], [2, 2]]);
    expect(b.dtype).toBe('int32');
    expect(f.tracingCount + g.tracingCount).toBe(2);
  });

  test('nested signatures: arrays of specs take arrays of values', () => {
    const f = ef.trace((pair: ef.Tensor[], s: ef.Tensor) => ef.add(ef.multiply(pair[0], pair[1]), s), {
      inputSignature: [[vec(), vec()], new ef.TensorSpec([])],
    });
    expect(f([ef.constant([1, 2]), [3, 4] as unknown as ef.Tensor], 1 as unknown as ef.Tensor).arraySync()).toEqual([4, 9]);
    expect(f.tracingCount).toBe(1);
    expect(() => f([ef.constant([1, 2])], ef.constant(1))).toThrow(/argument 'pair' does not match the nested structure of inputSignature/);
  });

  test('a Variable argument is read into the tensor spec', () => {
    const f = ef.trace((x: ef.Tensor) => ef.multiply(x, 2), { inputSignature: [vec()] });
    expect(f(new ef.Variable([1, 2]) as unknown as ef.Tensor).arraySync()).toEqual([2, 4]);
  });
});

describe('inputSignature: incompatible calls throw a TypeError naming the signature and argument, tracing nothing', () => {
  const make = () => ef.trace((x: ef.Tensor) => ef.add(x, 1), { inputSignature: [vec()] });
  const sig = 'inputSignature [TensorSpec(shape=(None,)';

  test.each([
    ['dtype', () => ef.constant([1], 'int32'), /argument 'x' is incompatible with inputSignature .*Tensor conversion requested dtype float32 for Tensor with dtype int32 \(got a int32 tensor/],
    ['rank', () => ef.constant([[1]]), /argument 'x' is incompatible with inputSignature .*Can not cast shape \(1, 1\) to \(None,\) \(got a tensor of shape \(1, 1\)/],
    ['string values', () => ['a'], /argument 'x' is incompatible .*cannot convert \["a"\] to a float32 tensor \(got \["a"\]/],
  ])('wrong %s', (_what, value, message) => {
    const f = make();
    const arg = value();
    const before = mem();
    const caught = thrown(() => f(arg as ef.Tensor));
    expect(caught).toBeInstanceOf(TypeError);
    const msg = (caught as Error).message;
    expect(msg).toMatch(message);
    expect(msg).toContain(sig);
    expect(msg).toMatch(/^ef\.trace\(traced\): .*\(got .*, expected TensorSpec\(.*\)\)\. Pass a value matching the spec, or change the signature\.$/);
    expect(f.tracingCount).toBe(0);
    expect(mem()).toBe(before);
  });

  test('wrong shape with a fixed dim', () => {
    const f = ef.trace((x: ef.Tensor) => x, { inputSignature: [new ef.TensorSpec([2])] });
    expect(() => f(ef.constant([1, 2, 3]))).toThrow(/Can not cast shape \(3,\) to \(2,\)/);
    expect(f.tracingCount).toBe(0);
  });

  test('too many and missing arguments', () => {
    const f = make();
    const call = f as unknown as (...a: unknown[]) => unknown;
    expect(() => call(ef.constant([1]), ef.constant([2]))).toThrow(/too many positional arguments for inputSignature .* \(got 2, expected 1\)/);
    expect(() => call()).toThrow(TypeError);
    expect(() => call()).toThrow(/missing a required argument: 'x'/);
    expect(f.tracingCount).toBe(0);
  });

  test('a failing conversion of a later argument frees the earlier ones', () => {
    const f = ef.trace((a: ef.Tensor, b: ef.Tensor) => ef.add(a, b), { inputSignature: [vec(), vec()] });
    const bad = ef.constant([[1]]);
    const before = mem();
    expect(() => f([1, 2] as unknown as ef.Tensor, bad)).toThrow(/argument 'b'/);
    expect(mem()).toBe(before);
  });
});

describe('inputSignature: getConcreteFunction', () => {
  test('with no arguments, compatible specs, tensors or values: the one concrete function', () => {
    const f = ef.trace((x: ef.Tensor) => ef.negative(x), { inputSignature: [vec()] });
    const cf = f.getConcreteFunction();
    expect(f.getConcreteFunction(new ef.TensorSpec([3]))).toBe(cf);
    expect(f.getConcreteFunction(ef.constant([1, 2]))).toBe(cf);
    expect(f.getConcreteFunction([1, 2])).toBe(cf);
    expect(f.tracingCount).toBe(1);
    expect(cf.inputSignature.map((s) => s.shape.dims)).toEqual([[null]]);
    expect((cf.call(ef.constant([1, 2])) as ef.Tensor).arraySync()).toEqual([-1, -2]);
  });

  test('an incompatible spec: TypeError ".. was expected to be of type .. but is .."', () => {
    const f = ef.trace((x: ef.Tensor) => x, { inputSignature: [new ef.TensorSpec([2])] });
    expect(() => f.getConcreteFunction(new ef.TensorSpec([null]))).toThrow(TypeError);
    expect(() => f.getConcreteFunction(new ef.TensorSpec([null]))).toThrow(/argument 'x' was expected to be of type float32 \(2,\) but is float32 \(None,\)/);
    expect(() => f.getConcreteFunction(new ef.TensorSpec([2], 'int32'))).toThrow(/was expected to be of type float32 .* but is int32/);
    expect(f.tracingCount).toBe(0);
  });

  test('getConcreteFunction with values does not leak their conversions', () => {
    const f = ef.trace((x: ef.Tensor) => x, { inputSignature: [vec()] });
    f.getConcreteFunction();
    const before = mem();
    f.getConcreteFunction([1, 2, 3]);
    expect(mem()).toBe(before);
  });
});

describe('repeat calls (the fast path that skips flattening and conversion) keep every check', () => {
  test('a flat signature: repeated tensors run the one trace; a wrong dtype or shape after them is still a TypeError, nothing leaks', () => {
    const f = ef.trace((x: ef.Tensor, y: ef.Tensor) => ef.add(x, y), { inputSignature: [vec(), vec()] });
    const a = ef.constant([1, 2]);
    const b = ef.constant([10, 20]);
    for (let i = 0; i < 3; i++) {
      const out = f(a, b) as ef.Tensor;
      expect(out.arraySync()).toEqual([11, 22]);
      out.dispose();
    }
    const before = mem();
    const ints = ef.constant([1, 2], 'int32');
    const rank2 = ef.constant([[1, 2]]);
    expect(thrown(() => f(a, ints))).toBeInstanceOf(TypeError);
    expect(thrown(() => f(rank2, b))).toBeInstanceOf(TypeError);
    // Calls the signature allows but the parameter types do not (a missing argument, a JS array).
    const loose = f as unknown as (...args: unknown[]) => unknown;
    expect(thrown(() => loose(a))).toBeInstanceOf(TypeError);
    // A JS array after the repeated tensors is converted to the signature again (and its temporary freed).
    const conv = loose(a, [1, 1]) as ef.Tensor;
    expect(conv.arraySync()).toEqual([2, 3]);
    conv.dispose();
    ints.dispose();
    rank2.dispose();
    expect(mem()).toBe(before);
    expect(f.tracingCount).toBe(1);
  });

  test('a nested signature is rebuilt per call (no fast path): repeated calls give the same results', () => {
    const f = ef.trace((xs: ef.Tensor[]) => ef.add(xs[0], xs[1]), { inputSignature: [[vec(), vec()]] });
    const a = ef.constant([1, 2]);
    for (let i = 0; i < 2; i++) expect((f([a, a]) as ef.Tensor).arraySync()).toEqual([2, 4]);
    expect(thrown(() => f([a, ef.constant([1, 2], 'int32')]))).toBeInstanceOf(TypeError);
    expect(f.tracingCount).toBe(1);
  });
});

describe('repeat calls without a signature', () => {
  test('a weakly typed argument after a strong one of the same dtype and shape gets its own trace (weak outputs)', () => {
    const f = ef.trace((x: ef.Tensor) => ef.add(x, 1));
    const strong = f(ef.constant(2)) as ef.Tensor;
    const weak = f(ef.abs(2)) as ef.Tensor;
    expect([strong.weak, weak.weak]).toEqual([false, true]);
    expect(f.tracingCount).toBe(2);
    // And back: the strong argument hits its own concrete function again.
    expect((f(ef.constant(3)) as ef.Tensor).weak).toBe(false);
    expect(f.tracingCount).toBe(2);
  });
});
