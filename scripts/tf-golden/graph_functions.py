"""TensorFlow 2.21 graphs as SavedModels hold them, with TF's outputs and gradients, for the GraphDef importer's tests.

Usage: .venv-tf/bin/python scripts/tf-golden/graph_functions.py
Writes packages/saving/test/fixtures/tf_graphs/<case>.pb (the serving signature's MetaGraph GraphDef, with its
function library: StatefulPartitionedCall into FunctionDefs, VarHandleOp resource variables, While/If with
TensorLists...) and <case>.json (signature inputs/outputs, variable values by VarHandleOp shared_name, the inputs
fed, TF's outputs, gradients of sum(output * weights) with respect to the inputs and the variables, and the
variables' values after the call). Each case is a tf.Module saved with tf.saved_model.save and read back from
saved_model.pb, so the graph is exactly what a SavedModel carries. TF1-style cases are GraphDefs of
tf.compat.v1 graphs. The tests (graph_functions.test.ts) never run Python.
"""
import json
import os
import shutil
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "packages", "saving", "test", "fixtures", "tf_graphs")
rng = np.random.RandomState(29)


def f32(*shape):
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


def tolist(x):
    x = np.asarray(x)
    if x.dtype.kind in "OS":
        return np.array([b.decode("utf-8") for b in x.reshape(-1)], dtype=object).reshape(x.shape).tolist()
    if x.dtype == np.bool_:
        return x.astype(bool).tolist()
    if np.issubdtype(x.dtype, np.complexfloating):
        return {"re": np.real(x).astype(float).tolist(), "im": np.imag(x).astype(float).tolist()}
    return x.astype(float if np.issubdtype(x.dtype, np.floating) else int).tolist()


def dtype_name(d):
    return {tf.float32: "float32", tf.int32: "int32", tf.bool: "bool", tf.int64: "int32", tf.complex64: "complex64", tf.string: "string"}[d]


# ---- TF 2.x cases: a Module with one serving signature --------------------------------------------------


class Dense(tf.Module):
    """Nested tf.functions (PartitionedCall inside the signature's function) and two resource variables."""

    def __init__(self):
        self.w = tf.Variable(f32(3, 4), name="w")
        self.b = tf.Variable(f32(4), name="b")

    @tf.function
    def inner(self, x):
        return tf.tanh(tf.matmul(x, self.w) + self.b)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def serve(self, x):
        h = self.inner(x)
        return {"y": self.inner2(h) * 2.0}

    @tf.function
    def inner2(self, h):
        return tf.nn.relu(h) + tf.reduce_mean(h, axis=1, keepdims=True)


class Counter(tf.Module):
    """Assignments: AssignAddVariableOp, AssignSubVariableOp, AssignVariableOp, then reads of the new values."""

    def __init__(self):
        self.total = tf.Variable(f32(2), name="total")
        self.steps = tf.Variable(0, name="steps")
        self.last = tf.Variable(tf.zeros([2]), name="last")

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32, name="x")])
    def serve(self, x):
        self.total.assign_add(x * 3.0)
        self.steps.assign_add(1)
        self.last.assign(x)
        self.total.assign_sub(self.last * 0.5)
        return {"out": self.total * tf.cast(self.steps, tf.float32), "init": tf.cast(self.steps, tf.float32)}


