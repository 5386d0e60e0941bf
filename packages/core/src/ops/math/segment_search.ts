// Segment, search and scatter-update records (tfjs-converter's segment/evaluation/slice_join): unsortedSegmentMax/Min/Prod, searchsorted, tensorScatterNdUpdate.
import type { DType } from '../../values/dtype';
import { defineOp } from '../define_op';
import { FLOAT32_MAX, describe } from '../../values/dtype';
import type { Info, Kernels } from '../../backend/backend';
import { readInfoSync } from '../../backend/backend';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { attr, tfSpec } from '../graphdef_spec';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { dimsToString } from '../../values/shape';
import * as o from '../ops';
import { NUMERIC, argError, checkArity, checkDTypes } from '../check';
import { broadcastInfo, withScratch } from '../kernel_util';
import { gatherNd, scatterNd } from '../array/manipulation';
import { checkIdsInRange, gatherDropNegatives } from './segment_sum';
import { g0, I32 } from '../rule_helpers';


export interface SegmentParams {
  readonly numSegments: number;
}

type Kind = 'max' | 'min' | 'prod';
/** The value of an empty segment (TF: lowest / highest representable, or 1). */
const EMPTY: Record<Kind, Record<'float32' | 'int32', number>> = {
  max: { float32: -FLOAT32_MAX, int32: -2147483648 },
  min: { float32: FLOAT32_MAX, int32: 2147483647 },
  prod: { float32: 1, int32: 1 },
};

/** Segment reduction on tfjs kernels: a [n, segments] membership mask selects data or the identity, then one reduction over n. */
function segmentImpl(k: Kernels, data: Info, ids: Info, p: SegmentParams, kind: Kind): Info {
  const n = ids.shape.reduce((a, b) => a * b, 1);
  const rest = data.shape.slice(ids.shape.length);
  const temps: Info[] = [];
  const run = (name: string, ins: Record<string, Info>, attrs?: Record<string, unknown>): Info => {
    const r = k.run(name, ins, attrs) as Info;
    temps.push(r);
    return r;
  };
  const full = [n, p.numSegments, ...rest];
  const ones = rest.map(() => 1);
  const idCol = run('Reshape', { x: ids }, { shape: [n, 1, ...ones] });
  const segs = run('Reshape', { x: run('Range', {}, { start: 0, stop: p.numSegments, step: 1, dtype: 'int32' }) }, { shape: [1, p.numSegments, ...ones] });
  const mask = run('Equal', { a: idCol, b: segs });
  const vals = run('Reshape', { x: data }, { shape: [n, 1, ...rest] });
  const dt = data.dtype as 'float32' | 'int32';
  const fill = k.upload(dt === 'int32' ? Int32Array.of(EMPTY[kind].int32) : Float32Array.of(EMPTY[kind].float32), [], dt);
  temps.push(fill);
  const [bm, bv, bf] = [mask, vals, fill].map((x) => {
    const b = broadcastInfo(k, x, full);
    temps.push(b);
    return b;
  });
  const picked = run('Select', { condition: bm, t: bv, e: bf });
  const out = (kind === 'max' ? k.run('Max', { x: picked }, { reductionIndices: [0], keepDims: false })
    : kind === 'min' ? k.run('Min', { x: picked }, { axis: [0], keepDims: false })
    : k.run('Prod', { x: picked }, { axis: [0], keepDims: false })) as Info;
  for (const t of temps) k.free(t);
  return out;
}

function segmentInfer(op: string, ins: AVal[], p: SegmentParams): AVal[] {
  checkArity(op, ins, 2);
  checkDTypes(op, ins[0], NUMERIC, 'data');
  checkDTypes(op, ins[1], ['int32'], 'segmentIds');
  if (!Number.isInteger(p.numSegments) || p.numSegments < 0) throw argError(op, 'numSegments must be a non-negative integer', describe(p.numSegments), 'an integer >= 0', 'Pass the number of segments.');
  const [d, s] = [ins[0].shape, ins[1].shape];
  if (d === null || s === null) return [{ dtype: ins[0].dtype, shape: null }];
  if (s.length > d.length || s.some((v, i) => v !== null && d[i] !== null && v !== d[i])) {
    throw argError(op, 'segmentIds must match the leading dims of data', `ids ${dimsToString(s)} for data ${dimsToString(d)}`, `a prefix of ${dimsToString(d)}`, 'Pass one segment id per leading element.');
  }
  return [{ dtype: ins[0].dtype, shape: [p.numSegments, ...d.slice(s.length)] }];
}

