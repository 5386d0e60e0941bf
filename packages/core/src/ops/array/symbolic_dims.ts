// Symbolic dimensions (after JAX's shape_poly): a dim is a number when the shape is known and a SymbolicDim (an int32
// scalar computed from shape(x) when the graph runs) when it is not. Arithmetic on Dims folds to numbers whenever every
// operand is a number, and otherwise builds the shape-tensor computation TF emits (Shape, StridedSlice/Slice, Mul,
// FloorDiv, Maximum, Pack...). Composites are written once against Dims: with static shapes every helper below binds
// the same static records as before (no extra node); with unknown dims they bind the run-time-sized ones.
//
// A shape whose rank is unknown is a list of Dims and DimRuns (an int32 vector of run-time length standing for a
// run of dims), so rank-agnostic composites (frame along an axis, the image ops on [..., H, W, C]) work on it too.
import type { Tensor } from '../../values/tensor';
import type { DType } from '../../values/dtype';
import { bind } from '../bind';
import type { Primitive } from '../primitive';
import { ruleOps as o, shapeRecords as R } from '../rule_ops';
import { convert } from '../../values/convert';
import { argError } from '../check';
import { internalError } from '../../errors/error_toolkit';

/** A dim known only when the graph runs: an int32 scalar tensor. */
export class SymbolicDim {
  constructor(readonly t: Tensor) {}
  toString(): string {
    return '?';
  }
}

/** A run of dims whose count is known only when the graph runs: an int32 vector tensor (of unknown length). */
export class DimRun {
  constructor(readonly v: Tensor) {}
}

/** A dimension: a number when known, else a SymbolicDim. */
export type Dim = number | SymbolicDim;
/** A shape: Dims, and DimRuns where the rank is unknown. */
export type SymShape = readonly (Dim | DimRun)[];

export const isKnown = (d: Dim): d is number => typeof d === 'number';
const scalarOf = (d: Dim): Tensor => (typeof d === 'number' ? convert('dim', d, 'int32').t : d.t);
const sym = (t: Tensor): SymbolicDim => new SymbolicDim(t);
const bin = (p: unknown, a: Tensor, b: Tensor): Tensor => bind(p as Primitive, [a, b], {})[0];

