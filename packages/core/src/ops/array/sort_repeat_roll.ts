// More composite manipulation ops of issue 11: sort/argsort, repeat, roll, meshgrid, sequenceMask, clipByNorm, clipByGlobalNorm, size, rank, tensorScatterNdAdd.
import { DType, asDType, describe } from '../../values/dtype';
import { Tensor } from '../../values/tensor';
import type { Primitive } from '../primitive';
import { bind } from '../bind';
import { TensorLike, convert } from '../../values/convert';
import { releasing } from '../op_builder';
import { composites } from '../api_spec';
import * as o from '../ops';
import { argError, checkSize, normalizeAxes } from '../check';
import * as E from '../math/unary';
import * as S from './reshape';
import * as RD from '../math/reduce_scan';
import * as TR from './manipulation';
import * as SG from '../math/segment_search';
import { tidy } from '../../backend/memory';
import { Dim, DimRun, SymShape, dim, dimsOf, positionsAlong, fillLike, indexVector, isKnown, reshapeTo, shapeOf, shapeTensor, sliceTo, splitAt, splitFirst, withDim } from './symbolic_dims';

const NONE = {};

/** Runs `body` on the converted input and disposes the intermediates it registers with `keep`. */
function using<T>(op: string, x: TensorLike, body: (t: Tensor, tmp: (t: Tensor) => Tensor) => T, hint?: DType): T {
  const c = convert(op, x, hint);
  return releasing([c], () => {
    const temps: Tensor[] = [];
    try {
      return body(c.t, (t) => (temps.push(t), t));
    } finally {
      for (const t of temps) t.dispose();
    }
  });
}

/**
 * Sorted values and their indices along `axis` via topK over a last axis (negated for ascending, like TF). One path for
 * every rank, known or not (Dims, symbolic_dims.ts): the tensor viewed as [before, n, after] around the axis, n moved
 * last when something follows it (TF swaps it to the end by a perm), sorted by TopKV2 (k = n, read when the graph runs
 * when n is not static), and the shape restored.
 */
function sorted(op: string, x: TensorLike, axis: number, direction: unknown, want: 'values' | 'indices'): Tensor {
  const dir = typeof direction === 'string' ? direction.toUpperCase() : direction;
  if (dir !== 'ASCENDING' && dir !== 'DESCENDING') throw argError(op, 'unsupported direction', describe(direction), "'ASCENDING' or 'DESCENDING'", "Pass direction: 'ASCENDING' or 'DESCENDING'.");
  return using(op, x, (t) =>
    tidy(() => {
      const asc = dir === 'ASCENDING';
      // Ascending = descending of an order-reversing map: -x for floats, -1 - x for int32 (-x overflows at INT_MIN).
      const flip = (v: Tensor): Tensor => (t.dtype === 'int32' ? o.sub(-1, v) : o.neg(v));
      // A known rank checks the axis now (an unknown one when the graph runs, by the run-time slices of the shape).
      if (t.rank !== null) normalizeAxes(op, [axis], t.rank);
      const { head, at, tail } = splitAt(op, shapeOf(t), axis);
      // Nothing after the axis (the last one, whatever the rank): sorted in place.
      const inPlace = axis === -1 || tail.length === 0;
      const moved = inPlace ? t : o.transpose(reshapeTo(t, [dim.prod(head), at, dim.prod(tail)]), [0, 2, 1]);
      const src = asc ? flip(moved) : moved;
      const [values, indices] = bind(RD.topK as Primitive, [src, ...(isKnown(at) ? [] : [dim.tensor(at)])], { k: isKnown(at) ? at : 0, sorted: true });
      const picked = want === 'indices' ? indices : asc ? flip(values) : values;
      return inPlace ? picked : reshapeTo(o.transpose(picked, [0, 2, 1]), [...head, at, ...tail]);
    }),
  );
}

/**
 * Sorts along `axis` (last by default), ascending unless `direction: 'DESCENDING'`.
 * @example ef.sort([3, 1, 2]).arraySync(); // [1, 2, 3]
 */
