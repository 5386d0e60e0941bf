// TF ops tfjs-converter runs that no record writes, read onto EagerFlow's ops and composites (so their gradients
// are the composites'): Size, SparseToDense, ComplexAbs, Erfc, CropAndResize, Einsum, the legacy Div/Mod/Concat/
// Gather/Reverse forms, ClipByValue, LogSoftmax, MatrixBandPart, EuclideanNorm, IdentityN, ShapeN, ListDiff,
// DenseBincount, FakeQuantWithMinMaxVars, Roll, Cross, ExtractImagePatches, the main-diagonal MatrixDiag*V3 forms, and
// tfjs-converter's own op names (Conv1D, DepthwiseConv2d, Ones, Zeros).
import { ReadScope, TOP, Tensor, TfImport, image, linalg, math, nn } from '@eagerflow/core';
import type { DType } from '@eagerflow/core';
import { ReaderTable, readerFor, readerTable } from './spec_io';
import type { NodeReader } from './reader';

/** An int32 or float32 scalar owned by the function being loaded. */
function scalar(r: ReadScope, value: number, dtype: DType): Tensor {
  const data = dtype === 'int32' ? Int32Array.of(value) : dtype === 'bool' ? Uint8Array.of(value) : Float32Array.of(value);
  return (r as unknown as NodeReader).scope.ctx.constTensor({ dtype, shape: [], data });
}

const isInt = (t: Tensor): boolean => t.dtype === 'int32';

/** x / y rounded toward zero (TF's Div and Mod on integers, like C). */
function truncDiv(r: ReadScope, x: Tensor, y: Tensor): Tensor {
  if (!isInt(x)) {
    const q = TOP.divide(x, y);
    return TOP.multiply(TOP.sign(q), TOP.floor(TOP.abs(q)));
  }
  const q = math.floordiv(x, y);
  const rem = TOP.subtract(x, TOP.multiply(q, y));
  const zero = scalar(r, 0, 'int32');
  const fix = TOP.logicalAnd(TOP.notEqual(rem, zero), TOP.notEqual(TOP.less(x, zero), TOP.less(y, zero)));
  return TOP.add(q, TOP.cast(fix, 'int32'));
}

/** The Const axis list of input k (a scalar or a vector). */
const axesOf = (r: ReadScope, k: number, what: string): number[] => r.numbers(k, what);

let records: ReaderTable | undefined;

/** Reads node r as another TF op that a record reads (tfjs-converter's aliases of TF ops). */
function as(op: string) {
  return (r: ReadScope): Tensor[] => {
    const nr = r as unknown as NodeReader;
    const alias = new Proxy(nr, { get: (t, k) => (k === 'node' ? new Proxy(t.node, { get: (n, p) => (p === 'op' ? op : Reflect.get(n, p, n)) }) : Reflect.get(t, k, t)) });
    records ??= readerTable([]);
    const read = readerFor(records, alias as NodeReader);
    if (read === undefined) throw r.error(`no reader for ${op}`, op, 'a registered op', 'Register it');
    return read(alias as NodeReader);
  };
}

/** SparseToDense: default_value everywhere, sparse_values at sparse_indices (a scalar value fills every index). */
function sparseToDense(r: ReadScope): Tensor[] {
  r.arity(4);
  const shape = r.numbers(1, 'output_shape');
  r.checkSize(shape);
  let idx = r.input(0);
  if (idx.rank === 0 || idx.rank === 1) idx = TOP.reshape(idx, [-1, shape.length === 0 ? 1 : shape.length === 1 ? 1 : shape.length]);
  const [values, dflt] = [r.input(2), r.input(3)];
  const n = TOP.reshape(TOP.slice(TOP.shape(idx), [0], [1]), [1]);
  const vals = values.rank === 0 ? TOP.broadcastTo(values, n as never) : values;
  const delta = TOP.subtract(vals, dflt);
  return [TOP.add(TOP.scatterNd(idx, delta, shape), dflt)];
}

