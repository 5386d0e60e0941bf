// Test helper for the jitCompile pattern passes: a function compiled (strict) and uncompiled, run on the same
// arguments, each output pair handed to a check, without leaks.
import * as ef from 'eagerflow';

export type Fn = ef.TracedFunction<(...a: ef.Tensor[]) => ef.Tensor[]>;

export const arr = (t: ef.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>);

/**
 * Traces `fn` with jitCompile 'strict' and without, warms both, then checks each output pair with `check(got, want, k)`;
 * every result is disposed and the tensor count must be unchanged. Returns the compiled function (the caller disposes it).
 */
export function compiledAgainstPlain(fn: (...a: ef.Tensor[]) => ef.Tensor[], args: ef.Tensor[], check: (got: ef.Tensor, want: ef.Tensor, k: number) => void): Fn {
  const jit = ef.trace(fn, { jitCompile: 'strict' }) as Fn;
  const plain = ef.trace(fn) as Fn;
  [...jit(...args), ...plain(...args)].forEach((t) => t.dispose());
  const before = ef.memory().numTensors;
  const got = jit(...args);
  const want = plain(...args);
  got.forEach((t, k) => check(t, want[k], k));
  [...got, ...want].forEach((t) => t.dispose());
  expect(ef.memory().numTensors).toBe(before);
  plain.dispose();
  return jit;
}
