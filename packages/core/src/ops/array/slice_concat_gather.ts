// slice_join: concat, slice and gather (with its gradient as a segment sum).
import { lower } from '../onnx_lowerings';
import { onnxSpec } from '../onnx_spec';
import type { Info } from '../../backend/backend';
import { describe } from '../../values/dtype';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { attr, tfSpec } from '../graphdef_spec';
import { dimsToString } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { ruleOps as o } from '../rule_ops';
import { argError, checkArity, checkDTypes, normalizeAxes } from '../check';
import { complexByParts } from '../kernel_util';
import { g0, I32 } from '../rule_helpers';
import { Dim, dim, dimsOf, isKnown, padBy, reshapeTo, shapeOf, sliceTo, splitFirst } from './symbolic_dims';


export interface AxisParams {
  readonly axis: number;
}

export const concat = {
  name: 'concat',
  onnx: onnxSpec<AxisParams>({ op: 'Concat', attrs: { axis: { param: 'axis', kind: 'int' } }, dtypes: ['float32', 'int32', 'bool'] }),
  effect: 'pure',
  infer(ins: AVal[], p: AxisParams) {
    if (ins.length === 0) throw argError('concat', 'no tensors to concatenate', '0 tensors', 'at least 1', 'Pass a non-empty array.');
    const dtype = ins[0].dtype;
    const known = ins.find((a) => a.shape !== null);
    if (!known) return [{ dtype, shape: null }];
    const rank = known.shape!.length;
    if (rank === 0) throw argError('concat', 'cannot concatenate scalars', 'rank-0 tensors', 'tensors of rank >= 1', 'Use ef.stack to join scalars into a vector.');
    const [axis] = normalizeAxes('concat', [p.axis], rank);
    const out: (number | null)[] = known.shape!.slice();
    out[axis] = 0;
    ins.forEach((a, i) => {
      if (a.dtype !== dtype) throw argError('concat', `tensor ${i} has a different dtype`, a.dtype, dtype, 'Cast all inputs to one dtype.');
      if (a.shape === null) return void (out[axis] = null);
      if (a.shape.length !== rank) throw argError('concat', `tensor ${i} has a different rank`, `shape ${dimsToString(a.shape)}`, `rank ${rank}`, 'Concatenate tensors of equal rank.');
      a.shape.forEach((d, j) => {
        if (j === axis) out[axis] = out[axis] === null || d === null ? null : (out[axis] as number) + d;
        else if (d !== null && out[j] !== null && d !== out[j]) throw argError('concat', `tensor ${i} does not match on axis ${j}`, `shape ${dimsToString(a.shape)}`, `dim ${out[j]} on axis ${j}`, 'All dims but the concat axis must match.');
        else if (out[j] === null) out[j] = d;
      });
    });
    return [{ dtype, shape: out }];
  },
  impl: (k, xs, p: AxisParams) => [k.run('Concat', xs as unknown as Record<string, Info>, { axis: p.axis < 0 ? p.axis + xs[0].shape.length : p.axis }) as Info],
  vjp: (c, xs, _o, p: AxisParams) => {
    const rank = xs[0].rank as number;
    const axis = p.axis < 0 ? p.axis + rank : p.axis;
    // Each input's slice at its offset along the axis (TF's ConcatOffset): Dims, so run-time sizes build the offsets
    // from shape(x) and static ones fold to a Const begin/size (symbolic_dims.ts).
    let offset: Dim = 0;
    return xs.map((x) => {
      const d = dimsOf(x);
      const begin = d.map((_, i): Dim => (i === axis ? offset : 0));
      const size = d.map((v, i): Dim => (i === axis ? v : -1));
      offset = dim.add(offset, d[axis]);
      return sliceTo(g0(c), begin, size);
    });
  },
  saves: 'none',
  api: api(['concat'], [arg.tensors('values'), arg.int('axis', 0)]),
  tf: tfSpec<AxisParams>({ op: 'ConcatV2', inputs: ['xs', { param: 'axis', shape: 'scalar' }], attrs: { T: { dtypeOf: 0 }, N: { count: true }, Tidx: I32 } }),
} satisfies Primitive<AxisParams>;

