// The LevelDB-style table (SSTable) that TensorFlow's TensorBundle `.index` files are (tensorflow/core/lib/io/table*):
// read and written here, uncompressed blocks as TF writes them, every block's masked CRC32C checked. docs/saving.md
// describes the layout.
import { DataLossError, errorMessage, opError } from '@eagerflow/core';
import { crc32cExtend, crc32c, maskCrc, unmaskCrc } from './proto/crc32c';

const FOOTER = 48; // two BlockHandles (varints) padded to 40 bytes + the 8-byte magic
const MAGIC_LO = 0x8b80fb57; // kTableMagicNumber 0xdb4775248b80fb57, little-endian
const MAGIC_HI = 0xdb477524;
const TRAILER = 5; // compression type byte + masked CRC32C of block and type
const RESTART_INTERVAL = 16; // table::Options::block_restart_interval
const BLOCK_SIZE = 256 * 1024; // table::Options::block_size (TF's BundleWriter keeps the default)

/** A DataLossError naming the file, for a table that does not parse. */
export function corrupt(api: string, file: string, what: string, got: string, expected: string): DataLossError {
  return opError(DataLossError, api, `${file} is corrupted: ${what}`, got, expected, 'The file is truncated or damaged; write it again from its source.', null);
}

/** A cursor over bytes whose every read is bounds-checked (a bad length is a DataLossError, never a wrong read). */
class ByteReader {
  at = 0;
  constructor(readonly bytes: Uint8Array, readonly end: number, private readonly fail: (what: string, got: string, expected: string) => Error) {}

  /** A varint of at most `bits` bits (32 or 64; 64-bit values must fit a JS number exactly). */
  varint(bits: 32 | 64 = 64): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < (bits === 32 ? 5 : 10); i++) {
      if (this.at >= this.end) throw this.fail('a varint runs past its block', `offset ${this.at}`, `a varint ending before ${this.end}`);
      const b = this.bytes[this.at++];
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) {
        if (result > Number.MAX_SAFE_INTEGER || (bits === 32 && result > 0xffffffff)) throw this.fail('a varint is too large', String(result), `at most ${bits === 32 ? 0xffffffff : Number.MAX_SAFE_INTEGER}`);
        return result;
      }
      scale *= 128;
    }
    throw this.fail('a varint is too long', `more than ${bits === 32 ? 5 : 10} bytes`, 'a terminated varint');
  }

  take(n: number): Uint8Array {
    if (n < 0 || this.at + n > this.end) throw this.fail('a length runs past its block', `${n} bytes at offset ${this.at}`, `at most ${this.end - this.at}`);
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
}

interface Handle {
  offset: number;
  size: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });
const utf8Encoder = new TextEncoder();

/**
 * Every (key, value) of a table in key order. Checks the footer's magic, each block's CRC32C and
 * compression type, the entries' prefix lengths and that keys strictly increase.
 */
export function readTable(bytes: Uint8Array, file: string, api = 'readTable'): [string, Uint8Array][] {
  const fail = (what: string, got: string, expected: string): Error => corrupt(api, file, what, got, expected);
  if (bytes.length < FOOTER) throw fail('shorter than a table footer', `${bytes.length} bytes`, `at least ${FOOTER}`);
  const footerAt = bytes.length - FOOTER;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(bytes.length - 8, true) !== MAGIC_LO || view.getUint32(bytes.length - 4, true) !== MAGIC_HI) {
    throw fail('the table magic number is wrong', 'other bytes', 'a LevelDB table (magic 0xdb4775248b80fb57)');
  }
  const footer = new ByteReader(bytes, bytes.length - 8, fail);
  footer.at = footerAt;
  const handle = (r: ByteReader): Handle => ({ offset: r.varint(), size: r.varint() });
  handle(footer); // the metaindex (TF writes no filter, so nothing in it is needed)
  const indexHandle = handle(footer);
  const block = (h: Handle): Uint8Array => {
    if (h.offset + h.size + TRAILER > footerAt) throw fail('a block handle points past the data', `[${h.offset}, ${h.offset + h.size + TRAILER})`, `blocks before offset ${footerAt}`);
    const body = bytes.subarray(h.offset, h.offset + h.size);
    const type = bytes[h.offset + h.size];
    const stored = view.getUint32(h.offset + h.size + 1, true);
    const actual = crc32cExtend(crc32c(body), bytes.subarray(h.offset + h.size, h.offset + h.size + 1));
    if (unmaskCrc(stored) !== actual) throw fail(`the CRC32C of the block at offset ${h.offset} does not match`, `0x${unmaskCrc(stored).toString(16)}`, `0x${actual.toString(16)}`);
    if (type !== 0) throw fail(`the block at offset ${h.offset} is compressed`, `compression type ${type}`, 'uncompressed blocks (type 0), as TensorFlow writes bundles');
    return body;
  };
  const out: [string, Uint8Array][] = [];
  let last: string | null = null;
  for (const [, handleBytes] of blockEntries(block(indexHandle), fail)) {
    const r = new ByteReader(handleBytes, handleBytes.length, fail);
    for (const [k, v] of blockEntries(block(handle(r)), fail)) {
      if (last !== null && !(k > last)) throw fail('keys are out of order', `'${k}' after '${last}'`, 'strictly increasing keys');
      out.push([k, v]);
      last = k;
    }
  }
  return out;
}

