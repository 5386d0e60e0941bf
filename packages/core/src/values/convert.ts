// Converting JS values, NDArrays, tfjs tensors and Variables into Tensors (ef.constant).
import * as backend from '../backend/backend';
import { DType, HostData, asDType, describe } from './dtype';
import { MAX_RANK, NDArray, Nested, Scalar, fillHost, flatten, inferDType, shapeSize } from './ndarray';
import { Tensor, lateOp } from './tensor';
import { TensorShape } from './shape';
import { argError, typeError } from '../errors/error_toolkit';

/** Bytes elements of a string tensor: a Uint8Array or nested arrays of them. */
export type NestedBytes = Uint8Array | NestedBytes[];

/** Anything an op accepts where it reads a tensor. */
export type TensorLike = Tensor | backend.TfTensor | NDArray | Nested | HostData | VariableLike | NestedBytes[] | TensorShape;

/** The part of Variable that conversion needs (avoids an import cycle). */
export interface VariableLike {
  readonly isVariable: true;
  readVariable(): Tensor;
}

export function isVariableLike(x: unknown): x is VariableLike {
  return typeof x === 'object' && x !== null && (x as VariableLike).isVariable === true;
}

function checkRepresentable(api: string, flat: readonly Scalar[], dtype: DType): void {
  for (const v of flat) {
    const ok =
      dtype === 'string' ? typeof v === 'string'
      : dtype === 'bool' ? typeof v === 'boolean' || v === 0 || v === 1
      : dtype === 'int32' ? (typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647) || typeof v === 'boolean'
      : typeof v === 'number' || typeof v === 'boolean';
    if (!ok) {
      throw typeError(api, `Cannot convert ${describe(v)} to a tensor of dtype ${dtype}`, describe(v), `a value representable as ${dtype}`, 'Pass a matching value or another dtype.');
    }
  }
}

function hostDType(d: ArrayBufferView): DType {
  if (d instanceof Int32Array) return 'int32';
  if (d instanceof Uint8Array) return 'bool';
  return 'float32';
}

/** A TypedArray's values as JS numbers (any element type: Float64Array, Int16Array, ...). */
function typedValues(api: string, d: ArrayBufferView): number[] {
  if (d instanceof DataView || d instanceof BigInt64Array || d instanceof BigUint64Array) {
    throw typeError(api, 'unsupported TypedArray', describe(d), 'a Float32Array, Int32Array, Uint8Array or another numeric TypedArray', 'Convert it to a Float32Array or Int32Array.');
  }
  return Array.from(d as unknown as ArrayLike<number>);
}

/** Host values of `dt` from a TypedArray, copying exactly when the storage type already matches. */
function fromTyped(api: string, d: ArrayBufferView, dt: DType): HostData {
  const same = (dt === 'float32' && d instanceof Float32Array) || (dt === 'int32' && d instanceof Int32Array) || (dt === 'bool' && d instanceof Uint8Array);
  if (same) return (d as Float32Array).slice() as HostData;
  const vals = typedValues(api, d);
  checkRepresentable(api, vals, dt);
  return fillHost(dt, vals);
}

/**
 * Creates an eager tensor.
 * @example
 * ef.constant([[1, 2], [3, 4]]).toString();
 * // <tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[1., 2.],\n       [3., 4.]], dtype=float32)>
 */
export function constant(value: TensorLike, dtype?: DType, shape?: number[]): Tensor {
  if (dtype !== undefined) dtype = asDType(dtype, 'constant');
  if (value instanceof TensorShape) value = shapeValues('constant', value);
  if (value instanceof Tensor || backend.isTfTensor(value) || isVariableLike(value)) {
    const t = value instanceof Tensor ? value : backend.isTfTensor(value) ? Tensor.fromTf(value) : value.readVariable();
    const c = dtype && dtype !== t.dtype ? lateOp('cast')(t, dtype) : t;
    const out = shape ? reshapeConst(c, shape) : c;
    // Intermediates die here: the cast when reshaped, a variable's read when cast or reshaped.
    if (c !== t && c !== out) c.dispose();
    if (isVariableLike(value) && t !== out) t.dispose();
    return out;
  }
  const bytes = bytesLeaves(value, dtype, shape);
  if (bytes !== null) return new Tensor(backend.makeBytesTf(bytes.flat, bytes.dims), 'string');
  let data: HostData;
  let dims: number[];
  let dt: DType;
  if (value instanceof NDArray) {
    dt = dtype ?? value.dtype;
    data = dt === value.dtype ? (value.data.slice() as HostData) : representable('constant', value.toArray(), dt);
    dims = value.shape;
  } else if (ArrayBuffer.isView(value)) {
    dt = dtype ?? hostDType(value);
    data = fromTyped('constant', value, dt);
    dims = [data.length];
  } else {
    const { flat, dims: d } = flatten(value as Nested, 'constant');
    dt = dtype ?? inferDType(flat);
    checkRepresentable('constant', flat, dt);
    data = fillHost(dt, flat);
    dims = d;
  }
  if (shape) {
    const n = shapeSize(shape);
    if (data.length === (dt === 'complex64' ? 2 : 1) && n !== 1) data = fillHost(dt, new Array<Scalar>(n).fill((data as unknown as Scalar[])[0]));
    else if (data.length !== n) throw argError('constant', 'value does not match the requested shape', `${data.length} elements`, `${n} elements for shape [${shape.join(', ')}]`, 'Pass a value with as many elements as the shape, or a scalar to fill.');
    dims = shape;
  }
  return new Tensor(backend.makeTf(data, dims, dt), dt);
}