/** FakeQuantWithMinMaxVars: TF's nudged [min, max] grid of 2^num_bits (- 1 with narrow_range) steps. */
function fakeQuant(r: ReadScope): Tensor[] {
  r.arity(3);
  const [x, lo, hi] = r.inputs();
  const bits = r.node.int('num_bits', 8);
  const qmin = r.node.bool('narrow_range', false) ? 1 : 0;
  const qmax = 2 ** bits - 1;
  const f = (v: number): Tensor => scalar(r, v, 'float32');
  const scale = TOP.divide(TOP.subtract(hi, lo), f(qmax - qmin));
  const zero = TOP.subtract(f(qmin), TOP.divide(lo, scale));
  const nudgedZero = TOP.round(TOP.clipByValue(zero, qmin, qmax));
  const nmin = TOP.multiply(TOP.subtract(f(qmin), nudgedZero), scale);
  const nmax = TOP.multiply(TOP.subtract(f(qmax), nudgedZero), scale);
  const clamped = TOP.minimum(TOP.maximum(x, nmin), nmax);
  const q = TOP.floor(TOP.add(TOP.divide(TOP.subtract(clamped, nmin), scale), f(0.5)));
  // Straight-through gradient inside [nmin, nmax], as TF's FakeQuantWithMinMaxVarsGradient.
  const quantized = TOP.add(TOP.multiply(q, scale), nmin);
  return [TOP.add(clamped, TOP.stopGradient(TOP.subtract(quantized, clamped)))];
}

/** ListDiff(x, y): the values of x not in y, and their positions in x. */
function listDiff(r: ReadScope): Tensor[] {
  r.arity(2);
  const [x, y] = r.inputs();
  const hit = TOP.reduceAny(TOP.equal(TOP.expandDims(x, 1), TOP.expandDims(y, 0)), 1);
  const keep = TOP.logicalNot(hit);
  const ones = TOP.onesLike(TOP.cast(x, 'int32'));
  const pos = TOP.subtract(TOP.cumsum(ones, 0), ones);
  return [TOP.booleanMask(x, keep), TOP.booleanMask(pos, keep)];
}

/** DenseBincount(input, size, weights): counts (or summed weights) of each value below size, per row for rank 2. */
function denseBincount(r: ReadScope): Tensor[] {
  r.arity(3);
  const size = r.number(1, 'size');
  const x = r.input(0);
  const w = r.input(2);
  const weighted = w.dims === null || w.dims.length === 0 || w.dims[0] !== 0;
  const binary = r.node.bool('binary_output', false);
  const one = (row: Tensor, wr: Tensor | undefined): Tensor => {
    const c = math.bincount(row, { minlength: size, maxlength: size, ...(weighted && wr !== undefined && !binary ? { weights: wr } : {}), dtype: weighted && !binary ? w.dtype : x.dtype === 'int32' && !weighted ? 'int32' : w.dtype });
    return binary ? TOP.cast(TOP.greater(c, TOP.zerosLike(c)), c.dtype) : c;
  };
  if (x.rank === 2) return [TOP.stack(TOP.unstack(x, 0).map((row, i) => one(row, weighted ? TOP.unstack(w, 0)[i] : undefined)), 0)];
  return [one(x, weighted ? w : undefined)];
}

/** The Const diagonal offset k of a MatrixDiag*V3 node: only the main diagonal (k = 0) is read. */
function mainDiagonal(r: ReadScope, k: number): void {
  const offsets = r.numbers(k, 'k');
  if (offsets.some((v) => v !== 0)) throw r.error('only the main diagonal (k = 0) is supported', `k = [${offsets}]`, 'k = 0', 'Use tf.linalg.diag_part / diag / set_diag without k');
}

