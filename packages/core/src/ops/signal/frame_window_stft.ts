// tf.signal: rfft/irfft with their default lengths, frame, the raised-cosine windows and stft, built on the spectral records.
import { composites } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { bind } from '../bind';
import { tidy } from '../../backend/memory';
import type { Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { asDType, describe } from '../../values/dtype';
import * as o from '../ops';
import { argError } from '../check';
import { dimsToString } from '../../values/shape';
import { Dim, DimRun, dim, isKnown, padBy, rangeOf, reshapeTo, shapeOf, sliceTo, splitAt, splitLast } from '../array/symbolic_dims';
import { irfft as irfftRecord, rfft as rfftRecord } from './fft';

/** The static size of x's last axis. */
function lastOf(op: string, x: Tensor): number {
  const d = x.dims;
  const n = d === null || d.length === 0 ? null : d[d.length - 1];
  if (d !== null && d.length === 0) throw argError(op, 'the input must have rank >= 1', 'a scalar', 'rank >= 1', 'Transform a vector (the innermost axis).');
  if (n === null) throw argError(op, 'the innermost dim must be known', dimsToString(d), 'a static last dim', 'Pass fftLength, or give the traced input a TensorSpec with its last dim set.');
  return n;
}

function lengthArg(op: string, v: unknown): number | null {
  if (v === undefined || v === null) return null;
  const n = Array.isArray(v) && v.length === 1 ? v[0] : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw argError(op, 'fftLength must be a positive integer (or [n])', describe(v), 'n or [n] with n >= 1', 'Pass e.g. [8].');
  return n;
}

/**
 * rfft(input, fftLength?): the FFT of a real signal's innermost axis, n/2 + 1 complex64 bins (the axis is cut or
 * zero-padded to fftLength, default its length).
 * @example ef.math.real(ef.signal.rfft([1, 1, 1, 1])).arraySync(); // [4, 0, 0]
 */
function rfft(input: TensorLike, fftLength?: number | [number]): Tensor {
  const op = 'signal.rfft';
  const given = lengthArg(op, fftLength);
  return tidy(() => {
    const x = convert(op, input, 'float32').t;
    return bind(rfftRecord as Primitive, [x], { fftLength: [given ?? lastOf(op, x)] })[0];
  });
}

/**
 * irfft(input, fftLength?): real signals from n/2 + 1 Hermitian complex64 bins (default n = 2 * (bins - 1)).
 * @example ef.signal.irfft(ef.signal.rfft([1, 2, 3, 4])).arraySync(); // [1, 2, 3, 4]
 */
function irfft(input: TensorLike, fftLength?: number | [number]): Tensor {
  const op = 'signal.irfft';
  const given = lengthArg(op, fftLength);
  return tidy(() => {
    const x = convert(op, input).t;
    return bind(irfftRecord as Primitive, [x], { fftLength: [given ?? Math.max(1, 2 * (lastOf(op, x) - 1))] })[0];
  });
}

export interface WindowOptions {
  periodic?: boolean;
  dtype?: 'float32';
}

/** TF's _raised_cosine_window: a - b cos(2 pi k / (N - 1 + periodic * even)), computed in float32 as TF does. */
function raisedCosine(op: string, windowLength: number, options: WindowOptions, a: number, b: number): Tensor {
  if (typeof windowLength !== 'number' || !Number.isInteger(windowLength) || windowLength < 0) throw argError(op, 'windowLength must be an integer >= 0', describe(windowLength), 'an integer >= 0', 'Pass e.g. 256.');
  const periodic = options.periodic ?? true;
  if (typeof periodic !== 'boolean') throw argError(op, 'periodic must be a boolean', describe(periodic), 'true or false', 'Pass periodic: true or false.');
  if (options.dtype !== undefined && asDType(options.dtype, op) !== 'float32') throw argError(op, 'unsupported dtype', describe(options.dtype), "'float32'", "Pass dtype: 'float32'.");
  if (windowLength === 1) return o.ones([1]);
  const even = 1 - (windowLength % 2);
  const n = windowLength + (periodic ? even : 0) - 1;
  return tidy(() => o.sub(a, o.mul(b, o.cos(o.div(o.mul(o.range(0, windowLength, 1, 'float32'), 2 * Math.PI), n)))));
}

/**
 * hannWindow(windowLength, {periodic = true, dtype}): 0.5 - 0.5 cos(2 pi k / N).
 * @example ef.signal.hannWindow(4).arraySync(); // [0, 0.5, 1, 0.5]
 */
function hannWindow(windowLength: number, options: WindowOptions = {}): Tensor {
  return raisedCosine('signal.hannWindow', windowLength, options, 0.5, 0.5);
}

/**
 * hammingWindow(windowLength, {periodic = true, dtype}): 0.54 - 0.46 cos(2 pi k / N).
 * @example ef.signal.hammingWindow(2).arraySync(); // [0.08, 1]
 */
function hammingWindow(windowLength: number, options: WindowOptions = {}): Tensor {
  return raisedCosine('signal.hammingWindow', windowLength, options, 0.54, 0.46);
}

export interface FrameOptions {
  padEnd?: boolean;
  padValue?: number;
  axis?: number;
}

/**
 * frame(signal, frameLength, frameStep, {padEnd, padValue, axis = -1}): overlapping frames along `axis`
 * ([..., numFrames, frameLength, ...]); padEnd pads the end with padValue so every sample is in a frame.
 * @example ef.signal.frame([1, 2, 3, 4, 5], 2, 2).arraySync(); // [[1, 2], [3, 4]]
 */
function frame(signal: TensorLike, frameLength: number, frameStep: number, options: FrameOptions = {}): Tensor {
  const op = 'signal.frame';
  for (const [name, v] of [['frameLength', frameLength], ['frameStep', frameStep]] as const) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw argError(op, `${name} must be a positive integer`, describe(v), 'an integer >= 1', `Pass e.g. 2 for ${name}.`);
  }
  const padEnd = options.padEnd ?? false;
  const padValue = options.padValue ?? 0;
  const axis = options.axis ?? -1;
  if (typeof padEnd !== 'boolean') throw argError(op, 'padEnd must be a boolean', describe(padEnd), 'true or false', 'Pass padEnd: true or false.');
  if (typeof padValue !== 'number') throw argError(op, 'padValue must be a number', describe(padValue), 'a number', 'Pass e.g. 0.');
  return tidy(() => {
    const x = convert(op, signal, 'float32').t;
    // TF converts pad_value to the signal's dtype when pad_end is set: a number cannot pad strings (refused whether or
    // not any padding turns out to be needed, so eager and traced with unknown dims agree).
    if (padEnd && x.dtype === 'string') throw argError(op, 'a string signal cannot be padded with a number', `padEnd with padValue ${padValue} for a string signal`, 'a numeric or bool signal, or padEnd: false', 'Frame strings without padEnd.');
    if (!Number.isInteger(axis)) throw argError(op, 'axis must be an integer', describe(axis), 'an integer axis', 'Pass e.g. -1.');
    // One path for static and run-time shapes (symbolic_dims.ts): the counts are Dim arithmetic, folded to numbers
    // when the framed length is known. An unknown rank is framed as [before, length, after] and reshaped back.
    const s = shapeOf(x);
    const rank = s.some((v) => v instanceof DimRun) ? null : s.length;
    if (rank !== null && (axis < -rank || axis >= rank)) throw argError(op, 'axis out of range', describe(axis), `an axis in [${-rank}, ${rank})`, 'Pass e.g. -1.');
    const { head, at: len, tail } = splitAt(op, s, axis);
    const a = rank === null ? 1 : head.length;
    const base = rank === null ? reshapeTo(x, [dim.prod(head), len, dim.prod(tail)]) : x;
    const frames = padEnd ? dim.ceildiv(len, frameStep) : dim.max(dim.add(dim.floordiv(dim.sub(len, frameLength), frameStep), 1), 0);
    // The samples the frames read, (frames - 1) * step + length (none without frames); padEnd pads up to them.
    const need = dim.ifPositive(frames, dim.add(dim.mul(dim.sub(frames, 1), frameStep), frameLength));
    const extra = padEnd ? dim.max(dim.sub(need, len), 0) : 0;
    const after = Array.from({ length: rank ?? 3 }, (_, i): Dim => (i === a ? extra : 0));
    const padded = extra === 0 ? base : padBy(base, after.map(() => 0), after, padValue);
    const idx = isKnown(frames)
      ? convert(op, Array.from({ length: frames }, (_, f) => Array.from({ length: frameLength }, (_, j) => f * frameStep + j)), 'int32').t
      : o.add(o.expandDims(o.mul(rangeOf(frames), frameStep), 1), o.expandDims(rangeOf(frameLength), 0));
    const taken = o.gather(padded, isKnown(frames) && frames === 0 ? o.reshape(idx, [0, frameLength]) : idx, a);
    return rank === null ? reshapeTo(taken, [...head, frames, frameLength, ...tail]) : taken;
  });
}