class Loop(tf.Module):
    """while_loop over rows writing a TensorArray (TensorListReserve with element_shape -1), a cond inside."""

    def __init__(self):
        self.scale = tf.Variable(f32(4), name="scale")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def serve(self, x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(tf.float32, size=n, element_shape=None)
        acc = tf.zeros([4])
        for i in tf.range(n):
            row = x[i] * self.scale
            if tf.reduce_sum(row) > 0:
                acc = acc + tf.sin(row)
            else:
                acc = acc - row * row
            ta = ta.write(i, acc)
        return {"rows": ta.stack(), "acc": acc}


class Branch(tf.Module):
    """tf.cond on a data-dependent predicate (StatelessIf) whose branches capture a variable (If)."""

    def __init__(self):
        self.v = tf.Variable(f32(3), name="v")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def serve(self, x):
        y = tf.cond(tf.reduce_mean(x) > 0, lambda: x * self.v, lambda: tf.exp(x) - self.v)
        z = tf.cond(tf.reduce_max(x) > 2.0, lambda: y * 2.0, lambda: tf.square(y))
        return {"y": y, "z": z}


class NewOps(tf.Module):
    """Ops the importer gained: Size, SparseToDense, ComplexAbs, Erfc, CropAndResize, Einsum and friends."""

    @tf.function(input_signature=[
        tf.TensorSpec([None, 5, 5, 2], tf.float32, name="image"),
        tf.TensorSpec([None, 3], tf.float32, name="a"),
    ])
    def serve(self, image, a):
        boxes = tf.constant([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 0.5, 0.5]], tf.float32)
        crops = tf.image.crop_and_resize(image, boxes, tf.zeros([2], tf.int32), [3, 2])
        e = tf.einsum("ij,kj->ik", a, a)
        size = tf.cast(tf.size(a), tf.float32)
        dense = tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 1], [2, 0]], [5.0, 7.0], [3, 2]))
        sd = tf.raw_ops.SparseToDense(sparse_indices=tf.constant([[0, 0], [1, 2]]), output_shape=tf.constant([2, 3]), sparse_values=a[0, :2], default_value=tf.constant(0.5))
        c = tf.complex(a, a * 2.0)
        mag = tf.abs(c)
        er = tf.math.erfc(a)
        return {"crops": crops, "einsum": e, "size": size * mag + er, "dense": dense, "sparse": sd}


class RawOps(tf.Module):
    """The converter's other ops without records, as raw ops (legacy Div/Mod/Concat/Gather/Reverse and friends).
    Outputs only: TF has no gradient for Mod, DenseBincount or ListDiff, so the function has none."""

    no_gradients = True

    @tf.function(input_signature=[
        tf.TensorSpec([None, 4], tf.float32, name="x"),
        tf.TensorSpec([6], tf.int32, name="k"),
    ])
    def serve(self, x, k):
        raw = tf.raw_ops
        m = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
        ki = raw.Div(x=k, y=tf.constant(-4)) * 10 + raw.Mod(x=k, y=tf.constant(-4))
        kf = raw.Div(x=x, y=tf.constant(0.75)) + raw.Mod(x=x, y=tf.constant(0.3))
        clip = raw.ClipByValue(t=x, clip_value_min=tf.constant(-0.5), clip_value_max=tf.constant(0.4))
        lsm = raw.LogSoftmax(logits=x)
        band = raw.MatrixBandPart(input=m * tf.reduce_sum(x), num_lower=tf.constant(1), num_upper=tf.constant(0))
        en = raw.EuclideanNorm(input=x, axis=tf.constant([1]), keep_dims=True)
        a, b = raw.IdentityN(input=[x, clip])
        s1, s2 = raw.ShapeN(input=[x, m])
        cat = raw.Concat(concat_dim=tf.constant(1), values=[a, b])
        gat = raw.Gather(params=x, indices=tf.constant([1, 0, 1]))
        rev = raw.Reverse(tensor=x, dims=tf.constant([False, True]))
        diff, idx = raw.ListDiff(x=k, y=tf.constant([2, 5, 9]))
        bins = raw.DenseBincount(input=tf.abs(k) % 5, size=tf.constant(6), weights=tf.constant([], tf.int32), binary_output=False)
        fq = raw.FakeQuantWithMinMaxVars(inputs=x * 3.0, min=tf.constant(-1.0), max=tf.constant(2.0), num_bits=4)
        uniq, uidx = raw.UniqueV2(x=k, axis=tf.constant([0], tf.int64))
        return {
            "ints": tf.cast(ki, tf.float32), "floats": kf, "lsm": lsm + en, "band": band, "cat": cat, "gat": gat * rev,
            "shapes": tf.cast(tf.concat([s1, s2], 0), tf.float32), "diff": tf.cast(tf.stack([diff, idx]), tf.float32),
            "bins": tf.cast(bins, tf.float32), "fq": fq, "uniq": tf.cast(tf.concat([uniq, uidx], 0), tf.float32),
        }


