// Harness cases for normalization, losses and layout ops: batch norms, moments, LRN, l2, cross-entropies, embeddingLookup, inTopK, depth/space/batch moves.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, Gen, InputSpec, TfCall, tfFloat, tfTensor as T } from './case';
import { Ref, map, reduce, sizeOf, unravel, zip } from './ref';
import * as R from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_batchToSpaceNd: TfCall = { fn: 'tf.batch_to_space', cases: 'none', extra: [
    { name: '2x2 blocks', args: [T([0, 1, 2, 3, 4, 5, 6, 7], undefined, [4, 1, 1, 2]), [2, 2], [[0, 0], [0, 0]]] },
    { name: 'crops', args: [T([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], undefined, [4, 2, 2, 1]), [2, 2], [[0, 1], [1, 0]]] },
    { name: 'batch not divisible', args: [T([0, 1, 2, 3, 4, 5], undefined, [3, 1, 1, 2]), [2, 2], [[0, 0], [0, 0]]], grad: false },
  ] };
const TF_math_l2Normalize: TfCall = { fn: 'tf.math.l2_normalize', cases: 'none', params: ['x', ['axis', null]], extra: [
    { name: 'all', args: [IN.t2x3] },
    { name: 'axis 1', args: [IN.t2x3, 1] },
    { name: 'zeros', args: [T([0, 0]), 0] },
  ] };
const TF_nn_batchNormalization: TfCall = { fn: 'tf.nn.batch_normalization', cases: 'none', extra: [
    { name: 'full', args: [IN.t2x3, T([0.5, -1, 0]), T([1, 4, 0.25]), T([0, 1, -1]), T([2, 0.5, 1]), 0.001] },
    { name: 'no offset no scale', args: [IN.t2x3, T([0.5, -1, 0]), T([1, 4, 0.25]), null, null, 0.001] },
  ] };
const TF_nn_depthToSpace: TfCall = { fn: 'tf.nn.depth_to_space', cases: 'none', params: ['x', 'b', ['f', 'NHWC']], keywords: { data_format: 'f' }, extra: [
    { name: 'block 2', args: [T([0, 1, 2, 3, 4, 5, 6, 7], undefined, [1, 1, 2, 4]), 2] },
    { name: '2x2 block 2', args: [T([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31], undefined, [1, 2, 2, 8]), 2] },
    { name: 'depth not divisible', args: [T([0, 1, 2, 3, 4, 5], undefined, [1, 1, 2, 3]), 2], grad: false },
  ] };
const TF_nn_embeddingLookup: TfCall = { fn: 'tf.nn.embedding_lookup', cases: 'none', extra: [
    { name: 'rows', args: [IN.t2x3, T([1, 0, 1], 'int32')] },
    { name: '2-D ids', args: [IN.t2x3, T([0, 1], 'int32', [2, 1])] },
    { name: 'id out of range', args: [IN.t2x3, T([2], 'int32')], grad: false },
  ] };
const TF_nn_fusedBatchNorm: TfCall = { fn: 'tf.compat.v1.nn.fused_batch_norm', cases: 'none', params: ['x', 's', 'b'], options: { epsilon: ['epsilon', 0.001] }, extra: [
    { name: 'training', args: [IN.t1x4x4x2, T([1, 0.5]), T([0, -1])], grad: false },
  ] };
const TF_nn_inTopK: TfCall = { fn: 'tf.math.in_top_k', cases: 'none', extra: [
    { name: 'k 1', args: [T([0, 1], 'int32'), T([0.9, 0.1, 0.8, 0.2], undefined, [2, 2]), 1], grad: false },
    { name: 'ties count in', args: [T([1, 2], 'int32'), T([1, 1, 0, 0.5, 0.5, 0.5], undefined, [2, 3]), 1], grad: false },
    { name: 'k 2', args: [T([2], 'int32'), T([0.1, 0.5, 0.3], undefined, [1, 3]), 2], grad: false },
    { name: 'non-finite', args: [T([0, 1], 'int32'), T([NaN, 1, 0, Infinity], undefined, [2, 2]), 1], grad: false },
  ] };
const TF_nn_l2Loss: TfCall = { fn: 'tf.nn.l2_loss', cases: 'none', extra: [
    { name: 'vector', args: [T([1, -2, 3])] },
    { name: 'matrix', args: [IN.t2x3] },
    { name: 'special values', args: [T([Infinity, 1])] },
    { name: 'empty', args: [T([])] },
  ] };
