// Harness cases for complex64 construction and tf.signal (fft, ifft, rfft, irfft, windows, frame, stft) against
// float64 DFTs by the definition. Complex results are checked through their real and imaginary parts.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec, TfCall, tfFloat, tfTensor as T, tfNone } from './case';
import { Ref, sizeOf, unravel } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_signal_frame: TfCall = { fn: 'tf.signal.frame', cases: 'none', params: ['x', 'n', 's'], options: { pad_end: ['padEnd', false], pad_value: ['padValue', tfFloat(0)], axis: ['axis', -1] }, extra: [
    { name: '3 step 2', args: [IN.t2x3_2, 2, 1] },
    { name: 'padEnd padValue 7', args: [T([1, 2, 3, 4, 5]), 2, 2, { padEnd: true, padValue: tfFloat(7) }] },
    { name: 'axis 0', args: [IN.t3x2_3, 2, 1, { axis: 0 }] },
  ] };
const TF_signal_hammingWindow: TfCall = { fn: 'tf.signal.hamming_window', cases: 'none', params: ['n'], options: { periodic: ['periodic', true] }, extra: [
    { name: '6 symmetric', args: [6, { periodic: false }], grad: false },
    { name: '5 periodic', args: [5], grad: false },
  ] };
const TF_signal_hannWindow: TfCall = { fn: 'tf.signal.hann_window', cases: 'none', params: ['n'], options: { periodic: ['periodic', true] }, extra: [
    { name: '8 periodic', args: [8], grad: false },
    { name: '7 symmetric', args: [7, { periodic: false }], grad: false },
    { name: '1', args: [1], grad: false },
  ] };
const TF_signal_overlapAndAdd: TfCall = { fn: 'tf.signal.overlap_and_add', cases: 'none', extra: [
    { name: 'step 2', args: [IN.t3x4x1, 2] },
    { name: 'step 4 (a gap)', args: [IN.t2x3_2, 4] },
  ] };

const F = (shape: number[]): InputSpec => ({ shape, gen: 'normal' });
const build = (shape: number[], f: (idx: number[]) => number): Ref => new Ref(shape, Array.from({ length: sizeOf(shape) }, (_, i) => f(unravel(i, shape))), 'float32');

/** Rows of the innermost axis as float64 arrays. */
function rows(x: Ref): number[][] {
  const n = x.shape[x.rank - 1];
  return Array.from({ length: x.size / n }, (_, r) => Array.from({ length: n }, (_, j) => x.num(r * n + j)));
}
/** DFT of one row (sign -1 forward, +1 inverse, scaled by 1/n when inverse), over `out` bins of a length-n transform. */
function dft(re: number[], im: number[], n: number, out: number, inverse: boolean): [number[], number[]] {
  const [or, oi] = [new Array<number>(out).fill(0), new Array<number>(out).fill(0)];
  for (let k = 0; k < out; k++) {
    for (let j = 0; j < n; j++) {
      const a = ((inverse ? 2 : -2) * Math.PI * j * k) / n;
      const [xr, xi] = [re[j] ?? 0, im[j] ?? 0];
      or[k] += xr * Math.cos(a) - xi * Math.sin(a);
      oi[k] += xr * Math.sin(a) + xi * Math.cos(a);
    }
    if (inverse) [or[k], oi[k]] = [or[k] / n, oi[k] / n];
  }
  return [or, oi];
}
const asRef = (lead: number[], vals: number[][]): Ref => new Ref([...lead, vals[0]?.length ?? 0], vals.flat(), 'float32');
function complexRef(a: Ref, b: Ref, n: number, out: number, inverse: boolean): Ref[] {
  const [ra, rb] = [rows(a), rows(b)];
  const res = ra.map((r, i) => dft(r, rb[i], n, out, inverse));
  const lead = a.shape.slice(0, -1);
  return [asRef(lead, res.map((p) => p[0])), asRef(lead, res.map((p) => p[1]))];
}
/** rfft: the first n/2 + 1 bins of the length-n DFT of the zero-padded (or cut) rows. */
const rfftRef = (x: Ref, n: number): Ref[] => complexRef(x, build(x.shape, () => 0), n, Math.floor(n / 2) + 1, false).map((r) => r);
/** irfft: the real part of the inverse DFT of the Hermitian extension of the (cut or padded) bins. */
function irfftRef(a: Ref, b: Ref, n: number): Ref {
  const bins = Math.floor(n / 2) + 1;
  const [ra, rb] = [rows(a), rows(b)];
  const out = ra.map((r, i) => {
    const re = Array.from({ length: n }, (_, k) => (k < bins ? (r[k] ?? 0) : (r[n - k] ?? 0)));
    const im = Array.from({ length: n }, (_, k) => (k < bins ? (rb[i][k] ?? 0) : -(rb[i][n - k] ?? 0)));
    return dft(re, im, n, n, true)[0];
  });
  return asRef(a.shape.slice(0, -1), out);
}
const parts = (z: ef.Tensor): ef.Tensor[] => [ef.math.real(z), ef.math.imag(z)];
const hann = (n: number, k: number): number => 0.5 - 0.5 * Math.cos((2 * Math.PI * k) / n);
/** tfjs-webgl's FFT shaders accumulate the DFT sums in GLSL float32: relative differences up to ~3e-4 from cpu. */
const WEBGL_FFT = { webgl: { rtol: 2e-3, atol: 1e-4 } };
const CUT = "tfjs-converter's RFFT/IRFFT ignore fft_length (they transform the input's own length)";

