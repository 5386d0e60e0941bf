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


def cli(*args):
    exe = os.path.join(os.path.dirname(sys.executable), 'saved_model_cli')
    r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, env={**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3'})
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


@check('SavedModel (Module, one signature): tf.saved_model.load, signature and restored function results, variables')
def _affine():
    d = os.path.join(DIR, 'sm_affine')
    loaded = tf.saved_model.load(d)
    w = np.array([[1, -1], [0.5, 2], [0, 1]], np.float32)
    b = np.array([0.1, -0.2], np.float32)
    x = np.array([[1, 2, 3], [-1, 0, 4]], np.float32)
    want = np.maximum(x @ w + b, 0)
    out = loaded.signatures['serving_default'](x=tf.constant(x))
    assert list(out) == ['output_0'], list(out)
    np.testing.assert_allclose(out['output_0'].numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(loaded.call(tf.constant(x)).numpy(), want, rtol=1e-6)
    np.testing.assert_array_equal(loaded.w.numpy(), w)
    # The variables are live: assigning changes the signature's result.
    loaded.b.assign([0.0, 0.0])
    np.testing.assert_allclose(loaded.signatures['serving_default'](x=tf.constant(x))['output_0'].numpy(), np.maximum(x @ w, 0), rtol=1e-6)
    return {'output_0': out['output_0'].numpy().tolist()}


@check('saved_model_cli show --all lists serving_default, tensorflow/serving/predict, TF input/output names')
def _show():
    text = cli('show', '--all', '--dir', os.path.join(DIR, 'sm_affine'))
    for want in ["signature_def['serving_default']:", "inputs['x'] tensor_info:", "outputs['output_0'] tensor_info:", 'Method name is: tensorflow/serving/predict', 'name: serving_default_x:0', 'shape: (-1, 3)']:
        assert want in text, (want, text)
    return text.splitlines()


@check('saved_model_cli run (the TF1 session loader that TF Serving uses: saver restore, signature tensors)')
def _run():
    text = cli('run', '--dir', os.path.join(DIR, 'sm_affine'), '--tag_set', 'serve', '--signature_def', 'serving_default', '--input_exprs', 'x=[[1,2,3],[-1,0,4]]')
    assert 'output_0' in text, text
    nums = [float(t) for t in text.replace('[', ' ').replace(']', ' ').split() if t.replace('.', '', 1).replace('-', '', 1).replace('e', '', 1).isdigit()]
    np.testing.assert_allclose(nums[-4:], [2.1, 5.8, 0.0, 4.8], rtol=1e-5)
    return text.splitlines()[-6:]


@check('SavedModel (two signatures + a loop signature, a non-signature function, a stateful counter)')
def _multi():
    d = os.path.join(DIR, 'sm_multi')
    loaded = tf.saved_model.load(d)
    assert sorted(loaded.signatures) == ['loop', 'scale', 'serving_default'], sorted(loaded.signatures)
    a = tf.constant([1.0, 2.0])
    b = tf.constant([3.0, -1.0])
    r1 = loaded.signatures['serving_default'](a=a, b=b)
    r2 = loaded.signatures['serving_default'](a=a, b=b)
    assert sorted(r1) == ['calls', 'prod', 'sum'], sorted(r1)
    np.testing.assert_allclose(r1['sum'].numpy(), [4, 1])
    np.testing.assert_allclose(r1['prod'].numpy(), [9, -6])
    assert int(r1['calls'].numpy()) == 1 and int(r2['calls'].numpy()) == 2, (r1['calls'], r2['calls'])
    assert int(loaded.count.numpy()) == 2
    np.testing.assert_allclose(loaded.signatures['scale'](x=a)['output_0'].numpy(), [3, 6])
    np.testing.assert_allclose(loaded.helper(tf.constant([1.0, 2.0])).numpy(), [-2, 1])
    acc = np.array([1.0, 2.0], np.float32)
    for _ in range(4):
        acc = acc * 0.5 if acc.sum() > 10 else acc * 2 + 1
    np.testing.assert_allclose(loaded.signatures['loop'](x=a, n=tf.constant(4))['output_0'].numpy(), acc)
    # The loop body reads the live variable k (threaded into the While/If bodies as a resource), not a copy.
    loaded.k.assign(6.0)
    acc6 = np.array([1.0, 2.0], np.float32)
    for _ in range(4):
        acc6 = acc6 * 0.5 if acc6.sum() > 10 else acc6 * 2 + 2
    np.testing.assert_allclose(loaded.signatures['loop'](x=a, n=tf.constant(4))['output_0'].numpy(), acc6)
    return {'loop': acc.tolist(), 'loop_k6': acc6.tolist()}


@check("docs/saving.md's worked example: TF's SavedModel fine-tuned in EagerFlow, loaded and run by TF with EagerFlow's variables")
def _finetuned():
    with open(os.path.join(DIR, 'finetuned.json')) as f:
        ef = json.load(f)
    d = os.path.join(DIR, 'sm_finetuned')
    loaded = tf.saved_model.load(d)
    np.testing.assert_array_equal(loaded.w.numpy(), np.array(ef['w'], np.float32))
    np.testing.assert_array_equal(loaded.b.numpy(), np.array(ef['b'], np.float32))
    x = np.array(ef['x'], np.float32)
    out = loaded.signatures['serving_default'](x=tf.constant(x))['output_0'].numpy()
    np.testing.assert_allclose(out, np.array(ef['y'], np.float32), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(out, np.maximum(x @ np.array(ef['w'], np.float32) + np.array(ef['b'], np.float32), 0), rtol=1e-5, atol=1e-6)
    text = cli('run', '--dir', d, '--tag_set', 'serve', '--signature_def', 'serving_default', '--input_exprs', 'x=' + json.dumps(ef['x']))
    assert 'output_0' in text, text
    return {'output_0': out.tolist()}


@check('SavedModel of a traced function alone: the root is callable, serving_default')
def _function():
    loaded = tf.saved_model.load(os.path.join(DIR, 'sm_function'))
    x = tf.constant([1.0, -2.0])
    np.testing.assert_allclose(loaded(x).numpy(), [2, -6])
    np.testing.assert_allclose(loaded.signatures['serving_default'](x=x)['output_0'].numpy(), [2, -6])


@check("a TF SavedModel loaded by EagerFlow and saved again: TF's results (two signatures, the helper function)")
def _resaved():
    loaded = tf.saved_model.load(os.path.join(DIR, 'sm_resaved'))
    a = tf.constant([1.0, 2.0])
    b = tf.constant([3.0, -1.0])
    r = loaded.signatures['combine'](a=a, b=b)
    np.testing.assert_allclose(r['sum'].numpy(), [4, 1])
    np.testing.assert_allclose(r['prod'].numpy(), [9, -6])
    np.testing.assert_allclose(loaded.signatures['scale'](x=a)['output_0'].numpy(), [3, 6])
    np.testing.assert_allclose(loaded.helper(a).numpy(), [-2, 1])
    return sorted(loaded.signatures)


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
