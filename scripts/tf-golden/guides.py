"""TensorFlow 2.21's printed values for the cells of TF's guides that rely on TF semantics (not Keras, not
downloads): tensor, variable, autodiff, advanced autodiff, tf.function, intro to graphs, basics, tf.data and the
custom training walkthrough's loss/gradient/step (on fixed rows instead of the downloaded CSV). Random draws in
the guides are replaced by fixed values so both sides compute the same thing.

Writes packages/eagerflow/test/fixtures/tf_guides.json, read by packages/eagerflow/test/tf_guides.test.ts (the same
cells written as a TF user would port them to EagerFlow). int64 results are recorded as int32 (EagerFlow has
no 64-bit dtypes).
Run: /work/main/.venv-tf/bin/python scripts/tf-golden/guides.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "../../packages/eagerflow/test/fixtures/tf_guides.json")
DT = {"int64": "int32", "float64": "float32"}


def E(v):
    """A printed value: tensors as {dtype, shape, data}, None as null, containers recursively."""
    if v is None:
        return None
    if isinstance(v, tf.TensorShape):
        return v.as_list()
    if isinstance(v, tf.DType):
        return DT.get(v.name, v.name)
    if isinstance(v, (tf.Tensor, tf.Variable, np.ndarray, np.generic)):
        a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
        if a.dtype == object or a.dtype.kind == "S":
            return {"dtype": "string", "shape": list(a.shape), "data": [x.decode() for x in a.reshape(-1)]}
        name = DT.get(a.dtype.name, a.dtype.name)
        data = [x if not isinstance(x, float) or np.isfinite(x) else str(x) for x in a.reshape(-1).tolist()]
        return {"dtype": name, "shape": list(a.shape), "data": data}
    if isinstance(v, dict):
        return {k: E(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [E(x) for x in v]
    return v


CELLS = {}


def cell(guide):
    def deco(fn):
        CELLS[f"{guide}.{fn.__name__}"] = fn
        return fn
    return deco


# --- tensor guide -------------------------------------------------------------------------------------------
@cell("tensor")
def basics():
    rank_2 = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [rank_2, rank_2.shape, rank_2.dtype]


@cell("tensor")
def math():
    a = tf.constant([[1, 2], [3, 4]])
    b = tf.constant([[1, 1], [1, 1]])
    return [tf.add(a, b), tf.multiply(a, b), tf.matmul(a, b), a + b, a * b, a @ b]


@cell("tensor")
def ops():
    c = tf.constant([[4.0, 5.0], [10.0, 1.0]])
    return [tf.reduce_max(c), tf.math.argmax(c), tf.nn.softmax(c)]


@cell("tensor")
def shape():
    t = tf.zeros([3, 2, 4, 5])
    return [t.dtype, t.ndim, t.shape.as_list(), t.shape[0], t.shape[-1], int(tf.size(t).numpy())]


@cell("tensor")
def index1d():
    r = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
    return [r[0], r[1], r[-1], r[:], r[:4], r[4:], r[2:-3], r[::2], r[::-1]]


@cell("tensor")
def index2d():
    r = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [r[1, 1], r[1, :], r[:, 1], r[-1, :], r[1:, :]]


@cell("tensor")
def index3d():
    r = tf.reshape(tf.range(30), [3, 2, 5])
    return [r[:, :, 4], r[..., 0]]


@cell("tensor")
def reshape():
    x = tf.constant([[1], [2], [3]])
    r = tf.reshape(tf.range(30), [3, 2, 5])
    return [tf.reshape(x, [1, 3]), tf.reshape(r, [-1]), tf.reshape(r, [3 * 2, 5]), tf.reshape(r, [3, -1]), tf.reshape(r, [-1, 5]).shape]


@cell("tensor")
def cast():
    f64 = tf.constant([2.2, 3.3, 4.4])
    return [tf.cast(f64, tf.int32), tf.cast(tf.constant([-2.7, 2.7]), tf.int32), tf.cast(tf.constant([0, 2]), tf.bool)]


@cell("tensor")
def broadcast():
    x = tf.constant([1, 2, 3])
    y = tf.constant(2)
    z = tf.constant([2, 2, 2])
    xr = tf.reshape(x, [3, 1])
    yr = tf.range(1, 5)
    return [tf.multiply(x, 2), x * y, x * z, tf.multiply(xr, yr), tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3])]


@cell("tensor")
def convert():
    return [tf.convert_to_tensor([1, 2, 3]), tf.convert_to_tensor([1.5, 2])]


@cell("tensor")
def strings():
    t = tf.constant("Gray wolf")
    ts = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
    text = tf.constant("1 10 100")
    return [t, ts, tf.strings.split(t, sep=" "), tf.strings.to_number(tf.strings.split(text, " ")),
            tf.strings.length(tf.constant("🥳👍"), unit="UTF8_CHAR"), tf.strings.length(tf.constant("🥳👍"))]


@cell("tensor")
def sparse():
    s = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    return tf.sparse.to_dense(s)


# --- variable guide -----------------------------------------------------------------------------------------
@cell("variable")
def create():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    bv = tf.Variable([False, False, False, True])
    return [v.shape, v.dtype, v.numpy(), tf.convert_to_tensor(v), tf.math.argmax(v), tf.reshape(v, [1, 4]), bv.dtype]


@cell("variable")
def assign():
    a = tf.Variable([2.0, 3.0])
    a.assign([1, 2])
    r1 = a.numpy()
    b = tf.Variable(a)
    a.assign([5, 6])
    r2 = [a.numpy(), b.numpy()]
    r3 = a.assign_add([2, 3]).numpy()
    r4 = a.assign_sub([7, 9]).numpy()
    return [r1, r2, r3, r4]


@cell("variable")
def trainable():
    step = tf.Variable(1, trainable=False)
    return [step.trainable, tf.Variable(1.0).trainable]


# --- autodiff guide -----------------------------------------------------------------------------------------
@cell("autodiff")
def square():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x ** 2
    return tape.gradient(y, x)


@cell("autodiff")
def model():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="w")
    b = tf.Variable([0.0, 1.0], name="b")
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y ** 2)
    dl_dw, dl_db = tape.gradient(loss, [w, b])
    return [loss, dl_dw, dl_db, tape.gradient(loss, {"w": w, "b": b})]


@cell("autodiff")
def watch():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x ** 2
    return tape.gradient(y, x)


@cell("autodiff")
def intermediate():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return tape.gradient(z, y)


@cell("autodiff")
def persistent():
    x = tf.constant([1, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return [tape.gradient(z, x), tape.gradient(y, x)]


@cell("autodiff")
def targets():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y0 = x ** 2
        y1 = 1 / x
    return [tape.gradient({"y0": y0, "y1": y1}, x), tape.gradient([y0, y1], x)]


@cell("autodiff")
def nonscalar():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * [3.0, 4.0]
    return tape.gradient(y, x)


@cell("autodiff")
def sigmoid():
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x)
    return tape.gradient(y, x)


@cell("autodiff")
def control_flow():
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:
            result = v0
        else:
            result = v1 ** 2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    return [dv0, dv1, tape.gradient(result, x)]


@cell("autodiff")
def unconnected():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y * y
    return tape.gradient(z, x)


@cell("autodiff")
def int_source():
    x = tf.constant(10)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    return g.gradient(y, x)


@cell("autodiff")
def stateful():
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)
        y = x1 ** 2
    return tape.gradient(y, x0)


@cell("autodiff")
def zeros():
    x = tf.Variable([2.0, 2.0])
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y ** 2
    return tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)


@cell("autodiff")
def stop_gradient():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x ** 2 + tf.stop_gradient(x ** 3)
    return tape.gradient(y, x)


# --- advanced autodiff guide --------------------------------------------------------------------------------
@cell("advanced")
def stop_recording():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    return t.gradient(z, {"x": x, "y": y})


@cell("advanced")
def reset():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y_sq = y * y
        t.reset()
        z = x * x + y_sq
    return t.gradient(z, {"x": x, "y": y})


@cell("advanced")
def clip_gradients():
    @tf.custom_gradient
    def clip(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward

    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip(v * v)
    return t.gradient(output, v)


@cell("advanced")
def higher_order():
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    return [dy_dx, t2.gradient(dy_dx, x)]


@cell("advanced")
def jacobian():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    w = tf.Variable([[1.0, -1.0], [2.0, 0.5]])
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x @ w)
    j = tape.jacobian(y, w)
    return [j.shape, j]


@cell("advanced")
def jacobian_scalar():
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    return tape.jacobian(y, delta)


@cell("advanced")
def batch_jacobian():
    x = tf.constant([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.tanh(x) * tf.reduce_sum(x, axis=1, keepdims=True)
    j = tape.batch_jacobian(y, x)
    return [j.shape, j]


@cell("advanced")
def hessian():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.reduce_sum(x ** 3)
        g = t1.gradient(y, x)
    return t2.jacobian(g, x)


# --- tf.function guide --------------------------------------------------------------------------------------
@cell("function")
def basic():
    @tf.function
    def add(a, b):
        return a + b
    return add(tf.ones([2, 2]), tf.ones([2, 2]))


@cell("function")
def tracing():
    traces = []

    @tf.function
    def double(a):
        traces.append(a.dtype.name)
        return a + a
    out = [double(tf.constant(1)), double(tf.constant(1.1)), double(tf.constant([1, 2])), double(tf.constant(2)), double(tf.constant(3.5))]
    return [out, len(traces)]


@cell("function")
def side_effects():
    seen = []

    @tf.function
    def f(x):
        seen.append(1)
        tf.print(x)
        return x
    f(tf.constant(1))
    f(tf.constant(2))
    return len(seen)


@cell("function")
def sum_even():
    @tf.function
    def f(items):
        s = 0
        for c in items:
            if c % 2 > 0:
                continue
            s += c
        return s
    return f(tf.constant([10, 12, 15, 20]))


@cell("function")
def variables_once():
    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)
    c = Count()
    return [c(), c()]


# --- intro to graphs guide ----------------------------------------------------------------------------------
@cell("graphs")
def same_value():
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)

    def f(x, y, b):
        x = tf.matmul(x, y)
        return x + b
    return [f(x1, y1, b1), tf.function(f)(x1, y1, b1)]


@cell("graphs")
def mse():
    y_true = tf.constant([1, 5, 3, 8, 2], dtype=tf.int32)
    y_pred = tf.constant([0, 6, 3, 7, 4], dtype=tf.int32)

    def get_mse(y_true, y_pred):
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)
    return [get_mse(y_true, y_pred), tf.function(get_mse)(y_true, y_pred)]


@cell("graphs")
def relu():
    @tf.function
    def my_relu(x):
        return tf.maximum(0.0, x)
    return [my_relu(tf.constant(5.5)), my_relu(tf.constant([1.0, -1.0]))]


# --- basics guide -------------------------------------------------------------------------------------------
@cell("basics")
def tensors():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return [x + x, 5 * x, x @ tf.transpose(x), tf.concat([x, x, x], axis=0), tf.nn.softmax(x, axis=-1), tf.reduce_sum(x)]


@cell("basics")
def gradient():
    x = tf.Variable(1.0)

    def f(x):
        return x ** 2 + 2 * x - 5
    with tf.GradientTape() as tape:
        y = f(x)
    return [f(x), tape.gradient(y, x)]


@cell("basics")
def module():
    class MyModule(tf.Module):
        def __init__(self, value):
            self.weight = tf.Variable(value)

        @tf.function
        def multiply(self, x):
            return x * self.weight
    mod = MyModule(3)
    return mod.multiply(tf.constant([1, 2, 3]))


@cell("basics")
def training():
    x = tf.linspace(-2.0, 2.0, 201)

    def f(x):
        return x * 3 + 2
    y = f(x)

    class Model(tf.Module):
        def __init__(self):
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def __call__(self, x):
            return self.w * x + self.b
    model = Model()
    opt = tf.optimizers.SGD(learning_rate=0.01)
    losses = []
    for _ in range(100):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((y - model(x)) ** 2)
        grads = tape.gradient(loss, [model.w, model.b])
        opt.apply_gradients(zip(grads, [model.w, model.b]))
        losses.append(float(loss))
    return [model.w, model.b, losses[0], losses[-1]]


# --- tf.data guide ------------------------------------------------------------------------------------------
@cell("data")
def slices():
    ds = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
    return [[e for e in ds], ds.reduce(0, lambda s, v: s + v)]


@cell("data")
def batch():
    return [list(tf.data.Dataset.range(8).batch(3)), list(tf.data.Dataset.range(8).batch(3, drop_remainder=True))]


@cell("data")
def map_filter():
    return [list(tf.data.Dataset.range(5).map(lambda x: x * 2)), list(tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0))]


@cell("data")
def zip_repeat():
    z = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(3, 6)))
    return [list(z), list(tf.data.Dataset.range(3).repeat(2).take(5))]


@cell("data")
def padded_batch():
    ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x)).padded_batch(2)
    return list(ds)


@cell("data")
def enumerate_take():
    return list(tf.data.Dataset.from_tensor_slices(tf.constant([7.0, 8.0, 9.0])).enumerate().take(2))


# --- custom training walkthrough (fixed rows instead of the downloaded iris CSV) ------------------------------
FEATURES = [[5.1, 3.5, 1.4, 0.2], [6.4, 3.2, 4.5, 1.5], [6.3, 3.3, 6.0, 2.5], [4.9, 3.0, 1.4, 0.2]]
LABELS = [0, 1, 2, 0]
W0 = [[0.1, -0.2, 0.05], [0.0, 0.1, -0.1], [-0.3, 0.2, 0.25], [0.1, 0.05, 0.2]]


@cell("walkthrough")
def loss_grad_step():
    x = tf.constant(FEATURES)
    y = tf.constant(LABELS)
    w = tf.Variable(W0)
    b = tf.Variable([0.0, 0.0, 0.0])

    def loss(x, y):
        logits = x @ w + b
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    with tf.GradientTape() as tape:
        l0 = loss(x, y)
    grads = tape.gradient(l0, [w, b])
    tf.optimizers.SGD(learning_rate=0.01).apply_gradients(zip(grads, [w, b]))
    return [l0, grads, loss(x, y)]


@cell("walkthrough")
def accuracy():
    logits = tf.constant(FEATURES) @ tf.constant(W0)
    pred = tf.math.argmax(logits, axis=1, output_type=tf.int32)
    return [pred, tf.nn.softmax(logits)[:2], tf.reduce_mean(tf.cast(tf.equal(pred, tf.constant(LABELS)), tf.float32))]


def main():
    out = {"tf": tf.__version__, "cells": {k: E(fn()) for k, fn in CELLS.items()}}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")
    print(len(CELLS), "cells")


if __name__ == "__main__":
    main()
