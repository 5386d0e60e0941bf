// ef.trace as an API: construction errors, decorators, outputs, and the frequent-retracing warning.
import * as ef from 'eagerflow';

type Traced = ef.TracedFunction;
const tracedOf = (m: unknown): Traced => m as Traced;

describe('construction', () => {
  test('ef.trace(1) is a TypeError: is not a callable object', () => {
    expect(() => ef.trace(1 as never)).toThrow(TypeError);
    expect(() => ef.trace(1 as never)).toThrow(/is not a callable object/);
    expect(() => ef.trace('f' as never)).toThrow(/is not a callable object/);
  });

  test('options must be an object; inputSignature an array of (nested arrays of) TensorSpec', () => {
    const id = (x: ef.Tensor): ef.Tensor => x;
    expect(() => ef.trace(id, 5 as never)).toThrow(/ef\.trace: options must be an object \(got 5, expected .*\)\. Pass e\.g\./);
    expect(() => ef.trace(id, { inputSignature: { x: new ef.TensorSpec([]) } as never })).toThrow(TypeError);
    expect(() => ef.trace(id, { inputSignature: { x: new ef.TensorSpec([]) } as never })).toThrow(/inputSignature must be either an array/);
    expect(() => ef.trace(id, { inputSignature: [[2, 3]] })).toThrow(/inputSignature must be a possibly nested array of TensorSpec \(got 2 inside it, expected TensorSpec leaves\)/);
  });

  test('inputSignature [] means no arguments, one trace', () => {
    const f = ef.trace(() => ef.constant(7), { inputSignature: [] });
    expect(f.inputSignature).toEqual([]);
    expect(f().item()).toBe(7);
    expect(f().item()).toBe(7);
    expect(f.tracingCount).toBe(1);
    expect(() => (f as unknown as (x: number) => unknown)(1)).toThrow(/too many positional arguments/);
  });

  test('name, pythonFunction and a default name from the function', () => {
    function myFn(x: ef.Tensor): ef.Tensor {
      return ef.negative(x);
    }
    expect(ef.trace(myFn).name).toBe('myFn');
    expect(ef.trace(myFn, { name: 'neg' }).name).toBe('neg');
    expect(ef.trace(myFn).pythonFunction).toBe(myFn);
  });
});

