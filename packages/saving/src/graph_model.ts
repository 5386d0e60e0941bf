// tfjs-converter graph models: signatures inferred like the converter's, and model sources (files, URLs, IOHandlers).
import { Tensor, tidy, typeError } from '@eagerflow/core';
import type { AttrValue, DType, Dims } from '@eagerflow/core';
import { fromBase64 } from './format';
import { nodeFs } from '@eagerflow/function';
import type { NodeReader } from './reader';
import { InputRef, ParsedNode, array, loadError, own, record, show } from './validate';

/** A function's inputs (Placeholders) and outputs, keyed as the converter names them. */
export interface SignatureIO {
  inputs: { key: string; node: ParsedNode; dtype: DType; shape: Dims }[];
  outputs: { key: string; ref: InputRef }[];
  /** Placeholders the signature does not list (extra inputs when the outputs need them). */
  extras: { key: string; node: ParsedNode; dtype: DType; shape: Dims }[];
}

/**
 * The signature of a graph without one, as tfjs-converter's OperationMapper builds it: every
 * Placeholder is an input (file order), every node no other node reads (data or control) an output.
 */
export function inferSignature(main: ParsedNode[]): SignatureIO {
  const read = new Set<string>();
  for (const n of main) {
    for (const r of n.inputs) read.add(r.node);
    for (const c of n.controls) read.add(c);
  }
  const inputs = main.filter((n) => n.op === 'Placeholder').map((node) => ({ key: node.name, node, dtype: node.dtype('dtype'), shape: node.shape('shape') ?? null }));
  const outputs = main
    .filter((n) => !read.has(n.name) && n.op !== 'Placeholder' && n.op !== 'NoOp' && !n.op.startsWith('Assign'))
    .map((n) => ({ key: n.name, ref: { node: n.name, index: 0, text: n.name } }));
  if (outputs.length === 0) throw loadError('the graph has no outputs', 'every node is read by another', 'at least one node nobody reads, or a signature', 'Add a signature to model.json');
  return { inputs, outputs, extras: [] };
}

/** A tfjs `io.IOHandler` (anything with `load()` resolving to ModelArtifacts). */
export interface ModelSource {
  load(): Promise<unknown>;
}

export const isModelSource = (x: unknown): x is ModelSource => typeof x === 'object' && x !== null && typeof (x as ModelSource).load === 'function';

/** Where model.json is and how to read the files next to it. */
interface Location {
  readonly what: string;
  readJson(): Promise<unknown>;
  readWeights(file: string): Promise<Uint8Array>;
}

const PLAIN = /^[A-Za-z0-9_.\-]{1,200}$/;

function fileLocation(file: string): Location {
  const { fs, path } = nodeFs('loadFunction');
  const dir = path.dirname(file);
  const read = async (p: string): Promise<Uint8Array> => {
    try {
      return await fs.readFile(p);
    } catch (e) {
      throw loadError(`cannot read ${JSON.stringify(p)}`, (e as Error).message, 'a readable file', 'Check the path (a model.json file, or the directory holding it)');
    }
  };
  return { what: file, readJson: async () => parseJson(await read(file), file), readWeights: (w) => read(path.join(dir, w)) };
}

function urlLocation(url: string): Location {
  const get = async (u: string): Promise<Uint8Array> => {
    let res: Response;
    try {
      res = await fetch(u);
    } catch (e) {
      throw loadError(`cannot fetch ${u}`, (e as Error).message, 'a reachable URL', 'Check the URL and the network');
    }
    if (!res.ok) throw loadError(`cannot fetch ${u}`, `HTTP ${res.status}`, 'HTTP 200', 'Check the URL');
    return new Uint8Array(await res.arrayBuffer());
  };
  return { what: url, readJson: async () => parseJson(await get(url), url), readWeights: (w) => get(new URL(w, url).toString()) };
}

function parseJson(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw loadError(`${what} is not valid JSON`, (e as Error).message, 'a JSON object', 'Point at the model.json file');
  }
}

