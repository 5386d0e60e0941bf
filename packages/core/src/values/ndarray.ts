// NDArray: the host array that numpyFunction callbacks receive (row-major data, shape, dtype).
import { DTYPES, DType, HostData, allocHost, describe, isDType } from './dtype';
import { typeError } from '../errors/error_toolkit';

export type Scalar = number | boolean | string;
export type Nested = Scalar | Nested[];

/** A row-major host array, EagerFlow's stand-in for numpy.ndarray. */
export class NDArray {
  readonly dtype: DType;
  readonly shape: number[];
  readonly data: HostData;

  constructor(data: HostData, shape: number[], dtype: DType) {
    const size = shapeSize(shape);
    const expected = dtype === 'complex64' ? 2 * size : size;
    if (data.length !== expected) {
      throw new RangeError(`NDArray: data length does not match the shape (got ${data.length} elements for shape [${shape.join(',')}], expected ${expected}).`);
    }
    this.data = data;
    this.shape = shape.slice();
    this.dtype = dtype;
  }

  get size(): number {
    return shapeSize(this.shape);
  }

  get rank(): number {
    return this.shape.length;
  }

  private offset(idx: number[]): number {
    if (idx.length !== this.shape.length) {
      throw new RangeError(`NDArray.get: wrong number of indices (got ${idx.length}, expected ${this.shape.length}).`);
    }
    let off = 0;
    for (let i = 0; i < idx.length; i++) {
      const k = idx[i] < 0 ? idx[i] + this.shape[i] : idx[i];
      if (!Number.isInteger(k) || k < 0 || k >= this.shape[i]) {
        throw new RangeError(`NDArray: index ${idx[i]} is out of bounds for axis ${i} with size ${this.shape[i]}.`);
      }
      off = off * this.shape[i] + k;
    }
    return off;
  }

  get(...idx: number[]): Scalar {
    return fromStorage(this.dtype, this.data[this.offset(idx)]);
  }

  set(value: Scalar, ...idx: number[]): void {
    (this.data as unknown as Scalar[])[this.offset(idx)] = toStorage(this.dtype, value);
  }

  /** Applies `fn` to every element; the result keeps the shape (dtype from the first result unless given). */
  map(fn: (v: Scalar, i: number) => Scalar, dtype?: DType): NDArray {
    const vals: Scalar[] = [];
    for (let i = 0; i < this.size; i++) vals.push(fn(fromStorage(this.dtype, this.data[i]), i));
    const dt = dtype ?? (vals.length ? inferScalarDType(vals[0], this.dtype) : this.dtype);
    return new NDArray(fillHost(dt, vals), this.shape, dt);
  }

  toArray(): Nested {
    const flat: Scalar[] = [];
    for (let i = 0; i < this.size; i++) flat.push(fromStorage(this.dtype, this.data[i]));
    return nest(flat, this.shape);
  }

  copy(): NDArray {
    return new NDArray(this.data.slice() as HostData, this.shape, this.dtype);
  }

  toString(): string {
    return `NDArray(shape=[${this.shape.join(',')}], dtype=${this.dtype}, ${JSON.stringify(this.toArray())})`;
  }
}

export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

function fromStorage(dtype: DType, v: unknown): Scalar {
  return dtype === 'bool' ? v !== 0 : (v as Scalar);
}

function toStorage(dtype: DType, v: Scalar): Scalar {
  if (dtype === 'bool') return v ? 1 : 0;
  if (dtype === 'string') return String(v);
  return Number(v);
}

function inferScalarDType(v: Scalar, fallback: DType): DType {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return fallback === 'int32' && Number.isInteger(v) ? 'int32' : 'float32';
}

/** Fills a new host buffer of `dtype` from JS scalars. */
export function fillHost(dtype: DType, vals: readonly Scalar[]): HostData {
  const out = allocHost(dtype, vals.length);
  // complex64 storage interleaves (real, imag): a JS number is the real part.
  if (dtype === 'complex64') for (let i = 0; i < vals.length; i++) (out as Float32Array)[2 * i] = Number(vals[i]);
  else for (let i = 0; i < vals.length; i++) (out as unknown as Scalar[])[i] = toStorage(dtype, vals[i]);
  return out;
}

/** Reshapes a flat list into nested arrays. */
export function nest<T>(flat: T[], shape: readonly number[]): Nested {
  if (shape.length === 0) return flat[0] as unknown as Nested;
  const build = (offset: number, axis: number): Nested[] => {
    const n = shape[axis];
    const stride = shapeSize(shape.slice(axis + 1));
    const out: Nested[] = [];
    for (let i = 0; i < n; i++) {
      out.push(axis === shape.length - 1 ? (flat[offset + i] as unknown as Nested) : build(offset + i * stride, axis + 1));
    }
    return out;
  };
  return build(0, 0);
}

