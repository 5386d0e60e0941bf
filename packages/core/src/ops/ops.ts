// The ops hub: one wrapper per record (built from its API declaration) and the composites built from them.
import { DType, asDType, describe } from '../values/dtype';
import { Tensor } from '../values/tensor';
import { bind } from './bind';
import type { Primitive } from './primitive';
import { TensorLike, convert, dtypeOf, release } from '../values/convert';
import * as ARI from './math/binary';
import * as CRE from './array/creation';
import * as CST from './math/cast';
import * as GR from './array/identity';
import * as LOG from './math/compare';
import * as MAT from './linalg/matmul';
import * as MIR from './array/mirror_pad';
import * as PAD from './array/pad';
import * as RED from './math/reduce';
import * as RSH from './array/reshape';
import * as SEG from './math/segment_sum';
import * as SJ from './array/slice_concat_gather';
import * as UNA from './math/unary';
import type { PadMode } from './array/mirror_pad';
import { argError, normalizeAxes } from './check';
import { ShapeLike, dimsOf, isTensorShapeArg } from '../values/shape_arg';
import type { ApiSpec, FnOf } from './api_spec';
import { convertAll, hintOf, makeOp, releasing } from './op_builder';
import { promoteWeak } from './weak_types';
import { complexRecords, provideRuleOps } from './rule_ops';
import { sliceWith } from './array/slice_concat_gather';
import { padWith } from './array/pad';
import { ints, reshapeWith, shapeOf } from './array/reshape';
import { segmentSumWith } from './math/segment_sum';

const NONE = {};

/**
 * The public function of a record with an API declaration (one instance per record, so
 * `ef.add === ef.math.add`).
 */
const wrappers = new WeakMap<object, unknown>();
export function wrapperOf<Rec extends { readonly api: ApiSpec }>(rec: Rec): FnOf<Rec['api']> {
  let f = wrappers.get(rec);
  if (f === undefined) {
    f = makeOp(rec as unknown as Primitive, rec.api);
    wrappers.set(rec, f);
  }
  return f as FnOf<Rec['api']>;
}

/** Disposes intermediates of a composite (tapes pin what they saved; symbolic values ignore it). */
function drop(...ts: Tensor[]): void {
  for (const t of ts) t.dispose();
}

type Unary = (x: TensorLike) => Tensor;
type Binary = (x: TensorLike, y: TensorLike) => Tensor;
type Reduce = (x: TensorLike, axis?: number | number[] | null, keepDims?: boolean) => Tensor;

