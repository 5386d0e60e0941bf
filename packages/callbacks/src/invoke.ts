// Running a host function: an eager context, the arguments it receives, memory scopes, error mapping, async results.
import {
  DType, Info, Kernels, NDArray, Tensor, TapeRecorder, argError, backend, ctx, freshId, typeError,
} from '@eagerflow/core';
import { HostCallbackParams, apiOf, opNameOf } from './params';
import { HostFunction, callableOf } from './registry';
import { Produced, convertValue, splitReturn } from './outputs';
import { callbackError } from './errors';

type Saved = { builder: typeof ctx.builder; tapes: typeof ctx.tapes };

/** The callback runs eagerly (TensorFlow runs py_function bodies in eager mode) with `tapes` recording. */
export function enterEager(tapes: typeof ctx.tapes): Saved {
  const saved = { builder: ctx.builder, tapes: ctx.tapes };
  ctx.builder = null;
  ctx.tapes = tapes;
  return saved;
}

export function leave(saved: Saved): void {
  ctx.builder = saved.builder;
  ctx.tapes = saved.tapes;
}

/** The node's function, or TensorFlow's error for a token whose function is gone. */
export function functionFor(p: HostCallbackParams): HostFunction {
  const fn = callableOf(p.token);
  if (fn === undefined) {
    throw argError(
      apiOf(p), `Could not find callback with key=${p.token.token} in the registry`, 'a graph whose host function is not available', 'a registered function',
      'Host functions are not serialized: supply them when loading (registerHostFunction / hostFunctions).', opNameOf(p),
    );
  }
  return fn;
}

export function isAsyncFunction(fn: HostFunction): boolean {
  const name = fn.constructor?.name;
  return name === 'AsyncFunction' || name === 'AsyncGeneratorFunction';
}

export function isThenable(x: unknown): x is PromiseLike<unknown> {
  return x !== null && (typeof x === 'object' || typeof x === 'function') && typeof (x as { then?: unknown }).then === 'function';
}

/** Set while an NDArray-flavor callback runs with the tapes of a recording tape.record switched off. */
export const tapeContext = { recording: false };

export function promiseError(p: HostCallbackParams): TypeError {
  if (ctx.tapes.length !== 0 || tapeContext.recording) {
    // Under a recording tape calls run synchronously (even f.callAsync): awaiting would lose the recording.
    return typeError(
      apiOf(p), `the host function ${p.token.token} returned a Promise while a GradientTape is recording`, 'an async function inside tape.record', 'values',
      'A tape records synchronous code only, so a traced call inside tape.record runs its callbacks synchronously, f.callAsync included: await f.callAsync(...) outside tape.record, or use a synchronous callback where you take gradients.',
    );
  }
  return typeError(
    apiOf(p), `the host function ${p.token.token} returned a Promise in a synchronous call`, 'an async function', 'values',
    'Call the traced function with `await f.callAsync(...)`, or use `await ef.pyFunctionAsync(...)` eagerly.',
  );
}

/** Calls the function with the flavor's argument convention: contrib passes `(...args, kwargs)`. */
export function callWith(fn: HostFunction, p: HostCallbackParams, args: unknown[]): unknown {
  const f = fn as (...a: unknown[]) => unknown;
  if (p.flavor !== 'contrib') return f(...args);
  const n = p.nArgs ?? args.length;
  const kwargs: Record<string, unknown> = {};
  // Own data properties, never assignments: a key such as '__proto__' (from a file) stays a plain key.
  (p.kwargKeys ?? []).forEach((k, j) => Object.defineProperty(kwargs, k, { value: args[n + j], enumerable: true, writable: true, configurable: true }));
  return f(...args.slice(0, n), kwargs);
}

/** Whether callbacks of this flavor receive Tensors (pyFunction) rather than NDArrays. */
function takesTensors(p: HostCallbackParams): boolean {
  return p.flavor === 'pyFunction' || p.flavor === 'pyFunctionGrad';
}

/** A tracked Tensor sharing a kernel value's data (the callback may keep or dispose it). */
export function tensorOf(x: Info): Tensor {
  return new Tensor(backend.share(x), x.dtype as DType);
}

/** An NDArray over the value's host data: a zero-copy view on the cpu backend (float32 / int32). */
function ndarrayOf(x: Info): NDArray {
  return new NDArray(backend.readInfoSync(x), x.shape.slice(), x.dtype as DType);
}

function argsOf(p: HostCallbackParams, ins: readonly Info[], owned: Tensor[]): unknown[] {
  if (!takesTensors(p)) return ins.map(ndarrayOf);
  return ins.map((x) => {
    const t = tensorOf(x);
    owned.push(t);
    return t;
  });
}

/** Checks the return value and turns every output into a Produced (throws the checked errors). */
export function produce(p: HostCallbackParams, ret: unknown): Produced[] {
  const values = splitReturn(p, ret);
  const out = new Array<Produced>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = convertValue(p, i, values[i]);
  return out;
}