function sort(values: TensorLike, axis = -1, options: { direction?: 'ASCENDING' | 'DESCENDING' } = {}): Tensor {
  return sorted('sort', values, axis, options.direction ?? 'ASCENDING', 'values');
}

/**
 * The int32 indices that sort `values` along `axis` (ties keep their order).
 * @example ef.argsort([3, 1, 2], -1, { direction: 'DESCENDING' }).arraySync(); // [0, 2, 1]
 */
function argsort(values: TensorLike, axis = -1, options: { direction?: 'ASCENDING' | 'DESCENDING' } = {}): Tensor {
  return sorted('argsort', values, axis, options.direction ?? 'ASCENDING', 'indices');
}

/**
 * Repeats each element `repeats` times along `axis` (flattened first when axis is null), like np.repeat.
 * @example ef.repeat([1, 2], 2).arraySync(); // [1, 1, 2, 2]
 */
function repeat(input: TensorLike, repeats: number | number[], axis: number | null = null): Tensor {
  if (typeof repeats === 'number' && (!Number.isInteger(repeats) || repeats < 0)) throw argError('repeat', 'repeats must be a count or one count per element', describe(repeats), 'an integer >= 0 or one per element', 'Pass e.g. 2 or [1, 2, ...].');
  return using('repeat', input, (t, tmp) => {
    const src = axis === null ? tmp(o.reshape(t, [-1])) : t;
    const sd = src.dims;
    const ax = sd === null ? (axis ?? 0) : normalizeAxes('repeat', [axis ?? 0], sd.length)[0];
    // The axis size as a Dim: a number when static, else read when the graph runs (symbolic_dims.ts).
    const { at: n } = splitAt('repeat', shapeOf(src), ax);
    const list = typeof repeats === 'number' ? [repeats] : repeats;
    const expected = isKnown(n) ? `an integer >= 0 or ${n} of them` : 'an integer >= 0 or one per element';
    if (!Array.isArray(list) || list.length === 0 || list.some((r) => !Number.isInteger(r) || r < 0) || (list.length > 1 && isKnown(n) && list.length !== n)) {
      throw argError('repeat', 'repeats must be a count or one count per element', describe(repeats), expected, 'Pass e.g. 2 or [1, 2, ...].');
    }
    // A count (or a one-element list, broadcast like TF's repeats): position i taken for i // count, n * count of them.
    if (list.length === 1) {
      const c = list[0];
      return o.gather(src, tmp(indexVector(dim.mul(n, c), (i) => Math.floor(i / c), (p) => dim.floordivT(p, c))), ax);
    }
    // One count per element: the axis must have that many (checked when the graph runs for a run-time size).
    const idx = list.flatMap((r, i) => new Array<number>(r).fill(i));
    return o.gather(isKnown(n) ? src : withDim(src, ax, list.length), tmp(o.ints(idx)), ax);
  });
}

/**
 * Rolls elements along `axis` by `shift` (several pairs allowed); elements leaving one end come back at the other.
 * @example ef.roll([1, 2, 3, 4], 1, 0).arraySync(); // [4, 1, 2, 3]
 */
function roll(input: TensorLike, shift: number | number[], axis: number | number[]): Tensor {
  const shifts = Array.isArray(shift) ? shift : [shift];
  const axes = Array.isArray(axis) ? axis : [axis];
  if (shifts.length !== axes.length || [...shifts, ...axes].some((v) => !Number.isInteger(v))) {
    throw argError('roll', 'shift and axis must be integers of equal count', `${describe(shift)} and ${describe(axis)}`, 'matching integer lists', 'Pass one shift per axis.');
  }
  return using('roll', input, (t, tmp) => {
    let cur = t;
    shifts.forEach((s, k) => {
      // The previous step's result is a temporary from here on (also when this step's axis check fails).
      if (cur !== t) tmp(cur);
      const a = t.dims === null ? axes[k] : normalizeAxes('roll', [axes[k]], t.dims.length)[0];
      // Position i takes (i - shift) mod n: a constant gather list for a static n, else built when the graph runs.
      const { at: n } = splitAt('roll', shapeOf(t), a);
      const idx = indexVector(n, (i) => ((((i - s) % (n as number)) + (n as number)) % (n as number)), (p) => dim.modT(o.sub(p, s), o.maximum(dim.tensor(n), 1)));
      cur = o.gather(cur, tmp(idx), a);
    });
    return cur === t ? o.identity(t) : cur;
  });
}

