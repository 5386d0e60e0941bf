// The ops the gradient rules of the records that ops.ts wraps call (binary, unary, compare, reduce, matmul, reshape,
// pad, mirror_pad, slice_concat_gather, segment_sum) and symbolic_dims.ts calls, late-bound: those record files import this
// table, not ops.ts, and ops.ts fills it when it loads (its wrappers are built from those records, so a direct
// import would be a circle). Gradient rules only run once an op has been called, and every op is reached through
// ops.ts (the core entry loads it), so the table is always full by then. The signatures are the ops' own: ops.ts
// fills the table with `satisfies RuleOps`, so a wrapper whose signature drifts from its entry here fails tsc.
import type { Tensor } from '../values/tensor';
import type { TensorLike } from '../values/convert';
import type { DType } from '../values/dtype';
import type { Primitive } from './primitive';

type Unary = (x: TensorLike) => Tensor;
type Binary = (x: TensorLike, y: TensorLike) => Tensor;
type Reduce = (x: TensorLike, axis?: number | number[] | null, keepDims?: boolean) => Tensor;

export interface RuleOps {
  add: Binary;
  sub: Binary;
  mul: Binary;
  /** RealDiv on operands of one float dtype. */
  div: Binary;
  pow: Binary;
  maximum: Binary;
  minimum: Binary;
  equal: Binary;
  less: Binary;
  greater: Binary;
  greaterEqual: Binary;
  lessEqual: Binary;
  neg: Unary;
  sign: Unary;
  log: Unary;
  square: Unary;
  sin: Unary;
  cos: Unary;
  sinh: Unary;
  cosh: Unary;
  zerosLike: Unary;
  onesLike: Unary;
  fill(dims: number[], value: number | boolean | string | Tensor, dtype?: DType): Tensor;
  where(condition: TensorLike, x: TensorLike, y: TensorLike): Tensor;
  reduceSum: Reduce;
  reduceMean: Reduce;
  matmul(a: TensorLike, b: TensorLike, transposeA?: boolean, transposeB?: boolean): Tensor;
  cast(x: TensorLike, dtype: DType): Tensor;
  reshape(x: TensorLike, shape: number[]): Tensor;
  transpose(x: TensorLike, perm?: readonly number[] | null): Tensor;
  expandDims(x: TensorLike, axis: number): Tensor;
  concat(values: TensorLike[], axis?: number): Tensor;
  stack(values: TensorLike[], axis?: number): Tensor;
  slice(x: TensorLike, begin: number | number[], size?: number | number[] | null): Tensor;
  /** Constant padding (zeros: the gradient of a slice). */
  pad(x: TensorLike, paddings: [number, number][], mode?: 'CONSTANT', constantValues?: number): Tensor;
  gather(params: TensorLike, indices: TensorLike, axis?: number): Tensor;
  unsortedSegmentSum(data: TensorLike, segmentIds: TensorLike, numSegments: number): Tensor;
  /** Broadcasts `x` to `like`'s shape (static when known, else at run time). */
  broadcastLike(x: Tensor, like: Tensor): Tensor;
  reshapeLike(x: Tensor, like: Tensor): Tensor;
  // The tensor forms of slice, pad, reshape and unsortedSegmentSum (sizes as int32 tensors), and shape(x), for
  // gradients traced with unknown dims.
  shapeOf(x: Tensor): Tensor;
  ints(v: readonly number[]): Tensor;
  sliceWith(x: Tensor, begin: Tensor, size: Tensor): Tensor;
  padWith(x: Tensor, paddings: Tensor, constantValue?: number): Tensor;
  reshapeWith(x: Tensor, dims: Tensor): Tensor;
  segmentSumWith(x: Tensor, ids: Tensor, numSegments: Tensor): Tensor;
}

/** The table the record files read as `o` (`import { ruleOps as o } from '../rule_ops'`); ops.ts fills it. */
export const ruleOps = {} as RuleOps;

/** Fills the table (ops.ts, once, when it loads). */
export function provideRuleOps(ops: RuleOps): void {
  Object.assign(ruleOps, ops);
}

/**
 * The records symbolic_dims.ts binds for Dim arithmetic (FloorDiv, FloorMod, Prod, Cumsum), late-bound the same way:
 * their files import ops.ts, and the gradient rules that use Dims live in files ops.ts imports. table.ts (which
 * imports every record file) fills it when it loads.
 */
export interface ShapeRecords {
  floordiv: Primitive;
  floormod: Primitive;
  prod: Primitive;
  cumsum: Primitive;
}

export const shapeRecords = {} as ShapeRecords;

/** Fills the Dim records (table.ts, once, when it loads). */
export function provideShapeRecords(r: ShapeRecords): void {
  Object.assign(shapeRecords, r);
}

/**
 * The complex64 records (signal/fft.ts) the gradient rules of complex multiply and exp bind for TF's conjugate
 * (dx = g * conj(y)), late-bound the same way: fft.ts imports ops.ts. table.ts fills it when it loads.
 */
export interface ComplexRecords {
  real: Primitive;
  imag: Primitive;
  complex: Primitive;
}

export const complexRecords = {} as ComplexRecords;

/** Fills the complex records (table.ts, once, when it loads). */
export function provideComplexRecords(r: ComplexRecords): void {
  Object.assign(complexRecords, r);
}
