// A reduction's axes: its params, output shape, runtime axes, API and GraphDef form (read by the reduce family of defineOp).
import type { Info } from '../../backend/backend';
import { AVal } from '../primitive';
import { api, arg } from '../api_spec';
import { tfSpec } from '../graphdef_spec';
import type { TfDecl } from '../graphdef_spec';
import { normalizeAxes } from '../check';
import { I32 } from '../rule_helpers';

export interface ReduceParams {
  readonly axes: readonly number[] | null;
  readonly keepDims: boolean;
}

/** Output shape of a reduction named `op`; `axes: null` reduces everything. */
export function reducedShape(op: string, x: AVal, p: ReduceParams): AVal['shape'] {
  if (x.shape === null) return p.keepDims || p.axes !== null ? null : [];
  const rank = x.shape.length;
  const axes = p.axes === null ? x.shape.map((_, i) => i) : normalizeAxes(op, p.axes, rank);
  if (p.keepDims) return x.shape.map((d, i) => (axes.includes(i) ? 1 : d));
  return x.shape.filter((_, i) => !axes.includes(i));
}

/** The axes a reduction runs over, for a kernel call (non-negative; `null` = every axis). */
export function runtimeAxes(x: Info, p: ReduceParams): number[] {
  const r = x.shape.length;
  return p.axes === null ? x.shape.map((_, i) => i) : p.axes.map((a) => (a < 0 ? a + r : a));
}

/** The dims of a reduction's result. */
export const reducedDims = (x: Info, axes: number[], keepDims: boolean): number[] => (keepDims ? x.shape.map((d, i) => (axes.includes(i) ? 1 : d)) : x.shape.filter((_, i) => !axes.includes(i)));

/** A reduction's GraphDef form: axes as a Const input (null = every axis), keep_dims as an attr (`noT`: no T attr, Any/All). */
export const reduceTf = (op: string, noT = false): TfDecl =>
  tfSpec<ReduceParams>({
    op,
    inputs: ['x', { param: 'axes', shape: 'vector', nullMeans: 'all-axes' }],
    attrs: { ...(noT ? {} : { T: { dtypeOf: 0 } }), Tidx: I32, keep_dims: { param: 'keepDims', kind: 'bool', default: false } },
    ...(noT ? { noT } : {}),
  }) as TfDecl;

/** A reduction's API: `(x, axis = null, keepDims = false)`. */
export const reduceApi = <const P extends readonly string[]>(paths: P) => api(paths, [arg.tensor('x'), arg.axes('axis'), arg.bool('keepDims', false)]);