const TF_nn_localResponseNormalization: TfCall = { expr: "lambda x, o={}: tf.nn.local_response_normalization(x, opt(o, 'depthRadius', 5), opt(o, 'bias', 1.0), opt(o, 'alpha', 1.0), opt(o, 'beta', 0.5))", why: "ef's options object becomes TF's keyword arguments", cases: 'none', extra: [
    { name: 'defaults', args: [IN.t1x4x4x2] },
    { name: 'radius 1', args: [IN.t1x4x4x2, { depthRadius: 1, bias: tfFloat(2), alpha: 0.5, beta: 0.75 }] },
  ] };
const TF_nn_moments: TfCall = { fn: 'tf.nn.moments', cases: 'none', params: ['x', 'axes'], options: { keepdims: ['keepDims', false] }, extra: [
    { name: 'axis 0', args: [IN.t2x3, [0]], grad: false },
    { name: 'all', args: [IN.t2x3, [0, 1]], grad: false },
    { name: 'keepDims', args: [IN.t2x3, [1], { keepDims: true }], grad: false },
  ] };
const TF_nn_sigmoidCrossEntropyWithLogits: TfCall = { fn: 'tf.nn.sigmoid_cross_entropy_with_logits', cases: 'none', extra: [
    { name: 'basic', args: [T([0, 1, 0.5, 1, 0, 0.25]), T([-2, 3, 0, -100, 100, 1.5])] },
    { name: 'shape mismatch', args: [T([0, 1]), T([1])], grad: false },
  ] };
const TF_nn_softmaxCrossEntropyWithLogits: TfCall = { fn: 'tf.nn.softmax_cross_entropy_with_logits', cases: 'none', params: ['l', 'x', ['axis', -1]], keywords: { axis: 'axis' }, extra: [
    { name: 'rows', args: [T([0, 1, 0, 0.2, 0.3, 0.5], undefined, [2, 3]), IN.t2x3] },
    { name: 'axis 0', args: [T([0, 1, 0, 1, 0, 1], undefined, [2, 3]), IN.t2x3, 0] },
    { name: 'large logits', args: [T([1, 0]), T([1000, -1000])] },
  ] };
const TF_nn_spaceToDepth: TfCall = { fn: 'tf.nn.space_to_depth', cases: 'none', params: ['x', 'b', ['f', 'NHWC']], keywords: { data_format: 'f' }, extra: [
    { name: 'block 2', args: [T([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], undefined, [1, 2, 4, 2]), 2] },
    { name: 'not divisible', args: [IN.t1x3x2x1, 2], grad: false },
  ] };
const TF_nn_sparseSoftmaxCrossEntropyWithLogits: TfCall = { fn: 'tf.nn.sparse_softmax_cross_entropy_with_logits', cases: 'none', extra: [
    { name: 'rows', args: [T([2, 0], 'int32'), IN.t2x3] },
    { name: 'label out of range', args: [T([3, 0], 'int32'), IN.t2x3], grad: false },
  ] };
const TF_spaceToBatchNd: TfCall = { fn: 'tf.space_to_batch_nd', cases: 'none', extra: [
    { name: '2x2 blocks', args: [T([0, 1, 2, 3, 4, 5, 6, 7], undefined, [1, 2, 2, 2]), [2, 2], [[0, 0], [0, 0]]] },
    { name: 'paddings', args: [IN.t1x3x2x1, [2, 2], [[0, 1], [1, 1]]] },
    { name: 'not divisible', args: [IN.t1x3x2x1, [2, 2], [[0, 0], [0, 0]]], grad: false },
  ] };

const F = (shape: number[], gen?: Gen): InputSpec => ({ shape, gen });
const I = (shape: number[], gen: Gen = 'index'): InputSpec => ({ shape, dtype: 'int32', gen });
const fixed = (values: number[], shape = [values.length]): InputSpec => ({ shape, values });
const bindRec = (name: ef.internal.PrimitiveName, ins: ef.Tensor[], params: Record<string, unknown>): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES[name], ins, params)[0];

