// ef.data.TFRecordDataset and ef.io.TFRecordWriter: the files TF 2.21 wrote (none/GZIP/ZLIB, fixtures of
// scripts/tf-golden/tfrecord_files.py) read from paths, ArrayBuffers, Blobs and fetch Responses; the writer's
// files read back; numParallelReads' order; DataLossError naming the file and record; ignoreErrors() as TF's.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import { noLeak } from './helpers';

const FIX = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tfrecord');
type Want = string | { length: number; sha256: string };
const meta = JSON.parse(fs.readFileSync(path.join(FIX, 'records.json'), 'utf8')) as { records: Want[] };
const KINDS: [string, ef.io.CompressionType][] = [['none', ''], ['gzip', 'GZIP'], ['zlib', 'ZLIB']];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-tfrecord-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function describeBytes(b: Uint8Array): Want {
  return b.length <= 1024 ? Buffer.from(b).toString('hex') : { length: b.length, sha256: crypto.createHash('sha256').update(b).digest('hex') };
}

/** Each record's bytes (the tensors are disposed). */
async function records(ds: ef.data.Dataset): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const t of ds) {
    const tensor = t as ef.Tensor;
    expect(tensor.dtype).toBe('string');
    expect(tensor.shape.dims).toEqual([]);
    out.push(tensor.bytes()[0]);
    tensor.dispose();
  }
  return out;
}

const text = (rs: Uint8Array[]): string[] => rs.map((r) => Buffer.from(r).toString());

describe.each(KINDS)('the file TF wrote with compression %s', (name, kind) => {
  const file = path.join(FIX, `records.${name}.tfrecord`);
  const bytes = new Uint8Array(fs.readFileSync(file));

  test('reads from its path, record for record, in small and default buffers', () =>
    noLeak(async () => {
      for (const bufferSize of [undefined, 7]) {
        const got = await records(ef.data.TFRecordDataset(file, { compressionType: kind, bufferSize }));
        expect(got.map(describeBytes)).toEqual(meta.records);
      }
      const names = ef.constant([file]);
      expect((await records(ef.data.TFRecordDataset(names, { compressionType: kind }))).map(describeBytes)).toEqual(meta.records);
      names.dispose();
    }));

  test('reads from an ArrayBuffer, a Uint8Array, a Blob and a fetch Response', async () => {
    const sources = [bytes.slice().buffer, bytes, new Blob([bytes]), new Response(bytes)];
    for (const src of sources) {
      const got = await records(ef.data.TFRecordDataset([src], { compressionType: kind, bufferSize: 1000 }));
      expect(got.map(describeBytes)).toEqual(meta.records);
    }
  });

  test('TFRecordWriter writes a file that reads back the same records', async () => {
    const out = path.join(tmp, `w.${name}.tfrecord`);
    const recs = await records(ef.data.TFRecordDataset(file, { compressionType: kind }));
    const w = new ef.io.TFRecordWriter(out, { compressionType: kind });
    for (const r of recs) w.write(r);
    w.close();
    expect((await records(ef.data.TFRecordDataset(out, { compressionType: kind }))).map(describeBytes)).toEqual(meta.records);
    if (kind === '') expect(Buffer.compare(fs.readFileSync(out), fs.readFileSync(file))).toBe(0);
  });
});

