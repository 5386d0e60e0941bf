// spectral: complex64 construction (Complex, Real, Imag) and the FFTs (FFT, IFFT, RFFT, IRFFT) on tfjs's kernels,
// with TensorFlow's gradient rules (_FFTGrad, _IFFTGrad, _RFFTGrad, _IRFFTGrad) written in these records.
import { showValue } from '../../values/dtype';
import { OpRecord, defineOp } from '../define_op';
import type { Info, Kernels } from '../../backend/backend';
import { AVal, Params, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { attr, tfSpec } from '../graphdef_spec';
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { bind } from '../bind';
import { convert } from '../../values/convert';
import { Dims, dimsToString } from '../../values/shape';
import { argError, broadcastOrThrow, checkArity, checkDTypes } from '../check';
import { Scratch, withScratch } from '../kernel_util';

const C64 = ['complex64'] as const;
const F32 = ['float32'] as const;

/** The FFT family transforms the innermost axis: a scalar has none. */
function atLeastRank1(op: string, s: Dims): void {
  if (s !== null && s.length === 0) throw argError(op, 'the input must have rank >= 1', 'a scalar', 'rank >= 1', 'Transform a vector (the innermost axis).');
}
/** Binds a record with one result. */
const one = (p: Primitive, xs: Tensor[], params: object = {}): Tensor => bind(p, xs, params as Record<string, unknown>)[0];

/**
 * Runs tfjs's FFT or IFFT on the innermost axis of the complex value with parts (re, im) ([..., n] float32 each), and
 * returns the result's parts in the same shape. The kernels take [batch, n]; only float parts are reshaped (tfjs-webgl
 * does not reshape complex64 values).
 */
function transformParts(s: Scratch, name: 'FFT' | 'IFFT', re: Info, im: Info): [Info, Info] {
  const shape = [...re.shape];
  const n = shape[shape.length - 1] ?? 1;
  const flat = (v: Info): Info => (shape.length === 2 ? v : s.run('Reshape', { x: v }, { shape: [-1, n] }));
  const back = (v: Info): Info => (shape.length === 2 ? v : s.run('Reshape', { x: v }, { shape }));
  const f = s.run(name, { input: s.run('Complex', { real: flat(re), imag: flat(im) }) });
  return [back(s.run('Real', { input: f })), back(s.run('Imag', { input: f }))];
}

/** x's last axis cut or zero-padded to `n`. */
function fitLast(s: Scratch, x: Info, n: number): Info {
  const r = x.shape.length;
  const m = x.shape[r - 1];
  if (m === n) return x;
  if (m > n) return s.run('Slice', { x }, { begin: new Array<number>(r).fill(0), size: [...x.shape.slice(0, -1), n] });
  return s.run('PadV2', { x }, { paddings: [...x.shape.slice(0, -1).map(() => [0, 0]), [0, n - m]], constantValue: 0 });
}

/** complex(real, imag) with broadcasting (TF's Complex). */
export const complex = defineOp({
  name: 'complex',
  infer(ins: AVal[]) {
    checkArity('complex', ins, 2);
    checkDTypes('complex', ins[0], F32, 'real');
    checkDTypes('complex', ins[1], F32, 'imag');
    return [{ dtype: 'complex64', shape: broadcastOrThrow('complex', ins[0].shape, ins[1].shape) }];
  },
  impl: (k, [re, im]) => [withScratch(k, (s) => {
    // The broadcast shape (a 1 against a 0 gives 0: an empty complex tensor, not the larger dim).
    const full = broadcastOrThrow('complex', re.shape, im.shape) as number[];
    return s.run('Complex', { real: s.to(re, full), imag: s.to(im, full) });
  })],
  // TF's _ComplexGrad: the real and imaginary parts of the cotangent.
  vjp: (c, [re, im]): (Tensor | null)[] => [o.reduceLike(one(real, [c[0] as Tensor]), re), o.reduceLike(one(imag, [c[0] as Tensor]), im)],
  saves: 'inputs',
  api: api(['complex'], [arg.tensor('real', 'float32'), arg.tensor('imag', 'float32')]),
  tf: tfSpec({ op: 'Complex', attrs: { T: { dtypeOf: 0 }, Tout: { fixed: attr.type('complex64') } } }),
});

function part<const N extends 'real' | 'imag'>(name: N, kernel: 'Real' | 'Imag'): OpRecord<N, Params> {
  return defineOp({
    name,
    infer(ins: AVal[]) {
      checkArity(`math.${name}`, ins, 1);
      checkDTypes(`math.${name}`, ins[0], C64, 'input');
      return [{ dtype: 'float32', shape: ins[0].shape }];
    },
    impl: (k, [x]) => [k.run(kernel, { input: x }) as Info],
    // TF's _RealGrad / _ImagGrad: the cotangent as the real (or imaginary) part.
    vjp: (c): (Tensor | null)[] => {
      const g = c[0] as Tensor;
      const z = o.zerosLike(g);
      return [name === 'real' ? one(complex, [g, z]) : one(complex, [z, g])];
    },
    saves: 'none',
    tf: tfSpec({ op: kernel, attrs: { T: { dtypeOf: 0 }, Tout: { fixed: attr.type('float32') } } }),
  });
}
export const real = { ...part('real', 'Real'), api: api(['math.real'], [arg.tensor('input', null)]) };
export const imag = { ...part('imag', 'Imag'), api: api(['math.imag'], [arg.tensor('input', null)]) };

/** z * s for complex z and a real (broadcasting) factor. */
function scale(z: Tensor, s: Tensor | number): Tensor {
  return one(complex, [o.mul(one(real, [z]), s), o.mul(one(imag, [z]), s)]);
}

/** The static size of the last axis (the gradients scale by it). */
function lastDim(op: string, x: Tensor): number {
  const d = x.dims;
  const n = d === null ? null : d[d.length - 1];
  if (n === null || n === undefined) throw argError(op, 'the innermost dim must be known', dimsToString(d), 'a static last dim', 'Give the traced input a TensorSpec with its last dim set.');
  return n;
}

function complexFft<const N extends 'fft' | 'ifft'>(name: N, kernel: 'FFT' | 'IFFT'): OpRecord<N, Params> {
  const self: OpRecord<N, Params> = defineOp({
    name,
    infer(ins: AVal[]) {
      checkArity(`signal.${name}`, ins, 1);
      checkDTypes(`signal.${name}`, ins[0], C64, 'input');
      const s = ins[0].shape;
      atLeastRank1(`signal.${name}`, s);
      return [{ dtype: 'complex64', shape: s }];
    },
    impl: (k, [x]) => [withScratch(k, (s) => {
      const [re, im] = transformParts(s, kernel, s.run('Real', { input: x }), s.run('Imag', { input: x }));
      return s.run('Complex', { real: re, imag: im });
    })],
    // TF: the gradient of FFT is IFFT(g) * n; of IFFT, FFT(g) / n.
    vjp: (c, [x]) => {
      const n = lastDim(`signal.${name} gradient`, x);
      return [scale(one(name === 'fft' ? ifft : fft, [c[0] as Tensor]), name === 'fft' ? n : 1 / n)];
    },
    saves: 'inputs',
    tf: tfSpec({ op: kernel, noT: true, attrs: { Tcomplex: { dtypeOf: 0 } } }),
  });
  return self;
}
export const fft = { ...complexFft('fft', 'FFT'), api: api(['signal.fft'], [arg.tensor('input', null)]) };
export const ifft = { ...complexFft('ifft', 'IFFT'), api: api(['signal.ifft'], [arg.tensor('input', null)]) };

export interface FftLengthParams {
  /** [n]: the transform length (the input's last axis is cut or zero-padded to it). */
  readonly fftLength: readonly number[];
}

function checkLength(op: string, p: FftLengthParams): number {
  const n = p.fftLength?.[0];
  if (p.fftLength?.length !== 1 || !Number.isInteger(n) || n < 1) throw argError(op, 'fftLength must be one positive integer', showValue(p.fftLength), '[n] with n >= 1', 'Pass e.g. [8] (or omit it for the input length).');
  return n;
}

/** The last axis of a Tensor cut or zero-padded to n (the gradients' counterpart of fitLast). */
function fitLastT(x: Tensor, n: number): Tensor {
  const r = x.rank as number;
  const m = lastDim('signal gradient', x);
  if (m === n) return x;
  if (m > n) return o.slice(x, new Array<number>(r).fill(0), [...new Array<number>(r - 1).fill(-1), n]);
  return o.pad(x, [...new Array<[number, number]>(r - 1).fill([0, 0]), [0, n - m]]);
}
const fitLastC = (z: Tensor, n: number): Tensor => one(complex, [fitLastT(one(real, [z]), n), fitLastT(one(imag, [z]), n)]);

/** The real FFT of the innermost axis: n/2 + 1 complex bins (TF's RFFT). */
export const rfft = defineOp({
  name: 'rfft',
  infer(ins: AVal[], p: FftLengthParams) {
    checkArity('signal.rfft', ins, 1);
    checkDTypes('signal.rfft', ins[0], F32, 'input');
    const n = checkLength('signal.rfft', p);
    const s = ins[0].shape;
    atLeastRank1('signal.rfft', s);
    return [{ dtype: 'complex64', shape: s === null ? null : [...s.slice(0, -1), Math.floor(n / 2) + 1] }];
  },
  impl(k: Kernels, [x]: Info[], p: FftLengthParams) {
    const n = p.fftLength[0];
    const bins = Math.floor(n / 2) + 1;
    return [withScratch(k, (s) => {
      const t = fitLast(s, x, n);
      const [re, im] = transformParts(s, 'FFT', t, s.run('ZerosLike', { x: t }));
      return s.run('Complex', { real: fitLast(s, re, bins), imag: fitLast(s, im, bins) });
    })];
  },
  // d/dx of the truncated DFT: Re(W^H g) = n * real(ifft(g zero-padded to n)), cut or padded back to the input length.
  vjp(c, [x], _o, p: FftLengthParams) {
    const n = p.fftLength[0];
    const full = one(ifft, [fitLastC(c[0] as Tensor, n)]);
    return [fitLastT(o.mul(one(real, [full]), n), lastDim('signal.rfft gradient', x))];
  },
  saves: 'inputs',
  tf: tfSpec<FftLengthParams>({ op: 'RFFT', noT: true, inputs: ['x', { param: 'fftLength', shape: 'vector', dtype: 'int32' }], attrs: { Treal: { dtypeOf: 0 }, Tcomplex: { fixed: attr.type('complex64') } } }),
});

/** The inverse of rfft: n real samples from n/2 + 1 Hermitian bins (TF's IRFFT). */
export const irfft = defineOp({
  name: 'irfft',
  infer(ins: AVal[], p: FftLengthParams) {
    checkArity('signal.irfft', ins, 1);
    checkDTypes('signal.irfft', ins[0], C64, 'input');
    const n = checkLength('signal.irfft', p);
    const s = ins[0].shape;
    atLeastRank1('signal.irfft', s);
    return [{ dtype: 'float32', shape: s === null ? null : [...s.slice(0, -1), n] }];
  },
  impl(k: Kernels, [x]: Info[], p: FftLengthParams) {
    const n = p.fftLength[0];
    const bins = Math.floor(n / 2) + 1;
    return [withScratch(k, (s) => {
      const [re, im] = [fitLast(s, s.run('Real', { input: x }), bins), fitLast(s, s.run('Imag', { input: x }), bins)];
      let [fr, fi] = [re, im];
      const mirror = n - bins;
      if (mirror > 0) {
        const r = re.shape.length;
        const tail = (v: Info): Info => s.run('Reverse', { x: s.run('Slice', { x: v }, { begin: [...new Array<number>(r - 1).fill(0), 1], size: [...v.shape.slice(0, -1), mirror] }) }, { dims: [r - 1] });
        fr = s.run('Concat', [re, tail(re)] as unknown as Record<string, Info>, { axis: r - 1 });
        fi = s.run('Concat', [im, s.run('Neg', { x: tail(im) })] as unknown as Record<string, Info>, { axis: r - 1 });
      }
      return transformParts(s, 'IFFT', fr, fi)[0];
    })];
  },
  // TF's _IRFFTGrad: rfft(g) / n with the de-duplicated bins counted twice, cut or padded back to the input length.
  vjp(c, [x], _o, p: FftLengthParams) {
    const n = p.fftLength[0];
    const bins = Math.floor(n / 2) + 1;
    const mask = Array.from({ length: bins }, (_, i) => (i === 0 || (i === bins - 1 && n % 2 === 0) ? 1 : 2) / n);
    const g = one(rfft as Primitive, [c[0] as Tensor], { fftLength: [n] });
    return [fitLastC(scale(g, convert('signal.irfft gradient', mask, 'float32').t), lastDim('signal.irfft gradient', x))];
  },
  saves: 'inputs',
  tf: tfSpec<FftLengthParams>({ op: 'IRFFT', noT: true, inputs: ['x', { param: 'fftLength', shape: 'vector', dtype: 'int32' }], attrs: { Tcomplex: { dtypeOf: 0 }, Treal: { fixed: attr.type('float32') } } }),
});
