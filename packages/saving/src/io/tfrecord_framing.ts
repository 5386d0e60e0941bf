// TFRecord framing (tensorflow/core/lib/io/record_writer.cc, record_reader.cc): each record is
//   uint64 length (little-endian) | uint32 masked CRC32C of those 8 bytes | data | uint32 masked CRC32C of data.
// TFRecord files, TensorBoard event files and TF's other record logs share it. The CRC32C comes from crc-32
// (./proto/crc32c.ts); this file only frames and unframes bytes, with no I/O, so Node and browsers share it.
import { DataLossError, ResourceExhaustedError, opError } from '@eagerflow/core';
import { crc32c, maskCrc } from '../proto/crc32c';

/** Bytes before a record's data (length and its CRC) and after it (the data's CRC). */
export const RECORD_HEADER_BYTES = 12;
export const RECORD_FOOTER_BYTES = 4;

/** The largest record this reader accepts: a JS typed array's practical limit (TF's is 2^64 - 1). */
const MAX_RECORD_BYTES = 2 ** 31 - 1;

function maskedCrcOf(bytes: Uint8Array): number {
  return maskCrc(crc32c(bytes));
}

/**
 * One record framed as TF writes it: 12 header bytes, the data, 4 footer bytes.
 * @example
 * const { encodeRecord } = require('@eagerflow/saving');
 * encodeRecord(new Uint8Array([1, 2, 3])).length; // 19
 */
export function encodeRecord(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(RECORD_HEADER_BYTES + data.length + RECORD_FOOTER_BYTES);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length % 2 ** 32, true);
  view.setUint32(4, Math.floor(data.length / 2 ** 32), true);
  view.setUint32(8, maskedCrcOf(out.subarray(0, 8)), true);
  out.set(data, RECORD_HEADER_BYTES);
  view.setUint32(RECORD_HEADER_BYTES + data.length, maskedCrcOf(data), true);
  return out;
}

