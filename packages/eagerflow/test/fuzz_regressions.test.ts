// Regressions for what fuzzing the ops and the loader found (issue 32): each case failed before its fix.
import * as ef from 'eagerflow';

type T = ef.Tensor;
type Fn = (...xs: T[]) => unknown;

/** Every dim unknown (rank kept), or the rank unknown too ('rank'). */
function unknown(x: T, rank = false): ef.TensorSpec {
  return new ef.TensorSpec(rank ? null : x.shape.asList().map(() => null), x.dtype);
}

/** Runs fn traced with the given input specs (exact shapes when omitted). */
function traced(fn: Fn, xs: T[], specs?: ef.TensorSpec[]): unknown {
  const f = ef.trace(fn as (...a: T[]) => T);
  try {
    return specs ? f.getConcreteFunction(...specs).call(...xs) : f(...xs);
  } finally {
    f.dispose();
  }
}

/** fn's outcome (values or error class) eager, traced and traced with unknown dims, which must agree; nothing leaks. */
function everyMode(fn: Fn, xs: T[], rank = false): string {
  const outcome = (run: () => unknown): string => {
    const before = ef.memory().numTensors;
    let out: string;
    try {
      const r = run();
      const ts = (Array.isArray(r) ? r : [r]) as T[];
      out = JSON.stringify(ts.map((t) => [t.shape.toString(), t.dtype, Array.from(t.dataSync() as ArrayLike<unknown>, (v) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : v))]));
      ts.forEach((t) => t.dispose());
    } catch (e) {
      if (!(e instanceof ef.errors.OpError) && !(e instanceof TypeError)) throw e;
      out = e.constructor.name;
    }
    expect(ef.memory().numTensors).toBe(before);
    return out;
  };
  const eager = outcome(() => fn(...xs));
  expect(outcome(() => traced(fn, xs))).toBe(eager);
  expect(outcome(() => traced(fn, xs, xs.map((x) => unknown(x, rank))))).toBe(eager);
  return eager;
}


