// pyFunction gradients: eager (its own forward tape), a tape recording a traced call, and a tape inside the traced body.
import * as ef from 'eagerflow';
import { buffers, mem, noLeak, values } from './helpers';
import { recordFirstGradient } from '../../../test/harness/tapes';

type Fn = (...xs: ef.Tensor[]) => ef.Tensor | ef.Tensor[];
type GradMode = 'eager' | 'tape records a traced call' | 'tape inside the traced body';
const GRAD_MODES: GradMode[] = ['eager', 'tape records a traced call', 'tape inside the traced body'];

/** Values and gradients (d sum(outputs) / d xs) of fn at xs, computed in `mode`. */
function valueAndGrads(mode: GradMode, fn: Fn, xs: ef.Tensor[], opts: ef.GradientOptions = {}): { y: unknown; g: unknown } {
  const run = (f: Fn, args: ef.Tensor[]): [ef.Tensor | ef.Tensor[], (ef.Tensor | null)[]] => {
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(args);
      return f(...args);
    });
    return [y, tape.gradient(y, args, opts) as (ef.Tensor | null)[]];
  };
  let y: ef.Tensor | ef.Tensor[];
  let g: (ef.Tensor | null)[];
  if (mode === 'eager') [y, g] = run(fn, xs);
  else if (mode === 'tape records a traced call') {
    const traced = ef.trace(fn);
    [y, g] = run((...a) => traced(...a) as ef.Tensor | ef.Tensor[], xs);
    traced.dispose();
  } else {
    const traced = ef.trace((...a: ef.Tensor[]) => {
      const [yy, gg] = run(fn, a);
      return { y: yy, g: gg };
    });
    ({ y, g } = traced(...xs) as { y: ef.Tensor | ef.Tensor[]; g: (ef.Tensor | null)[] });
    traced.dispose();
  }
  return { y: values(y), g: g.map((t) => (t === null ? null : values(t))) };
}

function logHuber(x: ef.Tensor, m: ef.Tensor): ef.Tensor {
  if ((ef.abs(x).item() as number) <= (m.item() as number)) return ef.square(x);
  return ef.multiply(ef.square(m), ef.add(ef.subtract(1, ef.multiply(2, ef.log(m))), ef.log(ef.square(x))));
}

const py = (f: (...a: ef.Tensor[]) => unknown, Tout: ef.DType | ef.DType[] = 'float32') => (...xs: ef.Tensor[]) => ef.pyFunction(f, xs, Tout as ef.DType);

describe.each(GRAD_MODES)('pyFunction gradients (%s)', (mode) => {
  const consts = (...vs: number[]): ef.Tensor[] => vs.map((v) => ef.constant(v));

  test('x ** 2 at 3 -> 6', () =>
    noLeak(() => {
      const xs = consts(3);
      expect(valueAndGrads(mode, py((x) => ef.pow(x, 2)), xs)).toEqual({ y: 9, g: [6] });
      ef.dispose(xs);
    }));

  test('several inputs: x ** 2 + y ** 2 at (3, 4) -> (6, 8)', () =>
    noLeak(() => {
      const xs = consts(3, 4);
      expect(valueAndGrads(mode, py((x, y) => ef.add(ef.pow(x, 2), ef.pow(y, 2))), xs).g).toEqual([6, 8]);
      ef.dispose(xs);
    }));

  test('several outputs: d(x * y + x / y)/dx at (3, 2) -> 2.5', () =>
    noLeak(() => {
      const xs = consts(3, 2);
      const f = py((x, y) => [ef.multiply(x, y), ef.divide(x, y)], ['float32', 'float32']);
      const r = valueAndGrads(mode, f, xs);
      expect(r.y).toEqual([6, 1.5]);
      expect((r.g as number[])[0]).toBeCloseTo(2.5, 6);
      ef.dispose(xs);
    }));

  test('log huber: both branches, with gradients', () =>
    noLeak(() => {
      const near = consts(1, 2);
      expect(valueAndGrads(mode, py(logHuber), near)).toEqual({ y: 1, g: [2, 0] });
      const far = consts(3, 2);
      const r = valueAndGrads(mode, py(logHuber), far) as { y: number; g: number[] };
      expect(r.y).toBeCloseTo(4 * (1 - 2 * Math.log(2) + Math.log(9)), 5);
      expect(r.g[0]).toBeCloseTo(8 / 3, 5);
      ef.dispose([...near, ...far]);
    }));

  test('an input the outputs ignore gets zeros; an integer input gets null', () =>
    noLeak(() => {
      const xs = [ef.constant([1, 2]), ef.constant([5, 6]), ef.constant(7, 'int32')];
      const f = py((x, _y, k) => ef.multiply(x, ef.cast(k, 'float32')));
      expect(valueAndGrads(mode, f, xs).g).toEqual([[7, 7], [0, 0], null]);
      ef.dispose(xs);
    }));

  test('the same tensor passed twice: d(a * b)/dx = 2x', () =>
    noLeak(() => {
      const x = ef.constant(3);
      const f = (v: ef.Tensor) => ef.pyFunction((a: ef.Tensor, b: ef.Tensor) => ef.multiply(a, b), [v, v], 'float32');
      expect(valueAndGrads(mode, f, [x]).g).toEqual([6]);
      x.dispose();
    }));

  test('broadcasting inside the callback and outputGradients', () =>
    noLeak(() => {
      const xs = [ef.constant([1, 2, 3]), ef.constant(2)];
      const og = ef.constant([1, 10, 100]);
      const r = valueAndGrads(mode, py((x, s) => ef.multiply(x, s)), xs, { outputGradients: og });
      expect(r.g).toEqual([[2, 20, 200], 321]);
      ef.dispose([...xs, og]);
    }));
});

