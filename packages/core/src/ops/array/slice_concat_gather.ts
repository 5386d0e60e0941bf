// slice_join: concat, slice and gather (with its gradient as a segment sum).
import { lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import { onnxSpec } from '../onnx_spec';
import type { Info, Kernels } from '../../backend/backend';
import { describe } from '../../values/dtype';
import type { DType } from '../../values/dtype';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { attr, tfSpec } from '../graphdef_spec';
import { dimsToString } from '../../values/shape';
import { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { ruleOps as o } from '../rule_ops';
import { argError, checkArity, checkDTypes, checkSizeTensor, normalizeAxes, unknownDimsOfRank } from '../check';
import { complexByParts, intValues, withScratch } from '../kernel_util';
import { g0, I32 } from '../rule_helpers';
import { Dim, DimRun, dim, dimsOf, isKnown, padBy, reshapeTo, shapeOf, shapeTensor, sliceTo, splitFirst } from './symbolic_dims';


export interface AxisParams {
  readonly axis: number;
}

export const concat = defineOp({
  name: 'concat',
  onnx: onnxSpec<AxisParams>({ op: 'Concat', attrs: { axis: { param: 'axis', kind: 'int' } }, dtypes: ['float32', 'int32', 'bool'] }),
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
});

export interface SliceParams {
  readonly begin: readonly number[];
  readonly size: readonly number[];
}

/**
 * slice(x, begin, size): TF's Slice. begin and size (-1: to the end) are params when static, or int32 vector tensor
 * inputs (TF's own operands) when only the graph knows them: `slice(x, begin, size)` binds no params.
 */
export const slice = defineOp({
  name: 'slice',
  onnx: lower.slice,
  infer(ins: AVal[], p: SliceParams) {
    const s = ins[0].shape;
    if (ins.length === 3) {
      checkSizeTensor('slice', ins[0], ins[1], 'begin');
      checkSizeTensor('slice', ins[0], ins[2], 'size');
      return [{ dtype: ins[0].dtype, shape: unknownDimsOfRank(ins[0], ins[1]) }];
    }
    checkArity('slice', ins, 1);
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
  impl(k, [x, b, z], p: SliceParams) {
    if (b === undefined) return [k.run('Slice', { x }, { begin: [...p.begin], size: p.size.map((n, i) => (n === -1 ? x.shape[i] - p.begin[i] : n)) }) as Info];
    // Sizes read when the op runs: the rule's checks on the values, then the kernel.
    const xv: AVal = { dtype: x.dtype as DType, shape: x.shape };
    checkSizeTensor('slice', xv, { dtype: 'int32', shape: b.shape }, 'begin');
    checkSizeTensor('slice', xv, { dtype: 'int32', shape: z.shape }, 'size');
    const begin = Array.from(intValues(b));
    const size = Array.from(intValues(z));
    slice.infer([xv], { begin, size });
    const n = size.map((v, i) => (v === -1 ? x.shape[i] - begin[i] : v));
    // A rank-0 slice is the scalar itself (tfjs's Slice reads a scalar's empty begin as garbage: NaN); an empty input
    // or result is a fill (tfjs's Slice fails on an empty input's data).
    if (x.shape.length === 0) return [k.run('Identity', { x }) as Info];
    if (x.shape.includes(0) || n.includes(0)) return [emptyOf(k, x.dtype as DType, n)];
    return [k.run('Slice', { x }, { begin, size: n }) as Info];
  },
  // TF's _SliceGrad, one path for static and run-time sizes (Dims; a begin tensor is a run of dims): pad the
  // cotangent by begin before and dim(x) - dim(y) - begin after.
  vjp: (c, [x, b], _o, p: SliceParams) => {
    const g = g0(c);
    if (b !== undefined) {
      const after = o.sub(o.sub(shapeTensor(shapeOf(x)), shapeTensor(shapeOf(g))), b);
      return [padBy(g, [new DimRun(b)], [new DimRun(after)]), null, null];
    }
    const n = p.begin.length;
    const [dx, dy] = [x, g].map((t) => (t.dims === null ? splitFirst('slice gradient', shapeOf(t), n).first : dimsOf(t)));
    return [padBy(g, p.begin, dx.map((d, i) => dim.sub(dim.sub(d, p.begin[i]), dy[i])))];
  },
  // Only the size tensors (the begin a run-time gradient pads by); x's dims are static metadata.
  saves: 'sizes',
  api: api(['slice'], [arg.tensor('x'), arg.custom('begin', intOrInts('begin')), arg.custom('size', intOrInts('size'), null)], [], { prepare: sliceDefaults, dynamic: sliceByTensors }),
  tf: tfSpec<SliceParams>({ op: 'Slice', inputs: ['x', { param: 'begin', shape: 'vector' }, { param: 'size', shape: 'vector' }], attrs: { T: { dtypeOf: 0 }, Index: I32 }, paramsAsInputs: true }),
});

/** An empty result of `dims` (zeros; complex64 as a complex of empty parts: tfjs's Fill has no complex64). */
export function emptyOf(k: Kernels, dtype: DType, dims: number[]): Info {
  const fill = (t: DType): Info => k.run('Fill', {}, { shape: dims, value: t === 'string' ? '' : 0, dtype: t }) as Info;
  if (dtype !== 'complex64') return fill(dtype);
  return withScratch(k, (s) => s.run('Complex', { real: s.run('Fill', {}, { shape: dims, value: 0, dtype: 'float32' }), imag: s.run('Fill', {}, { shape: dims, value: 0, dtype: 'float32' }) }));
}

/** Binds slice with begin and size as int32 vector tensors (sizes only the graph knows; size -1: to the end). */
export const sliceWith = (x: Tensor, begin: Tensor, size: Tensor): Tensor => bind(slice as Primitive, [x, begin, size], {})[0];

/** ef.slice(x, begin, size) with begin or size a tensor: the tensor form (a number array joins it as a constant). */
function sliceByTensors(op: string, args: readonly unknown[]): Tensor | undefined {
  const [x, begin, size] = args;
  if (!(begin instanceof Tensor) && !(size instanceof Tensor)) return undefined;
  if (!(x instanceof Tensor) || args.length > 3) return undefined;
  // The vectors made here from numbers are freed however the slice ends (a bad begin dtype must not leak them).
  const made: Tensor[] = [];
  const vec = (v: unknown, fill: number): Tensor => {
    if (v instanceof Tensor) return v;
    let n: number | number[];
    if (v === null || v === undefined) {
      const r = x.rank ?? (begin instanceof Tensor ? begin.shape.asList()[0] : null);
      if (r === null) throw argError(op, 'size must be given for a tensor of unknown rank', 'no size', 'an int32 size vector', 'Pass size.');
      n = new Array<number>(r).fill(fill);
    } else n = intOrInts(fill === 0 ? 'begin' : 'size')(op, v) as number | number[];
    const t = o.ints(typeof n === 'number' ? [n] : n);
    made.push(t);
    return t;
  };
  try {
    return sliceWith(x, vec(begin, 0), vec(size, -1));
  } finally {
    for (const t of made) t.dispose();
  }
}

export const gather = defineOp({
  name: 'gather',
  onnx: lower.gather,
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
});

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
  const summed = isKnown(n) ? o.unsortedSegmentSum(flat, flatIdx, n) : o.segmentSumWith(flat, flatIdx, dim.tensor(n));
  const back = [...range(1, axis + 1), 0, ...range(axis + 1, xd.length)];
  return o.transpose(summed, back);
}

function range(a: number, b: number): number[] {
  return Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
}

/**
 * slice's begin/size: an integer (the first axis) or one integer per axis; size null = to the end. (An int32 tensor
 * is taken before, by sliceByTensors: the tensor form.)
 */
function intOrInts(what: string): (op: string, v: unknown) => number | number[] | Tensor | null {
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


