// ef.SparseTensor and ef.sparse: TF's tf.sparse.SparseTensor ({indices, values, denseShape}; int32 indices by
// the dtype contract where TF has int64) and the ops issue 28/30 need: toDense, fromDense, add, sparseDenseMatmul.
// Built from ef ops (scatterNd, gather, unsortedSegmentSum), so sparseDenseMatmul differentiates like TF's.
import { pyFunction } from '@eagerflow/callbacks';
import { TOP, Tensor, TensorLike, argError, constant, describe, tidy, typeError } from '@eagerflow/core';

const { cast, gather, gatherNd, multiply, notEqual, reshape, scatterNd, transpose, unsortedSegmentSum, add: denseAdd, expandDims, subtract } = TOP;
const where = TOP.where as (condition: TensorLike) => Tensor;

function asTensor(x: TensorLike, dtype?: 'int32'): Tensor {
  return x instanceof Tensor ? x : constant(x, dtype);
}

/** What new ef.SparseTensor takes: TF's three components. */
export interface SparseTensorInit {
  indices: TensorLike;
  values: TensorLike;
  denseShape: TensorLike;
}

/**
 * A sparse tensor: the `values` at `indices` (an [N, rank] int32 matrix, row-major order) of a tensor of shape
 * `denseShape`; everything else is zero (or the default given to toDense).
 * @example
 * const sp = new ef.SparseTensor({ indices: [[0, 0], [1, 2]], values: [1, 2], denseShape: [3, 4] });
 * ef.sparse.toDense(sp).arraySync(); // [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]
 */
export class SparseTensor {
  readonly indices: Tensor;
  readonly values: Tensor;
  readonly denseShape: Tensor;

  constructor(init: SparseTensorInit | TensorLike, values?: TensorLike, denseShape?: TensorLike) {
    const api = 'ef.SparseTensor';
    const o = values === undefined && typeof init === 'object' && init !== null && !Array.isArray(init) && !(init instanceof Tensor) && 'indices' in (init as object)
      ? (init as SparseTensorInit)
      : { indices: init as TensorLike, values: values as TensorLike, denseShape: denseShape as TensorLike };
    if (o.values === undefined || o.denseShape === undefined) {
      throw typeError(api, 'expected indices, values and denseShape', describe(init), '{indices, values, denseShape} or (indices, values, denseShape)', 'Pass all three components.');
    }
    const indices = asTensor(o.indices, 'int32');
    const vals = asTensor(o.values);
    const shape = asTensor(o.denseShape, 'int32');
    const n = indices.dims?.[0];
    if (indices.dtype !== 'int32' || indices.rank !== 2 || shape.dtype !== 'int32' || shape.rank !== 1) {
      throw argError(api, 'indices must be an int32 [N, rank] matrix and denseShape an int32 vector', `indices ${indices.dtype} of shape ${indices.shape}, denseShape ${shape.dtype} of shape ${shape.shape}`, 'int32 [N, rank] and int32 [rank]', 'Pass e.g. indices [[0, 1]] and denseShape [2, 3].');
    }
    if (vals.rank !== 1 || (n !== null && n !== undefined && vals.dims?.[0] !== null && vals.dims?.[0] !== n) || (indices.dims?.[1] !== null && shape.dims?.[0] !== null && indices.dims?.[1] !== shape.dims?.[0])) {
      throw argError(api, 'values must be a vector with one value per index row, and denseShape as long as each index row', `indices of shape ${indices.shape}, values of shape ${vals.shape}, denseShape of shape ${shape.shape}`, 'indices [N, rank], values [N], denseShape [rank]', 'Make the components agree.');
    }
    this.indices = indices;
    this.values = vals;
    this.denseShape = shape;
  }

  get dtype(): string {
    return this.values.dtype;
  }

  /** The dense shape when known on the host (eager), else null. */
  shapeOrNull(): number[] | null {
    return this.denseShape.isSymbolic ? null : Array.from(this.denseShape.dataSync() as Int32Array);
  }

  /** Releases the three component tensors. */
  dispose(): void {
    this.indices.dispose();
    this.values.dispose();
    this.denseShape.dispose();
  }

  /** `SparseTensor(indices=..., values=..., dense_shape=...)`, as TF prints one. */
  toString(): string {
    return `SparseTensor(indices=${this.indices}, values=${this.values}, dense_shape=${this.denseShape})`;
  }
}

function isSparse(x: unknown): x is SparseTensor {
  return x instanceof SparseTensor;
}