class Upsample(tf.Module):
    """conv2d_transpose on an unknown batch: Conv2DBackpropInput whose input_sizes is Pack(shape(x)[0], 8, 8, 3)."""

    def __init__(self):
        self.kernel = tf.Variable(f32(3, 3, 3, 2), name="kernel")

    @tf.function(input_signature=[tf.TensorSpec([None, 4, 4, 2], tf.float32, name="x")])
    def serve(self, x):
        out_shape = tf.stack([tf.shape(x)[0], 8, 8, 3])
        return {"y": tf.nn.conv2d_transpose(x, self.kernel, out_shape, strides=2, padding="SAME")}


class ResizeInCond(tf.Module):
    """ResizeBilinear whose size is computed (tf.shape of another input) inside a cond branch.
    Outputs only: EagerFlow takes gradients of run-time-sized resizes eagerly only."""

    no_gradients = True

    @tf.function(input_signature=[tf.TensorSpec([None, 4, 4, 2], tf.float32, name="x"), tf.TensorSpec([None, None, None, 1], tf.float32, name="like")])
    def serve(self, x, like):
        size = tf.shape(like)[1:3]
        y = tf.cond(tf.reduce_mean(x) > 0, lambda: tf.image.resize(x, size), lambda: tf.image.resize(x * 2.0, size, method="nearest"))
        return {"y": y}


class SymbolicDims(tf.Module):
    """Every composite EagerFlow once had a second, run-time-shaped copy of (the *Dyn functions), with unknown batch and
    spatial dims: frame/overlap_and_add, the image crops, pads, patches, transpose and standardization, roll, repeat,
    sort, the diag family, band_part, cross, tensordot, einsum, boolean_mask, meshgrid. The tests run the same
    computation in EagerFlow eagerly, traced with these null dims, and imported, against TF's outputs and gradients."""

    @tf.function(input_signature=[
        tf.TensorSpec([None, None, None, 3], tf.float32, name="img"),
        tf.TensorSpec([None, None], tf.float32, name="s"),
        tf.TensorSpec([None, None], tf.float32, name="m"),
        tf.TensorSpec([None, 3], tf.float32, name="v"),
    ])
    def serve(self, img, s, m, v):
        frames = tf.signal.frame(s, 4, 2)
        m0 = tf.gather(m, 0, axis=1)
        v0 = tf.gather(v, 0, axis=1)
        return {
            "frame": tf.signal.frame(s, 4, 3, pad_end=True, pad_value=0.5),
            "oa": tf.signal.overlap_and_add(frames, 2),
            "crop": tf.image.crop_to_bounding_box(img, 1, 1, 3, 2),
            "padbox": tf.image.pad_to_bounding_box(img, 1, 2, 8, 9),
            "central": tf.image.central_crop(img, 0.5),
            "patches": tf.image.extract_patches(img, [1, 2, 2, 1], [1, 2, 1, 1], [1, 1, 1, 1], "SAME"),
            "transpose": tf.image.transpose(img),
            "standard": tf.image.per_image_standardization(img),
            "roll": tf.roll(m, 1, 0),
            "repeat": tf.repeat(m, 2, axis=0),
            "sort": tf.sort(m, axis=0),
            "diag_part": tf.linalg.diag_part(m),
            "band": tf.linalg.band_part(m, 1, 0),
            "set_diag": tf.linalg.set_diag(m, tf.linalg.diag_part(m) * 2.0 + 1.0),
            "diag": tf.linalg.diag(v0),
            "cross": tf.linalg.cross(v, v * 2.0 + 1.0),
            "tensordot": tf.tensordot(m, v, [[0], [0]]),
            "einsum": tf.einsum("ij,ik->jk", m, v),
            "mask": tf.boolean_mask(m, m0 > 0),
            "mesh": tf.meshgrid(tf.gather(s, 0, axis=0), v0)[0] * tf.meshgrid(tf.gather(s, 0, axis=0), v0)[1],
        }


