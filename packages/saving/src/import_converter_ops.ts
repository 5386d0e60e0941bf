// TF ops tfjs-converter runs that no record writes, read onto EagerFlow's ops and composites (so their gradients
// are the composites'): Size, SparseToDense, ComplexAbs, Erfc, CropAndResize, Einsum, the legacy Div/Mod/Concat/
// Gather/Reverse forms, ClipByValue, LogSoftmax, MatrixBandPart, EuclideanNorm, IdentityN, ShapeN, ListDiff,
// DenseBincount, FakeQuantWithMinMaxVars, Roll, Cross, ExtractImagePatches, the main-diagonal MatrixDiag*V3 forms,
// Dilation2D, BitwiseAnd, SparseSegmentSum/Mean, SparseReshape, SparseFillEmptyRows, the string ops (on the ef.strings
// records the eagerflow package registers), and tfjs-converter's own op names (Conv1D, DepthwiseConv2d, Ones, Zeros).
import { ReadScope, TOP, Tensor, TfImport, allPrimitives, bind, image, linalg, math, nn, segmentSumWith } from '@eagerflow/core';
import type { Params, Primitive } from '@eagerflow/core';
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

/** The static size of dim `d` of input k (Dilation2D's spatial dims), or an error naming the node. */
function staticDim(r: ReadScope, k: number, d: number, what: string): number {
  const n = r.input(k).dims?.[d];
  if (typeof n !== 'number' || n < 0) throw r.error(`${r.node.op} needs a static ${what}`, `input '${r.refText(k)}' of shape ${JSON.stringify(r.input(k).dims)}`, `a known ${what}`, 'Export the graph with a fixed spatial size');
  return n;
}

/**
 * Dilation2D (grayscale morphological dilation): out[b, y, x, c] = max over (dy, dx) of
 * input[b, y*sh + dy*rh, x*sw + dx*rw, c] + filter[dy, dx, c]. SAME pads with -inf (TF's kernel skips the outside),
 * then every window comes from extractPatches; the gradient is reduceMax's (TF's Dilation2DBackprop* pick the argmax).
 */
function dilation2d(r: ReadScope): Tensor[] {
  r.arity(2);
  const [x, f] = r.inputs();
  const strides = r.node.ints('strides');
  const rates = r.node.ints('rates');
  const padding = r.node.str('padding', 'VALID');
  if (x.rank !== 4 || f.rank !== 3) throw r.error('Dilation2D takes a 4-D NHWC input and a 3-D filter', `ranks ${x.rank} and ${f.rank}`, 'ranks 4 and 3', 'Fix the graph');
  const [fh, fw] = [staticDim(r, 1, 0, 'filter height'), staticDim(r, 1, 1, 'filter width')];
  const c = staticDim(r, 0, 3, 'channel count');
  const size = [staticDim(r, 0, 1, 'height'), staticDim(r, 0, 2, 'width')];
  const span = [(fh - 1) * rates[1] + 1, (fw - 1) * rates[2] + 1];
  let padded = x;
  let [oh, ow] = [0, 1].map((i) => Math.floor((size[i] - span[i]) / strides[i + 1]) + 1);
  if (padding === 'SAME') {
    const pads = [0, 1].map((i): [number, number] => {
      const out = Math.ceil(size[i] / strides[i + 1]);
      const total = Math.max((out - 1) * strides[i + 1] + span[i] - size[i], 0);
      return [Math.floor(total / 2), total - Math.floor(total / 2)];
    });
    [oh, ow] = [0, 1].map((i) => Math.ceil(size[i] / strides[i + 1]));
    padded = TOP.pad(x, [[0, 0], pads[0], pads[1], [0, 0]], 'CONSTANT', -3.4e38);
  }
  if (oh <= 0 || ow <= 0) throw r.error('Dilation2D: the filter is larger than the input', `input ${size[0]}x${size[1]}, dilated filter ${span[0]}x${span[1]}`, 'a filter that fits', 'Use SAME padding or a smaller filter');
  const patches = image.extractPatches(padded, [1, fh, fw, 1], strides, rates, 'VALID');
  const windows = TOP.reshape(patches, [-1, oh, ow, fh, fw, c]);
  return [TOP.reduceMax(TOP.add(windows, f), [3, 4])];
}

