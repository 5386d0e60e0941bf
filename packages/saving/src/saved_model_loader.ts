// ef.savedModel.load: a TF SavedModel directory (saved_model.pb or .pbtxt, variables/ TensorBundle) as live objects:
// TF 2.x object graphs become Modules, Variables and restored functions (library FunctionDefs run by the graph
// importer with their captured variables), signatures become `{name: x} -> {output: Tensor}` callables; TF1-style
// graphs (no object graph) run their signature_defs on the main graph with the bundle's variables.
import { DataLossError, NotFoundError, Tensor, TensorLike, Variable, argError, constant, opError } from '@eagerflow/core';
import { nodeFs, trace } from '@eagerflow/function';
import type protobuf from 'protobufjs/light.js';
import textformat from 'protobufjs/ext/textformat.js';
import { LoadedFunction } from './loader';
import { GraphFunctionOptions, TfGraph, libraryFunction, readTfGraph, signatureFunction } from './graph_functions';
import { Module } from './module';
import { tfProto } from './proto/tf_protos';
import { CheckpointReader, OBJECT_GRAPH_KEY, SavedGraphNode } from './tf_checkpoint';
import { hostValues } from './tf_dtypes';
import { inlineConst } from './graphdef_decode';
import { corrupt } from './sstable';

const API = 'savedModel.load';

type Obj = Record<string, unknown>;

/** A signature: `{inputName: x}` in, `{outputName: Tensor}` out (TF's ConcreteFunction signatures). */
export interface LoadedSignature {
  (inputs: Readonly<Record<string, TensorLike>>): Record<string, Tensor>;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** The underlying function (positional inputs in `inputNames` order, outputs as a list in `outputNames` order). */
  readonly function: LoadedFunction;
}

/** What ef.savedModel.load returns: the root object's attributes, plus its signatures and variables. */
export interface LoadedSavedModel {
  readonly signatures: Readonly<Record<string, LoadedSignature>>;
  readonly variables: Variable[];
  readonly trainableVariables: Variable[];
  readonly [attribute: string]: unknown;
}

interface StructuredValue {
  tensor_spec_value?: { name?: string; dtype?: number; shape?: unknown };
  dict_value?: { fields?: Record<string, StructuredValue> };
  list_value?: { values?: StructuredValue[] };
  tuple_value?: { values?: StructuredValue[] };
  none_value?: object;
}

interface SavedObjectJson {
  children?: { node_id?: number; local_name?: string }[];
  user_object?: { identifier?: string };
  variable?: { dtype?: number; trainable?: boolean; name?: string };
  function?: { concrete_functions?: string[] };
  bare_concrete_function?: { concrete_function_name?: string };
  constant?: { operation?: string };
  asset?: unknown;
}

interface ConcreteJson {
  bound_inputs?: number[];
  canonicalized_input_signature?: StructuredValue;
  output_signature?: StructuredValue;
}

/** GraphDef messages of the meta graphs read by readSavedModel (kept out of its object form, see there). */
const GRAPH_DEFS = new WeakMap<object, protobuf.Message>();

/**
 * Reads and decodes `saved_model.pb` (or `.pbtxt`); every failure names the file. Each MetaGraphDef's `graph_def`
 * stays a decoded message (GRAPH_DEFS), converted once into the importer's form by readTfGraph: its former round trip
 * (plain object, message, bytes, message, object again) made several copies of every node of a Keras export's graph
 * (MobileNetV2's: ~6,000 nodes with the saver's functions), most of the load's garbage.
 */
