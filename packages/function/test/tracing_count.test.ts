// Tracing counts (TensorFlow's polymorphic_function / tracing_compilation tests): what retraces and what does not.
import * as ef from 'eagerflow';

const item = (x: unknown): unknown => (x as ef.Tensor).item();
const warn = ef.retraceConfig.warn;
beforeEach(() => {
  ef.retraceConfig.warn = () => undefined;
});
afterEach(() => {
  ef.retraceConfig.warn = warn;
});

describe('tensors: keyed by dtype and shape, never by value', () => {
  test('same dtype and shape: one trace; values do not matter', () => {
    const double = ef.trace((x: ef.Tensor) => ef.add(x, x));
    expect(item(double(ef.constant(1)))).toBe(2);
    expect(item(double(ef.constant(2)))).toBe(4);
    expect(double.tracingCount).toBe(1);
  });

  test('a new dtype retraces (string included)', () => {
    const f = ef.trace((x: ef.Tensor) => ef.identity(x));
    f(ef.constant(1));
    f(ef.constant(1, 'int32'));
    f(ef.constant('a'));
    f(ef.constant(true));
    expect(f.tracingCount).toBe(4);
    f(ef.constant('b'));
    expect(f.tracingCount).toBe(4);
  });

  test('a new shape retraces; a seen shape does not', () => {
    const f = ef.trace((x: ef.Tensor) => ef.reduceSum(x));
    f(ef.constant([1, 2]));
    f(ef.constant([1, 2, 3]));
    f(ef.constant([[1, 2]]));
    f(ef.constant([5, 6]));
    expect(f.tracingCount).toBe(3);
  });

  test('NDArrays are keyed like tensors and fed as graph arguments (mutations are seen)', () => {
    const f = ef.trace((x: ef.Tensor) => ef.multiply(x, 2));
    const a = ef.ndarray([1, 2], [2], 'float32');
    expect(f(a as unknown as ef.Tensor).arraySync()).toEqual([2, 4]);
    a.set(10, 0);
    expect(f(a as unknown as ef.Tensor).arraySync()).toEqual([20, 4]);
    f(ef.constant([7, 8]));
    expect(f.tracingCount).toBe(1);
  });
});

describe('JS values: keyed by value', () => {
  test('numbers, strings, booleans, null and undefined', () => {
    const f = ef.trace((_v: unknown) => ef.constant(0));
    const counts = [1, 1, 2, 'a', 'a', 'b', true, true, false, null, null, undefined, undefined].map((v) => {
      f(v);
      return f.tracingCount;
    });
    expect(counts).toEqual([1, 1, 2, 3, 3, 4, 5, 5, 6, 7, 7, 8, 8]);
  });

  test('the value is baked into the graph', () => {
    const f = ef.trace((x: ef.Tensor, n: number) => ef.multiply(x, n));
    expect(f(ef.constant(2), 3).item()).toBe(6);
    expect(f(ef.constant(2), 4).item()).toBe(8);
    expect(f.tracingCount).toBe(2);
  });

  test('getConcreteFunction: distinct per JS value, shared between tensors of one type', () => {
    const f = ef.trace((x: unknown) => ef.add(x as ef.Tensor, 1));
    expect(f.getConcreteFunction(1)).not.toBe(f.getConcreteFunction(2));
    expect(f.getConcreteFunction(ef.constant(1))).toBe(f.getConcreteFunction(ef.constant(2)));
  });
});

describe('structures: keyed by shape and keys; objects by identity', () => {
  test('[[a], b, c] and [[a, b], c] are different; [[b], c, a] is like the first', () => {
    const f = ef.trace((...args: unknown[]) => ef.constant(args.length));
    const [a, b, c] = [ef.constant(1), ef.constant(2), ef.constant(3)];
    f([a], b, c);
    f([a, b], c);
    expect(f.tracingCount).toBe(2);
    f([b], c, a);
    expect(f.tracingCount).toBe(2);
  });

  test('plain objects by their keys (key order does not matter)', () => {
    const f = ef.trace((o: Record<string, ef.Tensor>) => ef.subtract(o.x, o.y ?? 0));
    const one = ef.constant(1);
    expect(f({ x: ef.constant(5), y: one }).item()).toBe(4);
    expect(f({ y: one, x: ef.constant(7) }).item()).toBe(6);
    expect(f.tracingCount).toBe(1);
    f({ x: one });
    f({ x: one, z: one });
    expect(f.tracingCount).toBe(3);
  });

  test('class instances and functions by identity', () => {
    class Scale {
      constructor(readonly k: number) {}
    }
    const f = ef.trace((s: Scale, x: ef.Tensor) => ef.multiply(x, s.k));
    const s1 = new Scale(2);
    const s2 = new Scale(2);
    f(s1, ef.constant(1));
    f(s1, ef.constant(2));
    expect(f.tracingCount).toBe(1);
    expect(f(s2, ef.constant(1)).item()).toBe(2);
    expect(f.tracingCount).toBe(2);
    const g = ef.trace((fn: (t: ef.Tensor) => ef.Tensor, x: ef.Tensor) => fn(x));
    const neg = (t: ef.Tensor): ef.Tensor => ef.negative(t);
    g(neg, ef.constant(1));
    g(neg, ef.constant(2));
    g((t: ef.Tensor) => ef.negative(t), ef.constant(2));
    expect(g.tracingCount).toBe(2);
  });
});

