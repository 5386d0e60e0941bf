// Issue 11's nn ops: eager dispatch of conv2d/depthwise/pool/activations vs the same raw tfjs op (target <= 1.25x), and a traced
// chain of the new float32 activations (elu, selu, softplus, relu6) with old ops vs raw tfjs eager (target <= 0.3x).
'use strict';

const ef = require('eagerflow');
const tf = require('@tensorflow/tfjs-core');
const { measure, ratioRow } = require('./harness');

if (ef.internal.backend.tfjs.engine() !== tf.engine()) {
  throw new Error('nn.bench: eagerflow and @tensorflow/tfjs-core resolve to different engines; the comparison would be meaningless.');
}

const seq = (n, f) => Float32Array.from({ length: n }, (_, i) => f(i));
// Small tensors: dispatch overhead dominates (a large conv would hide it behind the kernel). eager-nn-*: CPU time
// of one public ef call (argument checks, shape inference, the tfjs kernel, the result's wrapper, dispose) over
// one call of the same raw tfjs op, interleaved batches of 500, medians over 21 rounds.
const x = ef.constant(seq(1 * 6 * 6 * 2, (i) => Math.sin(i)), 'float32', [1, 6, 6, 2]);
const f = ef.constant(seq(3 * 3 * 2 * 2, (i) => Math.cos(i)), 'float32', [3, 3, 2, 2]);
const v = ef.constant([[0.5, -1.5], [2.25, -0.75]]);
const [tx, tfl, tv] = [x.toTfjs(), f.toTfjs(), v.toTfjs()];

const PAIRS = {
  conv2d: [() => ef.nn.conv2d(x, f, 1, 'SAME').dispose(), () => tf.conv2d(tx, tfl, 1, 'same').dispose()],
  depthwiseConv2d: [() => ef.nn.depthwiseConv2d(x, f, 1, 'SAME').dispose(), () => tf.depthwiseConv2d(tx, tfl, 1, 'same').dispose()],
  maxPool2d: [() => ef.nn.maxPool2d(x, 2, 2, 'VALID').dispose(), () => tf.maxPool(tx, 2, 2, 'valid').dispose()],
  elu: [() => ef.nn.elu(v).dispose(), () => tf.elu(tv).dispose()],
  softplus: [() => ef.nn.softplus(v).dispose(), () => tf.softplus(tv).dispose()],
  leakyRelu: [() => ef.nn.leakyRelu(v).dispose(), () => tf.leakyRelu(tv, 0.2).dispose()],
};

const before = tf.memory().numTensors;
const oks = [];
for (const [name, [efFn, tfFn]] of Object.entries(PAIRS)) {
  const us = measure({ ef: efFn, tfjs: tfFn }, { batch: 500, rounds: 21, warmup: 8 });
  console.log(`eager ${name}: ef ${us.ef.cpu.toFixed(2)} us, tfjs ${us.tfjs.cpu.toFixed(2)} us (CPU time)`);
  oks.push(ratioRow('ef / tfjs cpu time', { group: 'eager nn ops (small tensors)', name: `eager-nn-${name}`, backend: 'cpu', ef: us.ef.cpu, tfjs: us.tfjs.cpu, ratio: us.ef.cpu / us.tfjs.cpu, target: 1.25 }));
}
if (tf.memory().numTensors !== before) throw new Error('nn.bench: the timed eager loops leaked tensors.');

