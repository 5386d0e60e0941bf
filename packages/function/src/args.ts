// Arguments of traced functions: flattening, cache keys (TensorFlow's TraceType rules), signatures.
import { DType, Dims, NDArray, PathGuard, Tensor, TensorShape, TensorSpec, Variable, backend, constant, describe, flattenStructure, isPlainObject, mapStructure, typeError } from '@eagerflow/core';

/** One tensor-like leaf of a call: its static type and the value to feed (null for specs). */
export interface TensorLeaf {
  readonly dtype: DType;
  readonly shape: Dims;
  readonly value: Tensor | backend.TfTensor | NDArray | null;
  /** Human path of the argument, e.g. `x` or `args[1][0]`. */
  readonly path: string;
  /** A TensorSpec's own name (overrides the path as the graph input's name). */
  readonly name?: string;
  /** A weakly typed tensor (made from JS numbers): its placeholder is weak too, and the cache key says so. */
  readonly weak?: boolean;
}

/** The flattened view of a call's arguments. */
export interface FlatArgs {
  /** Cache key: structure, tensor types, variable aliasing, JS values by value. */
  key: string;
  /** Same as key with tensor shapes masked (groups calls for reduceRetracing). */
  shapeless: string;
  tensors: TensorLeaf[];
  variables: Variable[];
  /** Per variable leaf: the index of its variable among the call's distinct variables. */
  aliases: number[];
}

const ids = new WeakMap<object, number>();
let nextObjectId = 0;
function identity(x: object): number {
  let id = ids.get(x);
  if (id === undefined) {
    id = nextObjectId++;
    ids.set(x, id);
  }
  return id;
}

const dimsKey = (d: Dims): string => (d === null ? '*' : d.map((x) => (x === null ? '?' : x)).join(','));

/** Walks call arguments; `names` labels the top-level positions. */
export function flattenArgs(args: readonly unknown[], names: readonly string[]): FlatArgs {
  const out: FlatArgs = { key: '', shapeless: '', tensors: [], variables: [], aliases: [] };
  const key: string[] = [];
  const shapeless: string[] = [];
  let distinct = 0;
  const push = (k: string, s = k): void => {
    key.push(k);
    shapeless.push(s);
  };
  const walk = (x: unknown, path: string): void => {
    if (x instanceof Tensor) return leaf(x.dtype, x.dims, x, path, undefined, x.weak);
    if (backend.isTfTensor(x)) return leaf(x.dtype as DType, x.shape, x, path);
    if (x instanceof NDArray) return leaf(x.dtype, x.shape, x, path);
    if (x instanceof TensorSpec) return leaf(x.dtype, x.shape.dims, null, path, x.name ?? undefined);
    if (x instanceof Variable) {
      // Aliasing pattern, not identity: (x, y, z) and (z, y, x) share a key; (x, x, z) does not.
      const first = out.variables.indexOf(x);
      const alias = first === -1 ? distinct++ : out.aliases[first];
      out.aliases.push(alias);
      out.variables.push(x);
      return push(`V${x.dtype}[${dimsKey(x.shape.dims)}]#${alias}`);
    }
    if (x === null) return push('N');
    if (x === undefined) return push('U');
    switch (typeof x) {
      case 'number':
        return push(`n${Object.is(x, -0) ? '-0' : x}`);
      case 'string':
        return push(`s${JSON.stringify(x)}`);
      case 'boolean':
        return push(`b${x}`);
      case 'bigint':
        return push(`i${x}`);
    }
    if (Array.isArray(x) || isPlainObject(x)) return enter(x, path);
    if (typeof x === 'object' || typeof x === 'function') return push(`o${identity(x as object)}`);
    throw typeError('ef.trace', `cannot use ${describe(x)} as an argument (${path})`, describe(x), 'tensors, numbers, strings, booleans, arrays or objects', 'Pass one of these, or close over other values.');
  };
  // Containers are walked with an explicit stack (no recursion: deep or self-referencing arguments
  // are a clear TypeError, never a stack overflow).
  const guard = new PathGuard('ef.trace');
  const stack: { x: unknown[] | Record<string, unknown>; keys: string[] | null; next: number; path: string }[] = [];
  const enter = (x: unknown[] | Record<string, unknown>, path: string): void => {
    guard.enter(x, () => path);
    const keys = Array.isArray(x) ? null : Object.keys(x).sort();
    push(keys === null ? '[' : '{');
    stack.push({ x, keys, next: 0, path });
  };
  const drain = (): void => {
    while (stack.length !== 0) {
      const f = stack[stack.length - 1];
      const i = f.next++;
      if (f.keys === null && i < (f.x as unknown[]).length) {
        walk((f.x as unknown[])[i], `${f.path}[${i}]`);
      } else if (f.keys !== null && i < f.keys.length) {
        const k = f.keys[i];
        push(`${JSON.stringify(k)}:`);
        walk((f.x as Record<string, unknown>)[k], `${f.path}.${k}`);
      } else {
        stack.pop();
        guard.leave();
        push(f.keys === null ? ']' : '}');
      }
    }
  };
  const leaf = (dtype: DType, shape: Dims, value: TensorLeaf['value'], path: string, name?: string, weak = false): void => {
    out.tensors.push(weak ? { dtype, shape, value, path, name, weak } : { dtype, shape, value, path, name });
    const d = weak ? `${dtype}~weak` : dtype;
    push(`T${d}[${dimsKey(shape)}]`, `T${d}`);
  };
  args.forEach((a, i) => {
    walk(a, names[i] ?? `args_${i}`);
    drain();
  });
  out.key = key.join(' ');
  out.shapeless = shapeless.join(' ');
  return out;
}

