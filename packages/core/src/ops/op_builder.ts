// The one generic wrapper builder: a record's API declaration -> the public function (convert, defaults, bind).
import { DType, describe } from '../values/dtype';
import { Tensor } from '../values/tensor';
import { bind } from './bind';
import type { Primitive } from './primitive';
import { Converted, TensorLike, convert, dtypeOf, release } from '../values/convert';
import type { ApiSpec, Arg, FnOf } from './api_spec';
import { typeError } from '../errors/error_toolkit';
import { promoteWeak } from './weak_types';
import { symbolicDimsErrors } from '../values/shape_arg';

/** The dtype JS values next to `x` convert to: a weak tensor's dtype is not followed (the numbers stay weak too). */
export const hintOf = (x: unknown): DType | undefined => (x instanceof Tensor && x.weak ? undefined : dtypeOf(x));

/** Binds with the weak operands of the dtype group `group` (indices into ts) promoted to the strong one's dtype. */
function bindPromoted(op: string, prim: Primitive, ts: Tensor[], params: Record<string, unknown>, group: readonly number[] | null): Tensor {
  const idx = group ?? ts.map((_, i) => i);
  let weak = false;
  let strong = false;
  for (const i of idx) {
    if (ts[i].weak) weak = true;
    else strong = true;
  }
  if (!weak || !strong) return bind(prim, ts, params)[0];
  const p = promoteWeak(op, idx.map((i) => ts[i]));
  const ins = ts.slice();
  idx.forEach((i, k) => (ins[i] = p.ts[k]));
  try {
    return bind(prim, ins, params)[0];
  } finally {
    p.temps.forEach((t) => t.dispose());
  }
}

/** The public name of a declared op (the last segment of its first path; else the IR name): errors use it. */
export function opNameOf(spec: ApiSpec, irName = 'op'): string {
  const p = spec.paths[0];
  return p === undefined ? irName : p.slice(p.lastIndexOf('.') + 1);
}

/** Converts several arguments; if one fails, the ones already converted are released. */
export function convertAll(op: string, xs: readonly TensorLike[], hints: readonly (DType | undefined)[], poolScalars = false): Converted[] {
  const out: Converted[] = [];
  try {
    for (let i = 0; i < xs.length; i++) out.push(convert(op, xs[i], hints[i], poolScalars));
  } catch (e) {
    out.forEach(release);
    throw e;
  }
  return out;
}

/** Runs `fn`, then releases the converted temporaries, also when `fn` throws (bad input must not leak). */
export function releasing<T>(args: readonly Converted[], fn: () => T): T {
  try {
    return fn();
  } finally {
    for (const a of args) release(a);
  }
}

const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x) && Object.getPrototypeOf(x) === Object.prototype;

/** Per-spec facts the generic wrapper reads on every call (computed once in makeOp). */
interface Plan {
  /** Indices of the positional param args. */
  readonly paramIdx: readonly number[];
  /** Indices of the positional tensor args, when none is a list (else null: the general path). */
  readonly tensorIdx: readonly number[] | null;
  readonly optionNames: ReadonlySet<string>;
}

function planOf(spec: ApiSpec): Plan {
  const paramIdx: number[] = [];
  const tensorIdx: number[] = [];
  spec.args.forEach((a, i) => (a.kind === 'param' ? paramIdx : tensorIdx).push(i));
  return { paramIdx, tensorIdx: spec.args.some((a) => a.kind === 'tensors') ? null : tensorIdx, optionNames: new Set(spec.options.map((o) => o.name)) };
}

/** Reads positional params and the options object into the record's params. */
function readParams(op: string, spec: ApiSpec, plan: Plan, args: readonly unknown[], params: Record<string, unknown>): void {
  const n = spec.args.length;
  const hasOptions = spec.options.length !== 0;
  if (args.length > n + (hasOptions ? 1 : 0)) {
    throw typeError(op, 'too many arguments', `${args.length}`, `at most ${n}${hasOptions ? ' and an options object' : ''}`, 'Pass the options as one object.');
  }
  const idx = plan.paramIdx;
  // A missing argument first, and dims known only at run time last: the order of errors an eager call has.
  for (let j = 0; j < idx.length; j++) if (args[idx[j]] === undefined && !spec.args[idx[j]].optional) value(op, spec.args[idx[j]], undefined);
  let deferred: Error | null = null;
  for (let j = 0; j < idx.length; j++) {
    const a = spec.args[idx[j]];
    try {
      params[a.param ?? a.name] = value(op, a, args[idx[j]]);
    } catch (e) {
      if (!(e instanceof Error && symbolicDimsErrors.has(e))) throw e;
      deferred ??= e;
    }
  }
  if (!hasOptions) {
    if (deferred !== null) throw deferred;
    return;
  }
  const opts = args[n];
  if (opts !== undefined && opts !== null && !isPlain(opts)) {
    throw typeError(op, 'the options must be an object', describe(opts), `{ ${spec.options.map((o) => o.name).join(', ')} }`, 'Pass keyword arguments as one object.');
  }
  const given = (opts ?? NO_OPTIONS) as Record<string, unknown>;
  if (given !== NO_OPTIONS) {
    for (const k of Object.keys(given)) {
      if (!plan.optionNames.has(k)) throw typeError(op, `unknown option '${k}'`, `'${k}'`, `one of ${spec.options.map((o) => o.name).join(', ')}`, 'Check the spelling.');
    }
  }
  for (const o of spec.options) params[o.param ?? o.name] = value(op, o, given[o.name]);
  if (deferred !== null) throw deferred;
}

