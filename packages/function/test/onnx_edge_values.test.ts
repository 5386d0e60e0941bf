// Edge values where jitCompile (ONNX Runtime) and the uncompiled kernels disagreed, found by the op fuzzer's compiled
// mode (docs/fuzzing.md): each case checks the eager, traced and compiled function against TensorFlow 2.21's value,
// from fixtures/edge_values.json (scripts/tf-golden/edge_values.py writes it; the test never runs Python).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import { everySegmentInOnnxRuntime } from './onnx_hooks';

type T = ef.Tensor;

everySegmentInOnnxRuntime();

const arr = (t: T): number[] => Array.from(t.dataSync() as ArrayLike<number>);
const N = NaN;
const INF = Infinity;

const GOLDEN = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'edge_values.json'), 'utf8')) as { values: Record<string, (number | string)[]> };
/** TF 2.21's values of case `name` (non-finite ones are stored as strings). */
const tf = (name: string): number[] => GOLDEN.values[name].map(Number);

/**
 * `fn`'s values eagerly, traced and compiled (the compiled one must run a segment, holding every node of `together`
 * if given); all must equal `want`.
 */
function allModes(fn: (...xs: T[]) => T, xs: T[], want: number[], close = false, together: string[] = []): void {
  const before = ef.memory().numTensors;
  const plain = ef.trace(fn);
  const jit = ef.trace(fn, { jitCompile: true });
  for (const [mode, y] of [['eager', ef.tidy(() => fn(...xs))], ['traced', plain(...xs) as T], ['compiled', jit(...xs) as T]] as const) {
    const got = arr(y);
    y.dispose();
    const ok = got.length === want.length && got.every((v, i) => (close ? Math.abs(v - want[i]) <= 1e-5 * Math.max(1, Math.abs(want[i])) || Object.is(v, want[i]) : Object.is(v, want[i])));
    expect({ mode, got }).toEqual({ mode, got: ok ? got : want });
  }
  const segment = /onnx_segment\[([^\]]*)\]/.exec(jit.getConcreteFunction(...xs).experimentalGetCompilerIr());
  expect(segment).not.toBeNull();
  expect((segment as RegExpExecArray)[1].split(',')).toEqual(expect.arrayContaining(together));
  plain.dispose();
  jit.dispose();
  expect(ef.memory().numTensors).toBe(before);
}

test('reduceMax / reduceMin / reduceProd of a run holding NaN are NaN (ONNX Runtime skipped it by position)', () => {
  const x = ef.constant([[-0.015625, 2.625], [1.90625, 1.375], [-2.703125, 0.046875], [1.421875, -1.890625], [N, -2.625], [-2.5, -1.359375]]);
  const three = (t: T): T => ef.reshape(t, [2, 3, 2]);
  // TF: tf.reduce_max(x, axis=[1], keepdims=True) = [[1.90625, 2.625], [nan, -1.359375]].
  allModes((t) => ef.reduceMax(three(t), [1], true), [x], tf('reduceMax'));
  allModes((t) => ef.reduceMin(three(t), [1]), [x], tf('reduceMin'));
  const z = ef.constant([0, N, 2, 3]);
  allModes((t) => ef.reduceProd(ef.reshape(t, [2, 2]), 1), [z], tf('reduceProd'));
  [x, z].forEach((t) => t.dispose());
});

test('max pooling skips NaN from the lowest float, as TF 2.21 does (ONNX Runtime restarted the window at a NaN)', () => {
  // 1x3 windows. TF: [inf, NaN, 2.25] -> inf (ONNX Runtime gave 2.25); [NaN, 1, 2] -> 2; [-inf, NaN, NaN] and
  // [NaN, NaN, NaN] -> -3.4028235e38 (tfjs's kernel gave -inf).
  const x = ef.constant([INF, N, 2.25, N, 1, 2, -INF, N, N, N, N, N], 'float32', [1, 4, 3, 1]);
  allModes((t) => ef.nn.maxPool2d(t, [1, 3], [1, 3], 'VALID'), [x], tf('maxPool'));
  x.dispose();
});

