// The params of a host_callback node (flavor, token, Tout, shapes, stateful) and their validation at construction.
import { DType, Dims, TensorShape, Variable, asDType, describe, typeError } from '@eagerflow/core';
import { HostFunction, HostFunctionRef } from './registry';

/**
 * pyFunction: Tensors in, differentiable. numpyFunction / pyFunc: NDArrays in. contrib: NDArrays
 * as `(...args, kwargs)`, nested outputs. pyFunctionGrad: re-runs a pyFunction under a tape and
 * returns its input gradients (the vjp of a pyFunction inside a trace).
 */
export type HostFlavor = 'pyFunction' | 'numpyFunction' | 'pyFunc' | 'contrib' | 'pyFunctionGrad';

/** How a callback's return value maps to outputs: one value, an array of values, or a nested structure. */
export type Returns = 'single' | 'list' | { readonly structure: unknown };

/** The forward call a pyFunctionGrad node recomputes. */
export interface GradOf {
  readonly nIn: number;
  readonly Tout: readonly DType[];
  readonly shapes: readonly Dims[];
  readonly returns: Returns;
  /** Inputs that get a gradient (float), in output order. */
  readonly diffIn: readonly number[];
  /** Outputs that receive a cotangent (float); their seeds follow the nIn inputs. */
  readonly diffOut: readonly number[];
  /** Variables whose gradients follow the inputs' (the gradient's Variable sources, inside a trace). */
  readonly variables?: readonly Variable[];
}

export interface HostCallbackParams {
  readonly flavor: HostFlavor;
  /** The registry ref (token + optional stable key); never the function itself. */
  readonly token: HostFunctionRef;
  readonly Tout: readonly DType[];
  /** Static output shapes (null = unknown rank): outputShapes, or unknown. */
  readonly shapes: readonly Dims[];
  readonly stateful: boolean;
  readonly returns: Returns;
  /** The user's op name, or null. */
  readonly name: string | null;
  /** contrib: how many leading inputs are positional; the rest are kwargs with these keys. */
  readonly nArgs?: number;
  readonly kwargKeys?: readonly string[];
  readonly grad?: GradOf;
}

const API: Record<HostFlavor, string> = {
  pyFunction: 'pyFunction',
  numpyFunction: 'numpyFunction',
  pyFunc: 'compat.v1.pyFunc',
  contrib: 'contrib.framework.pyFunc',
  pyFunctionGrad: 'pyFunction (gradient)',
};

/** The public API name used in error messages. */
export function apiOf(p: HostCallbackParams): string {
  return API[p.flavor];
}

/** The op name errors carry: the user's name, else the token. */
export function opNameOf(p: HostCallbackParams): string {
  return p.name ?? p.token.token;
}

/** Tout as the user wrote it, for messages: 'float32' or [float32, int32]. */
export function toutString(p: HostCallbackParams): string {
  if (p.returns === 'single') return `'${p.Tout[0]}'`;
  return `[${p.Tout.join(', ')}]`;
}

/** Parsed Tout: the dtypes and whether a single DType was given (one Tensor is returned). */
export interface ParsedTout {
  readonly dtypes: DType[];
  readonly single: boolean;
}

/** TypeError at construction for a missing or bad Tout entry (TensorFlow: "Cannot convert ... to a DType"). */
export function parseTout(api: string, Tout: unknown): ParsedTout {
  if (Tout === undefined || Tout === null) {
    throw typeError(api, `Missing required argument: 'Tout'`, String(Tout), 'a DType or an array of DTypes', `Pass e.g. 'float32', ['float32', 'int32'], or [] when the function returns nothing.`);
  }
  if (Array.isArray(Tout)) return { dtypes: Tout.map((d, i) => dtypeEntry(api, d, `Tout[${i}]`)), single: false };
  return { dtypes: [dtypeEntry(api, Tout, 'Tout')], single: true };
}

function dtypeEntry(api: string, d: unknown, what: string): DType {
  try {
    return asDType(d, api);
  } catch {
    throw typeError(api, `Cannot convert ${describe(d)} in ${what} to an EagerFlow DType`, describe(d), 'one of float32, int32, bool, string, complex64', `Fix the ${what} entry.`);
  }
}

/** TypeError at construction when func is not callable. */
export function checkFunc(api: string, func: unknown): HostFunction {
  if (typeof func !== 'function') {
    throw typeError(api, 'Expected func to be callable', describe(func), 'a function', `Pass the host function first: ${api}(func, inp, Tout).`);
  }
  return func as HostFunction;
}

/** The inputs list: an array (TensorFlow turns inp into a list). */
export function checkInp(api: string, inp: unknown): unknown[] {
  if (inp === undefined || inp === null) return [];
  if (!Array.isArray(inp)) {
    throw typeError(api, 'inp must be an array of tensors', describe(inp), 'e.g. [x, y]', 'Wrap a single input: [x].');
  }
  return inp;
}

/** A shape leaf of outputShapes: dims, a TensorShape, or null (unknown). */
export function asDims(api: string, s: unknown, what: string): Dims {
  if (s === null || s === undefined) return null;
  try {
    return new TensorShape(s as Dims).dims;
  } catch {
    throw typeError(api, `${what} is not a shape`, describe(s), 'an array of dims such as [null, 3], a TensorShape, or null', 'Fix outputShapes.');
  }
}

/** The optional trailing arguments `(stateful = true, name?)`, or an options object in their place. */
export function statefulAndName(api: string, stateful: unknown, name: unknown): { stateful: boolean; name: string | null } {
  if (stateful !== null && typeof stateful === 'object') {
    const o = stateful as { stateful?: unknown; name?: unknown };
    return statefulAndName(api, o.stateful, o.name);
  }
  if (stateful !== undefined && typeof stateful !== 'boolean') {
    throw typeError(api, 'stateful must be a boolean', describe(stateful), 'true or false', 'Pass false only for functions without side effects.');
  }
  return { stateful: stateful ?? true, name: nameOf(api, name) };
}

export function nameOf(api: string, name: unknown): string | null {
  if (name === undefined || name === null) return null;
  if (typeof name !== 'string') throw typeError(api, 'name must be a string', describe(name), `e.g. 'preprocess'`, 'Pass a string or leave it out.');
  return name;
}
