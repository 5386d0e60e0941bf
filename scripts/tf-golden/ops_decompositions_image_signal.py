"""DECOMPOSITIONS_IMAGE_SIGNAL_OPS: rows for the public ops issue 11 (helper m) added: the tf.linalg decompositions, tf.image's composites and
non-max suppression, the real-valued tf.signal ops and random.gamma / random.poisson.

Ops with complex64 inputs or outputs (complex, math.real/imag, signal.fft/ifft/rfft/irfft/stft/inverseStft) and
signal.inverseStftWindowFn (it returns a function) are in NOT_YET: their TF checks, with first- and second-order
gradients, are packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py).

Usage: .venv-tf/bin/python scripts/tf-golden/ops_decompositions_image_signal.py   (writes only these ops' fixtures; generate.py writes all)
"""
import os
import sys

# As generate.py: CPU, quiet, oneDNN off (set before TensorFlow loads when this file runs on its own).
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import tensorflow as tf  # noqa: E402

from table import C, T  # noqa: E402

I32 = lambda d: T(d, "int32")  # noqa: E731
R = ["random"]
SPD3 = T([[4.0, 2.0, 0.5], [2.0, 5.0, 1.0], [0.5, 1.0, 3.0]])
SPD_B = T([[[4.0, 2.0], [2.0, 3.0]], [[9.0, -3.0], [-3.0, 5.0]]])
W3 = T([[3.0, 1.0, -0.5], [0.5, 2.5, 1.0], [-1.0, 0.25, 4.0]])
W_B = T([[[2.0, 1.0], [-1.0, 3.0]], [[1.5, 0.5], [0.25, -2.0]]])
L3 = T([[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [-1.0, 0.25, 3.0]])
U3 = T([[2.0, 0.5, -1.0], [0.0, 1.5, 0.25], [0.0, 0.0, 3.0]])
RHS32 = T([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]])
M32 = T([[1.0, 2.0], [3.0, -4.0], [0.5, 6.0]])
M23 = T([[1.0, 2.0, -3.0], [4.0, 0.5, 6.0]])
IMG4 = T([float((i * 7) % 11) - 5.0 for i in range(1 * 3 * 4 * 2)], shape=[1, 3, 4, 2])
IMG3 = T([float((i * 5) % 9) - 4.0 for i in range(3 * 4 * 1)], shape=[3, 4, 1])
RGB = T([float((i * 3) % 7) / 7.0 for i in range(2 * 2 * 3)], shape=[2, 2, 3])
BOXES = T([[0.1, 0.2, 0.8, 0.9], [0.45, -0.2, 1.3, 0.6], [0.9, 0.7, 0.2, 0.1]])
NMS_B = T([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1], [0, 100, 1, 101]])
NMS_S = T([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])


def opt(o, key, default):
    return o.get(key, default) if isinstance(o, dict) else default


def nms_opts(o):
    return dict(iou_threshold=opt(o, "iouThreshold", 0.5), score_threshold=opt(o, "scoreThreshold", float("-inf")))