/** Builds a Ref of `shape` from an index function. */
const build = (shape: number[], f: (idx: number[]) => number, dtype: ef.DType = 'float32'): Ref => new Ref(shape, Array.from({ length: sizeOf(shape) }, (_, i) => f(unravel(i, shape))), dtype);
const at = (x: Ref, idx: number[]): number => x.num(R.ravel(idx, x.shape));

/** (x - mean)·scale/sqrt(var + eps) + offset along the last axis (or axis 1). */
function bnRef(x: Ref, s: Ref, b: Ref, m: Ref, v: Ref, eps: number, chAxis: number): Ref {
  return build(x.shape, (i) => {
    const c = i[chAxis];
    return ((at(x, i) - m.num(c)) * s.num(c)) / Math.sqrt(v.num(c) + eps) + b.num(c);
  });
}

function batchStats(x: Ref, chAxis: number): { mean: Ref; variance: Ref; n: number } {
  const axes = x.shape.map((_, i) => i).filter((i) => i !== chAxis);
  const n = axes.reduce((a, i) => a * x.shape[i], 1);
  const mean = map(reduce(x, axes, false, 0, (a, v) => a + v), (v) => v / n);
  const variance = build([x.shape[chAxis]], ([c]) => {
    let s = 0;
    for (let f = 0; f < x.size; f++) if (unravel(f, x.shape)[chAxis] === c) s += (x.num(f) - mean.num(c)) ** 2;
    return s / n;
  });
  return { mean, variance, n };
}

const bn: ForwardCase[] = [
  {
    prim: 'fused_batch_norm', api: 'nn.fusedBatchNorm', tfCall: TF_nn_fusedBatchNorm, tfOps: ['FusedBatchNormV3'], name: 'fusedBatchNorm inference NHWC', inputs: [F([2, 2, 2, 3]), F([3]), F([3]), F([3]), F([3], 'positive')],
    op: (x, s, b, m, v) => ef.nn.fusedBatchNorm(x, s, b, { mean: m, variance: v, isTraining: false, epsilon: 1e-3 }),
    ref: (x, s, b, m, v) => ({ y: bnRef(x, s, b, m, v, 1e-3, 3), batchMean: m, batchVariance: v }),
  },
  {
    prim: 'fused_batch_norm', api: 'nn.fusedBatchNorm', tfCall: TF_nn_fusedBatchNorm, tfOps: ['FusedBatchNormV3'], name: 'fusedBatchNorm inference NCHW', noConverter: "the converter's FusedBatchNorm ignores data_format", inputs: [F([1, 3, 2, 2]), F([3]), F([3]), F([3]), F([3], 'positive')],
    op: (x, s, b, m, v) => ef.nn.fusedBatchNorm(x, s, b, { mean: m, variance: v, isTraining: false, dataFormat: 'NCHW' }),
    ref: (x, s, b, m, v) => ({ y: bnRef(x, s, b, m, v, 1e-3, 1), batchMean: m, batchVariance: v }),
  },
  {
    prim: 'fused_batch_norm', api: 'nn.fusedBatchNorm', tfCall: TF_nn_fusedBatchNorm, tfOps: ['FusedBatchNormV3', 'Sum'], name: 'fusedBatchNorm training (batch moments, unbiased batchVariance)', inputs: [F([3, 2, 2]), F([2]), F([2])],
    op: (x, s, b) => ef.nn.fusedBatchNorm(x, s, b),
    ref: (x, s, b) => {
      const st = batchStats(x, 2);
      return { y: bnRef(x, s, b, st.mean, st.variance, 1e-3, 2), batchMean: st.mean, batchVariance: map(st.variance, (v) => (v * st.n) / (st.n - 1)) };
    },
    rtol: 1e-4, atol: 1e-5,
  },
  {
    prim: 'sqrt', api: 'nn.batchNormalization', tfCall: TF_nn_batchNormalization, tfOps: ['Sqrt'], name: 'batchNormalization with offset and scale', inputs: [F([2, 3]), F([3]), F([3], 'positive'), F([3]), F([3])],
    op: (x, m, v, b, s) => ef.nn.batchNormalization(x, m, v, b, s, 1e-3), ref: (x, m, v, b, s) => bnRef(x, s, b, m, v, 1e-3, 1),
  },
  {
    prim: 'sqrt', api: 'nn.batchNormalization', tfCall: TF_nn_batchNormalization, tfOps: ['Sqrt'], name: 'batchNormalization without offset and scale', inputs: [F([2, 2]), F([2]), F([2], 'positive')],
    op: (x, m, v) => ef.nn.batchNormalization(x, m, v, null, null, 0), ref: (x, m, v) => bnRef(x, map(m, () => 1), map(m, () => 0), m, v, 0, 1),
  },
  {
    prim: 'sum', api: 'nn.moments', tfCall: TF_nn_moments, tfOps: ['Sum'], name: 'moments over axis 0', inputs: [F([3, 4])], op: (x) => ef.nn.moments(x, [0]),
    ref: (x) => ({ mean: batchStats(x, 1).mean, variance: batchStats(x, 1).variance }),
  },
  {
    prim: 'sum', api: 'nn.moments', tfCall: TF_nn_moments, tfOps: ['Sum'], name: 'moments keepDims over axes [0, 1]', inputs: [F([2, 3, 2])], op: (x) => ef.nn.moments(x, [0, 1], { keepDims: true }),
    ref: (x) => ({ mean: R.reshape(batchStats(x, 2).mean, [1, 1, 2]), variance: R.reshape(batchStats(x, 2).variance, [1, 1, 2]) }),
  },
];

