// Manipulation records (tfjs-converter's transformation/slice_join): tile, reverse, unstack, split, oneHot, gatherNd, scatterNd, linspace.
import { ONNX_DTYPES } from '../onnx_spec';
import { defineOp } from '../define_op';
import { codec, int64Operand, lower, tiledWithin } from '../onnx_lowerings';
import { DType, describe } from '../../values/dtype';
import type { Info } from '../../backend/backend';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { ReadScope, attr, outputRef, tfOpOf, tfSpec, typeAttrOf } from '../graphdef_spec';
import { tensorOfShapeNode, transpose, writeShapeOf } from './reshape';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { Dims, dimsToString } from '../../values/shape';
import * as o from '../ops';
import { shapeRecords } from '../rule_ops';
import { intValues } from '../kernel_util';
import { NUMERIC, argError, checkArity, checkDTypes, checkSize, checkSizeTensor, normalizeAxes, unknownDimsOfRank } from '../check';
import { g0, I32 } from '../rule_helpers';
import { DimRun, dimsOf, reshapeTo, shapeOf, shapeTensor, splitFirst } from './symbolic_dims';

export interface TileParams {
  readonly multiples: readonly number[];
}

/**
 * tile(input, multiples): repeats the whole tensor along each axis; the gradient sums the copies. multiples is a param
 * when static, or an int32 vector tensor input (TF's own operand) when only the graph knows it: `tile(x, multiples)`
 * binds no params.
 */
export const tile = defineOp({
  name: 'tile',
  // Run-time multiples: the tiled shape within the size limit (sizeGuard), as the record checks it.
  onnx: codec<TileParams>((s, n, [x, m]) => s.add('Tile', [x, m === undefined ? s.int64s(n.params.multiples) : tiledWithin(s, x, int64Operand(s, m))]), (s, n) => ONNX_DTYPES.includes(s.aval(n.inputs[0]).dtype)),
  infer(ins: AVal[], p: TileParams) {
    const s = ins[0].shape;
    if (ins.length === 2) {
      checkSizeTensor('tile', ins[0], ins[1], 'multiples');
      return [{ dtype: ins[0].dtype, shape: unknownDimsOfRank(ins[0], ins[1]) }];
    }
    checkArity('tile', ins, 1);
    if (p.multiples.some((m) => !Number.isInteger(m) || m < 0)) throw argError('tile', 'multiples must be non-negative integers', `[${p.multiples}]`, 'integers >= 0', 'Pass e.g. [1, 2].');
    if (s === null) return [{ dtype: ins[0].dtype, shape: p.multiples.map(() => null) }];
    if (s.length !== p.multiples.length) throw argError('tile', 'multiples must have one entry per dim', `${p.multiples.length} entries for shape ${dimsToString(s)}`, `${s.length} entries`, 'Pass one multiple per dim.');
    return [{ dtype: ins[0].dtype, shape: s.map((d, i) => (d === null ? null : d * p.multiples[i])) }];
  },
  impl(k, [x, m], p: TileParams) {
    let multiples = p.multiples;
    if (m !== undefined) {
      // Multiples read when the op runs, checked by the rule (the result's size too) before the kernel.
      checkSizeTensor('tile', { dtype: x.dtype as DType, shape: x.shape }, { dtype: 'int32', shape: m.shape }, 'multiples');
      multiples = Array.from(intValues(m));
      const [y] = tile.infer([{ dtype: x.dtype as DType, shape: x.shape }], { multiples });
      checkSize('tile', y.shape);
    }
    return [k.run('Tile', { x }, { reps: [...multiples] }) as Info];
  },
  // TF's _TileGrad, one path for static and run-time sizes (Dims; a multiples tensor is a run of dims interleaved
  // with shape(x)): reshape to [m0, d0, m1, d1, ...], sum the multiples' axes, reshape to x's dims.
  vjp(c, [x, m], _o, p: TileParams) {
    const n = m === undefined ? p.multiples.length : x.rank ?? m.shape.asList()[0];
    if (n === null || n === undefined) throw argError('tile gradient', 'unknown rank', 'an input and multiples of unknown length', 'a known rank', 'Give the input a known rank (ensureShape).');
    const dims = x.dims === null ? splitFirst('tile gradient', shapeOf(x), n).first : dimsOf(x);
    const axes = dims.map((_, i) => 2 * i);
    const split = m === undefined ? dims.flatMap((d, i) => [p.multiples[i], d]) : [new DimRun(o.reshape(o.stack([m, shapeTensor(dims)], 1), [-1]))];
    const summed = o.reduceSum(reshapeTo(g0(c), split), axes, false);
    return m === undefined ? [reshapeTo(summed, dims)] : [reshapeTo(summed, dims), null];
  },
  saves: 'inputs',
  api: api(['tile'], [arg.tensor('input'), arg.ints('multiples')]),
  tf: tfSpec<TileParams>({ op: 'Tile', inputs: ['x', { param: 'multiples', shape: 'vector' }], attrs: { T: { dtypeOf: 0 }, Tmultiples: I32 }, paramsAsInputs: true }),
});

