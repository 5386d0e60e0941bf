"""Keras 3 optimizer state in TF checkpoints, both ways (TF 2.21, Keras 3).

1. TF writes: tf.train.Checkpoint(model={'w': w, 'b': b}, optimizer=keras optimizer) after two steps with fixed
   gradients, for Adam, Adam(amsgrad), SGD(momentum), RMSprop(momentum, centered) and Adagrad, into
   packages/saving/test/fixtures/tf_files/ckpt_keras_opt/<name>.{index,data-00000-of-00001}; keras_opt.json holds the
   variables, iterations and every optimizer variable after those steps, and w, b after a third step (so a restored
   EagerFlow optimizer is checked to continue as Keras does).
2. TF reads what EagerFlow wrote (packages/saving/test/fixtures/ef_keras_opt/, made by
   `EF_UPDATE_FIXTURES=1 npx jest packages/eagerflow/test/saving/keras_optimizer.test.ts`): restores each into a
   fresh Keras optimizer of the same kind (assert_consumed after build), compares iterations and the slots with the
   values EagerFlow recorded, takes the third step and compares w, b with EagerFlow's; writes tf_results.json there
   with the SHA-256 of every file read.

Run: /work/main/.venv-tf/bin/python scripts/tf-files/keras_optimizer.py
"""
import hashlib
import json
import os

import numpy as np
import tensorflow as tf
import keras

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'packages', 'saving', 'test', 'fixtures')
TF_DIR = os.path.join(ROOT, 'tf_files', 'ckpt_keras_opt')
EF_DIR = os.path.join(ROOT, 'ef_keras_opt')

GRADS = [([0.3, -0.7], 0.5), ([-0.2, 0.4], -0.25), ([0.1, 0.2], 0.05)]
INIT = ([1.0, -1.0], 0.5)


def optimizers():
    return {
        'adam': lambda: keras.optimizers.Adam(learning_rate=0.1),
        'adam_amsgrad': lambda: keras.optimizers.Adam(learning_rate=0.1, amsgrad=True),
        'sgd_momentum': lambda: keras.optimizers.SGD(learning_rate=0.1, momentum=0.9),
        'rmsprop_centered': lambda: keras.optimizers.RMSprop(learning_rate=0.1, momentum=0.5, centered=True),
        'adagrad': lambda: keras.optimizers.Adagrad(learning_rate=0.1),
    }


def step(opt, w, b, k):
    gw, gb = GRADS[k]
    opt.apply_gradients([(tf.constant(gw), w), (tf.constant(gb), b)])


def tf_writes():
    os.makedirs(TF_DIR, exist_ok=True)
    out = {'tf': tf.__version__, 'keras': keras.__version__, 'grads': GRADS, 'init': INIT, 'optimizers': {}}
    for name, make in optimizers().items():
        w, b = tf.Variable(INIT[0], name='w'), tf.Variable(INIT[1], name='b')
        opt = make()
        step(opt, w, b, 0)
        step(opt, w, b, 1)
        tf.train.Checkpoint(model={'w': w, 'b': b}, optimizer=opt).write(os.path.join(TF_DIR, name))
        rec = {'w': w.numpy().tolist(), 'b': float(b.numpy()), 'iterations': int(opt.iterations.numpy()),
               'variables': {v.path.split('/', 1)[1]: np.asarray(v.numpy()).tolist() for v in opt.variables}}
        step(opt, w, b, 2)
        rec['after_step3'] = {'w': w.numpy().tolist(), 'b': float(b.numpy())}
        out['optimizers'][name] = rec
    with open(os.path.join(TF_DIR, 'keras_opt.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')


def tf_reads_ef():
    meta_path = os.path.join(EF_DIR, 'ef_values.json')
    if not os.path.exists(meta_path):
        print('no EagerFlow files yet:', meta_path)
        return
    with open(meta_path) as f:
        meta = json.load(f)
    results = {'tf': tf.__version__, 'keras': keras.__version__, 'files': {}, 'checks': {}}
    for name in sorted(os.listdir(EF_DIR)):
        if name.endswith('.index') or '.data-' in name or name == 'ef_values.json':
            with open(os.path.join(EF_DIR, name), 'rb') as f:
                results['files'][name] = hashlib.sha256(f.read()).hexdigest()
    for name, make in optimizers().items():
        want = meta['optimizers'][name]
        w, b = tf.Variable(np.zeros(2, np.float32), name='w'), tf.Variable(0.0, name='b')
        opt = make()
        status = tf.train.Checkpoint(model={'w': w, 'b': b}, optimizer=opt).restore(os.path.join(EF_DIR, name + '-1'))
        opt.build([w, b])
        check = {}
        try:
            status.assert_consumed()
            check['assert_consumed'] = True
        except AssertionError as e:
            check['assert_consumed'] = str(e)[:500]
        check['iterations'] = int(opt.iterations.numpy()) == want['iterations']
        got = {v.path.split('/', 1)[1]: np.asarray(v.numpy()) for v in opt.variables}
        check['slots'] = all(np.allclose(got[k], np.asarray(v), rtol=1e-6, atol=1e-7) for k, v in want['variables'].items() if k in got) and set(want['variables']) <= set(got)
        check['weights'] = np.allclose(w.numpy(), want['w']) and np.isclose(b.numpy(), want['b'])
        step(opt, w, b, 2)
        check['step3'] = bool(np.allclose(w.numpy(), want['after_step3']['w'], rtol=1e-5, atol=1e-6) and np.isclose(b.numpy(), want['after_step3']['b'], rtol=1e-5, atol=1e-6))
        check = {k: bool(v) if isinstance(v, np.bool_) else v for k, v in check.items()}
        check['ok'] = all(v is True for v in check.values())
        results['checks'][name] = check
    with open(os.path.join(EF_DIR, 'tf_results.json'), 'w') as f:
        json.dump(results, f, indent=1, default=lambda x: bool(x))
        f.write('\n')
    print(json.dumps(results['checks'], indent=1, default=lambda x: bool(x)))


if __name__ == '__main__':
    tf_writes()
    tf_reads_ef()
