// segment: unsortedSegmentSum with TensorFlow's range checks and its gradient (a gather).
import type { Info, Kernels } from '../../backend/backend';
import { defineOp } from '../define_op';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { tfSpec } from '../graphdef_spec';
import { dimsToString } from '../../values/shape';
import { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { TensorLike, convert, release } from '../../values/convert';
import { ruleOps as o } from '../rule_ops';
import { argError, checkDTypes, checkSize } from '../check';
import { intValues, withScratch } from '../kernel_util';
import { isHostBackend, readInfoSync } from '../../backend/backend';
import { describe } from '../../values/dtype';
import type { DType } from '../../values/dtype';
import { g0, I32 } from '../rule_helpers';


export interface SegmentParams {
  readonly numSegments: number;
}

/**
 * Like TensorFlow's CPU kernels, a segment id >= numSegments raises (negative ids are dropped). On GPU
 * backends (as on TF's GPU) such ids are dropped, which spares a download of the ids on every call.
 * Runs in `impl`, so traced graphs check the real ids at run time too.
 */
export function checkIdsInRange(op: string, segmentIds: Info, numSegments: number): void {
  if (!isHostBackend()) return;
  const ids = intValues(segmentIds);
  const at = ids.findIndex((v) => v >= numSegments);
  if (at < 0) return;
  // The position as a multi-index into segmentIds (row-major).
  const pos = segmentIds.shape.map((_, i) => Math.floor(at / segmentIds.shape.slice(i + 1).reduce((a, d) => a * d, 1)) % segmentIds.shape[i]);
  throw argError(op, 'a segment id is out of range', `segmentIds[${pos.join(', ')}] = ${ids[at]}`, `ids < numSegments = ${numSegments} (negative ids are dropped)`, 'Fix the ids or raise numSegments.');
}

/** out[id] += x[i] over the n leading elements (ids outside [0, numSegments) dropped, as TF does): one host pass. */
function hostSegmentSum(k: Kernels, x: Info, segmentIds: Info, n: number, numSegments: number): Info {
  const ids = intValues(segmentIds);
  const data = readInfoSync(x) as Float32Array | Int32Array;
  const inner = n === 0 ? 0 : data.length / n;
  const out = x.dtype === 'int32' ? new Int32Array(numSegments * inner) : new Float32Array(numSegments * inner);
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    if (id < 0 || id >= numSegments) continue;
    for (let j = 0, a = id * inner, b = i * inner; j < inner; j++) out[a + j] += data[b + j];
  }
  return k.upload(out, [numSegments, ...x.shape.slice(segmentIds.shape.length)], x.dtype as DType);
}

/**
 * TensorFlow's _GatherDropNegatives: `x` gathered at max(ids, 0), zero where ids < 0 (trailing size-1
 * axes on the mask broadcast it over the data dims, with unknown dims too).
 */
export function gatherDropNegatives(x: Tensor, ids: Tensor): Tensor {
  const gathered = o.gather(x, o.maximum(ids, 0), 0);
  let mask = o.greaterEqual(ids, 0);
  for (let k = (gathered.rank ?? 0) - (ids.rank ?? 0); k > 0; k--) mask = o.expandDims(mask, -1);
  return o.where(mask, gathered, o.zerosLike(gathered));
}

/**
 * unsortedSegmentSum(data, segmentIds): TF's UnsortedSegmentSum. numSegments is a param when static, or an int32
 * scalar tensor input (TF's own operand) when only the graph knows it: `unsorted_segment_sum(data, ids, n)` binds
 * no params.
 */