export interface AxesParams {
  readonly axes: readonly number[];
}

const axisList = (op: string, v: unknown): number[] => {
  const a = Array.isArray(v) ? v : [v];
  if (a.some((x) => typeof x !== 'number' || !Number.isInteger(x))) throw argError(op, 'axis must be integers', describe(v), 'an integer or array of integers', 'Pass e.g. [0] or -1.');
  return a as number[];
};

/** reverse(tensor, axis): flips the given axes (TF's ReverseV2); its own gradient. */
export const reverse = defineOp({
  name: 'reverse',
  infer(ins: AVal[], p: AxesParams) {
    checkArity('reverse', ins, 1);
    if (ins[0].shape !== null) normalizeAxes('reverse', p.axes, ins[0].shape.length);
    return [{ dtype: ins[0].dtype, shape: ins[0].shape }];
  },
  impl: (k, [x], p: AxesParams) => [k.run('Reverse', { x }, { dims: p.axes.map((a) => (a < 0 ? a + x.shape.length : a)) }) as Info],
  vjp: (c, _x, _o, p: AxesParams): (Tensor | null)[] => [bind(reverse as Primitive, [g0(c)], p)[0]],
  saves: 'none',
  api: api(['reverse'], [arg.tensor('tensor'), arg.custom<number | number[], 'axis'>('axis', axisList, undefined, 'axes')]),
  tf: tfSpec<AxesParams>({ op: 'ReverseV2', inputs: ['x', { param: 'axes', shape: 'vector' }], attrs: { T: { dtypeOf: 0 }, Tidx: I32 } }),
});

export interface UnstackParams {
  readonly axis: number;
  readonly num: number;
}

/** unstack along `axis` into `num` tensors (TF's Unpack); the gradient stacks the cotangents. */
export const unstack = defineOp({
  name: 'unstack',
  infer(ins: AVal[], p: UnstackParams) {
    checkArity('unstack', ins, 1);
    const s = ins[0].shape;
    if (s === null) return Array.from({ length: p.num }, () => ({ dtype: ins[0].dtype, shape: null }));
    const [a] = normalizeAxes('unstack', [p.axis], s.length);
    if (s[a] !== null && s[a] !== p.num) throw argError('unstack', 'num does not match the axis size', `num ${p.num} for shape ${dimsToString(s)}`, `${s[a]}`, 'Leave num out: it is the axis size.');
    const out = s.filter((_, i) => i !== a);
    return Array.from({ length: p.num }, () => ({ dtype: ins[0].dtype, shape: out }));
  },
  impl: (k, [x], p: UnstackParams) => k.run('Unpack', { value: x }, { axis: p.axis < 0 ? p.axis + x.shape.length : p.axis }) as Info[],
  vjp: (c, _x, outs, p: UnstackParams) => [o.stack(c.map((g, i) => g ?? o.zerosLike(outs[i])), p.axis)],
  saves: 'outputs',
  tf: tfSpec<UnstackParams>({ op: 'Unpack', attrs: { T: { dtypeOf: 0 }, num: { param: 'num', kind: 'int' }, axis: { param: 'axis', kind: 'int', default: 0 } } }),
  onnx: lower.unstack,
});

