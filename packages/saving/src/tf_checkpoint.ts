// TF-format checkpoints (tf.train.Checkpoint): the object graph (TrackableObjectGraph under _CHECKPOINTABLE_OBJECT_GRAPH)
// of a root's tracked objects, each Variable under `<path>/.ATTRIBUTES/VARIABLE_VALUE`, in a TensorBundle; restore
// matches the saved graph to the live objects by local names, and defers what does not exist yet.
import {
  FailedPreconditionError, InvalidArgumentError, NDArray, Variable, constant, isPlainObject, opError,
} from '@eagerflow/core';
import { Module, deferAttribute, isTracedFunction, moduleAttributes, trackedContainerAt } from './module';
import { BundleTensor, DT, readBundleIndex, readBundleTensor, shardFile, writeBundle, BundleIndex } from './tensor_bundle';
import { bundleOf, hostValues, tfDTypeName } from './tf_dtypes';
import { decodeTfProto, encodeTfProto } from './proto/tf_protos';
import { corrupt } from './sstable';
import { SyncFs, syncFs, readFileOrNotFound } from './node_files';

export const OBJECT_GRAPH_KEY = '_CHECKPOINTABLE_OBJECT_GRAPH';

/** How a checkpoint walks objects this package does not know (the umbrella's optimizers). */
export interface TrackableHook {
  /** The named children of `obj`, or null when the hook does not handle it. */
  children(obj: object): [string, unknown][] | null;
  /** For an object the hook handles: its slot variables for the variables in the graph, as [variable, slot name, slot]. */
  slots?(obj: object, variables: Variable[]): [Variable, string, Variable][];
  /** For restoring: the slot `name` of `variable` (created if need be), or null. */
  slot?(obj: object, variable: Variable, name: string): Variable | null;
  /**
   * For restoring an object the hook handles: its children as the saved node names them (a checkpoint may use
   * another layout than `children`, e.g. Keras 3's optimizer lists or TF's slot variables). `savedList(name)` gives
   * the live objects already matched to the elements of the saved child list `name` (undefined where not matched
   * yet; undefined alone when there is no such child). 'later' asks to be matched after the rest of the graph.
   */
  restoreChildren?(obj: object, savedList: (name: string) => (object | undefined)[] | undefined): [string, unknown][] | 'later' | null;
}

/** TF's escaping of a local name in checkpoint keys ('.' -> '..', '/' -> '.S'). */
export function escapeLocalName(name: string): string {
  return name.replace(/\./g, '..').replace(/\//g, '.S');
}

/** The named children of a trackable object, or null when `x` is not trackable. */
function childrenOf(x: unknown, hook?: TrackableHook): [string, object][] | null {
  if (x instanceof Variable) return [];
  if (x === null || typeof x !== 'object') return null;
  const handled = hook?.children(x);
  let entries: [string, unknown][];
  if (handled) entries = handled;
  else if (x instanceof Module) entries = moduleAttributes(x);
  else if (Array.isArray(x)) entries = x.map((v, i) => [String(i), v]);
  else if (isPlainObject(x)) entries = Object.entries(x);
  else return null;
  return entries.filter((e): e is [string, object] => e[1] !== null && typeof e[1] === 'object' && !isTracedFunction(e[1]) && childrenOf(e[1], hook) !== null);
}

interface GraphNode {
  obj: object;
  path: string[];
  children: { node_id: number; local_name: string }[];
  slots: { original_variable_node_id: number; slot_name: string; slot_variable_node_id: number }[];
}

/** TF's breadth-first object graph: node 0 is the root, each object once, a path being its first (shortest) one. */
function buildGraph(root: object, hook?: TrackableHook): GraphNode[] {
  const ids = new Map<object, number>([[root, 0]]);
  const nodes: GraphNode[] = [{ obj: root, path: [], children: [], slots: [] }];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    for (const [name, child] of childrenOf(n.obj, hook) ?? []) {
      let id = ids.get(child);
      if (id === undefined) {
        id = nodes.length;
        ids.set(child, id);
        nodes.push({ obj: child, path: [...n.path, name], children: [], slots: [] });
      }
      n.children.push({ node_id: id, local_name: name });
    }
  }
  // Slot variables follow, as TF appends them: per optimizer, per original variable in graph order.
  const variables = nodes.filter((n) => n.obj instanceof Variable);
  for (const n of [...nodes]) {
    if (hook?.slots === undefined || hook.children(n.obj) === null) continue;
    for (const [v, slotName, slot] of hook.slots(n.obj, variables.map((x) => x.obj as Variable))) {
      const orig = ids.get(v)!;
      const id = nodes.length;
      ids.set(slot, id);
      nodes.push({ obj: slot, path: [...nodes[orig].path.map(escapeLocalName), '.OPTIMIZER_SLOT', ...n.path, slotName], children: [], slots: [] });
      n.slots.push({ original_variable_node_id: orig, slot_name: slotName, slot_variable_node_id: id });
    }
  }
  return nodes;
}

