// GradientTape: the user API around the tape data (recording, watching, memory of what it saved).
/// <reference lib="esnext.disposable" preserve="true" />
import * as backend from '../backend/backend';
import { TapeRecorder, ctx } from '../ops/bind';
import { describe } from '../values/dtype';
import { NDArray } from '../values/ndarray';
import { TapeEntry, backprop, prune } from './tape';
import { Tensor, freshId } from '../values/tensor';
import { Variable } from '../values/variable';
import { flattenStructure, isPlainObject, packStructure } from '../values/structure';
import { TensorLike, convert } from '../values/convert';
import { tidy } from '../backend/memory';
import { FailedPreconditionError } from '../errors/errors';
import { shapeStr } from './gradient_util';
import {
  Source, UnconnectedGradients, asSource, backpropOps, checkUnconnected, isDiffDType, isSourceLeaf, onesFor, revive, zerosFor,
} from './gradient_util';
import { batchJacobianOf, jacobianOf } from './jacobian';
import * as o from '../ops/ops';
import { argError, opError, typeError } from '../errors/error_toolkit';

export type { UnconnectedGradients };

export interface GradientTapeOptions {
  persistent?: boolean;
  watchAccessedVariables?: boolean;
}

export interface GradientOptions {
  /** One cotangent per target (mirroring `target`'s structure); null entries mean ones. */
  outputGradients?: unknown;
  unconnectedGradients?: UnconnectedGradients;
}

export interface JacobianOptions {
  unconnectedGradients?: UnconnectedGradients;
}

/** The gradient of each source, in the structure of `sources` (null for unconnected ones). */
export type GradientResult<S> = S extends Tensor | Variable ? Tensor | null
  : S extends readonly unknown[] ? { -readonly [K in keyof S]: GradientResult<S[K]> }
  : S extends object ? { [K in keyof S]: GradientResult<S[K]> }
  : null;

type State = 'live' | 'used' | 'disposed';

/** Data handles a tape keeps alive for its vjps (boxed so a finalizer can release them without the tape). */
interface Pins {
  handles: backend.TfTensor[];
}

function unpinAll(pins: Pins): void {
  for (const h of pins.handles) backend.unpin(h);
  pins.handles = [];
}

/** Safety net: a tape dropped without gradient() or dispose() releases its pins when garbage-collected. */
const orphans = new FinalizationRegistry<Pins>(unpinAll);

/**
 * Records operations for automatic differentiation, with TensorFlow's semantics.
 * @example
 * const x = ef.constant(3);
 * const tape = new ef.GradientTape();
 * const y = tape.record(() => { tape.watch(x); return ef.multiply(x, x); });
 * tape.gradient(y, x).item(); // 6
 */
export class GradientTape implements TapeRecorder {
  readonly persistent: boolean;
  readonly watchAccessedVariables: boolean;
  private entries: TapeEntry[] = [];
  /** The Variable sources of the gradient being taken (entries with `widen` connect to them). */
  private variableSources: readonly Variable[] = [];
  /** Ids of watched tensors and variables, and of every differentiable output recorded. */
  private watched = new Set<number>();
  private variables: Variable[] = [];
  /** Released after a non-persistent gradient, by dispose(), or when the tape is garbage-collected. */
  private readonly pins: Pins = { handles: [] };
  private state: State = 'live';
  private recording = false;
  private warnedInside = false;
  /**
   * Whether the tape is in `orphans`: only while it holds pins (registered at the first, unregistered when
   * released), so a tape that is done leaves no registry cell behind, also in a loop that never yields.
   */
  private registered = false;

  constructor(options: GradientTapeOptions = {}) {
    this.persistent = options.persistent ?? false;
    this.watchAccessedVariables = options.watchAccessedVariables ?? true;
  }