export interface SliceParams {
  readonly begin: readonly number[];
  readonly size: readonly number[];
}

export const slice = {
  name: 'slice',
  onnx: lower.slice,
  effect: 'pure',
  infer(ins: AVal[], p: SliceParams) {
    const s = ins[0].shape;
    if (![...p.begin, ...p.size].every(Number.isInteger)) {
      throw argError('slice', 'begin and size must be integers', `begin [${p.begin}], size [${p.size}]`, 'integers', 'Pass whole numbers (TensorFlow refuses fractional indices).');
    }
    if (s === null) return [{ dtype: ins[0].dtype, shape: p.size.map((d) => (d === -1 ? null : d)) }];
    if (p.begin.length !== s.length || p.size.length !== s.length) {
      throw argError('slice', 'begin and size must have one entry per dim', `begin [${p.begin}], size [${p.size}] for shape ${dimsToString(s)}`, `${s.length} entries each`, 'Pass begin and size of the input rank.');
    }
    const out = s.map((d, i) => {
      const b = p.begin[i];
      const n = p.size[i] === -1 ? (d === null ? null : d - b) : p.size[i];
      if (b < 0 || (n !== null && n < 0) || (d !== null && n !== null && b + n > d)) {
        throw argError('slice', `slice out of bounds on axis ${i}`, `begin ${b}, size ${p.size[i]} for dim ${d}`, `0 <= begin <= begin + size <= ${d}`, 'Fix begin/size.');
      }
      return n;
    });
    return [{ dtype: ins[0].dtype, shape: out }];
  },
  impl: (k, [x], p: SliceParams) => [k.run('Slice', { x }, { begin: [...p.begin], size: p.size.map((n, i) => (n === -1 ? x.shape[i] - p.begin[i] : n)) }) as Info],
  // TF's _SliceGrad, one path for static and run-time sizes (Dims): pad the cotangent by begin before and
  // dim(x) - dim(y) - begin after.
  vjp: (c, [x], _o, p: SliceParams) => {
    const g = g0(c);
    const n = p.begin.length;
    const [dx, dy] = [x, g].map((t) => (t.dims === null ? splitFirst('slice gradient', shapeOf(t), n).first : dimsOf(t)));
    return [padBy(g, p.begin, dx.map((d, i) => dim.sub(dim.sub(d, p.begin[i]), dy[i])))];
  },
  saves: 'none',
  api: api(['slice'], [arg.tensor('x'), arg.custom('begin', intOrInts('begin')), arg.custom('size', intOrInts('size'), null)], [], { prepare: sliceDefaults }),
  tf: tfSpec<SliceParams>({ op: 'Slice', inputs: ['x', { param: 'begin', shape: 'vector' }, { param: 'size', shape: 'vector' }], attrs: { T: { dtypeOf: 0 }, Index: I32 } }),
} satisfies Primitive<SliceParams>;