// Typed explicitly: gradient rules call these, so inferring them from the records would be circular.
// Record wrappers that gradient rules and composites call (users reach every record through the namespaces).
export const add: Binary = wrapperOf(ARI.add);
export const subtract: Binary = wrapperOf(ARI.sub);
export const multiply: Binary = wrapperOf(ARI.mul);
/** RealDiv on operands of one float dtype (gradient rules); the public `divide` is true division. */
export const realDiv: Binary = wrapperOf(ARI.div);
export const pow: Binary = wrapperOf(ARI.pow);
export const maximum: Binary = wrapperOf(ARI.maximum);
export const minimum: Binary = wrapperOf(ARI.minimum);
export const equal: Binary = wrapperOf(LOG.equal);
export const less: Binary = wrapperOf(LOG.less);
export const lessEqual: Binary = wrapperOf(LOG.lessEqual);
export const logicalAnd: Binary = wrapperOf(LOG.logicalAnd);
export const greater: Binary = wrapperOf(LOG.greater);
export const greaterEqual: Binary = wrapperOf(LOG.greaterEqual);
export const negative: Unary = wrapperOf(UNA.neg);
/** NaN is the one value not equal to itself (isNan's record lives in a module that imports this one). */
const isNan = (x: Tensor): Tensor => bind(LOG.notEqual, [x, x], {})[0];
export const sign: Unary = wrapperOf(UNA.sign);
export const exp: Unary = wrapperOf(UNA.exp);
export const log: Unary = wrapperOf(UNA.log);
export const square: Unary = wrapperOf(UNA.square);
export const sin: Unary = wrapperOf(UNA.sin);
export const cos: Unary = wrapperOf(UNA.cos);
export const sinh: Unary = wrapperOf(UNA.sinh);
export const cosh: Unary = wrapperOf(UNA.cosh);
export const relu: Unary = wrapperOf(UNA.relu);
export const identity: Unary = wrapperOf(GR.identity);
export const stopGradient: Unary = wrapperOf(GR.stopGradient);
export const zerosLike: Unary = wrapperOf(CRE.zerosLike);
export const onesLike: Unary = wrapperOf(CRE.onesLike);
export const where: (condition: TensorLike, x: TensorLike, y: TensorLike) => Tensor = wrapperOf(LOG.select);
export const reduceSum: Reduce = wrapperOf(RED.sum);
export const reduceMax: Reduce = wrapperOf(RED.max);
export const matmul: (a: TensorLike, b: TensorLike, transposeA?: boolean, transposeB?: boolean) => Tensor = wrapperOf(MAT.matmul);
export const reshape: (x: TensorLike, shape: number[]) => Tensor = wrapperOf(RSH.reshape);
export const transpose: (x: TensorLike, perm?: readonly number[] | null) => Tensor = wrapperOf(RSH.transpose);
export const expandDims: (x: TensorLike, axis: number) => Tensor = wrapperOf(RSH.expandDims);
export const squeeze: (x: TensorLike, axis?: number | number[] | null) => Tensor = wrapperOf(RSH.squeeze);
export const concat: (values: TensorLike[], axis?: number) => Tensor = wrapperOf(SJ.concat);
/** begin and size may be int32 vector tensors (slice's tensor form: sizes only the graph knows). */
export const slice: (x: TensorLike, begin: number | number[] | Tensor, size?: number | number[] | Tensor | null) => Tensor = wrapperOf(SJ.slice);
export const gather: (params: TensorLike, indices: TensorLike, axis?: number) => Tensor = wrapperOf(SJ.gather);
/** numSegments may be an int32 scalar tensor (the tensor form: a count only the graph knows). */
export const unsortedSegmentSum: (data: TensorLike, segmentIds: TensorLike, numSegments: number | Tensor) => Tensor = wrapperOf(SEG.unsortedSegmentSum);
export const broadcastTo: (x: TensorLike, shape: number[]) => Tensor = wrapperOf(RSH.broadcastTo);

// The records' tensor forms (sizes as int32 tensors) for gradients and composites traced with unknown dims.
export { shapeOf, sliceWith, padWith, reshapeWith, segmentSumWith, ints };

// Short internal aliases used by gradient rules.
export const neg: Unary = negative;
export const sub: Binary = subtract;
export const mul: Binary = multiply;
export const div: Binary = realDiv;

function axesParam(op: string, axis: number | number[] | null | undefined): number[] | null {
  if (axis === undefined || axis === null) return null;
  const axes = Array.isArray(axis) ? axis : [axis];
  if (axes.some((a) => !Number.isInteger(a))) throw argError(op, 'axis must be integers', describe(axis), 'an integer or array of integers', 'Pass e.g. 0 or [0, 1].');
  return axes;
}

/** Mean over `axis` (all axes by default), composed from sum and a count; int32 means truncate like TensorFlow's. */
export function reduceMean(x: TensorLike, axis?: number | number[] | null, keepDims = false): Tensor {
  const axes = axesParam('reduceMean', axis);
  const a = convert('reduceMean', x);
  return releasing([a], () => {
    if (a.t.dtype === 'int32') return bind(RED.intMean, [a.t], { axes, keepDims })[0];
    // complex64 (TF's Mean takes it): the means of the real and imaginary parts (divide has no complex64).
    if (a.t.dtype === 'complex64') {
      const parts: Tensor[] = [];
      try {
        for (const p of [complexRecords.real, complexRecords.imag]) {
          const part = bind(p, [a.t], {})[0];
          parts.push(part);
          parts.push(reduceMean(part, axes, keepDims));
        }
        return bind(complexRecords.complex, [parts[1], parts[3]], {})[0];
      } finally {
        drop(...parts);
      }
    }
    const s = reduceSum(a.t, axes, keepDims);
    const dims = a.t.dims;
    const reduced = dims === null ? null : axes === null ? dims : axes.map((i) => dims[i < 0 ? i + dims.length : i]);
    if (reduced !== null && reduced.every((d) => d !== null)) {
      const n = (reduced as number[]).reduce((p, d) => p * d, 1);
      const out = divide(s, n);
      drop(s);
      return out;
    }
    const ones = onesLike(a.t);
    const count = reduceSum(ones, axes, keepDims);
    const out = divide(s, count);
    drop(s, ones, count);
    return out;
  });
}

