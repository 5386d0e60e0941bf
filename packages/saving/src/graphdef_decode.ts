// TensorFlow's binary GraphDef (what saved_model.pb and frozen .pb files hold) -> the importer's GraphDef JSON:
// protobuf JSON field names, enum names, base64 bytes; function bodies' `node:output_arg:k` references become flat
// output indices; Const tensors stay inline and are decoded on first read (inlineConst).
import protobuf from 'protobufjs/light.js';
import type { DType } from '@eagerflow/core';
import { fromTfDType } from './format';
import { tfProto } from './proto/tf_protos';
import { TF_OUTPUT_ARGS } from './proto/tf_output_args';
import { ConstValue } from './weights';
import { isRecord, loadError } from './validate';

/** The GraphDef JSON the importer reads (protobuf JSON: camelCase fields, enum names, base64 bytes). */
export interface GraphDefJson {
  node: Record<string, unknown>[];
  library?: { function?: Record<string, unknown>[] };
  versions?: Record<string, unknown>;
}

function base64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

/** A decoded message (TF's snake_case or JSON camelCase keys) -> protobuf JSON, walking the schema. */
function toJson(type: protobuf.Type, msg: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(msg)) {
    if (value === undefined || value === null) continue;
    const field = type.fields[key] ?? type.fields[snake(key)];
    if (field === undefined) continue;
    field.resolve();
    const conv = (v: unknown): unknown => valueJson(field, v);
    const name = protobuf.util.camelCase(field.name);
    if (field.map) out[name] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, conv(v)]));
    else if (field.repeated) out[name] = (value as unknown[]).map(conv);
    else out[name] = conv(value);
  }
  return out;
}

const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function valueJson(field: protobuf.Field, v: unknown): unknown {
  const t = field.resolvedType;
  if (t instanceof protobuf.Type) return toJson(t, v as Record<string, unknown>);
  if (t instanceof protobuf.Enum) return typeof v === 'number' ? (t.valuesById[v] ?? v) : v;
  if (field.type === 'bytes') return v instanceof Uint8Array ? base64(v) : v;
  if (typeof v === 'object' && v !== null && 'low' in v) return Number(String(v)); // a protobufjs Long
  return v;
}

/** Flat output index of `node:arg:k` in a function body, from the producer's op and its list attrs. */
function flatIndex(producer: Record<string, unknown> | undefined, arg: string, k: number): number | null {
  const op = producer?.op;
  const args = typeof op === 'string' ? TF_OUTPUT_ARGS[op] : undefined;
  if (args === undefined) return k;
  let offset = 0;
  for (const a of args) {
    const name = typeof a === 'string' ? a : a[0];
    if (name === arg) return offset + k;
    if (typeof a === 'string') offset += 1;
    else {
      const at = (producer?.attr as Record<string, { i?: unknown; list?: { type?: unknown[] } }> | undefined)?.[a[1]];
      const n = at?.i !== undefined ? Number(at.i) : (at?.list?.type?.length ?? NaN);
      if (!Number.isInteger(n)) return null;
      offset += n;
    }
  }
  return null;
}

/** Rewrites `node:arg:k` references of one FunctionDef (inputs and ret) to `node:flat`. */
function flattenRefs(fn: Record<string, unknown>, where: string): void {
  const nodes = (fn.nodeDef as Record<string, unknown>[] | undefined) ?? [];
  const byName = new Map(nodes.map((n) => [n.name as string, n] as const));
  const fix = (ref: string): string => {
    const control = ref.startsWith('^');
    const parts = (control ? ref.slice(1) : ref).split(':');
    if (parts.length !== 3) return ref;
    const idx = flatIndex(byName.get(parts[0]), parts[1], Number(parts[2]));
    if (idx === null) throw loadError(`${where}: the reference '${ref}' names no output of its node`, `'${ref}'`, 'an output argument of the producing op', 'Fix the function body');
    return `${control ? '^' : ''}${parts[0]}:${idx}`;
  };
  for (const n of nodes) if (Array.isArray(n.input)) n.input = (n.input as string[]).map(fix);
  if (isRecord(fn.ret)) fn.ret = Object.fromEntries(Object.entries(fn.ret).map(([k, v]) => [k, typeof v === 'string' ? fix(v) : v]));
}

