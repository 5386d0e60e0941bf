"""Real model kinds exported by TensorFlow 2.21 (+ Keras 3) as SavedModels with unknown dims, with TF's outputs and
input gradients, for EagerFlow's SavedModel loader (packages/saving/test/tf_models.test.ts).

Usage: /work/main/.venv-tf/bin/python scripts/tf-golden/tf_models.py [case ...]
Offline: weights=None, seeded initializers (BatchNorm statistics perturbed so that inference is not the identity).
Writes packages/saving/test/fixtures/tf_models/<case>/ (a SavedModel directory: saved_model.pb + variables/) and
<case>.json + <case>.bin next to it: the serving signature's inputs, and for two feeds of different batch (and, where
the model allows, spatial/time) sizes the inputs fed, TF's outputs and TF's gradients of sum(out * w) over the float
outputs with respect to each float input, w random with the outputs' shapes. The outputs and gradients are computed
by the exported concrete function under a GradientTape (TF 2.21 cannot differentiate a reloaded SavedModel whose
while/cond captures a variable: "a variable without handle data"), and the reloaded SavedModel's outputs are checked
against them, so they come from the same graph EagerFlow loads. Arrays live in <case>.bin (little-endian float32 / int32), the JSON
holds {dtype, shape, offset} for each.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from graph_functions import ROOT, dtype_name, f32, rng  # noqa: E402  (sets TF's environment before importing it)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402
from keras import layers  # noqa: E402

# TF 2.21 registers no gradient for CombinedNonMaxSuppression and NonMaxSuppressionV5 (its float output, the soft-NMS
# scores), so a function returning their outputs cannot be differentiated at all (LookupError, even for its other
# outputs); declared not differentiable here, as TF declares NonMaxSuppressionV3/V4, so that the detection head's
# other outputs get TF's gradients (the NMS outputs add none).
tf.no_gradient("CombinedNonMaxSuppression")
tf.no_gradient("NonMaxSuppressionV5")

OUT = os.path.join(ROOT, "packages", "saving", "test", "fixtures", "tf_models")
F = tf.float32
I32 = tf.int32


def spec(shape, dtype=F, name=None):
    return tf.TensorSpec(shape, dtype, name=name)


def perturb_batchnorm(model):
    """Moving statistics and affine parameters away from their identity initial values, and conv/dense kernels
    He-normal over their true fan-in (Keras' glorot_uniform counts a depthwise kernel's fan-in as kh·kw·channels,
    which shrinks MobileNet's activations, and so its input gradients, to ~1e-11 over its depth)."""
    for v in model.variables:
        n = v.path if hasattr(v, "path") else v.name
        shape = tuple(v.shape)
        if n.endswith("depthwise_kernel") or (n.endswith("kernel") and len(shape) >= 2):
            fan_in = int(np.prod(shape[:2])) if n.endswith("depthwise_kernel") else int(np.prod(shape[:-1]))
            v.assign(rng.normal(0, np.sqrt(2.0 / fan_in), shape).astype(np.float32))
        elif n.endswith("moving_variance"):
            v.assign(rng.uniform(0.5, 1.5, shape).astype(np.float32))
        elif n.endswith("moving_mean"):
            v.assign(rng.uniform(-0.2, 0.2, shape).astype(np.float32))
        elif n.endswith("gamma"):
            v.assign(rng.uniform(0.8, 1.2, shape).astype(np.float32))
        elif n.endswith("beta") or (n.endswith("bias") and "normalization" not in n):
            v.assign(rng.uniform(-0.1, 0.1, shape).astype(np.float32))
    return model


def all_layers(layer):
    for sub in getattr(layer, "layers", []):
        yield sub
        yield from all_layers(sub)


def calibrate(model, sample):
    """BatchNorm moving statistics set to the batch statistics of `sample` (one training-mode call with momentum 0),
    as a trained net's match its activations: with mismatched ones the activations of a deep random net fade and its
    outputs stop depending on the input (MobileNet's input gradients were ~1e-11)."""
    bns = [lay for lay in all_layers(model) if isinstance(lay, layers.BatchNormalization)]
    saved = [lay.momentum for lay in bns]
    for lay in bns:
        lay.momentum = 0.0
    model(tf.constant(sample), training=True)
    for lay, mom in zip(bns, saved):
        lay.momentum = mom
    return model


class Case(tf.Module):
    """The tracked Keras models / layers / variables of one serving function (the function itself is only the
    signature: as a tracked attribute too, its graph would be saved twice more)."""

    def __init__(self, keep):
        super().__init__()
        self.keep = keep
        self.n_params = sum(int(np.prod(v.shape)) for k in keep for v in getattr(k, "variables", []))


# ---- Keras applications and application-style nets (unknown batch and spatial dims) --------------------------


def with_head(base, sample):
    """An application without its top (Keras requires a static input size for the top) + global pooling + Dense(10),
    its BatchNorm statistics calibrated on `sample`."""
    return calibrate(perturb_batchnorm(keras.Model(base.input, layers.Dense(10)(base.output))), sample)


def mobilenet_v2():
    feeds = [{"image": f32(1, 96, 96, 3)}, {"image": f32(2, 64, 80, 3)}]
    m = with_head(keras.applications.MobileNetV2(input_shape=(None, None, 3), alpha=0.35, weights=None, include_top=False, pooling="avg"), f32(4, 96, 96, 3))
    return [m], (lambda image: {"logits": m(image, training=False)}), [spec([None, None, None, 3], name="image")], feeds


def mobilenet_v3_small():
    feeds = [{"image": f32(1, 64, 64, 3) * 127 + 128}, {"image": f32(2, 48, 56, 3) * 127 + 128}]
    m = with_head(keras.applications.MobileNetV3Small(input_shape=(None, None, 3), alpha=0.75, weights=None, include_top=False, pooling="avg",
                                                      include_preprocessing=True), f32(4, 64, 64, 3) * 127 + 128)
    return [m], (lambda image: {"logits": m(image, training=False)}), [spec([None, None, None, 3], name="image")], feeds


def efficientnet_tiny():
    from keras.src.applications import efficientnet
    feeds = [{"image": f32(1, 64, 64, 3) * 127 + 128}, {"image": f32(2, 40, 48, 3) * 127 + 128}]
    m = with_head(efficientnet.EfficientNet(0.25, 0.25, 64, dropout_rate=0.2, name="efficientnet_tiny", input_shape=(None, None, 3),
                                            weights=None, include_top=False, pooling="avg"), f32(4, 64, 64, 3) * 127 + 128)
    return [m], (lambda image: {"logits": m(image, training=False)}), [spec([None, None, None, 3], name="image")], feeds


def resnet_blocks():
    def block(x, filters, stride):
        shortcut = x
        y = layers.Conv2D(filters, 3, strides=stride, padding="same", use_bias=False)(x)
        y = layers.ReLU()(layers.BatchNormalization()(y))
        y = layers.BatchNormalization()(layers.Conv2D(filters, 3, padding="same", use_bias=False)(y))
        if stride != 1 or x.shape[-1] != filters:
            shortcut = layers.BatchNormalization()(layers.Conv2D(filters, 1, strides=stride, use_bias=False)(x))
        return layers.ReLU()(layers.Add()([y, shortcut]))

    inp = keras.Input((None, None, 3))
    x = layers.ZeroPadding2D(3)(inp)
    x = layers.ReLU()(layers.BatchNormalization()(layers.Conv2D(16, 7, strides=2, use_bias=False)(x)))
    x = layers.MaxPooling2D(3, strides=2, padding="same")(x)
    x = block(block(x, 16, 1), 32, 2)
    out = layers.Dense(10)(layers.GlobalAveragePooling2D()(x))
    m = perturb_batchnorm(keras.Model(inp, out))
    return [m], (lambda image: {"logits": m(image, training=False)}), [spec([None, None, None, 3], name="image")], \
        [{"image": f32(1, 32, 32, 3)}, {"image": f32(3, 24, 40, 3)}]


def densenet_block():
    inp = keras.Input((None, None, 3))
    x = layers.Conv2D(12, 3, padding="same")(inp)
    for _ in range(3):
        y = layers.Conv2D(8, 1, use_bias=False)(layers.ReLU()(layers.BatchNormalization()(x)))
        y = layers.Conv2D(4, 3, padding="same", use_bias=False)(layers.ReLU()(layers.BatchNormalization()(y)))
        x = layers.Concatenate()([x, y])
    x = layers.Conv2D(12, 1, use_bias=False)(layers.ReLU()(layers.BatchNormalization()(x)))
    x = layers.AveragePooling2D(2, strides=2)(x)
    out = layers.Dense(5, activation="softmax")(layers.GlobalMaxPooling2D()(x))
    m = perturb_batchnorm(keras.Model(inp, out))
    return [m], (lambda image: {"probs": m(image, training=False)}), [spec([None, None, None, 3], name="image")], \
        [{"image": f32(2, 16, 16, 3)}, {"image": f32(1, 20, 12, 3)}]


def inception_block():
    inp = keras.Input((None, None, 3))
    x = layers.Conv2D(8, 3, strides=2, padding="valid", activation="relu")(inp)
    b1 = layers.Conv2D(4, 1, activation="relu")(x)
    b2 = layers.Conv2D(6, 3, padding="same", activation="relu")(layers.Conv2D(4, 1, activation="relu")(x))
    b3 = layers.Conv2D(4, (1, 5), padding="same")(layers.Conv2D(4, (5, 1), padding="same")(x))
    b4 = layers.Conv2D(4, 1)(layers.MaxPooling2D(3, strides=1, padding="same")(x))
    x = layers.Concatenate()([b1, b2, b3, b4])
    x = layers.SeparableConv2D(12, 3, padding="same", depth_multiplier=2, activation="swish")(x)
    x = layers.DepthwiseConv2D(3, strides=2, padding="same", activation="relu6")(x)
    out = layers.Dense(6)(layers.GlobalAveragePooling2D()(x))
    m = keras.Model(inp, out)
    return [m], (lambda image: {"logits": m(image, training=False)}), [spec([None, None, None, 3], name="image")], \
        [{"image": f32(1, 19, 19, 3)}, {"image": f32(2, 16, 24, 3)}]


def preprocess_resize():
    """Rescaling + Resizing from unknown spatial dims + CenterCrop + a conv (what exported Keras pipelines carry)."""
    net = keras.Sequential([layers.Rescaling(1 / 127.5, offset=-1), layers.Resizing(20, 20), layers.CenterCrop(16, 16),
                            layers.Conv2D(4, 3, activation="elu"), layers.Flatten(), layers.Dense(3)])
    net.build((None, None, None, 3))
    return [net], (lambda image: {"out": net(image, training=False)}), [spec([None, None, None, 3], name="image")], \
        [{"image": f32(1, 30, 25, 3) * 127 + 128}, {"image": f32(2, 12, 14, 3) * 127 + 128}]


def vit_patches():
    """ViT-style: patch embedding by a strided conv, reshape with the run-time batch, a class token, positions."""
    patch = layers.Conv2D(16, 4, strides=4)
    cls = tf.Variable(f32(1, 1, 16) * 0.1, name="cls")
    pos = tf.Variable(f32(1, 17, 16) * 0.1, name="pos")
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=8)
    norm = layers.LayerNormalization(epsilon=1e-6)
    head = layers.Dense(4)

    def fn(image):
        p = patch(image)
        b = tf.shape(p)[0]
        tokens = tf.reshape(p, [b, -1, 16])
        x = tf.concat([tf.tile(cls, [b, 1, 1]), tokens], axis=1) + pos
        x = x + mha(norm(x), norm(x))
        return {"logits": head(norm(x)[:, 0])}

    fn(tf.zeros([1, 16, 16, 3]))
    return [patch, mha, norm, head, cls, pos], fn, [spec([None, 16, 16, 3], name="image")], \
        [{"image": f32(1, 16, 16, 3)}, {"image": f32(3, 16, 16, 3)}]


