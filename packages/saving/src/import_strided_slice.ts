// StridedSlice whose begin/end the graph computes (x[i] on a loop counter, TF2 loops' row reads): TF's begin/end
// masks, negative indices, clamping and shrink axes as tensor arithmetic on shape(x), then one run-time slice, so
// the node stays traced and differentiable. Unit strides only (computed strides are checked to be 1 when the graph
// runs); Const begin/end stay with the record's reader.
import { TOP, Tensor, reshapeWith, shapeOf, sliceWith } from '@eagerflow/core';
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
  const computedStrides = r.producer(3)?.op !== 'Const';
  const strideCount = computedStrides ? r.input(3).shape.asList()[0] : null;
  if (computedStrides && (strideCount === null || strideCount === undefined)) throw r.error('computed strides need a static length', r.input(3).shape.toString(), 'a vector of known length', 'Make the strides a Const');
  const strides = computedStrides ? new Array<number>(strideCount as number).fill(1) : r.numbers(3, 'strides');
  if (computedStrides) assertAtRunTime(r, TOP.reduceAll(TOP.equal(r.input(3), 1)), 'a StridedSlice with computed begin/end runs with unit strides only');
  const [ellipsis, newAxis] = [r.node.int('ellipsis_mask', 0), r.node.int('new_axis_mask', 0)];
  if (strides.some((s) => s !== 1) || ellipsis !== 0 || newAxis !== 0) {
    throw r.error('a StridedSlice with computed begin/end is read for unit strides without ellipsis or new axes', `strides [${strides}], ellipsis_mask ${ellipsis}, new_axis_mask ${newAxis}`, 'strides of 1, ellipsis_mask 0, new_axis_mask 0', 'Make begin/end Consts');
  }
  const x = r.input(0);
  const n = strides.length;
  const rank = x.rank;
  if (rank === null || rank < n) throw r.error('the input rank must be known and cover the slice', x.shape.toString(), `rank >= ${n}`, 'Give the input a static rank');
  const int = (t: Tensor): Tensor => (t.dtype === 'int32' ? t : TOP.cast(t, 'int32'));
  const dims = TOP.slice(shapeOf(x), [0], [n]);
  const zero = vector(r, new Array(n).fill(0), 'int32');
  const shrink = bits(r.node.int('shrink_axis_mask', 0), n);
  // TF: a masked begin is 0 and a masked end the dim; negatives count from the end; both clamp to [0, dim].
  const resolve = (t: Tensor, mask: number, full: Tensor): Tensor => {
    const v = TOP.where(vector(r, bits(mask, n), 'bool'), full, int(t));
    return TOP.minimum(TOP.maximum(TOP.where(TOP.less(v, zero), TOP.add(v, dims), v), zero), dims);
  };
  const begin = resolve(r.input(1), r.node.int('begin_mask', 0), zero);
  const endRaw = resolve(r.input(2), r.node.int('end_mask', 0), dims);
  // A shrink axis takes the one element at begin.
  const end = TOP.where(vector(r, shrink, 'bool'), TOP.add(begin, vector(r, new Array(n).fill(1), 'int32')), endRaw);
  const size = TOP.maximum(TOP.subtract(end, begin), zero);
  const rest = rank - n;
  const y = sliceWith(x, rest ? TOP.concat([begin, vector(r, new Array(rest).fill(0), 'int32')], 0) : begin, rest ? TOP.concat([size, vector(r, new Array(rest).fill(-1), 'int32')], 0) : size);
  if (!shrink.some((b) => b)) return [y];
  const keep = Array.from({ length: rank }, (_, i) => i).filter((i) => !(i < n && shrink[i]));
  return [reshapeWith(y, keep.length ? TOP.gather(shapeOf(y), vector(r, keep, 'int32'), 0) : vector(r, [], 'int32'))];
}

/** The reader of StridedSlice nodes whose begin or end is computed (not a Const); others are the record's. */
export function computedStridedSliceReader(r: NodeReader): OpReader | undefined {
  if (r.node.op !== 'StridedSlice' || r.count !== 4) return undefined;
  const computed = (k: number): boolean => r.producer(k)?.op !== 'Const';
  return computed(1) || computed(2) ? read : undefined;
}
