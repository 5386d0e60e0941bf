// Helpers the record files share: the first cotangent of a one-output gradient rule, and the int32 type attr.
import type { Tensor } from '../values/tensor';
import { attr } from './graphdef_spec';

/** The first cotangent (the rules of one-output records). */
export const g0 = (cts: (Tensor | null)[]): Tensor => cts[0] as Tensor;

/** A GraphDef type attr fixed to int32 (Tidx, Tpaddings, Tindices, ...). */
export const I32 = { fixed: attr.type('int32') } as const;
