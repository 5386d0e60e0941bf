// Composite math ops of issue 11 built from records: topK's named results, reduceVariance/Std/Logsumexp/EuclideanNorm, countNonzero.
import { describe } from '../../values/dtype';
import type { Tensor } from '../../values/tensor';
import type { Primitive } from '../primitive';
import { bind } from '../bind';
import { TensorLike, convert } from '../../values/convert';
import { releasing } from '../op_builder';
import { composite } from '../api_spec';
import * as o from '../ops';
import { argError } from '../check';
import * as E from './unary';
import * as LG from './compare';
import * as BM from './unary_functions';
import * as AR from './binary_functions';
import * as RD from './reduce_scan';
import * as BC from './bincount';
import type { DType } from '../../values/dtype';

type Axis = number | number[] | null;
const NONE = {};

function axesOf(op: string, axis: Axis | undefined): number[] | null {
  if (axis === undefined || axis === null) return null;
  const axes = Array.isArray(axis) ? axis : [axis];
  if (axes.some((a) => !Number.isInteger(a))) throw argError(op, 'axis must be integers', describe(axis), 'an integer or array of integers', 'Pass e.g. 0 or [0, 1].');
  return axes;
}

function boolArg(op: string, name: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw argError(op, `${name} must be a boolean`, describe(v), 'true or false', `Pass ${name}: true or false.`);
  return v;
}

/** Runs `body` on the converted input; intermediates are disposed (tapes keep what they saved). */
function withInput(op: string, x: TensorLike, body: (t: Tensor, temps: Tensor[]) => Tensor): Tensor {
  const c = convert(op, x);
  return releasing([c], () => {
    const temps: Tensor[] = [];
    try {
      return body(c.t, temps);
    } finally {
      for (const t of temps) t.dispose();
    }
  });
}

/** Keeps `t` for disposal after the composite and returns it. */
const tmp = (temps: Tensor[], t: Tensor): Tensor => (temps.push(t), t);

/**
 * The k largest entries along the last axis, as TF's `{values, indices}` (indices int32).
 * @example
 * const { values, indices } = ef.math.topK([1, 4, 2, 3], 2);
 * values.arraySync(); // [4, 3]
 * indices.arraySync(); // [1, 3]
 */
function topK(input: TensorLike, k = 1, options: { sorted?: boolean } = {}): { values: Tensor; indices: Tensor } {
  if (typeof k !== 'number' || !Number.isInteger(k)) throw argError('topK', 'k must be an integer', describe(k), 'an integer >= 0', 'Pass e.g. 1.');
  const sorted = boolArg('topK', 'sorted', options.sorted ?? true);
  const c = convert('topK', input);
  return releasing([c], () => {
    const [values, indices] = bind(RD.topK, [c.t], { k, sorted });
    return { values, indices };
  });
}

/**
 * Variance over `axis` (all axes by default): mean((x - mean(x))²), like tf.math.reduce_variance.
 * @example ef.math.reduceVariance([1, 2, 3, 4]).arraySync(); // 1.25
 */
function reduceVariance(x: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const axes = axesOf('reduceVariance', axis);
  boolArg('reduceVariance', 'keepDims', keepDims);
  return withInput('reduceVariance', x, (t, temps) => {
    const mean = tmp(temps, o.reduceMean(t, axes, true));
    const sq = tmp(temps, bind(AR.squaredDifference as Primitive, [t, mean], NONE)[0]);
    return o.reduceMean(sq, axes, keepDims);
  });
}

/**
 * Standard deviation over `axis`: sqrt(reduceVariance).
 * @example ef.math.reduceStd([1, 3]).arraySync(); // 1
 */
function reduceStd(x: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const v = reduceVariance(x, axis, keepDims);
  try {
    return bind(E.sqrt, [v], NONE)[0];
  } finally {
    v.dispose();
  }
}

/**
 * log(sum(exp(x))) over `axis`, stable: the (finite) max is subtracted first, as in TF.
 * @example ef.reduceLogsumexp([0, 0]).arraySync(); // 0.6931471824645996
 */