export interface SplitParams {
  readonly sizes: readonly number[];
  readonly axis: number;
  readonly numSplit: number;
}

/**
 * The piece sizes for an axis of `n`: `sizes` as given (one may be -1: the rest, TF's SplitV), or with no sizes
 * `numSplit` equal pieces (TF's Split). Traced with an unknown axis size the composite passes them unresolved
 * and the kernel resolves them against the run-time size; null when `n` is unknown.
 */
function resolveSplit(n: number | null, p: SplitParams, shown: string): (number | null)[] {
  if (p.sizes.length === 0) {
    if (n !== null && n % p.numSplit !== 0) throw argError('split', 'the count must divide the axis size', `${p.numSplit} for an axis of ${n}`, `a divisor of ${n}`, 'Pass a divisor, or a list of sizes.');
    return new Array<number | null>(p.numSplit).fill(n === null ? null : n / p.numSplit);
  }
  const known = p.sizes.reduce((a, v) => (v === -1 ? a : a + v), 0);
  if (p.sizes.some((v) => !Number.isInteger(v) || v < -1) || p.sizes.filter((v) => v === -1).length > 1) {
    throw argError('split', 'sizes must be integers >= 0 with at most one -1', `[${p.sizes}]`, 'e.g. [2, -1]', 'Pass a count or a list of sizes.');
  }
  if (n !== null && (n < known || (!p.sizes.includes(-1) && n !== known))) {
    throw argError('split', 'sizes must be non-negative and add up to the axis size', `[${p.sizes}] for ${shown}`, `sizes adding up to ${n}`, 'Pass a count that divides the axis or sizes that add up to it.');
  }
  return p.sizes.map((v) => (v === -1 ? (n === null ? null : n - known) : v));
}

/** split into pieces of `sizes` along `axis` (TF's SplitV; no sizes: numSplit equal pieces, TF's Split); the gradient concatenates the cotangents. */
export const split = defineOp({
  name: 'split',
  infer(ins: AVal[], p: SplitParams) {
    checkArity('split', ins, 1);
    const s = ins[0].shape;
    const count = p.sizes.length === 0 ? p.numSplit : p.sizes.length;
    if (s === null) return new Array(count).fill(0).map(() => ({ dtype: ins[0].dtype, shape: null }));
    const [a] = normalizeAxes('split', [p.axis], s.length);
    return resolveSplit(s[a], p, `shape ${dimsToString(s)} on axis ${p.axis}`).map((v) => ({ dtype: ins[0].dtype, shape: s.map((d, i) => (i === a ? v : d)) }));
  },
  impl(k, [x], p: SplitParams) {
    const a = p.axis < 0 ? p.axis + x.shape.length : p.axis;
    const sizes = resolveSplit(x.shape[a], p, `shape [${x.shape}] on axis ${p.axis}`) as number[];
    return k.run('SplitV', { x }, { numOrSizeSplits: sizes, axis: a }) as Info[];
  },
  vjp: (c, _x, outs, p: SplitParams) => [o.concat(c.map((g, i) => g ?? o.zerosLike(outs[i])), p.axis)],
  saves: 'outputs',
  onnx: lower.split,
  tf: {
    // SplitV (sizes, one may be -1); Split (equal pieces of an axis whose size only the run time knows).
    ops: ['SplitV', 'Split'],
    write: (s, n, [x]) => {
      const p = n.params as SplitParams;
      const T = typeAttrOf(s, n.inputs[0]);
      const axis = s.ints('axis', [p.axis], []);
      const node = p.sizes.length === 0
        ? s.add('Split', 'Split', [axis, x], { T, num_split: attr.int(p.numSplit) })
        : s.add('SplitV', 'SplitV', [x, s.ints('size_splits', p.sizes), axis], { T, Tlen: I32.fixed, num_split: attr.int(p.sizes.length) });
      return n.outputs.map((_, k) => outputRef(node, k));
    },
    read(r): Tensor[] {
      const even = r.node.op === 'Split';
      r.arity(even ? 2 : 3);
      const numSplit = r.node.int('num_split');
      if (!even && r.producer(1)?.op !== 'Const') return splitByRunTimeSizes(r.input(0), r.input(1), r.number(2, 'the split axis'), numSplit, r);
      const sizes = even ? [] : r.numbers(1, 'the split sizes');
      return bind(split as Primitive, [r.input(even ? 1 : 0)], { sizes, axis: r.number(even ? 0 : 2, 'the split axis'), numSplit });
    },
  },
});