export interface StftOptions {
  fftLength?: number;
  windowFn?: ((frameLength: number) => Tensor) | null;
  padEnd?: boolean;
}

/**
 * stft(signals, frameLength, frameStep, {fftLength, windowFn = hannWindow, padEnd}): short-time Fourier transforms
 * of the innermost axis ([..., frames, fftLength / 2 + 1] complex64; fftLength defaults to the next power of 2).
 * @example ef.signal.stft(ef.ones([8]), 4, 4).shape.dims; // [2, 3]
 */
function stft(signals: TensorLike, frameLength: number, frameStep: number, options: StftOptions = {}): Tensor {
  const op = 'signal.stft';
  // Checked before the default fftLength reads it as a number (a symbolic tensor there is a JS-conversion TypeError).
  if (typeof frameLength !== 'number' || !Number.isInteger(frameLength) || frameLength < 1) throw argError(op, 'frameLength must be a positive integer', describe(frameLength), 'an integer >= 1', 'Pass e.g. 256.');
  const fftLength = lengthArg(op, options.fftLength) ?? 2 ** Math.ceil(Math.log2(Math.max(1, frameLength)));
  const windowFn = options.windowFn === undefined ? hannWindow : options.windowFn;
  if (windowFn !== null && typeof windowFn !== 'function') throw argError(op, 'windowFn must be a function or null', describe(windowFn), '(frameLength) => Tensor, or null', 'Pass e.g. ef.signal.hannWindow.');
  return tidy(() => {
    const framed = frame(signals, frameLength, frameStep, { padEnd: options.padEnd ?? false });
    const windowed = windowFn === null ? framed : o.mul(framed, windowFn(frameLength));
    return bind(rfftRecord as Primitive, [windowed], { fftLength: [fftLength] })[0];
  });
}

