"""LINALG_RANDOM_NN_OPS: rows for the public ops that had no fixtures after issue 20b (linalg, random, multi-output, nn, manipulation).

Multi-output ops return a list in ef's output order (objects flattened in key order, nested lists flattened);
random ops are tagged "random": TF's Philox streams are not ef's, so only dtype and shape compare exactly
(their values are allowlisted; distribution and seed determinism are tested in random_stats.test.ts).
"""
import numpy as np
import tensorflow as tf

from table import C, INF, NAN, SMOOTH, L, T, reduce_cases

M23 = T(SMOOTH, shape=[2, 3])
M33 = T([2.0, -1.0, 0.5, 3.0, 1.5, -2.0, 0.25, 4.0, -0.5], shape=[3, 3])
B233 = T([float((i * 5) % 7) - 3.0 for i in range(18)], shape=[2, 3, 3])
X4 = T([float((i * 7) % 11) - 5.0 for i in range(1 * 4 * 4 * 2)], shape=[1, 4, 4, 2])
X5 = T([float((i * 3) % 7) - 3.0 for i in range(1 * 5 * 5 * 2)], shape=[1, 5, 5, 2])
W332 = T([0.5, -1.0, 0.25, 2.0, -0.5, 1.0] * 6, shape=[3, 3, 2, 2])
I32 = lambda d: T(d, "int32")  # noqa: E731
R = ["random"]


def s5(s):
    return [1, s, s, s, 1] if isinstance(s, int) else [1, *s, 1]


def opts(o, key, default):
    return o.get(key, default) if isinstance(o, dict) else default


def seg(fn):
    return (fn, [
        C("basic", T([1.0, -2.0, 3.0, 0.5, 4.0]), I32([0, 1, 0, 2, 1]), 3),
        C("empty segment", T([1.0, 2.0]), I32([0, 0]), 3),
        C("rows", M23, I32([1, 1]), 2),
        C("negative ids dropped", T([1.0, 2.0, 3.0]), I32([0, -1, 1]), 2),
        # Dropped elements equal to segment 0's result (ties through the clipped gather): their gradient is 0.
        C("dropped ties", T([2.0, 2.0, -1.0, 5.0, 3.0]), I32([0, -1, 1, -1, 1]), 2),
        C("special values", T([NAN, 1.0, INF, -0.0]), I32([0, 0, 1, 1]), 2),
        C("int32", I32([3, -7, 2, 5]), I32([0, 1, 1, 0]), 2, grad=False),
        C("id out of range", T([1.0, 2.0]), I32([0, 2]), 2, grad=False),
    ])


X1D = T([float((i * 5) % 9) - 4.0 for i in range(1 * 7 * 2)], shape=[1, 7, 2])
X3D = T([float((i * 5) % 9) - 4.0 for i in range(1 * 4 * 4 * 4 * 1)], shape=[1, 4, 4, 4, 1])


def pools(fn, x, rank_name):
    return (lambda x, k, s, p: fn(x, k, s, p), [
        C(f"{rank_name} 2 VALID", x, 2, 2, "VALID"), C(f"{rank_name} 3 SAME stride 1", x, 3, 1, "SAME"),
        C(f"{rank_name} 3 SAME stride 2", x, 3, 2, "SAME"),
    ])