/**
 * SplitV whose sizes the graph computes (tf.signal.frame on a run-time length): piece i is x sliced along `axis` at the
 * exclusive cumsum of the sizes, with one -1 size standing for the rest of the axis (TF's rule), read when the graph runs.
 */
function splitByRunTimeSizes(x: Tensor, sizes: Tensor, axis: number, numSplit: number, r: ReadScope): Tensor[] {
  const rank = x.rank;
  if (rank === null) throw r.error('the input of a split by computed sizes needs a known rank', 'an unknown rank', 'a known rank', 'Give the graph input a static rank.');
  const [a] = normalizeAxes('split', [axis], rank);
  const n = o.cast(sizes, 'int32');
  // One -1 stands for what the other sizes leave of the axis.
  const total = o.reshape(o.slice(o.shapeOf(x), [a], [1]), []);
  const given = o.reduceSum(o.where(o.less(n, 0), 0, n));
  const fixed = o.where(o.less(n, 0), o.sub(total, given), n);
  const begins = bind(shapeRecords.cumsum, [fixed], { axis: 0, exclusive: true, reverse: false })[0];
  const before = o.ints(new Array<number>(a).fill(0));
  const after = o.ints(new Array<number>(rank - a - 1).fill(0));
  return Array.from({ length: numSplit }, (_, i) => {
    const begin = o.concat([before, o.slice(begins, [i], [1]), after], 0);
    const size = o.concat([o.ints(new Array<number>(a).fill(-1)), o.slice(fixed, [i], [1]), o.ints(new Array<number>(rank - a - 1).fill(-1))], 0);
    return o.sliceWith(x, begin, size);
  });
}

export interface OneHotParams {
  readonly depth: number;
  readonly onValue: number;
  readonly offValue: number;
  readonly axis: number;
  readonly dtype: DType;
}