/**
 * Coordinate grids from 1-D tensors (`indexing: 'xy'` swaps the first two axes, like TF's default).
 * @example ef.meshgrid([1, 2, 3], [4, 5]).map((t) => t.shape.toString()); // ['[2,3]', '[2,3]']
 */
function meshgrid(...args: (TensorLike | { indexing?: 'xy' | 'ij' })[]): Tensor[] {
  const last = args[args.length - 1];
  const opts = last !== null && typeof last === 'object' && !Array.isArray(last) && !(last instanceof Tensor) ? (args.pop() as { indexing?: string }) : {};
  const indexing = opts.indexing ?? 'xy';
  if (indexing !== 'xy' && indexing !== 'ij') throw argError('meshgrid', 'unsupported indexing', describe(indexing), "'xy' or 'ij'", "Pass indexing: 'xy' or 'ij'.");
  const ts: Tensor[] = [];
  try {
    for (const a of args as TensorLike[]) ts.push(o.reshape(a, [-1]));
  } catch (e) {
    // A later argument failed to convert: free the ones already reshaped.
    for (const t of ts) t.dispose();
    throw e;
  }
  try {
    // TF multiplies each grid by ones of the first input's dtype: one numeric dtype for all inputs.
    const bad = ts.find((t) => t.dtype !== ts[0].dtype || (t.dtype !== 'float32' && t.dtype !== 'int32'));
    if (bad !== undefined) throw argError('meshgrid', 'inputs must share one numeric dtype', ts.map((t) => t.dtype).join(', '), 'all float32 or all int32', "Cast them to one dtype, e.g. ef.cast(x, 'float32').");
    // One path for static and run-time sizes (Dims): each input as a column on its own axis, broadcast to the grid
    // shape (BroadcastTo when the sizes are static; else times ones of the other columns, TF's meshgrid form).
    const sizes = ts.map((t) => dimsOf(t)[0]);
    const shape = sizes.slice();
    if (indexing === 'xy' && shape.length > 1) [shape[0], shape[1]] = [shape[1], shape[0]];
    const posOf = (i: number): number => (indexing === 'xy' && i < 2 && ts.length > 1 ? 1 - i : i);
    return tidy(() => {
      const cols = ts.map((t, i) => o.reshape(t, shape.map((_, j) => (j === posOf(i) ? -1 : 1))));
      if (shape.every(isKnown)) return cols.map((c) => o.broadcastTo(c, shape));
      return cols.map((c, i) => cols.reduce((acc, other, j) => (j === i ? acc : o.mul(acc, o.onesLike(other))), c));
    });
  } finally {
    for (const t of ts) t.dispose();
  }
}

/**
 * mask[i, j] = j < lengths[i] (bool unless `dtype`); `maxlen` defaults to max(lengths) (eager only).
 * @example ef.sequenceMask([1, 3], 4).arraySync(); // [[true, false, false, false], [true, true, true, false]]
 */
