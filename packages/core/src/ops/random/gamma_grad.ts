// random: TF's RandomGammaGrad, the implicit reparameterization derivative d sample / d alpha of Gamma(alpha, 1) draws
// (-dP(alpha, x)/d alpha over the density, P the regularized lower incomplete gamma), in float64 on the host.
import type { Info, Kernels } from '../../backend/backend';
import { defineOp } from '../define_op';
import { readInfoSync } from '../../backend/backend';
import type { AVal, Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { tfSpec } from '../graphdef_spec';
import { bind } from '../bind';
import * as o from '../ops';
import { dimsToString } from '../../values/shape';
import { argError, checkArity, checkDTypes, FLOAT } from '../check';

/** log Gamma(x) for x > 0 (Lanczos, g = 7). */
export function logGamma(x: number): number {
  const g = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = g[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += g[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** P(a, x) by its series (x < a + 1) or 1 - Q(a, x) by Lentz's continued fraction; `upper` returns Q instead. */
function incompleteGamma(a: number, x: number, upper: boolean): number {
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (!upper) {
    let ap = a, del = 1 / a, sum = del;
    for (let n = 0; n < 10000 && Math.abs(del) > Math.abs(sum) * 1e-17; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
    }
    return sum * front;
  }
  const tiny = 1e-300;
  let b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return front * h;
}

/** d x / d a for x ~ Gamma(a, 1): -(dP/da) / p(x), dP/da by central differences of the float64 P (or -dQ/da). */
function gammaSampleGrad(a: number, x: number): number {
  if (!(a > 0) || !(x > 0) || !Number.isFinite(x)) return 0;
  const upper = x >= a + 1;
  const h = 1e-5 * Math.max(a, 1e-3);
  const f = (s: number): number => incompleteGamma(s, x, upper);
  const dP = ((upper ? -1 : 1) * (f(a + h) - f(a - h))) / (2 * h);
  const density = Math.exp((a - 1) * Math.log(x) - x - logGamma(a));
  return -dP / density;
}

/** TF's RandomGammaGrad(alpha, sample): sample [..., *alpha.shape] -> d sample / d alpha, elementwise. Not differentiable (TF). */
export const randomGammaGrad = defineOp({
  name: 'random_gamma_grad',
  infer(ins: AVal[]) {
    checkArity('random.gamma gradient', ins, 2);
    checkDTypes('random.gamma gradient', ins[0], FLOAT, 'alpha');
    checkDTypes('random.gamma gradient', ins[1], FLOAT, 'sample');
    const [a, s] = [ins[0].shape, ins[1].shape];
    if (a !== null && s !== null && (s.length < a.length || a.some((d, i) => d !== null && s[s.length - a.length + i] !== null && d !== s[s.length - a.length + i]))) {
      throw argError('random.gamma gradient', "the sample's trailing dims must be alpha's", `alpha ${dimsToString(a)} and sample ${dimsToString(s)}`, 'sample [..., *alpha.shape]', 'Pass the draws of ef.random.gamma with this alpha.');
    }
    return [{ dtype: 'float32', shape: s }];
  },
  impl(k: Kernels, [alpha, sample]: Info[]) {
    const a = readInfoSync(alpha) as Float32Array;
    const s = readInfoSync(sample) as Float32Array;
    const out = new Float32Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = gammaSampleGrad(a[i % a.length], s[i]);
    return [k.upload(out, [...sample.shape], 'float32')];
  },
  tf: tfSpec({ op: 'RandomGammaGrad' }),
});

/** TF's _RandomGammaGrad: the cotangent times d sample / d alpha, summed over the sample dims. */
export function gammaVjp(g: Tensor, alpha: Tensor, sample: Tensor, sampleRank: number): Tensor {
  const partial = bind(randomGammaGrad as Primitive, [alpha, sample], {})[0];
  const prod = o.mul(g, partial);
  return sampleRank === 0 ? prod : o.reduceSum(prod, Array.from({ length: sampleRank }, (_, i) => i));
}