describe('calling', () => {
  test('default parameters take part like omitted arguments', () => {
    const f = ef.trace((x: ef.Tensor, k = 3) => ef.multiply(x, k));
    expect(f(ef.constant(2)).item()).toBe(6);
    expect(f(ef.constant(2), 4).item()).toBe(8);
    expect(f.tracingCount).toBe(2);
  });

  test('callAsync runs the same graph', async () => {
    const f = ef.trace((x: ef.Tensor) => ef.add(x, 1));
    expect(f(ef.constant(1)).item()).toBe(2);
    expect(((await f.callAsync(ef.constant(5))) as ef.Tensor).item()).toBe(6);
    expect(f.tracingCount).toBe(1);
  });

  test('an async function is a clear TypeError', () => {
    const f = ef.trace(async (x: ef.Tensor) => ef.add(x, 1));
    expect(() => f(ef.constant(1))).toThrow(/^ef\.trace\(traced\): the function returned a Promise \(got an async function, expected a synchronous one\)\. /);
  });

  test('an exception while tracing propagates unchanged, caches nothing and leaks nothing', () => {
    let fail = true;
    const f = ef.trace((x: ef.Tensor) => {
      const c = ef.constant([1, 2, 3]);
      if (fail) throw new RangeError('boom');
      return ef.add(x, ef.reduceSum(c));
    });
    const x = ef.constant(1);
    const before = ef.memory().numTensors;
    expect(() => f(x)).toThrow(RangeError);
    expect(ef.memory().numTensors).toBe(before);
    expect(f.tracingCount).toBe(0);
    fail = false;
    expect(f(x).item()).toBe(7);
  });

  test('a ConcreteFunction is called with the traced structure, variables included', () => {
    const f = ef.trace((v: ef.Variable, x: ef.Tensor) => ef.add(v, x));
    const cf = f.getConcreteFunction(new ef.Variable(1), new ef.TensorSpec([]));
    expect((cf.call(new ef.Variable(5), ef.constant(1)) as ef.Tensor).item()).toBe(6);
    expect(() => cf.call(ef.constant(1), ef.constant(1))).toThrow(/^ConcreteFunction traced: wrong number of tensor arguments \(got 2, expected 1/);
    expect(() => cf.call(new ef.Variable(5), ef.constant(1, 'int32'))).toThrow(/has dtype int32 \(got int32, expected float32\)/);
  });
});

describe('decorators: @ef.trace and @ef.trace(options) on methods, one cache per instance', () => {
  class Counter {
    calls = 0;
    v: ef.Variable | null = null;
    constructor(readonly k: number) {}

    @ef.trace
    scale(x: ef.Tensor): ef.Tensor {
      this.calls++;
      return ef.multiply(x, this.k);
    }

    @ef.trace({ reduceRetracing: true, name: 'total' })
    sum(x: ef.Tensor): ef.Tensor {
      return ef.reduceSum(x);
    }

    @ef.trace()
    accumulate(x: ef.Tensor): ef.Tensor {
      if (this.v === null) this.v = new ef.Variable(ef.zeros(x.shape.asList() as number[]));
      this.v.assignAdd(x);
      return this.v.value();
    }
  }

  test('per-instance tracingCount and this', () => {
    const a = new Counter(2);
    const b = new Counter(3);
    expect(a.scale(ef.constant(1)).item()).toBe(2);
    expect(a.scale(ef.constant(5)).item()).toBe(10);
    expect(b.scale(ef.constant(1)).item()).toBe(3);
    expect(tracedOf(a.scale).tracingCount).toBe(1);
    expect(tracedOf(b.scale).tracingCount).toBe(1);
    expect([a.calls, b.calls]).toEqual([1, 1]);
    expect(tracedOf(a.scale)).not.toBe(tracedOf(b.scale));
  });

  test('@ef.trace(options) passes the options', () => {
    const a = new Counter(1);
    a.sum(ef.constant([1]));
    a.sum(ef.constant([1, 2]));
    expect(a.sum(ef.constant([1, 2, 3])).item()).toBe(6);
    expect(tracedOf(a.sum).tracingCount).toBe(2);
    expect(tracedOf(a.sum).name).toBe('total');
  });

  test('each instance may create its variables on its own first trace', () => {
    const a = new Counter(1);
    const b = new Counter(1);
    a.accumulate(ef.constant([1, 2]));
    expect(a.accumulate(ef.constant([1, 2])).arraySync()).toEqual([2, 4]);
    expect(b.accumulate(ef.constant([5, 5])).arraySync()).toEqual([5, 5]);
    expect(tracedOf(a.accumulate).tracingCount).toBe(1);
  });

  test('private and static methods', () => {
    class P {
      static base = 10;
      @ef.trace
      static shift(x: ef.Tensor): ef.Tensor {
        return ef.add(x, P.base);
      }
      @ef.trace
      #double(x: ef.Tensor): ef.Tensor {
        return ef.multiply(x, 2);
      }
      run(x: ef.Tensor): ef.Tensor {
        return this.#double(x);
      }
    }
    expect(P.shift(ef.constant(1)).item()).toBe(11);
    expect(new P().run(ef.constant(4)).item()).toBe(8);
    expect(Object.keys(new P())).toEqual([]);
  });
});

