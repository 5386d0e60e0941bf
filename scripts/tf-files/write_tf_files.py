"""TF 2.21 writes the checkpoints and SavedModels that EagerFlow's tests read (issue 29, API.md section 16).

Run from the repository root:

    /work/main/.venv-tf/bin/python scripts/tf-files/write_tf_files.py

Writes packages/saving/test/fixtures/tf_files/ (kept small: a few KB each):
  ckpt_nested/            tf.train.Checkpoint of nested Modules, a list and a dict, several dtypes (save + write)
  ckpt_manager/           tf.train.CheckpointManager(max_to_keep=2) after three saves
  sm_module/              tf.Module with two variables and a serving signature
  sm_keras/               a Keras 3 model exported with model.export
  sm_control/             while_loop + cond + TensorArray and a stateful counter update
  sm_tf1/                 a TF1-style graph (VariableV2, placeholders) with a signature_def
  sm_tf1_pbtxt/           the same as saved_model.pbtxt (text format)
  sm_two_sigs/            two signatures and a non-signature function
  expected.json           the inputs and TF's outputs for each, and each checkpoint's variable values

A rerun rewrites everything together (TF numbers functions per process and Keras draws new weights, so the
bytes change, and expected.json with them). EagerFlow's files made from these (scripts/tf-files/tf_reads_ef.py's
fine-tuned and re-saved models) then need EF_UPDATE_FIXTURES=1 and a rerun of tf_reads_ef.py.
"""
import json
import os
import shutil

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
os.environ.setdefault('TF_ENABLE_ONEDNN_OPTS', '0')
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
OUT = os.path.join(ROOT, 'packages', 'saving', 'test', 'fixtures', 'tf_files')


def tolist(t):
    a = np.asarray(t.numpy() if hasattr(t, 'numpy') else t)
    if a.dtype.kind in 'SO':
        return np.vectorize(lambda s: s.decode() if isinstance(s, bytes) else s, otypes=[object])(a).tolist() if a.shape else a.item().decode()
    return a.tolist()


def fresh(name):
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.reshape(tf.range(n_in * n_out, dtype=tf.float32) / 10.0, [n_in, n_out]), name='w')
        self.b = tf.Variable(tf.fill([n_out], 0.5), name='b')


class Net(tf.Module):
    def __init__(self):
        super().__init__(name='net')
        self.layers = [Dense(3, 2, name='d0'), Dense(2, 1, name='d1')]
        self.extras = {'count': tf.Variable(7, dtype=tf.int64), 'flag': tf.Variable([True, False])}
        self.scale = tf.Variable(2.5, dtype=tf.float64)
        self.half = tf.Variable([1.5, -2.0], dtype=tf.float16)
        self.steps = tf.Variable([1, 2, 3], dtype=tf.int32)
        self.label = tf.Variable('hello')
        self.frozen = tf.Variable([0.25, 0.75], trainable=False)


def values_of(module):
    out = {}
    for path, v in module._flatten(predicate=lambda x: isinstance(x, tf.Variable), with_path=True):
        out['/'.join(str(p) for p in path)] = {'dtype': v.dtype.name, 'shape': v.shape.as_list(), 'value': tolist(v)}
    return out


def checkpoints(expected):
    d = fresh('ckpt_nested')
    net = Net()
    ckpt = tf.train.Checkpoint(model=net, step=tf.Variable(3))
    saved = ckpt.save(os.path.join(d, 'ckpt'))  # ckpt-1 with save_counter
    written = ckpt.write(os.path.join(d, 'plain'))  # no save_counter bump, no state file entry
    expected['ckpt_nested'] = {
        'save_path': os.path.relpath(saved, d), 'write_path': os.path.relpath(written, d),
        'variables': values_of(net), 'step': 3, 'save_counter': int(ckpt.save_counter.numpy()),
        'trainable': [v.name for v in net.trainable_variables], 'all': [v.name for v in net.variables],
        'submodules': [m.name for m in net.submodules],
    }
    d = fresh('ckpt_manager')
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(v=v)
    mgr = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
    for i in range(3):
        v.assign_add([1.0, 1.0])
        mgr.save()
    expected['ckpt_manager'] = {'latest': os.path.relpath(mgr.latest_checkpoint, d), 'kept': [os.path.relpath(p, d) for p in mgr.checkpoints], 'v': tolist(v)}


class Affine(tf.Module):
    def __init__(self):
        super().__init__(name='affine')
        self.w = tf.Variable([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], name='w')
        self.b = tf.Variable([0.1, -0.2], name='b')

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name='x')])
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class Control(tf.Module):
    def __init__(self):
        super().__init__()
        self.counter = tf.Variable(0, dtype=tf.int32)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name='x'), tf.TensorSpec([], tf.int32, name='n')])
    def run(self, x, n):
        self.counter.assign_add(1)
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

        def body(i, acc, ta):
            acc = tf.cond(tf.reduce_sum(acc) > 10.0, lambda: acc * 0.5, lambda: acc * 2.0 + 1.0)
            return i + 1, acc, ta.write(i, tf.reduce_sum(acc))

        _, acc, ta = tf.while_loop(lambda i, acc, ta: i < n, body, [tf.constant(0), x, ta])
        return {'acc': acc, 'sums': ta.stack(), 'count': self.counter.read_value()}


