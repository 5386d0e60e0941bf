"""Lossless JSON encoding of tensors: NaN, +-inf and -0 as strings, everything else as plain JSON."""
import math

import numpy as np

# Canonical dtype names shared with the TypeScript suite (tf name -> fixture name).
DTYPES = {
    "float32": "float32", "float64": "float64", "int32": "int32", "int64": "int64",
    "bool": "bool", "string": "string", "complex64": "complex64",
}


def enc_num(v):
    """One number: 'nan', 'inf', '-inf', '-0' as strings (JSON has none of them), else the number."""
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    if f == 0 and math.copysign(1.0, f) < 0:
        return "-0"
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    return f


def enc_array(a):
    """A numpy array as {dtype, shape, data (row-major)}."""
    a = np.asarray(a)
    if a.dtype == object or a.dtype.kind in "SU":
        data = [x.decode() if isinstance(x, bytes) else str(x) for x in a.reshape(-1)]
        return {"dtype": "string", "shape": list(a.shape), "data": data}
    name = DTYPES.get(a.dtype.name, a.dtype.name)
    flat = a.reshape(-1)
    if a.dtype == np.bool_:
        data = [bool(x) for x in flat]
    elif a.dtype.kind in "iu":
        data = [int(x) for x in flat]
    else:
        data = [enc_num(float(x)) for x in flat]
    return {"dtype": name, "shape": list(a.shape), "data": data}


def err(fn):
    """The class name of the error fn() raises (what the fixtures record), or None."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class name is the fixture
        return type(e).__name__
    return None