async function readSavedModel(dir: string): Promise<{ file: string; model: Obj }> {
  const { fs, path } = nodeFs(API);
  const type = tfProto('tensorflow.SavedModel');
  const options = { longs: Number, enums: Number, bytes: Uint8Array as unknown as typeof String, defaults: false, arrays: true, objects: true };
  const toObject = (msg: protobuf.Message): Obj => {
    const metas = ((msg as unknown as Obj).meta_graphs as Obj[] | undefined) ?? [];
    const graphDefs = metas.map((m) => m.graph_def as protobuf.Message | null | undefined);
    metas.forEach((m) => (m.graph_def = null));
    const model = type.toObject(msg, options);
    ((model.meta_graphs as Obj[] | undefined) ?? []).forEach((m, k) => graphDefs[k] && GRAPH_DEFS.set(m, graphDefs[k]));
    return model;
  };
  const pb = path.join(dir, 'saved_model.pb');
  const pbtxt = path.join(dir, 'saved_model.pbtxt');
  const read = async (file: string): Promise<Uint8Array | null> => {
    try {
      return await fs.readFile(file);
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return null;
      throw e;
    }
  };
  const bytes = await read(pb);
  if (bytes !== null) {
    try {
      return { file: pb, model: toObject(type.decode(bytes)) };
    } catch (e) {
      throw corrupt(API, pb, 'it is not a valid tensorflow.SavedModel', (e as Error).message, 'a serialized SavedModel');
    }
  }
  const text = await read(pbtxt);
  if (text === null) throw opError(NotFoundError, API, `${dir} holds no SavedModel`, 'no saved_model.pb or saved_model.pbtxt', `${pb}`, 'Pass the directory tf.saved_model.save wrote.', null);
  try {
    return { file: pbtxt, model: toObject(textformat.fromText(type, new TextDecoder().decode(text))) };
  } catch (e) {
    throw corrupt(API, pbtxt, 'it is not a valid text-format tensorflow.SavedModel', (e as Error).message, 'a SavedModel in protobuf text format');
  }
}

interface AttrMessage {
  func?: { name?: string } | null;
  list?: { func?: { name?: string }[] } | null;
}
interface GraphDefMessage {
  node?: { name?: string; op?: string; input?: string[]; attr?: Record<string, AttrMessage> }[];
  library?: { function?: { signature?: { name?: string } | null; node_def?: { attr?: Record<string, AttrMessage> }[] }[]; gradient?: { function_name?: string; gradient_func?: string }[] } | null;
}

/**
 * Drops the library functions only TF's saver runs (`saver_def`'s save and restore ops call `__traced_save` and
 * `__traced_restore`: EagerFlow reads variables/ itself): in a Keras export they are ~3/4 of the library's nodes
 * (MobileNetV2: 3,167 of 4,000), converted and parsed for nothing. Functions any other main-graph node, a concrete
 * function of the object graph, or a kept function's gradient reaches stay.
 */
function withoutSaverFunctions(gd: GraphDefMessage, meta: Obj): void {
  const lib = gd.library?.function ?? [];
  const saver = meta.saver_def as { save_tensor_name?: string; restore_op_name?: string } | undefined;
  if (lib.length === 0 || saver === undefined) return;
  const saverNodes = new Set([saver.save_tensor_name, saver.restore_op_name].map((t) => (t ?? '').split(':')[0]).filter((t) => t !== ''));
  if (saverNodes.size === 0) return;
  keepFunctions(gd, meta, saverNodes);
}

/** Keeps the library functions that main-graph nodes other than `skip`, the object graph's concrete functions, or kept functions' gradients reach. */
function keepFunctions(gd: GraphDefMessage, meta: Obj, skip: ReadonlySet<string>): void {
  const lib = gd.library?.function ?? [];
  const byName = new Map(lib.map((f) => [f.signature?.name ?? '', f]));
  const keep = new Set<string>();
  const visit = (name: string | undefined): void => {
    if (name === undefined || keep.has(name) || !byName.has(name)) return;
    keep.add(name);
    for (const n of byName.get(name)!.node_def ?? []) visitAttrs(n.attr);
  };
  const visitAttrs = (attr: Record<string, AttrMessage> | undefined): void => {
    for (const a of Object.values(attr ?? {})) {
      visit(a?.func?.name);
      for (const f of a?.list?.func ?? []) visit(f.name);
    }
  };
  for (const n of gd.node ?? []) if (!skip.has(n.name ?? '')) visitAttrs(n.attr);
  for (const name of Object.keys((meta.object_graph_def as { concrete_functions?: object } | undefined)?.concrete_functions ?? {})) visit(name);
  for (let grew = true; grew;) {
    const before = keep.size;
    for (const g of gd.library?.gradient ?? []) if (keep.has(g.function_name ?? '')) visit(g.gradient_func);
    grew = keep.size > before;
  }
  if (keep.size < lib.length) gd.library!.function = lib.filter((f) => keep.has(f.signature?.name ?? ''));
}

