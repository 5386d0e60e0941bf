// ef.cond and ef.whileLoop: eager and traced (one trace for every branch and count), errors, stateful bodies, memory.
import * as ef from 'eagerflow';

type T = ef.Tensor;
const mem = (): number => ef.memory().numTensors;

describe('ef.cond eagerly', () => {
  test('a bool tensor or a JS boolean picks a branch; only that branch runs', () => {
    const ran: string[] = [];
    const pick = (p: ef.Tensor | boolean): unknown =>
      ef.cond(p, () => (ran.push('t'), ef.constant(1)), () => (ran.push('f'), ef.constant(2)));
    expect((pick(ef.constant(true)) as T).item()).toBe(1);
    expect((pick(ef.less(3, 2)) as T).item()).toBe(2);
    expect((pick(true) as T).item()).toBe(1);
    expect(ran).toEqual(['t', 'f', 't']);
  });

  test('bad predicates and branches', () => {
    expect(() => ef.cond(ef.constant(1), () => 1, () => 2)).toThrow(ef.errors.InvalidArgumentError);
    expect(() => ef.cond(ef.constant(1), () => 1, () => 2)).toThrow(/^cond: pred must be a bool tensor \(got float32, expected bool\)\. /);
    expect(() => ef.cond(ef.constant([true, false]), () => 1, () => 2)).toThrow(/^cond: the predicate must be a scalar \(got shape \[2\], expected a scalar bool\)\. /);
    expect(() => ef.cond(true, 1 as never, () => 2)).toThrow(TypeError);
    expect(() => ef.cond(true, 1 as never, () => 2)).toThrow(/^cond: trueFn and falseFn must be functions \(got 1 and .*, expected two functions\)\. /);
  });
});

describe('ef.cond traced', () => {
  test('one trace serves both branches', () => {
    const f = ef.trace((x: T) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.multiply(x, 2), () => ef.negative(x)) as T);
    expect(f(ef.constant([1, 2])).arraySync()).toEqual([2, 4]);
    expect(f(ef.constant([-1, -2])).arraySync()).toEqual([1, 2]);
    expect(f.tracingCount).toBe(1);
  });

  test('branches return matching structures (objects, arrays, numbers); shapes merge', () => {
    const f = ef.trace((x: T) =>
      ef.cond(ef.greater(ef.reduceSum(x), 0), () => ({ b: x, a: [1, ef.reduceSum(x)] }), () => ({ b: ef.concat([x, x], 0), a: [2, ef.constant(0)] })),
    );
    const pos = f(ef.constant([1, 2])) as { b: T; a: T[] };
    const neg = f(ef.constant([-1, -2])) as { b: T; a: T[] };
    expect(Object.keys(pos)).toEqual(['b', 'a']);
    expect([pos.b.arraySync(), pos.a[0].item(), pos.a[1].item()]).toEqual([[1, 2], 1, 3]);
    expect([neg.b.arraySync(), neg.a[0].item(), neg.a[1].item()]).toEqual([[-1, -2, -1, -2], 2, 0]);
    const so = f.getConcreteFunction(ef.constant([1, 2])).structuredOutputs as { b: T };
    expect(so.b.shape.dims).toEqual([null]);
  });

  test('mismatched structures or dtypes and non-scalar predicates fail at trace time', () => {
    const structure = ef.trace((x: T) => ef.cond(ef.greater(x, 0), () => [x, x], () => x as unknown as T[]));
    expect(() => structure(ef.constant(1))).toThrow(/^cond: trueFn and falseFn must return the same structure \(got \["T","T"\] and "T", expected equal structures\)\. /);
    const dtype = ef.trace((x: T) => ef.cond(ef.greater(x, 0), () => x, () => ef.cast(x, 'int32')));
    expect(() => dtype(ef.constant(1))).toThrow(/^cond: output 0 has different dtypes in the branches \(got float32 from trueFn and int32 from falseFn, expected equal dtypes\)\. /);
    const vector = ef.trace((x: T) => ef.cond(ef.greater(x, 0), () => x, () => x));
    expect(() => vector(ef.constant([1, 2]))).toThrow(/^cond: the predicate must be a scalar \(got shape \(2,\), expected a scalar bool\)\. /);
    expect(structure.tracingCount + dtype.tracingCount + vector.tracingCount).toBe(0);
  });

  test('stateful ops in a branch run only when that branch is taken; branches may return nothing', () => {
    const v = new ef.Variable(0);
    const lines: string[] = [];
    const write = ef.internal.printOutput.write;
    ef.internal.printOutput.write = (l) => lines.push(l);
    try {
      const f = ef.trace((x: T) => {
        ef.cond(ef.greater(x, 0), () => {
          v.assignAdd(x);
          ef.print('pos', x);
        }, () => undefined);
        return ef.identity(x);
      });
      for (const x of [1, -1, 2, -5]) f(ef.constant(x));
      expect(v.value().item()).toBe(3);
      expect(lines).toEqual(['pos 1', 'pos 2']);
      expect(f.tracingCount).toBe(1);
    } finally {
      ef.internal.printOutput.write = write;
    }
  });
});

