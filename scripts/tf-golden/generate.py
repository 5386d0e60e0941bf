"""Runs every case of the harness rows' TF calls through TensorFlow 2.21 (CPU, eager) and writes the JSON fixtures.

Usage: .venv-tf/bin/python scripts/tf-golden/generate.py [out_dir [op ...]]
(default out_dir: packages/eagerflow/test/conformance/fixtures). One file per op, stable order,
so a regenerated fixture diffs cleanly. The TypeScript suite reads only these files.
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from encode import enc_array, enc_num  # noqa: E402

INF = float("inf")
from harness_rows import harness_ops  # noqa: E402

DY = [1.0, -0.5, 2.0, 0.25]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def enc_arg(a):
    if isinstance(a, dict) and "tensor" in a:
        return {"tensor": enc_array(a["tensor"])}
    if isinstance(a, dict) and "tensors" in a:
        return {"tensors": [enc_array(t["tensor"]) for t in a["tensors"]]}
    return {"value": enc_literal(a)}


def enc_literal(a):
    """Plain arguments: non-finite floats and -0 become {"num": "nan" | "inf" | "-inf" | "-0"}."""
    if isinstance(a, list):
        return [enc_literal(x) for x in a]
    if isinstance(a, float) and (a != a or a in (INF, -INF) or (a == 0 and str(a).startswith("-"))):
        return {"num": enc_num(a)}
    return a


def build(args):
    """TF arguments and the flat list of tensor inputs (lists expanded), in argument order."""
    flat, out = [], []
    for a in args:
        if isinstance(a, dict) and "tensor" in a:
            t = tf.constant(a["tensor"])
            flat.append(t)
            out.append(t)
        elif isinstance(a, dict) and "tensors" in a:
            ts = [tf.constant(x["tensor"]) for x in a["tensors"]]
            flat.extend(ts)
            out.append(ts)
        else:
            out.append(a)
    return out, flat


def error_of(e):
    return {"class": type(e).__name__, "message": str(e).strip().split("\n")[0][:240]}


def dy_for(y):
    n = int(np.prod(y.shape))
    return np.array([DY[i % 4] for i in range(n)], dtype=np.float32).reshape(y.shape.as_list())


def zero_if_none(gs, xs):
    """Unconnected -> zeros; IndexedSlices (gather's gradient) -> dense."""
    return [tf.zeros_like(x) if g is None else tf.convert_to_tensor(g) for g, x in zip(gs, xs)]


def gradients(fn, args, wrt, y):
    """First order with a fixed dy; second order of the sum of every first-order gradient."""
    dy = tf.constant(dy_for(y))
    _, flat = build(args)
    out = {"wrt": wrt, "dy": enc_array(dy.numpy())}
    try:
        with tf.GradientTape() as t1:
            call, flat = rebuild(args)
            xs = [flat[i] for i in wrt]
            t1.watch(xs)
            y1 = fn(*call)
        g1 = zero_if_none(t1.gradient(y1, xs, output_gradients=dy, unconnected_gradients="zero"), xs)
        out["first"] = [enc_array(g.numpy()) for g in g1]
        with tf.GradientTape() as outer:
            call, flat = rebuild(args)
            xs = [flat[i] for i in wrt]
            outer.watch(xs)
            with tf.GradientTape() as inner:
                inner.watch(xs)
                y2 = fn(*call)
            g = inner.gradient(y2, xs, output_gradients=dy, unconnected_gradients="zero")
            s = tf.add_n([tf.reduce_sum(tf.convert_to_tensor(gi)) for gi in zero_if_none(g, xs)])
        g2 = zero_if_none(outer.gradient(s, xs, unconnected_gradients="zero"), xs)
        out["second"] = [enc_array(v.numpy()) for v in g2]
    except Exception as e:  # noqa: BLE001 - recorded, not hidden: the suite expects ef to raise too
        out["error"] = error_of(e)
    return out


def rebuild(args):
    return build(args)


def flatten(ys):
    out = []
    for y in ys:
        out.extend(flatten(y) if isinstance(y, (list, tuple)) else [y])
    return out


def run_case(fn, case):
    call, flat = build(case["args"])
    row = {"name": case["name"], "args": [enc_arg(a) for a in case["args"]], "tags": case["tags"]}
    try:
        y = fn(*call)
        if isinstance(y, (list, tuple)):
            # Several outputs (topK, unique, split...): in ef's order, nested lists flattened.
            row["expect"] = {"values": [enc_array(t.numpy()) for t in flatten(y)]}
            return row
        row["expect"] = {"value": enc_array(y.numpy())}
    except Exception as e:  # noqa: BLE001
        row["expect"] = {"error": error_of(e)}
        return row
    wrt = [i for i, t in enumerate(flat) if t.dtype == tf.float32]
    if case["grad"] and y.dtype == tf.float32 and wrt:
        row["grad"] = gradients(fn, case["args"], wrt, y)
    return row


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "packages/eagerflow/test/conformance/fixtures")
    os.makedirs(out_dir, exist_ok=True)
    total = 0
    ops = harness_ops()
    only = set(sys.argv[2:])
    for op, (fn, cases, call) in ops.items():
        if only and op not in only:
            continue
        rows = [run_case(fn, c) for c in cases]
        total += len(rows)
        # The row's call as exported (golden_rows.test.ts checks each fixture against its rows' current call).
        doc = {"op": op, "tf_version": tf.__version__, "call": call, "cases": rows}
        with open(os.path.join(out_dir, f"{op}.json"), "w") as f:
            json.dump(doc, f, indent=1, sort_keys=False, allow_nan=False)
            f.write("\n")
    print(f"{len(ops)} ops, {total} cases -> {out_dir}")


if __name__ == "__main__":
    main()
