"""MATH_NN_ARRAY_OPS: rows for the ops added after the first suite (issue 11: math, reductions, scans, manipulation, nn, image)."""
import tensorflow as tf

from table import C, INF, NAN, SMOOTH, INT_EDGES, L, T, binary_cases, reduce_cases, unary_cases

M23 = T(SMOOTH, shape=[2, 3])
UNIT = T([-1.0, -0.5, 0.0, -0.0, 0.25, 0.999, 1.0, 1.5, NAN, INF])
HALVES = T([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, -0.0, 0.49999997, 2.4, -2.6, 1e8 + 0.5, INF, NAN])
R3 = T(list(range(24)), shape=[2, 3, 4])
IMG = T([float((i * 7) % 11) - 5.0 for i in range(2 * 4 * 5 * 2)], shape=[2, 4, 5, 2])


def unary(fn, extra=()):
    return (fn, unary_cases(False) + list(extra))


def binary(fn, extra=()):
    return (fn, binary_cases("arith") + list(extra))


def reduce(fn, name, cases=None):
    return (lambda x, axis=None, keep=False: fn(x, axis=axis, keepdims=keep), cases if cases is not None else reduce_cases(name))


def scan(fn):
    opt = lambda o: dict(exclusive=o.get("exclusive", False), reverse=o.get("reverse", False))  # noqa: E731
    return (lambda x, axis=0, o={}: fn(x, axis=axis, **opt(o)), [
        C("vector", T([1.0, -2.0, 3.0, 0.5])), C("axis 1", M23, 1), C("axis -1 exclusive", M23, -1, {"exclusive": True}),
        C("reverse", M23, 1, {"reverse": True}), C("exclusive reverse", M23, 0, {"exclusive": True, "reverse": True}),
        C("special values", T([1.0, INF, NAN, -0.0, 0.0, 2.0]), 0), C("with zeros", T([2.0, 0.0, 3.0, 0.0, 4.0]), 0),
        C("int32", T([3, -2, 7, 1], "int32"), 0, grad=False), C("axis out of range", M23, 2, grad=False),
        C("scalar", T(2.0), 0, grad=False), C("empty", T([], shape=[0, 3]), 1),
    ])




def conv_cases():
    x = T([float(i % 5) - 2.0 for i in range(1 * 5 * 5 * 2)], shape=[1, 5, 5, 2])
    w = T([0.5, -1.0, 0.25, 2.0, -0.5, 1.0] * 6, shape=[3, 3, 2, 2])
    return [
        C("VALID", x, w, 1, "VALID"), C("SAME", x, w, 1, "SAME"), C("SAME stride 2", x, w, 2, "SAME"),
        C("VALID strides [2, 1]", x, w, [2, 1], "VALID"), C("dilation 2", x, w, 1, "VALID", {"dilations": 2}),
        C("explicit padding", x, w, 1, [[0, 0], [1, 0], [0, 2], [0, 0]]),
        C("channel mismatch", x, T([1.0] * 9, shape=[3, 3, 1, 1]), 1, "VALID", grad=False),
        C("bad padding", x, w, 1, "FULL", grad=False),
    ]


def conv(x, w, s, p, o={}):
    return tf.nn.conv2d(x, w, s, p, dilations=o.get("dilations"))


def dw(x, w, s, p, o={}):
    s4 = [1, s, s, 1] if isinstance(s, int) else [1, *s, 1]
    d = o.get("dilations")
    return tf.nn.depthwise_conv2d(x, w, s4, p, dilations=None if d is None else [d, d])


def pool(fn):
    x = T([float((i * 5) % 9) - 4.0 for i in range(1 * 5 * 5 * 2)], shape=[1, 5, 5, 2])
    return (lambda x, k, s, p: fn(x, k, s, p), [
        C("2x2 VALID", x, 2, 2, "VALID"), C("3x3 SAME stride 2", x, 3, 2, "SAME"), C("[2,3] stride [1,2] SAME", x, [2, 3], [1, 2], "SAME"),
        C("3x3 stride 1 VALID", x, 3, 1, "VALID"), C("window larger than input", x, 6, 1, "VALID", grad=False),
    ])


