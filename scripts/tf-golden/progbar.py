"""What Keras 3's Progbar (tf.keras.utils.Progbar) prints for scripted sequences: the fixture for ef.utils.Progbar.

The clock is scripted (each call says the time it happens at), so the ETA, elapsed time and time-per-step
columns are deterministic; every sequence runs twice, with dynamic display on (a TTY: '\\b'/'\\r' redraws one
line) and off (plain lines). Writes packages/eagerflow/test/utils/fixtures/keras_progbar.json.

Run: /work/main/.venv-tf/bin/python scripts/tf-golden/progbar.py
"""
import io
import json
import os
import sys

import keras
from keras.src.utils import progbar as progbar_module

CLOCK = [0.0]


class FakeTime:
    @staticmethod
    def time():
        return CLOCK[0]


progbar_module.time = FakeTime

# name -> (constructor kwargs (Keras names), [(time, method, args...)])
SEQUENCES = {
    'known_target_stateful': (
        dict(target=10, width=20, stateful_metrics=['acc']),
        [(1000.0 + 0.4 * i + (0.01 if i == 3 else 0), 'update', i, [['loss', 1.5 / i], ['acc', 0.1 * i]]) for i in range(1, 11)]
        + [(1004.02, 'update', 10, [['loss', 0.1]])],
    ),
    'within_interval_skipped': (
        dict(target=6, interval=0.5),
        [(1000.1, 'update', 1, [['loss', 2.0]]), (1000.2, 'update', 2, [['loss', 1.0]]),
         (1000.9, 'update', 3, [['loss', 0.5]]), (1001.0, 'update', 6, [['loss', 0.25]])],
    ),
    'unknown_target_add': (
        dict(target=None),
        [(1000.5, 'add', 32, [['loss', 0.75]]), (1001.0, 'add', 32, [['loss', 0.25]]), (1001.75, 'add', 16, None),
         (1002.0, 'update', 80, [['loss', 0.5]], True)],
    ),
    'long_eta_small_values': (
        dict(target=100000, width=30, unit_name='sample'),
        [(1000.0 + 2.5, 'update', 1, [['lr', 0.00001234], ['delta', -0.5]]),
         (1000.0 + 5.0, 'update', 2, [['lr', 0.00001234], ['delta', -0.25]]),
         (1000.0 + 400.0, 'update', 200, [['lr', 0.0005], ['delta', 0.125]]),
         (1000.0 + 90000.0, 'update', 99000, [['lr', 0.0002], ['delta', -0.000001]]),
         (1000.0 + 90800.0, 'update', 100000, [['lr', 0.0001], ['delta', 2.5]])],
    ),
    'fast_steps': (
        dict(target=1000, width=10, interval=0.0),
        [(1000.0 + 0.0005 * i, 'update', i * 100, [['loss', 1.0 / i]]) for i in range(1, 11)],
    ),
    'verbose_2': (
        dict(target=5, verbose=2, stateful_metrics=['acc']),
        [(1000.0 + i, 'update', i, [['loss', 5.0 - i], ['acc', 0.2 * i]]) for i in range(1, 6)],
    ),
    'verbose_0': (
        dict(target=3, verbose=0),
        [(1001.0, 'update', 1, [['loss', 1.0]]), (1002.0, 'update', 3, [['loss', 1.0]])],
    ),
}


def run(kwargs, calls, dynamic):
    CLOCK[0] = 1000.0
    out = io.StringIO()
    old = sys.stdout
    sys.stdout = out
    try:
        bar = keras.utils.Progbar(**kwargs)
        bar._dynamic_display = dynamic
        for t, method, *args in calls:
            CLOCK[0] = t
            if method == 'update':
                values = [tuple(v) for v in args[1]] if args[1] else None
                bar.update(args[0], values, *(args[2:]))
            else:
                values = [tuple(v) for v in args[1]] if args[1] else None
                bar.add(args[0], values)
    finally:
        sys.stdout = old
    return out.getvalue()


def main():
    cases = []
    for name, (kwargs, calls) in SEQUENCES.items():
        cases.append({
            'name': name,
            'options': kwargs,
            'calls': [{'time': t, 'method': m, 'args': list(a)} for t, m, *a in calls],
            'tty': run(kwargs, calls, True),
            'plain': run(kwargs, calls, False),
        })
    dest = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'packages', 'eagerflow', 'test', 'utils',
                        'fixtures', 'keras_progbar.json')
    with open(dest, 'w') as f:
        json.dump({'keras_version': keras.__version__, 'start_time': 1000.0, 'cases': cases}, f, indent=1, ensure_ascii=False)
        f.write('\n')
    print('wrote', dest)


if __name__ == '__main__':
    main()
