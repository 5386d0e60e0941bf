// Harness rows for ef.random.gamma / poisson: draws with exact consequences (every gamma draw is positive; rate 0 draws 0).
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, TfCall, tfTensor as T, tfNone } from './case';
import { Ref } from './ref';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_random_gamma: TfCall = { fn: 'tf.random.gamma', cases: 'none', params: ['s', 'a'], options: { seed: ['seed', null] }, extra: [
    { name: 'alpha [2]', args: [[3], T([0.5, 2]), { seed: 7 }], grad: false, tags: ['random'] },
  ] };
const TF_random_poisson: TfCall = { fn: 'tf.random.poisson', cases: 'none', params: ['s', 'lam'], options: { seed: ['seed', null] }, extra: [
    { name: 'lam [2]', args: [[3], T([1, 4]), { seed: 7 }], grad: false, tags: ['random'] },
  ] };

/** TF 2.21's RandomGammaGrad at fixed pairs (packages/core/test/fixtures/tf_gamma_grad.json, scripts/tf-golden/gamma_grad.py). */
const GG = { alpha: [0.30000001192092896, 1.0, 2.5, 10.0], sample: [9.999999747378752e-05, 0.05000000074505806, 0.800000011920929, 4.0, 0.009999999776482582, 0.5, 2.0, 8.0, 0.20000000298023224, 1.0, 2.5, 10.0, 0.8999999761581421, 2.5, 4.5, 13.0, 3.0, 6.0, 9.0, 20.0], grad: [0.003013968002051115, 0.1759137362241745, 0.5705558657646179, 0.620805561542511, 0.1492069661617279, 0.8069790601730347, 0.9534629583358765, 0.9075481295585632, 1.212037205696106, 1.17356276512146, 1.0686732530593872, 1.0168241262435913, 2.6151392459869385, 1.7970318794250488, 1.4133694171905518, 1.156018853187561, 4.066905975341797, 2.5142431259155273, 1.8917114734649658, 1.4093214273452759] };
const gammaGrad = (a: ef.Tensor, x: ef.Tensor): ef.Tensor => ef.internal.bind((ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>).random_gamma_grad, [a, x], {})[0];

const NOCONV = (op: string): string => `tfjs-converter has no ${op} kernel`;

export const random2Cases: ForwardCase[] = [
  { prim: 'random_gamma', api: 'random.gamma', tfCall: TF_random_gamma, tfOps: ['RandomGamma'], name: 'random.gamma draws are positive (sign 1)', inputs: [{ shape: [2], gen: 'positive' }], op: (a) => ef.tidy(() => ef.sign(ef.random.gamma([3], a, { beta: 2, seed: 4 }))), ref: () => new Ref([3, 2], new Array<number>(6).fill(1), 'float32'), grad: false, noConverter: NOCONV('RandomGamma') },
  { prim: 'random_gamma', api: 'random.gamma', tfCall: TF_random_gamma, tfOps: ['RandomGamma'], name: 'random.gamma sign: gradient 0 through the alpha gradient kernel', inputs: [{ shape: [2], gen: 'positive' }], op: (a) => ef.tidy(() => ef.sign(ef.random.gamma([3], a, { seed: 5 }))), ref: () => new Ref([3, 2], new Array<number>(6).fill(1), 'float32'), secondOrder: false, noConverter: NOCONV('RandomGamma') },
  { prim: 'random_gamma_grad', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): random.gamma\'s reparameterization gradient (TF\'s RandomGammaGrad), checked against TF 2.21 in its row\'s fixture (scripts/tf-golden/gamma_grad.py)'), tfOps: ['RandomGammaGrad'], name: "RandomGammaGrad at TF's (alpha, sample) pairs", inputs: [{ shape: [4], values: GG.alpha }, { shape: [5, 4], values: GG.sample }], op: (a, x) => gammaGrad(a, x), ref: () => new Ref([5, 4], GG.grad, 'float32'), grad: false, rtol: 2e-5, atol: 2e-5, noConverter: NOCONV('RandomGammaGrad') },
  { prim: 'random_poisson', api: 'random.poisson', tfCall: TF_random_poisson, tfOps: ['RandomPoissonV2'], name: 'random.poisson with rate 0 draws 0 (int32)', inputs: [{ shape: [2], values: [0, 0] }], op: (l) => ef.random.poisson([2], l, { dtype: 'int32', seed: 2 }), ref: () => new Ref([2, 2], [0, 0, 0, 0], 'int32'), noConverter: NOCONV('RandomPoissonV2') },
];

export const random2Errors: ErrorCase[] = [
  { prim: 'random_gamma', api: 'random.gamma', name: 'random.gamma of int32 alpha', inputs: [{ shape: [2], dtype: 'int32', gen: 'count' }], run: (a) => ef.random.gamma([2], a), op: 'random.gamma', got: 'int32', expected: 'float32' },
  { prim: 'random_gamma_grad', name: 'RandomGammaGrad with mismatched sample dims', inputs: [{ shape: [3], gen: 'positive' }, { shape: [2, 2], gen: 'positive' }], run: (a, x) => gammaGrad(a, x), op: 'random.gamma gradient', got: 'alpha [3] and sample [2,2]', expected: 'sample [..., *alpha.shape]' },
  { prim: 'random_poisson', api: 'random.poisson', name: 'random.poisson of bool dtype', inputs: [{ shape: [1] }], run: (l) => ef.random.poisson([2], l, { dtype: 'bool' }), op: 'random.poisson', got: 'bool', expected: 'float32 or int32' },
];