describe('outputs', () => {
  test('a function returning undefined returns undefined (no outputs)', () => {
    const f = ef.trace((x: ef.Tensor) => {
      ef.add(x, 1);
    });
    expect(f(ef.constant(1))).toBeUndefined();
    const cf = f.getConcreteFunction(ef.constant(1));
    expect(cf.outputs).toEqual([]);
    expect(cf.structuredOutputs).toBeUndefined();
  });

  test('nested structures with JS values keep their shape, keys and key order (numbers and strings become tensors, as TF)', () => {
    const f = ef.trace((x: ef.Tensor) => ({ z: [x, ef.add(x, 1)], a: { n: 3, s: 'hi', none: null, t: ef.reshape(x, [1, 1]) } }));
    const out = f(ef.constant(2));
    expect(Object.keys(out)).toEqual(['z', 'a']);
    expect(out.z.map((t) => t.item())).toEqual([2, 3]);
    expect((out.a.n as unknown as ef.Tensor).item()).toBe(3);
    expect((out.a.s as unknown as ef.Tensor).item()).toBe('hi');
    expect(out.a.none).toBeNull();
    expect(out.a.t.arraySync()).toEqual([[2]]);
    const so = f.getConcreteFunction(ef.constant(2)).structuredOutputs as typeof out;
    expect(so.a.t.shape.dims).toEqual([1, 1]);
    expect(so.z[1].shape.dims).toEqual([]);
  });

  test('outputs list follows sorted keys (like tf.nest) with matching static shapes', () => {
    const f = ef.trace((x: ef.Tensor) => ({ b: ef.multiply(x, 2), a: ef.reshape(x, [1, 2]) }));
    const cf = f.getConcreteFunction(ef.constant([1, 2]));
    expect(cf.outputs.map((t) => t.shape.dims)).toEqual([[1, 2], [2]]);
    const out = f(ef.constant([1, 2]));
    expect(out.a.arraySync()).toEqual([[1, 2]]);
    expect(out.b.arraySync()).toEqual([2, 4]);
  });

  test('returned inputs, captured constants and repeats are tensors the caller owns', () => {
    const c = ef.constant(5);
    const f = ef.trace((x: ef.Tensor) => [x, x, c]);
    const x = ef.constant(1);
    const [a, b, k] = f(x);
    expect([a === x, a === b, k === c]).toEqual([false, false, false]);
    a.dispose();
    b.dispose();
    k.dispose();
    expect(x.item()).toBe(1);
    expect(c.item()).toBe(5);
  });

  test('a returned captured Variable is read at call time', () => {
    const v = new ef.Variable(1);
    const f = ef.trace(() => v);
    expect(item(f())).toBe(1);
    v.assign(2);
    expect(item(f())).toBe(2);
  });
});

function item(x: unknown): unknown {
  return (x as ef.Tensor).item();
}

describe('the frequent-retracing warning', () => {
  let messages: string[];
  const warn = ef.retraceConfig.warn;
  beforeEach(() => {
    messages = [];
    ef.retraceConfig.warn = (m) => messages.push(m);
  });
  afterEach(() => {
    ef.retraceConfig.warn = warn;
  });

  test('warns when 5 of the last 10 calls traced, at most twice', () => {
    const f = ef.trace((n: number) => ef.constant(n + 0.5), { name: 'byValue' });
    for (let i = 0; i < 4; i++) f(i);
    expect(messages).toEqual([]);
    f(4);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^5 out of the last 5 calls to byValue triggered ef\.trace retracing\. Tracing is expensive/);
    expect(messages[0]).toContain('reduceRetracing: true');
    for (let i = 5; i < 20; i++) f(i);
    expect(messages).toHaveLength(2);
  });

  test('calls served from the cache do not count', () => {
    const f = ef.trace((x: ef.Tensor) => ef.sqrt(x));
    for (let i = 1; i <= 4; i++) {
      f(ef.zeros([i]));
      for (let k = 0; k < 3; k++) f(ef.zeros([i]));
    }
    f(ef.zeros([9]));
    expect(messages).toEqual([]);
  });

  test('re-creating the traced function in a loop shares the counter', () => {
    const make = () => ef.trace((x: ef.Tensor) => ef.cosh(ef.multiply(x, 3)));
    for (let i = 0; i < 5; i++) make()(ef.constant(1));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^5 out of the last 5 calls to traced/);
  });

  test('nested traced calls made while tracing are not counted', () => {
    const inner = ef.trace((x: ef.Tensor) => ef.sinh(x));
    const outer = ef.trace((x: ef.Tensor, _n: number) => inner(ef.reshape(x, [-1])));
    for (let i = 1; i <= 4; i++) outer(ef.zeros([i, 1]), i);
    expect(inner.tracingCount).toBe(4);
    expect(messages).toEqual([]);
  });
});