class ConverterOps(tf.Module):
    """The last converter ops read onto composites: Dilation2D (SAME with strides, VALID with rates), BitwiseAnd,
    SparseSegmentSum/Mean (a skipped segment id), SparseReshape (a -1 dim), SparseFillEmptyRows."""

    def __init__(self):
        self.filters = tf.Variable(f32(3, 3, 2) * 0.5, name="filters")

    @tf.function(input_signature=[
        tf.TensorSpec([None, 6, 6, 2], tf.float32, name="image"),
        tf.TensorSpec([None, 3], tf.float32, name="data"),
        tf.TensorSpec([6], tf.int32, name="k"),
    ])
    def serve(self, image, data, k):
        raw = tf.raw_ops
        d_same = tf.nn.dilation2d(image, self.filters, strides=[1, 2, 2, 1], padding="SAME", data_format="NHWC", dilations=[1, 1, 1, 1])
        d_valid = tf.nn.dilation2d(image, self.filters, strides=[1, 1, 1, 1], padding="VALID", data_format="NHWC", dilations=[1, 2, 2, 1])
        band = raw.BitwiseAnd(x=k, y=tf.constant([12, -3, 7, -8, 255, 0x7FFFFFFF]))
        idx = tf.constant([0, 2, 1, 3, 0])
        seg = tf.constant([0, 0, 2, 2, 3])
        ssum = raw.SparseSegmentSum(data=data, indices=idx, segment_ids=seg)
        smean = raw.SparseSegmentMean(data=data * 2.0, indices=idx, segment_ids=seg)
        sp_idx = tf.constant([[0, 1], [0, 5], [1, 2], [1, 4]], tf.int64)
        new_idx, new_shape = raw.SparseReshape(input_indices=sp_idx, input_shape=tf.constant([2, 6], tf.int64), new_shape=tf.constant([3, -1], tf.int64))
        fill_idx, fill_vals, empty, rev = raw.SparseFillEmptyRows(
            indices=tf.constant([[0, 1], [2, 0], [2, 2], [4, 1]], tf.int64), values=tf.reshape(data[:2, :2], [4]),
            dense_shape=tf.constant([5, 3], tf.int64), default_value=tf.constant(-1.0))
        return {
            "d_same": d_same, "d_valid": d_valid, "band": tf.cast(band, tf.float32), "ssum": ssum, "smean": smean,
            "reshaped": tf.cast(tf.concat([tf.reshape(new_idx, [-1]), new_shape], 0), tf.float32),
            "fill_idx": tf.cast(fill_idx, tf.float32), "fill_vals": fill_vals,
            "fill_meta": tf.concat([tf.cast(empty, tf.float32), tf.cast(rev, tf.float32)], 0),
        }


class StringOps(tf.Module):
    """tfjs-converter's string ops: StaticRegexReplace (global and first match), StringToHashBucketFast, TF1's
    StringSplit (every delimiter byte splits, empty tokens skipped) and StringNGrams with padding. Outputs only."""

    no_gradients = True

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="s"), tf.TensorSpec([None], tf.string, name="words")])
    def serve(self, s, words):
        raw = tf.raw_ops
        sp_idx, sp_vals, sp_shape = raw.StringSplit(input=s, delimiter=tf.constant(" ,"), skip_empty=True)
        ng, ng_splits = raw.StringNGrams(data=words, data_splits=tf.constant([0, 2, 5], tf.int64), separator="_", ngram_widths=[1, 2, 3],
                                         left_pad="<", right_pad=">", pad_width=1, preserve_short_sequences=False)
        return {
            "rr": raw.StaticRegexReplace(input=s, pattern="[0-9]+", rewrite="#", replace_global=True),
            "rr1": raw.StaticRegexReplace(input=s, pattern="(o)", rewrite="[\\1]", replace_global=False),
            "hb": raw.StringToHashBucketFast(input=s, num_buckets=1000),
            "sp_idx": sp_idx, "sp_vals": sp_vals, "sp_shape": sp_shape, "ng": ng, "ng_splits": ng_splits,
        }