function sequenceMask(lengths: TensorLike, maxlen?: number | null, dtype: DType = 'bool'): Tensor {
  const dt = asDType(dtype, 'sequenceMask');
  return using('sequenceMask', lengths, (t, tmp) => {
    if (t.dtype !== 'int32') throw argError('sequenceMask', 'lengths must be int32', t.dtype, 'int32', "Cast them with ef.cast(lengths, 'int32').");
    let n = maxlen;
    if ((n === undefined || n === null) && t.isSymbolic) {
      // Traced: the width max(lengths) is a run-time value; positions 0..width-1 come from zeros of the mask's own
      // shape [...shape(lengths), width] (an empty last axis padded to the width), so the pad's size check refuses a
      // mask too large to allocate before anything is (one row of a width 2^31 - 1 passed it, then hung).
      const width = tmp(o.reshape(tmp(o.maximum(tmp(o.reduceMax(t)), 0)), [1]));
      const shp = tmp(o.shapeOf(t));
      const zeros = tmp(o.mul(shp, 0));
      const column = tmp(o.expandDims(t, -1));
      const empty = tmp(o.sliceWith(column, tmp(o.concat([zeros, tmp(o.ints([0]))], 0)), tmp(o.concat([shp, tmp(o.ints([0]))], 0))));
      const pads = tmp(o.concat([tmp(o.stack([zeros, zeros], 1)), tmp(o.reshape(tmp(o.concat([tmp(o.ints([0])), width], 0)), [1, 2]))], 0));
      // The last axis by its index when the rank is known (tfjs-converter's Cumsum misreads a negative axis).
      const mask = o.less(tmp(positionsAlong(tmp(o.padWith(empty, pads)), t.rank ?? -1)), column);
      if (dt === 'bool') return mask;
      tmp(mask);
      return o.cast(mask, dt);
    }
    if (n === undefined || n === null) n = Math.max(0, ...Array.from(t.dataSync() as Int32Array));
    if (!Number.isInteger(n) || n < 0) throw argError('sequenceMask', 'maxlen must be a non-negative integer', describe(n), 'an integer >= 0', 'Pass e.g. 10.');
    // The mask's size before its range is built (a length of 2^31 - 1 asked for gigabytes and hung).
    checkSize('sequenceMask', [...(t.dims ?? []), n]);
    const mask = o.less(tmp(o.range(0, n, 1, 'int32')), tmp(o.expandDims(t, -1)));
    if (dt === 'bool') return mask;
    tmp(mask);
    return o.cast(mask, dt);
  }, 'int32');
}

/**
 * Rescales `t` so its L2 norm over `axes` is at most `clipNorm` (TF's clip_by_norm, safe at zero).
 * @example ef.clipByNorm([3, 4], 1).arraySync(); // [0.6000000238418579, 0.800000011920929]
 */
function clipByNorm(t: TensorLike, clipNorm: TensorLike, axes: number | number[] | null = null): Tensor {
  return using('clipByNorm', t, (x, tmp) => {
    const l2sum = tmp(o.reduceSum(tmp(o.square(x)), axes === null ? null : Array.isArray(axes) ? axes : [axes], true));
    const pred = tmp(o.greater(l2sum, 0));
    const norm = tmp(o.where(pred, tmp(bind(E.sqrt, [tmp(o.where(pred, l2sum, 1))], NONE)[0]), l2sum));
    return o.div(tmp(o.mul(x, clipNorm)), tmp(o.maximum(norm, clipNorm)));
  });
}

/**
 * Scales every tensor by clipNorm / max(globalNorm, clipNorm); returns `[clipped, globalNorm]` like TF.
 * @example ef.clipByGlobalNorm([[3], [4]], 1)[1].arraySync(); // 5
 */
function clipByGlobalNorm(tList: TensorLike[], clipNorm: number, useNorm?: TensorLike): [Tensor[], Tensor] {
  if (!Array.isArray(tList)) throw argError('clipByGlobalNorm', 'tList must be an array of tensors', describe(tList), 'an array', 'Wrap the tensors in an array.');
  if (typeof clipNorm !== 'number' || !(clipNorm > 0)) throw argError('clipByGlobalNorm', 'clipNorm must be a positive number', describe(clipNorm), 'a number > 0', 'Pass e.g. 1.0.');
  const temps: Tensor[] = [];
  const tmp = (t: Tensor): Tensor => (temps.push(t), t);
  try {
    const ts = tList.map((t) => tmp(o.cast(t, 'float32')));
    const sums = ts.map((t) => tmp(o.reduceSum(tmp(o.square(t)))));
    const given = useNorm === undefined ? null : convert('clipByGlobalNorm', useNorm);
    const norm = given === null ? bind(E.sqrt, [sums.length ? tmp(bind(RD.addN as Primitive, sums, NONE)[0]) : tmp(o.fill([], 0, 'float32'))], NONE)[0] : releasing([given], () => o.identity(given.t));
    const scale = tmp(o.mul(tmp(o.minimum(tmp(o.div(1, norm)), 1 / clipNorm)), clipNorm));
    return [ts.map((t) => o.mul(t, scale)), norm];
  } finally {
    for (const t of temps) t.dispose();
  }
}

