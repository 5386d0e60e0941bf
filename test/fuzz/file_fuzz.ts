// The file-reader fuzzer: mutated TF files through EagerFlow's readers. TF-written SavedModels (saved_model.pb, and
// variables/ .index/.data through ef.savedModel.load), checkpoints (TensorBundle .index and .data-* through the bundle
// reader every restore uses), TFRecord files (uncompressed, GZIP, ZLIB: framing, length and data CRCs, the
// compressed stream), serialized tf.train.Example / SequenceExample protos (ef.io.parse*), TensorProtos
// (ef.io.parseTensor) and a TensorBoard event file (a TFRecord file of Event protos, read with TFRecordDataset).
// Mutations: bit flips, truncations, inserted bytes, zeroed runs, copied runs, varints set to edge values.
// Required: a library error (ef.errors, or an API-named TypeError), never a crash, a hang or a leak; and where the
// format is checksummed (bundles, TFRecord framing, a SavedModel's variables) the original values or an error,
// never other values (a 'wrongValue' finding). A truncated TFRecord file may read as a prefix of its records.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import { readBundleIndex, readBundleTensor, shardFile } from '../../packages/saving/src/tensor_bundle';
import { CaseResult, Pick, caseRng, isLibraryError, picker } from './outcome';

const TF_FILES = path.resolve(__dirname, '../../packages/saving/test/fixtures/tf_files');
const TFRECORD = path.resolve(__dirname, '../../packages/saving/test/fixtures/tfrecord');

type Kind = 'savedModelPb' | 'savedModelVariables' | 'bundle' | 'tfrecord' | 'example' | 'sequenceExample' | 'tensorProto' | 'events';

interface FileBase {
  readonly kind: Kind;
  readonly name: string;
  /** The bytes mutated (one file). */
  readonly bytes: Uint8Array;
}

interface Bases {
  all: FileBase[];
  /** Per SavedModel: a private copy of its directory the cases write mutated files into. */
  dirs: Map<string, string>;
  /** What each checksummed base reads unmutated (a JSON string per value), for the wrong-value check. */
  want: Map<string, string>;
  exampleSpecs: Record<string, ef.io.FeatureSpec>;
  sequenceSpecs: ef.io.SequenceFeatures;
}

type SpecJson = [string, number[] | null, string, { defaultValue?: unknown; allowMissing?: boolean }];
function spec([kind, shape, dtype, o]: SpecJson): ef.io.FeatureSpec {
  if (kind === 'FixedLenFeature') return ef.io.FixedLenFeature(shape as number[], dtype, { defaultValue: o.defaultValue });
  if (kind === 'FixedLenSequenceFeature') return ef.io.FixedLenSequenceFeature(shape as number[], dtype, { allowMissing: o.allowMissing, defaultValue: o.defaultValue });
  return ef.io.VarLenFeature(dtype);
}
const specs = (s: Record<string, SpecJson>): Record<string, ef.io.FeatureSpec> => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, spec(v)]));

const read = (p: string): Uint8Array => new Uint8Array(fs.readFileSync(p));
const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

/** Every tensor of a bundle, as JSON strings by key (throws what the reader throws). */
function readBundle(index: Uint8Array, shard: Uint8Array): string {
  const idx = readBundleIndex(index, 'x.index');
  return JSON.stringify([...idx.entries].map(([k, e]) => {
    const t = readBundleTensor(k, e, shard, 'x.data');
    return [k, t.dtype, t.shape, Array.isArray(t.data) ? t.data.map((d) => Buffer.from(d).toString('hex')) : Array.from(t.data as ArrayLike<number>)];
  }));
}

/** A loaded SavedModel's variables: names, dtypes, shapes and values. */
function variablesOf(m: ef.savedModel.LoadedSavedModel): string {
  return JSON.stringify(m.variables.map((v) => {
    const t = v.value();
    try {
      return [v.name, v.dtype, v.shape.dims, t.arraySync()];
    } finally {
      t.dispose();
    }
  }));
}

async function recordsOf(bytes: Uint8Array, compressionType: ef.io.CompressionType): Promise<string[]> {
  const out: string[] = [];
  for await (const t of ef.data.TFRecordDataset([bytes], { compressionType, bufferSize: 64 })) {
    const r = t as ef.Tensor;
    out.push(Buffer.from(r.bytes()[0]).toString('hex'));
    r.dispose();
  }
  return out;
}

