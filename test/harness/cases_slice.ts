// Harness cases for stridedSlice (every mask) and numpy-style x.at(...), with TF's strided_slice_op_test cases ported; the reference follows Python's slice semantics.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec, TfCall, tfNone } from './case';
import { Ref, ravel, sizeOf } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_stridedSlice: TfCall = { fn: 'tf.strided_slice', cases: 'none', params: ['x', 'b', 'e', ['s', null]], options: { begin_mask: ['beginMask', 0], end_mask: ['endMask', 0], ellipsis_mask: ['ellipsisMask', 0], new_axis_mask: ['newAxisMask', 0], shrink_axis_mask: ['shrinkAxisMask', 0] }, extra: [
    { name: 'basic', args: [IN.t2x3x4, [0, 1, 0], [2, 3, 4], [1, 1, 2]] },
    { name: 'negative stride', args: [IN.t2x3x4, [1, 2, 3], [0, 0, 0], [-1, -1, -2]] },
    { name: 'begin/end masks', args: [IN.t2x3x4, [1, 1, 1], [2, 2, 2], [1, 1, 1], { beginMask: 5, endMask: 2 }] },
    { name: 'shrink axis', args: [IN.t2x3x4, [1, 0, 2], [2, 3, 3], [1, 1, 1], { shrinkAxisMask: 5 }] },
    { name: 'new axis', args: [IN.t2x3, [0, 0], [1, 2], [1, 1], { newAxisMask: 1 }] },
    { name: 'ellipsis', args: [IN.t2x3x4, [0, 1], [1, 3], [1, 1], { ellipsisMask: 1 }] },
    { name: 'clamped', args: [IN.t2x3, [-10, 1], [10, 100], [1, 1]] },
  ] };

type Index = number | string | null;
const F = (shape: number[]): InputSpec => ({ shape });
const seq = (shape: number[]): InputSpec => ({ shape, values: Array.from({ length: sizeOf(shape) }, (_, i) => i + 1) });

/** Python's slice(start, stop, step).indices(n), as a list of positions. */
function pySlice(n: number, start: number | null, stop: number | null, step: number): number[] {
  const norm = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v < 0 ? v + n : v));
  const [lo, hi] = step > 0 ? [0, n] : [-1, n - 1];
  const b = start === null ? (step > 0 ? 0 : n - 1) : norm(start, lo, hi);
  const e = stop === null ? (step > 0 ? n : -1) : norm(stop, lo, hi);
  const out: number[] = [];
  for (let i = b; step > 0 ? i < e : i > e; i += step) out.push(i);
  return out;
}

/** numpy indexing of a float64 reference: per input dim a list of positions, dropped dims, new axes. */
export function npIndex(x: Ref, indices: Index[]): Ref {
  const consuming = indices.filter((i) => i !== null && i !== '...').length;
  const per: { pos: number[]; keep: boolean }[] = [];
  const outShape: number[] = [];
  let dim = 0;
  const full = (): void => {
    const n = x.shape[dim++];
    per.push({ pos: Array.from({ length: n }, (_, k) => k), keep: true });
    outShape.push(n);
  };
  for (const i of indices) {
    if (i === null) outShape.push(1);
    else if (i === '...') for (let k = 0; k < x.rank - consuming; k++) full();
    else if (typeof i === 'number') {
      const n = x.shape[dim++];
      per.push({ pos: [i < 0 ? i + n : i], keep: false });
    } else {
      const [a, b, c] = i.split(':').map((s) => (s.trim() === '' ? null : Number(s)));
      const pos = pySlice(x.shape[dim++], a, b ?? null, c ?? 1);
      per.push({ pos, keep: true });
      outShape.push(pos.length);
    }
  }
  while (dim < x.rank) full();
  const total = per.reduce((t, q) => t * q.pos.length, 1);
  const data = Array.from({ length: total }, (_, flat) => {
    let rest = flat;
    const idx = new Array<number>(per.length);
    for (let j = per.length - 1; j >= 0; j--) {
      idx[j] = per[j].pos[rest % per[j].pos.length];
      rest = Math.floor(rest / per[j].pos.length);
    }
    return x.data[ravel(idx, x.shape)];
  });
  return new Ref(outShape, data, x.dtype);
}