export const signalCases: ForwardCase[] = [
  { prim: 'complex', api: 'complex', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'complex then real and imag', inputs: [F([2, 3]), F([3])], op: (a, b) => ef.tidy(() => { const z = ef.complex(a, b); return [ef.math.real(z), ef.math.imag(z)]; }), ref: (a, b) => [a, build([2, 3], ([, j]) => b.num(j))], tfOps: ['Complex', 'Real', 'Imag'], noConverter: "tfjs-converter's Complex does not broadcast (tf.complex asserts equal shapes)" },
  { prim: 'real', api: 'math.real', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'math.real of complex(a, 2a)', inputs: [F([4])], op: (a) => ef.tidy(() => ef.math.real(ef.complex(a, ef.multiply(a, 2)))), ref: (a) => a, tfOps: ['Real'] },
  { prim: 'imag', api: 'math.imag', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'math.imag of complex(a, a * a)', inputs: [F([4])], op: (a) => ef.tidy(() => ef.math.imag(ef.complex(a, ef.multiply(a, a)))), ref: (a) => build([4], ([i]) => a.num(i) ** 2), tfOps: ['Imag'], rtol: 1e-5 },
  { prim: 'fft', api: 'signal.fft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'fft of a batch', inputs: [F([2, 5]), F([2, 5])], op: (a, b) => ef.tidy(() => parts(ef.signal.fft(ef.complex(a, b)))), ref: (a, b) => complexRef(a, b, 5, 5, false), tfOps: ['FFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT },
  { prim: 'ifft', api: 'signal.ifft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'ifft', inputs: [F([4]), F([4])], op: (a, b) => ef.tidy(() => parts(ef.signal.ifft(ef.complex(a, b)))), ref: (a, b) => complexRef(a, b, 4, 4, true), tfOps: ['IFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT },
  { prim: 'rfft', api: 'signal.rfft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'rfft even batch', inputs: [F([2, 6])], op: (x) => ef.tidy(() => parts(ef.signal.rfft(x))), ref: (x) => rfftRef(x, 6), tfOps: ['RFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT, noUnknownDims: 'the default fftLength is the static last dim' },
  { prim: 'rfft', api: 'signal.rfft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'rfft odd, padded to 8', inputs: [F([5])], op: (x) => ef.tidy(() => parts(ef.signal.rfft(x, [8]))), ref: (x) => rfftRef(x, 8), tfOps: ['RFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT, noConverter: CUT },
  { prim: 'rfft', api: 'signal.rfft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'rfft cut to 4', inputs: [F([6])], op: (x) => ef.tidy(() => parts(ef.signal.rfft(x, 4))), ref: (x) => rfftRef(new Ref([4], x.data.slice(0, 4), 'float32'), 4), tfOps: ['RFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT, noConverter: CUT },
  { prim: 'irfft', api: 'signal.irfft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'irfft default length (even)', inputs: [F([2, 4]), F([2, 4])], op: (a, b) => ef.tidy(() => ef.signal.irfft(ef.complex(a, b))), ref: (a, b) => irfftRef(a, b, 6), tfOps: ['IRFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT, noUnknownDims: 'the default fftLength comes from the static last dim' },
  { prim: 'irfft', api: 'signal.irfft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'irfft odd 7', inputs: [F([4]), F([4])], op: (a, b) => ef.tidy(() => ef.signal.irfft(ef.complex(a, b), [7])), ref: (a, b) => irfftRef(a, b, 7), tfOps: ['IRFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT, noConverter: CUT },
  { prim: 'irfft', api: 'signal.irfft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'irfft 4 from 5 bins (cut)', inputs: [F([5]), F([5])], op: (a, b) => ef.tidy(() => ef.signal.irfft(ef.complex(a, b), 4)), ref: (a, b) => irfftRef(a, b, 4), tfOps: ['IRFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT, noConverter: CUT },
  { prim: 'cos', api: 'signal.hannWindow', tfCall: TF_signal_hannWindow, name: 'x * hannWindow(6)', inputs: [F([6])], op: (x) => ef.tidy(() => ef.multiply(x, ef.signal.hannWindow(6))), ref: (x) => build([6], ([k]) => x.num(k) * hann(6, k)), rtol: 1e-5, atol: 1e-6 },
  { prim: 'cos', api: 'signal.hammingWindow', tfCall: TF_signal_hammingWindow, name: 'x * hammingWindow(5, {periodic: false})', inputs: [F([5])], op: (x) => ef.tidy(() => ef.multiply(x, ef.signal.hammingWindow(5, { periodic: false }))), ref: (x) => build([5], ([k]) => x.num(k) * (0.54 - 0.46 * Math.cos((2 * Math.PI * k) / 4))), rtol: 1e-5, atol: 1e-6 },
  { prim: 'gather', api: 'signal.frame', tfCall: TF_signal_frame, name: 'frame 3 step 2 padEnd', inputs: [F([2, 6])], op: (x) => ef.tidy(() => ef.signal.frame(x, 3, 2, { padEnd: true, padValue: 5 })), ref: (x) => build([2, 3, 3], ([r, f, j]) => (f * 2 + j < 6 ? x.num(r * 6 + f * 2 + j) : 5)) },
  { prim: 'gather', api: 'signal.frame', tfCall: TF_signal_frame, name: 'frame along axis 0', inputs: [F([4, 2])], op: (x) => ef.tidy(() => ef.signal.frame(x, 2, 1, { axis: 0 })), ref: (x) => build([3, 2, 2], ([f, j, c]) => x.num((f + j) * 2 + c)) },
  { prim: 'rfft', api: 'signal.stft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'stft 4 step 2 (hann window)', inputs: [F([8])], op: (x) => ef.tidy(() => parts(ef.signal.stft(x, 4, 2))), ref: (x) => { const fr = [0, 1, 2].map((f) => [0, 1, 2, 3].map((j) => x.num(f * 2 + j) * hann(4, j))); const s = fr.map((r) => dft(r, [0, 0, 0, 0], 4, 3, false)); return [asRef([3], s.map((p) => p[0])), asRef([3], s.map((p) => p[1]))]; }, tfOps: ['RFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT },
  { prim: 'sum', api: 'signal.overlapAndAdd', tfCall: TF_signal_overlapAndAdd, name: 'overlapAndAdd step 2 batched', inputs: [F([2, 3, 3])], op: (x) => ef.signal.overlapAndAdd(x, 2), ref: (x) => build([2, 7], ([b, t]) => [0, 1, 2].reduce((acc, f) => acc + (t - 2 * f >= 0 && t - 2 * f < 3 ? x.num(b * 9 + f * 3 + t - 2 * f) : 0), 0)) },
  { prim: 'irfft', api: 'signal.inverseStft', tfCall: tfNone('complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)'), name: 'inverseStft (no window) of 2 frames', inputs: [F([2, 3]), F([2, 3])], op: (a, b) => ef.tidy(() => ef.signal.inverseStft(ef.complex(a, b), 4, 2, { windowFn: null })), ref: (a, b) => { const fr = irfftRef(a, b, 4); return build([6], ([t]) => [0, 1].reduce((acc, f) => acc + (t - 2 * f >= 0 && t - 2 * f < 4 ? fr.num(f * 4 + t - 2 * f) : 0), 0)); }, tfOps: ['IRFFT'], rtol: 1e-4, atol: 1e-5, tol: WEBGL_FFT },
  { prim: 'cos', api: 'signal.inverseStftWindowFn', tfCall: tfNone('returns a function (the window for inverseStft), not a tensor; its windows are checked against TF 2.21 in packages/core/test/signal_tf.test.ts'), name: 'x * inverseStftWindowFn(2)(4)', inputs: [F([4])], op: (x) => ef.tidy(() => ef.multiply(x, ef.signal.inverseStftWindowFn(2)(4))), ref: (x) => build([4], ([k]) => x.num(k) * hann(4, k) / (hann(4, k % 2) ** 2 + hann(4, (k % 2) + 2) ** 2)), rtol: 1e-5, atol: 1e-6 },
];