/** @example ef.stack([[1, 2], [3, 4]], 1).arraySync(); // [[1, 3], [2, 4]] */
export function stack(values: TensorLike[], axis = 0): Tensor {
  const cs = many('stack', values);
  return releasing(cs, () => {
    if (cs.length === 0) throw argError('stack', 'no tensors to stack', '0 tensors', 'at least 1', 'Pass a non-empty array.');
    const r = cs[0].t.rank;
    cs.forEach((c, i) => {
      if (c.t.dims !== null && cs[0].t.dims !== null && !c.t.shape.isCompatibleWith(cs[0].t.shape)) {
        throw argError('stack', `tensor ${i} has a different shape`, c.t.shape.toString(), cs[0].t.shape.toString(), 'Stack tensors of one shape.');
      }
    });
    const ax = axis < 0 && r !== null ? axis + r + 1 : axis;
    const expanded: Tensor[] = [];
    try {
      for (const c of cs) expanded.push(expandDims(c.t, ax));
      return concat(expanded, ax);
    } finally {
      drop(...expanded);
    }
  });
}

/**
 * Pads like tf.pad: 'CONSTANT' with `constantValues`, or 'REFLECT' / 'SYMMETRIC' mirroring.
 * @example ef.pad([1, 2, 3], [[2, 1]], 'REFLECT').arraySync(); // [3, 2, 1, 2, 3, 2]
 */
export function pad(x: TensorLike, paddings: [number, number][] | Tensor, mode: PadMode = 'CONSTANT', constantValues = 0): Tensor {
  // An int32 [rank, 2] paddings tensor (TF's Pad operand): pad's tensor form (constant mode).
  if (paddings instanceof Tensor && (typeof mode === 'string' ? mode.toUpperCase() : mode) === 'CONSTANT' && typeof constantValues === 'number') {
    const a = convert('pad', x);
    return releasing([a], () => PAD.padWith(a.t, paddings, constantValues));
  }
  if (!Array.isArray(paddings)) throw argError('pad', 'paddings must be an array of [before, after] pairs', describe(paddings), 'an array', 'Pass e.g. [[1, 1]].');
  const m = typeof mode === 'string' ? mode.toUpperCase() : mode;
  if (m === 'CONSTANT') {
    if (typeof constantValues !== 'number') throw argError('pad', 'constantValues must be a number', describe(constantValues), 'a number', 'Pass e.g. 0.');
    return padConstant(x, paddings, constantValues);
  }
  if (m !== 'REFLECT' && m !== 'SYMMETRIC') throw argError('pad', 'unknown mode', describe(mode), "'CONSTANT', 'REFLECT' or 'SYMMETRIC'", 'Pass one of the three modes.');
  return padMirror(x, paddings, m);
}

function likeOp(prim: Primitive, x: Tensor, like: Tensor): Tensor {
  return bind(prim, [x, like], NONE)[0];
}

/** Broadcasts `x` to `like`'s shape (static when known, else at run time). */
export function broadcastLike(x: Tensor, like: Tensor): Tensor {
  const d = like.dims;
  if (d !== null && d.every((v) => v !== null)) return broadcastTo(x, d as number[]);
  return likeOp(RSH.broadcastLike, x, like);
}

/** Sums `x` down to `like`'s shape (the unbroadcast of a gradient); static shapes need no value of `like`. */
export function reduceLike(x: Tensor, like: Tensor): Tensor {
  const from = x.dims;
  const to = like.dims;
  if (from === null || to === null || from.some((v) => v === null) || to.some((v) => v === null)) return likeOp(RSH.reduceLike, x, like);
  const lead = from.length - to.length;
  const axes: number[] = [];
  for (let i = 0; i < from.length; i++) if (i < lead || (to[i - lead] === 1 && from[i] !== 1)) axes.push(i);
  if (lead < 0 || to.some((d, i) => d !== 1 && d !== from[i + lead])) return likeOp(RSH.reduceLike, x, like);
  if (axes.length === 0) return from.length === to.length ? identity(x) : reshape(x, to as number[]);
  const summed = reduceSum(x, axes, true);
  const out = reshape(summed, to as number[]);
  drop(summed);
  return out;
}

