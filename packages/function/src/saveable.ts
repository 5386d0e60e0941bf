// What ef.saveFunction and ef.toOnnx accept, and the one concrete function they write.
import { describe, typeError } from '@eagerflow/core';
import { ConcreteFunction } from './concrete';
import type { Tracer, TracedFunction } from './trace';

/** Anything ef.saveFunction accepts: a traced function, a ConcreteFunction, or a loaded function (it carries its ConcreteFunction). */
export type Saveable = ConcreteFunction | TracedFunction | (((...args: never[]) => unknown) & { readonly concreteFunction: ConcreteFunction });

/** The one concrete function to save: a traced function's signature trace, or its only trace. */
export function concreteOf(f: unknown): ConcreteFunction {
  if (f instanceof ConcreteFunction) return f;
  const loaded = (f as { concreteFunction?: unknown } | null)?.concreteFunction;
  if (typeof f === 'function' && loaded instanceof ConcreteFunction) return loaded;
  const tracer = typeof f === 'function' ? (f as { _tracer?: Tracer })._tracer : undefined;
  if (tracer === undefined) throw typeError('saveFunction', `cannot save ${describe(f)}`, describe(f), 'an ef.trace function or a ConcreteFunction', 'Wrap the function with ef.trace first.');
  const traced = f as TracedFunction;
  if (traced.inputSignature !== null) return traced.getConcreteFunction();
  if (tracer.cache.size !== 1) {
    throw typeError(
      'saveFunction', `'${traced.name}' has ${tracer.cache.size} traces`, `${tracer.cache.size} concrete functions`, 'exactly one',
      "Give ef.trace an inputSignature, or save one trace: ef.saveFunction(f.getConcreteFunction(new ef.TensorSpec([null], 'float32'))).",
    );
  }
  return tracer.cache.values().next().value as ConcreteFunction;
}
