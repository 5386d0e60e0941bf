// ef.train.Example and friends: TF's tf.train.Example protos (tensorflow/core/example/{example,feature}.proto) as
// classes built from plain objects. The wire format is protobufjs's encoding of TF's own schema
// (@eagerflow/saving's tfProto), so the bytes are TF's; map keys are written sorted, as TF's deterministic
// serialization does. Field names are TF's in camelCase (floatList, featureLists); snake_case is accepted too.
import { argError, describe, typeError } from '@eagerflow/core';
import { decodeTfProto, encodeTfProto } from '@eagerflow/saving';

/** A list of values of one kind. int64 values are JS numbers (or bigints when building). */
export interface FeatureInit {
  bytesList?: { value: (Uint8Array | string)[] } | null;
  floatList?: { value: ArrayLike<number> } | null;
  int64List?: { value: ArrayLike<number | bigint> } | null;
}
/** `ef.train.Features`' fields in TF's names: `feature`, a map of name to Feature (or its plain-object form). */
export interface FeaturesInit {
  feature?: Record<string, Feature | FeatureInit>;
}
/** `ef.train.FeatureList`'s fields in TF's names: `feature`, the list of Features. */
export interface FeatureListInit {
  feature?: (Feature | FeatureInit)[];
}
/** `ef.train.FeatureLists`' fields in TF's names: `featureList`, a map of name to FeatureList. */
export interface FeatureListsInit {
  featureList?: Record<string, FeatureList | FeatureListInit>;
}
/** `ef.train.Example`'s fields in TF's names: `features`. */
export interface ExampleInit {
  features?: Features | FeaturesInit | null;
}
/** `ef.train.SequenceExample`'s fields in TF's names: `context` (Features) and `featureLists` (FeatureLists). */
export interface SequenceExampleInit {
  context?: Features | FeaturesInit | null;
  featureLists?: FeatureLists | FeatureListsInit | null;
}

const enc = new TextEncoder();

/** A field by its camelCase or snake_case name. */
function field<T>(o: object, camel: string, snake: string): T | undefined {
  const r = o as Record<string, T | undefined>;
  return r[camel] ?? r[snake];
}

function plainObject(api: string, what: string, v: unknown): Record<string, unknown> {
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw typeError(api, `${what} must be an object`, describe(v), `a plain object of TF's fields`, `Pass e.g. new ef.train.Feature({floatList: {value: [1, 2]}}).`);
  return v as Record<string, unknown>;
}

/** One feature: exactly one of bytesList, floatList, int64List (or none: an empty feature). */
export class Feature {
  readonly bytesList: { value: Uint8Array[] } | null;
  readonly floatList: { value: number[] } | null;
  readonly int64List: { value: number[] } | null;

  constructor(init: FeatureInit = {}) {
    const api = 'ef.train.Feature';
    const o = plainObject(api, 'the feature', init);
    const b = field<{ value: unknown }>(o, 'bytesList', 'bytes_list');
    const f = field<{ value: unknown }>(o, 'floatList', 'float_list');
    const i = field<{ value: unknown }>(o, 'int64List', 'int64_list');
    const set = [b, f, i].filter((x) => x !== undefined && x !== null).length;
    if (set > 1) throw typeError(api, 'a Feature holds one kind of list', 'more than one of bytesList, floatList, int64List', 'exactly one', 'Make one Feature per list.');
    const values = (x: { value: unknown } | undefined | null, kind: string): unknown[] | null => {
      if (x === undefined || x === null) return null;
      const v = (x as { value?: unknown }).value ?? [];
      if (!Array.isArray(v) && !ArrayBuffer.isView(v)) throw typeError(api, `${kind}.value must be a list`, describe(v), 'an array', `Pass {${kind}: {value: [...]}}.`);
      return Array.from(v as ArrayLike<unknown>);
    };
    const bv = values(b, 'bytesList');
    this.bytesList = bv === null ? null : {
      value: bv.map((x, k) => {
        if (typeof x === 'string') return enc.encode(x);
        if (x instanceof Uint8Array) return x;
        throw typeError(api, `bytesList.value[${k}] must be bytes`, describe(x), 'a Uint8Array or a string (UTF-8)', 'Encode the value as bytes.');
      }),
    };
    const fv = values(f, 'floatList');
    this.floatList = fv === null ? null : {
      value: fv.map((x, k) => {
        if (typeof x !== 'number') throw typeError(api, `floatList.value[${k}] must be a number`, describe(x), 'a number', 'Pass numbers.');
        return x;
      }),
    };
    const iv = values(i, 'int64List');
    this.int64List = iv === null ? null : {
      value: iv.map((x, k) => {
        const n = typeof x === 'bigint' ? Number(x) : x;
        if (typeof n !== 'number' || !Number.isInteger(n)) throw typeError(api, `int64List.value[${k}] must be an integer`, describe(x), 'an integer (number or bigint)', 'Pass integers.');
        return n;
      }),
    };
  }

