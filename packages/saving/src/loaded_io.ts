// A loaded function's call conventions: inputs by position or by name, and its named signature.
import { Tensor, TensorLike, TensorSpec, isPlainObject, typeError } from '@eagerflow/core';
import type { ConcreteFunction } from '@eagerflow/function';

/** The inputs and outputs of a loaded function by the names tfjs-converter reports. */
export interface LoadedSignature {
  readonly inputs: Readonly<Record<string, TensorSpec>>;
  readonly outputs: Readonly<Record<string, TensorSpec>>;
}

/** Names and specs of a loaded function (`-1` dims of the file are null). */
export function signatureOf(cf: ConcreteFunction, inputNames: readonly string[], outputNames: readonly string[]): LoadedSignature {
  const inputs: Record<string, TensorSpec> = Object.create(null) as Record<string, TensorSpec>;
  const outputs: Record<string, TensorSpec> = Object.create(null) as Record<string, TensorSpec>;
  inputNames.forEach((n, k) => (inputs[n] = new TensorSpec(cf.inputSignature[k].shape.dims, cf.inputSignature[k].dtype, n)));
  outputNames.forEach((n, k) => (outputs[n] = new TensorSpec(cf.outputs[k].shape.dims, cf.outputs[k].dtype, n)));
  return Object.freeze({ inputs: Object.freeze(inputs), outputs: Object.freeze(outputs) });
}

/** A name as given, or its other spelling (`x` <-> `x:0`), as the converter accepts both. */
function lookup(names: readonly string[], key: string): number {
  const k = names.indexOf(key);
  if (k !== -1) return k;
  return names.indexOf(key.endsWith(':0') ? key.slice(0, -2) : `${key}:0`);
}

/**
 * Call arguments in signature order: positional, or one object keyed by input name
 * (`g({input_1: x})`), which must name every input exactly once.
 */
export function positionalArgs(fn: string, args: readonly unknown[], names: readonly string[]): TensorLike[] {
  const dict = args.length === 1 && isPlainObject(args[0]) && !(args[0] instanceof Tensor) ? (args[0] as Record<string, unknown>) : null;
  if (dict === null) return args as TensorLike[];
  const out = new Array<TensorLike | undefined>(names.length).fill(undefined);
  for (const key of Object.keys(dict)) {
    const k = lookup(names, key);
    if (k === -1) throw typeError(fn, `'${key}' is not an input name`, `'${key}'`, `one of [${names.join(', ')}]`, 'Pass the inputs by the names in g.inputNames, or positionally.');
    if (out[k] !== undefined) throw typeError(fn, `input '${names[k]}' is given twice`, `'${key}' and another spelling`, 'each input once', 'Pass each input once.');
    out[k] = dict[key] as TensorLike;
  }
  const missing = names.filter((_, k) => out[k] === undefined);
  if (missing.length) throw typeError(fn, `input${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} missing`, `keys [${Object.keys(dict).join(', ')}]`, `every input: [${names.join(', ')}]`, 'Pass a value for every name in g.inputNames.');
  return out as TensorLike[];
}
