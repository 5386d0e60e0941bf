// reduction: sum, max, argMax and the int32 mean, with their gradient rules and GraphDef specs.
import { lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import type { Info, Kernels } from '../../backend/backend';
import { FLOAT32_MAX, type DType } from '../../values/dtype';
import { AVal, Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { attr, tfSpec } from '../graphdef_spec';
import type { Tensor } from '../../values/tensor';
import { ruleOps as o } from '../rule_ops';
import { bind } from '../bind';
import { NUMERIC, argError, checkArity, checkDTypes, normalizeAxes } from '../check';
import { Scratch, complexByParts, withScratch } from '../kernel_util';
import { isHostBackend, readInfoSync } from '../../backend/backend';
import { I32 } from '../rule_helpers';

import { ReduceParams, reduceApi, reduceTf, reducedDims, reducedShape, runtimeAxes } from './reduce_axes';

/** Re-inserts reduced axes into a cotangent so it broadcasts against the input. */
export function keepDimsLike(g: Tensor, x: Tensor, p: ReduceParams): Tensor {
  if (p.keepDims) return g;
  const rank = x.rank;
  if (rank === null) throw argError('reduce gradient', 'unknown input rank', 'a tensor of unknown rank', 'a known rank', 'Give the input a rank with setShape.');
  const axes = (p.axes === null ? Array.from({ length: rank }, (_, i) => i) : p.axes.map((a) => (a < 0 ? a + rank : a))).sort((a, b) => a - b);
  let out = g;
  for (const a of axes) out = o.expandDims(out, a);
  return out;
}


export const sum = defineOp({
  name: 'sum',
  onnx: lower.reduce('ReduceSum'),
  infer(ins: AVal[], p: ReduceParams) {
    checkArity('reduceSum', ins, 1);
    checkDTypes('reduceSum', ins[0], [...NUMERIC, 'complex64']);
    return [{ dtype: ins[0].dtype, shape: reducedShape('reduceSum', ins[0], p) }];
  },
  impl(k, [x], p: ReduceParams) {
    const axes = runtimeAxes(x, p);
    // An empty input sums to zeros (or to an empty result) without the kernel: tfjs-webgl's Sum divides the size by
    // the batch (0 / 0) and raises on a NaN shape.
    if (x.dtype === 'complex64') {
      // By parts (tfjs's Sum takes no complex64; TF sums them): the real and imaginary parts summed alone.
      return [complexByParts(k, [x], ([part]) => (x.shape.includes(0) ? k.run('Fill', {}, { shape: reducedDims(x, axes, p.keepDims), value: 0, dtype: 'float32' }) : k.run('Sum', { x: part }, { axis: axes, keepDims: p.keepDims })) as Info)];
    }
    if (x.shape.includes(0)) return [k.run('Fill', {}, { shape: reducedDims(x, axes, p.keepDims), value: 0, dtype: x.dtype }) as Info];
    return [k.run('Sum', { x }, { axis: axes, keepDims: p.keepDims }) as Info];
  },
  vjp: (c, [x], _o, p: ReduceParams) => [o.broadcastLike(keepDimsLike(c[0] as Tensor, x, p), x)],
  saves: 'none',
  api: reduceApi(['math.reduceSum', 'reduceSum']),
  tf: reduceTf('Sum'),
});

export const max = defineOp({
  name: 'max',
  onnx: lower.reduce('ReduceMax'),
  infer(ins: AVal[], p: ReduceParams) {
    checkArity('reduceMax', ins, 1);
    checkDTypes('reduceMax', ins[0], NUMERIC);
    return [{ dtype: ins[0].dtype, shape: reducedShape('reduceMax', ins[0], p) }];
  },
  impl(k, [x], p: ReduceParams) {
    const axes = runtimeAxes(x, p);
    if (!x.shape.includes(0)) return [k.run('Max', { x }, { reductionIndices: axes, keepDims: p.keepDims }) as Info];
    // The max over nothing is the dtype's lowest value (TensorFlow: -inf, INT_MIN); tfjs gives NaN (and tfjs-webgl
    // raises for any empty input, so an empty result is filled here too).
    const shape = reducedDims(x, axes, p.keepDims);
    return [k.run('Fill', {}, { shape, value: x.dtype === 'int32' ? -2147483648 : -Infinity, dtype: x.dtype }) as Info];
  },
  vjp: (c, [x], [y], p: ReduceParams) => {
    // TensorFlow splits the gradient evenly between tied maxima.
    const mask = o.cast(o.equal(x, o.broadcastLike(keepDimsLike(y, x, p), x)), x.dtype);
    const count = o.broadcastLike(keepDimsLike(o.reduceSum(mask, p.axes === null ? null : [...p.axes], false), x, { ...p, keepDims: false }), x);
    return [o.div(o.mul(o.broadcastLike(keepDimsLike(c[0] as Tensor, x, p), x), mask), count)];
  },
  api: reduceApi(['math.reduceMax', 'reduceMax']),
  tf: reduceTf('Max'),
});

export interface AxisParams {
  readonly axis: number;
}

/** argMax/argMin's shape rule: int32 indices over the input without `axis`; a scalar or an empty axis has no index. */
export function argInfer(op: string, ins: AVal[], p: AxisParams, dtypes: readonly DType[]): AVal[] {
  checkArity(op, ins, 1);
  checkDTypes(op, ins[0], dtypes);
  const s = ins[0].shape;
  if (s === null) return [{ dtype: 'int32', shape: null }];
  if (s.length === 0) throw argError(op, `cannot take ${op} of a scalar`, 'a rank-0 tensor', 'rank >= 1', 'Reshape the input to rank 1.');
  const [a] = normalizeAxes(op, [p.axis], s.length);
  if (s[a] === 0) throw argError(op, `reduction axis ${a} is empty`, `shape ${JSON.stringify(s)}`, 'a non-empty axis', `${op} of nothing has no index: check the input is not empty.`);
  return [{ dtype: 'int32', shape: s.filter((_, i) => i !== a) }];
}

/**
 * TensorFlow's ArgMax / ArgMin reducer on float32: it starts from the lowest (highest) finite float at index 0 and
 * takes strictly greater (smaller) values, so NaN is never picked and -inf (inf) never beats index 0. x is mapped to
 * that order first, then `kernel` runs (ArgMax, or ArgMin: tfjs's kept a leading NaN, [NaN, 0.16, -0.58] read 0, TF 2).
 */
export function tfArgReduce(k: Kernels, x: Info, axis: number, kernel: string): Info {
  const max = kernel === 'ArgMax';
  return withScratch(k, (s) => {
    const noNaN = s.run('Select', { condition: s.run('IsNan', { x }), t: s.run('Fill', {}, { shape: x.shape, value: max ? -Infinity : Infinity, dtype: 'float32' }), e: x });
    return s.run(kernel, { x: s.run(max ? 'Maximum' : 'Minimum', { a: noNaN, b: s.scalar(max ? -FLOAT32_MAX : FLOAT32_MAX) }) }, { axis });
  });
}

export const argMax = defineOp({
  name: 'arg_max',
  onnx: lower.arg('ArgMax'),
  infer: (ins: AVal[], p: AxisParams) => argInfer('argMax', ins, p, ['float32', 'int32', 'bool']),
  impl: (k, [x], p: AxisParams) => {
    const axis = p.axis < 0 ? p.axis + x.shape.length : p.axis;
    if (x.dtype === 'int32') return [k.run('ArgMax', { x }, { axis }) as Info];
    // bool: TensorFlow's ArgMax of bool is the first true (as int32: the first 1).
    if (x.dtype === 'bool') return [withScratch(k, (s) => s.run('ArgMax', { x: s.run('Cast', { x }, { dtype: 'int32' }) }, { axis }))];
    return [tfArgReduce(k, x, axis, 'ArgMax')];
  },
  api: api(['math.argMax', 'argMax'], [arg.tensor('x'), arg.int('axis', 0)]),
  tf: tfSpec<AxisParams>({ op: 'ArgMax', inputs: ['x', { param: 'axis', shape: 'scalar' }], attrs: { T: { dtypeOf: 0 }, Tidx: I32, output_type: I32 } }),
});


/**
 * int32 mean like TensorFlow's Mean: the sum does not wrap and the quotient truncates toward zero.
 * On the host (cpu) it is exact (float64 sums); GPU backends sum in int32 (wrapping past 2^31).
 */
export const intMean = defineOp({
  name: 'int_mean',
  infer(ins: AVal[], p: ReduceParams) {
    checkArity('reduceMean', ins, 1);
    checkDTypes('reduceMean', ins[0], ['int32']);
    return [{ dtype: 'int32', shape: reducedShape('reduceMean', ins[0], p) }];
  },
  impl(k, [x], p: ReduceParams) {
    const axes = runtimeAxes(x, p);
    const shape = reducedDims(x, axes, p.keepDims);
    const count = axes.reduce((n, a) => n * x.shape[a], 1);
    if (x.shape.includes(0)) return [k.run('Fill', {}, { shape, value: 0, dtype: 'int32' }) as Info];
    if (isHostBackend()) return [k.upload(hostIntMean(readInfoSync(x) as Int32Array, x.shape, axes, count), shape, 'int32')];
    return [withScratch(k, (s) => truncDiv(s, s.run('Sum', { x }, { axis: axes, keepDims: p.keepDims }), s.scalar(count, 'int32')))];
  },
  tf: {
    // TensorFlow's Mean: int32 truncates (this record); float means read as ef.reduceMean (sum / count).
    ops: ['Mean'],
    write: (s, n, ins) => {
      const p = n.params as ReduceParams;
      const axes = p.axes === null ? (s.aval(n.inputs[0]).shape ?? []).map((_, i) => i) : [...p.axes];
      return [s.add('Mean', 'Mean', [ins[0], s.ints('axes', axes)], { T: attr.type('int32'), Tidx: attr.type('int32'), keep_dims: attr.bool(p.keepDims) })];
    },
    read(r): Tensor[] {
      r.arity(2);
      const x = r.input(0);
      const axes = r.numbers(1, 'the reduction axes');
      const keepDims = r.node.bool('keep_dims', false);
      if (x.dtype === 'int32') return bind(intMean as Primitive, [x], { axes, keepDims });
      return [o.reduceMean(x, axes, keepDims)];
    },
  },
});

/** Exact means on the host: float64 sums (exact below 2^53), truncated like C integer division. */
function hostIntMean(data: Int32Array, shape: readonly number[], axes: readonly number[], count: number): Int32Array {
  const kept = shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const outSize = kept.reduce((n, i) => n * shape[i], 1);
  const sums = new Float64Array(outSize);
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, d) => a * d, 1));
  for (let flat = 0; flat < data.length; flat++) {
    let o = 0;
    for (const i of kept) o = o * shape[i] + (Math.floor(flat / strides[i]) % shape[i]);
    sums[o] += data[flat];
  }
  // 0 / 0 (an empty reduction) is 0, as TensorFlow's integer Mean gives.
  return Int32Array.from(sums, (v) => (count === 0 ? 0 : Math.trunc(v / count)));
}

/** a / b truncated toward zero with kernels: floor(a / b) is exact for int32; add 1 where the quotient was negative and inexact. */
function truncDiv(s: Scratch, a: Info, b: Info): Info {
  const q = s.run('FloorDiv', { a, b });
  const inexact = s.run('NotEqual', { a: s.run('Multiply', { a: q, b }), b: a });
  const negative = s.run('NotEqual', { a: s.run('Less', { a, b: s.scalar(0, 'int32') }), b: s.run('Less', { a: b, b: s.scalar(0, 'int32') }) });
  return s.run('Add', { a: q, b: s.run('Cast', { x: s.run('LogicalAnd', { a: inexact, b: negative }) }, { dtype: 'int32' }) });
}

