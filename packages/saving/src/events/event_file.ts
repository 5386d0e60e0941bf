// Event files (what tf.summary.create_file_writer writes and TensorBoard reads): TFRecord-framed `tensorflow.Event`
// protos (framed by io/tfrecord_framing) in `<logdir>/events.out.tfevents.<time>.<host>.<pid>.<n><suffix>`, the first event carrying
// `file_version: "brain.Event:2"`. Events queue in memory and reach the file on flush: when `maxQueue` are
// waiting, every `flushMillis`, and on flush()/close() (TF's defaults: 10 events, 120 s, suffix ".v2").
import { FailedPreconditionError, InvalidArgumentError, opError } from '@eagerflow/core';
import { encodeRecord } from '../io/tfrecord_framing';
import { tfProto } from '../proto/tf_protos';

export interface EventFileOptions {
  /** Events held in memory before they are written (TF's max_queue, default 10). */
  maxQueue?: number;
  /** Longest time events wait before they are written, in milliseconds (TF's flush_millis, default 120000). */
  flushMillis?: number;
  /** Appended to the file name (TF's filename_suffix, default '.v2'). */
  filenameSuffix?: string;
}

interface SyncFs {
  mkdirSync(dir: string, options: { recursive: true }): unknown;
  openSync(file: string, flags: string): number;
  writeSync(fd: number, data: Uint8Array): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
}

function nodeModules(api: string): { fs: SyncFs; path: { join(...p: string[]): string }; os: { hostname(): string }; pid: number } {
  const proc = (globalThis as { process?: { pid: number; getBuiltinModule?: (id: string) => unknown } }).process;
  const get = proc?.getBuiltinModule;
  if (proc === undefined || typeof get !== 'function') {
    throw opError(FailedPreconditionError, api, 'no filesystem here', "an environment without Node's process.getBuiltinModule", 'Node.js >= 20.19', 'Write event files from Node.js; browsers have no log directory TensorBoard can read.');
  }
  return {
    fs: get.call(proc, 'node:fs') as SyncFs,
    path: get.call(proc, 'node:path') as { join(...p: string[]): string },
    os: get.call(proc, 'node:os') as { hostname(): string },
    pid: proc.pid,
  };
}

let fileCounter = 0;

// Writers still open when Node exits write their queued events then (TF flushes its writers at exit too).
const openWriters = new Set<EventFileWriter>();
let exitHook = false;
function flushAtExit(w: EventFileWriter): void {
  openWriters.add(w);
  if (exitHook) return;
  exitHook = true;
  const proc = (globalThis as { process?: { once?(event: string, fn: () => void): unknown } }).process;
  proc?.once?.('exit', () => {
    for (const writer of openWriters) {
      try { writer.flush(); } catch { /* the process is ending; nothing to report to */ }
    }
  });
}

/** Encodes an Event (TF's field names; `summary.value[i].tensor` etc. as protobufjs objects). */
export function encodeEvent(event: Record<string, unknown>): Uint8Array {
  const type = tfProto('tensorflow.Event');
  return type.encode(type.fromObject(event)).finish();
}

/** One event file, written through Node's fs (synchronously: a summary call returns after its event is queued). */
export class EventFileWriter {
  /** The event file's path. */
  readonly path: string;
  private readonly maxQueue: number;
  private readonly queue: Uint8Array[] = [];
  private readonly fd: number;
  private readonly fs: SyncFs;
  private readonly flushMillis: number;
  private lastFlush = Date.now();
  private timer: ReturnType<typeof setInterval> | null = null;
  private isClosed = false;

  constructor(logdir: string, options: EventFileOptions = {}, api = 'summary.createFileWriter') {
    if (typeof logdir !== 'string' || logdir === '') {
      throw opError(InvalidArgumentError, api, 'logdir must be a non-empty string', typeof logdir === 'string' ? "''" : typeof logdir, 'a directory path', "Pass the directory TensorBoard's --logdir will read, e.g. 'logs/train'.");
    }
    const maxQueue = options.maxQueue ?? 10;
    const flushMillis = options.flushMillis ?? 120_000;
    const suffix = options.filenameSuffix ?? '.v2';
    if (!Number.isInteger(maxQueue) || maxQueue < 0) {
      throw opError(InvalidArgumentError, api, 'maxQueue must be a non-negative integer', String(maxQueue), 'e.g. 10', 'Pass how many events to hold before writing.');
    }
    if (typeof flushMillis !== 'number' || !(flushMillis >= 0)) {
      throw opError(InvalidArgumentError, api, 'flushMillis must be a non-negative number', String(flushMillis), 'milliseconds, e.g. 120000', 'Pass how long events may wait before they are written.');
    }
    if (typeof suffix !== 'string' || suffix.includes('/')) {
      throw opError(InvalidArgumentError, api, 'filenameSuffix must be a string without "/"', String(suffix), "e.g. '.v2'", 'Pass a plain file-name suffix.');
    }
    const { fs, path, os, pid } = nodeModules(api);
    this.fs = fs;
    this.maxQueue = maxQueue;
    this.flushMillis = flushMillis;
    fs.mkdirSync(logdir, { recursive: true });
    const now = Date.now() / 1000;
    const seconds = String(Math.floor(now)).padStart(10, '0');
    this.path = path.join(logdir, `events.out.tfevents.${seconds}.${os.hostname()}.${pid}.${fileCounter++}${suffix}`);
    this.fd = fs.openSync(this.path, 'a');
    // TF's EventsWriter starts every file with the format version (its wall_time in whole seconds).
    this.queue.push(encodeEvent({ wall_time: Math.floor(now), file_version: 'brain.Event:2', source_metadata: { writer: 'eagerflow' } }));
    this.flush();
    flushAtExit(this);
    if (flushMillis > 0 && Number.isFinite(flushMillis)) {
      this.timer = setInterval(() => { if (!this.isClosed) this.flush(); }, flushMillis);
      (this.timer as { unref?: () => void }).unref?.(); // a pending flush does not keep Node alive; close() writes the rest
    }
  }

  /** Whether close() was called. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Queues one Event (the current time is its wall_time unless it has one); writes the queue when it is full. */
  add(event: Record<string, unknown>, api: string): void {
    this.checkOpen(api);
    this.queue.push(encodeEvent({ wall_time: Date.now() / 1000, ...event }));
    // TF's SummaryFileWriter: write when more than max_queue wait or the last write is flush_millis old.
    if (this.queue.length > this.maxQueue || Date.now() - this.lastFlush > this.flushMillis) this.flush();
  }

  /** Writes the queued events and syncs the file. */
  flush(): void {
    if (this.isClosed) return;
    for (const record of this.queue.splice(0)) this.fs.writeSync(this.fd, encodeRecord(record));
    this.fs.fsyncSync(this.fd);
    this.lastFlush = Date.now();
  }

  /** Flushes and closes the file; later writes are a FailedPreconditionError. Closing twice is allowed. */
  close(): void {
    if (this.isClosed) return;
    this.flush();
    if (this.timer !== null) clearInterval(this.timer);
    this.isClosed = true;
    openWriters.delete(this);
    this.fs.closeSync(this.fd);
  }

  checkOpen(api: string): void {
    if (this.isClosed) {
      throw opError(FailedPreconditionError, api, `the summary writer of ${this.path} is closed`, 'a closed writer', 'an open writer', 'Create a new writer with ef.summary.createFileWriter(logdir) (close() ends a writer for good).');
    }
  }
}
