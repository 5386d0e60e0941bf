// TensorFlow's py_func_test / script_ops_test cases for numpyFunction and compat.v1.pyFunc, run eagerly and traced.
import * as ef from 'eagerflow';
import { MODES, inMode, noLeak, thrown, values } from './helpers';

const num = (v: number | boolean | string): number => v as number;
/** np.sinh(x) + np.cosh(y), elementwise on NDArrays. */
const npFunc = (x: ef.NDArray, y: ef.NDArray): ef.NDArray => x.map((v, i) => Math.sinh(num(v)) + Math.cosh(num(y.data[i] as number)));
const dispose = (f: unknown): void => (f as { dispose?: () => void }).dispose?.();

describe.each(MODES)('numpy-style callbacks (%s)', (mode) => {
  test('real dtypes: float32 and int32 sums keep their dtype', () =>
    noLeak(() => {
      for (const dtype of ['float32', 'int32'] as const) {
        const f = inMode(mode, (x: ef.Tensor, y: ef.Tensor) => ef.pyFunc((a: ef.NDArray, b: ef.NDArray) => a.map((v, i) => num(v) + num(b.data[i] as number)), [x, y], dtype));
        const x = ef.constant(1, dtype);
        const y = ef.constant(2, dtype);
        const z = f(x, y);
        expect(z.dtype).toBe(dtype);
        expect(values(z)).toBe(3);
        ef.dispose([x, y]);
        dispose(f);
      }
    }));

  test('complex64: interleaved (re, im) host data in and out', () =>
    noLeak(() => {
      const complex = (re: number, im: number) => () => new ef.NDArray(new Float32Array([re, im]), [], 'complex64');
      const sub = (a: ef.NDArray, b: ef.NDArray) => new ef.NDArray((a.data as Float32Array).map((v, i) => v - (b.data as Float32Array)[i]), [], 'complex64');
      const f = inMode(mode, () => {
        const x = ef.pyFunc(complex(1, 1), [], 'complex64');
        const y = ef.pyFunc(complex(2, -2), [], 'complex64');
        return ef.pyFunc(sub, [x, y], 'complex64');
      });
      const z = f();
      expect([z.dtype, Array.from(z.dataSync() as Float32Array)]).toEqual(['complex64', [-1, 3]]);
      z.dispose();
    }));

  test('bool dtype', () =>
    noLeak(() => {
      const f = inMode(mode, (x: ef.Tensor, y: ef.Tensor) => ef.pyFunc((a: ef.NDArray, b: ef.NDArray) => (a.get() as boolean) && (b.get() as boolean), [x, y], 'bool'));
      const [x, y] = [ef.constant(true), ef.constant(false)];
      expect(values(f(x, y))).toBe(false);
      ef.dispose([x, y]);
    }));

  test('single type, scalar in a list Tout, arrays', () =>
    noLeak(() => {
      const x = ef.constant(1);
      const y = ef.constant(2);
      const single = inMode(mode, (a: ef.Tensor, b: ef.Tensor) => ef.pyFunc(npFunc, [a, b], 'float32'));
      expect(values(single(x, y))).toBeCloseTo(Math.sinh(1) + Math.cosh(2), 5);
      const listed = inMode(mode, (a: ef.Tensor, b: ef.Tensor) => ef.numpyFunction(npFunc, [a, b], ['float32']));
      const z = listed(x, y);
      expect(Array.isArray(z) && z.length).toBe(1);
      expect(values(z[0])).toBeCloseTo(Math.sinh(1) + Math.cosh(2), 5);
      const xa = ef.constant([1, 2]);
      const ya = ef.constant([2, 3]);
      const arr = listed(xa, ya);
      expect((values(arr[0]) as number[]).map((v) => Math.round(v * 1e4) / 1e4)).toEqual([1, 2].map((v, i) => Math.round((Math.sinh(v) + Math.cosh([2, 3][i])) * 1e4) / 1e4));
      ef.dispose([x, y, xa, ya]);
    }));

  test('JS literals are converted to Tout (a literal number for float32, integers for int32)', () =>
    noLeak(() => {
      const f = inMode(mode, (x: ef.Tensor) => ef.pyFunc((a: ef.NDArray) => (a.get() === 0 ? 1.0 : 0.0), [x], 'float32'));
      const x = ef.constant(0);
      expect(values(f(x))).toBe(1);
      const g = inMode(mode, () => ef.numpyFunction(() => [[1, 2], [3, 4]], [], 'int32'));
      const t = g();
      expect(t.dtype).toBe('int32');
      expect(values(t)).toEqual([[1, 2], [3, 4]]);
      x.dispose();
    }));

  test('a list of values for a list Tout; a list for a single Tout is one value', () =>
    noLeak(() => {
      const f = inMode(mode, (x: ef.Tensor) => ef.pyFunc((a: ef.NDArray) => [a, a.map((v) => num(v) + 1)], [x], ['float32', 'float32']));
      const x = ef.constant(0);
      expect(values(f(x))).toEqual([0, 1]);
      const g = inMode(mode, () => ef.numpyFunction(() => [1, 2, 3], [], 'float32'));
      expect(values(g())).toEqual([1, 2, 3]);
      x.dispose();
    }));

  test('strings: string tensors arrive as string data; returned strings become string tensors', () =>
    noLeak(() => {
      const readStrings = (): string[] => [' there'];
      const concat = (a: ef.NDArray, b: ef.NDArray): string[] => (a.data as string[]).map((s) => s + (b.data as string[])[0]);
      const f = inMode(mode, (x: ef.Tensor) => {
        const y = ef.pyFunc(readStrings, [], 'string');
        return ef.pyFunc(concat, [x, y], 'string');
      });
      const x = ef.constant(['hello', 'hi']);
      expect(values(f(x))).toEqual(['hello there', 'hi there']);
      const padding = inMode(mode, () => ef.pyFunc(() => [['this', 'is', 'a', 'test']], [], ['string']));
      expect(values(padding())).toEqual([['this', 'is', 'a', 'test']]);
      const unicode = inMode(mode, () => ef.pyFunc(() => '你好 世界', [], ['string']));
      expect(values(unicode())).toEqual(['你好 世界']);
      x.dispose();
    }));

  test('large inputs run repeatedly', () =>
    noLeak(() => {
      const f = inMode(mode, (x: ef.Tensor) => [
        ef.pyFunc((a: ef.NDArray) => a.map((v) => num(v) + 1), [x], ['float32'])[0],
        ef.pyFunc((a: ef.NDArray) => a.map((v) => num(v) * 2), [x], ['float32'])[0],
      ]);
      const x = ef.zeros([100000]);
      for (let i = 0; i < 5; i++) ef.dispose(f(x));
      const [a, b] = f(x);
      expect([a.shape.dims, (a.dataSync() as Float32Array)[99999], (b.dataSync() as Float32Array)[0]]).toEqual([[100000], 1, 0]);
      ef.dispose([a, b, x]);
    }));

  test('no input', () =>
    noLeak(() => {
      const f = inMode(mode, () => ef.pyFunc(() => 42.0, [], 'float32'));
      expect(values(f())).toBe(42);
    }));

  test('aliasing: a returned buffer is never written into by later ops', () =>
    noLeak(() => {
      const npArray = ef.ndarray([1.0, 2.0]);
      const f = inMode(mode, () => ef.add(ef.pyFunc(() => npArray, [], ['float32'])[0], [2.0, 3.0]));
      expect(values(f())).toEqual([3, 5]);
      expect(npArray.toArray()).toEqual([1, 2]);
      dispose(f);
    }));

  test('inputs are zero-copy views on the cpu backend; copy() before writing', () =>
    noLeak(() => {
      let seen: ef.NDArray | null = null;
      const f = inMode(mode, (x: ef.Tensor) =>
        ef.numpyFunction((a: ef.NDArray) => {
          seen = a;
          const b = a.copy();
          b.set(0, 0);
          return b;
        }, [x], 'float32'),
      );
      const x = ef.constant([1, 2]);
      expect(values(f(x))).toEqual([0, 2]);
      expect((seen as unknown as ef.NDArray).data).toBe(ef.internal.backend.readInfoSync(x.toTfjs()));
      expect(x.arraySync()).toEqual([1, 2]);
      x.dispose();
    }));

  test('returning the input (and an element of it)', () =>
    noLeak(() => {
      const f = inMode(mode, (p: ef.Tensor) => ef.add(ef.pyFunc((x: ef.NDArray) => x.get(0), [p], ['float32'])[0], 0));
      const p = ef.constant([0.0]);
      expect(values(f(p))).toBe(0);
      const g = inMode(mode, (q: ef.Tensor) => ef.numpyFunction((x: ef.NDArray) => x, [q], 'float32'));
      expect(values(g(p))).toEqual([0]);
      expect(p.arraySync()).toEqual([0]);
      p.dispose();
      dispose(f);
    }));

  test('bad return types are InvalidArgumentErrors naming the value', () =>
    noLeak(() => {
      const f64 = inMode(mode, () => ef.pyFunc(() => new Float64Array([1, 2]), [], ['float32']));
      const e1 = thrown(() => f64());
      expect(e1).toBeInstanceOf(ef.errors.InvalidArgumentError);
      expect(e1.message).toMatch(/0-th value returned by pyfunc_\d+ is float64, but expects float32/);
      const obj = inMode(mode, () => ef.pyFunc(() => ({ foo: 'float32' }), [], ['int32']));
      expect(thrown(() => obj())).toBeInstanceOf(ef.errors.InvalidArgumentError);
      const frac = inMode(mode, () => ef.numpyFunction(() => 1.5, [], 'int32'));
      expect(thrown(() => frac()).message).toMatch(/value returned by pyfunc_\d+ is float32, but expects int32/);
      const nd = inMode(mode, () => ef.numpyFunction(() => ef.ndarray([1, 2], [2], 'int32'), [], 'float32'));
      expect(thrown(() => nd()).message).toMatch(/is int32, but expects float32/);
    }));

  test('stateful callbacks run at every call (a producer yields 0, 1, 2)', () =>
    noLeak(() => {
      let next = 0;
      const f = inMode(mode, () => ef.pyFunc(() => next++, [], ['int32']));
      expect([values(f()), values(f()), values(f())]).toEqual([[0], [1], [2]]);
    }));

  test('numpyFunction arguments: JS values in inp are converted', () =>
    noLeak(() => {
      const plus = (a: ef.NDArray, b: ef.NDArray): number => num(a.get()) + num(b.get());
      const f = inMode(mode, () => ef.numpyFunction(plus, [1, 2], 'float32'));
      expect(values(f())).toBe(3);
      dispose(f);
    }));

  test('not differentiable: null gradients, zeros with unconnectedGradients zero', () =>
    noLeak(() => {
      const f = inMode(mode, (x: ef.Tensor) => ef.numpyFunction((a: ef.NDArray) => a.map((v) => num(v) * 3), [x], 'float32'));
      const x = ef.constant([1, 2]);
      const tape = new ef.GradientTape({ persistent: true });
      const y = tape.record(() => {
        tape.watch(x);
        return f(x);
      });
      expect(tape.gradient(y, x)).toBeNull();
      expect(values(tape.gradient(y, x, { unconnectedGradients: 'zero' }))).toEqual([0, 0]);
      tape.dispose();
      ef.dispose([x, y]);
    }));

  test('no return value: stateful runs (and returns []); stateless returns []', () =>
    noLeak(() => {
      const state = { value: ef.ndarray([1], [1], 'int32') };
      const increment = (diff: ef.NDArray): void => {
        state.value = state.value.map((v) => num(v) + num(diff.get()));
      };
      const f = inMode(mode, (d: ef.Tensor) => ef.pyFunc(increment, [d], [], true));
      const d = ef.constant(2, 'int32');
      expect(f(d)).toEqual([]);
      expect(state.value.toArray()).toEqual([3]);
      const g = inMode(mode, (d2: ef.Tensor) => ef.pyFunc(() => undefined, [d2], [], false));
      expect(g(d)).toEqual([]);
      d.dispose();
    }));

  test('the numpy_function docstring: sinh, and y * y', () =>
    noLeak(() => {
      const sinh = (x: ef.NDArray): ef.NDArray => x.map((v) => Math.sinh(num(v)));
      const f = inMode(mode, (input: ef.Tensor) => {
        const y = ef.numpyFunction(sinh, [input], 'float32');
        return ef.multiply(y, y);
      });
      const one = ef.constant(1);
      expect(values(f(one))).toBeCloseTo(1.3810978, 6);
      one.dispose();
    }));
});