const AT: [string, number[], Index[]][] = [
  ['x[:, 1:3]', [3, 4], [':', '1:3']],
  ['x[..., -1]', [2, 3, 4], ['...', -1]],
  ['x[1]', [3, 2], [1]],
  ['x[::-1]', [5], ['::-1']],
  ['x[-2::-2, ::2]', [5, 4], ['-2::-2', '::2']],
  ['x[None, :, None]', [3], [null, ':', null]],
  ['x[..., None]', [2, 3], ['...', null]],
  ['x[0, ..., 1:] of rank 4', [2, 2, 3, 3], [0, '...', '1:']],
  ['x[1:0] is empty', [4, 2], ['1:0']],
  ['x[0:3:-1] is empty', [4], ['0:3:-1']],
  ['x[-100:100, -1:-3:-1] clamps', [3, 4], ['-100:100', '-1:-3:-1']],
  ['x[:, :, :, 3] (TF testShrink)', [2, 1, 3, 5], [':', ':', ':', 3]],
  // TF strided_slice_op_test testEllipsis: raw of shape [1, 2, 3, 2].
  ['x[..., 0:1] (TF testEllipsis)', [1, 2, 3, 2], ['...', '0:1']],
  ['x[0:, ...] (TF testEllipsis)', [1, 2, 3, 2], ['0:', '...']],
  ['x[0, ..., 1] (TF testEllipsis)', [1, 2, 3, 2], [0, '...', 1]],
  ['x[None, 0, ..., None] (TF testExpand)', [1, 2, 3, 2], [null, 0, '...', null]],
];

const EMPTY_GAP = "tfjs's StridedSlice kernel throws on empty results (it reshapes the input's size to the empty shape); EagerFlow's impl returns the empty tensor itself";
const atRows: ForwardCase[] = AT.map(([name, shape, idx]) => ({
  prim: 'strided_slice', api: 'stridedSlice', tfCall: TF_stridedSlice, tfOps: ['StridedSlice'], name: `at: ${name}`, ...(name === 'x[1:0] is empty' ? { noConverter: EMPTY_GAP } : {}),
  inputs: [seq(shape)], op: (x) => x.at(...idx), ref: (x) => npIndex(x, idx),
}));

const maskRows: ForwardCase[] = [
  { prim: 'strided_slice', api: 'stridedSlice', tfCall: TF_stridedSlice, tfOps: ['StridedSlice'], name: 'stridedSlice begin/end masks', inputs: [F([3, 4])], op: (x) => ef.stridedSlice(x, [1, 1], [2, 3], [1, 1], { beginMask: 1, endMask: 2 }), ref: (x) => npIndex(x, [':2', '1:']) },
  { prim: 'strided_slice', api: 'stridedSlice', tfCall: TF_stridedSlice, tfOps: ['StridedSlice'], name: 'stridedSlice shrink and new axis masks', inputs: [F([3, 4])], op: (x) => ef.stridedSlice(x, [0, 2], [0, 3], [1, 1], { newAxisMask: 1, shrinkAxisMask: 2 }), ref: (x) => npIndex(x, [null, 2]) },
  { prim: 'strided_slice', api: 'stridedSlice', tfCall: TF_stridedSlice, tfOps: ['StridedSlice'], name: 'stridedSlice ellipsis mask with negative stride', inputs: [F([2, 3, 4])], op: (x) => ef.stridedSlice(x, [0, 3], [0, 0], [1, -2], { ellipsisMask: 1 }), ref: (x) => npIndex(x, ['...', '3:0:-2']) },
  { prim: 'strided_slice', api: 'stridedSlice', tfCall: TF_stridedSlice, tfOps: ['StridedSlice'], name: 'stridedSlice default strides', inputs: [F([4, 2])], op: (x) => ef.stridedSlice(x, [1], [3]), ref: (x) => npIndex(x, ['1:3']) },
  { prim: 'strided_slice', api: 'stridedSlice', tfCall: TF_stridedSlice, tfOps: ['StridedSlice'], name: 'stridedSlice int32', inputs: [{ shape: [5], dtype: 'int32', values: [5, 6, 7, 8, 9] }], op: (x) => x.at('1::2'), ref: (x) => npIndex(x, ['1::2']) },
];