function reduceLogsumexp(x: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const axes = axesOf('reduceLogsumexp', axis);
  boolArg('reduceLogsumexp', 'keepDims', keepDims);
  return withInput('reduceLogsumexp', x, (t, temps) => {
    const raw = tmp(temps, o.reduceMax(t, axes, true));
    const finite = tmp(temps, bind(BM.isFinite as Primitive, [raw], NONE)[0]);
    const shift = tmp(temps, o.stopGradient(tmp(temps, o.where(finite, raw, 0))));
    const e = tmp(temps, o.exp(tmp(temps, o.sub(t, shift))));
    const lse = tmp(temps, o.log(tmp(temps, o.reduceSum(e, axes, keepDims))));
    // Squeezing the kept dims of the shift: a sum over size-1 axes.
    const back = keepDims ? shift : tmp(temps, o.reduceSum(shift, axes, false));
    return o.add(lse, back);
  });
}

/**
 * sqrt(sum(x²)) over `axis` (TF's EuclideanNorm).
 * @example ef.math.reduceEuclideanNorm([3, 4]).arraySync(); // 5
 */
function reduceEuclideanNorm(x: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const axes = axesOf('reduceEuclideanNorm', axis);
  boolArg('reduceEuclideanNorm', 'keepDims', keepDims);
  return withInput('reduceEuclideanNorm', x, (t, temps) => bind(E.sqrt, [tmp(temps, o.reduceSum(tmp(temps, o.square(t)), axes, keepDims))], NONE)[0]);
}

/**
 * The number of non-zero (non-false, non-empty) entries over `axis`, as int32.
 * @example ef.math.countNonzero([[0, 1], [2, 0]], 1).arraySync(); // [1, 1]
 */
function countNonzero(input: TensorLike, axis?: Axis, keepDims = false): Tensor {
  const axes = axesOf('countNonzero', axis);
  boolArg('countNonzero', 'keepDims', keepDims);
  return withInput('countNonzero', input, (t, temps) => {
    const zero = t.dtype === 'bool' ? false : t.dtype === 'string' ? '' : 0;
    const nz = tmp(temps, bind(LG.notEqual, [t, tmp(temps, o.fill([], zero, t.dtype))], NONE)[0]);
    return o.reduceSum(tmp(temps, o.cast(nz, 'int32')), axes, keepDims);
  });
}

/**
 * Counts each value of the int32 `arr` (or sums `weights` there) in bins [0, size), size = max(max(arr) + 1, minlength),
 * capped by maxlength (TF's tf.math.bincount; int32 counts, or the weights' dtype).
 * @example ef.math.bincount([1, 1, 3]).arraySync(); // [0, 2, 0, 1]
 */
function bincount(arr: TensorLike, options: { weights?: TensorLike; minlength?: number; maxlength?: number; dtype?: DType } = {}): Tensor {
  const minlength = options.minlength ?? 0;
  if (!Number.isInteger(minlength) || minlength < 0) throw argError('bincount', 'minlength must be a non-negative integer', describe(minlength), 'an integer >= 0', 'Pass e.g. 0.');
  if (options.maxlength !== undefined && (!Number.isInteger(options.maxlength) || options.maxlength < 0)) throw argError('bincount', 'maxlength must be a non-negative integer', describe(options.maxlength), 'an integer >= 0', 'Pass e.g. 10.');
  const c = convert('bincount', arr, 'int32');
  return releasing([c], () => {
    const temps: Tensor[] = [];
    const tmp = (t: Tensor): Tensor => (temps.push(t), t);
    try {
      const flat = tmp(o.reshape(c.t, [-1]));
      const top = tmp(o.add(tmp(o.reduceMax(flat)), 1));
      let size = tmp(o.maximum(top, tmp(o.fill([], minlength, 'int32'))));
      if (options.maxlength !== undefined) size = tmp(o.minimum(size, tmp(o.fill([], options.maxlength, 'int32'))));
      const w = options.weights === undefined ? tmp(o.zeros([0], options.dtype ?? 'int32')) : tmp(o.reshape(options.weights, [-1]));
      return bind(BC.bincount as Primitive, [flat, size, w], NONE)[0];
    } finally {
      for (const t of temps) t.dispose();
    }
  });
}

/** The composites of this file with their public paths (merged into COMPOSITES). */
export const MATH_COMPOSITES = {
  topK: composite(['math.topK', 'nn.topK'], topK),
  reduceVariance: composite(['math.reduceVariance'], reduceVariance),
  reduceStd: composite(['math.reduceStd'], reduceStd),
  reduceLogsumexp: composite(['math.reduceLogsumexp', 'reduceLogsumexp'], reduceLogsumexp),
  reduceEuclideanNorm: composite(['math.reduceEuclideanNorm'], reduceEuclideanNorm),
  countNonzero: composite(['math.countNonzero'], countNonzero),
  bincount: composite(['math.bincount'], bincount),
};