// A 48-op chain on [256] mixing old (multiply, add, tanh) and new (elu, selu, softplus, relu6) elementwise ops;
// CPU fusion runs it as one host loop when traced (every op has a scalar fact).
const N = 256;
const c = ef.constant(seq(N, (i) => Math.sin(i) * 3));
const tc = c.toTfjs();
function chainEf(y) {
  for (let i = 0; i < 6; i++) {
    const e = ef.nn.elu(ef.multiply(y, 0.9));
    const s = ef.nn.selu(ef.add(y, -0.25));
    y = ef.tanh(ef.nn.relu6(ef.nn.softplus(ef.add(ef.multiply(e, 0.5), ef.multiply(s, 0.25)))));
  }
  return y;
}
function chainTf(y) {
  for (let i = 0; i < 6; i++) {
    const e = tf.elu(tf.mul(y, 0.9));
    const s = tf.selu(tf.add(y, -0.25));
    y = tf.tanh(tf.relu6(tf.softplus(tf.add(tf.mul(e, 0.5), tf.mul(s, 0.25)))));
  }
  return y;
}
// The arithmetic alone, written by hand: the same per-element formulas as tfjs's cpu kernels (Elu, Selu,
// Softplus, Relu6, Tanh), each step rounded to float32 like a kernel's output, in one loop with no tensors,
// one element at a time. It shows how much of the call is the math itself (for reading the ratio; not a
// target). The fused loop computes the same values but interleaves 8 elements per pass (independent chains
// overlap in the processor), so it runs below this loop.
const SELU_SCALE = 1.0507009873554804934193349852946;
const SELU_SCALEALPHA = 1.7580993408473768599402175208123;
const SOFTPLUS_T = Math.log(1.1920928955078125e-7) + 2.0;
const fr = Math.fround;
const hostC = c.dataSync();
function chainByHand() {
  const out = new Float32Array(N);
  for (let i = 0; i < N; i++) {
    let y = hostC[i];
    for (let k = 0; k < 6; k++) {
      const a = fr(y * fr(0.9));
      const e = fr(a >= 0 ? a : Math.exp(a) - 1);
      const b = fr(y + -0.25);
      const s = fr(b >= 0 ? SELU_SCALE * b : SELU_SCALEALPHA * (Math.exp(b) - 1));
      const z = fr(fr(e * 0.5) + fr(s * 0.25));
      const sp = fr(z < SOFTPLUS_T ? Math.exp(z) : z > -SOFTPLUS_T ? z : Math.log(1.0 + Math.exp(z)));
      y = fr(Math.tanh(fr(Math.min(Math.max(0, sp), 6))));
    }
    out[i] = y;
  }
  return out;
}
const traced = ef.trace(chainEf);
traced(c).dispose();
const want = tf.tidy(() => chainTf(tc).dataSync());
const got = traced(c).dataSync();
const byHand = chainByHand();
for (let i = 0; i < N; i++) if (want[i] !== got[i]) throw new Error(`nn.bench: the traced chain differs from tfjs at ${i}: ${got[i]} vs ${want[i]}`);
for (let i = 0; i < N; i++) if (want[i] !== byHand[i]) throw new Error(`nn.bench: the hand-written chain differs from tfjs at ${i}: ${byHand[i]} vs ${want[i]}`);
const beforeChain = tf.memory().numTensors;
const chain = measure({ traced: () => traced(c).dispose(), tfjs: () => tf.tidy(() => chainTf(tc)).dispose(), byHand: () => chainByHand() }, { batch: 50, rounds: 15 });
if (tf.memory().numTensors !== beforeChain) throw new Error('nn.bench: the timed chain loops leaked tensors.');
console.log(`traced activation chain (48 ops, [${N}]): ${chain.traced.cpu.toFixed(1)} us/call, tfjs eager ${chain.tfjs.cpu.toFixed(1)} us/call (CPU time)`);
// trace-chain-nn-activations: CPU time of one call of the traced chain (CPU fusion runs it as one generated
// loop; with fusion off it takes ~2.7x longer) over one raw tfjs eager run of the same 48 ops in a tidy,
// interleaved medians. Nearly all of the traced call is the transcendental math (exp in elu/selu/softplus,
// log in softplus, tanh: ~24 calls per element), which tfjs eager pays too (the hand-written loop printed
// next shows it).
oks.push(ratioRow('traced / tfjs eager CPU time', { group: 'traced chains', name: 'trace-chain-nn-activations', backend: 'cpu', ef: chain.traced.cpu, tfjs: chain.tfjs.cpu, ratio: chain.traced.cpu / chain.tfjs.cpu, target: 0.3 }));
console.log(`  floor: the same arithmetic in a hand-written one-element-at-a-time loop = ${chain.byHand.cpu.toFixed(1)} us/call, ${(chain.byHand.cpu / chain.tfjs.cpu).toFixed(2)}x of tfjs eager; traced / hand-written = ${(chain.traced.cpu / chain.byHand.cpu).toFixed(2)}x`);