describe('broadcastTo refuses a target the input does not broadcast to (TF: incompatible shapes)', () => {
  test('[1, 4] to [2, 1]: InvalidArgumentError eager, traced and with unknown dims', () => {
    const x = ef.ones([1, 4]);
    expect(() => ef.broadcastTo(x, [2, 1])).toThrow(/broadcastTo: incompatible shapes.*\[1,4\] to \[2,1\]/);
    expect(everyMode((a) => ef.broadcastTo(a, [2, 1]), [x])).toBe('InvalidArgumentError');
    expect(everyMode((a) => ef.broadcastTo(a, [3, 1, 4]), [x])).toMatch(/^\[\["\(3, 1, 4\)"/);
  });
});

describe('complex with 0-size shapes', () => {
  test('complex(0.5, zeros([3, 0, 2, 1])) is an empty (3, 0, 2, 1) complex64 tensor', () => {
    const z = ef.complex(0.5, ef.zeros([3, 0, 2, 1]));
    expect(z.shape.asList()).toEqual([3, 0, 2, 1]);
    expect(z.dtype).toBe('complex64');
    expect(z.dataSync().length).toBe(0);
  });
});

describe('the cross-entropies with an unknown rank', () => {
  test('sigmoidCrossEntropyWithLogits of scalars, labels of unknown rank: the eager value, not NaN', () => {
    const [l, x] = [ef.constant(0.5), ef.constant(-1.3)];
    const want = ef.nn.sigmoidCrossEntropyWithLogits(l, x).dataSync()[0];
    expect(want).toBeCloseTo(0.65 + Math.log1p(Math.exp(-1.3)), 6);
    const got = traced((a, b) => ef.nn.sigmoidCrossEntropyWithLogits(a, b), [l, x], [unknown(l, true), unknown(x)]) as T;
    expect(got.dataSync()[0]).toBeCloseTo(want, 6);
  });

  test('sparseSoftmaxCrossEntropyWithLogits checks the labels rank when the graph runs', () => {
    const l = ef.constant([[1, 0]], 'int32');
    const x = ef.constant([0.5, 1]);
    expect(() => ef.nn.sparseSoftmaxCrossEntropyWithLogits(l, x)).toThrow(ef.errors.InvalidArgumentError);
    for (const r of [true, false]) expect(everyMode((a, b) => ef.nn.sparseSoftmaxCrossEntropyWithLogits(a, b), [l, x], r)).toBe('InvalidArgumentError');
    // Same rank but more labels than rows: refused too (a slice must not drop labels silently).
    const x2 = ef.constant([[0.5, 1], [1, 2]]);
    expect(everyMode((a, b) => ef.nn.sparseSoftmaxCrossEntropyWithLogits(a, b), [ef.constant([1, 0, 1], 'int32'), x2], true)).toBe('InvalidArgumentError');
    expect(everyMode((a, b) => ef.nn.sparseSoftmaxCrossEntropyWithLogits(a, b), [ef.constant([1, 0], 'int32'), x2], true)).toMatch(/^\[\["\(2,\)","float32"/);
  });
});

describe('complex64: library errors or TF results, never tfjs text', () => {
  const c = (): T => ef.complex(ef.constant([1, 2]), ef.constant([3, 4]));
  test.each([
    ['nn.sigmoidCrossEntropyWithLogits', () => ef.nn.sigmoidCrossEntropyWithLogits(c(), c())],
    ['linalg.trace', () => ef.linalg.trace(ef.complex(ef.ones([2, 2]), ef.ones([2, 2])))],
    ['nn.batchNormalization', () => ef.nn.batchNormalization(c(), c(), c(), null, null, 1e-3)],
  ])('%s refuses complex64 naming itself', (name, run) => {
    const before = ef.memory().numTensors;
    const inTidy = (): void => ef.tidy(() => void run());
    expect(inTidy).toThrow(new RegExp(`^(${name}|${name.split('.').pop()}): unsupported dtype \\(got complex64`));
    expect(inTidy).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('select and gather of complex64 work as in TF', () => {
    const w = ef.where(ef.constant([true, false]), c(), ef.complex(ef.constant([5, 6]), ef.constant([7, 8])));
    expect(Array.from(ef.math.real(w).dataSync())).toEqual([1, 6]);
    expect(Array.from(ef.math.imag(w).dataSync())).toEqual([3, 8]);
    const g = ef.gather(c(), ef.constant([1, 1, 0], 'int32'));
    expect(Array.from(ef.math.real(g).dataSync())).toEqual([2, 2, 1]);
    expect(Array.from(ef.math.imag(g).dataSync())).toEqual([4, 4, 3]);
    expect(() => ef.gather(c(), ef.constant([2], 'int32'))).toThrow(/gather: an index is out of range/);
  });

  test("zeros([2], 'complex64') and constant(1, 'complex64', [2]) as in TF", () => {
    const z = ef.zeros([2], 'complex64');
    expect(z.dtype).toBe('complex64');
    expect(Array.from(z.dataSync())).toEqual([0, 0, 0, 0]);
    const o = ef.ones([2], 'complex64');
    expect(Array.from(ef.math.real(o).dataSync())).toEqual([1, 1]);
    expect(Array.from(ef.math.imag(o).dataSync())).toEqual([0, 0]);
    const k = ef.constant(3, 'complex64', [2]);
    expect(Array.from(ef.math.real(k).dataSync())).toEqual([3, 3]);
  });
});

test('tensordot without axes: a TypeError naming the op (TF requires axes)', () => {
  expect(() => (ef.linalg.tensordot as (a: number[], b: number[]) => T)([1, 2], [1, 2])).toThrow(TypeError);
  expect(() => (ef.linalg.tensordot as (a: number[], b: number[]) => T)([1, 2], [1, 2])).toThrow(/^linalg\.tensordot: axes is required/);
});

describe('eager and traced with unknown dims agree', () => {
  test('meshgrid of float32 and int32 fails everywhere (TF: Mul of mixed dtypes)', () => {
    expect(everyMode((a, b) => ef.meshgrid(a, b), [ef.constant([1, 2]), ef.constant([1, 2, 3], 'int32')])).toBe('InvalidArgumentError');
    expect(everyMode((a, b) => ef.meshgrid(a, b), [ef.constant([1, 2]), ef.constant([1, 2, 3])])).toMatch(/^\[\["\(3, 2\)"/);
  });

  test('bandPart of strings fails everywhere (TF has no string kernel)', () => {
    expect(everyMode((a) => ef.linalg.bandPart(a, 0, 0), [ef.constant([['a', 'b'], ['c', 'd']])])).toBe('InvalidArgumentError');
  });
});

describe('no leaks on error', () => {
  test.each([
    ['softmax of int32', () => ef.softmax(ef.constant([1, 2], 'int32'))],
    ['clipByValue int32 with a float32 upper bound', () => ef.clipByValue(ef.constant([1, 2], 'int32'), 0, ef.constant(1.5))],
    ['clipByValue float32 with an int32 lower bound', () => ef.clipByValue(ef.constant([1, 2]), ef.constant(0, 'int32'), 3)],
  ])('%s', (_name, run) => {
    const before = ef.memory().numTensors;
    expect(() => ef.tidy(() => void run())).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors).toBe(before);
    // Without tidy: only the caller's own constants remain (2 here), no intermediates.
    const mid = ef.memory().numTensors;
    expect(run).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors - mid).toBeLessThanOrEqual(2);
  });
});