export const gather = {
  name: 'gather',
  onnx: onnxSpec<AxisParams>({ op: 'Gather', attrs: { axis: { param: 'axis', kind: 'int' } }, dtypes: ['float32', 'int32', 'bool'] }),
  effect: 'pure',
  infer(ins: AVal[], p: AxisParams) {
    checkArity('gather', ins, 2);
    checkDTypes('gather', ins[1], ['int32'], 'indices');
    const [x, idx] = [ins[0].shape, ins[1].shape];
    if (x === null || idx === null) return [{ dtype: ins[0].dtype, shape: null }];
    const [axis] = normalizeAxes('gather', [p.axis], x.length);
    return [{ dtype: ins[0].dtype, shape: [...x.slice(0, axis), ...idx, ...x.slice(axis + 1)] }];
  },
  impl(k, [x, indices], p: AxisParams) {
    const axis = p.axis < 0 ? p.axis + x.shape.length : p.axis;
    try {
      const gather = ([v]: Info[]): Info => k.run('GatherV2', { x: v, indices }, { axis, batchDims: 0 }) as Info;
      // tfjs's CPU GatherV2 has no complex64 kernel: gather the real and imaginary parts.
      return [x.dtype === 'complex64' ? complexByParts(k, [x], gather) : gather([x])];
    } catch (e) {
      // The CPU kernel checks the indices (TensorFlow: InvalidArgumentError naming the index).
      const bad = /index value (-?\d+)/.exec(e instanceof Error ? e.message : String(e));
      const got = bad ? `index ${bad[1]}` : String(e);
      throw argError('gather', 'an index is out of range', got, `indices in [0, ${x.shape[axis]})`, 'Clamp or fix the indices.', { cause: e });
    }
  },
  vjp: (c, [x, idx], _o, p: AxisParams) => [gatherGrad(g0(c), x, idx, p.axis), null],
  saves: 'inputs',
  api: api(['gather'], [arg.tensor('params'), arg.tensor('indices', 'int32'), arg.int('axis', 0)]),
  tf: tfSpec<AxisParams>({
    op: 'GatherV2',
    inputs: ['x', 'x', { param: 'axis', shape: 'scalar' }],
    attrs: { Tparams: { dtypeOf: 0 }, Tindices: I32, Taxis: I32, batch_dims: { fixed: attr.int(0), readCheck: true } },
  }),
} satisfies Primitive<AxisParams>;

/** Scatters a gather cotangent back with a segment sum along `axis`. */
function gatherGrad(g: Tensor, x: Tensor, idx: Tensor, axisIn: number): Tensor {
  const xd = x.dims;
  const r = idx.rank;
  if (xd === null || r === null) throw argError('gather gradient', 'unknown input rank', dimsToString(xd), 'a known rank', 'Give the input a static shape.');
  const axis = axisIn < 0 ? axisIn + xd.length : axisIn;
  const gRank = xd.length - 1 + r;
  const perm = [...range(axis, axis + r), ...range(0, axis), ...range(axis + r, gRank)];
  const moved = o.transpose(g, perm);
  const flatIdx = o.reshape(idx, [-1]);
  // x's dims as Dims (read from shape(x) when the graph runs where unknown: TF's params_shape).
  const dx = dimsOf(x);
  const n = dx[axis];
  const flat = reshapeTo(moved, [-1, ...dx.slice(0, axis), ...dx.slice(axis + 1)]);
  const summed = isKnown(n) ? o.unsortedSegmentSum(flat, flatIdx, n) : o.segmentSumDynOf(flat, flatIdx, dim.tensor(n));
  const back = [...range(1, axis + 1), 0, ...range(axis + 1, xd.length)];
  return o.transpose(summed, back);
}

function range(a: number, b: number): number[] {
  return Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
}

/** slice's begin/size: an integer (the first axis) or one integer per axis; size null = to the end. */
function intOrInts(what: string): (op: string, v: unknown) => number | number[] | null {
  return (op, v) => {
    if (v === null || v === undefined) return null;
    const ok = typeof v === 'number' ? Number.isInteger(v) : Array.isArray(v) && v.every((d) => Number.isInteger(d));
    if (!ok) throw argError(op, `${what} must be integers`, describe(v), 'an integer or an array of integers', `Pass integer ${what} values.`);
    return v as number | number[];
  };
}

/** Expands the integer shorthand of begin/size to one entry per axis (size -1: to the end). */
function sliceDefaults(_op: string, p: Record<string, unknown>, [x]: Tensor[]): void {
  const begin = p.begin as number | number[];
  const size = p.size as number | number[] | null;
  const rank = x.rank ?? (Array.isArray(begin) ? begin.length : 1);
  const fill = (v: number, rest: number): number[] => [v, ...new Array<number>(Math.max(0, rank - 1)).fill(rest)];
  p.begin = Array.isArray(begin) ? begin : fill(begin, 0);
  p.size = size === null ? new Array<number>(rank).fill(-1) : Array.isArray(size) ? size : fill(size, -1);
}


