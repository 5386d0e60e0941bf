"""TensorFlow 2.21 values of the edge cases where jitCompile (ONNX Runtime) and the uncompiled kernels disagreed,
found by the op fuzzer's compiled mode (docs/fuzzing.md), for packages/function/test/onnx_edge_values.test.ts.

Usage: .venv-tf/bin/python scripts/tf-golden/edge_values.py
Writes packages/function/test/fixtures/edge_values.json (the test never runs Python). Non-finite values are written
as the strings "NaN", "Infinity" and "-Infinity".
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "packages", "function", "test", "fixtures", "edge_values.json")
N, INF = float("nan"), float("inf")


def f32(v, shape=None):
    a = np.array(v, dtype=np.float32)
    return tf.constant(a if shape is None else a.reshape(shape))


def i32(v, shape=None):
    a = np.array(v, dtype=np.int32)
    return tf.constant(a if shape is None else a.reshape(shape))


def out(t):
    v = t.numpy().ravel().tolist()
    return [x if isinstance(x, (bool, int)) or np.isfinite(x) else ("NaN" if np.isnan(x) else ("Infinity" if x > 0 else "-Infinity")) for x in v]


x6 = f32([[-0.015625, 2.625], [1.90625, 1.375], [-2.703125, 0.046875], [1.421875, -1.890625], [N, -2.625], [-2.5, -1.359375]], [2, 3, 2])
rows = f32([[N, 0.156, 2.15, 1, -0.578], [0.5, N, -1, 2, 0], [N, -1, 3, 2, N], [N, N, N, N, N]])
ints = i32([2147483647, 2, 4, 1, 1, 7], [3, 2])
pixels = i32([7, 2147483647, -2147483648, 65537, 16777217, -3], [1, 2, 3, 1])
top = f32([[0.71875, 1.171875, INF], [-1.65625, -2.96875, -2.3125], [65504, -0.390625, 0.90625]])
c = tf.constant([True, False, True])


def pool_and_grad(x, ksize, strides, padding, w):
    """A max pool and its gradient in one step (a compiled train step's pattern): [pooled values, d(sum(pool * w))/dx]."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, ksize, strides, padding)
        loss = tf.reduce_sum(y * w)
    return y, tape.gradient(loss, x)


# Leading NaN, NaN later, -inf and NaN alone, NaN alone (1x3 windows); and overlapping 3x3 SAME windows, stride 2,
# over two channels and two images with NaN and -inf at window corners.
pg1 = pool_and_grad(f32([INF, N, 2.25, N, 1, 2, -INF, N, N, N, N, N], [1, 4, 3, 1]), [1, 3], [1, 3], "VALID", f32([1, 2, 3, 4], [1, 4, 1, 1]))
grid = np.sin(np.arange(2 * 5 * 5 * 2) * 0.77).astype(np.float32)
grid[[0, 5, 21, 40, 62, 63, 77, 98]] = [N, N, -INF, N, N, -INF, N, INF]
pg2 = pool_and_grad(f32(grid, [2, 5, 5, 2]), [3, 3], [2, 2], "SAME", f32(np.arange(1, 2 * 3 * 3 * 2 + 1), [2, 3, 3, 2]))

CASES = {
    "reduceMax": tf.reduce_max(x6, [1], keepdims=True),
    "reduceMin": tf.reduce_min(x6, [1]),
    "reduceProd": tf.reduce_prod(f32([[0, N], [2, 3]]), 1),
    "maxPool": tf.nn.max_pool2d(f32([INF, N, 2.25, N, 1, 2, -INF, N, N, N, N, N], [1, 4, 3, 1]), [1, 3], [1, 3], "VALID"),
    "maxPoolWithGrad1x3": pg1[0],
    "maxPoolGrad1x3": pg1[1],
    "maxPoolWithGradSame": pg2[0],
    "maxPoolGradSame": pg2[1],
    "argMax": tf.argmax(rows, 1, output_type=tf.int32),
    "argMin": tf.argmin(rows, 1, output_type=tf.int32),
    "sumInt32": tf.reduce_sum(ints, 0),
    # The matrix 1-norm (ef.norm(x, 1, [0, 1])): the largest column sum of |x|, in int32 as TF computes it.
    "norm1Int32": tf.reduce_max(tf.reduce_sum(tf.abs(ints), 0)),
    "prodInt32": tf.reduce_prod(i32([65536, 65536, 3])),
    "log1p": tf.math.log1p(f32([3.4e38, 88, 1e-7])),
    "expm1": tf.math.expm1(f32([88, -1e-7])),
    "floormod": tf.math.floormod(f32([-2.09375, 3, 3.4e38, -0.546875]), f32([3.4e38])),
    "topKValues": tf.math.top_k(top, 2).values,
    "topKIndices": tf.math.top_k(top, 2).indices,
    "sortNaN": tf.sort(f32([2.125, N, -2.203125])),
    "resizeNearest23": tf.image.resize(pixels, [2, 3], method="nearest"),
    "resizeNearest12": tf.image.resize(pixels, [1, 2], method="nearest"),
    "boolSelect": tf.cast(tf.logical_or(tf.where(c, tf.constant([True, True, False]), tf.constant([False, False, True])), tf.equal(tf.cast(c, tf.int32), 2)), tf.int32),
    "oneHotScalar": tf.one_hot(i32(1), 3) * 2,
}

os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, "w") as fh:
    json.dump({"tf": tf.__version__, "values": {k: out(v) for k, v in CASES.items()}}, fh, indent=1)
    fh.write("\n")
print(f"wrote {OUT}")
