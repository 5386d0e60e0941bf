// random: gamma (TF's RandomGamma, Marsaglia-Tsang) and Poisson (TF's RandomPoissonV2: Knuth below rate 10, Hörmann's
// PTRS above) draws from ef's Philox streams, seeded by TF's rules. Stateful; gamma is differentiable in alpha (TF's rule).
// Composites: tf.random.gamma and tf.random.poisson: the seeded draw records plus TF's broadcasting of alpha with beta.
import type { Info, Kernels } from '../../backend/backend';
import { defineOp } from '../define_op';
import { readInfoSync } from '../../backend/backend';
import type { AVal, Primitive, Params } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { ReadScope, SpecNode, WriteScope, attr } from '../graphdef_spec';
import { bind } from '../bind';
import { argError, checkArity, checkDTypes, checkDimsValid, checkSize, FLOAT } from '../check';
import type { PhiloxStream } from './philox';
import { streamFor, opSeeds } from './seeds';
import { gammaVjp, logGamma } from './gamma_grad';
import { composites } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import { DType, asDType } from '../../values/dtype';
import * as o from '../ops';

export interface RateDrawParams {
  /** The sample shape (the result is [...shape, ...rate's shape]). */
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly seed: number;
  readonly seed2: number;
}

/** Marsaglia and Tsang's method; shape < 1 is boosted: Gamma(a) = Gamma(a + 1) * U^(1/a). */
function gammaDraw(s: PhiloxStream, a: number): number {
  if (!(a > 0)) return NaN;
  if (a < 1) return gammaDraw(s, a + 1) * Math.pow(1 - s.uniform(), 1 / a);
  const d = a - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = s.normal();
    const v0 = 1 + c * x;
    if (v0 <= 0) continue;
    const v = v0 * v0 * v0;
    const u = 1 - s.uniform();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Poisson draws as TF's kernel chooses them: Knuth's product of uniforms below rate 10, PTRS (Hörmann 1993) above. */
function poissonDraw(s: PhiloxStream, lam: number): number {
  if (!(lam >= 0)) return NaN;
  if (lam === 0) return 0;
  if (lam < 10) {
    const limit = Math.exp(-lam);
    let k = 0;
    let p = s.uniform();
    while (p > limit) {
      k++;
      p *= s.uniform();
    }
    return k;
  }
  const logLam = Math.log(lam);
  const b = 0.931 + 2.53 * Math.sqrt(lam);
  const a = -0.059 + 0.02483 * b;
  const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = s.uniform() - 0.5;
    const v = s.uniform();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log((v * invAlpha) / (a / (us * us) + b)) <= -lam + k * logLam - logGamma(k + 1)) return k;
  }
}