const NO_OPTIONS: Record<string, unknown> = Object.freeze({});

/** The tensor args when every one is already a Tensor (nothing to convert or release), else null. */
function tensorsAsIs(plan: Plan, args: readonly unknown[]): Tensor[] | null {
  const idx = plan.tensorIdx;
  if (idx === null) return null;
  const ts = new Array<Tensor>(idx.length);
  for (let j = 0; j < idx.length; j++) {
    const x = args[idx[j]];
    if (!(x instanceof Tensor)) return null;
    ts[j] = x;
  }
  return ts;
}

function value(op: string, a: Arg, v: unknown): unknown {
  if (v === undefined) {
    if (!a.optional) throw typeError(op, `missing argument '${a.name}'`, 'nothing', a.name, 'Pass it.');
    return a.check ? a.check(op, a.default) : a.default;
  }
  return a.check ? a.check(op, v) : v;
}

/** Converts the tensor arguments: a 'peer' hint takes the dtype of another tensor argument. */
function tensorsOf(op: string, spec: ApiSpec, args: readonly unknown[]): Converted[] {
  const xs: TensorLike[] = [];
  const hints: (DType | undefined)[] = [];
  const peer = (skip: number): DType | undefined => {
    for (let i = 0; i < spec.args.length; i++) {
      if (i === skip || spec.args[i].hint !== 'peer') continue;
      const d = spec.args[i].kind === 'tensors' ? listHint(args[i]) : hintOf(args[i]);
      if (d !== undefined) return d;
    }
    return undefined;
  };
  spec.args.forEach((a, i) => {
    if (a.kind === 'param') return;
    const hint = a.hint === 'peer' ? peer(i) : (a.hint ?? undefined);
    if (a.kind === 'tensor') {
      xs.push(args[i] as TensorLike);
      hints.push(hint);
      return;
    }
    const list = args[i];
    if (!Array.isArray(list)) throw typeError(op, `${a.name} must be an array of tensors`, describe(list), 'an array', 'Wrap the tensors in an array.');
    for (const x of list) {
      xs.push(x as TensorLike);
      hints.push(hint);
    }
  });
  return convertAll(op, xs, hints, spec.poolScalars === true);
}

const listHint = (x: unknown): DType | undefined => (Array.isArray(x) ? x.map(hintOf).find((d) => d !== undefined) : undefined);

/** Indices (into the converted tensors) of the 'peer' arguments: the operands that share a dtype; null when there is no list argument and every tensor is a peer. */
function peerGroup(spec: ApiSpec, args: readonly unknown[]): number[] {
  const out: number[] = [];
  let k = 0;
  spec.args.forEach((a, i) => {
    if (a.kind === 'param') return;
    const n = a.kind === 'tensor' ? 1 : Array.isArray(args[i]) ? (args[i] as unknown[]).length : 0;
    for (let j = 0; j < n; j++, k++) if (a.hint === 'peer') out.push(k);
  });
  return out;
}

/**
 * Builds the public function of a record from its API declaration. Unary and binary ops without
 * params get a lean path (eager dispatch is benchmarked against raw tfjs).
 */
export function makeOp<S extends ApiSpec>(prim: Primitive, spec: S): FnOf<S> {
  const op = opNameOf(spec, prim.name);
  const fixed = spec.fixed ?? {};
  const a = spec.args;
  const onlyTensors = spec.options.length === 0 && a.every((x) => x.kind === 'tensor') && spec.prepare === undefined && spec.dynamic === undefined;
  if (onlyTensors && a.length === 1 && spec.fixed === undefined) {
    return ((x: TensorLike) => {
      const c = convert(op, x, a[0].hint === 'peer' ? undefined : (a[0].hint ?? undefined));
      return releasing([c], () => bind(prim, [c.t], fixed)[0]);
    }) as FnOf<S>;
  }
  if (onlyTensors && a.length === 2 && spec.fixed === undefined && a[0].hint === 'peer' && a[1].hint === 'peer') {
    return ((x: TensorLike, y: TensorLike) => {
      if (x instanceof Tensor && y instanceof Tensor && x.weak === y.weak) return bind(prim, [x, y], fixed)[0];
      const cs = convertAll(op, [x, y], [hintOf(y), hintOf(x)], spec.poolScalars === true);
      return releasing(cs, () => bindPromoted(op, prim, [cs[0].t, cs[1].t], fixed, null));
    }) as FnOf<S>;
  }
  const plan = planOf(spec);
  return ((...args: unknown[]) => {
    if (spec.dynamic !== undefined) {
      const out = spec.dynamic(op, args);
      if (out !== undefined) return out;
    }
    const params: Record<string, unknown> = { ...fixed };
    readParams(op, spec, plan, args, params);
    // Tensors need no conversion (convert would return them as they are, nothing to release).
    const given = tensorsAsIs(plan, args);
    if (given !== null && !given.some((t) => t.weak)) {
      spec.prepare?.(op, params, given);
      return bind(prim, given, params)[0];
    }
    const cs = tensorsOf(op, spec, args);
    return releasing(cs, () => {
      const ts = cs.map((c) => c.t);
      spec.prepare?.(op, params, ts);
      return bindPromoted(op, prim, ts, params, peerGroup(spec, args));
    });
  }) as FnOf<S>;
}