/**
 * String tensors hold bytes: a Uint8Array with dtype 'string' is one bytes scalar, and nested arrays whose
 * leaves are Uint8Arrays (no dtype, or 'string') are a string tensor of those bytes. Null for any other value.
 */
function bytesLeaves(value: unknown, dtype: DType | undefined, shape: number[] | undefined): { flat: Uint8Array[]; dims: number[] } | null {
  const api = 'constant';
  let dims: number[];
  const flat: Uint8Array[] = [];
  if (value instanceof Uint8Array && dtype === 'string') {
    dims = [];
    flat.push(new Uint8Array(value));
  } else {
    if (!Array.isArray(value) || (dtype !== undefined && dtype !== 'string')) return null;
    dims = [];
    let probe: unknown = value;
    while (Array.isArray(probe) && dims.length <= MAX_RANK) {
      dims.push(probe.length);
      probe = probe[0];
    }
    if (!(probe instanceof Uint8Array)) return null;
    const walk = (v: unknown, axis: number, where: string): void => {
      if (axis === dims.length) {
        if (v instanceof Uint8Array) flat.push(new Uint8Array(v));
        else if (typeof v === 'string') flat.push(new TextEncoder().encode(v));
        else throw typeError(api, `mixed nested array at ${where || 'top level'}`, describe(v), 'a Uint8Array (or string) like the first element of a bytes tensor', 'Make every element bytes (Uint8Array) or a string.');
        return;
      }
      if (!Array.isArray(v) || v.length !== dims[axis]) {
        throw typeError(api, `ragged nested array at ${where || 'top level'}`, Array.isArray(v) ? `length ${v.length}` : describe(v), `length ${dims[axis]}`, 'Make every row the same length.');
      }
      v.forEach((x, i) => walk(x, axis + 1, `${where}[${i}]`));
    };
    walk(value, 0, '');
  }
  if (shape) {
    const n = shapeSize(shape);
    if (flat.length === 1 && n !== 1) return { flat: Array.from({ length: n }, () => new Uint8Array(flat[0])), dims: shape };
    if (flat.length !== n) throw argError(api, 'value does not match the requested shape', `${flat.length} elements`, `${n} elements for shape [${shape.join(', ')}]`, 'Pass a value with as many elements as the shape, or a scalar to fill.');
    dims = shape;
  }
  return { flat, dims };
}

/** A TensorShape as tensor values (TF converts a fully defined shape to an int32 vector). */
function shapeValues(api: string, s: TensorShape): Int32Array {
  if (!s.isFullyDefined()) {
    throw argError(api, 'cannot convert a partially known TensorShape to a tensor', s.toString(), 'a fully defined shape', 'Use ef.shape(t) for the run-time shape.');
  }
  return Int32Array.from(s.dims as number[]);
}

/** Host values of `dt` from nested JS values, or a TypeError when one is not representable. */
function representable(api: string, nested: Nested, dt: DType): HostData {
  const flat = flatten(nested, api).flat;
  checkRepresentable(api, flat, dt);
  return fillHost(dt, flat);
}

/** ef.constant(tensor, dtype, shape): reshape, or fill the shape from a one-element tensor. */
function reshapeConst(t: Tensor, shape: number[]): Tensor {
  const n = shapeSize(shape);
  const x = t.concrete('constant');
  if (x.size === n) return Tensor.fromTf(backend.reshapeTf(x, shape));
  if (x.size === 1) return Tensor.fromTf(backend.fillFromTf(x, shape));
  throw argError('constant', 'value does not match the requested shape', `${x.size} elements`, `${n} elements for shape [${shape.join(', ')}]`, 'Pass a value with as many elements as the shape, or a scalar to fill.');
}