/** A path or URL string -> where its model.json is (a directory means its model.json). */
async function locate(src: string): Promise<Location> {
  if (/^https?:\/\//i.test(src)) return urlLocation(src);
  const file = src.startsWith('file://') ? decodeURIComponent(new URL(src).pathname) : src;
  const { fs, path } = nodeFs('loadFunction');
  const stat = await fs.stat(file).catch(() => null);
  if (stat === null) throw loadError(`${JSON.stringify(src)} does not exist`, JSON.stringify(src), 'a model.json file, its directory, or an http(s):// URL', 'Check the path');
  return fileLocation(stat.isDirectory() ? path.join(file, 'model.json') : file);
}

/** Reads model.json and the weight files its manifest names into in-memory artifacts. */
export async function readModel(src: string): Promise<Record<string, unknown>> {
  const loc = await locate(src);
  const m = record(await loc.readJson(), loc.what);
  const specs: unknown[] = [];
  const chunks: Uint8Array[] = [];
  for (const [g, group] of array(own(m, 'weightsManifest') ?? [], 'model.json weightsManifest').entries()) {
    const grp = record(group, `weightsManifest[${g}]`);
    specs.push(...array(own(grp, 'weights') ?? [], `weightsManifest[${g}].weights`));
    for (const p of array(own(grp, 'paths') ?? [], `weightsManifest[${g}].paths`)) {
      if (typeof p !== 'string' || !PLAIN.test(p) || p === '.' || p === '..') {
        throw loadError('a weights path is not a plain file name', show(p), 'a file name next to model.json', 'Weight files must sit next to model.json');
      }
      chunks.push(await loc.readWeights(p));
    }
  }
  const data = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((o, c) => (data.set(c, o), o + c.length), 0);
  return { ...m, weightSpecs: specs, weightData: data.buffer };
}

/** A user-supplied TF op (like tfjs-converter's registerOp): tensor inputs and decoded attrs in, outputs out. */
export type CustomOp = (inputs: Tensor[], attrs: Record<string, unknown>) => Tensor | Tensor[];

const customOps = new Map<string, CustomOp>();

/**
 * Supplies a TensorFlow op the loader does not know (or replaces how one is read), like
 * tfjs-converter's `registerOp`. `fn` runs while the graph is traced, so it must use EagerFlow ops;
 * the op is then differentiable through them. Work that needs tensor values or is async (as
 * @tensorflow/tfjs-tfdf's ops are) goes in `ef.pyFunction` inside `fn`: it runs on every call, in graph
 * order, awaited by `g.callAsync`. A registered op is never folded at load. Returns a function that unregisters it.
 * @example
 * const unregister = ef.registerOp('MyScale', (inputs, attrs) => ef.multiply(inputs[0], attrs.factor as number));
 * unregister();
 */
export function registerOp(tfOpName: string, fn: CustomOp): () => void {
  if (typeof tfOpName !== 'string' || !/^[A-Za-z0-9_][A-Za-z0-9_.\-/>]*$/.test(tfOpName)) {
    throw typeError('registerOp', 'the op name must be a TensorFlow op name', show(tfOpName), 'letters, digits and _ . - /', `Pass e.g. 'MyOp'.`);
  }
  if (typeof fn !== 'function') throw typeError('registerOp', 'the op function must be a function', show(fn), '(inputs, attrs) => outputs', 'Pass a function.');
  customOps.set(tfOpName, fn);
  return () => {
    if (customOps.get(tfOpName) === fn) customOps.delete(tfOpName);
  };
}

/** Decodes an attr for a custom op: numbers, strings, booleans, dtypes, shapes and lists of them. */
function attrValue(node: ParsedNode, key: string): unknown {
  const a = node.attrs.get(key) as AttrValue;
  if (a.b !== undefined) return a.b;
  if (a.i !== undefined) return node.int(key);
  if (a.f !== undefined) return a.f;
  if (a.s !== undefined) return node.str(key);
  if (a.type !== undefined) return node.dtype(key);
  if (a.shape !== undefined) return node.shape(key);
  if (a.func !== undefined) return node.func(key);
  const l = a.list;
  if (l?.i !== undefined) return node.ints(key);
  if (l?.f !== undefined) return node.floats(key);
  if (l?.type !== undefined) return node.dtypes(key);
  if (l?.shape !== undefined) return node.shapes(key);
  if (l?.s !== undefined) return l.s.map((s) => fromBase64(s));
  if (l?.b !== undefined) return l.b.slice();
  return undefined;
}

/** The reader of a registered custom op for this node, if any. */
export function customReader(op: string): ((r: NodeReader) => Tensor[]) | undefined {
  const fn = customOps.get(op);
  if (fn === undefined) return undefined;
  return (r) => {
    const attrs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of r.node.attrs.keys()) if (!key.startsWith('_')) attrs[key] = attrValue(r.node, key);
    const ins = r.inputs();
    // Tensors the function makes and does not return (an ef.constant it wraps into a graph constant) are released.
    let out: unknown;
    tidy(() => {
      out = fn(ins, attrs);
      return (Array.isArray(out) ? out : [out]).filter((t): t is Tensor => t instanceof Tensor);
    });
    if (isThenable(out)) {
      // Its outcome is never read: release the tensors it resolves to, keep a rejection from going unhandled.
      out.then((v) => (Array.isArray(v) ? v : [v]).forEach((t) => t instanceof Tensor && t.dispose()), () => undefined);
      throw r.error(
        `the registered op '${op}' returned a Promise`,
        'a Promise (an async op function)',
        'a Tensor or an array of Tensors, returned while the graph is traced',
        "Run host or async work (reading tensor values, loading files) inside ef.pyFunction(async (...xs) => ..., inputs, Tout) in the op function; call the loaded function with await g.callAsync(...) (docs/models.md, TF-DF models)",
      );
    }
    const outs = Array.isArray(out) ? out : [out];
    if (outs.some((t) => !(t instanceof Tensor))) throw r.error(`the registered op '${op}' returned something other than tensors`, show(out), 'a Tensor or an array of Tensors', 'Return ef tensors from the op function');
    // An eager result (an ef.constant handle) is captured, and pinned, by the trace: the loader releases its own copy.
    for (const t of outs as Tensor[]) if (!t.isSymbolic) r.scope.ctx.created.push(t);
    return outs as Tensor[];
  };
}

