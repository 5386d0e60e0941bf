// The wasm backend in Node: every harness row (eager, traced, gradient) on wasm equals cpu, the kernels that take the
// host fallback are exactly the listed ones, nothing leaks over 1,000 calls, and the gap list is the real one.
import * as fs from 'fs';
import * as path from 'path';
import * as ef from 'eagerflow';
import { RowResult, runRows } from '../../../../test/harness/browser_rows';
import { differences } from '../../../../browser/compare';
import type { Backend } from '../../../../test/harness/case';

/** wasm vs cpu: both float32; XNNPACK sums in another order than tfjs-cpu (measured worst: within these). */
const WASM_TOL = { rtol: 1e-5, atol: 1e-6 };
const be = ef.internal.backend;
const results: Record<'cpu' | 'wasm', Record<string, RowResult>> = { cpu: {}, wasm: {} };
let fallbacks: Record<string, number> = {};

beforeAll(async () => {
  results.cpu = await runRows('cpu');
  be.resetHostFallbackCounts();
  results.wasm = await runRows('wasm' as Backend);
  fallbacks = be.hostFallbackCounts();
  await ef.setBackend('cpu');
}, 120_000);

afterAll(() => ef.setBackend('cpu'));

test('every row in every mode gives the same results on wasm as on cpu, and leaks nothing', () => {
  const keys = Object.keys(results.cpu);
  expect(keys.length).toBeGreaterThan(2000);
  expect(Object.keys(results.wasm).sort()).toEqual([...keys].sort());
  const problems: string[] = [];
  for (const k of keys) {
    const [c, w] = [results.cpu[k], results.wasm[k]];
    if (w.leaked) problems.push(`${k}: wasm leaked ${w.leaked}`);
    if (Boolean(c.error) !== Boolean(w.error)) problems.push(`${k}: cpu ${c.error ?? 'ok'}, wasm ${w.error ?? 'ok'}`);
    else if (!c.error) problems.push(...differences(w.value, c.value, WASM_TOL).map((d) => `${k}: wasm vs cpu ${d}`));
  }
  expect(problems).toEqual([]);
});

test('exactly these kernels ran on cpu with a data move during the rows on wasm', () => {
  // The gap kernels that could not be composed, the rules' inputs, complex64/string values, and kernels fed an
  // empty input (their move is of empty data).
  expect(Object.keys(fallbacks)).toEqual([
    'Abs', 'Acos', 'Acosh', 'Add', 'Asin', 'Asinh', 'Atan', 'Atanh', 'BatchMatMul', 'Bincount', 'Cast', 'Ceil', 'Complex', 'Concat',
    'Conv3DBackpropFilterV2', 'Conv3DBackpropInputV2', 'Cos', 'Cosh', 'DepthwiseConv2dNativeBackpropFilter',
    'DepthwiseConv2dNativeBackpropInput', 'Elu', 'Equal', 'Erf', 'Exp', 'Expm1', 'FFT', 'Fill', 'Floor', 'GatherV2', 'Greater',
    'GreaterEqual', 'Identity', 'IFFT', 'Imag', 'IsFinite', 'IsInf', 'IsNan', 'Less', 'LessEqual', 'Log', 'Log1p', 'LogicalAnd',
    'LogicalOr', 'Maximum', 'MaxPool3D', 'MaxPool3DGrad', 'MaxPoolWithArgmax', 'Minimum', 'Multiply', 'Neg', 'NotEqual', 'OneHot',
    'OnesLike', 'PadV2', 'Pow', 'Real', 'RealDiv', 'Reciprocal', 'Relu', 'Relu6', 'Reshape', 'Rsqrt', 'Select', 'Selu', 'Sigmoid', 'Sign',
    'Sin', 'Sinh', 'Softplus', 'Sqrt', 'Square', 'StridedSlice', 'Sub', 'Tan', 'Tanh', 'Tile',
    'ZerosLike',
  ].sort((a, b) => a.localeCompare(b)));
  // No fallback on cpu itself.
  expect(be.KERNEL_GAPS.cpu).toBeUndefined();
  // The composed gap kernels (Conv2DBackpropFilter, UnsortedSegmentSum with ids in range) run on wasm's own kernels.
  expect(fallbacks.Conv2DBackpropFilter).toBeUndefined();
});

test('the gap list is every kernel EagerFlow calls that tfjs-backend-wasm does not register', () => {
  const tf = be.tfjs;
  const wasm = new Set(tf.getKernelsForBackend('wasm').filter((k) => !be.KERNEL_GAPS.wasm.includes(k.kernelName)).map((k) => k.kernelName));
  const src = ['core', 'function', 'callbacks', 'eagerflow'].flatMap((p) => sources(path.join(__dirname, '../../..', p, 'src')));
  const text = src.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const called = tf.getKernelsForBackend('cpu').map((k) => k.kernelName).filter((k) => text.includes(`'${k}'`));
  expect(called.filter((k) => !wasm.has(k)).sort()).toEqual([...be.KERNEL_GAPS.wasm].sort());
});

