// Shared rules of the conv and pool families: argument normalization, output shapes, layout and filter-dilation kernels, GraphDef attrs.
import type { Info, Kernels } from '../../backend/backend';
import { describe, showValue } from '../../values/dtype';
import type { Dims } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { Attrs, ReadScope, attr } from '../graphdef_spec';
import { argError } from '../check';
import { windowOutSize } from './padding';
import type { Padding } from './padding';

/** Arrays as JSON (strides, pairs), other values as describe() does. */
export const show = (v: unknown): string => (Array.isArray(v) ? showValue(v) : describe(v));

/** Spatial padding: TF's strings, or explicit [before, after] pairs per spatial dim. */
export type { Padding };

/** Canonical params of a conv: spatial strides/dilations (length n), padding, TF's data format. */
export interface ConvParams {
  readonly strides: readonly number[];
  readonly padding: Padding;
  readonly dataFormat: string;
  readonly dilations: readonly number[];
}

/** Whether a data format puts channels first (NCHW, NCW, NCDHW). */
const channelsFirst = (fmt: string): boolean => fmt.startsWith('NC');

/** The channel axis of a rank-`rank` tensor in `fmt`. */
export const channelAxis = (fmt: string, rank: number): number => (channelsFirst(fmt) ? 1 : rank - 1);

/** The spatial axes of a rank-(n+2) tensor in `fmt`. */
export function spatialAxes(fmt: string, n: number): number[] {
  const first = channelsFirst(fmt) ? 2 : 1;
  const axes = new Array<number>(n);
  for (let i = 0; i < n; i++) axes[i] = first + i;
  return axes;
}

function allPositiveInts(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const d = list[i];
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 1) return false;
  }
  return true;
}

/** Checks the raw strides/dilations arg: an int or a list of ints (validated against the rank in `prepare`). */
export function intList(what: string): (op: string, v: unknown) => number | number[] {
  return (op, v) => {
    const list = typeof v === 'number' ? [v] : v;
    if (!Array.isArray(list) || list.length === 0 || !allPositiveInts(list)) {
      throw argError(op, `${what} must be a positive integer or a list of them`, show(v), 'e.g. 1, [2, 2] or [1, 2, 2, 1]', `Pass ${what} as TensorFlow does.`);
    }
    return list as number[];
  };
}

/** Checks the raw padding arg: 'SAME' / 'VALID' (any case) or explicit pairs. */
export function paddingArg(op: string, v: unknown): string | readonly (readonly number[])[] {
  if (typeof v === 'string' && ['SAME', 'VALID'].includes(v.toUpperCase())) return v.toUpperCase() as 'SAME' | 'VALID';
  const pairs = Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && p.every((d) => Number.isInteger(d) && d >= 0));
  if (!pairs) throw argError(op, 'unsupported padding', show(v), "'SAME', 'VALID' or explicit [before, after] pairs", "Pass padding: 'SAME' or 'VALID'.");
  return v as (readonly number[])[];
}

/** TF's list forms of strides/dilations -> the n spatial values (1, n or n+2 entries; batch/channel entries must be 1). */
export function spatialList(op: string, what: string, list: readonly number[], n: number, fmt: string): number[] {
  if (list.length === 1) return new Array<number>(n).fill(list[0]);
  if (list.length === n) return [...list];
  if (list.length === n + 2) {
    const sp = spatialAxes(fmt, n);
    const other = [0, channelAxis(fmt, n + 2)];
    if (other.some((a) => list[a] !== 1)) throw argError(op, `${what} must be 1 on the batch and channel dims`, `[${list.join(', ')}]`, `1 at positions ${other.join(' and ')} for ${fmt}`, `Pass ${what} for the spatial dims only.`);
    return sp.map((a) => list[a]);
  }
  throw argError(op, `${what} has the wrong length`, `[${list.join(', ')}]`, `1, ${n} or ${n + 2} values`, `Pass ${n} spatial ${what}.`);
}

/** Explicit pairs of the full rank (data-format order) or spatial only -> spatial pairs. */
export function spatialPadding(op: string, p: string | readonly (readonly number[])[], n: number, fmt: string, explicitOk = true): Padding {
  if (typeof p === 'string') return p as 'SAME' | 'VALID';
  if (!explicitOk) throw argError(op, 'explicit padding is not supported', showValue(p), "'SAME' or 'VALID'", 'Pad the input with ef.pad first.');
  const pairs = p as readonly (readonly number[])[];
  if (pairs.length === n) return pairs.map(([a, b]) => [a, b] as const);
  if (pairs.length !== n + 2) throw argError(op, 'explicit padding has the wrong length', showValue(p), `${n + 2} [before, after] pairs (or ${n} spatial pairs)`, 'Pass one pair per dim.');
  const other = [0, channelAxis(fmt, n + 2)];
  if (other.some((a) => pairs[a][0] !== 0 || pairs[a][1] !== 0)) throw argError(op, 'explicit padding must be 0 on the batch and channel dims', showValue(p), '[0, 0] there', 'Pad only spatial dims.');
  return spatialAxes(fmt, n).map((a) => [pairs[a][0], pairs[a][1]] as const);
}