/** Parameter names parsed from a function's source (best effort; `args_N` otherwise). */
export function parameterNames(fn: (...a: never[]) => unknown): string[] {
  const src = Function.prototype.toString.call(fn);
  const m = /^(?:async\s*)?(?:function\b[^(]*)?\(([^)]*)\)/.exec(src) ?? /^(?:async\s*)?([A-Za-z_$][\w$]*)\s*=>/.exec(src) ?? /^[^(]*\(([^)]*)\)/.exec(src);
  if (!m) return [];
  return m[1].split(',').map((p, i) => {
    const name = p.trim().replace(/^\.\.\./, '').split(/[=:\s]/)[0];
    return /^[A-Za-z_$][\w$]*$/.test(name) ? name : `args_${i}`;
  });
}

/**
 * Rebuilds the argument structure, replacing leaves in flattenArgs order (object keys sorted):
 * tensor-like leaves from `tensors`, variables from `vars`. Objects keep their own key order.
 */
export function rebuildArgs(args: readonly unknown[], tensors: readonly unknown[], vars: readonly unknown[]): unknown[] {
  let t = 0;
  let v = 0;
  const isLeaf = (x: unknown): boolean => x instanceof Tensor || backend.isTfTensor(x) || x instanceof NDArray || x instanceof TensorSpec || x instanceof Variable;
  const fill = (x: unknown): unknown => (x instanceof Variable ? vars[v++] : isLeaf(x) ? tensors[t++] : x);
  return args.map((a) => mapStructure(a, isLeaf, fill, 'ef.trace'));
}

/** Flattens an input signature (nested arrays of TensorSpec), checking it is one. */
export function flattenSignature(sig: unknown, api: string): TensorSpec[] {
  if (!Array.isArray(sig)) {
    throw typeError(api, 'inputSignature must be an array of TensorSpec', describe(sig), 'an array', "Pass e.g. [new ef.TensorSpec([null], 'float32')].");
  }
  const leaves = flattenStructure<unknown>(sig, (x) => !Array.isArray(x), api);
  const bad = leaves.findIndex((x) => !(x instanceof TensorSpec));
  if (bad !== -1) {
    throw typeError(api, 'inputSignature must be a possibly nested array of TensorSpec', `${describe(leaves[bad])} inside it`, 'TensorSpec leaves', 'Use ef.TensorSpec for every tensor argument.');
  }
  return leaves as TensorSpec[];
}

/** The signature's text, e.g. `[TensorSpec(shape=(None,), dtype=float32, name=None)]`. */
function signatureString(sig: readonly unknown[]): string {
  const s = (x: unknown): string => (Array.isArray(x) ? `[${x.map(s).join(', ')}]` : String(x));
  return s(sig);
}