class RaggedOps(tf.Module):
    """tfjs-converter's ragged ops: RaggedRange, RaggedGather on row splits, RaggedTensorToTensor from row splits
    (RaggedTensor.to_tensor) and from FIRST_DIM_SIZE + VALUE_ROWIDS with a shape that pads and truncates. Outputs
    only (EagerFlow's ragged records have no gradient)."""

    no_gradients = True

    @tf.function(input_signature=[
        tf.TensorSpec([None], tf.int32, name="starts"), tf.TensorSpec([None], tf.int32, name="limits"),
        tf.TensorSpec([None], tf.float32, name="vals"), tf.TensorSpec([None], tf.int32, name="idx"),
    ])
    def serve(self, starts, limits, vals, idx):
        raw = tf.raw_ops
        rr_splits, rr_vals = raw.RaggedRange(starts=starts, limits=limits, deltas=tf.constant([1, 2, -1]), Tsplits=tf.int64)
        splits = tf.constant([0, 2, 2, 5], tf.int64)
        (g_splits,), g_vals = raw.RaggedGather(params_nested_splits=[splits], params_dense_values=vals, indices=idx, OUTPUT_RAGGED_RANK=1)
        dense = tf.RaggedTensor.from_row_splits(vals, splits, validate=False).to_tensor(default_value=-1.0)
        rowids = tf.constant([0, 0, 2, 2, 2], tf.int64)
        padded = raw.RaggedTensorToTensor(shape=tf.constant([4, 2], tf.int64), values=vals * 2.0, default_value=tf.constant(9.0),
                                          row_partition_tensors=[tf.constant(3, tf.int64), rowids], row_partition_types=["FIRST_DIM_SIZE", "VALUE_ROWIDS"])
        return {
            "rr_splits": rr_splits, "rr_vals": rr_vals, "g_splits": g_splits, "g_vals": g_vals, "dense": dense, "padded": padded,
        }


class TransformOps(tf.Module):
    """ImageProjectiveTransformV3 (tf.raw_ops; keras' RandomRotation/RandomZoom write it): bilinear with a CONSTANT fill
    value and another output size, nearest with REFLECT and WRAP. Outputs only."""

    no_gradients = True

    @tf.function(input_signature=[tf.TensorSpec([None, 5, 6, 2], tf.float32, name="images")])
    def serve(self, images):
        raw = tf.raw_ops
        t = tf.constant([[0.9, -0.2, 0.7, 0.15, 1.1, -0.4, 0.01, -0.02], [1.0, 0.3, -1.5, -0.3, 0.8, 0.9, 0.0, 0.0]], tf.float32)
        return {
            "bilinear": raw.ImageProjectiveTransformV3(images=images, transforms=t, output_shape=tf.constant([4, 7]), fill_value=tf.constant(0.5),
                                                       interpolation="BILINEAR", fill_mode="CONSTANT"),
            "reflect": raw.ImageProjectiveTransformV3(images=images, transforms=t, output_shape=tf.constant([5, 6]), fill_value=tf.constant(0.0),
                                                      interpolation="NEAREST", fill_mode="REFLECT"),
            "wrap": raw.ImageProjectiveTransformV3(images=images, transforms=t[:1], output_shape=tf.constant([5, 6]), fill_value=tf.constant(0.0),
                                                   interpolation="NEAREST", fill_mode="WRAP"),
        }