MATH_NN_ARRAY_OPS = {
    # Elementwise math.
    "math.floordiv": (tf.math.floordiv, [
        C("float signs", T([7.0, -7.0, 7.0, -7.0, 0.0, 1.0, -1.0]), T([2.0, 2.0, -2.0, -2.0, 3.0, 0.0, 0.0]), grad=False),
        C("int32 signs", T([7, -7, 7, -7, 0, 6, -6], "int32"), T([2, 2, -2, -2, 3, 3, -3], "int32"), grad=False),
        C("int32 divide by zero", T([1], "int32"), T([0], "int32"), grad=False),
        C("broadcast", M23, T([0.5, -2.0, 1.5]), grad=False),
    ]),
    "math.floormod": (tf.math.floormod, [
        C("float signs", T([7.0, -7.0, 7.0, -7.0, 0.0, 5.5, -5.5]), T([2.0, 2.0, -2.0, -2.0, 3.0, 2.0, 2.0])),
        C("int32 signs", T([7, -7, 7, -7, 0, 6, -6], "int32"), T([2, 2, -2, -2, 3, 4, 4], "int32"), grad=False),
        C("broadcast", M23, T([0.5, -2.0, 1.5])),
    ]),
    "math.squaredDifference": binary(tf.math.squared_difference),
    "math.xlogy": (tf.math.xlogy, [
        C("zeros", T([0.0, 0.0, 0.0, 1.0, 2.0, -1.0]), T([0.0, -1.0, NAN, 0.0, 3.0, 2.0])),
        C("broadcast", M23, T([0.5, 2.0, 1.5])),
    ]),
    "math.divNoNan": (tf.math.divide_no_nan, [
        C("zero denominators", T([1.0, 0.0, NAN, INF, 3.0]), T([0.0, 0.0, 0.0, 0.0, 2.0])),
        C("broadcast", M23, T([0.5, 0.0, 1.5])),
    ]),
    # Activations.
    "nn.softplus": unary(tf.nn.softplus, [C("large magnitudes", T([-100.0, -20.0, 20.0, 100.0]))]),
    "nn.elu": unary(tf.nn.elu),
    "nn.selu": unary(tf.nn.selu),
    "nn.relu6": unary(tf.nn.relu6, [C("at the kinks", T([0.0, 6.0, -0.0, 5.999, 6.001]))]),
    "nn.leakyRelu": (lambda x, a=0.2: tf.nn.leaky_relu(x, a), [C("default", M23), C("alpha 0.5", T([-2.0, 0.0, 3.0, -INF, NAN]), 0.5), C("alpha 1.5", M23, 1.5)]),
    "nn.gelu": (lambda x, o={}: tf.nn.gelu(x, approximate=o.get("approximate", False)), [C("exact", T([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0])), C("approximate", M23, {"approximate": True})]),
    "nn.logSoftmax": (lambda x, axis=-1: tf.nn.log_softmax(x, axis=axis), [C("vector", T([1.0, 2.0, 3.0])), C("axis 0", M23, 0), C("large", T([1000.0, 0.0, -1000.0]))]),
    "nn.softsign": unary(tf.nn.softsign),
    # Reductions and scans.
    "math.reduceVariance": reduce(tf.math.reduce_variance, "variance", reduce_cases("variance")[:10]),
    "math.reduceStd": reduce(tf.math.reduce_std, "std", reduce_cases("std")[:10]),
    "reduceLogsumexp": reduce(tf.math.reduce_logsumexp, "logsumexp", reduce_cases("lse")[:10] + [C("large", T([1000.0, 1000.0, -INF]), None)]),
    "cumsum": scan(tf.math.cumsum),
    "math.cumprod": scan(tf.math.cumprod),
    "argMin": (lambda x, axis=0: tf.math.argmin(x, axis=axis, output_type=tf.int32), [
        C("axis 0", M23, 0, grad=False), C("axis -1", M23, -1, grad=False), C("NaN", T([1.0, NAN, -2.0]), 0, grad=False),
        C("ties pick the first", T([1.0, -3.0, -3.0]), 0, grad=False), C("int32", T(INT_EDGES, "int32"), 0, grad=False),
        C("empty axis", T([], shape=[0, 3]), 0, grad=False),
    ]),
    # Manipulation.
    "tile": (tf.tile, [C("[2, 1]", M23, [2, 1]), C("[1, 3]", M23, [1, 3]), C("zero", M23, [0, 2]), C("wrong length", M23, [2], grad=False), C("int32", T([1, 2], "int32"), [3], grad=False)]),
    "reverse": (lambda x, axis: tf.reverse(x, axis if isinstance(axis, list) else [axis]), [
        C("axis 0", M23, [0]), C("axes [0, 1]", M23, [0, 1]), C("axis -1", R3, [-1]), C("repeated axis", M23, [0, 0], grad=False),
    ]),
    "oneHot": (lambda i, d, o={}: tf.one_hot(i, d, on_value=o.get("onValue", 1.0), off_value=o.get("offValue", 0.0), axis=o.get("axis", -1)), [
        C("basic", T([0, 2, -1, 3], "int32"), 3), C("on off", T([1, 0], "int32"), 2, {"onValue": 5.0, "offValue": -1.0}),
        C("axis 0", T([[0, 1], [2, 0]], "int32"), 3, {"axis": 0}),
    ]),
    "gatherNd": (tf.gather_nd, [
        C("elements", M23, T([[0, 1], [1, 2]], "int32")), C("rows", M23, T([[1], [0]], "int32")),
        C("out of range", M23, T([[2, 0]], "int32"), grad=False),
    ]),
    "scatterNd": (tf.scatter_nd, [
        C("elements", T([[0], [2], [0]], "int32"), T([1.0, 2.0, 3.0]), [4]),
        C("rows", T([[1]], "int32"), T([[1.0, 2.0, 3.0]]), [2, 3]),
    ]),
    "stridedSlice": (lambda x, b, e, s=None, o={}: tf.strided_slice(x, b, e, s, begin_mask=o.get("beginMask", 0), end_mask=o.get("endMask", 0),
                                                                     ellipsis_mask=o.get("ellipsisMask", 0), new_axis_mask=o.get("newAxisMask", 0), shrink_axis_mask=o.get("shrinkAxisMask", 0)), [
        C("basic", R3, [0, 1, 0], [2, 3, 4], [1, 1, 2]), C("negative stride", R3, [1, 2, 3], [0, 0, 0], [-1, -1, -2]),
        C("begin/end masks", R3, [1, 1, 1], [2, 2, 2], [1, 1, 1], {"beginMask": 5, "endMask": 2}),
        C("shrink axis", R3, [1, 0, 2], [2, 3, 3], [1, 1, 1], {"shrinkAxisMask": 5}),
        C("new axis", M23, [0, 0], [1, 2], [1, 1], {"newAxisMask": 1}),
        C("ellipsis", R3, [0, 1], [1, 3], [1, 1], {"ellipsisMask": 1}),
        C("clamped", M23, [-10, 1], [10, 100], [1, 1]),
    ]),
    "sort": (lambda x, axis=-1, o={}: tf.sort(x, axis, o.get("direction", "ASCENDING")), [
        C("ascending", T([3.0, -1.0, 2.0, -1.0, 0.5]), grad=False), C("descending rows", M23, -1, {"direction": "DESCENDING"}, grad=False),
        C("axis 0", M23, 0, grad=False), C("int32", T([3, -7, 2147483647, -2147483648], "int32"), grad=False),
    ]),
    "argsort": (lambda x, axis=-1, o={}: tf.argsort(x, axis, o.get("direction", "ASCENDING"), stable=True), [
        C("ascending with ties", T([3.0, -1.0, 2.0, -1.0, 0.5]), grad=False), C("descending rows", M23, -1, {"direction": "DESCENDING"}, grad=False),
        C("axis 0", M23, 0, grad=False),
    ]),
    "roll": (tf.roll, [C("vector", T([1.0, 2.0, 3.0, 4.0]), 1, 0), C("negative shift", M23, -1, 1), C("two axes", M23, [1, 2], [0, 1]), C("big shift", T([1.0, 2.0, 3.0]), 7, 0)]),
    "repeat": (lambda x, r, axis=None: tf.repeat(x, r, axis), [C("flat", M23, 2), C("axis 1 per element", M23, [1, 0, 2], 1), C("axis 0", M23, 3, 0)]),
    # nn.
    "nn.conv2d": (conv, conv_cases()),
    "nn.depthwiseConv2d": (dw, [
        C("VALID", T([float(i % 7) - 3.0 for i in range(50)], shape=[1, 5, 5, 2]), T([0.5, -1.0, 0.25, 2.0] * 2, shape=[2, 2, 2, 1]), 1, "VALID"),
        C("SAME stride 2", T([float(i % 7) - 3.0 for i in range(50)], shape=[1, 5, 5, 2]), T([0.5, -1.0, 0.25, 2.0] * 2, shape=[2, 2, 2, 1]), 2, "SAME"),
        C("multiplier 2 dilation 2", T([float(i % 7) - 3.0 for i in range(50)], shape=[1, 5, 5, 2]), T([0.5, -1.0, 0.25, 2.0] * 4, shape=[2, 2, 2, 2]), 1, "VALID", {"dilations": 2}),
    ]),
    "nn.maxPool2d": pool(tf.nn.max_pool2d),
    "nn.avgPool2d": pool(tf.nn.avg_pool2d),
    "nn.sigmoidCrossEntropyWithLogits": (lambda l, x: tf.nn.sigmoid_cross_entropy_with_logits(l, x), [
        C("basic", T([0.0, 1.0, 0.5, 1.0, 0.0, 0.25]), T([-2.0, 3.0, 0.0, -100.0, 100.0, 1.5])),
        C("shape mismatch", T([0.0, 1.0]), T([1.0]), grad=False),
    ]),
    "nn.softmaxCrossEntropyWithLogits": (lambda l, x, axis=-1: tf.nn.softmax_cross_entropy_with_logits(l, x, axis=axis), [
        C("rows", T([0.0, 1.0, 0.0, 0.2, 0.3, 0.5], shape=[2, 3]), M23), C("axis 0", T([0.0, 1.0, 0.0, 1.0, 0.0, 1.0], shape=[2, 3]), M23, 0),
        C("large logits", T([1.0, 0.0]), T([1000.0, -1000.0])),
    ]),
    "nn.sparseSoftmaxCrossEntropyWithLogits": (tf.nn.sparse_softmax_cross_entropy_with_logits, [
        C("rows", T([2, 0], "int32"), M23), C("label out of range", T([3, 0], "int32"), M23, grad=False),
    ]),
    "image.resize": (lambda x, size, o={}: tf.image.resize(x, size, method=o.get("method", "bilinear")), [
        C("bilinear up", IMG, [6, 7]), C("bilinear down", IMG, [3, 2]), C("nearest up", IMG, [7, 9], {"method": "nearest"}),
        C("nearest down", IMG, [2, 3], {"method": "nearest"}), C("rank 3", T(SMOOTH * 2, shape=[2, 3, 2]), [4, 4]),
    ]),
}
