// The conv and pool gradient records lowered to ONNX (ConvTranspose, stacked tap slices times dy or a Conv over
// transposed operands, MaxPool Indices + ScatterElements or MaxUnpool, ConvTranspose with a ones kernel): compiled
// in strict mode (so every backward op is in the ONNX segment), against the uncompiled tfjs path and central finite
// differences, over SAME / VALID / explicit padding, strides and dilations.
import * as ef from 'eagerflow';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const vals = (n: number, a: number, b: number): Float32Array => Float32Array.from({ length: n }, (_, i) => Math.sin(a * i + b));
const size = (s: number[]): number => s.reduce((x, y) => x * y, 1);
const arr = (t: ef.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>);
/** The nodes of the first ONNX segment of `f`'s concrete function for `args` (none: []). */
const segmentNodes = (f: ef.TracedFunction<(...a: ef.Tensor[]) => unknown>, ...args: ef.Tensor[]): string[] => /onnx_segment\[([^\]]*)\]/.exec(f.getConcreteFunction(...args).experimentalGetCompilerIr())?.[1].split(',') ?? [];

type Layer = (x: ef.Tensor, f: ef.Tensor) => ef.Tensor;

/**
 * loss = sum(layer(x, f) * w) with fixed weights w; returns [dloss/dx, dloss/df] from a tape inside the
 * traced function (compiled: the backward ops are in the segment) and from the uncompiled trace.
 */
function check(layer: Layer, xShape: number[], fShape: number[] | null, backward: string[]): void {
  const x = ef.constant(vals(size(xShape), 0.91, 0.2), 'float32', xShape);
  const f = fShape === null ? ef.constant(0) : ef.constant(vals(size(fShape), 1.37, 0.5), 'float32', fShape);
  const outShape = layer(x, f).shape.asList() as number[];
  const w = ef.constant(vals(size(outShape), 0.53, 1.1), 'float32', outShape);
  const loss = (a: ef.Tensor, b: ef.Tensor): ef.Tensor => ef.reduceSum(ef.multiply(layer(a, b), w));
  const grads = (a: ef.Tensor, b: ef.Tensor): ef.Tensor[] => {
    const tape = new ef.GradientTape();
    const l = tape.record(() => {
      tape.watch([a, b]);
      return loss(a, b);
    });
    return tape.gradient(l, fShape === null ? [a] : [a, b]) as ef.Tensor[];
  };
  const jit = ef.trace(grads, { jitCompile: 'strict' });
  const plain = ef.trace(grads);
  // The first calls trace (graphs pin their constants); steady calls after them leak nothing.
  [...(jit(x, f) as ef.Tensor[]), ...(plain(x, f) as ef.Tensor[])].forEach((t) => t.dispose());
  const before = ef.memory().numTensors;
  const got = jit(x, f) as ef.Tensor[];
  const want = plain(x, f) as ef.Tensor[];
  got.forEach((g, k) => expect(arr(g)).toEqual(arr(want[k]).map((v) => expect.closeTo(v, 4))));
  const wantVals = want.map(arr);
  want.forEach((t) => t.dispose());
  const gotVals = got.map(arr);
  got.forEach((t) => t.dispose());
  expect(ef.memory().numTensors).toBe(before);
  expect(gotVals.length).toBe(wantVals.length);
  const segment = segmentNodes(jit, x, f);
  for (const op of backward) expect(segment).toContain(op);
  // Central differences (the loss is at most quadratic in x and f apart from max-pool switches: exact up to rounding).
  const probe = (t: ef.Tensor, which: 0 | 1, gd: number[]): void => {
    const base = t.dataSync() as Float32Array;
    for (const i of [0, 7, Math.floor(base.length / 2), base.length - 1]) {
      const at = (d: number): number => {
        const moved = Float32Array.from(base);
        moved[i] += d;
        const m = ef.constant(moved, 'float32', t.shape.asList() as number[]);
        const v = ef.tidy(() => (which === 0 ? loss(m, f) : loss(x, m)).dataSync() as Float32Array)[0];
        m.dispose();
        return v;
      };
      const eps = 1e-2;
      expect((at(eps) - at(-eps)) / (2 * eps)).toBeCloseTo(gd[i], 1);
    }
  };
  probe(x, 0, gotVals[0]);
  if (fShape !== null) probe(f, 1, gotVals[1]);
  [jit, plain].forEach((t) => t.dispose());
  [x, f, w].forEach((t) => t.dispose());
}

type Pad = 'SAME' | 'VALID' | [number, number][];
const convCases: [string, number | number[], Pad, number | number[]][] = [
  ['SAME, stride 1', 1, 'SAME', 1],
  ['SAME, stride 2', 2, 'SAME', 1],
  ['SAME, strides [2, 1]', [2, 1], 'SAME', 1],
  ['VALID, stride 2', 2, 'VALID', 1],
  ['VALID, dilation 2', 1, 'VALID', 2],
  ['SAME, dilations [2, 1]', 1, 'SAME', [2, 1]],
  ['explicit [[0,0],[1,2],[2,0],[0,0]], stride 2', 2, [[0, 0], [1, 2], [2, 0], [0, 0]], 1],
];