/**
 * serving_default's part of the main graph: the nodes its outputs reach (through data and control inputs) and the
 * library functions they call; the rest (TF1-style variable initializers and reads, the saver: ~2,100 of a Keras
 * MobileNetV2 export's 2,367 main nodes) is dropped before conversion.
 */
function servingPart(gd: GraphDefMessage, meta: Obj): void {
  const sd = (meta.signature_def as Record<string, { outputs?: Record<string, { name?: string }> }> | undefined)?.serving_default;
  if (sd === undefined) return;
  const nodes = gd.node ?? [];
  const byName = new Map(nodes.map((n) => [n.name ?? '', n]));
  const keep = new Set<string>();
  const stack = Object.values(sd.outputs ?? {}).map((o) => (o.name ?? '').split(':')[0]);
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (keep.has(name) || !byName.has(name)) continue;
    keep.add(name);
    for (const r of byName.get(name)!.input ?? []) stack.push((r.startsWith('^') ? r.slice(1) : r).split(':')[0]);
  }
  // Placeholders stay (signature inputs are checked against the graph's nodes, whichever the outputs reach).
  gd.node = nodes.filter((n) => keep.has(n.name ?? '') || n.op === 'Placeholder' || n.op === 'PlaceholderWithDefault');
  keepFunctions(gd, meta, new Set());
}

/** The names of a structured value's leaves in TF's flatten order (dict keys sorted). */
function leafNames(s: StructuredValue | undefined, prefix = ''): string[] {
  if (s === undefined || s.none_value !== undefined) return [];
  if (s.tensor_spec_value !== undefined) return [prefix || s.tensor_spec_value.name || 'output_0'];
  if (s.dict_value !== undefined) return Object.keys(s.dict_value.fields ?? {}).sort().flatMap((k) => leafNames(s.dict_value!.fields![k], prefix ? `${prefix}/${k}` : k));
  const vals = s.list_value?.values ?? s.tuple_value?.values ?? [];
  return vals.flatMap((v, i) => leafNames(v, prefix ? `${prefix}/${i}` : `output_${i}`));
}

/** Rebuilds a structured output (tensor leaves in flatten order) from a function's flat outputs. */
function pack(s: StructuredValue | undefined, flat: Tensor[], at = { k: 0 }): unknown {
  if (s === undefined || s.none_value !== undefined) return null;
  if (s.tensor_spec_value !== undefined) return flat[at.k++];
  if (s.dict_value !== undefined) {
    const out: Obj = {};
    for (const k of Object.keys(s.dict_value.fields ?? {}).sort()) out[k] = pack(s.dict_value.fields![k], flat, at);
    return out;
  }
  return (s.list_value?.values ?? s.tuple_value?.values ?? []).map((v) => pack(v, flat, at));
}

const asList = (r: unknown): Tensor[] => (r instanceof Tensor ? [r] : (r as Tensor[]));

function signatureOf(f: LoadedFunction, inputNames: string[], outputNames: string[]): LoadedSignature {
  const call = (inputs: Readonly<Record<string, TensorLike>>): Record<string, Tensor> => {
    if (inputs === null || typeof inputs !== 'object' || inputs instanceof Tensor || Array.isArray(inputs)) {
      throw argError(API, 'a signature takes its inputs by name', typeof inputs, `{ ${inputNames.map((n) => `${n}: x`).join(', ')} }`, 'Pass an object of named inputs.');
    }
    const missing = inputNames.filter((n) => !(n in inputs));
    const extra = Object.keys(inputs).filter((n) => !inputNames.includes(n));
    if (missing.length || extra.length) throw argError(API, 'the signature inputs do not match', `[${Object.keys(inputs).join(', ')}]`, `[${inputNames.join(', ')}]`, 'Pass exactly the signature inputs by name.');
    const outs = asList(f(...inputNames.map((n) => inputs[n])));
    return Object.fromEntries(outputNames.map((n, i) => [n, outs[i]]));
  };
  return Object.assign(call, { inputNames, outputNames, function: f });
}

