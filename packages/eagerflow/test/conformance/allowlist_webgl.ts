// webgl's departures from TensorFlow 2.21 beyond the cpu allowlist (browser/tf_fixtures.test.ts), each with its measured reason.
// Measured in Debian Chromium with WebGL2 on SwiftShader (the test machine has no GPU); a hardware GPU may need fewer.
import { Allowed, allowedIn } from './allowlist';
import type { Divergence, Tolerances } from './compare';
import type { PathName } from './paths';

/**
 * The paths run on webgl: forward eagerly, traced (fused GPU kernels) and traced with unknown dims, and first-order
 * gradients eagerly. Traced gradients, second order and unknown ranks stay on cpu and wasm: they add time, few new GPU kernels.
 */
export const WEBGL_PATHS: readonly PathName[] = ['eager', 'traced', 'traced-unknown-dims', 'grad'];

/**
 * webgl is float32 in GLSL, but its built-ins are less exact than cpu's JS Math: SwiftShader's sin/cos are off by
 * up to 1.4e-4 absolute (measured: sin gives 0.99736 for TF's 0.99749), within Vulkan's bound for them (2^-11 = 4.9e-4
 * absolute on [-pi, pi]; SwiftShader is a Vulkan implementation). Hence atol 5e-4 and rtol 1e-3 on every path.
 */
export const WEBGL_TOL: Tolerances = { forward: { rtol: 1e-3, atol: 5e-4 }, grad: { rtol: 1e-3, atol: 5e-4 } };