type Params = { begin: number[]; end: number[]; strides: number[]; beginMask: number; endMask: number; ellipsisMask: number; newAxisMask: number; shrinkAxisMask: number };
const P = (begin: number[], end: number[], strides: number[], masks: Partial<Params> = {}): Params => ({ begin, end, strides, beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0, ...masks });
const gradOf = (p: Params) => (g: ef.Tensor, x: ef.Tensor): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES.strided_slice_grad, [g, x], p)[0];

/** Scatters g into zeros of x's shape at the positions numpy indexing `idx` selects. */
function scatterRef(idx: Index[]) {
  return (g: Ref, x: Ref): Ref => {
    const where = npIndex(new Ref(x.shape, x.data.map((_, i) => i), 'int32'), idx);
    const out = new Array<number>(x.size).fill(0);
    where.data.forEach((flat, k) => (out[flat as number] += g.num(k)));
    return new Ref(x.shape, out, 'float32');
  };
}

// The gradient record directly (its values; the slice rows above check it through finite differences).
const gradRows: ForwardCase[] = [
  { prim: 'strided_slice_grad', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): stridedSlice\'s gradient record (TF\'s StridedSliceGrad); its values are TF\'s stridedSlice gradients in stridedSlice.json'), tfOps: ['StridedSliceGrad'], name: 'stridedSliceGrad of x[1:3, ::-2]', noConverter: 'tfjs-converter has no StridedSliceGrad', grad: [0], inputs: [F([2, 2]), F([4, 4])], op: gradOf(P([1, 0], [3, 0], [1, -2], { endMask: 2, beginMask: 2 })), ref: scatterRef(['1:3', '::-2']) },
  { prim: 'strided_slice_grad', tfCall: tfNone('an EagerFlow-only helper primitive (no public op): stridedSlice\'s gradient record (TF\'s StridedSliceGrad); its values are TF\'s stridedSlice gradients in stridedSlice.json'), tfOps: ['StridedSliceGrad'], name: 'stridedSliceGrad of x[..., 0, None]', noConverter: 'tfjs-converter has no StridedSliceGrad', grad: [0], inputs: [F([2, 3, 1]), F([2, 3, 2])], op: gradOf(P([0, 0, 0], [0, 1, 0], [1, 1, 1], { ellipsisMask: 1, shrinkAxisMask: 2, newAxisMask: 4 })), ref: scatterRef(['...', 0, null]) },
];

export const sliceCases: ForwardCase[] = [...atRows, ...maskRows, ...gradRows];

export const sliceErrors: ErrorCase[] = [
  { prim: 'strided_slice', api: 'stridedSlice', name: 'at: index out of range', inputs: [F([3])], run: (x) => x.at(3), op: 'stridedSlice', got: 'index 3 for a dim of size 3', expected: 'an index in [-3, 3)' },
  { prim: 'strided_slice', api: 'stridedSlice', name: 'at: too many indices', inputs: [F([3])], run: (x) => x.at(0, 0), op: 'stridedSlice', got: '2 indices for a rank-1 tensor', expected: 'at most 1' },
  { prim: 'strided_slice', api: 'stridedSlice', name: 'stridedSlice zero stride', inputs: [F([3])], run: (x) => ef.stridedSlice(x, [0], [2], [0]), op: 'stridedSlice', got: '[0]', expected: 'non-zero strides' },
  { prim: 'strided_slice', api: 'stridedSlice', name: 'stridedSlice length mismatch', inputs: [F([3, 3])], run: (x) => ef.stridedSlice(x, [0, 0], [2]), op: 'stridedSlice', got: '2, 1 and 2 entries', expected: 'equal lengths' },
  { prim: 'strided_slice_grad', name: 'stridedSliceGrad cotangent of the wrong shape', inputs: [F([3]), F([4])], run: gradOf(P([1], [3], [1])), op: 'stridedSliceGrad', got: '[3] for a slice of shape [2]', expected: '[2]' },
  { prim: 'strided_slice', api: 'stridedSlice', name: 'at: a bad index', cls: TypeError, inputs: [F([3])], run: (x) => x.at('a:b'), op: 'at', got: '"a:b"', expected: "an integer, 'start:stop:step', '...' or null" },
];
