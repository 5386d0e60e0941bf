// ef.io.parseExample / parseSingleExample / parseSequenceExample / parseSingleSequenceExample and their feature
// specs (TF's FixedLenFeature, FixedLenSequenceFeature, VarLenFeature): serialized tf.train.Examples to tensors,
// with TF's semantics (defaults, padding, sparse outputs, lengths) and TF's checks as InvalidArgumentErrors naming
// the record and the feature. Eagerly the protos are decoded on the host (protobufjs); inside a trace (Dataset.map)
// the parse runs per element as a host callback (ef.numpyFunction-style) with the outputs' static shapes set.
import { Tensor, TensorLike, argError, constant, describe, typeError } from '@eagerflow/core';
import { pyFunction } from '@eagerflow/callbacks';
import { SparseTensor } from '../sparse/sparse_tensor';
import { decode } from './example';

type OutDType = 'float32' | 'int32' | 'string';
type Value = number | Uint8Array;

/** What `ef.io.FixedLenFeature(shape, dtype, {defaultValue})` returns: a feature of a fixed shape per example. */
export interface FixedLenFeatureSpec {
  readonly kind: 'FixedLenFeature';
  readonly shape: number[];
  readonly dtype: OutDType;
  readonly defaultValue: unknown;
}
/** What `ef.io.FixedLenSequenceFeature(shape, dtype, {allowMissing, defaultValue})` returns: a fixed shape per sequence step. */
export interface FixedLenSequenceFeatureSpec {
  readonly kind: 'FixedLenSequenceFeature';
  readonly shape: number[];
  readonly dtype: OutDType;
  readonly allowMissing: boolean;
  readonly defaultValue: unknown;
}
/** What `ef.io.VarLenFeature(dtype)` returns: a feature of any length, parsed into an `ef.SparseTensor`. */
export interface VarLenFeatureSpec {
  readonly kind: 'VarLenFeature';
  readonly dtype: OutDType;
}
/** A feature spec of the parse functions: FixedLenFeature, FixedLenSequenceFeature or VarLenFeature. */
export type FeatureSpec = FixedLenFeatureSpec | FixedLenSequenceFeatureSpec | VarLenFeatureSpec;

/** TF's dtypes of features: float32 (float), int64 (int32 here, by the dtype contract) and string. */
function featureDType(api: string, d: unknown): OutDType {
  if (d === 'float32' || d === 'float') return 'float32';
  if (d === 'int64' || d === 'int32') return 'int32';
  if (d === 'string') return 'string';
  throw typeError(api, 'unsupported feature dtype', describe(d), "'float32', 'int64' (read as int32) or 'string'", 'tf.train.Example holds float, int64 and bytes lists only.');
}

function shapeOf(api: string, s: unknown): number[] {
  if (!Array.isArray(s) || s.some((d) => !Number.isInteger(d) || d < 0)) throw typeError(api, 'shape must be an array of non-negative integers', describe(s), 'e.g. [] or [3]', 'Fixed-length features have fully known shapes.');
  return s.slice();
}

/**
 * A feature with a fixed number of values per example: a tensor of `shape` (TF's FixedLenFeature).
 * @example
 * ef.io.FixedLenFeature([2], 'float32').kind; // 'FixedLenFeature'
 */
export function FixedLenFeature(shape: number[], dtype: string, options: { defaultValue?: unknown } = {}): FixedLenFeatureSpec {
  const api = 'ef.io.FixedLenFeature';
  return { kind: 'FixedLenFeature', shape: shapeOf(api, shape), dtype: featureDType(api, dtype), defaultValue: options.defaultValue ?? null };
}

/** Values forming a sequence of `shape`-shaped items, padded to the batch's longest (TF's FixedLenSequenceFeature). */
export function FixedLenSequenceFeature(shape: number[], dtype: string, options: { allowMissing?: boolean; defaultValue?: unknown } = {}): FixedLenSequenceFeatureSpec {
  const api = 'ef.io.FixedLenSequenceFeature';
  return { kind: 'FixedLenSequenceFeature', shape: shapeOf(api, shape), dtype: featureDType(api, dtype), allowMissing: options.allowMissing === true, defaultValue: options.defaultValue ?? null };
}

