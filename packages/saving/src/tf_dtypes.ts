// TF's dtypes <-> EagerFlow's, for tensors read from and written to TF's files (API.md section 16): dtypes tfjs lacks
// load as the nearest one EagerFlow has when every value fits (int64, uint32, uint16, int16, int8, uint8 -> int32;
// float64, float16, bfloat16 -> float32), else an InvalidArgumentError naming the variable or node.
import { DType, FLOAT32_MAX, HostData, NDArray, Tensor, UnimplementedError, argError, internalError, opError } from '@eagerflow/core';
import { BundleTensor, DT } from './tensor_bundle';

const utf8 = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** EagerFlow's dtype for a TF DataType number, or null when it has none. */
function efDTypeOf(dtype: number): DType | null {
  switch (dtype) {
    case DT.FLOAT: case DT.DOUBLE: case DT.HALF: case DT.BFLOAT16: return 'float32';
    case DT.INT32: case DT.INT64: case DT.UINT32: case DT.UINT16: case DT.INT16: case DT.INT8: case DT.UINT8: case DT.UINT64: return 'int32';
    case DT.BOOL: return 'bool';
    case DT.STRING: return 'string';
    case DT.COMPLEX64: return 'complex64';
    default: return null;
  }
}

/** TF's DataType number for an EagerFlow dtype. */
function tfDTypeOf(dtype: DType): number {
  return { float32: DT.FLOAT, int32: DT.INT32, bool: DT.BOOL, string: DT.STRING, complex64: DT.COMPLEX64 }[dtype];
}

/** TF's name of a DataType number ('float64', 'int64', ...), for messages. */
export function tfDTypeName(dtype: number): string {
  const names: Record<number, string> = {
    1: 'float32', 2: 'float64', 3: 'int32', 4: 'uint8', 5: 'int16', 6: 'int8', 7: 'string', 8: 'complex64', 9: 'int64', 10: 'bool',
    14: 'bfloat16', 17: 'uint16', 18: 'complex128', 19: 'float16', 20: 'resource', 21: 'variant', 22: 'uint32', 23: 'uint64',
  };
  return names[dtype] ?? `DataType ${dtype}`;
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

/**
 * Element `i` of TF dtype `dtype` (a DataType number: the real fixed-width ones but bfloat16) in little-endian bytes:
 * 64-bit integers as bigint, everything else as a number (float16 widened, bool 0/1).
 */
export function tfValueAt(view: DataView, dtype: number, i: number): number | bigint {
  switch (dtype) {
    case DT.FLOAT: return view.getFloat32(4 * i, true);
    case DT.DOUBLE: return view.getFloat64(8 * i, true);
    case DT.HALF: return halfToFloat(view.getUint16(2 * i, true));
    case DT.INT32: return view.getInt32(4 * i, true);
    case DT.UINT32: return view.getUint32(4 * i, true);
    case DT.INT16: return view.getInt16(2 * i, true);
    case DT.UINT16: return view.getUint16(2 * i, true);
    case DT.INT8: return view.getInt8(i);
    case DT.UINT8: case DT.BOOL: return view.getUint8(i);
    case DT.INT64: return view.getBigInt64(8 * i, true);
    case DT.UINT64: return view.getBigUint64(8 * i, true);
    default: throw internalError('tfValueAt', `DataType ${dtype} (${tfDTypeName(dtype)}) is not read element by element`);
  }
}

/** Whether 4-byte elements can be read in place (a typed array over the shard's own bytes). */
const aligned = (b: Uint8Array): boolean => b.byteOffset % 4 === 0 && b.byteLength % 4 === 0;

/**
 * The host values of a bundle tensor in EagerFlow's nearest dtype (`name` is the variable or node for errors).
 * float32, complex64 and int32 values may be a view of the bundle's bytes (no copy: a SavedModel's weights are read
 * once, by ef.constant, which copies them): callers copy before keeping or changing them.
 * @throws InvalidArgumentError when an integer does not fit int32 or a float64 overflows float32.
 */
export function hostValues(t: BundleTensor, name: string, api: string): NDArray {
  const dtype = efDTypeOf(t.dtype);
  if (dtype === null) {
    throw opError(UnimplementedError, api, `${name} has dtype ${tfDTypeName(t.dtype)}, which EagerFlow does not hold`, tfDTypeName(t.dtype), 'float, integer, bool, string or complex64', 'Save it as one of those dtypes.', null);
  }
  if (Array.isArray(t.data)) return new NDArray(t.data.map((s) => utf8.decode(s)), t.shape, 'string');
  const b = t.data;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = t.shape.reduce((a, c) => a * c, 1);
  let data: HostData;
  const tooBig = (v: number | bigint, range: string): never => {
    throw argError(api, `${name} holds ${String(v)}, which does not fit ${range} (EagerFlow's nearest dtype to ${tfDTypeName(t.dtype)})`, String(v), `values that fit ${range}`, 'Cast the value to a narrower range before saving, or keep it out of the file.');
  };
  switch (t.dtype) {
    case DT.FLOAT: data = aligned(b) ? new Float32Array(b.buffer, b.byteOffset, b.byteLength >> 2) : new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); break;
    case DT.COMPLEX64: data = aligned(b) ? new Float32Array(b.buffer, b.byteOffset, b.byteLength >> 2) : new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); break;
    case DT.INT32: data = aligned(b) ? new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2) : new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); break;
    case DT.BOOL: data = Uint8Array.from(b, (x) => (x ? 1 : 0)); break;
    case DT.DOUBLE: {
      const f = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const v = tfValueAt(view, DT.DOUBLE, i) as number;
        if (Number.isFinite(v) && Math.abs(v) > FLOAT32_MAX) tooBig(v, 'float32');
        f[i] = v;
      }
      data = f;
      break;
    }
    case DT.HALF: data = Float32Array.from({ length: n }, (_, i) => tfValueAt(view, DT.HALF, i) as number); break;
    case DT.BFLOAT16: {
      const f = new Float32Array(n);
      const u = new Uint32Array(f.buffer);
      for (let i = 0; i < n; i++) u[i] = view.getUint16(2 * i, true) << 16;
      data = f;
      break;
    }
    default: {
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const v = tfValueAt(view, t.dtype, i);
        if (v > 2147483647 || v < -2147483648) tooBig(v, 'int32');
        out[i] = Number(v);
      }
      data = out;
    }
  }
  return new NDArray(data, t.shape, dtype);
}

/** A tensor's bundle form in TF's dtype for it (`as` writes an int32 tensor as int64, e.g. TF's save_counter). */
export function bundleOf(t: Tensor, as?: number): BundleTensor {
  const shape = t.shape.asList() as number[];
  const host = t.numpy();
  if (t.dtype === 'string') return { dtype: DT.STRING, shape, data: (host.data as string[]).map((s) => utf8Encoder.encode(s)) };
  if (as === DT.INT64 && t.dtype === 'int32') {
    const out = new BigInt64Array(host.data.length);
    (host.data as Int32Array).forEach((v, i) => (out[i] = BigInt(v)));
    return { dtype: DT.INT64, shape, data: new Uint8Array(out.buffer) };
  }
  const d = host.data as Float32Array | Int32Array | Uint8Array;
  return { dtype: tfDTypeOf(t.dtype), shape, data: new Uint8Array(d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength)) };
}
