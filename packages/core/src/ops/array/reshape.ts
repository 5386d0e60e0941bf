// transformation: reshape, broadcastTo, transpose, expandDims, squeeze, shape, and the run-time-shaped gradient helpers.
import { checkedTarget, codec, int64Operand, lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import { ONNX_DTYPES, onnxSpec } from '../onnx_spec';
import type { Info, Kernels } from '../../backend/backend';
import { DType, describe } from '../../values/dtype';
import { AVal, Params, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { InputRefView, NodeView, ReadScope, SpecNode, WriteScope, attr, outputRef, tfOpOf, tfSpec, typeAttrOf } from '../graphdef_spec';
import { sum } from '../math/reduce';
import { identity } from './identity';
import { bind } from '../bind';
import { Dims, broadcastDims, dimsToString } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { DimLike, hasSymbolicDims } from '../../values/shape_arg';
import { TensorLike, convert, release } from '../../values/convert';
import { ruleOps as o } from '../rule_ops';
import { InvalidArgumentError } from '../../errors/errors';
import { argError, broadcastOrThrow, checkArity, checkDTypes, checkDimsValid, checkSize, normalizeAxes } from '../check';
import { broadcastInfo, intValues, sameShape, transposeKernel } from '../kernel_util';
import { g0, I32 } from '../rule_helpers';

const identityInfo = (k: Kernels, x: Info): Info => k.run('Identity', { x }) as Info;

/** Resolves a target shape with at most one -1 against a size; throws naming the op. */
export function resolveReshape(op: string, from: Dims, to: readonly number[]): Dims {
  const unknownIdx = to.indexOf(-1);
  if (to.some((d, i) => !Number.isInteger(d) || d < -1 || (d === -1 && i !== unknownIdx))) {
    throw argError(op, 'invalid target shape', `[${to.join(', ')}]`, 'non-negative dims and at most one -1', 'Fix the shape argument.');
  }
  // TensorFlow's rule: with a zero in the target, the -1 is resolved from the input's non-zero dims.
  const targetHasZero = to.some((d) => d === 0);
  const known = to.reduce((a, d) => (d === -1 || d === 0 ? a : a * d), 1);
  const fail = (n: number): InvalidArgumentError => argError(op, 'cannot reshape', `a tensor with ${n} elements (shape ${dimsToString(from)}) to [${to.join(', ')}]`, 'a shape with the same number of elements', 'Check the target shape; use -1 for one inferred dim.');
  if (from === null || from.some((d) => d === null)) return to.map((d) => (d === -1 ? null : d));
  const dims = from as number[];
  const size = dims.reduce((a, b) => a * b, 1);
  if (unknownIdx === -1) {
    if (to.reduce((a, d) => a * d, 1) !== size) throw fail(size);
    return to.slice();
  }
  const counted = dims.reduce((a, d) => (d === 0 && targetHasZero ? a : a * d), 1);
  const missing = Math.floor(counted / known);
  const out = to.map((d) => (d === -1 ? missing : d));
  if (out.reduce((a, d) => a * d, 1) !== size || (!dims.includes(0) && missing * known !== counted)) throw fail(size);
  return out;
}

/** ef.reshape(x, dims) where a dim is a symbolic tensor (traced): TF's Reshape to a run-time int32 shape vector. */
function reshapeToRunTimeShape(op: string, args: readonly unknown[]): Tensor | undefined {
  const dims = args[1];
  if (!hasSymbolicDims(dims)) return undefined;
  if (args.length > 2) return undefined; // the declared form reports the extra argument
  const parts = Array.isArray(dims) ? (dims as DimLike[]).map((d) => (typeof d === 'number' ? o.ints([d]) : o.reshape(d, [1]))) : null;
  const shapeVec = parts === null ? (dims as Tensor) : o.concat(parts, 0);
  const c = convert(op, args[0] as TensorLike);
  try {
    return reshapeWith(c.t, shapeVec);
  } finally {
    release(c);
  }
}

export interface ShapeParams {
  readonly shape: readonly number[];
}

/**
 * reshape(x): TF's Reshape. The target shape (one -1 allowed) is a param when static, or an int32 vector tensor
 * input (TF's own operand) when only the graph knows it: `reshape(x, shape)` binds no params.
 */
export const reshape = defineOp({
  name: 'reshape',
  // ONNX Reshape takes the shape as a tensor either way (allowzero: a 0 is a size, as in TF). Keras 3's
  // squeeze-excite blocks reshape to [tf.shape(x)[0], 1, 1, C]: as JS steps each one split EfficientNetB0 into
  // 17 ONNX Runtime sessions (16 such blocks).
  onnx: codec<ShapeParams>((s, n, [x, v]) => s.add('Reshape', [x, v === undefined ? s.int64s(n.params.shape) : int64Operand(s, v)], { allowzero: { i: 1 } }), (s, n) => ONNX_DTYPES.includes(s.aval(n.inputs[0]).dtype)),
  infer(ins: AVal[], p: ShapeParams) {
    if (ins.length === 2) {
      checkDTypes('reshape', ins[1], ['int32'], 'shape');
      const v = ins[1].shape;
      if (v !== null && v.length !== 1) throw argError('reshape', 'shape must be a vector', dimsToString(v), 'a rank-1 int32 tensor', 'Pass the target dims as a vector.');
      return [{ dtype: ins[0].dtype, shape: v === null || v[0] === null ? null : new Array<number | null>(v[0]).fill(null) }];
    }
    checkArity('reshape', ins, 1);
    return [{ dtype: ins[0].dtype, shape: resolveReshape('reshape', ins[0].shape, p.shape) }];
  },
  impl: (k, [x, v], p: ShapeParams) => [k.run('Reshape', { x }, { shape: resolveReshape('reshape', x.shape, v === undefined ? p.shape : Array.from(intValues(v))) }) as Info],
  vjp: (c, [x, v]) => (v === undefined ? [o.reshapeLike(g0(c), x)] : [o.reshapeLike(g0(c), x), null]),
  saves: 'none',
  api: api(['reshape'], [arg.tensor('x'), arg.ints('shape')], [], { dynamic: reshapeToRunTimeShape }),
  tf: tfSpec<ShapeParams>({ op: 'Reshape', inputs: ['x', { param: 'shape', shape: 'vector', check: 'dims' }], attrs: { T: { dtypeOf: 0 }, Tshape: I32 }, paramsAsInputs: true }),
});

/** Binds reshape with the target shape as an int32 vector tensor (a shape only the graph knows; one -1 allowed). */
export const reshapeWith = (x: Tensor, dims: Tensor): Tensor => bind(reshape as Primitive, [x, dims], {})[0];
/** shape(x) as an int32 vector tensor (read when the graph runs). */
export const shapeOf = (x: Tensor): Tensor => bind(shape as Primitive, [x], {})[0];
/** An int32 constant vector. */
export const ints = (v: readonly number[]): Tensor => convert('ints', Int32Array.from(v), 'int32').t;

const bindP = (p: Primitive, ins: Tensor[], params: Params = {}): Tensor[] => bind(p, ins, params);
/** Whether a node is the `shape` record's TF op with its one input (patterns such as Reshape(x, Shape(like))). */
export function isShapeNode(n: NodeView | undefined): boolean {
  return n?.op === tfOpOf(shape) && n.inputs.length === 1;
}

/** The tensor whose shape a `Shape` producer reads, or null. */
export function tensorOfShapeNode(r: ReadScope, n: NodeView | undefined): Tensor | null {
  return n !== undefined && isShapeNode(n) ? r.tensorOf(n.inputs[0], n.name) : null;
}

/** Shape(x) as int32 (dynamic shapes: reshape_like, broadcast_like, reduce_like, gradient sizes). */
export function writeShapeOf(s: WriteScope, x: string, i: number): string {
  const op = tfOpOf(shape);
  return s.add(op, op, [x], { T: attr.type(s.dtype(i)), out_type: attr.type('int32') });
}

/** Runtime-shaped helpers: their shape comes from a second input (dynamic shapes in traces). */
function likeOp<const N extends string>(name: N, run: (k: Kernels, x: Info, like: Info) => Info, shapeOf: (x: AVal, like: AVal) => Dims, vjp: Primitive['vjp'], tf: Primitive['tf']) {
  return defineOp({
    name,
    infer: (ins: AVal[]) => [{ dtype: ins[0].dtype, shape: shapeOf(ins[0], ins[1]) }],
    impl: (k, [x, like]) => [run(k, x, like)],
    vjp,
    saves: 'none',
    tf,
  });
}

/** The target dims when they are all known (then sizes can be checked statically). */
const known = (d: Dims): number[] | null => (d !== null && d.every((v) => v !== null) ? (d as number[]) : null);

export const reshapeLike = likeOp(
  'reshape_like',
  (k, x, like) => k.run('Reshape', { x }, { shape: like.shape }) as Info,
  (x, l) => (known(l.shape) ? resolveReshape('reshape_like', x.shape, known(l.shape) as number[]) : l.shape),
  (c, [x]) => [o.reshapeLike(g0(c), x), null],
  {
    // Reshape(x, Shape(like)); read back from that pattern (a Const shape reads as reshape).
    ops: ['Reshape'],
    write: (s, n, [x, like]) => [s.add('Reshape', 'Reshape', [x, writeShapeOf(s, like, n.inputs[1])], { T: typeAttrOf(s, n.inputs[0]), Tshape: attr.type('int32') })],
    matches: (r) => tensorOfShapeNode(r, r.producer(1)) !== null,
    read: (r): Tensor[] => (r.arity(2), bindP(reshapeLike, [r.input(0), tensorOfShapeNode(r, r.producer(1)) as Tensor])),
  },
);
export const broadcastLike = likeOp(
  'broadcast_like',
  // To the broadcast of both shapes, as infer says (like's shape alone kept a [3, 1] x at [3, 1] against a [3] like).
  (k, x, like) => broadcastInfo(k, x, broadcastOrThrow('broadcast_like', x.shape, like.shape) as number[]),
  (x, l) => broadcastOrThrow('broadcast_like', x.shape, l.shape),
  // Backprop's unbroadcast sums the cotangent down to x's shape (without reading x: it may be freed).
  (c) => [g0(c), null],
  {
    // BroadcastTo(x, BroadcastArgs(Shape(x), Shape(like))), or BroadcastTo(x, Shape(like)).
    ops: ['BroadcastTo'],
    write: (s, n, [x, like]) => {
      const target = s.add('BroadcastArgs', 'BroadcastArgs', [writeShapeOf(s, x, n.inputs[0]), writeShapeOf(s, like, n.inputs[1])], { T: attr.type('int32') });
      return [s.add('BroadcastTo', 'BroadcastTo', [x, target], { T: typeAttrOf(s, n.inputs[0]), Tidx: attr.type('int32') })];
    },
    matches: (r) => likeOfBroadcast(r) !== null,
    read: (r): Tensor[] => (r.arity(2), bindP(broadcastLike, [r.input(0), likeOfBroadcast(r) as Tensor])),
  },
);

/** The `like` tensor of BroadcastTo(x, Shape(like)) or BroadcastTo(x, BroadcastArgs(Shape(x), Shape(like))). */
function likeOfBroadcast(r: ReadScope): Tensor | null {
  const p = r.producer(1);
  if (isShapeNode(p)) return tensorOfShapeNode(r, p);
  if (p?.op !== 'BroadcastArgs' || p.inputs.length !== 2) return null;
  const x = r.input(0);
  const [a, c] = p.inputs.map((ref) => shapeSourceAt(r, ref));
  if (a === null || c === null || (a !== x && c !== x)) return null;
  return a === x ? c : a;
}

function shapeSourceAt(r: ReadScope, ref: InputRefView): Tensor | null {
  return tensorOfShapeNode(r, r.nodeOf(ref));
}
export const reduceLike = likeOp('reduce_like', reduceToShape, reducedShapeOf, (c, [x]) => [o.broadcastLike(g0(c), x), null], {
  // Sum over the broadcast axes (static when like's dims say which, else BroadcastGradientArgs), then Reshape.
  get ops() {
    return [tfOpOf(sum)];
  },
  write: writeReduceLike,
  matches: (r) => likeOfReduce(r) !== null,
  read: (r): Tensor[] => (r.arity(2), bindP(reduceLike, [r.input(0), likeOfReduce(r) as Tensor])),
});

function writeReduceLike(s: WriteScope, n: SpecNode, [x, like]: string[]): string[] {
  const [xi, li] = n.inputs;
  const xs = s.aval(xi).shape;
  const ls = s.aval(li).shape;
  let axes: string | null;
  if (xs !== null && ls !== null && xs.length >= ls.length && ls.every((d) => d !== null)) {
    const lead = xs.length - ls.length;
    const list = [...range(0, lead), ...ls.map((d, i) => (d === 1 && xs[lead + i] !== 1 ? lead + i : -1)).filter((a) => a >= 0)];
    axes = list.length ? s.ints('axes', list) : null;
  } else {
    const bga = s.add('BroadcastGradientArgs', 'BroadcastGradientArgs', [writeShapeOf(s, like, li), writeShapeOf(s, x, xi)], { T: attr.type('int32') });
    axes = outputRef(bga, 0);
  }
  const summed = axes === null ? x : s.add(tfOpOf(sum), tfOpOf(sum), [x, axes], { T: typeAttrOf(s, xi), Tidx: attr.type('int32'), keep_dims: attr.bool(true) });
  return [s.add('Reshape', 'Reshape', [summed, writeShapeOf(s, like, li)], { T: typeAttrOf(s, xi), Tshape: attr.type('int32') })];
}

/** The `like` of Sum(x, BroadcastGradientArgs(Shape(like), Shape(x)):0), or null. */
function likeOfReduce(r: ReadScope): Tensor | null {
  const p = r.producer(1);
  if (p?.op !== 'BroadcastGradientArgs' || p.inputs.length !== 2 || r.refText(1).endsWith(':1')) return null;
  return shapeSourceAt(r, p.inputs[0]);
}

/** reduce_like's target must broadcast to the input's shape (it undoes that broadcast). */
function reducedShapeOf(x: AVal, like: AVal): Dims {
  const b = x.shape === null || like.shape === null ? null : broadcastDims(like.shape, x.shape);
  if (b === undefined || (b !== null && x.shape !== null && (b.length !== x.shape.length || b.some((d, i) => d !== null && x.shape![i] !== null && d !== x.shape![i])))) {
    throw argError('reduce_like', 'the target shape does not broadcast to the input', `${dimsToString(x.shape)} to ${dimsToString(like.shape)}`, `a shape that broadcasts to ${dimsToString(x.shape)}`, 'Reduce to a shape the input was broadcast from.');
  }
  return like.shape;
}

/** Sums `x` over the axes broadcasting added, down to `like`'s shape. */
function reduceToShape(k: Kernels, x: Info, like: Info): Info {
  const target = like.shape;
  if (sameShape(x.shape, target)) return identityInfo(k, x);
  const lead = x.shape.length - target.length;
  const axes: number[] = [];
  for (let i = 0; i < x.shape.length; i++) if (i < lead || (target[i - lead] === 1 && x.shape[i] !== 1)) axes.push(i);
  const summed = axes.length ? (k.run('Sum', { x }, { axis: axes, keepDims: true }) as Info) : x;
  const out = k.run('Reshape', { x: summed }, { shape: target }) as Info;
  if (summed !== x) k.free(summed);
  return out;
}

/**
 * TensorFlow's BroadcastTo rule: every dim of x (aligned from the right) equals the target's or is 1, so the
 * result has exactly the target shape ([1, 4] does not broadcast to [2, 1], although the two broadcast together).
 */
function checkBroadcastsTo(x: Dims, target: readonly number[]): void {
  broadcastOrThrow('broadcastTo', x, [...target]);
  if (x === null) return;
  if (x.length > target.length) throw argError('broadcastTo', 'input has higher rank than the target', dimsToString(x), `rank <= ${target.length}`, 'Reshape first.');
  const lead = target.length - x.length;
  x.forEach((d, i) => {
    if (d !== null && d !== 1 && d !== target[lead + i]) {
      throw argError('broadcastTo', 'incompatible shapes: the input does not broadcast to the target shape', `${dimsToString(x)} to ${dimsToString([...target])}`, 'each input dim equal to the target dim or 1', 'Pass a target shape the input broadcasts to.');
    }
  });
}

/**
 * broadcastTo a shape only the graph knows (TF's BroadcastTo takes it as a tensor input): x plus zeros of that shape,
 * reshaped to it. What is known now is checked now, as eagerly; a shape x does
 * not broadcast to raises when the graph runs (the sum then has more elements than the shape holds).
 */
function broadcastToRunTimeShape(op: string, args: readonly unknown[]): Tensor | undefined {
  const dims = args[1];
  if (!hasSymbolicDims(dims) || args.length > 2) return undefined;
  const vector = Array.isArray(dims) ? null : (dims as Tensor);
  if (vector !== null && vector.rank !== null && vector.rank !== 1) return undefined;
  const c = convert(op, args[0] as TensorLike);
  try {
    const x = c.t;
    if (!['float32', 'int32', 'bool', 'complex64'].includes(x.dtype)) return undefined;
    // The target's rank and dims where known (a vector of unknown length: none).
    const rank = vector === null ? (dims as DimLike[]).length : vector.shape.asList()[0] ?? null;
    const known = vector === null ? (dims as DimLike[]).map((d) => (typeof d === 'number' ? d : null)) : new Array<null>(rank ?? 0).fill(null);
    const xd = x.dims;
    if (xd !== null && rank !== null && xd.length > rank) throw argError('broadcastTo', 'input has higher rank than the target', dimsToString(xd), `rank <= ${rank}`, 'Reshape first.');
    if (xd !== null && rank !== null) {
      xd.forEach((d, i) => {
        const t = known[rank - xd.length + i];
        if (d !== null && d !== 1 && t !== null && d !== t) {
          throw argError('broadcastTo', 'incompatible shapes: the input does not broadcast to the target shape', `${dimsToString(xd)} to ${dimsToString(known)}`, 'each input dim equal to the target dim or 1', 'Pass a target shape the input broadcasts to.');
        }
      });
    }
    const shapeVec = vector ?? o.concat((dims as DimLike[]).map((d) => (typeof d === 'number' ? o.ints([d]) : o.reshape(d, [1]))), 0);
    // broadcast_to's tensor form: the shape is read and checked (size included) when the graph runs.
    return bind(broadcastTo as Primitive, [x, shapeVec], {})[0];
  } finally {
    release(c);
  }
}

/**
 * broadcastTo: TF's BroadcastTo. The target shape is a param when static, or an int32 vector tensor input (TF's own
 * operand) when only the graph knows it: `broadcast_to(x, shape)` binds no params.
 */
export const broadcastTo = defineOp({
  name: 'broadcast_to',
  // A run-time target shape is checked as TF does (checkedTarget: ONNX's Expand broadcasts both ways).
  onnx: codec<ShapeParams>((s, n, [x, v]) => s.add('Expand', [x, v === undefined ? s.int64s(n.params.shape) : checkedTarget(s, x, s.aval(n.inputs[0]).shape?.length ?? 0, int64Operand(s, v))]), (s, n) => ONNX_DTYPES.includes(s.aval(n.inputs[0]).dtype) && (n.inputs.length < 2 || s.aval(n.inputs[0]).shape !== null)),
  infer(ins: AVal[], p: ShapeParams) {
    if (ins.length === 2) {
      checkDTypes('broadcastTo', ins[1], ['int32'], 'shape');
      const v = ins[1].shape;
      if (v !== null && v.length !== 1) throw argError('broadcastTo', 'shape must be a vector', dimsToString(v), 'a rank-1 int32 tensor', 'Pass the target dims as a vector.');
      const x = ins[0].shape;
      const rank = v === null ? null : v[0];
      if (x !== null && rank !== null && x.length > rank) throw argError('broadcastTo', 'input has higher rank than the target', dimsToString(x), `rank <= ${rank}`, 'Reshape first.');
      return [{ dtype: ins[0].dtype, shape: rank === null ? null : new Array<number | null>(rank).fill(null) }];
    }
    checkArity('broadcastTo', ins, 1);
    checkDimsValid('broadcastTo', p.shape);
    checkSize('broadcastTo', p.shape);
    checkBroadcastsTo(ins[0].shape, p.shape);
    return [{ dtype: ins[0].dtype, shape: [...p.shape] }];
  },
  impl(k, [x, v], p: ShapeParams) {
    if (v === undefined) return [broadcastInfo(k, x, p.shape)];
    // The shape read when the op runs, checked by the rule before the kernel.
    const shape = Array.from(intValues(v));
    broadcastTo.infer([{ dtype: x.dtype as DType, shape: x.shape }], { shape });
    return [broadcastInfo(k, x, shape)];
  },
  // Backprop's unbroadcast sums the cotangent down to x's shape (without reading x: it may be freed).
  vjp: (c, ins) => (ins.length === 2 ? [g0(c), null] : [g0(c)]),
  saves: 'none',
  api: api(['broadcastTo'], [arg.tensor('x'), arg.ints('shape')], [], { dynamic: broadcastToRunTimeShape }),
  tf: tfSpec<ShapeParams>({ op: 'BroadcastTo', inputs: ['x', { param: 'shape', shape: 'vector', check: 'dims' }], attrs: { T: { dtypeOf: 0 }, Tidx: I32 }, paramsAsInputs: true }),
});

export interface PermParams {
  readonly perm: readonly number[] | null;
}

/** The permutation, negative entries counted from the end like TensorFlow's Transpose. */
function permFor(rank: number, p: PermParams): number[] {
  return p.perm === null ? Array.from({ length: rank }, (_, i) => rank - 1 - i) : p.perm.map((a) => (a < 0 && a >= -rank ? a + rank : a));
}

export const transpose = defineOp({
  name: 'transpose',
  onnx: lower.transpose,
  infer(ins: AVal[], p: PermParams) {
    const s = ins[0].shape;
    if (s === null) return [{ dtype: ins[0].dtype, shape: null }];
    const perm = permFor(s.length, p);
    const sorted = [...perm].sort((a, b) => a - b);
    if (perm.length !== s.length || sorted.some((v, i) => v !== i)) {
      throw argError('transpose', 'perm is not a permutation of the axes', `perm [${perm.join(', ')}] for rank ${s.length}`, `a permutation of 0..${s.length - 1}`, 'Fix the perm argument.');
    }
    return [{ dtype: ins[0].dtype, shape: perm.map((i) => s[i]) }];
  },
  impl: (k, [x], p: PermParams) => [transposeKernel(k, x, permFor(x.shape.length, p))],
  vjp: (c, [x], _o, p: PermParams) => {
    const perm = permFor(x.rank ?? 0, p);
    const inv = new Array<number>(perm.length);
    perm.forEach((v, i) => (inv[v] = i));
    return [o.transpose(g0(c), inv)];
  },
  saves: 'none',
  api: api(['transpose'], [arg.tensor('x'), arg.custom('perm', permArg, null)]),
  tf: {
    ops: ['Transpose'],
    write(s, n, [x]) {
      const p = n.params as PermParams;
      const r = s.aval(n.inputs[0]).shape?.length ?? null;
      if (p.perm === null && r === null) {
        throw argError('saveFunction', 'transpose with the default perm needs a known input rank', 'an input of unknown rank', 'a known rank or an explicit perm', 'Pass perm to ef.transpose, or give the input a rank (setShape).');
      }
      const perm = p.perm ?? range(0, r as number).reverse();
      return [s.add('Transpose', 'Transpose', [x, s.ints('perm', perm)], { T: typeAttrOf(s, n.inputs[0]), Tperm: attr.type('int32') })];
    },
    read: (r): Tensor[] => (r.arity(2), bindP(transpose as Primitive, [r.input(0)], { perm: r.numbers(1, 'the perm') })),
  },
});

export const expandDims = defineOp({
  name: 'expand_dims',
  onnx: onnxSpec<AxisParams>({ op: 'Unsqueeze', inputs: ['x', { param: 'axis' }], dtypes: ['float32', 'int32', 'bool'] }),
  infer(ins: AVal[], p: AxisParams) {
    const s = ins[0].shape;
    if (s === null) return [{ dtype: ins[0].dtype, shape: null }];
    const r = s.length;
    if (!Number.isInteger(p.axis) || p.axis < -r - 1 || p.axis > r) {
      throw argError('expandDims', 'axis out of range', `axis ${p.axis} for a rank-${r} tensor`, `an integer in [${-r - 1}, ${r + 1})`, 'Pass an axis in [-rank - 1, rank].');
    }
    const a = p.axis < 0 ? p.axis + r + 1 : p.axis;
    return [{ dtype: ins[0].dtype, shape: [...s.slice(0, a), 1, ...s.slice(a)] }];
  },
  impl(k, [x], p: AxisParams) {
    const a = p.axis < 0 ? p.axis + x.shape.length + 1 : p.axis;
    return [k.run('Reshape', { x }, { shape: [...x.shape.slice(0, a), 1, ...x.shape.slice(a)] }) as Info];
  },
  vjp: (c, [x]) => [o.reshapeLike(g0(c), x)],
  saves: 'none',
  api: api(['expandDims'], [arg.tensor('x'), arg.int('axis')]),
  tf: tfSpec<AxisParams>({ op: 'ExpandDims', inputs: ['x', { param: 'axis', shape: 'scalar' }], attrs: { T: { dtypeOf: 0 }, Tdim: I32 } }),
});

export interface AxisParams {
  readonly axis: number;
}

/** Integers from a to b - 1. */
function range(a: number, b: number): number[] {
  return Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
}

export interface AxesParams {
  readonly axes: readonly number[] | null;
}

function squeezeDims(op: string, s: readonly (number | null)[], axes: readonly number[] | null): (number | null)[] | null {
  // Squeezing every size-1 dim: an unknown dim may be 1, so the rank is unknown (TensorFlow too).
  if (axes === null) return s.some((d) => d === null) ? null : s.filter((d) => d !== 1);
  const norm = normalizeAxes(op, axes, s.length);
  for (const a of norm) {
    if (s[a] !== null && s[a] !== 1) throw argError(op, `cannot squeeze axis ${a}`, `dim ${s[a]} in shape ${dimsToString([...s])}`, 'a dim of size 1', 'Squeeze only size-1 axes.');
  }
  return s.filter((_, i) => !norm.includes(i));
}

export const squeeze = defineOp({
  name: 'squeeze',
  onnx: lower.squeeze,
  infer: (ins: AVal[], p: AxesParams) => [{ dtype: ins[0].dtype, shape: ins[0].shape === null ? null : squeezeDims('squeeze', ins[0].shape, p.axes) }],
  impl: (k, [x], p: AxesParams) => [k.run('Reshape', { x }, { shape: squeezeDims('squeeze', x.shape, p.axes) as number[] }) as Info],
  vjp: (c, [x]) => [o.reshapeLike(g0(c), x)],
  saves: 'none',
  api: api(['squeeze'], [arg.tensor('x'), arg.axes('axis')]),
  tf: {
    ops: ['Squeeze'],
    write(s, n, [x]) {
      const axes = (n.params as AxesParams).axes;
      if (axes !== null && axes.length === 0) return [s.add(tfOpOf(identity), tfOpOf(identity), [x], { T: typeAttrOf(s, n.inputs[0]) })];
      return [s.add('Squeeze', 'Squeeze', [x], { T: typeAttrOf(s, n.inputs[0]), squeeze_dims: attr.ints(axes ?? []) })];
    },
    read(r): Tensor[] {
      r.arity(1);
      const axes = r.node.has('squeeze_dims') ? r.node.ints('squeeze_dims') : r.node.ints('axis', []);
      return bindP(squeeze as Primitive, [r.input(0)], { axes: axes.length ? axes : null });
    },
  },
});

/** shape(x): the dynamic shape as an int32 vector. */
export const shape = defineOp({
  name: 'shape',
  onnx: lower.shape,
  infer: (ins: AVal[]) => [{ dtype: 'int32' as DType, shape: [ins[0].shape === null ? null : ins[0].shape.length] }],
  impl: (k, [x]) => [k.upload(Int32Array.from(x.shape), [x.shape.length], 'int32')],
  api: api(['shape'], [arg.tensor('x')]),
  tf: { op: 'Shape', attrs: { T: { dtypeOf: 0 }, out_type: I32 } },
});

/** transpose's perm: null (reverse the axes) or integers. */
function permArg(op: string, v: unknown): readonly number[] | null {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v) || v.some((d) => !Number.isInteger(d))) throw argError(op, 'perm must be an array of integers', describe(v), 'a permutation such as [1, 0]', 'Pass the new order of the axes.');
  return v as number[];
}