function keyOf(n: GraphNode, slot: boolean): string {
  const parts = slot ? n.path : n.path.map(escapeLocalName);
  return `${parts.join('/')}/.ATTRIBUTES/VARIABLE_VALUE`;
}

/**
 * The bundle tensors of a checkpoint of `root`: every Variable (in graph order; those in `int64` as
 * TF's int64) and the serialized object graph.
 */
export function checkpointTensors(root: object, hook?: TrackableHook, int64: ReadonlySet<Variable> = new Set()): Map<string, BundleTensor> {
  const nodes = buildGraph(root, hook);
  const slotIds = new Set(nodes.flatMap((n) => n.slots.map((s) => s.slot_variable_node_id)));
  const tensors = new Map<string, BundleTensor>();
  const hasValues = nodes.map((n) => n.obj instanceof Variable);
  for (let i = nodes.length - 1; i >= 0; i--) if (nodes[i].children.some((c) => hasValues[c.node_id]) || nodes[i].slots.length > 0) hasValues[i] = true;
  const proto = nodes.map((n, i) => {
    const out: Record<string, unknown> = {};
    if (n.children.length) out.children = n.children;
    if (n.obj instanceof Variable) {
      const key = keyOf(n, slotIds.has(i));
      const value = n.obj.value();
      try {
        tensors.set(key, bundleOf(value, int64.has(n.obj) ? DT.INT64 : undefined));
      } finally {
        value.dispose();
      }
      out.attributes = [{ name: 'VARIABLE_VALUE', full_name: n.obj.name, checkpoint_key: key }];
    }
    if (n.slots.length) out.slot_variables = n.slots;
    if (hasValues[i]) out.has_checkpoint_values = { value: true };
    return out;
  });
  const graph = encodeTfProto('tensorflow.TrackableObjectGraph', { nodes: proto });
  tensors.set(OBJECT_GRAPH_KEY, { dtype: DT.STRING, shape: [], data: [graph] });
  return tensors;
}

/** Writes a checkpoint of `root` to `prefix.index` + `prefix.data-00000-of-00001` (directories created). */
export function writeCheckpoint(prefix: string, root: object, api: string, hook?: TrackableHook, int64?: ReadonlySet<Variable>): string {
  const { fs, path } = syncFs(api);
  const { index, data } = writeBundle(checkpointTensors(root, hook, int64));
  fs.mkdirSync(path.dirname(prefix), { recursive: true });
  // Data first, index last (the index is what marks a checkpoint as present), each via a temporary name.
  const put = (file: string, bytes: Uint8Array): void => {
    fs.writeFileSync(`${file}.tmp`, bytes);
    fs.renameSync(`${file}.tmp`, file);
  };
  put(shardFile(prefix, 0, 1), data);
  put(`${prefix}.index`, index);
  return prefix;
}

/** A checkpoint on disk: its index and a reader of its tensors. */
export class CheckpointReader {
  readonly index: BundleIndex;
  private readonly fs: SyncFs;

  constructor(readonly prefix: string, readonly api: string) {
    this.fs = syncFs(api).fs;
    const file = `${prefix}.index`;
    const bytes = readFileOrNotFound(this.fs, file, api, 'the checkpoint', 'Pass the prefix that save() or write() returned (e.g. ef.train.latestCheckpoint(dir)).');
    this.index = readBundleIndex(bytes, file, api);
  }

  has(key: string): boolean {
    return this.index.entries.has(key);
  }

