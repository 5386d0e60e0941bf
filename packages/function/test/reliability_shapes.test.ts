// Issue 17 §1: shapes from outside the graph's inference (setShape, callbacks, files, call arguments) are checked where they enter; the fused loop checks its inputs.
import * as ef from 'eagerflow';
import { compile, run } from '../src/executor';
import { Graph } from '../src/graph';
import { thrownWithoutLeak } from '../../../test/harness/thrown';

type T = ef.Tensor;
const spec = (shape: (number | null)[] | null): ef.TensorSpec => new ef.TensorSpec(shape);
const count = (): number => ef.memory().numTensors;

/** Calls `f` expecting an InvalidArgumentError whose message has `parts`; checks nothing leaked. */
function expectShapeError(call: () => unknown, ...parts: RegExp[]): ef.errors.InvalidArgumentError {
  const error = thrownWithoutLeak(call, ef.errors.InvalidArgumentError);
  for (const p of parts) expect(error.message).toMatch(p);
  return error;
}

describe('setShape inside a trace is checked at run time (the issue repro and variants)', () => {
  const repro = ef.trace((x: T) => {
    const y = ef.add(x, 1);
    y.setShape([3]);
    return ef.relu(ef.add(ef.multiply(y, 2), ef.constant([0, 0, 0])));
  }, { inputSignature: [spec([null])] });

  test('a shorter value than asserted raises, naming the node and both shapes (was [4, 6, NaN])', () => {
    const x = ef.constant([1, 2]);
    expectShapeError(() => repro(x), /got \[2\], expected \[3\]/, /node: \w+: f32\[3\] = ensure_shape\[dims=\[3\]\]/);
    const ok = ef.constant([1, 2, 3]);
    expect(repro(ok).arraySync()).toEqual([4, 6, 8]);
    ef.dispose([x, ok]);
  });

  test('a longer value is not silently cut, and the function stays usable', () => {
    const x = ef.constant([1, 2, 3, 4]);
    expectShapeError(() => repro(x), /got \[4\], expected \[3\]/);
    const ok = ef.constant([-3, 0, 5]);
    expect(repro(ok).arraySync()).toEqual([0, 2, 12]);
    ef.dispose([x, ok]);
  });

  test.each([
    ['pyFunction returning 2 values', (x: T) => ef.pyFunction((a: T) => ef.slice(a, [0], [2]), [x], 'float32')],
    ['numpyFunction returning a [2, 3] matrix', (x: T) => ef.numpyFunction(() => ef.ndarray([[1, 2, 3], [4, 5, 6]], [2, 3], 'float32'), [x], 'float32')],
    ['numpyFunction returning a scalar', (x: T) => ef.numpyFunction(() => ef.ndarray(7, [], 'float32'), [x], 'float32')],
  ])('a callback whose result is asserted with setShape([3]): %s', (_name, cb) => {
    const f = ef.trace((x: T) => {
      const y = cb(x);
      y.setShape([3]);
      return ef.sigmoid(ef.add(ef.multiply(y, 2), ef.constant([1, 1, 1])));
    }, { inputSignature: [spec([3])] });
    const x = ef.constant([1, 2, 3]);
    expectShapeError(() => f(x), /ensureShape: shape of tensor \[[\d,]*\] is not compatible with expected shape \[3\]/, /ensure_shape/);
    f.dispose();
    x.dispose();
  });

  test('setShape on a graph input with an unknown dim, and on a rank-2 value with a partial shape', () => {
    const f = ef.trace((x: T) => {
      x.setShape([2, 3]);
      return ef.exp(ef.negative(x));
    }, { inputSignature: [spec([null, 3])] });
    const bad = ef.ones([4, 3]);
    expectShapeError(() => f(bad), /got \[4,3\], expected \[2,3\]/);
    const good = ef.zeros([2, 3]);
    expect(f(good).arraySync()).toEqual([[1, 1, 1], [1, 1, 1]]);
    const g = ef.trace((x: T) => {
      const y = ef.numpyFunction((a: ef.NDArray) => a, [x], 'float32');
      y.setShape([null, 3]);
      return ef.multiply(ef.square(y), 3);
    });
    // A partial assertion: only the fixed dim is checked.
    expect(g(good).arraySync()).toEqual([[0, 0, 0], [0, 0, 0]]);
    const wide = ef.ones([2, 4]);
    expectShapeError(() => g(wide), /expected \[\?,3\]/);
    ef.dispose([bad, good, wide]);
    f.dispose();
    g.dispose();
  });

  test('setShape inside a cond branch on a captured outer value checks the outer value', () => {
    const f = ef.trace((x: T, p: T) => {
      const y = ef.numpyFunction((a: ef.NDArray) => a, [x], 'float32');
      return ef.cond(p, () => {
        y.setShape([2]);
        return ef.add(ef.multiply(y, 2), ef.constant([1, 1]));
      }, () => ef.zeros([2]));
    });
    const yes = ef.constant(true);
    const x3 = ef.constant([1, 2, 3]);
    expectShapeError(() => f(x3, yes), /expected \[2\]/);
    const x2 = ef.constant([1, 2]);
    expect(f(x2, yes).arraySync()).toEqual([3, 5]);
    ef.dispose([yes, x3, x2]);
    f.dispose();
  });

  test('the check survives saving and loading, and runs under a GradientTape (replay)', () => {
    const loaded = ef.loadFunction<T>(ef.saveFunction(repro));
    expectShapeError(() => loaded([1, 2]), /expected \[3\]/);
    expect(loaded([1, 2, 3]).arraySync()).toEqual([4, 6, 8]);
    const x = ef.constant([1, 2]);
    const tape = new ef.GradientTape();
    expectShapeError(() => tape.record(() => {
      tape.watch(x);
      return repro(x);
    }), /expected \[3\]/);
    x.dispose();
    loaded.dispose();
  });

  test('a loaded file whose callback claims a static shape ([3] in _output_shapes) is checked against what the callback returns', () => {
    const key = 'test.reliability.identity';
    const k = ef.registerHostFunction(key, (a: ef.NDArray) => a);
    const f = ef.trace((x: T) => ef.add(ef.multiply(ef.numpyFunction(k, [x], 'float32'), 2), ef.constant([1, 1, 1])), { inputSignature: [spec([null])] });
    const saved = ef.saveFunction(f);
    const node = saved.modelTopology.node.find((n) => n.op === key) as { attr: Record<string, unknown> };
    // A hostile (or stale) file: the callback's static shape says [3] whatever it returns.
    node.attr._output_shapes = { list: { shape: [{ dim: [{ size: '3' }] }] } };
    const loaded = ef.loadFunction<T>(saved);
    expect(loaded.concreteFunction.graph.toString()).toMatch(/f32\[3\] = host_callback/);
    expectShapeError(() => loaded([1, 2]), /shape/);
    expect(loaded([1, 2, 3]).arraySync()).toEqual([3, 5, 7]);
    loaded.dispose();
    f.dispose();
    ef.unregisterHostFunction(key);
  });

  test('an async callback awaited by callAsync is checked the same way', async () => {
    const f = ef.trace((x: T) => {
      const y = ef.pyFunction(async (a: T) => ef.concat([a, a], 0), [x], 'float32');
      y.setShape([2]);
      return ef.add(ef.multiply(y, 3), ef.constant([1, 1]));
    });
    const one = ef.constant([2]);
    const two = ef.constant([1, 2]);
    const before = count();
    const y = (await f.callAsync(one)) as T;
    expect(y.arraySync()).toEqual([7, 7]);
    expect(count()).toBe(before + 1);
    await expect(f.callAsync(two)).rejects.toThrow(/got \[4\], expected \[2\]/);
    expect(count()).toBe(before + 1);
    ef.dispose([one, two, y]);
    f.dispose();
  });

  test('a setShape that adds nothing records nothing', () => {
    const f = ef.trace((x: T) => {
      x.setShape([2]);
      const y = ef.add(x, 1);
      y.setShape([null]);
      return y;
    }, { inputSignature: [spec([2])] });
    expect(f.getConcreteFunction().graph.toString()).not.toContain('ensure_shape');
    f.dispose();
  });
});

