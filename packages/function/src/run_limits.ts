// Run-time limits of loaded (untrusted) functions: the largest tensor a node may make, and while iterations.
import { ResourceExhaustedError, opError } from '@eagerflow/core';
import type { Graph } from './graph';

/** Limits a loaded function's calls run under (mutable: raise them for trusted files). */
export interface RunLimits {
  /** The most elements any value a node produces may have. */
  maxElements: number;
  /** The most iterations of one while loop per call (TF has no default limit; this is for untrusted files). */
  maxWhileIterations: number;
}

/** Graphs that run under limits: a loaded function's graph and its cond/while bodies. */
export const runLimitsOf = new WeakMap<Graph, RunLimits>();

const FIX = 'The file may be hostile; if it is trusted, raise the limit (f.limits, or loadFunction(x, { limits }))';

/** Checks a node's results against `limits.maxElements` (they are freed by the caller on failure). */
export function checkElements(outs: readonly { readonly shape: readonly number[] }[], limits: RunLimits): void {
  for (let j = 0; j < outs.length; j++) {
    const shape = outs[j].shape;
    let n = 1;
    for (let d = 0; d < shape.length; d++) n *= shape[d];
    if (n > limits.maxElements) {
      throw opError(ResourceExhaustedError, 'loaded function', `a node produced a tensor of shape [${shape.join(',')}]`, `${n} elements`, `at most ${limits.maxElements}: limits.maxElements`, FIX, 'loadFunction');
    }
  }
}

/**
 * Checks a node's results before its kernel runs, from the shapes its rule gives (static, or re-inferred on the real
 * inputs): a hostile Tile or Fill of a billion elements is refused, not computed and then checked.
 */
export function checkPlannedElements(shapes: readonly ({ readonly shape: readonly (number | null)[] | null } | undefined)[], limits: RunLimits): void {
  for (let j = 0; j < shapes.length; j++) {
    const shape = shapes[j]?.shape;
    if (shape === null || shape === undefined) continue;
    let n = 1;
    for (let d = 0; d < shape.length; d++) n *= shape[d] ?? 1;
    if (n > limits.maxElements) {
      throw opError(ResourceExhaustedError, 'loaded function', `a node would produce a tensor of shape [${shape.map((d) => d ?? '?').join(',')}]`, `${n} elements`, `at most ${limits.maxElements}: limits.maxElements`, FIX, 'loadFunction');
    }
  }
}

/** Fails once a while loop has run `limits.maxWhileIterations` iterations and its condition still holds. */
export function checkIterations(i: number, limits: RunLimits | null): void {
  if (limits !== null && i >= limits.maxWhileIterations) {
    throw opError(ResourceExhaustedError, 'loaded function', 'a while loop did not end', `more than ${limits.maxWhileIterations} iterations`, `at most ${limits.maxWhileIterations}: limits.maxWhileIterations`, FIX, 'while');
  }
}