  /**
   * The entry `key`: only its bytes are read (a positioned read of its shard), so restoring a model holds each
   * value once at a time, not its whole data file (MobileNetV2's Keras export: 28 MB, of which its serving
   * signature needs half).
   */
  tensor(key: string): BundleTensor {
    const e = this.index.entries.get(key);
    if (e === undefined) throw corrupt(this.api, `${this.prefix}.index`, `the entry '${key}' is missing`, 'no such key', `an entry for '${key}'`);
    const file = shardFile(this.prefix, e.shardId, this.index.numShards);
    const unreadable = (err: unknown): never => {
      throw corrupt(this.api, file, 'the data shard cannot be read', (err as { code?: string }).code ?? String(err), `shard ${e.shardId} of ${this.index.numShards} beside ${this.prefix}.index`);
    };
    let fd = -1;
    try {
      fd = this.fs.openSync(file, 'r');
    } catch (err) {
      unreadable(err);
    }
    try {
      let size = 0;
      let got = 0;
      let bytes = new Uint8Array(0);
      try {
        size = this.fs.fstatSync(fd).size;
        if (e.offset + e.size <= size) {
          bytes = new Uint8Array(e.size);
          while (got < e.size) {
            const n = this.fs.readSync(fd, bytes, got, e.size - got, e.offset + got);
            if (n === 0) break;
            got += n;
          }
        }
      } catch (err) {
        unreadable(err);
      }
      if (got < e.size) throw corrupt(this.api, file, `'${key}' runs past the end of the shard`, `bytes [${e.offset}, ${e.offset + e.size})`, `within ${Math.min(size, e.offset + got)} bytes`);
      return readBundleTensor(key, { ...e, offset: 0 }, bytes, file, this.api, false);
    } finally {
      this.fs.closeSync(fd);
    }
  }

  objectGraph(): SavedGraphNode[] {
    if (!this.has(OBJECT_GRAPH_KEY)) {
      throw opError(FailedPreconditionError, this.api, `${this.prefix} has no object graph`, 'a name-based (TF1 Saver) checkpoint', `a tf.train.Checkpoint checkpoint (with ${OBJECT_GRAPH_KEY})`, 'Load TF1 checkpoints by variable name with a TF1 graph (ef.savedModel.load).', null);
    }
    const t = this.tensor(OBJECT_GRAPH_KEY);
    const bytes = Array.isArray(t.data) && t.data.length === 1 ? t.data[0] : null;
    if (bytes === null) throw corrupt(this.api, `${this.prefix}.index`, 'the object graph is not a string scalar', `dtype ${tfDTypeName(t.dtype)}`, 'a scalar string');
    try {
      return decodeTfProto<{ nodes?: SavedGraphNode[] }>('tensorflow.TrackableObjectGraph', bytes).nodes ?? [];
    } catch (e) {
      throw corrupt(this.api, shardFile(this.prefix, 0, this.index.numShards), 'the object graph is not a valid TrackableObjectGraph', (e as Error).message, 'a serialized tensorflow.TrackableObjectGraph');
    }
  }
}

export interface SavedGraphNode {
  children?: { node_id?: number; local_name?: string }[];
  attributes?: { name?: string; full_name?: string; checkpoint_key?: string }[];
  slot_variables?: { original_variable_node_id?: number; slot_name?: string; slot_variable_node_id?: number }[];
}

/** What `restore` returns (TF's CheckpointLoadStatus): assertions on how saved and live objects matched. */
export class RestoreStatus {
  /** Saved node id -> the live object it restored (or is waiting for). */
  readonly matched = new Map<number, object>();

  constructor(private readonly nodes: SavedGraphNode[], private readonly root: object, private readonly hook: TrackableHook | undefined, private readonly prefix: string) {}

  private pathOf(id: number): string {
    const parent = new Map<number, [number, string]>();
    const queue = [0];
    for (let i = 0; i < queue.length; i++) {
      for (const c of this.nodes[queue[i]].children ?? []) {
        const cid = c.node_id ?? 0;
        if (cid !== 0 && !parent.has(cid)) {
          parent.set(cid, [queue[i], c.local_name ?? '']);
          queue.push(cid);
        }
      }
    }
    const parts: string[] = [];
    for (let at = id; parent.has(at); at = parent.get(at)![0]) parts.unshift(parent.get(at)![1]);
    return parts.join('/') || `node ${id}`;
  }

  /**
   * Every object in the checkpoint was matched to a live object, and every live tracked object to a
   * saved one (TF's assert_consumed). Objects created later count once they are assigned.
   */
  assertConsumed(): this {
    const unmatched = this.nodes.map((_, i) => i).filter((i) => !this.matched.has(i) && this.hasValues(i));
    if (unmatched.length > 0) {
      throw opError(FailedPreconditionError, 'train.Checkpoint.restore', `objects of ${this.prefix} were not matched to live objects`, `unmatched [${unmatched.map((i) => this.pathOf(i)).join(', ')}]`, 'every saved object matched', 'Create (and assign) those objects, or call expectPartial().', null);
    }
    return this.assertExistingObjectsMatched();
  }

