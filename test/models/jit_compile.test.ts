// TF model in, ONNX out: imported graph models (@vladmandic/human and hand-built GraphDefs) run with
// ef.loadFunction(src, {jitCompile: true}) on ONNX Runtime and export with ef.toOnnx; both must equal
// the uncompiled loaded function (and tfjs-converter), and the exported model run by onnxruntime-node's
// public API (a plain Node process, like the op-table export test) must give the same outputs.
import * as ef from 'eagerflow';
import { runOnnxModels } from '../../packages/function/test/onnx_child';
import * as tf from '@tensorflow/tfjs-core';
import { A, Const, F, I, artifacts, asList, converterRun, inputFor, loadConverter, modelPath, node, relativeError, seeded } from './helpers';
import { thrown } from '../harness/thrown';

type T = ef.Tensor;
type Feed = { type: string; dims: number[]; data: number[] };

/** The compiled graph's listing: how many ONNX Runtime sessions, and the nodes left as JS steps. */
function compiledParts(g: ef.LoadedFunction): { segments: number; jsSteps: string[] } {
  const lines = g.getConcreteFunction().experimentalGetCompilerIr().split('\n').filter((l) => / = /.test(l));
  // Captured constants print as `const` lines: values, not steps.
  const ops = lines.map((l) => /= (\w+)/.exec(l)?.[1] ?? '').filter((o) => o !== 'const');
  return { segments: ops.filter((o) => o === 'onnx_segment').length, jsSteps: ops.filter((o) => o !== 'onnx_segment') };
}

/** Runs ONNX models through onnxruntime-node's public API in a plain Node process (Jest's realm rejects its typed arrays). */
function runOnnx(jobs: { model: Uint8Array; feeds: Record<string, Feed> }[]): { dims: number[]; data: number[] }[][] {
  const results = runOnnxModels(jobs.map((j) => ({ model: Buffer.from(j.model).toString('base64'), feeds: j.feeds })));
  return results.map((r) => {
    expect(r.error).toBeUndefined();
    const outs = r.outputs as Record<string, { dims: number[]; data: number[] }>;
    return Object.keys(outs).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3))).map((k) => outs[k]);
  });
}

const feedOf = (x: T): Feed => ({ type: x.dtype, dims: x.dims as number[], data: Array.from(x.dataSync() as ArrayLike<number>) });

describe('human models: ef.loadFunction(path, {jitCompile: true}) and ef.toOnnx', () => {
  test.each(['emotion', 'liveness'])('%s compiles to one ONNX Runtime session; compiled == uncompiled == tfjs-converter; the exported ONNX model runs the same', async (name) => {
    const plain = await ef.loadFunction(modelPath(name));
    const jit = await ef.loadFunction(modelPath(name), { jitCompile: true });
    expect(compiledParts(jit)).toEqual({ segments: 1, jsSteps: [] });
    const x = inputFor(plain, 11);
    const want = asList(plain(x) as T | T[]);
    const got = asList(jit(x) as T | T[]);
    // tfjs-converter on the small one (models.test.ts compares every model uncompiled with it).
    const model = name === 'emotion' ? await loadConverter(name) : null;
    const conv = model === null ? null : await converterRun(model, x);
    model?.dispose();
    got.forEach((t, k) => {
      expect(t.dims).toEqual(want[k].dims);
      expect(relativeError(t.dataSync() as Float32Array, want[k].dataSync() as Float32Array)).toBeLessThan(1e-5);
      if (conv !== null) expect(relativeError(t.dataSync() as Float32Array, conv[k].data)).toBeLessThan(2e-3);
    });
    // TF model in, ONNX out: onnxruntime-node's own API runs the exported bytes.
    const [outs] = runOnnx([{ model: ef.toOnnx(plain), feeds: { in0: feedOf(x) } }]);
    expect(outs.length).toBe(want.length);
    outs.forEach((o, k) => {
      expect(o.dims).toEqual(want[k].dims);
      expect(relativeError(o.data, want[k].dataSync() as Float32Array)).toBeLessThan(1e-5);
    });
    // No leaks over repeated compiled calls.
    const before = ef.memory().numTensors;
    for (let i = 0; i < 20; i++) asList(jit(x) as T | T[]).forEach((t) => t.dispose());
    expect(ef.memory().numTensors).toBe(before);
    [x, ...want, ...got].forEach((t) => t.dispose());
    plain.dispose();
    jit.dispose();
  });

  test('a dynamic batch (-1 dims) compiles once and runs any batch; the input gradient through the compiled model equals the uncompiled one', async () => {
    const plain = await ef.loadFunction(modelPath('liveness'));
    const jit = await ef.loadFunction(modelPath('liveness'), { jitCompile: true });
    for (const batch of [1, 3]) {
      const x = inputFor(plain, 5 + batch, batch);
      const [a, b] = [plain(x) as T, jit(x) as T];
      expect(b.dims).toEqual(a.dims);
      expect((b.dims as number[])[0]).toBe(batch);
      expect(relativeError(b.dataSync() as Float32Array, a.dataSync() as Float32Array)).toBeLessThan(1e-5);
      [x, a, b].forEach((t) => t.dispose());
    }
    const x = inputFor(plain, 9);
    const saliency = (g: ef.LoadedFunction): Float32Array => {
      const tape = new ef.GradientTape();
      const score = tape.record(() => (tape.watch(x), ef.reduceMax(g(x) as T)));
      const grad = tape.gradient(score, x) as T;
      const d = grad.dataSync() as Float32Array;
      [score, grad].forEach((t) => t.dispose());
      return d;
    };
    const want = saliency(plain);
    expect(Math.max(...Array.from(want, Math.abs))).toBeGreaterThan(0);
    expect(relativeError(saliency(jit), want)).toBeLessThan(1e-4);
    x.dispose();
    plain.dispose();
    jit.dispose();
  });
});