/** Rows of TF ops read onto EagerFlow's composites. */
export const CONVERTER_IMPORT_ROWS: readonly TfImport[] = [
  { ops: ['Size'], read: (r) => (r.arity(1), [TOP.size(r.input(0))]) },
  { ops: ['SparseToDense'], read: sparseToDense },
  { ops: ['ComplexAbs'], read: (r) => (r.arity(1), [TOP.sqrt(TOP.add(TOP.square(math.real(r.input(0))), TOP.square(math.imag(r.input(0)))))]) },
  // 1 - erf(x): exact to float32's absolute precision (tiny tails round to 0 where TF keeps ~1e-30).
  { ops: ['Erfc'], read: (r) => (r.arity(1), [TOP.subtract(scalar(r, 1, 'float32'), math.erf(r.input(0)))]) },
  {
    ops: ['CropAndResize'],
    read: (r) => {
      r.arity(4);
      const [h, w] = r.numbers(3, 'crop_size');
      const method = r.node.str('method', 'bilinear') === 'nearest' ? 'nearest' : 'bilinear';
      return [image.cropAndResize(r.input(0), r.input(1), r.input(2), [h, w], { method, extrapolationValue: r.node.float('extrapolation_value', 0) })];
    },
  },
  { ops: ['Einsum'], read: (r) => [TOP.einsum(r.node.str('equation'), ...r.inputs())] },
  // The composites written once against Dims (core's symbolic_dims.ts), so unknown dims import as they trace.
  { ops: ['Roll'], read: (r) => (r.arity(3), [TOP.roll(r.input(0), r.numbers(1, 'shift'), r.numbers(2, 'axis'))]) },
  { ops: ['Cross'], read: (r) => (r.arity(2), [linalg.cross(r.input(0), r.input(1))]) },
  {
    ops: ['ExtractImagePatches'],
    read: (r) => (r.arity(1), [image.extractPatches(r.input(0), r.node.ints('ksizes'), r.node.ints('strides'), r.node.ints('rates'), r.node.str('padding') as 'SAME' | 'VALID')]),
  },
  { ops: ['MatrixDiagPartV3'], read: (r) => (r.arity(3), mainDiagonal(r, 1), [linalg.diagPart(r.input(0))]) },
  {
    ops: ['MatrixDiagV3'],
    read: (r) => {
      r.arity(5);
      mainDiagonal(r, 1);
      const [rows, cols] = [r.numbers(2, 'num_rows'), r.numbers(3, 'num_cols')];
      if ([...rows, ...cols].some((v) => v !== -1)) throw r.error('only square diagonal matrices are supported', `num_rows ${rows}, num_cols ${cols}`, 'num_rows = num_cols = -1', 'Use tf.linalg.diag without num_rows / num_cols');
      return [linalg.diag(r.input(0))];
    },
  },
  { ops: ['MatrixSetDiagV3'], read: (r) => (r.arity(3), mainDiagonal(r, 2), [linalg.setDiag(r.input(0), r.input(1))]) },
  { ops: ['Div'], read: (r) => (r.arity(2), [isInt(r.input(0)) ? truncDiv(r, r.input(0), r.input(1)) : TOP.divide(r.input(0), r.input(1))]) },
  { ops: ['Mod'], read: (r) => (r.arity(2), [TOP.subtract(r.input(0), TOP.multiply(truncDiv(r, r.input(0), r.input(1)), r.input(1)))]) },
  { ops: ['ClipByValue'], read: (r) => (r.arity(3), [TOP.minimum(TOP.maximum(r.input(0), r.input(1)), r.input(2))]) },
  { ops: ['LogSoftmax'], read: (r) => (r.arity(1), [nn.logSoftmax(r.input(0))]) },
  { ops: ['MatrixBandPart'], read: (r) => (r.arity(3), [linalg.bandPart(r.input(0), r.number(1, 'num_lower'), r.number(2, 'num_upper'))]) },
  { ops: ['EuclideanNorm'], read: (r) => (r.arity(2), [math.reduceEuclideanNorm(r.input(0), axesOf(r, 1, 'the axes'), r.node.bool('keep_dims', false))]) },
  { ops: ['IdentityN'], read: (r) => r.inputs() },
  { ops: ['ShapeN'], read: (r) => r.inputs().map((t) => TOP.shape(t)) },
  // Legacy forms: Concat(axis, values...), Gather(params, indices) on axis 0, Reverse(x, bool per dim).
  { ops: ['Concat'], read: (r) => [TOP.concat(r.inputs(1), r.number(0, 'the axis'))] },
  { ops: ['Gather'], read: (r) => (r.arity(2), [TOP.gather(r.input(0), r.input(1), 0)]) },
  { ops: ['Reverse'], read: (r) => (r.arity(2), [TOP.reverse(r.input(0), r.numbers(1, 'dims').flatMap((b, i) => (b ? [i] : [])))]) },
  { ops: ['ListDiff'], read: listDiff },
  { ops: ['DenseBincount'], read: denseBincount },
  { ops: ['FakeQuantWithMinMaxVars'], read: fakeQuant },
  // tfjs-converter's own op names (its op lists read them; TF writes the ops they alias).
  { ops: ['DepthwiseConv2d'], read: as('DepthwiseConv2dNative') },
  { ops: ['Conv1D'], read: (r) => (r.arity(2), [nn.conv1d(r.input(0), r.input(1), r.node.int('stride', 1), r.node.str('pad', 'VALID') as 'SAME' | 'VALID', { dataFormat: r.node.str('data_format', 'NWC'), dilations: r.node.int('dilation', 1) })]) },
  { ops: ['Ones', 'Zeros'], read: (r) => (r.arity(1), [TOP.fill(r.numbers(0, 'the shape'), r.node.op === 'Ones' ? 1 : 0, r.node.dtype('dtype', 'float32'))]) },
  { ops: ['UniqueV2'], read: (r) => {
    r.arity(2);
    const axis = r.numbers(1, 'the axis');
    if (axis.length > 1 || (axis.length === 1 && axis[0] !== 0 && axis[0] !== -1)) throw r.error('UniqueV2 is read for 1-D inputs (axis 0)', `axis [${axis}]`, '[0]', 'Use Unique');
    const { y, idx } = TOP.unique(r.input(0));
    return [y, idx];
  } },
];