describe('Variables: keyed by dtype, shape and aliasing pattern', () => {
  test('(x,y,z) 1; (z,y,x) 1; (x,x,z) 2; (y,y,z) 2; (z,y,y) 3', () => {
    const f = ef.trace((a: ef.Variable, b: ef.Variable, c: ef.Variable) => ef.add(ef.add(ef.multiply(a, 100), ef.multiply(b, 10)), c));
    const [x, y, z] = [new ef.Variable(1), new ef.Variable(2), new ef.Variable(3)];
    const calls: [ef.Variable, ef.Variable, ef.Variable][] = [[x, y, z], [z, y, x], [x, x, z], [y, y, z], [z, y, y]];
    const seen = calls.map((args) => [item(f(...args)), f.tracingCount]);
    expect(seen).toEqual([[123, 1], [321, 1], [113, 2], [223, 2], [322, 3]]);
  });

  test('a float then an int variable retraces; so do new shapes', () => {
    const f = ef.trace((v: ef.Variable) => ef.identity(v));
    f(new ef.Variable(1));
    f(new ef.Variable(2));
    expect(f.tracingCount).toBe(1);
    expect(item(f(new ef.Variable(3, { dtype: 'int32' })))).toBe(3);
    expect(f.tracingCount).toBe(2);
    f(new ef.Variable([1, 2]));
    f(new ef.Variable([[1, 2]]));
    expect(f.tracingCount).toBe(4);
  });

  test('a variable argument is read and assigned by reference, per call', () => {
    const bump = ef.trace((v: ef.Variable, d: ef.Tensor) => {
      v.assignAdd(d);
      return v.value();
    });
    const a = new ef.Variable([1, 2]);
    const b = new ef.Variable([10, 20]);
    expect(bump(a, ef.constant([1, 1])).arraySync()).toEqual([2, 3]);
    expect(bump(b, ef.constant([1, 1])).arraySync()).toEqual([11, 21]);
    expect(bump(a, ef.constant([1, 1])).arraySync()).toEqual([3, 4]);
    expect(bump.tracingCount).toBe(1);
    expect(a.value().arraySync()).toEqual([3, 4]);
    expect(b.value().arraySync()).toEqual([11, 21]);
  });

  test('returning a variable argument returns its value', () => {
    const f = ef.trace((v: ef.Variable) => v);
    expect(item(f(new ef.Variable(4)))).toBe(4);
  });
});

describe('reduceRetracing: the most specific common shape', () => {
  test('[] then [1.0] (relaxed to (None,)) then [1.0, 2.0] (reused)', () => {
    const f = ef.trace((x: ef.Tensor) => ef.reduceSum(x), { reduceRetracing: true });
    const counts = [[], [1.0], [1.0, 2.0]].map((v) => {
      f(ef.constant(v));
      return f.tracingCount;
    });
    expect(counts).toEqual([1, 2, 2]);
    expect(f.getConcreteFunction(ef.constant([1, 2, 3])).inputs[0].shape.dims).toEqual([null]);
    expect(f(ef.constant([1, 2, 3, 4])).item()).toBe(10);
  });

  test('a scalar then [1]: the second trace has unknown rank and serves [2] and [3, 4, 5]', () => {
    const f = ef.trace((x: ef.Tensor) => ef.multiply(x, 2), { reduceRetracing: true });
    f(ef.constant(1));
    f(ef.constant([1]));
    f(ef.constant([2, 3]));
    expect(f(ef.constant([3, 4, 5])).arraySync()).toEqual([6, 8, 10]);
    expect(f.tracingCount).toBe(2);
    expect(f.getConcreteFunction(ef.constant([1])).inputs[0].shape.rank).toBeNull();
  });

  test('same rank, differing dims -> null dims; differing rank -> unknown rank', () => {
    const f = ef.trace((x: ef.Tensor) => ef.identity(x), { reduceRetracing: true });
    f(ef.constant([[1, 2]]));
    f(ef.constant([[1, 2], [3, 4]]));
    expect(f.getConcreteFunction(ef.constant([[1, 2], [3, 4]])).inputs[0].shape.dims).toEqual([null, 2]);
    f(ef.constant([[1, 2, 3]]));
    expect(f.getConcreteFunction(ef.constant([[1, 2, 3]])).inputs[0].shape.dims).toEqual([null, null]);
    f(ef.constant([[[1]]]));
    expect(f.getConcreteFunction(ef.constant([[[1]]])).inputs[0].shape.rank).toBeNull();
    expect(f.tracingCount).toBe(4);
  });

  test('JS values are never relaxed: each value has its own chain', () => {
    const f = ef.trace((x: ef.Tensor, _tag: string) => ef.identity(x), { reduceRetracing: true });
    const calls: [number[], string][] = [[[1], 'hi'], [[1, 2], 'hi'], [[1], 'bye'], [[1, 2, 3], 'bye'], [[1, 2, 3, 4], 'hi']];
    const counts = calls.map(([v, s]) => {
      f(ef.constant(v), s);
      return f.tracingCount;
    });
    expect(counts).toEqual([1, 2, 3, 4, 4]);
  });

  test('dtypes are never relaxed', () => {
    const f = ef.trace((x: ef.Tensor) => ef.identity(x), { reduceRetracing: true });
    f(ef.constant([1]));
    f(ef.constant([1, 2], 'int32'));
    expect(f.tracingCount).toBe(2);
    expect(f(ef.constant([1, 2, 3], 'int32')).dtype).toBe('int32');
    expect(f.tracingCount).toBe(3);
  });
});

