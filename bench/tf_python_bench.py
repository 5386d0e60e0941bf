"""TensorFlow 2 Python on bench/compile.bench.js's workloads, for the side-by-side results page.

Run by compile.bench.js (only when a TensorFlow Python is found); prints one JSON object per line:
{"name": ..., "graph_us": ..., "xla_us": ...}: microseconds per call (median of timed batches) of a
tf.function and of tf.function(jit_compile=True) (XLA), or "xla_error" when XLA cannot compile it.

Workloads (the same as compile.bench.js): matmul 256x256; conv2d [1,64,64,32] x [3,3,32,32] SAME; the
48-op chain relu(y*0.9+0.1) x16 on [256]; and, with --model PATH, a tfjs-converter graph model
(model.json + weights, as in @vladmandic/human) rebuilt as a GraphDef with its weights and run on a
seeded uniform input of its input shape (unknown dims = 1).
"""
import argparse
import json
import os
import statistics
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import json_format  # noqa: E402
from tensorflow.core.framework import graph_pb2  # noqa: E402


def time_us(fn, batch, rounds=9, warmup=2):
    """Median microseconds per call over `rounds` timed batches of `batch` calls."""
    for _ in range(warmup):
        for _ in range(batch):
            fn()
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t0) * 1e6 / batch)
    return statistics.median(samples)


def measure(name, fn, args, batch, rounds=9):
    graph = tf.function(fn)
    row = {"name": name, "graph_us": time_us(lambda: graph(*args), batch, rounds)}
    try:
        xla = tf.function(fn, jit_compile=True)
        xla(*args)
        row["xla_us"] = time_us(lambda: xla(*args), batch, rounds)
    except Exception as e:  # XLA may lack a kernel for an op of the graph
        row["xla_error"] = str(e).split("\n")[0][:200]
    print(json.dumps(row), flush=True)


DTYPES = {"float32": np.float32, "int32": np.int32}


def read_weights(model_dir, manifest):
    """Weight arrays by Const name, dequantized as tfjs-converter does (float16, uint8/uint16 with min/scale)."""
    out = {}
    for group in manifest:
        data = b"".join(open(os.path.join(model_dir, p), "rb").read() for p in group["paths"])
        off = 0
        for w in group["weights"]:
            shape = w["shape"]
            size = int(np.prod(shape)) if shape else 1
            q = w.get("quantization")
            if q is None:
                dt = DTYPES[w["dtype"]]
                arr = np.frombuffer(data, dt, size, off)
                off += size * 4
            elif q["dtype"] == "float16":
                arr = np.frombuffer(data, np.float16, size, off).astype(np.float32)
                off += size * 2
            else:
                qt = np.uint8 if q["dtype"] == "uint8" else np.uint16
                raw = np.frombuffer(data, qt, size, off)
                off += size * np.dtype(qt).itemsize
                arr = (raw.astype(np.float32) * q["scale"] + q["min"]).astype(DTYPES[w["dtype"]])
            out[w["name"]] = arr.reshape(shape)
    return out


def load_graph_model(path):
    """A tfjs graph model as a callable concrete function, its input shape and dtype, and its output names."""
    model_dir = os.path.dirname(path)
    with open(path) as f:
        model = json.load(f)
    weights = read_weights(model_dir, model["weightsManifest"])
    gd = json_format.ParseDict(model["modelTopology"], graph_pb2.GraphDef(), ignore_unknown_fields=True)
    read = set()
    for n in gd.node:
        for i in n.input:
            read.add(i.lstrip("^").split(":")[0])
        # tfjs-converter drops attrs TensorFlow's op defs require: TArgs of the fused ops is T once per extra arg.
        if n.op in ("_FusedConv2D", "_FusedMatMul") and "TArgs" not in n.attr:
            n.attr["TArgs"].list.type.extend([n.attr["T"].type] * n.attr["num_args"].i)
        if n.op == "Const" and n.name in weights:
            n.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(weights[n.name]))
    inputs = [n for n in gd.node if n.op == "Placeholder"]
    outputs = [n.name for n in gd.node if n.name not in read and n.op not in ("Placeholder", "Const", "NoOp")]

    def imports():
        tf.compat.v1.import_graph_def(gd, name="")

    wrapped = tf.compat.v1.wrap_function(imports, [])
    g = wrapped.graph
    fn = wrapped.prune([g.as_graph_element(n.name + ":0") for n in inputs], [g.as_graph_element(o + ":0") for o in outputs])
    x = inputs[0]
    shape = [d.size if d.size > 0 else 1 for d in x.attr["shape"].shape.dim]
    dtype = tf.as_dtype(x.attr["dtype"].type)
    return fn, shape, dtype, [o + ":0" for o in outputs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", action="append", default=[], help="tfjs graph model.json to time (repeatable)")
    ap.add_argument("--input", action="append", default=[], help="raw little-endian float32 input of each --model (else seeded uniform)")
    args = ap.parse_args()
    print(json.dumps({"name": "version", "tf": tf.__version__, "threads": os.cpu_count()}), flush=True)
    rng = np.random.default_rng(7)
    a = tf.constant(rng.standard_normal((256, 256), np.float32))
    b = tf.constant(rng.standard_normal((256, 256), np.float32))
    measure("matmul256", lambda x, w: tf.matmul(x, w), [a, b], batch=20)
    x = tf.constant(rng.standard_normal((1, 64, 64, 32), np.float32))
    f = tf.constant(rng.standard_normal((3, 3, 32, 32), np.float32))
    measure("conv2d", lambda x, f: tf.nn.conv2d(x, f, 1, "SAME"), [x, f], batch=20)
    v = tf.constant(np.sin(np.arange(256, dtype=np.float32)) * 2)

    def chain(y):
        for _ in range(16):
            y = tf.nn.relu(y * 0.9 + 0.1)
        return y

    measure("chain48", chain, [v], batch=500)
    for k, path in enumerate(args.model):
        fn, shape, dtype, names = load_graph_model(path)
        values = np.fromfile(args.input[k], "<f4").reshape(shape) if k < len(args.input) else rng.uniform(0, 1, shape).astype(np.float32)
        inp = tf.constant(values)
        if dtype != tf.float32:
            inp = tf.cast(inp * 255, dtype)
        name = os.path.splitext(os.path.basename(path))[0]
        # Output sums in float64 by output name, so the caller can check TF computed what it computed.
        sums = {n: float(np.sum(np.asarray(o, np.float64))) for n, o in zip(names, tf.nest.flatten(fn(inp)))}
        row = {"name": "model:" + name, "graph_us": time_us(lambda: fn(inp), batch=5, rounds=7), "sums": sums}
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    sys.exit(main())
