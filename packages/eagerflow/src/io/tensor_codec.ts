// ef.io.serializeTensor / parseTensor (TF's TensorProto bytes, as tf.io.serialize_tensor / parse_tensor write and
// read them: numeric values in tensor_content, strings in string_val) and ef.io.decodeRaw (tf.io.decode_raw).
// TF dtypes EagerFlow lacks map by the dtype contract (int64/uint8/int16/int8/uint16 -> int32, float64 -> float32),
// a value that does not fit being an InvalidArgumentError.
import { DType, Tensor, TensorLike, argError, constant, describe, typeError } from '@eagerflow/core';
import { decodeTfProto, encodeTfProto, tfValueAt } from '@eagerflow/saving';

/** TF's DataType numbers (tensorflow/core/framework/types.proto) for the dtypes read and written here. */
const DT: Record<string, number> = { float32: 1, float64: 2, int32: 3, uint8: 4, int16: 5, int8: 6, string: 7, int64: 9, bool: 10, uint16: 17 };
const DT_NAME: Record<number, string> = Object.fromEntries(Object.entries(DT).map(([k, v]) => [v, k]));
const BYTES: Record<string, number> = { float32: 4, float64: 8, int32: 4, uint8: 1, int16: 2, int8: 1, int64: 8, bool: 1, uint16: 2 };
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** EagerFlow's dtype for a TF dtype name. */
function efDType(name: string): DType {
  if (name === 'float32' || name === 'float64') return 'float32';
  if (name === 'bool') return 'bool';
  if (name === 'string') return 'string';
  return 'int32';
}

function tfName(api: string, d: unknown): string {
  const n = d === 'float' ? 'float32' : d === 'double' ? 'float64' : d;
  if (typeof n !== 'string' || !(n in DT)) throw typeError(api, 'unsupported dtype', describe(d), Object.keys(DT).join(', '), 'Pass a TF dtype name, e.g. \'float32\'.');
  return n;
}

/**
 * A tensor as TF's TensorProto bytes (tf.io.serialize_tensor): read back by parseTensor here and tf.io.parse_tensor in TF.
 * @example
 * const bytes = ef.io.serializeTensor(ef.constant([[1, 2], [3, 4]]));
 * ef.io.parseTensor(bytes, 'float32').arraySync(); // [[1, 2], [3, 4]]
 */
export function serializeTensor(t: TensorLike): Uint8Array {
  const api = 'ef.io.serializeTensor';
  const x = t instanceof Tensor ? t : constant(t);
  try {
    if (x.dtype === 'complex64') throw typeError(api, 'complex64 is not serialized here', 'a complex64 tensor', 'float32, int32, bool or string', 'Serialize ef.math.real and ef.math.imag separately.');
    const shape = { dim: (x.shape.dims as number[]).map((size) => ({ size })) };
    if (x.dtype === 'string') return encodeTfProto('tensorflow.TensorProto', { dtype: DT.string, tensor_shape: shape, string_val: x.bytes() });
    const data = x.dataSync() as Float32Array | Int32Array | Uint8Array;
    const content = x.dtype === 'bool' ? Uint8Array.from(data as Uint8Array, (v) => (v ? 1 : 0)) : new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
    return encodeTfProto('tensorflow.TensorProto', { dtype: DT[x.dtype], tensor_shape: shape, tensor_content: content });
  } finally {
    if (x !== t) x.dispose();
  }
}

/** Values of `n` elements of TF dtype `name` from little-endian bytes, checked to fit EagerFlow's dtype. */
function fromBytes(api: string, name: string, bytes: Uint8Array, n: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const v = tfValueAt(view, DT[name], i);
    if (typeof v === 'bigint' && (v < BigInt(INT32_MIN) || v > BigInt(INT32_MAX))) throw argError(api, `int64 value ${v} at element ${i} does not fit int32, EagerFlow's int64 (values are never wrapped)`, String(v), `a value in [${INT32_MIN}, ${INT32_MAX}]`, "Keep int64 values within int32's range");
    out[i] = Number(v);
  }
  return out;
}

/**
 * A tensor from TF's TensorProto bytes (tf.io.parse_tensor); `outType` must be the proto's dtype, as in TF.
 * int64 and the narrow ints arrive as int32, float64 as float32.
 */