/** The output gathered back to every element's segment (negative ids read segment 0: callers mask them). */
const gathered = (y: Tensor, ids: Tensor): Tensor => o.gather(y, o.maximum(ids, 0), 0);

/** `m` (shaped like ids) with trailing size-1 axes, to broadcast over the data dims of `like`. */
function overData(m: Tensor, like: Tensor, ids: Tensor): Tensor {
  for (let k = (like.rank ?? 0) - (ids.rank ?? 0); k > 0; k--) m = o.expandDims(m, -1);
  return m;
}

/**
 * TF's _UnsortedSegmentMinOrMaxGrad: the cotangent split evenly between the elements equal to their
 * segment's result; elements with a negative (dropped) id get 0.
 */
function minMaxVjp(c: (Tensor | null)[], [data, ids]: Tensor[], [y]: Tensor[], p: SegmentParams): (Tensor | null)[] {
  const selected = o.logicalAnd(o.equal(data, gathered(y, ids)), overData(o.greaterEqual(ids, 0), data, ids));
  const count = o.unsortedSegmentSum(o.cast(selected, data.dtype), ids, p.numSegments);
  const share = gatherDropNegatives(o.div(g0(c), count), ids);
  return [o.where(selected, share, o.zerosLike(share)), null];
}

/**
 * TF's _UnsortedSegmentProdGrad: the product of the other elements, exact with zeros; the cotangent is
 * gathered with negative (dropped) ids masked to 0, so those elements get a zero gradient.
 */
function prodVjp(c: (Tensor | null)[], [data, ids]: Tensor[], [y]: Tensor[], p: SegmentParams): (Tensor | null)[] {
  const isZero = o.equal(data, 0);
  const zeros = o.unsortedSegmentSum(o.cast(isZero, data.dtype), ids, p.numSegments);
  const g = o.where(o.greater(zeros, 1), 0, g0(c));
  const safe = o.where(isZero, 1, data);
  const nonZeroProd = bind(unsortedSegmentProd as Primitive, [safe, ids], p)[0];
  const partial = o.where(isZero, gathered(nonZeroProd, ids), o.div(gathered(y, ids), safe));
  return [o.mul(gatherDropNegatives(g, ids), partial), null];
}

function segment<const P extends readonly string[]>(kind: Kind, op: string, tfOp: string, paths: P, vjp: Primitive<SegmentParams>['vjp']) {
  return defineOp({
    name: `unsorted_segment_${kind}`,
    infer: (ins: AVal[], p: SegmentParams) => segmentInfer(op, ins, p),
    impl(k, [data, ids], p: SegmentParams) {
      // Traced with unknown dims, infer could not check: the same error at run time.
      segmentInfer(op, [data, ids].map((x) => ({ dtype: x.dtype as DType, shape: x.shape })), p);
      checkIdsInRange(op, ids, p.numSegments);
      return [segmentImpl(k, data, ids, p, kind)];
    },
    vjp,
    api: api(paths, [arg.tensor('data'), arg.tensor('segmentIds', 'int32'), arg.int('numSegments')]),
    tf: tfSpec<SegmentParams>({ op: tfOp, inputs: ['x', 'x', { param: 'numSegments', shape: 'scalar' }], attrs: { T: { dtypeOf: 0 }, Tindices: I32, Tnumsegments: I32 } }),
  });
}

export const unsortedSegmentMax = segment('max', 'unsortedSegmentMax', 'UnsortedSegmentMax', ['math.unsortedSegmentMax'], minMaxVjp);
export const unsortedSegmentMin = segment('min', 'unsortedSegmentMin', 'UnsortedSegmentMin', ['math.unsortedSegmentMin'], minMaxVjp);
export const unsortedSegmentProd = segment('prod', 'unsortedSegmentProd', 'UnsortedSegmentProd', ['math.unsortedSegmentProd'], prodVjp);