DECOMPOSITIONS_IMAGE_SIGNAL_OPS = {
    # tf.linalg decompositions (float64 host kernels in ef; TF's gradients).
    "linalg.cholesky": (lambda x: tf.linalg.cholesky(x), [
        C("3x3", SPD3), C("batch", SPD_B), C("not positive definite", T([[1.0, 2.0], [2.0, 1.0]]), grad=False),
        C("not square", M23, grad=False),
    ]),
    "linalg.inv": (lambda x, o={}: tf.linalg.inv(x, adjoint=opt(o, "adjoint", False)), [
        C("3x3", W3), C("adjoint batch", W_B, {"adjoint": True}), C("singular", T([[1.0, 2.0], [2.0, 4.0]]), grad=False),
    ]),
    "linalg.det": (lambda x: tf.linalg.det(x), [C("3x3", W3), C("batch", W_B), C("singular", T([[1.0, 2.0], [2.0, 4.0]]), grad=False)]),
    "linalg.slogdet": (lambda x: list(tf.linalg.slogdet(x)), [C("negative determinant", T([[1.0, 2.0], [3.0, 1.0]])), C("batch", W_B)]),
    "linalg.logdet": (lambda x: tf.linalg.logdet(x), [C("3x3", SPD3), C("batch", SPD_B)]),
    "linalg.triangularSolve": (lambda a, b, o={}: tf.linalg.triangular_solve(a, b, lower=opt(o, "lower", True), adjoint=opt(o, "adjoint", False)), [
        C("lower", L3, RHS32), C("upper adjoint", U3, RHS32, {"lower": False, "adjoint": True}),
        C("rhs rows differ", L3, M23, grad=False),
    ]),
    "linalg.solve": (lambda a, b, o={}: tf.linalg.solve(a, b, adjoint=opt(o, "adjoint", False)), [
        C("3x3", W3, RHS32), C("adjoint", W3, RHS32, {"adjoint": True}), C("singular", T([[1.0, 2.0], [2.0, 4.0]]), T([[1.0], [1.0]]), grad=False),
    ]),
    "linalg.qr": (lambda x, o={}: list(tf.linalg.qr(x, full_matrices=opt(o, "fullMatrices", False))), [
        C("deep 3x2", M32), C("wide 2x3", M23), C("full 3x2", M32, {"fullMatrices": True}), C("square", W3),
    ]),
    "linalg.choleskySolve": (lambda c, b: tf.linalg.cholesky_solve(c, b), [C("3x3", L3, RHS32)]),
    "linalg.lstsq": (lambda a, b, l2=0.0: tf.linalg.lstsq(a, b, l2_regularizer=l2), [
        C("deep", M32, T([[1.0], [2.0], [-1.0]])), C("wide with l2 0.5", M23, T([[1.0, 0.0], [2.0, -1.0]]), 0.5),
    ]),
    # tf.image composites.
    "image.flipLeftRight": (lambda x: tf.image.flip_left_right(x), [C("rank 4", IMG4), C("rank 3", IMG3)]),
    "image.flipUpDown": (lambda x: tf.image.flip_up_down(x), [C("rank 4", IMG4), C("rank 3", IMG3)]),
    "image.transpose": (lambda x: tf.image.transpose(x), [C("rank 4", IMG4), C("rank 3", IMG3)]),
    "image.rot90": (lambda x, k=1: tf.image.rot90(x, k), [C("k 1", IMG4), C("k 2", IMG3, 2), C("k 3", IMG4, 3), C("k -1", IMG3, -1)]),
    "image.rgbToGrayscale": (lambda x: tf.image.rgb_to_grayscale(x), [C("2x2", RGB)]),
    "image.grayscaleToRgb": (lambda x: tf.image.grayscale_to_rgb(x), [C("3x4", IMG3)]),
    "image.convertImageDtype": (lambda x, d, s=False: tf.image.convert_image_dtype(x, tf.as_dtype(d), saturate=s), [
        C("int32 -> float32", I32([[[0], [1073741824]], [[2147483647], [-5]]]), "float32"),
        C("float32 -> int32 saturated", T([0.0, 0.25, 1.0, -1.0, 2.0]), "int32", True, grad=False),
        C("float32 -> int32 unsaturated (out of range wraps to INT_MIN)", T([0.0, 0.25, 1.0, -1.0, 2.0]), "int32", grad=False),
        C("float32 -> float32", T([[[0.5], [0.25]], [[-1.0], [2.0]]]), "float32"),
    ]),
    "image.adjustBrightness": (lambda x, d: tf.image.adjust_brightness(x, d), [C("delta 0.3", RGB, 0.3)]),
    "image.adjustContrast": (lambda x, f: tf.image.adjust_contrast(x, f), [C("factor 1.7 (TF has no gradient)", IMG4, 1.7, grad=False)]),
    "image.perImageStandardization": (lambda x: tf.image.per_image_standardization(x), [C("rank 4", IMG4), C("constant image", T([3.0] * 4, shape=[2, 2, 1]))]),
    "image.cropToBoundingBox": (lambda x, a, b, c, d: tf.image.crop_to_bounding_box(x, a, b, c, d), [C("rank 4", IMG4, 1, 1, 2, 2)]),
    "image.padToBoundingBox": (lambda x, a, b, c, d: tf.image.pad_to_bounding_box(x, a, b, c, d), [C("rank 3", IMG3, 1, 2, 5, 7)]),
    "image.centralCrop": (lambda x, f: tf.image.central_crop(x, f), [C("0.5", IMG3, 0.5), C("0.3 rank 4", IMG4, 0.3)]),
    "image.cropAndResize": (lambda x, b, i, s, o={}: tf.image.crop_and_resize(x, b, i, s, method=opt(o, "method", "bilinear"), extrapolation_value=opt(o, "extrapolationValue", 0.0)), [
        C("bilinear", IMG4, BOXES, I32([0, 0, 0]), [3, 2]),
        C("nearest, extrapolation 2", IMG4, BOXES, I32([0, 0, 0]), [2, 3], {"method": "nearest", "extrapolationValue": 2.0}),
    ]),
    "image.extractPatches": (lambda x, s, st, r, p: tf.image.extract_patches(x, s, st, r, p), [
        C("VALID", IMG4, [1, 2, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"), C("SAME rates 2", IMG4, [1, 2, 2, 1], [1, 2, 3, 1], [1, 2, 2, 1], "SAME"),
    ]),
    "image.nonMaxSuppression": (lambda b, s, m, o={}: tf.image.non_max_suppression(b, s, m, **nms_opts(o)), [
        C("iou 0.5", NMS_B, NMS_S, 4, grad=False), C("iou 0.9 score 0.55", NMS_B, NMS_S, 10, {"iouThreshold": 0.9, "scoreThreshold": 0.55}, grad=False),
    ]),
    "image.nonMaxSuppressionWithScores": (lambda b, s, m, o={}: list(tf.image.non_max_suppression_with_scores(b, s, m, soft_nms_sigma=opt(o, "softNmsSigma", 0.0), **nms_opts(o))), [
        C("hard", NMS_B, NMS_S, 5, grad=False), C("soft sigma 0.5", NMS_B, NMS_S, 6, {"iouThreshold": 1.0, "scoreThreshold": 0.1, "softNmsSigma": 0.5}, grad=False),
    ]),
    "image.nonMaxSuppressionPadded": (lambda b, s, m, o={}: list(tf.image.non_max_suppression_padded(b, s, m, pad_to_max_output_size=opt(o, "padToMaxOutputSize", False), **nms_opts(o))), [
        C("padded", NMS_B, NMS_S, 5, {"scoreThreshold": 0.4, "padToMaxOutputSize": True}, grad=False),
    ]),
    # Real-valued tf.signal.
    "signal.hannWindow": (lambda n, o={}: tf.signal.hann_window(n, periodic=opt(o, "periodic", True)), [
        C("8 periodic", 8, grad=False), C("7 symmetric", 7, {"periodic": False}, grad=False), C("1", 1, grad=False),
    ]),
    "signal.hammingWindow": (lambda n, o={}: tf.signal.hamming_window(n, periodic=opt(o, "periodic", True)), [
        C("6 symmetric", 6, {"periodic": False}, grad=False), C("5 periodic", 5, grad=False),
    ]),
    "signal.frame": (lambda x, n, s, o={}: tf.signal.frame(x, n, s, pad_end=opt(o, "padEnd", False), pad_value=opt(o, "padValue", 0.0), axis=opt(o, "axis", -1)), [
        C("3 step 2", M23, 2, 1), C("padEnd padValue 7", T([1.0, 2.0, 3.0, 4.0, 5.0]), 2, 2, {"padEnd": True, "padValue": 7.0}),
        C("axis 0", M32, 2, 1, {"axis": 0}),
    ]),
    "signal.overlapAndAdd": (lambda x, s: tf.signal.overlap_and_add(x, s), [C("step 2", IMG3, 2), C("step 4 (a gap)", M23, 4)]),
    # Random: TF's Philox streams are not ef's (dtype and shape compare; moments in random_gamma_poisson.test.ts).
    "random.gamma": (lambda s, a, o={}: tf.random.gamma(s, a, seed=o.get("seed")), [C("alpha [2]", [3], T([0.5, 2.0]), {"seed": 7}, grad=False, tags=R)]),
    "random.poisson": (lambda s, lam, o={}: tf.random.poisson(s, lam, seed=o.get("seed")), [C("lam [2]", [3], T([1.0, 4.0]), {"seed": 7}, grad=False, tags=R)]),
}


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import json
    from generate import ROOT, run_case

    out_dir = os.path.join(ROOT, "packages/eagerflow/test/conformance/fixtures")
    total = 0
    for op, (fn, cases) in DECOMPOSITIONS_IMAGE_SIGNAL_OPS.items():
        rows = [run_case(fn, c) for c in cases]
        total += len(rows)
        with open(os.path.join(out_dir, f"{op}.json"), "w") as f:
            json.dump({"op": op, "tf_version": tf.__version__, "cases": rows}, f, indent=1, sort_keys=False, allow_nan=False)
            f.write("\n")
    print(f"{len(DECOMPOSITIONS_IMAGE_SIGNAL_OPS)} ops, {total} cases -> {out_dir}")