/** oneHot(indices, depth, {onValue, offValue, axis, dtype}); out-of-range indices give offValue rows. Not differentiable (TF). */
export const oneHot = defineOp({
  name: 'one_hot',
  infer(ins: AVal[], p: OneHotParams) {
    checkArity('oneHot', ins, 1);
    checkDTypes('oneHot', ins[0], ['int32'], 'indices');
    if (!Number.isInteger(p.depth) || p.depth < 0) throw argError('oneHot', 'depth must be a non-negative integer', describe(p.depth), 'an integer >= 0', 'Pass the number of classes.');
    if (!NUMERIC.includes(p.dtype)) throw argError('oneHot', 'unsupported dtype', p.dtype, 'float32 or int32', "Pass dtype: 'float32' or 'int32'.");
    const s = ins[0].shape;
    if (s === null) return [{ dtype: p.dtype, shape: null }];
    if (p.axis < -1 || p.axis > s.length) throw argError('oneHot', 'axis out of range', `axis ${p.axis} for rank-${s.length} indices`, `-1 or an integer in [0, ${s.length}]`, 'Pass -1 for a last one-hot axis.');
    const out: Dims = [...s];
    out.splice(p.axis === -1 ? s.length : p.axis, 0, p.depth);
    return [{ dtype: p.dtype, shape: out }];
  },
  impl(k, [x], p: OneHotParams) {
    const hot = k.run('OneHot', { indices: x }, { depth: p.depth, onValue: p.onValue, offValue: p.offValue, dtype: p.dtype }) as Info;
    const r = x.shape.length;
    if (p.axis === -1 || p.axis === r) return [hot];
    // tfjs puts the one-hot axis last: move it to `axis`.
    const perm = Array.from({ length: r + 1 }, (_, i) => i);
    perm.splice(p.axis, 0, perm.pop() as number);
    const out = k.run('Transpose', { x: hot }, { perm }) as Info;
    k.free(hot);
    return [out];
  },
  onnx: lower.oneHot,
  api: api(['oneHot'], [arg.tensor('indices', 'int32'), arg.int('depth')], [arg.number('onValue', 1), arg.number('offValue', 0), arg.int('axis', -1), arg.dtype('dtype', 'float32')]),
  tf: {
    ops: ['OneHot'],
    write(s, n, [x]) {
      const p = n.params as OneHotParams;
      const c = (hint: string, v: number): string => s.constant(hint, { dtype: p.dtype, shape: [], data: p.dtype === 'int32' ? Int32Array.of(v) : Float32Array.of(v) });
      const r = s.aval(n.inputs[0]).shape?.length;
      // tfjs-converter ignores OneHot's axis: write a last one-hot axis and a Transpose when the rank is known.
      const moved = r !== undefined && p.axis !== -1 && p.axis !== r;
      const hot = s.add('OneHot', 'OneHot', [x, s.ints('depth', [p.depth], []), c('on_value', p.onValue), c('off_value', p.offValue)], { T: attr.type(p.dtype), TI: typeAttrOf(s, n.inputs[0]), axis: attr.int(moved ? -1 : p.axis) });
      if (!moved) return [hot];
      const perm = Array.from({ length: r + 1 }, (_, i) => i);
      perm.splice(p.axis, 0, perm.pop() as number);
      const transposeOp = tfOpOf(transpose);
      return [s.add(transposeOp, transposeOp, [hot, s.ints('perm', perm)], { T: attr.type(p.dtype), Tperm: attr.type('int32') })];
    },
    read(r): Tensor[] {
      r.arity(4);
      const params: OneHotParams = { depth: r.number(1, 'depth'), onValue: r.number(2, 'on_value'), offValue: r.number(3, 'off_value'), axis: r.node.int('axis', -1), dtype: r.node.dtype('T', 'float32') };
      return bind(oneHot as Primitive, [r.input(0)], params);
    },
  },
});

/**
 * TF's GatherNd refuses an index tuple with a component outside its dim ("indices[0] = [1, -1] does not index into param
 * shape [2,2]"); tfjs's kernel checks only the flattened offset, so [1, -1] on [2, 2] read element 1 and [0, 2] element 2.
 * Each component is checked here, on the indices' host values.
 */
function checkIndexTuples(op: string, shape: readonly number[], indices: Info): void {
  const depth = indices.shape[indices.shape.length - 1];
  const v = intValues(indices);
  for (let i = 0; i < v.length; i += depth) {
    for (let j = 0; j < depth; j++) {
      if (v[i + j] >= 0 && v[i + j] < shape[j]) continue;
      const tuple = Array.from(v.subarray(i, i + depth));
      throw argError(op, 'an index is out of range', `indices[${i / depth}] = [${tuple.join(', ')}]`, `each component in [0, dim) of the params shape [${shape.join(',')}]`, 'Clamp or fix the indices.');
    }
  }
}