# ---- Detection head with box decoding and NMS ------------------------------------------------------------------


def detection_nms():
    backbone = keras.Sequential([layers.Conv2D(8, 3, strides=2, padding="same", activation="relu"),
                                 layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")])
    box_head = layers.Conv2D(4, 1)
    cls_head = layers.Conv2D(3, 1)
    backbone.build((None, 32, 32, 3))
    box_head.build((None, 8, 8, 8))
    cls_head.build((None, 8, 8, 8))
    cy, cx = np.meshgrid((np.arange(8) + 0.5) / 8, (np.arange(8) + 0.5) / 8, indexing="ij")
    anchors = tf.constant(np.stack([cy.ravel(), cx.ravel(), np.full(64, 0.25), np.full(64, 0.25)], -1).astype(np.float32))

    def fn(image):
        feat = backbone(image)
        b = tf.shape(image)[0]
        d = tf.reshape(box_head(feat), [b, -1, 4])
        scores = tf.sigmoid(tf.reshape(cls_head(feat), [b, -1, 3]))
        yx = anchors[:, :2] + d[..., :2] * 0.1 * anchors[:, 2:]
        hw = anchors[:, 2:] * tf.exp(d[..., 2:] * 0.2)
        boxes = tf.concat([yx - hw / 2, yx + hw / 2], axis=-1)
        nb, ns, nc, valid = tf.image.combined_non_max_suppression(boxes[:, :, None, :], scores, 8, 12, iou_threshold=0.5, score_threshold=0.3)
        s0 = tf.reduce_max(scores[0], axis=-1)
        idx = tf.image.non_max_suppression(boxes[0], s0, 6, iou_threshold=0.4, score_threshold=0.2)
        idx5, soft = tf.image.non_max_suppression_with_scores(boxes[0], s0, 5, iou_threshold=0.5, soft_nms_sigma=0.5)
        return {"boxes": boxes, "scores": scores, "nms_boxes": nb, "nms_scores": ns, "nms_classes": nc, "valid": tf.cast(valid, tf.float32),
                "selected": tf.gather(boxes[0], idx) * tf.gather(s0, idx)[:, None], "soft_idx": tf.cast(idx5, tf.float32), "soft_scores": soft}

    return [backbone, box_head, cls_head], fn, [spec([None, 32, 32, 3], name="image")], \
        [{"image": f32(1, 32, 32, 3)}, {"image": f32(2, 32, 32, 3)}]


# ---- Transformer block with a padding mask ---------------------------------------------------------------------


def transformer():
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=8, dropout=0.1)
    ln1 = layers.LayerNormalization()
    ln2 = layers.LayerNormalization()
    ffn = keras.Sequential([layers.Dense(32, activation="gelu"), layers.Dense(16)])

    def fn(x, lengths):
        mask = tf.sequence_mask(lengths, tf.shape(x)[1])
        attn_mask = mask[:, None, :] & mask[:, :, None]
        h = ln1(x + mha(x, x, attention_mask=attn_mask, training=False))
        out = ln2(h + ffn(h))
        pooled = tf.reduce_sum(out * tf.cast(mask, F)[..., None], 1) / tf.cast(lengths, F)[:, None]
        return {"seq": out, "pooled": pooled}

    fn(tf.zeros([1, 3, 16]), tf.constant([3]))
    return [mha, ln1, ln2, ffn], fn, [spec([None, None, 16], name="x"), spec([None], I32, name="lengths")], \
        [{"x": f32(2, 5, 16), "lengths": np.array([5, 3], np.int32)}, {"x": f32(3, 7, 16), "lengths": np.array([2, 7, 4], np.int32)}]


# ---- Audio front ends --------------------------------------------------------------------------------------------


def audio_mfcc():
    mel = tf.signal.linear_to_mel_weight_matrix(20, 33, 8000, 20.0, 4000.0)

    def fn(wave):
        stft = tf.signal.stft(wave, frame_length=64, frame_step=16, fft_length=64)
        mag = tf.abs(stft)
        log_mel = tf.math.log(tf.tensordot(mag * mag, mel, 1) + 1e-6)
        return {"mfcc": tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :13], "log_mel": log_mel}

    return [], fn, [spec([None, None], name="wave")], [{"wave": f32(1, 400)}, {"wave": f32(2, 560)}]


