// ef.train.Example/SequenceExample and ef.io.parse*Example against TF 2.21 (fixtures of
// scripts/tf-golden/tfrecord_files.py): byte-identical serialization, TF's parse results eagerly and inside
// Dataset.map over the TFRecord files TF wrote, and TF's errors as InvalidArgumentErrors naming record and feature.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import { thrown } from '../../../../test/harness/thrown';

const FIX = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tfrecord');
type Content = Record<string, [string, (number | string)[]]>;
type SpecJson = [string, number[] | null, string, { defaultValue?: unknown; allowMissing?: boolean }];
const fx = JSON.parse(fs.readFileSync(path.join(FIX, 'examples.json'), 'utf8')) as {
  examples: Content[];
  specs: Record<string, SpecJson>;
  serialized: string[];
  parse_example: Record<string, unknown>;
  parse_single_example: Record<string, unknown>[];
  sequence_examples: { context: Content; lists: Record<string, [string, (number | string)[]][]> }[];
  context_specs: Record<string, SpecJson>;
  sequence_specs: Record<string, SpecJson>;
  sequence_serialized: string[];
  parse_sequence_example: Record<string, unknown>[];
  parse_single_sequence_example: Record<string, unknown>[][];
};

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

function feature([kind, values]: [string, (number | string)[]]): ef.train.Feature {
  if (kind === 'float') return new ef.train.Feature({ floatList: { value: values as number[] } });
  if (kind === 'int64') return new ef.train.Feature({ int64List: { value: values as number[] } });
  return new ef.train.Feature({ bytesList: { value: (values as string[]).map(unhex) } });
}

const features = (c: Content): ef.train.Features => new ef.train.Features({ feature: Object.fromEntries(Object.entries(c).map(([k, v]) => [k, feature(v)])) });

function spec([kind, shape, dtype, o]: SpecJson): ef.io.FeatureSpec {
  if (kind === 'FixedLenFeature') return ef.io.FixedLenFeature(shape as number[], dtype, { defaultValue: o.defaultValue });
  if (kind === 'FixedLenSequenceFeature') return ef.io.FixedLenSequenceFeature(shape as number[], dtype, { allowMissing: o.allowMissing, defaultValue: o.defaultValue });
  return ef.io.VarLenFeature(dtype);
}
const specs = (s: Record<string, SpecJson>): Record<string, ef.io.FeatureSpec> => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, spec(v)]));

/** Host values as TF's fixture writes them (bytes as hex, sparse as {indices, values, dense_shape}). */
function host(v: ef.Tensor | ef.SparseTensor): unknown {
  if (v instanceof ef.SparseTensor) return { indices: v.indices.arraySync(), values: host(v.values), dense_shape: v.denseShape.arraySync() };
  if (v.dtype === 'string') {
    const flat = v.bytes().map(hex);
    const dims = v.shape.dims as number[];
    const nest = (at: number, axis: number): unknown => (axis === dims.length ? flat[at] : Array.from({ length: dims[axis] }, (_, i) => nest(at * dims[axis] + i, axis + 1)));
    return dims.length === 0 ? flat[0] : nest(0, 0);
  }
  return v.arraySync();
}
const hostd = (d: Record<string, ef.Tensor | ef.SparseTensor>): Record<string, unknown> => Object.fromEntries(Object.keys(d).sort().map((k) => [k, host(d[k])]));

function disposeAll(d: Record<string, ef.Tensor | ef.SparseTensor>): void {
  for (const v of Object.values(d)) v.dispose();
}

test('Examples built here serialize to the bytes TF writes, and TF\'s bytes parse back to the same content', () => {
  fx.examples.forEach((c, i) => {
    const ex = new ef.train.Example({ features: features(c) });
    expect(hex(ex.serializeToString())).toBe(fx.serialized[i]);
    const back = ef.train.Example.fromString(unhex(fx.serialized[i]));
    expect(hex(back.serializeToString())).toBe(fx.serialized[i]);
    expect(back.features.feature.x.floatList!.value).toEqual(c.x[1]);
  });
  fx.sequence_examples.forEach((c, i) => {
    const se = new ef.train.SequenceExample({
      context: features(c.context),
      featureLists: new ef.train.FeatureLists({ featureList: Object.fromEntries(Object.entries(c.lists).map(([k, fs]) => [k, new ef.train.FeatureList({ feature: fs.map(feature) })])) }),
    });
    expect(hex(se.serializeToString())).toBe(fx.sequence_serialized[i]);
    expect(hex(ef.train.SequenceExample.fromString(unhex(fx.sequence_serialized[i])).serializeToString())).toBe(fx.sequence_serialized[i]);
  });
});