/** gatherNd(params, indices): slices of params at int32 index tuples (last axis of indices). */
export const gatherNd = defineOp({
  name: 'gather_nd',
  onnx: lower.gatherNd,
  infer(ins: AVal[]) {
    checkArity('gatherNd', ins, 2);
    checkDTypes('gatherNd', ins[1], ['int32'], 'indices');
    const [ps, is] = [ins[0].shape, ins[1].shape];
    if (ps === null || is === null) return [{ dtype: ins[0].dtype, shape: null }];
    const depth = is[is.length - 1];
    if (is.length === 0 || (depth !== null && depth > ps.length)) throw argError('gatherNd', 'the index depth exceeds the params rank', `indices ${dimsToString(is)} for params ${dimsToString(ps)}`, `a last indices dim <= ${ps.length}`, 'Index at most every params dim.');
    return [{ dtype: ins[0].dtype, shape: depth === null ? null : [...is.slice(0, -1), ...ps.slice(depth)] }];
  },
  impl(k, [params, indices]) {
    // Traced with unknown dims, infer could not check: the same error at run time.
    gatherNd.infer([{ dtype: params.dtype as DType, shape: params.shape }, { dtype: indices.dtype as DType, shape: indices.shape }], {});
    checkIndexTuples('gatherNd', params.shape, indices);
    return [k.run('GatherNd', { params, indices }) as Info];
  },
  vjp: (c, [params, indices]): (Tensor | null)[] => {
    // Unknown dims: scatter into Shape(params) read at run time (TF's _GatherNdGrad).
    const d = params.dims;
    if (d === null || d.some((v) => v === null)) return [bind(scatterNd as Primitive, [indices, g0(c), params], { shape: d })[0], null];
    return [bind(scatterNd as Primitive, [indices, g0(c)], { shape: d as number[] })[0], null];
  },
  saves: 'inputs',
  api: api(['gatherNd'], [arg.tensor('params'), arg.tensor('indices', 'int32')]),
  tf: tfSpec({ op: 'GatherNd', noT: true, attrs: { Tparams: { dtypeOf: 0 }, Tindices: { dtypeOf: 1 } } }),
});

export interface ScatterParams {
  /** null: unknown rank (then a third input gives the shape at run time). */
  readonly shape: readonly (number | null)[] | null;
}

/** scatterNd(indices, updates, shape): zeros of `shape` with updates added at the index tuples (duplicates sum). */
export const scatterNd = defineOp({
  name: 'scatter_nd',
  // An optional third input gives the shape at run time (dims null in `shape`; TF's ScatterNd(i, u, Shape(like))).
  infer(ins: AVal[], p: ScatterParams) {
    if (ins.length !== 3) checkArity('scatterNd', ins, 2);
    checkDTypes('scatterNd', ins[0], ['int32'], 'indices');
    checkDTypes('scatterNd', ins[1], NUMERIC, 'updates');
    const [is, us] = [ins[0].shape, ins[1].shape];
    if (p.shape === null) return [{ dtype: ins[1].dtype, shape: null }];
    if (is !== null && us !== null) {
      const depth = is[is.length - 1];
      const want = depth === null ? null : [...is.slice(0, -1), ...p.shape.slice(depth)];
      if (is.length === 0 || (depth !== null && depth > p.shape.length) || (want !== null && (want.length !== us.length || want.some((d, i) => d !== null && us[i] !== null && d !== us[i])))) {
        throw argError('scatterNd', 'updates do not match indices and shape', `indices ${dimsToString(is)}, updates ${dimsToString(us)}, shape ${dimsToString([...p.shape])}`, `updates of shape ${want === null ? '?' : dimsToString(want)}`, 'Updates are indices.shape[:-1] + shape[indices.shape[-1]:].');
      }
    }
    return [{ dtype: ins[1].dtype, shape: [...p.shape] }];
  },
  impl(k, [indices, updates, like], p: ScatterParams) {
    const shape = like === undefined ? (p.shape as number[]) : like.shape;
    scatterNd.infer([{ dtype: indices.dtype as DType, shape: indices.shape }, { dtype: updates.dtype as DType, shape: updates.shape }], { shape });
    return [k.run('ScatterNd', { indices, updates }, { shape: [...shape] }) as Info];
  },
  vjp: (c, [indices, , like]): (Tensor | null)[] => [null, bind(gatherNd as Primitive, [g0(c), indices], {})[0], ...(like === undefined ? [] : [null])],
  saves: 'inputs',
  api: api(['scatterNd'], [arg.tensor('indices', 'int32'), arg.tensor('updates'), arg.ints('shape')]),
  tf: {
    ops: ['ScatterNd'],
    write: (s, n, [indices, updates, like]) => {
      const shape = like === undefined ? s.ints('shape', (n.params as ScatterParams).shape as number[]) : writeShapeOf(s, like, n.inputs[2]);
      return [s.add('ScatterNd', 'ScatterNd', [indices, updates, shape], { T: typeAttrOf(s, n.inputs[1]), Tindices: typeAttrOf(s, n.inputs[0]) })];
    },
    read(r): Tensor[] {
      r.arity(3);
      const like = tensorOfShapeNode(r, r.producer(2));
      if (like !== null) return bind(scatterNd as Primitive, [r.input(0), r.input(1), like], { shape: like.dims });
      const shape = r.numbers(2, 'the scatter shape');
      r.checkSize(shape);
      return bind(scatterNd as Primitive, [r.input(0), r.input(1)], { shape });
    },
  },
});