/** Checks a data format against the allowed ones (2-D: NHWC/NCHW; 3-D: NDHWC/NCDHW). */
export function formatArg(formats: readonly string[]): (op: string, v: unknown) => string {
  return (op, v) => {
    const s = typeof v === 'string' ? v.toUpperCase() : v;
    if (typeof s !== 'string' || !formats.includes(s)) throw argError(op, 'unsupported dataFormat', describe(v), formats.map((f) => `'${f}'`).join(' or '), `Pass dataFormat: '${formats[0]}'.`);
    return s;
  };
}

/** One spatial output size (TF's rules; null when unknown). */
export function outSize(inp: number | null, k: number | null, s: number, d: number, pad: Padding, i: number): number | null {
  if (inp === null || k === null) return null;
  return windowOutSize(inp, k, s, d, typeof pad === 'string' ? pad : pad[i]);
}

/** Converts padding to a tfjs kernel's `pad` attr (NHWC-order pairs for explicit padding). */
export function kernelPad(p: Padding): 'same' | 'valid' | number[][] {
  if (p === 'SAME') return 'same';
  if (p === 'VALID') return 'valid';
  return [[0, 0], ...p.map(([a, b]) => [a, b]), [0, 0]];
}

/** The permutation moving channels last (NCHW -> NHWC), and back. */
const toLastPerm = (rank: number): number[] => [0, ...Array.from({ length: rank - 2 }, (_, i) => i + 2), 1];
const toFirstPerm = (rank: number): number[] => [0, rank - 1, ...Array.from({ length: rank - 2 }, (_, i) => i + 1)];

/** Runs `body` on channels-last values: transposes channels-first inputs in and the output back. */
export function channelsLast(k: Kernels, fmt: string, xs: (Info | null)[], body: (xs: Info[]) => Info): Info {
  if (!channelsFirst(fmt)) return body(xs as Info[]);
  const moved = xs.map((x) => (x === null ? null : (k.run('Transpose', { x }, { perm: toLastPerm(x.shape.length) }) as Info)));
  const out = body(moved.map((x, i) => x ?? (xs[i] as Info)));
  for (const m of moved) if (m !== null) k.free(m);
  const back = k.run('Transpose', { x: out }, { perm: toFirstPerm(out.shape.length) }) as Info;
  k.free(out);
  return back;
}

/** A shape in `fmt` as the channels-last shape the kernels see. */
export function lastShape(shape: readonly number[], fmt: string): number[] {
  return channelsFirst(fmt) ? toLastPerm(shape.length).map((a) => shape[a]) : [...shape];
}

/**
 * Inserts d-1 zeros between filter taps along each spatial dim ([k..., ci, co] -> [(k-1)d+1..., ci, co]),
 * one axis at a time through rank-4 views (webgl's pad shader fails to compile for rank 6).
 */
export function dilateFilter(k: Kernels, f: Info, d: readonly number[]): Info {
  let cur = f;
  d.forEach((rate, i) => {
    if (rate === 1) return;
    const s = cur.shape;
    const before = s.slice(0, i).reduce((a, b) => a * b, 1);
    const after = s.slice(i + 1).reduce((a, b) => a * b, 1);
    const view = k.run('Reshape', { x: cur }, { shape: [before, s[i], 1, after] }) as Info;
    const padded = k.run('PadV2', { x: view }, { paddings: [[0, 0], [0, 0], [0, rate - 1], [0, 0]], constantValue: 0 }) as Info;
    const flat = k.run('Reshape', { x: padded }, { shape: [before, s[i] * rate, after] }) as Info;
    const cut = k.run('Slice', { x: flat }, { begin: [0, 0, 0], size: [before, (s[i] - 1) * rate + 1, after] }) as Info;
    const next = k.run('Reshape', { x: cut }, { shape: [...s.slice(0, i), (s[i] - 1) * rate + 1, ...s.slice(i + 1)] }) as Info;
    for (const t of [view, padded, flat, cut]) k.free(t);
    if (cur !== f) k.free(cur);
    cur = next;
  });
  return cur === f ? (k.run('Identity', { x: f }) as Info) : cur;
}

/** The taps of a dilated filter's gradient (every d-th entry along each spatial dim). */
export function undilateFilter(k: Kernels, g: Info, d: readonly number[]): Info {
  const strides = [...d, ...g.shape.slice(d.length).map(() => 1)];
  return k.run('StridedSlice', { x: g }, { begin: g.shape.map(() => 0), end: [...g.shape], strides, beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0 }) as Info;
}