// Fused epilogues (the epilogue pass): a traced conv2d + bias + relu and a traced dense layer (matmul + bias + relu)
// run as one tfjs fused kernel (fused_conv2d / fused_matmul), against raw tfjs eager unfused (three ops in a tidy)
// and tfjs's own tf.fused.conv2d / tf.fused.matMul. CPU time per call, interleaved medians; results checked equal.
const xe = ef.constant(seq(1 * 32 * 32 * 16, (i) => Math.sin(i * 0.37)), 'float32', [1, 32, 32, 16]);
const fe = ef.constant(seq(3 * 3 * 16 * 16, (i) => Math.cos(i * 0.11) * 0.2), 'float32', [3, 3, 16, 16]);
const be = ef.constant(seq(16, (i) => (i % 5) * 0.1 - 0.2));
const xd = ef.constant(seq(64 * 256, (i) => Math.sin(i * 0.13)), 'float32', [64, 256]);
const kd = ef.constant(seq(256 * 128, (i) => Math.cos(i * 0.07) * 0.1), 'float32', [256, 128]);
const bd = ef.constant(seq(128, (i) => (i % 7) * 0.05 - 0.1));
const [txe, tfe, tbe, txd, tkd, tbd] = [xe, fe, be, xd, kd, bd].map((t) => t.toTfjs());
const EPILOGUES = {
  'conv2d-bias-relu [1,32,32,16]x[3,3,16,16]': {
    traced: ef.trace((v, w, b) => ef.nn.relu(ef.nn.biasAdd(ef.nn.conv2d(v, w, 1, 'SAME'), b))),
    args: [xe, fe, be],
    unfused: () => tf.tidy(() => tf.relu(tf.add(tf.conv2d(txe, tfe, 1, 'same'), tbe))),
    fused: () => tf.fused.conv2d({ x: txe, filter: tfe, strides: 1, pad: 'same', bias: tbe, activation: 'relu' }),
    eager: () => ef.tidy(() => ef.nn.relu(ef.nn.biasAdd(ef.nn.conv2d(xe, fe, 1, 'SAME'), be))),
    prim: 'fused_conv2d',
  },
  'dense-bias-relu [64,256]x[256,128]': {
    traced: ef.trace((v, w, b) => ef.nn.relu(ef.add(ef.matmul(v, w), b))),
    args: [xd, kd, bd],
    unfused: () => tf.tidy(() => tf.relu(tf.add(tf.matMul(txd, tkd), tbd))),
    fused: () => tf.fused.matMul({ a: txd, b: tkd, bias: tbd, activation: 'relu' }),
    eager: () => ef.tidy(() => ef.nn.relu(ef.add(ef.matmul(xd, kd), bd))),
    prim: 'fused_matmul',
  },
};
for (const [name, e] of Object.entries(EPILOGUES)) {
  const prims = e.traced.getConcreteFunction(...e.args).graph.nodes.map((n) => n.prim.name);
  if (prims.join() !== e.prim) throw new Error(`nn.bench: ${name} traced to [${prims}], not one ${e.prim} node`);
  const [a, b, c3] = [e.traced(...e.args), e.unfused(), e.fused()];
  const [av, bv, cv] = [a.dataSync(), b.dataSync(), c3.dataSync()];
  for (let i = 0; i < av.length; i++) if (Math.abs(av[i] - bv[i]) > 1e-4 * (1 + Math.abs(bv[i])) || Math.abs(cv[i] - bv[i]) > 1e-4 * (1 + Math.abs(bv[i]))) throw new Error(`nn.bench: ${name} differs at ${i}: ${av[i]}, ${bv[i]}, ${cv[i]}`);
  [a, b, c3].forEach((t) => t.dispose());
  const beforeE = tf.memory().numTensors;
  const m = measure({ traced: () => e.traced(...e.args).dispose(), unfused: () => e.unfused().dispose(), fused: () => e.fused().dispose(), efEager: () => e.eager().dispose() }, { batch: 10, rounds: 15, warmup: 3 });
  if (tf.memory().numTensors !== beforeE) throw new Error(`nn.bench: the timed ${name} loops leaked tensors.`);
  console.log(`${name}: traced (fused node) ${m.traced.cpu.toFixed(0)} us, tfjs eager unfused ${m.unfused.cpu.toFixed(0)} us, tf.fused ${m.fused.cpu.toFixed(0)} us; ef eager unfused ${m.efEager.cpu.toFixed(0)} us (CPU time per call)`);
  const short = name.split(' ')[0];
  oks.push(ratioRow('traced / tfjs eager unfused CPU time', { group: 'fused epilogues (traced) vs tfjs eager unfused', name: `fused-epilogue-${short}`, backend: 'cpu', ef: m.traced.cpu, tfjs: m.unfused.cpu, ratio: m.traced.cpu / m.unfused.cpu, target: 1.1 }));
  oks.push(ratioRow('traced / tf.fused CPU time', { group: 'fused epilogues (traced) vs tf.fused', name: `fused-epilogue-${short}-vs-tf.fused`, backend: 'cpu', ef: m.traced.cpu, tfjs: m.fused.cpu, ratio: m.traced.cpu / m.fused.cpu, target: 1.25 }));
}

process.exitCode = oks.every(Boolean) || process.env.BENCH_STRICT !== '1' ? 0 : 1;