def audio_resynth():
    """frame -> window -> overlap_and_add, and inverse_stft(stft(x)) with the matching inverse window."""
    def fn(wave):
        frames = tf.signal.frame(wave, 32, 8, pad_end=True)
        ola = tf.signal.overlap_and_add(frames * tf.signal.hann_window(32), 8)
        s = tf.signal.stft(wave, 32, 8, 32)
        inv = tf.signal.inverse_stft(s * tf.cast(tf.abs(s) > 0.05, tf.complex64), 32, 8, 32, window_fn=tf.signal.inverse_stft_window_fn(8))
        return {"ola": ola, "istft": inv}

    return [], fn, [spec([None, None], name="wave")], [{"wave": f32(1, 128)}, {"wave": f32(2, 200)}]


# ---- while / cond with TensorLists -----------------------------------------------------------------------------


def while_cond():
    w = tf.Variable(f32(4, 4) * 0.5, name="w")

    def fn(x):
        n = tf.shape(x)[0]
        ta = tf.TensorArray(F, size=0, dynamic_size=True, element_shape=None)

        def body(i, h, ta):
            row = x[i]
            h = tf.cond(tf.reduce_sum(row * h) > 0, lambda: tf.tanh(tf.linalg.matvec(w, h) + row), lambda: h * 0.5 - row)
            return i + 1, h, ta.write(i, h)

        _, h, ta = tf.while_loop(lambda i, h, ta: i < n, body, (tf.constant(0), tf.ones([4]) * 0.1, ta))
        seq = ta.stack()
        big = tf.cond(tf.reduce_mean(seq) > 0, lambda: seq * 2.0, lambda: tf.exp(seq))
        return {"h": h, "seq": seq, "big": big}

    return [w], fn, [spec([None, 4], name="x")], [{"x": f32(5, 4)}, {"x": f32(9, 4)}]


