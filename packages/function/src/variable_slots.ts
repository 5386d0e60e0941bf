// Variable arguments of traced functions: placeholders bound to the call's variables.
import { Params, ParamsRecord, Tensor, Variable, internalError, paramsRecord } from '@eagerflow/core';

/**
 * Stands for "the k-th distinct variable argument" inside a graph, so one trace serves every call
 * with the same variable types and aliasing. Reads and assigns go to the variable bound for the call.
 */
export class VariableSlot {
  private readonly stack: Variable[] = [];
  readonly proxy: Variable;

  constructor(readonly index: number, first: Variable) {
    const slot = this;
    const proxy = Object.create(Variable.prototype) as Variable;
    Object.defineProperties(proxy, {
      isVariable: { value: true },
      id: { value: first.id },
      name: { value: `arg_variable_${index}` },
      dtype: { value: first.dtype },
      trainable: { value: first.trainable },
      _value: { get: () => slot.current()._value, set: (v: Tensor) => (slot.current()._value = v) },
      _set: { value: (t: Tensor) => slot.current()._set(t) },
      _slot: { value: slot },
    });
    this.proxy = proxy;
  }

  current(): Variable {
    const v = this.stack[this.stack.length - 1];
    if (v === undefined) throw internalError('ef.trace', `variable argument ${this.index} is not bound (a graph read a variable slot outside its call)`);
    return v;
  }

  bind(v: Variable): void {
    this.stack.push(v);
  }

  unbind(): void {
    this.stack.pop();
  }
}

/** Binds slots to a call's distinct variables for the duration of `fn`. */
export function withVariables<T>(slots: readonly VariableSlot[], vars: readonly Variable[], fn: () => T): T {
  slots.forEach((s, i) => s.bind(vars[i]));
  try {
    return fn();
  } finally {
    slots.forEach((s) => s.unbind());
  }
}

/** Async variant of withVariables. */
export async function withVariablesAsync<T>(slots: readonly VariableSlot[], vars: readonly Variable[], fn: () => Promise<T>): Promise<T> {
  slots.forEach((s, i) => s.bind(vars[i]));
  try {
    return await fn();
  } finally {
    slots.forEach((s) => s.unbind());
  }
}

/** A replayed node's params with a variable placeholder replaced by the call's variable (the tape's source). */
export function resolveSlot(params: Params): ParamsRecord {
  const p = paramsRecord(params);
  const v = p.variable as { _slot?: VariableSlot } | undefined;
  if (v === undefined || v._slot === undefined) return p;
  return { ...p, variable: v._slot.current() };
}