/**
 * Loads a SavedModel directory. TF 2.x: the root object's attributes (Modules, Variables, restored
 * functions, lists and dicts of them), `signatures` and `variables`. TF1-style graphs: `signatures`
 * and `variables` (by name).
 */
export async function loadSavedModel(dir: string): Promise<LoadedSavedModel> {
  const { file, meta, graph, reader, objects } = await openSavedModel(dir);
  // What a failed load made is released (no variable or graph constant outlives the error).
  const made: { dispose(): void }[] = [];
  try {
    return objects.length > 0 ? loadObjects(meta, graph, objects, reader, file, made) : loadSignatureDefs(meta, graph, reader, made, true);
  } catch (e) {
    for (const m of made) m.dispose();
    throw e;
  }
}

/** A SavedModel directory read: its serving meta graph, the main graph for the importer, its variables' reader, its objects. */
async function openSavedModel(dir: string, serving = false): Promise<{ file: string; meta: Obj; graph: TfGraph; reader: CheckpointReader | null; objects: SavedObjectJson[] }> {
  if (typeof dir !== 'string' || dir === '') throw argError(API, 'expected a directory', typeof dir, 'a path', 'Pass the SavedModel directory.');
  const { file, model } = await readSavedModel(dir);
  const metas = (model.meta_graphs as Obj[] | undefined) ?? [];
  const meta = metas.find((m) => ((m.meta_info_def as { tags?: string[] } | undefined)?.tags ?? []).includes('serve')) ?? metas[0];
  if (meta === undefined) throw corrupt(API, file, 'it holds no MetaGraphDef', '0 meta graphs', 'at least one');
  // The importer's form of the GraphDef (int64s as strings, enums by name, bytes as base64), as it decodes GraphDef bytes.
  const gd = GRAPH_DEFS.get(meta);
  if (gd !== undefined) (serving ? servingPart : withoutSaverFunctions)(gd as unknown as GraphDefMessage, meta);
  const graph = readTfGraph(gd === undefined ? {} : tfProto('tensorflow.GraphDef').toObject(gd, { longs: String, enums: String, bytes: String, arrays: true }));
  const { path, fs } = nodeFs(API);
  const prefix = path.join(dir, 'variables', 'variables');
  let reader: CheckpointReader | null = null;
  try {
    await fs.stat(`${prefix}.index`);
    reader = new CheckpointReader(prefix, API);
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOENT') throw e;
  }
  const objects = ((meta.object_graph_def as { nodes?: SavedObjectJson[] } | undefined)?.nodes ?? []);
  return { file, meta, graph, reader, objects };
}

/**
 * `ef.loadFunction(dir)` on a SavedModel: its `serving_default` signature_def run on the main graph (as TF
 * Serving runs it), inputs and outputs named by the signature's keys, the resource variables bound to the
 * loaded ones. Only what serving_default uses is restored: no restored function or other signature is built (a Keras
 * export's five, each importing the whole network, were ~1/3 of MobileNetV2's load time and most of its garbage), and
 * only the variables the signature captures are read (a Keras 3 export holds every weight twice in its object graph:
 * MobileNetV2's 524 variables, 28 MB, of which serving_default captures 262).
 */
export async function loadServingFunction(dir: string, options: GraphFunctionOptions = {}): Promise<LoadedFunction> {
  const { file, meta, graph, reader, objects } = await openSavedModel(dir, true);
  const made: { dispose(): void }[] = [];
  try {
    if (objects.length === 0) {
      const loaded = loadSignatureDefs(meta, graph, reader, made, false);
      return servingFunction(meta, graph, () => undefined, Object.fromEntries(loaded.variables.map((v) => [v.name, v])), dir, options);
    }
    const ckptNodes: SavedGraphNode[] = reader?.has(OBJECT_GRAPH_KEY) ? reader.objectGraph() : [];
    const restored = new Map<number, Variable>();
    const variableAt = (id: number): Variable | undefined => {
      const o = objects[id];
      if (o?.variable === undefined) return undefined;
      let v = restored.get(id);
      if (v === undefined) {
        v = restoreVariable(o.variable, id, ckptNodes, reader, file);
        made.push(v);
        restored.set(id, v);
      }
      return v;
    };
    return servingFunction(meta, graph, variableAt, {}, dir, options);
  } catch (e) {
    for (const m of made) m.dispose();
    throw e;
  }
}