const COMPRESSION: Record<string, ef.io.CompressionType> = { none: '', gzip: 'GZIP', zlib: 'ZLIB' };

let BASES: Bases | null = null;
/** The bases, built once per process (in the child before its first case: a failure there is fatal). */
export async function fileBases(): Promise<Bases> {
  if (BASES !== null) return BASES;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-file-fuzz-'));
  process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
  const all: FileBase[] = [];
  const dirs = new Map<string, string>();
  const want = new Map<string, string>();
  for (const sm of ['sm_module', 'sm_two_sigs', 'sm_control', 'sm_keras']) {
    const dir = path.join(tmp, sm);
    fs.cpSync(path.join(TF_FILES, sm), dir, { recursive: true });
    dirs.set(sm, dir);
    all.push({ kind: 'savedModelPb', name: `${sm}/saved_model.pb`, bytes: read(path.join(dir, 'saved_model.pb')) });
    const m = await ef.savedModel.load(dir);
    want.set(sm, variablesOf(m));
    m.variables.forEach((v) => v.dispose());
    for (const f of ['variables.index', 'variables.data-00000-of-00001']) all.push({ kind: 'savedModelVariables', name: `${sm}/variables/${f}`, bytes: read(path.join(dir, 'variables', f)) });
  }
  for (const prefix of ['ckpt_nested/ckpt-1', 'ckpt_nested/plain', 'sm_keras/variables/variables']) {
    const p = path.join(TF_FILES, prefix);
    const [index, shard] = [read(`${p}.index`), read(shardFile(p, 0, 1))];
    want.set(prefix, readBundle(index, shard));
    all.push({ kind: 'bundle', name: `${prefix}.index`, bytes: index }, { kind: 'bundle', name: `${prefix}.data`, bytes: shard });
  }
  for (const f of ['records', 'examples']) {
    for (const c of Object.keys(COMPRESSION)) {
      const name = `${f}.${c}.tfrecord`;
      const bytes = read(path.join(TFRECORD, name));
      want.set(name, JSON.stringify(await recordsOf(bytes, COMPRESSION[c])));
      all.push({ kind: 'tfrecord', name, bytes });
    }
  }
  // An event file of every summary kind (EagerFlow's writer, TF's format): read as the TFRecord file it is.
  const logdir = path.join(tmp, 'logs');
  const writer = ef.summary.createFileWriter(logdir);
  writer.asDefault(() => {
    ef.summary.scalar('loss', 0.5, { step: 1 });
    ef.summary.histogram('w', [1, 2, 2, 3], { step: 1 });
    ef.summary.image('img', ef.zeros([1, 2, 2, 3]), { step: 1 });
    ef.summary.text('note', 'hello', { step: 1 });
  });
  writer.close();
  const events = read(writer.path);
  want.set('events', JSON.stringify(await recordsOf(events, '')));
  all.push({ kind: 'events', name: 'events.out.tfevents', bytes: events });
  const ex = JSON.parse(fs.readFileSync(path.join(TFRECORD, 'examples.json'), 'utf8')) as { serialized: string[]; sequence_serialized: string[]; specs: Record<string, SpecJson>; context_specs: Record<string, SpecJson>; sequence_specs: Record<string, SpecJson> };
  ex.serialized.forEach((s, i) => all.push({ kind: 'example', name: `example ${i}`, bytes: hex(s) }));
  ex.sequence_serialized.forEach((s, i) => all.push({ kind: 'sequenceExample', name: `sequence example ${i}`, bytes: hex(s) }));
  for (const [name, t] of [['float32', ef.constant([[1.5, -2], [0, 3]])], ['int32', ef.constant([1, 2, 3], 'int32')], ['string', ef.constant(['a', 'bc'])], ['bool', ef.constant([true, false])]] as const) {
    all.push({ kind: 'tensorProto', name: `tensor ${name}`, bytes: Uint8Array.from(ef.io.serializeTensor(t)) });
    t.dispose();
  }
  BASES = { all, dirs, want, exampleSpecs: specs(ex.specs), sequenceSpecs: { contextFeatures: specs(ex.context_specs), sequenceFeatures: specs(ex.sequence_specs) } };
  return BASES;
}