test('plain objects, snake_case names and strings work in place of the inner classes', () => {
  const a = new ef.train.Example({ features: { feature: { s: { bytes_list: { value: ['hé'] } } as ef.train.FeatureInit, n: { int64List: { value: [BigInt(5)] } } } } });
  const b = new ef.train.Example({ features: new ef.train.Features({ feature: { n: new ef.train.Feature({ int64List: { value: [5] } }), s: new ef.train.Feature({ bytesList: { value: [new TextEncoder().encode('hé')] } }) } }) });
  expect(hex(a.serializeToString())).toBe(hex(b.serializeToString()));
});

test('parseExample of the batch TF wrote matches TF\'s parse_example; parseSingleExample each', () => {
  const s = specs(fx.specs);
  const out = ef.io.parseExample(ef.constant(fx.serialized.map(unhex)), s);
  expect(hostd(out)).toEqual(fx.parse_example);
  expect((out.id as ef.Tensor).dtype).toBe('int32');
  disposeAll(out);
  fx.serialized.forEach((h, i) => {
    const one = ef.io.parseSingleExample(ef.constant(unhex(h), 'string'), s);
    const got = hostd(one);
    const want = fx.parse_single_example[i];
    // TF's JSON cannot tell an empty [0, 2] sequence from []: compare shapes there.
    if (Array.isArray(want.seq) && (want.seq as unknown[]).length === 0) {
      expect((one.seq as ef.Tensor).shape.dims).toEqual([0, 2]);
      got.seq = [];
    }
    expect(got).toEqual(want);
    disposeAll(one);
  });
});

test('parseSequenceExample and parseSingleSequenceExample match TF\'s', () => {
  const features = { contextFeatures: specs(fx.context_specs), sequenceFeatures: specs(fx.sequence_specs) };
  const [ctx, seq, lengths] = ef.io.parseSequenceExample(ef.constant(fx.sequence_serialized.map(unhex)), features);
  expect([hostd(ctx), hostd(seq), hostd(lengths)]).toEqual(fx.parse_sequence_example);
  [ctx, seq, lengths].forEach(disposeAll);
  fx.sequence_serialized.forEach((h, i) => {
    const [c, f] = ef.io.parseSingleSequenceExample(unhex(h), features);
    const got = [hostd(c), hostd(f)];
    const want = fx.parse_single_sequence_example[i];
    if (Array.isArray(want[1].emb) && (want[1].emb as unknown[]).length === 0) {
      expect((f.emb as ef.Tensor).shape.dims).toEqual([0, 2]);
      (got[1] as Record<string, unknown>).emb = [];
    }
    expect(got).toEqual(want);
    [c, f].forEach(disposeAll);
  });
});

describe.each([['none', ''], ['gzip', 'GZIP'], ['zlib', 'ZLIB']] as const)('a TFRecord file of Examples TF wrote (%s)', (name, kind) => {
  test('parses inside Dataset.map (traced), batched before or after, as TF\'s pipeline', async () => {
    const file = path.join(FIX, `examples.${name}.tfrecord`);
    const s = specs(fx.specs);
    const dense = { x: s.x, id: s.id, big: s.big };
    // The TF idiom: parse each record, then batch.
    const perRecord = ef.data.TFRecordDataset(file, { compressionType: kind }).map((r: ef.Tensor) => ef.io.parseSingleExample(r, dense));
    expect((perRecord.elementSpec as Record<string, ef.TensorSpec>).x.shape.dims).toEqual([2]);
    const [b] = (await perRecord.batch(3).toArray()) as Record<string, ef.Tensor>[];
    expect({ big: b.big.arraySync(), id: b.id.arraySync(), x: b.x.arraySync() }).toEqual({ big: fx.parse_example.big, id: fx.parse_example.id, x: fx.parse_example.x });
    disposeAll(b);
    // Batch first, then parse the batch (vectorized parse_example).
    const batched = ef.data.TFRecordDataset(file, { compressionType: kind }).batch(3).map((r: ef.Tensor) => ef.io.parseExample(r, dense));
    const [c] = (await batched.toArray()) as Record<string, ef.Tensor>[];
    expect(c.x.arraySync()).toEqual(fx.parse_example.x);
    expect(c.id.dtype).toBe('int32');
    disposeAll(c);
  });
});