export function reshapeLike(x: Tensor, like: Tensor): Tensor {
  const d = like.dims;
  if (d !== null && d.every((v) => v !== null)) return reshape(x, d as number[]);
  return likeOp(RSH.reshapeLike, x, like);
}

export function cast(x: TensorLike, dtype: DType): Tensor {
  const dt = asDType(dtype, 'cast');
  const a = convert('cast', x);
  if (a.t.dtype === dt) {
    if (!a.temp) return identity(a.t);
    return a.t;
  }
  return releasing([a], () => bind(CST.cast, [a.t], { dtype: dt })[0]);
}

/**
 * Like tf.fill: `dims` may be a TensorShape, int32 tensors (eager) among the dims, or a 1-D int32 tensor;
 * `value` may be a scalar tensor (its dtype is the result's).
 * @example ef.fill([2], 7).arraySync(); // [7, 7]
 */
export function fill(dims: number[] | ShapeLike, value: number | boolean | string | Tensor, dtype?: DType): Tensor {
  if (!Array.isArray(dims) && !isTensorShapeArg(dims)) throw argError('fill', 'dims must be an array', describe(dims), 'an array of integers', 'Pass e.g. [2, 3].');
  // The dtype before the dims: reading a symbolic tensor's dims fails only inside a trace (eager and traced alike).
  if (dtype !== undefined) asDType(dtype, 'fill');
  const runTime = runTimeFill(dims, value, dtype);
  if (runTime !== null) return runTime;
  const shape = isTensorShapeArg(dims) ? dimsOf('fill', 'dims', dims) : (dims as number[]);
  if (value instanceof Tensor) {
    if (value.rank !== 0) throw argError('fill', 'value must be a scalar', `a tensor of shape ${value.shape.toString()}`, 'a scalar tensor', 'Pass one value to repeat.');
    const v = dtype !== undefined && dtype !== value.dtype ? cast(value, dtype) : value;
    try {
      return broadcastTo(v, shape);
    } finally {
      if (v !== value) v.dispose();
    }
  }
  const dt = dtype ? asDType(dtype, 'fill') : typeof value === 'boolean' ? 'bool' : typeof value === 'string' ? 'string' : 'float32';
  return bind(CRE.fill, [], { shape, value, dtype: dt })[0];
}

/**
 * fill with dims only the graph knows (symbolic int32 tensors inside a trace, as TF's Fill takes its dims as a
 * tensor input): fill's tensor form (the value's gradient sums the cotangent, as TF's). Null when every dim is known
 * now (the static path), or for string and bool fills.
 */
function runTimeFill(dims: unknown, value: number | boolean | string | Tensor, dtype?: DType): Tensor | null {
  const symbolic = (d: unknown): d is Tensor => d instanceof Tensor && d.isSymbolic;
  if (value instanceof Tensor && value.rank !== 0) return null;
  let vec: Tensor;
  // Symbolic dims of another dtype than int32 take the static path, which refuses them as eager calls do.
  if (symbolic(dims)) {
    if (dims.rank !== 1 || dims.dtype !== 'int32') return null;
    vec = dims;
  } else if (Array.isArray(dims) && dims.some(symbolic)) {
    if (dims.some((d: unknown) => symbolic(d) && (d.dtype !== 'int32' || d.rank !== 0))) return null;
    vec = stack(dims as TensorLike[]);
  } else return null;
  const dt = dtype ?? (value instanceof Tensor ? value.dtype : typeof value === 'number' ? 'float32' : null);
  // A dims vector of unknown length is fill's tensor form too: the rank comes when the graph runs.
  if (dt !== 'float32' && dt !== 'int32') return null;
  const v = value instanceof Tensor ? (value.dtype === dt ? value : cast(value, dt)) : convert('fill', value, dt).t;
  return CRE.fillWith(vec, v);
}

/** An integer alone is a 1-D shape, as in TF (`ef.zeros(2)`). */
const shapeArg = (op: string, shape: number | number[] | ShapeLike): number[] | ShapeLike => (typeof shape === 'number' ? dimsOf(op, 'shape', shape, true) : shape);
export const zeros = (shape: number | number[] | ShapeLike, dtype: DType = 'float32'): Tensor => fill(shapeArg('zeros', shape), dtype === 'bool' ? false : dtype === 'string' ? '' : 0, dtype);
export const ones = (shape: number | number[] | ShapeLike, dtype: DType = 'float32'): Tensor => fill(shapeArg('ones', shape), dtype === 'bool' ? true : 1, dtype);