describe('the check hands values over without copies, and never frees what it does not own', () => {
  test('setShape on an input: a later failure leaves the caller\'s tensor alive; an output is a copy', () => {
    const f = ef.trace((x: T) => {
      x.setShape([2]);
      const y = ef.numpyFunction(() => {
        throw new RangeError('callback failed');
      }, [x], 'float32');
      return ef.add(x, y);
    }, { inputSignature: [spec([null])] });
    const x = ef.constant([1, 2]);
    expectShapeError(() => f(x), /callback failed/);
    expect(x.arraySync()).toEqual([1, 2]);
    const g = ef.trace((v: T) => {
      v.setShape([2]);
      return [v, ef.relu(v)];
    }, { inputSignature: [spec([null])] });
    const [same, r] = g(x) as T[];
    same.dispose();
    expect(x.arraySync()).toEqual([1, 2]);
    expect(r.arraySync()).toEqual([1, 2]);
    r.dispose();
    const before = count();
    for (let i = 0; i < 50; i++) ef.dispose(g(x));
    expect(count()).toBe(before);
    ef.dispose(x);
    f.dispose();
    g.dispose();
  });

  test('a callback result read both before and after its setShape, and twice asserted: right values, no leak', () => {
    const f = ef.trace((x: T) => {
      const y = ef.numpyFunction((a: ef.NDArray) => a, [x], 'float32');
      const before = ef.reduceSum(y);
      y.setShape([null]);
      y.setShape([3]);
      return ef.add(ef.multiply(y, 2), before);
    });
    const x = ef.constant([1, 2, 3]);
    const n = count();
    for (let i = 0; i < 20; i++) {
      const y = f(x);
      expect(y.arraySync()).toEqual([8, 10, 12]);
      y.dispose();
    }
    expect(count()).toBe(n);
    const bad = ef.constant([1, 2]);
    expectShapeError(() => f(bad), /expected \[3\]/);
    ef.dispose([x, bad]);
    f.dispose();
  });
});