/** Any number of values per example, parsed to an ef.SparseTensor (TF's VarLenFeature). */
export function VarLenFeature(dtype: string): VarLenFeatureSpec {
  return { kind: 'VarLenFeature', dtype: featureDType('ef.io.VarLenFeature', dtype) };
}

const KIND_OF: Record<OutDType, string> = { float32: 'float', int32: 'int64', string: 'bytes' };
const LIST_OF: Record<OutDType, string> = { float32: 'float_list', int32: 'int64_list', string: 'bytes_list' };
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

interface Where {
  api: string;
  record: number;
}

/** A bad feature value: TF's wording in `what`, then the feature and the record it is in. */
function fail(w: Where, key: string, what: string, got: string, expected: string, fix: string): never {
  throw argError(w.api, `${what} (feature '${key}', record ${w.record})`, got, expected, fix);
}

/** The values of one Feature proto object as `dtype`, checking TF's type match and int32's range. */
function featureValues(w: Where, key: string, f: Record<string, unknown> | undefined, dtype: OutDType): Value[] {
  if (f === undefined) return [];
  const kinds = ['bytes_list', 'float_list', 'int64_list'].filter((k) => f[k] !== undefined);
  if (kinds.length === 0) return [];
  const want = LIST_OF[dtype];
  if (kinds[0] !== want) {
    const got = { bytes_list: 'bytes', float_list: 'float', int64_list: 'int64' }[kinds[0]];
    fail(w, key, `Data types don't match. Data type: ${got} but expected type: ${KIND_OF[dtype]}`, `a ${got} list`, `a ${KIND_OF[dtype]} list`, 'Declare the feature with the dtype the examples hold');
  }
  const vals = ((f[want] as { value?: Value[] }).value ?? []) as Value[];
  if (dtype === 'int32') {
    for (const v of vals as number[]) {
      if (v < INT32_MIN || v > INT32_MAX) fail(w, key, `int64 value ${v} is outside int32's range; EagerFlow reads int64 features as int32 and never wraps`, String(v), `a value in [${INT32_MIN}, ${INT32_MAX}]`, 'Store smaller values, or store it as a float or bytes feature');
    }
  }
  return vals;
}

