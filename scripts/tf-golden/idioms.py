"""TensorFlow 2.21's answers for issue 28's idioms (TF code as written): shapes, call forms and the last divergences.

Writes packages/eagerflow/test/fixtures/tf_idioms.json, read by packages/eagerflow/test/tf_idioms.test.ts.
Run: /work/main/.venv-tf/bin/python scripts/tf-golden/idioms.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from encode import enc_array, enc_num, err  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "../../packages/eagerflow/test/fixtures/tf_idioms.json")



def grads2(f, *xs):
    """First-order gradients of sum(f) and the gradients of the sum of those (second order)."""
    xs = [tf.constant(x, tf.float32) for x in xs]
    with tf.GradientTape() as t2:
        t2.watch(xs)
        with tf.GradientTape() as t1:
            t1.watch(xs)
            y = f(*xs)
        gs = t1.gradient(y, xs)
        s = tf.add_n([tf.reduce_sum(g) for g in gs])
    return {"first": [enc_array(g.numpy()) for g in gs], "second": [enc_array(g.numpy()) for g in t2.gradient(s, xs)]}


def shapes():
    t = tf.zeros([3, 2, 4, 5])
    x = tf.constant(3.0)
    cf = tf.function(lambda x: x * 2).get_concrete_function(tf.constant([1.0, 2.0]))

    @tf.function
    def every_call(x):
        return tf.Variable(1.0) + x

    return {
        "index": [t.shape[0], t.shape[-1], t.shape[1], t.shape[-4]],
        "ndim": t.ndim,
        "len": len(t.shape),
        "list": list(t.shape),
        "asList": t.shape.as_list(),
        "unknownRankIndex": tf.TensorShape(None)[0],
        "reduceProd": enc_array(tf.reduce_prod(t.shape).numpy()),
        "zeros2": enc_array(tf.zeros(2).numpy()),
        "ones3": enc_array(tf.ones(3).numpy()),
        "fillTensorDim": enc_array(tf.fill([tf.cast(x, tf.int32)], x).numpy()),
        "reshapeTensorDim": list(tf.reshape(t, [tf.constant(6), -1]).shape),
        "zerosOfShape": list(tf.zeros(t.shape[1:]).shape),
        "partialShapeToTensor": err(lambda: tf.convert_to_tensor(tf.TensorShape([None, 2]))),
        "convertDtypeMismatch": err(lambda: tf.convert_to_tensor(tf.constant(1.0), dtype=tf.int32)),
        "convertHint": enc_array(tf.convert_to_tensor([1, 2], dtype_hint=tf.int32).numpy()),
        "cfCall": enc_array(cf(tf.constant([1.0, 2.0])).numpy()),
        "cfExtraArg": err(lambda: cf(tf.constant([1.0, 2.0]), 3)),
        "returnsNumber": enc_array(tf.function(lambda: 3.5)().numpy()),
        "returnsString": enc_array(tf.function(lambda: "a")().numpy()),
        "variableEveryCall": err(lambda: every_call(tf.constant(1.0))),
    }


def values():
    lin = tf.linspace(-10.0, 10.0, 201).numpy()
    rows = [[1.0, np.inf, 2.0], [np.nan, 1.0, 2.0], [-np.inf, 1.0, 2.0], [np.inf, np.inf, 1.0], [-np.inf, -np.inf, -np.inf], [0.5, -3.0, 20.0]]
    return {
        "linspace": enc_array(lin),
        "linspaceSmall": enc_array(tf.linspace(0.1, 0.7, 7).numpy()),
        "softmaxRows": {"x": enc_array(np.array(rows, np.float32)), "y": enc_array(tf.nn.softmax(tf.constant(rows, tf.float32)).numpy())},
        "divide": {"x": [[1.0, 0.0, 0.0, 2.0, -1.0], [0.0, 0.0, 1.0, 0.0, 2.0]], **grads2(tf.divide, [1.0, 0.0, 0.0, 2.0, -1.0], [0.0, 0.0, 1.0, 0.0, 2.0])},
        "pow": {"x": [[0.0, 0.0, 0.0, -1.0, 2.0, 0.0], [0.0, 1.0, 2.0, 0.5, 0.0, -1.0]], **grads2(tf.pow, [0.0, 0.0, 0.0, -1.0, 2.0, 0.0], [0.0, 1.0, 2.0, 0.5, 0.0, -1.0])},
    }


def softmax_eigen(rows):
    """The same rows with oneDNN off (Eigen's kernel: the conformance fixtures' setting), in a child process."""
    import subprocess
    import sys
    code = "import json,sys,tensorflow as tf,numpy as np;r=json.loads(sys.argv[1]);print(json.dumps(tf.nn.softmax(tf.constant(np.array(r,np.float32))).numpy().astype(str).tolist()))"
    env = dict(os.environ, TF_ENABLE_ONEDNN_OPTS="0", TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, "-c", code, json.dumps(rows)], env=env, capture_output=True, text=True, check=True).stdout
    vals = np.array(json.loads(out.strip().splitlines()[-1]), dtype=np.float32)
    return enc_array(vals)


def weak_types():
    """Python numbers in TF: they take the other operand's dtype (EagerFlow's weak JS numbers give the same dtypes)."""
    i32 = tf.constant(1, tf.int32)
    f = tf.function(lambda x: x * 2)
    return {
        "int32PlusNumber": enc_array((i32 + 1).numpy()),
        "int32PlusAbs": enc_array((i32 + tf.abs(2)).numpy()),
        "tracedNumberPlusInt32": enc_array((f(2) + tf.constant(1)).numpy()),
        "numbersAlone": enc_array(tf.abs(2.5).numpy()),
        "float32PlusNumber": enc_array((tf.constant(1.5) + 1).numpy()),
        "int32PlusFraction": err(lambda: i32 + 1.5),
        "int32TimesAbs": enc_array((tf.abs(-3) * i32).numpy()),
    }


def surface():
    """tf.config.run_functions_eagerly and tf.init_scope: what a Python side effect sees."""
    seen = []

    @tf.function
    def f(x):
        seen.append(float(x.numpy()) if tf.executing_eagerly() else None)
        return x + 1

    tf.config.run_functions_eagerly(True)
    try:
        for v in (1.0, 2.0, 3.0):
            f(tf.constant(v))
    finally:
        tf.config.run_functions_eagerly(False)
    eager_calls = list(seen)
    seen.clear()
    for v in (1.0, 2.0, 3.0):
        f(tf.constant(v))
    inside = []

    @tf.function
    def g(x):
        with tf.init_scope():
            inside.append(tf.executing_eagerly())
            c = tf.constant(1.0) + 1
        return x + c

    return {"runEagerlySeen": eager_calls, "tracedSeen": list(seen), "initScopeEager": inside, "initScopeValue": float(g(tf.constant(1.0)).numpy())}


def call_forms():
    """TF's positional forms: what they accept and the properties their draws have (values are TF's RNG's own)."""
    x = tf.ones([3, 4])
    d = tf.nn.dropout(x, 0.5, noise_shape=[1, 4], seed=1).numpy()
    u = tf.random.uniform([200], minval=2, maxval=5, dtype=tf.int32, seed=1).numpy()
    return {
        "dropoutColumnsShared": bool(all(len(set(d[:, j].tolist())) == 1 for j in range(4))),
        "dropoutValues": sorted(set(d.reshape(-1).tolist())),
        "statelessNormalShape": list(tf.random.stateless_normal([2, 3], [1, 2], stddev=2.0).shape),
        "statelessSame": bool(tf.reduce_all(tf.random.stateless_uniform([4], [3, 4], minval=-1, maxval=1) == tf.random.stateless_uniform([4], [3, 4], minval=-1, maxval=1)).numpy()),
        "statelessCategoricalShape": list(tf.random.stateless_categorical([[0.0, 0.0]], 5, [1, 1]).shape),
        "uniformInt": {"dtype": u.dtype.name, "min": int(u.min()), "max": int(u.max())},
        "uniformInt64": err(lambda: tf.random.uniform([2], maxval=5, dtype=tf.int64)),
        "logicalXor": enc_array(tf.math.logical_xor([True, False, True, False], [True, True, False, False]).numpy()),
    }


