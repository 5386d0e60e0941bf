// The documented departures from TensorFlow 2.21: each entry says what it allows, where, and why.
import type { Divergence, What } from './compare';
import type { PathName } from './paths';

export interface Allowed {
  id: string;
  /** Ops it covers ('*' = every op). */
  ops: readonly string[] | '*';
  /** Kinds of difference it covers. */
  what: readonly What[];
  /** Only cases carrying this fixture tag. */
  tag?: string;
  /** Only these case names. */
  cases?: readonly string[];
  /** Only these paths (default all). */
  paths?: readonly PathName[];
  reason: string;
}

export const ALLOWLIST: readonly Allowed[] = [
  {
    id: 'no-float64',
    ops: '*',
    what: ['dtype-float64'],
    reason: 'The contract has no float64: where TensorFlow returns float64 (tf.math.divide of int32), ef returns float32; values are compared after rounding TF\'s to float32.',
  },
  {
    id: 'int32-for-int64',
    ops: '*',
    what: ['dtype-int64'],
    reason: 'The contract has no int64: where TensorFlow returns int64, ef returns int32 with the same values.',
  },
  {
    id: 'denormals-kept',
    ops: '*',
    what: ['value', 'signed-zero'],
    tag: 'denormal',
    reason: 'TensorFlow\'s CPU kernels flush denormal float32 inputs and results to zero (FTZ/DAZ); the tfjs kernels, JavaScript and WebAssembly keep them. Only cases whose inputs are denormal differ.',
  },
  {
    id: 'denormal-intermediates',
    ops: ['divide', 'pow'],
    what: ['value'],
    cases: ['special grid'],
    paths: ['grad-2nd', 'traced-grad-2nd'],
    reason: 'Second-order gradients at x = inf / 3e38 pass through denormal intermediates (2 / 3e38 in divide\'s gradient, 1 / 3e38 in pow\'s): TensorFlow flushes them to 0 and then computes inf * 0 = NaN; ef keeps them and gets inf * tiny = inf. Same cause as denormals-kept.',
  },
  {
    id: 'sqrt-grad-zero-sign',
    ops: ['sqrt'],
    what: ['signed-zero'],
    cases: ['special values'],
    paths: ['grad-2nd', 'traced-grad-2nd'],
    reason: 'At x = inf the second-order gradient is a zero whose sign TensorFlow\'s SqrtGrad kernel does not define by IEEE rules: SqrtGrad(y = inf, dy = -0) returns +0 where (0.5 * dy) / y is -0. ef follows IEEE.',
  },
  {
    id: 'tf-transpose-negative-perm-gradient',
    ops: ['transpose'],
    what: ['no-raise'],
    cases: ['negative perm [-1, 0, 1]'],
    paths: ['grad', 'grad-2nd', 'traced-grad', 'traced-grad-2nd', 'traced-grad-unknown-dims'],
    reason: 'TensorFlow accepts a negative perm entry in the forward op but its gradient fails (invert_permutation refuses negative entries): a TensorFlow bug. ef differentiates it (the gradient is the transpose by the inverse permutation).',
  },
  {
    id: 'pruned-dead-op',
    ops: ['unsortedSegmentSum'],
    what: ['no-raise'],
    cases: ['zero segments'],
    paths: ['traced-grad-2nd'],
    reason: 'TensorFlow\'s eager second-order gradient raises in a gather whose result the final gradient does not use (out of range on an empty cotangent). A trace prunes such a dead op, as tf.function does, so the traced second-order gradient returns the (zero) result instead.',
  },
  {
    id: 'random-streams',
    ops: '*',
    what: ['value', 'signed-zero'],
    tag: 'random',
    reason: 'Random ops: TensorFlow draws from its Philox streams and ef from tfjs\'s generators seeded by TF\'s rules, so the same seed gives different numbers. Fixtures pin dtype and shape exactly; the values\' ranges, moments and seed determinism are tested in random_stats.test.ts.',
  },
  {
    id: 'signed-zero-of-max-min',
    ops: ['maximum', 'minimum', 'clipByValue'],
    what: ['signed-zero'],
    reason: 'Which zero maximum(0, -0) / minimum(0, -0) returns is unspecified in TensorFlow (it depends on the Eigen packet path); ef returns a zero of either sign.',
  },
];

