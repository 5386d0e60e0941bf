// ef.summary: TensorFlow 2's tf.summary (TensorBoard event files). The writer and the values TensorBoard's plugins
// read come from @eagerflow/saving (events/); this module holds the API: default writers, the summary calls
// and their checks. Each call is a stateful numpyFunction, so it writes at every run of a traced function (with
// that run's data and step), never while tracing, and eagerly at once.
/**
 * TensorBoard summaries (`tf.summary`): `createFileWriter`, default writers, `scalar`, `histogram`, `image`,
 * `text`, `audio`, `graph`, `flush`.
 * @module
 */
import {
  Converted, DType, FailedPreconditionError, InvalidArgumentError, NDArray, Tensor, TensorLike, Variable, argError, convert, ctx, isVariableLike, opError, release,
} from '@eagerflow/core';
import { numpyFunction } from '@eagerflow/callbacks';
import type { GraphDef } from '@eagerflow/saving';
import {
  EventFileOptions, EventFileWriter, SummaryValue, audioValue, floatToUint8, graphDefToProto, histogramValue, imageValue,
  scalarValue, textValue,
} from '@eagerflow/saving';

/** Options of createFileWriter (TF's max_queue, flush_millis, filename_suffix). */
export type FileWriterOptions = EventFileOptions;

/**
 * A summary writer (tf.summary.SummaryWriter) on one event file in `logdir`.
 * @example
 * const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'ef-'));
 * const writer = ef.summary.createFileWriter(dir);
 * writer.asDefault(() => ef.summary.scalar('loss', 0.25, { step: 1 })); // true
 * writer.close();
 */
export class SummaryWriter {
  private readonly file: EventFileWriter;

  /** @internal Use ef.summary.createFileWriter. */
  constructor(readonly logdir: string, options: FileWriterOptions = {}) {
    this.file = new EventFileWriter(logdir, options);
  }

  /** The event file this writer appends to. */
  get path(): string {
    return this.file.path;
  }

  /** Whether close() was called. */
  get closed(): boolean {
    return this.file.closed;
  }

  /**
   * Runs `fn` with this writer as the default (TF's `with writer.as_default():`), restoring the previous default
   * afterwards (after the Promise settles when `fn` returns one).
   */
  asDefault<T>(fn: () => T): T {
    if (typeof fn !== 'function') {
      throw argError('summary.SummaryWriter.asDefault', 'fn must be a function', typeof fn, 'a function whose summaries go to this writer', 'Pass () => { ...summary calls... }.');
    }
    const previous = defaultWriter;
    defaultWriter = this;
    let result: T;
    try {
      result = fn();
    } catch (e) {
      defaultWriter = previous;
      throw e;
    }
    if (result instanceof Promise) {
      return result.finally(() => { defaultWriter = previous; }) as T;
    }
    defaultWriter = previous;
    return result;
  }

  /** Makes this writer the default (TF's `writer.set_as_default()`). */
  setAsDefault(): this {
    setDefaultWriter(this);
    return this;
  }

  /** Writes the queued events to the file. */
  flush(): void {
    this.file.flush();
  }

  /** Flushes and closes the file; summaries written to it afterwards are a FailedPreconditionError. */
  close(): void {
    this.file.close();
  }

  /** @internal Queues one event. */
  addEvent(event: Record<string, unknown>, api: string): void {
    this.file.add(event, api);
  }

  /** @internal Throws when closed. */
  checkOpen(api: string): void {
    this.file.checkOpen(api);
  }
}

let defaultWriter: SummaryWriter | null = null;

/**
 * A summary writer on a new event file in `logdir` (created if missing), as tf.summary.create_file_writer.
 * @example
 * const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'ef-'));
 * const writer = ef.summary.createFileWriter(dir, { flushMillis: 1000 });
 * writer.path.includes('events.out.tfevents.'); // true
 * writer.close();
 */
export function createFileWriter(logdir: string, options: FileWriterOptions = {}): SummaryWriter {
  return new SummaryWriter(logdir, options ?? {});
}

/** Sets (or with `null` clears) the default writer that the summary calls write to. */
export function setDefaultWriter(writer: SummaryWriter | null): void {
  if (writer !== null && !(writer instanceof SummaryWriter)) {
    throw argError('summary.setDefaultWriter', 'writer must be a SummaryWriter or null', typeof writer, 'what ef.summary.createFileWriter returns', 'Pass a writer from ef.summary.createFileWriter(logdir).');
  }
  defaultWriter = writer;
}

/** The current default writer, or null. */
export function getDefaultWriter(): SummaryWriter | null {
  return defaultWriter;
}

/** Flushes `writer` (the default writer when omitted), as tf.summary.flush. */
export function flush(writer: SummaryWriter | null = defaultWriter): void {
  writer?.flush();
}