describe('shapes of call arguments', () => {
  test('ConcreteFunction.call refuses an argument of another shape (its fused loop trusts the traced shape)', () => {
    const cf = ef.trace((x: T) => ef.relu(ef.add(ef.multiply(x, 2), 1))).getConcreteFunction(spec([3]));
    const short = ef.constant([1, 2]);
    const before = count();
    expect(() => cf.call(short)).toThrow(/^ConcreteFunction \w+: argument x has shape \(2,\) \(got \(2,\), expected a shape compatible with \(3,\)\)/);
    expect(() => cf.call(ef.ones([3, 1]))).toThrow(TypeError);
    expect(count()).toBe(before + 1);
    const ok = ef.constant([1, -2, 3]);
    expect((cf.call(ok) as T).arraySync()).toEqual([3, 0, 7]);
    ef.dispose([short, ok]);
  });
});

describe('the fused cpu loop checks its input shapes', () => {
  test('a graph whose static shape is wrong fails in the fused node instead of reading past the data', () => {
    // Built by hand: value 0 claims [3], the call feeds [2] (what an unchecked entry would do).
    const f = ef.trace((x: T) => ef.relu(ef.add(ef.multiply(x, 2), ef.constant([0, 0, 0]))));
    const cf = f.getConcreteFunction(spec([3]));
    const plan = compile(new Graph(cf.graph.name, cf.graph.values, cf.graph.nodes, cf.graph.inputs, cf.graph.outputs));
    expect(plan.steps.some((s) => s.prim.name === 'fused_elementwise')).toBe(true);
    for (const shape of [[2], [4], [3, 1], [1, 3], []]) {
      const x = ef.ones(shape);
      const error = thrownWithoutLeak(() => run(plan, [x.toTfjs()]), ef.errors.InvalidArgumentError);
      expect(error.message).toMatch(new RegExp(`^mul: input has shape \\[${shape.join(',')}\\] at run time, but the graph was built for its static shape \\[3\\]`));
      expect(error.message).toContain('fused_elementwise[mul,add,relu]');
      x.dispose();
    }
    f.dispose();
  });
});
