// ef.train.Checkpoint: saves and restores Variables, Modules and optimizer state in TF's checkpoint format
// (TensorBundle + object graph), and in memory as tfjs weights (the format of the first versions, still read).
/**
 * Checkpoints of variables and optimizer state (`Checkpoint`, `CheckpointManager`, `latestCheckpoint`), as in tf.train.
 * @module
 */
import { DType, NotFoundError, Variable, constant, argError, opError } from '@eagerflow/core';
import {
  CheckpointReader, Module, RestoreStatus, TrackableHook, latestCheckpoint as latest, readCheckpointState, restoreCheckpoint, syncFs, writeCheckpoint,
  writeCheckpointState,
} from '@eagerflow/saving';
import { Optimizer } from './optimizer';
import { Adagrad, Adam, AdamW, RMSprop, SGD } from './optimizers';

export { RestoreStatus };

/** What a checkpoint tracks: Variables, Modules, optimizers, and objects or arrays of them (names become paths). */
export type Trackable = Variable | Module | Optimizer | readonly Trackable[] | { readonly [name: string]: Trackable };

/**
 * Keras 3's optimizer layout (TF 2.21's tf.keras.optimizers): its slot lists by attribute name, grouped as Keras
 * builds them (one `add_optimizer_variables` call per group: a group's slots interleave per variable, groups follow
 * each other in `_variables`), and its empty trackable attributes.
 */
function kerasLayout(opt: Optimizer): { groups: [string, string][][]; empty: string[] } {
  if (opt instanceof Adam) {
    const groups: [string, string][][] = [[['momentum', '_momentums'], ['velocity', '_velocities']]];
    if (opt.amsgrad) groups.push([['velocity_hat', '_velocity_hats']]);
    return { groups, empty: opt instanceof AdamW ? ['_exclude_from_weight_decay_cache'] : [] };
  }
  if (opt instanceof RMSprop) return { groups: [[['velocity', '_velocities']], [['momentum', '_momentums']], [['average_gradient', '_average_gradients']]], empty: [] };
  if (opt instanceof Adagrad) return { groups: [[['accumulator', '_accumulators']]], empty: [] };
  if (opt instanceof SGD) return { groups: [[['momentum', 'momentums']]], empty: [] };
  // Another Optimizer subclass: its slots in one group, each as Keras names a list (`_<slot>s`).
  const names = new Set(opt.builtVariables().flatMap((v) => Object.keys(opt.slotsOf(v) ?? {})));
  return { groups: [[...names].map((n) => [n, `_${n}s`] as [string, string])], empty: [] };
}

/** Keras 3's trackable children of an optimizer built for `vars` (in that order). */
function kerasChildren(opt: Optimizer, vars: readonly Variable[]): [string, unknown][] {
  const { groups, empty } = kerasLayout(opt);
  const slotOf = (v: Variable, slot: string): Variable | undefined => opt.slotsOf(v)?.[slot];
  const lr = opt.ownedLearningRate;
  const all: Variable[] = [opt.iterations, ...(lr !== null ? [lr] : [])];
  for (const g of groups) for (const v of vars) for (const [slot] of g) {
    const s = slotOf(v, slot);
    if (s !== undefined) all.push(s);
  }
  const out: [string, unknown][] = [['_variables', all], ['_trainable_variables', [...vars]], ['_trainable_variables_indices', {}], ['_iterations', opt.iterations]];
  if (lr !== null) out.push(['_learning_rate', lr]);
  for (const g of groups) for (const [slot, list] of g) out.push([list, vars.map((v) => slotOf(v, slot)).filter((s): s is Variable => s !== undefined)]);
  for (const e of empty) out.push([e, {}]);
  return out;
}

/**
 * How TF-format checkpoints walk an optimizer: written in Keras 3's layout (TF 2.21's tf.keras optimizers:
 * `_iterations`, `_learning_rate`, `_variables`, `_trainable_variables` and the slot lists), so TF restores it into a
 * Keras optimizer; restored from that layout or from TF's slot-variable layout (EagerFlow's earlier checkpoints).
 */