function lrnRef(x: Ref, r: number, bias: number, alpha: number, beta: number): Ref {
  const C = x.shape[3];
  return build(x.shape, (i) => {
    let s = 0;
    for (let c = Math.max(0, i[3] - r); c <= Math.min(C - 1, i[3] + r); c++) s += at(x, [i[0], i[1], i[2], c]) ** 2;
    return at(x, i) / (bias + alpha * s) ** beta;
  });
}

const lrnRows: ForwardCase[] = [
  { prim: 'lrn', api: 'nn.localResponseNormalization', tfCall: TF_nn_localResponseNormalization, tfOps: ['LRN'], name: 'localResponseNormalization defaults', inputs: [F([1, 2, 2, 7])], op: (x) => ef.nn.localResponseNormalization(x), ref: (x) => lrnRef(x, 5, 1, 1, 0.5), secondOrder: false },
  {
    prim: 'lrn', api: 'nn.localResponseNormalization', tfCall: TF_nn_localResponseNormalization, tfOps: ['LRN'], name: 'localResponseNormalization radius 1', inputs: [F([2, 1, 2, 4])], secondOrder: false,
    op: (x) => ef.nn.localResponseNormalization(x, { depthRadius: 1, bias: 2, alpha: 0.5, beta: 0.75 }), ref: (x) => lrnRef(x, 1, 2, 0.5, 0.75), rtol: 1e-4,
  },
  {
    prim: 'lrn_grad', api: 'nn.localResponseNormalization', tfCall: TF_nn_localResponseNormalization, tfOps: ['LRNGrad'], name: 'localResponseNormalization gradient record', noConverter: 'the converter has no LRNGrad', inputs: [F([1, 1, 1, 3]), F([1, 1, 1, 3])], grad: false,
    op: (dy, x) => ef.tidy(() => bindRec('lrn_grad', [dy, x, ef.nn.localResponseNormalization(x, { depthRadius: 1 })], { depthRadius: 1, bias: 1, alpha: 1, beta: 0.5 })),
    ref: (dy, x) => {
      const h = 1e-6;
      return build(x.shape, (i) => {
        let g = 0;
        for (let c = 0; c < 3; c++) {
          const bump = (d: number): Ref => build(x.shape, (j) => at(x, j) + (j[3] === i[3] ? d : 0));
          g += dy.num(c) * (lrnRef(bump(h), 1, 1, 1, 0.5).num(c) - lrnRef(bump(-h), 1, 1, 1, 0.5).num(c)) / (2 * h);
        }
        return g;
      });
    },
    rtol: 1e-4, atol: 1e-5,
  },
];

function logSoftmaxRows(x: Ref): Ref {
  const m = reduce(x, [-1], true, -Infinity, Math.max);
  const s = reduce(zip(x, m, (a, b) => Math.exp(a - b)), [-1], true, 0, (a, b) => a + b);
  return zip(zip(x, m, (a, b) => a - b), s, (a, b) => a - Math.log(b));
}


