// tf.random.gamma and tf.random.poisson: the seeded draw records plus TF's broadcasting of alpha with beta.
import { composite } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import { DType, asDType } from '../../values/dtype';
import type { Params, Primitive } from '../primitive';
import { bind } from '../bind';
import * as o from '../ops';
import { randomGamma, randomPoisson } from './gamma';
import { opSeeds } from './seeds';

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

export const RANDOM2_COMPOSITES = {
  gamma: composite(['random.gamma'], gamma),
  poisson: composite(['random.poisson'], poisson),
};