function staticShape(api: string, sp: SparseTensor): number[] {
  const s = sp.shapeOrNull();
  if (s === null) throw argError(api, 'needs the dense shape on the host', 'a SparseTensor whose denseShape is symbolic (inside a trace)', 'an eager SparseTensor', 'Call it eagerly, or with a static shape (e.g. FixedLenFeature instead of VarLenFeature inside Dataset.map).');
  return s;
}

/**
 * The dense tensor: values at their indices, `defaultValue` (0, '' for strings) elsewhere. Duplicate indices
 * are an InvalidArgumentError, as TF's validate_indices.
 * @example
 * const sp = new ef.SparseTensor({ indices: [[1]], values: [5], denseShape: [3] });
 * ef.sparse.toDense(sp, { defaultValue: -1 }).arraySync(); // [-1, 5, -1]
 */
export function toDense(sp: SparseTensor, options: { defaultValue?: number | string } = {}): Tensor {
  const api = 'ef.sparse.toDense';
  if (!isSparse(sp)) throw typeError(api, 'expected a SparseTensor', describe(sp), 'an ef.SparseTensor', 'Pass e.g. the VarLenFeature result of parseExample.');
  if (sp.indices.isSymbolic || sp.values.isSymbolic || sp.denseShape.isSymbolic) {
    // Inside a trace (Dataset.map over parsed VarLenFeatures): densify per call on the host.
    const rank = sp.denseShape.dims?.[0] ?? null;
    const out = pyFunction((i: Tensor, v: Tensor, d: Tensor) => toDense(new SparseTensor({ indices: i, values: v, denseShape: d }), options), [sp.indices, sp.values, sp.denseShape], [sp.values.dtype]) as Tensor[];
    if (rank !== null) out[0].setShape(new Array<null>(rank).fill(null));
    return out[0];
  }
  const shape = staticShape(api, sp);
  const idx = sp.indices.arraySync() as number[][];
  const size = shape.reduce((a, b) => a * b, 1);
  const linear = idx.map((row, k) => {
    let at = 0;
    row.forEach((v, d) => {
      if (!Number.isInteger(v) || v < 0 || v >= shape[d]) throw argError(api, `index ${k} [${row.join(', ')}] is out of bounds for dense shape [${shape.join(', ')}]`, `${v} on axis ${d}`, `an integer in [0, ${shape[d]})`, 'Fix the indices or the dense shape');
      at = at * shape[d] + v;
    });
    return at;
  });
  if (new Set(linear).size !== linear.length) throw argError(api, 'indices repeat', `${linear.length} index rows, ${new Set(linear).size} distinct`, 'each at most once', 'Combine duplicates first');
  if (sp.dtype === 'string') {
    const bytes = sp.values.bytes();
    const dflt = new TextEncoder().encode(String(options.defaultValue ?? ''));
    const out: Uint8Array[] = Array.from({ length: size }, () => dflt);
    linear.forEach((at, k) => {
      out[at] = bytes[k];
    });
    return constant(out, 'string', shape);
  }
  const dflt = options.defaultValue ?? 0;
  if (typeof dflt !== 'number') throw typeError(api, 'defaultValue must be a number for numeric values', describe(dflt), 'a number', 'Pass e.g. 0.');
  return tidy(() => {
    const scattered = scatterNd(sp.indices, dflt === 0 ? sp.values : subtract(sp.values, dflt), shape);
    return dflt === 0 ? scattered : denseAdd(scattered, constant(dflt, sp.values.dtype));
  });
}

/**
 * The non-zero entries of a dense tensor as a SparseTensor (row-major order).
 * @example
 * const sp = ef.sparse.fromDense(ef.constant([[0, 3], [4, 0]]));
 * sp.indices.arraySync(); // [[0, 1], [1, 0]]
 * sp.values.arraySync(); // [3, 4]
 */
export function fromDense(t: TensorLike): SparseTensor {
  const x = asTensor(t);
  const [indices, values] = tidy(() => {
    const zero = x.dtype === 'string' ? constant('') : constant(0, x.dtype);
    const idx = where(notEqual(x, zero));
    return [idx, gatherNd(x, idx)];
  });
  if (x !== t) x.dispose();
  return new SparseTensor({ indices, values, denseShape: constant(x.shape.dims as number[], 'int32') });
}

/**
 * Sum of two SparseTensors (a SparseTensor, duplicate positions summed, indices in row-major order), or of a
 * SparseTensor and a dense tensor (a dense tensor), as tf.sparse.add.
 * @example
 * const a = new ef.SparseTensor({ indices: [[0, 0]], values: [1], denseShape: [2, 2] });
 * const b = new ef.SparseTensor({ indices: [[0, 0], [1, 1]], values: [2, 5], denseShape: [2, 2] });
 * ef.sparse.toDense(ef.sparse.add(a, b) as ef.SparseTensor).arraySync(); // [[3, 0], [0, 5]]
 * (ef.sparse.add(a, ef.ones([2, 2])) as ef.Tensor).arraySync(); // [[2, 1], [1, 1]]
 */
