// The error a call throws, for tests that check its class, message and fields (one helper for every package's tests).
import * as ef from 'eagerflow';

/** The error `fn` throws; fails the test (throws 'expected a throw') when `fn` returns normally. */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

/**
 * The error of class `cls` that `call` throws, checking that the failed call left no tensor behind
 * (had it returned, its result is disposed before the test fails).
 */
export function thrownWithoutLeak<E extends Error>(call: () => unknown, cls: abstract new (...a: never[]) => E): E {
  const before = ef.memory().numTensors;
  const error = thrown(() => ef.dispose(call() as ef.Tensor));
  expect(ef.memory().numTensors).toBe(before);
  expect(error).toBeInstanceOf(cls);
  return error as E;
}