const OPTIMIZER_HOOK: TrackableHook = {
  children(obj) {
    if (!(obj instanceof Optimizer)) return null;
    return kerasChildren(obj, obj.builtVariables());
  },
  restoreChildren(obj, savedList) {
    if (!(obj instanceof Optimizer)) return null;
    const vars = savedList('_trainable_variables');
    if (vars === undefined) {
      // TF's slot-variable layout: iterations and the learning rate by name, slots through slot_variables.
      const out: [string, unknown][] = [['iterations', obj.iterations]];
      if (obj.ownedLearningRate !== null) out.push(['learning_rate', obj.ownedLearningRate]);
      return out;
    }
    if (vars.some((v) => v === undefined)) return 'later';
    const live = vars.filter((v): v is Variable => v instanceof Variable && v.dtype === 'float32');
    obj.build(live);
    return kerasChildren(obj, live);
  },
  slot(obj, variable, name) {
    const opt = obj as Optimizer;
    if (variable.dtype === 'float32') opt.build([variable]);
    return opt.getSlot(variable, name) ?? null;
  },
};

/** The iteration counters of the optimizers under `root` (saved as int64, like Keras 3's). */
function optimizerCounters(root: unknown, out: Variable[] = [], depth = 0): Variable[] {
  if (depth > 32 || root === null || typeof root !== 'object' || isVar(root)) return out;
  if (root instanceof Optimizer) out.push(root.iterations);
  else if (root instanceof Module) for (const [, v] of Object.entries(root)) optimizerCounters(v, out, depth + 1);
  else if (Array.isArray(root) || Object.getPrototypeOf(root) === Object.prototype) for (const v of Object.values(root as object)) optimizerCounters(v, out, depth + 1);
  return out;
}

/** One saved tensor, in the tfjs weights-manifest form (`io.WeightsManifestEntry`). */
export interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32' | 'bool';
}

/** The saved state: tfjs's `weightSpecs` + one little-endian `weightData` buffer (readable by tf.io.decodeWeights). */
export interface CheckpointArtifacts {
  weightSpecs: WeightSpec[];
  weightData: ArrayBuffer;
}

const isVar = (x: unknown): x is Variable => x instanceof Variable;

function intOf(v: Variable): number {
  const t = v.value();
  try {
    return t.item() as number;
  } finally {
    t.dispose();
  }
}

/**
 * Tracks Variables and optimizers under names, like tf.train.Checkpoint. Paths are the names joined
 * by '/'; an optimizer's slots are saved under the path of the variable they belong to, so a fresh
 * optimizer restores them (creating them first) without having taken a step.
 * @example
 * const w = new ef.Variable([1, 2]);
 * const opt = new ef.optimizers.Adam({ learningRate: 0.1 });
 * opt.applyGradients([[ef.constant([1, 1]), w]]);
 * const saved = new ef.train.Checkpoint({ w, optimizer: opt }).save();
 * saved.weightSpecs.map((s) => s.name); // ["w", "optimizer/iterations", "optimizer/learning_rate", "optimizer/w/momentum", "optimizer/w/velocity"]
 */
export class Checkpoint {
  private counter: Variable | null = null;

  constructor(private readonly root: { readonly [name: string]: Trackable }) {
    if (root === null || typeof root !== 'object' || isVar(root) || Array.isArray(root)) {
      throw argError('train.Checkpoint', 'expected an object of named Variables and optimizers', root === null ? 'null' : Array.isArray(root) ? 'an array' : typeof root, 'e.g. { model: [w, b], optimizer }', 'Name what you track.');
    }
  }

  /** How many times `save(prefix)` has run (TF's save_counter; saved as int64 like TF's). */
  get saveCounter(): Variable {
    this.counter ??= new Variable(0, { dtype: 'int32', trainable: false, name: 'save_counter' });
    return this.counter;
  }

  /** The object graph's root: the tracked objects, then save_counter once it exists (TF's order). */
  private graphRoot(): Record<string, unknown> {
    return this.counter === null ? { ...this.root } : { ...this.root, save_counter: this.counter };
  }

  /**
   * Writes a TF-format checkpoint to `path` (`path.index` + `path.data-00000-of-00001`) without
   * numbering it or updating the `checkpoint` state file; returns `path`.
   * @example
   * // not-run (writes files)
   * new ef.train.Checkpoint({ v: new ef.Variable([1, 2]) }).write('/tmp/ckpt/plain');
   */
  write(path: string): string {
    if (typeof path !== 'string' || path === '') throw argError('train.Checkpoint.write', 'expected a path prefix', typeof path, "a string such as '/tmp/ckpt/model'", 'Pass where to write.');
    return writeCheckpoint(path, this.graphRoot(), 'train.Checkpoint.write', OPTIMIZER_HOOK, new Set([...(this.counter ? [this.counter] : []), ...optimizerCounters(this.root)]));
  }