export const ALLOWLIST_WEBGL: readonly Allowed[] = [
  {
    id: 'webgl-softmax-all-neg-inf',
    ops: ['softmax'],
    what: ['value'],
    cases: ['all -inf'],
    paths: ['eager', 'traced', 'traced-unknown-dims'],
    reason: "OPEN (measured after issue 28's softmax change, which skips NaN in the row max): a row of only -inf gives 1 on webgl (SwiftShader) where TF and ef's cpu/wasm give NaN; the cause in tfjs-webgl's shaders (the max, the -inf - -inf shift or the where) is not isolated yet.",
  },
  {
    id: 'webgl-relu-zero-sign',
    ops: ['nn.relu6', 'relu'],
    what: ['signed-zero'],
    cases: ['smooth matrix'],
    paths: ['eager', 'traced', 'traced-unknown-dims'],
    reason: "relu and relu6 of a negative input (-1.5 here): TF's CPU kernels, cwiseMax(0) (and cwiseMin(6)), give +0; tfjs-webgl's shaders give -0 (measured). Which zero max(x, 0) returns is the unspecified one of max/min (signed-zero-of-max-min); every value agrees.",
  },
  {
    id: 'webgl-glsl-special-values',
    ops: ['acos', 'acosh', 'asinh', 'atan2', 'atanh', 'cos', 'cosh', 'divide', 'math.erf', 'math.log1p', 'math.logSigmoid', 'nn.elu', 'nn.leakyRelu', 'nn.relu6', 'nn.selu', 'nn.softplus', 'nn.softsign', 'pow', 'reduceMax', 'reduceMean', 'reduceMin', 'reduceProd', 'relu', 'sigmoid', 'sin', 'sinh', 'tan', 'tanh'],
    what: ['value', 'signed-zero'],
    cases: ['alpha 0.5', 'domain', 'empty all', 'empty axis 0', 'int32 true division', 'scalar', 'smooth matrix', 'special grid', 'special values', 'special values all', 'special values axis 1'],
    reason: "GLSL does not follow IEEE 754 at NaN, ±inf and -0: the GLSL ES 3.00 spec's Range and Precision section does not require NaNs to be generated, nor built-ins given a NaN to return NaN, and lets values overflow and zeros lose their sign. Measured on SwiftShader: asinh(-inf) = 89.1, atanh(1) = 44.4, log1p(-1) = -88.0, cosh(NaN) = inf, 0/0 = 1 (so the mean of nothing is 1, not NaN), sin(-0) = +0, log1p(-1.5) finite, acosh's gradient below 1 is 0, not NaN. Finite inputs inside the domain agree within WEBGL_TOL.",
  },
  {
    id: 'webgl-int32-in-float32',
    ops: ['divide', 'math.squaredDifference', 'matmul', 'multiply', 'pow', 'reduceMean', 'reduceProd', 'reduceSum', 'relu', 'sort', 'square'],
    what: ['value'],
    cases: ['int32', 'int32 edges', 'int32 grid', 'int32 overflow', 'int32 overflow wraps'],
    paths: ['eager', 'traced', 'traced-unknown-dims'],
    reason: "tfjs-backend-webgl keeps int32 tensors in float32 textures and computes int32 arithmetic in float: integers beyond 2^24 are rounded (int32 max becomes 2147483648, then -2147483648 when read back) and overflow does not wrap as TF's two's complement does. Cases with int32 values within ±2^24 agree exactly.",
  },
  {
    id: 'webgl-gpu-index-checks',
    ops: ['gather', 'math.unsortedSegmentMax', 'math.unsortedSegmentMin', 'math.unsortedSegmentProd', 'nn.embeddingLookup', 'nn.sparseSoftmaxCrossEntropyWithLogits', 'tensorScatterNdUpdate', 'unsortedSegmentSum'],
    what: ['no-raise'],
    cases: ['id out of range', 'index out of range', 'label out of range', 'negative index', 'zero segments'],
    reason: "TensorFlow checks indices, segment ids and labels on CPU only, and documents that its GPU kernels do not raise: tf.gather 'On GPU, if an out of bound index is found, a 0 is stored in the corresponding output value'; tf.tensor_scatter_nd_update 'On GPU, if an out of bound index is found, the index is ignored'; tf.math.unsorted_segment_* 'On GPU, this does not throw an error for out-of-bound indices' (safe but unspecified behaviour); sparse_softmax_cross_entropy_with_logits returns NaN rows on GPU. ef follows the same split: cpu and wasm raise as TF's CPU (the fixtures), webgl's shaders do not check (a check would need a synchronous GPU read per call); the values at the bad entries follow tfjs-webgl's shaders.",
  },
  {
    id: 'webgl-int32-division-checks',
    ops: ['math.floordiv', 'pow'],
    what: ['no-raise'],
    cases: ['int32 divide by zero', 'int32 grid', 'int32 negative exponent'],
    reason: "Deliberate (webgl): TF's CPU kernels raise for int32 division by zero and for int32 to a negative int32 power, and TF on a GPU device raises too because it registers its int32 kernels with HostMemory (they run the CPU functor on host data). EagerFlow raises on cpu and wasm (a host check of the divisor and exponent values), but keeps int32 tensors on the webgl backend like every other tensor: the check there would need a blocking read of GPU data before every int32 division, which tfjs's webgl design avoids, so the result follows tfjs-webgl's float shaders. Run int32 arithmetic that must raise on cpu.",
  },
  {
    id: 'webgl-segment-max-min-init',
    ops: ['math.unsortedSegmentMax', 'math.unsortedSegmentMin'],
    what: ['value'],
    cases: ['empty segment', 'rows'],
    paths: ['eager', 'traced', 'traced-unknown-dims'],
    reason: "An empty segment: TF fills it with the lowest (max) or highest (min) float32, ±3.4028235e38; tfjs-backend-webgl's max/min reduction shaders start from ∓1.0 / 1e-20 (its initializationValue in tf-backend-webgl.js), so an empty segment reads ∓1e20 (measured).",
  },
  {
    id: 'webgl-max-pool-ties',
    ops: ['nn.maxPool2d', 'nn.maxPoolWithArgmax'],
    what: ['value'],
    cases: ['3x3 SAME stride 2', '3x3 stride 1 VALID'],
    reason: "Tied maxima in a window (these cases repeat values): TF's MaxPoolGrad and MaxPoolWithArgmax give the cotangent (and the argmax) to one of the tied elements, tfjs-backend-webgl's MaxPoolBackprop and argmax shaders to another (cpu's kernels pick TF's). The pooled values agree; which tied input gets the cotangent or the argmax is an implementation choice (as on cpu for 3-D pooling, maxPool3d-grad-ties).",
  },
];

export function allowedOnWebgl(d: Divergence): Allowed | undefined {
  return allowedIn(ALLOWLIST_WEBGL, d);
}