/** Dim arithmetic: each folds to a number when its operands are numbers (and on identities like x + 0, x * 1). */
export const dim = {
  /** floor(a / b) of int32 tensors (FloorDiv), for index vectors built from Dims. */
  floordivT: (a: Tensor, b: Tensor | number): Tensor => bin(R.floordiv, a, typeof b === 'number' ? scalarOf(b) : b),
  /** a mod b of int32 tensors (FloorMod). */
  modT: (a: Tensor, b: Tensor | number): Tensor => bin(R.floormod, a, typeof b === 'number' ? scalarOf(b) : b),
  add: (a: Dim, b: Dim): Dim => (isKnown(a) && isKnown(b) ? a + b : a === 0 ? b : b === 0 ? a : sym(o.add(scalarOf(a), scalarOf(b)))),
  sub: (a: Dim, b: Dim): Dim => (isKnown(a) && isKnown(b) ? a - b : b === 0 ? a : sym(o.sub(scalarOf(a), scalarOf(b)))),
  mul: (a: Dim, b: Dim): Dim => {
    if (isKnown(a) && isKnown(b)) return a * b;
    if (a === 0 || b === 0) return 0;
    return a === 1 ? b : b === 1 ? a : sym(o.mul(scalarOf(a), scalarOf(b)));
  },
  /** floor(a / b) (b > 0). */
  floordiv: (a: Dim, b: Dim): Dim => (isKnown(a) && isKnown(b) ? Math.floor(a / b) : b === 1 ? a : sym(bin(R.floordiv, scalarOf(a), scalarOf(b)))),
  /** ceil(a / b) (b > 0), as floor((a + b - 1) / b). */
  ceildiv: (a: Dim, b: number): Dim => dim.floordiv(dim.add(a, b - 1), b),
  /** a mod b with b's sign (TF's FloorMod). */
  mod: (a: Dim, b: Dim): Dim => (isKnown(a) && isKnown(b) ? a - Math.floor(a / b) * b : sym(bin(R.floormod, scalarOf(a), scalarOf(b)))),
  max: (a: Dim, b: Dim): Dim => (isKnown(a) && isKnown(b) ? Math.max(a, b) : sym(o.maximum(scalarOf(a), scalarOf(b)))),
  min: (a: Dim, b: Dim): Dim => (isKnown(a) && isKnown(b) ? Math.min(a, b) : sym(o.minimum(scalarOf(a), scalarOf(b)))),
  /** a * b when c > 0, else 0 (c >= 0): counts that vanish with a count. */
  ifPositive: (c: Dim, a: Dim): Dim => (isKnown(c) ? (c > 0 ? a : 0) : dim.mul(a, dim.min(c, 1))),
  /** 1 when a < b, else 0. */
  lt: (a: Dim, b: Dim): Dim => (isKnown(a) && isKnown(b) ? (a < b ? 1 : 0) : sym(o.cast(o.less(scalarOf(a), scalarOf(b)), 'int32'))),
  /** Whether a == b, when that is decidable at trace time (null: only the run time knows). */
  equal: (a: Dim, b: Dim): boolean | null => (isKnown(a) && isKnown(b) ? a === b : a === b ? true : null),
  /** The product of a shape's dims (1 for none). */
  prod: (s: SymShape): Dim => s.reduce<Dim>((acc, d) => dim.mul(acc, d instanceof DimRun ? runProd(d) : d), 1),
  /** f of a known dim, else g of its int32 scalar (an op the arithmetic above lacks, e.g. a float rounding). */
  apply: (a: Dim, f: (n: number) => number, g: (t: Tensor) => Tensor): Dim => (isKnown(a) ? f(a) : sym(g(a.t))),
  /** The Dim as an int32 scalar tensor. */
  tensor: scalarOf,
};

const runProd = (r: DimRun): Dim => sym(bind(R.prod, [r.v], { axes: null, keepDims: false })[0]);

/**
 * x's shape as Dims: numbers where its static shape knows them, else a dim of shape(x) read when the graph runs; an
 * unknown rank is one DimRun over shape(x).
 */
export function shapeOf(x: Tensor): SymShape {
  const d = x.dims;
  if (d === null) return [new DimRun(o.shapeOf(x))];
  if (d.every((v) => v !== null)) return d as number[];
  const shp = o.shapeOf(x);
  return d.map((v, i) => (v !== null ? v : sym(o.reshape(o.slice(shp, [i], [1]), []))));
}

/** x's dims when its rank is known (throws otherwise: the caller reshapes to a known rank first). */
export function dimsOf(x: Tensor): Dim[] {
  const s = shapeOf(x);
  if (s.some((d) => d instanceof DimRun)) throw internalError('dimsOf', 'a tensor of unknown rank (the caller must bring it to a known rank first: withRank, or the [before, n, after] view of splitAt)');
  return s as Dim[];
}

/** Whether a shape is static (every dim a number). */
const isStatic = (s: SymShape): s is readonly number[] => s.every((d) => typeof d === 'number');

/** The shape as an int32 vector tensor (a constant when static; else TF's Pack/ConcatV2 of the parts). */
export function shapeTensor(s: SymShape): Tensor {
  if (isStatic(s)) return o.ints(s);
  const parts: Tensor[] = [];
  let scalars: Tensor[] = [];
  const flush = (): void => {
    if (scalars.length > 0) parts.push(o.stack(scalars));
    scalars = [];
  };
  for (const d of s) {
    if (d instanceof DimRun) {
      flush();
      parts.push(d.v);
    } else scalars.push(scalarOf(d));
  }
  flush();
  return parts.length === 1 ? parts[0] : o.concat(parts, 0);
}