/** Options shared by the summary calls. */
export interface SummaryOptions {
  /**
   * The step this value belongs to: a number, a scalar int tensor or a Variable such as an optimizer's
   * `iterations` (inside ef.trace a tensor or Variable is read at run time).
   */
  step?: number | Tensor | Variable;
  /** A longer description shown with the chart (Markdown; TF's `description`). */
  description?: string;
}

const NUMERIC: readonly DType[] = ['float32', 'int32', 'bool'];

function checkTag(api: string, name: unknown): string {
  if (typeof name !== 'string' || name === '') {
    throw argError(api, 'the summary name must be a non-empty string', typeof name === 'string' ? "''" : String(name), "a tag such as 'loss' or 'train/accuracy'", 'Name the summary; TensorBoard groups tags by their text before the first "/".');
  }
  return name;
}

function checkCount(api: string, what: string, x: unknown, min: number): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min) {
    throw argError(api, `${what} must be an integer >= ${min}`, String(x), `an integer >= ${min}`, `Pass a whole number for ${what}.`);
  }
  return x;
}

function checkStepTensor(api: string, step: Tensor): void {
  if (step.dtype !== 'int32' && step.dtype !== 'float32') throw argError(api, 'step must be an int32 tensor', step.dtype, 'int32', 'Pass an int32 scalar step.');
  if (step.rank !== null && step.rank !== 0) throw argError(api, 'step must be a scalar', `shape [${step.dims}]`, 'shape []', 'Pass one step per call.');
}

/**
 * The step as a host number, or the step tensor to read at run time; a Variable's step is a read of it
 * (`read`, for the caller to release).
 */
function checkStep(api: string, step: unknown): { step: number | Tensor; read: Converted | null } {
  if (step === undefined || step === null) {
    throw argError(api, 'no step given', String(step), 'options.step: a number, a scalar int tensor or a Variable', 'Pass { step } (e.g. the optimizer\'s iterations or your loop counter), as tf.summary calls need one.');
  }
  if (typeof step === 'number') {
    if (!Number.isSafeInteger(step)) throw argError(api, 'step must be an integer', String(step), 'an integer (int64 in the event file)', 'Pass a whole-number step.');
    return { step, read: null };
  }
  if (step instanceof Tensor) {
    checkStepTensor(api, step);
    return { step, read: null };
  }
  if (isVariableLike(step)) {
    const read = convert(api, step);
    try {
      checkStepTensor(api, read.t);
    } catch (e) {
      release(read);
      throw e;
    }
    return { step: read.t, read };
  }
  throw argError(api, 'step must be a number, a Tensor or a Variable', typeof step, 'a number, a scalar int32 tensor or a Variable', 'Pass { step: i }.');
}

/**
 * The shared path of the summary calls: checks, then a stateful numpyFunction that computes the summary value
 * on the host and queues its event (eagerly now; inside ef.trace at every run). False without a default writer.
 */
function writeSummary(
  api: string, name: unknown, data: TensorLike, options: SummaryOptions | undefined, check: (t: Tensor) => void,
  value: (tag: string, x: NDArray) => SummaryValue,
): boolean {
  const tag = checkTag(api, name);
  const writer = defaultWriter;
  if (writer === null) return false;
  writer.checkOpen(api);
  const { step, read: stepRead } = checkStep(api, options?.step);
  const description = options?.description;
  let c: Converted | null = null;
  try {
    if (description !== undefined && typeof description !== 'string') {
      throw argError(api, 'description must be a string', typeof description, 'Markdown text', 'Pass a string or leave description out.');
    }
    c = convert(api, data);
    check(c.t);
    const inputs: Tensor[] = step instanceof Tensor ? [c.t, step] : [c.t];
    numpyFunction((x: NDArray, s?: NDArray) => {
      const stepValue = s === undefined ? (step as number) : Math.trunc(Number(s.data[0]));
      const v = value(tag, x);
      if (description) (v.metadata as Record<string, unknown>).summary_description = description;
      writer.addEvent({ step: stepValue, summary: { value: [v] } }, api);
      return undefined;
    }, inputs, [], true, `${api}_${tag}`.replace(/[^A-Za-z0-9_.\-/]/g, '_'));
  } finally {
    if (c !== null) release(c);
    if (stepRead !== null) release(stepRead);
  }
  return true;
}

function checkDtype(api: string, t: Tensor, allowed: readonly DType[], fix: string): void {
  if (!allowed.includes(t.dtype)) throw argError(api, `data has dtype ${t.dtype}`, t.dtype, allowed.join(' or '), fix);
}

function checkRank(api: string, dims: readonly (number | null)[] | null, rank: number, layout: string): void {
  if (dims !== null && dims.length !== rank) {
    throw argError(api, `data must have rank ${rank} (${layout})`, `shape [${dims.map((d) => d ?? '?').join(', ')}] (rank ${dims.length})`, `rank ${rank}`, `Reshape the data to ${layout}.`);
  }
}

