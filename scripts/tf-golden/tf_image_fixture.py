"""TensorFlow 2.21 values and gradients of the tf.image ops of issue 11 built as composites: flips, rot90, transpose,
grayscale conversions, brightness/contrast, per_image_standardization, central_crop, crop/pad_to_bounding_box,
crop_and_resize, extract_patches; and the signal windows and frame.

<Usage: .venv-tf/bin/python scripts/tf-golden/tf_image_fixture.py
=Writes packages/core/test/fixtures/tf_image.json (read by packages/core/test/image_tf.test.ts; the test never runs
Python). Each case: float32 inputs, TF's outputs, and (unless "no gradient") the first-order gradients for a fixed
output cotangent dy with respect to the listed float inputs.
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "packages", "core", "test", "fixtures", "tf_image.json")
rng = np.random.RandomState(12)


def u(shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=shape).astype(np.float32)


IMG3 = u((3, 4, 2))
IMG4 = u((2, 3, 4, 3))
RGB = u((2, 3, 3), 0.0, 1.0)
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.5, -0.2, 1.3, 0.6], [0.9, 0.7, 0.2, 0.1], [0.3, 0.3, 0.3, 0.6]], dtype=np.float32)
BIDX = np.array([0, 1, 1, 0], dtype=np.int32)
PIMG = u((2, 5, 6, 2))

# name, op (the JS side's switch), fn, inputs, params (JS-side literal arguments), differentiable input indices
CASES = [
    ("flipLeftRight rank 3", "flipLeftRight", lambda x: tf.image.flip_left_right(x), [IMG3], {}, [0]),
    ("flipUpDown rank 4", "flipUpDown", lambda x: tf.image.flip_up_down(x), [IMG4], {}, [0]),
    ("transpose rank 4", "transpose", lambda x: tf.image.transpose(x), [IMG4], {}, [0]),
    ("rot90 k=1 rank 3", "rot90", lambda x: tf.image.rot90(x, 1), [IMG3], {"k": 1}, [0]),
    ("rot90 k=2 rank 4", "rot90", lambda x: tf.image.rot90(x, 2), [IMG4], {"k": 2}, [0]),
    ("rot90 k=3 rank 4", "rot90", lambda x: tf.image.rot90(x, 3), [IMG4], {"k": 3}, [0]),
    ("rot90 k=-1 rank 3", "rot90", lambda x: tf.image.rot90(x, -1), [IMG3], {"k": -1}, [0]),
    ("rgbToGrayscale", "rgbToGrayscale", lambda x: tf.image.rgb_to_grayscale(x), [RGB], {}, [0]),
    ("grayscaleToRgb", "grayscaleToRgb", lambda x: tf.image.grayscale_to_rgb(x), [u((2, 2, 1))], {}, [0]),
    ("adjustBrightness", "adjustBrightness", lambda x: tf.image.adjust_brightness(x, 0.3), [RGB], {"delta": 0.3}, [0]),
    ("adjustContrast (no gradient: TF has none)", "adjustContrast", lambda x: tf.image.adjust_contrast(x, 1.7), [IMG4], {"factor": 1.7}, []),
    ("perImageStandardization rank 4", "perImageStandardization", lambda x: tf.image.per_image_standardization(x), [IMG4], {}, [0]),
    ("perImageStandardization constant image", "perImageStandardization", lambda x: tf.image.per_image_standardization(x), [np.full((2, 2, 1), 3.0, np.float32)], {}, [0]),
    ("centralCrop 0.5", "centralCrop", lambda x: tf.image.central_crop(x, 0.5), [u((5, 7, 2))], {"fraction": 0.5}, [0]),
    ("centralCrop 0.3 rank 4", "centralCrop", lambda x: tf.image.central_crop(x, 0.3), [u((1, 9, 4, 1))], {"fraction": 0.3}, [0]),
    ("cropToBoundingBox", "cropToBoundingBox", lambda x: tf.image.crop_to_bounding_box(x, 1, 1, 2, 2), [IMG4], {"box": [1, 1, 2, 2]}, [0]),
    ("padToBoundingBox", "padToBoundingBox", lambda x: tf.image.pad_to_bounding_box(x, 1, 2, 5, 7), [IMG3], {"box": [1, 2, 5, 7]}, [0]),
    ("cropAndResize bilinear", "cropAndResize", lambda x, b, i: tf.image.crop_and_resize(x, b, i, [3, 2]), [IMG4, BOXES, BIDX], {"cropSize": [3, 2]}, [0, 1]),
    ("cropAndResize bilinear 1x1 crops", "cropAndResize", lambda x, b, i: tf.image.crop_and_resize(x, b, i, [1, 1]), [IMG4, BOXES, BIDX], {"cropSize": [1, 1]}, [0, 1]),
    ("cropAndResize nearest extrapolation 2", "cropAndResize", lambda x, b, i: tf.image.crop_and_resize(x, b, i, [2, 3], method="nearest", extrapolation_value=2.0), [IMG4, BOXES, BIDX], {"cropSize": [2, 3], "method": "nearest", "extrapolationValue": 2.0}, [0]),
    ("extractPatches VALID", "extractPatches", lambda x: tf.image.extract_patches(x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1], "VALID"), [PIMG], {"sizes": [1, 2, 3, 1], "strides": [1, 2, 1, 1], "rates": [1, 1, 1, 1], "padding": "VALID"}, [0]),
    ("extractPatches SAME rates 2", "extractPatches", lambda x: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 2, 3, 1], [1, 2, 2, 1], "SAME"), [PIMG], {"sizes": [1, 2, 2, 1], "strides": [1, 2, 3, 1], "rates": [1, 2, 2, 1], "padding": "SAME"}, [0]),
    ("extractPatches SAME 3x3 stride 1", "extractPatches", lambda x: tf.image.extract_patches(x, [1, 3, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"), [PIMG[:1, :4, :3, :1]], {"sizes": [1, 3, 3, 1], "strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1], "padding": "SAME"}, [0]),
]

DY = [1.0, -0.5, 2.0, 0.25, -1.5, 0.75, 0.5]


def enc(x):
    x = np.asarray(x)
    kind = "int32" if x.dtype.kind in "iu" else "float32"
    return {"dtype": kind, "shape": list(x.shape), "data": [int(v) if kind == "int32" else float(v) for v in x.reshape(-1)]}


def run(name, op, fn, inputs, params, wrt):
    xs = [tf.constant(x) for x in inputs]
    with tf.GradientTape() as tape:
        for i in wrt:
            tape.watch(xs[i])
        y = fn(*xs)
        dy = tf.constant(np.array([DY[i % len(DY)] for i in range(int(np.prod(y.shape)))], np.float32).reshape(y.shape))
        total = tf.reduce_sum(y * dy)
    case = {"name": name, "op": op, "params": params, "inputs": [enc(x) for x in inputs], "output": enc(y.numpy()), "wrt": wrt}
    if wrt:
        gs = tape.gradient(total, [xs[i] for i in wrt])
        case["dy"] = enc(dy.numpy())
        case["grads"] = [enc(tf.convert_to_tensor(g).numpy()) for g in gs]
    return case


NMS_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1], [0, 100, 1, 101], [1, 1, 0, 0]], np.float32)
NMS_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.8], np.float32)
# name, op, fn, params (JS options; maxOutputSize separate)
NMS = [
    ("nonMaxSuppression iou 0.5", "nonMaxSuppression", lambda b, s: [tf.image.non_max_suppression(b, s, 4, 0.5)], {"max": 4, "iouThreshold": 0.5}),
    ("nonMaxSuppression iou 0.9 score 0.55", "nonMaxSuppression", lambda b, s: [tf.image.non_max_suppression(b, s, 10, 0.9, 0.55)], {"max": 10, "iouThreshold": 0.9, "scoreThreshold": 0.55}),
    ("nonMaxSuppression max 0", "nonMaxSuppression", lambda b, s: [tf.image.non_max_suppression(b, s, 0)], {"max": 0}),
    ("nonMaxSuppressionWithScores hard", "nonMaxSuppressionWithScores", lambda b, s: list(tf.image.non_max_suppression_with_scores(b, s, 6, 0.5)), {"max": 6, "iouThreshold": 0.5}),
    ("nonMaxSuppressionWithScores soft sigma 0.5", "nonMaxSuppressionWithScores", lambda b, s: list(tf.image.non_max_suppression_with_scores(b, s, 7, 1.0, 0.1, 0.5)), {"max": 7, "iouThreshold": 1.0, "scoreThreshold": 0.1, "softNmsSigma": 0.5}),
    ("nonMaxSuppressionPadded padded", "nonMaxSuppressionPadded", lambda b, s: list(tf.image.non_max_suppression_padded(b, s, 5, 0.5, 0.4, pad_to_max_output_size=True)), {"max": 5, "iouThreshold": 0.5, "scoreThreshold": 0.4, "padToMaxOutputSize": True}),
    ("nonMaxSuppressionPadded unpadded", "nonMaxSuppressionPadded", lambda b, s: list(tf.image.non_max_suppression_padded(b, s, 5, 0.5)), {"max": 5, "iouThreshold": 0.5}),
]


def run_nms(name, op, fn, params):
    # TF2's non_max_suppression_padded is a Python tile algorithm that does not treat a box with flipped corners
    # (the last one) like the kernels do: its rows use canonical boxes only.
    n = 6 if op == "nonMaxSuppressionPadded" else 7
    boxes, scores = NMS_BOXES[:n], NMS_SCORES[:n]
    outs = fn(tf.constant(boxes), tf.constant(scores))
    return {"name": name, "op": op, "params": params, "inputs": [enc(boxes), enc(scores)], "outputs": [enc(o.numpy()) for o in outs]}


def main():
    cases = [run(*c) for c in CASES]
    nms = [run_nms(*c) for c in NMS]
    with open(OUT, "w") as f:
<        json.dump({"tf_version": tf.__version__, "note": "written by scripts/tf-golden/tf_image_fixture.py", "cases": cases, "nms": nms}, f, separators=(",", ":"))
=        f.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