/** The number of dims as a Dim (static unless a DimRun is in it). */
function rankOf(s: SymShape): Dim {
  return s.reduce<Dim>((acc, d) => dim.add(acc, d instanceof DimRun ? sym(o.reshape(o.shapeOf(d.v), [])) : 1), 0);
}

/**
 * The shape split at `axis` (negative counts from the end) into the dims before, the dim at and the dims after it. A
 * known rank checks the axis now; an unknown one when the graph runs (the run-time slices of shape(x) raise).
 */
export function splitAt(op: string, s: SymShape, axis: Dim): { head: SymShape; at: Dim; tail: SymShape } {
  if (!s.some((d) => d instanceof DimRun) && isKnown(axis)) {
    const r = s.length;
    if (axis < -r || axis >= r) throw argError(op, 'axis out of range', String(axis), `an axis in [${-r}, ${r})`, 'Pass an axis within the rank.');
    const a = axis < 0 ? axis + r : axis;
    return { head: s.slice(0, a), at: s[a] as Dim, tail: s.slice(a + 1) };
  }
  const v = shapeTensor(s);
  // A position known only at run time (an unknown rank, or a position computed from one): counted from the start.
  const p = !isKnown(axis) ? o.reshape(axis.t, [1]) : axis < 0 ? o.reshape(scalarOf(dim.add(rankOf(s), axis)), [1]) : o.ints([axis]);
  return {
    head: [new DimRun(o.sliceWith(v, o.ints([0]), p))],
    at: sym(o.reshape(o.sliceWith(v, p, o.ints([1])), [])),
    tail: [new DimRun(o.sliceWith(v, o.add(p, 1), o.ints([-1])))],
  };
}

/** The last `n` dims and the ones before them (the rank checked to be >= n: now when known, else when the graph runs). */
export function splitLast(op: string, s: SymShape, n: number): { head: SymShape; last: Dim[] } {
  if (!s.some((d) => d instanceof DimRun)) {
    if (s.length < n) throw argError(op, `the input must have rank >= ${n}`, `rank ${s.length}`, `rank >= ${n}`, `Add ${n - s.length} leading dims.`);
    return { head: s.slice(0, s.length - n), last: s.slice(s.length - n) as Dim[] };
  }
  const v = shapeTensor(s);
  const cut = o.sub(o.reshape(o.shapeOf(v), [1]), n);
  const lastV = o.sliceWith(v, cut, o.ints([n]));
  const last = Array.from({ length: n }, (_, i) => sym(o.reshape(o.slice(lastV, [i], [1]), [])));
  return { head: [new DimRun(o.sliceWith(v, o.ints([0]), cut))], last };
}

/** The first `n` dims and the ones after them (the rank checked to be >= n: now when known, else when the graph runs). */
export function splitFirst(op: string, s: SymShape, n: number): { first: Dim[]; tail: SymShape } {
  if (!s.some((d) => d instanceof DimRun)) {
    if (s.length < n) throw argError(op, `the input must have rank >= ${n}`, `rank ${s.length}`, `rank >= ${n}`, `Add ${n - s.length} dims.`);
    return { first: s.slice(0, n) as Dim[], tail: s.slice(n) };
  }
  const v = shapeTensor(s);
  const firstV = o.sliceWith(v, o.ints([0]), o.ints([n]));
  const first = Array.from({ length: n }, (_, i) => sym(o.reshape(o.slice(firstV, [i], [1]), [])));
  return { first, tail: [new DimRun(o.sliceWith(v, o.ints([n]), o.ints([-1])))] };
}

/**
 * x with `axes` moved to the end in the given order (the other axes keep theirs: TF's tensordot perm free + axes),
 * the free dims and the moved ones. One path for every rank, known or not: each axis in turn moves around the
 * [before, n, after] view (its position shifted down by the axes already moved from below it); an axis with nothing
 * after it is a reshape only (static shapes fold it away).
 */