export const unsortedSegmentSum = defineOp({
  name: 'unsorted_segment_sum',
  infer(ins: AVal[], p: SegmentParams) {
    checkDTypes('unsortedSegmentSum', ins[1], ['int32'], 'segmentIds');
    let n: number | null = p.numSegments;
    if (ins.length === 3) {
      checkDTypes('unsortedSegmentSum', ins[2], ['int32'], 'numSegments');
      if (ins[2].shape !== null && ins[2].shape.length !== 0) throw argError('unsortedSegmentSum', 'numSegments must be a scalar', dimsToString(ins[2].shape), 'a scalar', 'Pass the number of segments.');
      n = null;
    } else if (ins.length !== 2) {
      throw argError('unsortedSegmentSum', 'wrong number of inputs', String(ins.length), '2, or 3 with numSegments as a tensor', 'Pass data and segmentIds.');
    } else if (!Number.isInteger(p.numSegments) || p.numSegments < 0) {
      throw argError('unsortedSegmentSum', 'numSegments must be a non-negative integer', String(p.numSegments), 'an integer >= 0', 'Pass the number of segments.');
    }
    const s = ins[0].shape;
    const ids = ins[1].shape;
    if (s !== null && ids !== null && (ids.length > s.length || ids.some((d, i) => d !== null && s[i] !== null && d !== s[i]))) {
      throw argError('unsortedSegmentSum', 'segmentIds shape must be a prefix of the data shape', dimsToString(ids), `a prefix of the data shape ${dimsToString(s)}`, 'Give one segment id per leading element.');
    }
    const r = ids?.length ?? 1;
    const out = s === null ? null : [n, ...s.slice(r)];
    // numSegments sizes the result: 2^31 - 1 segments is refused here, not by a failed allocation (RangeError).
    checkSize('unsortedSegmentSum', out);
    return [{ dtype: ins[0].dtype, shape: out }];
  },
  impl(k, [x, segmentIds, count], p: SegmentParams) {
    let numSegments = p.numSegments;
    if (count !== undefined) {
      // The count read when the op runs, checked by the rule (its size check included) before the kernel.
      numSegments = intValues(count)[0];
      unsortedSegmentSum.infer([{ dtype: x.dtype as DType, shape: x.shape }, { dtype: 'int32', shape: segmentIds.shape }], { numSegments });
    }
    const n = segmentIds.shape.reduce((a, d) => a * d, 1);
    checkIdsInRange('unsortedSegmentSum', segmentIds, numSegments);
    // tfjs's kernel takes 1-D ids: flatten the ids and the matching leading dims of x.
    const r = segmentIds.shape.length;
    // tfjs's kernel fails on zero segments (the result is simply empty), and tfjs-webgl's on empty data (zeros).
    if (numSegments === 0 || x.shape.includes(0)) return [k.run('Fill', {}, { shape: [numSegments, ...x.shape.slice(r)], value: 0, dtype: x.dtype }) as Info];
    // On the host one pass over the data (tfjs's CPU kernel does work per segment: 65536 segments took seconds).
    if (isHostBackend() && (x.dtype === 'float32' || x.dtype === 'int32')) return [hostSegmentSum(k, x, segmentIds, n, numSegments)];
    if (r === 1) return [k.run('UnsortedSegmentSum', { x, segmentIds }, { numSegments }) as Info];
    return [withScratch(k, (sc) => {
      const flatIds = sc.run('Reshape', { x: segmentIds }, { shape: [n] });
      const flatX = sc.run('Reshape', { x }, { shape: [n, ...x.shape.slice(r)] });
      return sc.run('UnsortedSegmentSum', { x: flatX, segmentIds: flatIds }, { numSegments });
    })];
  },
  vjp: (c, [, ids, count]) => (count === undefined ? [gatherDropNegatives(g0(c), ids), null] : [gatherDropNegatives(g0(c), ids), null, null]),
  saves: 'inputs',
  api: api(['math.unsortedSegmentSum', 'unsortedSegmentSum'], [arg.tensor('data'), arg.tensor('segmentIds', 'int32'), arg.custom('numSegments', segmentCount)], [], { dynamic: segmentSumByTensor }),
  tf: tfSpec<SegmentParams>({ op: 'UnsortedSegmentSum', inputs: ['x', 'x', { param: 'numSegments', shape: 'scalar' }], attrs: { T: { dtypeOf: 0 }, Tindices: I32, Tnumsegments: I32 }, paramsAsInputs: true }),
});

/** numSegments: an integer (an int32 scalar tensor is taken before, by segmentSumByTensor: the tensor form). */
function segmentCount(op: string, v: unknown): number | Tensor {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw argError(op, 'numSegments must be an integer', describe(v), 'an integer', 'Pass e.g. 1.');
  return v;
}

/** Binds unsortedSegmentSum with numSegments as an int32 scalar tensor (a count only the graph knows). */
export const segmentSumWith = (x: Tensor, ids: Tensor, numSegments: Tensor): Tensor => bind(unsortedSegmentSum as Primitive, [x, ids, numSegments], {})[0];

/** ef.unsortedSegmentSum(data, ids, n) with n an int32 scalar tensor: the tensor form. */
function segmentSumByTensor(op: string, args: readonly unknown[]): Tensor | undefined {
  const [x, ids, n] = args;
  if (!(n instanceof Tensor) || args.length > 3) return undefined;
  const cs = [convert(op, x as TensorLike), convert(op, ids as TensorLike, 'int32')];
  try {
    return segmentSumWith(cs[0].t, cs[1].t, n);
  } finally {
    cs.forEach(release);
  }
}
