"""TensorFlow 2.21's string ops for ef.strings and string ef.add: join, split, length, substr, toNumber,
regexReplace, toHashBucketFast (FarmHash Fingerprint64), unicodeDecode, lower/upper, and their errors.

Writes packages/eagerflow/test/fixtures/tf_strings.json, read by packages/eagerflow/test/strings.test.ts.
Run: /work/main/.venv-tf/bin/python scripts/tf-golden/strings.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from encode import err  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "../../packages/eagerflow/test/fixtures/tf_strings.json")


def enc(t):
    """A tensor (or numpy value) as {dtype, shape, data}; bytes as lists of byte values (exact, any UTF-8)."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype == object:
        return {"dtype": "string", "shape": list(a.shape), "data": [list(x) for x in a.reshape(-1)]}
    kind = "int32" if a.dtype.kind in "iu" else "bool" if a.dtype == np.bool_ else "float32"
    data = [x if kind != "float32" or np.isfinite(x) else str(x) for x in a.reshape(-1).tolist()]
    return {"dtype": kind, "shape": list(a.shape), "data": data}


def sparse(s):
    return {"indices": enc(s.indices), "values": enc(s.values), "denseShape": enc(s.dense_shape)}



WORDS = ["hello", "", "héllo wörld", "a,b,,c", "  lead and trail  ", "日本語"]