function gradOf(fn: (w: ef.Tensor) => ef.Tensor, w: ef.Tensor): ef.Tensor {
  const tape = new ef.GradientTape();
  const y = tape.record(() => {
    tape.watch(w);
    return fn(w);
  });
  return tape.gradient(y, w) as ef.Tensor;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') && e.name !== 'kernel_gaps.ts' ? [path.join(dir, e.name)] : []));
}

test('conv2d gradients on wasm match cpu: the filter gradient composed on wasm, depthwise ones through the counted fallback', async () => {
  const x = ef.constant(Float32Array.from({ length: 2 * 7 * 6 * 3 }, (_, i) => Math.sin(i)), 'float32', [2, 7, 6, 3]);
  const f = ef.constant(Float32Array.from({ length: 3 * 3 * 3 * 4 }, (_, i) => Math.cos(i)), 'float32', [3, 3, 3, 4]);
  const d = ef.constant(Float32Array.from({ length: 3 * 3 * 3 * 2 }, (_, i) => Math.cos(2 * i)), 'float32', [3, 3, 3, 2]);
  const grads = (): number[][] =>
    ef.tidy(() => [
      ...[1, 2].flatMap((s) => ['SAME', 'VALID'].map((pad) => Array.from(gradOf((w) => ef.reduceSum(ef.square(ef.nn.conv2d(x, w, s, pad as 'SAME'))), f).dataSync() as Float32Array))),
      Array.from(gradOf((w) => ef.reduceSum(ef.square(ef.nn.depthwiseConv2d(x, w, [1, 2, 2, 1], 'SAME'))), d).dataSync() as Float32Array),
      Array.from(gradOf((v) => ef.reduceSum(ef.square(ef.nn.depthwiseConv2d(v, d, [1, 1, 1, 1], 'VALID'))), x).dataSync() as Float32Array),
    ]);
  const onCpu = grads();
  await ef.setBackend('wasm');
  be.resetHostFallbackCounts();
  const onWasm = grads();
  expect(be.hostFallbackCounts()).toEqual({ DepthwiseConv2dNativeBackpropFilter: 1, DepthwiseConv2dNativeBackpropInput: 1 });
  await ef.setBackend('cpu');
  onCpu.forEach((want, i) => expect(differences({ dtype: 'float32', shape: [want.length], data: onWasm[i] }, { dtype: 'float32', shape: [want.length], data: want }, WASM_TOL)).toEqual([]));
  ef.dispose([x, f, d]);
});

test('no tensor or wasm memory growth over 1,000 calls (eager, traced, gradient through a fallback)', async () => {
  await ef.setBackend('wasm');
  const x = ef.constant([[1, -2], [3, 4]]);
  const ids = ef.constant([0, 1, 0], 'int32');
  const f = ef.trace((v: ef.Tensor) => ef.relu(ef.add(ef.matmul(v, v), 1)));
  const step = (): void => {
    ef.tidy(() => {
      f(x);
      gradOf((v) => ef.reduceSum(ef.gather(v, ids)), x);
      ef.signal.fft(ef.complex(x, x));
    });
  };
  for (let i = 0; i < 10; i++) step();
  const before = ef.memory();
  for (let i = 0; i < 1000; i++) step();
  const after = ef.memory();
  expect([after.numTensors, after.numDataBuffers, after.numBytes]).toEqual([before.numTensors, before.numDataBuffers, before.numBytes]);
  f.dispose();
  ef.dispose([x, ids]);
  await ef.setBackend('cpu');
});

test('complex64 values are readable on wasm; Node has SIMD and no threads', async () => {
  await ef.setBackend('wasm');
  const z = ef.complex([1, 2], [3, -4]);
  expect(Array.from(z.dataSync() as Float32Array)).toEqual([1, 3, 2, -4]);
  z.dispose();
  expect(be.tfjs.env().getBool('WASM_HAS_SIMD_SUPPORT')).toBe(true);
  // tfjs-backend-wasm turns threads off in Node (its flag returns false under IS_NODE: tfjs issue 3830).
  expect(be.tfjs.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT')).toBe(false);
  await ef.setBackend('cpu');
});

test("conv2d and depthwiseConv2d run wasm's own kernels (XNNPACK), not the cpu-only host conv loops", async () => {
  await ef.setBackend('wasm');
  const names = ['Conv2D', 'DepthwiseConv2dNative'];
  const calls: string[] = [];
  const restore = names.map((n) => {
    const k = be.tfjs.getKernel(n, 'wasm') as { kernelFunc: (a: unknown) => unknown };
    const f = k.kernelFunc;
    k.kernelFunc = (a) => (calls.push(n), f(a));
    return () => (k.kernelFunc = f);
  });
  try {
    ef.tidy(() => {
      const x = ef.ones([1, 5, 5, 2]);
      ef.nn.conv2d(x, ef.ones([3, 3, 2, 4]), 1, 'SAME');
      ef.nn.depthwiseConv2d(x, ef.ones([3, 3, 2, 1]), 1, 'SAME');
    });
  } finally {
    restore.forEach((r) => r());
    await ef.setBackend('cpu');
  }
  expect(calls).toEqual(names);
});