/** The dilated filter shape ([(k-1)d+1..., ci, co]). */
export const dilatedShape = (fs: readonly number[], d: readonly number[]): number[] => fs.map((v, i) => (i < d.length ? (v - 1) * d[i] + 1 : v));

/** Whether every entry is 1. */
export const allOnes = (xs: readonly number[]): boolean => xs.every((v) => v === 1);

/** Static dims when all known, else null. */
const knownDims = (d: Dims): number[] | null => (d !== null && d.every((v) => v !== null) ? (d as number[]) : null);

/** A shape param: its static dims when known, else the tensor to read it from at run time. */
export function shapeSource(t: Tensor): { dims: (number | null)[]; like: Tensor[] } {
  const d = t.dims;
  const k = knownDims(d);
  return k !== null ? { dims: k, like: [] } : { dims: d === null ? [] : [...d], like: [t] };
}

/** A full-rank list in `fmt` order with 1 on batch/channels (TF's strides/dilations/ksize attrs). */
export function fullList(vals: readonly number[], fmt: string): number[] {
  const n = vals.length;
  const out = new Array<number>(n + 2).fill(1);
  spatialAxes(fmt, n).forEach((a, i) => (out[a] = vals[i]));
  return out;
}

/** The attrs every conv/pool GraphDef node shares. */
export function convAttrs(p: ConvParams, explicitAttr: boolean): Attrs {
  const explicit = typeof p.padding !== 'string';
  const out: Attrs = {
    strides: attr.ints(fullList(p.strides, p.dataFormat)),
    padding: attr.str(explicit ? 'EXPLICIT' : (p.padding as string)),
    data_format: attr.str(p.dataFormat),
    dilations: attr.ints(fullList(p.dilations, p.dataFormat)),
  };
  if (explicitAttr) {
    const pairs = explicit ? (p.padding as readonly (readonly number[])[]) : [];
    const full: number[] = [];
    if (explicit) {
      const sp = spatialAxes(p.dataFormat, p.strides.length);
      for (let a = 0; a < p.strides.length + 2; a++) {
        const i = sp.indexOf(a);
        full.push(...(i < 0 ? [0, 0] : pairs[i]));
      }
    }
    out.explicit_paddings = attr.ints(full);
  }
  return out;
}

/**
 * Checks a loaded strides/dilations/ksize attr as the eager ops check their arguments: positive integers, and 1 on
 * the batch and channel dims (TF's kernels require it). A loaded graph must not run what an eager call refuses.
 */
export function checkWindowList(r: ReadScope, key: string, l: readonly number[], n: number, fmt: string): void {
  if (!allPositiveInts(l)) throw r.error(`${key} must be positive integers`, `[${l.join(', ')}]`, 'values >= 1', 'Fix the node attrs');
  const other = [0, channelAxis(fmt, n + 2)];
  if (other.some((a) => l[a] !== 1)) throw r.error(`${key} must be 1 on the batch and channel dims`, `[${l.join(', ')}]`, `1 at positions ${other.join(' and ')} for ${fmt}`, 'Fix the node attrs');
}

/** Reads the shared conv attrs of a node with `n` spatial dims. */
export function readConvAttrs(r: ReadScope, n: number, defFormat: string): ConvParams {
  const fmt = r.node.str('data_format', defFormat);
  const pick = (key: string): number[] => {
    const l = r.node.ints(key, new Array<number>(n + 2).fill(1));
    if (l.length !== n + 2) throw r.error(`${key} has the wrong length`, `[${l.join(', ')}]`, `${n + 2} values`, 'Fix the node attrs');
    checkWindowList(r, key, l, n, fmt);
    return spatialAxes(fmt, n).map((a) => l[a]);
  };
  const pad = r.node.str('padding', 'VALID');
  let padding: Padding;
  if (pad === 'EXPLICIT') {
    const e = r.node.ints('explicit_paddings', []);
    if (e.length !== 2 * (n + 2)) throw r.error('explicit_paddings has the wrong length', `[${e.join(', ')}]`, `${2 * (n + 2)} values`, 'Fix the node attrs');
    if (!e.every((v) => Number.isInteger(v) && v >= 0)) throw r.error('explicit_paddings must be non-negative integers', `[${e.join(', ')}]`, 'values >= 0', 'Fix the node attrs');
    padding = spatialAxes(fmt, n).map((a) => [e[2 * a], e[2 * a + 1]] as const);
  } else if (pad === 'SAME' || pad === 'VALID') {
    padding = pad;
  } else {
    throw r.error('unsupported padding', `'${pad}'`, "'SAME', 'VALID' or 'EXPLICIT'", 'Fix the node attrs');
  }
  return { strides: pick('strides'), padding, dataFormat: fmt, dilations: pick('dilations') };
}