const losses: ForwardCase[] = [
  { prim: 'sum', api: 'nn.l2Loss', tfCall: TF_nn_l2Loss, tfOps: ['Sum'], name: 'l2Loss', inputs: [F([2, 3])], op: (x) => ef.nn.l2Loss(x), ref: (x) => new Ref([], [x.data.reduce((a: number, v) => a + Number(v) ** 2, 0) / 2], 'float32') },
  {
    prim: 'sqrt', api: 'math.l2Normalize', tfCall: TF_math_l2Normalize, tfOps: ['Sqrt', 'Maximum'], name: 'l2Normalize along the last axis', inputs: [F([2, 3])], op: (x) => ef.math.l2Normalize(x, -1),
    ref: (x) => zip(x, reduce(x, [-1], true, 0, (a, v) => a + v * v), (a, s) => a / Math.sqrt(Math.max(s, 1e-12))),
  },
  { prim: 'sqrt', api: 'math.l2Normalize', tfCall: TF_math_l2Normalize, tfOps: ['Sqrt'], name: 'l2Normalize over everything (nn path)', inputs: [F([4])], op: (x) => ef.nn.l2Normalize(x), ref: (x) => zip(x, reduce(x, null, true, 0, (a, v) => a + v * v), (a, s) => a / Math.sqrt(s)) },
  {
    prim: 'log1p', api: 'nn.sigmoidCrossEntropyWithLogits', tfCall: TF_nn_sigmoidCrossEntropyWithLogits, tfOps: ['Log1p', 'SelectV2'], name: 'sigmoidCrossEntropyWithLogits with large logits', inputs: [F([2, 3], 'unit'), fixed([-50, -2, 0.5, 3, 40, -0.7], [2, 3])],
    op: (z, x) => ef.nn.sigmoidCrossEntropyWithLogits(z, x), ref: (z, x) => zip(z, x, (zz, xx) => Math.max(xx, 0) - xx * zz + Math.log1p(Math.exp(-Math.abs(xx)))),
  },
  {
    prim: 'log', api: 'nn.softmaxCrossEntropyWithLogits', tfCall: TF_nn_softmaxCrossEntropyWithLogits, tfOps: ['Log', 'Sum'], name: 'softmaxCrossEntropyWithLogits', inputs: [F([2, 4], 'positive'), F([2, 4])],
    op: (z, x) => ef.nn.softmaxCrossEntropyWithLogits(z, x), ref: (z, x) => map(reduce(zip(z, logSoftmaxRows(x), (a, b) => a * b), [-1], false, 0, (a, b) => a + b), (v) => -v),
  },
  {
    prim: 'log', api: 'nn.sparseSoftmaxCrossEntropyWithLogits', tfCall: TF_nn_sparseSoftmaxCrossEntropyWithLogits, tfOps: ['Log', 'Equal'], name: 'sparseSoftmaxCrossEntropyWithLogits', inputs: [I([4]), F([4, 3])], grad: [1],
    op: (z, x) => ef.nn.sparseSoftmaxCrossEntropyWithLogits(z, x), ref: (z, x) => build([4], ([r]) => -at(logSoftmaxRows(x), [r, z.num(r)])),
  },
  { prim: 'gather', api: 'nn.embeddingLookup', tfCall: TF_nn_embeddingLookup, tfOps: ['GatherV2'], name: 'embeddingLookup', inputs: [F([3, 2]), I([2, 2])], op: (p, i) => ef.nn.embeddingLookup(p, i), ref: (p, i) => build([2, 2, 2], ([a, b, c]) => at(p, [at(i, [a, b]), c])) },
  {
    prim: 'logical_and', api: 'nn.inTopK', tfCall: TF_nn_inTopK, tfOps: ['LogicalAnd', 'Greater'], name: 'inTopK k=2', inputs: [I([4]), F([4, 3])], op: (t, p) => ef.nn.inTopK(t, p, 2),
    ref: (t, p) => new Ref([4], [0, 1, 2, 3].map((r) => [0, 1, 2].filter((c) => at(p, [r, c]) > at(p, [r, t.num(r)])).length < 2), 'bool'),
  },
];

