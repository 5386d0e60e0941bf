"""TensorFlow 2.21's tf.io codecs for EagerFlow's ef.io tests: serialize_tensor bytes, decode_raw, PNG and JPEG.

Writes packages/eagerflow/test/fixtures/io/codecs.json (serialized TensorProtos as hex with their values, decode_raw
results, the PNG/JPEG files as hex with TF's decode_png/decode_jpeg results). Small images only.
Run: /work/main/.venv-tf/bin/python scripts/tf-golden/io_codecs.py
"""
import json
import os

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'packages', 'eagerflow', 'test', 'fixtures', 'io')

TENSORS = [
    ('float32', [[1.5, -2.0], [0.0, 3.25]]),
    ('float64', [0.1, 2.5]),
    ('int32', [[1, -2, 3]]),
    ('int64', [5, -7, 2147483647]),
    ('uint8', [0, 255, 7]),
    ('int16', [-300, 300]),
    ('bool', [True, False, True]),
    ('string', [b'a', b'\xff\x00', b'']),
    ('float32', 4.0),
]


def host(t):
    a = t.numpy()
    if t.dtype == tf.string:
        return [x.hex() for x in a.ravel().tolist()] if a.ndim else a.tolist().hex()
    return a.tolist()


def image(h, w, c, seed, depth=8):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2 ** depth, size=(h, w, c), dtype=np.uint16 if depth == 16 else np.uint8)


def main():
    os.makedirs(OUT, exist_ok=True)
    tensors = []
    for dtype, value in TENSORS:
        t = tf.constant(value, dtype=dtype)
        tensors.append({'dtype': dtype, 'shape': t.shape.as_list(), 'value': host(t), 'serialized': tf.io.serialize_tensor(t).numpy().hex()})
    raw = tf.constant([b'\x01\x00\x02\x00', b'\xff\xff\x00\x80'])
    decode_raw = {
        'input': [b.hex() for b in raw.numpy().tolist()],
        'int16': tf.io.decode_raw(raw, tf.int16).numpy().tolist(),
        'int16_big': tf.io.decode_raw(raw, tf.int16, little_endian=False).numpy().tolist(),
        'uint8': tf.io.decode_raw(raw, tf.uint8).numpy().tolist(),
        'float32': tf.io.decode_raw(tf.constant([np.float32(1.5).tobytes()]), tf.float32).numpy().tolist(),
    }
    pngs = []
    for name, img in [('rgb', image(3, 4, 3, 1)), ('rgba', image(2, 3, 4, 2)), ('gray', image(3, 2, 1, 3)), ('rgb16', image(2, 2, 3, 4, 16))]:
        png = tf.io.encode_png(img).numpy()
        entry = {'name': name, 'png': png.hex(), 'decoded': tf.io.decode_png(png).numpy().tolist()}
        for ch in [1, 3, 4]:
            entry[f'channels{ch}'] = tf.io.decode_png(png, channels=ch).numpy().tolist()
        if name == 'rgb16':
            entry['uint16'] = tf.io.decode_png(png, dtype=tf.uint16).numpy().tolist()
        pngs.append(entry)
    # A smooth image: JPEG's loss is small and decoders agree within a few levels.
    yy, xx = np.mgrid[0:16, 0:16]
    smooth = np.stack([xx * 15, yy * 15, (xx + yy) * 7], axis=-1).astype(np.uint8)
    # No chroma subsampling: decoders differ most in how they upsample chroma (libjpeg's fancy upsampling).
    jpeg = tf.io.encode_jpeg(smooth, quality=95, chroma_downsampling=False).numpy()
    jpegs = {'jpeg': jpeg.hex(), 'decoded': tf.io.decode_jpeg(jpeg).numpy().tolist(), 'gray': tf.io.decode_jpeg(jpeg, channels=1).numpy().tolist()}
    with open(os.path.join(OUT, 'codecs.json'), 'w') as f:
        json.dump({'tf': tf.__version__, 'tensors': tensors, 'decode_raw': decode_raw, 'png': pngs, 'jpeg': jpegs}, f)
        f.write('\n')


if __name__ == '__main__':
    main()