function size(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** A feature spec's default values as a flat list of `n` values, or null when it has none (the feature is required). */
function defaults(api: string, key: string, spec: { dtype: OutDType; defaultValue: unknown }, n: number): Value[] | null {
  const d = spec.defaultValue;
  if (d === null || d === undefined) return null;
  const flat = (Array.isArray(d) ? (d as unknown[]).flat(Infinity) : [d]) as unknown[];
  const conv = flat.map((v): Value => {
    if (spec.dtype === 'string') {
      if (typeof v === 'string') return new TextEncoder().encode(v);
      if (v instanceof Uint8Array) return v;
    } else if (typeof v === 'number') return v;
    throw typeError(api, `defaultValue of feature '${key}' does not match its dtype`, describe(v), spec.dtype === 'string' ? 'strings or Uint8Arrays' : 'numbers', 'Give a default of the feature\'s dtype.');
  });
  if (conv.length === 1 && n !== 1) return new Array<Value>(n).fill(conv[0]);
  if (conv.length !== n) throw argError(api, `defaultValue of feature '${key}' has ${conv.length} values`, describe(d), `${n} values (the feature's shape) or a scalar`, 'Match the shape.');
  return conv;
}

function zero(dtype: OutDType): Value {
  return dtype === 'string' ? new Uint8Array(0) : 0;
}

function tensorOf(dtype: OutDType, values: Value[], shape: number[]): Tensor {
  if (dtype === 'string') return constant(values as Uint8Array[], 'string', shape);
  return constant(dtype === 'float32' ? Float32Array.from(values as number[]) : Int32Array.from(values as number[]), dtype, shape);
}

type FeatureMap = Record<string, Record<string, unknown>>;
type Parsed = Record<string, Tensor | SparseTensor>;

/** Parses the `features` of a batch of feature maps (Examples' features, or SequenceExamples' contexts). */
/** Runs `build`, which fills `parts`; when it fails, the tensors already made are freed (a bad record leaks nothing). */
function freeingOnError<T>(parts: Parsed[], build: () => T): T {
  try {
    return build();
  } catch (e) {
    for (const p of parts) for (const v of Object.values(p)) v.dispose();
    throw e;
  }
}

function parseFeatureMaps(api: string, maps: FeatureMap[], specs: Record<string, FeatureSpec>, single: boolean): Parsed {
  const out: Parsed = {};
  return freeingOnError([out], () => parseFeatureMapsInto(out, api, maps, specs, single));
}

function parseFeatureMapsInto(out: Parsed, api: string, maps: FeatureMap[], specs: Record<string, FeatureSpec>, single: boolean): Parsed {
  const B = maps.length;
  for (const key of Object.keys(specs).sort()) {
    const spec = specs[key];
    const per = maps.map((m, record) => featureValues({ api, record }, key, m[key], spec.dtype));
    if (spec.kind === 'FixedLenFeature') {
      const n = size(spec.shape);
      const dflt = defaults(api, key, spec, n);
      const flat: Value[] = [];
      per.forEach((vals, record) => {
        const present = maps[record][key] !== undefined;
        if (!present) {
          if (dflt === null) fail({ api, record }, key, `Feature: ${key} (data type: ${KIND_OF[spec.dtype]}) is required but could not be found`, 'no such feature', `a feature '${key}'`, "Give the spec a defaultValue, or check the feature's name");
          flat.push(...dflt);
        } else if (vals.length !== n) {
          fail({ api, record }, key, `Number of ${KIND_OF[spec.dtype]} values != expected. Values size: ${vals.length} but output shape: [${spec.shape.join(',')}]`, `${vals.length} values`, `${n} values`, 'Use a FixedLenFeature of the right shape, or a VarLenFeature');
        } else flat.push(...vals);
      });
      out[key] = tensorOf(spec.dtype, flat, single ? spec.shape : [B, ...spec.shape]);
    } else if (spec.kind === 'FixedLenSequenceFeature') {
      if (!spec.allowMissing) throw argError(api, `FixedLenSequenceFeature '${key}' in an Example needs allowMissing: true`, 'allowMissing false', 'allowMissing: true', 'TF requires it too: pass FixedLenSequenceFeature(shape, dtype, {allowMissing: true}).');
      const n = size(spec.shape);
      const lens = per.map((vals, record) => {
        if (n === 0 ? vals.length !== 0 : vals.length % n !== 0) fail({ api, record }, key, `Number of values is not a multiple of the item size ${n}`, `${vals.length} values`, `a multiple of ${n} (item shape [${spec.shape.join(',')}])`, 'Give every record whole items of the declared shape');
        return n === 0 ? 0 : vals.length / n;
      });
      const T = Math.max(0, ...lens);
      const pad = defaults(api, key, spec, 1)?.[0] ?? zero(spec.dtype);
      const flat: Value[] = [];
      per.forEach((vals) => {
        flat.push(...vals);
        for (let i = vals.length; i < T * n; i++) flat.push(pad);
      });
      out[key] = tensorOf(spec.dtype, flat, single ? [T, ...spec.shape] : [B, T, ...spec.shape]);
    } else {
      out[key] = sparseOf(spec.dtype, per.map((v) => [v]), single, false);
    }
  }
  return out;
}

/**
 * A SparseTensor from per-record lists of per-step value lists: indices [b, (t,) i] (without b when single).
 * `steps` marks a sequence feature (a middle dimension of time steps).
 */
function sparseOf(dtype: OutDType, perRecord: Value[][][], single: boolean, steps: boolean): SparseTensor {
  const indices: number[][] = [];
  const values: Value[] = [];
  let maxT = 0;
  let maxLen = 0;
  perRecord.forEach((stepsOf, b) => {
    maxT = Math.max(maxT, stepsOf.length);
    stepsOf.forEach((vals, t) => {
      maxLen = Math.max(maxLen, vals.length);
      vals.forEach((v, i) => {
        const row = [...(single ? [] : [b]), ...(steps ? [t] : []), i];
        indices.push(row);
        values.push(v);
      });
    });
  });
  const rank = (single ? 0 : 1) + (steps ? 1 : 0) + 1;
  const denseShape = [...(single ? [] : [perRecord.length]), ...(steps ? [maxT] : []), maxLen];
  return new SparseTensor({
    indices: constant(Int32Array.from(indices.flat()), 'int32', [indices.length, rank]),
    values: tensorOf(dtype, values, [values.length]),
    denseShape: constant(Int32Array.from(denseShape), 'int32', [rank]),
  });
}

/** The serialized records of a string tensor (or of Uint8Arrays/strings given directly), and whether it was a scalar. */
function recordsOf(api: string, serialized: unknown): { records: Uint8Array[]; scalar: boolean } {
  if (serialized instanceof Tensor) {
    if (serialized.dtype !== 'string') throw typeError(api, 'serialized must be a string tensor', `a ${serialized.dtype} tensor`, 'string (bytes) tensor of serialized protos', 'Pass the records of a TFRecordDataset.');
    if ((serialized.rank ?? 0) > 1) throw argError(api, 'serialized must be a scalar or a vector', `shape ${serialized.shape}`, 'rank 0 or 1', 'Reshape the batch to a vector.');
    return { records: serialized.bytes(), scalar: serialized.rank === 0 };
  }
  if (serialized instanceof Uint8Array) return { records: [serialized], scalar: true };
  if (Array.isArray(serialized) && serialized.every((r) => r instanceof Uint8Array)) return { records: serialized as Uint8Array[], scalar: false };
  throw typeError(api, 'serialized must be serialized protos', describe(serialized), 'a string tensor, a Uint8Array or an array of Uint8Arrays', 'Pass e.g. example.serializeToString().');
}

function checkSpecs(api: string, specs: unknown, what: string): Record<string, FeatureSpec> {
  if (specs === null || specs === undefined) return {};
  if (typeof specs !== 'object' || Array.isArray(specs)) throw typeError(api, `${what} must be a dict of feature specs`, describe(specs), '{name: ef.io.FixedLenFeature(...) | VarLenFeature(...) | ...}', 'Pass an object of specs.');
  for (const [k, s] of Object.entries(specs as Record<string, unknown>)) {
    const kind = (s as FeatureSpec | null)?.kind;
    if (kind !== 'FixedLenFeature' && kind !== 'FixedLenSequenceFeature' && kind !== 'VarLenFeature') {
      throw typeError(api, `${what}['${k}'] is not a feature spec`, describe(s), 'ef.io.FixedLenFeature, FixedLenSequenceFeature or VarLenFeature', 'Build specs with those functions.');
    }
  }
  return specs as Record<string, FeatureSpec>;
}

function featureMap(p: Record<string, unknown> | undefined): FeatureMap {
  return ((p?.feature ?? {}) as FeatureMap);
}

/** Eager parse of Examples. */
function parseExamplesHost(api: string, records: Uint8Array[], specs: Record<string, FeatureSpec>, single: boolean): Parsed {
  const maps = records.map((r, i) => {
    return featureMap(decode(api, 'tensorflow.Example', r, ` (record ${i})`).features as Record<string, unknown> | undefined);
  });
  return parseFeatureMaps(api, maps, specs, single);
}

/** Flat outputs of a parse (sparse ones as their three parts), in key order, for the traced path. */
function flatOutputs(parsed: Parsed[]): Tensor[] {
  return parsed.flatMap((p) => Object.keys(p).sort().flatMap((k) => {
    const v = p[k];
    return v instanceof SparseTensor ? [v.indices, v.values, v.denseShape] : [v];
  }));
}

interface OutSlot {
  group: number;
  key: string;
  spec: FeatureSpec;
  /** Static shape of a dense output (null dims unknown), given the input's static batch size. */
  dims: (number | null)[] | null;
}

/**
 * Runs `hostParse` on the records of `serialized`: eagerly on the host, or inside a trace as a host callback with
 * the outputs' dtypes and static shapes declared (so a Dataset.map of it has a precise element spec).
 */
function run(api: string, serialized: unknown, slots: OutSlot[], groups: number, hostParse: (records: Uint8Array[], scalar: boolean) => Parsed[]): Parsed[] {
  if (serialized instanceof Tensor && serialized.isSymbolic) {
    if (serialized.dtype !== 'string') throw typeError(api, 'serialized must be a string tensor', `a ${serialized.dtype} tensor`, 'a string (bytes) tensor', 'Pass the records of a TFRecordDataset.');
    const Tout = slots.flatMap((s) => (s.spec.kind === 'VarLenFeature' ? ['int32', s.spec.dtype, 'int32'] : [s.spec.dtype])) as ('float32' | 'int32' | 'string')[];
    const outs = pyFunction((t: Tensor) => {
      const { records } = recordsOf(api, t);
      return flatOutputs(hostParse(records, t.rank === 0));
    }, [serialized], Tout) as Tensor | Tensor[];
    const list = Array.isArray(outs) ? outs : [outs];
    const result: Parsed[] = Array.from({ length: groups }, () => ({}));
    let at = 0;
    for (const s of slots) {
      if (s.spec.kind === 'VarLenFeature') {
        const [indices, values, denseShape] = list.slice(at, at + 3);
        at += 3;
        const rank = s.dims?.length ?? null;
        if (rank !== null) {
          indices.setShape([null, rank]);
          denseShape.setShape([rank]);
        }
        values.setShape([null]);
        result[s.group][s.key] = new SparseTensor({ indices, values, denseShape });
      } else {
        const t = list[at++];
        if (s.dims !== null) t.setShape(s.dims);
        result[s.group][s.key] = t;
      }
    }
    return result;
  }
  const { records, scalar } = recordsOf(api, serialized);
  return hostParse(records, scalar);
}

function slotDims(spec: FeatureSpec, batch: number | null, single: boolean, sequence: boolean): (number | null)[] {
  const lead = single ? [] : [batch];
  if (spec.kind === 'FixedLenFeature') return [...lead, ...spec.shape];
  if (spec.kind === 'FixedLenSequenceFeature') return [...lead, null, ...spec.shape];
  // VarLen: the rank of its indices' rows.
  return [...lead, ...(sequence ? [null] : []), null];
}

/**
 * Parses a batch (vector) of serialized tf.train.Examples: `{name: Tensor | SparseTensor}`, as tf.io.parse_example.
 * Works eagerly and inside traced functions (Dataset.map).
 * @example
 * const ex = new ef.train.Example({ features: { feature: { x: { floatList: { value: [1, 2] } }, id: { int64List: { value: [7] } } } } });
 * const out = ef.io.parseExample(ef.constant([ex.serializeToString()]), {
 *   x: ef.io.FixedLenFeature([2], 'float32'),
 *   id: ef.io.FixedLenFeature([], 'int64'),
 *   tags: ef.io.VarLenFeature('string'),
 * });
 * (out.x as ef.Tensor).arraySync(); // [[1, 2]]
 * (out.id as ef.Tensor).arraySync(); // [7]
 * (out.tags as ef.SparseTensor).denseShape.arraySync(); // [1, 0]
 */
export function parseExample(serialized: TensorLike | Uint8Array[], features: Record<string, FeatureSpec>): Parsed {
  return parseExamples('ef.io.parseExample', serialized, features, false);
}

/** Parses one serialized tf.train.Example (a scalar): as parseExample without the batch dimension. */
export function parseSingleExample(serialized: TensorLike | Uint8Array, features: Record<string, FeatureSpec>): Parsed {
  const api = 'ef.io.parseSingleExample';
  if (serialized instanceof Tensor && serialized.rank !== 0 && serialized.rank !== null) throw argError(api, 'serialized must be a scalar', `shape ${serialized.shape}`, 'a scalar string tensor', 'Use parseExample for a batch.');
  return parseExamples(api, serialized, features, true);
}

function parseExamples(api: string, serialized: unknown, features: Record<string, FeatureSpec>, single: boolean): Parsed {
  const specs = checkSpecs(api, features, 'features');
  const batch = serialized instanceof Tensor && serialized.rank === 1 ? serialized.dims?.[0] ?? null : null;
  const keys = Object.keys(specs).sort();
  const slots = keys.map((key) => ({ group: 0, key, spec: specs[key], dims: slotDims(specs[key], batch, single || (serialized instanceof Tensor && serialized.rank === 0), false) }));
  return run(api, serialized, slots, 1, (records, scalar) => [parseExamplesHost(api, records, specs, single || scalar)])[0];
}

/** Sequence features of a batch of feature_lists maps. */
function parseFeatureLists(api: string, lists: Record<string, { feature?: Record<string, unknown>[] }>[], specs: Record<string, FeatureSpec>, single: boolean): { values: Parsed; lengths: Parsed } {
  const values: Parsed = {};
  const lengths: Parsed = {};
  return freeingOnError([values, lengths], () => parseFeatureListsInto(values, lengths, api, lists, specs, single));
}

function parseFeatureListsInto(values: Parsed, lengths: Parsed, api: string, lists: Record<string, { feature?: Record<string, unknown>[] }>[], specs: Record<string, FeatureSpec>, single: boolean): { values: Parsed; lengths: Parsed } {
  const B = lists.length;
  for (const key of Object.keys(specs).sort()) {
    const spec = specs[key];
    const per = lists.map((l, record) => {
      const fl = l[key];
      if (fl === undefined) {
        if (spec.kind === 'FixedLenSequenceFeature' && !spec.allowMissing) fail({ api, record }, key, `Feature list '${key}' is required but could not be found`, 'no such feature list', `a feature list '${key}'`, 'Pass allowMissing: true to read a missing list as empty');
        return [] as Value[][];
      }
      return (fl.feature ?? []).map((f) => featureValues({ api, record }, key, f, spec.dtype));
    });
    if (spec.kind === 'VarLenFeature') {
      values[key] = sparseOf(spec.dtype, per, single, true);
    } else if (spec.kind === 'FixedLenSequenceFeature') {
      const n = size(spec.shape);
      per.forEach((steps, record) => steps.forEach((vals, t) => {
        if (vals.length !== n) fail({ api, record }, key, `Step ${t}: number of ${KIND_OF[spec.dtype]} values != expected. Values size: ${vals.length} but output shape: [${spec.shape.join(',')}]`, `${vals.length} values`, `${n} values`, 'Give every step the declared shape');
      }));
      const T = Math.max(0, ...per.map((s) => s.length));
      const pad = defaults(api, key, spec, 1)?.[0] ?? zero(spec.dtype);
      const flat: Value[] = [];
      for (const steps of per) {
        for (const vals of steps) flat.push(...vals);
        for (let i = steps.length * n; i < T * n; i++) flat.push(pad);
      }
      values[key] = tensorOf(spec.dtype, flat, single ? [T, ...spec.shape] : [B, T, ...spec.shape]);
      if (!single) lengths[key] = constant(Int32Array.from(per.map((s) => s.length)), 'int32', [B]);
    } else {
      throw argError(api, `sequenceFeatures['${key}'] must be a FixedLenSequenceFeature or VarLenFeature`, 'a FixedLenFeature', 'a sequence feature spec', 'Use FixedLenSequenceFeature(shape, dtype) for per-step values.');
    }
  }
  return { values, lengths };
}

function parseSequenceHost(api: string, records: Uint8Array[], ctx: Record<string, FeatureSpec>, seq: Record<string, FeatureSpec>, single: boolean): Parsed[] {
  const decoded = records.map((r, i) => {
    return decode(api, 'tensorflow.SequenceExample', r, ` (record ${i})`);
  });
  const context = parseFeatureMaps(api, decoded.map((d) => featureMap(d.context as Record<string, unknown> | undefined)), ctx, single);
  const lists = decoded.map((d) => ((d.feature_lists as { feature_list?: Record<string, { feature?: Record<string, unknown>[] }> } | undefined)?.feature_list ?? {}));
  const { values, lengths } = freeingOnError([context], () => parseFeatureLists(api, lists, seq, single));
  return single ? [context, values] : [context, values, lengths];
}

function sequenceSlots(ctx: Record<string, FeatureSpec>, seq: Record<string, FeatureSpec>, batch: number | null, single: boolean): OutSlot[] {
  const slots: OutSlot[] = Object.keys(ctx).sort().map((key) => ({ group: 0, key, spec: ctx[key], dims: slotDims(ctx[key], batch, single, false) }));
  for (const key of Object.keys(seq).sort()) slots.push({ group: 1, key, spec: seq[key], dims: slotDims(seq[key], batch, single, true) });
  if (!single) {
    for (const key of Object.keys(seq).sort()) {
      if (seq[key].kind === 'FixedLenSequenceFeature') slots.push({ group: 2, key, spec: FixedLenFeature([], 'int32'), dims: [batch] });
    }
  }
  return slots;
}

/** Sequence feature specs. */
export interface SequenceFeatures {
  contextFeatures?: Record<string, FeatureSpec> | null;
  sequenceFeatures?: Record<string, FeatureSpec> | null;
}

/**
 * Parses a batch of serialized tf.train.SequenceExamples: `[context, featureLists, lengths]`, as
 * tf.io.parse_sequence_example (lengths: the number of steps of each FixedLenSequenceFeature, per example).
 */
export function parseSequenceExample(serialized: TensorLike | Uint8Array[], features: SequenceFeatures): [Parsed, Parsed, Parsed] {
  const api = 'ef.io.parseSequenceExample';
  return parseSequences(api, serialized, features, false) as [Parsed, Parsed, Parsed];
}

/**
 * Parses one serialized tf.train.SequenceExample: `[context, featureLists]`, as tf.io.parse_single_sequence_example.
 * @example
 * const se = new ef.train.SequenceExample({
 *   context: { feature: { label: { int64List: { value: [1] } } } },
 *   featureLists: { featureList: { tok: { feature: [{ int64List: { value: [4] } }, { int64List: { value: [5] } }] } } },
 * });
 * const [ctx, seq] = ef.io.parseSingleSequenceExample(se.serializeToString(), {
 *   contextFeatures: { label: ef.io.FixedLenFeature([], 'int64') },
 *   sequenceFeatures: { tok: ef.io.FixedLenSequenceFeature([], 'int64') },
 * });
 * (ctx.label as ef.Tensor).arraySync(); // 1
 * (seq.tok as ef.Tensor).arraySync(); // [4, 5]
 */
export function parseSingleSequenceExample(serialized: TensorLike | Uint8Array, features: SequenceFeatures): [Parsed, Parsed] {
  const api = 'ef.io.parseSingleSequenceExample';
  if (serialized instanceof Tensor && serialized.rank !== 0 && serialized.rank !== null) throw argError(api, 'serialized must be a scalar', `shape ${serialized.shape}`, 'a scalar string tensor', 'Use parseSequenceExample for a batch.');
  return parseSequences(api, serialized, features, true) as [Parsed, Parsed];
}

function parseSequences(api: string, serialized: unknown, features: SequenceFeatures, single: boolean): Parsed[] {
  if (features === null || typeof features !== 'object') throw typeError(api, 'features must be {contextFeatures, sequenceFeatures}', describe(features), 'an object', 'Pass {contextFeatures: {...}, sequenceFeatures: {...}}.');
  const ctx = checkSpecs(api, features.contextFeatures, 'contextFeatures');
  const seq = checkSpecs(api, features.sequenceFeatures, 'sequenceFeatures');
  const batch = serialized instanceof Tensor && serialized.rank === 1 ? serialized.dims?.[0] ?? null : null;
  const scalarIn = single || (serialized instanceof Tensor && serialized.rank === 0);
  if (!single && scalarIn) throw argError(api, 'serialized must be a vector', 'a scalar', 'a vector of serialized SequenceExamples', 'Use parseSingleSequenceExample for one.');
  return run(api, serialized, sequenceSlots(ctx, seq, batch, single), single ? 2 : 3, (records) => parseSequenceHost(api, records, ctx, seq, single));
}