def main():
    s = tf.constant(WORDS)
    col = tf.constant([["x"], ["y"]])
    row = tf.constant(["1", "2", "3"])
    out = {"tf": tf.__version__, "words": WORDS}
    out["add"] = {
        "same": enc(tf.add(s, tf.constant("!"))),
        "broadcast": enc(tf.add(col, row)),
        "scalarFirst": enc(tf.add(tf.constant("<"), row)),
        "badShapes": err(lambda: tf.add(tf.constant(["a", "b"]), tf.constant(["a", "b", "c"]))),
    }
    out["join"] = {
        "two": enc(tf.strings.join([row, tf.constant(["a", "b", "c"])], separator="-")),
        "scalar": enc(tf.strings.join([tf.constant("p"), row, tf.constant("s")])),
        "badShapes": err(lambda: tf.strings.join([tf.constant(["a", "b"]), tf.constant(["a", "b", "c"])])),
    }
    out["length"] = {"BYTE": enc(tf.strings.length(s)), "UTF8_CHAR": enc(tf.strings.length(s, unit="UTF8_CHAR")),
                     "badUnit": err(lambda: tf.strings.length(s, unit="CHAR")),
                     "nonString": err(lambda: tf.strings.length(tf.constant([1, 2])))}
    sub = tf.constant(["hello", "héllo", "日本語", "ab"])
    out["substr"] = {
        "BYTE": enc(tf.strings.substr(sub, 1, 3)),
        "UTF8_CHAR": enc(tf.strings.substr(sub, 1, 2, unit="UTF8_CHAR")),
        "negPos": enc(tf.strings.substr(sub, -2, 5)),
        "negPosChar": enc(tf.strings.substr(sub, -2, 1, unit="UTF8_CHAR")),
        "posVec": enc(tf.strings.substr(sub, [0, 1, 2, 0], [1, 2, 3, 9], unit="UTF8_CHAR")),
        "broadcast": enc(tf.strings.substr(tf.constant(["abcdef", "ghijkl"]), tf.constant([[0], [2]]), tf.constant([[1], [3]]))),
        "posLenShapes": err(lambda: tf.strings.substr(tf.constant(["abcdef", "ghijkl"]), tf.constant([[0], [2]]), tf.constant([1, 2]))),
        "posAtEnd": enc(tf.strings.substr(tf.constant(["abc"]), 3, 2)),
        "posPastEnd": err(lambda: tf.strings.substr(tf.constant(["abc"]), 4, 1)),
        "negLen": err(lambda: tf.strings.substr(tf.constant(["abc"]), 0, -1)),
    }
    nums = ["1.5", "-2", "1e3", "  7", "inf", "-0", "0x10", "3.4028236e38"]
    out["toNumber"] = {
        "inputs": nums,
        "float32": enc(tf.strings.to_number(tf.constant(nums))),
        "int32": enc(tf.strings.to_number(tf.constant(["12", "-3", " 4 ", "+5"]), out_type=tf.int32)),
        "intBad": err(lambda: tf.strings.to_number(tf.constant(["1.5"]), out_type=tf.int32)),
        "floatBad": err(lambda: tf.strings.to_number(tf.constant(["abc"]))),
        "intOverflow": err(lambda: tf.strings.to_number(tf.constant(["3000000000"]), out_type=tf.int32)),
    }
    rx = tf.constant(["aaa bbb", "foo123bar45", "héllo"])
    out["regexReplace"] = {
        "global": enc(tf.strings.regex_replace(rx, "[0-9]+", "#")),
        "first": enc(tf.strings.regex_replace(rx, "[a-z]", "_", replace_global=False)),
        "groups": enc(tf.strings.regex_replace(rx, r"(\w+) (\w+)", r"\2 \1")),
        "wholeMatch": enc(tf.strings.regex_replace(rx, r"o+", r"<\0>")),
        "unicode": enc(tf.strings.regex_replace(rx, "é", "e")),
        "dot": enc(tf.strings.regex_replace(rx, "h.l", "X")),
        "badPattern": err(lambda: tf.strings.regex_replace(rx, "(", "x")),
    }
    hb = tf.constant(["", "a", "hello", "héllo wörld", "TensorFlow", "日本語", "x" * 100])
    out["toHashBucketFast"] = {"inputs": enc(hb), "b1000": enc(tf.strings.to_hash_bucket_fast(hb, 1000)),
                               "b2e31m1": enc(tf.strings.to_hash_bucket_fast(hb, 2**31 - 1)),
                               "b1": enc(tf.strings.to_hash_bucket_fast(hb, 1)),
                               "zeroBuckets": err(lambda: tf.strings.to_hash_bucket_fast(hb, 0))}
    out["split"] = {
        "scalarWs": enc(tf.strings.split(tf.constant("  a b  c "))),
        "scalarSep": enc(tf.strings.split(tf.constant("a,b,,c"), sep=",")),
        "scalarMax": enc(tf.strings.split(tf.constant("a,b,,c"), sep=",", maxsplit=2)),
        "vecWs": sparse(tf.compat.v1.strings.split(tf.constant(["a b", "", " c  d e"]), result_type="SparseTensor")),
        "vecSep": sparse(tf.compat.v1.strings.split(tf.constant(["a,b", "", ",c,"]), sep=",", result_type="SparseTensor")),
        "vecSepRagged": tf.strings.split(tf.constant(["a,b", "", ",c,"]), sep=",").to_list(),
        "multiCharSep": enc(tf.strings.split(tf.constant("a<>b<>c"), sep="<>")),
        "emptySep": err(lambda: tf.strings.split(tf.constant("abc"), sep="")),
    }
    out["split"]["vecSepRagged"] = [[list(x) for x in r] for r in out["split"]["vecSepRagged"]]
    bad = b"ab\xffc"
    out["unicodeDecode"] = {
        "scalar": enc(tf.strings.unicode_decode(tf.constant("héllo 日本"), "UTF-8")),
        "vec": sparse(tf.strings.unicode_decode(tf.constant(["hé", "", "日本語"]), "UTF-8").to_sparse()),
        "replace": enc(tf.strings.unicode_decode(tf.constant(bad), "UTF-8")),
        "ignore": enc(tf.strings.unicode_decode(tf.constant(bad), "UTF-8", errors="ignore")),
        "strict": err(lambda: tf.strings.unicode_decode(tf.constant(bad), "UTF-8", errors="strict")),
        "badEncoding": err(lambda: tf.strings.unicode_decode(tf.constant("a"), "LATIN-9")),
    }
    out["lowerUpper"] = {
        "lower": enc(tf.strings.lower(tf.constant(["HeLLo", "ÉCOLE", "ÀB"]))),
        "upper": enc(tf.strings.upper(tf.constant(["HeLLo", "école", "àb"]))),
        "lowerUtf8": enc(tf.strings.lower(tf.constant(["HeLLo", "ÉCOLE", "ÀB"]), encoding="utf-8")),
        "upperUtf8": enc(tf.strings.upper(tf.constant(["HeLLo", "école", "àb"]), encoding="utf-8")),
    }
    out["invalidUtf8Length"] = enc(tf.strings.length(tf.constant([bad]), unit="UTF8_CHAR"))

    @tf.function
    def traced(x):
        return tf.strings.length(tf.strings.join([x, tf.strings.substr(x, 0, 2)], separator="|"), unit="UTF8_CHAR")
    out["traced"] = enc(traced(tf.constant(["héllo", "ab"])))
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