/** range(limit) or range(start, limit, delta): like tf.range (float32 unless dtype says otherwise). */
export function range(start: number | Tensor, limit?: number | Tensor | null, delta: number | Tensor = 1, dtype?: DType): Tensor {
  const [a, b] = limit === undefined || limit === null ? [0, start] : [start, limit];
  // A bound given as a scalar tensor (one only the graph knows: ef.range(ef.shape(x)[0])): range's tensor form, of
  // the tensors' dtype when none is given (TF's).
  if ([a, b, delta].some((v) => v instanceof Tensor)) {
    const dt = asDType(dtype ?? ([a, b, delta].find((v) => v instanceof Tensor) as Tensor).dtype, 'range');
    // Converted inside the try: a bad later bound must not leak an earlier one's tensor.
    const converted: ReturnType<typeof convert>[] = [];
    const casts: Tensor[] = [];
    try {
      const ts = [a, b, delta].map((v) => {
        if (!(v instanceof Tensor)) {
          converted.push(convert('range', v, dt));
          return converted[converted.length - 1].t;
        }
        if (v.dtype === dt) return v;
        casts.push(cast(v, dt));
        return casts[casts.length - 1];
      });
      return CRE.rangeWith(ts[0], ts[1], ts[2], dt);
    } finally {
      converted.forEach(release);
      casts.forEach((t) => t.dispose());
    }
  }
  dtype ??= 'float32';
  if (![a, b, delta].every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw argError('range', 'start, limit and delta must be finite numbers', `${describe(a)}, ${describe(b)}, ${describe(delta)}`, 'numbers', 'Pass numbers.');
  }
  return bind(CRE.range, [], { start: a, stop: b, step: delta, dtype: asDType(dtype, 'range') })[0];
}

/**
 * softmax along `axis` (default last), numerically stable. Rows holding inf or NaN give TF 2.21's values: the
 * max skips NaN, and a NaN after the shift (NaN itself, inf - inf) makes the row's sum +inf, so it stays NaN
 * where it is and the other entries are 0 (`[1, inf, 2]` -> `[0, nan, 0]`, `[nan, 1, 2]` -> `[nan, 0, 0]`).
 */
export function softmax(logits: TensorLike, axis = -1): Tensor {
  const a = convert('softmax', logits);
  return releasing([a], () => {
    // Checked before any intermediate exists (TF's Softmax is float-only; a later failure would leak them).
    if (a.t.dtype !== 'float32') throw argError('softmax', 'unsupported dtype', a.t.dtype, 'float32', "Cast it first, e.g. ef.cast(logits, 'float32').");
    const rank = a.t.shape.rank;
    if (rank !== null) normalizeAxes('softmax', [axis], rank);
    const nan = isNan(a.t);
    const skipNan = where(nan, -Infinity, a.t);
    const max = reduceMax(skipNan, axis, true);
    const shift = stopGradient(max);
    const shifted = subtract(a.t, shift);
    const e = exp(shifted);
    const eNan = isNan(e);
    const nanToInf = where(eNan, Infinity, e);
    const total = reduceSum(nanToInf, axis, true);
    const out = divide(e, total);
    drop(nan, skipNan, max, shift, shifted, e, eNan, nanToInf, total);
    return out;
  });
}

/**
 * Clips to [min, max] like tf.clip_by_value: minimum with max first, then maximum with min (so min
 * wins when min > max). Bounds may broadcast to `t` but must not change its shape (TensorFlow raises).
 */
