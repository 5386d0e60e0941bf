// customGradient, grad, valueAndGrad and recordOperation, ported from TensorFlow's backprop_test.py.
import * as ef from 'eagerflow';
import { captureWarnings, noLeak, taped, val } from './tape_helpers';

captureWarnings();

describe('customGradient', () => {
  test('testCustomGradientInEagerAndGraph: the tape uses grad (4), not the ops f ran (2x)', () =>
    noLeak(() => {
      const f = ef.customGradient((x) => ({ value: ef.multiply(x, x), grad: (dy) => [ef.multiply(4, dy)] }));
      const c = ef.constant(1);
      const t = new ef.GradientTape();
      const g = t.record(() => (t.watch(c), f(c) as ef.Tensor));
      expect(val(g)).toBe(1);
      expect(val(t.gradient(g, c))).toBe(4);
    }));

  test('testCustomGradientIdentity: f returning its input as the value still gets its own gradient (2)', () =>
    noLeak(() => {
      const myIdentity = ef.customGradient((x) => ({ value: x, grad: (dr) => ef.multiply(2, dr) }));
      const x = ef.constant(1);
      expect(val(ef.grad((v) => myIdentity(v) as ef.Tensor)(x))).toBe(2);
      const y = myIdentity(x) as ef.Tensor;
      expect(y).not.toBe(x); // a copy, like TensorFlow's identity on custom_gradient outputs
      y.dispose();
      expect(x.isDisposed).toBe(false);
    }));

  test('multiple inputs and outputs: grad gets one cotangent per output (zeros where unused)', () =>
    noLeak(() => {
      const seen: number[][] = [];
      const f = ef.customGradient((a, b) => ({
        value: [ef.add(a, b), ef.multiply(a, b)],
        grad: (d0, d1) => {
          seen.push([d0.item() as number, d1.item() as number]);
          return [ef.add(d0, ef.multiply(d1, b)), ef.add(d0, ef.multiply(d1, a))];
        },
      }));
      const a = ef.constant(3);
      const b = ef.constant(5);
      const t = new ef.GradientTape({ persistent: true });
      const [s, p] = t.record(() => (t.watch([a, b]), f(a, b) as ef.Tensor[]));
      expect(t.gradient(p, [a, b]).map(val)).toEqual([5, 3]);
      expect(t.gradient([s, p], [a, b]).map(val)).toEqual([6, 4]);
      expect(seen).toEqual([[0, 1], [1, 1]]);
      t.dispose();
    }));

  test('numbers as arguments and gradients; null for an input without a gradient', () =>
    noLeak(() => {
      const f = ef.customGradient((x, k) => ({ value: ef.multiply(x, k), grad: () => [7, null] }));
      const x = ef.constant(2);
      const t = new ef.GradientTape();
      const y = t.record(() => (t.watch(x), f(x, 3) as ef.Tensor));
      expect(val(y)).toBe(6);
      expect(val(t.gradient(y, x))).toBe(7);
    }));

  test('testCustomGradientEmptyError: grad returning the wrong count is a clear error', () => {
    const x = new ef.Variable(1);
    noLeak(() => {
      const identity = ef.customGradient((v) => ({ value: v, grad: () => [] }));
      const t = new ef.GradientTape();
      const y = t.record(() => identity(x) as ef.Tensor);
      expect(() => t.gradient(y, [x])).toThrow('customGradient: grad returned the wrong number of gradients (got 0, expected 1, one per input of f)');
      const two = ef.customGradient((a, b) => ({ value: ef.add(a, b), grad: (dy) => [dy] }));
      const t2 = new ef.GradientTape();
      const z = t2.record(() => two(x, 2) as ef.Tensor);
      expect(() => t2.gradient(z, x)).toThrow(/got 1, expected 2/);
    });
    x.dispose();
  });

  test('a gradient of the wrong shape is a clear error naming the op', () =>
    noLeak(() => {
      const f = ef.customGradient((x) => ({ value: ef.identity(x), grad: () => ef.ones([3]) }));
      const x = ef.constant([1, 2]);
      const t = new ef.GradientTape();
      const y = t.record(() => (t.watch(x), f(x) as ef.Tensor));
      expect(() => t.gradient(y, x)).toThrow('GradientTape.gradient: the gradient of custom_gradient for input 0 has an incompatible shape (got (3,), expected (2,)');
    }));

  test('testErrors: an error thrown by grad propagates (and leaks nothing)', () =>
    noLeak(() => {
      const f = ef.customGradient((x) => ({ value: ef.identity(x), grad: () => { throw new RangeError('x'); } }));
      expect(() => ef.grad((v) => f(v) as ef.Tensor)(ef.constant(1))).toThrow(RangeError);
    }));

  test('f must return { value, grad }', () => {
    const bad = ef.customGradient((x) => x as unknown as ef.CustomGradientResult);
    expect(() => bad(ef.constant(1))).toThrow(/customGradient: f must return \{ value, grad \}/);
    expect(() => ef.customGradient(1 as unknown as () => ef.CustomGradientResult)).toThrow(/customGradient: expected a function/);
  });

  test('testGradientsFunctionInCustomGradient: a gradient computed inside f', () =>
    noLeak(() => {
      const f = ef.customGradient((x) => ({ value: ef.grad((v) => ef.multiply(v, v))(x) as ef.Tensor, grad: (dy) => [ef.multiply(2, dy)] }));
      expect(val(f(1) as ef.Tensor)).toBe(2);
    }));

  test('testImplicitGradientsCustomGradientAndCachedVariableValue: 2 * dr * x + 1 at a variable 3 is 7', () => {
    const x = new ef.Variable(3);
    noLeak(() => {
      const mySquare = ef.customGradient((v) => ({ value: ef.square(v), grad: (dr) => ef.add(ef.multiply(ef.multiply(2, dr), v), 1) }));
      const t = new ef.GradientTape();
      const y = t.record(() => mySquare(x) as ef.Tensor);
      expect(t.watchedVariables()).toEqual([x]);
      expect(val(t.gradient(y, x))).toBe(7);
    });
    x.dispose();
  });
});

