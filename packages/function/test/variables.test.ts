// Variables and traced functions: captured by reference, assigned per call, created on the first trace only.
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

describe('captured variables', () => {
  test('are read by reference: a later assign is seen by the next call (no retrace)', () => {
    const v = new ef.Variable(1);
    const f = ef.trace((x: ef.Tensor) => ef.add(x, v));
    expect(f(ef.constant(1)).item()).toBe(2);
    v.assign(10);
    expect(f(ef.constant(1)).item()).toBe(11);
    v.assignAdd(5);
    expect(f(ef.constant(1)).item()).toBe(16);
    expect(f.tracingCount).toBe(1);
  });

  test('an assign inside the traced function runs at every call, in program order', () => {
    const v = new ef.Variable(0);
    const f = ef.trace(() => {
      const before = v.value();
      v.assignAdd(1);
      const after = v.value();
      v.assign(ef.multiply(after, 2));
      return [before, after];
    });
    const [b1, a1] = f();
    const [b2, a2] = f();
    expect([b1.item(), a1.item(), b2.item(), a2.item()]).toEqual([0, 1, 2, 3]);
    expect(v.value().item()).toBe(6);
    expect(f.tracingCount).toBe(1);
  });

  test('an assign whose result is unused still runs', () => {
    const v = new ef.Variable([1, 2]);
    const f = ef.trace((d: ef.Tensor) => {
      v.assignSub(d);
      return ef.constant(0);
    });
    f(ef.constant([1, 1]));
    f(ef.constant([1, 1]));
    expect(v.value().arraySync()).toEqual([-1, 0]);
  });

  test('assigning a value of the wrong shape fails at trace time with the variable API', () => {
    const v = new ef.Variable([1, 2]);
    const f = ef.trace((x: ef.Tensor) => v.assign(x).value());
    expect(() => f(ef.constant([1, 2, 3]))).toThrow(/^Variable\.assign: shape does not match the variable/);
    expect(v.value().arraySync()).toEqual([1, 2]);
  });
});

describe('creating variables inside a traced function', () => {
  test('allowed on the first trace (the initial value is computed once, eagerly)', () => {
    let v: ef.Variable | null = null;
    const f = ef.trace((x: ef.Tensor) => {
      if (v === null) v = new ef.Variable(ef.add(ef.ones([2]), 1));
      v.assignAdd(ef.reshape(x, [2]));
      return v.value();
    });
    expect(f(ef.constant([1, 1])).arraySync()).toEqual([3, 3]);
    expect(f(ef.constant([1, 1])).arraySync()).toEqual([4, 4]);
    expect(f.tracingCount).toBe(1);
    expect(f(ef.constant([[1, 1]])).arraySync()).toEqual([5, 5]);
    expect(f.tracingCount).toBe(2);
  });

  test('creating one on every call is refused on the first call, as TF (a second trace checks it)', () => {
    const f = ef.trace((x: ef.Tensor) => {
      const v = new ef.Variable(1);
      return ef.add(x, v);
    });
    const caught = thrown(() => f(ef.constant(1)));
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as Error).message).toMatch(
      /^ef\.trace\(traced\): tf\.function only supports singleton Variables created on the first call; creating variables on a non-first call to a traced function is not allowed \(got a new Variable on every call \(the second trace of the first call created one again\), expected variables only on the first trace\)\. Make sure the Variable is only created once/,
    );
    expect(f.tracingCount).toBe(0);
  });

  test('one created once (if (!v)) passes the second trace; a later trace that creates one is refused', () => {
    let v: ef.Variable | null = null;
    let make = true;
    const f = ef.trace((x: ef.Tensor) => {
      if (v === null || make) {
        v = new ef.Variable(1);
        make = false;
      }
      return ef.add(x, v);
    });
    expect(f(ef.constant(1)).item()).toBe(2);
    expect(f.tracingCount).toBe(1);
    make = true;
    expect(() => f(ef.constant([1, 2]))).toThrow(/got a new Variable on trace #2/);
    expect(f(ef.constant(3)).item()).toBe(4);
  });

  test('an initial value that depends on an argument is a clear error', () => {
    const f = ef.trace((x: ef.Tensor) => new ef.Variable(ef.multiply(x, 2)).value());
    expect(() => f(ef.constant(1))).toThrow(/^Variable: the initial value is a symbolic tensor \(got .*, expected an eager value\)\. /);
  });
});

describe('variable arguments and tapes', () => {
  test('a tape around a call differentiates with respect to captured and argument variables', () => {
    const w = new ef.Variable([1, 2]);
    const b = new ef.Variable(0.5);
    const f = ef.trace((v: ef.Variable, x: ef.Tensor) => ef.add(ef.reduceSum(ef.multiply(ef.multiply(v, v), x)), b));
    const tape = new ef.GradientTape();
    const y = tape.record(() => f(w, ef.constant([3, 4])));
    const [gw, gb] = tape.gradient(y, [w, b]);
    expect(gw?.arraySync()).toEqual([6, 16]);
    expect(gb?.item()).toBe(1);
    expect(tape.watchedVariables()).toEqual([w, b]);
  });

  test('a non-trainable variable read inside a traced call is not watched', () => {
    const frozen = new ef.Variable(2, { trainable: false });
    const f = ef.trace((x: ef.Tensor) => ef.multiply(x, frozen));
    const x = ef.constant(3);
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(x);
      return f(x);
    });
    expect(tape.watchedVariables()).toEqual([]);
    expect(tape.gradient(y, [x, frozen]).map((g) => g?.item() ?? null)).toEqual([2, null]);
  });
});
