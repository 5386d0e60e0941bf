"""TensorFlow 2.21 writes TFRecord files (no compression, GZIP, ZLIB) for EagerFlow's record tests.

Writes packages/saving/test/fixtures/tfrecord/records.{none,gzip,zlib}.tfrecord (raw byte records) and
records.json (each record as hex, or its length and sha256 when long, in order). Run: /work/main/.venv-tf/bin/python scripts/tf-golden/tfrecord_files.py
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


if __name__ == '__main__':
    write_records()