describe('grad and valueAndGrad', () => {
  test('testEmptyParamsForValueAndGradFunction: value 6, gradients [3, 2]', () =>
    noLeak(() => {
      const { value, grads, grad } = ef.valueAndGrad((a, b) => ef.multiply(a, b))(2, 3);
      expect(val(value)).toBe(6);
      expect(grads.map(val)).toEqual([3, 2]);
      expect(grad).toBe(grads[0]);
    }));

  test('testEmptyParams / testCPU / testArgsGradientFunction / testMulType', () =>
    noLeak(() => {
      const x = ef.constant(1);
      const y = ef.constant(2);
      expect(ef.grad((a, b) => ef.multiply(a, b))(x, y).map(val)).toEqual([2, 1]);
      expect(val(ef.grad((a) => ef.add(ef.add(a, 2), 3))(x))).toBe(1);
      expect(val(ef.grad((...args) => ef.multiply(args[0], args[0]))(1))).toBe(2);
      expect(val(ef.grad((a) => ef.multiply(a, a))(3))).toBe(6);
    }));

  test('testPartial: a closed-over tensor is a constant', () =>
    noLeak(() => {
      const two = ef.constant(2);
      expect(val(ef.grad((a) => ef.multiply(two, a))(ef.constant(1)))).toBe(2);
    }));

  test('testReturnSameThing and testOutput: several outputs are summed', () =>
    noLeak(() => {
      expect(val(ef.grad((x) => [x, ef.multiply(2, x)])(1))).toBe(3);
      expect(val(ef.grad((x) => [ef.add(x, 2), ef.multiply(x, x)])(ef.constant([0, 1, 2])))).toEqual([1, 3, 5]);
    }));

  test('testSameObjectForMultipleArguments: the same tensor twice is two arguments', () => {
    const np = (a: ef.TensorLike, b: ef.TensorLike): unknown => ef.tidy(() => ef.grad((x, y) => ef.multiply(x, y))(a, b).map(val));
    noLeak(() => {
      const x = ef.constant(1);
      expect(np(x, x)).toEqual([1, 1]);
      expect(np(1, 1)).toEqual([1, 1]);
      const m = ef.constant([[1]]);
      expect(np(m, m)).toEqual([[[1]], [[1]]]);
      expect(np([[1]], [[1]])).toEqual([[[1]], [[1]]]);
    });
    const v = new ef.Variable(1);
    noLeak(() => expect(np(v, v)).toEqual([1, 1]));
    v.dispose();
  });

  test('testGradientInteger: an int argument gets null', () =>
    noLeak(() => {
      expect(ef.grad((x) => ef.add(x, x))(ef.constant(1, 'int32'))).toBeNull();
    }));

  test('testDifferentiatingFunctionThatReturnsNone: a clear error', () =>
    noLeak(() => {
      const f = (a: ef.Tensor, b: ef.Tensor): void => void ef.multiply(a, b);
      expect(() => ef.valueAndGrad(f)(1, 2)).toThrow('valueAndGrad: Cannot differentiate a function that returns undefined');
      expect(() => ef.valueAndGrad(f)(1, 2)).toThrow(/did you forget to return a value from f\?/);
    }));

  test('testExceptionSafety: a throwing f leaks nothing and the next call works', () =>
    noLeak(() => {
      expect(() =>
        ef.grad((x) => {
          ef.multiply(x, x);
          throw new RangeError('boom');
        })(1),
      ).toThrow('boom');
      expect(ef.internal.ctx.tapes).toEqual([]);
      expect(val(ef.grad((x) => ef.multiply(x, x))(1))).toBe(2);
    }));

  test('valueAndGrad of the identity returns a value the caller owns (not the argument)', () =>
    noLeak(() => {
      const x = ef.constant(4);
      const { value, grad } = ef.valueAndGrad((v) => v)(x);
      expect(value).not.toBe(x);
      value.dispose();
      expect(x.isDisposed).toBe(false);
      expect(val(grad)).toBe(1);
    }));

  test('testMakeVJP / testPersistentMakeVJP via outputGradients: vjp(2) of x*x at 3 is 12, twice', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const t = new ef.GradientTape({ persistent: true });
      const y = t.record(() => (t.watch(x), ef.multiply(x, x)));
      expect(val(y)).toBe(9);
      expect(val(t.gradient(y, x, { outputGradients: 2 }))).toBe(12);
      expect(val(t.gradient(y, x, { outputGradients: 2 }))).toBe(12);
      t.dispose();
    }));
});

describe('recordOperation (TensorFlow record_operation)', () => {
  test('testInvalidRecordOperationMessage: a backward function returning too few gradients names the op', () =>
    noLeak(() => {
      const y = ef.constant(2);
      const x = ef.constant(1);
      const g = new ef.GradientTape();
      g.record(() => {
        g.watch(x);
        ef.recordOperation('InvalidBackprop', [x], [y], () => []);
      });
      expect(() => g.gradient(y, x)).toThrow(/InvalidBackprop.*too few gradients/);
      expect(() => g.gradient(y, x)).toThrow(ef.errors.InternalError); // a failed call does not consume the tape
      g.dispose();
    }));

  test('a recorded operation with a correct rule is differentiated like a primitive', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const [g, y] = taped(x, () => {
        const out = ef.internal.withoutTapes(() => ef.multiply(x, x));
        ef.recordOperation('square', [x], [out], ([dy], [xi]) => [ef.multiply(dy as ef.Tensor, ef.multiply(2, xi))], [x]);
        return out;
      });
      x.dispose(); // saved values are pinned by the tape
      expect(val(g.gradient(y, x))).toBe(6);
    }));
});