  /**
   * Runs `fn` with this tape recording and returns its result. May be called several times: later
   * calls continue the same tape (a consumed non-persistent or disposed tape starts afresh).
   */
  record<T>(fn: () => T): T {
    if (typeof fn !== 'function') throw typeError('GradientTape.record', 'expected a function', describe(fn), '() => value', 'Pass tape.record(() => ...).');
    if (this.recording) {
      throw opError(FailedPreconditionError, 'GradientTape.record', 'Tape is still recording, This can happen if you try to re-enter an already-active tape', 'record() inside record() of the same tape', 'one at a time', 'Use a second GradientTape for higher-order gradients.', null);
    }
    if (this.state !== 'live') this.restart();
    this.push();
    try {
      const out = fn();
      if (out instanceof Promise) {
        // The refused Promise gets a handler: its later rejection must not end the process (unhandled).
        out.then(undefined, () => undefined);
        throw typeError('GradientTape.record', 'the function returned a Promise', 'an async function', 'a synchronous one', 'Ops after an await would not be recorded; record synchronous code only.');
      }
      return out;
    } finally {
      this.pop();
    }
  }

  /** Watches tensors or variables (any nested array/object of them). */
  watch(x: unknown): void {
    for (const leaf of flattenStructure<unknown>(x, isSourceLeaf)) {
      if (leaf instanceof Variable) this.watchVariable(leaf);
      else if (leaf instanceof Tensor) this.watchTensor(leaf);
      else if (leaf instanceof NDArray) {
        throw typeError('GradientTape.watch', 'cannot watch an ndarray', 'an NDArray', 'a Tensor or Variable', 'Convert it with ef.constant(x) and watch that tensor.');
      } else asSource(leaf, 'GradientTape.watch', 'x');
    }
  }

  private watchTensor(t: Tensor): void {
    if (!isDiffDType(t.dtype)) {
      console.warn(`GradientTape.watch: The dtype of the watched tensor must be floating (got ${t.dtype}, expected float32). Its gradient will be null; cast it with ef.cast(x, 'float32') first.`);
    }
    this.watched.add(t.id);
  }

  private watchVariable(v: Variable): void {
    if (this.watched.has(v.id)) return;
    this.watched.add(v.id);
    this.variables.push(v);
  }

  /** Called by Variable reads while this tape records. */
  variableAccessed(v: Variable): void {
    if (this.watchAccessedVariables && v.trainable) this.watchVariable(v);
  }

  /** Variables watched (explicitly or by access) since the tape (re)started, in creation order. */
  watchedVariables(): Variable[] {
    return this.variables.slice().sort((a, b) => a.id - b.id);
  }

  isWatched(id: number): boolean {
    return this.watched.has(id);
  }