# ---- Recurrent nets --------------------------------------------------------------------------------------------


def rnn_case(layer, shapes, mask=False):
    inp = keras.Input((None, 5))
    x = layers.Masking(0.0)(inp) if mask else inp
    m = keras.Model(inp, layer(x))

    def fn(seq):
        return {"out": m(seq, training=False)}

    feeds = [{"seq": f32(*s)} for s in shapes]
    if mask:
        feeds[0]["seq"][0, 3:] = 0.0
        feeds[1]["seq"][1, 1:3] = 0.0
    return [m], fn, [spec([None, None, 5], name="seq")], feeds


def gru():
    return rnn_case(layers.GRU(8), [(2, 6, 5), (3, 4, 5)])


def gru_sequences():
    return rnn_case(layers.GRU(6, return_sequences=True, reset_after=False), [(1, 5, 5), (2, 7, 5)])


def lstm():
    return rnn_case(layers.LSTM(7), [(2, 6, 5), (1, 9, 5)])


def lstm_sequences():
    return rnn_case(layers.LSTM(6, return_sequences=True), [(2, 5, 5), (3, 3, 5)])


def bilstm():
    return rnn_case(layers.Bidirectional(layers.LSTM(5, return_sequences=True)), [(2, 6, 5), (1, 4, 5)])


