// Dataset elements: nested tuples/dicts of Tensors, their TensorSpecs, host copies and clear errors.
import {
  DType, argError, contextError, NDArray, OpError, Tensor, TensorSpec, UnknownError, constant, describe, flattenStructure, identity,
  isPlainObject, packStructure, typeError,
} from '@eagerflow/core';

/** A dataset element: a Tensor, or arrays (tuples) and plain objects (dicts) of elements. */
export type Element = Tensor | Element[] | { [k: string]: Element };
/** The matching structure of TensorSpecs (window datasets have DatasetSpec leaves). */
export type ElementSpec = TensorSpec | DatasetSpec | ElementSpec[] | { [k: string]: ElementSpec };

/**
 * TF's tf.data.INFINITE_CARDINALITY.
 * @example
 * ef.data.Dataset.range(3).repeat().cardinality() === ef.data.INFINITE_CARDINALITY; // true
 */
export const INFINITE_CARDINALITY = -1;
/**
 * TF's tf.data.UNKNOWN_CARDINALITY.
 * @example
 * ef.data.Dataset.range(3).filter((x: ef.Tensor) => ef.less(x, 2)).cardinality(); // -2
 */
export const UNKNOWN_CARDINALITY = -2;
/**
 * tf.data.AUTOTUNE: let the runtime choose a buffer size or parallelism.
 * @example
 * ef.data.Dataset.range(3).prefetch(ef.data.AUTOTUNE).cardinality(); // 3
 */
export const AUTOTUNE = -1;

/**
 * The spec of an element that is itself a dataset (what `window` yields).
 * @example
 * String(ef.data.Dataset.range(4).window(2).elementSpec); // 'DatasetSpec(TensorSpec(shape=(), dtype=tf.int32, name=None))'
 */
export class DatasetSpec {
  constructor(readonly elementSpec: ElementSpec) {}
  /** `DatasetSpec(<element spec>)`, as TensorFlow prints it. */
  toString(): string {
    return `DatasetSpec(${specString(this.elementSpec)})`;
  }
}

const isTensor = (x: unknown): boolean => x instanceof Tensor;
const isSpecLeaf = (x: unknown): boolean => x instanceof TensorSpec || x instanceof DatasetSpec;

/** The tensors of an element (other leaves, such as window datasets, are skipped). */
export function leaves(el: unknown): Tensor[] {
  // A lone tensor is the common element (range, map over scalars): no structure walk.
  if (el instanceof Tensor) return [el];
  return flattenStructure<unknown>(el, isTensor).filter(isTensor) as Tensor[];
}

export function specLeaves(spec: ElementSpec): (TensorSpec | DatasetSpec)[] {
  return flattenStructure<TensorSpec | DatasetSpec>(spec, isSpecLeaf);
}

export function pack<T>(template: unknown, values: readonly unknown[]): T {
  return packStructure<T>(template, values, (x) => isSpecLeaf(x) || isTensor(x));
}

/** Maps every leaf of a structure (tensors or specs), keeping the structure. */
export function mapLeaves<T>(s: unknown, fn: (leaf: unknown, i: number) => unknown): T {
  const ls = flattenStructure<unknown>(s, (x) => isSpecLeaf(x) || isTensor(x));
  return pack<T>(s, ls.map(fn));
}

export function specOf(el: unknown): ElementSpec {
  return mapLeaves<ElementSpec>(el, (t) => (t instanceof Tensor ? new TensorSpec(t.dims, t.dtype) : t));
}

export function disposeElement(el: unknown): void {
  if (el instanceof Tensor) return el.dispose();
  for (const t of leaves(el)) t.dispose();
}

/** A copy the consumer owns (tensors share data; disposing one never frees the other). */
export function cloneElement(el: unknown): Element {
  return mapLeaves<Element>(el, (t) => identity(t as Tensor));
}

/** Host values: scalars as JS values, other tensors as NDArrays (what asNumpyIterator yields). */
export function toHost(el: unknown): unknown {
  return mapLeaves<unknown>(el, (t) => {
    if (!(t instanceof Tensor)) return t;
    return t.rank === 0 ? t.item() : t.numpy();
  });
}

/** The arguments a map/filter function receives: a tuple's parts, or the element itself. */
export function argsOf(el: unknown): unknown[] {
  return Array.isArray(el) ? el : [el];
}

export function specString(spec: unknown): string {
  if (Array.isArray(spec)) return `(${spec.map(specString).join(', ')})`;
  if (isPlainObject(spec)) return `{${Object.keys(spec).map((k) => `'${k}': ${specString(spec[k])}`).join(', ')}}`;
  return String(spec);
}