/** Every record of `records` framed and concatenated (a whole TFRecord file's bytes, uncompressed). */
export function encodeRecords(records: Iterable<Uint8Array>): Uint8Array {
  const parts = Array.from(records, encodeRecord);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** What a record reader reports with each record: the file's name, the record's index and its byte offset. */
export interface RecordPosition {
  file: string;
  index: number;
  offset: number;
}

/** Options of RecordUnframer. */
export interface RecordUnframerOptions {
  /** The file's name for error messages (default '<bytes>'). */
  file?: string;
  /** The API named in error messages (default 'TFRecord'). */
  api?: string;
}

/**
 * A streaming TFRecord reader over byte chunks of any size: `push(chunk)` returns the records completed by it
 * (fresh copies, so a caller may keep them without pinning the chunk), `end()` checks that the stream did not
 * stop inside a record. Both CRCs are checked; a mismatch or truncation is a DataLossError naming the file,
 * the record's index and its byte offset. Memory held is at most one record plus one chunk.
 *
 * After a data-CRC mismatch the record's extent is known, so `push`/`end` may be called again and reading
 * resumes at the next record (the record is skipped, as `ignoreErrors()` wants); after a length-CRC mismatch
 * the framing is lost and the reader stays failed (`failed` is true).
 * @example
 * const { RecordUnframer, encodeRecords } = require('@eagerflow/saving');
 * const u = new RecordUnframer({ file: 'a.tfrecord' });
 * const recs = u.push(encodeRecords([new Uint8Array([7]), new Uint8Array([8, 9])]));
 * u.end();
 * recs.map((r) => Array.from(r)); // [[7], [8, 9]]
 */
export class RecordUnframer {
  private readonly chunks: Uint8Array[] = [];
  private buffered = 0;
  private head = 0; // read position inside chunks[0]
  private pendingLength = -1; // data length of the record whose header was read, or -1 while reading a header
  private offset = 0; // byte offset of the current record in the stream
  private index = 0; // index of the current record
  private readonly file: string;
  private readonly api: string;
  private lostFraming: DataLossError | null = null;

  constructor(options: RecordUnframerOptions = {}) {
    this.file = options.file ?? '<bytes>';
    this.api = options.api ?? 'TFRecord';
  }

  /** True once the framing is lost (a length CRC mismatch): nothing more can be read from this stream. */
  get failed(): boolean {
    return this.lostFraming !== null;
  }

  /** Records read so far (including skipped corrupt ones). */
  get recordsRead(): number {
    return this.index;
  }

  /**
   * Feeds a chunk; returns the records it completes. Throws DataLossError at a corrupted record; the records
   * before it in this chunk are available with `takeCompleted()` (call it before `push`ing again).
   */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.lostFraming) throw this.lostFraming;
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    return this.drain();
  }

  private completed: Uint8Array[] = [];

  /** The records completed before an error thrown by `push`/`end` (they precede the bad record). */
  takeCompleted(): Uint8Array[] {
    const out = this.completed;
    this.completed = [];
    return out;
  }

  /** Ends the stream: the records still buffered (none normally) and a DataLossError if it ends inside a record. */
  end(): Uint8Array[] {
    if (this.lostFraming) throw this.lostFraming;
    const out = this.drain();
    if (this.buffered > 0 || this.pendingLength >= 0) {
      const need = this.pendingLength < 0 ? RECORD_HEADER_BYTES : this.pendingLength + RECORD_FOOTER_BYTES;
      const part = this.pendingLength < 0 ? 'header' : 'data';
      const got = this.buffered;
      this.completed = out;
      const e = this.error(`truncated record: the file ends inside the record's ${part}`, `${got} byte(s)`, `${need}`, 'The file was cut short (an interrupted copy or write); rewrite it, or read it with .ignoreErrors() to keep the records before the cut');
      this.lostFraming = e;
      throw e;
    }
    return out;
  }

  /** Where the reader is: the file, the record's index and its byte offset. */
  private where(): string {
    return `(file ${this.file}, record ${this.index} at byte offset ${this.offset})`;
  }

  private error(what: string, got: string, expected: string, fix: string): DataLossError {
    return opError(DataLossError, this.api, `${what} ${this.where()}`, got, expected, fix);
  }

  private drain(): Uint8Array[] {
    this.completed = [];
    for (;;) {
      if (this.pendingLength < 0) {
        if (this.buffered < RECORD_HEADER_BYTES) break;
        const header = this.take(RECORD_HEADER_BYTES);
        const view = new DataView(header.buffer, header.byteOffset, RECORD_HEADER_BYTES);
        const lo = view.getUint32(0, true);
        const hi = view.getUint32(4, true);
        const stored = view.getUint32(8, true);
        const actual = maskedCrcOf(header.subarray(0, 8));
        if (stored !== actual) {
          const e = this.error("corrupted record: the length's CRC does not match", `masked CRC32C 0x${stored.toString(16)} stored`, `0x${actual.toString(16)} computed from length bytes ${hex(header.subarray(0, 8))}`, "The file is damaged or is not a TFRecord file (a compressed file read with compressionType ''?)");
          this.lostFraming = e;
          throw e;
        }
        const length = hi * 2 ** 32 + lo;
        if (length > MAX_RECORD_BYTES) {
          const parts = [this.api, `record is larger than a reader here can hold ${this.where()}`, `${length} bytes`, `at most ${MAX_RECORD_BYTES} bytes`, 'Split the data into smaller records'] as const;
          const e = opError(ResourceExhaustedError, ...parts);
          this.lostFraming = opError(DataLossError, ...parts, { opName: this.api, cause: e });
          throw e;
        }
        this.pendingLength = length;
      }
      const need = this.pendingLength + RECORD_FOOTER_BYTES;
      if (this.buffered < need) break;
      const data = this.take(this.pendingLength, true);
      const footer = this.take(RECORD_FOOTER_BYTES);
      const stored = new DataView(footer.buffer, footer.byteOffset, RECORD_FOOTER_BYTES).getUint32(0, true);
      const actual = maskedCrcOf(data);
      const recordBytes = RECORD_HEADER_BYTES + need;
      if (stored !== actual) {
        const e = this.error("corrupted record: the data's CRC does not match", `masked CRC32C 0x${stored.toString(16)} stored`, `0x${actual.toString(16)} computed over its ${this.pendingLength} bytes`, 'The file is damaged; rewrite it, or read it with .ignoreErrors() to skip this record');
        this.pendingLength = -1;
        this.offset += recordBytes;
        this.index += 1;
        throw e;
      }
      this.completed.push(data);
      this.pendingLength = -1;
      this.offset += recordBytes;
      this.index += 1;
    }
    const out = this.completed;
    this.completed = [];
    return out;
  }

  /** Removes n buffered bytes: a fresh Uint8Array when `copy` or when they span chunks, else a view of the chunk. */
  private take(n: number, copy = false): Uint8Array {
    const first = this.chunks[0];
    if (first && first.length - this.head >= n) {
      const view = first.subarray(this.head, this.head + n);
      this.head += n;
      this.buffered -= n;
      if (this.head === first.length) {
        this.chunks.shift();
        this.head = 0;
      }
      // new Uint8Array(view) copies (a Node Buffer's slice() would not), and gives a plain Uint8Array.
      return copy ? new Uint8Array(view) : view;
    }
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const c = this.chunks[0];
      const m = Math.min(n - at, c.length - this.head);
      out.set(c.subarray(this.head, this.head + m), at);
      at += m;
      this.head += m;
      if (this.head === c.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    this.buffered -= n;
    return out;
  }
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The records of a byte stream (sync or async chunks), in order; DataLossError as RecordUnframer's.
 * @example
 * const { readRecords, encodeRecords } = require('@eagerflow/saving');
 * const bytes = encodeRecords([new Uint8Array([1]), new Uint8Array([2])]);
 * const out = [];
 * for await (const r of readRecords([bytes.subarray(0, 5), bytes.subarray(5)], { file: 'x' })) out.push(r[0]);
 * out; // [1, 2]
 */
export async function* readRecords(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: RecordUnframerOptions = {}): AsyncGenerator<Uint8Array> {
  const u = new RecordUnframer(options);
  for await (const chunk of chunks) {
    let recs: Uint8Array[];
    try {
      recs = u.push(chunk);
    } catch (e) {
      yield* u.takeCompleted();
      throw e;
    }
    yield* recs;
  }
  let rest: Uint8Array[];
  try {
    rest = u.end();
  } catch (e) {
    yield* u.takeCompleted();
    throw e;
  }
  yield* rest;
}