CASES_V2 = {
    "dense": (Dense, lambda: {"x": f32(2, 3)}),
    "counter": (Counter, lambda: {"x": f32(2)}),
    "loop": (Loop, lambda: {"x": f32(3, 4)}),
    "branch": (Branch, lambda: {"x": f32(2, 3) + 0.3}),
    "new_ops": (NewOps, lambda: {"image": f32(1, 5, 5, 2), "a": f32(3, 3)}),
    "upsample": (Upsample, lambda: {"x": f32(2, 4, 4, 2)}),
    "resize_cond": (ResizeInCond, lambda: {"x": f32(1, 4, 4, 2) + 0.5, "like": f32(1, 7, 5, 1)}),
    "raw_ops": (RawOps, lambda: {"x": f32(3, 4), "k": np.array([7, -7, 2, 5, -1, 7], np.int32)}),
    "symbolic_dims": (SymbolicDims, lambda: {"img": f32(2, 6, 5, 3), "s": f32(2, 10), "m": f32(4, 3), "v": f32(4, 3)}),
    "string_ops": (StringOps, lambda: {"s": np.array([b"hello world, 42 foo", b"a,,b  c7", b"", b"no0digits o"], dtype=object),
                                       "words": np.array([b"the", b"quick", b"brown", b"fox", b"jumps"], dtype=object)}),
    "ragged_ops": (RaggedOps, lambda: {"starts": np.array([0, 5, 3], np.int32), "limits": np.array([3, 10, -1], np.int32),
                                       "vals": np.array([1.5, -2.0, 3.25, 4.0, 0.5], np.float32), "idx": np.array([2, 0, 1, 2], np.int32)}),
    "transform_ops": (TransformOps, lambda: {"images": np.arange(120, dtype=np.float32).reshape(2, 5, 6, 2) / 10.0}),
    "converter_ops": (ConverterOps, lambda: {"image": f32(2, 6, 6, 2), "data": f32(4, 3), "k": np.array([13, -1, -6, -8, 300, -2147483648], np.int32)}),
}


def export_v2(name, cls, feeds):
    m = cls()
    tmp = tempfile.mkdtemp()
    try:
        tf.saved_model.save(m, tmp, signatures={"serving_default": m.serve})
        sm = saved_model_pb2.SavedModel()
        with open(os.path.join(tmp, "saved_model.pb"), "rb") as f:
            sm.ParseFromString(f.read())
    finally:
        shutil.rmtree(tmp)
    mg = sm.meta_graphs[0]
    sig = mg.signature_def["serving_default"]
    graph = mg.graph_def
    handles = {n.attr["shared_name"].s.decode() or n.name for n in graph.node if n.op == "VarHandleOp"}
    # The main graph's VarHandleOps are named like the variables' checkpoint keys; map them by position in
    # m.variables (tf.saved_model.save creates them in the order the trackable graph lists the variables).
    variables = {}
    by_name = {v.name.split(":")[0]: v for v in m.variables}
    for h in sorted(handles):
        v = by_name.get(h)
        if v is None:
            raise SystemExit(f"{name}: VarHandleOp '{h}' matches no variable of {sorted(by_name)}")
        variables[h] = {"dtype": dtype_name(v.dtype), "shape": v.shape.as_list(), "values": tolist(v.numpy())}
    fn = m.serve
    inputs = {k: tf.constant(v) for k, v in feeds().items()}
    watched = [inputs[k] for k in sorted(inputs) if inputs[k].dtype == tf.float32] + [v for v in m.variables if v.trainable and v.dtype == tf.float32]
    if getattr(cls, "no_gradients", False):
        outs, weights, watched, grads = fn(**inputs), {}, [], []
    else:
        with tf.GradientTape(persistent=True) as tape:
            for t in watched:
                tape.watch(t)
            outs = fn(**inputs)
            weights = {k: f32(*outs[k].shape) for k in sorted(outs) if outs[k].dtype == tf.float32}
            loss = tf.add_n([tf.reduce_sum(outs[k] * weights[k]) for k in weights])
        grads = tape.gradient(loss, watched)
    n_in = sum(1 for k in inputs if inputs[k].dtype == tf.float32)
    names = [k for k in sorted(inputs) if inputs[k].dtype == tf.float32] + [v.name.split(":")[0] for v in watched[n_in:]]
    after = {v.name.split(":")[0]: tolist(v.numpy()) for v in m.variables}
    spec = {
        "inputs": {k: {"name": t.name, "dtype": tf.as_dtype(t.dtype).name, "shape": [d.size for d in t.tensor_shape.dim]} for k, t in sig.inputs.items()},
        "outputs": {k: {"name": t.name} for k, t in sig.outputs.items()},
        "variables": variables,
        "feeds": {k: tolist(v) for k, v in inputs.items()},
        "feedDtypes": {k: dtype_name(v.dtype) for k, v in inputs.items()},
        "expect": {k: tolist(v) for k, v in outs.items()},
        "lossWeights": {k: tolist(v) for k, v in weights.items()},
        "grads": {n: (None if g is None else tolist(g)) for n, g in zip(names, grads)},
        "variablesAfter": after,
        "ops": sorted({n.op for n in graph.node} | {n.op for f in graph.library.function for n in f.node_def}),
    }
    return graph.SerializeToString(), spec


