"""TensorFlow 2.21 writes TFRecord files (no compression, GZIP, ZLIB) for EagerFlow's record and Example tests.

Writes into packages/saving/test/fixtures/tfrecord/:
- records.{none,gzip,zlib}.tfrecord (raw byte records) and records.json (each record as hex, or its length and
  sha256 when long, in order);
- examples.{none,gzip,zlib}.tfrecord (tf.train.Examples) and sequence_examples.tfrecord (SequenceExamples), with
  examples.json: the examples' contents, the feature specs, each example's deterministic serialization (hex) and
  TF's tf.io.parse_example / parse_single_example / parse_sequence_example / parse_single_sequence_example results.
Run: /work/main/.venv-tf/bin/python scripts/tf-golden/tfrecord_files.py
"""
import hashlib
import json
import os

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'packages', 'saving', 'test', 'fixtures', 'tfrecord')

# Records of varied lengths: empty, one byte, all byte values, text, a record longer than 64 KiB.
RECORDS = [b'', b'\x00', bytes(range(256)), 'héllo tfrecord'.encode('utf-8'), bytes((i * 7 + 3) % 251 for i in range(70000))]
COMPRESSIONS = {'none': '', 'gzip': 'GZIP', 'zlib': 'ZLIB'}


def describe(r):
    return r.hex() if len(r) <= 1024 else {'length': len(r), 'sha256': hashlib.sha256(r).hexdigest()}


def write_records():
    os.makedirs(OUT, exist_ok=True)
    for name, kind in COMPRESSIONS.items():
        path = os.path.join(OUT, f'records.{name}.tfrecord')
        with tf.io.TFRecordWriter(path, options=tf.io.TFRecordOptions(compression_type=kind)) as w:
            for r in RECORDS:
                w.write(r)
        back = [t.numpy() for t in tf.data.TFRecordDataset(path, compression_type=kind)]
        assert back == RECORDS, name
    with open(os.path.join(OUT, 'records.json'), 'w') as f:
        json.dump({'tf': tf.__version__, 'records': [describe(r) for r in RECORDS], 'files': {k: f'records.{k}.tfrecord' for k in COMPRESSIONS}}, f, indent=1)
        f.write('\n')


# Examples as plain content: name -> (kind, values); bytes values as hex strings.
EXAMPLES = [
    {'x': ('float', [1.5, -2.0]), 'id': ('int64', [7]), 'tags': ('bytes', ['61', '6263']), 'seq': ('float', [1, 2, 3, 4]), 'big': ('int64', [2147483647])},
    {'x': ('float', [0.25, 3.0]), 'id': ('int64', [-3]), 'tags': ('bytes', []), 'seq': ('float', [5, 6])},
    {'x': ('float', [1.0, 1.0]), 'tags': ('bytes', ['ff00']), 'big': ('int64', [-2147483648])},
]
# Specs: [kind, shape, dtype, options]
SPECS = {
    'x': ['FixedLenFeature', [2], 'float32', {}],
    'id': ['FixedLenFeature', [], 'int64', {'defaultValue': -1}],
    'tags': ['VarLenFeature', None, 'string', {}],
    'seq': ['FixedLenSequenceFeature', [2], 'float32', {'allowMissing': True}],
    'big': ['FixedLenFeature', [], 'int64', {'defaultValue': 0}],
}
SEQUENCE_EXAMPLES = [
    {'context': {'label': ('int64', [1]), 'weight': ('float', [0.5])},
     'lists': {'tok': [('int64', [4]), ('int64', [5]), ('int64', [6])], 'emb': [('float', [1, 2]), ('float', [3, 4])], 'words': [('bytes', ['61']), ('bytes', ['62', '63'])]}},
    {'context': {'label': ('int64', [0])},
     'lists': {'tok': [('int64', [9])], 'words': [('bytes', [])]}},
]
CONTEXT_SPECS = {
    'label': ['FixedLenFeature', [], 'int64', {}],
    'weight': ['FixedLenFeature', [], 'float32', {'defaultValue': 1.0}],
}
SEQUENCE_SPECS = {
    'tok': ['FixedLenSequenceFeature', [], 'int64', {}],
    'emb': ['FixedLenSequenceFeature', [2], 'float32', {'allowMissing': True}],
    'words': ['VarLenFeature', None, 'string', {}],
}