/** Converts call arguments to an input signature; a TypeError naming the argument otherwise (nothing leaks). */
export function conformToSignature(api: string, sig: readonly unknown[], args: readonly unknown[], names: readonly string[]): { values: Tensor[]; temps: Tensor[] } {
  if (args.length > sig.length) {
    throw typeError(api, `too many positional arguments for inputSignature ${signatureString(sig)}`, String(args.length), String(sig.length), 'Pass one argument per signature entry.');
  }
  if (args.length < sig.length) {
    const missing = names[args.length] ?? `args_${args.length}`;
    throw typeError(api, `missing a required argument: '${missing}'`, `${args.length} arguments`, `${sig.length} for inputSignature ${signatureString(sig)}`, 'Pass one argument per signature entry.');
  }
  const values: Tensor[] = [];
  const temps: Tensor[] = [];
  const walk = (spec: unknown, x: unknown, path: string): void => {
    if (Array.isArray(spec)) {
      if (!Array.isArray(x) || x.length !== spec.length) {
        throw typeError(api, `argument '${path}' does not match the nested structure of inputSignature ${signatureString(sig)}`, describe(x), `an array of ${spec.length}`, 'Pass an array with one entry per nested spec.');
      }
      spec.forEach((s, i) => walk(s, x[i], `${path}[${i}]`));
      return;
    }
    values.push(conform(api, spec as TensorSpec, x, path, sig, temps));
  };
  try {
    sig.forEach((s, i) => walk(s, args[i], names[i] ?? `args_${i}`));
  } catch (e) {
    temps.forEach((t) => t.dispose());
    throw e;
  }
  return { values, temps };
}

function conform(api: string, spec: TensorSpec, x: unknown, path: string, sig: readonly unknown[], temps: Tensor[]): Tensor {
  const fail = (why: string, got: string, cause?: unknown): TypeError =>
    typeError(api, `argument '${path}' is incompatible with inputSignature ${signatureString(sig)}: ${why}`, got, spec.toString(), 'Pass a value matching the spec, or change the signature.', cause);
  let t: Tensor;
  if (x instanceof Tensor || backend.isTfTensor(x)) {
    t = x instanceof Tensor ? x : Tensor.fromTf(x);
  } else if (x instanceof Variable) {
    t = x.value();
    temps.push(t);
  } else {
    try {
      t = constant(x as Parameters<typeof constant>[0], spec.dtype);
    } catch (e) {
      throw fail(`cannot convert ${preview(x)} to a ${spec.dtype} tensor`, preview(x), e);
    }
    temps.push(t);
  }
  if (t.dtype !== spec.dtype) {
    throw fail(`Tensor conversion requested dtype ${spec.dtype} for Tensor with dtype ${t.dtype}`, `a ${t.dtype} tensor of shape ${t.shape.toString()}`);
  }
  if (!t.shape.isCompatibleWith(spec.shape)) {
    throw fail(`Can not cast shape ${t.shape.toString()} to ${spec.shape.toString()}`, `a tensor of shape ${t.shape.toString()}`);
  }
  return t;
}

/** A short printable form of a JS value for messages: `[["a"]]`, `3`, or its kind. */
function preview(x: unknown): string {
  try {
    const s = JSON.stringify(x);
    if (typeof s === 'string') return s.length > 60 ? `${s.slice(0, 57)}...` : s;
  } catch {
    /* not JSON-able: described below */
  }
  return describe(x);
}

/**
 * getConcreteFunction on a function with an inputSignature: the given specs or tensors must be
 * subtypes of the signature (same dtype; every dim the signature fixes, fixed to the same value).
 */
export function checkAgainstSignature(api: string, sig: readonly unknown[], given: FlatArgs, sigFlat: FlatArgs): void {
  const fail = (why: string, got: string): TypeError =>
    typeError(api, why, got, `arguments matching inputSignature ${signatureString(sig)}`, 'Pass specs or tensors compatible with the signature, or no arguments.');
  if (given.tensors.length !== sigFlat.tensors.length || given.variables.length > 0) {
    throw fail('the arguments do not have the structure of the signature', `${given.tensors.length} tensor and ${given.variables.length} variable arguments`);
  }
  given.tensors.forEach((leaf, i) => {
    const want = sigFlat.tensors[i];
    const have = leaf.shape;
    const fits = want.shape === null || (have !== null && have.length === want.shape.length && want.shape.every((d, k) => d === null || d === have[k]));
    if (leaf.dtype !== want.dtype || !fits) {
      const got = `${leaf.dtype} ${new TensorShape(have).toString()}`;
      throw fail(`argument '${leaf.path}' was expected to be of type ${want.dtype} ${new TensorShape(want.shape).toString()} but is ${got}`, got);
    }
  });
}