# ---- TF1-style graphs (tf.compat.v1): reference variables, PlaceholderWithDefault --------------------------


def export_v1_refvars():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 2], name="x")
        scale = tf.compat.v1.placeholder_with_default(tf.constant(1.5), [], name="scale")
        v = tf.compat.v1.Variable(f32(2), name="v", use_resource=False)
        init = tf.compat.v1.global_variables_initializer()
        upd = tf.compat.v1.assign_add(v, tf.reduce_sum(x, axis=0), name="upd")
        with tf.control_dependencies([upd]):
            y = tf.identity(x * v * scale, name="y")
        extra = tf.compat.v1.placeholder(tf.float32, [2], name="extra")
        z = tf.identity(x + extra, name="z")
        with tf.compat.v1.Session(graph=g) as s:
            s.run(init)
            v0 = s.run(v)
            feeds = {"x": f32(3, 2), "extra": f32(2)}
            yv, zv = s.run([y, z], {x: feeds["x"], extra: feeds["extra"]})
            v1 = s.run(v)
        gd = g.as_graph_def()
    spec = {
        "inputs": {"x": {"name": "x:0", "dtype": "float32", "shape": [-1, 2]}},
        "outputs": {"y": {"name": "y:0"}, "z": {"name": "z:0"}},
        "variables": {"v": {"dtype": "float32", "shape": [2], "values": tolist(v0)}},
        "feeds": {k: tolist(v) for k, v in feeds.items()},
        "expect": {"y": tolist(yv), "z": tolist(zv)},
        "variablesAfter": {"v": tolist(v1)},
        "ops": sorted({n.op for n in gd.node}),
    }
    return gd.SerializeToString(), spec


def export_v1_tensor_array():
    """TF1 TensorArrayV3 (control flow v1): TensorArraySplitV3 into equal pieces, TensorArrayConcatV3 and a read."""
    tf.compat.v1.disable_control_flow_v2()
    try:
        g = tf.Graph()
        with g.as_default():
            x = tf.compat.v1.placeholder(tf.float32, [6, 2], name="x")
            ta = tf.TensorArray(tf.float32, size=3, infer_shape=False, clear_after_read=False)
            ta = ta.split(x * 2.0, tf.constant([2, 2, 2]))
            value = ta.concat()
            cat = tf.identity(value + 1.0, name="cat")
            item = tf.identity(ta.read(1), name="item")
            with tf.compat.v1.Session(graph=g) as s:
                feeds = {"x": f32(6, 2)}
                cv, iv = s.run([cat, item], {x: feeds["x"]})
            gd = g.as_graph_def()
    finally:
        tf.compat.v1.enable_control_flow_v2()
    spec = {
        "inputs": {"x": {"name": "x:0", "dtype": "float32", "shape": [6, 2]}},
        "outputs": {"cat": {"name": "cat:0"}, "item": {"name": "item:0"}},
        "variables": {},
        "feeds": {k: tolist(v) for k, v in feeds.items()},
        "expect": {"cat": tolist(cv), "item": tolist(iv)},
        "variablesAfter": {},
        "ops": sorted({n.op for n in gd.node}),
    }
    return gd.SerializeToString(), spec


