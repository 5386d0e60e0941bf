// GradientTape basics ported from TensorFlow's backprop_test.py (BackpropTest), with TensorFlow's numbers.
import * as ef from 'eagerflow';
import { captureWarnings, noLeak, taped, val } from './tape_helpers';

const warn = captureWarnings();

describe('targets and sources', () => {
  test('testTapeNoOpGradient / testTapeIdentityGradientIsIdentity: y = x and identity give 1', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const [t1, y1] = taped(x, () => x);
      expect(val(t1.gradient(y1, x))).toBe(1);
      const [t2, y2] = taped(x, () => ef.identity(x));
      expect(val(t2.gradient(y2, x))).toBe(1);
    }));

  test('testTwoTargets: gradient([2x, 3y], [x, y]) = [2, 3]', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const y = ef.constant(2);
      const [t, [xx, yy]] = taped([x, y], () => [ef.multiply(2, x), ef.multiply(3, y)]);
      expect(t.gradient([xx, yy], [x, y]).map(val)).toEqual([2, 3]);
    }));

  test('testOutputGradUsedInComputation: gradient([x*y, x], [x], outputGradients [1, 2]) at x=3, y=2 is 4', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const y = ef.constant(2);
      const [t, loss] = taped([x, y], () => ef.multiply(x, y));
      const [dx] = t.gradient([loss, x], [x], { outputGradients: [1, 2] });
      expect(val(dx)).toBe(4);
    }));

  test('testDy: an output gradient scales the result (and is never handed back as the gradient itself)', () =>
    noLeak(() => {
      const x = ef.constant(1);
      const dy = ef.constant(2);
      const [t, y] = taped(x, () => x);
      const g = t.gradient(y, x, { outputGradients: dy }) as ef.Tensor;
      expect(val(g)).toBe(2);
      expect(g).not.toBe(dy);
    }));

  test('testTapeGradientMultiTargetOneIsSource: gradient([x, x*x], x) at 2 is 5', () =>
    noLeak(() => {
      const x = ef.constant(2);
      const [t, y] = taped(x, () => ef.multiply(x, x));
      expect(val(t.gradient([x, y], x))).toBe(5);
    }));

  test('testTapeNoOpGradientWithMultiTargetAllSource: gradient([y, y], x) with y = x is 2', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const [t, y] = taped(x, () => x);
      expect(val(t.gradient([y, y], x))).toBe(2);
    }));

  test('testTapeNoOpGradientWithMultiTargetMultiSource: gradient([x, y, y*y], [x, y]) = [1, 11]', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const y = ef.constant(5);
      const [t, z] = taped([x, y], () => ef.multiply(y, y));
      expect(t.gradient([x, y, z], [x, y]).map(val)).toEqual([1, 11]);
    }));

  test('testNestedGradients: z = (x*x)^2 at 3 gives dz/dx = 108 and dz/dy = 18', () =>
    noLeak(() => {
      const x = ef.constant(3);
      let y: ef.Tensor | null = null;
      const [t, z] = taped(x, () => {
        y = ef.multiply(x, x);
        return ef.multiply(y, y);
      });
      expect(t.gradient(z, [x, y as unknown as ef.Tensor]).map(val)).toEqual([108, 18]);
    }));

  test('testDifferentiatingScalarCache: two equal constants are different sources', () =>
    noLeak(() => {
      const x1 = ef.constant(3);
      const x2 = ef.constant(3);
      const [t, y] = taped([x1, x2], () => ef.add(x1, x2));
      expect(t.gradient(y, [x1]).map(val)).toEqual([1]);
    }));

  test('testNoOpBehaviorConsistent: identity, +0, -0 and *1 copies are separate sources', () =>
    noLeak(() => {
      const x = ef.constant(10);
      const xs = [x, ef.identity(x), ef.add(x, 0), ef.subtract(x, 0), ef.multiply(x, 1)];
      const [t, loss] = taped(xs, () => xs.map((v, i) => ef.multiply(v, i === 0 ? 2 : 3)).reduce((a, b) => ef.add(a, b)));
      expect(t.gradient(loss, xs).map(val)).toEqual([2, 3, 3, 3, 3]);
    }));

  test('testZerosCacheDoesntLeakAcrossGraphs: slice, pow and concat with a constant', () =>
    noLeak(() => {
      const c = ef.constant(1, 'float32', [10, 4]);
      const x = ef.constant(2, 'float32', [10, 4]);
      const [t, y] = taped(x, () => ef.concat([ef.pow(ef.slice(x, [0, 0], [10, 2]), 2), c], 1));
      expect(val(t.gradient(y, x))).toEqual(new Array(10).fill([4, 4, 0, 0]));
    }));

  test('testGradientNone: softmax cross-entropy gradient is softmax - labels', () =>
    noLeak(() => {
      const logits = ef.constant([[0, 0]]);
      const labels = ef.constant([[1, 0]]);
      const [t, loss] = taped(logits, () => ef.reduceMean(ef.negative(ef.reduceSum(ef.multiply(labels, ef.log(ef.softmax(logits))), 1)), [0]));
      expect(val(t.gradient(loss, logits))).toEqual([[-0.5, 0.5]]);
    }));
});

