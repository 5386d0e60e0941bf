"""TensorFlow 2.21 values and gradients of tf.signal (issue 11): fft/ifft (through tf.complex, tf.math.real/imag),
rfft/irfft (cut, padded, odd and even lengths), hann/hamming windows, frame and stft.

<Usage: .venv-tf/bin/python scripts/tf-golden/tf_signal_fixture.py
=Writes packages/core/test/fixtures/tf_signal.json (read by packages/core/test/signal_tf.test.ts; the test never
runs Python). Each case: float32 inputs, TF's (real) outputs, and for a fixed cotangent dy per output the first-order
gradients and the gradients of their sum (second order).
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "packages", "core", "test", "fixtures", "tf_signal.json")
rng = np.random.RandomState(13)


def u(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def parts(z):
    return [tf.math.real(z), tf.math.imag(z)]


# name, op (JS switch), fn over float32 tensors -> list of real tensors, inputs, params
CASES = [
    ("fft of a batch", "fft", lambda a, b: parts(tf.signal.fft(tf.complex(a, b))), [u(2, 5), u(2, 5)], {}),
    ("ifft", "ifft", lambda a, b: parts(tf.signal.ifft(tf.complex(a, b))), [u(4), u(4)], {}),
    ("rfft even", "rfft", lambda x: parts(tf.signal.rfft(x)), [u(2, 6)], {}),
    ("rfft odd", "rfft", lambda x: parts(tf.signal.rfft(x)), [u(7)], {}),
    ("rfft padded to 8", "rfft", lambda x: parts(tf.signal.rfft(x, [8])), [u(2, 5)], {"fftLength": 8}),
    ("rfft cut to 4", "rfft", lambda x: parts(tf.signal.rfft(x, [4])), [u(6)], {"fftLength": 4}),
    ("irfft default (even)", "irfft", lambda a, b: [tf.signal.irfft(tf.complex(a, b))], [u(2, 4), u(2, 4)], {}),
    ("irfft odd 7", "irfft", lambda a, b: [tf.signal.irfft(tf.complex(a, b), [7])], [u(4), u(4)], {"fftLength": 7}),
    ("irfft 4 from 5 bins (cut)", "irfft", lambda a, b: [tf.signal.irfft(tf.complex(a, b), [4])], [u(5), u(5)], {"fftLength": 4}),
    ("hannWindow 8 periodic", "hannWindow", lambda: [tf.signal.hann_window(8)], [], {"n": 8}),
    ("hannWindow 7 symmetric", "hannWindow", lambda: [tf.signal.hann_window(7, periodic=False)], [], {"n": 7, "periodic": False}),
    ("hannWindow 1", "hannWindow", lambda: [tf.signal.hann_window(1)], [], {"n": 1}),
    ("hammingWindow 6 symmetric", "hammingWindow", lambda: [tf.signal.hamming_window(6, periodic=False)], [], {"n": 6, "periodic": False}),
    ("hammingWindow 5 periodic", "hammingWindow", lambda: [tf.signal.hamming_window(5)], [], {"n": 5}),
    ("frame", "frame", lambda x: [tf.signal.frame(x, 3, 2)], [u(2, 8)], {"len": 3, "step": 2}),
    ("frame padEnd padValue 7", "frame", lambda x: [tf.signal.frame(x, 3, 2, pad_end=True, pad_value=7.0)], [u(8)], {"len": 3, "step": 2, "padEnd": True, "padValue": 7}),
    ("frame axis 0", "frame", lambda x: [tf.signal.frame(x, 2, 1, axis=0)], [u(4, 3)], {"len": 2, "step": 1, "axis": 0}),
    ("stft hann", "stft", lambda x: parts(tf.signal.stft(x, 6, 3)), [u(2, 16)], {"len": 6, "step": 3}),
    ("overlapAndAdd step 2", "overlapAndAdd", lambda x: [tf.signal.overlap_and_add(x, 2)], [u(2, 4, 3)], {"step": 2}),
    ("overlapAndAdd step 3 (gaps)", "overlapAndAdd", lambda x: [tf.signal.overlap_and_add(x, 3)], [u(3, 2)], {"step": 3}),
    ("inverseStft hann", "inverseStft", lambda a, b: [tf.signal.inverse_stft(tf.complex(a, b), 6, 3)], [u(3, 5), u(3, 5)], {"len": 6, "step": 3}),
    ("inverseStft with inverseStftWindowFn, fftLength 16", "inverseStft", lambda a, b: [tf.signal.inverse_stft(tf.complex(a, b), 10, 4, fft_length=16, window_fn=tf.signal.inverse_stft_window_fn(4))], [u(2, 9), u(2, 9)], {"len": 10, "step": 4, "fftLength": 16, "inv": True}),
    ("inverseStftWindowFn 8 step 3", "inverseStftWindowFn", lambda: [tf.signal.inverse_stft_window_fn(3)(8, tf.float32)], [], {"len": 8, "step": 3}),
    ("stft fftLength 16 padEnd", "stft", lambda x: parts(tf.signal.stft(x, 8, 4, fft_length=16, pad_end=True)), [u(18)], {"len": 8, "step": 4, "fftLength": 16, "padEnd": True}),
    # complex64 arithmetic the audio front ends use (tf.signal.dct's exp(-i·pi·k/2n) scale times an rfft).
    ("complex multiply, broadcasting", "complexMultiply", lambda a, b, c, d: parts(tf.complex(a, b) * tf.complex(c, d)), [u(2, 3), u(2, 3), u(3), u(3)], {}),
    ("complex exp", "complexExp", lambda a, b: parts(tf.exp(tf.complex(a, b))), [u(5), u(5)], {}),
]

DY = [1.0, -0.5, 2.0, 0.25, -1.5, 0.75, 0.5]


def enc(x):
    x = np.asarray(x, dtype=np.float32)
    return {"shape": list(x.shape), "data": [float(v) for v in x.reshape(-1)]}


def run(name, op, fn, inputs, params):
    try:
        return run_grad(name, op, fn, inputs, params)
    except tf.errors.InvalidArgumentError as e:
        # TF's own gradient fails here (RFFT/IRFFT gradients assume an uncut input): values only.
        ys = fn(*[tf.constant(x) for x in inputs])
        return {"name": name, "op": op, "params": params, "inputs": [enc(x) for x in inputs], "outputs": [enc(y.numpy()) for y in ys],
                "tf_grad_error": str(e).split("\n")[0][:200]}


def run_grad(name, op, fn, inputs, params):
    xs = [tf.constant(x) for x in inputs]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            ys = fn(*xs)
            dys = [tf.constant(np.array([DY[(i + k) % len(DY)] for i in range(int(np.prod(y.shape)))], np.float32).reshape(y.shape)) for k, y in enumerate(ys)]
            total = tf.add_n([tf.reduce_sum(y * d) for y, d in zip(ys, dys)])
        g1 = inner.gradient(total, xs) if xs else []
        s = tf.add_n([tf.reduce_sum(g) for g in g1]) if xs else None
    case = {"name": name, "op": op, "params": params, "inputs": [enc(x) for x in inputs], "outputs": [enc(y.numpy()) for y in ys]}
    if xs:
        g2 = outer.gradient(s, xs)
        case["dy"] = [enc(d.numpy()) for d in dys]
        case["grads"] = [enc(g.numpy()) for g in g1]
        case["second"] = [enc(np.zeros(x.shape) if g is None else g.numpy()) for g, x in zip(g2, xs)]
    return case


def main():
    cases = [run(*c) for c in CASES]
    with open(OUT, "w") as f:
        json.dump({"tf_version": tf.__version__, "note": "written by scripts/tf-golden/tf_signal_fixture.py", "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
