// Text sources on tfjs-data's readers: TextLineDataset (its TextLineDataset) and makeCsvDataset (its CSVDataset).
import * as tfd from '@tensorflow/tfjs-data';
import { DType, NotFoundError, argError, TensorSpec, constant, describe, opError, typeError } from '@eagerflow/core';
import { Dataset, source as sourceDataset } from './dataset';
import { DONE, item, iter, syncIter } from './iter';
import { Parts } from './sources';
import { Element, UNKNOWN_CARDINALITY, checkCount } from './structure';

type Source = InstanceType<typeof tfd.FileDataSource>;

/** A local file path (read in Node by tfjs-data's FileDataSource), or the lines themselves. */
function sourceOf(api: string, pathOrLines: unknown): Source {
  if (Array.isArray(pathOrLines) && pathOrLines.every((l) => typeof l === 'string')) return new tfd.FileDataSource(new TextEncoder().encode(pathOrLines.join('\n')));
  if (typeof pathOrLines !== 'string' || pathOrLines === '') {
    throw typeError(api, 'expected a file path or an array of lines', describe(pathOrLines), 'a string or string[]', `Pass e.g. 'data.txt'.`);
  }
  return new tfd.FileDataSource(pathOrLines.startsWith('file://') ? pathOrLines : `file://${pathOrLines}`);
}

/** Elements from a tfjs-data dataset of JS values, converted per element. */
function fromTfd<T>(make: () => { iterator(): Promise<{ next(): Promise<IteratorResult<T>> }> }, convert: (v: T) => Element, spec: Parts['spec']): Parts {
  return {
    spec,
    card: UNKNOWN_CARDINALITY,
    make: () => {
      const it = make().iterator();
      return iter(async () => {
        const r = await (await it).next();
        return r.done ? DONE : item(convert(r.value));
      });
    },
  };
}

interface TextLineDatasetCtor {
  new (pathOrLines: string | string[]): Dataset;
  (pathOrLines: string | string[]): Dataset;
}

/** Node's fs without a static import (browser bundles still build). */
function nodeFs(api: string, path: string): typeof import('node:fs') {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.call(proc, 'node:fs') as typeof import('node:fs') | undefined;
  if (fs === undefined) throw argError(api, 'no filesystem here', `${describe(path)} outside Node`, 'Node.js >= 20.19', 'Read the file in Node, or pass its lines as a string[].');
  return fs;
}

/**
 * TF's line reader (io::InputBuffer::ReadLine): lines end at '\n', one trailing '\r' is dropped, empty lines are
 * elements, and a final '\n' does not start another line.
 */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** String scalars from a list of lines, one element per line (empty ones too). */
function linesParts(lines: () => string[], card: number): Parts {
  return {
    spec: new TensorSpec([], 'string'),
    card,
    make: () => {
      const all = lines();
      let i = 0;
      return syncIter(() => (i < all.length ? item(constant(all[i++], 'string')) : DONE));
    },
  };
}

/**
 * The lines of a text file (or of an array of lines), as string scalars. Empty lines are elements (as TF's reader:
 * `'a\n\nb\r\n'` gives `'a'`, `''`, `'b'`); a file is read in Node when iteration starts (a missing file is a
 * NotFoundError there, as TF raises it on iteration).
 * @example
 * const ds = ef.data.TextLineDataset(['a,1', '', 'b,2']);
 * const out = [];
 * for await (const s of ds.asNumpyIterator()) out.push(s);
 * out; // ["a,1", "", "b,2"]
 */
export const TextLineDataset = function TextLineDataset(pathOrLines: string | string[]): Dataset {
  const api = 'ef.data.TextLineDataset';
  if (Array.isArray(pathOrLines) && pathOrLines.every((l) => typeof l === 'string')) {
    const lines = pathOrLines.slice();
    return sourceDataset(api, linesParts(() => lines, lines.length));
  }
  if (typeof pathOrLines !== 'string' || pathOrLines === '') {
    throw typeError(api, 'expected a file path or an array of lines', describe(pathOrLines), 'a string or string[]', `Pass e.g. 'data.txt'.`);
  }
  const file = pathOrLines.replace(/^file:\/\//, '');
  const read = (): string[] => {
    const fs = nodeFs(api, file);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'ENOENT') throw opError(NotFoundError, api, `${file} does not exist`, describe(pathOrLines), 'an existing text file', 'Check the path.', null);
      throw argError(api, 'cannot read the text file', describe(pathOrLines), 'a readable file', `${(e as Error).message}.`, { cause: e });
    }
    return splitLines(text);
  };
  return sourceDataset(api, linesParts(read, UNKNOWN_CARDINALITY));
} as TextLineDatasetCtor;

/** `makeCsvDataset` options: `labelName`, `shuffle`, `numEpochs`, `columnDefaults`, ... */
export interface CsvOptions {
  /** The column holding the label: elements become `[features, label]`. */
  labelName?: string | null;
  /** Default true; a buffer of `shuffleBufferSize` (10000) rows, seeded by `shuffleSeed`. */
  shuffle?: boolean;
  shuffleBufferSize?: number;
  shuffleSeed?: number | null;
  /** Epochs; null (the default, as TF) repeats forever and drops the last partial batch. */
  numEpochs?: number | null;
  /** Per column: a dtype ('float32' | 'int32' | 'string') or a default value (number -> float32). */
  columnDefaults?: (DType | number | string)[] | null;
  columnNames?: string[] | null;
  selectColumns?: string[] | null;
  header?: boolean;
  fieldDelim?: string;
}

