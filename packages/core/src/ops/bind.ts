// One bind for every primitive: the eager or tracing interpreter runs it, then active tapes record it.
import { DType } from '../values/dtype';
import type { AVal, Params, Primitive, VjpRule } from './primitive';
import type { TapeEntry } from '../autodiff/tape';
import { Tensor } from '../values/tensor';
import { engineKernels, Info, TfTensor } from '../backend/backend';
import { withOp } from '../errors/error_toolkit';
import { toOpError } from '../errors/errors';

/** The tracing interpreter (implemented by @eagerflow/function). */
export interface TraceBuilder {
  readonly alive: boolean;
  readonly name: string;
  add(prim: Primitive, inputs: Tensor[], params: Params): Tensor[];
}

/** What bind needs from a recording tape (implemented by GradientTape). */
export interface TapeRecorder {
  /** Whether ops reading the tensor (or variable) with this id are recorded. */
  isWatched(id: number): boolean;
  /** Stores the entry, watches its outputs and keeps its saved tensors alive. */
  recordEntry(entry: TapeEntry): void;
}

/** The interpreter context: which builder traces, which tapes record. */
export const ctx = {
  builder: null as TraceBuilder | null,
  tapes: [] as TapeRecorder[],
};

/** Tape-only sources a primitive reads besides its tensor inputs (variables). */
export interface SourcesOf {
  sourceIds?(params: Params): number[];
}

/** Runs a primitive in the current context and returns its outputs. */
export function bind(prim: Primitive, inputs: Tensor[], params: Params): Tensor[] {
  const b = ctx.builder;
  const outs = b !== null ? b.add(prim, inputs, params) : evalEager(prim, inputs, params);
  if (inputs.length !== 0 && inputs[0].weak) markWeakOutputs(inputs, outs);
  if (ctx.tapes.length !== 0) recordOnTapes(prim, inputs, params, outs);
  return outs;
}

/** Marks float32 outputs weak when every input is weak (JS numbers' weak types: ops on weak tensors alone stay weak). */
function markWeakOutputs(inputs: readonly Tensor[], outs: readonly Tensor[]): void {
  for (let i = 1; i < inputs.length; i++) if (!inputs[i].weak) return;
  for (let i = 0; i < outs.length; i++) if (outs[i].dtype === 'float32') outs[i].weak = true;
}

/** Static facts of a tensor. */
export function avalOf(t: Tensor): AVal {
  return { dtype: t.dtype, shape: t.dims };
}

/** The eager interpreter: check shapes/dtypes with the record's rule, then run its kernel. */
export function evalEager(prim: Primitive, inputs: Tensor[], params: Params): Tensor[] {
  const avals = new Array<AVal>(inputs.length);
  const infos = new Array<Info>(inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    const t = inputs[i];
    infos[i] = t.concrete(prim.name);
    avals[i] = { dtype: t.dtype, shape: (infos[i] as TfTensor).shape };
  }
  const outAvals = prim.infer(avals, params);
  let results: Info[];
  try {
    results = prim.impl(engineKernels, infos, params);
  } catch (e) {
    throw withOp(toOpError(e, prim.name), prim.name); // a kernel missing on this backend is named after the op
  }
  const outs = new Array<Tensor>(results.length);
  for (let i = 0; i < results.length; i++) {
    outs[i] = new Tensor(results[i] as TfTensor, outAvals[i].dtype as DType);
  }
  return outs;
}

const differentiable = (dtype: DType): boolean => dtype === 'float32' || dtype === 'complex64';

/** True when some tape records an op reading `inputs` (or the variable ids `ids`). */
function watchedBy(tape: TapeRecorder, inputs: readonly Tensor[], ids: readonly number[] | undefined): boolean {
  if (ids !== undefined) {
    for (let i = 0; i < ids.length; i++) if (tape.isWatched(ids[i])) return true;
    return false;
  }
  for (let i = 0; i < inputs.length; i++) if (tape.isWatched(inputs[i].id)) return true;
  return false;
}

/** One entry shared by every tape that watches an input; it keeps `inputs` and `outs` (callers must not mutate them). */
function recordOnTapes(prim: Primitive, inputs: Tensor[], params: Params, outs: Tensor[]): void {
  const rule = prim.vjp;
  if (rule === null) return;
  const ids = (prim as SourcesOf).sourceIds?.(params);
  const tapes = ctx.tapes;
  let entry: TapeEntry | null = null;
  for (let k = 0; k < tapes.length; k++) {
    if (!watchedBy(tapes[k], inputs, ids)) continue;
    entry ??= {
      name: prim.name,
      inputIds: ids ?? idsOf(inputs),
      outputIds: outputIdsOf(outs),
      inputs,
      outputs: outs,
      // A variable read has no tensor input: its cotangent takes the shape of the value read.
      likes: ids === undefined ? inputs : outs,
      saved: savedOf(prim, inputs, outs),
      params,
      vjp: rule,
    };
    tapes[k].recordEntry(entry);
  }
}

/**
 * Records an operation on every active tape that watches one of its inputs (TensorFlow's
 * `record_operation`): customGradient and host callbacks use it to give outputs a gradient rule.
 */
export function recordOperation(name: string, inputs: Tensor[], outputs: Tensor[], vjp: VjpRule<Params>, saved: Tensor[] = []): void {
  const tapes = ctx.tapes;
  let entry: TapeEntry | null = null;
  for (let k = 0; k < tapes.length; k++) {
    if (!watchedBy(tapes[k], inputs, undefined)) continue;
    entry ??= { name, inputIds: idsOf(inputs), outputIds: outputIdsOf(outputs), inputs, outputs, likes: inputs, saved, params: NO_PARAMS, vjp };
    tapes[k].recordEntry(entry);
  }
}

const NO_PARAMS: Params = {};

function idsOf(ts: readonly Tensor[]): number[] {
  const ids = new Array<number>(ts.length);
  for (let i = 0; i < ts.length; i++) ids[i] = ts[i].id;
  return ids;
}

function outputIdsOf(outs: readonly Tensor[]): number[] {
  const ids = new Array<number>(outs.length);
  for (let i = 0; i < outs.length; i++) ids[i] = differentiable(outs[i].dtype) ? outs[i].id : -1;
  return ids;
}

function savedOf(prim: Primitive, inputs: Tensor[], outs: Tensor[]): Tensor[] {
  switch (prim.saves) {
    case 'none':
      return NOTHING;
    case 'inputs':
      return inputs;
    case 'sizes':
      return inputs.length > 1 ? inputs.slice(1) : NOTHING;
    case 'outputs':
      return outs;
    case 'both':
      return inputs.concat(outs);
  }
}

const NOTHING: Tensor[] = [];

/** Runs `fn` with no tape recording (stopGradient-style regions, custom gradients' forward). */
export function withoutTapes<T>(fn: () => T): T {
  const saved = ctx.tapes;
  ctx.tapes = [];
  try {
    return fn();
  } finally {
    ctx.tapes = saved;
  }
}
