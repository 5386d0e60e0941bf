"""TensorFlow 2 Python side of bench/keras_apps.bench.js: Keras applications exported by TF as SavedModels.

Usage:
  tf_keras_apps.py export CACHE NAME...  exports each Keras application NAME (keras.applications.NAME,
      weights=None since the bench has no network, 224x224x3, classifier_activation=None, keras.utils.set_random_seed(0)) with
      model.export into CACHE/NAME (skipped when CACHE/NAME/saved_model.pb exists), writes CACHE/input.bin
      (8 x 224 x 224 x 3 float32, uniform in [-1, 1) from numpy's default_rng(0)) and, for each model,
      CACHE/NAME/tf_out1.bin and tf_out8.bin: the serving signature's output on the first image and on all 8.
      Prints one JSON line per model: {"name", "exported": bool, "seconds"}.
  tf_keras_apps.py serve CACHE  loads models on demand and answers one JSON line per stdin line
      `time NAME BATCH ROUNDS`: {"name", "batch", "graph_us", "xla_us"} (microseconds per call, median of
      ROUNDS calls, after warm-up; and "graph_cpu_us", "xla_cpu_us": the process's CPU time per call, all
      threads) of tf.function and tf.function(jit_compile=True) around the loaded
      SavedModel's serving function, on CACHE/input.bin's first BATCH images); `quit` ends it. The bench
      alternates these rounds with EagerFlow's own, so both see the same machine load.
  tf_keras_apps.py rss CACHE NAME  loads CACHE/NAME, runs it at batch 1 (tf.function, 5 calls; XLA is not
      compiled, which would add its own memory), prints {"name", "max_rss_kb"} (this process's peak RSS).
"""
import json
import os
import resource
import statistics
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

SHAPE = (8, 224, 224, 3)


def input_batch(cache):
    return np.fromfile(os.path.join(cache, "input.bin"), dtype=np.float32).reshape(SHAPE)


def export(cache, names):
    import keras

    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, "input.bin")
    if not os.path.exists(path):
        np.random.default_rng(0).uniform(-1, 1, SHAPE).astype(np.float32).tofile(path)
    x = input_batch(cache)
    for name in names:
        d = os.path.join(cache, name)
        t0 = time.perf_counter()
        exported = not os.path.exists(os.path.join(d, "saved_model.pb"))
        if exported:
            keras.utils.set_random_seed(0)
            # Logits (no softmax): with random weights the softmax reads 0.001 everywhere, which any
            # implementation matches; the logits (about 1e-11 to 1e-2 here) are compared relative to their scale.
            model = getattr(keras.applications, name)(weights=None, input_shape=SHAPE[1:], classifier_activation=None)
            model.export(d, verbose=False)
            # The reference outputs come from the SavedModel as saved (what EagerFlow loads).
            sig = tf.saved_model.load(d).signatures["serving_default"]
            for b in (1, 8):
                (out,) = sig(tf.constant(x[:b])).values()
                out.numpy().astype(np.float32).tofile(os.path.join(d, f"tf_out{b}.bin"))
        print(json.dumps({"name": name, "exported": exported, "seconds": time.perf_counter() - t0}), flush=True)


def functions(cache, name):
    loaded = tf.saved_model.load(os.path.join(cache, name))
    serve = loaded.signatures["serving_default"]
    call = lambda x: list(serve(x).values())[0]  # noqa: E731
    return loaded, tf.function(call), tf.function(call, jit_compile=True)


def time_calls(fn, x, rounds):
    """(wall, cpu): median wall microseconds per call, and this process's CPU microseconds per call (all threads)."""
    fn(x).numpy()
    fn(x).numpy()
    samples = []
    c0 = time.process_time()
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn(x).numpy()
        samples.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(samples), (time.process_time() - c0) * 1e6 / rounds


def serve(cache):
    x = input_batch(cache)
    models = {}
    for line in sys.stdin:
        parts = line.split()
        if not parts or parts[0] == "quit":
            break
        _, name, batch, rounds = parts
        if name not in models:
            models[name] = functions(cache, name)
        _, graph, xla = models[name]
        xb = tf.constant(x[: int(batch)])
        (graph_us, graph_cpu_us), (xla_us, xla_cpu_us) = time_calls(graph, xb, int(rounds)), time_calls(xla, xb, int(rounds))
        row = {"name": name, "batch": int(batch), "graph_us": graph_us, "xla_us": xla_us, "graph_cpu_us": graph_cpu_us, "xla_cpu_us": xla_cpu_us}
        print(json.dumps(row), flush=True)


def rss(cache, name):
    loaded, graph, _ = functions(cache, name)  # noqa: F841 (the functions need the loaded object alive)
    xb = tf.constant(input_batch(cache)[:1])
    for _ in range(5):
        graph(xb).numpy()
    print(json.dumps({"name": name, "max_rss_kb": peak_rss_kb()}), flush=True)


def peak_rss_kb():
    """This process's own peak RSS: /proc/self/status VmHWM (its address space's high-water mark). getrusage's
    ru_maxrss is kept across fork and exec on Linux, so a child started by a large parent reads the parent's peak."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


if __name__ == "__main__":
    cmd, cache = sys.argv[1], sys.argv[2]
    if cmd == "export":
        export(cache, sys.argv[3:])
    elif cmd == "serve":
        serve(cache)
    elif cmd == "rss":
        rss(cache, sys.argv[3])
    else:
        sys.exit(f"tf_keras_apps.py: unknown command {cmd!r} (export, serve or rss)")
