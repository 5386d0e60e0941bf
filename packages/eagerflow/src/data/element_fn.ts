// map/filter functions traced once with the element spec as input signature; sequential and parallel map.
import { ConcreteFunction, trace } from '@eagerflow/function';
import { Tensor, TensorSpec, UnknownError, argError, constant, describe, isPlainObject, opError, typeError } from '@eagerflow/core';
import { DONE, Iter, item, iter, syncIter } from './iter';
import { Element, ElementSpec, argsOf, disposeElement, leaves, mapLeaves, pack, specLeaves, specString } from './structure';

const ASYNC_CAPABLE = new Set(['host_callback', 'cond', 'while']);

/** A user function over elements, traced once: its body runs at construction, callbacks per element. */
export class ElementFn {
  readonly cf: ConcreteFunction;
  readonly outputSpec: ElementSpec;
  /** Whether calls go through the async executor (host callbacks may return Promises). */
  readonly async: boolean;

  constructor(readonly api: string, fn: (...args: never[]) => unknown, inputSpec: ElementSpec, forceAsync: boolean) {
    const ins = specLeaves(inputSpec);
    if (ins.some((s) => !(s instanceof TensorSpec))) {
      throw typeError(api, 'the elements are datasets', specString(inputSpec), 'tensors', 'Use flatMap or interleave over windows.');
    }
    const wrapper = (...xs: Tensor[]): unknown => normalizeOutput(api, (fn as (...a: unknown[]) => unknown)(...argsOf(pack(inputSpec, xs))));
    const name = fn.name && fn.name !== 'anonymous' ? fn.name : api.replace(/\W/g, '_');
    this.cf = trace(wrapper, { inputSignature: ins, name }).getConcreteFunction();
    this.outputSpec = mapLeaves<ElementSpec>(this.cf.structuredOutputs, (t) => new TensorSpec((t as Tensor).dims, (t as Tensor).dtype));
    // Callbacks may be async (pyFunction with an async function); cond/while bodies may hold some too.
    this.async = forceAsync || this.cf.graph.operations.some((op) => ASYNC_CAPABLE.has(op.type));
  }

  /** Calls on an element; `consume`: the input is disposed after the call. The output is the caller's. */
  call(el: Element, consume = true): Element | Promise<Element> {
    const xs = leaves(el);
    const done = (): void => (consume ? disposeElement(xs) : undefined);
    if (!this.async) {
      try {
        return this.cf.callFlat(xs, []) as Element;
      } finally {
        done();
      }
    }
    return (this.cf.callFlatAsync(xs, []) as Promise<Element>).finally(done);
  }
}

/** Tensors stay; numbers, booleans, strings and nested arrays of them become constants (as in TF). */
function normalizeOutput(api: string, out: unknown): unknown {
  if (out instanceof Tensor) return out;
  if (Array.isArray(out) && out.some((v) => v instanceof Tensor || Array.isArray(v) || isPlainObject(v))) return out.map((v) => normalizeOutput(api, v));
  if (isPlainObject(out)) return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, normalizeOutput(api, v)]));
  if (typeof out === 'number' || typeof out === 'boolean' || typeof out === 'string' || Array.isArray(out)) return constant(out as never);
  if (typeof out === 'object' && out !== null && ['indices', 'values', 'denseShape'].every((k) => (out as Record<string, unknown>)[k] instanceof Tensor)) {
    throw typeError(api, 'dataset elements cannot be SparseTensors yet', 'an ef.SparseTensor', 'dense tensors', 'Densify inside the function with ef.sparse.toDense(sp), or parse with FixedLenFeature / FixedLenSequenceFeature({allowMissing: true}).');
  }
  throw typeError(api, 'the function must return tensors or nested arrays/objects of tensors', describe(out), 'a Tensor or a structure of them', 'Return ef.Tensor values.');
}

/** map with numParallelCalls = 1: one element at a time. */
export function sequentialMap(up: Iter, fn: ElementFn): Iter {
  const upSync = up.nextSync;
  if (upSync !== undefined && !fn.async) {
    return syncIter(() => {
      const r = upSync();
      return r.done ? DONE : item(fn.call(r.value) as Element);
    }, () => up.close());
  }
  return iter(
    async () => {
      const r = await up.next();
      return r.done ? DONE : item(await fn.call(r.value));
    },
    () => up.close(),
  );
}

interface Slot {
  settled: Promise<Slot>;
  value?: Element;
  error?: unknown;
}

/**
 * map with up to `parallel` calls in flight (async callbacks overlap). Deterministic: results in
 * input order; otherwise the first finished goes first. Closing waits for in-flight calls and frees them.
 */
export function parallelMap(up: Iter, fn: ElementFn, parallel: number, deterministic: boolean): Iter {
  const slots: Slot[] = [];
  let upstreamDone = false;
  const start = (el: Element): Slot => {
    const slot: Slot = { settled: null as unknown as Promise<Slot> };
    slot.settled = Promise.resolve()
      .then(() => fn.call(el))
      .then((v) => void (slot.value = v), (e) => void (slot.error = e ?? opError(UnknownError, 'Dataset.map', 'the map function failed without an error', String(e), 'an Error to reject with', 'Throw an Error from the map function')))
      .then(() => slot);
    return slot;
  };
  const fill = async (): Promise<void> => {
    while (!upstreamDone && slots.length < parallel) {
      const r = await up.next();
      if (r.done) upstreamDone = true;
      else slots.push(start(r.value));
    }
  };
  return iter(
    async () => {
      await fill();
      if (slots.length === 0) return DONE;
      const slot = deterministic ? await slots[0].settled : await Promise.race(slots.map((s) => s.settled));
      slots.splice(slots.indexOf(slot), 1);
      if (slot.error !== undefined) throw slot.error;
      return item(slot.value as Element);
    },
    async () => {
      const pending = slots.splice(0);
      for (const s of await Promise.all(pending.map((p) => p.settled))) if (s.value !== undefined) disposeElement(s.value);
      await up.close();
    },
  );
}

/** filter: keeps elements whose traced predicate gives true (a bool scalar, checked at construction). */
export function filterIter(up: Iter, pred: ElementFn): Iter {
  return iter(
    async () => {
      for (;;) {
        const r = await up.next();
        if (r.done) return DONE;
        let out: Element;
        try {
          out = await pred.call(r.value, false);
        } catch (e) {
          disposeElement(r.value);
          throw e;
        }
        const t = out as Tensor;
        if (t.rank !== 0) {
          // A predicate of unknown static shape (a callback's bool) is checked here, as TF does at run time.
          const got = t.shape.toString();
          t.dispose();
          disposeElement(r.value);
          throw argError('Dataset.filter', 'the predicate must return a scalar bool', `a bool tensor of shape ${got}`, 'shape ()', 'Return one bool per element, e.g. ef.reduceAll(...)');
        }
        const keep = t.item() as boolean;
        t.dispose();
        if (keep) return item(r.value);
        disposeElement(r.value);
      }
    },
    () => up.close(),
  );
}