export interface SearchParams {
  readonly side: 'LEFT' | 'RIGHT';
}

/** searchsorted(sortedSequence, values, {side}): insertion points (int32) along the last axis (TF's LowerBound/UpperBound). */
export const searchsorted = defineOp({
  name: 'searchsorted',
  infer(ins: AVal[]) {
    checkArity('searchsorted', ins, 2);
    checkDTypes('searchsorted', ins[0], NUMERIC, 'sortedSequence');
    if (ins[0].dtype !== ins[1].dtype) throw argError('searchsorted', 'inputs must have the same dtype', `${ins[0].dtype} and ${ins[1].dtype}`, 'matching dtypes', `Cast values with ef.cast(values, '${ins[0].dtype}').`);
    const [s, v] = [ins[0].shape, ins[1].shape];
    if (s !== null && v !== null && (s.length !== v.length || s.length === 0 || s.slice(0, -1).some((d, i) => d !== null && v[i] !== null && d !== v[i]))) {
      throw argError('searchsorted', 'leading dims must match', `${dimsToString(s)} and ${dimsToString(v)}`, 'equal ranks >= 1 with equal leading dims', 'Search each row of values in the same row of sortedSequence.');
    }
    return [{ dtype: 'int32' as DType, shape: v }];
  },
  impl(k, [sortedSequence, values], p: SearchParams) {
    searchsorted.infer([sortedSequence, values].map((x) => ({ dtype: x.dtype as DType, shape: x.shape })), p);
    // tfjs's kernel takes [batch, n] operands (its op reshapes 1-D ones): reshape around it.
    // No values (or no sequence rows): an empty result, without the kernel (a [-1, 0] reshape cannot infer its -1).
    if (values.shape.includes(0) || sortedSequence.shape.includes(0)) return [k.run('Fill', {}, { shape: values.shape, value: 0, dtype: 'int32' }) as Info];
    const m = sortedSequence.shape[sortedSequence.shape.length - 1];
    const kk = values.shape[values.shape.length - 1];
    return [withScratch(k, (s) => {
      const seq = s.run('Reshape', { x: sortedSequence }, { shape: [-1, m] });
      const vals = s.run('Reshape', { x: values }, { shape: [-1, kk] });
      return s.run('Reshape', { x: s.run('SearchSorted', { sortedSequence: seq, values: vals }, { side: p.side.toLowerCase() }) }, { shape: values.shape });
    })];
  },
  api: api(['searchsorted'], [arg.tensor('sortedSequence'), arg.tensor('values')], [arg.oneOf('side', ['LEFT', 'RIGHT'] as const, 'LEFT')]),
  tf: {
    ops: ['LowerBound', 'UpperBound'],
    write: (s, n, [a, b]) => {
      const side = (n.params as SearchParams).side;
      const op = side === 'LEFT' ? 'LowerBound' : 'UpperBound';
      return [s.add(op, op, [a, b], { T: attr.type(s.dtype(n.inputs[0])), out_type: attr.type('int32') })];
    },
    read: (r): Tensor[] => (r.arity(2), bind(searchsorted as Primitive, [r.input(0), r.input(1)], { side: r.node.op === 'LowerBound' ? 'LEFT' : 'RIGHT' })),
  },
});

