// numpy-style indexing `x.at(...)` (ints, 'start:stop:step', '...', null) lowered to one stridedSlice: differentiable and traceable.
import { describe } from '../../values/dtype';
import { typeError } from '../../errors/error_toolkit';
import type { Index, Tensor } from '../../values/tensor';
import type { Primitive } from '../primitive';
import { bind } from '../bind';
import { TensorLike, convert } from '../../values/convert';
import { releasing } from '../op_builder';
import { stridedSlice, StridedSliceParams } from './strided_slice';

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };

function bad(i: Index): TypeError {
  return typeError('at', `invalid index ${describe(i)}`, describe(i), "an integer, 'start:stop:step', '...' or null", "Write slices as strings, e.g. x.at(':', '1:3').");
}

function sliceBound(s: string, i: Index): number | null {
  if (s.trim() === '') return null;
  const v = Number(s);
  if (!Number.isInteger(v)) throw bad(i);
  return v;
}

/** Adds one index to the stridedSlice params being built (position `k`). */
function addIndex(p: Mutable<StridedSliceParams> & { strides: number[] }, k: number, i: Index): void {
  const push = (b: number, e: number, s: number): void => {
    p.begin.push(b);
    p.end.push(e);
    p.strides.push(s);
  };
  if (i === null) return (push(0, 1, 1), void (p.newAxisMask |= 1 << k));
  if (i === '...') return (push(0, 0, 1), void (p.ellipsisMask |= 1 << k));
  const asInt = typeof i === 'string' && !i.includes(':') ? sliceBound(i, i) : i;
  if (typeof asInt === 'number') {
    if (!Number.isInteger(asInt)) throw bad(i);
    return (push(asInt, asInt + 1, 1), void (p.shrinkAxisMask |= 1 << k));
  }
  if (typeof i !== 'string') throw bad(i);
  const parts = i.split(':');
  if (parts.length > 3) throw bad(i);
  const [b, e, st] = [sliceBound(parts[0], i), sliceBound(parts[1], i), parts.length === 3 ? sliceBound(parts[2], i) : null];
  if (st === 0) throw typeError('at', 'slice step cannot be zero', describe(i), 'a non-zero step', 'Use a step of 1 or -1.');
  push(b ?? 0, e ?? 0, st ?? 1);
  if (b === null) p.beginMask |= 1 << k;
  if (e === null) p.endMask |= 1 << k;
}

/**
 * numpy-style indexing of `x`: `at(x, ':', '1:3')` is TF's `x[:, 1:3]`, `at(x, '...', -1)` is `x[..., -1]`.
 * @example ef.constant([[1, 2, 3], [4, 5, 6]]).at(':', '1:').arraySync(); // [[2, 3], [5, 6]]
 */
export function at(x: TensorLike, ...indices: Index[]): Tensor {
  const p = { begin: [] as number[], end: [] as number[], strides: [] as number[], beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0 };
  indices.forEach((i, k) => addIndex(p, k, i));
  const c = convert('at', x);
  return releasing([c], () => bind(stridedSlice as Primitive, [c.t], p)[0]);
}
