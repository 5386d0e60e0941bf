"""The per-op table of the golden generator, read from the harness case rows (test/harness, ForwardCase.tfCall).

Every op's TF call lives on its harness rows; there is no Python table of ops. export_rows.js exports the rows'
calls as JSON ({api: {"fn": "tf.math.reduce_sum", "cases": "reduce", "params": ["x", ["axis", null], ["keep",
false]], "keywords": {"axis": "axis", "keepdims": "keep"}, "extra": [...]}}); each becomes an entry of `harness_ops()`:
TF's function found by its module path, called with ef's positional arguments (or, with `params`, those named and
defaulted and passed to TF by `keywords`, and an options object's entries by `options`), or a row's `expr` (a Python lambda over `tf` and `opt`, where TF's form
is a small expression; the row says why), on the shared case set of table.py the row names plus the row's own
cases (`extra`: tensors as {"tensor", "dtype", "shape"}, lists of tensors as {"tensors": [...]}, numbers JSON
cannot hold as {"num": "nan" | "inf" | "-inf" | "-0"}, integral floats as {"float": 1}, options objects as dicts).
"""
import json
import os
import subprocess
import tempfile

import tensorflow as tf

from table import C, L, T, binary_cases, reduce_cases, unary_cases

HERE = os.path.dirname(os.path.abspath(__file__))
CASE_SETS = {
    "unary": lambda: unary_cases(False),
    "arith": lambda: binary_cases("arith"),
    "compare": lambda: binary_cases("compare"),
    "logic": lambda: binary_cases("logic"),
    "reduce": lambda: reduce_cases(None),
    "none": lambda: [],
}
NUMS = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf"), "-0": -0.0}


def tf_function(path):
    """TF's function by its module path ('tf.math.exp')."""
    head, *rest = path.split(".")
    if head != "tf" or not rest:
        raise ValueError(f"harness row: TF call {path!r} is not a path under tf (e.g. 'tf.math.exp')")
    fn = tf
    for part in rest:
        fn = getattr(fn, part)
    return fn


def literal(v):
    """A JSON literal with {"num": ...} for the numbers JSON cannot hold and {"float": n} for an integral float."""
    if isinstance(v, dict) and set(v) == {"num"}:
        return NUMS[v["num"]]
    if isinstance(v, dict) and set(v) == {"float"}:
        return float(literal(v["float"]))
    if isinstance(v, list):
        return [literal(x) for x in v]
    if isinstance(v, dict):
        return {k: literal(x) for k, x in v.items()}
    return v


def argument(a):
    if isinstance(a, dict) and "tensor" in a:
        return T(literal(a["tensor"]), a.get("dtype") or "float32", a.get("shape"))
    if isinstance(a, dict) and "tensors" in a:
        return L(*[argument(t) for t in a["tensors"]])
    return literal(a)


def opt(o, key, default):
    """An ef options object's entry (TF's keyword argument), or its default."""
    return o.get(key, default) if isinstance(o, dict) else default


def expression(api, source):
    """A row's `expr`: a Python lambda over tf and opt."""
    fn = eval(source, {"tf": tf, "opt": opt, "__builtins__": __builtins__})  # noqa: S307 - the committed rows' own text
    if not callable(fn):
        raise ValueError(f"harness row {api}: expr {source!r} is not a lambda")
    return fn


def own_case(c):
    return C(c["name"], *[argument(a) for a in c["args"]], grad=c.get("grad", True), tags=tuple(c.get("tags", ())))


def caller(fn, params, keywords, options=None):
    """ef's positional arguments -> TF's call: named parameters with defaults; `keywords` maps TF keyword <- parameter;
    `options` maps TF keyword <- [key, default] of ef's trailing options object (the argument after the parameters)."""
    names = [p if isinstance(p, str) else p[0] for p in params]
    defaults = {p[0]: literal(p[1]) for p in params if not isinstance(p, str)}
    by_keyword = set(keywords.values())
    from_options = {k: (key, literal(d)) for k, (key, d) in (options or {}).items()}

    def call(*args):
        if len(args) > len(names) + (1 if from_options else 0):
            raise TypeError(f"{len(args)} arguments for parameters {names}" + (" and an options object" if from_options else ""))
        bound = {**defaults, **dict(zip(names, args))}
        o = args[len(names)] if from_options and len(args) > len(names) else {}
        positional = [bound[n] for n in names if n not in by_keyword]
        kw = {k: bound[p] for k, p in keywords.items()}
        kw.update({k: opt(o, key, d) for k, (key, d) in from_options.items()})
        return fn(*positional, **kw)

    return call


def exported_calls():
    """Runs export_rows.js (node) and returns its JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        subprocess.run(["node", os.path.join(HERE, "export_rows.js"), out], check=True)
        with open(out) as f:
            return json.load(f)


def harness_ops(calls=None):
    """api -> (TF function, cases, the exported call it came from)."""
    calls = exported_calls() if calls is None else calls
    ops = {}
    for api, call in calls.items():
        if call["cases"] not in CASE_SETS:
            raise ValueError(f"harness row {api}: unknown case set {call['cases']!r} (one of {sorted(CASE_SETS)})")
        if "expr" in call:
            fn = expression(api, call["expr"])
        else:
            fn = tf_function(call["fn"])
        if "params" in call:
            fn = caller(fn, call["params"], call.get("keywords", {}), call.get("options"))
        ops[api] = (fn, CASE_SETS[call["cases"]]() + [own_case(c) for c in call.get("extra", [])], call)
    return ops
