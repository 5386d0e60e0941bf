"""TF 2.21's names for tf.Module name scopes: module names, `name_scope.name`, and the names of variables created
inside `with self.name_scope:` and inside `@tf.Module.with_name_scope` methods (nested modules, lazily created
variables, unnamed variables, variables created outside the scope, camel-case class names, repeated names).

Writes packages/saving/test/fixtures/tf_files/module_names.json, read by
packages/eagerflow/test/saving/module_names.test.ts (which builds the same modules with ef.Module). Run with
    /work/main/.venv-tf/bin/python scripts/tf-files/module_names.py
"""
import json
import os

import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'packages', 'saving', 'test', 'fixtures', 'tf_files', 'module_names.json')


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([n_in, n_out]), name='w')
            self.b = tf.Variable(tf.zeros([n_out]), name='b')

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class MLPBlock(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        # Outside the scope: a plain name.
        self.plain = tf.Variable(1.0, name='plain')
        with self.name_scope:
            self.first = Dense(2, 3)
            self.second = Dense(3, 1, name='head')
            self.scale = tf.Variable(2.0, name='scale')
            self.unnamed = tf.Variable(0.5)


class Lazy(tf.Module):
    """Creates its variable and a submodule on the first call, inside the method's name scope."""

    @tf.Module.with_name_scope
    def __call__(self, x):
        if not hasattr(self, 'w'):
            self.w = tf.Variable(tf.ones([x.shape[-1], 2]), name='w')
            self.inner = Dense(2, 1, name='inner')
        return self.inner(tf.matmul(x, self.w))


def describe(m):
    return {
        'name': m.name,
        'scope': m.name_scope.name,
        'variables': [v.name for v in m.variables],
        'submodules': [[s.name, s.name_scope.name] for s in m.submodules],
    }


def main():
    out = {'tf': tf.__version__, 'modules': {}}
    out['modules']['dense'] = describe(Dense(2, 2))
    out['modules']['mlp_block'] = describe(MLPBlock())
    out['modules']['named_block'] = describe(MLPBlock(name='my_block'))
    lazy = Lazy()
    y = lazy(tf.ones([1, 3]))
    out['modules']['lazy'] = describe(lazy)
    out['lazy_output'] = y.numpy().tolist()
    # The same name twice: TF 2 does not make eager name scopes unique.
    out['modules']['dense_again'] = describe(Dense(1, 1))
    with open(OUT, 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
