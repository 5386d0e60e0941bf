"""TensorFlow 2.21 reads the files EagerFlow wrote (TFRecords none/GZIP/ZLIB, Examples, SequenceExamples, serialized
tensors) and writes its verdict, packages/saving/test/fixtures/tfrecord/tf_reads_ef.json: each file's sha256 (so the
jest test can tell the verdict is current), the records TF read, TF's parse_example / parse_sequence_example of
EagerFlow's examples (with the specs of tfrecord_files.py) and the tensors tf.io.parse_tensor read.

First: EF_WRITE_TF_INPUTS=1 npx jest packages/eagerflow/test/io/tf_reads_ef.test.ts (writes ef_written/), then
/work/main/.venv-tf/bin/python scripts/tf-golden/tf_reads_ef_records.py
"""
import hashlib
import json
import os

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')
import tensorflow as tf  # noqa: E402

from tfrecord_files import CONTEXT_SPECS, SEQUENCE_SPECS, SPECS, describe, hostd, tf_spec  # noqa: E402

FIX = os.path.join(os.path.dirname(__file__), '..', '..', 'packages', 'saving', 'test', 'fixtures', 'tfrecord')
IN = os.path.join(FIX, 'ef_written')


def main():
    names = sorted(os.listdir(IN))
    sha = {n: hashlib.sha256(open(os.path.join(IN, n), 'rb').read()).hexdigest() for n in names}
    records = {}
    for kind, comp in [('none', ''), ('gzip', 'GZIP'), ('zlib', 'ZLIB')]:
        records[kind] = [describe(t.numpy()) for t in tf.data.TFRecordDataset(os.path.join(IN, f'records.{kind}.tfrecord'), compression_type=comp)]
    examples = [t.numpy() for t in tf.data.TFRecordDataset(os.path.join(IN, 'examples.gzip.tfrecord'), compression_type='GZIP')]
    parsed = hostd(tf.io.parse_example(tf.constant(examples), {k: tf_spec(v) for k, v in SPECS.items()}))
    seqs = [t.numpy() for t in tf.data.TFRecordDataset(os.path.join(IN, 'sequence_examples.tfrecord'))]
    ctx, fl, lengths = tf.io.parse_sequence_example(tf.constant(seqs), context_features={k: tf_spec(v) for k, v in CONTEXT_SPECS.items()}, sequence_features={k: tf_spec(v) for k, v in SEQUENCE_SPECS.items()})
    tensors = []
    for rec, dtype in zip(tf.data.TFRecordDataset(os.path.join(IN, 'tensors.tfrecord')), [tf.float32, tf.int32, tf.bool, tf.string]):
        t = tf.io.parse_tensor(rec, dtype)
        v = t.numpy()
        tensors.append({'dtype': dtype.name, 'value': [x.hex() for x in v.tolist()] if dtype == tf.string else v.tolist()})
    out = {'tf': tf.__version__, 'sha256': sha, 'records': records, 'parse_example': parsed, 'parse_sequence_example': [hostd(ctx), hostd(fl), hostd(lengths)], 'tensors': tensors}
    with open(os.path.join(FIX, 'tf_reads_ef.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
