// A callback's return value -> checked outputs: the count and dtype checks, and host values made uploadable.
import {
  DType, HostData, NDArray, Nested, Scalar, Tensor, TensorShape, UnknownError,
  argError, backend, opError, describe, fillHost, flatten, isPlainObject, isVariableLike,
} from '@eagerflow/core';
import { HostCallbackParams, apiOf, opNameOf, toutString } from './params';
import { countError, dtypeError, shapeError } from './errors';

/** One checked output: a Tensor the callback returned, or host values to upload. */
export type Produced =
  | { readonly kind: 'tensor'; readonly t: Tensor }
  | { readonly kind: 'host'; readonly data: HostData; readonly shape: number[]; readonly dtype: DType };

/** Values that stand for one output even inside an array (so `[t]` is a list of one, not a nested array). */
function isValueObject(x: unknown): boolean {
  return x instanceof Tensor || x instanceof NDArray || backend.isTfTensor(x) || ArrayBuffer.isView(x) || isVariableLike(x);
}

/** Splits the return value into one value per output and checks the count (and contrib's structure). */
export function splitReturn(p: HostCallbackParams, ret: unknown): unknown[] {
  const m = p.Tout.length;
  const none = ret === undefined || ret === null;
  let values: unknown[];
  if (typeof p.returns === 'object') {
    values = none && m === 0 ? [] : flattenLike(p, p.returns.structure, ret);
  } else if (p.returns === 'single') {
    values = none ? [] : Array.isArray(ret) && ret.some(isValueObject) ? ret : [ret];
  } else {
    values = none ? [] : Array.isArray(ret) ? ret : [ret];
  }
  if (values.length !== m) throw countError(apiOf(p), p.token.token, values.length, m, toutString(p), opNameOf(p));
  return values;
}

/** contrib: the return value must have outputTypes' structure; leaves in tf.nest order (sorted keys). */
function flattenLike(p: HostCallbackParams, structure: unknown, ret: unknown): unknown[] {
  if (typeof structure === 'string') return ret === undefined || ret === null ? [] : Array.isArray(ret) && ret.some(isValueObject) ? ret : [ret];
  const out: unknown[] = [];
  const fail = (path: string, got: unknown, expected: string): never => {
    throw argError(
      apiOf(p), `the value returned by ${p.token.token} does not match outputTypes at ${path || 'the top level'}`, describe(got), expected,
      'Return the same nested arrays/objects as outputTypes.', opNameOf(p),
    );
  };
  const walk = (s: unknown, v: unknown, path: string): void => {
    if (typeof s === 'string') {
      out.push(v);
    } else if (Array.isArray(s)) {
      if (!Array.isArray(v) || v.length !== s.length) fail(path, v, `an array of length ${s.length}`);
      s.forEach((x, i) => walk(x, (v as unknown[])[i], `${path}[${i}]`));
    } else {
      const keys = Object.keys(s as object).sort();
      if (!isPlainObject(v)) fail(path, v, `an object with keys ${keys.join(', ')}`);
      for (const k of keys) {
        if (!(k in (v as object))) fail(path, v, `an object with key '${k}'`);
        walk((s as Record<string, unknown>)[k], (v as Record<string, unknown>)[k], `${path}.${k}`);
      }
    }
  };
  walk(structure, ret, '');
  return out;
}

const TYPED_NAMES: [new (n: number) => ArrayBufferView, string][] = [
  [Float32Array, 'float32'], [Int32Array, 'int32'], [Uint8Array, 'bool'], [Float64Array, 'float64'], [Int8Array, 'int8'],
  [Int16Array, 'int16'], [Uint16Array, 'uint16'], [Uint32Array, 'uint32'], [Uint8ClampedArray, 'uint8'],
];

function typedDType(x: ArrayBufferView): string {
  for (const [C, name] of TYPED_NAMES) if (x instanceof C) return name;
  return x.constructor.name;
}

/** The dtype a JS scalar would have, for messages. */
function scalarKind(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? (v >= -2147483648 && v <= 2147483647 ? 'int32' : 'int64') : 'float32';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return describe(v);
}

function representable(v: Scalar, dtype: DType): boolean {
  switch (dtype) {
    case 'float32':
    case 'complex64':
      return typeof v === 'number';
    case 'int32':
      return typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;
    case 'bool':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
  }
}

/** Checks one returned value against Tout[i] (and shapes[i]) and makes it an output. */
export function convertValue(p: HostCallbackParams, i: number, v: unknown): Produced {
  const out = convertUnchecked(p, i, v);
  const want = p.shapes[i];
  if (want !== null && want !== undefined) {
    const have = out.kind === 'tensor' ? (out.t.dims as number[]) : out.shape;
    if (!new TensorShape(want).isCompatibleWith(have)) throw shapeError(apiOf(p), i, p.token.token, have, new TensorShape(want).toString(), opNameOf(p));
  }
  return out;
}

function convertUnchecked(p: HostCallbackParams, i: number, v: unknown): Produced {
  const want = p.Tout[i];
  const bad = (got: string, detail: string): never => {
    throw dtypeError(apiOf(p), i, p.token.token, got, want, detail, opNameOf(p));
  };
  if (v instanceof Tensor || backend.isTfTensor(v)) {
    const t = v instanceof Tensor ? v : Tensor.fromTf(v);
    if (t.dtype !== want) bad(t.dtype, `a ${t.dtype} Tensor`);
    if (t.isSymbolic) bad('symbolic', 'a symbolic tensor of a trace; a callback must return values it computed');
    if (t.isDisposed) bad('disposed', 'a disposed Tensor');
    return { kind: 'tensor', t };
  }
  if (isVariableLike(v)) {
    throw opError(
      UnknownError, apiOf(p), `Attempting to return a variable from ${p.token.token}`, 'a Variable', 'a Tensor or host value',
      "Only tensors and host data can be returned; return v.value() to return the variable's current value.", opNameOf(p),
    );
  }
  if (v instanceof NDArray) {
    if (v.dtype !== want) bad(v.dtype, `an NDArray of dtype ${v.dtype}`);
    return { kind: 'host', data: v.data, shape: v.shape, dtype: want };
  }
  if (ArrayBuffer.isView(v)) {
    const dt = typedDType(v);
    if (dt !== want) bad(dt, `a ${v.constructor.name}`);
    const data = v as unknown as HostData;
    return { kind: 'host', data, shape: [data.length], dtype: want };
  }
  if (v === null || v === undefined || (typeof v === 'object' && !Array.isArray(v)) || typeof v === 'function') bad(describe(v), describe(v));
  let flat: Scalar[];
  let dims: number[];
  try {
    ({ flat, dims } = flatten(v as Nested, apiOf(p)));
  } catch (e) {
    return bad('ragged', `a nested array that is not a rectangular array of scalars: ${(e as Error).message}`);
  }
  for (const s of flat) if (!representable(s, want)) bad(scalarKind(s), `the ${typeof s} ${JSON.stringify(s)}, which ${want} cannot represent`);
  return { kind: 'host', data: hostOf(want, flat), shape: dims, dtype: want };
}

function hostOf(dtype: DType, flat: Scalar[]): HostData {
  if (dtype !== 'complex64') return fillHost(dtype, flat);
  const data = new Float32Array(2 * flat.length);
  flat.forEach((v, k) => (data[2 * k] = v as number));
  return data;
}