test('a max pool and its gradient in one compiled segment: TF 2.21 values and routing around NaN and -inf', () => {
  // TF's MaxPool skips NaN from the lowest float; its MaxPoolGrad starts each window's argmax at the first element
  // and moves on a greater one only, so a leading NaN keeps the gradient. ONNX Runtime's MaxPool with Indices does
  // the latter for its values too: a segment sharing it read [inf, NaN, -inf, NaN] for TF's [inf, 2, lowest, lowest].
  const poolAndGrad = (ksize: number[], strides: number[], padding: 'SAME' | 'VALID', w: T) => (t: T): T => {
    const tape = new ef.GradientTape();
    let y: T | null = null;
    const loss = tape.record(() => {
      tape.watch(t);
      y = ef.nn.maxPool2d(t, ksize, strides, padding);
      return ef.reduceSum(ef.multiply(y, w));
    });
    const dx = tape.gradient(loss, t) as T;
    return ef.concat([ef.reshape(y as unknown as T, [-1]), ef.reshape(dx, [-1])], 0);
  };
  const x1 = ef.constant([INF, N, 2.25, N, 1, 2, -INF, N, N, N, N, N], 'float32', [1, 4, 3, 1]);
  const w1 = ef.constant([1, 2, 3, 4], 'float32', [1, 4, 1, 1]);
  const both = ['max_pool', 'max_pool_grad'];
  allModes(poolAndGrad([1, 3], [1, 3], 'VALID', w1), [x1], [...tf('maxPoolWithGrad1x3'), ...tf('maxPoolGrad1x3')], false, both);
  // Overlapping 3x3 SAME windows, stride 2 (the ScatterElements gradient), two images and channels.
  const grid = Float32Array.from({ length: 100 }, (_, i) => Math.sin(i * 0.77));
  [0, 5, 21, 40, 62, 63, 77, 98].forEach((i, k) => (grid[i] = [N, N, -INF, N, N, -INF, N, INF][k]));
  const x2 = ef.constant(grid, 'float32', [2, 5, 5, 2]);
  const w2 = ef.constant(Float32Array.from({ length: 36 }, (_, i) => i + 1), 'float32', [2, 3, 3, 2]);
  allModes(poolAndGrad([3, 3], [2, 2], 'SAME', w2), [x2], [...tf('maxPoolWithGradSame'), ...tf('maxPoolGradSame')], true, both);
  [x1, w1, x2, w2].forEach((t) => t.dispose());
});

test('argMax / argMin skip NaN and start from index 0 (TF 2.21 values)', () => {
  const rows = ef.constant([[N, 0.156, 2.15, 1, -0.578], [0.5, N, -1, 2, 0], [N, -1, 3, 2, N], [N, N, N, N, N]]);
  // TF: argmax [2, 3, 2, 0], argmin [4, 2, 1, 0]; tfjs's argMin kernel kept a leading NaN (row 0 read 0).
  allModes((t) => ef.argMax(t, 1), [rows], tf('argMax'));
  allModes((t) => ef.argMin(t, 1), [rows], tf('argMin'));
  rows.dispose();
});

test('int32 sums and products wrap around as TF does (ONNX Runtime saturated at 2147483647)', () => {
  const x = ef.constant([2147483647, 2, 4, 1, 1, 7], 'int32', [3, 2]);
  // Column 0: 2147483647 + 4 + 1 wraps to -2147483644; the matrix 1-norm is then max(-2147483644, 10) = 10.
  allModes((t) => ef.reduceSum(t, 0), [x], tf('sumInt32'));
  allModes((t) => ef.norm(t, 1, [0, 1]), [x], tf('norm1Int32'));
  const p = ef.constant([65536, 65536, 3], 'int32');
  allModes((t) => ef.reduceProd(t), [p], tf('prodInt32'));
  [x, p].forEach((t) => t.dispose());
});

test('log1p and expm1 of large inputs stay finite (the compiled Kahan product overflowed)', () => {
  const x = ef.constant([3.4e38, 88, 1e-7]);
  // TF: log1p(3.4e38) = 88.72201; expm1(88) = 1.6516363e38.
  allModes((t) => ef.math.log1p(t), [x], tf('log1p'), true);
  const y = ef.constant([88, -1e-7]);
  allModes((t) => ef.math.expm1(t), [y], tf('expm1'), true);
  [x, y].forEach((t) => t.dispose());
});

