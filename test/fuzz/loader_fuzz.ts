// The loader fuzzer: mutations of saved functions (an MLP, a CNN, cond and while functions, shape helpers, strings)
// and of a real graph model (@vladmandic/human's face-emotion model), loaded with ef.loadFunction and called once.
// Mutated: attribute values, shapes, dtypes, weight specs and bytes, node inputs (cycles, dangling), nesting depth,
// sizes. Required: it loads (and runs or fails) with a library error, and leaks nothing. See docs/fuzzing.md.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import { CaseResult, Pick, caseRng, isLibraryError, picker } from './outcome';

type J = unknown;
type Obj = Record<string, J>;
type T = ef.Tensor;

interface Base {
  name: string;
  doc: Obj;
  bytes: Uint8Array;
  inputs: () => T[];
}

const spec = (shape: (number | null)[] | null, dtype: ef.DType = 'float32'): ef.TensorSpec => new ef.TensorSpec(shape, dtype);

/** Saved functions to mutate (traced with folding off, so their graphs keep their ops). */
function savedBases(): Base[] {
  const fns: [string, ef.TensorSpec[], (...xs: T[]) => unknown][] = [
    ['mlp', [spec([null, 3])], (x) => ef.nn.softmax(ef.add(ef.matmul(ef.relu(ef.add(ef.matmul(x, ef.ones([3, 4])), ef.fill([4], 0.1))), ef.ones([4, 2])), ef.constant([0.5, -0.5])))],
    ['cnn', [spec([1, 6, 6, 1])], (x) => ef.reduceMean(ef.nn.maxPool2d(ef.relu(ef.nn.conv2d(x, ef.ones([3, 3, 1, 2]), 1, 'SAME')), 2, 2, 'VALID'), [1, 2])],
    ['cond', [spec([2])], (x) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.exp(x), () => ef.negative(x))],
    ['while', [spec([2]), spec([], 'int32')], (x, n) => ef.whileLoop((i: T) => ef.less(i, n), (i: T, v: T) => [ef.add(i, 1), ef.multiply(v, 2)], [ef.constant(0, 'int32'), x], { maximumIterations: 5 })],
    ['shapes', [spec([2, 2])], (x) => ({ g: ef.gather(x, ef.constant([1, 0], 'int32'), 1), p: ef.pad(x, [[1, 0], [0, 1]]), s: ef.slice(ef.squeeze(ef.expandDims(x, 0)), [0, 0], [1, -1]), r: ef.range(0, 3, 1, 'int32'), t: ef.tile(x, [1, 2]), c: ef.concat([x, x], 0) })],
    ['strings', [spec([2], 'string')], (x) => ef.stack([x, ef.fill([2], 'a')])],
  ];
  const fold = ef.internal.passConfig.maxFoldElements;
  ef.internal.passConfig.maxFoldElements = 0;
  try {
    return fns.map(([name, specs, fn]) => {
      const traced = ef.trace(fn, { inputSignature: specs });
      const { weightData, ...rest } = ef.saveFunction(traced);
      traced.dispose();
      const inputs = (): T[] => specs.map((sp) => (sp.dtype === 'string' ? ef.fill((sp.shape.dims ?? []).map((d) => d ?? 1), 'x') : ef.ones(sp.shape.dims?.map((d) => d ?? 1) ?? [], sp.dtype)));
      return { name, doc: JSON.parse(JSON.stringify(rest)) as Obj, bytes: new Uint8Array(weightData), inputs };
    });
  } finally {
    ef.internal.passConfig.maxFoldElements = fold;
  }
}

/** The real graph model: the face-emotion classifier from @vladmandic/human (tfjs-converter output: _FusedConv2D, depthwise convs, pools). */
function humanBase(): Base {
  const dir = path.resolve(__dirname, '../../node_modules/@vladmandic/human/models');
  const json = JSON.parse(fs.readFileSync(path.join(dir, 'emotion.json'), 'utf8')) as { modelTopology: J; weightsManifest: { weights: J }[] };
  const bin = fs.readFileSync(path.join(dir, 'emotion.bin'));
  return { name: 'human-emotion', doc: { modelTopology: json.modelTopology, weightSpecs: json.weightsManifest[0].weights, format: 'graph-model' }, bytes: new Uint8Array(bin), inputs: () => [ef.zeros([1, 64, 64, 1])] };
}

