// The three train steps of issue 31 (a small conv net, an MLP, an attention block with layer norm), defined once
// for bench/train_steps.bench.js (EagerFlow) and bench/tf_train_steps.py (TensorFlow 2 Python): the same
// initial values and data (deterministic formulas, written to a folder the Python side reads), one SGD step.
'use strict';

/** Deterministic values in [-scale, scale): a sine of the index, as both sides compute them from the shape. */
function values(n, seed, scale) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.sin(i * 0.7071 + seed * 1.618) * scale;
  return out;
}

const NETS = {
  conv: {
    what: 'small conv net (batch 16, 28x28x1, conv 8 + max pool + dense 10)',
    x: [16, 28, 28, 1],
    classes: 10,
    params: { k: [3, 3, 1, 8], kb: [8], w: [14 * 14 * 8, 10], b: [10] },
  },
  mlp: {
    what: 'MLP 784-256-256-10, batch 128',
    x: [128, 784],
    classes: 10,
    params: { w1: [784, 256], b1: [256], w2: [256, 256], b2: [256], w3: [256, 10], b3: [10] },
  },
  attention: {
    what: 'attention block (batch 8, 32 tokens, width 64, layer norm)',
    x: [8, 32, 64],
    classes: 10,
    params: { wq: [64, 64], wk: [64, 64], wv: [64, 64], wo: [64, 64], gamma: [64], beta: [64], wc: [64, 10], bc: [10] },
  },
};

const LR = 0.01;
const size = (s) => s.reduce((a, b) => a * b, 1);

/** Initial values: glorot-like scales for matrices, ones for gamma, zeros for biases and beta. */
function initOf(net) {
  return Object.fromEntries(Object.entries(NETS[net].params).map(([name, shape], k) => {
    if (name === 'gamma') return [name, new Float32Array(size(shape)).fill(1)];
    if (shape.length === 1) return [name, new Float32Array(size(shape))];
    const fanIn = size(shape.slice(0, -1));
    const fanOut = shape[shape.length - 1];
    return [name, values(size(shape), k + 1, Math.sqrt(6 / (fanIn + fanOut)))];
  }));
}

const dataOf = (net) => ({
  x: values(size(NETS[net].x), 0, 1),
  y: Int32Array.from({ length: NETS[net].x[0] }, (_, i) => (i * 7) % NETS[net].classes),
});

/** Writes every net's initial values and data as raw little-endian files plus manifest.json into `dir`. */
function writeForPython(dir) {
  const fs = require('node:fs');
  const path = require('node:path');
  const manifest = {};
  for (const net of Object.keys(NETS)) {
    const init = initOf(net);
    const { x, y } = dataOf(net);
    const files = { x: { shape: NETS[net].x, dtype: 'float32' }, y: { shape: [NETS[net].x[0]], dtype: 'int32' } };
    fs.writeFileSync(path.join(dir, `${net}.x.bin`), Buffer.from(x.buffer));
    fs.writeFileSync(path.join(dir, `${net}.y.bin`), Buffer.from(y.buffer));
    for (const [name, v] of Object.entries(init)) {
      fs.writeFileSync(path.join(dir, `${net}.${name}.bin`), Buffer.from(v.buffer));
      files[name] = { shape: NETS[net].params[name], dtype: 'float32' };
    }
    manifest[net] = { files, lr: LR };
  }
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
}

/**
 * The EagerFlow step of `net`: returns { step(x, y) -> loss, vars }, the tape inside, SGD as v.assignSub(lr * g).
 * `ef` is the library, `jitCompile` the trace option (false: traced only).
 */
function efStep(ef, net, jitCompile) {
  const init = initOf(net);
  const vars = Object.fromEntries(Object.entries(init).map(([name, v]) => [name, new ef.Variable(ef.constant(v, 'float32', NETS[net].params[name]))]));
  const list = Object.values(vars);
  const forward = {
    conv: (x) => {
      const h = ef.relu(ef.nn.biasAdd(ef.nn.conv2d(x, vars.k, 1, 'SAME'), vars.kb));
      const p = ef.nn.maxPool(h, 2, 2, 'VALID');
      return ef.add(ef.matmul(ef.reshape(p, [NETS.conv.x[0], -1]), vars.w), vars.b);
    },
    mlp: (x) => {
      const h1 = ef.relu(ef.add(ef.matmul(x, vars.w1), vars.b1));
      const h2 = ef.relu(ef.add(ef.matmul(h1, vars.w2), vars.b2));
      return ef.add(ef.matmul(h2, vars.w3), vars.b3);
    },
    attention: (x) => {
      const q = ef.matmul(x, vars.wq);
      const k = ef.matmul(x, vars.wk);
      const v = ef.matmul(x, vars.wv);
      const a = ef.nn.softmax(ef.multiply(ef.matmul(q, k, false, true), 1 / 8));
      const h = ef.add(x, ef.matmul(ef.matmul(a, v), vars.wo));
      const { mean, variance } = ef.nn.moments(h, [-1], { keepDims: true });
      const n = ef.add(ef.multiply(ef.divide(ef.subtract(h, mean), ef.sqrt(ef.add(variance, 1e-5))), vars.gamma), vars.beta);
      return ef.add(ef.matmul(ef.reduceMean(n, 1), vars.wc), vars.bc);
    },
  }[net];
  const step = ef.trace((x, y) => {
    const tape = new ef.GradientTape();
    const loss = tape.record(() => ef.reduceMean(ef.nn.sparseSoftmaxCrossEntropyWithLogits(y, forward(x))));
    const grads = tape.gradient(loss, list);
    grads.forEach((g, i) => list[i].assignSub(ef.multiply(g, LR)));
    return loss;
  }, { jitCompile });
  return { step, vars: list };
}

module.exports = { NETS, LR, initOf, dataOf, writeForPython, efStep };
