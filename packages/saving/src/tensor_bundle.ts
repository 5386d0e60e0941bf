// TensorFlow's TensorBundle (tensorflow/core/util/tensor_bundle): the `.index` table of BundleEntryProtos and the
// `.data-0000k-of-0000n` shards that checkpoints and SavedModel `variables/` are made of. Read and written here;
// docs/saving.md describes the layout. Every read is checked (entry sizes, shard bounds, masked CRC32C).
import { DataLossError, UnimplementedError, opError } from '@eagerflow/core';
import { crc32c, crc32cExtend, maskCrc, unmaskCrc } from './proto/crc32c';
import { decodeTfProto, encodeTfProto } from './proto/tf_protos';
import { corrupt, readTable, writeTable } from './sstable';

/** TF's DataType enum numbers used here (tensorflow/core/framework/types.proto). */
export const DT = {
  FLOAT: 1, DOUBLE: 2, INT32: 3, UINT8: 4, INT16: 5, INT8: 6, STRING: 7, COMPLEX64: 8, INT64: 9, BOOL: 10,
  BFLOAT16: 14, UINT16: 17, COMPLEX128: 18, HALF: 19, RESOURCE: 20, VARIANT: 21, UINT32: 22, UINT64: 23,
} as const;

/** Bytes per element of TF's fixed-width dtypes. */
const WIDTH: Record<number, number> = { 1: 4, 2: 8, 3: 4, 4: 1, 5: 2, 6: 1, 8: 8, 9: 8, 10: 1, 14: 2, 17: 2, 18: 16, 19: 2, 22: 4, 23: 8 };

/** One tensor of a bundle: TF's dtype number, its shape, and its bytes (fixed-width, little-endian) or strings. */
export interface BundleTensor {
  dtype: number;
  shape: number[];
  data: Uint8Array | Uint8Array[];
}

interface EntryProto {
  dtype?: number;
  shape?: { dim?: { size?: number }[]; unknown_rank?: boolean };
  shard_id?: number;
  offset?: number;
  size?: number;
  crc32c?: number;
  slices?: unknown[];
}

interface HeaderProto {
  num_shards?: number;
  endianness?: number;
  version?: { producer?: number; min_consumer?: number; bad_consumers?: number[] };
}

/** A parsed `.index`: the shard count and each key's entry. */
export interface BundleIndex {
  numShards: number;
  entries: Map<string, BundleEntry>;
}

export interface BundleEntry {
  dtype: number;
  shape: number[];
  shardId: number;
  offset: number;
  size: number;
  crc32c: number;
}

/** The file name of shard `k` of `n` (`prefix.data-00000-of-00001`). */
export function shardFile(prefix: string, k: number, n: number): string {
  return `${prefix}.data-${String(k).padStart(5, '0')}-of-${String(n).padStart(5, '0')}`;
}

function decode<T>(api: string, file: string, what: string, name: string, bytes: Uint8Array): T {
  try {
    return decodeTfProto<T>(name, bytes);
  } catch (e) {
    throw corrupt(api, file, `${what} is not a valid ${name}`, (e as Error).message, `a serialized ${name}`);
  }
}