/** Reads a protobuf varint at `at`: [value, end] (or null past the end). */
function varintAt(b: Uint8Array, at: number): [number, number] | null {
  let v = 0;
  for (let k = 0, p = at; p < b.length && k < 5; k++, p++) {
    v += (b[p] & 0x7f) * 2 ** (7 * k);
    if ((b[p] & 0x80) === 0) return [v, p + 1];
  }
  return null;
}

const EDGE_VARINTS = [0, 1, 0x7f, 0x80, 0xffff, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 53];
function encodeVarint(v: number): number[] {
  const out: number[] = [];
  do {
    const low = v % 128;
    v = Math.floor(v / 128);
    out.push(v > 0 ? low | 0x80 : low);
  } while (v > 0);
  return out;
}

type Mutation = (b: Uint8Array, r: () => number, pick: Pick) => { bytes: Uint8Array; what: string; truncated?: boolean };

const MUTATIONS: Mutation[] = [
  (b, r) => {
    const out = b.slice();
    const n = 1 + Math.floor(r() * 4);
    for (let k = 0; k < n && out.length; k++) out[Math.floor(r() * out.length)] ^= 1 << Math.floor(r() * 8);
    return { bytes: out, what: `${n} bit flips` };
  },
  (b, r) => {
    const at = Math.floor(r() * b.length);
    return { bytes: b.slice(0, at), what: `truncated at ${at}`, truncated: true };
  },
  (b, r, pick) => {
    const at = Math.floor(r() * (b.length + 1));
    const ins = Array.from({ length: pick([1, 1, 4, 9]) }, () => Math.floor(r() * 256));
    return { bytes: Uint8Array.from([...b.subarray(0, at), ...ins, ...b.subarray(at)]), what: `${ins.length} bytes inserted at ${at}` };
  },
  (b, r, pick) => {
    const out = b.slice();
    const at = Math.floor(r() * b.length);
    const n = pick([1, 4, 16, 64]);
    out.fill(pick([0, 0xff]), at, at + n);
    return { bytes: out, what: `${n} bytes set at ${at}` };
  },
  (b, r) => {
    // A run copied over another place (a valid-looking header or length elsewhere).
    const out = b.slice();
    const from = Math.floor(r() * b.length);
    const to = Math.floor(r() * b.length);
    const n = Math.min(1 + Math.floor(r() * 16), b.length - from, b.length - to);
    out.copyWithin(to, from, from + n);
    return { bytes: out, what: `${n} bytes copied from ${from} to ${to}` };
  },
  (b, r, pick) => {
    // A varint (a protobuf tag, length or value) replaced by an edge value: lengths past the end, huge sizes.
    for (let tries = 0; tries < 8; tries++) {
      const at = Math.floor(r() * b.length);
      const v = varintAt(b, at);
      if (v === null) continue;
      const edge = pick(EDGE_VARINTS);
      return { bytes: Uint8Array.from([...b.subarray(0, at), ...encodeVarint(edge), ...b.subarray(v[1])]), what: `varint at ${at} <- ${edge}` };
    }
    return { bytes: b.slice(), what: 'varint (none found)' };
  },
];

export interface FileCase {
  readonly describe: string;
  readonly base: FileBase;
  readonly bytes: Uint8Array;
  readonly truncated: boolean;
}

/** Case `i` of `seed`: a base file and one or two mutations. */
export function fileCase(seed: number, i: number): FileCase {
  const r = caseRng(seed, i);
  const pick = picker(r);
  const all = BASES?.all;
  if (all === undefined) throw new Error('file fuzz: fileBases() must run first');
  const base = pick(all);
  let bytes = base.bytes;
  let truncated = false;
  const done: string[] = [];
  for (let k = 0, n = pick([1, 1, 1, 2]); k < n; k++) {
    const m = pick(MUTATIONS)(bytes, r, pick);
    bytes = m.bytes;
    truncated ||= m.truncated === true;
    done.push(m.what);
  }
  return { describe: `${base.name}: ${done.join('; ')}`, base, bytes, truncated };
}