LINALG_RANDOM_NN_OPS = {
    # Linear algebra.
    "eye": (lambda n, m=None, b=None, d="float32": tf.eye(n, m, b, tf.as_dtype(d)), [
        C("square", 3, grad=False), C("rectangular", 2, 4, grad=False), C("batch", 2, None, [2], grad=False),
        C("int32", 2, 3, None, "int32", grad=False), C("empty", 0, grad=False),
    ]),
    "linalg.diag": (tf.linalg.diag, [C("vector", T([1.0, -2.0, 3.0])), C("batch", M23), C("int32", I32([1, 2]), grad=False), C("empty", T([], shape=[0]))]),
    "linalg.diagPart": (tf.linalg.diag_part, [C("square", M33), C("rectangular", M23), C("batch", B233), C("rank 1", T([1.0, 2.0]), grad=False)]),
    "linalg.setDiag": (tf.linalg.set_diag, [
        C("square", M33, T([7.0, 8.0, 9.0])), C("rectangular", M23, T([-1.0, -2.0])), C("batch", B233, T(SMOOTH, shape=[2, 3])),
        C("wrong diagonal length", M33, T([1.0, 2.0]), grad=False),
    ]),
    "linalg.bandPart": (tf.linalg.band_part, [
        C("lower", M33, -1, 0), C("upper", M33, 0, -1), C("tridiagonal", M33, 1, 1), C("diagonal", B233, 0, 0),
        C("rectangular", M23, 0, 1), C("int32", I32([[1, 2], [3, 4]]), 0, -1, grad=False),
    ]),
    "linalg.trace": (tf.linalg.trace, [C("square", M33), C("rectangular", M23), C("batch", B233), C("special values", T([INF, 1.0, 2.0, NAN], shape=[2, 2])), C("rank 1", T([1.0]), grad=False)]),
    "linalg.matvec": (lambda a, b, o={}: tf.linalg.matvec(a, b, transpose_a=opts(o, "transposeA", False)), [
        C("basic", M23, T([1.0, -2.0, 0.5])), C("transposeA", M23, T([2.0, -1.0]), {"transposeA": True}),
        C("batch", B233, T([[1.0, 0.0, 2.0], [-1.0, 0.5, 0.25]])), C("size mismatch", M23, T([1.0, 2.0]), grad=False),
    ]),
    "linalg.cross": (tf.linalg.cross, [
        C("vectors", T([1.0, 2.0, 3.0]), T([-1.0, 0.5, 2.0])), C("batch", T(SMOOTH, shape=[2, 3]), T([0.5, 1.0, -1.0, 2.0, 0.0, 1.0], shape=[2, 3])),
        C("not 3-vectors", T([1.0, 2.0]), T([3.0, 4.0]), grad=False),
    ]),
    "tensordot": (tf.tensordot, [
        C("axes 1", M23, T(SMOOTH, shape=[3, 2]), 1), C("axes 0 (outer)", T([1.0, 2.0]), T([3.0, -1.0, 0.5]), 0),
        C("axes 2", M23, M23, 2), C("axes lists", B233, T(SMOOTH, shape=[3, 2]), [[1], [0]]),
        C("size mismatch", M23, M23, 1, grad=False),
    ]),
    "norm": (lambda x, ord="euclidean", axis=None, keep=False: tf.norm(x, ord, axis, keep), [
        C("euclidean all", M23), C("euclidean axis 1", M23, "euclidean", 1), C("ord 1 vector", T([1.0, -2.0, 3.0]), 1),
        C("ord inf vector", T([1.0, -4.0, 3.0]), INF), C("fro matrix", M23, "fro", [0, 1]), C("ord 1 matrix", M33, 1, [0, 1]),
        C("keepDims", M23, "euclidean", 0, True), C("zero vector", T([0.0, 0.0])),
    ]),
    "einsum": (lambda eq, *xs: tf.einsum(eq, *xs), [
        C("matmul", "ij,jk->ik", M23, T(SMOOTH, shape=[3, 2])), C("trace", "ii->", M33), C("transpose", "ij->ji", M23),
        C("outer", "i,j->ij", T([1.0, 2.0]), T([3.0, -1.0, 0.5])), C("batch matmul", "bij,bjk->bik", B233, B233),
        C("sum", "ij->", M23), C("bad equation", "ij,jk", M23, grad=False),
    ]),
    # Manipulation.
    "addN": (lambda xs: tf.math.add_n(xs), [
        C("three", L(M23, M23, T([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], shape=[2, 3]))), C("one", L(T([1.0, NAN]))),
        C("int32", L(I32([1, 2]), I32([2147483647, -2])), grad=False), C("shape mismatch", L(T([1.0]), T([1.0, 2.0])), grad=False),
    ]),
    "batchToSpaceNd": (tf.batch_to_space, [
        C("2x2 blocks", T(list(range(8)), shape=[4, 1, 1, 2]), [2, 2], [[0, 0], [0, 0]]),
        C("crops", T(list(range(16)), shape=[4, 2, 2, 1]), [2, 2], [[0, 1], [1, 0]]),
        C("batch not divisible", T(list(range(6)), shape=[3, 1, 1, 2]), [2, 2], [[0, 0], [0, 0]], grad=False),
    ]),
    "spaceToBatchNd": (tf.space_to_batch_nd, [
        C("2x2 blocks", T(list(range(8)), shape=[1, 2, 2, 2]), [2, 2], [[0, 0], [0, 0]]),
        C("paddings", T(list(range(6)), shape=[1, 3, 2, 1]), [2, 2], [[0, 1], [1, 1]]),
        C("not divisible", T(list(range(6)), shape=[1, 3, 2, 1]), [2, 2], [[0, 0], [0, 0]], grad=False),
    ]),
    "nn.depthToSpace": (lambda x, b, f="NHWC": tf.nn.depth_to_space(x, b, data_format=f), [
        C("block 2", T(list(range(8)), shape=[1, 1, 2, 4]), 2), C("2x2 block 2", T(list(range(32)), shape=[1, 2, 2, 8]), 2),
        C("depth not divisible", T(list(range(6)), shape=[1, 1, 2, 3]), 2, grad=False),
    ]),
    "nn.spaceToDepth": (lambda x, b, f="NHWC": tf.nn.space_to_depth(x, b, data_format=f), [
        C("block 2", T(list(range(16)), shape=[1, 2, 4, 2]), 2), C("not divisible", T(list(range(6)), shape=[1, 3, 2, 1]), 2, grad=False),
    ]),
    "linspace": (lambda a, b, n: tf.linspace(a, b, n), [
        C("five", 0.0, 1.0, 5, grad=False), C("descending", 2.0, -1.0, 4, grad=False), C("one", 3.0, 7.0, 1, grad=False),
        C("zero", 0.0, 1.0, 0, grad=False),
    ]),
    "searchsorted": (lambda s, v, o={}: tf.searchsorted(s, v, side=opts(o, "side", "LEFT").lower(), out_type=tf.int32), [
        C("left", T([1.0, 2.0, 2.0, 5.0]), T([0.0, 2.0, 3.0, 9.0]), grad=False), C("right", T([1.0, 2.0, 2.0, 5.0]), T([0.0, 2.0, 3.0, 9.0]), {"side": "RIGHT"}, grad=False),
        C("rows", T([[1.0, 3.0, 5.0], [0.0, 2.0, 4.0]]), T([[3.0, 6.0], [1.0, -1.0]]), grad=False),
        C("int32", I32([1, 3, 3, 8]), I32([3, 4]), {"side": "RIGHT"}, grad=False),
    ]),
    "tensorScatterNdUpdate": (tf.tensor_scatter_nd_update, [
        C("elements", T([1.0, 2.0, 3.0, 4.0]), I32([[1], [3]]), T([9.0, 10.0])), C("rows", M23, I32([[1]]), T([[7.0, 8.0, 9.0]])),
        C("index out of range", T([1.0, 2.0]), I32([[2]]), T([5.0]), grad=False),
    ]),
    "tensorScatterNdAdd": (tf.tensor_scatter_nd_add, [
        C("elements with repeats", T([1.0, 2.0, 3.0, 4.0]), I32([[1], [3], [1]]), T([9.0, 10.0, -1.0])), C("rows", M23, I32([[0]]), T([[7.0, 8.0, 9.0]])),
        C("int32", I32([1, 2]), I32([[0]]), I32([5]), grad=False),
    ]),
    "math.unsortedSegmentMax": seg(tf.math.unsorted_segment_max),
    "math.unsortedSegmentMin": seg(tf.math.unsorted_segment_min),
    "math.unsortedSegmentProd": seg(tf.math.unsorted_segment_prod),
    "sequenceMask": (lambda l, m=None, d="bool": tf.sequence_mask(l, m, tf.as_dtype(d)), [
        C("default maxlen", I32([1, 3, 0]), grad=False), C("maxlen 4", I32([2, 0]), 4, grad=False), C("float32", I32([[1], [2]]), 3, "float32", grad=False),
    ]),
    "size": (lambda x: tf.size(x, out_type=tf.int32), [C("matrix", M23, grad=False), C("scalar", T(1.0), grad=False), C("empty", T([], shape=[0, 3]), grad=False)]),
    "rank": (tf.rank, [C("matrix", M23, grad=False), C("scalar", T(1.0), grad=False), C("rank 3", B233, grad=False)]),
    "booleanMask": (lambda t, m, axis=0: tf.boolean_mask(t, m, axis=axis), [
        C("vector", T([1.0, 2.0, 3.0]), T([True, False, True], "bool")), C("rows", M23, T([False, True], "bool")),
        C("2-D mask", M23, T([[True, False, True], [False, True, False]], "bool")), C("axis 1", M23, T([True, False, True], "bool"), 1),
        C("mask shape mismatch", M23, T([True, False, True], "bool"), grad=False),
    ]),
    # Multi-output.
    "split": (lambda x, n, axis=0: tf.split(x, n, axis), [
        C("three ways", T([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), 3, grad=False), C("sizes axis 1", M23, [1, 2], 1, grad=False),
        C("sizes with -1", M23, [2, -1], 1, grad=False), C("not divisible", M23, 4, 1, grad=False),
    ]),
    "unstack": (lambda x, axis=0: tf.unstack(x, axis=axis), [C("axis 0", M23, grad=False), C("axis 1", M23, 1, grad=False), C("axis -1", B233, -1, grad=False)]),
    "math.topK": (lambda x, k=1, o={}: list(tf.math.top_k(x, k, sorted=opts(o, "sorted", True))), [
        C("k 2", T([1.0, 5.0, 3.0, 5.0]), 2, grad=False), C("rows", M23, 3, grad=False), C("k too large", T([1.0]), 2, grad=False),
        C("NaN and inf", T([1.0, INF, -INF, 0.0]), 4, grad=False),
    ]),
    "nn.moments": (lambda x, axes, o={}: list(tf.nn.moments(x, axes, keepdims=opts(o, "keepDims", False))), [
        C("axis 0", M23, [0], grad=False), C("all", M23, [0, 1], grad=False), C("keepDims", M23, [1], {"keepDims": True}, grad=False),
    ]),
    "nn.fusedBatchNorm": (lambda x, s, b, o={}: list(tf.compat.v1.nn.fused_batch_norm(x, s, b, epsilon=opts(o, "epsilon", 0.001))), [
        C("training", X4, T([1.0, 0.5]), T([0.0, -1.0]), grad=False),
    ]),
    "nn.maxPoolWithArgmax": (lambda x, k, s, p: list(tf.nn.max_pool_with_argmax(x, k, s, p)), [
        C("2x2 VALID", X4, 2, 2, "VALID", grad=False), C("3x3 SAME stride 2", X5, 3, 2, "SAME", grad=False),
    ]),
    "unique": (lambda x: list(tf.unique(x, out_idx=tf.int32)), [
        C("floats", T([3.0, 1.0, 3.0, 2.0, 1.0]), grad=False), C("int32", I32([7, 7, -1]), grad=False), C("empty", T([], shape=[0]), grad=False),
    ]),
    "meshgrid": (lambda *a: tf.meshgrid(*[x for x in a if not isinstance(x, dict)], indexing=next((x["indexing"] for x in a if isinstance(x, dict)), "xy")), [
        C("xy", T([1.0, 2.0, 3.0]), T([4.0, 5.0]), grad=False), C("ij", T([1.0, 2.0, 3.0]), T([4.0, 5.0]), {"indexing": "ij"}, grad=False),
    ]),
    "clipByGlobalNorm": (lambda ts, c: list(tf.clip_by_global_norm(ts, c)), [
        C("clipped", L(T([3.0, 4.0]), T([12.0])), 6.5, grad=False), C("not clipped", L(T([3.0, 4.0]), T([12.0])), 20.0, grad=False),
    ]),
    # nn.
    "nn.biasAdd": (lambda v, b, o={}: tf.nn.bias_add(v, b, data_format=opts(o, "dataFormat", "NHWC")), [
        C("matrix", M23, T([0.5, -1.0, 2.0])), C("rank 4 NCHW", T(list(range(12)), shape=[1, 2, 3, 2]), T([1.0, -1.0]), {"dataFormat": "NCHW"}),
        C("bias size mismatch", M23, T([1.0, 2.0]), grad=False), C("int32", I32([[1, 2]]), I32([3, 4]), grad=False),
    ]),
    "nn.silu": (tf.nn.silu, [C("special values", T([0.0, -0.0, 1.0, -1.0, 3.0, -3.0, INF, -INF, NAN])), C("smooth matrix", M23)]),
    "nn.conv2dTranspose": (lambda x, w, shape, s, p: tf.nn.conv2d_transpose(x, w, shape, s, p), [
        C("SAME stride 2", X4, W332, [1, 8, 8, 2], 2, "SAME"), C("VALID stride 1", X4, W332, [1, 6, 6, 2], 1, "VALID"),
        C("bad output shape", X4, W332, [1, 5, 5, 2], 1, "VALID", grad=False),
    ]),
    "nn.conv3d": (lambda x, w, s, p: tf.nn.conv3d(x, w, s5(s), p), [
        C("VALID", X3D, T([0.5, -1.0, 0.25, 2.0, -0.5, 1.0, 1.5, -0.25], shape=[2, 2, 2, 1, 1]), 1, "VALID"),
        C("SAME stride 2", X3D, T([0.5, -1.0, 0.25, 2.0, -0.5, 1.0, 1.5, -0.25] * 2, shape=[2, 2, 2, 1, 2]), 2, "SAME"),
    ]),
    "nn.conv3dTranspose": (lambda x, w, shape, s, p: tf.nn.conv3d_transpose(x, w, shape, s5(s), p), [
        C("SAME stride 2", T([float(i % 5) - 2.0 for i in range(8)], shape=[1, 2, 2, 2, 1]), T([0.5, -1.0, 0.25, 2.0, -0.5, 1.0, 1.5, -0.25] * 2, shape=[2, 2, 2, 2, 1]), [1, 4, 4, 4, 2], 2, "SAME"),
    ]),
    "nn.avgPool3d": pools(tf.nn.avg_pool3d, X3D, "3-D"),
    "nn.maxPool3d": (pools(tf.nn.max_pool3d, X3D, "3-D")[0], pools(tf.nn.max_pool3d, X3D, "3-D")[1] + [
        C("distinct values SAME", T([float((i * 37) % 64) for i in range(64)], shape=[1, 4, 4, 4, 1]), 3, 1, "SAME"),
    ]),
    "nn.avgPool": pools(tf.nn.avg_pool, X5, "2-D"),
    "nn.maxPool": pools(tf.nn.max_pool, X1D, "1-D"),
    "nn.avgPool1d": pools(tf.nn.avg_pool1d, X1D, "1-D"),
    "nn.maxPool1d": pools(tf.nn.max_pool1d, X1D, "1-D"),
    "nn.pool": (lambda x, w, t, s=None, p="VALID": tf.nn.pool(x, w, t, strides=s, padding=p), [
        C("MAX 2x2", X5, [2, 2], "MAX", [2, 2], "VALID"), C("AVG 3x3 SAME", X5, [3, 3], "AVG", [1, 1], "SAME"), C("AVG 1-D", X1D, [3], "AVG", [2], "VALID"),
    ]),
    "nn.localResponseNormalization": (lambda x, o={}: tf.nn.local_response_normalization(x, opts(o, "depthRadius", 5), opts(o, "bias", 1.0), opts(o, "alpha", 1.0), opts(o, "beta", 0.5)), [
        C("defaults", X4), C("radius 1", X4, {"depthRadius": 1, "bias": 2.0, "alpha": 0.5, "beta": 0.75}),
    ]),
    "nn.conv1d": (lambda x, w, s, p: tf.nn.conv1d(x, w, s, p), [
        C("VALID", X1D, T([0.5, -1.0, 0.25, 2.0, -0.5, 1.0] * 2, shape=[3, 2, 2]), 1, "VALID"),
        C("SAME stride 2", X1D, T([0.5, -1.0, 0.25, 2.0, -0.5, 1.0] * 2, shape=[3, 2, 2]), 2, "SAME"),
    ]),
    "nn.atrousConv2d": (tf.nn.atrous_conv2d, [C("rate 2 VALID", X5, T([0.5, -1.0, 0.25, 2.0] * 2, shape=[2, 2, 2, 1]), 2, "VALID"), C("rate 2 SAME", X5, W332, 2, "SAME")]),
    "nn.separableConv2d": (lambda x, d, pw, s, p: tf.nn.separable_conv2d(x, d, pw, [1, s, s, 1], p), [
        C("VALID", X5, T([0.5, -1.0, 0.25, 2.0] * 2, shape=[2, 2, 2, 1]), T([1.0, -0.5, 0.25, 2.0, 0.5, -1.0], shape=[1, 1, 2, 3]), 1, "VALID"),
    ]),
    "nn.batchNormalization": (tf.nn.batch_normalization, [
        C("full", M23, T([0.5, -1.0, 0.0]), T([1.0, 4.0, 0.25]), T([0.0, 1.0, -1.0]), T([2.0, 0.5, 1.0]), 0.001),
        C("no offset no scale", M23, T([0.5, -1.0, 0.0]), T([1.0, 4.0, 0.25]), None, None, 0.001),
    ]),
    "nn.l2Loss": (tf.nn.l2_loss, [C("vector", T([1.0, -2.0, 3.0])), C("matrix", M23), C("special values", T([INF, 1.0])), C("empty", T([], shape=[0]))]),
    "math.l2Normalize": (lambda x, axis=None: tf.math.l2_normalize(x, axis), [C("all", M23), C("axis 1", M23, 1), C("zeros", T([0.0, 0.0]), 0)]),
    "nn.embeddingLookup": (tf.nn.embedding_lookup, [C("rows", M23, I32([1, 0, 1])), C("2-D ids", M23, I32([[0], [1]])), C("id out of range", M23, I32([2]), grad=False)]),
    "nn.inTopK": (lambda t, p, k: tf.math.in_top_k(t, p, k), [
        C("k 1", I32([0, 1]), T([[0.9, 0.1], [0.8, 0.2]]), 1, grad=False), C("ties count in", I32([1, 2]), T([[1.0, 1.0, 0.0], [0.5, 0.5, 0.5]]), 1, grad=False),
        C("k 2", I32([2]), T([[0.1, 0.5, 0.3]]), 2, grad=False), C("non-finite", I32([0, 1]), T([[NAN, 1.0], [0.0, INF]]), 1, grad=False),
    ]),
    "math.reduceEuclideanNorm": (lambda x, axis=None, keep=False: tf.math.reduce_euclidean_norm(x, axis=axis, keepdims=keep), reduce_cases("norm")[:6] + [C("zeros", T([0.0, 0.0]), None)]),
    "math.countNonzero": (lambda x, axis=None, keep=False: tf.math.count_nonzero(x, axis=axis, keepdims=keep), [
        C("all", T([0.0, 1.0, -0.0, NAN, 2.0]), grad=False), C("axis 1", M23, 1, grad=False), C("int32 keepDims", I32([[0, 1], [2, 0]]), 0, True, grad=False),
        C("bool", T([True, False, True], "bool"), grad=False),
    ]),
    "math.bincount": (lambda a, o={}: tf.math.bincount(a, minlength=opts(o, "minlength", None), maxlength=opts(o, "maxlength", None), dtype=tf.as_dtype(opts(o, "dtype", "int32"))), [
        C("counts", I32([1, 1, 3, 0]), grad=False), C("minlength", I32([1, 1]), {"minlength": 4}, grad=False), C("maxlength", I32([0, 5, 1]), {"maxlength": 2}, grad=False),
        C("empty", I32([]), grad=False),
    ]),
    "clipByNorm": (lambda t, c, axes=None: tf.clip_by_norm(t, c, axes), [C("clipped", T([3.0, 4.0]), 2.5), C("not clipped", T([3.0, 4.0]), 10.0), C("axes 1", M23, 1.0, [1])]),
    # Random: only dtype and shape compare (tag "random").
    "random.normal": (lambda s, o={}: tf.random.normal(s, seed=o.get("seed")), [C("shape [2, 3]", [2, 3], {"seed": 7}, grad=False, tags=R), C("scalar", [], {"seed": 7}, grad=False, tags=R)]),
    "random.uniform": (lambda s, o={}: tf.random.uniform(s, opts(o, "minval", 0), opts(o, "maxval", 1), dtype=tf.as_dtype(opts(o, "dtype", "float32")), seed=o.get("seed")), [
        C("float", [4], {"seed": 7}, grad=False, tags=R), C("int32", [3], {"minval": 0, "maxval": 10, "dtype": "int32", "seed": 7}, grad=False, tags=R),
    ]),
    "random.truncatedNormal": (lambda s, o={}: tf.random.truncated_normal(s, seed=o.get("seed")), [C("shape [5]", [5], {"seed": 7}, grad=False, tags=R)]),
    "random.categorical": (lambda l, n, o={}: tf.random.categorical(l, n, dtype=tf.int32, seed=o.get("seed")), [C("two rows", T([[0.0, 1.0], [2.0, -1.0]]), 3, {"seed": 7}, grad=False, tags=R)]),
    "random.shuffle": (lambda v, o={}: tf.random.shuffle(v, seed=o.get("seed")), [C("vector", T([1.0, 2.0, 3.0, 4.0]), {"seed": 7}, grad=False, tags=R)]),
    "random.statelessNormal": (lambda s, o: tf.random.stateless_normal(s, o["seed"]), [C("shape [3]", [3], {"seed": [1, 2]}, grad=False, tags=R)]),
    "random.statelessUniform": (lambda s, o: tf.random.stateless_uniform(s, o["seed"]), [C("shape [3]", [3], {"seed": [1, 2]}, grad=False, tags=R)]),
    "random.statelessTruncatedNormal": (lambda s, o: tf.random.stateless_truncated_normal(s, o["seed"]), [C("shape [3]", [3], {"seed": [1, 2]}, grad=False, tags=R)]),
    "random.statelessCategorical": (lambda l, n, o: tf.random.stateless_categorical(l, n, o["seed"], dtype=tf.int32), [C("two rows", T([[0.0, 1.0], [2.0, -1.0]]), 3, {"seed": [1, 2]}, grad=False, tags=R)]),
    "nn.dropout": (lambda x, o: tf.nn.dropout(x, rate=o["rate"], seed=o.get("seed")), [C("rate 0.5", M23, {"rate": 0.5, "seed": 7}, grad=False, tags=R), C("rate 0", M23, {"rate": 0.0, "seed": 7}, grad=False)]),
}