/**
 * overlapAndAdd(signal, frameStep): sums frames [..., frames, frameLength] placed frameStep apart
 * ([..., (frames - 1) * frameStep + frameLength]), the inverse of frame for a suitable window.
 * @example ef.signal.overlapAndAdd([[1, 1], [1, 1]], 1).arraySync(); // [1, 2, 1]
 */
function overlapAndAdd(signal: TensorLike, frameStep: number): Tensor {
  const op = 'signal.overlapAndAdd';
  if (typeof frameStep !== 'number' || !Number.isInteger(frameStep) || frameStep < 1) throw argError(op, 'frameStep must be a positive integer', describe(frameStep), 'an integer >= 1', 'Pass e.g. 2.');
  return tidy(() => {
    const x = convert(op, signal, 'float32').t;
    const d = x.dims;
    if (d !== null && d.length < 2) throw argError(op, 'the input must be [..., frames, frameLength]', dimsToString(d), 'rank >= 2', 'Add a frames axis.');
    // TF's overlap_and_add, one path for static and run-time shapes (Dim arithmetic, symbolic_dims.ts): pad each frame
    // to S = ceil(len / step) segments, skew the segments by one frame each (a reshape trick), and sum them.
    const { head: outer, last: [frames, len] } = splitLast(op, shapeOf(x), 2);
    const out = dim.ifPositive(frames, dim.add(dim.mul(dim.sub(frames, 1), frameStep), len));
    const seg = dim.ceildiv(len, frameStep);
    const rows = dim.add(frames, seg);
    const b = padBy(reshapeTo(x, [-1, frames, len]), [0, 0, 0], [0, seg, dim.sub(dim.mul(seg, frameStep), len)]);
    const skew = reshapeTo(o.transpose(reshapeTo(b, [-1, rows, seg, frameStep]), [0, 2, 1, 3]), [-1, dim.mul(seg, rows), frameStep]);
    const cut = reshapeTo(sliceTo(skew, [0, 0, 0], [-1, dim.mul(dim.sub(rows, 1), seg), frameStep]), [-1, seg, dim.sub(rows, 1), frameStep]);
    const summed = reshapeTo(o.reduceSum(cut, 1), [-1, dim.mul(dim.sub(rows, 1), frameStep)]);
    return reshapeTo(sliceTo(summed, [0, 0], [-1, out]), [...outer, out]);
  });
}