  /** @internal TF's snake_case object for protobufjs. */
  _proto(): Record<string, unknown> {
    if (this.bytesList) return { bytes_list: { value: this.bytesList.value } };
    if (this.floatList) return { float_list: { value: this.floatList.value } };
    if (this.int64List) return { int64_list: { value: this.int64List.value } };
    return {};
  }

  /** @internal From protobufjs's decoded object. */
  static _fromProto(p: Record<string, unknown>): Feature {
    const b = p.bytes_list as { value?: Uint8Array[] } | undefined;
    const f = p.float_list as { value?: number[] } | undefined;
    const i = p.int64_list as { value?: number[] } | undefined;
    return new Feature(b ? { bytesList: { value: b.value ?? [] } } : f ? { floatList: { value: f.value ?? [] } } : i ? { int64List: { value: i.value ?? [] } } : {});
  }

  /** The message's protobuf bytes, as TF's `SerializeToString()` writes them (deterministic field order). */
  serializeToString(): Uint8Array {
    return encodeTfProto('tensorflow.Feature', this._proto());
  }

  /** Parses protobuf bytes (TF's `FromString`); malformed bytes are an InvalidArgumentError. */
  static fromString(bytes: Uint8Array): Feature {
    return Feature._fromProto(decode('ef.train.Feature.fromString', 'tensorflow.Feature', bytes));
  }
}

const asFeature = (f: Feature | FeatureInit): Feature => (f instanceof Feature ? f : new Feature(f));

function sortedEntries<T>(o: Record<string, T>): [string, T][] {
  return Object.keys(o).sort().map((k) => [k, o[k]]);
}

/** A map from feature names to Features. */
export class Features {
  readonly feature: Record<string, Feature>;

  constructor(init: FeaturesInit = {}) {
    const o = plainObject('ef.train.Features', 'the features', init);
    const m = plainObject('ef.train.Features', 'feature', o.feature);
    this.feature = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, asFeature(v as Feature | FeatureInit)]));
  }

  /** @internal */
  _proto(): Record<string, unknown> {
    return { feature: Object.fromEntries(sortedEntries(this.feature).map(([k, f]) => [k, f._proto()])) };
  }

  /** @internal */
  static _fromProto(p: Record<string, unknown> | undefined): Features {
    const m = (p?.feature ?? {}) as Record<string, Record<string, unknown>>;
    return new Features({ feature: Object.fromEntries(Object.entries(m).map(([k, f]) => [k, Feature._fromProto(f)])) });
  }

  /** The message's protobuf bytes, as TF's `SerializeToString()` writes them (deterministic field order). */
  serializeToString(): Uint8Array {
    return encodeTfProto('tensorflow.Features', this._proto());
  }

  /** Parses protobuf bytes (TF's `FromString`); malformed bytes are an InvalidArgumentError. */
  static fromString(bytes: Uint8Array): Features {
    return Features._fromProto(decode('ef.train.Features.fromString', 'tensorflow.Features', bytes));
  }
}

const asFeatures = (f: Features | FeaturesInit | null | undefined): Features => (f instanceof Features ? f : new Features(f ?? {}));

/** A list of Features (one per time step of a SequenceExample). */
export class FeatureList {
  readonly feature: Feature[];

  constructor(init: FeatureListInit = {}) {
    const o = plainObject('ef.train.FeatureList', 'the feature list', init);
    const list = o.feature ?? [];
    if (!Array.isArray(list)) throw typeError('ef.train.FeatureList', 'feature must be an array', describe(list), 'an array of Features', 'Pass {feature: [f0, f1, ...]}.');
    this.feature = list.map((f) => asFeature(f as Feature | FeatureInit));
  }

  /** @internal */
  _proto(): Record<string, unknown> {
    return { feature: this.feature.map((f) => f._proto()) };
  }

  /** @internal */
  static _fromProto(p: Record<string, unknown> | undefined): FeatureList {
    return new FeatureList({ feature: ((p?.feature ?? []) as Record<string, unknown>[]).map((f) => Feature._fromProto(f)) });
  }

  /** The message's protobuf bytes, as TF's `SerializeToString()` writes them (deterministic field order). */
  serializeToString(): Uint8Array {
    return encodeTfProto('tensorflow.FeatureList', this._proto());
  }

  /** Parses protobuf bytes (TF's `FromString`); malformed bytes are an InvalidArgumentError. */
  static fromString(bytes: Uint8Array): FeatureList {
    return FeatureList._fromProto(decode('ef.train.FeatureList.fromString', 'tensorflow.FeatureList', bytes));
  }
}

/** A map from names to FeatureLists. */
export class FeatureLists {
  readonly featureList: Record<string, FeatureList>;