let BASES: Base[] | null = null;
/** The bases, built once per process (the child builds them before its first case, so a failure there is fatal). */
export function bases(): Base[] {
  BASES ??= [...savedBases(), humanBase()];
  return BASES;
}

function children(x: J): [string | number, J][] {
  if (Array.isArray(x)) return x.map((v, i) => [i, v]);
  if (x !== null && typeof x === 'object') return Object.entries(x as Obj);
  return [];
}

/** Every container/key pair of the document (for picking a place to mutate). */
function places(doc: J, out: [Obj, string | number][] = [], depth = 0): [Obj, string | number][] {
  if (depth > 40) return out;
  for (const [k, v] of children(doc)) {
    out.push([doc as Obj, k]);
    places(v, out, depth + 1);
  }
  return out;
}

const EDGE_INTS = [0, -1, 1, 2, -100, 7, 2 ** 31, -(2 ** 31), 1e9, 2 ** 53, 1.5, NaN];
const DT_NAMES = ['DT_FLOAT', 'DT_INT32', 'DT_BOOL', 'DT_STRING', 'DT_COMPLEX64', 'DT_DOUBLE', 'DT_INT64', 'DT_UINT8', 'DT_HALF', 'DT_RESOURCE', 'DT_INVALID', 'float32', 'nope', 1, 3];
const WEIGHT_DTYPES = ['float32', 'int32', 'bool', 'string', 'complex64', 'float16', 'uint8', 'int8', 'x'];

/** A value of about `depth` nested arrays or objects. */
function deep(depth: number, obj: boolean): J {
  let v: J = 'x';
  for (let i = 0; i < depth; i++) v = obj ? { a: v } : [v];
  return v;
}

function nodesOf(doc: Obj): Obj[] {
  const topo = (doc.modelTopology ?? {}) as Obj;
  const main = Array.isArray(topo.node) ? (topo.node as Obj[]) : [];
  const lib = ((topo.library as Obj | undefined)?.function ?? []) as Obj[];
  const fnNodes = Array.isArray(lib) ? lib.flatMap((f) => (Array.isArray(f?.nodeDef) ? (f.nodeDef as Obj[]) : Array.isArray(f?.node_def) ? (f.node_def as Obj[]) : [])) : [];
  return [...main, ...fnNodes].filter((n) => n !== null && typeof n === 'object');
}

/** The weight specs that are still objects (an earlier mutation may have replaced one with junk). */
function weightObjects(doc: Obj): Obj[] {
  return Array.isArray(doc.weightSpecs) ? (doc.weightSpecs as J[]).filter((w): w is Obj => w !== null && typeof w === 'object' && !Array.isArray(w)) : [];
}

type Mutation = (doc: Obj, bytes: Uint8Array, r: () => number, pick: Pick) => { bytes: Uint8Array; what: string };

