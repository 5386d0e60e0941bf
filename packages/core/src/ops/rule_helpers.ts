// Helpers the record files share: the first cotangent of a one-output gradient rule, and the int32 type attr.
import type { Tensor } from '../values/tensor';
import { attr } from './graphdef_spec';
import { bind } from './bind';
import { complexRecords as C, ruleOps as o } from './rule_ops';

/** The first cotangent (the rules of one-output records). */
export const g0 = (cts: (Tensor | null)[]): Tensor => cts[0] as Tensor;

/** A GraphDef type attr fixed to int32 (Tidx, Tpaddings, Tindices, ...). */
export const I32 = { fixed: attr.type('int32') } as const;

/** TF's conj for the gradients of complex64 ops (a real tensor as it is): complex(real(z), -imag(z)). */
export function conjOf(z: Tensor): Tensor {
  if (z.dtype !== 'complex64') return z;
  return bind(C.complex, [bind(C.real, [z], {})[0], o.neg(bind(C.imag, [z], {})[0])], {})[0];
}