describe('conv2d backprops (ConvTranspose; the filter gradient from stacked tap slices, or a Conv over transposed operands)', () => {
  for (const [name, s, pad, d] of convCases) {
    test(name, () => check((x, f) => ef.nn.conv2d(x, f, s, pad, { dilations: d }), [2, 7, 6, 3], [3, 2, 3, 4], ['conv2d_backprop_input', 'conv2d_backprop_filter']));
  }
  // More than 25 taps: the filter gradient is the Conv over transposed operands.
  test('6x6 filter, SAME, stride 2 (Conv form)', () => check((x, f) => ef.nn.conv2d(x, f, 2, 'SAME'), [2, 7, 6, 3], [6, 6, 3, 4], ['conv2d_backprop_input', 'conv2d_backprop_filter']));
  test('6x6 filter, VALID (Conv form)', () => check((x, f) => ef.nn.conv2d(x, f, 1, 'VALID'), [2, 7, 6, 3], [6, 6, 3, 4], ['conv2d_backprop_input', 'conv2d_backprop_filter']));
});

describe('depthwise conv2d backprops (grouped ConvTranspose and Conv)', () => {
  for (const [name, s, pad, d] of convCases.filter(([, , p]) => typeof p === 'string')) {
    test(name, () => check((x, f) => ef.nn.depthwiseConv2d(x, f, s, pad, { dilations: d }), [2, 7, 6, 3], [3, 2, 3, 2], ['depthwise_conv2d_backprop_input', 'depthwise_conv2d_backprop_filter']));
  }
});

const poolCases: [string, number | number[], number | number[], 'SAME' | 'VALID'][] = [
  ['3x3 stride 2 SAME', 3, 2, 'SAME'],
  ['2x2 stride 2 VALID', 2, 2, 'VALID'],
  ['[3, 2] strides [1, 2] SAME (overlapping windows)', [3, 2], [1, 2], 'SAME'],
  ['3x3 stride 1 VALID (overlapping windows)', 3, 1, 'VALID'],
  // Windows that do not overlap (max pool's gradient is a MaxUnpool): odd sizes, SAME padding, gaps between windows.
  ['2x2 stride 2 SAME (odd sizes)', 2, 2, 'SAME'],
  ['3x3 stride 3 SAME (a padded row before and after)', 3, 3, 'SAME'],
  ['[2, 3] strides 3 VALID (gaps between windows)', [2, 3], 3, 'VALID'],
];