const MUTATIONS: Record<string, Mutation> = {
  /** An attr's ints (strides, ksize, dilations, axes, perm, ...) set to edge values. */
  attrInts(doc, bytes, r, pick) {
    const withInts = nodesOf(doc).flatMap((n) => Object.entries((n.attr ?? {}) as Obj).filter(([, a]) => (a as Obj)?.list !== undefined || (a as Obj)?.i !== undefined).map(([k, a]) => [n, k, a] as const));
    if (withInts.length === 0) return { bytes, what: 'attrInts (none)' };
    const [n, k, a] = pick(withInts);
    const v = pick(EDGE_INTS);
    const attr = a as Obj;
    if (attr.i !== undefined) attr.i = String(v);
    else {
      const list = (attr.list ?? {}) as Obj;
      const ints = Array.isArray(list.i) ? (list.i as J[]) : [];
      if (ints.length && r() < 0.7) ints[Math.floor(r() * ints.length)] = String(v);
      else list.i = Array.from({ length: Math.floor(r() * 6) }, () => String(pick(EDGE_INTS)));
      attr.list = list;
    }
    return { bytes, what: `attr ${String(n.op)}.${k} <- ${v}` };
  },
  /** An attr replaced by a value of another kind (a string, a float, a list where a scalar was, a non-array list). */
  attrKind(doc, bytes, _r, pick) {
    const all = nodesOf(doc).flatMap((n) => Object.keys((n.attr ?? {}) as Obj).map((k) => [n, k] as const));
    if (all.length === 0) return { bytes, what: 'attrKind (none)' };
    const [n, k] = pick(all);
    const v = pick<J>([{ s: '!!!' }, { f: NaN }, { f: -1 }, { b: 'yes' }, { list: { s: 'QmlhcwAA' } }, { list: { i: '3' } }, { list: {} }, { type: pick(DT_NAMES) }, { shape: { dim: [{ size: '-7' }] } }, { shape: { unknownRank: true } }, {}, null, 5, [], { tensor: {} }]);
    ((n.attr ?? (n.attr = {})) as Obj)[k] = v;
    return { bytes, what: `attr ${String(n.op)}.${k} <- ${JSON.stringify(v)}` };
  },
  /** A dtype attr or a weight's dtype changed. */
  dtype(doc, bytes, r, pick) {
    const specs = weightObjects(doc);
    if (r() < 0.5 && specs.length) {
      const w = pick(specs);
      w.dtype = pick(WEIGHT_DTYPES);
      return { bytes, what: `weight ${String(w.name)} dtype <- ${String(w.dtype)}` };
    }
    const typed = nodesOf(doc).flatMap((n) => Object.entries((n.attr ?? {}) as Obj).filter(([, a]) => (a as Obj)?.type !== undefined).map(([k, a]) => [n, k, a as Obj] as const));
    if (typed.length === 0) return { bytes, what: 'dtype (none)' };
    const [n, k, a] = pick(typed);
    a.type = pick(DT_NAMES);
    return { bytes, what: `attr ${String(n.op)}.${k}.type <- ${String(a.type)}` };
  },
  /** A weight's shape changed (0-size, bigger, smaller, negative, huge, another rank). */
  weightShape(doc, bytes, r, pick) {
    const specs = weightObjects(doc);
    if (specs.length === 0) return { bytes, what: 'weightShape (none)' };
    const w = pick(specs);
    const s = Array.isArray(w.shape) ? (w.shape as number[]).slice() : [];
    const kind = pick(['zero', 'grow', 'shrink', 'neg', 'huge', 'rank', 'scalar', 'junk'] as const);
    if (kind === 'zero' && s.length) s[Math.floor(r() * s.length)] = 0;
    else if (kind === 'grow' && s.length) s[Math.floor(r() * s.length)] += 1;
    else if (kind === 'shrink' && s.length) s[Math.floor(r() * s.length)] = Math.max(0, s[0] - 1);
    else if (kind === 'neg' && s.length) s[Math.floor(r() * s.length)] = -1;
    else if (kind === 'huge') s.push(2 ** 31);
    else if (kind === 'rank') s.push(1);
    w.shape = kind === 'scalar' ? [] : kind === 'junk' ? pick<J>(['3', null, [[1]], { a: 1 }, [1.5], [NaN]]) : s;
    return { bytes, what: `weight ${String(w.name)} shape <- ${JSON.stringify(w.shape)}` };
  },
  /** Weight specs renamed, removed, duplicated, reordered or given a quantization. */
  weightSpecs(doc, bytes, r, pick) {
    const ws = doc.weightSpecs;
    if (!Array.isArray(ws) || ws.length === 0) return { bytes, what: 'weightSpecs (none)' };
    const k = Math.floor(r() * ws.length);
    const kind = pick(['remove', 'dup', 'swap', 'rename', 'quant', 'junk'] as const);
    if (kind === 'remove') ws.splice(k, 1);
    else if (kind === 'dup') ws.push(JSON.parse(JSON.stringify(ws[k])) as J);
    else if (kind === 'swap') [ws[k], ws[0]] = [ws[0], ws[k]];
    else if ((kind === 'rename' || kind === 'quant') && (ws[k] === null || typeof ws[k] !== 'object')) return { bytes, what: `weightSpecs ${kind} (junk)` };
    else if (kind === 'rename') (ws[k] as Obj).name = pick(['', 'x', 'nope', String((ws[0] as Obj | null)?.name)]);
    else if (kind === 'quant') (ws[k] as Obj).quantization = pick<J>([{ dtype: 'uint8', min: 0, scale: 0.1 }, { dtype: 'float16' }, { dtype: 'uint16', scale: NaN }, { dtype: 'x' }, 7]);
    else ws[k] = pick<J>([null, 3, 'w', [], {}]);
    return { bytes, what: `weightSpecs ${kind} ${k}` };
  },
  /** The weight bytes flipped, truncated, extended or emptied. */
  bytes(_doc, bytes, r, pick) {
    const kind = pick(['flip', 'flip', 'truncate', 'extend', 'empty', 'nan'] as const);
    const b = bytes.slice();
    if (kind === 'flip' && b.length) for (let n = 0; n < 1 + Math.floor(r() * 8); n++) b[Math.floor(r() * b.length)] ^= 1 << Math.floor(r() * 8);
    if (kind === 'nan' && b.length >= 4) new DataView(b.buffer).setFloat32(4 * Math.floor(r() * Math.floor(b.length / 4)), pick([NaN, Infinity, -Infinity, 3.4e38]), true);
    if (kind === 'truncate') return { bytes: b.slice(0, Math.floor(r() * b.length)), what: 'bytes truncated' };
    if (kind === 'extend') return { bytes: Uint8Array.from([...b, 1, 2, 3, 4, 5, 6, 7]), what: 'bytes extended' };
    if (kind === 'empty') return { bytes: new Uint8Array(0), what: 'bytes emptied' };
    return { bytes: b, what: `bytes ${kind}` };
  },
  /** Node inputs rewired: to itself (a cycle), to a later node, to a missing node, to a bad output index, control inputs. */
  inputs(doc, bytes, r, pick) {
    const nodes = nodesOf(doc).filter((n) => Array.isArray(n.input));
    if (nodes.length === 0) return { bytes, what: 'inputs (none)' };
    const n = pick(nodes);
    const all = nodesOf(doc);
    const target = pick<J>([String(n.name), String(pick(all).name), `${String(pick(all).name)}:7`, 'missing', '^' + String(n.name), `${String(n.name)}:-1`, '', 5, deep(3, false)]);
    const ins = n.input as J[];
    if (ins.length && r() < 0.7) ins[Math.floor(r() * ins.length)] = target;
    else ins.push(target);
    return { bytes, what: `node ${String(n.name)} input <- ${JSON.stringify(target)}` };
  },
  /** A 100k-deep nested array or object put somewhere in the document (the signature's names included). */
  depth(doc, bytes, r, pick) {
    const where = places(doc);
    const v = deep(pick([1000, 100_000]), r() < 0.5);
    if (r() < 0.3 && doc.signature && typeof doc.signature === 'object') {
      const sig = doc.signature as Obj;
      const outs = (sig.outputs ?? {}) as Obj;
      const k = Object.keys(outs)[0];
      if (k && outs[k] && typeof outs[k] === 'object') (outs[k] as Obj).name = v;
      return { bytes, what: 'depth: signature output name' };
    }
    const [parent, key] = pick(where);
    parent[key] = v;
    return { bytes, what: `depth at .${String(key)}` };
  },
  /** Sizes: Placeholder and Const shapes made huge, negative or 0; Const tensor values padded or cut. */
  sizes(doc, bytes, r, pick) {
    const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
    const withShape = nodesOf(doc).filter((n) => isObj(n.attr) && ((isObj(n.attr.shape) && isObj(n.attr.shape.shape)) || (isObj(n.attr.value) && isObj(n.attr.value.tensor))));
    if (withShape.length === 0) return { bytes, what: 'sizes (none)' };
    const n = pick(withShape);
    const attr = n.attr as Obj;
    const size = pick(['0', '-1', '-2', '1', '100000', '2147483648', '9007199254740993', 'x']);
    const shapeObj = ((attr.shape as Obj | undefined)?.shape ?? ((attr.value as Obj).tensor as Obj).tensorShape ?? (((attr.value as Obj).tensor as Obj).tensorShape = { dim: [] })) as Obj;
    const dims = Array.isArray(shapeObj.dim) ? (shapeObj.dim as Obj[]) : (shapeObj.dim = []) as Obj[];
    if (dims.length && r() < 0.7) dims[Math.floor(r() * dims.length)] = { size };
    else dims.push({ size });
    return { bytes, what: `node ${String(n.name)} (${String(n.op)}) dim <- ${size}` };
  },
  /** A generic JSON edit anywhere: replace, delete or duplicate a value. */
  json(doc, bytes, _r, pick) {
    const [parent, key] = pick(places(doc));
    const kind = pick(['replace', 'delete', 'dup'] as const);
    if (kind === 'delete') {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
    } else if (kind === 'dup' && Array.isArray(parent)) parent.push(JSON.parse(JSON.stringify(parent[key as number]) ?? 'null') as J);
    else parent[key] = pick<J>([null, 0, -1, 1e300, '', 'x:1', 'Const', 'AddV2', [], {}, true, ['x'], { list: {} }, { type: 'DT_INT32' }, { i: '-5' }, '__proto__']);
    return { bytes, what: `json ${kind} .${String(key)}` };
  },
};

