"""TF 2.21's own event files for a fixed set of summaries: the fixture ef.summary's writer is compared with.

Writes packages/eagerflow/test/summary/fixtures/tf_events.json: for each call, its inputs (so the jest test
makes the same call with ef.summary) and the Event TF wrote for it (MessageToDict, bytes as base64,
wall_time dropped), plus TF's file name pattern and its first (file_version) event.

Run: /work/main/.venv-tf/bin/python scripts/tf-golden/summary_events.py
"""
import base64
import json
import os
import tempfile

import numpy as np
import tensorflow as tf
from google.protobuf.json_format import MessageToDict
from tensorflow.core.util import event_pb2

rng = np.random.default_rng(30)
HIST = rng.normal(0.5, 2.0, size=200).astype(np.float32)
IMG_F = rng.uniform(-0.2, 1.2, size=(2, 3, 4, 3)).astype(np.float32)
IMG_U8 = rng.integers(0, 256, size=(1, 2, 3, 1)).astype(np.uint8)
IMG_RGBA = rng.integers(0, 256, size=(1, 2, 2, 4)).astype(np.uint8)
AUDIO = rng.uniform(-1.3, 1.3, size=(2, 10, 1)).astype(np.float32)
STEREO = rng.uniform(-1, 1, size=(1, 5, 2)).astype(np.float32)

# (kind, name, data, dtype, kwargs): dtype is the ef dtype of the data ('int32' images stand for TF's uint8).
CALLS = [
    ('scalar', 'loss', 0.5, 'float32', {'step': 1}),
    ('scalar', 'loss', 0.25, 'float32', {'step': 2}),
    ('scalar', 'train/count', 7, 'int32', {'step': 3}),
    ('scalar', 'described', 1.5, 'float32', {'step': 3, 'description': 'Loss of the **training** set'}),
    ('histogram', 'described_h', np.array([1.0, 2.0], np.float32), 'float32', {'step': 3, 'description': 'weights'}),
    ('histogram', 'weights', HIST, 'float32', {'step': 4}),
    ('histogram', 'weights_7', HIST, 'float32', {'step': 5, 'buckets': 7}),
    ('histogram', 'ints', np.array([[1, 2], [2, 9]], np.int32), 'int32', {'step': 6}),
    ('histogram', 'single', np.array([3.0, 3.0, 3.0], np.float32), 'float32', {'step': 7}),
    ('histogram', 'empty', np.zeros([0], np.float32), 'float32', {'step': 8}),
    ('image', 'img', IMG_F, 'float32', {'step': 9}),
    ('image', 'img_one', IMG_F, 'float32', {'step': 10, 'max_outputs': 1}),
    ('image', 'gray', IMG_U8, 'int32', {'step': 11}),
    ('image', 'rgba', IMG_RGBA, 'int32', {'step': 12}),
    ('text', 'note', 'hello, TensorBoard', 'string', {'step': 13}),
    ('text', 'table', np.array([['a', 'b'], ['c', 'd\u00e9']]), 'string', {'step': 14}),
    ('audio', 'tone', AUDIO, 'float32', {'step': 15, 'sample_rate': 16000}),
    ('audio', 'tone_one', AUDIO, 'float32', {'step': 16, 'sample_rate': 8000, 'max_outputs': 1}),
    ('audio', 'stereo', STEREO, 'float32', {'step': 17, 'sample_rate': 44100}),
]


def plain(x):
    if isinstance(x, np.ndarray):
        if x.dtype.kind == 'U':
            return x.tolist()
        return x.astype(np.float64 if x.dtype.kind == 'f' else np.int64).tolist()
    return x


def main():
    logdir = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
        for kind, name, data, _, kw in CALLS:
            getattr(tf.summary, kind)(name, data, **kw)
    writer.close()
    [fname] = os.listdir(logdir)
    events = []
    for rec in tf.data.TFRecordDataset(os.path.join(logdir, fname)):
        e = event_pb2.Event.FromString(rec.numpy())
        d = MessageToDict(e, preserving_proto_field_name=True)
        d.pop('wall_time', None)
        events.append({'event': d, 'bytes': base64.b64encode(_without_wall_time(e)).decode()})
    out = {
        'tf_version': tf.__version__,
        'file_name': fname.split('.', 4)[:3] + ['<time>.<host>.<pid>.<n>'] + [fname.rsplit('.', 1)[-1]],
        'calls': [{'kind': k, 'name': n, 'data': plain(d), 'dtype': t, 'shape': list(np.shape(d)), 'options': kw}
                  for k, n, d, t, kw in CALLS],
        'events': events,
    }
    dest = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'packages', 'eagerflow', 'test',
                        'summary', 'fixtures', 'tf_events.json')
    with open(dest, 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print('wrote', dest, len(events), 'events')


def _without_wall_time(e):
    c = event_pb2.Event()
    c.CopyFrom(e)
    c.ClearField('wall_time')
    return c.SerializeToString()


if __name__ == '__main__':
    main()