/** Parses a bundle's `.index` bytes (`file` names it in errors). */
export function readBundleIndex(bytes: Uint8Array, file: string, api = 'readBundle'): BundleIndex {
  const table = readTable(bytes, file, api);
  if (table.length === 0 || table[0][0] !== '') throw corrupt(api, file, 'the bundle header (the empty key) is missing', table.length === 0 ? 'no entries' : `first key '${table[0][0]}'`, 'the BundleHeaderProto first');
  const header = decode<HeaderProto>(api, file, 'the header', 'tensorflow.BundleHeaderProto', table[0][1]);
  const numShards = header.num_shards ?? 0;
  if (header.endianness === 1) throw opError(UnimplementedError, api, `${file} is big-endian`, 'BIG', 'LITTLE', 'Write the bundle on a little-endian machine.', null);
  if (!Number.isInteger(numShards) || numShards < 1 || numShards > 1e5) throw corrupt(api, file, 'the shard count is invalid', String(numShards), '1 to 100000');
  const entries = new Map<string, BundleEntry>();
  for (const [key, value] of table.slice(1)) {
    const e = decode<EntryProto>(api, file, `the entry of '${key}'`, 'tensorflow.BundleEntryProto', value);
    if (e.slices !== undefined && e.slices.length > 0) throw opError(UnimplementedError, api, `'${key}' in ${file} is a partitioned (sliced) variable`, `${e.slices.length} slices`, 'whole tensors', 'Save the variable unpartitioned.', null);
    if (e.shape?.unknown_rank) throw corrupt(api, file, `'${key}' has an unknown rank`, 'unknown_rank', 'a full shape');
    const shape = (e.shape?.dim ?? []).map((d) => d.size ?? 0);
    const entry: BundleEntry = { dtype: e.dtype ?? 0, shape, shardId: e.shard_id ?? 0, offset: e.offset ?? 0, size: e.size ?? 0, crc32c: e.crc32c ?? 0 };
    if (shape.some((d) => !Number.isInteger(d) || d < 0) || entry.shardId < 0 || entry.shardId >= numShards || entry.offset < 0 || entry.size < 0) {
      throw corrupt(api, file, `the entry of '${key}' is invalid`, `shape [${shape.join(', ')}], shard ${entry.shardId}, offset ${entry.offset}, size ${entry.size}`, `a shape of sizes >= 0 and a shard below ${numShards}`);
    }
    const width = WIDTH[entry.dtype];
    if (width !== undefined && entry.size !== width * shape.reduce((a, b) => a * b, 1)) {
      throw corrupt(api, file, `the size of '${key}' does not match its shape`, `${entry.size} bytes`, `${width * shape.reduce((a, b) => a * b, 1)} for [${shape.join(', ')}] of dtype ${entry.dtype}`);
    }
    entries.set(key, entry);
  }
  return { numShards, entries };
}

/** The tensor of `entry` from its shard's bytes, its masked CRC32C checked. */
/** `copy` false: numeric data is a view of `shard` (for a buffer read for this entry alone). */
export function readBundleTensor(key: string, entry: BundleEntry, shard: Uint8Array, file: string, api = 'readBundle', copy = true): BundleTensor {
  if (entry.offset + entry.size > shard.length) throw corrupt(api, file, `'${key}' runs past the end of the shard`, `bytes [${entry.offset}, ${entry.offset + entry.size})`, `within ${shard.length} bytes`);
  const bytes = shard.subarray(entry.offset, entry.offset + entry.size);
  if (entry.dtype === DT.STRING) return { dtype: entry.dtype, shape: entry.shape, data: readStrings(key, entry, bytes, file, api) };
  if (WIDTH[entry.dtype] === undefined) throw opError(UnimplementedError, api, `'${key}' in ${file} has a dtype this reader does not hold`, `DataType ${entry.dtype}`, 'a numeric, bool or string dtype', 'Save the value as one of those dtypes.', null);
  const actual = crc32c(bytes);
  if (unmaskCrc(entry.crc32c) !== actual) throw corrupt(api, file, `the CRC32C of '${key}' does not match`, `0x${actual.toString(16)}`, `0x${unmaskCrc(entry.crc32c).toString(16)} from the index`);
  return { dtype: entry.dtype, shape: entry.shape, data: copy ? bytes.slice() : bytes };
}

/**
 * TF's string tensor layout (WriteStringTensor): varint64 lengths, the masked CRC32C of the lengths
 * (taken over each length as 4 little-endian bytes, a uint32), then the bytes of each string. The
 * entry's CRC32C covers the lengths (as uint32s), the length checksum and the bytes.
 */