/** BitwiseAnd on int32 from the 32 two's-complement bits (floor division is the arithmetic shift). */
function bitwiseAnd(r: ReadScope): Tensor[] {
  r.arity(2);
  const [x, y] = r.inputs();
  if (x.dtype !== 'int32' || y.dtype !== 'int32') throw r.error('BitwiseAnd takes int32 operands', `${x.dtype} and ${y.dtype}`, 'int32 and int32', 'Cast the operands to int32');
  const two = scalar(r, 2, 'int32');
  const bit = (t: Tensor, i: number): Tensor => math.floormod(math.floordiv(t, scalar(r, 2 ** i, 'int32')), two);
  let acc = TOP.multiply(bit(x, 0), bit(y, 0));
  for (let i = 1; i < 31; i++) acc = TOP.add(acc, TOP.multiply(TOP.multiply(bit(x, i), bit(y, i)), scalar(r, 2 ** i, 'int32')));
  const zero = scalar(r, 0, 'int32');
  const sign = TOP.cast(TOP.logicalAnd(TOP.less(x, zero), TOP.less(y, zero)), 'int32');
  return [TOP.add(acc, TOP.multiply(sign, scalar(r, -(2 ** 31), 'int32')))];
}

/** The number of segments of sorted segment ids: the last id + 1 (0 without ids), as a scalar int32 tensor. */
function segmentCount(r: ReadScope, ids: Tensor): Tensor {
  const withZero = TOP.concat([TOP.reshape(ids, [-1]), TOP.reshape(scalar(r, -1, 'int32'), [1])], 0);
  return TOP.add(TOP.reduceMax(withZero), scalar(r, 1, 'int32'));
}

/** SparseSegmentSum/Mean(data, indices, segment_ids[, num_segments]): rows of data gathered, summed (averaged) per segment. */
function sparseSegment(mean: boolean) {
  return (r: ReadScope): Tensor[] => {
    r.arity(3, 4);
    const [data, indices, ids] = r.inputs(0, 3);
    if (indices.dtype !== 'int32' || ids.dtype !== 'int32') throw r.error(`${r.node.op} takes integer indices and segment ids`, `${indices.dtype} and ${ids.dtype}`, 'int32 (or int64)', 'Fix the graph');
    const n = r.count === 4 ? TOP.reshape(r.input(3), []) : segmentCount(r, ids);
    const rows = TOP.gather(data, indices, 0);
    const sum = segmentSumWith(rows, ids, n);
    if (!mean) return [sum];
    const ones = TOP.onesLike(TOP.cast(ids, data.dtype));
    const count = TOP.maximum(segmentSumWith(ones, ids, n), scalar(r, 1, data.dtype));
    return [TOP.divide(sum, TOP.reshape(count, [-1, ...Array.from({ length: Math.max((data.rank ?? 1) - 1, 0) }, () => 1)]))];
  };
}

/** Row-major strides of a shape, as numbers. */
function stridesOf(shape: number[]): number[] {
  const out = shape.map(() => 1);
  for (let i = shape.length - 2; i >= 0; i--) out[i] = out[i + 1] * shape[i + 1];
  return out;
}

/** SparseReshape(indices, input_shape, new_shape): the indices of the same elements in new_shape (one -1 inferred). */
function sparseReshape(r: ReadScope): Tensor[] {
  r.arity(3);
  const from = r.numbers(1, 'input_shape');
  const want = r.numbers(2, 'new_shape');
  const total = from.reduce((a, b) => a * b, 1);
  const known = want.filter((d) => d !== -1).reduce((a, b) => a * b, 1);
  const unknown = want.filter((d) => d === -1).length;
  const to = want.map((d) => (d === -1 ? (known === 0 ? 0 : total / known) : d));
  if (unknown > 1 || to.some((d) => !Number.isInteger(d) || d < 0) || to.reduce((a, b) => a * b, 1) !== total) {
    throw r.error('SparseReshape cannot reshape these dense shapes', `[${from}] to [${want}]`, `a shape with ${total} elements and at most one -1`, 'Fix new_shape');
  }
  const idx = r.input(0);
  const linear = TOP.reduceSum(TOP.multiply(idx, TOP.reshape(intVector(r, stridesOf(from)), [1, from.length])), 1);
  const cols = stridesOf(to).map((s, j) => math.floormod(math.floordiv(linear, scalar(r, s, 'int32')), scalar(r, Math.max(to[j], 1), 'int32')));
  const out = cols.length === 0 ? TOP.reshape(linear, [-1, 0]) : TOP.stack(cols, 1);
  return [out, intVector(r, to)];
}

/** An int32 vector owned by the function being loaded. */
function intVector(r: ReadScope, values: number[]): Tensor {
  return (r as unknown as NodeReader).scope.ctx.constTensor({ dtype: 'int32', shape: [values.length], data: Int32Array.from(values) });
}