test('flush() makes every record written so far readable before close, also compressed', async () => {
  for (const [name, kind] of KINDS) {
    const out = path.join(tmp, `flush.${name}.tfrecord`);
    const w = new ef.io.TFRecordWriter(out, { compressionType: kind });
    w.write('one');
    w.write(new Uint8Array([0xff, 0]));
    w.flush();
    const sofar = new Uint8Array(fs.readFileSync(out));
    // A flushed compressed stream has no end yet: inflate what is there with Node's zlib (it tolerates that).
    const zlib = await import('node:zlib');
    const raw = kind === 'GZIP' ? zlib.gunzipSync(sofar, { finishFlush: zlib.constants.Z_SYNC_FLUSH }) : kind === 'ZLIB' ? zlib.inflateSync(sofar, { finishFlush: zlib.constants.Z_SYNC_FLUSH }) : sofar;
    expect(text(await records(ef.data.TFRecordDataset([new Uint8Array(raw)])))).toEqual(['one', '\uFFFD\u0000']);
    w.write('three');
    w.close();
    w.close();
    expect(() => w.write('x')).toThrow(/closed.*Make a new TFRecordWriter/);
    expect(text(await records(ef.data.TFRecordDataset(out, { compressionType: kind })))).toEqual(['one', '\uFFFD\u0000', 'three']);
  }
});

test('several files read in turn; numParallelReads interleaves them one record at a time, as TF', async () => {
  const a = ef.io.encodeTFRecords(['a0', 'a1', 'a2']);
  const b = ef.io.encodeTFRecords(['b0']);
  const c = ef.io.encodeTFRecords(['c0', 'c1']);
  expect(text(await records(ef.data.TFRecordDataset([a, b, c])))).toEqual(['a0', 'a1', 'a2', 'b0', 'c0', 'c1']);
  // TF 2.21: tf.data.TFRecordDataset([a, b, c], num_parallel_reads=n) -> n = 2: a0 b0 a1 a2 c0 c1; n = 5: a0 b0 c0 a1 c1 a2
  expect(text(await records(ef.data.TFRecordDataset([a, b, c], { numParallelReads: 2 })))).toEqual(['a0', 'b0', 'a1', 'a2', 'c0', 'c1']);
  expect(text(await records(ef.data.TFRecordDataset([a, b, c], { numParallelReads: 5 })))).toEqual(['a0', 'b0', 'c0', 'a1', 'c1', 'a2']);
});

test('records batch, shuffle and map as string tensors keeping their bytes', async () => {
  const recs = [new Uint8Array([0xff, 0xfe]), new Uint8Array([0x80]), new Uint8Array([1, 2, 3])];
  const ds = ef.data.TFRecordDataset(ef.io.encodeTFRecords(recs)).batch(2);
  const batches = (await ds.toArray()) as ef.Tensor[];
  expect(batches.map((t) => t.bytes().map((b) => Array.from(b)))).toEqual([[[0xff, 0xfe], [0x80]], [[1, 2, 3]]]);
  ef.dispose(batches);
});

/** The three records a, bb, c as TF frames them, with one byte of record 1 flipped at `at` (17 + at). */
function damaged(at: number): Uint8Array {
  const b = ef.io.encodeTFRecords(['a', 'bb', 'c']);
  b[17 + at] ^= 1;
  return b;
}

async function failure(ds: ef.data.Dataset): Promise<{ got: string[]; err: Error | null }> {
  const got: string[] = [];
  try {
    for await (const t of ds) {
      got.push(Buffer.from((t as ef.Tensor).bytes()[0]).toString());
      (t as ef.Tensor).dispose();
    }
  } catch (e) {
    return { got, err: e as Error };
  }
  return { got, err: null };
}

