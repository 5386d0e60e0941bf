// TFRecord framing: byte-identical to the files TF 2.21 writes (fixtures from scripts/tf-golden/tfrecord_files.py),
// streaming over any chunking, and DataLossError naming file/record/offset on corruption and truncation.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataLossError } from '@eagerflow/core';
import { encodeRecord, encodeRecords, readRecords, RecordUnframer } from '../src/io/tfrecord_framing';

const FIX = path.join(__dirname, 'fixtures', 'tfrecord');
const meta = JSON.parse(fs.readFileSync(path.join(FIX, 'records.json'), 'utf8')) as { records: (string | { length: number; sha256: string })[] };

function matches(got: Uint8Array, want: string | { length: number; sha256: string }): boolean {
  if (typeof want === 'string') return Buffer.from(got).toString('hex') === want;
  return got.length === want.length && crypto.createHash('sha256').update(got).digest('hex') === want.sha256;
}

async function collect(chunks: Iterable<Uint8Array>, file = 'f'): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const r of readRecords(chunks, { file })) out.push(r);
  return out;
}

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const tfBytes = new Uint8Array(fs.readFileSync(path.join(FIX, 'records.none.tfrecord')));

test('the records of a file TF wrote read back, whatever the chunking', async () => {
  for (const size of [1, 5, 12, 13, 4096, tfBytes.length]) {
    const recs = await collect(chunked(tfBytes, size));
    expect(recs.length).toBe(meta.records.length);
    recs.forEach((r, i) => expect(matches(r, meta.records[i])).toBe(true));
  }
});

test('encodeRecords writes the bytes TF writes', async () => {
  const recs = await collect([tfBytes]);
  expect(Buffer.from(encodeRecords(recs)).equals(Buffer.from(tfBytes))).toBe(true);
  expect(Array.from(encodeRecord(new Uint8Array(0)).subarray(0, 12))).toEqual(Array.from(tfBytes.subarray(0, 12)));
});

test('records read are fresh plain Uint8Arrays, not views of a Node Buffer chunk', async () => {
  const buf = Buffer.from(encodeRecords([new Uint8Array([1, 2, 3])]));
  const [r] = await collect([buf]);
  expect(r.constructor).toBe(Uint8Array);
  expect(r.buffer.byteLength).toBe(3);
  buf.fill(0);
  expect(Array.from(r)).toEqual([1, 2, 3]);
});

test('a corrupted length CRC is a DataLossError naming file, record and offset; the reader stays failed', async () => {
  const bytes = encodeRecords([new Uint8Array([1]), new Uint8Array([2, 2]), new Uint8Array([3])]);
  const bad = bytes.slice();
  bad[17 + 8] ^= 0x40; // the second record's length CRC
  const got: number[] = [];
  const err = await (async () => {
    try {
      for await (const r of readRecords([bad], { file: 'x.tfrecord' })) got.push(r[0]);
    } catch (e) {
      return e as Error;
    }
    return null;
  })();
  expect(got).toEqual([1]);
  expect(err).toBeInstanceOf(DataLossError);
  expect(err!.name).toBe('DataLossError');
  expect(err!.message).toMatch(/corrupted record.*length's CRC.*file x\.tfrecord, record 1 at byte offset 17/);
  const u = new RecordUnframer();
  expect(() => u.push(bad)).toThrow(DataLossError);
  expect(u.failed).toBe(true);
  expect(() => u.push(new Uint8Array(0))).toThrow(/record 1/);
});

test('a corrupted data CRC is a DataLossError; reading resumes at the next record', () => {
  const bytes = encodeRecords([new Uint8Array([1]), new Uint8Array([2, 2]), new Uint8Array([3])]);
  const bad = bytes.slice();
  bad[17 + 12] ^= 1; // the second record's first data byte
  const u = new RecordUnframer({ file: 'y' });
  expect(() => u.push(bad)).toThrow(/data's CRC.*file y, record 1 at byte offset 17/);
  expect(u.takeCompleted().map((r) => r[0])).toEqual([1]);
  expect(u.failed).toBe(false);
  expect(u.push(new Uint8Array(0)).map((r) => r[0])).toEqual([3]);
  expect(u.end()).toEqual([]);
  expect(u.recordsRead).toBe(3);
});

test('a truncated file is a DataLossError at every cut inside a record, and clean at record boundaries', async () => {
  const bytes = encodeRecords([new Uint8Array([1, 1, 1]), new Uint8Array([2])]);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const boundary = cut === 0 || cut === 19 || cut === bytes.length;
    const p = collect(chunked(bytes.subarray(0, cut), 4), 'cut.tfrecord');
    if (boundary) await expect(p).resolves.toHaveLength(cut === 0 ? 0 : cut === 19 ? 1 : 2);
    else await expect(p).rejects.toThrow(/truncated record.*file cut\.tfrecord, record [01]/);
  }
  await expect(collect([bytes.subarray(0, 25)], 'c')).rejects.toThrow(DataLossError);
});

test('bounded fuzz: random byte flips and cuts never pass silently and never throw anything but DataLossError', async () => {
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % n;
  };
  const recs = Array.from({ length: 6 }, (_, i) => Uint8Array.from({ length: 1 + i * 9 }, (_, j) => (i * 31 + j) & 255));
  const good = encodeRecords(recs);
  for (let trial = 0; trial < 300; trial++) {
    const bad = good.slice(0, trial % 3 === 0 ? rand(good.length) : good.length);
    if (trial % 3 !== 0) bad[rand(bad.length)] ^= 1 << rand(8);
    try {
      const out = await collect(chunked(bad, 1 + rand(40)));
      // Only a clean cut at a record boundary reads without error, and then yields a prefix of the records.
      expect(out.length).toBeLessThan(recs.length);
      out.forEach((r, i) => expect(Array.from(r)).toEqual(Array.from(recs[i])));
    } catch (e) {
      expect(e).toBeInstanceOf(DataLossError);
    }
  }
});
