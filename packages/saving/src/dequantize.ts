// Quantized weights of tfjs-converter models (uint8, uint16, float16), dequantized at load exactly as tfjs-core's io.decodeWeights does.
import { loadError, show } from './validate';

/** A weight's `quantization` entry: affine uint8/uint16 (`value = q * scale + min`) or float16. */
export interface Quantization {
  readonly dtype: 'uint8' | 'uint16' | 'float16';
  readonly scale?: number;
  readonly min?: number;
}

/** Bytes per stored value. */
export const QUANT_BYTES: Record<Quantization['dtype'], number> = { uint8: 1, uint16: 2, float16: 2 };

/** Checks an untrusted quantization entry for weight `name` of dtype `dtype`. */
export function checkQuantization(q: unknown, name: string, dtype: string): Quantization {
  const where = `weight '${name}': quantization`;
  if (q === null || typeof q !== 'object' || Array.isArray(q)) throw loadError(`${where} must be an object`, show(q), '{ dtype, scale, min }', 'Fix the weights manifest');
  const o = q as Record<string, unknown>;
  if (o.dtype === 'float16') {
    if (dtype !== 'float32') throw loadError(`${where}: float16 quantization needs float32 weights`, dtype, 'float32', 'Fix the weights manifest');
    return { dtype: 'float16' };
  }
  if (o.dtype !== 'uint8' && o.dtype !== 'uint16') throw loadError(`${where} has an unknown dtype`, show(o.dtype), "'uint8', 'uint16' or 'float16'", 'Fix the weights manifest');
  if (typeof o.scale !== 'number' || typeof o.min !== 'number' || !Number.isFinite(o.scale) || !Number.isFinite(o.min)) {
    throw loadError(`${where} needs finite scale and min`, `scale ${show(o.scale)}, min ${show(o.min)}`, 'two numbers', 'Fix the weights manifest');
  }
  if (dtype !== 'float32' && dtype !== 'int32') throw loadError(`${where}: ${o.dtype} quantization needs float32 or int32 weights`, dtype, 'float32 or int32', 'Fix the weights manifest');
  return { dtype: o.dtype, scale: o.scale, min: o.min };
}

/** IEEE half -> single (exact: every half is a single). */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Dequantizes `n` stored values from `bytes` (little-endian) into float32 or int32 values. */
export function dequantize(bytes: Uint8Array, n: number, q: Quantization, dtype: 'float32' | 'int32'): Float32Array | Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const read = q.dtype === 'uint8' ? (i: number) => bytes[i] : (i: number) => view.getUint16(2 * i, true);
  if (q.dtype === 'float16') {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = halfToFloat(read(i));
    return out;
  }
  const [scale, min] = [q.scale as number, q.min as number];
  if (dtype === 'int32') {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.round(read(i) * scale + min);
    return out;
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = read(i) * scale + min;
  return out;
}