describe('structured and repeated sources', () => {
  test('testGradientTapeRepeatedSource: sources [x, x] give [2, 2] as two distinct tensors', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const [t, y] = taped(x, () => ef.multiply(2, x));
      const g = t.gradient(y, [x, x]);
      expect(g.map(val)).toEqual([2, 2]);
      expect(g[0]).not.toBe(g[1]);
    }));

  test('testPersistentGradientTapeRepeatedSource: [11, 11] then [3, 11]', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const y = ef.constant(5);
      const [t, z] = taped([x, y], () => ef.add(ef.multiply(x, x), ef.multiply(x, y)), { persistent: true });
      expect(t.gradient(z, [x, x]).map(val)).toEqual([11, 11]);
      expect(t.gradient(z, [y, x]).map(val)).toEqual([3, 11]);
      t.dispose();
    }));

  test('testGradientTapeStructure: the result mirrors arrays, objects and nesting', () =>
    noLeak(() => {
      const [x1, x2, x3] = [ef.constant(3), ef.constant(3.1), ef.constant(3.2)];
      const [g, y] = taped([x1, x2, x3], () => ef.add(ef.add(x1, ef.multiply(2, x2)), ef.multiply(3, x3)), { persistent: true });
      const values = (s: unknown): unknown => (s instanceof ef.Tensor ? s.item() : Array.isArray(s) ? s.map(values) : Object.fromEntries(Object.entries(s as object).map(([k, v]) => [k, values(v)])));
      expect(values(g.gradient(y, x1))).toBe(1);
      expect(values(g.gradient(y, [x1]))).toEqual([1]);
      expect(values(g.gradient(y, [x1, x2]))).toEqual([1, 2]);
      expect(values(g.gradient(y, [[x1, x2], [x2, x3]]))).toEqual([[1, 2], [2, 3]]);
      expect(values(g.gradient(y, [x1, x2, [x1, x3]]))).toEqual([1, 2, [1, 3]]);
      expect(values(g.gradient(y, [x1, { x2, x3 }]))).toEqual([1, { x2: 2, x3: 3 }]);
      const obj = g.gradient(y, { b: x2, a: { c: x3, d: [x1] } });
      expect(Object.keys(obj)).toEqual(['b', 'a']);
      expect(values(obj)).toEqual({ b: 2, a: { c: 3, d: [1] } });
      g.dispose();
    }));

  test('outputGradients mirror a structured target', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const [t, ys] = taped(x, () => ({ sq: ef.multiply(x, x), lin: [ef.multiply(x, 2)] }), { persistent: true });
      expect(val(t.gradient(ys, x, { outputGradients: { sq: 1, lin: [10] } }))).toBe(26);
      expect(val(t.gradient(ys, x, { outputGradients: { sq: null, lin: [null] } }))).toBe(8);
      expect(() => t.gradient(ys, x, { outputGradients: [1, 2] })).toThrow(/outputGradients must mirror the structure of target/);
      expect(() => t.gradient([ys.sq], x, { outputGradients: [[1, 2]] })).toThrow(/outputGradients\[0\] has the wrong shape \(got \(2,\), expected \(\)/);
      t.dispose();
    }));
});