def feature(kind, values):
    if kind == 'float':
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    if kind == 'int64':
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[bytes.fromhex(v) for v in values]))


def example(content):
    return tf.train.Example(features=tf.train.Features(feature={k: feature(*v) for k, v in content.items()}))


def sequence_example(content):
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: feature(*v) for k, v in content['context'].items()}),
        feature_lists=tf.train.FeatureLists(feature_list={k: tf.train.FeatureList(feature=[feature(*f) for f in fs]) for k, fs in content['lists'].items()}))


def tf_spec(s):
    kind, shape, dtype, opts = s
    dt = {'float32': tf.float32, 'int64': tf.int64, 'string': tf.string}[dtype]
    if kind == 'FixedLenFeature':
        return tf.io.FixedLenFeature(shape, dt, default_value=opts.get('defaultValue'))
    if kind == 'FixedLenSequenceFeature':
        return tf.io.FixedLenSequenceFeature(shape, dt, allow_missing=opts.get('allowMissing', False), default_value=opts.get('defaultValue'))
    return tf.io.VarLenFeature(dt)


def host(t):
    if isinstance(t, tf.SparseTensor):
        return {'indices': t.indices.numpy().tolist(), 'values': host(t.values), 'dense_shape': t.dense_shape.numpy().tolist()}
    a = t.numpy()
    if t.dtype == tf.string:
        return _hex(a.tolist())
    return a.tolist()


def _hex(v):
    return [_hex(x) for x in v] if isinstance(v, list) else v.hex()


def hostd(d):
    return {k: host(v) for k, v in sorted(d.items())}


def write_examples():
    exs = [example(c) for c in EXAMPLES]
    ser = [e.SerializeToString(deterministic=True) for e in exs]
    for name, kind in COMPRESSIONS.items():
        path = os.path.join(OUT, f'examples.{name}.tfrecord')
        with tf.io.TFRecordWriter(path, options=tf.io.TFRecordOptions(compression_type=kind)) as w:
            for s in ser:
                w.write(s)
    specs = {k: tf_spec(v) for k, v in SPECS.items()}
    single_specs = {k: v for k, v in specs.items()}
    batch = tf.io.parse_example(tf.constant(ser), specs)
    singles = [hostd(tf.io.parse_single_example(s, single_specs)) for s in ser]
    seqs = [sequence_example(c) for c in SEQUENCE_EXAMPLES]
    seq_ser = [e.SerializeToString(deterministic=True) for e in seqs]
    with tf.io.TFRecordWriter(os.path.join(OUT, 'sequence_examples.tfrecord')) as w:
        for s in seq_ser:
            w.write(s)
    ctx_specs = {k: tf_spec(v) for k, v in CONTEXT_SPECS.items()}
    seq_specs = {k: tf_spec(v) for k, v in SEQUENCE_SPECS.items()}
    ctx, fl, lengths = tf.io.parse_sequence_example(tf.constant(seq_ser), context_features=ctx_specs, sequence_features=seq_specs)
    single_seq = []
    for s in seq_ser:
        c, f = tf.io.parse_single_sequence_example(s, context_features=ctx_specs, sequence_features=seq_specs)
        single_seq.append([hostd(c), hostd(f)])
    out = {
        'tf': tf.__version__,
        'examples': EXAMPLES, 'specs': SPECS, 'serialized': [s.hex() for s in ser],
        'parse_example': hostd(batch), 'parse_single_example': singles,
        'sequence_examples': SEQUENCE_EXAMPLES, 'context_specs': CONTEXT_SPECS, 'sequence_specs': SEQUENCE_SPECS,
        'sequence_serialized': [s.hex() for s in seq_ser],
        'parse_sequence_example': [hostd(ctx), hostd(fl), hostd(lengths)],
        'parse_single_sequence_example': single_seq,
    }
    with open(os.path.join(OUT, 'examples.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    write_records()
    write_examples()
