// Regressions for what fuzzing the ops and the loader found (issue 32): each case failed before its fix.
import * as ef from 'eagerflow';

type T = ef.Tensor;
type Fn = (...xs: T[]) => unknown;
const vals = (t: T): number[] => Array.from(t.dataSync() as ArrayLike<number>);

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

describe('broadcastTo to a shape given as a tensor (a graph input when traced, as TF takes it)', () => {
  test('the same values or the same error class eager, traced and with unknown dims; nothing leaks', () => {
    const x = ef.constant([[1, 2, 3]]);
    const shape = ef.constant([2, 3], 'int32');
    expect(everyMode((a, s) => ef.broadcastTo(a, s), [x, shape])).toBe(JSON.stringify([['(2, 3)', 'float32', [1, 2, 3, 1, 2, 3]]]));
    // A dim of the shape as a scalar tensor among numbers; bool broadcasts too.
    const n = ef.constant(2, 'int32');
    expect(everyMode((a, d) => ef.broadcastTo(a, [d, 1, 3]), [x, n])).toBe(JSON.stringify([['(2, 1, 3)', 'float32', [1, 2, 3, 1, 2, 3]]]));
    expect(everyMode((a, s) => ef.broadcastTo(a, s), [ef.constant([true, false]), ef.constant([3, 2], 'int32')])).toBe(JSON.stringify([['(3, 2)', 'bool', [1, 0, 1, 0, 1, 0]]]));
    // [1, 3] does not broadcast to [3, 1] (TF: incompatible shapes): eagerly now, traced when the graph runs.
    expect(everyMode((a, s) => ef.broadcastTo(a, s), [x, ef.constant([3, 1], 'int32')])).toBe('InvalidArgumentError');
    ef.dispose([x, shape, n]);
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
    const want = Number(ef.nn.sigmoidCrossEntropyWithLogits(l, x).dataSync()[0]);
    expect(want).toBeCloseTo(0.65 + Math.log1p(Math.exp(-1.3)), 6);
    const got = traced((a, b) => ef.nn.sigmoidCrossEntropyWithLogits(a, b), [l, x], [unknown(l, true), unknown(x)]) as T;
    expect(Number(got.dataSync()[0])).toBeCloseTo(Number(want), 6);
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
    expect(vals(ef.math.real(w))).toEqual([1, 6]);
    expect(vals(ef.math.imag(w))).toEqual([3, 8]);
    const g = ef.gather(c(), ef.constant([1, 1, 0], 'int32'));
    expect(vals(ef.math.real(g))).toEqual([2, 2, 1]);
    expect(vals(ef.math.imag(g))).toEqual([4, 4, 3]);
    expect(() => ef.gather(c(), ef.constant([2], 'int32'))).toThrow(/gather: an index is out of range/);
  });

  test("zeros([2], 'complex64') and constant(1, 'complex64', [2]) as in TF", () => {
    const z = ef.zeros([2], 'complex64');
    expect(z.dtype).toBe('complex64');
    expect(vals(z)).toEqual([0, 0, 0, 0]);
    const o = ef.ones([2], 'complex64');
    expect(vals(ef.math.real(o))).toEqual([1, 1]);
    expect(vals(ef.math.imag(o))).toEqual([0, 0]);
    const k = ef.constant(3, 'complex64', [2]);
    expect(vals(ef.math.real(k))).toEqual([3, 3]);
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

// Found by the op fuzzer (test/fuzz/op_fuzz.ts); each failed before its fix.
describe('op fuzzer findings', () => {
  const c = (re: number[], im: number[], shape?: number[]): T => ef.complex(ef.constant(re, 'float32', shape), ef.constant(im, 'float32', shape));

  test('a symbolic tensor where an int list belongs: InvalidArgumentError naming the op, not a JSON cycle TypeError', () => {
    const x = ef.ones([1, 1, 1]);
    // (with its paddings: a missing argument is reported first, eager and traced alike)
    const fn = (a: T, b: T): unknown => (ef.spaceToBatchNd as unknown as (a: T, b: T, p: number[][]) => T)(a, b, [[0, 0]]);
    expect(() => traced(fn, [x, x])).toThrow(/^spaceToBatchNd: blockShape must list positive integers \(got Tensor/);
  });

  test('pool1d and maxPoolWithArgmax validate ksize like the 2-D pools', () => {
    expect(() => (ef.nn.maxPool1d as unknown as (x: T, k: T) => T)(ef.ones([1, 3, 1]), ef.ones([2]))).toThrow(/^maxPool1d: ksize must be a positive integer or a list of them \(got Tensor/);
    expect(() => (ef.nn.avgPool1d as unknown as (x: T) => T)(ef.ones([1, 3, 3]))).toThrow(ef.errors.InvalidArgumentError);
    expect(() => (ef.nn.maxPoolWithArgmax as unknown as (x: T, k: T, s: boolean) => T)(ef.ones([1, 4, 3, 1]), ef.ones([2]), true)).toThrow(/^maxPoolWithArgmax: ksize/);
  });

  test('split with an unknown axis size checks its sizes (was: p.sizes.reduce is not a function)', () => {
    const fn = (a: T, b: T): unknown => (ef.split as unknown as (a: T, b: T) => T[])(a, b);
    expect(everyMode(fn, [ef.ones([2, 1]), ef.ones([4], 'int32')])).toBe('InvalidArgumentError');
  });

  test('tensorScatterNdUpdate with an out-of-range index frees its intermediates', () => {
    const [t, i, u] = [ef.ones([3, 2]), ef.constant([[-3], [1]], 'int32'), ef.ones([2, 2])];
    const before = ef.memory().numTensors;
    expect(() => ef.tensorScatterNdUpdate(t, i, u)).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('complex64 through layout kernels with unknown dims (roll: Slice, Concat) and 0-size complex64 in graphs', () => {
    const x = c([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [2, 3]);
    expect(everyMode((a) => ef.roll(a, [-1, 1], [0, 1]), [x])).toMatch(/complex64/);
    const e = c([], [], [1, 0, 2]);
    expect(everyMode((a) => a.at(':', '1:3'), [e])).toBe('[["(1, 0, 2)","complex64",[]]]');
    expect(everyMode((a) => ef.image.grayscaleToRgb(a), [c([1, 2], [3, 4], [2, 1])])).toMatch(/"\(2, 3\)","complex64"/);
  });

  test('mirror pad gradients with unknown dims fail like eager (the forward check was pruned; a wrong cotangent was summed)', () => {
    const fn = (x: T, g: T): unknown => ef.tidy(() => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => (tape.watch(x), ef.pad(x, [[2, 1]], 'REFLECT')));
      return tape.gradient(y, x, { outputGradients: g }) as T;
    });
    expect(everyMode(fn, [ef.constant([5]), ef.constant([1, 2, 3, 4, 5, 6, 7])])).toBe('InvalidArgumentError');
    expect(everyMode(fn, [ef.constant([1, 2, 3]), ef.constant([1, 2, 3, 4, 5, 6])])).toMatch(/^\[\["\(3,\)"/);
  });

  test('outputGradients of the wrong shape: InvalidArgumentError, as when found at run time', () => {
    const x = ef.constant([1, 2]);
    const tape = new ef.GradientTape();
    const y = tape.record(() => (tape.watch(x), ef.square(x)));
    expect(() => tape.gradient(y, x, { outputGradients: [1, 2, 3] })).toThrow(ef.errors.InvalidArgumentError);
  });

  test('resize and pool gradient records check their shapes (tfjs read out of range and leaked)', () => {
    const P = ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>;
    const bind1 = (name: string, xs: T[], params: object): T => ef.internal.bind(P[name], xs, params)[0];
    const before = ef.memory().numTensors;
    expect(() => bind1('avg_pool_grad', [ef.ones([1, 1, 3, 3])], { ksize: [2, 2], strides: [2, 2], padding: 'SAME', dataFormat: 'NHWC', inputShape: [1, 4, 4, 1] })).toThrow(/dy does not have the pooled shape of the input/);
    expect(() => bind1('resize_bilinear_grad', [ef.ones([2, 5, 3, 2]), ef.ones([2, 3, 4, 1])], { size: [5, 3], alignCorners: false, halfPixelCenters: true })).toThrow(/batch or channels/);
    expect(ef.memory().numTensors - before).toBe(3); // the three inputs only
  });

  test('bool padding and frame with a pad value: a bool, eager and with unknown dims', () => {
    const p = ef.pad(ef.constant([true, false]), [[0, 1]], 'CONSTANT', 5);
    expect(vals(p)).toEqual([1, 0, 1]);
    const x = ef.constant([[true, false, true, true, false, false]]);
    expect(everyMode((a) => ef.signal.frame(a, 3, 2, { padEnd: true, padValue: 5 }), [x])).toMatch(/"bool"/);
  });

  test('diag family, einsum: non-numeric dtypes refused in every mode', () => {
    expect(everyMode((a) => ef.linalg.diagPart(a), [ef.constant([['a', 'b'], ['c', 'd']])])).toBe('InvalidArgumentError');
    expect(everyMode((a) => ef.einsum('ii', a), [ef.constant([['a', 'b'], ['c', 'd']])])).toBe('InvalidArgumentError');
  });

  test("einsum 'ii->i' takes the diagonal by select (an off-diagonal inf gave NaN eagerly)", () => {
    const x = ef.constant([[1, Infinity], [-Infinity, 2]]);
    expect(vals(ef.einsum('ii->i', x))).toEqual([1, 2]);
    expect(everyMode((a) => ef.einsum('ii->i', a), [x])).toBe('[["(2,)","float32",[1,2]]]');
  });

  test('einsum broadcasts a 1 against a 0 in the ellipsis (was: a broadcastTo error eagerly, a result traced)', () => {
    expect(everyMode((a, b) => ef.einsum('...ij,...jk->...ik', a, b), [ef.ones([2, 1, 2, 3]), ef.ones([0, 3, 2])])).toMatch(/"\(2, 0, 2, 2\)"/);
  });

  test('repeat refuses a non-integer count also on an empty input', () => {
    expect(everyMode((a) => ef.repeat(a, 0.001), [ef.zeros([3, 0])])).toBe('InvalidArgumentError');
  });

  test('roll and meshgrid free partial results when a later argument fails', () => {
    const x = ef.ones([3]);
    const before = ef.memory().numTensors;
    expect(() => ef.roll(ef.ones([3]), [-1, 1], [0, 1])).toThrow(/roll: axis out of range/);
    expect(() => (ef.meshgrid as unknown as (...a: unknown[]) => T[])(x, undefined)).toThrow(TypeError);
    expect(ef.memory().numTensors - before).toBe(1);
  });

  test('lrn gradient record checks dy against the input', () => {
    const P = ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>;
    expect(everyMode((dy, x) => ef.internal.bind(P.lrn_grad, [dy, x, x], { depthRadius: 1, bias: 1, alpha: 1, beta: 0.5 })[0], [ef.ones([1, 1, 0, 3]), ef.ones([1, 1, 1, 3])])).toBe('InvalidArgumentError');
  });

  test('searchsorted of no values is empty, without leaks', () => {
    expect(everyMode((s, v) => ef.searchsorted(s, v), [ef.ones([2, 4]), ef.zeros([2, 0])])).toBe('[["(2, 0)","int32",[]]]');
  });

  test('unsortedSegmentSum with 65536 segments is fast (tfjs\'s cpu kernel works per segment: seconds)', () => {
    const t0 = Date.now();
    const r = ef.math.unsortedSegmentSum(ef.constant([1, 2, 3, 4]), ef.constant([0, 1, -1, 3], 'int32'), 65536);
    expect(Date.now() - t0).toBeLessThan(500);
    expect(vals(r).slice(0, 4)).toEqual([1, 2, 0, 4]);
  });

  test('slice with tensor sizes of a scalar is the scalar; of an empty input, empty', () => {
    expect(everyMode((a, b) => ef.nn.sigmoidCrossEntropyWithLogits(a, b), [ef.constant(1), ef.constant(2)], true)).toMatch(/^\[\["\(\)","float32",\[0\.12/);
    expect(everyMode((a) => ef.roll(a, [-1, 1], [0, 1]), [ef.zeros([0, 3])])).toBe('[["(0, 3)","float32",[]]]');
  });

  // From the 100k run (seed 32).
  test('pad with a malformed paddings list: InvalidArgumentError (was: q.join is not a function)', () => {
    expect(() => ef.pad(ef.constant(['a', 'b', 'c']), [0] as unknown as [number, number][])).toThrow(/^pad: invalid paddings \(got \[0\]/);
    expect(() => ef.pad(ef.constant([1, 2, 3]), [0] as unknown as [number, number][], 'REFLECT')).toThrow(ef.errors.InvalidArgumentError);
  });

  test('stridedSliceGrad refuses a string cotangent (its bytes were undecodable)', () => {
    const P = ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>;
    const params = { begin: [1, 0], end: [3, 0], strides: [1, -2], beginMask: 2, endMask: 2, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0 };
    expect(() => ef.internal.bind(P.strided_slice_grad, [ef.fill([2, 2], 'a'), ef.ones([4, 4])], params)).toThrow(/stridedSliceGrad: unsupported dtype for the cotangent/);
  });

  test('clipByValue whose lower bound does not broadcast frees the intermediate', () => {
    const [t, lo, hi] = [ef.constant(1), ef.ones([1, 2]), ef.constant([3, 2, 3])];
    const before = ef.memory().numTensors;
    expect(() => ef.clipByValue(t, lo, hi)).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('repeat broadcasts a one-element list like a count, eager as with unknown dims (TF)', () => {
    expect(everyMode((a) => ef.repeat(a, [0]), [ef.zeros([4, 0, 3, 4])])).toBe('[["(0,)","float32",[]]]');
    expect(vals(ef.repeat([1, 2], [2]))).toEqual([1, 1, 2, 2]);
  });

  test('sequenceMask with a length of 2^31 - 1 is refused before its range is built (it hung)', () => {
    const t0 = Date.now();
    expect(() => ef.sequenceMask(ef.constant([[1, 2], [0, 2147483647]], 'int32'))).toThrow(ef.errors.ResourceExhaustedError);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  test('sequenceMask traced with unknown dims and a length of 2^31 - 1: ResourceExhaustedError before allocating (it hung)', () => {
    for (const spec of [new ef.TensorSpec([null], 'int32'), new ef.TensorSpec(null, 'int32')]) {
      const f = ef.trace((l: ef.Tensor) => ef.sequenceMask(l), { inputSignature: [spec] });
      const x = ef.constant([1, 2147483647], 'int32');
      f(ef.constant([1, 2], 'int32')).dispose();
      const before = ef.memory().numTensors;
      const t0 = Date.now();
      expect(() => f(x)).toThrow(/OOM when allocating a tensor of shape \[2,2147483647\]/);
      expect(() => f(x)).toThrow(ef.errors.ResourceExhaustedError);
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(ef.memory().numTensors).toBe(before);
      // The run-time width still gives TF's mask, for any rank of lengths.
      expect(f(ef.constant([1, 3, 0], 'int32')).arraySync()).toEqual([[true, false, false], [true, true, true], [false, false, false]]);
      if (spec.shape.rank === null) expect(f(ef.constant([[2], [0]], 'int32')).arraySync()).toEqual([[[true, true]], [[false, false]]]);
      expect(f(ef.zeros([0], 'int32')).shape.dims).toEqual([0, 0]);
      x.dispose();
    }
  });

  test('roll of an empty complex64 vector with unknown dims (an empty slice of complex64 with tensor sizes)', () => {
    expect(everyMode((a) => ef.roll(a, 1, 0), [c([], [], [0])])).toBe('[["(0,)","complex64",[]]]');
  });

  test('unsortedSegmentSum with 2^31 - 1 segments: ResourceExhaustedError, not a RangeError of a failed allocation', () => {
    expect(() => ef.math.unsortedSegmentSum(ef.ones([3, 2]), ef.constant([1, 0, 1], 'int32'), 2147483647)).toThrow(ef.errors.ResourceExhaustedError);
    const P = ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>;
    expect(() => ef.internal.bind(P.unsorted_segment_sum, [ef.ones([3, 2]), ef.constant([1, 0, 1], 'int32'), ef.constant(2147483647, 'int32')], {})).toThrow(ef.errors.ResourceExhaustedError);
  });
});


describe('the 100k op run at the file-fuzzer commit: a tensor where a number belongs fails alike eager and traced', () => {
  // Traced, the bad argument is a symbolic tensor: formatting it, reading it as a number, or reading it as dims
  // first failed differently (a TypeError of the JS conversion, or the dims error before another bad argument's).
  const f32 = (shape: number[]): T => ef.ones(shape);
  const i32 = (shape: number[]): T => ef.ones(shape, 'int32');
  test('random.categorical with a tensor numSamples (cases 18200, 68826, 78623, 83629)', () => {
    expect(everyMode((l, n) => ef.random.categorical(l, n as never), [f32([2, 1]), f32([2, 4])])).toBe('InvalidArgumentError');
    expect(everyMode((l, n) => ef.random.categorical(l, n as never), [f32([1, 1]), i32([3])])).toBe('InvalidArgumentError');
  });
  test('signal.stft with a tensor frameLength (cases 71358, 80298, 97014, ...)', () => {
    expect(everyMode((x, n) => ef.signal.stft(x, n as never, 1), [f32([4]), f32([1])])).toBe('InvalidArgumentError');
    expect(everyMode((x, n) => ef.signal.stft(x, n as never, 1), [f32([1, 1, 1]), i32([1, 1, 1])])).toBe('InvalidArgumentError');
  });
  test('booleanMask with a tensor axis, with unknown dims too (cases 35820, 59413, 60312, 92535)', () => {
    expect(everyMode((x, m, a) => ef.booleanMask(x, m, a as never), [f32([1, 3]), ef.constant([true]), i32([2])])).toBe('InvalidArgumentError');
  });
  test('a missing argument is reported before a symbolic shape argument (stridedSlice case 8543, conv3dTranspose case 68700)', () => {
    expect(everyMode((x, b) => (ef.stridedSlice as (...a: unknown[]) => T)(x, b), [i32([2]), i32([2])])).toBe('TypeError');
    expect(() => (ef.stridedSlice as (...a: unknown[]) => T)(ef.ones([2]), [0])).toThrow(/stridedSlice: missing argument 'end'/);
  });
  test('fill and zeros check their dtype before dims given as a tensor (case 26526)', () => {
    expect(everyMode((s) => ef.zeros(s as never, [[1, 2], [3]] as never), [ef.constant([2], 'int32')])).toBe('TypeError');
    expect(everyMode((s) => ef.fill(s as never, 1, 'nope' as never), [ef.constant([2], 'int32')])).toBe('TypeError');
  });
});

describe('the op run after round 3 merges (seed 32, 5k cases): refused calls leak nothing', () => {
  test('slice with a begin tensor of the wrong dtype frees the size vector it made (cases 2816, 3048)', () => {
    const x = ef.ones([1, 3, 2]);
    const begin = ef.ones([3], 'bool');
    const before = ef.memory().numTensors;
    expect(() => ef.slice(x, begin as never)).toThrow(/slice: unsupported dtype for begin \(got bool, expected int32\)/);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose([x, begin]);
  });
  test('signal.frame with padEnd refuses a string signal in every mode, as TF (case 23355: traced with unknown dims failed in a cast)', () => {
    const strings = ef.constant([['a', 'b'], ['c', 'd']]);
    expect(everyMode((x) => ef.signal.frame(x, 3, 2, { padEnd: true, padValue: 5 }), [strings])).toBe('InvalidArgumentError');
    expect(everyMode((x) => ef.signal.frame(x, 3, 2, { padEnd: true, padValue: 5 }), [ef.slice(strings, [0, 0], [2, 0])])).toBe('InvalidArgumentError');
    expect(ef.signal.frame(strings, 1, 1).shape.dims).toEqual([2, 2, 1]);
  });
  test('broadcast_like of [3, 1] against a [3] like is [3, 3] eagerly too, as its infer and traced runs say (case 52971 at 100k)', () => {
    const P = ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>;
    const y = everyMode((x, l) => ef.internal.bind(P.broadcast_like, [x, l], {})[0], [ef.constant([[1], [2], [3]]), ef.ones([3])]);
    expect(JSON.parse(y)).toEqual([['(3, 3)', 'float32', [1, 1, 1, 2, 2, 2, 3, 3, 3]]]);
  });
  test('seed 33: range with a tensor bound frees what it converted when a later bound is refused; zeros of an empty dims vector (cases 5565, 6483, 39650)', () => {
    const [x, one] = [ef.ones([2, 3]), ef.constant(1)];
    const before = ef.memory().numTensors;
    expect(() => ef.range(x, 3, { axis: -1 } as never)).toThrow(TypeError);
    expect(() => ef.range(one, 1, 'float32' as never)).toThrow(TypeError);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose([x, one]);
    expect(everyMode((d) => ef.zeros(d as never), [ef.constant([], 'int32')])).toBe(JSON.stringify([['()', 'float32', [0]]]));
  });
  test('seed 34: broadcastTo to a run-time shape past 2^31 elements is ResourceExhaustedError in every mode; inTopK of int32 scores with unknown dims (cases 26740, 58779)', () => {
    expect(everyMode((x, s) => ef.broadcastTo(x, s as never), [ef.ones([4]), ef.constant([2147483647, 2, 3, 4], 'int32')])).toBe('ResourceExhaustedError');
    expect(everyMode((t, p) => ef.nn.inTopK(t, p, 2), [ef.constant([0, 1, 2, 0], 'int32'), ef.ones([5, 3], 'int32')])).toBe('InvalidArgumentError');
    expect(everyMode((t, p) => ef.nn.inTopK(t, p, 1), [ef.constant([0, 2], 'int32'), ef.constant([[3, 1, 2], [0, 1, 5]], 'int32')])).toBe(JSON.stringify([['(2,)', 'bool', [1, 1]]]));
  });
  test('seed 37: clipByValue whose bounds would grow an empty t refuses in every mode, unknown dims included (case 10476)', () => {
    expect(everyMode((t, lo, hi) => ef.clipByValue(t, lo, hi), [ef.zeros([0, 4, 1, 1]), ef.zeros([0, 4, 1, 1]), ef.constant([-4, 3])])).toBe('InvalidArgumentError');
    expect(everyMode((t, lo, hi) => ef.clipByValue(t, lo, hi), [ef.zeros([0, 4, 1, 2]), ef.zeros([0, 4, 1, 1]), ef.constant([-4, 3])])).toBe(JSON.stringify([['(0, 4, 1, 2)', 'float32', []]]));
    expect(everyMode((t, lo, hi) => ef.clipByValue(t, lo, hi), [ef.constant([[-5, 0, 5]]), ef.constant(-1), ef.constant([1, 2, 3])])).toBe(JSON.stringify([['(1, 3)', 'float32', [-1, 0, 3]]]));
  });
  test('reduceMean of complex64 is the mean of each part, as TF; reduceStd of complex64 refuses without a leak (case 258)', () => {
    const z = ef.complex(ef.constant([[1, 2, 3], [4, 5, 9]]), ef.constant([[0, -3, 6], [1, 1, 1]]));
    const before = ef.memory().numTensors;
    const m = ef.reduceMean(z, -1, true);
    expect(m.dtype).toBe('complex64');
    // complex64 values read interleaved (re, im) per element.
    expect(Array.from(m.dataSync() as Float32Array)).toEqual([2, 1, 6, 1]);
    m.dispose();
    expect(ef.memory().numTensors).toBe(before);
    expect(() => ef.math.reduceStd(z, -1, true)).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors).toBe(before);
    z.dispose();
  });
  test('seed 42: pad of complex64 pads the real part with the value and the imaginary part with 0, as TF (case 3481)', () => {
    const z = ef.complex(ef.constant([[1, 2], [3, 4]]), ef.constant([[5, 6], [7, 8]]));
    const before = ef.memory().numTensors;
    const y = ef.pad(z, [[1, 0], [0, 1]], 'CONSTANT', 9);
    // TF 2.21: real [9, 9, 9, 1, 2, 9, 3, 4, 9], imag [0, 0, 0, 5, 6, 0, 7, 8, 0]; read interleaved (re, im).
    expect(y.shape.asList()).toEqual([3, 3]);
    expect(vals(y)).toEqual([9, 0, 9, 0, 9, 0, 1, 5, 2, 6, 9, 0, 3, 7, 4, 8, 9, 0]);
    y.dispose();
    expect(ef.memory().numTensors).toBe(before);
    // The signal.frame case itself: an empty complex64 signal framed with padEnd agrees in every mode.
    expect(everyMode((s) => ef.signal.frame(s, 3, 2, { padEnd: true }), [ef.complex(ef.zeros([2, 0]), ef.zeros([2, 0]))])).toBe(JSON.stringify([['(2, 0, 3)', 'complex64', []]]));
    z.dispose();
  });
});
