"""HARNESS_OPS: the ops whose TF call lives on their harness case rows (test/harness, ForwardCase.tfCall).

export_rows.js exports the rows' calls as JSON ({api: {"fn": "tf.math.exp", "cases": "unary"}}); each becomes an
OPS entry: TF's function found by its module path, run on the shared case set of table.py the row names. A row
that carries its call is the op's only row: its entry must not also be in the Python tables (ops.py checks).
"""
import json
import os
import subprocess
import tempfile

import tensorflow as tf

from table import binary_cases, unary_cases

HERE = os.path.dirname(os.path.abspath(__file__))
CASE_SETS = {
    "unary": lambda: unary_cases(False),
    "arith": lambda: binary_cases("arith"),
    "compare": lambda: binary_cases("compare"),
    "logic": lambda: binary_cases("logic"),
}


def tf_function(path):
    """TF's function by its module path ('tf.math.exp')."""
    head, *rest = path.split(".")
    if head != "tf" or not rest:
        raise ValueError(f"harness row: TF call {path!r} is not a path under tf (e.g. 'tf.math.exp')")
    fn = tf
    for part in rest:
        fn = getattr(fn, part)
    return fn


def exported_calls():
    """Runs export_rows.js (node) and returns its JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        subprocess.run(["node", os.path.join(HERE, "export_rows.js"), out], check=True)
        with open(out) as f:
            return json.load(f)


def harness_ops(calls=None):
    calls = exported_calls() if calls is None else calls
    ops = {}
    for api, call in calls.items():
        if call["cases"] not in CASE_SETS:
            raise ValueError(f"harness row {api}: unknown case set {call['cases']!r} (one of {sorted(CASE_SETS)})")
        ops[api] = (tf_function(call["fn"]), CASE_SETS[call["cases"]]())
    return ops
