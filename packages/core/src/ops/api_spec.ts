// Public API declarations on records: argument markers, typed signatures, and the one generic wrapper builder.
import { DType, asDType, describe } from '../values/dtype';
import type { Tensor } from '../values/tensor';
import type { TensorLike } from '../values/convert';
import { argError } from './check';
import { ShapeLike, dimsOf, isTensorShapeArg } from '../values/shape_arg';

/**
 * One argument of a public op: a tensor (converted, then an input of the record) or a param
 * (checked and normalized into the record's params under `param`). `T` is its TypeScript type.
 */
export interface Arg<T = unknown, N extends string = string, Opt extends boolean = boolean> {
  readonly name: N;
  readonly kind: 'tensor' | 'tensors' | 'param';
  readonly optional: Opt;
  readonly default?: unknown;
  /** The params key (default: `name`). */
  readonly param?: string;
  /** Tensor args: the dtype JS values convert to; 'peer' takes it from another tensor argument. */
  readonly hint?: DType | 'peer' | null;
  /** Param args: validates and normalizes a value (`op` names the public op in errors). */
  readonly check?: (op: string, v: unknown) => unknown;
  /** Phantom: the argument's TypeScript type. */
  readonly _type?: T;
}

type Check<T> = (op: string, v: unknown) => T;
/** An argument is optional exactly when it has a default. */
type Opt<D> = [D] extends [undefined] ? false : true;

const param = <T, const N extends string, const O extends boolean>(name: N, optional: O, def: unknown, check: Check<unknown>, key?: string): Arg<T, N, O> =>
  ({ name, kind: 'param', optional, default: def, check, param: key }) as Arg<T, N, O>;

function intCheck(what: string): Check<number> {
  return (op, v) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) throw argError(op, `${what} must be an integer`, describe(v), 'an integer', `Pass e.g. ${what === 'axis' ? '0 or -1' : '1'}.`);
    return v;
  };
}

function intsCheck(what: string): Check<number[]> {
  return (op, v) => {
    // TF reads a TensorShape or int32 tensors (eager: their values) wherever it reads a list of ints.
    if (isTensorShapeArg(v)) return dimsOf(op, what, v);
    if (!Array.isArray(v) || v.some((d) => typeof d !== 'number' || !Number.isInteger(d))) {
      const shown = Array.isArray(v) && v.length <= 16 ? `[${v.map((d) => (typeof d === 'number' ? String(d) : describe(d))).join(', ')}]` : describe(v);
      throw argError(op, `${what} must be an array of integers`, shown, 'an array of integers', 'Pass e.g. [2, 3].');
    }
    return v as number[];
  };
}

const axesCheck: Check<number[] | null> = (op, v) => {
  if (v === undefined || v === null) return null;
  const axes = Array.isArray(v) ? v : [v];
  if (axes.some((a) => typeof a !== 'number' || !Number.isInteger(a))) throw argError(op, 'axis must be integers', describe(v), 'an integer or array of integers', 'Pass e.g. 0 or [0, 1].');
  return axes as number[];
};

/** Argument markers: each carries its TypeScript type and its runtime check. */
export const arg = {
  /** A tensor argument; `hint` is the dtype plain JS values convert to ('peer': the other tensors'). */
  tensor: <const N extends string>(name: N, hint: DType | 'peer' | null = 'peer'): Arg<TensorLike, N, false> => ({ name, kind: 'tensor', optional: false, hint }),
  /** A list of tensors (concat, stack, addN). */
  tensors: <const N extends string>(name: N): Arg<TensorLike[], N, false> => ({ name, kind: 'tensors', optional: false, hint: 'peer' }),
  int: <const N extends string, const D extends number | undefined = undefined>(name: N, def?: D, key?: string) =>
    param<number, N, Opt<D>>(name, (def !== undefined) as Opt<D>, def, intCheck(name), key),
  /** Integers: an array (int32 scalar tensors allowed among them), a TensorShape, or a 1-D int32 tensor; normalized to `number[]`. */
  ints: <const N extends string>(name: N, key?: string) => param<number[] | ShapeLike, N, false>(name, false, undefined, intsCheck(name), key),
  /** Reduction axes: an integer, integers, or null (all); normalized to `number[] | null`. */
  axes: <const N extends string>(name: N, key = 'axes') => param<number | number[] | null, N, true>(name, true, null, axesCheck, key),
  bool: <const N extends string>(name: N, def: boolean, key?: string) =>
    param<boolean, N, true>(name, true, def, (op, v) => {
      if (typeof v !== 'boolean') throw argError(op, `${name} must be a boolean`, describe(v), 'true or false', `Pass ${name}: true or false.`);
      return v;
    }, key),
  number: <const N extends string, const D extends number | undefined = undefined>(name: N, def?: D, key?: string) =>
    param<number, N, Opt<D>>(name, (def !== undefined) as Opt<D>, def, (op, v) => {
      if (typeof v !== 'number') throw argError(op, `${name} must be a number`, describe(v), 'a number', `Pass a number for ${name}.`);
      return v;
    }, key),
  dtype: <const N extends string>(name: N, def: DType | null, key?: string) =>
    param<DType, N, true>(name, true, def, (op, v) => (v === null ? null : asDType(v, op)), key),
  oneOf: <const N extends string, const V extends string>(name: N, values: readonly V[], def: V, key?: string) =>
    param<V, N, true>(name, true, def, (op, v) => {
      const s = typeof v === 'string' ? v.toUpperCase() : v;
      if (!values.includes(s as V)) throw argError(op, `unsupported ${name}`, describe(v), values.map((x) => `'${x}'`).join(' or '), `Pass one of ${values.join(', ')}.`);
      return s;
    }, key),
  /** A param checked by a custom function (its result type is the argument's type). */
  custom: <T, const N extends string, const D extends T | undefined = undefined>(name: N, check: Check<T>, def?: D, key?: string) =>
    param<T, N, Opt<D>>(name, (def !== undefined) as Opt<D>, def, check, key),
};

