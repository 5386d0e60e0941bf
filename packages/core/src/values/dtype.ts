// DTypes: the closed set of element types, their host arrays and TensorFlow's (strict) promotion rules.
import { typeError } from '../errors/error_toolkit';

/** The element types EagerFlow supports. */
export type DType = 'float32' | 'int32' | 'bool' | 'string' | 'complex64';

export const DTYPES: readonly DType[] = ['float32', 'int32', 'bool', 'string', 'complex64'];

/** The largest finite float32 (TF's `std::numeric_limits<float>::max()`; its negative is `lowest()`). */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** Host storage for each dtype (row-major). */
export type HostData = Float32Array | Int32Array | Uint8Array | string[];

export function isDType(x: unknown): x is DType {
  return typeof x === 'string' && (DTYPES as readonly string[]).includes(x);
}

export function isFloating(dtype: DType): boolean {
  return dtype === 'float32' || dtype === 'complex64';
}

export function isNumeric(dtype: DType): boolean {
  return dtype === 'float32' || dtype === 'int32' || dtype === 'complex64';
}

/** TensorFlow's short names, used in the graph listing (f32[2,?]). */
export const SHORT_NAME: Record<DType, string> = {
  float32: 'f32',
  int32: 'i32',
  bool: 'bool',
  string: 'str',
  complex64: 'c64',
};

/** Allocates an empty host buffer for `size` elements of `dtype`. */
export function allocHost(dtype: DType, size: number): HostData {
  switch (dtype) {
    case 'float32':
      return new Float32Array(size);
    case 'int32':
      return new Int32Array(size);
    case 'bool':
      return new Uint8Array(size);
    case 'string':
      return new Array<string>(size).fill('');
    case 'complex64':
      return new Float32Array(2 * size);
  }
}

/** Parses a dtype-like value, throwing a TypeError TensorFlow-style when it is not one. */
export function asDType(x: unknown, api = 'dtype'): DType {
  if (isDType(x)) return x;
  const alias: Record<string, DType> = { float: 'float32', int: 'int32', boolean: 'bool', f32: 'float32', i32: 'int32' };
  if (typeof x === 'string' && alias[x]) return alias[x];
  // tfjs has no 64-bit (or uint8) tensors: say which 32-bit dtype TensorFlow code should use instead.
  const wide: Record<string, DType> = { float64: 'float32', double: 'float32', float16: 'float32', half: 'float32', int64: 'int32', uint8: 'int32', int8: 'int32', int16: 'int32', uint16: 'int32', uint32: 'int32' };
  if (typeof x === 'string' && wide[x]) {
    throw typeError(api, `Cannot convert ${describe(x)} to an EagerFlow DType`, describe(x), `one of ${DTYPES.join(', ')}`, `tfjs has no ${x} tensors: use '${wide[x]}' instead.`);
  }
  throw typeError(api, `Cannot convert ${describe(x)} to an EagerFlow DType`, describe(x), `one of ${DTYPES.join(', ')}`, `Pass one of these dtype names, e.g. 'float32'.`);
}

/** A short description of any JS value for error messages. */
/**
 * An argument as JSON for an error message, safely: tensors and other class instances by their class name, cycles
 * and deep nesting cut, never a throw (JSON.stringify of a symbolic tensor meets a cycle). Short: at most 200 chars.
 */
export function showValue(x: unknown): string {
  if (x === undefined || typeof x === 'function' || (typeof x === 'object' && x !== null && !Array.isArray(x) && x.constructor !== Object)) return describe(x);
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? String(v) : v;
    if (depth > 6 || seen.has(v)) return '...';
    const ctor = (v as object).constructor;
    if (!Array.isArray(v) && ctor && ctor !== Object) return `<${ctor.name}>`;
    seen.add(v);
    const out = Array.isArray(v) ? v.slice(0, 20).map((e) => walk(e, depth + 1)) : Object.fromEntries(Object.entries(v).slice(0, 20).map(([k, e]) => [k, walk(e, depth + 1)]));
    seen.delete(v);
    return out;
  };
  const text = JSON.stringify(walk(x, 0)) ?? describe(x);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

export function describe(x: unknown): string {
  if (x === null) return 'null';
  if (x === undefined) return 'undefined';
  if (typeof x === 'string') return JSON.stringify(x);
  if (typeof x === 'function') return `function ${x.name || '<anonymous>'}`;
  if (Array.isArray(x)) return `array of length ${x.length}`;
  if (typeof x === 'object') {
    const ctor = (x as object).constructor;
    return ctor && ctor.name && ctor.name !== 'Object' ? `${ctor.name}` : showValue(x);
  }
  return String(x);
}