/** A variable of the object graph (node `id`) with its value from the checkpoint. */
function restoreVariable(o: NonNullable<SavedObjectJson['variable']>, id: number, ckptNodes: SavedGraphNode[], reader: CheckpointReader | null, file: string): Variable {
  const key = (ckptNodes[id]?.attributes ?? []).find((a) => a.name === 'VARIABLE_VALUE')?.checkpoint_key;
  if (reader === null || key === undefined) throw corrupt(API, file, `variable ${o.name ?? `node ${id}`} has no saved value`, 'no checkpoint entry', 'a value in variables/');
  const t = constant(hostValues(reader.tensor(key), o.name ?? key, API));
  try {
    return new Variable(t, { name: o.name || `variable_${id}`, trainable: o.trainable ?? true });
  } finally {
    t.dispose();
  }
}

/** serving_default on the main graph: TF1 graphs' variables by name; TF2 graphs' from the object graph by node id. */
function servingFunction(meta: Obj, graph: TfGraph, variableAt: (id: number) => Variable | undefined, byName: Record<string, Variable>, dir: string, options: GraphFunctionOptions): LoadedFunction {
  const defs = (meta.signature_def as Record<string, Obj> | undefined) ?? {};
  const sd = defs.serving_default;
  if (sd === undefined) throw opError(NotFoundError, 'loadFunction', `the SavedModel in ${dir} has no serving_default signature`, `signatures [${Object.keys(defs).filter((k) => !k.startsWith('__')).join(', ')}]`, 'serving_default', 'Load it with ef.savedModel.load(dir) and pick a signature.', null);
  const names = (m: unknown): Record<string, { name: string }> => Object.fromEntries(Object.entries((m as Record<string, { name?: string }>) ?? {}).map(([k, v]) => [k, { name: v.name ?? '' }]));
  const inputs = names(sd.inputs);
  const outputs = names(sd.outputs);
  const variables: Record<string, Variable> = { ...byName };
  // The call node each output comes from: its trailing resource inputs are the wrapper's bound_inputs.
  const concrete = ((meta.object_graph_def as { concrete_functions?: Record<string, ConcreteJson> } | undefined)?.concrete_functions ?? {});
  const byNode = new Map(graph.nodes.map((n) => [n.name, n]));
  for (const o of Object.values(outputs)) {
    const call = byNode.get(o.name.split(':')[0]);
    const fname = call?.attrs.get('f') as { func?: { name?: string } } | undefined;
    const bound = concrete[fname?.func?.name ?? '']?.bound_inputs ?? [];
    const ins = call?.inputs ?? [];
    ins.slice(ins.length - bound.length).forEach((r, k) => {
      const handle = byNode.get(r.node);
      if (handle === undefined || handle.name in variables) return;
      const v = variableAt(bound[k]);
      if (v !== undefined) variables[handle.name] = v;
    });
  }
  // The variables are this function's own (restored for it alone): its dispose releases them.
  return signatureFunction(graph, { inputs, outputs }, { ...options, variables, name: 'serving_default', ownsVariables: true });
}

