// tf.nn's activations built from records (softsign, silu, gelu, logSoftmax): composites apart from nn/activations.ts's
// records only because gelu's exact form binds math's erf record, and math/unary_functions.ts's logSigmoid reads
// nn/activations.ts's softplus record (one file would be an import circle).
import type { Tensor } from '../../values/tensor';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { composites } from '../api_spec';
import * as o from '../ops';
import * as E from '../math/unary';
import { argError } from '../check';
import { tidy } from '../../backend/memory';
import { bind } from '../bind';
import { describe } from '../../values/dtype';
import { erf } from '../math/unary_functions';

const sigmoid: (x: TensorLike) => Tensor = o.wrapperOf(E.sigmoid);
const tanh: (x: TensorLike) => Tensor = o.wrapperOf(E.tanh);
const abs: (x: TensorLike) => Tensor = o.wrapperOf(E.abs);

/** One float32 input of a composite (JS values converted; temporaries freed by the tidy around it). */
const input = (op: string, x: TensorLike): Tensor => convert(op, x, 'float32').t;

/**
 * softsign(x) = x / (1 + |x|).
 * @example ef.nn.softsign([1, -3]).arraySync(); // [0.5, -0.75]
 */
function softsign(features: TensorLike): Tensor {
  return tidy(() => {
    const x = input('softsign', features);
    // TF's Softsign has float kernels only (int32 raises there too).
    if (x.dtype !== 'float32') throw argError('softsign', 'unsupported dtype for features', x.dtype, 'float32', "Cast it first, e.g. ef.cast(x, 'float32').");
    return o.div(x, o.add(abs(x), 1));
  });
}

/**
 * silu(x) = x · sigmoid(x) (also `swish`).
 * @example ef.nn.silu([0]).arraySync(); // [0]
 */
function silu(features: TensorLike): Tensor {
  return tidy(() => {
    const x = input('silu', features);
    return o.mul(x, sigmoid(x));
  });
}

/**
 * gelu(x, {approximate}): x·Φ(x) exactly (with erf), or TF's tanh approximation.
 * @example ef.nn.gelu([0], { approximate: true }).arraySync(); // [0]
 */
function gelu(features: TensorLike, options: { approximate?: boolean } = {}): Tensor {
  const approximate = options.approximate ?? false;
  if (typeof approximate !== 'boolean') throw argError('gelu', 'approximate must be a boolean', describe(approximate), 'true or false', 'Pass { approximate: true } or false.');
  return tidy(() => {
    const x = input('gelu', features);
    if (approximate) {
      // TF: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
      const inner = o.mul(o.add(x, o.mul(o.mul(o.square(x), x), 0.044715)), Math.sqrt(2 / Math.PI));
      return o.mul(o.mul(x, 0.5), o.add(tanh(inner), 1));
    }
    // TF: 0.5·x·(1 + erf(x/√2)); erf is a math record.
    const e = bind(erf, [o.mul(x, Math.SQRT1_2)], {})[0];
    return o.mul(o.mul(x, 0.5), o.add(e, 1));
  });
}

/**
 * logSoftmax(logits, axis = -1) = x - max - log(sum(exp(x - max))), stable for large logits.
 * @example ef.nn.logSoftmax([0, 0]).arraySync(); // [-0.6931471824645996, -0.6931471824645996]
 */
export function logSoftmax(logits: TensorLike, axis = -1): Tensor {
  if (!Number.isInteger(axis)) throw argError('logSoftmax', 'axis must be an integer', describe(axis), 'an integer', 'Pass e.g. -1.');
  return tidy(() => {
    const x = input('logSoftmax', logits);
    const shifted = o.sub(x, o.stopGradient(o.reduceMax(x, axis, true)));
    return o.sub(shifted, o.log(o.reduceSum(o.exp(shifted), axis, true)));
  });
}

/** The activation composites with their public paths (merged into COMPOSITES). */
export const NN_COMPOSITES = composites('nn', {
  softsign, silu, gelu, logSoftmax,
}, { softsign: ['math.softsign'], silu: ['nn.swish'], logSoftmax: ['math.logSoftmax'] });
