// Reading and writing TFRecord files: byte sources (Node file streams, ArrayBuffers, Blobs, fetch Responses),
// TF's compressions ('' | 'GZIP' | 'ZLIB') and the writer. Node's zlib inflates file streams (native, fast);
// fflate inflates in-memory and browser sources and deflates for the writer (synchronous streaming, so
// write/flush/close stay synchronous as TF's are). Framing and CRCs are ./tfrecord_framing.ts.
import { DataLossError, InvalidArgumentError, NotFoundError, OpError, FailedPreconditionError, argError, describe, opError, typeError } from '@eagerflow/core';
import { Gunzip, Gzip, Unzlib, Zlib } from 'fflate';
import { encodeRecord, readRecords } from './tfrecord_framing';

/** TF's compression types. */
export type CompressionType = '' | 'GZIP' | 'ZLIB';

/** Where records come from: a file path (Node), bytes in memory, a Blob/File, or a fetch Response. */
export type RecordSource = string | ArrayBuffer | Uint8Array | Blob | Response;

/** TF's default read buffer (tf.data's _DEFAULT_READER_BUFFER_SIZE_BYTES). */
export const DEFAULT_BUFFER_SIZE = 256 * 1024;

type NodeFs = typeof import('node:fs');
type NodeZlib = typeof import('node:zlib');
type NodeStream = typeof import('node:stream');

/** A Node built-in module without a static import (browser bundles still build), or undefined outside Node. */
export function nodeModule<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.call(proc, id) as T | undefined;
}

function needNode<T>(api: string, id: string, what: string): T {
  const m = nodeModule<T>(id);
  if (m === undefined) throw argError(api, `${what} needs Node's ${id}`, 'an environment without it (a browser?)', 'Node.js >= 20.19', 'In a browser, pass an ArrayBuffer, Blob or fetch Response instead of a path.');
  return m;
}

/** Checks a compressionType argument (TF accepts null/undefined as ''). */
export function checkCompression(api: string, c: unknown): CompressionType {
  if (c === undefined || c === null || c === '') return '';
  if (c === 'GZIP' || c === 'ZLIB') return c;
  throw argError(api, 'unknown compressionType', describe(c), "'' (none), 'GZIP' or 'ZLIB'", "Pass compressionType: 'GZIP' for .gz files written by TF with GZIP, 'ZLIB' for ZLIB, '' for none.");
}

/** A name for error messages. */
export function sourceName(src: RecordSource, index: number): string {
  if (typeof src === 'string') return src;
  if (typeof Blob !== 'undefined' && src instanceof Blob) return (src as File).name ? `Blob '${(src as File).name}'` : `Blob #${index}`;
  if (typeof Response !== 'undefined' && src instanceof Response) return src.url ? `Response ${src.url}` : `Response #${index}`;
  return `ArrayBuffer #${index}`;
}

/** Checks that `src` is a record source, at construction. */
export function checkSource(api: string, src: unknown, index: number): RecordSource {
  const ok =
    (typeof src === 'string' && src !== '') ||
    src instanceof ArrayBuffer ||
    src instanceof Uint8Array ||
    (typeof Blob !== 'undefined' && src instanceof Blob) ||
    (typeof Response !== 'undefined' && src instanceof Response);
  if (!ok) throw typeError(api, `filenames[${index}] is not a record source`, describe(src), 'a file path (Node), an ArrayBuffer or Uint8Array, a Blob, or a fetch Response', 'Pass e.g. "train.tfrecord" or await (await fetch(url)).arrayBuffer().');
  return src as RecordSource;
}

/** Slices of an in-memory buffer, `size` bytes each (views, no copies). */
function* slices(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

async function* webStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
    await stream.cancel().catch(() => {});
  }
}