/**
 * A TensorFlow GraphDef as the importer reads it: `source` is the serialized `tensorflow.GraphDef` bytes or
 * the message decoded by protobufjs (TF's snake_case fields, as `decodeTfProto` returns it).
 * @example
 * // not-run
 * const g = ef.internal.graphDefFromProto(fs.readFileSync('frozen.pb'));
 */
export function graphDefFromProto(source: Uint8Array | Record<string, unknown>, what = 'the GraphDef'): GraphDefJson {
  const type = tfProto('tensorflow.GraphDef');
  let msg: Record<string, unknown>;
  if (source instanceof Uint8Array) {
    try {
      msg = type.toObject(type.decode(source), { longs: String, enums: String, bytes: String, arrays: true }) as Record<string, unknown>;
    } catch (e) {
      throw loadError(`${what} is not a valid tensorflow.GraphDef protobuf`, (e as Error).message, 'the bytes of a serialized tensorflow.GraphDef', 'Check that the file is complete');
    }
  } else msg = source;
  const json = toJson(type, msg) as unknown as GraphDefJson;
  json.node ??= [];
  for (const f of json.library?.function ?? []) {
    const name = String((f.signature as { name?: unknown } | undefined)?.name ?? '?');
    flattenRefs(f, `function '${name}'`);
  }
  return json;
}

// ---- Const tensors kept inline (TensorProto JSON) ----

interface TensorProtoJson {
  dtype?: string | number;
  tensorShape?: { dim?: { size?: string | number }[]; unknownRank?: boolean };
  tensorContent?: string;
  floatVal?: number[];
  doubleVal?: number[];
  intVal?: number[];
  int64Val?: (string | number)[];
  uint32Val?: number[];
  uint64Val?: (string | number)[];
  boolVal?: boolean[];
  halfVal?: number[];
  stringVal?: string[];
  scomplexVal?: number[];
}

const decoded = new WeakMap<object, ConstValue>();

function fromB64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Numbers of `bytes` read as TF dtype `tf` (little-endian). */
function rawNumbers(tf: string, bytes: Uint8Array, n: number): ArrayLike<number> | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width: Record<string, number> = { DT_FLOAT: 4, DT_DOUBLE: 8, DT_INT32: 4, DT_INT64: 8, DT_UINT32: 4, DT_INT16: 2, DT_UINT16: 2, DT_INT8: 1, DT_UINT8: 1, DT_BOOL: 1, DT_HALF: 2, DT_BFLOAT16: 2, DT_COMPLEX64: 8 };
  const w = width[tf];
  if (w === undefined) return null;
  const count = tf === 'DT_COMPLEX64' ? 2 * n : n;
  if (bytes.length !== n * w) return null;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    switch (tf) {
      case 'DT_FLOAT': case 'DT_COMPLEX64': out[i] = view.getFloat32(i * 4, true); break;
      case 'DT_DOUBLE': out[i] = view.getFloat64(i * 8, true); break;
      case 'DT_INT32': out[i] = view.getInt32(i * 4, true); break;
      case 'DT_UINT32': out[i] = view.getUint32(i * 4, true); break;
      case 'DT_INT64': out[i] = Number(view.getBigInt64(i * 8, true)); break;
      case 'DT_INT16': out[i] = view.getInt16(i * 2, true); break;
      case 'DT_UINT16': out[i] = view.getUint16(i * 2, true); break;
      case 'DT_INT8': out[i] = view.getInt8(i); break;
      case 'DT_UINT8': case 'DT_BOOL': out[i] = view.getUint8(i); break;
      case 'DT_HALF': out[i] = half(view.getUint16(i * 2, true)); break;
      case 'DT_BFLOAT16': out[i] = new Float32Array(new Uint32Array([view.getUint16(i * 2, true) << 16]).buffer)[0]; break;
    }
  }
  return out;
}