/** Converts a structure of values (tensors, numbers, arrays, NDArrays) to an element; `dtypes` from a spec. */
export function toElement(api: string, value: unknown, spec?: ElementSpec): Element {
  if (value instanceof Tensor) return identity(value);
  if (spec instanceof TensorSpec || spec === undefined) {
    if (Array.isArray(value) && spec === undefined && value.some((v) => v instanceof Tensor || v instanceof NDArray || isPlainObject(v))) return value.map((v) => toElement(api, v));
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toElement(api, v)]));
    return constant(value as never, spec?.dtype as DType | undefined);
  }
  if (Array.isArray(spec) && Array.isArray(value) && spec.length === value.length) return value.map((v, i) => toElement(api, v, spec[i]));
  if (isPlainObject(spec) && isPlainObject(value) && sameKeys(spec, value)) {
    return Object.fromEntries(Object.keys(spec).map((k) => [k, toElement(api, value[k], (spec as Record<string, ElementSpec>)[k])]));
  }
  throw typeError(api, 'a value does not match the structure of the signature', describe(value), specString(spec), `Yield values with the signature's structure.`);
}

function sameKeys(a: object, b: object): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

/** Checks an element against a spec: same structure, dtypes and compatible shapes. */
export function checkElement(api: string, el: Element, spec: ElementSpec): void {
  const ls = leaves(el);
  const ss = specLeaves(spec);
  if (ls.length !== ss.length) {
    throw argError(api, 'an element does not match the element spec', specString(specOf(el)), specString(spec), 'Produce elements of the declared structure.');
  }
  ls.forEach((t, i) => {
    const s = ss[i] as TensorSpec;
    if (!s.isCompatibleWith(t)) {
      throw argError(api, `component ${i} does not match the element spec`, `${new TensorSpec(t.dims, t.dtype)}`, `${s}`, 'Fix the values or the signature.');
    }
  });
}

/** The most specific spec compatible with both (differing dims become null), or null when structures or dtypes differ. */
export function commonSpec(a: ElementSpec, b: ElementSpec): ElementSpec | null {
  const la = specLeaves(a);
  const lb = specLeaves(b);
  if (la.length !== lb.length || specString(mapLeaves(a, () => 0)) !== specString(mapLeaves(b, () => 0))) return null;
  const out: (TensorSpec | DatasetSpec)[] = [];
  for (let i = 0; i < la.length; i++) {
    const [x, y] = [la[i], lb[i]];
    if (!(x instanceof TensorSpec) || !(y instanceof TensorSpec) || x.dtype !== y.dtype) return null;
    out.push(new TensorSpec(x.shape.mostSpecificCommonSupertype(y.shape).dims, x.dtype));
  }
  return pack<ElementSpec>(a, out);
}

/** Rewraps a failure inside a transformation: the class of an OpError is kept, the cause is the original. */
export function wrapError(where: string, e: unknown): Error {
  // Already named by the transformation where it happened: downstream stages pass it on unchanged.
  if (typeof e === 'object' && e !== null && wrapped.has(e)) return e as Error;
  if (e instanceof OpError && e.message.startsWith(`${where}:`)) return (wrapped.add(e), e);
  const err = contextError(where, e, where, e instanceof OpError ? undefined : UnknownError);
  wrapped.add(err);
  return err;
}

const wrapped = new WeakSet<object>();

/** Validates a count argument at construction: an integer >= min (or -1 when allowed). */
export function checkCount(api: string, what: string, n: unknown, min: number, allowMinusOne = false): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || (n < min && !(allowMinusOne && n === -1))) {
    throw argError(api, `${what} must be an integer >= ${min}${allowMinusOne ? ' (or -1)' : ''}`, describe(n), `an integer >= ${min}`, `Pass a valid ${what}.`);
  }
  return n;
}

export function checkFunction(api: string, fn: unknown): void {
  if (typeof fn !== 'function') {
    throw typeError(api, 'the function argument is not callable', describe(fn), 'a function', `Pass a function of the element's components.`);
  }
}

/** Tensors datasets create while `fn` runs (flatMap/interleave free them when the inner dataset is done). */
const collectors: Tensor[][] = [];

export function collectOwned<T>(fn: () => T): [T, Tensor[]] {
  const got: Tensor[] = [];
  collectors.push(got);
  try {
    return [fn(), got];
  } catch (e) {
    got.forEach((t) => t.dispose());
    throw e;
  } finally {
    collectors.pop();
  }
}

/** Tensors a dataset holds (source copies, cached elements), freed when no dataset uses them any more. */
const finalizer = typeof FinalizationRegistry !== 'undefined' ? new FinalizationRegistry<Tensor[]>((ts) => ts.forEach((t) => t.dispose())) : null;

export function releaseWhenCollected(owner: object, tensors: Tensor[]): void {
  finalizer?.register(owner, tensors);
}

/** Registers tensors a dataset source owns with the innermost collector, if any. */
export function registerOwned(ts: readonly Tensor[]): void {
  collectors[collectors.length - 1]?.push(...ts);
}

