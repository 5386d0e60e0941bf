// tf.nn composites: the losses (l2Loss and the cross-entropies) and the classification helpers embeddingLookup and inTopK.
import { composites } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import * as UNA from '../math/unary';
import * as BMM from '../math/unary_functions';
import { argError } from '../check';
import { describe } from '../../values/dtype';
import { logSoftmax } from './activations_composites';
import { f32 } from './normalization';
import { rangeOf, sameShapes, shapeOf, splitLast } from '../array/symbolic_dims';

const abs: (x: TensorLike) => Tensor = o.wrapperOf(UNA.abs);
const log1p: (x: TensorLike) => Tensor = o.wrapperOf(BMM.log1p);
/**
 * l2Loss(t) = sum(t²) / 2.
 * @example ef.nn.l2Loss([1, 2]).arraySync(); // 2.5
 */
const l2Loss = (t: TensorLike): Tensor => tidy(() => o.mul(o.reduceSum(o.square(f32('l2Loss', t))), 0.5));

/**
 * sigmoidCrossEntropyWithLogits(labels, logits) = max(x, 0) - x·z + log(1 + exp(-|x|)) (stable for any logits).
 * @example ef.nn.sigmoidCrossEntropyWithLogits([1], [0]).arraySync(); // [0.6931471824645996]
 */
function sigmoidCrossEntropyWithLogits(labels: TensorLike, logits: TensorLike): Tensor {
  return tidy(() => {
    const op = 'sigmoidCrossEntropyWithLogits';
    const [z, x] = sameShape(op, f32(op, labels), f32(op, logits));
    // TF's formulation, selects included (their gradients at x = 0 differ from relu's and abs's).
    const cond = o.greaterEqual(x, 0);
    return o.add(o.sub(o.where(cond, x, 0), o.mul(x, z)), log1p(o.exp(o.where(cond, o.neg(x), x))));
  });
}

/** Checks labels and logits have one shape: statically, else (unknown dims) when the graph runs; returns the pair to use. */
function sameShape(op: string, labels: Tensor, logits: Tensor): [Tensor, Tensor] {
  if (labels.dims !== null && logits.dims !== null && !labels.shape.isCompatibleWith(logits.shape)) {
    throw argError(op, 'labels and logits must have the same shape', `${labels.shape.toString()} and ${logits.shape.toString()}`, 'equal shapes', 'Pass one label per logit.');
  }
  return sameShapes(labels, logits);
}

/**
 * softmaxCrossEntropyWithLogits(labels, logits, axis = -1) = -sum(labels · logSoftmax(logits), axis).
 * @example ef.nn.softmaxCrossEntropyWithLogits([[0, 1]], [[0, 0]]).arraySync(); // [0.6931471824645996]
 */
function softmaxCrossEntropyWithLogits(labels: TensorLike, logits: TensorLike, axis = -1): Tensor {
  return tidy(() => {
    const op = 'softmaxCrossEntropyWithLogits';
    const [z, x] = sameShape(op, f32(op, labels), f32(op, logits));
    // sum(labels · -logSoftmax): TF's kernel form (a negated sum would turn 0 into -0).
    return o.reduceSum(o.mul(z, o.neg(logSoftmax(x, axis))), axis);
  });
}

/**
 * A [..., C] bool mask that is true at each label's class. With an unknown class count (traced with unknown dims)
 * the class ids come from positions along logits' last axis, so C is read at run time as TF does.
 */
function classMask(op: string, labels: Tensor, logits: Tensor): Tensor {
  if (labels.dtype !== 'int32') throw argError(op, 'labels must be int32 class indices', labels.dtype, 'int32', "Cast them: ef.cast(labels, 'int32').");
  // Gathering the labels from range(C) is the identity on valid labels and raises on the others (TF's CPU kernels
  // raise on an out-of-range label; a one-hot would silently give zeros). C is a Dim: read when the graph runs
  // when it is not static, as TF does.
  const { last: [classes] } = splitLast(op, shapeOf(logits), 1);
  const ids = rangeOf(classes);
  return o.equal(o.expandDims(o.gather(ids, labels, 0), -1), ids);
}

/**
 * labels checked when the graph runs (a rank unknown when traced) to have exactly logits' leading shape, as the
 * static rank check does eagerly: sliced to that shape (fails on another rank or a smaller dim), then reshaped
 * back to their own shape (fails when the slice dropped elements).
 */