/** The raw (still compressed) bytes of a source, as chunks; Node file streams for paths. */
async function* rawChunks(api: string, src: RecordSource, bufferSize: number): AsyncGenerator<Uint8Array> {
  if (typeof src === 'string') {
    const fs = needNode<NodeFs>(api, 'node:fs', 'reading a file path');
    const path = src.replace(/^file:\/\//, '');
    let stream: ReturnType<NodeFs['createReadStream']>;
    try {
      await fs.promises.access(path, fs.constants.R_OK);
      stream = fs.createReadStream(path, { highWaterMark: bufferSize });
    } catch (e) {
      throw opError(NotFoundError, api, `cannot open ${src}`, (e as Error).message, 'a readable TFRecord file', 'Check the path', { opName: api, cause: e });
    }
    try {
      for await (const chunk of stream) yield chunk as Uint8Array;
    } finally {
      stream.destroy();
    }
    return;
  }
  if (src instanceof ArrayBuffer) return yield* slices(new Uint8Array(src), bufferSize);
  if (src instanceof Uint8Array) return yield* slices(src, bufferSize);
  if (typeof Response !== 'undefined' && src instanceof Response) {
    if (src.bodyUsed) throw opError(FailedPreconditionError, api, "the Response's body was already read", 'a used Response', 'a fresh one', 'A Response reads once: fetch again, or pass await response.arrayBuffer() to read it several times');
    if (src.body === null) return;
    return yield* webStream(src.body);
  }
  yield* webStream((src as Blob).stream());
}

/** Inflates a chunk stream with fflate (browsers and in-memory sources); errors name the file. */
async function* fflateInflate(api: string, chunks: AsyncIterable<Uint8Array>, kind: 'GZIP' | 'ZLIB', name: string): AsyncGenerator<Uint8Array> {
  let out: Uint8Array[] = [];
  let produced = 0;
  const sink = (d: Uint8Array): void => {
    if (d.length > 0) out.push(d);
    produced += d.length;
  };
  const inflater = kind === 'GZIP' ? new Gunzip(sink) : new Unzlib(sink);
  let members = 1;
  if (inflater instanceof Gunzip) inflater.onmember = () => void members++;
  // The input's last 4 bytes: a gzip member's trailer ends with ISIZE, its uncompressed size mod 2^32.
  const tail = new Uint8Array(4);
  let seen = 0;
  const push = (c: Uint8Array, final: boolean): Uint8Array[] => {
    try {
      inflater.push(c, final);
    } catch (e) {
      throw badCompression(api, kind, name, e);
    }
    const got = out;
    out = [];
    return got;
  };
  let any = false;
  for await (const c of chunks) {
    any = true;
    if (c.length >= 4) tail.set(c.subarray(c.length - 4));
    else for (const b of c) (tail.copyWithin(0, 1), (tail[3] = b));
    seen += c.length;
    yield* push(c, false);
  }
  if (any) yield* push(new Uint8Array(0), true);
  // fflate ends quietly when the input stops inside a gzip header (a flipped flag bit makes the rest an 'extra'
  // field): a one-member stream whose output disagrees with its ISIZE was cut short or damaged (Node's zlib and
  // TF's ZlibInputStream fail there too).
  if (any && kind === 'GZIP' && members === 1 && (seen < 18 || new DataView(tail.buffer).getUint32(0, true) !== produced % 2 ** 32)) {
    throw opError(DataLossError, api, `truncated ${kind} stream: ${name} ends inside its compressed data`, `${produced} bytes out, not the size its trailer (ISIZE) gives`, `a complete ${kind} stream`, 'The file was cut short or damaged; rewrite it, or read it with .ignoreErrors() to keep the records before the damage', { opName: api });
  }
}

function badCompression(api: string, kind: string, name: string, e: unknown): InvalidArgumentError | DataLossError {
  const m = (e as Error)?.message ?? String(e);
  // A compressed stream cut short is data loss (TF's ZlibInputStream reports it so); other failures are bad input.
  if (/unexpected end|unexpected EOF|incorrect data check|incorrect length check/i.test(m)) {
    return opError(DataLossError, api, `truncated ${kind} stream: ${name} ends inside its compressed data`, m, `a complete ${kind} stream`, 'The file was cut short; rewrite it, or read it with .ignoreErrors() to keep the records before the cut', { opName: api, cause: e });
  }
  return argError(api, `cannot ${kind}-decompress ${name}`, m, `${kind} data`, "Check compressionType: files written with compression '' need compressionType ''", { opName: api, cause: e });
}

/** Inflates a Node file stream with Node's zlib (stream.pipeline: an error or an early stop ends both sides). */
async function* nodeInflate(api: string, chunks: AsyncIterable<Uint8Array>, kind: 'GZIP' | 'ZLIB', name: string): AsyncGenerator<Uint8Array> {
  const zlib = needNode<NodeZlib>(api, 'node:zlib', 'decompression');
  const streams = needNode<NodeStream>(api, 'node:stream', 'decompression');
  const inflater = kind === 'GZIP' ? zlib.createGunzip() : zlib.createInflate();
  streams.pipeline(streams.Readable.from(chunks), inflater, () => {});
  try {
    for await (const c of inflater) yield c as Uint8Array;
  } catch (e) {
    if (e instanceof OpError) throw e;
    throw badCompression(api, kind, name, e);
  } finally {
    inflater.destroy();
  }
}

/** The decompressed bytes of a source, in chunks of about `bufferSize`. */
export function sourceBytes(api: string, src: RecordSource, index: number, compression: CompressionType, bufferSize: number): AsyncIterable<Uint8Array> {
  const raw = rawChunks(api, src, bufferSize);
  if (compression === '') return raw;
  const name = sourceName(src, index);
  // Node's zlib wherever it exists (it checks the gzip CRC-32 and ISIZE and zlib's Adler-32 as TF's ZlibInputStream
  // does; fflate checks none of them, so a damaged ZLIB stream could end early as a clean prefix of records).
  return typeof src === 'string' || nodeModule('node:zlib') !== undefined ? nodeInflate(api, raw, compression, name) : fflateInflate(api, raw, compression, name);
}

/** The records of one source, in order (DataLossError naming the source and record on bad framing). */
export function sourceRecords(api: string, src: RecordSource, index: number, compression: CompressionType, bufferSize: number): AsyncGenerator<Uint8Array> {
  return readRecords(sourceBytes(api, src, index, compression, bufferSize), { file: sourceName(src, index), api });
}

/** TFRecordWriter options. */
export interface TFRecordWriterOptions {
  compressionType?: CompressionType | null;
}

const WRITE_BUFFER = 256 * 1024;

/**
 * Writes records to a TFRecord file (Node), TF's framing, optionally GZIP or ZLIB compressed; what it writes is
 * read by `tf.data.TFRecordDataset`. `write` buffers, `flush` puts everything written so far in the file (a
 * compressed file gets a sync-flush point, so a reader sees every record), `close` finishes the file. Records
 * are Uint8Arrays or strings (UTF-8).
 * @example
 * const path = require('node:os').tmpdir() + '/doc_writer.tfrecord';
 * const w = new ef.io.TFRecordWriter(path);
 * w.write(new Uint8Array([1, 2]));
 * w.write('text');
 * w.close();
 * require('node:fs').statSync(path).size; // 2 * 16 + 2 + 4
 */
export class TFRecordWriter {
  readonly path: string;
  readonly compressionType: CompressionType;
  private fd: number | null;
  private readonly fs: NodeFs;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private readonly deflater: Gzip | Zlib | null;
  private compressed: Uint8Array[] = [];

  constructor(path: string, options: TFRecordWriterOptions = {}) {
    const api = 'ef.io.TFRecordWriter';
    if (typeof path !== 'string' || path === '') throw typeError(api, 'path must be a file path', describe(path), 'a non-empty string', "Pass e.g. 'train.tfrecord'.");
    this.compressionType = checkCompression(api, options.compressionType);
    this.fs = needNode<NodeFs>(api, 'node:fs', 'writing a file');
    this.path = path;
    try {
      this.fd = this.fs.openSync(path, 'w');
    } catch (e) {
      throw opError(NotFoundError, api, `cannot create ${path}`, (e as Error).message, 'a writable path', 'Check that the directory exists', { opName: api, cause: e });
    }
    const sink = (d: Uint8Array): void => {
      if (d.length > 0) this.compressed.push(d);
    };
    // TF's GZIP/ZLIB writers use zlib's default level (6); mtime 0 as TF's zlib header (deterministic files).
    this.deflater = this.compressionType === 'GZIP' ? new Gzip({ level: 6, mtime: 0 }, sink) : this.compressionType === 'ZLIB' ? new Zlib({ level: 6 }, sink) : null;
  }

  private open(api: string): number {
    if (this.fd === null) throw opError(FailedPreconditionError, api, `the writer of ${this.path} is closed`, 'a write after close()', 'an open writer', 'Make a new TFRecordWriter');
    return this.fd;
  }

  /** Appends one record. */
  write(record: Uint8Array | string): void {
    const api = 'TFRecordWriter.write';
    this.open(api);
    if (typeof record !== 'string' && !(record instanceof Uint8Array)) {
      throw typeError(api, 'a record is bytes', describe(record), 'a Uint8Array or a string', 'Serialize first, e.g. example.serializeToString().');
    }
    const framed = encodeRecord(typeof record === 'string' ? new TextEncoder().encode(record) : record);
    if (this.deflater !== null) {
      this.deflater.push(framed);
      this.drainCompressed(api);
      return;
    }
    this.pending.push(framed);
    this.pendingBytes += framed.length;
    if (this.pendingBytes >= WRITE_BUFFER) this.writePending(api);
  }

  private drainCompressed(api: string): void {
    for (const c of this.compressed) this.writeBytes(api, c);
    this.compressed = [];
  }

  private writePending(api: string): void {
    if (this.pending.length === 1) this.writeBytes(api, this.pending[0]);
    else if (this.pending.length > 1) {
      const all = new Uint8Array(this.pendingBytes);
      let at = 0;
      for (const p of this.pending) {
        all.set(p, at);
        at += p.length;
      }
      this.writeBytes(api, all);
    }
    this.pending = [];
    this.pendingBytes = 0;
  }

  private writeBytes(api: string, bytes: Uint8Array): void {
    const fd = this.open(api);
    let at = 0;
    while (at < bytes.length) at += this.fs.writeSync(fd, bytes, at, bytes.length - at);
  }

  /** Writes everything buffered to the file. */
  flush(): void {
    const api = 'TFRecordWriter.flush';
    this.open(api);
    if (this.deflater !== null) {
      this.deflater.flush(true);
      this.drainCompressed(api);
    } else this.writePending(api);
  }

  /** Finishes and closes the file (a second close does nothing). */
  close(): void {
    if (this.fd === null) return;
    const api = 'TFRecordWriter.close';
    try {
      if (this.deflater !== null) {
        this.deflater.push(new Uint8Array(0), true);
        this.drainCompressed(api);
      } else this.writePending(api);
    } finally {
      this.fs.closeSync(this.fd);
      this.fd = null;
    }
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