function disposeParsed(x: unknown): void {
  if (x instanceof ef.Tensor) x.dispose();
  else if (x instanceof ef.SparseTensor) [x.indices, x.values, x.denseShape].forEach((t) => t.dispose());
  else if (Array.isArray(x)) x.forEach(disposeParsed);
  else if (x !== null && typeof x === 'object') Object.values(x).forEach(disposeParsed);
}

/** Reads the mutated file; returns what it read, as a JSON string where the format is checksummed (else null). */
async function readCase(c: FileCase, b: Bases): Promise<{ got: string | null; want: string | undefined }> {
  const { base, bytes } = c;
  switch (base.kind) {
    case 'savedModelPb':
    case 'savedModelVariables': {
      const sm = base.name.split('/')[0];
      const dir = b.dirs.get(sm) as string;
      const file = path.join(dir, base.name.slice(sm.length + 1));
      fs.writeFileSync(file, bytes);
      try {
        const m = await ef.savedModel.load(dir);
        try {
          const got = variablesOf(m);
          // A mutated graph may declare other variables; the variables' bytes are checksummed.
          return { got: base.kind === 'savedModelVariables' ? got : null, want: b.want.get(sm) };
        } finally {
          m.variables.forEach((v) => v.dispose());
        }
      } finally {
        fs.writeFileSync(file, base.bytes);
      }
    }
    case 'bundle': {
      const prefix = base.name.replace(/\.(index|data)$/, '');
      const other = b.all.find((x) => x.kind === 'bundle' && x !== base && x.name.startsWith(`${prefix}.`)) as FileBase;
      const got = base.name.endsWith('.index') ? readBundle(bytes, other.bytes) : readBundle(other.bytes, bytes);
      return { got, want: b.want.get(prefix) };
    }
    case 'tfrecord':
    case 'events': {
      const compression = base.kind === 'events' ? '' : COMPRESSION[base.name.split('.')[1]];
      return { got: JSON.stringify(await recordsOf(bytes, compression)), want: b.want.get(base.kind === 'events' ? 'events' : base.name) };
    }
    case 'example': {
      const t = ef.constant([bytes], 'string');
      try {
        disposeParsed(ef.io.parseExample(t, b.exampleSpecs));
        disposeParsed(ef.io.parseSingleExample(bytes, b.exampleSpecs));
      } finally {
        t.dispose();
      }
      return { got: null, want: undefined };
    }
    case 'sequenceExample': {
      const t = ef.constant([bytes], 'string');
      try {
        disposeParsed(ef.io.parseSequenceExample(t, b.sequenceSpecs));
        disposeParsed(ef.io.parseSingleSequenceExample(bytes, b.sequenceSpecs));
      } finally {
        t.dispose();
      }
      return { got: null, want: undefined };
    }
    case 'tensorProto': {
      ef.io.parseTensor(bytes, base.name.split(' ')[1]).dispose();
      return { got: null, want: undefined };
    }
  }
}

/** A prefix of the original records (what a file truncated at a record boundary holds). */
function isRecordPrefix(got: string, want: string): boolean {
  const [g, w] = [JSON.parse(got) as string[], JSON.parse(want) as string[]];
  return g.length <= w.length && g.every((x, k) => x === w[k]);
}

/** Reads one mutated file and judges the outcome. */
export async function runFileCase(c: FileCase): Promise<CaseResult> {
  const b = await fileBases();
  const before = ef.memory().numTensors;
  let res: CaseResult;
  try {
    const { got, want } = await readCase(c, b);
    const same = got === null || got === want || (c.truncated && (c.base.kind === 'tfrecord' || c.base.kind === 'events') && isRecordPrefix(got, want as string));
    res = same ? { status: 'ok' } : { status: 'wrongValue', detail: `read other values than the file's: ${(got as string).slice(0, 200)}` };
  } catch (e) {
    if (!isLibraryError(e)) return { status: 'nonLibraryError', detail: e instanceof Error ? `${e.constructor.name}: ${e.message.split('\n')[0].slice(0, 300)}` : String(e) };
    res = { status: 'refused', detail: (e as Error).constructor.name };
  }
  const leaked = ef.memory().numTensors - before;
  return leaked !== 0 ? { status: 'leak', detail: `${leaked} tensors after ${res.status}` } : res;
}