/** TF1-style: every bundle tensor is a variable by name; signature_defs run on the main graph. */
function loadSignatureDefs(meta: Obj, graph: TfGraph, reader: CheckpointReader | null, made: { dispose(): void }[], functions: boolean): LoadedSavedModel {
  const variables: Variable[] = [];
  const byName: Record<string, Variable> = {};
  for (const key of reader ? [...reader.index.entries.keys()] : []) {
    if (key === OBJECT_GRAPH_KEY) continue;
    const t = constant(hostValues(reader!.tensor(key), key, API));
    byName[key] = new Variable(t, { name: key });
    made.push(byName[key]);
    t.dispose();
    variables.push(byName[key]);
  }
  const signatures: Record<string, LoadedSignature> = {};
  for (const [key, sd] of Object.entries((meta.signature_def as Record<string, Obj> | undefined) ?? {})) {
    if (key.startsWith('__') || !functions) continue;
    const names = (m: unknown): Record<string, { name: string }> => Object.fromEntries(Object.entries((m as Record<string, { name?: string }>) ?? {}).map(([k, v]) => [k, { name: v.name ?? '' }]));
    const inputs = names(sd.inputs);
    const outputs = names(sd.outputs);
    const f = signatureFunction(graph, { inputs, outputs }, { variables: byName, name: key });
    made.push(f);
    signatures[key] = signatureOf(f, Object.keys(inputs), Object.keys(outputs));
  }
  return { signatures, variables, trainableVariables: variables.filter((v) => v.trainable) };
}

/** TF 2.x: the SavedObjectGraph as live objects, variables restored from the bundle's matching object graph. */
/** Whether `name` is an accessor of ef.Module's prototype (assigning it would fail). */
function isModuleAccessor(name: string): boolean {
  return typeof Object.getOwnPropertyDescriptor(Module.prototype, name)?.get === 'function';
}