export function parseTensor(serialized: Uint8Array | Tensor, outType: string): Tensor {
  const api = 'ef.io.parseTensor';
  const want = tfName(api, outType);
  const bytes = serialized instanceof Tensor ? scalarBytes(api, serialized) : serialized;
  if (!(bytes instanceof Uint8Array)) throw typeError(api, 'serialized must be bytes', describe(serialized), 'a Uint8Array or a scalar string tensor', 'Pass the output of serializeTensor.');
  let p: Record<string, unknown>;
  try {
    p = decodeTfProto('tensorflow.TensorProto', bytes);
  } catch (e) {
    throw argError(api, `cannot parse ${bytes.length} bytes as a TensorProto`, (e as Error).message, 'a serialized tensorflow.TensorProto', 'Pass the bytes serializeTensor or tf.io.serialize_tensor wrote', { opName: api, cause: e });
  }
  const got = DT_NAME[(p.dtype as number) ?? 0];
  if (got !== want) throw argError(api, `Type mismatch between parsed tensor (${got ?? `DataType ${String(p.dtype)}`}) and dtype (${want})`, `a ${got ?? `DataType ${String(p.dtype)}`} tensor`, `outType '${want}'`, `Pass outType '${got}'`);
  const dims = (((p.tensor_shape as { dim?: { size?: number }[] } | undefined)?.dim) ?? []).map((d) => d.size ?? 0);
  const n = dims.reduce((a, b) => a * b, 1);
  const dtype = efDType(got);
  if (got === 'string') {
    const vals = (p.string_val as Uint8Array[] | undefined) ?? [];
    if (vals.length !== n) throw argError(api, `the proto holds ${vals.length} strings for shape [${dims.join(', ')}]`, `${vals.length} strings`, `${n} elements`, 'The bytes are damaged');
    return constant(vals, 'string', dims);
  }
  const content = p.tensor_content as Uint8Array | undefined;
  let values: number[];
  if (content !== undefined && content.length > 0) {
    if (content.length !== n * BYTES[got]) throw argError(api, `tensor_content does not fit shape [${dims.join(', ')}] of ${got}`, `${content.length} bytes`, `${n * BYTES[got]} bytes`, 'The bytes are damaged');
    values = fromBytes(api, got, content, n);
  } else {
    // Typed value fields (TF writes them for small constants): one value fills the shape.
    const field = { float32: 'float_val', float64: 'double_val', int64: 'int64_val', bool: 'bool_val' }[got as 'float32'] ?? 'int_val';
    const raw = ((p[field] as (number | boolean)[] | undefined) ?? []).map(Number);
    if (got === 'int64' && raw.some((v) => v < INT32_MIN || v > INT32_MAX)) throw argError(api, "an int64 value does not fit int32, EagerFlow's int64 (values are never wrapped)", String(raw.find((v) => v < INT32_MIN || v > INT32_MAX)), `a value in [${INT32_MIN}, ${INT32_MAX}]`, "Keep int64 values within int32's range");
    values = raw.length === n ? raw : raw.length === 1 ? new Array<number>(n).fill(raw[0]) : n === 0 ? [] : (() => { throw argError(api, `the proto holds ${raw.length} values for shape [${dims.join(', ')}]`, `${raw.length} values`, `${n} values, or 1 to fill the shape`, 'The bytes are damaged'); })();
  }
  if (dtype === 'bool') return constant(values.map((v) => v !== 0), 'bool', dims);
  return constant(dtype === 'float32' ? Float32Array.from(values) : Int32Array.from(values), dtype, dims);
}

function scalarBytes(api: string, t: Tensor): Uint8Array {
  if (t.dtype !== 'string' || t.rank !== 0) throw typeError(api, 'serialized must be a scalar string tensor', `a ${t.dtype} tensor of shape ${t.shape}`, 'a scalar string tensor', 'Pass one record.');
  return t.bytes()[0];
}

/**
 * The bytes of each string element reinterpreted as `outType` values (tf.io.decode_raw; little-endian by
 * default). Output shape: the input's shape plus one axis of values per string (with `fixedLength` bytes each,
 * or the string's length, which must then be the same for all).
 * @example
 * ef.io.decodeRaw(ef.constant([new Uint8Array([1, 0, 2, 0])]), 'int16').arraySync(); // [[1, 2]]
 */
export function decodeRaw(inputBytes: TensorLike, outType: string, options: { littleEndian?: boolean; fixedLength?: number | null } = {}): Tensor {
  const api = 'ef.io.decodeRaw';
  const name = tfName(api, outType);
  if (name === 'string') throw typeError(api, 'outType must be numeric', "'string'", 'a numeric dtype', 'Pass e.g. \'uint8\' or \'float32\'.');
  const x = inputBytes instanceof Tensor ? inputBytes : constant(inputBytes as never, 'string');
  try {
    if (x.dtype !== 'string') throw typeError(api, 'input_bytes must be a string tensor', `a ${x.dtype} tensor`, 'a string (bytes) tensor', 'Pass records or file contents.');
    const size = BYTES[name];
    const recs = x.bytes();
    const fixed = options.fixedLength ?? null;
    const len = fixed ?? recs[0]?.length ?? 0;
    if (len % size !== 0) throw argError(api, `the byte length ${len} is not a multiple of ${name}'s size ${size}`, `${len} bytes`, `a multiple of ${size}`, 'Check outType.');
    const per = len / size;
    const le = options.littleEndian ?? true;
    const values: number[] = [];
    recs.forEach((r, i) => {
      if (fixed === null && r.length !== len) throw argError(api, `Input to DecodeRaw has length ${r.length} that is not equal to the length of the first element ${len} (element ${i})`, `${r.length} bytes`, `${len} bytes`, 'Give fixedLength, or make the strings equally long');
      const b = new Uint8Array(len);
      b.set(r.subarray(0, len));
      if (!le && size > 1) for (let k = 0; k < len; k += size) b.subarray(k, k + size).reverse();
      values.push(...fromBytes(api, name, b, per));
    });
    const dims = [...(x.shape.dims as number[]), per];
    const dtype = efDType(name);
    if (dtype === 'bool') return constant(values.map((v) => v !== 0), 'bool', dims);
    return constant(dtype === 'float32' ? Float32Array.from(values) : Int32Array.from(values), dtype, dims);
  } finally {
    if (x !== inputBytes) x.dispose();
  }
}
