// Weak types for JS numbers (JAX's rule): a tensor made only from JS numbers takes the dtype of the strong tensor it meets.
import { Tensor } from '../values/tensor';
import type { DType } from '../values/dtype';
import { bind } from './bind';
import { cast } from './math/cast';
import { argError } from '../errors/error_toolkit';

/** Dtypes a weak float32 is promoted to when it meets a strong tensor of that dtype. */
const PROMOTES_TO: ReadonlySet<DType> = new Set<DType>(['int32', 'complex64']);

/**
 * The tensors of one dtype group (the operands an op requires to share a dtype), with each weak float32
 * cast to the dtype of the first strong operand (int32 or complex64); `temps` are the casts the caller disposes.
 * A weak value that is not an integer refuses to become int32 (InvalidArgumentError), as TF refuses `tf.constant(1) + 1.5`.
 */
export function promoteWeak(op: string, ts: readonly Tensor[]): { ts: Tensor[]; temps: Tensor[] } {
  let strong: DType | null = null;
  let weakFloat = false;
  for (const t of ts) {
    if (t.weak) weakFloat ||= t.dtype === 'float32';
    else strong ??= t.dtype;
  }
  if (strong === null || !weakFloat || !PROMOTES_TO.has(strong)) return { ts: ts as Tensor[], temps: [] };
  const temps: Tensor[] = [];
  const out = ts.map((t) => {
    if (!t.weak || t.dtype !== 'float32') return t;
    if (strong === 'int32' && !t.isSymbolic) checkIntegral(op, t);
    const c = bind(cast, [t], { dtype: strong })[0];
    temps.push(c);
    return c;
  });
  return { ts: out, temps };
}

function checkIntegral(op: string, t: Tensor): void {
  const bad = Array.from(t.dataSync() as Float32Array).find((v) => !Number.isInteger(v) || Math.abs(v) > 2147483647);
  if (bad !== undefined) {
    throw argError(op, `cannot convert ${bad} to a tensor of dtype int32 (a JS number meeting an int32 tensor takes its dtype)`, String(bad), 'an integer', "Cast the int32 operand first: ef.cast(x, 'float32')");
  }
}