def export_v1_hash_tables():
    """TF1 hash tables (what tfjs-converter runs): a string -> int64 and an int64 -> float StaticHashTable (HashTableV2
    filled by LookupTableImportV2 from Consts, run by tables_initializer), lookups with defaults, LookupTableSizeV2."""
    g = tf.Graph()
    with g.as_default():
        words = tf.compat.v1.placeholder(tf.string, [None], name="words")
        ids = tf.compat.v1.placeholder(tf.int32, [None], name="ids")
        t1 = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(tf.constant(["the", "cat", "sat", "é"]), tf.constant([3, 1, 4, 9], tf.int64)), default_value=-1)
        t2 = tf.compat.v1.lookup.StaticHashTable(tf.compat.v1.lookup.KeyValueTensorInitializer(tf.constant([10, 20, 30], tf.int64), tf.constant([0.5, -1.5, 2.25])), default_value=7.0)
        found = tf.identity(tf.cast(t1.lookup(words), tf.int32), name="found")
        scaled = tf.identity(t2.lookup(tf.cast(ids, tf.int64)) * 2.0, name="scaled")
        size = tf.identity(tf.cast(t1.size() + t2.size(), tf.int32), name="size")
        with tf.compat.v1.Session(graph=g) as s:
            s.run(tf.compat.v1.tables_initializer())
            feeds = {"words": np.array([b"cat", b"dog", b"\xc3\xa9", b"the"], dtype=object), "ids": np.array([20, 11, 30, 10], np.int32)}
            fv, sv, nv = s.run([found, scaled, size], {words: feeds["words"], ids: feeds["ids"]})
        gd = g.as_graph_def()
    spec = {
        "inputs": {"words": {"name": "words:0", "dtype": "string", "shape": [-1]}, "ids": {"name": "ids:0", "dtype": "int32", "shape": [-1]}},
        "outputs": {"found": {"name": "found:0"}, "scaled": {"name": "scaled:0"}, "size": {"name": "size:0"}},
        "variables": {},
        "feeds": {k: tolist(v) for k, v in feeds.items()},
        "expect": {"found": tolist(fv), "scaled": tolist(sv), "size": tolist(nv)},
        "variablesAfter": {},
        "ops": sorted({n.op for n in gd.node}),
    }
    return gd.SerializeToString(), spec


# ---- A tf.function's concrete graph (not a SavedModel): captured variables are DT_RESOURCE Placeholders -------


def export_concrete():
    m = Dense()
    cf = m.serve.get_concrete_function()
    gd = cf.graph.as_graph_def()
    by_id = {id(v.handle): v for v in m.variables}
    variables = {}
    for ext, internal in cf.graph.captures:
        v = by_id.get(id(ext))
        if v is not None:
            variables[internal.op.name] = {"dtype": dtype_name(v.dtype), "shape": v.shape.as_list(), "values": tolist(v.numpy())}
    x = f32(2, 3)
    out = m.serve(tf.constant(x))
    inputs = [t for t in cf.inputs if t.dtype != tf.resource]
    spec = {
        "inputs": {"x": {"name": inputs[0].name, "dtype": "float32", "shape": [-1, 3]}},
        "outputs": {"y": {"name": cf.outputs[0].name}},
        "variables": variables,
        "feeds": {"x": tolist(x)},
        "expect": {"y": tolist(out["y"])},
        "variablesAfter": {},
        "ops": sorted({n.op for n in gd.node} | {n.op for f in gd.library.function for n in f.node_def}),
    }
    return gd.SerializeToString(), spec


def main():
    os.makedirs(OUT, exist_ok=True)
    tf.random.set_seed(29)
    made = {}
    for name, (cls, feeds) in CASES_V2.items():
        made[name] = export_v2(name, cls, feeds)
    made["v1_refvars"] = export_v1_refvars()
    made["concrete"] = export_concrete()
    made["v1_tensor_array"] = export_v1_tensor_array()
    made["v1_hash_tables"] = export_v1_hash_tables()
    for name, (pb, spec) in made.items():
        with open(os.path.join(OUT, f"{name}.pb"), "wb") as f:
            f.write(pb)
        with open(os.path.join(OUT, f"{name}.json"), "w") as f:
            json.dump(spec, f, separators=(",", ":"))
        print(f"{name}: {len(pb)} bytes, ops {spec['ops']}")


if __name__ == "__main__":
    main()