const numbers = (x: NDArray): ArrayLike<number> => x.data as ArrayLike<number>;

/**
 * Writes a scalar (tf.summary.scalar): a float32 value for TensorBoard's scalars dashboard. Returns false when
 * there is no default writer.
 * @example
 * const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'ef-'));
 * const writer = ef.summary.createFileWriter(dir);
 * writer.asDefault(() => {
 *   for (let step = 0; step < 3; step++) ef.summary.scalar('loss', 1 / (step + 1), { step });
 * });
 * writer.close();
 */
export function scalar(name: string, data: TensorLike, options?: SummaryOptions): boolean {
  const api = 'summary.scalar';
  return writeSummary(api, name, data, options, (t) => {
    checkDtype(api, t, NUMERIC, 'Summarize a number: reduce the tensor first (e.g. ef.reduceMean(loss)).');
    checkRank(api, t.dims, 0, 'a scalar');
  }, (tag, x) => {
    checkRank(api, x.shape, 0, 'a scalar');
    return scalarValue(tag, Number(x.data[0]));
  });
}

/** Options of histogram: `buckets` (default 30). */
export interface HistogramOptions extends SummaryOptions {
  buckets?: number;
}

/**
 * Writes a histogram of all elements of `data` (tf.summary.histogram; TensorBoard's bucketing, 30 buckets by
 * default) for the histograms and distributions dashboards.
 * @example
 * const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'ef-'));
 * const writer = ef.summary.createFileWriter(dir);
 * writer.asDefault(() => ef.summary.histogram('weights', ef.random.normal([100]), { step: 0, buckets: 10 })); // true
 * writer.close();
 */
export function histogram(name: string, data: TensorLike, options?: HistogramOptions): boolean {
  const api = 'summary.histogram';
  const buckets = checkCount(api, 'buckets', options?.buckets ?? 30, 0);
  return writeSummary(api, name, data, options, (t) => {
    checkDtype(api, t, NUMERIC, 'Histograms summarize numbers.');
  }, (tag, x) => histogramValue(tag, numbers(x), buckets));
}

/** Options of image: `maxOutputs` (default 3). */
export interface ImageOptions extends SummaryOptions {
  maxOutputs?: number;
}

function imagePixels(api: string, x: NDArray): Uint8Array {
  const d = numbers(x);
  const out = new Uint8Array(d.length);
  if (x.dtype === 'float32') {
    for (let i = 0; i < d.length; i++) out[i] = floatToUint8(d[i]);
    return out;
  }
  for (let i = 0; i < d.length; i++) {
    const v = d[i];
    if (!(v >= 0 && v <= 255)) {
      throw opError(InvalidArgumentError, api, `int32 image value ${v} at flat index ${i} is outside [0, 255]`, String(v), 'int32 pixels in [0, 255] (TF\'s uint8)', 'Clip with ef.clipByValue(img, 0, 255), or pass float32 pixels in [0, 1].');
    }
    out[i] = v;
  }
  return out;
}

/**
 * Writes images (tf.summary.image): NHWC `data` with 1 (grayscale), 2, 3 (RGB) or 4 (RGBA) channels, float32 in
 * [0, 1] or int32 in [0, 255] (TF's uint8), the first `maxOutputs` (default 3) encoded as PNG.
 * @example
 * const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'ef-'));
 * const writer = ef.summary.createFileWriter(dir);
 * writer.asDefault(() => ef.summary.image('noise', ef.random.uniform([2, 8, 8, 3]), { step: 0, maxOutputs: 1 })); // true
 * writer.close();
 */
export function image(name: string, data: TensorLike, options?: ImageOptions): boolean {
  const api = 'summary.image';
  const maxOutputs = checkCount(api, 'maxOutputs', options?.maxOutputs ?? 3, 0);
  const checkChannels = (c: number | null | undefined): void => {
    if (c !== null && c !== undefined && (c < 1 || c > 4)) {
      throw argError(api, `images must have 1 to 4 channels (NHWC)`, `${c} channels`, '1 (grayscale), 2, 3 (RGB) or 4 (RGBA)', 'Pass NHWC data; a NCHW batch needs ef.transpose(x, [0, 2, 3, 1]).');
    }
  };
  return writeSummary(api, name, data, options, (t) => {
    checkDtype(api, t, ['float32', 'int32'], 'Pass float32 pixels in [0, 1] or int32 pixels in [0, 255] (ef.cast first).');
    checkRank(api, t.dims, 4, '[batch, height, width, channels]');
    checkChannels(t.dims?.[3]);
  }, (tag, x) => {
    checkRank(api, x.shape, 4, '[batch, height, width, channels]');
    checkChannels(x.shape[3]);
    return imageValue(tag, imagePixels(api, x), x.shape, maxOutputs);
  });
}