  /** save(prefix): numbered write (`prefix-1`, `prefix-2`, ...) recorded in the directory's `checkpoint` state file. */
  private saveNumbered(prefix: string): string {
    const api = 'train.Checkpoint.save';
    if (prefix === '') throw argError(api, 'expected a path prefix', "''", "a string such as '/tmp/ckpt/model'", 'Pass where to write.');
    const n = intOf(this.saveCounter) + 1;
    const path = `${prefix}-${n}`;
    const { path: p } = syncFs(api);
    this.saveCounter.assign(n);
    try {
      this.write(path);
    } catch (e) {
      this.saveCounter.assign(n - 1);
      throw e;
    }
    const dir = p.dirname(prefix);
    const state = readCheckpointState(dir, api);
    const all = (state?.all_model_checkpoint_paths ?? []).map((x) => (p.isAbsolute(x) ? x : p.join(dir, x))).filter((x) => x !== path);
    writeCheckpointState(dir, { model_checkpoint_path: path, all_model_checkpoint_paths: [...all, path] }, api);
    return path;
  }

  /** Every tracked variable by path (optimizer state last, after the variables its slots follow). */
  private entries(createSlots: boolean): [string, Variable][] {
    const vars: [string, Variable][] = [];
    const opts: [string, Optimizer][] = [];
    const walk = (x: Trackable, path: string): void => {
      if (isVar(x)) vars.push([path, x]);
      else if (x instanceof Optimizer) opts.push([path, x]);
      else if (Array.isArray(x)) x.forEach((y, i) => walk(y, `${path}/${i}`));
      else if (x !== null && typeof x === 'object') for (const [k, y] of Object.entries(x)) walk(y as Trackable, path === '' ? k : `${path}/${k}`);
      else throw argError('train.Checkpoint', `${path || 'the root'} is not trackable`, typeof x, 'a Variable, an optimizer, or an object or array of them', 'Track only Variables and optimizers.');
    };
    walk(this.root, '');
    const out = [...vars];
    for (const [p, opt] of opts) {
      out.push([`${p}/iterations`, opt.iterations]);
      if (opt.ownedLearningRate !== null) out.push([`${p}/learning_rate`, opt.ownedLearningRate]);
      for (const [vp, v] of vars) {
        if (createSlots && v.dtype === 'float32') opt.build([v]);
        for (const [name, slot] of Object.entries(opt.slotsOf(v) ?? {})) out.push([`${p}/${vp}/${name}`, slot]);
      }
    }
    return out;
  }