test('a loaded model called inside ef.trace(fn, {jitCompile: true}) compiles into the caller\'s one session', async () => {
  const g = await ef.loadFunction(modelPath('liveness'));
  const f = ef.trace((x: T) => ef.argMax(g(x) as T, 1), { jitCompile: true });
  const x = inputFor(g, 3, 2);
  const ir = f.getConcreteFunction(x).experimentalGetCompilerIr().split('\n').filter((l) => / = /.test(l) && !/= const/.test(l));
  expect(ir.length).toBe(1);
  expect(ir[0]).toMatch(/= onnx_segment\[fused_conv2d,.*arg_max\]/);
  const [a, b] = [f(x) as T, ef.argMax(g(x) as T, 1)];
  expect(a.arraySync()).toEqual(b.arraySync());
  [x, a, b].forEach((t) => t.dispose());
  f.dispose();
  g.dispose();
});

const f32 = (shape: number[], seed: number, lo = -1, hi = 1): Const => ({ dtype: 'float32', shape, values: Array.from(seeded(shape.reduce((a, b) => a * b, 1), seed, lo, hi)) });
const i32 = (values: number[], shape: number[] = []): Const => ({ dtype: 'int32', shape, values });
const ph = (name: string, shape: number[], dtype = F) => node(name, 'Placeholder', [], { dtype, shape: A.shape(shape) });

/** _FusedConv2D / FusedDepthwiseConv2dNative (BiasAdd + activation) on x [1, 6, 6, 2], as grappler writes them. */
function fusedConv(depthwise: boolean, act: string | null, padding: string, stride: number): tf.io.ModelArtifacts {
  const co = depthwise ? 4 : 3;
  const extra = act === 'Prelu' ? ['bias', 'alpha'] : ['bias'];
  return artifacts([
    ph('x', [1, 6, 6, 2]),
    node('y', depthwise ? 'FusedDepthwiseConv2dNative' : '_FusedConv2D', ['x', 'filter', ...extra], {
      T: F, strides: A.ints([1, stride, stride, 1]), padding: A.s(padding), data_format: A.s('NHWC'), dilations: A.ints([1, 1, 1, 1]),
      fused_ops: A.strs(['BiasAdd', ...(act ? [act] : [])]), num_args: A.i(extra.length), epsilon: A.f(0), leakyrelu_alpha: A.f(0.3),
    }),
  ], { filter: f32(depthwise ? [3, 3, 2, 2] : [3, 3, 2, 3], 21), bias: f32([co], 22), ...(act === 'Prelu' ? { alpha: f32([co], 23) } : {}) });
}

/** One op on placeholders `x` (and `y`), with Const inputs. */
const oneOp = (op: string, ins: string[], attr: Record<string, unknown>, consts: Record<string, Const>, phs: ReturnType<typeof ph>[]): tf.io.ModelArtifacts =>
  artifacts([...phs, node('out', op, ins, attr)], consts);