function leadingShapeAtRunTime(labels: Tensor, logits: Tensor): Tensor {
  const lead = o.shapeOf(o.reduceMax(logits, -1));
  const cut = o.sliceWith(labels, o.mul(lead, 0), lead);
  return o.reshapeWith(cut, o.shapeOf(labels));
}

/**
 * sparseSoftmaxCrossEntropyWithLogits(labels, logits): labels are int32 class indices.
 * @example ef.nn.sparseSoftmaxCrossEntropyWithLogits([1], [[0, 0]]).arraySync(); // [0.6931471824645996]
 */
function sparseSoftmaxCrossEntropyWithLogits(labels: TensorLike, logits: TensorLike): Tensor {
  const op = 'sparseSoftmaxCrossEntropyWithLogits';
  return tidy(() => {
    const z = convert(op, labels, 'int32').t;
    const x = f32(op, logits);
    const d = x.dims;
    if (d !== null && z.dims !== null && z.rank !== d.length - 1) throw argError(op, 'labels must have rank logits.rank - 1', `labels ${z.shape.toString()} and logits ${x.shape.toString()}`, `rank ${d.length - 1}`, 'Pass one class index per row of logits.');
    const mask = classMask(op, d === null || z.dims === null ? leadingShapeAtRunTime(z, x) : z, x);
    return o.neg(o.reduceSum(o.where(mask, logSoftmax(x), 0), -1));
  });
}

/**
 * embeddingLookup(params, ids): rows of params (TF's embedding_lookup with one shard).
 * @example ef.nn.embeddingLookup([[1, 2], [3, 4]], [1]).arraySync(); // [[3, 4]]
 */
function embeddingLookup(params: TensorLike, ids: TensorLike): Tensor {
  return tidy(() => {
    const i = convert('embeddingLookup', ids, 'int32').t;
    if (i.dtype !== 'int32') throw argError('embeddingLookup', 'ids must be int32', i.dtype, 'int32', "Cast them: ef.cast(ids, 'int32').");
    return o.gather(convert('embeddingLookup', params).t, i, 0);
  });
}

/**
 * inTopK(targets, predictions, k): whether each row's target class is among its k largest predictions (ties count in, like TF).
 * @example ef.nn.inTopK([0, 1], [[0.9, 0.1], [0.8, 0.2]], 1).arraySync(); // [true, false]
 */
function inTopK(targets: TensorLike, predictions: TensorLike, k: number): Tensor {
  const op = 'inTopK';
  if (!Number.isInteger(k)) throw argError(op, 'k must be an integer', describe(k), 'an integer', 'Pass e.g. 5.');
  return tidy(() => {
    const t = convert(op, targets, 'int32').t;
    const p = f32(op, predictions);
    const d = p.dims;
    if (d !== null && d.length !== 2) throw argError(op, 'predictions must be rank 2', p.shape.toString(), 'rank 2 [batch, classes]', 'Pass a batch of scores.');
    // The class of each target as a mask (out-of-range targets match no class; C read at run time if unknown).
    const mask = o.equal(o.expandDims(t, -1), rangeOf(splitLast(op, shapeOf(p), 1).last[0]));
    const target = o.reduceSum(o.where(mask, p, 0), -1, true);
    const above = o.reduceSum(o.cast(o.greater(p, target), 'int32'), -1);
    // TF: out-of-range targets and non-finite target scores are never in the top k.
    const valid = o.greater(o.reduceMax(o.cast(mask, 'int32'), -1), 0);
    // int32 scores are always finite (and Infinity is no int32 constant).
    const finite = p.dtype === 'int32' ? valid : o.less(abs(o.reduceSum(target, -1)), Infinity);
    return o.logicalAnd(o.logicalAnd(valid, finite), o.less(above, k));
  });
}

/** The normalization and loss composites with their public paths (merged into COMPOSITES). */

/** The loss and classification composites with their public paths (merged into COMPOSITES). */
export const LOSS_COMPOSITES = composites('nn', {
  l2Loss, sigmoidCrossEntropyWithLogits, softmaxCrossEntropyWithLogits, sparseSoftmaxCrossEntropyWithLogits, embeddingLookup, inTopK,
}, { inTopK: ['math.inTopK'] });