  /**
   * `save(prefix)`: writes the next numbered TF-format checkpoint (`prefix-1`, `prefix-2`, ...; TF's
   * `tf.train.Checkpoint(...).restore(path)` reads it), records it in the directory's `checkpoint`
   * file and returns its path. `save()` without a prefix returns the values in memory as tfjs
   * weights instead (the format of EagerFlow's first checkpoints, which `restore` still reads).
   */
  save(prefix: string): string;
  save(): CheckpointArtifacts;
  save(prefix?: string): string | CheckpointArtifacts {
    if (prefix !== undefined) return this.saveNumbered(prefix);
    const entries = this.entries(false);
    const specs: WeightSpec[] = [];
    const chunks: Uint8Array[] = [];
    for (const [name, v] of entries) {
      if (v.dtype !== 'float32' && v.dtype !== 'int32' && v.dtype !== 'bool') {
        throw argError('train.Checkpoint.save', `${name} has dtype ${v.dtype}`, v.dtype, 'float32, int32 or bool', 'Keep string and complex state out of checkpoints.');
      }
      const value = v.value();
      const data = value.dataSync() as Float32Array | Int32Array | Uint8Array;
      value.dispose();
      const bytes = v.dtype === 'bool' ? Uint8Array.from(data) : new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
      specs.push({ name, shape: v.shape.asList() as number[], dtype: v.dtype });
      chunks.push(bytes);
    }
    const total = chunks.reduce((a, c) => a + c.byteLength, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return { weightSpecs: specs, weightData: out.buffer };
  }

  /**
   * `restore(path)`: restores a TF-format checkpoint (written here or by TF) by matching its object
   * graph to the tracked objects; returns a status with `assertConsumed()`,
   * `assertExistingObjectsMatched()` and `expectPartial()`. Saved objects that do not exist yet
   * are restored when they are assigned to a Module attribute. A missing checkpoint is a
   * NotFoundError; a dtype or shape mismatch an InvalidArgumentError naming the variable's path.
   *
   * `restore(artifacts)` assigns what `save()` returned (creating optimizer slots that do not exist
   * yet). Every entry is checked before anything is assigned: a missing name or a shape or dtype
   * mismatch throws and leaves all variables as they were. Extra saved entries are ignored.
   */
  restore(path: string): RestoreStatus;
  restore(saved: CheckpointArtifacts): this;
  restore(saved: string | CheckpointArtifacts): this | RestoreStatus {
    const api = 'train.Checkpoint.restore';
    if (typeof saved === 'string') {
      // save_counter is restored when the checkpoint has one (save() wrote it; write() of a fresh one did not).
      const saved0 = new CheckpointReader(saved, api).objectGraph()[0];
      if ((saved0?.children ?? []).some((c) => c.local_name === 'save_counter')) void this.saveCounter;
      return restoreCheckpoint(saved, this.graphRoot(), api, OPTIMIZER_HOOK);
    }
    const byName = decode(api, saved);
    const plan = this.entries(true).map(([name, v]) => {
      const w = byName.get(name);
      if (w === undefined) {
        throw opError(NotFoundError, api, `${name} is not in the checkpoint`, `entries [${[...byName.keys()].join(', ')}]`, name, 'Track the same objects under the same names as when saving.', null);
      }
      const shape = v.shape.asList() as number[];
      if (w.spec.dtype !== v.dtype || w.spec.shape.length !== shape.length || w.spec.shape.some((d, i) => d !== shape[i])) {
        throw argError(api, `${name} does not match the saved value`, `${v.dtype}[${shape.join(',')}] in the program`, `${w.spec.dtype}[${w.spec.shape.join(',')}] from the checkpoint`, 'Build the model with the saved shapes.');
      }
      return [v, w] as const;
    });
    for (const [v, w] of plan) {
      const t = constant(w.values, w.spec.dtype as DType, w.spec.shape);
      v.assign(t);
      t.dispose();
    }
    return this;
  }
}

interface Decoded {
  spec: WeightSpec;
  values: Float32Array | Int32Array | Uint8Array;
}

/** Splits weightData by weightSpecs (tfjs layout: each tensor's bytes in order, no padding). */
function decode(api: string, saved: CheckpointArtifacts): Map<string, Decoded> {
  if (saved === null || typeof saved !== 'object' || !Array.isArray(saved.weightSpecs) || !(saved.weightData instanceof ArrayBuffer)) {
    throw argError(api, 'expected { weightSpecs, weightData }', saved === null ? 'null' : typeof saved, 'what Checkpoint.save returned', 'Pass the saved artifacts.');
  }
  const out = new Map<string, Decoded>();
  let at = 0;
  for (const spec of saved.weightSpecs) {
    const n = spec.shape.reduce((a, b) => a * b, 1);
    const width = spec.dtype === 'bool' ? 1 : 4;
    if (at + n * width > saved.weightData.byteLength) {
      throw argError(api, `weightData is too short for ${spec.name}`, `${saved.weightData.byteLength} bytes`, `at least ${at + n * width}`, 'The checkpoint is truncated.');
    }
    const bytes = saved.weightData.slice(at, at + n * width);
    const values = spec.dtype === 'float32' ? new Float32Array(bytes) : spec.dtype === 'int32' ? new Int32Array(bytes) : new Uint8Array(bytes);
    out.set(spec.name, { spec, values });
    at += n * width;
  }
  return out;
}

/**
 * The newest checkpoint prefix recorded in `dir`'s `checkpoint` file (TF's tf.train.latest_checkpoint),
 * or null when there is none.
 * @example
 * // not-run (reads files)
 * const ckpt = new ef.train.Checkpoint({ model });
 * ckpt.restore(ef.train.latestCheckpoint('/tmp/ckpts')!);
 */
export function latestCheckpoint(dir: string): string | null {
  return latest(dir);
}

/** Options of CheckpointManager. */
export interface CheckpointManagerOptions {
  /** How many checkpoints to keep (older ones are deleted); null keeps all. Default 5. */
  maxToKeep?: number | null;
  /** The file name prefix inside the directory. Default 'ckpt'. */
  checkpointName?: string;
}

/**
 * Numbered checkpoints in one directory with a `checkpoint` state file, deleting all but the newest
 * `maxToKeep` (TF's tf.train.CheckpointManager). An existing directory's checkpoints are picked up.
 * @example
 * // not-run (writes files)
 * const manager = new ef.train.CheckpointManager(new ef.train.Checkpoint({ model }), '/tmp/ckpts', { maxToKeep: 3 });
 * manager.save(); // '/tmp/ckpts/ckpt-1'
 */
export class CheckpointManager {
  private kept: { path: string; time: number }[] = [];
  readonly maxToKeep: number | null;
  private readonly name: string;

