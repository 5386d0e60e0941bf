"""TensorBoard 2.21 reads the event files ef.summary writes: the fixture packages/eagerflow/test/summary/fixtures/tensorboard_read.json.

Writes the fixed run of packages/eagerflow/test/summary/tensorboard_run.ts (through node, on the built packages:
run `npx tsc -b` first), loads it with TensorBoard's own reader (plugin_event_accumulator.EventAccumulator, what
`tensorboard --logdir` uses), and records for every tag: the plugin TensorBoard files it under, the steps and the
values it decodes (scalars; histogram buckets; image sizes and pixels decoded by TF; text; audio decoded by
tf.audio.decode_wav; the graph's nodes). The digest of the events (wall_time aside) goes with it; the jest test
writes the run again and checks the digest, so the verdict is about what the writer writes today.

Run: /work/main/.venv-tf/bin/python scripts/tf-golden/tensorboard_read.py
"""
import json
import os
import subprocess
import tempfile

import numpy as np
import tensorflow as tf
from tensorboard.backend.event_processing import plugin_event_accumulator as pea
from tensorboard.util import tensor_util

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def main():
    logdir = tempfile.mkdtemp()
    out = subprocess.run(['node', '-r', './scripts/register-ts.js', 'packages/eagerflow/test/summary/write_tensorboard_run.ts', logdir],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    written = json.loads(out.strip().splitlines()[-1])

    acc = pea.EventAccumulator(logdir, size_guidance={pea.TENSORS: 0, pea.GRAPH: 1})
    acc.Reload()
    tags = acc.Tags()
    read = {}
    for plugin in ['scalars', 'histograms', 'images', 'text', 'audio']:
        for tag in sorted(acc.PluginTagToContent(plugin)):
            series = []
            for ev in acc.Tensors(tag):
                value = tensor_util.make_ndarray(ev.tensor_proto)
                series.append({'step': ev.step, 'value': describe(plugin, value)})
            read[tag] = {'plugin': plugin, 'events': series}
    graph = acc.Graph()
    result = {
        'tensorboard_version': __import__('tensorboard').__version__,
        'digest': written['digest'],
        'file_name_ok': os.path.basename(written['file']).startswith('events.out.tfevents.'),
        'tensor_tags': sorted(tags['tensors']),
        'has_graph': bool(tags['graph']),
        'graph_nodes': [{'name': n.name, 'op': n.op, 'input': list(n.input)} for n in graph.node],
        'tags': read,
    }
    dest = os.path.join(ROOT, 'packages', 'eagerflow', 'test', 'summary', 'fixtures', 'tensorboard_read.json')
    with open(dest, 'w') as f:
        json.dump(result, f, indent=1)
        f.write('\n')
    print('wrote', dest, 'tags:', ', '.join(sorted(read)), 'graph nodes:', len(graph.node))


def describe(plugin, value):
    if plugin == 'scalars':
        return float(value)
    if plugin == 'histograms':
        return value.tolist()
    if plugin == 'text':
        return value.astype(str).tolist() if value.ndim else value.item().decode()
    if plugin == 'images':
        width, height = int(value[0]), int(value[1])
        images = [tf.io.decode_png(png).numpy() for png in value[2:]]
        return {'width': width, 'height': height, 'images': [{'shape': list(im.shape), 'pixels': im.reshape(-1).tolist()} for im in images]}
    if plugin == 'audio':
        clips = []
        # TensorBoard's reader (data_compat) keeps the WAV column of the [k, 2] tensor, for TF's files too.
        for wav in value.reshape(-1):
            audio, rate = tf.audio.decode_wav(wav)
            clips.append({'sample_rate': int(rate), 'shape': list(audio.shape), 'samples_int16': np.round(audio.numpy().reshape(-1) * 32768).astype(int).tolist()})
        return clips
    raise ValueError(plugin)


if __name__ == '__main__':
    main()