def custom_gradient():
    """A custom gradient (y = x*x, grad dy*x) eagerly, traced, and through tf.saved_model (TF keeps it)."""
    import tempfile

    @tf.custom_gradient
    def sq(x):
        return x * x, lambda dy: dy * x

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return sq(x)

    def grad(fn):
        x = tf.constant(2.0)
        with tf.GradientTape() as t:
            t.watch(x)
            y = fn(x)
        return float(t.gradient(y, x).numpy())

    m = M()
    path = tempfile.mkdtemp()
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)
    return {"eager": grad(sq), "traced": grad(m.f), "savedLoaded": grad(loaded.f), "plain": grad(lambda x: x * x)}


# Empty lines, a CRLF line, a blank-but-spaces line, a last line without '\n' and one with a trailing empty line.
TEXT_FILE = "a\n\nb\r\n\n  \nc\u00e9\n\n"


def data():
    """tf.data: empty lines kept, Dataset.reduce, a predicate of unknown static shape, a loop over a dataset in a tf.function."""
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "lines.txt")
    with open(path, "w") as f:
        f.write("a\n\nb\n")

    file_path = os.path.join(tempfile.mkdtemp(), "lines.txt")
    with open(file_path, "wb") as f:
        f.write(TEXT_FILE.encode())

    def even(x):
        y = tf.numpy_function(lambda v: np.bool_(v % 2 == 0), [x], tf.bool)
        return y

    @tf.function
    def loop():
        s = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(4):
            s += x
        return s

    return {
        "textLines": [x.decode() for x in (t.numpy() for t in tf.data.TextLineDataset(path))],
        "textFile": TEXT_FILE,
        "textFileLines": [x.decode() for x in (t.numpy() for t in tf.data.TextLineDataset(file_path))],
        "reduce": int(tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x).numpy()),
        "filterUnknownShape": [int(x) for x in tf.data.Dataset.range(6).filter(even)],
        "loopInFunction": int(loop().numpy()),
    }