export function add(a: SparseTensor | TensorLike, b: SparseTensor | TensorLike): SparseTensor | Tensor {
  const api = 'ef.sparse.add';
  if (!isSparse(a) && isSparse(b)) return add(b, a);
  if (!isSparse(a)) throw typeError(api, 'at least one argument must be a SparseTensor', describe(a), 'an ef.SparseTensor', 'Use ef.add for two dense tensors.');
  if (!isSparse(b)) {
    const dense = toDense(a);
    try {
      return denseAdd(dense, b as TensorLike);
    } finally {
      dense.dispose();
    }
  }
  const sa = staticShape(api, a);
  const sb = staticShape(api, b);
  if (sa.length !== sb.length || sa.some((d, i) => d !== sb[i])) throw argError(api, 'the dense shapes differ', `[${sa.join(', ')}] and [${sb.join(', ')}]`, 'equal dense shapes', 'Add SparseTensors of one shape.');
  if (a.dtype !== b.dtype) throw typeError(api, 'the value dtypes differ', `${a.dtype} and ${b.dtype}`, 'one dtype', 'Cast one of them.');
  const sums = new Map<number, number>();
  const rows = new Map<number, number[]>();
  for (const sp of [a, b]) {
    const idx = sp.indices.arraySync() as number[][];
    const vals = Array.from(sp.values.dataSync() as ArrayLike<number>);
    idx.forEach((row, k) => {
      const at = row.reduce((acc, v, d) => acc * sa[d] + v, 0);
      sums.set(at, (sums.get(at) ?? 0) + vals[k]);
      rows.set(at, row);
    });
  }
  const keys = Array.from(sums.keys()).sort((x, y) => x - y);
  const indices = keys.length === 0 ? constant(new Int32Array(0), 'int32', [0, sa.length]) : constant(keys.map((k) => rows.get(k) as number[]), 'int32');
  return new SparseTensor({ indices, values: constant(keys.map((k) => sums.get(k) as number), a.dtype as 'float32' | 'int32', [keys.length]), denseShape: constant(sa, 'int32') });
}

/**
 * `sp` (a rank-2 SparseTensor) times a dense matrix, as tf.sparse.sparse_dense_matmul; `adjointA`/`adjointB`
 * transpose an operand. Differentiable in the dense matrix and in the sparse values.
 * @example
 * const sp = new ef.SparseTensor({ indices: [[0, 1], [1, 0]], values: [2, 3], denseShape: [2, 2] });
 * ef.sparse.sparseDenseMatmul(sp, ef.constant([[1, 2], [3, 4]])).arraySync(); // [[6, 8], [3, 6]]
 */
export function sparseDenseMatmul(sp: SparseTensor, b: TensorLike, options: { adjointA?: boolean; adjointB?: boolean } = {}): Tensor {
  const api = 'ef.sparse.sparseDenseMatmul';
  if (!isSparse(sp)) throw typeError(api, 'the first argument must be a SparseTensor', describe(sp), 'an ef.SparseTensor', 'Use ef.matmul for dense matrices.');
  const shape = staticShape(api, sp);
  if (shape.length !== 2) throw argError(api, 'the SparseTensor must be a matrix', `dense shape [${shape.join(', ')}]`, 'rank 2', 'Reshape it to a matrix.');
  return tidy(() => {
    const dense = options.adjointB ? transpose(asTensor(b)) : asTensor(b);
    const [rowsOut, k] = options.adjointA ? [shape[1], shape[0]] : shape;
    if (dense.rank !== 2 || (dense.dims?.[0] !== null && dense.dims?.[0] !== k)) {
      throw argError(api, 'the inner dimensions do not match', `a sparse [${rowsOut}, ${k}] (after adjointA) times a dense of shape ${dense.shape}`, `a dense matrix with ${k} rows (after adjointB)`, 'Check the operands and the adjoint flags.');
    }
    const rowCol = cast(sp.indices, 'int32');
    const rows = reshape(gather(rowCol, [options.adjointA ? 1 : 0], 1), [-1]);
    const cols = reshape(gather(rowCol, [options.adjointA ? 0 : 1], 1), [-1]);
    const picked = multiply(gather(dense, cols), expandDims(sp.values, 1));
    return unsortedSegmentSum(picked, rows, rowsOut);
  });
}