const isThenable = (x: unknown): x is PromiseLike<unknown> => typeof x === 'object' && x !== null && typeof (x as PromiseLike<unknown>).then === 'function';

/** Whether `op` is supplied by ef.registerOp now (such nodes are never folded at load: they may have effects). */
export const isRegisteredOp = (op: string): boolean => customOps.has(op);

/** TensorFlow Decision Forests' ops: tfjs-converter runs them only after @tensorflow/tfjs-tfdf registers them. */
const TFDF_OPS = ['SimpleMLCreateModelResource', 'SimpleMLInferenceOpWithHandle', 'SimpleMLLoadModelFromPathWithHandle'];

/** Ops the loader interprets itself (constants, placeholders, resources, lazily read shape helpers). */
const BUILT_IN = new Set(['Const', 'Placeholder', 'VarHandleOp', 'VariableV2', 'Variable', 'NoOp']);

/**
 * Every op of the graph and its library that nothing can read (no record, import row, custom op or
 * host callback): checked before building, so one error lists all of them.
 */
export function checkSupported(nodes: Iterable<ParsedNode>, known: (op: string) => boolean, isHost: (n: ParsedNode) => boolean): void {
  const missing = new Set<string>();
  for (const n of nodes) if (!BUILT_IN.has(n.op) && !customOps.has(n.op) && !known(n.op) && !isHost(n)) missing.add(n.op);
  if (missing.size === 0) return;
  const list = [...missing].sort();
  const tfdf = list.filter((op) => TFDF_OPS.includes(op));
  const tfdfHint = tfdf.length === 0 ? '' : ` (${tfdf.join(', ')}: a TensorFlow Decision Forests model, which tfjs-converter runs only after @tensorflow/tfjs-tfdf registers these ops with its registerOp; register them the same way with ef.registerOp, see docs/models.md, TF-DF models)`;
  throw loadError(
    `the model uses ${list.length} op${list.length === 1 ? '' : 's'} EagerFlow cannot run: ${list.join(', ')}`,
    list.join(', '),
    'ops listed in docs/ops.md',
    `Supply them with ef.registerOp('${list[0]}', (inputs, attrs) => ...) before loading${tfdfHint}`,
  );
}