describe('ef.whileLoop eagerly', () => {
  test('loops while condFn holds, up to maximumIterations; condFn may return a JS boolean', () => {
    const count = (max?: number): unknown => ef.whileLoop((i: T) => ef.less(i, 5), (i: T) => [ef.add(i, 1)], [ef.constant(0)], { maximumIterations: max })[0].item();
    expect(count()).toBe(5);
    expect(count(3)).toBe(3);
    expect(count(0)).toBe(0);
    let k = 0;
    expect(ef.whileLoop(() => k++ < 3, (i: T) => [ef.add(i, 1)], [ef.constant(0)])[0].item()).toBe(3);
  });

  test('errors: body arity and dtype, condFn result, maximumIterations', () => {
    const one = [ef.constant(0)];
    expect(() => ef.whileLoop((i: T) => ef.less(i, 3), (i: T) => [ef.add(i, 1), i], one)).toThrow(/^whileLoop: bodyFn must return an array of 1 loop variables \(got array of length 2, expected an array of length 1\)\. /);
    expect(() => ef.whileLoop((i: T) => ef.less(i, 3), (i: T) => [ef.cast(i, 'int32')], one)).toThrow(/^whileLoop: loop variable 0 changed dtype \(got int32, expected float32\)\. /);
    expect(() => ef.whileLoop((i: T) => i, (i: T) => [i], one)).toThrow(ef.errors.InvalidArgumentError);
    expect(() => ef.whileLoop((i: T) => ef.less(i, 3), (i: T) => [i], one, { maximumIterations: -1 })).toThrow(/^whileLoop: maximumIterations must be a non-negative integer \(got -1, expected an integer >= 0 or null\)\. /);
  });

  test('leaks nothing: loop-made values are freed, user tensors are never disposed', () => {
    const start = ef.constant(0);
    const step = ef.constant(2);
    const before = mem();
    const [i, s] = ef.whileLoop((a: T) => ef.less(a, 5), (a: T, b: T) => [ef.add(a, 1), ef.add(b, step)], [start, 10]);
    expect([i.item(), s.item()]).toEqual([5, 20]);
    ef.dispose([i, s]);
    expect(mem()).toBe(before);
    const [same] = ef.whileLoop(() => false, (a: T) => [a], [start]);
    expect(same).not.toBe(start);
    same.dispose();
    expect([start.item(), step.item(), mem()]).toEqual([0, 2, before]);
  });
});

describe('ef.whileLoop traced', () => {
  test('one trace serves every iteration count, including zero', () => {
    const f = ef.trace((n: T) => ef.whileLoop((i: T) => ef.less(i, n), (i: T, a: T) => [ef.add(i, 1), ef.multiply(a, 2)], [ef.constant(0, 'int32'), ef.constant(1)])[1]);
    expect([0, 1, 5].map((n) => f(ef.constant(n, 'int32')).item())).toEqual([1, 2, 32]);
    expect(f.tracingCount).toBe(1);
  });

  test('maximumIterations bounds the traced loop', () => {
    const f = ef.trace((n: T) => ef.whileLoop((i: T) => ef.less(i, n), (i: T) => [ef.add(i, 1)], [ef.constant(0)], { maximumIterations: 3 })[0]);
    expect(f(ef.constant(10)).item()).toBe(3);
    expect(f(ef.constant(2)).item()).toBe(2);
    expect(f.tracingCount).toBe(1);
  });

  test('loop variables that change shape are relaxed (unknown dims)', () => {
    const grow = ef.trace((n: T) =>
      ef.whileLoop((i: T) => ef.less(i, n), (i: T, s: T) => [ef.add(i, 1), ef.concat([s, ef.reshape(ef.cast(i, 'float32'), [1])], 0)], [ef.constant(0, 'int32'), ef.zeros([0])])[1],
    );
    expect(grow(ef.constant(3, 'int32')).arraySync()).toEqual([0, 1, 2]);
    expect(grow(ef.constant(0, 'int32')).arraySync()).toEqual([]);
    expect(grow.getConcreteFunction(ef.constant(1, 'int32')).outputs[0].shape.dims).toEqual([null]);
    const double = ef.trace((n: T) => ef.whileLoop((i: T) => ef.less(i, n), (i: T, m: T) => [ef.add(i, 1), ef.concat([m, m], 0)], [ef.constant(0), ef.ones([1, 2])])[1]);
    expect(double(ef.constant(2)).shape.dims).toEqual([4, 2]);
    expect(double.getConcreteFunction(ef.constant(1)).outputs[0].shape.dims).toEqual([null, 2]);
    expect(grow.tracingCount + double.tracingCount).toBe(2);
  });

  test('errors at trace time: dtype changes and non-bool conditions', () => {
    const dtype = ef.trace((x: T) => ef.whileLoop((i: T) => ef.less(i, 3), (i: T) => [ef.cast(i, 'int32')], [x]));
    expect(() => dtype(ef.constant(0))).toThrow(/^whileLoop: loop variable 0 changed dtype \(got int32, expected float32\)/);
    const notBool = ef.trace((x: T) => ef.whileLoop((i: T) => i, (i: T) => [ef.add(i, 1)], [x]));
    expect(() => notBool(ef.constant(0))).toThrow(/^whileLoop: condFn must return a scalar bool tensor \(got a float32 tensor of shape \(\), expected a scalar bool\)\. /);
  });

  test('stateful bodies run once per iteration; a cond inside a loop body', () => {
    const v = new ef.Variable(0);
    const f = ef.trace((n: T) => {
      const [, s] = ef.whileLoop((i: T) => ef.less(i, n), (i: T, acc: T) => {
        v.assignAdd(1);
        return [ef.add(i, 1), ef.add(acc, ef.cond(ef.equal(i, 2), () => ef.constant(100), () => i) as T)];
      }, [ef.constant(0), ef.constant(0)]);
      return s;
    });
    expect(f(ef.constant(4)).item()).toBe(104);
    expect(f(ef.constant(2)).item()).toBe(1);
    expect(v.value().item()).toBe(6);
    expect(f.tracingCount).toBe(1);
  });
});
