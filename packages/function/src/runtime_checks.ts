// Run-time shape checks: a node whose static input shapes were partly unknown re-runs its infer rule on the real shapes.
import { AVal, Dims, Info, InvalidArgumentError, OpError, Params, Primitive, argError, contextError } from '@eagerflow/core';
import { Graph, Node } from './graph';

/** Records whose kernels check the real shapes themselves, with a more specific message (ensure_shape). */
const SELF_CHECKED = new Set(['ensure_shape']);

/** Whether some input of `node` had an unknown dim or rank when traced (then infer could not check it). */
export function needsRuntimeCheck(graph: Graph, node: Node): boolean {
  if (SELF_CHECKED.has(node.prim.name)) return false;
  return node.inputs.some((i) => {
    const s = graph.values[i].shape;
    return s === null || s.some((d) => d === null);
  });
}

function fits(actual: readonly number[], dims: Dims): boolean {
  return dims === null || (dims.length === actual.length && dims.every((d, i) => d === null || d === actual[i]));
}

/**
 * Checks `ins` (the real inputs) with the record's own infer rule, exactly as an eager call would:
 * a mismatch the trace could not see raises InvalidArgumentError naming the op instead of letting a
 * kernel broadcast, reinterpret or fail with a raw backend error.
 */
export function checkInputs(prim: Primitive, params: Params, dtypes: readonly AVal['dtype'][], ins: readonly Info[]): AVal[] {
  const avals = ins.map((x, i) => ({ dtype: dtypes[i], shape: x.shape.slice() }));
  try {
    return prim.infer(avals, params);
  } catch (e) {
    if (e instanceof OpError || e instanceof TypeError) throw e;
    throw contextError(prim.name, e, prim.name, InvalidArgumentError);
  }
}

/** The kernel's results must have the shapes the rule computed from the real inputs (no silent reinterpretation). */
export function checkOutputs(prim: Primitive, outs: readonly AVal[], res: readonly Info[]): void {
  if (prim.foldable === false) return; // host callbacks and fused groups: their shapes are checked where they are produced
  res.forEach((r, j) => {
    const want = outs[j]?.shape ?? null;
    if (!fits(r.shape, want)) {
      const got = `[${r.shape.join(',')}]`;
      const exp = want === null ? '?' : `[${want.map((d) => d ?? '?').join(',')}]`;
      throw argError(prim.name, 'the kernel produced a result of the wrong shape', got, exp, `This is a bug in EagerFlow's record for '${prim.name}'; please report it.`);
    }
  });
}