export function moveAxesToEnd(op: string, x: Tensor, axes: readonly number[]): { moved: Tensor; free: SymShape; axesDims: Dim[] } {
  const rank = rankOf(shapeOf(x));
  const pos = axes.map((a): Dim => (a < 0 ? dim.add(rank, a) : a));
  let cur = x;
  const movedDims: Dim[] = [];
  pos.forEach((p, i) => {
    const shift = pos.slice(0, i).reduce<Dim>((acc, q) => dim.add(acc, dim.lt(q, p)), 0);
    const { head, at, tail } = splitAt(op, shapeOf(cur), dim.sub(p, shift));
    movedDims.push(at);
    const after = dim.prod(tail);
    const last = after === 1 ? cur : o.transpose(reshapeTo(cur, [dim.prod(head), at, after]), [0, 2, 1]);
    cur = last === cur && tail.length === 0 ? cur : reshapeTo(last, [...head, ...tail, at]);
  });
  return { moved: cur, free: splitLast(op, shapeOf(cur), axes.length).head, axesDims: movedDims };
}

/** x reshaped to a shape of Dims (TF's Reshape with a Const shape when static, else a computed one). */
export function reshapeTo(x: Tensor, s: SymShape): Tensor {
  if (isStatic(s)) return o.reshape(x, s as number[]);
  return o.reshapeWith(x, shapeTensor(s));
}

/** The shape with every dim replaced by `value` (a DimRun by a run of it): zero begins, -1 sizes, zero paddings. */
export function fillLike(s: SymShape, value: number): SymShape {
  return s.map((d) => (d instanceof DimRun ? new DimRun(o.add(o.mul(d.v, 0), value)) : value));
}

/** x sliced at `begin` with `size` (-1: to the end), one Dim per axis (TF's Slice; run-time sized when not static). */
export function sliceTo(x: Tensor, begin: SymShape, size: SymShape): Tensor {
  if (isStatic(begin) && isStatic(size)) return o.slice(x, begin as number[], size as number[]);
  return o.sliceWith(x, shapeTensor(begin), shapeTensor(size));
}

/** x padded by `before` and `after` Dims per axis with `value` (TF's Pad / PadV2; run-time paddings when not static). */
export function padBy(x: Tensor, before: SymShape, after: SymShape, value = 0): Tensor {
  if (isStatic(before) && isStatic(after)) return o.pad(x, before.map((b, i) => [b, after[i] as number]), 'CONSTANT', value);
  const paddings = o.stack([shapeTensor(before), shapeTensor(after)], 1);
  if (value === 0) return o.padWith(x, paddings);
  return padWithValue(x, (t) => o.padWith(t, paddings), o.cast(o.fill([], value, 'float32'), x.dtype as DType));
}

/**
 * x padded by `pad` (a zero padding) with `value` (a scalar tensor of x's dtype) where the padding is: a padded mask
 * picks x or the value, exact for every value (no x - v + v rounding).
 */
export function padWithValue(x: Tensor, pad: (t: Tensor) => Tensor, value: Tensor): Tensor {
  return o.where(pad(o.cast(o.onesLike(x), 'bool')), pad(x), value);
}

/**
 * x of rank `n`: checked now when its rank is known (the caller's error), else a copy reshaped by its own shape vector
 * forced to length n, which raises when the graph runs with another rank (TF's run-time rank assert).
 */
export function withRank(x: Tensor, n: number): Tensor {
  return x.rank !== null ? x : o.reshapeWith(x, o.reshape(o.shapeOf(x), [n]));
}

/**
 * x of unknown rank checked to have rank lo..hi when the graph runs: the shape sliced at rank - lo (raises below lo)
 * and a zero vector of length hi sliced to the rank (raises above hi), folded into a reshape of x to its own shape.
 */