/** An output owned by `k`: a new handle on a returned tensor's data, or uploaded host values. */
export function handleOf(k: Kernels, x: Produced): Info {
  if (x.kind === 'tensor') {
    const tf = x.t.concrete('host_callback');
    return k === backend.engineKernels ? backend.share(tf) : (k.run('Identity', { x: tf }) as Info);
  }
  // Strings go through the engine, which encodes them (a direct backend write expects encoded bytes); complex64 is
  // built from its parts there.
  if (x.dtype === 'string' || x.dtype === 'complex64') return backend.intoKernels(k, backend.makeTf(x.data, x.shape, x.dtype));
  return k.upload(x.data, x.shape, x.dtype);
}


/** Disposes tensors in a returned value that the call created (ids at or after `first`): results nobody takes. */
function disposeCreated(ret: unknown, first: number): void {
  const visit = (v: unknown, depth: number): void => {
    if (v instanceof Tensor) {
      if (v.id >= first && !v.isSymbolic) v.dispose();
    } else if (Array.isArray(v) && depth < 4) v.forEach((x) => visit(x, depth + 1));
    else if (v !== null && typeof v === 'object' && depth < 4 && Object.getPrototypeOf(v) === Object.prototype) Object.values(v).forEach((x) => visit(x, depth + 1));
  };
  visit(ret, 0);
}

function disposeAll(ts: readonly Tensor[]): void {
  for (const t of ts) t.dispose();
}

/**
 * The primitive's impl: runs the host function on kernel values and returns outputs owned by `k`.
 * It runs inside a memory scope: every tensor it creates synchronously is freed once it has
 * returned (or its Promise settled), except the outputs. A Promise result is returned as a Promise
 * when the runner can await it (the graph executor's runAsync), and is a clear error in a
 * synchronous eager call.
 */
export function runHostCallback(k: Kernels, ins: readonly Info[], p: HostCallbackParams, canAwait = k !== backend.engineKernels, tapes: TapeRecorder[] = []): Info[] | Promise<Info[]> {
  const fn = functionFor(p);
  if (!canAwait && isAsyncFunction(fn)) throw promiseError(p);
  const owned: Tensor[] = [];
  const args = argsOf(p, ins, owned);
  const first = freshId();
  const saved = enterEager(tapes);
  backend.startScope();
  let ret: unknown;
  try {
    ret = callWith(fn, p, args);
  } catch (e) {
    backend.endScope([]);
    leave(saved);
    disposeAll(owned);
    throw callbackError(e, apiOf(p), p.token.token, opNameOf(p));
  }
  if (isThenable(ret)) {
    // The pending part may still use what the synchronous part made: keep it until the Promise settles.
    const early = backend.scopeTensors();
    backend.endScope(early);
    leave(saved);
    const later = (): void => {
      disposeAll(owned);
      for (const t of early) t.dispose();
    };
    if (!canAwait) {
      abandon(ret, later, first);
      throw promiseError(p);
    }
    return settle(ret, k, p, later, first);
  }
  return finishSync(k, p, ret, owned, saved);
}

function finishSync(k: Kernels, p: HostCallbackParams, ret: unknown, owned: Tensor[], saved: Saved): Info[] {
  let outs: Info[] = [];
  let host: Produced[] = [];
  try {
    const produced = produce(p, ret);
    outs = new Array<Info>(produced.length);
    produced.forEach((x, i) => x.kind === 'tensor' && (outs[i] = handleOf(k, x)));
    host = produced;
    const keep = k === backend.engineKernels ? outs.filter((x) => x !== undefined) : [];
    backend.endScope(keep as backend.TfTensor[]);
  } catch (e) {
    backend.endScope([]);
    outs.forEach((x) => x !== undefined && k.free(x));
    throw e;
  } finally {
    leave(saved);
    disposeAll(owned);
  }
  for (let i = 0; i < host.length; i++) if (outs[i] === undefined) outs[i] = handleOf(k, host[i]);
  return outs;
}

/** Awaits an async result (runAsync / pyFunctionAsync), then checks and converts it like a synchronous one. */
async function settle(pending: PromiseLike<unknown>, k: Kernels, p: HostCallbackParams, later: () => void, first: number): Promise<Info[]> {
  try {
    let ret: unknown;
    try {
      ret = await pending;
    } catch (e) {
      throw callbackError(e, apiOf(p), p.token.token, opNameOf(p));
    }
    const saved = enterEager([]);
    try {
      return produce(p, ret).map((x) => handleOf(k, x));
    } finally {
      leave(saved);
      disposeCreated(ret, first);
    }
  } finally {
    later();
  }
}

/** A Promise nobody will await: free what it eventually returns, then run `later` (our own cleanup). */
export function abandon(pending: PromiseLike<unknown>, later: () => void, first: number): void {
  Promise.resolve(pending).then(
    (v) => {
      disposeCreated(v, first);
      later();
    },
    () => later(),
  );
}