/** tensorScatterNdUpdate(tensor, indices, updates): `tensor` with the index tuples replaced by `updates`. */
export const tensorScatterNdUpdate = defineOp({
  name: 'tensor_scatter_nd_update',
  infer(ins: AVal[]) {
    checkArity('tensorScatterNdUpdate', ins, 3);
    checkDTypes('tensorScatterNdUpdate', ins[1], ['int32'], 'indices');
    if (ins[0].dtype !== ins[2].dtype) throw argError('tensorScatterNdUpdate', 'tensor and updates must have the same dtype', `${ins[0].dtype} and ${ins[2].dtype}`, 'matching dtypes', `Cast updates with ef.cast(updates, '${ins[0].dtype}').`);
    const t = ins[0].shape;
    if (t !== null && t.every((d) => d !== null)) scatterNd.infer([ins[1], ins[2]], { shape: t as number[] });
    return [{ dtype: ins[0].dtype, shape: t }];
  },
  // tfjs's cpu TensorScatterUpdate writes into the input's buffer: compose it (mask of updated positions, then Select).
  // Intermediates in a scratch: an invalid index fails in ScatterNd after the first of them exists.
  impl: (k, [tensor, indices, updates]) => [withScratch(k, (s) => {
    const shape = tensor.shape;
    const hits = s.run('ScatterNd', { indices, updates: s.run('OnesLike', { x: updates }) }, { shape });
    const mask = s.run('Greater', { a: hits, b: s.upload(updates.dtype === 'int32' ? Int32Array.of(0) : Float32Array.of(0), [], updates.dtype as DType) });
    return s.run('Select', { condition: mask, t: s.run('ScatterNd', { indices, updates }, { shape }), e: tensor });
  })],
  // TF: the tensor's cotangent with the updated positions zeroed; the updates' cotangent gathered there.
  vjp: (c, [, indices, updates], _o, _p, need): (Tensor | null)[] => [
    need[0] ? bind(tensorScatterNdUpdate as Primitive, [g0(c), indices, o.zerosLike(updates)], {})[0] : null,
    null,
    need[2] ? bind(gatherNd as Primitive, [g0(c), indices], {})[0] : null,
  ],
  saves: 'inputs',
  api: api(['tensorScatterNdUpdate'], [arg.tensor('tensor'), arg.tensor('indices', 'int32'), arg.tensor('updates')]),
  tf: tfSpec({ op: 'TensorScatterUpdate', attrs: { T: { dtypeOf: 0 }, Tindices: { dtypeOf: 1 } } }),
});

/** unique(x) of a 1-D tensor: the distinct values in first-seen order and each element's int32 index into them (TF's Unique). */
export const unique = defineOp({
  name: 'unique',
  infer(ins: AVal[]) {
    checkArity('unique', ins, 1);
    checkDTypes('unique', ins[0], ['float32', 'int32', 'bool', 'string'], 'x');
    const s = ins[0].shape;
    if (s !== null && s.length !== 1) throw argError('unique', 'x must be 1-D', dimsToString(s), 'a rank-1 tensor', 'Reshape it with ef.reshape(x, [-1]).');
    // The number of distinct values is only known when the op runs.
    return [{ dtype: ins[0].dtype, shape: [null] }, { dtype: 'int32' as DType, shape: s }];
  },
  impl(k, [x]) {
    if (x.shape.length !== 1) throw argError('unique', 'x must be 1-D', `[${x.shape}]`, 'a rank-1 tensor', 'Reshape it with ef.reshape(x, [-1]).');
    return k.run('Unique', { x }, { axis: 0 }) as Info[];
  },
  tf: tfSpec({ op: 'Unique', attrs: { T: { dtypeOf: 0 }, out_idx: I32 } }),
});

/**
 * The int32 coordinates of the true entries of a bool tensor, in row-major order (TF's one-argument
 * `where`, GraphDef Where). tfjs has no Where kernel: the mask is read on the host (a sync read).
 */
export const whereCoords = defineOp({
  name: 'where_coords',
  infer(ins: AVal[]) {
    checkArity('where', ins, 1);
    checkDTypes('where', ins[0], ['bool'], 'condition');
    const s = ins[0].shape;
    return [{ dtype: 'int32' as DType, shape: [null, s === null ? null : s.length] }];
  },
  impl(k, [c]) {
    const data = readInfoSync(c) as Uint8Array;
    const rank = c.shape.length;
    const strides = c.shape.map((_, i) => c.shape.slice(i + 1).reduce((a, b) => a * b, 1));
    const out: number[] = [];
    data.forEach((v, flat) => {
      if (v) for (let j = 0; j < rank; j++) out.push(Math.floor(flat / strides[j]) % c.shape[j]);
    });
    return [k.upload(Int32Array.from(out), [out.length / Math.max(rank, 1), rank], 'int32')];
  },
  tf: tfSpec({ op: 'Where', attrs: { T: { fixed: attr.type('bool') } }, noT: true }),
});
