"""TF 2.21 reads what EagerFlow wrote (issue 29, API.md section 16), and records the results.

    EF_UPDATE_FIXTURES=1 npx jest packages/eagerflow/test/saving/ef_files.test.ts   # EagerFlow writes the files
    /work/main/.venv-tf/bin/python scripts/tf-files/tf_reads_ef.py                 # TF loads them, checks, records

Writes packages/saving/test/fixtures/ef_files/tf_results.json: the SHA-256 of every file TF read (the jest test
checks they are the files the writers produce now) and one entry per check with ok/detail. Exits non-zero if a
check failed.
"""
import hashlib
import json
import os
import subprocess
import sys
import traceback

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
DIR = os.path.join(ROOT, 'packages', 'saving', 'test', 'fixtures', 'ef_files')
checks = []


def check(name):
    def wrap(fn):
        try:
            detail = fn()
            checks.append({'name': name, 'ok': True, 'detail': detail})
        except Exception as e:  # noqa: BLE001 - every failure is recorded
            checks.append({'name': name, 'ok': False, 'detail': f'{type(e).__name__}: {e}', 'trace': traceback.format_exc()[-2000:]})
        return fn
    return wrap


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name):
        super().__init__(name=name)
        self.w = tf.Variable(tf.zeros([n_in, n_out]))
        self.b = tf.Variable(tf.zeros([n_out]))


class Net(tf.Module):
    def __init__(self):
        super().__init__(name='net')
        self.layers = [Dense(3, 2, 'd0'), Dense(2, 1, 'd1')]
        self.extras = {'count': tf.Variable(0, dtype=tf.int32), 'flag': tf.Variable([False, False])}
        self.label = tf.Variable('')
        self.frozen = tf.Variable([0.0, 0.0], trainable=False)


@check('checkpoint: tf.train.latest_checkpoint, restore(...).assert_consumed(), values')
def _ckpt():
    d = os.path.join(DIR, 'ckpt')
    latest = tf.train.latest_checkpoint(d)
    assert latest is not None and latest.endswith('ckpt-2'), latest
    net = Net()
    step = tf.Variable(0)
    ckpt = tf.train.Checkpoint(model=net, step=step)
    ckpt.restore(latest).assert_consumed()
    got = {
        'w0': net.layers[0].w.numpy().tolist(), 'b0': net.layers[0].b.numpy().tolist(), 'w1': net.layers[1].w.numpy().tolist(),
        'count': int(net.extras['count'].numpy()), 'flag': net.extras['flag'].numpy().tolist(), 'label': net.label.numpy().decode(),
        'frozen': net.frozen.numpy().tolist(), 'step': int(step.numpy()), 'save_counter': int(ckpt.save_counter.numpy()),
    }
    want = {'w0': [[1, 2], [3, 4], [5, 6]], 'b0': [0.5, -0.5], 'w1': [[1], [-1]], 'count': 8, 'flag': [True, False], 'label': 'héllo',
            'frozen': [0.25, 0.75], 'step': 3, 'save_counter': 2}
    assert got == want, got
    # The older checkpoint too, and the reader's view of every key.
    ckpt.restore(os.path.join(d, 'ckpt-1')).assert_consumed()
    assert int(net.extras['count'].numpy()) == 7
    reader = tf.train.load_checkpoint(latest)
    return sorted(reader.get_variable_to_shape_map())


def main():
    hashes = {}
    for base, _, files in os.walk(DIR):
        for f in files:
            if f == 'tf_results.json':
                continue
            p = os.path.join(base, f)
            with open(p, 'rb') as fh:
                hashes[os.path.relpath(p, DIR)] = hashlib.sha256(fh.read()).hexdigest()
    out = {'tf_version': tf.__version__, 'hashes': dict(sorted(hashes.items())), 'checks': checks}
    with open(os.path.join(DIR, 'tf_results.json'), 'w') as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write('\n')
    bad = [c for c in checks if not c['ok']]
    for c in checks:
        print('ok  ' if c['ok'] else 'FAIL', c['name'], '' if c['ok'] else c['detail'])
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