test('a VarLenFeature inside Dataset.map densifies with ef.sparse.toDense (traced); a SparseTensor element is a clear error', async () => {
  const file = path.join(FIX, 'examples.none.tfrecord');
  const ds = ef.data.TFRecordDataset(file).map((r: ef.Tensor) => {
    const p = ef.io.parseSingleExample(r, { tags: ef.io.VarLenFeature('string'), id: ef.io.VarLenFeature('int64') });
    return [ef.sparse.toDense(p.tags as ef.SparseTensor, { defaultValue: '?' }), ef.sparse.toDense(p.id as ef.SparseTensor)];
  });
  const got = (await ds.toArray()) as ef.Tensor[][];
  expect(got.map(([t]) => t.bytes().map(hex))).toEqual([['61', '6263'], [], ['ff00']]);
  expect(got.map(([, i]) => i.arraySync())).toEqual([[7], [-3], []]);
  got.flat().forEach((t) => t.dispose());
  expect(() => ef.data.TFRecordDataset(file).map((r: ef.Tensor) => ef.io.parseSingleExample(r, { tags: ef.io.VarLenFeature('string') }))).toThrow(/dataset elements cannot be SparseTensors yet.*ef\.sparse\.toDense/);
});

describe('bad input: InvalidArgumentErrors naming the record and the feature, nothing leaked', () => {
  const ser = (c: Record<string, ef.train.FeatureInit>): Uint8Array => new ef.train.Example({ features: { feature: c } }).serializeToString();
  const bad: [string, Uint8Array[], Record<string, ef.io.FeatureSpec>, RegExp][] = [
    ['a missing required feature', [ser({ x: { floatList: { value: [1] } } }), ser({})], { x: ef.io.FixedLenFeature([1], 'float32') }, /Feature: x \(data type: float\) is required but could not be found.*\(feature 'x', record 1\)/],
    ['the wrong type', [ser({ x: { int64List: { value: [1] } } })], { x: ef.io.FixedLenFeature([1], 'float32') }, /Data types don't match\. Data type: int64 but expected type: float.*feature 'x', record 0/],
    ['the wrong number of values', [ser({ x: { floatList: { value: [1, 2, 3] } } })], { x: ef.io.FixedLenFeature([2], 'float32') }, /Values size: 3 but output shape: \[2\].*feature 'x', record 0/],
    ['an int64 outside int32', [ser({ n: { int64List: { value: [2 ** 31] } } })], { n: ef.io.FixedLenFeature([], 'int64') }, /int64 value 2147483648 is outside int32's range.*never wraps.*feature 'n', record 0/],
    ['a negative int64 outside int32', [ser({ n: { int64List: { value: [-(2 ** 40)] } } })], { n: ef.io.VarLenFeature('int64') }, /int64 value -1099511627776 is outside int32's range/],
    ['malformed bytes', [ser({}), new Uint8Array([0x0a, 0x05, 0x01])], { x: ef.io.VarLenFeature('float32') }, /cannot parse 3 bytes as a tensorflow\.Example.*\(record 1\)/],
    // Found by the file fuzzer: the features parsed before the failing one (keys in order) were left allocated.
    ['a bad feature after good ones', [ser({ a: { floatList: { value: [1] } }, b: { bytesList: { value: [new Uint8Array([1])] } }, x: { bytesList: { value: [new Uint8Array([1])] } } })], { a: ef.io.FixedLenFeature([1], 'float32'), b: ef.io.VarLenFeature('string'), x: ef.io.FixedLenFeature([1], 'float32') }, /Data types don't match\. Data type: bytes but expected type: float.*feature 'x', record 0/],
  ];
  test.each(bad)('%s', (_what, records, spec, msg) => {
    const before = ef.memory().numTensors;
    const input = ef.constant(records);
    const err = thrown(() => ef.io.parseExample(input, spec));
    input.dispose();
    expect(err).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect((err as Error).message).toMatch(msg);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('a SequenceExample whose feature list fails after its context and other lists parsed leaks nothing (found by the file fuzzer)', () => {
    const seq = new ef.train.SequenceExample({
      context: { feature: { c: { floatList: { value: [2] } } } },
      featureLists: { featureList: { a: { feature: [{ floatList: { value: [1] } }] }, z: { feature: [{ floatList: { value: [1, 2] } }] } } },
    }).serializeToString();
    const features = { contextFeatures: { c: ef.io.FixedLenFeature([], 'float32') }, sequenceFeatures: { a: ef.io.FixedLenSequenceFeature([], 'float32'), z: ef.io.FixedLenSequenceFeature([], 'float32') } };
    const before = ef.memory().numTensors;
    expect(() => ef.io.parseSingleSequenceExample(seq, features)).toThrow(ef.errors.InvalidArgumentError);
    expect(() => ef.io.parseSequenceExample([seq], features)).toThrow(/Values size: 2 but output shape: \[\]/);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('inside Dataset.map the error surfaces when iterating; ignoreErrors() drops those records', async () => {
    const recs = [ser({ n: { int64List: { value: [1] } } }), ser({ n: { int64List: { value: [2 ** 33] } } }), ser({ n: { int64List: { value: [3] } } })];
    const ds = ef.data.TFRecordDataset(ef.io.encodeTFRecords(recs)).map((r: ef.Tensor) => ef.io.parseSingleExample(r, { n: ef.io.FixedLenFeature([], 'int64') }));
    await expect(ds.toArray()).rejects.toThrow(/int64 value 8589934592 is outside int32's range/);
    const kept = (await ds.ignoreErrors().toArray()) as Record<string, ef.Tensor>[];
    expect(kept.map((k) => k.n.item())).toEqual([1, 3]);
    kept.forEach(disposeAll);
  });

  test('bad specs and arguments', () => {
    expect(() => ef.io.FixedLenFeature([2], 'float64')).toThrow(/unsupported feature dtype.*'float32', 'int64'/);
    expect(() => ef.io.FixedLenFeature([-1] as number[], 'float32')).toThrow(/shape must be an array of non-negative integers/);
    expect(() => ef.io.parseExample([ser({})], { x: { kind: 'Nope' } as unknown as ef.io.FeatureSpec })).toThrow(/features\['x'\] is not a feature spec/);
    expect(() => ef.io.parseExample([ser({})], { s: ef.io.FixedLenSequenceFeature([], 'float32') })).toThrow(/needs allowMissing: true/);
    expect(() => ef.io.parseSingleExample(ef.constant([ser({})]), {})).toThrow(/serialized must be a scalar/);
    expect(() => ef.io.parseExample(ef.constant([1, 2]), {})).toThrow(/serialized must be a string tensor/);
    expect(() => new ef.train.Feature({ floatList: { value: [1] }, int64List: { value: [1] } })).toThrow(/holds one kind of list/);
    expect(() => new ef.train.Feature({ int64List: { value: [1.5] } })).toThrow(/must be an integer/);
    expect(() => ef.train.Example.fromString(new Uint8Array([0xff]))).toThrow(ef.errors.InvalidArgumentError);
  });

  test('bounded fuzz: random byte flips of a serialized Example parse or fail with InvalidArgumentError, never anything else', () => {
    const good = unhex(fx.serialized[0]);
    const s = { x: ef.io.VarLenFeature('float32'), id: ef.io.VarLenFeature('int64'), tags: ef.io.VarLenFeature('string') };
    let seed = 7;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0), seed % n);
    const before = ef.memory().numTensors;
    for (let trial = 0; trial < 200; trial++) {
      const b = good.slice(0, trial % 4 === 0 ? rand(good.length) : good.length);
      if (trial % 4 !== 0) b[rand(b.length)] ^= 1 << rand(8);
      try {
        disposeAll(ef.io.parseExample([b], s));
      } catch (e) {
        expect(e).toBeInstanceOf(ef.errors.InvalidArgumentError);
      }
    }
    expect(ef.memory().numTensors).toBe(before);
  });
});