export interface LoaderCase {
  readonly describe: string;
  readonly base: Base;
  readonly doc: Obj;
  readonly bytes: Uint8Array;
}

/** Case `i` of `seed`: a base and one to three mutations. */
export function loaderCase(seed: number, i: number): LoaderCase {
  const r = caseRng(seed, i);
  const pick = picker(r);
  // The real model costs about 30x a small saved function per case (load and call): 1 case in 16, so a long run
  // still mutates it thousands of times.
  const all = bases();
  const base = r() < 1 / 16 ? all[all.length - 1] : pick(all.slice(0, -1));
  const doc = JSON.parse(JSON.stringify(base.doc)) as Obj;
  let bytes = base.bytes;
  const done: string[] = [];
  const names = Object.keys(MUTATIONS);
  // A 100k-deep value is put in last: the other mutations walk and copy the document.
  const chosen = Array.from({ length: pick([1, 1, 2, 3]) }, () => pick(names)).sort((a, b) => Number(a === 'depth') - Number(b === 'depth'));
  for (const m of chosen) {
    const res = MUTATIONS[m](doc, bytes, r, pick);
    bytes = res.bytes;
    done.push(res.what);
  }
  return { describe: `${base.name}: ${done.join('; ')}`, base, doc, bytes };
}

/** Loads, calls once and disposes; judges the outcome. */
export function runLoaderCase(c: LoaderCase): CaseResult {
  const before = ef.memory().numTensors;
  // Smaller limits than the defaults keep every case fast: a mutated Const may ask for a billion elements or a loop
  // that never ends (the graph's meaning, refused by the limits with ResourceExhaustedError).
  const limits = { ...ef.loadLimits };
  Object.assign(ef.loadLimits, { maxElements: 1 << 20, maxRunElements: 1 << 20, maxWhileIterations: 1000 });
  let inputs: T[] = [];
  try {
    const g = ef.loadFunction({ ...c.doc, weightData: c.bytes.buffer.slice(c.bytes.byteOffset, c.bytes.byteOffset + c.bytes.byteLength) }, {});
    try {
      inputs = c.base.inputs();
      ef.tidy(() => void g(...inputs));
    } finally {
      g.dispose();
    }
  } catch (e) {
    if (!isLibraryError(e)) return { status: 'nonLibraryError', detail: e instanceof Error ? `${e.constructor.name}: ${e.message.split('\n')[0].slice(0, 300)}` : String(e) };
    inputs.forEach((x) => x.dispose());
    const leaked = ef.memory().numTensors - before;
    return leaked !== 0 ? { status: 'leak', detail: `${leaked} tensors after ${(e as Error).message.split('\n')[0].slice(0, 200)}` } : { status: 'refused' };
  } finally {
    Object.assign(ef.loadLimits, limits);
  }
  inputs.forEach((x) => x.dispose());
  const leaked = ef.memory().numTensors - before;
  return leaked !== 0 ? { status: 'leak', detail: `${leaked} tensors after a successful load and call` } : { status: 'ok' };
}
