// StridedSlice whose begin/end the graph computes (x[i] on a loop counter, TF2 loops' row reads): TF's begin/end
// masks, negative indices, clamping and shrink axes as tensor arithmetic on shape(x), then one run-time slice, so
// the node stays traced and differentiable. Positive static strides (computed strides are checked to be 1 when the
// graph runs), an ellipsis expanded on the input's static rank; Const (or folded) begin/end stay with the record's reader.
import { PRIMITIVES as P, TOP, Tensor, bind, reshapeWith, shapeOf, sliceWith } from '@eagerflow/core';
import type { DType } from '@eagerflow/core';
import type { NodeReader, OpReader } from './reader';
import { assertAtRunTime } from './import_assert';

/** A Const vector owned by the function being loaded. */
function vector(r: NodeReader, values: readonly number[], dtype: DType): Tensor {
  const data = dtype === 'bool' ? Uint8Array.from(values) : Int32Array.from(values);
  return r.scope.ctx.constTensor({ dtype, shape: [values.length], data });
}

const bits = (mask: number, n: number): number[] => Array.from({ length: n }, (_, i) => (mask >> i) & 1);

function read(r: NodeReader): Tensor[] {
  r.arity(4);
  // Computed strides (tf.signal.frame's ones_like Fill): their count is static, their values checked to be 1 when the graph runs.
  const computedStrides = r.scope.constOf(r.ref(3)) === null;
  const strideCount = computedStrides ? r.input(3).shape.asList()[0] : null;
  if (computedStrides && (strideCount === null || strideCount === undefined)) throw r.error('computed strides need a static length', r.input(3).shape.toString(), 'a vector of known length', 'Make the strides a Const');
  const strides = computedStrides ? new Array<number>(strideCount as number).fill(1) : r.numbers(3, 'strides');
  if (computedStrides) assertAtRunTime(r, TOP.reduceAll(TOP.equal(r.input(3), 1)), 'a StridedSlice with computed begin/end runs with unit strides only');
  const [ellipsisMask, newAxis] = [r.node.int('ellipsis_mask', 0), r.node.int('new_axis_mask', 0)];
  // Only the first ellipsis counts (TF); its stride is ignored.
  const e = ellipsisMask === 0 ? -1 : Math.log2(ellipsisMask & -ellipsisMask);
  if (strides.some((st, i) => st <= 0 && i !== e) || newAxis !== 0) {
    throw r.error('a StridedSlice with computed begin/end is read for positive strides without new axes', `strides [${strides}], new_axis_mask ${newAxis}`, 'strides >= 1, new_axis_mask 0', 'Make begin/end Consts');
  }
  const x = r.input(0);
  const rank = x.rank;
  const given = strides.length;
  if (rank === null || rank < given - (e >= 0 ? 1 : 0)) throw r.error('the input rank must be known and cover the slice', x.shape.toString(), `rank >= ${given - (e >= 0 ? 1 : 0)}`, 'Give the input a static rank');
  const masks = { begin: r.node.int('begin_mask', 0), end: r.node.int('end_mask', 0), shrink: r.node.int('shrink_axis_mask', 0) };
  let [beginIn, endIn] = [r.input(1), r.input(2)];
  let [n, steps] = [given, strides];
  if (e >= 0) {
    // The ellipsis stands for every dim the other entries do not name: full ranges (begin and end masked), never shrunk.
    const k = rank - (given - 1);
    const expand = (t: Tensor): Tensor => {
      const parts = [e > 0 ? TOP.slice(t, [0], [e]) : null, k > 0 ? vector(r, new Array(k).fill(0), t.dtype) : null, given - e - 1 > 0 ? TOP.slice(t, [e + 1], [given - e - 1]) : null].filter((p): p is Tensor => p !== null);
      return parts.length === 1 ? parts[0] : TOP.concat(parts, 0);
    };
    const spread = (mask: number, full: number): number => (mask & ((1 << e) - 1)) | (full * (((1 << k) - 1) << e)) | ((mask >> (e + 1)) << (e + k));
    [beginIn, endIn] = [expand(beginIn), expand(endIn)];
    [masks.begin, masks.end, masks.shrink] = [spread(masks.begin, 1), spread(masks.end, 1), spread(masks.shrink, 0)];
    steps = [...strides.slice(0, e), ...new Array<number>(k).fill(1), ...strides.slice(e + 1)];
    n = rank;
  }
  const int = (t: Tensor): Tensor => (t.dtype === 'int32' ? t : TOP.cast(t, 'int32'));
  const dims = TOP.slice(shapeOf(x), [0], [n]);
  const zero = vector(r, new Array(n).fill(0), 'int32');
  const shrink = bits(masks.shrink, n);
  // TF: a masked begin is 0 and a masked end the dim; negatives count from the end; both clamp to [0, dim].
  const resolve = (t: Tensor, mask: number, full: Tensor): Tensor => {
    const v = TOP.where(vector(r, bits(mask, n), 'bool'), full, int(t));
    return TOP.minimum(TOP.maximum(TOP.where(TOP.less(v, zero), TOP.add(v, dims), v), zero), dims);
  };
  const begin = resolve(beginIn, masks.begin, zero);
  const endRaw = resolve(endIn, masks.end, dims);
  // A shrink axis takes the one element at begin.
  const end = TOP.where(vector(r, shrink, 'bool'), TOP.add(begin, vector(r, new Array(n).fill(1), 'int32')), endRaw);
  const size = TOP.maximum(TOP.subtract(end, begin), zero);
  const rest = rank - n;
  const cut = sliceWith(x, rest ? TOP.concat([begin, vector(r, new Array(rest).fill(0), 'int32')], 0) : begin, rest ? TOP.concat([size, vector(r, new Array(rest).fill(-1), 'int32')], 0) : size);
  // Static strides > 1 then take every step-th element of the cut range (TF: ceil((end - begin) / stride) of them).
  const all = (1 << rank) - 1;
  const y = steps.every((st) => st === 1) ? cut : bind(P.strided_slice, [cut], { begin: new Array(rank).fill(0), end: new Array(rank).fill(0), strides: [...steps, ...new Array<number>(rest).fill(1)], beginMask: all, endMask: all, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0 })[0];
  if (!shrink.some((b) => b)) return [y];
  const keep = Array.from({ length: rank }, (_, i) => i).filter((i) => !(i < n && shrink[i]));
  return [reshapeWith(y, keep.length ? TOP.gather(shapeOf(y), vector(r, keep, 'int32'), 0) : vector(r, [], 'int32'))];
}

/** The reader of StridedSlice nodes whose begin or end is computed (not a Const); others are the record's. */
export function computedStridedSliceReader(r: NodeReader): OpReader | undefined {
  if (r.node.op !== 'StridedSlice' || r.count !== 4) return undefined;
  // Computed: not a Const, nor folded to one at load (constant_fold.ts).
  const computed = (k: number): boolean => r.scope.constOf(r.ref(k)) === null;
  return computed(1) || computed(2) ? read : undefined;
}