  constructor(readonly checkpoint: Checkpoint, readonly directory: string, options: CheckpointManagerOptions = {}) {
    const api = 'train.CheckpointManager';
    if (!(checkpoint instanceof Checkpoint)) throw argError(api, 'expected an ef.train.Checkpoint', typeof checkpoint, 'new ef.train.Checkpoint({...})', 'Wrap what you track in a Checkpoint.');
    if (typeof directory !== 'string' || directory === '') throw argError(api, 'expected a directory', typeof directory, 'a path', 'Pass where checkpoints go.');
    this.maxToKeep = options.maxToKeep === undefined ? 5 : options.maxToKeep;
    if (this.maxToKeep !== null && (!Number.isInteger(this.maxToKeep) || this.maxToKeep < 1)) throw argError(api, 'maxToKeep is invalid', String(this.maxToKeep), 'a positive integer or null', 'Keep at least one.');
    this.name = options.checkpointName ?? 'ckpt';
    const state = readCheckpointState(directory, api);
    if (state !== null) {
      const { fs, path } = syncFs(api);
      const abs = (x: string): string => (path.isAbsolute(x) ? x : path.join(directory, x));
      const times = state.all_model_checkpoint_timestamps ?? [];
      this.kept = (state.all_model_checkpoint_paths ?? []).map((x, i) => ({ path: abs(x), time: times[i] ?? Date.now() / 1000 })).filter((c) => fs.existsSync(`${c.path}.index`));
    }
  }

  /** The kept checkpoint prefixes, oldest first. */
  get checkpoints(): string[] {
    return this.kept.map((c) => c.path);
  }

  /** The newest checkpoint prefix, or null. */
  get latestCheckpoint(): string | null {
    return this.kept.length ? this.kept[this.kept.length - 1].path : null;
  }

  /** Writes checkpoint number `checkpointNumber` (default: the checkpoint's save counter + 1), deletes the oldest beyond maxToKeep, returns its path. */
  save(checkpointNumber?: number): string {
    const api = 'train.CheckpointManager.save';
    const { fs, path } = syncFs(api);
    const counter = this.checkpoint.saveCounter;
    const next = intOf(counter) + 1;
    const n = checkpointNumber ?? next;
    if (!Number.isInteger(n) || n < 0) throw argError(api, 'checkpointNumber is invalid', String(n), 'a non-negative integer', 'Pass a step number.');
    counter.assign(next);
    const prefix = this.checkpoint.write(path.join(this.directory, `${this.name}-${n}`));
    this.kept = this.kept.filter((c) => c.path !== prefix);
    this.kept.push({ path: prefix, time: Date.now() / 1000 });
    while (this.maxToKeep !== null && this.kept.length > this.maxToKeep) {
      const old = this.kept.shift()!;
      for (const f of fs.readdirSync(path.dirname(old.path))) {
        const base = path.basename(old.path);
        if (f === `${base}.index` || f.startsWith(`${base}.data-`)) fs.unlinkSync(path.join(path.dirname(old.path), f));
      }
    }
    writeCheckpointState(this.directory, { model_checkpoint_path: prefix, all_model_checkpoint_paths: this.checkpoints, all_model_checkpoint_timestamps: this.kept.map((c) => c.time), last_preserved_timestamp: this.kept[0].time }, api);
    return prefix;
  }
}
