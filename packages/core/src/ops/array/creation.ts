// creation: fill, range, zerosLike and onesLike, with their GraphDef codecs (Fill, Range).
import type { Info } from '../../backend/backend';
import { readInfoSync } from '../../backend/backend';
import { dimsToString } from '../../values/shape';
import { ruleOps as o } from '../rule_ops';
import { defineOp } from '../define_op';
import { DType, describe } from '../../values/dtype';
import { AVal, Params, Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { ALL, argError, checkDTypes, checkDimsValid, checkSize } from '../check';
import { api, arg } from '../api_spec';
import { ReadScope, SpecNode, WriteScope, attr } from '../graphdef_spec';
import { bind } from '../bind';
import { lower } from '../onnx_lowerings';
import { broadcastInfo, intValues, withScratch } from '../kernel_util';
import { g0 } from '../rule_helpers';

const unaryApi = <const P extends readonly string[]>(paths: P) => api(paths, [arg.tensor('x')]);

function likeConst<const N extends string, const P extends readonly string[]>(name: N, kernel: string, paths: P, dtypes: readonly DType[], value: number) {
  return defineOp({
    name,
    infer(ins: AVal[]) {
      checkDTypes(name, ins[0], dtypes);
      return [{ dtype: ins[0].dtype, shape: ins[0].shape }];
    },
    // tfjs's ZerosLike has no string kernel; TensorFlow's zeros_like of strings is ''.
    impl: (k, [x]) => [(x.dtype === 'string' ? k.run('Fill', {}, { shape: x.shape, value: '', dtype: 'string' }) : k.run(kernel, { x })) as Info],
    vjp: () => [null],
    saves: 'none',
    api: unaryApi(paths),
    tf: { op: kernel },
    onnx: lower.likeConst(value),
  });
}

export const zerosLike = likeConst('zeros_like', 'ZerosLike', ['zerosLike'], ALL, 0);
/** TensorFlow's OnesLike has no string kernel either. */
export const onesLike = likeConst('ones_like', 'OnesLike', ['onesLike'], ['float32', 'int32', 'bool', 'complex64'], 1);

export interface FillParams {
  readonly shape: readonly number[];
  readonly value: number | boolean | string;
  readonly dtype: DType;
}

/**
 * fill: TF's Fill. dims and value are params when static, or tensor inputs (TF's own operands: int32 dims, a scalar
 * value) when only the graph knows them: `fill(dims, value)` binds no params.
 */
export const fill = defineOp({
  name: 'fill',
  infer(ins: AVal[], p: FillParams) {
    if (ins.length === 2) {
      checkDTypes('fill', ins[0], ['int32'], 'dims');
      const [d, v] = [ins[0].shape, ins[1].shape];
      if (d !== null && d.length !== 1) throw argError('fill', 'dims must be a vector', dimsToString(d), 'a rank-1 int32 tensor', 'Pass the dims as a vector.');
      if (v !== null && v.length !== 0) throw argError('fill', 'value must be a scalar', `a tensor of shape ${dimsToString(v)}`, 'a scalar tensor', 'Pass one value to repeat.');
      return [{ dtype: ins[1].dtype, shape: d === null || d[0] === null ? null : new Array<number | null>(d[0]).fill(null) }];
    }
    checkDimsValid('fill', p.shape);
    checkSize('fill', p.shape);
    if (!representable(p.value, p.dtype)) {
      // String(NaN) is 'NaN' (JSON.stringify would say null); strings are shown quoted.
      const shown = typeof p.value === 'string' ? JSON.stringify(p.value) : typeof p.value === 'number' || typeof p.value === 'boolean' ? String(p.value) : describe(p.value);
      throw argError('fill', 'value does not fit the dtype', shown, `a value representable as ${p.dtype}`, 'Pass a matching value or another dtype.');
    }
    return [{ dtype: p.dtype, shape: [...p.shape] }];
  },
  // tfjs's Fill has no complex64 kernel (TF's does): a real fill plus a zero imaginary part. The tensor form
  // broadcasts the value to the dims read when the op runs (checked first).
  impl(k, ins, p: FillParams) {
    if (ins.length === 2) {
      const shape = Array.from(intValues(ins[0]));
      checkDimsValid('fill', shape);
      checkSize('fill', shape);
      // One Fill kernel for the common dtypes (a Tile of the scalar wrote a 2^31 - 1 element fill far slower).
      const value = ins[1];
      if (value.dtype === 'float32' || value.dtype === 'int32') return [k.run('Fill', {}, { shape, value: Number(readInfoSync(value)[0]), dtype: value.dtype }) as Info];
      return [broadcastInfo(k, value, shape)];
    }
    return [p.dtype === 'complex64'
      ? withScratch(k, (s) => s.run('Complex', { real: s.run('Fill', {}, { shape: [...p.shape], value: p.value, dtype: 'float32' }), imag: s.run('Fill', {}, { shape: [...p.shape], value: 0, dtype: 'float32' }) }))
      : k.run('Fill', {}, { shape: [...p.shape], value: p.dtype === 'bool' ? Number(p.value) : p.value, dtype: p.dtype }) as Info];
  },
  // The value's gradient sums the cotangent (TF's Fill gradient); the dims have none.
  vjp: (c, ins) => (ins.length === 2 ? [null, o.reduceSum(g0(c))] : []),
  saves: 'none',
  tf: { ops: ['Fill'], write: writeFill, read: readFill },
});

/** Binds fill with its dims (an int32 vector) and value (a scalar) as tensors. */
export const fillWith = (dims: Tensor, value: Tensor): Tensor => bindP(fill, [dims, value], {})[0];

function representable(v: unknown, dtype: DType): boolean {
  switch (dtype) {
    case 'int32':
      return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2147483647;
    case 'bool':
      return typeof v === 'boolean' || v === 0 || v === 1;
    case 'string':
      return typeof v === 'string';
    default:
      return typeof v === 'number';
  }
}

export interface RangeParams {
  readonly start: number;
  readonly stop: number;
  readonly step: number;
  readonly dtype: DType;
}

/**
 * range(start, limit, delta): TF's Range. The bounds are params when static, or three scalar tensor inputs of the
 * dtype (TF's own operands) when only the graph knows them: `range(start, limit, delta)` binds `{ dtype }` alone.
 */
export const range = defineOp({
  name: 'range',
  infer(ins: AVal[], p: RangeParams) {
    if (ins.length === 3) {
      ins.forEach((a, i) => {
        checkDTypes('range', a, [p.dtype], ['start', 'limit', 'delta'][i]);
        if (a.shape !== null && a.shape.length !== 0) throw argError('range', `${['start', 'limit', 'delta'][i]} must be a scalar`, dimsToString(a.shape), 'a scalar', 'Pass scalar bounds.');
      });
      return [{ dtype: p.dtype, shape: [null] }];
    }
    if (p.step === 0) throw argError('range', 'step must not be zero', '0', 'a non-zero step', 'Pass a positive or negative step.');
    if (p.dtype === 'int32' && ![p.start, p.stop, p.step].every(Number.isInteger)) {
      throw argError('range', 'an int32 range needs integer bounds', `${p.start}, ${p.stop}, ${p.step}`, 'integers for an int32 range', "Pass integers, or dtype 'float32'.");
    }
    checkDTypes('range', { dtype: p.dtype, shape: [] }, ['float32', 'int32'], 'dtype');
    checkSize('range', [rangeSize(p)]);
    if ((p.stop - p.start) / p.step < 0) {
      const rule = p.step > 0 ? 'start <= limit when delta > 0' : 'start >= limit when delta < 0';
      throw argError('range', `requires ${rule}`, `start ${p.start}, limit ${p.stop}, delta ${p.step}`, rule, 'Swap start and limit or flip the sign of delta (TensorFlow raises here too).');
    }
    return [{ dtype: p.dtype, shape: [rangeSize(p)] }];
  },
  // tfjs's Range counts down when stop < start even with a positive step; TensorFlow gives [].
  impl(k, ins, p: RangeParams) {
    // Bounds read when the op runs, checked by the rule (the length too) before the kernel.
    const q: RangeParams = ins.length === 3 ? { dtype: p.dtype, start: Number(readInfoSync(ins[0])[0]), stop: Number(readInfoSync(ins[1])[0]), step: Number(readInfoSync(ins[2])[0]) } : p;
    if (ins.length === 3) range.infer([], q);
    return [(rangeSize(q) === 0 ? k.run('Fill', {}, { shape: [0], value: 0, dtype: q.dtype }) : k.run('Range', {}, { start: q.start, stop: q.stop, step: q.step, dtype: q.dtype })) as Info];
  },
  tf: { ops: ['Range'], write: writeRange, read: readRange },
});

/** Binds range with its bounds as scalar tensors of `dtype` (bounds only the graph knows). */
export const rangeWith = (start: Tensor, limit: Tensor, delta: Tensor, dtype: DType): Tensor => bindP(range, [start, limit, delta], { dtype })[0];

function rangeSize(p: RangeParams): number {
  return Math.max(0, Math.ceil((p.stop - p.start) / p.step));
}

const bindP = (p: Primitive<FillParams> | Primitive<RangeParams>, ins: Tensor[], params: object): Tensor[] =>
  bind(p as unknown as Primitive, ins, params as Params);

function writeFill(s: WriteScope, n: SpecNode, ins: string[]): string[] {
  if (ins.length === 2) return [s.add('Fill', 'Fill', ins, { T: attr.type(s.dtype(n.inputs[1])), index_type: attr.type('int32') })];
  const p = n.params as FillParams;
  const data = p.dtype === 'string' ? [String(p.value)] : p.dtype === 'int32' ? Int32Array.of(Number(p.value)) : p.dtype === 'bool' ? Uint8Array.of(p.value ? 1 : 0) : Float32Array.of(Number(p.value));
  const value = s.constant('value', { dtype: p.dtype, shape: [], data });
  return [s.add('Fill', 'Fill', [s.ints('dims', p.shape), value], { T: attr.type(p.dtype), index_type: attr.type('int32') })];
}

function readFill(r: ReadScope): Tensor[] {
  r.arity(2);
  // Dims or a value the graph computes: the tensor form.
  if (r.producer(0)?.op !== 'Const' || r.producer(1)?.op !== 'Const') return [fillWith(r.input(0), r.input(1))];
  const shape = r.numbers(0, 'the dims');
  r.checkSize(shape);
  const c = r.constScalar(1);
  if (c === null) throw r.error('the fill value must be a scalar Const', `input '${r.refText(1)}'`, 'a scalar Const', 'Fix the value');
  const value = c.dtype === 'bool' ? c.value !== 0 : c.value;
  return bindP(fill, [], { shape, value, dtype: c.dtype });
}

function writeRange(s: WriteScope, n: SpecNode, ins: string[]): string[] {
  const p = n.params as RangeParams;
  if (ins.length === 3) return [s.add('Range', 'Range', ins, { Tidx: attr.type(p.dtype) })];
  const scalar = (hint: string, v: number): string => (p.dtype === 'int32' ? s.ints(hint, [v], []) : s.constant(hint, { dtype: 'float32', shape: [], data: Float32Array.of(v) }));
  // The exact (float64) endpoints ride along in an attr: float32 consts could change the length.
  const exact = { list: { f: [p.start, p.stop, p.step] } };
  return [s.add('Range', 'Range', [scalar('start', p.start), scalar('limit', p.stop), scalar('delta', p.step)], { Tidx: attr.type(p.dtype), _eagerflow_range: exact })];
}

function readRange(r: ReadScope): Tensor[] {
  r.arity(3);
  const dtype = r.node.dtype('Tidx', 'int32');
  const exact = r.node.has('_eagerflow_range') ? r.node.floats('_eagerflow_range') : [];
  // Bounds the graph computes: the tensor form.
  if (exact.length !== 3 && [0, 1, 2].some((k) => r.producer(k)?.op !== 'Const')) return bindP(range, r.inputs(0, 3), { dtype });
  const vals = exact.length === 3 ? exact : [0, 1, 2].map((k) => r.number(k, 'a range bound'));
  const [start, stop, step] = vals;
  if (step === 0 || !Number.isFinite(start + stop + step) || Math.abs((stop - start) / step) > r.maxElements) {
    throw r.error('the range is invalid or too long', `${start}, ${stop}, ${step}`, `a non-zero step and at most ${r.maxElements} values`, 'Fix the Range inputs');
  }
  return bindP(range, [], { start, stop, step, dtype });
}