describe('unconnected, integer and string sources', () => {
  test('testUnconnectedGradientsDefault: null', () =>
    noLeak(() => {
      const x = ef.constant(1);
      const y = ef.constant(3);
      const [t, z] = taped([x, y], () => ef.multiply(y, 2));
      expect(t.gradient(z, x)).toBeNull();
    }));

  test("testUnconnectedGradientsZeros: zeros of the source's shape with 'zero'", () =>
    noLeak(() => {
      const x = ef.constant(1, 'float32', [2, 2]);
      const y = ef.constant(3);
      const [t, z] = taped([x, y], () => ef.multiply(y, 2));
      expect(val(t.gradient(z, x, { unconnectedGradients: 'zero' }))).toEqual([[0, 0], [0, 0]]);
    }));

  test("testUnconnectedGradientsVariablesZeros: variables get zeros with 'zero'", () => {
    const x = new ef.Variable(ef.constant(1, 'float32', [2, 2]));
    const y = new ef.Variable(3);
    noLeak(() => {
      const [t, z] = taped([x, y], () => ef.multiply(y, 2));
      expect(val(t.gradient(z, x, { unconnectedGradients: 'zero' }))).toEqual([[0, 0], [0, 0]]);
    });
    [x, y].forEach((v) => v.dispose());
  });

  test("testUnknownUnconnectedGradientsValueGiven: any other value throws", () =>
    noLeak(() => {
      const x = ef.constant(1);
      const y = ef.constant(1);
      const [t, z] = taped([x, y], () => ef.multiply(y, 2));
      const bad = { unconnectedGradients: 'nonsense' as unknown as ef.UnconnectedGradients };
      expect(() => t.gradient(z, x, bad)).toThrow("GradientTape.gradient: Unknown value for unconnectedGradients: 'nonsense'");
      expect(val(t.gradient(z, y))).toBe(2); // the failed call did not consume the tape
    }));

  test('testUnconnectedGradientsNestedDefunZeros: stopGradient gives zero with \'zero\'', () =>
    noLeak(() => {
      const x = ef.constant(1);
      const [t, y] = taped(x, () => ef.stopGradient(ef.multiply(ef.add(x, 2), ef.add(x, 2))));
      expect(val(t.gradient(y, x, { unconnectedGradients: 'zero' }))).toBe(0);
    }));

  test('testGadientTapeCalledOnConstantTarget: variables created inside give null', () => {
    const before = ef.memory().numTensors;
    const t = new ef.GradientTape();
    const vs = t.record(() => [new ef.Variable([3]), new ef.Variable([2])]);
    expect(t.gradient(vs[0], vs[1])).toBeNull();
    vs.forEach((v) => v.dispose());
    expect(ef.memory().numTensors).toBe(before);
  });

  test('testGradientInteger: integer sources give null, also with \'zero\'', () =>
    noLeak(() => {
      const i = ef.constant(1, 'int32');
      const [t, y] = taped(i, () => ef.add(i, i), { persistent: true });
      expect(t.gradient(y, i)).toBeNull();
      expect(t.gradient(y, i, { unconnectedGradients: 'zero' })).toBeNull();
      t.dispose();
    }));

  test('testTapeGradientStringTarget and friends: string targets and sources give null', () =>
    noLeak(() => {
      const s = ef.constant('unknown');
      const x = ef.constant(3);
      const y = ef.constant(5);
      const [t1] = taped([x, s], () => null);
      expect(t1.gradient(s, x)).toBeNull();
      const [t2] = taped(s, () => null);
      expect(t2.gradient(s, s)).toBeNull();
      const [t3, z] = taped([x, y, s], () => ef.multiply(y, y));
      expect(t3.gradient([x, y, z, s], [x, y, s]).map(val)).toEqual([1, 11, null]);
    }));

  test('watching an int tensor warns like TensorFlow (and its gradient is null)', () =>
    noLeak(() => {
      const i = ef.constant([1, 2], 'int32');
      const [t, y] = taped(i, () => ef.cast(i, 'float32'));
      expect(warn()).toHaveBeenCalledWith(expect.stringContaining('The dtype of the watched tensor must be floating (got int32, expected float32)'));
      expect(t.gradient(y, i)).toBeNull();
    }));

  test('testWatchBadThing: watching an NDArray throws mentioning ndarray; numbers and tfjs tensors throw too', () => {
    const t = new ef.GradientTape();
    expect(() => t.watch(ef.ndarray([1]))).toThrow(/ndarray/);
    expect(() => t.watch([1, 2])).toThrow(/GradientTape.watch: `x` must contain only Tensors or Variables \(got 1/);
    const raw = ef.internal.backend.tfjs.scalar(1);
    expect(() => t.watch(raw)).toThrow(/tfjs Tensor/);
    raw.dispose();
  });

  test('a null target throws like TensorFlow', () => {
    const t = new ef.GradientTape();
    expect(() => t.gradient(null, ef.constant(1))).toThrow(/Argument `target` should be a Tensor.*but received null/);
  });
});

describe('stopGradient and non-differentiable ops', () => {
  test('testStopGradient / testArgmax: stopGradient(argMax(x)) gives null', () =>
    noLeak(() => {
      expect(ef.grad((x) => ef.stopGradient(ef.argMax(x)))(ef.constant([0]))).toBeNull();
    }));

  test('testWhereGradient: where(x < 10, x, x*x) gives 1 at 5 and 100 at 50', () =>
    noLeak(() => {
      const g = ef.grad((x) => ef.where(ef.less(x, 10), x, ef.multiply(x, x)));
      expect(val(g(5))).toBe(1);
      expect(val(g(50))).toBe(100);
    }));

  test('stopGradient cuts one path but not the other', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const [t, y] = taped(x, () => ef.add(ef.multiply(x, x), ef.stopGradient(ef.multiply(x, x))), { persistent: true });
      expect(val(t.gradient(y, x))).toBe(6);
      const [t2, z] = taped(x, () => ef.stopGradient(ef.multiply(x, 2)));
      expect(t2.gradient(z, x)).toBeNull();
      t.dispose();
    }));
});
