// bincount (TF's Bincount: arr, size, weights): the size is a tensor, read on the host when the kernel runs (tfjs takes it as an attr).
import type { Info } from '../../backend/backend';
import { defineOp } from '../define_op';
import { readInfoSync } from '../../backend/backend';
import { AVal } from '../primitive';
import { tfSpec } from '../graphdef_spec';
import { dimsToString } from '../../values/shape';
import { NUMERIC, argError, checkArity, checkDTypes } from '../check';

/**
 * Counts (or sums `weights`) of each value of the 1-D int32 `arr` in [0, size). Empty `weights`
 * count; the result has the weights' dtype. Not differentiable (TF).
 */
export const bincount = defineOp({
  name: 'bincount',
  infer(ins: AVal[]) {
    checkArity('bincount', ins, 3);
    checkDTypes('bincount', ins[0], ['int32'], 'arr');
    checkDTypes('bincount', ins[1], ['int32'], 'size');
    checkDTypes('bincount', ins[2], NUMERIC, 'weights');
    const [a, w] = [ins[0].shape, ins[2].shape];
    if (a !== null && a.length !== 1) throw argError('bincount', 'arr must be 1-D', dimsToString(a), 'a rank-1 tensor', 'Reshape it with ef.reshape(arr, [-1]).');
    if (a !== null && w !== null && !(w.length === 1 && (w[0] === 0 || w[0] === null || a[0] === null || w[0] === a[0]))) {
      throw argError('bincount', 'weights must match arr', `${dimsToString(w)} for arr ${dimsToString(a)}`, `${dimsToString(a)} or no weights`, 'Pass one weight per element.');
    }
    return [{ dtype: ins[2].dtype, shape: [null] }];
  },
  impl(k, [arr, size, weights]) {
    const n = (readInfoSync(size) as Int32Array)[0];
    if (!(n >= 0)) throw argError('bincount', 'size must be >= 0', String(n), 'an integer >= 0', 'Pass a non-negative size.');
    const values = readInfoSync(arr) as Int32Array;
    if (values.some((v) => v < 0)) throw argError('bincount', 'arr must be non-negative', `a value ${Math.min(...values)}`, 'values >= 0', 'Drop or shift negative values first.');
    if (weights.shape[0] !== 0 && weights.shape[0] !== arr.shape[0]) throw argError('bincount', 'weights must match arr', `[${weights.shape}] for arr [${arr.shape}]`, `[${arr.shape}] or no weights`, 'Pass one weight per element.');
    return [k.run('Bincount', { x: arr, weights }, { size: n }) as Info];
  },
  tf: tfSpec({ op: 'Bincount', attrs: { T: { dtypeOf: 2 } } }),
});

