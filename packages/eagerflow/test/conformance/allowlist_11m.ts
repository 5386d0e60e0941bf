// Departures found by issue 11m's fixtures (linalg decompositions, image composites, real-valued signal ops), each with its reason.
import type { Allowed } from './allowlist';

export const ALLOWLIST_11M: readonly Allowed[] = [
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