  recordEntry(entry: TapeEntry): void {
    this.entries.push(entry);
    const ids = entry.outputIds;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== -1) this.watched.add(ids[i]);
    const saved = entry.saved;
    for (let i = 0; i < saved.length; i++) {
      const tf = saved[i]._tf;
      if (tf === null) continue;
      backend.pin(tf);
      this.pins.handles.push(tf);
      if (!this.registered) {
        orphans.register(this, this.pins, this);
        this.registered = true;
      }
    }
  }

  /** Runs `fn` without recording on this tape (other tapes keep recording). */
  stopRecording<T>(fn: () => T): T {
    if (!this.recording) {
      throw opError(FailedPreconditionError, 'GradientTape.stopRecording', 'Trying to stop recording a tape which is not recording', 'a call outside tape.record', 'one inside it', 'Call it inside tape.record(() => ...).', null);
    }
    this.pop();
    try {
      return fn();
    } finally {
      if (!this.recording) this.push();
    }
  }

  /** Forgets everything recorded and watched so far; later ops are recorded as on a new tape. */
  reset(): void {
    this.restart();
  }

  /** Frees what the tape saved (a persistent tape keeps it until this is called). */
  dispose(): void {
    this.release();
    this.state = 'disposed';
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /**
   * d(sum of targets)/d(sources), in the structure of `sources`.
   * @example
   * const x = ef.constant(2);
   * const tape = new ef.GradientTape();
   * const y = tape.record(() => { tape.watch(x); return ef.multiply(x, x); });
   * tape.gradient([x, y], x).item(); // 5
   */
  gradient<S>(target: unknown, sources: S, options: GradientOptions = {}): GradientResult<S> {
    const api = 'GradientTape.gradient';
    this.checkUsable(api);
    const unconnected = checkUnconnected(api, options.unconnectedGradients);
    if (target === null || target === undefined) {
      throw typeError(api, `Argument \`target\` should be a Tensor, a Variable or a nested structure of them to be differentiated, but received ${String(target)}`, String(target), 'a Tensor', 'Return the value from tape.record and pass it here.');
    }
    const targets = flattenStructure<unknown>(target, isSourceLeaf).map((t) => asSource(t, api, 'target'));
    const ogs = outputGradientsOf(target, options.outputGradients);
    const leaves = flattenStructure<unknown>(sources, isSourceLeaf).map((s) => asSource(s, api, 'sources'));
    this.beforeBackward(api);
    this.variableSources = leaves.filter((l): l is Variable => l instanceof Variable);
    const grads = this.gradients(targets, ogs, leaves, unconnected);
    this.afterBackward();
    return packStructure<GradientResult<S>>(sources, grads, isSourceLeaf);
  }

  /**
   * d target / d source with shape target.shape + source.shape, for each source (any structure).
   * @example
   * const x = ef.constant([1, 2]);
   * const tape = new ef.GradientTape();
   * const y = tape.record(() => { tape.watch(x); return ef.multiply(x, x); });
   * tape.jacobian(y, x).arraySync(); // [[2, 0], [0, 4]]
   */
  jacobian<S>(target: Tensor | Variable, sources: S, options: JacobianOptions = {}): GradientResult<S> {
    const api = 'GradientTape.jacobian';
    this.checkUsable(api);
    const unconnected = checkUnconnected(api, options.unconnectedGradients);
    const t = asSource(target, api, 'target');
    const leaves = flattenStructure<unknown>(sources, isSourceLeaf).map((s) => asSource(s, api, 'sources'));
    this.beforeBackward(api);
    this.variableSources = leaves.filter((l): l is Variable => l instanceof Variable);
    const jacobians = jacobianOf(this.backward, t, leaves, unconnected);
    this.afterBackward();
    return packStructure<GradientResult<S>>(sources, jacobians, isSourceLeaf);
  }

  /** Per-example jacobians: [batch] + target.shape[1:] + source.shape[1:] (zeros when unconnected). */
  batchJacobian(target: Tensor | Variable, source: Tensor | Variable): Tensor {
    const api = 'GradientTape.batchJacobian';
    this.checkUsable(api);
    const t = asSource(target, api, 'target');
    const s = asSource(source, api, 'source');
    this.beforeBackward(api);
    this.variableSources = s instanceof Variable ? [s] : [];
    const out = batchJacobianOf(this.backward, t, s);
    this.afterBackward();
    return out;
  }

  /** Seeds, prunes and backprops once; cotangents by id, in the caller's memory scope. */
  private readonly backward = (targets: readonly Source[], seeds: readonly (Tensor | null)[], sourceIds: readonly number[]): Map<number, Tensor> => {
    const cts = new Map<number, Tensor>();
    for (let i = 0; i < targets.length; i++) {
      const seed = seeds[i];
      if (seed === null || !isDiffDType(targets[i].dtype)) continue;
      const prev = cts.get(targets[i].id);
      cts.set(targets[i].id, prev === undefined ? seed : o.add(prev, seed));
    }
    if (cts.size === 0 || this.entries.length === 0) return cts;
    backprop(revive(prune(this.widened(), cts.keys(), sourceIds)), cts, backpropOps);
    return cts;
  };

  /**
   * The entries with widening ones (a host callback recorded inside a trace, whose function may read
   * variables only known when it runs) connected to this gradient's Variable sources.
   */
  private widened(): readonly TapeEntry[] {
    const vs = this.variableSources;
    if (vs.length === 0 || !this.entries.some((e) => e.widen !== undefined)) return this.entries;
    return this.entries.map((e) => (e.widen !== undefined ? e.widen(vs) : e));
  }

  private gradients(targets: Source[], ogs: (TensorLike | null)[] | null, sources: Source[], unconnected: UnconnectedGradients): (Tensor | null)[] {
    return tidy(() => {
      const first = freshId();
      const seeds = targets.map((t, i) => (isDiffDType(t.dtype) ? seedOf(t, ogs === null ? null : ogs[i], i) : null));
      const cts = this.backward(targets, seeds, sources.map((s) => s.id));
      const given = new Set<Tensor>();
      return sources.map((s) => {
        let g = isDiffDType(s.dtype) ? cts.get(s.id) : undefined;
        if (g === undefined) return unconnected === 'zero' && isDiffDType(s.dtype) ? zerosFor(s) : null;
        // Hand out tensors the caller owns: never a pre-existing one, never the same one twice.
        if (g.id < first || given.has(g)) g = o.identity(g);
        given.add(g);
        return g;
      });
    });
  }

  private checkUsable(api: string): void {
    if (this.state === 'used') {
      throw opError(FailedPreconditionError, api, 'A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)', 'a second call', 'one', 'Create the tape with { persistent: true } to call it more than once, and dispose() it when done.', null);
    }
    if (this.state === 'disposed') {
      throw opError(FailedPreconditionError, api, 'the tape was disposed', 'a disposed GradientTape', 'a live one', 'Record again with tape.record(...) or use a new GradientTape.', null);
    }
  }

  /** TensorFlow: inside record, a non-persistent tape stops recording; a persistent one records the backward pass. */
  private beforeBackward(api: string): void {
    if (!this.recording) return;
    if (!this.persistent) this.pop();
    else if (!this.warnedInside) {
      this.warnedInside = true;
      console.warn(`${api}: called on a persistent tape inside its record(), which records the backward pass on the tape too (more time and memory). Do this only for higher-order gradients; otherwise call it after record() returns.`);
    }
  }

  /** Like TensorFlow, a non-persistent tape is consumed by a successful call (a failed one can be retried). */
  private afterBackward(): void {
    if (!this.persistent) this.consume();
  }

  private push(): void {
    this.recording = true;
    ctx.tapes = [...ctx.tapes, this];
  }

  private pop(): void {
    this.recording = false;
    ctx.tapes = ctx.tapes.filter((t) => t !== this);
  }

  private consume(): void {
    this.release();
    this.state = 'used';
  }

  private restart(): void {
    this.release();
    this.watched.clear();
    this.variables = [];
    this.state = 'live';
  }

  private release(): void {
    unpinAll(this.pins);
    if (this.registered) {
      orphans.unregister(this);
      this.registered = false;
    }
    this.entries = [];
  }
}

