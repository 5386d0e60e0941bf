// Small int32 shape-vector helpers shared by the run-time composites (runtime_*.ts), and the -0 fill of the diagonal
// selects. A leaf module (ops and primitives only), so every runtime_* file can import it without a cycle.
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import type { Primitive } from '../primitive';
import * as o from '../ops';
import * as RM from '../math/reduce_scan';
import * as AR from '../math/binary_functions';

/** The product of a run-time int32 vector as a scalar (1 for an empty one). */
export const prodOf = (v: Tensor): Tensor => bind(RM.prod as Primitive, [v], { axes: null, keepDims: false })[0];

/** The product of a run-time int32 vector as a [1] vector (1 for an empty one). */
export const prod1 = (v: Tensor): Tensor => o.reshape(prodOf(v), [1]);

/** The rank of a tensor as a [1] int32 vector, read at run time from its shape vector `shp`. */
export const rankOf = (shp: Tensor): Tensor => o.reduceSum(o.onesLike(shp), null, true);

/** Zeros of run-time length `len` ([1] int32), as int32: a vector only the run time can size (zeros padded). */
export const zerosOfLength = (len: Tensor): Tensor => o.padDynOf(o.fill([0], 0, 'int32'), o.stack([o.ints([0]), len], 1));

/** floor(a / b) of an int32 tensor by an integer constant. */
export const floordivBy = (a: Tensor, b: number): Tensor => bind(AR.floordiv as Primitive, [a, o.ints([b])], {})[0];

/** Zeros like t, -0 for every dtype but int32: the off-diagonal fill of a diagonal select, so a sum keeps a -0 diagonal's sign. */
export const negZerosLike = (t: Tensor): Tensor => o.mul(o.zerosLike(t), t.dtype === 'int32' ? 0 : -1);