/**
 * inverseStft(stfts, frameLength, frameStep, {fftLength, windowFn = hannWindow}): signals from STFTs by irfft, the
 * window and overlapAndAdd (use inverseStftWindowFn(frameStep) as windowFn for a perfect reconstruction).
 * @example ef.signal.inverseStft(ef.signal.stft(ef.ones([8]), 4, 2), 4, 2).shape.dims; // [8]
 */
function inverseStft(stfts: TensorLike, frameLength: number, frameStep: number, options: StftOptions = {}): Tensor {
  const op = 'signal.inverseStft';
  if (typeof frameLength !== 'number' || !Number.isInteger(frameLength) || frameLength < 1) throw argError(op, 'frameLength must be a positive integer', describe(frameLength), 'an integer >= 1', 'Pass e.g. 256.');
  const fftLength = lengthArg(op, options.fftLength) ?? 2 ** Math.ceil(Math.log2(Math.max(1, frameLength)));
  const windowFn = options.windowFn === undefined ? hannWindow : options.windowFn;
  if (windowFn !== null && typeof windowFn !== 'function') throw argError(op, 'windowFn must be a function or null', describe(windowFn), '(frameLength) => Tensor, or null', 'Pass e.g. ef.signal.inverseStftWindowFn(frameStep).');
  return tidy(() => {
    const frames = bind(irfftRecord as Primitive, [convert(op, stfts).t], { fftLength: [fftLength] })[0];
    const r = frames.rank as number;
    const fitted = fftLength > frameLength
      ? o.slice(frames, new Array<number>(r).fill(0), [...new Array<number>(r - 1).fill(-1), frameLength])
      : fftLength < frameLength ? o.pad(frames, [...new Array<[number, number]>(r - 1).fill([0, 0]), [0, frameLength - fftLength]]) : frames;
    return overlapAndAdd(windowFn === null ? fitted : o.mul(fitted, windowFn(frameLength)), frameStep);
  });
}

/**
 * inverseStftWindowFn(frameStep, forwardWindowFn = hannWindow): the window that makes inverseStft invert stft
 * (the forward window over the sum of its overlapping squares, as TF's inverse_stft_window_fn).
 * @example ef.signal.inverseStftWindowFn(2)(4).shape.dims; // [4]
 */
function inverseStftWindowFn(frameStep: number, forwardWindowFn: (frameLength: number) => Tensor = hannWindow): (frameLength: number) => Tensor {
  const op = 'signal.inverseStftWindowFn';
  if (typeof frameStep !== 'number' || !Number.isInteger(frameStep) || frameStep < 1) throw argError(op, 'frameStep must be a positive integer', describe(frameStep), 'an integer >= 1', 'Pass e.g. 128.');
  if (typeof forwardWindowFn !== 'function') throw argError(op, 'forwardWindowFn must be a function', describe(forwardWindowFn), '(frameLength) => Tensor', 'Pass e.g. ef.signal.hannWindow.');
  return (frameLength: number) =>
    tidy(() => {
      const w = forwardWindowFn(frameLength);
      const overlaps = Math.ceil(frameLength / frameStep);
      const sq = o.pad(o.square(w), [[0, overlaps * frameStep - frameLength]]);
      const denom = o.reshape(o.broadcastTo(o.reduceSum(o.reshape(sq, [overlaps, frameStep]), 0, true), [overlaps, frameStep]), [overlaps * frameStep]);
      return o.div(w, o.slice(denom, [0], [frameLength]));
    });
}

export const SIGNAL_COMPOSITES = composites('signal', {
  overlapAndAdd, inverseStft, inverseStftWindowFn, rfft, irfft, hannWindow, hammingWindow, frame, stft,
});