/**
 * TF's `tf.convert_to_tensor`: a Tensor as it is (a different requested dtype is an error, not a cast),
 * anything else converted; `dtypeHint` is used only when it fits (JS numbers to int32 when integral).
 * @example
 * ef.convertToTensor([1, 2], 'int32').dtype; // 'int32'
 */
export function convertToTensor(value: TensorLike, dtype?: DType | null, dtypeHint?: DType | null): Tensor {
  const want = dtype === undefined || dtype === null ? null : asDType(dtype, 'convertToTensor');
  if (value instanceof Tensor || backend.isTfTensor(value) || isVariableLike(value)) {
    const t = value instanceof Tensor ? value : backend.isTfTensor(value) ? Tensor.fromTf(value) : value.readVariable();
    if (want !== null && want !== t.dtype) {
      if (isVariableLike(value)) t.dispose();
      throw argError('convertToTensor', `Tensor conversion requested dtype ${want} for Tensor with dtype ${t.dtype}`, t.dtype, want, `Use ef.cast(x, '${want}') to change the dtype.`);
    }
    return t;
  }
  if (want !== null) return constant(value, want);
  if (dtypeHint !== undefined && dtypeHint !== null) {
    try {
      return constant(value, asDType(dtypeHint, 'convertToTensor'));
    } catch {
      // TF: a hint that does not fit is ignored.
    }
  }
  return constant(value);
}

/** A converted op argument; `temp` marks tensors the op created and must dispose. */
export interface Converted {
  t: Tensor;
  temp: boolean;
}

/** Converts one op argument; raw JS values take `hint`'s dtype (TensorFlow's rule for Python scalars). */
/**
 * Converts one op argument. With `poolScalars` (ops that only feed the value to a kernel), a JS
 * number or boolean becomes a shared pooled scalar instead of a fresh upload; never for values a
 * user function could receive or return.
 */
export function convert(op: string, x: TensorLike, hint?: DType, poolScalars = false): Converted {
  if (x instanceof Tensor) return { t: x, temp: false };
  // Every read makes a new tensor (an Identity of the current value): the op must release it.
  if (isVariableLike(x)) return { t: x.readVariable(), temp: true };
  if (backend.isTfTensor(x)) return { t: Tensor.fromTf(x), temp: false };
  if (x instanceof TensorShape) return { t: constant(shapeValues(op, x)), temp: true };
  if (x === undefined || x === null || typeof x === 'function') {
    throw typeError(op, 'expected a tensor-like argument', describe(x), 'a Tensor, number, boolean, string, nested array, TypedArray or NDArray', 'Convert the value to one of these first.');
  }
  if (poolScalars && (typeof x === 'number' || typeof x === 'boolean')) {
    const pooled = pooledScalarFor(x, hint);
    if (pooled !== null) return { t: weakIfNumbers(Tensor.fromTf(pooled), x, hint), temp: false };
  }
  if (hint !== undefined && !(x instanceof NDArray) && !ArrayBuffer.isView(x)) {
    return { t: constant(x as Nested, hint), temp: true };
  }
  return { t: weakIfNumbers(constant(x as Nested), x, hint), temp: true };
}

/**
 * JS numbers an op converts with no dtype to follow are weakly typed float32 (JAX's rule; docs/tf-idioms.md):
 * they take the dtype of the strong operand they meet. An explicit ef.constant is strong, as jnp.array is.
 */
function weakIfNumbers(t: Tensor, x: unknown, hint: DType | undefined): Tensor {
  if (hint === undefined && t.dtype === 'float32' && (typeof x === 'number' || Array.isArray(x))) t.weak = true;
  return t;
}

/** A pooled scalar when `x` is exactly representable in the dtype it converts to; else null. */
function pooledScalarFor(x: number | boolean, hint: DType | undefined): backend.TfTensor | null {
  const dtype = hint ?? (typeof x === 'boolean' ? 'bool' : 'float32');
  if (dtype === 'float32' && typeof x === 'number') return backend.pooledScalar(x, dtype);
  if (dtype === 'int32' && typeof x === 'number' && Number.isInteger(x) && x >= -2147483648 && x <= 2147483647) return backend.pooledScalar(x, dtype);
  if (dtype === 'bool' && typeof x === 'boolean') return backend.pooledScalar(x, dtype);
  return null;
}

export function release(c: Converted): void {
  if (c.temp) c.t.dispose();
}

/** The dtype an argument would have if it is already a tensor (for hints). */
export function dtypeOf(x: unknown): DType | undefined {
  if (x instanceof Tensor) return x.dtype;
  if (backend.isTfTensor(x)) return x.dtype as DType;
  if (isVariableLike(x)) return (x as unknown as { dtype: DType }).dtype;
  if (x instanceof NDArray) return x.dtype;
  return undefined;
}