/** Every cpu (and wasm) allowlist entry: the issue allowlists together. */
export const CPU_ALLOWLIST: readonly Allowed[] = [
  ...ALLOWLIST,
  // TensorFlow quirks and inherent limits (TensorFlow raises too): unknown-rank resize, the zero sign of fused gradient
  // kernels and of relu6, gradients TensorFlow 2.21 cannot take.
  { id: "image.resize-rank3-unknown-rank", ops: ["image.resize"], what: ["raises"], cases: ["rank 3"], paths: ["traced-unknown-rank"], reason: "INHERENT (TensorFlow raises too): a single image (rank 3) is batched by a rank-dependent expandDims, so with an unknown rank a rank-3 image cannot be told from a batch. tf.image.resize traced with an unknown-rank TensorSpec raises ValueError ('images' contains no shape); ef raises a clear InvalidArgumentError asking for rank-4 NHWC input. Known ranks (eager, traced, unknown dims) match TF." },
  { id: "tf-kernel-grad-zero-sign", ops: ["math.rsqrt", "math.reciprocal", "nn.softmaxCrossEntropyWithLogits"], what: ["signed-zero"], cases: ["special values", "rows", "axis 0", "large logits"], paths: ["grad", "traced-grad", "traced-grad-unknown-dims", "grad-2nd", "traced-grad-2nd"], reason: "A zero gradient whose sign TensorFlow's fused gradient kernels do not define by IEEE rules: RsqrtGrad(y = 0, dy > 0) returns +0 where -0.5·dy·y³ is -0 (rsqrt at +inf); ReciprocalGradGrad at y = -0 likewise; and the labels' second derivative of SoftmaxCrossEntropyWithLogits is a constant 0 in TF (its gradient ignores backprop's dependence on labels) while ef's composite gets 0 times a negative cotangent = -0. Values agree; only the zero's sign differs (same cause as sqrt-grad-zero-sign)." },
  { id: "relu6-zero-sign", ops: ["nn.relu6"], what: ["signed-zero"], cases: ["at the kinks"], paths: ["eager", "traced", "traced-unknown-dims", "traced-unknown-rank"], reason: "relu6(-0): TensorFlow's kernel is cwiseMax(0).cwiseMin(6), whose zero sign is the unspecified one of max/min (signed-zero-of-max-min); TF CPU returns -0, tfjs's Relu6 +0." },
  { id: "tf-no-gradient", ops: ["nn.conv2d", "nn.softsign"], what: ["no-raise"], cases: ["dilation 2", "special values", "denormals", "smooth matrix", "scalar", "empty"], paths: ["grad", "grad-2nd", "traced-grad", "traced-grad-2nd", "traced-grad-unknown-dims"], reason: "TensorFlow 2.21 cannot differentiate these, ef can: its CPU Conv2DBackpropInput/Filter refuse dilations > 1 ('Current CPU implementations do not yet support dilation rates larger than 1'), and no gradient is registered for SoftsignGrad, so softsign's second order raises LookupError (the fixture records both orders in one call). ef's gradients here are checked against float64 finite differences in tf_missing_gradients.test.ts instead." },
  // Pooling and unstack with unknown rank or size (inherent), the zero sign of a matmul's sum, NaN in segment max/min,
  // tied 3-D pooling maxima, LRN's second order.
  { id: "nn.avgPool-unknown-rank", ops: ["nn.avgPool"], what: ["raises"], cases: ["2-D 2 VALID", "2-D 3 SAME stride 1", "2-D 3 SAME stride 2"], paths: ["traced-unknown-rank"], reason: "INHERENT (TensorFlow raises too): the op dispatches on the input rank (3: 1-D, 4: 2-D, 5: 3-D pooling), so with an unknown rank there is no op to choose. tf.nn.avg_pool traced with an unknown-rank TensorSpec raises ValueError (Cannot take the length of shape with unknown rank); ef raises a clear InvalidArgumentError asking for rank 3, 4 or 5. Known ranks with unknown dims match TF (tf.nn.pool, whose window gives the rank, works with an unknown rank in both)." },
  { id: "nn.maxPool-unknown-rank", ops: ["nn.maxPool"], what: ["raises"], cases: ["1-D 2 VALID", "1-D 3 SAME stride 1", "1-D 3 SAME stride 2"], paths: ["traced-unknown-rank"], reason: "INHERENT (TensorFlow raises too): the op dispatches on the input rank (3: 1-D, 4: 2-D, 5: 3-D pooling), so with an unknown rank there is no op to choose. tf.nn.max_pool traced with an unknown-rank TensorSpec raises ValueError (Cannot take the length of shape with unknown rank); ef raises a clear InvalidArgumentError asking for rank 3, 4 or 5. Known ranks with unknown dims match TF (tf.nn.pool, whose window gives the rank, works with an unknown rank in both)." },
  { id: "unstack-unknown-axis-size", ops: ["unstack"], what: ["raises"], cases: ["axis 0", "axis 1", "axis -1"], paths: ["traced-unknown-dims", "traced-unknown-rank"], reason: "INHERENT (TensorFlow raises too): the number of outputs is the size of the unstacked axis, which a trace must know to build its outputs. tf.unstack traced with that dim unknown raises ValueError (Cannot infer argument `num` from shape); ef raises a clear InvalidArgumentError asking for a static size." },
  { id: "matmul-zero-sum-sign", ops: ["linalg.matvec"], what: ["signed-zero"], cases: ["batch"], paths: ["grad", "traced-grad", "traced-grad-unknown-dims"], reason: "The sign of a zero that is a matmul's sum: matvec's gradient for the matrix is a matmul with inner dim 1 (dy times b), whose one product is -0 where dy or b is a zero of the other sign. TensorFlow's BatchMatMul (Eigen's contraction) returns that lone product, -0; tfjs's MatMul kernels accumulate from +0, and IEEE 754 gives +0 + -0 = +0. Which zero a sum of products returns depends on the kernel's accumulation order and start, which TensorFlow does not specify (its GEMM paths differ too); every value agrees." },
  { id: "segment-max-min-nan", ops: ["math.unsortedSegmentMax", "math.unsortedSegmentMin"], what: ["value"], cases: ["special values"], reason: "A NaN in a segment: TensorFlow's CPU UnsortedSegmentMax/Min fold with a plain comparison that skips a NaN met first (max(NaN, 1) = 1), so the result depends on the element order; ef propagates NaN like reduceMax/reduceMin and tf.math.maximum (so the gradient, routed to the selected maximum, differs too). TF's result is an artifact of its loop, not a documented semantics." },
  { id: "maxPool3d-grad-ties", ops: ["nn.maxPool3d"], what: ["value"], cases: ["3-D 3 SAME stride 1", "3-D 3 SAME stride 2"], paths: ["grad", "grad-2nd", "traced-grad", "traced-grad-2nd", "traced-grad-unknown-dims"], reason: "Tied maxima in a 3-D window: TensorFlow's MaxPool3DGrad gives the cotangent to a different one of the tied elements than tfjs's MaxPool3DBackprop (which one is an implementation choice, not a documented semantics). The case 'distinct values SAME' has no ties and matches TF exactly." },
  { id: "lrn-tf-no-second-order", ops: ["nn.localResponseNormalization"], what: ["no-raise"], cases: ["defaults", "radius 1"], paths: ["grad", "grad-2nd", "traced-grad", "traced-grad-2nd", "traced-grad-unknown-dims"], reason: "TensorFlow 2.21 registers no gradient for LRNGrad, so LRN's second order raises LookupError (and the fixture records both orders in one call); ef differentiates it. ef's gradients are checked against float64 finite differences in tf_missing_gradients.test.ts instead." },
  // Linalg decompositions, image composites and NMS, real-valued signal ops.
  {
    id: 'cholesky-raises-on-indefinite',
    ops: ['linalg.cholesky'],
    what: ['raises'],
    cases: ['not positive definite'],
    reason: "ef raises an InvalidArgumentError ('Cholesky decomposition was not successful') for a matrix that is not positive definite, as TensorFlow's kernel documents; TensorFlow 2.21's CPU kernel returned NaNs and an uninitialized value for it instead.",
  },
  {
    id: 'cropAndResize-tf-no-second-order',
    ops: ['image.cropAndResize'],
    what: ['no-raise'],
    paths: ['grad', 'grad-2nd', 'traced-grad', 'traced-grad-2nd', 'traced-grad-unknown-dims'],
    reason: "TensorFlow 2.21 registers no gradient for CropAndResizeGradImage/Boxes, so the fixture's combined first- and second-order call raises LookupError; ef's cropAndResize is a composite of gathers and lerps, differentiable to any order. Its first-order gradients (image and boxes) equal TensorFlow's in packages/core/test/image_tf.test.ts, and the harness checks them against finite differences.",
  },
  {
    id: 'perImageStandardization-constant-second-order',
    ops: ['image.perImageStandardization'],
    what: ['value'],
    cases: ['constant image'],
    paths: ['grad-2nd', 'traced-grad-2nd'],
    reason: "A constant image: TensorFlow's second order is NaN (sqrt's gradient at a zero variance, 0/0); ef computes max(stddev, 1/sqrt(N)) as sqrt(max(variance, 1/N)), equal in value and first order, so its second order is the finite 0.",
  },
];

/** The entry of `list` that allows divergence `d`, if any. */
export function allowedIn(list: readonly Allowed[], d: Divergence): Allowed | undefined {
  return list.find(
    (a) =>
      (a.ops === '*' || a.ops.includes(d.op)) &&
      a.what.includes(d.what) &&
      (a.tag === undefined || d.tags.includes(a.tag)) &&
      (a.cases === undefined || a.cases.includes(d.case)) &&
      (a.paths === undefined || a.paths.includes(d.path)),
  );
}

export function allowedBy(d: Divergence): Allowed | undefined {
  return allowedIn(CPU_ALLOWLIST, d);
}