describe('getConcreteFunction', () => {
  test('tensors and equal TensorSpecs share one cache entry with calls', () => {
    const f = ef.trace((x: ef.Tensor) => ef.multiply(x, 2));
    const z = ef.constant([1, 2]);
    const cf = f.getConcreteFunction(z);
    expect(f.getConcreteFunction(ef.TensorSpec.fromTensor(z))).toBe(cf);
    f(ef.constant([3, 4]));
    expect(f.tracingCount).toBe(1);
    expect((cf.call(ef.constant([5, 6])) as ef.Tensor).arraySync()).toEqual([10, 12]);
  });

  test('a partial TensorSpec gives a graph that serves every matching shape', () => {
    const f = ef.trace((x: ef.Tensor) => ef.reduceSum(x), { name: 'total' });
    const cf = f.getConcreteFunction(new ef.TensorSpec([null], 'float32'));
    expect(cf.inputs[0].shape.dims).toEqual([null]);
    expect(cf.outputs[0].shape.dims).toEqual([]);
    expect(cf.inputSignature.map((s) => [s.shape.dims, s.dtype, s.name])).toEqual([[[null], 'float32', 'x']]);
    expect((cf.call(ef.constant([1, 2, 3])) as ef.Tensor).item()).toBe(6);
    expect(cf.name).toBe('total');
  });

  test('JS values are bound as constants; structuredOutputs mirrors the result (a returned number is a tensor, as TF)', () => {
    const f = ef.trace((x: ef.Tensor, n: number) => ({ scaled: ef.multiply(x, n), n }));
    const cf = f.getConcreteFunction(new ef.TensorSpec([2]), 3);
    const so = cf.structuredOutputs as unknown as { scaled: ef.Tensor; n: ef.Tensor };
    expect(so.n).toBeInstanceOf(ef.Tensor);
    expect(so.scaled.shape.dims).toEqual([2]);
    expect(so.scaled.isSymbolic).toBe(true);
    const out = cf.call(ef.constant([1, 2]), 3) as { scaled: ef.Tensor; n: ef.Tensor };
    expect(out.scaled.arraySync()).toEqual([3, 6]);
    expect(out.n.item()).toBe(3);
  });

  test('a TensorSpec name overrides the parameter name', () => {
    const f = ef.trace((x: ef.Tensor) => ef.negative(x));
    const cf = f.getConcreteFunction(new ef.TensorSpec([2], 'float32', 'kangaroo'));
    expect(cf.graph.toString()).toContain('graph traced(kangaroo: f32[2])');
  });

  test('calling the traced function with a TensorSpec is a TypeError (and traces nothing)', () => {
    const f = ef.trace((x: ef.Tensor) => ef.negative(x));
    expect(() => f(new ef.TensorSpec([2]) as unknown as ef.Tensor)).toThrow(TypeError);
    expect(() => f(new ef.TensorSpec([2]) as unknown as ef.Tensor)).toThrow(/ef\.trace\(traced\): argument 'x' is a TensorSpec \(got .*, expected .*\)\. .*getConcreteFunction/);
    expect(f.tracingCount).toBe(0);
  });
});

describe('JS side effects run once per trace', () => {
  test('pushing to an array and console.log happen at trace time only', () => {
    const state: number[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const f = ef.trace((x: ef.Tensor) => {
        state.push(0);
        console.log('tracing');
        return ef.add(x, 1);
      });
      f(ef.constant(1));
      f(ef.constant(2));
      expect(state).toEqual([0]);
      expect(log).toHaveBeenCalledTimes(1);
      f.pythonFunction(ef.constant(1));
      expect(state).toEqual([0, 0]);
      f(ef.constant([1, 2]));
      expect(state).toEqual([0, 0, 0]);
    } finally {
      log.mockRestore();
    }
  });
});