/** A public op's declaration: its paths (`'math.cumsum'`, top-level `'cumsum'`), arguments and options. */
export interface ApiSpec<Paths extends readonly string[] = readonly string[], A extends readonly Arg[] = readonly Arg[], O extends readonly Arg[] = readonly Arg[]> {
  readonly paths: Paths;
  readonly args: A;
  readonly options: O;
  /** JS scalars may come from the shared read-only pool (they only feed a kernel: binary ops). */
  readonly poolScalars?: boolean;
  /** Params every call passes (not user-visible). */
  readonly fixed?: Readonly<Record<string, unknown>>;
  /**
   * Runs first with the raw arguments: returns the result of a run-time form of the op (e.g. reshape to a
   * shape held by a symbolic tensor), or undefined to go on with the declared form.
   */
  readonly dynamic?: (op: string, args: readonly unknown[]) => Tensor | undefined;
  /** Runs before bind: checks that need several arguments (null: the default). */
  readonly prepare?: (op: string, params: Record<string, unknown>, tensors: Tensor[]) => void;
}

/** Declares a public op (const type params keep the paths and argument names literal). */
export function api<const Paths extends readonly string[], const A extends readonly Arg[], const O extends readonly Arg[] = readonly []>(
  paths: Paths,
  args: A,
  options?: O,
  extra: Pick<ApiSpec, 'poolScalars' | 'fixed' | 'prepare' | 'dynamic'> = {},
): ApiSpec<Paths, A, O> {
  return { paths, args, options: (options ?? []) as unknown as O, ...extra };
}

type TypeOf<X> = X extends Arg<infer T> ? T : never;

/** The positional parameters of an argument list (optional from the first defaulted one). */
export type Positional<A extends readonly unknown[]> = A extends readonly [infer H, ...infer R]
  ? H extends Arg<infer T, string, true>
    ? [T?, ...Positional<R>]
    : [TypeOf<H>, ...Positional<R>]
  : [];

/** The options object of an op: every option optional, keyed by its name. */
export type OptionsOf<O extends readonly Arg[]> = { [K in O[number] as K['name']]?: TypeOf<K> };

/** The typed signature a spec gives. */
export type FnOf<S> = S extends ApiSpec<readonly string[], infer A, infer O>
  ? O extends readonly []
    ? (...args: Positional<A>) => Tensor
    : (...args: [...Positional<A>, OptionsOf<O>?]) => Tensor
  : never;

/** [path, function type] pairs of one declaration. */
export type EntriesOf<S, F = never> = S extends { readonly paths: infer P extends readonly string[] }
  ? { [K in keyof P]: [P[K], [F] extends [never] ? FnOf<S> : F] }[number]
  : never;

/** A hand-written composite's public paths (softmax, reduceMean...): the namespaces list it like a record. */
export interface CompositeSpec<P extends readonly string[], F> {
  readonly api: { readonly paths: P };
  readonly fn: F;
}

/** Declares a composite's public paths. */
export function composite<const P extends readonly string[], F>(paths: P, fn: F): CompositeSpec<P, F> {
  return { api: { paths }, fn };
}

/** The paths {@link composites} gives a composite: `module.name` (`name` in the top-level module ''), then its aliases. */
export type ModulePaths<M extends string, K extends string, A> = readonly [M extends '' ? K : `${M}.${K}`, ...(A extends readonly string[] ? A : [])];

/**
 * Declares the composites of one TF module at once: each is public as `module.name` (TF's `tf.<module>.<name>`; just
 * `name` in the top-level module ''), plus the aliases listed for it. `composites('linalg', { eye, diag }, { eye: ['eye'] })`
 * is `{ eye: composite(['linalg.eye', 'eye'], eye), diag: composite(['linalg.diag'], diag) }`.
 */
export function composites<const M extends string, T extends Record<string, unknown>, const A extends { readonly [K in keyof T]?: readonly string[] } = Record<never, never>>(
  module: M,
  fns: T,
  aliases?: A,
): { [K in keyof T & string]: CompositeSpec<ModulePaths<M, K, K extends keyof A ? A[K] : []>, T[K]> } {
  const specs: Record<string, CompositeSpec<readonly string[], unknown>> = {};
  for (const [name, fn] of Object.entries(fns)) {
    const extra = (aliases as Record<string, readonly string[] | undefined> | undefined)?.[name] ?? [];
    specs[name] = composite([module === '' ? name : `${module}.${name}`, ...extra], fn);
  }
  return specs as { [K in keyof T & string]: CompositeSpec<ModulePaths<M, K, K extends keyof A ? A[K] : []>, T[K]> };
}