function loadObjects(meta: Obj, graph: TfGraph, objects: SavedObjectJson[], reader: CheckpointReader | null, file: string, made: { dispose(): void }[]): LoadedSavedModel {
  const concrete = ((meta.object_graph_def as { concrete_functions?: Record<string, ConcreteJson> }).concrete_functions ?? {});
  const ckptNodes: SavedGraphNode[] = reader?.has(OBJECT_GRAPH_KEY) ? reader.objectGraph() : [];
  const live: unknown[] = new Array(objects.length).fill(undefined);
  const variables: Variable[] = [];
  const pathOf = (id: number): string => `node ${id}`;
  // Variables first (functions capture them).
  objects.forEach((o, id) => {
    if (o.variable === undefined) return;
    const v = restoreVariable(o.variable, id, ckptNodes, reader, file);
    made.push(v);
    live[id] = v;
    variables.push(v);
  });
  const captured = new Set<Variable>();
  // Captured constants (Keras's Normalization and Rescaling layers save theirs so): the main graph's Const of that name.
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  objects.forEach((o, id) => {
    if (o.constant === undefined) return;
    const node = byName.get(o.constant.operation ?? '');
    const value = node?.op === 'Const' ? inlineConst(node.attrs.get('value'), `${file}: constant '${node.name}'`) : null;
    if (value === null) throw corrupt(API, file, `constant ${pathOf(id)} names no Const node with an inline value`, `'${o.constant.operation ?? ''}'`, 'a Const node of the main graph');
    const t = constant(value.data as TensorLike, value.dtype, [...value.shape]);
    made.push(t);
    live[id] = t;
  });
  const fnOf = (name: string, what: string): { f: LoadedFunction; spec: ConcreteJson } => {
    const spec = concrete[name];
    if (spec === undefined) throw corrupt(API, file, `${what} names a concrete function the object graph lacks`, name, 'an entry of concrete_functions');
    const captures = (spec.bound_inputs ?? []).map((id) => {
      const v = live[id];
      if (!(v instanceof Variable) && !(v instanceof Tensor)) throw opError(DataLossError, API, `${what} captures node ${id}, which is neither a variable nor a constant`, typeof v, 'a variable or a constant (captured assets are not supported yet)', 'Re-save the model with its state in tf.Variables.', null);
      if (v instanceof Variable) captured.add(v);
      return v;
    });
    const f = libraryFunction(graph, name, { captures, name: what });
    made.push(f);
    return { f, spec };
  };
  const restoredFunction = (o: SavedObjectJson): unknown => {
    const names = o.function?.concrete_functions ?? (o.bare_concrete_function?.concrete_function_name ? [o.bare_concrete_function.concrete_function_name] : []);
    if (names.length === 0) return undefined;
    const { f, spec } = fnOf(names[0], `function ${names[0]}`);
    const out = spec.output_signature;
    if (out?.tensor_spec_value !== undefined) return f;
    // An ordinary traced function returning TF's structure (objects by key), so it is re-savable as it was.
    return trace((...args: Tensor[]) => pack(out, asList(f(...args))), { inputSignature: f.inputSignature });
  };
  // Objects, then their attributes (children may point anywhere in the graph).
  objects.forEach((o, id) => {
    if (live[id] !== undefined) return;
    const ident = o.user_object?.identifier;
    if (ident === 'trackable_list_wrapper' || ident === 'ListWrapper') live[id] = [];
    else if (ident === 'trackable_dict_wrapper' || ident === 'signature_map') live[id] = {};
    else if (o.function !== undefined || o.bare_concrete_function !== undefined) live[id] = restoredFunction(o);
    else live[id] = new Module({ name: 'restored' });
  });
  objects.forEach((o, id) => {
    const target = live[id];
    if (target === null || typeof target !== 'object') return;
    for (const c of o.children ?? []) {
      const child = live[c.node_id ?? -1];
      const name = c.local_name ?? '';
      if (child === undefined || name === 'signatures') continue;
      if (Array.isArray(target)) target[Number(name)] = child;
      // Keras 3's model.export saves a `variables` list on the root: like TF, the loaded object's attribute is that
      // list (an own property over the Module getter of the same name, which has no setter).
      else if (target instanceof Module && isModuleAccessor(name)) Object.defineProperty(target, name, { value: child, enumerable: true, writable: true, configurable: true });
      else (target as Obj)[name] = child;
    }
  });
  // Signatures: the bare concrete functions under the root's `signatures` child.
  const signatures: Record<string, LoadedSignature> = {};
  const sigNode = (objects[0].children ?? []).find((c) => c.local_name === 'signatures');
  for (const c of sigNode ? (objects[sigNode.node_id ?? -1]?.children ?? []) : []) {
    const name = objects[c.node_id ?? -1]?.bare_concrete_function?.concrete_function_name;
    if (name === undefined) continue;
    const { f, spec } = fnOf(name, `signature '${c.local_name}'`);
    const kw = spec.canonicalized_input_signature?.tuple_value?.values?.[1]?.dict_value?.fields ?? {};
    signatures[c.local_name ?? ''] = signatureOf(f, Object.keys(kw).sort(), leafNames(spec.output_signature));
  }
  const root = live[0];
  const base = { signatures, variables, trainableVariables: variables.filter((v) => v.trainable) };
  let loaded: LoadedSavedModel;
  if (root instanceof Module) {
    Object.defineProperty(root, 'signatures', { value: signatures, enumerable: false });
    // A variable node neither reachable from the root nor captured by a function (a damaged object graph) would
    // hold its value with no way to free it: freed here (the file fuzzer found such graphs).
    // Module's getter lists them; a Keras root's own `variables` attribute is a list, and a damaged graph may make it anything.
    const listed: unknown = root.variables;
    const reachable = new Set<Variable>(Array.isArray(listed) ? listed.filter((v): v is Variable => v instanceof Variable) : listed instanceof Variable ? [listed] : []);
    for (const v of variables) if (!reachable.has(v) && !captured.has(v)) v.dispose();
    // Variables only functions capture (no attribute path reaches them) still count among the model's variables.
    const hidden = variables.filter((v) => !reachable.has(v) && captured.has(v));
    if (hidden.length > 0) {
      const own = Object.getOwnPropertyDescriptor(Module.prototype, 'variables')?.get as (this: Module) => Variable[];
      Object.defineProperty(root, 'variables', { get(this: Module) { return [...own.call(this), ...hidden.filter((v) => !v._value.isDisposed)]; }, enumerable: false, configurable: true });
    }
    loaded = root as unknown as LoadedSavedModel;
  } else loaded = Object.assign(typeof root === 'function' ? root : {}, base) as unknown as LoadedSavedModel;
  return loaded;
}