/** The entries of one block: prefix-compressed keys, then restart offsets and their count. */
function blockEntries(body: Uint8Array, fail: (what: string, got: string, expected: string) => Error): [string, Uint8Array][] {
  if (body.length < 4) throw fail('a block is too short', `${body.length} bytes`, 'at least 4');
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const restarts = view.getUint32(body.length - 4, true);
  const limit = body.length - 4 - 4 * restarts;
  if (restarts < 1 || limit < 0) throw fail('a block has a bad restart count', String(restarts), `1 to ${Math.floor((body.length - 4) / 4)}`);
  const r = new ByteReader(body, limit, fail);
  const out: [string, Uint8Array][] = [];
  let key = new Uint8Array(0);
  while (r.at < limit) {
    const shared = r.varint(32);
    const unshared = r.varint(32);
    const valueLength = r.varint(32);
    if (shared > key.length) throw fail('an entry shares more of the key than there is', String(shared), `at most ${key.length}`);
    const next = new Uint8Array(shared + unshared);
    next.set(key.subarray(0, shared));
    next.set(r.take(unshared), shared);
    key = next;
    out.push([utf8.decode(key), r.take(valueLength)]);
  }
  return out;
}

function varintBytes(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/** Builds one block: entries with keys sharing prefixes since the last restart point. */
class BlockBuilder {
  private bytes: number[] = [];
  private restarts: number[] = [0];
  private count = 0;
  private lastKey: Uint8Array = new Uint8Array(0);
  constructor(private readonly interval: number) {}

  get size(): number {
    return this.bytes.length + 4 * this.restarts.length + 4;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  add(key: Uint8Array, value: Uint8Array): void {
    let shared = 0;
    if (this.count % this.interval !== 0) {
      while (shared < key.length && shared < this.lastKey.length && key[shared] === this.lastKey[shared]) shared++;
    } else if (this.count > 0) this.restarts.push(this.bytes.length);
    varintBytes(shared, this.bytes);
    varintBytes(key.length - shared, this.bytes);
    varintBytes(value.length, this.bytes);
    for (let i = shared; i < key.length; i++) this.bytes.push(key[i]);
    for (let i = 0; i < value.length; i++) this.bytes.push(value[i]);
    this.lastKey = key;
    this.count++;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    out.set(this.bytes);
    const view = new DataView(out.buffer);
    let at = this.bytes.length;
    for (const r of this.restarts) {
      view.setUint32(at, r, true);
      at += 4;
    }
    view.setUint32(at, this.restarts.length, true);
    return out;
  }
}

/** A table of `entries` (sorted here by key, which must be unique), as TF's table::TableBuilder writes it uncompressed. */
export function writeTable(entries: Iterable<[string, Uint8Array]>): Uint8Array {
  const sorted = [...entries].map(([k, v]) => [utf8Encoder.encode(k), v] as const).sort((a, b) => compareBytes(a[0], b[0]));
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const emit = (body: Uint8Array): Handle => {
    const trailer = new Uint8Array(TRAILER);
    new DataView(trailer.buffer).setUint32(1, maskCrc(crc32cExtend(crc32c(body), trailer.subarray(0, 1))), true);
    chunks.push(body, trailer);
    const h = { offset, size: body.length };
    offset += body.length + TRAILER;
    return h;
  };
  const index = new BlockBuilder(1);
  const handleBytes = (h: Handle): Uint8Array => {
    const b: number[] = [];
    varintBytes(h.offset, b);
    varintBytes(h.size, b);
    return Uint8Array.from(b);
  };
  // As LevelDB's TableBuilder: a full block's index key is the shortest separator between its last key and
  // the next block's first key (so it is added when that key arrives); the last block's is the last key's
  // shortest successor.
  let data = new BlockBuilder(RESTART_INTERVAL);
  let lastKey: Uint8Array | null = null;
  let pending: Handle | null = null;
  for (const [k, v] of sorted) {
    if (lastKey !== null && compareBytes(lastKey, k) === 0) throw new Error(errorMessage('writeTable', `duplicate key '${utf8.decode(k)}'`, `'${utf8.decode(k)}' twice`, 'each key at most once', 'Give every entry a distinct key'));
    if (pending !== null) {
      index.add(shortestSeparator(lastKey!, k), handleBytes(pending));
      pending = null;
    }
    data.add(k, v);
    lastKey = k;
    if (data.size >= BLOCK_SIZE) {
      pending = emit(data.finish());
      data = new BlockBuilder(RESTART_INTERVAL);
    }
  }
  if (!data.empty || lastKey === null) pending = emit(data.finish());
  if (pending !== null) index.add(shortSuccessor(lastKey ?? new Uint8Array(0)), handleBytes(pending));
  const meta = emit(new BlockBuilder(RESTART_INTERVAL).finish());
  const idx = emit(index.finish());
  const footer = new Uint8Array(FOOTER);
  const handles = [...handleBytes(meta), ...handleBytes(idx)];
  footer.set(handles);
  const fv = new DataView(footer.buffer);
  fv.setUint32(40, MAGIC_LO, true);
  fv.setUint32(44, MAGIC_HI, true);
  chunks.push(footer);
  const out = new Uint8Array(offset + FOOTER);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** LevelDB's BytewiseComparator FindShortestSeparator: a short key k with start <= k < limit. */
function shortestSeparator(start: Uint8Array, limit: Uint8Array): Uint8Array {
  const n = Math.min(start.length, limit.length);
  let i = 0;
  while (i < n && start[i] === limit[i]) i++;
  if (i < n && start[i] < 0xff && start[i] + 1 < limit[i]) {
    const out = start.slice(0, i + 1);
    out[i]++;
    return out;
  }
  return start;
}

/** LevelDB's BytewiseComparator FindShortSuccessor: a short key k >= key. */
function shortSuccessor(key: Uint8Array): Uint8Array {
  for (let i = 0; i < key.length; i++) {
    if (key[i] !== 0xff) {
      const out = key.slice(0, i + 1);
      out[i]++;
      return out;
    }
  }
  return key;
}