test('a corrupted length or data CRC, or a truncated file, is a DataLossError naming the file and record', async () => {
  const bad = path.join(tmp, 'bad.tfrecord');
  fs.writeFileSync(bad, damaged(12));
  let r = await failure(ef.data.TFRecordDataset(bad));
  expect(r.got).toEqual(['a']);
  expect(r.err).toBeInstanceOf(ef.errors.DataLossError);
  expect(r.err!.message).toMatch(new RegExp(`^ef\\.data\\.TFRecordDataset: corrupted record: the data's CRC does not match.*file ${bad.replace(/[.\\/]/g, '\\$&')}, record 1 at byte offset 17`));
  r = await failure(ef.data.TFRecordDataset([damaged(8)]));
  expect(r.err!.message).toMatch(/length's CRC.*file ArrayBuffer #0, record 1/);
  const whole = ef.io.encodeTFRecords(['a', 'bb', 'c']);
  r = await failure(ef.data.TFRecordDataset([whole, whole.subarray(0, whole.length - 3)]));
  expect(r.got).toEqual(['a', 'bb', 'c', 'a', 'bb']);
  expect(r.err).toBeInstanceOf(ef.errors.DataLossError);
  expect(r.err!.message).toMatch(/truncated record.*file ArrayBuffer #1, record 2 at byte offset 35/);
});

test('ignoreErrors() skips the rest of a bad file and goes on with the next, as TF 2.21 does', async () => {
  // TF 2.21: TFRecordDataset([bad, good]).ignore_errors() -> [a, a, bb, c] for a bad length or data CRC in
  // record 1; [a, bb, a, bb, c] for a file cut inside its last record.
  const good = ef.io.encodeTFRecords(['a', 'bb', 'c']);
  for (const at of [8, 12]) {
    expect(text(await records(ef.data.TFRecordDataset([damaged(at), good]).ignoreErrors()))).toEqual(['a', 'a', 'bb', 'c']);
  }
  expect(text(await records(ef.data.TFRecordDataset([good.subarray(0, good.length - 3), good]).ignoreErrors()))).toEqual(['a', 'bb', 'a', 'bb', 'c']);
});

test('a compressed file read without its compressionType, or the reverse, fails clearly', async () => {
  const gz = path.join(FIX, 'records.gzip.tfrecord');
  let r = await failure(ef.data.TFRecordDataset(gz));
  expect(r.err).toBeInstanceOf(ef.errors.DataLossError);
  expect(r.err!.message).toMatch(/length's CRC.*not a TFRecord file \(a compressed file read with compressionType ''\?\)/);
  r = await failure(ef.data.TFRecordDataset(path.join(FIX, 'records.none.tfrecord'), { compressionType: 'GZIP' }));
  expect(r.err).toBeInstanceOf(ef.errors.InvalidArgumentError);
  expect(r.err!.message).toMatch(/cannot GZIP-decompress .*records\.none\.tfrecord.*Check compressionType/);
  r = await failure(ef.data.TFRecordDataset([fs.readFileSync(path.join(FIX, 'records.none.tfrecord'))], { compressionType: 'ZLIB' }));
  expect(r.err!.message).toMatch(/cannot ZLIB-decompress ArrayBuffer #0/);
  // A compressed file cut short is data loss, from a path (Node's zlib) and from bytes (fflate).
  const cut = path.join(tmp, 'cut.gz');
  fs.writeFileSync(cut, fs.readFileSync(gz).subarray(0, 500));
  for (const src of [cut, new Uint8Array(fs.readFileSync(cut))]) {
    r = await failure(ef.data.TFRecordDataset([src], { compressionType: 'GZIP' }));
    expect(r.err).toBeInstanceOf(ef.errors.DataLossError);
    expect(r.err!.message).toMatch(/truncated GZIP stream: .* ends inside its compressed data/);
  }
});

test('bad arguments fail at construction; a missing file when read', async () => {
  expect(() => ef.data.TFRecordDataset([3 as unknown as string])).toThrow(/filenames\[0\] is not a record source/);
  expect(() => ef.data.TFRecordDataset('x', { compressionType: 'gzip' as ef.io.CompressionType })).toThrow(/unknown compressionType.*'GZIP'/);
  expect(() => ef.data.TFRecordDataset('x', { numParallelReads: 0 })).toThrow(/numParallelReads must be an integer >= 1/);
  const resp = new Response(new Uint8Array(0));
  expect(() => ef.data.TFRecordDataset([resp, resp])).toThrow(/same Response is listed twice/);
  const r = await failure(ef.data.TFRecordDataset(path.join(tmp, 'missing.tfrecord')));
  expect(r.err).toBeInstanceOf(ef.errors.NotFoundError);
  expect(r.err!.message).toMatch(/cannot open .*missing\.tfrecord/);
  expect(() => new ef.io.TFRecordWriter(path.join(tmp, 'no', 'dir', 'x.tfrecord'))).toThrow(ef.errors.NotFoundError);
  expect(() => new ef.io.TFRecordWriter(path.join(tmp, 'x.tfrecord'), { compressionType: 'LZ4' as ef.io.CompressionType })).toThrow(/unknown compressionType/);
});

test('breaking out of the loop closes the files and leaks nothing', () =>
  noLeak(async () => {
    const ds = ef.data.TFRecordDataset([path.join(FIX, 'records.gzip.tfrecord'), path.join(FIX, 'records.none.tfrecord')], { compressionType: '', numParallelReads: 2 }).take(0);
    expect(await ds.toArray()).toEqual([]);
    for await (const t of ef.data.TFRecordDataset(path.join(FIX, 'records.none.tfrecord'))) {
      (t as ef.Tensor).dispose();
      break;
    }
  }));

test('bounded fuzz: damaged GZIP/ZLIB files (byte flips, cuts) fail with DataLossError or InvalidArgumentError, or read a correct prefix', async () => {
  let seed = 99;
  const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0), seed % n);
  const want = meta.records;
  for (const [name, kind] of KINDS.slice(1)) {
    const good = new Uint8Array(fs.readFileSync(path.join(FIX, `records.${name}.tfrecord`)));
    for (let trial = 0; trial < 40; trial++) {
      const bad = good.slice(0, trial % 2 === 0 ? rand(good.length) : good.length);
      if (trial % 2 === 1) bad[rand(bad.length)] ^= 1 << rand(8);
      // Node's zlib (a path) and fflate (bytes) both: never a hang, never an unnamed error.
      const file = path.join(tmp, `fuzz.${name}`);
      fs.writeFileSync(file, bad);
      for (const src of [file, bad]) {
        const got: Want[] = [];
        let err: Error | null = null;
        try {
          for await (const t of ef.data.TFRecordDataset([src], { compressionType: kind, bufferSize: 64 })) {
            got.push(describeBytes((t as ef.Tensor).bytes()[0]));
            (t as ef.Tensor).dispose();
          }
        } catch (e) {
          err = e as Error;
        }
        if (err !== null) expect(err.constructor.name).toMatch(/^(DataLossError|InvalidArgumentError)$/);
        // Records that did arrive are TF's, in order (a flip zlib misses is caught by the record CRCs).
        expect(got).toEqual(want.slice(0, got.length));
        if (err === null) expect(got.length === want.length || trial % 2 === 0).toBe(true);
      }
    }
  }
});

test('a gzip file whose header swallows the rest (a flipped FEXTRA flag) is a DataLossError, not zero records (found by the file fuzzer)', async () => {
  const bytes = new Uint8Array(fs.readFileSync(path.join(FIX, 'examples.gzip.tfrecord')));
  const bad = bytes.slice();
  bad[3] |= 0x04; // FLG.FEXTRA: the next two bytes become a length that runs past the end
  for (const src of [bad, path.join(tmp, 'fextra.gzip.tfrecord')]) {
    if (typeof src === 'string') fs.writeFileSync(src, bad);
    let err: unknown = null;
    let n = 0;
    try {
      for await (const t of ef.data.TFRecordDataset([src], { compressionType: 'GZIP' })) {
        n++;
        (t as ef.Tensor).dispose();
      }
    } catch (e) {
      err = e;
    }
    expect([n, (err as Error)?.constructor.name]).toEqual([0, 'DataLossError']);
    expect((err as Error).message).toMatch(/truncated GZIP stream/);
  }
  // The intact file still reads (its one member's size matches its trailer).
  let count = 0;
  for await (const t of ef.data.TFRecordDataset([bytes], { compressionType: 'GZIP' })) {
    count++;
    (t as ef.Tensor).dispose();
  }
  expect(count).toBeGreaterThan(0);
});