class TwoSigs(tf.Module):
    def __init__(self):
        super().__init__()
        self.k = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def scale(self, x):
        return x * self.k

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
    def combine(self, a, b):
        return {'sum': a + b, 'prod': a * b * self.k}

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def helper(self, x):
        return tf.square(x) - self.k


def saved_models(expected):
    d = fresh('sm_module')
    m = Affine()
    tf.saved_model.save(m, d)
    x = np.array([[1, 2, 3], [-1, 0, 4]], np.float32)
    sig = tf.saved_model.load(d).signatures['serving_default']
    expected['sm_module'] = {'inputs': {'x': x.tolist()}, 'outputs': {k: tolist(v) for k, v in sig(x=tf.constant(x)).items()}, 'call': tolist(m(x)), 'w': tolist(m.w), 'b': tolist(m.b)}

    d = fresh('sm_keras')
    import keras
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation='tanh'), keras.layers.Dense(2)])
    model.export(d, verbose=False)
    x = np.array([[0.1, 0.2, 0.3, 0.4], [1, -1, 0.5, 0]], np.float32)
    sig = tf.saved_model.load(d).signatures['serving_default']
    expected['sm_keras'] = {'inputs': {sig.structured_input_signature[1] and list(sig.structured_input_signature[1])[0]: x.tolist()}, 'outputs': {k: tolist(v) for k, v in sig(tf.constant(x)).items()}}

    d = fresh('sm_control')
    c = Control()
    tf.saved_model.save(c, d, signatures=c.run)
    x = np.array([1.0, 2.0], np.float32)
    loaded = tf.saved_model.load(d)
    r1 = {k: tolist(v) for k, v in loaded.signatures['serving_default'](x=tf.constant(x), n=tf.constant(4)).items()}
    r2 = {k: tolist(v) for k, v in loaded.signatures['serving_default'](x=tf.constant(x), n=tf.constant(4)).items()}
    expected['sm_control'] = {'inputs': {'x': x.tolist(), 'n': 4}, 'outputs': r1, 'outputs_again': r2}

    d = fresh('sm_tf1')
    g = tf.Graph()
    with g.as_default():
        x_ph = tf.compat.v1.placeholder(tf.float32, [None, 2], name='x')
        w = tf.compat.v1.Variable([[2.0], [-1.0]], name='w')
        b = tf.compat.v1.Variable([0.5], name='b')
        y = tf.add(tf.matmul(x_ph, w), b, name='y')
        with tf.compat.v1.Session(graph=g) as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sd = tf.compat.v1.saved_model.predict_signature_def({'x': x_ph}, {'y': y})
            builder = tf.compat.v1.saved_model.Builder(os.path.join(d, 'm'))
            builder.add_meta_graph_and_variables(sess, ['serve'], signature_def_map={'serving_default': sd})
            builder.save()
            xv = np.array([[1, 2], [3, 4]], np.float32)
            expected['sm_tf1'] = {'inputs': {'x': xv.tolist()}, 'outputs': {'y': sess.run(y, {x_ph: xv}).tolist()}}
    for f in os.listdir(os.path.join(d, 'm')):
        shutil.move(os.path.join(d, 'm', f), os.path.join(d, f))
    os.rmdir(os.path.join(d, 'm'))
    # The same model as saved_model.pbtxt (text format), which loaders accept too.
    from google.protobuf import text_format
    from tensorflow.core.protobuf import saved_model_pb2
    t = fresh('sm_tf1_pbtxt')
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(d, 'saved_model.pb'), 'rb') as f:
        sm.ParseFromString(f.read())
    with open(os.path.join(t, 'saved_model.pbtxt'), 'w') as f:
        f.write(text_format.MessageToString(sm))
    shutil.copytree(os.path.join(d, 'variables'), os.path.join(t, 'variables'))
    expected['sm_tf1_pbtxt'] = {'outputs_via_tf': {k: tolist(v) for k, v in tf.saved_model.load(t).signatures['serving_default'](x=tf.constant(xv)).items()}}

    d = fresh('sm_two_sigs')
    t = TwoSigs()
    tf.saved_model.save(t, d, signatures={'scale': t.scale, 'combine': t.combine})
    a = np.array([1.0, 2.0], np.float32)
    b = np.array([3.0, -1.0], np.float32)
    loaded = tf.saved_model.load(d)
    expected['sm_two_sigs'] = {
        'scale': {'inputs': {'x': a.tolist()}, 'outputs': {k: tolist(v) for k, v in loaded.signatures['scale'](x=tf.constant(a)).items()}},
        'combine': {'inputs': {'a': a.tolist(), 'b': b.tolist()}, 'outputs': {k: tolist(v) for k, v in loaded.signatures['combine'](a=tf.constant(a), b=tf.constant(b)).items()}},
        'helper': {'inputs': [a.tolist()], 'output': tolist(loaded.helper(tf.constant(a)))},
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = {'tf_version': tf.__version__}
    checkpoints(expected)
    saved_models(expected)
    with open(os.path.join(OUT, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main()
