// ef.train.Checkpoint: saves and restores Variables and optimizer state (iterations, learning rate, slots) as tfjs weights.
/**
 * Checkpoints of variables and optimizer state (`Checkpoint`, `CheckpointManager`), as in tf.train.
 * @module
 */
import { DType, NotFoundError, Variable, constant, argError, opError } from '@eagerflow/core';
import { Optimizer } from './optimizer';

/** What a checkpoint tracks: Variables, optimizers, and objects or arrays of them (names become paths). */
export type Trackable = Variable | Optimizer | readonly Trackable[] | { readonly [name: string]: Trackable };

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
  constructor(private readonly root: { readonly [name: string]: Trackable }) {
    if (root === null || typeof root !== 'object' || isVar(root) || Array.isArray(root)) {
      throw argError('train.Checkpoint', 'expected an object of named Variables and optimizers', root === null ? 'null' : Array.isArray(root) ? 'an array' : typeof root, 'e.g. { model: [w, b], optimizer }', 'Name what you track.');
    }
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

  /** The current values of everything tracked, as tfjs weights. */
  save(): CheckpointArtifacts {
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
   * Assigns saved values to everything tracked (creating optimizer slots that do not exist yet). Every
   * entry is checked before anything is assigned: a missing name or a shape or dtype mismatch throws
   * and leaves all variables as they were. Extra saved entries are ignored.
   */
  restore(saved: CheckpointArtifacts): this {
    const api = 'train.Checkpoint.restore';
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