  /** Every live tracked object has a saved counterpart (TF's assert_existing_objects_matched). */
  assertExistingObjectsMatched(): this {
    const live = new Set(this.matched.values());
    const missing: string[] = [];
    const seen = new Set<object>();
    const walk = (x: object, path: string): void => {
      if (seen.has(x)) return;
      seen.add(x);
      // Arrays and plain objects are structure (a hook may build them afresh on each walk): their contents count.
      if (!live.has(x) && x !== this.root && !Array.isArray(x) && !isPlainObject(x)) missing.push(path);
      for (const [name, c] of childrenOf(x, this.hook) ?? []) walk(c, path ? `${path}/${name}` : name);
    };
    walk(this.root, '');
    if (missing.length > 0) {
      throw opError(FailedPreconditionError, 'train.Checkpoint.restore', `live objects have no value in ${this.prefix}`, `unmatched [${missing.join(', ')}]`, 'every tracked object saved in the checkpoint', 'Track the same structure as when saving.', null);
    }
    return this;
  }

  /** Silences the partial-restore expectations (TF's expect_partial); returns the status. */
  expectPartial(): this {
    return this;
  }

  private hasValues(i: number): boolean {
    const n = this.nodes[i];
    return (n.attributes?.length ?? 0) > 0 || (n.children ?? []).some((c) => this.hasValues(c.node_id ?? 0)) || (n.slot_variables?.length ?? 0) > 0;
  }
}

/**
 * Restores `root` from the checkpoint at `prefix`: saved objects are matched to live ones by local
 * names from the root; every matched variable's value is checked (dtype, shape) before any is
 * assigned; a saved child a live Module lacks is restored when that attribute is assigned.
 */
export function restoreCheckpoint(prefix: string, root: object, api: string, hook?: TrackableHook): RestoreStatus {
  const reader = new CheckpointReader(prefix, api);
  const nodes = reader.objectGraph();
  const status = new RestoreStatus(nodes, root, hook, prefix);
  const run = (id: number, obj: object, path: string): void => {
    const plan: [Variable, NDArray, string][] = [];
    match(id, obj, path, plan);
    applyPlan(plan);
  };
  const valueFor = (node: SavedGraphNode, v: Variable, path: string): NDArray | null => {
    const attr = (node.attributes ?? []).find((a) => a.name === 'VARIABLE_VALUE');
    if (attr?.checkpoint_key === undefined) return null;
    const host = hostValues(reader.tensor(attr.checkpoint_key), path, api);
    const shape = v.shape.asList() as number[];
    if (host.dtype !== v.dtype || host.shape.length !== shape.length || host.shape.some((d, i) => d !== shape[i])) {
      throw opError(InvalidArgumentError, api, `${path} does not match its saved value`, `${v.dtype}[${shape.join(', ')}] in the program`, `${host.dtype}[${host.shape.join(', ')}] from ${prefix}`, 'Build the variable with the saved shape and dtype.', null);
    }
    return host;
  };
  const later: (() => void)[] = [];
  let deferring = true;
  const match = (id: number, obj: object, path: string, plan: [Variable, NDArray, string][]): void => {
    const node = nodes[id];
    if (node === undefined) throw corrupt(api, `${prefix}.index`, `the object graph refers to node ${id}`, `${nodes.length} nodes`, 'node ids within the graph');
    if (status.matched.has(id)) return;
    if (obj instanceof Variable) {
      status.matched.set(id, obj);
      const host = valueFor(node, obj, path);
      if (host !== null) plan.push([obj, host, path]);
      return;
    }
    const savedList = (name: string): (object | undefined)[] | undefined => {
      const c = (node.children ?? []).find((x) => x.local_name === name);
      return c === undefined ? undefined : (nodes[c.node_id ?? 0]?.children ?? []).map((g) => status.matched.get(g.node_id ?? -1));
    };
    const own = hook?.restoreChildren?.(obj, savedList) ?? null;
    if (own === 'later') {
      // An optimizer whose variables are matched elsewhere in the graph: after the rest of it.
      if (deferring) later.push(() => run(id, obj, path));
      return;
    }
    status.matched.set(id, obj);
    const live = new Map(own !== null ? own.filter((e): e is [string, object] => e[1] !== null && typeof e[1] === 'object') : childrenOf(obj, hook) ?? []);
    for (const c of node.children ?? []) {
      const name = c.local_name ?? '';
      const cid = c.node_id ?? 0;
      const childPath = path ? `${path}/${name}` : name;
      // An empty tracked array or object (nothing trackable in it yet) is matched too: its elements may come later.
      const mine = live.get(name) ?? trackedContainerAt(obj, name);
      if (mine !== undefined) match(cid, mine, childPath, plan);
      else deferAttribute(obj, name, (value) => {
        if (value !== null && typeof value === 'object' && childrenOf(value, hook) !== null) run(cid, value, childPath);
      });
    }
    for (const s of node.slot_variables ?? []) {
      const orig = status.matched.get(s.original_variable_node_id ?? -1);
      const slot = orig instanceof Variable && hook?.slot ? hook.slot(obj, orig, s.slot_name ?? '') : null;
      if (slot !== null) match(s.slot_variable_node_id ?? -1, slot, `${path}/${s.slot_name}`, plan);
    }
  };
  run(0, root, '');
  deferring = false;
  for (const f of later) f();
  return status;
}