/**
 * SparseFillEmptyRows(indices, values, dense_shape, default_value): every row without an entry gets one at column 0
 * with default_value; entries stay in input order within a row, rows in order. Outputs the new indices and values,
 * the empty-row indicator and, per input entry, its position in the output. The placement is a segment sum over a
 * permutation (the output length is known only at run time), so values' gradient is a gather, as TF's.
 */
function sparseFillEmptyRows(r: ReadScope): Tensor[] {
  r.arity(4);
  const [indices, values] = r.inputs(0, 2);
  const shape = r.numbers(2, 'dense_shape');
  const dflt = r.input(3);
  const nRows = shape[0];
  const rank = shape.length;
  const rows = TOP.reshape(TOP.slice(indices, [0, 0], [-1, 1]), [-1]);
  const hot = TOP.oneHot(rows, nRows, { dtype: 'int32' });
  const counts = TOP.reduceSum(hot, 0);
  const empty = TOP.equal(counts, scalar(r, 0, 'int32'));
  const perRow = TOP.maximum(counts, scalar(r, 1, 'int32'));
  const offsets = TOP.cumsum(perRow, 0, { exclusive: true });
  const within = TOP.reduceSum(TOP.multiply(hot, TOP.cumsum(hot, 0, { exclusive: true })), 1);
  const pos = TOP.add(TOP.gather(offsets, rows, 0), within);
  const emptyRows = TOP.booleanMask(intVector(r, Array.from({ length: nRows }, (_, i) => i)), empty);
  const emptyPos = TOP.gather(offsets, emptyRows, 0);
  const emptyIdx = TOP.concat([TOP.reshape(emptyRows, [-1, 1]), TOP.zerosLike(TOP.tile(TOP.reshape(emptyRows, [-1, 1]), [1, rank - 1]))], 1);
  const keys = TOP.concat([pos, emptyPos], 0);
  const n = TOP.reduceSum(perRow);
  const outIdx = segmentSumWith(TOP.concat([indices, emptyIdx], 0), keys, n);
  const fill = TOP.add(TOP.zerosLike(TOP.cast(emptyRows, values.dtype)), dflt);
  const outVals = segmentSumWith(TOP.concat([values, fill], 0), keys, n);
  return [outIdx, outVals, empty, pos];
}

/** A record the eagerflow package registers (ef.strings' records), bound to the node's tensors. */
function stringRecord(name: string, params: (r: ReadScope) => object, arity: number) {
  return (r: ReadScope): Tensor[] => {
    r.arity(arity);
    const rec = allPrimitives().find((p) => p.name === name) as Primitive | undefined;
    if (rec === undefined) throw r.error(`${r.node.op} runs on the ef.strings record '${name}'`, 'no such record registered', 'the eagerflow package loaded', "Import 'eagerflow' (it registers the string records), not only @eagerflow/saving");
    if (r.input(0).dtype !== 'string') throw r.error(`${r.node.op} takes a string input`, `input '${r.refText(0)}' of dtype ${r.input(0).dtype}`, 'a string tensor', 'Fix the graph');
    return bind(rec, r.inputs(), params(r) as Params);
  };
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
  { ops: ['Dilation2D'], read: dilation2d },
  { ops: ['BitwiseAnd'], read: bitwiseAnd },
  { ops: ['SparseSegmentSum', 'SparseSegmentSumWithNumSegments'], read: sparseSegment(false) },
  { ops: ['SparseSegmentMean', 'SparseSegmentMeanWithNumSegments'], read: sparseSegment(true) },
  { ops: ['SparseReshape'], read: sparseReshape },
  { ops: ['SparseFillEmptyRows'], read: sparseFillEmptyRows },
  { ops: ['StaticRegexReplace'], read: stringRecord('string_regex_replace', (r) => ({ pattern: r.node.str('pattern'), rewrite: r.node.str('rewrite'), replaceGlobal: r.node.bool('replace_global', true) }), 1) },
  { ops: ['StringToHashBucketFast'], read: stringRecord('string_to_hash_bucket_fast', (r) => ({ numBuckets: r.node.int('num_buckets') }), 1) },
  { ops: ['StringSplit'], read: stringRecord('string_split_bytes', (r) => ({ skipEmpty: r.node.bool('skip_empty', true) }), 2) },
  {
    ops: ['StringNGrams'],
    read: stringRecord('string_ngrams', (r) => ({
      separator: r.node.str('separator', ' '), nGramWidths: r.node.ints('ngram_widths'), leftPad: r.node.str('left_pad', ''), rightPad: r.node.str('right_pad', ''),
      padWidth: r.node.int('pad_width', -1), preserveShortSequences: r.node.bool('preserve_short_sequences', false),
    }), 2),
  },
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
