// The tape as plain data plus two pure functions: prune (keep the path) and backprop (accumulate).
import type { Params, VjpRule } from '../ops/primitive';
import type { Tensor } from '../values/tensor';
import type { Variable } from '../values/variable';
import { InternalError } from '../errors/errors';
import { opError } from '../errors/error_toolkit';

/**
 * One recorded operation. Ids connect entries (tensor ids, or a variable's id for its reads);
 * `vjp(cts, inputs, outputs, params)` maps output cotangents (null = zero) to input cotangents.
 */
export interface TapeEntry {
  readonly name: string;
  readonly inputIds: readonly number[];
  /** One id per output; -1 marks an output that cannot carry a gradient (integer, bool, string). */
  readonly outputIds: readonly number[];
  /** What the vjp receives as its inputs (a variable read has none). */
  readonly inputs: readonly Tensor[];
  readonly outputs: readonly Tensor[];
  /** One tensor per input id whose (static or dynamic) shape an input cotangent must have. */
  readonly likes: readonly Tensor[];
  /** The tensors among inputs/outputs whose values the vjp reads: the tape keeps their data alive. */
  readonly saved: readonly Tensor[];
  readonly params: Params;
  readonly vjp: VjpRule<Params>;
  /**
   * For an operation whose function may read Variables that are only known when it runs (a host
   * callback recorded inside a trace): the entry connected to a gradient's Variable sources.
   */
  readonly widen?: (variables: readonly Variable[]) => TapeEntry;
}

/** The entries on a path from some source to some target, and which ids need a cotangent. */
export interface Pruned {
  readonly entries: readonly TapeEntry[];
  /** Ids reachable from the sources: only their cotangents matter (vjps may skip the others). */
  readonly needed: ReadonlySet<number>;
}

/** Keeps only entries on a path from some source to some target, in recording order. */
export function prune(entries: readonly TapeEntry[], targetIds: Iterable<number>, sourceIds: Iterable<number>): Pruned {
  const reached = new Set<number>(sourceIds);
  const forward: boolean[] = new Array<boolean>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const hit = e.inputIds.some((id) => reached.has(id));
    forward[i] = hit;
    if (hit) for (const id of e.outputIds) if (id !== -1) reached.add(id);
  }
  const wanted = new Set<number>(targetIds);
  const kept: TapeEntry[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (forward[i] && e.outputIds.some((id) => wanted.has(id))) {
      kept.push(e);
      for (const id of e.inputIds) wanted.add(id);
    }
  }
  return { entries: kept.reverse(), needed: reached };
}

/** Arithmetic the backward pass needs, injected so this module stays pure data-flow. */
export interface BackpropOps {
  add(a: Tensor, b: Tensor): Tensor;
  /** Sums a cotangent down to `like`'s shape (or throws naming `what` when it cannot). */
  unbroadcast(ct: Tensor, like: Tensor, what: string): Tensor;
}

/**
 * Reverse-mode accumulation over pruned entries: the one place where cotangents are unbroadcast
 * and summed. Each vjp is told which inputs need a cotangent; the others are never accumulated. `cts` holds the seeds (target id -> cotangent) and receives every accumulated
 * cotangent; the caller reads the sources'. Intermediates are freed by the caller's memory scope,
 * never here (a vjp may return the very tensor it was given).
 */
export function backprop(pruned: Pruned, cts: Map<number, Tensor>, ops: BackpropOps): void {
  const { entries, needed } = pruned;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    const outCts = outputCotangents(e, cts);
    if (outCts === null) continue;
    const mask = neededMask(e.inputIds, needed);
    const inCts = e.vjp(outCts, e.inputs as Tensor[], e.outputs as Tensor[], e.params, mask);
    const n = e.inputIds.length;
    if (!Array.isArray(inCts) || inCts.length !== n) {
      const got = Array.isArray(inCts) ? inCts.length : 'a non-array';
      const which = Array.isArray(inCts) && inCts.length < n ? 'too few' : 'too many';
      // TensorFlow raises InternalError('<OpName> ... too few gradients') here.
      throw opError(InternalError, 'GradientTape.gradient', `the gradient of ${e.name} returned ${which} gradients`, `${got}`, `${n}, one per input`, 'Return one gradient (or null) per input.', e.name);
    }
    for (let j = 0; j < n; j++) {
      const raw = inCts[j];
      if (raw === null || raw === undefined || !mask[j]) continue;
      const ct = ops.unbroadcast(raw, e.likes[j], `the gradient of ${e.name} for input ${j}`);
      const id = e.inputIds[j];
      const prev = cts.get(id);
      cts.set(id, prev === undefined ? ct : ops.add(prev, ct));
    }
  }
}

const allNeeded: boolean[][] = [];

/** Which inputs need a cotangent (a shared all-true array in the common case: no allocation). */
function neededMask(ids: readonly number[], needed: ReadonlySet<number>): readonly boolean[] {
  let mask: boolean[] | null = null;
  for (let j = 0; j < ids.length; j++) {
    if (needed.has(ids[j])) continue;
    mask ??= new Array<boolean>(ids.length).fill(true);
    mask[j] = false;
  }
  return mask ?? (allNeeded[ids.length] ??= new Array<boolean>(ids.length).fill(true));
}

/** The entry's output cotangents (null where none arrived), or null when none arrived at all. */
function outputCotangents(e: TapeEntry, cts: Map<number, Tensor>): (Tensor | null)[] | null {
  let out: (Tensor | null)[] | null = null;
  const ids = e.outputIds;
  for (let k = 0; k < ids.length; k++) {
    const ct = ids[k] === -1 ? undefined : cts.get(ids[k]);
    if (ct === undefined) continue;
    if (out === null) out = new Array<Tensor | null>(ids.length).fill(null);
    out[k] = ct;
  }
  return out;
}