/** outputGradients mirrored against `target`'s structure, flattened in the same leaf order. */
function outputGradientsOf(target: unknown, og: unknown): (TensorLike | null)[] | null {
  if (og === null || og === undefined) return null;
  const out: (TensorLike | null)[] = [];
  const fail = (got: unknown, expected: string): never => {
    throw typeError('GradientTape.gradient', 'outputGradients must mirror the structure of target', describe(got), expected, 'Pass one gradient (or null) per target.');
  };
  const walk = (t: unknown, g: unknown): void => {
    if (Array.isArray(t)) {
      if (!Array.isArray(g) || g.length !== t.length) fail(g, `an array of ${t.length}`);
      t.forEach((x, i) => walk(x, (g as unknown[])[i]));
    } else if (isPlainObject(t)) {
      if (!isPlainObject(g)) fail(g, `an object with keys ${Object.keys(t).join(', ')}`);
      Object.keys(t).sort().forEach((k) => walk(t[k], (g as Record<string, unknown>)[k]));
    } else out.push(g === null || g === undefined ? null : (g as TensorLike));
  };
  walk(target, og);
  return out;
}

function seedOf(t: Source, og: TensorLike | null, i: number): Tensor {
  if (og === null) return onesFor(t);
  const seed = convert('GradientTape.gradient', og, t.dtype).t;
  const want = t instanceof Variable ? t._value.dims : t.dims;
  const have = seed.dims;
  if (want !== null && have !== null && (want.length !== have.length || want.some((d, k) => d !== null && have[k] !== null && d !== have[k]))) {
    // InvalidArgumentError (a value of the wrong shape), as when the same mismatch is found with dims known only at run time.
    throw argError('GradientTape.gradient', `outputGradients[${i}] has the wrong shape`, shapeStr(have), `${shapeStr(want)}, the shape of target ${i}`, 'Pass a gradient shaped like its target.');
  }
  return seed;
}