def lstm_masked():
    return rnn_case(layers.LSTM(6), [(2, 6, 5), (2, 4, 5)], mask=True)


# ---- 1-D conv over unknown time, text embedding, UNet ------------------------------------------------------------


def conv1d_time():
    inp = keras.Input((None, 4))
    x = layers.Conv1D(8, 3, padding="causal", dilation_rate=2, activation="relu")(inp)
    x = layers.Conv1D(8, 3, strides=2, padding="same", activation="tanh")(x)
    x = layers.BatchNormalization()(x)
    x = layers.MaxPooling1D(2, padding="same")(x)
    y = layers.Conv1D(4, 1)(x)
    out = layers.Dense(3)(layers.Concatenate()([layers.GlobalMaxPooling1D()(y), layers.GlobalAveragePooling1D()(y)]))
    m = perturb_batchnorm(keras.Model(inp, [out, y]))

    def fn(signal):
        o, s = m(signal, training=False)
        return {"logits": o, "features": s}

    return [m], fn, [spec([None, None, 4], name="signal")], [{"signal": f32(2, 20, 4)}, {"signal": f32(1, 33, 4)}]


def text_embedding():
    emb = layers.Embedding(50, 12, mask_zero=True)
    dense = layers.Dense(4)
    emb.build((None, None))
    dense.build((None, 12))

    def fn(ids, weights):
        e = emb(ids) * weights[..., None]
        mask = tf.cast(ids > 0, F)[..., None]
        mean = tf.reduce_sum(e * mask, 1) / tf.maximum(tf.reduce_sum(mask, 1), 1.0)
        return {"logits": dense(tf.concat([mean], -1)), "max": tf.reduce_max(e, 1)}

    r = np.random.RandomState(3)
    return [emb, dense], fn, [spec([None, None], I32, name="ids"), spec([None, None], name="weights")], [
        {"ids": r.randint(0, 50, (2, 6)).astype(np.int32), "weights": f32(2, 6)},
        {"ids": np.concatenate([r.randint(1, 50, (3, 4)), np.zeros((3, 5), np.int64)], 1).astype(np.int32), "weights": f32(3, 9)}]


