// Shared test helpers: run a case eagerly and traced, and check that nothing leaks.
import * as ef from 'eagerflow';
export { thrown } from '../../../test/harness/thrown';

export type Mode = 'eager' | 'traced';
export const MODES: Mode[] = ['eager', 'traced'];

type Fn = (...args: never[]) => unknown;

/**
 * `fn` eagerly (inside ef.tidy, so the body's intermediates are freed as a graph frees them), or
 * `ef.trace(fn)` (its graph runs; the body only traces).
 */
export function inMode<F extends Fn>(mode: Mode, fn: F): F {
  if (mode === 'traced') return ef.trace(fn) as unknown as F;
  return ((...args: never[]) => ef.tidy(() => fn(...args))) as unknown as F;
}

export const mem = (): number => ef.memory().numTensors;
export const buffers = (): number => ef.memory().numDataBuffers;

/** Runs `body` and checks that it leaves no tensor and no data buffer behind. */
export async function noLeak(body: () => void | Promise<void>): Promise<void> {
  const t = mem();
  const b = buffers();
  await body();
  expect(mem()).toBe(t);
  expect(buffers()).toBe(b);
}

/** The error a promise rejects with. */
export async function rejected(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

/** Values of a Tensor or an array of Tensors, disposing them. */
export function values(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(values);
  const t = x as ef.Tensor;
  const v = t.arraySync();
  t.dispose();
  return v;
}

/** Frees a traced function's captured constants (no-op for plain functions). */
export function disposeFn(f: unknown): void {
  (f as { dispose?: () => void }).dispose?.();
}