def tensor_array():
    """tf.TensorArray: writes, stack, size, read, a write past a fixed size, gradients through write and stack."""
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in range(3):
        ta = ta.write(i, tf.constant([float(i), 1.0]))
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        tc = tf.TensorArray(tf.float32, size=3)
        for i in range(3):
            tc = tc.write(i, x * float(i + 1))
        y = tf.reduce_sum(tc.stack())

    @tf.function
    def traced(x):
        acc = tf.TensorArray(tf.float32, size=4)
        for i in range(4):
            acc = acc.write(i, x * float(i))
        return acc.stack()

    return {
        "stack": enc_array(ta.stack().numpy()),
        "size": int(ta.size().numpy()),
        "read1": enc_array(ta.read(1).numpy()),
        "writePastSize": err(lambda: tf.TensorArray(tf.float32, size=2).write(2, tf.constant(1.0))),
        "grad": float(t.gradient(y, x).numpy()),
        "traced": enc_array(traced(tf.constant(3.0)).numpy()),
        "unstackGather": enc_array(tf.TensorArray(tf.float32, size=3).unstack(tf.constant([[1.0, 2], [3, 4], [5, 6]])).gather([2, 0]).numpy()),
        "loop": tensor_array_loop(),
    }


def tensor_array_loop():
    """A TensorArray as a while-loop variable (a tf.range loop in a tf.function): writes and reads at a symbolic
    index, the gradient of sum(stack * w) through the loop, a write out of range when the graph runs, and a
    dynamic_size array grown by the loop."""

    @tf.function
    def squares():
        ta = tf.TensorArray(tf.float32, size=5)
        for i in tf.range(5):
            ta = ta.write(i, tf.cast(i * i, tf.float32))
        return ta.stack()

    w = tf.constant([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0], [-1.0, 0.25]])

    @tf.function
    def rows(x):
        ta = tf.TensorArray(tf.float32, size=4, element_shape=[2])
        for i in tf.range(4):
            f = tf.cast(i, tf.float32)
            ta = ta.write(i, tf.stack([x * f + x * x, tf.sin(x) * f]))
        return ta.stack()

    @tf.function
    def powers(x):
        ta = tf.TensorArray(tf.float32, size=4).write(0, x)
        for i in tf.range(1, 4):
            ta = ta.write(i, ta.read(i - 1) * x)
        return ta.stack()

    @tf.function
    def past_end():
        ta = tf.TensorArray(tf.float32, size=3)
        for i in tf.range(4):
            ta = ta.write(i, tf.cast(i, tf.float32))
        return ta.stack()

    @tf.function
    def grows(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(4):
            ta = ta.write(i, x * x * tf.cast(i, tf.float32))
        return ta.stack(), ta.size()

    x = tf.constant(1.5)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        r = rows(x)
        y = tf.reduce_sum(r * w)
        p = powers(x)
        z = tf.reduce_sum(p)
        g, gsize = grows(x)
        u = tf.reduce_sum(g)
    return {
        "squares": enc_array(squares().numpy()),
        "w": enc_array(w.numpy()),
        "x": 1.5,
        "rows": enc_array(r.numpy()),
        "rowsGrad": float(t.gradient(y, x).numpy()),
        "powers": enc_array(p.numpy()),
        "powersGrad": float(t.gradient(z, x).numpy()),
        "pastEnd": err(past_end),
        "dynamic": enc_array(g.numpy()),
        "dynamicSize": int(gsize.numpy()),
        "dynamicGrad": float(t.gradient(u, x).numpy()),
    }


def main():
    if os.environ.get("TF_ENABLE_ONEDNN_OPTS") == "0":
        raise SystemExit("run with TF's default build settings (oneDNN on): softmax rows record both kernels")
    out = {"tf": tf.__version__, "shapes": shapes(), "values": values(), "weak": weak_types(), "surface": surface(), "callForms": call_forms(), "customGradient": custom_gradient(), "data": data(), "tensorArray": tensor_array()}
    rows = out["values"]["softmaxRows"]
    rows["yEigen"] = softmax_eigen(np.array([[v if isinstance(v, float) else float(v) for v in r] for r in np.array(rows["x"]["data"], dtype=object).reshape(rows["x"]["shape"])], dtype=np.float32).tolist())
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