describe('pool gradients (MaxPool Indices + ScatterElements or MaxUnpool; ConvTranspose with a ones kernel)', () => {
  for (const [name, k, s, pad] of poolCases) {
    test(`maxPool ${name}`, () => check((x) => ef.nn.maxPool(x, k, s, pad), [2, 7, 6, 3], null, ['max_pool_grad']));
    // Squared: the gradient of a linear function of x would be folded to a constant while tracing.
    test(`avgPool ${name}`, () => check((x) => ef.square(ef.nn.avgPool(x, k, s, pad)), [2, 7, 6, 3], null, ['avg_pool_grad']));
  }

  test('maxPool gradient on ties goes to the first maximum of each window, as in TF', () => {
    // All equal: TF routes each window's gradient to its first (top-left) element.
    const x = ef.ones([1, 4, 4, 1]);
    const g = ef.trace((a: ef.Tensor) => {
      const tape = new ef.GradientTape();
      const l = tape.record(() => {
        tape.watch(a);
        return ef.reduceSum(ef.nn.maxPool(a, 2, 2, 'VALID'));
      });
      return tape.gradient(l, a) as ef.Tensor;
    }, { jitCompile: 'strict' });
    const got = g(x) as ef.Tensor;
    expect(arr(got)).toEqual([1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0]);
    [got, x].forEach((t) => t.dispose());
    g.dispose();
  });

  test('maxPool gradient of non-overlapping windows: ties at any tap, -inf and NaN windows, as TF routes them', () => {
    // 2x2 stride 2 over [1, 4, 6, 2] (MaxUnpool path); per channel, row-major. TF's MaxPoolGrad keeps the first tap
    // (row-major) that no later tap exceeds; a window of -inf gives it to its first tap, as does a leading NaN.
    const c0 = [
      [1, 3, 5, 5, -Infinity, -Infinity],
      [3, 2, 4, 5, -Infinity, -Infinity],
      [0, 1, 2, 2, NaN, 1],
      [1, 1, 2, 7, 4, 1],
    ];
    const c1 = [
      [9, 9, 0, 0, 2, 8],
      [9, 9, 0, 1, 8, 8],
      [-1, -2, 6, 6, 0, 0],
      [-3, -1, 6, 6, 0, 0],
    ];
    const x = ef.constant(Float32Array.from(c0.flatMap((row, i) => row.flatMap((v, j) => [v, c1[i][j]]))), 'float32', [1, 4, 6, 2]);
    const dy = ef.constant(Float32Array.from({ length: 12 }, (_, i) => i + 1), 'float32', [1, 2, 3, 2]);
    const grad = (a: ef.Tensor): ef.Tensor => {
      const tape = new ef.GradientTape();
      const l = tape.record(() => {
        tape.watch(a);
        return ef.reduceSum(ef.multiply(ef.nn.maxPool(a, 2, 2, 'VALID'), dy));
      });
      return tape.gradient(l, a) as ef.Tensor;
    };
    const jit = ef.trace(grad, { jitCompile: 'strict' });
    const got = jit(x) as ef.Tensor;
    // dy per window (channel 0: 1, 3, 5 / 7, 9, 11; channel 1: 2, 4, 6 / 8, 10, 12) at TF's tap: TF 2.21's
    // tf.raw_ops.MaxPoolGrad on this input gives these planes, compiled and uncompiled (tfjs's own argmax would give
    // the leading-NaN window to its 4 and the -inf window to no index at all: -1, which ScatterNd refuses).
    const tf0 = [
      [0, 1, 3, 0, 5, 0],
      [0, 0, 0, 0, 0, 0],
      [0, 7, 0, 0, 11, 0],
      [0, 0, 0, 9, 0, 0],
    ];
    const tf1 = [
      [2, 0, 0, 0, 0, 6],
      [0, 0, 0, 4, 0, 0],
      [8, 0, 10, 0, 12, 0],
      [0, 0, 0, 0, 0, 0],
    ];
    const expected = tf0.flatMap((row, i) => row.flatMap((v, j) => [v, tf1[i][j]]));
    expect(arr(got)).toEqual(expected);
    const before = ef.memory().numTensors;
    const eager = ef.tidy(() => grad(x));
    expect(arr(eager)).toEqual(expected);
    const tracedGrad = ef.trace(grad);
    const traced = tracedGrad(x) as ef.Tensor;
    tracedGrad.dispose();
    expect(arr(traced)).toEqual(expected);
    [eager, traced].forEach((t) => t.dispose());
    expect(ef.memory().numTensors).toBe(before);
    expect(segmentNodes(jit, x)).toContain('max_pool_grad');
    [got, x, dy].forEach((t) => t.dispose());
    jit.dispose();
  });

  test('max_pool with its gradient in one segment, and a gradient on its own: the uncompiled values (both window kinds)', () => {
    const x = ef.constant(vals(2 * 7 * 6 * 3, 0.91, 0.2), 'float32', [2, 7, 6, 3]);
    for (const [k, st] of [[2, 2], [3, 2]] as const) {
      const params = { ksize: [k, k], strides: [st, st], padding: 'SAME', dataFormat: 'NHWC' };
      const pooled = ef.nn.maxPool(x, k, st, 'SAME');
      const dy = ef.constant(vals(pooled.shape.asList().reduce((a, b) => (a as number) * (b as number), 1) as number, 0.37, 0.9), 'float32', pooled.shape.asList() as number[]);
      // With the pool in the graph (a tape): one segment holds both.
      const taped = (a: ef.Tensor): ef.Tensor => {
        const tape = new ef.GradientTape();
        const l = tape.record(() => {
          tape.watch(a);
          return ef.reduceSum(ef.multiply(ef.nn.maxPool(a, k, st, 'SAME'), dy));
        });
        return tape.gradient(l, a) as ef.Tensor;
      };
      // The gradient record alone, the pooled values an input: MaxPool Indices of its own.
      const alone = (a: ef.Tensor, y: ef.Tensor, d: ef.Tensor): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES.max_pool_grad, [a, y, d], params)[0];
      const [jt, pt, ja, pa] = [ef.trace(taped, { jitCompile: 'strict' }), ef.trace(taped), ef.trace(alone, { jitCompile: 'strict' }), ef.trace(alone)];
      const want = pt(x) as ef.Tensor;
      const got = [jt(x) as ef.Tensor, ja(x, pooled, dy) as ef.Tensor, pa(x, pooled, dy) as ef.Tensor];
      got.forEach((t) => expect(arr(t)).toEqual(arr(want).map((v) => expect.closeTo(v, 5))));
      expect(segmentNodes(jt, x)).toEqual(expect.arrayContaining(['max_pool', 'max_pool_grad']));
      [want, ...got, pooled, dy].forEach((t) => t.dispose());
      [jt, pt, ja, pa].forEach((f) => f.dispose());
    }
    x.dispose();
  });
});