/**
 * Writes text (tf.summary.text): a string tensor of any shape (TensorBoard's text dashboard renders Markdown;
 * a 2-D tensor shows as a table).
 * @example
 * const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'ef-'));
 * const writer = ef.summary.createFileWriter(dir);
 * writer.asDefault(() => ef.summary.text('notes', 'learning rate **0.1**', { step: 0 })); // true
 * writer.close();
 */
export function text(name: string, data: TensorLike, options?: SummaryOptions): boolean {
  const api = 'summary.text';
  return writeSummary(api, name, data, options, (t) => {
    checkDtype(api, t, ['string'], 'Pass a string or a string tensor.');
  }, (tag, x) => textValue(tag, x.data as readonly (string | Uint8Array)[], x.shape));
}

/** Options of audio: `sampleRate` in Hz (required), `maxOutputs` (default 3). */
export interface AudioOptions extends SummaryOptions {
  sampleRate: number;
  maxOutputs?: number;
}

/**
 * Writes audio clips (tf.summary.audio): float32 `[clips, frames, channels]` samples in [-1, 1], the first
 * `maxOutputs` encoded as 16-bit PCM WAV as tf.audio.encode_wav does.
 * @example
 * const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'ef-'));
 * const writer = ef.summary.createFileWriter(dir);
 * const tone = ef.reshape(ef.sin(ef.multiply(ef.range(0, 800), 2 * Math.PI * 440 / 8000)), [1, 800, 1]);
 * writer.asDefault(() => ef.summary.audio('a440', tone, { step: 0, sampleRate: 8000 })); // true
 * writer.close();
 */
export function audio(name: string, data: TensorLike, options: AudioOptions): boolean {
  const api = 'summary.audio';
  const sampleRate = checkCount(api, 'sampleRate', options?.sampleRate, 1);
  const maxOutputs = checkCount(api, 'maxOutputs', options?.maxOutputs ?? 3, 0);
  return writeSummary(api, name, data, options, (t) => {
    checkDtype(api, t, ['float32'], 'Pass float32 samples in [-1, 1].');
    checkRank(api, t.dims, 3, '[clips, frames, channels]');
  }, (tag, x) => {
    checkRank(api, x.shape, 3, '[clips, frames, channels]');
    return audioValue(tag, numbers(x), x.shape, sampleRate, maxOutputs);
  });
}

/** What graph() accepts: a concrete function or its GraphDef JSON. */
export interface GraphSource {
  /** The function's graph as TensorFlow GraphDef JSON. */
  toGraphDef(): GraphDef;
}

/**
 * Writes a traced function's graph for TensorBoard's graphs dashboard (tf.summary.graph): the GraphDef that
 * `concreteFunction.toGraphDef()` returns, as `tensorflow.GraphDef` bytes in the event's `graph_def`. Eager only.
 * @example
 * const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'ef-'));
 * const writer = ef.summary.createFileWriter(dir);
 * const cf = ef.trace((x) => ef.relu(ef.matmul(x, x))).getConcreteFunction(new ef.TensorSpec([2, 2]));
 * writer.asDefault(() => ef.summary.graph(cf)); // true
 * writer.close();
 */
export function graph(concreteFunction: GraphSource | GraphDef): boolean {
  const api = 'summary.graph';
  if (ctx.builder !== null) {
    throw opError(FailedPreconditionError, api, 'called while tracing', 'a call inside ef.trace', 'an eager call', 'Call ef.summary.graph(f.getConcreteFunction(...)) outside the traced function (TF\'s graph() cannot be invoked inside a graph context either).');
  }
  const writer = defaultWriter;
  if (writer === null) return false;
  writer.checkOpen(api);
  let graphDef: GraphDef;
  if (concreteFunction !== null && (typeof concreteFunction === 'object' || typeof concreteFunction === 'function') && typeof (concreteFunction as GraphSource).toGraphDef === 'function') {
    graphDef = (concreteFunction as GraphSource).toGraphDef();
  } else if (concreteFunction !== null && typeof concreteFunction === 'object' && Array.isArray((concreteFunction as GraphDef).node)) {
    graphDef = concreteFunction as GraphDef;
  } else {
    throw argError(api, 'expected a ConcreteFunction or a GraphDef', concreteFunction === null ? 'null' : typeof concreteFunction, 'f.getConcreteFunction(...) of a traced function, or its toGraphDef()', 'Trace the function first: ef.trace(fn).getConcreteFunction(new ef.TensorSpec(shape)).');
  }
  writer.addEvent({ graph_def: graphDefToProto(graphDef, api) }, api);
  return true;
}

