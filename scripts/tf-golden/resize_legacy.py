"""TensorFlow 2.21's TF1 resizes (tf.compat.v1.image.resize_bilinear / resize_nearest_neighbor) for every valid
combination of align_corners and half_pixel_centers, up- and down-sampling, with gradients.

Writes packages/eagerflow/test/fixtures/tf_resize_legacy.json, read by packages/eagerflow/test/image_resize_legacy.test.ts.
Run: /work/main/.venv-tf/bin/python scripts/tf-golden/resize_legacy.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from encode import enc_array, err  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "../../packages/eagerflow/test/fixtures/tf_resize_legacy.json")
MODES = [(False, False), (True, False), (False, True)]
SIZES = [[5, 7], [2, 3], [1, 1], [3, 4], [6, 2]]
FNS = {"bilinear": tf.compat.v1.image.resize_bilinear, "nearest": tf.compat.v1.image.resize_nearest_neighbor}



def main():
    rng = np.random.default_rng(28)
    x = rng.uniform(-2, 2, size=(2, 3, 4, 2)).astype(np.float32)
    cases = []
    for method, fn in FNS.items():
        for align, half in MODES:
            for size in SIZES:
                xt = tf.constant(x)
                with tf.GradientTape() as t:
                    t.watch(xt)
                    y = fn(xt, size, align_corners=align, half_pixel_centers=half)
                    w = tf.constant(np.arange(1, y.shape.num_elements() + 1, dtype=np.float32).reshape(y.shape) / 10)
                    loss = tf.reduce_sum(y * w)
                cases.append({"method": method, "alignCorners": align, "halfPixelCenters": half, "size": size,
                              "y": enc_array(y.numpy()), "grad": enc_array(t.gradient(loss, xt).numpy())})
    xi = np.arange(12, dtype=np.int32).reshape(1, 3, 4, 1)
    out = {
        "tf": tf.__version__,
        "x": enc_array(x),
        "cases": cases,
        "intBilinear": enc_array(tf.compat.v1.image.resize_bilinear(xi, [5, 3], align_corners=True).numpy()),
        "intNearest": enc_array(tf.compat.v1.image.resize_nearest_neighbor(xi, [5, 3]).numpy()),
        "bothTrue": err(lambda: tf.compat.v1.image.resize_bilinear(x, [3, 3], align_corners=True, half_pixel_centers=True)),
        "rank3": err(lambda: tf.compat.v1.image.resize_bilinear(x[0], [3, 3])),
    }
    with open(OUT, "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