describe('pyFunction gradients: tapes and memory', () => {
  const cube = (x: ef.Tensor): ef.Tensor => ef.pyFunction((v: ef.Tensor) => ef.multiply(ef.multiply(v, v), v), [x], 'float32');

  test.each(['eager', 'traced'])('nested tapes give second derivatives (%s)', (m) =>
    noLeak(() => {
      const f = m === 'eager' ? cube : ef.trace(cube);
      const x = ef.constant(3);
      const { outer, value: dy } = recordFirstGradient(x, (v) => f(v) as ef.Tensor, {
        then: (d, y) => {
          y.dispose();
          return d;
        },
      });
      expect(dy.item()).toBe(27);
      expect(values(outer.gradient(dy, x))).toBe(18);
      ef.dispose([x, dy]);
      (f as { dispose?: () => void }).dispose?.();
    }));

  test('a persistent tape differentiates twice; two tapes record the same call', () =>
    noLeak(() => {
      const x = ef.constant(2);
      const t1 = new ef.GradientTape({ persistent: true });
      const t2 = new ef.GradientTape();
      const y = t1.record(() => {
        t1.watch(x);
        return t2.record(() => {
          t2.watch(x);
          return cube(x);
        });
      });
      expect([values(t1.gradient(y, x)), values(t1.gradient(y, x)), values(t2.gradient(y, x))]).toEqual([12, 12, 12]);
      t1.dispose();
      ef.dispose([x, y]);
    }));

  test.each(['eager', 'traced'])('no leak when no gradient is ever taken (%s)', (m) => {
    const f = m === 'eager' ? (x: ef.Tensor) => ef.pyFunction((v: ef.Tensor) => ef.exp(ef.sin(ef.multiply(v, 2))), [x], 'float32') : ef.trace((x: ef.Tensor) => ef.pyFunction((v: ef.Tensor) => ef.exp(ef.sin(ef.multiply(v, 2))), [x], 'float32'));
    const x = ef.constant([1, 2, 3]);
    (f(x) as ef.Tensor).dispose();
    const [t0, b0] = [mem(), buffers()];
    for (let i = 0; i < 3; i++) {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        return f(x) as ef.Tensor;
      });
      y.dispose();
      tape.dispose();
    }
    expect([mem(), buffers()]).toEqual([t0, b0]);
    // ...and a gradient taken releases everything too (TensorFlow's tape_cache entry is consumed).
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(x);
      return f(x) as ef.Tensor;
    });
    ef.dispose([y, tape.gradient(y, x)]);
    expect([mem(), buffers()]).toEqual([t0, b0]);
    x.dispose();
  });

  test('without a watching tape nothing is recorded (no tape state, no pins)', () =>
    noLeak(() => {
      const x = ef.constant([1, 2]);
      const tape = new ef.GradientTape();
      const y = tape.record(() => cube(x));
      expect(tape.gradient(y, x)).toBeNull();
      ef.dispose([x, y]);
    }));

  test('a variable passed in inp gets a gradient; one read inside the callback does too (extension over TF, issue 14)', () =>
    noLeak(() => {
      const v = new ef.Variable(3);
      const w = new ef.Variable(5);
      const tape = new ef.GradientTape();
      const y = tape.record(() => ef.pyFunction((a: ef.Tensor) => ef.multiply(ef.multiply(a, a), w.value()), [v], 'float32'));
      const [gv, gw] = tape.gradient(y, [v, w]) as (ef.Tensor | null)[];
      expect([values(gv), values(gw)]).toEqual([30, 9]);
      ef.dispose([y, v, w]);
    }));
});