/** TF's type inference on the first rows: int32 if all ints, float32 if all numbers, else string. */
function inferTypes(rows: string[][], n: number): DType[] {
  return Array.from({ length: n }, (_, c) => {
    const vals = rows.map((r) => r[c] ?? '').filter((v) => v !== '');
    if (vals.length > 0 && vals.every((v) => /^[-+]?\d+$/.test(v.trim()))) return 'int32';
    if (vals.every((v) => v.trim() !== '' && !Number.isNaN(Number(v)))) return 'float32';
    return 'string';
  });
}

/** Reads the header and up to 100 rows synchronously (Node), to fix the element spec at construction. */
function sample(api: string, path: string, delim: string): string[][] {
  // tfjs-data reads the file itself later.
  const fs = nodeFs(api, path);
  let text: string;
  try {
    text = fs.readFileSync(path.replace(/^file:\/\//, ''), 'utf8');
  } catch (e) {
    throw argError(api, 'cannot read the CSV file', describe(path), 'a readable file', `${(e as Error).message}.`, { cause: e });
  }
  return text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(0, 101).map((l) => l.split(delim));
}

function columnTypes(api: string, names: string[], o: CsvOptions, rows: string[][]): { types: DType[]; defaults: unknown[] } {
  const d = o.columnDefaults;
  if (d === null || d === undefined) return { types: inferTypes(rows, names.length), defaults: names.map(() => undefined) };
  if (!Array.isArray(d) || d.length !== names.length) {
    throw argError(api, 'columnDefaults must have one entry per column', describe(d), `${names.length} entries for ${names.join(', ')}`, 'Give a dtype or default per column.');
  }
  const isDType = (v: unknown): v is DType => v === 'float32' || v === 'int32' || v === 'string';
  return {
    types: d.map((v) => (isDType(v) ? v : typeof v === 'number' ? 'float32' : 'string')),
    defaults: d.map((v) => (isDType(v) ? undefined : v)),
  };
}

/**
 * TF's tf.data.experimental.make_csv_dataset on tfjs-data's CSV reader: batches of dicts of columns
 * (`[features, label]` with `labelName`), shuffled and repeated like TF.
 */
export function makeCsvDataset(path: string, batchSize: number, options: CsvOptions = {}): Dataset {
  const api = 'ef.data.experimental.makeCsvDataset';
  checkCount(api, 'batchSize', batchSize, 1);
  const delim = options.fieldDelim ?? ',';
  const rows = typeof path === 'string' ? sample(api, path, delim) : [];
  const header = options.header ?? true;
  const names = options.columnNames ?? (header ? (rows[0] ?? []).map((s) => s.trim()) : []);
  if (typeof path !== 'string' || names.length === 0) throw typeError(api, 'expected a CSV file path with a header or columnNames', describe(path), 'a path', 'Pass the file and, without a header, columnNames.');
  const { types, defaults } = columnTypes(api, names, options, header ? rows.slice(1) : rows);
  const selected = options.selectColumns ?? names;
  const label = options.labelName ?? null;
  for (const c of [...selected, ...(label === null ? [] : [label])]) {
    if (!names.includes(c)) throw argError(api, 'unknown column', `'${c}'`, `one of ${names.join(', ')}`, 'Use a column of the file.');
  }
  const typeOf = (c: string): DType => types[names.indexOf(c)];
  const columnConfigs = Object.fromEntries(names.map((c, i) => [c, { dtype: types[i] === 'string' ? undefined : types[i], default: defaults[i] }])) as Record<string, tfd.ColumnConfig>;
  const source = sourceOf(api, path);
  const cell = (row: Record<string, unknown>, c: string): Element => {
    const v = row[c];
    if (v === undefined) throw argError(api, `a row has no value in column '${c}'`, 'an empty field', 'a value', 'Give columnDefaults for optional columns.');
    return constant(typeOf(c) === 'string' ? String(v) : (v as number), typeOf(c));
  };
  const features = selected.filter((c) => c !== label);
  const spec = Object.fromEntries(features.map((c) => [c, new TensorSpec([], typeOf(c))]));
  const toEl = (value: unknown): Element => {
    const row = value as Record<string, unknown>;
    const f: Record<string, Element> = Object.fromEntries(features.map((c) => [c, cell(row, c)]));
    return label === null ? f : [f, cell(row, label)];
  };
  let ds = sourceDataset(api, fromTfd(() => new tfd.CSVDataset(source, { hasHeader: header, columnNames: options.columnNames ?? undefined, columnConfigs, delimiter: delim }), toEl, label === null ? spec : [spec, new TensorSpec([], typeOf(label))]));
  const epochs = options.numEpochs ?? null;
  if (options.shuffle ?? true) ds = ds.shuffle(options.shuffleBufferSize ?? 10000, { seed: options.shuffleSeed ?? null });
  if (epochs !== 1) ds = ds.repeat(epochs);
  return ds.batch(batchSize, { dropRemainder: epochs === null });
}