function half(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** The `*_val` list of a TensorProto as numbers (half_val holds bit patterns). */
function valList(tf: string, t: TensorProtoJson): ArrayLike<number> | undefined {
  switch (tf) {
    case 'DT_FLOAT': return t.floatVal;
    case 'DT_DOUBLE': return t.doubleVal;
    case 'DT_INT64': return t.int64Val?.map(Number);
    case 'DT_UINT64': return t.uint64Val?.map(Number);
    case 'DT_UINT32': return t.uint32Val;
    case 'DT_BOOL': return t.boolVal?.map((b) => (b ? 1 : 0));
    case 'DT_HALF': case 'DT_BFLOAT16': return t.halfVal?.map((h) => (tf === 'DT_HALF' ? half(h) : new Float32Array(new Uint32Array([h << 16]).buffer)[0]));
    case 'DT_COMPLEX64': return t.scomplexVal;
    default: return t.intVal;
  }
}

/**
 * The value of a Const node whose `value` attr holds the tensor itself (TF's GraphDefs; tfjs model.json keeps
 * only dtype and shape there and the data in the weights): null when it carries no data. Values of TF dtypes
 * tfjs lacks are narrowed (int64 -> int32 when every value fits, double/half -> float32).
 */
export function inlineConst(attr: unknown, where: string): ConstValue | null {
  const raw = isRecord(attr) ? attr.tensor : undefined;
  if (!isRecord(raw)) return null;
  const t = raw as TensorProtoJson;
  const cached = decoded.get(t);
  if (cached !== undefined) return cached;
  const tfName = typeof t.dtype === 'number' ? String(tfProtoDtypeName(t.dtype)) : String(t.dtype);
  const hasData = t.tensorContent !== undefined || ['floatVal', 'doubleVal', 'intVal', 'int64Val', 'uint32Val', 'uint64Val', 'boolVal', 'halfVal', 'stringVal', 'scomplexVal'].some((k) => Array.isArray((t as Record<string, unknown>)[k]));
  const shape = (t.tensorShape?.dim ?? []).map((d) => Number(d.size ?? 0));
  const n = shape.reduce((a, b) => a * b, 1);
  if (!hasData && n !== 0) return null;
  const dtype = fromTfDType(tfName);
  const bad = (why: string): Error => loadError(`${where}: the Const tensor is invalid`, why, `a ${tfName} tensor of shape [${shape}]`, 'Re-export the graph');
  if (dtype === undefined) throw loadError(`${where}: Const of dtype ${tfName} is not supported`, tfName, 'a numeric, bool, string or complex64 dtype', 'Cast it in the graph');
  if (shape.some((d) => !Number.isInteger(d) || d < 0) || n > 1 << 28) throw bad(`shape [${shape}]`);
  let value: ConstValue;
  if (dtype === 'string') {
    const vals = (t.stringVal ?? []).map((s) => new TextDecoder().decode(fromB64(s)));
    value = { dtype, shape, data: splat(vals, n, '', bad) };
  } else {
    const nums = t.tensorContent !== undefined ? rawNumbers(tfName, fromB64(t.tensorContent), n) : (valList(tfName, t) ?? []);
    if (nums === null) throw bad(`${t.tensorContent === undefined ? 0 : fromB64(t.tensorContent).length} content bytes`);
    const all = Array.from(nums);
    const count = dtype === 'complex64' ? 2 * n : n;
    const full = splat(all, count, 0, bad);
    if (dtype === 'int32' && full.some((v) => v < -2147483648 || v > 2147483647 || !Number.isInteger(v))) {
      throw loadError(`${where}: a ${tfName} Const does not fit int32`, 'a value outside [-2^31, 2^31)', 'values that fit int32 (EagerFlow reads int64 as int32)', 'Cast the constant to int32 in the graph');
    }
    const data = dtype === 'float32' || dtype === 'complex64' ? Float32Array.from(full) : dtype === 'int32' ? Int32Array.from(full) : Uint8Array.from(full, (v) => (v ? 1 : 0));
    value = { dtype: dtype as DType, shape, data };
  }
  decoded.set(t, value);
  return value;
}

/** TF's rule for short `*_val` lists: the last value repeats (an empty list means zeros). */
function splat<T>(vals: T[], n: number, zero: T, bad: (why: string) => Error): T[] {
  if (vals.length === n) return vals;
  if (vals.length > n) throw bad(`${vals.length} values`);
  const fill = vals.length === 0 ? zero : vals[vals.length - 1];
  return [...vals, ...new Array<T>(n - vals.length).fill(fill)];
}

function tfProtoDtypeName(n: number): string {
  return tfProtoEnumName('tensorflow.DataType', n);
}

let dtypeEnum: protobuf.Enum | undefined;
function tfProtoEnumName(_full: string, n: number): string {
  dtypeEnum ??= (tfProto('tensorflow.TensorProto').fields.dtype.resolve().resolvedType as protobuf.Enum);
  return dtypeEnum.valuesById[n] ?? String(n);
}
