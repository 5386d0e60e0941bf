"""TensorFlow 2.21 values and gradients of the tf.linalg decompositions (issue 11): cholesky, inv, det,
slogdet, logdet, triangular_solve, solve, qr, lstsq, cholesky_solve.

Usage: .venv-tf/bin/python scripts/tf-golden/tf_linalg_fixture.py
Writes packages/core/test/fixtures/tf_linalg.json (read by packages/core/test/linalg_tf.test.ts; the test
never runs Python). Each case: the inputs, TF's outputs, and for a fixed output cotangent dy the first-order
gradients and the gradients of the sum of those (second order), computed in float64 and stored as floats.
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "packages", "core", "test", "fixtures", "tf_linalg.json")
rng = np.random.RandomState(11)


def f32(a):
    """Values exactly representable in float32 (the inputs the JS side gets)."""
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def spd(n, batch=()):
    x = rng.uniform(-1, 1, size=(*batch, n, n))
    return f32(x @ np.swapaxes(x, -1, -2) + n * np.eye(n))


def general(shape, lo=-2.0, hi=2.0):
    return f32(rng.uniform(lo, hi, size=shape))


def well(n, batch=()):
    """A well-conditioned general square matrix (not symmetric)."""
    return f32(rng.uniform(-1, 1, size=(*batch, n, n)) + 3 * np.eye(n))


def lower(n, batch=()):
    x = np.tril(rng.uniform(-1, 1, size=(*batch, n, n)))
    return f32(x + 2.5 * np.eye(n))


def upper(n, batch=()):
    return np.swapaxes(lower(n, batch), -1, -2)


# name -> (fn of float64 tensors returning a tensor or a tuple, inputs, options passed to the JS op)
CASES = [
    ("cholesky 3x3", "cholesky", lambda a: tf.linalg.cholesky(a), [spd(3)], {}),
    ("cholesky batch 2x4x4", "cholesky", lambda a: tf.linalg.cholesky(a), [spd(4, (2,))], {}),
    ("inv 3x3", "inv", lambda a: tf.linalg.inv(a), [well(3)], {}),
    ("inv adjoint batch", "inv", lambda a: tf.linalg.inv(a, adjoint=True), [well(3, (2,))], {"adjoint": True}),
    ("det 3x3", "det", lambda a: tf.linalg.det(a), [well(3)], {}),
    ("det batch 2x2x2", "det", lambda a: tf.linalg.det(a), [general((2, 2, 2))], {}),
    ("slogdet negative det", "slogdet", lambda a: tf.linalg.slogdet(a), [f32([[1.0, 2.0, 0.5], [3.0, 1.0, -1.0], [0.0, 1.0, 2.0]])], {}),
    ("logdet 3x3", "logdet", lambda a: tf.linalg.logdet(a), [spd(3)], {}),
    ("triangularSolve lower", "triangularSolve", lambda a, b: tf.linalg.triangular_solve(a, b), [lower(3), general((3, 2))], {}),
    ("triangularSolve upper adjoint", "triangularSolve", lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True), [upper(3), general((3, 2))], {"lower": False, "adjoint": True}),
    ("triangularSolve broadcast batch", "triangularSolve", lambda a, b: tf.linalg.triangular_solve(a, b), [lower(3), general((2, 3, 1))], {}),
    ("solve 3x3", "solve", lambda a, b: tf.linalg.solve(a, b), [well(3), general((3, 2))], {}),
    ("solve adjoint batch", "solve", lambda a, b: tf.linalg.solve(a, b, adjoint=True), [well(3, (2,)), general((2, 3, 1))], {"adjoint": True}),
    ("qr square", "qr", lambda a: tf.linalg.qr(a), [general((3, 3))], {}),
    ("qr deep 4x2", "qr", lambda a: tf.linalg.qr(a), [general((4, 2))], {}),
    ("qr wide 2x4", "qr", lambda a: tf.linalg.qr(a), [general((2, 4))], {}),
    ("qr batch 2x3x2", "qr", lambda a: tf.linalg.qr(a), [general((2, 3, 2))], {}),
    ("qr full 4x2 (no gradient)", "qr", lambda a: tf.linalg.qr(a, full_matrices=True), [general((4, 2))], {"fullMatrices": True}),
    ("lstsq deep", "lstsq", lambda a, b: tf.linalg.lstsq(a, b), [general((4, 2)), general((4, 1))], {}),
    ("lstsq wide l2 0.5", "lstsq", lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.5), [general((2, 3)), general((2, 2))], {"l2Regularizer": 0.5}),
    ("choleskySolve", "choleskySolve", lambda a, b: tf.linalg.cholesky_solve(a, b), [lower(3), general((3, 2))], {}),
]

DY = [1.0, -0.5, 2.0, 0.25, -1.5, 0.75]


def dy_for(shape):
    n = int(np.prod(shape))
    return np.array([DY[i % len(DY)] for i in range(n)], dtype=np.float64).reshape(shape)


def as_list(y):
    return list(y) if isinstance(y, (tuple, list)) else [y]


def enc(x):
    x = np.asarray(x, dtype=np.float64)
    return {"shape": list(x.shape), "data": [float(v) for v in x.reshape(-1)]}


def run(name, op, fn, inputs, options):
    xs = [tf.constant(x, dtype=tf.float64) for x in inputs]
    ys = as_list(fn(*xs))
    case = {"name": name, "op": op, "options": options, "inputs": [enc(x) for x in inputs], "outputs": [enc(y.numpy()) for y in ys]}
    if "no gradient" in name:
        return case
    dys = [tf.constant(dy_for(y.shape)) for y in ys]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            # slogdet's sign is piecewise constant: only log|det| carries a gradient (TF's rule).
            outs = as_list(fn(*xs))
            total = tf.add_n([tf.reduce_sum(y * d) for y, d in zip(outs, dys)])
        g1 = inner.gradient(total, xs)
        s = tf.add_n([tf.reduce_sum(g) for g in g1])
    g2 = outer.gradient(s, xs)
    case["dy"] = [enc(d.numpy()) for d in dys]
    case["grads"] = [enc(g.numpy()) for g in g1]
    case["second"] = [enc(np.zeros(x.shape) if g is None else g.numpy()) for g, x in zip(g2, xs)]
    return case


def main():
    cases = [run(*c) for c in CASES]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"tf_version": tf.__version__, "note": "written by scripts/tf-golden/tf_linalg_fixture.py", "cases": cases}, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