const e = (prim: ErrorCase['prim'], api: string, name: string, inputs: InputSpec[], run: ErrorCase['run'], op: string, got: string, expected: string): ErrorCase => ({ prim, api, name, inputs, run, op, got, expected });

export const signalErrors: ErrorCase[] = [
  e('complex', 'complex', 'complex of int32 parts', [{ shape: [2], dtype: 'int32', gen: 'int' }, { shape: [2], dtype: 'int32', gen: 'int' }], (a, b) => ef.complex(a, b), 'complex', 'int32', 'float32'),
  e('complex', 'complex', 'complex of unbroadcastable parts', [F([2]), F([3])], (a, b) => ef.complex(a, b), 'complex', '[2] and [3]', 'shapes whose trailing dims are equal or 1'),
  e('real', 'math.real', 'math.real of a float32 tensor', [F([2])], (a) => ef.math.real(a), 'math.real', 'float32', 'complex64'),
  e('imag', 'math.imag', 'math.imag of a float32 tensor', [F([2])], (a) => ef.math.imag(a), 'math.imag', 'float32', 'complex64'),
  e('fft', 'signal.fft', 'fft of a float32 tensor', [F([4])], (a) => ef.signal.fft(a), 'signal.fft', 'float32', 'complex64'),
  e('ifft', 'signal.ifft', 'ifft of a scalar', [F([]), F([])], (a, b) => ef.tidy(() => ef.signal.ifft(ef.complex(a, b))), 'signal.ifft', 'a scalar', 'rank >= 1'),
  e('rfft', 'signal.rfft', 'rfft fftLength 0', [F([4])], (a) => ef.signal.rfft(a, [0]), 'signal.rfft', 'array of length 1', 'n or [n] with n >= 1'),
  e('irfft', 'signal.irfft', 'irfft of a float32 tensor', [F([4])], (a) => ef.signal.irfft(a, 6), 'signal.irfft', 'float32', 'complex64'),
  e('cos', 'signal.hannWindow', 'hannWindow of a negative length', [], () => ef.signal.hannWindow(-1), 'signal.hannWindow', '-1', 'an integer >= 0'),
  e('cos', 'signal.hammingWindow', 'hammingWindow periodic not a boolean', [], () => ef.signal.hammingWindow(4, { periodic: 1 as unknown as boolean }), 'signal.hammingWindow', '1', 'true or false'),
  e('gather', 'signal.frame', 'frame step 0', [F([4])], (x) => ef.signal.frame(x, 2, 0), 'signal.frame', '0', 'an integer >= 1'),
  e('gather', 'signal.frame', 'frame axis out of range', [F([4])], (x) => ef.signal.frame(x, 2, 1, { axis: 1 }), 'signal.frame', '1', 'an axis in [-1, 1)'),
  e('sum', 'signal.overlapAndAdd', 'overlapAndAdd of a vector', [F([4])], (x) => ef.signal.overlapAndAdd(x, 1), 'signal.overlapAndAdd', '[4]', 'rank >= 2'),
  e('irfft', 'signal.inverseStft', 'inverseStft frameLength 0', [F([2, 3]), F([2, 3])], (a, b) => ef.tidy(() => ef.signal.inverseStft(ef.complex(a, b), 0, 2)), 'signal.inverseStft', '0', 'an integer >= 1'),
  e('cos', 'signal.inverseStftWindowFn', 'inverseStftWindowFn frameStep 0', [], () => ef.signal.inverseStftWindowFn(0), 'signal.inverseStftWindowFn', '0', 'an integer >= 1'),
  e('rfft', 'signal.stft', 'stft windowFn not a function', [F([8])], (x) => ef.signal.stft(x, 4, 2, { windowFn: 3 as unknown as null }), 'signal.stft', '3', '(frameLength) => Tensor, or null'),
];