const d2s = (x: Ref, b: number): Ref => build([x.shape[0], x.shape[1] * b, x.shape[2] * b, x.shape[3] / (b * b)], ([n, h, w, c]) => at(x, [n, Math.floor(h / b), Math.floor(w / b), ((h % b) * b + (w % b)) * (x.shape[3] / (b * b)) + c]));
const s2d = (x: Ref, b: number): Ref => build([x.shape[0], x.shape[1] / b, x.shape[2] / b, x.shape[3] * b * b], ([n, h, w, d]) => {
  const C = x.shape[3];
  const blk = Math.floor(d / C);
  return at(x, [n, h * b + Math.floor(blk / b), w * b + (blk % b), d % C]);
});
const s2b = (x: Ref, bs: number[], pads: number[][]): Ref => {
  const N = x.shape[0];
  const out = [N * bs[0] * bs[1], (x.shape[1] + pads[0][0] + pads[0][1]) / bs[0], (x.shape[2] + pads[1][0] + pads[1][1]) / bs[1], x.shape[3]];
  return build(out, ([ob, h, w, c]) => {
    const n = ob % N;
    const off = Math.floor(ob / N);
    const [i0, i1] = [Math.floor(off / bs[1]), off % bs[1]];
    const [ph, pw] = [h * bs[0] + i0 - pads[0][0], w * bs[1] + i1 - pads[1][0]];
    return ph < 0 || pw < 0 || ph >= x.shape[1] || pw >= x.shape[2] ? 0 : at(x, [n, ph, pw, c]);
  });
};
const b2s = (x: Ref, bs: number[], crops: number[][]): Ref => {
  const N = x.shape[0] / (bs[0] * bs[1]);
  const out = [N, x.shape[1] * bs[0] - crops[0][0] - crops[0][1], x.shape[2] * bs[1] - crops[1][0] - crops[1][1], x.shape[3]];
  return build(out, ([n, h, w, c]) => {
    const [ph, pw] = [h + crops[0][0], w + crops[1][0]];
    return at(x, [((ph % bs[0]) * bs[1] + (pw % bs[1])) * N + n, Math.floor(ph / bs[0]), Math.floor(pw / bs[1]), c]);
  });
};
const toNchw = (x: Ref): Ref => R.transpose(x, [0, 3, 1, 2]);
const toNhwc = (x: Ref): Ref => R.transpose(x, [0, 2, 3, 1]);

const layout: ForwardCase[] = [
  { prim: 'depth_to_space', api: 'nn.depthToSpace', tfCall: TF_nn_depthToSpace, tfOps: ['DepthToSpace'], name: 'depthToSpace block 2', inputs: [F([2, 2, 1, 8])], op: (x) => ef.nn.depthToSpace(x, 2), ref: (x) => d2s(x, 2) },
  { prim: 'depth_to_space', api: 'nn.depthToSpace', tfCall: TF_nn_depthToSpace, tfOps: ['DepthToSpace'], name: 'depthToSpace NCHW', noConverter: "the converter's DepthToSpace is NHWC only", inputs: [F([1, 8, 1, 2])], op: (x) => ef.nn.depthToSpace(x, 2, { dataFormat: 'NCHW' }), ref: (x) => toNchw(d2s(toNhwc(x), 2)) },
  { prim: 'space_to_depth', api: 'nn.spaceToDepth', tfCall: TF_nn_spaceToDepth, tfOps: ['SpaceToDepth'], name: 'spaceToDepth block 2', noConverter: 'the converter has no SpaceToDepth', inputs: [F([1, 4, 2, 2])], op: (x) => ef.nn.spaceToDepth(x, 2), ref: (x) => s2d(x, 2) },
  { prim: 'space_to_batch_nd', api: 'spaceToBatchNd', tfCall: TF_spaceToBatchNd, tfOps: ['SpaceToBatchND'], name: 'spaceToBatchNd with paddings', inputs: [F([2, 4, 3, 1])], op: (x) => ef.spaceToBatchNd(x, [2, 2], [[0, 0], [1, 0]]), ref: (x) => s2b(x, [2, 2], [[0, 0], [1, 0]]) },
  { prim: 'batch_to_space_nd', api: 'batchToSpaceNd', tfCall: TF_batchToSpaceNd, tfOps: ['BatchToSpaceND'], name: 'batchToSpaceNd with crops', inputs: [F([8, 2, 3, 1])], op: (x) => ef.nn.batchToSpaceNd(x, [2, 2], [[0, 1], [1, 0]]), ref: (x) => b2s(x, [2, 2], [[0, 1], [1, 0]]) },
];

