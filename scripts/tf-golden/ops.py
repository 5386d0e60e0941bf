"""OPS: every public ef op -> (the TF function taking ef's positional arguments, its cases)."""
import tensorflow as tf

from table import (C, INF, NAN, SMOOTH, SPECIALS, INT_EDGES, L, T, binary_cases, reduce_cases, tdt, unary_cases)


def _axis(a):
    return a


def unary(fn, ints=False):
    return (fn, unary_cases(ints))


def binary(fn, kind="arith", extra=()):
    return (fn, binary_cases(kind) + list(extra))


M23 = T(SMOOTH, shape=[2, 3])
STR = T(["a", "bc", "", "d"], "string")


def with_strings(entry, *cases):
    """Adds string-dtype cases to an op's row (TF's string support: copies, comparisons, selection)."""
    fn, rows = entry
    return (fn, rows + list(cases))
R3 = T(list(range(24)), shape=[2, 3, 4])

OPS = {
    # Unary math.
    "identity": with_strings(unary(tf.identity, True), C("strings", STR, grad=False)),
    "stopGradient": unary(tf.stop_gradient, True),
    "zerosLike": with_strings(unary(tf.zeros_like, True), C("strings", STR, grad=False)),
    "onesLike": with_strings(unary(tf.ones_like, True), C("strings", STR, grad=False)),
    "shape": (tf.shape, [C("matrix", M23, grad=False), C("scalar", T(1.0), grad=False), C("empty", T([], shape=[0, 3]), grad=False)]),
    "logicalNot": (tf.math.logical_not, [C("bools", T([True, False], "bool")), C("float", T([1.0]), grad=False)]),
    # Binary.
    "logicalAnd": binary(tf.math.logical_and, "logic"),
    "logicalOr": binary(tf.math.logical_or, "logic"),
    "where": (tf.where, [
        C("select", T([True, False, True], "bool"), T([1.0, 2.0, 3.0]), T([4.0, 5.0, 6.0])),
        C("broadcast condition", T([[True], [False]], "bool"), M23, T([0.5, -1.0, 2.0])),
        C("special values", T([True, False, True, False], "bool"), T([NAN, INF, -0.0, 1.0]), T([1.0, NAN, 0.0, -INF])),
        C("broadcast all three", T([True, False], "bool"), T([[1.0], [2.0], [3.0]]), T(0.5)),
        C("scalar condition", T(True, "bool"), T([1.0, 2.0]), T([3.0, 4.0])),
        C("mismatched shapes", T([True, False], "bool"), T([1.0, 2.0, 3.0]), T([4.0, 5.0, 6.0]), grad=False),
        C("float condition", T([1.0, 0.0]), T([1.0, 2.0]), T([3.0, 4.0]), grad=False),
        C("int32 values", T([True, False], "bool"), T([1, 2], "int32"), T([3, 4], "int32"), grad=False),
        C("dtype mismatch", T([True, False], "bool"), T([1.0, 2.0]), T([3, 4], "int32"), grad=False),
        C("numeric JS condition", [1, 0], T([1.0, 2.0]), T([3.0, 4.0]), grad=False),
        C("strings", T([True, False, False, True], "bool"), STR, T(["w", "x", "y", "z"], "string"), grad=False),
        C("strings broadcast", T([[True], [False]], "bool"), T(["a", "b"], "string"), T(["c", "d"], "string"), grad=False),
    ]),
    # Reductions.
    "argMax": (lambda x, axis=0: tf.math.argmax(x, axis=axis, output_type=tf.int32), [
        C("axis 0", M23, 0, grad=False), C("axis 1", M23, 1, grad=False), C("axis -1", M23, -1, grad=False),
        C("axis out of range", M23, 2, grad=False),
        C("NaN first", T([NAN, 1.0, 2.0]), 0, grad=False),
        C("NaN later", T([1.0, NAN, 2.0, NAN]), 0, grad=False),
        C("ties pick the first", T([3.0, 1.0, 3.0]), 0, grad=False),
        C("infinities", T([-INF, INF, 3e38]), 0, grad=False),
        C("bool input", T([False, True, True], "bool"), 0, grad=False),
        C("int32", T(INT_EDGES, "int32"), 0, grad=False),
        C("empty axis", T([], shape=[0, 3]), 0, grad=False),
        C("empty other axis", T([], shape=[0, 3]), 1, grad=False),
        C("scalar", T(1.0), 0, grad=False),
    ]),
    "matmul": (lambda a, b, ta=False, tb=False: tf.linalg.matmul(a, b, transpose_a=ta, transpose_b=tb), [
        C("[2,3] x [3,2]", M23, T([1.0, -1.0, 0.5, 2.0, -0.5, 0.25], shape=[3, 2])),
        C("transposeA", T(SMOOTH, shape=[3, 2]), T([1.0, -1.0, 0.5, 2.0, -0.5, 0.25], shape=[3, 2]), True, False),
        C("transposeB", M23, M23, False, True),
        C("both transposed", T(SMOOTH, shape=[3, 2]), M23, True, True),
        C("batch broadcast", T(list(range(12)), shape=[2, 2, 3]), T([1.0, -1.0, 0.5, 2.0, -0.5, 0.25], shape=[3, 2])),
        C("batch [2,1] x [1,3]", T(list(range(8)), shape=[2, 1, 2, 2]), T(list(range(12)), shape=[1, 3, 2, 2])),
        C("batch mismatch", T(list(range(8)), shape=[2, 2, 2]), T(list(range(12)), shape=[3, 2, 2]), grad=False),
        C("special values", T([INF, 0.0, NAN, 1.0], shape=[2, 2]), T([0.0, 1.0, 2.0, 3e38], shape=[2, 2])),
        C("empty inner", T([], shape=[2, 0]), T([], shape=[0, 3])),
        C("empty rows", T([], shape=[0, 3]), T(SMOOTH, shape=[3, 2])),
        C("inner mismatch", M23, M23, grad=False),
        C("rank 1", T([1.0, 2.0]), T([1.0, 2.0]), grad=False),
        C("int32", T([1, 2, 3, 4], "int32", [2, 2]), T([5, 6, 7, 8], "int32", [2, 2]), grad=False),
        C("int32 overflow wraps", T([46341, 3, -70000, 1], "int32", [2, 2]), T([46341, 5, 70000, 2147483647], "int32", [2, 2]), grad=False),
        C("dtype mismatch", T([[1.0]]), T([[1]], "int32"), grad=False),
    ]),
    # Shape ops.
    "reshape": (tf.reshape, [
        C("[2,3] -> [3,2]", M23, [3, 2]), C("-1", M23, [-1]), C("[-1, 2]", M23, [-1, 2]),
        C("scalar -> [1]", T(2.0), [1]), C("[1] -> []", T([2.0]), []),
        C("empty [0,3] -> [-1, 0]", T([], shape=[0, 3]), [-1, 0]),
        C("empty [0,3] -> [3, -1]", T([], shape=[0, 3]), [3, -1]),
        C("size mismatch", M23, [4], grad=False), C("two -1", M23, [-1, -1], grad=False),
        C("int32", T([1, 2, 3, 4], "int32"), [2, 2], grad=False),
        C("strings", STR, [2, 2], grad=False), C("bool", T([True, False], "bool"), [2, 1], grad=False),
    ]),
    "transpose": (lambda x, perm=None: tf.transpose(x, perm), [
        C("default", M23), C("[1, 0]", M23, [1, 0]), C("rank 3 [2, 0, 1]", R3, [2, 0, 1]),
        C("negative perm [-1, 0, 1]", R3, [-1, 0, 1]),
        C("not a permutation", M23, [0, 0], grad=False), C("wrong length", M23, [0], grad=False),
        C("scalar", T(1.5), None), C("empty", T([], shape=[0, 3]), None),
        C("strings", T(["a", "b", "c", "d"], "string", [2, 2]), [1, 0], grad=False),
    ]),
    "expandDims": (tf.expand_dims, [
        C("axis 0", T([1.0, 2.0]), 0), C("axis -1", T([1.0, 2.0]), -1), C("axis 1", T([1.0, 2.0]), 1),
        C("axis -2", T([1.0, 2.0]), -2), C("axis 2 out of range", T([1.0, 2.0]), 2, grad=False),
        C("axis -3 out of range", T([1.0, 2.0]), -3, grad=False), C("scalar", T(3.0), 0),
        C("strings", STR, 1, grad=False),
    ]),
    "squeeze": (lambda x, axis=None: tf.squeeze(x, axis), [
        C("all", T([1.0, 2.0], shape=[1, 2, 1])), C("axis 0", T([1.0, 2.0], shape=[1, 2, 1]), 0),
        C("axis -1", T([1.0, 2.0], shape=[1, 2, 1]), -1),
        C("axis of size 2", T([1.0, 2.0], shape=[1, 2, 1]), 1, grad=False),
        C("axis out of range", T([1.0, 2.0], shape=[1, 2, 1]), 3, grad=False),
        C("empty", T([], shape=[0, 1]), 1),
        C("to a scalar", T([[4.0]]), None), C("negative axes", T([1.0, 2.0], shape=[1, 2, 1]), [-1, 0]),
    ]),
    "concat": (lambda xs, axis=0: tf.concat(xs, axis), [
        C("axis 0", L(M23, T([1.0, 2.0, 3.0], shape=[1, 3])), 0), C("axis 1", L(M23, M23), 1),
        C("axis -1", L(M23, T([9.0, 8.0], shape=[2, 1])), -1), C("one tensor", L(M23), 0),
        C("with an empty piece", L(T([], shape=[0, 3]), M23), 0),
        C("mismatched dims", L(M23, T([1.0, 2.0], shape=[1, 2])), 0, grad=False),
        C("rank mismatch", L(M23, T([1.0, 2.0, 3.0])), 0, grad=False),
        C("axis out of range", L(M23, M23), 2, grad=False),
        C("axis -3 out of range", L(M23, M23), -3, grad=False), C("axis -2", L(M23, M23), -2),
        C("dtype mismatch", L(T([1.0]), T([1], "int32")), 0, grad=False),
        C("scalars", L(T(1.0), T(2.0)), 0, grad=False),
        C("strings", L(STR, T(["x"], "string")), 0, grad=False), C("int32", L(T([1], "int32"), T([2, 3], "int32")), 0, grad=False),
    ]),
    "stack": (lambda xs, axis=0: tf.stack(xs, axis), [
        C("axis 0", L(T([1.0, 2.0]), T([3.0, 4.0])), 0), C("axis 1", L(T([1.0, 2.0]), T([3.0, 4.0])), 1),
        C("axis -1", L(M23, M23), -1), C("scalars", L(T(1.0), T(2.0), T(-0.0)), 0),
        C("mismatched shapes", L(T([1.0, 2.0]), T([3.0])), 0, grad=False),
        C("axis out of range", L(T([1.0]), T([2.0])), 2, grad=False),
        C("strings", L(STR, STR), 1, grad=False), C("bools", L(T([True], "bool"), T([False], "bool")), 0, grad=False),
    ]),
    "slice": (tf.slice, [
        C("begin [0,1] size [2,-1]", M23, [0, 1], [2, -1]), C("size 0", M23, [1, 0], [0, 2]),
        C("whole", M23, [0, 0], [-1, -1]),
        C("out of bounds", M23, [1, 1], [2, 1], grad=False), C("negative begin", M23, [-1, 0], [1, 1], grad=False),
        C("fractional begin", M23, [0.5, 0], [1, 1], grad=False),
        C("wrong length", M23, [0], [1], grad=False),
        C("strings", STR, [1], [2], grad=False), C("int32", T(INT_EDGES, "int32"), [5], [-1], grad=False),
    ]),
    "pad": (lambda x, p, mode="CONSTANT", v=0: tf.pad(x, p, mode, v), [
        C("constant", T([1.0, 2.0]), [[1, 1]]), C("constant value 5", T([1.0, 2.0]), [[1, 1]], "CONSTANT", 5),
        C("matrix", M23, [[1, 0], [0, 2]]),
        C("reflect", T([1.0, 2.0, 3.0]), [[2, 1]], "REFLECT"), C("symmetric", T([1.0, 2.0, 3.0]), [[2, 3]], "SYMMETRIC"),
        C("reflect matrix", M23, [[1, 1], [2, 1]], "REFLECT"), C("symmetric matrix", M23, [[1, 0], [3, 1]], "SYMMETRIC"),
        C("reflect too wide", T([1.0, 2.0, 3.0]), [[3, 0]], "REFLECT", grad=False),
        C("symmetric too wide", T([1.0, 2.0, 3.0]), [[4, 0]], "SYMMETRIC", grad=False),
        C("scalar with no paddings", T(1.0), [], grad=False),
        C("negative padding", T([1.0, 2.0]), [[-1, 0]], grad=False),
        C("wrong length", M23, [[1, 1]], grad=False),
        C("bad mode", T([1.0]), [[1, 1]], "WRAP", grad=False),
        C("int32 value", T([1, 2], "int32"), [[1, 0]], "CONSTANT", 7, grad=False),
    ]),
    "gather": (lambda x, i, axis=0: tf.gather(x, i, axis=axis), [
        C("axis 0", M23, T([1, 0, 1], "int32")), C("axis 1", M23, T([2, 0], "int32"), 1),
        C("axis -1", M23, T([2], "int32"), -1), C("2-D indices", T([1.0, 2.0, 3.0]), T([[0, 2], [1, 1]], "int32")),
        C("scalar index", M23, T(1, "int32")), C("empty indices", M23, T([], "int32"), 0),
        C("2-D indices on axis 1", M23, T([[2, 0], [1, 1]], "int32"), 1),
        C("index out of range", M23, T([2], "int32"), grad=False),
        C("negative index", M23, T([-1], "int32"), grad=False),
        C("axis out of range", M23, T([0], "int32"), 2, grad=False),
        C("float indices", M23, T([0.0]), grad=False),
        C("strings", STR, T([3, 0, 0], "int32")), C("int32 params", T(INT_EDGES, "int32"), T([6, 7], "int32")),
    ]),
    "unsortedSegmentSum": (tf.math.unsorted_segment_sum, [
        C("basic", T([1.0, 2.0, 3.0, 4.0]), T([0, 1, 0, 2], "int32"), 3),
        C("rows", M23, T([1, 1], "int32"), 2), C("negative ids dropped", T([1.0, 2.0, 3.0]), T([0, -1, 1], "int32"), 2),
        C("id out of range", T([1.0, 2.0]), T([0, 2], "int32"), 2, grad=False),
        C("multi-dimensional ids", T(list(range(12)), shape=[2, 2, 3]), T([[0, 1], [1, 2]], "int32"), 3),
        C("ids shape mismatch", M23, T([0, 1, 0], "int32"), 2, grad=False),
        C("int32 data", T([1, 2, 3], "int32"), T([0, 0, 1], "int32"), 2, grad=False),
        C("zero segments", T([1.0, 2.0]), T([-1, -1], "int32"), 0),
        C("empty data", T([], shape=[0, 2]), T([], "int32"), 3),
    ]),
    "broadcastTo": (tf.broadcast_to, [
        C("[3] -> [2,3]", T([1.0, 2.0, 3.0]), [2, 3]), C("[2,1] -> [2,3]", T([[1.0], [2.0]]), [2, 3]),
        C("scalar -> [2,2]", T(1.5), [2, 2]), C("same shape", T([1.0, 2.0]), [2]),
        C("to empty", T([1.0]), [0, 3]),
        C("incompatible", T([1.0, 2.0, 3.0]), [2, 2], grad=False), C("higher rank", T([[1.0, 2.0]]), [2], grad=False),
    ]),
    "cast": (lambda x, d: tf.cast(x, tdt(d)), [
        C("float to int32 specials", T([2.7, -2.7, 0.5, -0.0, NAN, INF, -INF, 3e38, -3e38, 2147483520.0, -2147483648.0]), "int32", grad=False),
        C("float to bool", T([0.0, -0.0, 0.5, NAN, -INF]), "bool", grad=False),
        C("int32 to float", T(INT_EDGES, "int32"), "float32", grad=False),
        C("int32 to bool", T([0, 3, -1], "int32"), "bool", grad=False),
        C("bool to float", T([True, False], "bool"), "float32", grad=False),
        C("bool to int32", T([True, False], "bool"), "int32", grad=False),
        C("float to float", T([1.5, -0.0, NAN]), "float32"),
        C("denormals to int32", T([1e-40, -1e-40]), "int32", grad=False, tags=["denormal"]),
    ]),
    # Creation.
    "fill": (lambda dims, v, d=None: tf.fill(dims, tf.constant(v, dtype=tdt(d) if d else None)), [
        C("float", [2, 3], 1.5, grad=False), C("int32", [2], 7, "int32", grad=False), C("bool", [2, 1], True, "bool", grad=False),
        C("scalar", [], -2.0, grad=False), C("empty", [0, 2], 1.0, grad=False), C("special value", [2], NAN, grad=False),
        C("negative dim", [-1, 2], 1.0, grad=False), C("string", [2], "ab", "string", grad=False),
    ]),
    "zeros": (lambda dims, d="float32": tf.zeros(dims, tdt(d)), [
        C("float", [2, 2], grad=False), C("int32", [3], "int32", grad=False), C("bool", [2], "bool", grad=False),
        C("empty", [0, 2], grad=False), C("negative dim", [-2], grad=False),
    ]),
    "ones": (lambda dims, d="float32": tf.ones(dims, tdt(d)), [
        C("float", [2, 2], grad=False), C("int32", [3], "int32", grad=False), C("bool", [2], "bool", grad=False),
        C("scalar", [], grad=False),
    ]),
    "range": (lambda a, b=None, d=1, dt="float32": tf.range(a, b, d, dtype=tdt(dt)), [
        C("limit", 5, grad=False), C("start limit", 2, 6, grad=False), C("fractional delta", 0, 1, 0.3, grad=False),
        C("counting down", 5, 0, -2, grad=False), C("int32", 0, 7, 3, "int32", grad=False),
        C("equal bounds", 2, 2, 1, "int32", grad=False), C("negative limit", -3, grad=False),
        C("negative fractional delta", 1, -1, -0.5, grad=False), C("float bounds", 0.5, 3.25, 1, grad=False),
        C("wrong direction", 5, 0, 1, grad=False), C("zero delta", 0, 5, 0, grad=False),
    ]),
    # Composites.
    "softmax": (lambda x, axis=-1: tf.nn.softmax(x, axis=axis), [
        C("vector", T([1.0, 2.0, 3.0])), C("matrix axis -1", M23), C("matrix axis 0", M23, 0),
        C("with inf", T([1.0, INF, 2.0])), C("all -inf", T([-INF, -INF])), C("with NaN", T([1.0, NAN])),
        C("large values", T([3e38, -3e38, 0.0])), C("empty", T([], shape=[0, 3])),
        C("axis out of range", M23, 2, grad=False), C("int32", T([1, 2], "int32"), grad=False),
    ]),
    "clipByValue": (tf.clip_by_value, [
        C("basic", T([-2.0, 0.5, 3.0]), T(-1.0), T(1.0)),
        C("min above max", T([1.0, 2.0]), T(3.0), T(0.0)),
        C("special values", T([NAN, INF, -INF, -0.0, 0.0]), T(-1.0), T(1.0)),
        C("at the bounds", T([-1.0, 1.0, 0.0]), T(-1.0), T(1.0)),
        C("tensor bounds", M23, T([-1.0, 0.0, 0.5]), T([0.0, 1.0, 2.0])),
        C("NaN bound", T([0.5, 2.0]), T(NAN), T(1.0)),
        C("int32", T([-5, 0, 5], "int32"), T(-1, "int32"), T(1, "int32"), grad=False),
        C("bounds that broadcast the input", T([0.5, 2.0, -3.0]), T([[-1.0], [0.0]]), T(1.0), grad=False),
    ]),
    "ensureShape": (tf.ensure_shape, [
        C("compatible", M23, [2, None]), C("exact", M23, [2, 3]),
        C("incompatible", M23, [3, 2], grad=False), C("wrong rank", M23, [6], grad=False),
    ]),
}

from ops_math_nn_array import MATH_NN_ARRAY_OPS  # noqa: E402 - the rows of the ops added after the first suite

OPS.update(MATH_NN_ARRAY_OPS)

from ops_linalg_random_nn import LINALG_RANDOM_NN_OPS  # noqa: E402 - the rows of the ops issue 20c covered (linalg, random, multi-output, nn)

OPS.update(LINALG_RANDOM_NN_OPS)
from ops_decompositions_image_signal import DECOMPOSITIONS_IMAGE_SIGNAL_OPS  # noqa: E402 - the rows of issue 11m's ops (linalg decompositions, image, real signal, gamma/poisson)

OPS.update(DECOMPOSITIONS_IMAGE_SIGNAL_OPS)

from harness_rows import harness_ops  # noqa: E402 - the ops whose TF call is on their harness rows (test/harness)

HARNESS_OPS = harness_ops()
_twice = sorted(set(HARNESS_OPS) & set(OPS))
assert not _twice, f"ops with a harness row's TF call and a Python row too: {_twice} (the harness row is the one row)"
OPS.update(HARNESS_OPS)