test('floormod with a divisor far larger than the dividend (TF: the dividend moved by the divisor, not 0)', () => {
  const a = ef.constant([-2.09375, 3, 3.4e38, -0.546875]);
  const b = ef.constant([3.4e38]);
  // TF 2.21: floormod(-2.09375, 3.4e38) = 3.4e38; floormod(3.4e38, 3.4e38) = 0; floormod(3, 3.4e38) = 3.
  allModes((u, v) => ef.math.floormod(u, v), [a, b], tf('floormod'));
  [a, b].forEach((t) => t.dispose());
});

test('topK with an infinity keeps every entry (tfjs kernel read [inf, 0.72] for the top 2 of [0.72, 1.17, inf])', () => {
  const x = ef.constant([[0.71875, 1.171875, INF], [-1.65625, -2.96875, -2.3125], [65504, -0.390625, 0.90625]]);
  allModes((t) => ef.nn.topK(t, 2).values, [x], tf('topKValues'));
  allModes((t) => ef.nn.topK(t, 2).indices, [x], tf('topKIndices'));
  // Uncompiled (the host sort), NaN sorts below every number as in TF: sort([2.125, NaN, -2.203125]) = [-2.203125, 2.125, NaN].
  const s = ef.sort(ef.constant([2.125, N, -2.203125]));
  expect(arr(s)).toEqual(tf('sortNaN'));
  [x, s].forEach((t) => t.dispose());
});

test('nearest resizing keeps int32 pixels exactly (tfjs carried them through float32: 2147483647 came out -2147483648)', () => {
  const x = ef.constant([7, 2147483647, -2147483648, 65537, 16777217, -3], 'int32', [1, 2, 3, 1]);
  allModes((t) => ef.image.resize(t, [2, 3], { method: 'nearest' }), [x], tf('resizeNearest23'));
  // TF 2.21: tf.image.resize(x, [1, 2], 'nearest') = [65537, -3] (half-pixel centres).
  allModes((t) => ef.image.resize(t, [1, 2], { method: 'nearest' }), [x], tf('resizeNearest12'));
  x.dispose();
});

test('bool selects and a rank-0 oneHot run (ONNX Runtime refused the session) with the uncompiled values', () => {
  const c = ef.constant([true, false, true]);
  const [a, b] = [ef.constant([true, true, false]), ef.constant([false, false, true])];
  allModes((q, u, v) => ef.logicalOr(ef.where(q, u, v), ef.equal(ef.cast(q, 'int32'), 2)), [c, a, b], tf('boolSelect'));
  const i = ef.constant(1, 'int32');
  allModes((t) => ef.multiply(ef.oneHot(t, 3), 2), [i], tf('oneHotScalar'));
  [c, a, b, i].forEach((t) => t.dispose());
});

test('empty values run uncompiled with TF shapes (a moment over [0, 3] came out [0, 3])', () => {
  const x = ef.zeros([0, 3]);
  const f = ef.trace((t: T) => ef.add(ef.math.reduceStd(t, -1, true), 1), { jitCompile: true });
  const y = f(x) as T;
  expect(y.shape.asList()).toEqual([0, 1]);
  [y, x].forEach((t) => t.dispose());
  f.dispose();
});

test('run-time pads and broadcast targets past the size limit refuse before ONNX Runtime allocates them', () => {
  const lengths = ef.constant([3, 2147483647], 'int32');
  const mask = ef.trace((l: T) => ef.sequenceMask(l), { jitCompile: true });
  const before = ef.memory().numTensors;
  const t0 = Date.now();
  expect(() => mask(lengths)).toThrow(/OOM when allocating a tensor of shape \[2,2147483647\]/);
  expect(Date.now() - t0).toBeLessThan(5000);
  const spread = ef.trace((x: T, shape: T) => ef.multiply(ef.broadcastTo(x, shape), 2), { jitCompile: true });
  const [x, shape] = [ef.constant([1, 2]), ef.constant([1 << 30, 2], 'int32')];
  expect(() => spread(x, shape)).toThrow(ef.errors.ResourceExhaustedError);
  expect(ef.memory().numTensors).toBe(before + 2);
  [lengths, x, shape].forEach((t) => t.dispose());
  [mask, spread].forEach((f) => f.dispose());
});