function readStrings(key: string, entry: BundleEntry, bytes: Uint8Array, file: string, api: string): Uint8Array[] {
  const n = entry.shape.reduce((a, b) => a * b, 1);
  const fail = (what: string, got: string, expected: string): DataLossError => corrupt(api, file, `'${key}': ${what}`, got, expected);
  if (n > bytes.length) throw fail('more strings than bytes', `${n} strings`, `at most ${bytes.length}`);
  let at = 0;
  let crc = 0;
  const lengths: number[] = [];
  const u32 = new Uint8Array(4);
  const u32v = new DataView(u32.buffer);
  for (let i = 0; i < n; i++) {
    let len = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length || scale > 2 ** 49) throw fail('a string length runs past the entry', `offset ${at}`, `within ${bytes.length} bytes`);
      const b = bytes[at++];
      len += (b & 0x7f) * scale;
      scale *= 128;
      if ((b & 0x80) === 0) break;
    }
    if (len > 0xffffffff) throw fail('a string is longer than 4 GiB', String(len), 'at most 4294967295 bytes');
    lengths.push(len);
    u32v.setUint32(0, len, true);
    crc = crc32cExtend(crc, u32);
  }
  if (at + 4 > bytes.length) throw fail('the length checksum is missing', `${bytes.length - at} bytes left`, '4');
  const lenCrc = bytes.subarray(at, at + 4);
  if (new DataView(lenCrc.buffer, lenCrc.byteOffset, 4).getUint32(0, true) !== maskCrc(crc)) throw fail('the checksum of the string lengths does not match', 'another value', `0x${maskCrc(crc).toString(16)}`);
  crc = crc32cExtend(crc, lenCrc);
  at += 4;
  const total = lengths.reduce((a, b) => a + b, 0);
  if (at + total !== bytes.length) throw fail('the string lengths do not add up to the entry size', `${at + total} bytes`, `${bytes.length}`);
  const out: Uint8Array[] = [];
  for (const len of lengths) {
    const s = bytes.slice(at, at + len);
    crc = crc32cExtend(crc, s);
    out.push(s);
    at += len;
  }
  if (unmaskCrc(entry.crc32c) !== crc) throw fail('the CRC32C does not match', `0x${crc.toString(16)}`, `0x${unmaskCrc(entry.crc32c).toString(16)} from the index`);
  return out;
}

function stringBytes(strings: Uint8Array[]): { bytes: Uint8Array; crc: number } {
  const head: number[] = [];
  let crc = 0;
  const u32 = new Uint8Array(4);
  const u32v = new DataView(u32.buffer);
  for (const s of strings) {
    let n = s.length;
    while (n >= 0x80) {
      head.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    head.push(n);
    u32v.setUint32(0, s.length, true);
    crc = crc32cExtend(crc, u32);
  }
  const lenCrc = new Uint8Array(4);
  new DataView(lenCrc.buffer).setUint32(0, maskCrc(crc), true);
  crc = crc32cExtend(crc, lenCrc);
  const total = head.length + 4 + strings.reduce((a, s) => a + s.length, 0);
  const bytes = new Uint8Array(total);
  bytes.set(head);
  bytes.set(lenCrc, head.length);
  let at = head.length + 4;
  for (const s of strings) {
    bytes.set(s, at);
    crc = crc32cExtend(crc, s);
    at += s.length;
  }
  return { bytes, crc };
}

/** Writes a one-shard bundle: the `.index` table (sorted by key) and the `.data-00000-of-00001` bytes (tensors in the Map's order, as TF's BundleWriter writes them in the order they are added). */
export function writeBundle(tensors: Map<string, BundleTensor>): { index: Uint8Array; data: Uint8Array } {
  const keys = [...tensors.keys()];
  const chunks: Uint8Array[] = [];
  const entries: [string, Uint8Array][] = [['', encodeTfProto('tensorflow.BundleHeaderProto', { num_shards: 1, endianness: 0, version: { producer: 1 } })]];
  let offset = 0;
  for (const key of keys) {
    const t = tensors.get(key)!;
    let bytes: Uint8Array;
    let crc: number;
    if (Array.isArray(t.data)) ({ bytes, crc } = stringBytes(t.data));
    else {
      bytes = t.data;
      crc = crc32c(bytes);
    }
    entries.push([key, encodeTfProto('tensorflow.BundleEntryProto', {
      dtype: t.dtype, shape: { dim: t.shape.map((size) => ({ size })) }, shard_id: 0, offset, size: bytes.length, crc32c: maskCrc(crc),
    })]);
    chunks.push(bytes);
    offset += bytes.length;
  }
  const data = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) {
    data.set(c, at);
    at += c.length;
  }
  return { index: writeTable(entries), data };
}