/**
 * The number of elements as an int32 scalar.
 * @example ef.size([[1, 2, 3], [4, 5, 6]]).arraySync(); // 6
 */
function size(input: TensorLike): Tensor {
  return using('size', input, (t, tmp) => {
    const d = t.dims;
    if (d !== null && d.every((v) => v !== null)) return o.fill([], (d as number[]).reduce((a, b) => a * b, 1), 'int32');
    return bind(RD.prod as Primitive, [tmp(bind(S.shape as Primitive, [t], NONE)[0])], { axes: null, keepDims: false })[0];
  });
}

/**
 * The rank as an int32 scalar.
 * @example ef.rank([[1, 2], [3, 4]]).arraySync(); // 2
 */
function rank(input: TensorLike): Tensor {
  return using('rank', input, (t, tmp) => {
    if (t.rank !== null) return o.fill([], t.rank, 'int32');
    return size(tmp(bind(S.shape as Primitive, [t], NONE)[0]));
  });
}

/**
 * `tensor` with `updates` added at `indices` (TF's tensor_scatter_nd_add).
 * @example ef.tensorScatterNdAdd([1, 1, 1], [[0], [2]], [5, 7]).arraySync(); // [6, 1, 8]
 */
function tensorScatterNdAdd(tensor: TensorLike, indices: TensorLike, updates: TensorLike): Tensor {
  return using('tensorScatterNdAdd', tensor, (t, tmp) => {
    const d = t.dims;
    // Unknown dims: the scatter takes t's shape at run time (a third input, TF's ScatterNd(i, u, Shape(t))).
    const known = d !== null && d.every((v) => v !== null);
    const ix = tmp(o.cast(indices, 'int32'));
    const up = convert('tensorScatterNdAdd', updates, t.dtype);
    return releasing([up], () => o.add(t, tmp(bind(TR.scatterNd as Primitive, known ? [ix, up.t] : [ix, up.t, t], { shape: d })[0])));
  });
}

/**
 * The distinct values of a 1-D tensor in first-seen order, and each element's index into them, as TF's `{y, idx}`.
 * @example ef.unique([1, 1, 2, 4, 4, 4, 7]).y.arraySync(); // [1, 2, 4, 7]
 */
function unique(x: TensorLike): { y: Tensor; idx: Tensor } {
  const c = convert('unique', x);
  return releasing([c], () => {
    const [y, idx] = bind(SG.unique as Primitive, [c.t], NONE);
    return { y, idx };
  });
}

/**
 * The slices of `tensor` where `mask` (bool, matching dims axis..axis+k) is true, flattened into one dim (TF's boolean_mask).
 * @example ef.booleanMask([1, 2, 3, 4], [true, false, true, false]).arraySync(); // [1, 3]
 */
function booleanMask(tensor: TensorLike, mask: TensorLike, axis = 0): Tensor {
  if (!Number.isInteger(axis)) throw argError('booleanMask', 'axis must be an integer', describe(axis), 'an integer axis', 'Pass e.g. 0.');
  return using('booleanMask', tensor, (t, tmp) => {
    const m = convert('booleanMask', mask, 'bool');
    return releasing([m], () => {
      const md = m.t.dims;
      if (m.t.dtype !== 'bool') throw argError('booleanMask', 'mask must be bool', m.t.dtype, 'bool', 'Compare first, e.g. ef.greater(x, 0).');
      if (md !== null && md.length === 0) throw argError('booleanMask', 'the mask rank must be >= 1', `${t.shape.toString()} and ${m.t.shape.toString()}`, 'a mask of rank >= 1', 'Pass a mask shaped like the masked dims.');
      return maskedRows(t, m.t, axis, tmp);
    });
  });
}

