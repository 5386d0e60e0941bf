// Composite manipulation ops of issue 11: unstack/split (array results), repeat, roll, sort/argsort, meshgrid, sequenceMask, clipByNorm, clipByGlobalNorm, size, rank.
import { describe } from '../../values/dtype';
import { Tensor } from '../../values/tensor';
import type { Primitive } from '../primitive';
import { bind } from '../bind';
import { TensorLike, convert } from '../../values/convert';
import { releasing } from '../op_builder';
import { composite } from '../api_spec';
import { argError, normalizeAxes } from '../check';
import * as TR from './manipulation';
import { MATH_COMPOSITES } from '../math/reduce_scan';
import { MANIP2_COMPOSITES } from './sort_repeat_roll';
// x.at(...) on Tensor (installed by this import).
import '../late_ops';

/** The size of `t` along `axis` (normalized), which must be static. */
function axisSize(op: string, t: Tensor, axis: number): [number, number] {
  const d = t.dims;
  if (d === null) throw argError(op, 'unknown input rank', 'a tensor of unknown rank', 'a known rank', 'Give the input a shape (setShape).');
  const [a] = normalizeAxes(op, [axis], d.length);
  const n = d[a];
  if (n === null) throw argError(op, 'unknown size along the axis', `shape ${t.shape.toString()} on axis ${axis}`, 'a static size', 'Give the input a static shape (setShape).');
  return [a, n];
}

/**
 * Splits `value` along `axis` into its slices (TF's unstack; the axis size must be static).
 * @example ef.unstack([[1, 2], [3, 4]]).map((t) => t.arraySync()); // [[1, 2], [3, 4]]
 */
function unstack(value: TensorLike, axis = 0): Tensor[] {
  const c = convert('unstack', value);
  return releasing([c], () => {
    const [, num] = axisSize('unstack', c.t, axis);
    return bind(TR.unstack as Primitive, [c.t], { axis, num });
  });
}

/**
 * Splits `value` along `axis` into `numOrSizeSplits` equal pieces, or pieces of the given sizes (one may be -1).
 * @example ef.split([1, 2, 3, 4, 5], [2, -1]).map((t) => t.arraySync()); // [[1, 2], [3, 4, 5]]
 */
function split(value: TensorLike, numOrSizeSplits: number | number[], axis = 0): Tensor[] {
  const c = convert('split', value);
  return releasing([c], () => {
    const d = c.t.dims;
    const a = d === null ? null : normalizeAxes('split', [axis], d.length)[0];
    if (d === null || d[a as number] === null) {
      // The axis size is known only at run time: the kernel resolves the count or the -1 (TF's Split/SplitV).
      const n = typeof numOrSizeSplits === 'number' ? numOrSizeSplits : null;
      if (n !== null && (!Number.isInteger(n) || n < 1)) throw argError('split', 'the count must divide the axis size', `${describe(n)} for an axis of unknown size`, 'a positive integer', 'Pass a divisor, or a list of sizes.');
      // The same sizes check as with a known axis size (the sum is checked when the graph runs).
      if (n === null && (!Array.isArray(numOrSizeSplits) || numOrSizeSplits.some((v) => !Number.isInteger(v) || v < -1) || numOrSizeSplits.filter((v) => v === -1).length > 1)) {
        throw argError('split', 'sizes must be integers >= 0 with at most one -1', describe(numOrSizeSplits), 'e.g. [2, -1]', 'Pass a count or a list of sizes.');
      }
      return bind(TR.split as Primitive, [c.t], n === null ? { sizes: numOrSizeSplits, axis, numSplit: (numOrSizeSplits as number[]).length } : { sizes: [], axis, numSplit: n });
    }
    const sizes = splitSizes(d[a as number] as number, numOrSizeSplits);
    return bind(TR.split as Primitive, [c.t], { sizes, axis, numSplit: sizes.length });
  });
}

function splitSizes(n: number, spec: number | number[]): number[] {
  if (typeof spec === 'number') {
    if (!Number.isInteger(spec) || spec < 1 || n % spec !== 0) throw argError('split', 'the count must divide the axis size', `${describe(spec)} for an axis of ${n}`, `a divisor of ${n}`, 'Pass a divisor, or a list of sizes.');
    return new Array<number>(spec).fill(n / spec);
  }
  if (!Array.isArray(spec) || spec.some((v) => !Number.isInteger(v) || v < -1) || spec.filter((v) => v === -1).length > 1) {
    throw argError('split', 'sizes must be integers >= 0 with at most one -1', describe(spec), 'e.g. [2, -1]', 'Pass a count or a list of sizes.');
  }
  const known = spec.reduce((a, v) => (v === -1 ? a : a + v), 0);
  const rest = n - known;
  if (rest < 0 || (!spec.includes(-1) && rest !== 0)) throw argError('split', 'sizes must add up to the axis size', `[${spec}] for an axis of ${n}`, `sizes adding up to ${n}`, 'Fix the sizes or use -1 for one of them.');
  return spec.map((v) => (v === -1 ? rest : v));
}

/** The composites of this file with their public paths (merged into COMPOSITES). */
export const MANIP_COMPOSITES = {
  ...MATH_COMPOSITES,
  ...MANIP2_COMPOSITES,
  unstack: composite(['unstack'], unstack),
  split: composite(['split'], split),
};