function rateRecord<const N extends string>(name: N, op: string, tfOp: string, rateName: string, dtypes: readonly DType[], drawOne: (s: PhiloxStream, rate: number) => number, differentiable: boolean) {
  const rec = defineOp({
    name,
    effect: 'stateful',
    infer(ins: AVal[], p: RateDrawParams) {
      checkArity(op, ins, 1);
      checkDTypes(op, ins[0], FLOAT, rateName);
      checkDimsValid(op, p.shape);
      if (!dtypes.includes(p.dtype)) throw argError(op, 'unsupported dtype', p.dtype, dtypes.join(' or '), `Pass dtype '${dtypes[0]}'.`);
      const r = ins[0].shape;
      const out = r === null ? null : [...p.shape, ...r];
      checkSize(op, out);
      return [{ dtype: p.dtype, shape: out }];
    },
    impl(k: Kernels, [rate]: Info[], p: RateDrawParams) {
      const rates = readInfoSync(rate) as Float32Array;
      const s = streamFor(p.seed, p.seed2);
      const n = p.shape.reduce((x, y) => x * y, 1);
      const out = p.dtype === 'int32' ? new Int32Array(n * rates.length) : new Float32Array(n * rates.length);
      for (let i = 0; i < n; i++) for (let j = 0; j < rates.length; j++) out[i * rates.length + j] = drawOne(s, rates[j]);
      return [k.upload(out, [...p.shape, ...rate.shape], p.dtype)];
    },
    // Gamma: TF's implicit reparameterization gradient for alpha; Poisson: none (TF).
    vjp: differentiable ? (c: (Tensor | null)[], [alpha]: Tensor[], [sample]: Tensor[], p: RateDrawParams): (Tensor | null)[] => [gammaVjp(c[0] as Tensor, alpha, sample, p.shape.length)] : null,
    saves: differentiable ? ('both' as const) : ('none' as const),
    tf: {
      ops: [tfOp],
      write(s: WriteScope, n: SpecNode, [rate]: string[]) {
        const p = n.params as RateDrawParams;
        const attrs: Record<string, ReturnType<typeof attr.int>> = { seed: attr.int(p.seed), seed2: attr.int(p.seed2), S: attr.type('int32') };
        if (tfOp === 'RandomGamma') attrs.T = attr.type('float32');
        else Object.assign(attrs, { R: attr.type('float32'), dtype: attr.type(p.dtype) });
        return [s.add(tfOp, tfOp, [s.ints('shape', p.shape), rate], attrs)];
      },
      read(r: ReadScope): Tensor[] {
        r.arity(2);
        const shape = r.numbers(0, 'the shape');
        r.checkSize(shape);
        const dtype = tfOp === 'RandomGamma' ? 'float32' : r.node.dtype('dtype', 'float32');
        return bind(rec as unknown as Primitive, [r.input(1)], { shape, dtype, seed: r.node.int('seed', 0), seed2: r.node.int('seed2', 0) });
      },
    },
  });
  return rec;
}

/** tf.random.gamma's kernel: Gamma(alpha, 1) draws per alpha entry (beta is applied by the public op). */
export const randomGamma = rateRecord('random_gamma', 'random.gamma', 'RandomGamma', 'alpha', ['float32'], gammaDraw, true);
/** tf.random.poisson's kernel: Poisson(lam) draws per rate entry. */
export const randomPoisson = rateRecord('random_poisson', 'random.poisson', 'RandomPoissonV2', 'lam', ['float32', 'int32'], poissonDraw, false);

export interface GammaOptions { beta?: TensorLike; dtype?: DType; seed?: number }

/**
 * Gamma(alpha, beta) draws: [...shape, ...broadcast(alpha, beta).shape] (beta is a rate: the draws are Gamma(alpha, 1) / beta).
 * @example ef.random.gamma([10], [0.5, 1.5], { seed: 3 }).shape.dims; // [10, 2]
 */
function gamma(shape: readonly number[], alpha: TensorLike, options: GammaOptions = {}): Tensor {
  const [seed, seed2] = opSeeds('random.gamma', options.seed);
  return tidy(() => {
    const a = convert('random.gamma', alpha, 'float32').t;
    const b = options.beta === undefined ? null : convert('random.gamma', options.beta, 'float32').t;
    const ab = b === null ? a : o.add(a, o.zerosLike(b));
    const g = bind(randomGamma as unknown as Primitive, [ab], { shape, dtype: asDType(options.dtype ?? 'float32', 'random.gamma'), seed, seed2 } as Params)[0];
    return b === null ? g : o.div(g, b);
  });
}

export interface PoissonOptions { dtype?: DType; seed?: number }

/**
 * Poisson(lam) draws: [...shape, ...lam.shape], float32 (or int32).
 * @example ef.random.poisson([4], 0).arraySync(); // [0, 0, 0, 0]
 */
function poisson(shape: readonly number[], lam: TensorLike, options: PoissonOptions = {}): Tensor {
  const [seed, seed2] = opSeeds('random.poisson', options.seed);
  return tidy(() => bind(randomPoisson as unknown as Primitive, [convert('random.poisson', lam, 'float32').t], { shape, dtype: asDType(options.dtype ?? 'float32', 'random.poisson'), seed, seed2 } as Params)[0]);
}

export const RANDOM2_COMPOSITES = composites('random', { gamma, poisson });