export const normCases: ForwardCase[] = [...bn, ...lrnRows, ...losses, ...layout];

const e = (prim: ef.internal.PrimitiveName, api: string, name: string, inputs: InputSpec[], run: (...xs: ef.Tensor[]) => unknown, op: string, got: string, expected: string): ErrorCase => ({ prim, api, name, inputs, run, op, got, expected });

export const normErrors: ErrorCase[] = [
  e('fused_batch_norm', 'nn.fusedBatchNorm', 'fusedBatchNorm scale of the wrong size', [F([1, 2, 2, 3]), F([2]), F([3])], (x, s, b) => ef.nn.fusedBatchNorm(x, s, b), 'fusedBatchNorm', 'shape [2]', 'shape [3]'),
  e('fused_batch_norm', 'nn.fusedBatchNorm', 'fusedBatchNorm inference without mean', [F([1, 3]), F([3]), F([3])], (x, s, b) => ef.nn.fusedBatchNorm(x, s, b, { isTraining: false }), 'fusedBatchNorm', 'isTraining: false without them', 'mean and variance tensors'),
  e('lrn', 'nn.localResponseNormalization', 'localResponseNormalization rank 3', [F([2, 2, 3])], (x) => ef.nn.localResponseNormalization(x), 'localResponseNormalization', 'shape [2, 2, 3]', 'rank 4 (NHWC)'),
  e('lrn_grad', 'nn.localResponseNormalization', 'LRN gradient record of int32', [I([1, 1, 1, 2]), F([1, 1, 1, 2]), F([1, 1, 1, 2])], (dy, x, y) => bindRec('lrn_grad', [dy, x, y], { depthRadius: 1, bias: 1, alpha: 1, beta: 0.5 }), 'localResponseNormalization', 'int32', 'float32'),
  e('log', 'nn.sparseSoftmaxCrossEntropyWithLogits', 'sparseSoftmaxCrossEntropyWithLogits float labels', [F([2]), F([2, 3])], (z, x) => ef.nn.sparseSoftmaxCrossEntropyWithLogits(z, x), 'sparseSoftmaxCrossEntropyWithLogits', 'float32', 'int32'),
  e('log', 'nn.softmaxCrossEntropyWithLogits', 'softmaxCrossEntropyWithLogits shape mismatch', [F([2, 3]), F([2, 4])], (z, x) => ef.nn.softmaxCrossEntropyWithLogits(z, x), 'softmaxCrossEntropyWithLogits', '(2, 3) and (2, 4)', 'equal shapes'),
  e('gather', 'nn.embeddingLookup', 'embeddingLookup float ids', [F([3, 2]), F([2])], (p, i) => ef.nn.embeddingLookup(p, i), 'embeddingLookup', 'float32', 'int32'),
  e('logical_and', 'nn.inTopK', 'inTopK rank-1 predictions', [I([2]), F([3])], (t, p) => ef.nn.inTopK(t, p, 1), 'inTopK', '(3,)', 'rank 2 [batch, classes]'),
  e('depth_to_space', 'nn.depthToSpace', 'depthToSpace channels not divisible', [F([1, 1, 1, 6])], (x) => ef.nn.depthToSpace(x, 2), 'depthToSpace', '6 channels for blockSize 2', 'a multiple of 4'),
  e('space_to_depth', 'nn.spaceToDepth', 'spaceToDepth odd height', [F([1, 3, 2, 1])], (x) => ef.nn.spaceToDepth(x, 2), 'spaceToDepth', '[3, 2] for blockSize 2', 'multiples of 2'),
  e('space_to_batch_nd', 'spaceToBatchNd', 'spaceToBatchNd paddings not divisible', [F([1, 3, 2, 1])], (x) => ef.spaceToBatchNd(x, [2, 2], [[0, 0], [0, 0]]), 'spaceToBatchNd', 'size 3 + paddings [0, 0] in dim 1 for block 2', 'a multiple of 2'),
  e('batch_to_space_nd', 'batchToSpaceNd', 'batchToSpaceNd batch not divisible', [F([3, 1, 1, 1])], (x) => ef.batchToSpaceNd(x, [2, 1], [[0, 0], [0, 0]]), 'batchToSpaceNd', 'batch 3', 'a multiple of 2'),
];