export function withRankBetween(x: Tensor, lo: number, hi: number | null): Tensor {
  if (x.rank !== null) return x;
  const shp = o.shapeOf(x);
  const r = o.reshape(o.shapeOf(shp), [1]);
  const low = o.sliceWith(shp, o.sub(r, lo), o.ints([lo]));
  const checked = o.concat([o.sliceWith(shp, o.ints([0]), o.sub(r, lo)), low], 0);
  return o.reshapeWith(x, hi === null ? checked : o.add(checked, o.sliceWith(o.ints(new Array<number>(hi).fill(0)), o.ints([0]), r)));
}

/**
 * x checked to have size `n` along `axis` when the graph runs (its static size there unknown; the rank known or not):
 * sliced to n along the axis (raises when it is shorter), then back to its own size (raises when it is longer).
 */
export function withDim(x: Tensor, axis: number, n: Dim): Tensor {
  const { head, at, tail } = splitAt('withDim', shapeOf(x), axis);
  if (isKnown(at) && isKnown(n)) return x;
  const zeros = [...fillLike(head, 0), 0, ...fillLike(tail, 0)];
  const cut = sliceTo(x, zeros, [...fillLike(head, -1), n, ...fillLike(tail, -1)]);
  return sliceTo(cut, zeros, [...fillLike(head, -1), at, ...fillLike(tail, -1)]);
}

/** x checked to have last dim `n` when the graph runs (see withDim). */
export const withLastDim = (x: Tensor, n: number): Tensor => withDim(x, -1, n);

/** The int32 vector [f(0), ..., f(n - 1)]: a constant when n is known, else g of 0..n-1 (built when the graph runs). */
export function indexVector(n: Dim, f: (i: number) => number, g: (positions: Tensor) => Tensor): Tensor {
  return isKnown(n) ? o.ints(Array.from({ length: n }, (_, i) => f(i))) : g(rangeOf(n));
}

/** 0, 1, ..., n - 1 (int32) for a Dim n. */
export function rangeOf(n: Dim): Tensor {
  if (isKnown(n)) return o.ints(Array.from({ length: n }, (_, i) => i));
  const zeros = o.padWith(o.fill([0], 0, 'int32'), o.stack([o.ints([0]), o.reshape(n.t, [1])], 1));
  return bind(R.cumsum, [o.onesLike(zeros)], { axis: 0, exclusive: true, reverse: false })[0];
}

/** The bool [r, c] mask of the main diagonal (i == j): eye's, a constant-folded range when r and c are static. */
export function diagonalMask(r: Dim, c: Dim): Tensor {
  return o.equal(o.reshape(rangeOf(r), [-1, 1]), o.reshape(rangeOf(c), [1, -1]));
}

/** Zeros like t, -0 for every dtype but int32: the off-diagonal fill of a diagonal select, so a sum keeps a -0 diagonal's sign. */
export const negZerosLike = (t: Tensor): Tensor => o.mul(o.zerosLike(t), t.dtype === 'int32' ? 0 : -1);

/**
 * The int32 positions 0..n-1 along `axis`, broadcast over x's shape (an exclusive cumsum of ones): range(n) along an
 * axis wherever n is read from x, static or not.
 */
export function positionsAlong(x: Tensor, axis: number): Tensor {
  return bind(R.cumsum, [o.onesLike(o.cast(x, 'int32'))], { axis, exclusive: true, reverse: false })[0];
}

/**
 * Two tensors checked to have one shape: now when their shapes decide it (the caller's error), else when the graph
 * runs, each sliced to the other's shape (a slice past a dim or of another rank raises); the checked copies are
 * returned for the computation to use, so a graph keeps the check.
 */
export function sameShapes(a: Tensor, b: Tensor): [Tensor, Tensor] {
  const [sa, sb] = [shapeOf(a), shapeOf(b)];
  if (isStatic(sa) && isStatic(sb)) return [a, b];
  return [sliceTo(a, fillLike(sa, 0), sb), sliceTo(b, fillLike(sb, 0), sa)];
}