def unet():
    """Conv2DTranspose whose output shape is computed from the run-time input, a resize to the skip's size inside a
    cond (taken when the sizes differ), concat skip connection."""
    down1 = layers.Conv2D(6, 3, padding="same", activation="relu")
    down2 = layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")
    up = layers.Conv2DTranspose(6, 3, strides=2, padding="same")
    head = layers.Conv2D(2, 1)
    k = tf.Variable(f32(3, 3, 4, 8) * 0.3, name="k")

    def fn(image):
        s1 = down1(image)
        s2 = down2(s1)
        u = up(s2)
        u = tf.cond(tf.reduce_any(tf.shape(u)[1:3] != tf.shape(s1)[1:3]), lambda: tf.image.resize(u, tf.shape(s1)[1:3]), lambda: u)
        sh = tf.shape(s2)
        u2 = tf.nn.conv2d_transpose(s2, k, tf.stack([sh[0], sh[1] * 2, sh[2] * 2, 4]), strides=2, padding="SAME")
        u2 = tf.image.resize(u2, tf.shape(s1)[1:3], method="nearest")
        return {"mask": head(tf.concat([u, s1, u2], -1))}

    fn(tf.zeros([1, 8, 8, 3]))
    return [down1, down2, up, head, k], fn, [spec([None, None, None, 3], name="image")], \
        [{"image": f32(1, 16, 16, 3)}, {"image": f32(2, 15, 13, 3)}]


CASES = {f.__name__: f for f in [
    mobilenet_v2, mobilenet_v3_small, efficientnet_tiny, resnet_blocks, densenet_block, inception_block, preprocess_resize, vit_patches,
    detection_nms, transformer, audio_mfcc, audio_resynth, while_cond, gru, gru_sequences, lstm, lstm_sequences, bilstm, lstm_masked,
    conv1d_time, text_embedding, unet,
]}


class Blob:
    def __init__(self):
        self.parts, self.size = [], 0

    def put(self, a):
        a = np.asarray(a)
        a = a.astype("<i4") if a.dtype.kind in "iub" else a.astype("<f4")
        ref = {"dtype": "int32" if a.dtype.kind == "i" else "float32", "shape": list(a.shape), "offset": self.size}
        self.parts.append(a.tobytes())
        self.size += a.nbytes
        return ref


def export(name):
    keras.utils.set_random_seed(29)
    keep, fn, specs, feeds = CASES[name]()
    m = Case(keep)
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    cf = tf.function(fn, input_signature=specs).get_concrete_function()
    tf.saved_model.save(m, d, signatures={"serving_default": cf})
    for extra in ("fingerprint.pb", "assets"):
        p = os.path.join(d, extra)
        if os.path.isdir(p) and not os.listdir(p):
            os.rmdir(p)
    loaded = tf.saved_model.load(d)  # kept alive: the signature refers to its variables
    sig = loaded.signatures["serving_default"]
    blob = Blob()
    runs = []
    for feed in feeds:
        inputs = {k: tf.constant(v) for k, v in feed.items()}
        watched = sorted(k for k in inputs if inputs[k].dtype == F)
        with tf.GradientTape() as tape:
            for k in watched:
                tape.watch(inputs[k])
            outs = cf(**inputs)
            weights = {k: f32(*outs[k].shape) for k in sorted(outs) if outs[k].dtype == F}
            loss = tf.add_n([tf.reduce_sum(outs[k] * weights[k]) for k in weights])
        grads = tape.gradient(loss, [inputs[k] for k in watched])
        for k, v in sig(**inputs).items():
            np.testing.assert_allclose(v.numpy(), outs[k].numpy(), rtol=1e-5, atol=1e-5, err_msg=f"{name}: the reloaded SavedModel's {k}")
        runs.append({
            "feeds": {k: blob.put(v) for k, v in feed.items()},
            "outputs": {k: blob.put(v.numpy()) for k, v in sorted(outs.items())},
            "weights": {k: blob.put(v) for k, v in weights.items()},
            "grads": {k: (None if g is None else blob.put(g.numpy())) for k, g in zip(watched, grads)},
        })
    sig_def = sig.structured_input_signature[1]
    meta = {
        "inputs": {k: {"dtype": dtype_name(s.dtype), "shape": [-1 if d is None else d for d in s.shape.as_list()]} for k, s in sorted(sig_def.items())},
        "outputs": sorted(sig.structured_outputs),
        "runs": runs,
    }
    with open(os.path.join(OUT, f"{name}.bin"), "wb") as f:
        f.write(b"".join(blob.parts))
    with open(os.path.join(OUT, f"{name}.json"), "w") as f:
        json.dump(meta, f, indent=1)
    size = sum(os.path.getsize(os.path.join(r, x)) for r, _, fs in os.walk(d) for x in fs) + blob.size
    print(f"{name}: {size / 1e6:.2f} MB, {m.n_params} parameters", flush=True)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in sys.argv[1:] or CASES:
        export(name)


if __name__ == "__main__":
    main()