/** Loads `a` plain and compiled; requires every op in one session and equal outputs (exact for integer results). */
function compiledMatches(a: tf.io.ModelArtifacts, inputs: T[], tol: number): void {
  const plain = ef.loadFunction(a);
  const jit = ef.loadFunction(a, { jitCompile: true });
  expect(compiledParts(jit)).toEqual({ segments: 1, jsSteps: [] });
  const want = asList(plain(...inputs) as T | T[]);
  const got = asList(jit(...inputs) as T | T[]);
  expect(got.length).toBe(want.length);
  got.forEach((t, k) => {
    expect(t.dtype).toBe(want[k].dtype);
    expect(t.dims).toEqual(want[k].dims);
    expect(relativeError(t.dataSync() as Float32Array, want[k].dataSync() as Float32Array)).toBeLessThanOrEqual(tol);
  });
  [...want, ...got].forEach((t) => t.dispose());
  plain.dispose();
  jit.dispose();
}

describe('the import records the models need lower to ONNX and equal the uncompiled function', () => {
  const x = (): T => ef.constant(seeded(72, 31, -2, 2), 'float32', [1, 6, 6, 2]);

  test.each([
    [false, 'Relu', 'SAME', 1], [false, 'Relu6', 'VALID', 2], [false, 'Elu', 'SAME', 2], [false, 'Sigmoid', 'VALID', 1],
    [false, 'LeakyRelu', 'SAME', 1], [false, 'Prelu', 'SAME', 1], [false, null, 'VALID', 1],
    [true, 'Relu', 'SAME', 2], [true, 'Prelu', 'VALID', 1], [true, null, 'SAME', 1],
  ] as const)('fused conv depthwise=%s %s %s stride %d', (depthwise, act, padding, stride) => {
    const xt = x();
    compiledMatches(fusedConv(depthwise, act, padding, stride), [xt], 1e-6);
    xt.dispose();
  });

  test('_FusedConv2D with FusedBatchNorm and a residual Add, and _FusedMatMul with BiasAdd and Tanh (read op by op)', () => {
    const xt = x();
    const bn = artifacts([
      ph('x', [1, 6, 6, 2]),
      node('y', '_FusedConv2D', ['x', 'filter', 'scale', 'offset', 'mean', 'variance', 'res'], {
        T: F, strides: A.ints([1, 1, 1, 1]), padding: A.s('SAME'), data_format: A.s('NHWC'), dilations: A.ints([1, 1, 1, 1]),
        fused_ops: A.strs(['FusedBatchNorm', 'Add', 'Relu']), num_args: A.i(5), epsilon: A.f(1e-3),
      }),
    ], { filter: f32([3, 3, 2, 3], 24), scale: f32([3], 25), offset: f32([3], 26), mean: f32([3], 27), variance: f32([3], 28, 0.5, 2), res: f32([1, 6, 6, 3], 29) });
    compiledMatches(bn, [xt], 1e-6);
    const mm = artifacts([
      ph('x', [4, 5]),
      node('y', '_FusedMatMul', ['x', 'w', 'b'], { T: F, transpose_a: A.b(false), transpose_b: A.b(true), fused_ops: A.strs(['BiasAdd', 'Tanh']), num_args: A.i(1), epsilon: A.f(0) }),
    ], { w: f32([3, 5], 30), b: f32([3], 31) });
    const m = ef.constant(seeded(20, 32, -1, 1), 'float32', [4, 5]);
    compiledMatches(mm, [m], 1e-6);
    [xt, m].forEach((t) => t.dispose());
  });

  test.each([
    [[5, 7], false, false], [[5, 7], true, false], [[2, 3], true, false], [[5, 7], false, true], [[2, 3], false, true],
  ] as const)('ResizeBilinear to %j align_corners=%s half_pixel_centers=%s', (size, align, half) => {
    const xt = x();
    compiledMatches(oneOp('ResizeBilinear', ['x', 'size'], { T: F, align_corners: A.b(align), half_pixel_centers: A.b(half) }, { size: i32([...size], [2]) }, [ph('x', [1, 6, 6, 2])]), [xt], 1e-6);
    xt.dispose();
  });

  test('int32 FloorDiv and FloorMod by constants round toward -inf (negative dividends and divisors), exactly', () => {
    const a = ef.constant([-7, -6, -5, -1, 0, 1, 5, 6, 7, 2147483647, -2147483647], 'int32');
    for (const op of ['FloorDiv', 'FloorMod']) {
      for (const d of [3, -3]) compiledMatches(oneOp(op, ['x', 'd'], { T: I }, { d: i32([d]) }, [ph('x', [11], I)]), [a], 0);
      compiledMatches(oneOp(op, ['x', 'd'], { T: I }, { d: i32([2, -2, 5, -5, 7, 3, -3, 4, -4, 10, -10], [11]) }, [ph('x', [11], I)]), [a], 0);
    }
    a.dispose();
  });

  test('int32 FloorDiv by a placeholder or by a constant holding zero stays a JS step (a zero divisor must not reach ONNX Runtime)', () => {
    const byZero = oneOp('FloorDiv', ['x', 'd'], { T: I }, { d: i32([2, 0], [2]) }, [ph('x', [2], I)]);
    const byInput = oneOp('FloorDiv', ['x', 'y'], { T: I }, {}, [ph('x', [2], I), ph('y', [2], I)]);
    for (const a of [byZero, byInput]) {
      const jit = ef.loadFunction(a, { jitCompile: true });
      expect(compiledParts(jit).jsSteps).toEqual(['floordiv']);
      jit.dispose();
    }
  });

  test('StridedSlice (masks, negative strides, shrink and new axes), TopKV2, Unpack, SplitV, Split of a dynamic axis and GatherNd', () => {
    const xt = ef.constant(seeded(60, 41, -3, 3), 'float32', [3, 4, 5]);
    const ss = (begin: number[], end: number[], strides: number[], masks: Record<string, number>) =>
      oneOp('StridedSlice', ['x', 'b', 'e', 's'], { T: F, Index: I, ...Object.fromEntries(Object.entries(masks).map(([k, v]) => [k, A.i(v)])) }, { b: i32(begin, [begin.length]), e: i32(end, [end.length]), s: i32(strides, [strides.length]) }, [ph('x', [3, 4, 5])]);
    compiledMatches(ss([0, 1, 4], [0, 3, 0], [1, 1, -2], { begin_mask: 1, end_mask: 1 }), [xt], 0);
    compiledMatches(ss([1, 0, -1], [2, 0, -6], [1, 1, -1], { shrink_axis_mask: 1, new_axis_mask: 2 }), [xt], 0);
    compiledMatches(ss([0, 2], [0, 0], [1, -1], { ellipsis_mask: 1, end_mask: 2 }), [xt], 0);
    compiledMatches(oneOp('TopKV2', ['x', 'k'], { T: F, sorted: A.b(true) }, { k: i32([3]) }, [ph('x', [3, 4, 5])]), [xt], 0);
    compiledMatches(oneOp('Unpack', ['x'], { T: F, num: A.i(4), axis: A.i(1) }, {}, [ph('x', [3, 4, 5])]), [xt], 0);
    compiledMatches(oneOp('SplitV', ['x', 'sz', 'ax'], { T: F, Tlen: I, num_split: A.i(2) }, { sz: i32([2, -1], [2]), ax: i32([-1]) }, [ph('x', [3, 4, 5])]), [xt], 0);
    // Equal pieces of an axis only the run time knows (Split with num_outputs).
    const rows = ef.constant(seeded(24, 42, -1, 1), 'float32', [6, 4]);
    compiledMatches(oneOp('Split', ['ax', 'x'], { T: F, num_split: A.i(2) }, { ax: i32([0]) }, [ph('x', [-1, 4])]), [rows], 0);
    rows.dispose();
    compiledMatches(oneOp('GatherNd', ['x', 'i'], { Tparams: F, Tindices: I }, { i: i32([2, 3, 0, 0, 1, 2], [3, 2]) }, [ph('x', [3, 4, 5])]), [xt], 0);
    xt.dispose();
  });
});

describe('errors', () => {
  test("options.jitCompile must be true, false or 'strict'; 'strict' names an op without a lowering; nothing leaks", () => {
    const before = ef.memory().numTensors;
    const a = fusedConv(false, 'Relu', 'SAME', 1);
    expect(() => ef.loadFunction(a, { jitCompile: 'yes' as unknown as boolean })).toThrow(/jitCompile must be true, false or 'strict'.*got "yes"|jitCompile must be true, false or 'strict'/);
    const divByVar = oneOp('FloorDiv', ['x', 'y'], { T: I }, {}, [ph('x', [2], I), ph('y', [2], I)]);
    const err = thrown(() => ef.loadFunction(divByVar, { jitCompile: 'strict' }));
    expect(err).toBeInstanceOf(ef.errors.UnimplementedError);
    expect((err as Error).message).toMatch(/floordiv.*no ONNX lowering/);
    expect(ef.memory().numTensors).toBe(before);
  });
});