export interface LinSpaceParams {
  readonly start: number;
  readonly stop: number;
  readonly num: number;
}

/** TF's LinSpace values: float32 start, step = (stop - start) / (num - 1), value i = start + step * i, the last = stop. */
function linspaceValues(p: LinSpaceParams): Float32Array {
  const out = new Float32Array(p.num);
  if (p.num === 0) return out;
  const f = Math.fround;
  const start = f(p.start);
  const stop = f(p.stop);
  const step = p.num > 1 ? f(f(stop - start) / f(p.num - 1)) : 0;
  for (let i = 0; i < p.num - 1; i++) out[i] = f(start + f(step * i));
  out[p.num - 1] = p.num === 1 ? start : stop;
  return out;
}

/** linspace(start, stop, num): `num` evenly spaced float32 values from start to stop inclusive (num = 0: empty, like tf.linspace). */
export const linspace = defineOp({
  name: 'linspace',
  infer(_ins: AVal[], p: LinSpaceParams) {
    if (!Number.isInteger(p.num) || p.num < 0) throw argError('linspace', 'num must be a non-negative integer', describe(p.num), 'an integer >= 0', 'Pass the number of values.');
    return [{ dtype: 'float32', shape: [p.num] }];
  },
  // TF's LinSpace kernel: start + i * step in float32 (no accumulation), the last value exactly stop; tfjs's kernel
  // accumulates (linspace(-10, 10, 201) ended at 10.0000038 with a midpoint of 1.9e-6). num = 0 is empty (tf.linspace).
  impl: (k, _ins, p: LinSpaceParams) => [k.upload(linspaceValues(p), [p.num], 'float32')],
  api: api(['linspace'], [arg.number('start'), arg.number('stop'), arg.int('num')]),
  tf: {
    ops: ['LinSpace'],
    write: (s, n) => {
      const p = n.params as LinSpaceParams;
      // TF's LinSpace op raises on num = 0 (tf.linspace special-cases it): write the empty result as a Const.
      if (p.num === 0) return [s.constant('linspace', { dtype: 'float32', shape: [0], data: new Float32Array(0) })];
      const f32 = (hint: string, v: number): string => s.constant(hint, { dtype: 'float32', shape: [], data: Float32Array.of(v) });
      return [s.add('LinSpace', 'LinSpace', [f32('start', p.start), f32('stop', p.stop), s.ints('num', [p.num], [])], { T: attr.type('float32'), Tidx: I32.fixed })];
    },
    read: (r): Tensor[] => {
      r.arity(3);
      const num = r.number(2, 'the num');
      // As TF's LinSpace kernel: the op itself requires num > 0.
      if (!(num > 0)) throw r.error('LinSpace requires num > 0', String(num), 'num >= 1', 'Fix the num Const (an empty result is a Const of shape [0])');
      return bind(linspace as Primitive, [], { start: r.number(0, 'the start'), stop: r.number(1, 'the stop'), num });
    },
  },
});