/**
 * Builds an NDArray from nested arrays, a TypedArray or a scalar.
 * @example
 * const a = ef.ndarray([[1, 2], [3, 4]]);
 * a.get(1, 0); // 3
 */
export function ndarray(data: Nested | HostData | NDArray, shape?: number[], dtype?: DType): NDArray {
  if (data instanceof NDArray) return dtype && dtype !== data.dtype ? data.map((v) => v, dtype) : data;
  if (dtype !== undefined && !isDType(dtype)) throw typeError('ndarray', 'unknown dtype', describe(dtype), `one of ${DTYPES.join(', ')}`, "Pass a dtype name such as 'float32'.");
  if (ArrayBuffer.isView(data)) {
    const dt: DType = dtype ?? (data instanceof Int32Array ? 'int32' : data instanceof Uint8Array ? 'bool' : 'float32');
    const host = dt === dtypeOfHost(data) ? (data as HostData) : fillHost(dt, Array.from(data as ArrayLike<number>));
    return new NDArray(host, shape ?? [host.length], dt);
  }
  const { flat, dims } = flatten(data as Nested, 'ndarray');
  const dt = dtype ?? inferDType(flat);
  const outShape = shape ?? dims;
  return new NDArray(fillHost(dt, flat), outShape, dt);
}

function dtypeOfHost(d: ArrayBufferView): DType | null {
  if (d instanceof Float32Array) return 'float32';
  if (d instanceof Int32Array) return 'int32';
  if (d instanceof Uint8Array) return 'bool';
  return null;
}

/** The dtype JS scalars default to: booleans -> bool, strings -> string, numbers -> float32. */
export function inferDType(flat: readonly Scalar[]): DType {
  if (flat.length === 0) return 'float32';
  const t = typeof flat[0];
  if (t === 'boolean') return 'bool';
  if (t === 'string') return 'string';
  return 'float32';
}

/**
 * TensorFlow's largest rank (TensorShape's kMaxDims): deeper nesting is refused, never recursed into.
 * @example
 * ef.internal.MAX_RANK; // 254
 */
export const MAX_RANK = 254;

/**
 * Flattens a nested JS array, checking it is rectangular and of one scalar kind. Iterative: an
 * array nested deeper than MAX_RANK (or containing itself) is a TypeError, not a stack overflow.
 */
export function flatten(value: Nested, api: string): { flat: Scalar[]; dims: number[] } {
  const dims: number[] = [];
  let probe: unknown = value;
  while (Array.isArray(probe)) {
    if (dims.length === MAX_RANK) {
      throw typeError(api, 'nested array is too deep', `more than ${MAX_RANK} levels of nesting`, `a rank of at most ${MAX_RANK}`, 'A self-referencing array has no end: pass rectangular nested arrays of scalars.');
    }
    dims.push(probe.length);
    probe = probe[0];
  }
  const flat: Scalar[] = [];
  const kind = probe === undefined ? undefined : typeof probe;
  const rank = dims.length;
  // rows[a] is the array being read at axis a; at[a] the index read next in it.
  const rows: unknown[][] = new Array(rank);
  const at: number[] = new Array(rank).fill(0);
  const where = (axis: number): string => at.slice(0, axis).map((i) => `[${i - 1}]`).join('') || 'top level';
  const row = (v: unknown, axis: number): unknown[] => {
    if (!Array.isArray(v) || v.length !== dims[axis]) {
      throw typeError(api, `ragged nested array at ${where(axis)}`, Array.isArray(v) ? `length ${v.length}` : describe(v), `length ${dims[axis]}`, 'Make every row the same length.');
    }
    return v;
  };
  const scalar = (v: unknown, axis: number): void => {
    if (Array.isArray(v) || (kind !== undefined && typeof v !== kind) || !isScalar(v)) {
      throw typeError(api, `ragged or mixed nested array at ${where(axis)}`, describe(v), `a ${kind ?? 'scalar'} to match shape [${dims.join(',')}]`, 'Make every row the same length and type.');
    }
    flat.push(v);
  };
  if (rank === 0) {
    scalar(value, 0);
    return { flat, dims };
  }
  rows[0] = row(value, 0);
  let axis = 0;
  while (axis >= 0) {
    if (at[axis] === dims[axis]) {
      at[axis] = 0;
      axis--;
      continue;
    }
    const v = rows[axis][at[axis]++];
    if (axis === rank - 1) scalar(v, rank);
    else {
      rows[axis + 1] = row(v, axis + 1);
      axis++;
    }
  }
  return { flat, dims };
}

function isScalar(v: unknown): v is Scalar {
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string';
}
