// Weight encoding in the tfjs binary layout (little-endian; strings length-prefixed), with a checking decoder.
import type { DType, HostData } from '@eagerflow/core';
import { loadError, show as describeJson } from './validate';
import { Quantization, QUANT_BYTES, checkQuantization, dequantize } from './dequantize';

/** One entry of `weightSpecs` (the tfjs `WeightsManifestEntry` fields we write and read). */
export interface WeightSpec {
  name: string;
  shape: number[];
  dtype: DType;
  /** tfjs-converter's weight quantization (read only: EagerFlow writes full-precision weights). */
  quantization?: Quantization;
}

/** A constant's host value. */
export interface ConstValue {
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly data: HostData;
}

const BYTES: Record<Exclude<DType, 'string'>, number> = { float32: 4, int32: 4, bool: 1, complex64: 8 };
const WEIGHT_DTYPES: readonly string[] = ['float32', 'int32', 'bool', 'string', 'complex64'];

/** Collects constants into `weightSpecs` and one `weightData` buffer. */
export class WeightWriter {
  readonly specs: WeightSpec[] = [];
  /** Each constant's value by node name (SavedModels inline them into the Const nodes). */
  readonly values = new Map<string, ConstValue>();
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  add(name: string, v: ConstValue): void {
    this.specs.push({ name, shape: [...v.shape], dtype: v.dtype });
    this.values.set(name, v);
    const bytes = encode(v);
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  finish(): ArrayBuffer {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out.buffer;
  }
}

function encode(v: ConstValue): Uint8Array {
  if (v.dtype !== 'string') {
    const d = v.data as Float32Array | Int32Array | Uint8Array;
    return new Uint8Array(d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength));
  }
  const enc = new TextEncoder();
  const parts = (v.data as string[]).map((s) => enc.encode(s));
  const out = new Uint8Array(parts.reduce((a, p) => a + 4 + p.length, 0));
  const view = new DataView(out.buffer);
  let o = 0;
  for (const p of parts) {
    view.setUint32(o, p.length, true);
    out.set(p, o + 4);
    o += 4 + p.length;
  }
  return out;
}

/** Concatenates `weightData` (an ArrayBuffer, a list of them, or a byte view) into one byte array. */
function weightBytes(data: unknown): Uint8Array {
  if (data === undefined || data === null) return new Uint8Array(0);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data) && data.every((b) => b instanceof ArrayBuffer)) {
    const all = new Uint8Array(data.reduce((a, b: ArrayBuffer) => a + b.byteLength, 0));
    let o = 0;
    for (const b of data as ArrayBuffer[]) {
      all.set(new Uint8Array(b), o);
      o += b.byteLength;
    }
    return all;
  }
  throw loadError('weightData must be binary', typeof data === 'object' ? 'an object' : typeof data, 'an ArrayBuffer or an array of ArrayBuffers', 'Pass the weightData that saveFunction returned');
}

/** Checks one spec and returns it typed. */
function checkSpec(x: unknown, k: number, seen: Set<string>): WeightSpec {
  const where = `weightSpecs[${k}]`;
  if (x === null || typeof x !== 'object' || Array.isArray(x)) throw loadError(`${where} must be an object`, describeJson(x), '{ name, shape, dtype }', 'Fix the weights manifest');
  const s = x as Record<string, unknown>;
  if (typeof s.name !== 'string' || s.name === '') throw loadError(`${where}.name must be a non-empty string`, describeJson(s.name), 'a Const node name', 'Fix the weights manifest');
  if (seen.has(s.name)) throw loadError(`${where}: duplicate weight name '${s.name}'`, `'${s.name}' twice`, 'unique names', 'Remove the duplicate entry');
  seen.add(s.name);
  if (typeof s.dtype !== 'string' || !WEIGHT_DTYPES.includes(s.dtype)) {
    throw loadError(`${where} ('${s.name}') has an unsupported dtype`, describeJson(s.dtype), WEIGHT_DTYPES.join(' or '), 'Re-save the function with EagerFlow');
  }
  const quantization = s.quantization === undefined ? undefined : checkQuantization(s.quantization, s.name, s.dtype);
  if (!Array.isArray(s.shape) || s.shape.some((d) => !Number.isInteger(d) || (d as number) < 0 || (d as number) > 0x7fffffff)) {
    throw loadError(`${where} ('${s.name}') has an invalid shape`, describeJson(s.shape), 'an array of non-negative integers', 'Fix the weights manifest');
  }
  return { name: s.name, shape: (s.shape as number[]).slice(), dtype: s.dtype as DType, ...(quantization ? { quantization } : {}) };
}

/** Decodes every weight, checking the manifest and that the data is long enough. */
export function decodeWeights(specs: unknown, data: unknown): Map<string, ConstValue> {
  const out = new Map<string, ConstValue>();
  if (specs === undefined || specs === null) return out;
  if (!Array.isArray(specs)) throw loadError('weightSpecs must be an array', describeJson(specs), 'an array of { name, shape, dtype }', 'Pass the weightSpecs that saveFunction returned');
  const bytes = weightBytes(data);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const seen = new Set<string>();
  let o = 0;
  specs.forEach((x, k) => {
    const spec = checkSpec(x, k, seen);
    const n = spec.shape.reduce((a, d) => a * d, 1);
    const short = (need: string): Error =>
      loadError(`weights are shorter than their specs (weight '${spec.name}' needs ${need} at byte ${o})`, `${bytes.length} bytes in total`, 'at least the bytes every spec needs', 'The weights file is truncated or does not belong to this model.json: re-save the function');
    if (spec.dtype === 'string') {
      if (n * 4 > bytes.length - o) throw short(`${n} length prefixes`);
      const enc = new TextDecoder();
      const vals = new Array<string>(n);
      for (let i = 0; i < n; i++) {
        if (o + 4 > bytes.length) throw short('a length prefix');
        const len = view.getUint32(o, true);
        if (len > bytes.length - o - 4) throw short(`${len} bytes of string`);
        vals[i] = enc.decode(bytes.subarray(o + 4, o + 4 + len));
        o += 4 + len;
      }
      out.set(spec.name, { dtype: 'string', shape: spec.shape, data: vals });
      return;
    }
    if (spec.quantization !== undefined) {
      const qsize = n * QUANT_BYTES[spec.quantization.dtype];
      if (qsize > bytes.length - o) throw short(`${qsize} bytes`);
      const data = dequantize(bytes.subarray(o, o + qsize), n, spec.quantization, spec.dtype as 'float32' | 'int32');
      o += qsize;
      out.set(spec.name, { dtype: spec.dtype, shape: spec.shape, data });
      return;
    }
    const size = n * BYTES[spec.dtype];
    if (size > bytes.length - o) throw short(`${size} bytes`);
    const chunk = bytes.slice(o, o + size).buffer;
    o += size;
    const arr = spec.dtype === 'int32' ? new Int32Array(chunk) : spec.dtype === 'bool' ? new Uint8Array(chunk) : new Float32Array(chunk);
    out.set(spec.name, { dtype: spec.dtype, shape: spec.shape, data: arr });
  });
  return out;
}