function applyPlan(plan: [Variable, NDArray, string][]): void {
  for (const [v, host] of plan) {
    const t = constant(host);
    try {
      v.assign(t);
    } finally {
      t.dispose();
    }
  }
}

interface StateProto {
  model_checkpoint_path?: string;
  all_model_checkpoint_paths?: string[];
  all_model_checkpoint_timestamps?: number[];
  last_preserved_timestamp?: number;
}

/** The `checkpoint` state file (a text-format tensorflow.CheckpointState) of `dir`, or null if there is none. */
export function readCheckpointState(dir: string, api: string): StateProto | null {
  const { fs, path } = syncFs(api);
  const file = path.join(dir, 'checkpoint');
  if (!fs.existsSync(file)) return null;
  const text = new TextDecoder().decode(fs.readFileSync(file));
  const out: StateProto = { all_model_checkpoint_paths: [], all_model_checkpoint_timestamps: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const m = /^([a-z_]+)\s*:\s*(.*)$/.exec(line);
    if (m === null) throw corrupt(api, file, 'a line is not `field: value`', line.slice(0, 60), 'a text-format CheckpointState');
    const [, field, value] = m;
    const str = (): string => {
      try {
        return JSON.parse(value) as string;
      } catch {
        throw corrupt(api, file, `the value of ${field} is not a quoted string`, value.slice(0, 60), 'a "quoted" path');
      }
    };
    if (field === 'model_checkpoint_path') out.model_checkpoint_path = str();
    else if (field === 'all_model_checkpoint_paths') out.all_model_checkpoint_paths!.push(str());
    else if (field === 'all_model_checkpoint_timestamps') out.all_model_checkpoint_timestamps!.push(Number(value));
    else if (field === 'last_preserved_timestamp') out.last_preserved_timestamp = Number(value);
  }
  return out;
}

/** Writes the `checkpoint` state file of `dir` as TF does (paths relative to `dir` when inside it). */
export function writeCheckpointState(dir: string, state: StateProto, api: string): void {
  const { fs, path } = syncFs(api);
  const rel = (p: string): string => (path.dirname(p) === dir || path.dirname(p) === path.join(dir) ? path.basename(p) : p);
  const lines: string[] = [];
  if (state.model_checkpoint_path !== undefined) lines.push(`model_checkpoint_path: ${JSON.stringify(rel(state.model_checkpoint_path))}`);
  for (const p of state.all_model_checkpoint_paths ?? []) lines.push(`all_model_checkpoint_paths: ${JSON.stringify(rel(p))}`);
  for (const t of state.all_model_checkpoint_timestamps ?? []) lines.push(`all_model_checkpoint_timestamps: ${t}`);
  if (state.last_preserved_timestamp !== undefined) lines.push(`last_preserved_timestamp: ${state.last_preserved_timestamp}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'checkpoint');
  fs.writeFileSync(`${file}.tmp`, `${lines.join('\n')}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

/** The prefix of the newest checkpoint in `dir` (from its `checkpoint` file), or null when there is none. */
export function latestCheckpoint(dir: string): string | null {
  const api = 'train.latestCheckpoint';
  const state = readCheckpointState(dir, api);
  if (state?.model_checkpoint_path === undefined) return null;
  const { fs, path } = syncFs(api);
  const p = path.isAbsolute(state.model_checkpoint_path) ? state.model_checkpoint_path : path.join(dir, state.model_checkpoint_path);
  return fs.existsSync(`${p}.index`) ? p : null;
}
