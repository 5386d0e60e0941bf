// Files EagerFlow writes are read by TF 2.21: this test builds them (TFRecords in all three compressions, Examples,
// SequenceExamples, serialized tensors) from the contents of TF's own fixtures, and checks them against
// tf_reads_ef.json, the verdict scripts/tf-golden/tf_reads_ef_records.py wrote after TF read them. The files' sha256
// must equal the verdict's, so a change to the writers fails here until the verdict is regenerated:
//   EF_WRITE_TF_INPUTS=1 npx jest packages/eagerflow/test/io/tf_reads_ef.test.ts
//   /work/main/.venv-tf/bin/python scripts/tf-golden/tf_reads_ef_records.py
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';

const FIX = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tfrecord');
const OUT = path.join(FIX, 'ef_written');
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const sha = (b: Uint8Array): string => crypto.createHash('sha256').update(b).digest('hex');
const ex = JSON.parse(fs.readFileSync(path.join(FIX, 'examples.json'), 'utf8'));

type Content = Record<string, [string, (number | string)[]]>;
function feature([kind, values]: [string, (number | string)[]]): ef.train.FeatureInit {
  if (kind === 'float') return { floatList: { value: values as number[] } };
  if (kind === 'int64') return { int64List: { value: values as number[] } };
  return { bytesList: { value: (values as string[]).map(unhex) } };
}
const features = (c: Content): ef.train.FeaturesInit => ({ feature: Object.fromEntries(Object.entries(c).map(([k, v]) => [k, feature(v)])) });

/** The files, built deterministically by EagerFlow's writers. */
async function efFiles(): Promise<Record<string, Uint8Array>> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-written-'));
  const out: Record<string, Uint8Array> = {};
  const records: Uint8Array[] = [];
  for await (const t of ef.data.TFRecordDataset(path.join(FIX, 'records.none.tfrecord'))) {
    records.push((t as ef.Tensor).bytes()[0]);
    (t as ef.Tensor).dispose();
  }
  const write = (name: string, recs: Uint8Array[], compressionType: ef.io.CompressionType = ''): void => {
    const p = path.join(tmp, name);
    const w = new ef.io.TFRecordWriter(p, { compressionType });
    for (const r of recs) w.write(r);
    w.close();
    out[name] = new Uint8Array(fs.readFileSync(p));
  };
  write('records.none.tfrecord', records);
  write('records.gzip.tfrecord', records, 'GZIP');
  write('records.zlib.tfrecord', records, 'ZLIB');
  const examples = (ex.examples as Content[]).map((c) => new ef.train.Example({ features: features(c) }).serializeToString());
  write('examples.gzip.tfrecord', examples, 'GZIP');
  const seqs = (ex.sequence_examples as { context: Content; lists: Record<string, [string, (number | string)[]][]> }[]).map((c) =>
    new ef.train.SequenceExample({ context: features(c.context), featureLists: { featureList: Object.fromEntries(Object.entries(c.lists).map(([k, fs]) => [k, { feature: fs.map(feature) }])) } }).serializeToString());
  write('sequence_examples.tfrecord', seqs);
  const tensors = [ef.constant([[1.5, -2], [0, 3.25]]), ef.constant([1, -2, 3], 'int32'), ef.constant([true, false]), ef.constant([new Uint8Array([0xff, 0]), new Uint8Array(0)])];
  write('tensors.tfrecord', tensors.map((t) => ef.io.serializeTensor(t)));
  ef.dispose(tensors);
  fs.rmSync(tmp, { recursive: true, force: true });
  return out;
}

test('TF 2.21 read every file EagerFlow writes, and the verdict is current', async () => {
  const files = await efFiles();
  if (process.env.EF_WRITE_TF_INPUTS === '1') {
    fs.mkdirSync(OUT, { recursive: true });
    for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(OUT, name), bytes);
  }
  const verdict = JSON.parse(fs.readFileSync(path.join(FIX, 'tf_reads_ef.json'), 'utf8'));
  expect(verdict.tf).toBe('2.21.0');
  // Current: the verdict is about exactly these bytes.
  expect(Object.fromEntries(Object.entries(files).map(([k, b]) => [k, sha(b)]))).toEqual(verdict.sha256);
  // What TF read: the records (all compressions), TF's parse of EF's Examples equals TF's parse of its own.
  const want = JSON.parse(fs.readFileSync(path.join(FIX, 'records.json'), 'utf8')).records;
  for (const kind of ['none', 'gzip', 'zlib']) expect(verdict.records[kind]).toEqual(want);
  expect(verdict.parse_example).toEqual(ex.parse_example);
  expect(verdict.parse_sequence_example).toEqual(ex.parse_sequence_example);
  expect(verdict.tensors).toEqual([
    { dtype: 'float32', value: [[1.5, -2], [0, 3.25]] },
    { dtype: 'int32', value: [1, -2, 3] },
    { dtype: 'bool', value: [true, false] },
    { dtype: 'string', value: ['ff00', ''] },
  ]);
});
