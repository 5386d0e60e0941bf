"""TensorFlow 2 Python on bench/train_steps.js's train steps, for bench/train_steps.bench.js.

Usage: tf_train_steps.py DIR, where DIR holds manifest.json and the raw initial values and data that
train_steps.js writes. Prints a version line and one JSON line per net: {"name", "loss0"} (the first step's
loss), then serves timing requests on stdin, so the bench alternates its rounds with EagerFlow's (both processes
see the same machine load): `time NET CALLS` answers {"name", "graph_us" (tf.function), "xla_us"
(tf.function(jit_compile=True)), "graph_cpu_us", "xla_cpu_us"}: the median wall microseconds of CALLS steps, and
this process's CPU microseconds per step (all threads). `quit` (or end of input) stops it.
The same SGD step as EagerFlow's: forward, tf.GradientTape, v.assign_sub(lr * g).
"""
import json
import os
import statistics
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

DIR = sys.argv[1]
MANIFEST = json.load(open(os.path.join(DIR, "manifest.json")))


def load(net, name):
    spec = MANIFEST[net]["files"][name]
    return np.fromfile(os.path.join(DIR, f"{net}.{name}.bin"), dtype=spec["dtype"]).reshape(spec["shape"])


def forward(net, v, x):
    if net == "conv":
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, v["k"], 1, "SAME"), v["kb"]))
        p = tf.nn.max_pool2d(h, 2, 2, "VALID")
        return tf.reshape(p, [x.shape[0], -1]) @ v["w"] + v["b"]
    if net == "mlp":
        h1 = tf.nn.relu(x @ v["w1"] + v["b1"])
        h2 = tf.nn.relu(h1 @ v["w2"] + v["b2"])
        return h2 @ v["w3"] + v["b3"]
    q, k, vv = x @ v["wq"], x @ v["wk"], x @ v["wv"]
    a = tf.nn.softmax(tf.matmul(q, k, transpose_b=True) * (1 / 8))
    h = x + (a @ vv) @ v["wo"]
    mean, variance = tf.nn.moments(h, [-1], keepdims=True)
    n = (h - mean) / tf.sqrt(variance + 1e-5) * v["gamma"] + v["beta"]
    return tf.reduce_mean(n, 1) @ v["wc"] + v["bc"]


def make(net, jit):
    names = [n for n in MANIFEST[net]["files"] if n not in ("x", "y")]
    v = {n: tf.Variable(load(net, n)) for n in names}
    lr = MANIFEST[net]["lr"]

    @tf.function(jit_compile=jit)
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, forward(net, v, x)))
        grads = tape.gradient(loss, [v[n] for n in names])
        for n, g in zip(names, grads):
            v[n].assign_sub(lr * g)
        return loss

    return step


def time_calls(fn, calls):
    """(wall, cpu): median wall microseconds of `calls` steps, and CPU microseconds per step (all threads)."""
    samples = []
    c0 = time.process_time()
    for _ in range(calls):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(samples), (time.process_time() - c0) * 1e6 / calls


print(json.dumps({"name": "version", "tf": tf.__version__}), flush=True)
steps = {}
for net in MANIFEST:
    x, y = tf.constant(load(net, "x")), tf.constant(load(net, "y"))
    graph, xla = make(net, False), make(net, True)
    loss0 = float(graph(x, y).numpy())
    for _ in range(3):
        graph(x, y).numpy()
        xla(x, y).numpy()
    steps[net] = (lambda g=graph, a=x, b=y: g(a, b).numpy(), lambda g=xla, a=x, b=y: g(a, b).numpy())
    print(json.dumps({"name": net, "loss0": loss0}), flush=True)
for line in sys.stdin:
    parts = line.split()
    if not parts or parts[0] == "quit":
        break
    _, net, calls = parts
    graph_fn, xla_fn = steps[net]
    (graph_us, graph_cpu_us), (xla_us, xla_cpu_us) = time_calls(graph_fn, int(calls)), time_calls(xla_fn, int(calls))
    print(json.dumps({"name": net, "graph_us": graph_us, "xla_us": xla_us, "graph_cpu_us": graph_cpu_us, "xla_cpu_us": xla_cpu_us}), flush=True)