export function clipByValue(t: TensorLike, clipValueMin: TensorLike, clipValueMax: TensorLike): Tensor {
  const [a, lo, hi] = convertAll('clipByValue', [t, clipValueMin, clipValueMax], [undefined, dtypeOf(t), dtypeOf(t)], true);
  return releasing([a, lo, hi], () => {
    // One dtype for t and both bounds, checked before the first intermediate exists (no leak on failure).
    if (lo.t.dtype !== a.t.dtype || hi.t.dtype !== a.t.dtype) {
      throw argError('clipByValue', 't and the bounds must have the same dtype', `${a.t.dtype}, ${lo.t.dtype} and ${hi.t.dtype}`, 'one dtype', `EagerFlow, like TensorFlow, never casts implicitly: use ef.cast(bound, '${a.t.dtype}').`);
    }
    const high = minimum(a.t, hi.t);
    let out: Tensor;
    try {
      out = maximum(high, lo.t);
    } finally {
      drop(high);
    }
    const want = a.t.shape;
    if (want.isFullyDefined() && out.shape.isFullyDefined()) {
      if (want.toString() === out.shape.toString()) return out;
      const got = out.shape.toString();
      drop(out);
      throw argError('clipByValue', 'the bounds change the shape of t', `a result of shape ${got}`, `the shape of t ${want.toString()}`, 'Give the bounds shapes that broadcast to t without growing it.');
    }
    // Dims known only at run time: the result must still have t's shape. It is a broadcast of t with the bounds, so it
    // broadcasts to t's shape only when it is that shape: broadcast_to checks it when the graph runs (a size check let an
    // empty t grow: [0,4,1,1] with bounds of shape [2] gave [0,4,1,2]).
    const dims = bind(RSH.shape as Primitive, [a.t], NONE)[0];
    try {
      return bind(RSH.broadcastTo as Primitive, [out, dims], NONE)[0];
    } finally {
      drop(out);
      drop(dims);
    }
  });
}

/**
 * True division like tf.math.divide: int32 inputs give float32 (TensorFlow's float64, under the contract).
 * @example ef.divide([7, -7], [2, 2]).arraySync(); // [3.5, -3.5]
 */
export function divide(x: TensorLike, y: TensorLike): Tensor {
  if (x instanceof Tensor && y instanceof Tensor && x.dtype !== 'int32' && x.weak === y.weak) return realDiv(x, y);
  const [a, b] = convertAll('divide', [x, y], [hintOf(y), hintOf(x)], true);
  return releasing([a, b], () => {
    const p = promoteWeak('divide', [a.t, b.t]);
    const [u, v] = p.ts;
    try {
      if (u.dtype !== 'int32' || v.dtype !== 'int32') return bind(ARI.div, [u, v], NONE)[0];
      const fa = cast(u, 'float32');
      const fb = cast(v, 'float32');
      try {
        return bind(ARI.div, [fa, fb], NONE)[0];
      } finally {
        drop(fa, fb);
      }
    } finally {
      p.temps.forEach((t) => t.dispose());
    }
  });
}

function padConstant(x: TensorLike, paddings: [number, number][], constantValue: number): Tensor {
  const a = convert('pad', x);
  return releasing([a], () => bind(PAD.pad, [a.t], { paddings, constantValue })[0]);
}

function padMirror(x: TensorLike, paddings: [number, number][], mode: 'REFLECT' | 'SYMMETRIC'): Tensor {
  const a = convert('pad', x);
  return releasing([a], () => bind(MIR.mirrorPad as Primitive, [a.t], { paddings, mode })[0]);
}

/** Converts a list of tensors with one dtype hint (the first typed value's). */
function many(op: string, values: TensorLike[]): ReturnType<typeof convert>[] {
  if (!Array.isArray(values)) throw argError(op, 'values must be an array of tensors', describe(values), 'an array', 'Wrap the tensors in an array.');
  const hint = values.map((v) => (v instanceof Tensor ? v.dtype : undefined)).find((d) => d !== undefined);
  const out: ReturnType<typeof convert>[] = [];
  try {
    for (const v of values) out.push(convert(op, v, hint));
  } catch (e) {
    out.forEach((c) => c.temp && c.t.dispose());
    throw e;
  }
  return out;
}


export type { PadMode };

// The ops the wrapped records' gradient rules call (rule_ops.ts: they read this table instead of importing this module).
provideRuleOps({
  add, sub, mul, div, pow, maximum, minimum, equal, less, greater, greaterEqual, lessEqual,
  neg, sign, log, square, sin, cos, sinh, cosh, zerosLike, onesLike, fill, where, reduceSum, reduceMean, matmul, cast,
  reshape, transpose, expandDims, concat, stack, slice, pad, gather, unsortedSegmentSum, broadcastLike, reshapeLike,
  shapeOf, ints, sliceWith, padWith, reshapeWith, segmentSumWith,
});