/**
 * booleanMask written once against Dims (TF's boolean_mask): the masked dims merged by a reshape to
 * shape[:axis] + [-1] + shape[axis + k:] (a Const shape when static, else built from shape(t)), then a gather of the
 * mask's true positions. Mask dims only the run time knows are checked against the tensor's then (a slice of the
 * tensor to the mask's sizes raises on a mismatch); an unknown rank takes a non-negative axis.
 */
function maskedRows(t: Tensor, m: Tensor, axis: number, tmp: (t: Tensor) => Tensor): Tensor {
  const [td, md] = [t.dims, m.dims];
  if (axis < 0 && td === null) throw argError('booleanMask', 'a negative axis needs a known rank', `axis ${axis} for a tensor of unknown rank`, 'axis >= 0', 'Pass a non-negative axis.');
  const a = td === null ? axis : normalizeAxes('booleanMask', [axis], td.length)[0];
  if (td !== null && md !== null && a + md.length > td.length) throw argError('booleanMask', 'the mask shape does not match the tensor', `mask ${m.shape.toString()} for tensor ${t.shape.toString()} at axis ${a}`, `[${td.slice(a, a + md.length).map(String).join(',')}]`, 'Pass a mask shaped like the masked dims.');
  const { first: lead, tail: afterLead } = splitFirst('booleanMask', shapeOf(t), a);
  const ms = shapeOf(m);
  // The dims after the mask's: static when both ranks are known, else the shape vector past a + rank(mask).
  const known = !afterLead.some((d) => d instanceof DimRun) && !ms.some((d) => d instanceof DimRun);
  const k = ms.length;
  const masked = known ? (afterLead.slice(0, k) as Dim[]) : null;
  const rest: SymShape = known ? afterLead.slice(k) : [new DimRun(o.sliceWith(shapeTensor(shapeOf(t)), o.add(o.reshape(o.shapeOf(o.shapeOf(m)), [1]), a), o.ints([-1])))];
  const decided = masked !== null && masked.every((d, i) => dim.equal(d, ms[i] as Dim) !== null);
  if (masked !== null && masked.some((d, i) => dim.equal(d, ms[i] as Dim) === false)) {
    throw argError('booleanMask', 'the mask shape does not match the tensor', `mask ${m.shape.toString()} for tensor ${t.shape.toString()} at axis ${a}`, `[${masked.map(String).join(',')}]`, 'Pass a mask shaped like the masked dims.');
  }
  // Undecided sizes: the tensor sliced to the mask's sizes and the mask to the tensor's (each raises past a dim), so
  // the checked copies feed the result and the checks are never pruned.
  const tc = decided ? t : tmp(sliceTo(t, fillLike([...lead, ...ms, ...rest], 0), [...lead, ...ms, ...rest]));
  const mc = decided ? m : tmp(sliceTo(m, fillLike(ms, 0), masked ?? [new DimRun(o.sliceWith(shapeTensor(shapeOf(t)), o.ints([a]), o.shapeOf(o.shapeOf(m))))]));
  const flat = tmp(reshapeTo(tc, [...lead, -1, ...rest]));
  const coords = tmp(bind(SG.whereCoords as Primitive, [tmp(o.reshape(mc, [-1]))], NONE)[0]);
  return o.gather(flat, tmp(o.reshape(coords, [-1])), a);
}

/** The composites of this file with their public paths. */
export const MANIP2_COMPOSITES = composites('', {
  sort, argsort, repeat, roll, meshgrid, sequenceMask, clipByNorm, clipByGlobalNorm, size, rank, tensorScatterNdAdd, unique, booleanMask,
});