  constructor(init: FeatureListsInit = {}) {
    const o = plainObject('ef.train.FeatureLists', 'the feature lists', init);
    const m = plainObject('ef.train.FeatureLists', 'featureList', field(o, 'featureList', 'feature_list'));
    this.featureList = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v instanceof FeatureList ? v : new FeatureList(v as FeatureListInit)]));
  }

  /** @internal */
  _proto(): Record<string, unknown> {
    return { feature_list: Object.fromEntries(sortedEntries(this.featureList).map(([k, f]) => [k, f._proto()])) };
  }

  /** @internal */
  static _fromProto(p: Record<string, unknown> | undefined): FeatureLists {
    const m = (p?.feature_list ?? {}) as Record<string, Record<string, unknown>>;
    return new FeatureLists({ featureList: Object.fromEntries(Object.entries(m).map(([k, f]) => [k, FeatureList._fromProto(f)])) });
  }

  /** The message's protobuf bytes, as TF's `SerializeToString()` writes them (deterministic field order). */
  serializeToString(): Uint8Array {
    return encodeTfProto('tensorflow.FeatureLists', this._proto());
  }

  /** Parses protobuf bytes (TF's `FromString`); malformed bytes are an InvalidArgumentError. */
  static fromString(bytes: Uint8Array): FeatureLists {
    return FeatureLists._fromProto(decode('ef.train.FeatureLists.fromString', 'tensorflow.FeatureLists', bytes));
  }
}

/**
 * TF's tf.train.Example: named features, the record type of TFRecord datasets.
 * @example
 * const ex = new ef.train.Example({ features: new ef.train.Features({ feature: {
 *   x: new ef.train.Feature({ floatList: { value: [1, 2] } }),
 *   id: new ef.train.Feature({ int64List: { value: [7] } }),
 *   raw: { bytesList: { value: ['hi'] } },
 * } }) });
 * const back = ef.train.Example.fromString(ex.serializeToString());
 * back.features.feature.x.floatList.value; // [1, 2]
 * back.features.feature.id.int64List.value; // [7]
 */
export class Example {
  readonly features: Features;

  constructor(init: ExampleInit = {}) {
    const o = plainObject('ef.train.Example', 'the example', init);
    this.features = asFeatures(o.features as Features | FeaturesInit | null | undefined);
  }

  /** The proto's bytes (TF's wire format; map keys sorted as TF's deterministic serialization). */
  /** The message's protobuf bytes, as TF's `SerializeToString()` writes them (deterministic field order). */
  serializeToString(): Uint8Array {
    return encodeTfProto('tensorflow.Example', { features: this.features._proto() });
  }

  /** Parses TF's serialized Example; malformed bytes are an InvalidArgumentError. */
  /** Parses protobuf bytes (TF's `FromString`); malformed bytes are an InvalidArgumentError. */
  static fromString(bytes: Uint8Array): Example {
    const p = decode('ef.train.Example.fromString', 'tensorflow.Example', bytes);
    return new Example({ features: Features._fromProto(p.features as Record<string, unknown> | undefined) });
  }
}

/** TF's tf.train.SequenceExample: context features and feature lists (one Feature per time step). */
export class SequenceExample {
  readonly context: Features;
  readonly featureLists: FeatureLists;

  constructor(init: SequenceExampleInit = {}) {
    const o = plainObject('ef.train.SequenceExample', 'the sequence example', init);
    this.context = asFeatures(o.context as Features | FeaturesInit | null | undefined);
    const fl = field<FeatureLists | FeatureListsInit | null>(o, 'featureLists', 'feature_lists');
    this.featureLists = fl instanceof FeatureLists ? fl : new FeatureLists(fl ?? {});
  }

  /** The message's protobuf bytes, as TF's `SerializeToString()` writes them (deterministic field order). */
  serializeToString(): Uint8Array {
    return encodeTfProto('tensorflow.SequenceExample', { context: this.context._proto(), feature_lists: this.featureLists._proto() });
  }

  /** Parses protobuf bytes (TF's `FromString`); malformed bytes are an InvalidArgumentError. */
  static fromString(bytes: Uint8Array): SequenceExample {
    const p = decode('ef.train.SequenceExample.fromString', 'tensorflow.SequenceExample', bytes);
    return new SequenceExample({ context: Features._fromProto(p.context as Record<string, unknown> | undefined), featureLists: FeatureLists._fromProto(p.feature_lists as Record<string, unknown> | undefined) });
  }
}

/** protobufjs's decode, its errors as InvalidArgumentError naming the API (and `where`, e.g. ' (record 3)'). */
export function decode(api: string, type: string, bytes: Uint8Array, where = ''): Record<string, unknown> {
  if (!(bytes instanceof Uint8Array)) throw typeError(api, 'expected serialized bytes', describe(bytes), 'a Uint8Array', 'Pass the bytes of a serialized proto (e.g. a record of a TFRecordDataset: t.bytes()[0]).');
  try {
    return decodeTfProto(type, bytes);
  } catch (e) {
    throw argError(api, `cannot parse ${bytes.length} bytes as a ${type}${where}`, (e as Error).message, `a serialized ${type}`, `The bytes are not a serialized ${type.replace('tensorflow.', '')}: check which records the file holds`, { opName: api, cause: e });
  }
}
