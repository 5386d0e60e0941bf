// What the fuzzers require of one call: a result or a library error, the same in every mode, nothing leaked.
import * as ef from 'eagerflow';
import { Rng } from '../harness/rng';

/** A seeded PRNG (the harness's mulberry32): case `i` of seed `s` is the same on every run and machine. */
export function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

/** The generator of case `i` of `seed` (independent of every other case, so one case reruns alone). */
export function caseRng(seed: number, i: number): () => number {
  return rng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35));
}

export type Pick = <X>(xs: readonly X[]) => X;
export const picker = (r: () => number): Pick => (xs) => xs[Math.floor(r() * xs.length)];

/** One leaf of a result: shape, dtype and values (NaN and -0 kept distinguishable), or a non-tensor value. */
export interface Leaf {
  shape?: number[];
  dtype?: string;
  values: unknown[];
}

export type Outcome =
  | { kind: 'ok'; leaves: Leaf[] }
  | { kind: 'error'; cls: string; message: string; library: boolean };

/**
 * A library error: an ef.errors class, or a TypeError thrown by EagerFlow's argument checks, whose message starts
 * with the API's name ("linalg.tensordot: axes is required ..."). JS engine errors (RangeError, "x.map is not a
 * function", "Cannot read properties of undefined") and raw tfjs errors are not.
 */
export function isLibraryError(e: unknown): boolean {
  if (e instanceof ef.errors.OpError) return true;
  return e instanceof TypeError && /^[A-Za-z_$][\w$.]*(\([^)]*\))?( [\w$.'"]+){0,3}: \S/.test(e.message) && !/is not a function|is not iterable|Cannot read prop/.test(e.message);
}

/** Results longer than this are compared by a sample of their values. */
const SAMPLE_ABOVE = 1 << 24;

function sampled(raw: ArrayLike<unknown>): unknown[] {
  const stride = Math.ceil(raw.length / SAMPLE_ABOVE);
  const out: unknown[] = [];
  for (let i = 0; i < raw.length; i += stride) out.push(raw[i]);
  out.push(raw[raw.length - 1], raw.length);
  return out;
}

function leavesOf(v: unknown, out: Leaf[], depth = 0): void {
  if (depth > 8) throw new Error('result nested too deep');
  if (v instanceof ef.Tensor) {
    const raw = v.dataSync() as ArrayLike<unknown>;
    // A result too large for a JS array (V8 caps arrays near 2^27 elements; UnsortedSegmentSum with 2^31 - 1 segments
    // is a valid 8 GB result) is compared by a sample: every stride-th value, the last included.
    const data = raw.length <= SAMPLE_ABOVE ? Array.from(raw) : sampled(raw);
    out.push({ shape: v.shape.asList() as number[], dtype: v.dtype, values: data });
  } else if (Array.isArray(v)) v.forEach((x) => leavesOf(x, out, depth + 1));
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v).sort()) leavesOf((v as Record<string, unknown>)[k], out, depth + 1);
  else out.push({ values: [v] });
}

function disposeAll(v: unknown, depth = 0): void {
  if (depth > 8) return;
  if (v instanceof ef.Tensor) v.dispose();
  else if (Array.isArray(v)) v.forEach((x) => disposeAll(x, depth + 1));
  else if (v !== null && typeof v === 'object') Object.values(v).forEach((x) => disposeAll(x, depth + 1));
}

/** Runs `call`, reads and frees its result; `leaked` is the tensor count it left behind. */
export function observe(call: () => unknown): { outcome: Outcome; leaked: number } {
  const before = ef.memory().numTensors;
  let outcome: Outcome;
  try {
    const r = call();
    const leaves: Leaf[] = [];
    try {
      leavesOf(r, leaves);
    } finally {
      disposeAll(r);
    }
    outcome = { kind: 'ok', leaves };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    // A symbolic tensor used as a JS value inside a trace raises SymbolicTensorError, the TypeError subclass for what
    // an eager non-scalar tensor used as a JS number raises as a plain TypeError: one class for the comparison.
    const cls = err.constructor.name === 'SymbolicTensorError' ? 'TypeError' : err.constructor.name;
    outcome = { kind: 'error', cls, message: err.message.split('\n')[0].slice(0, 300), library: isLibraryError(e) };
  }
  return { outcome, leaked: ef.memory().numTensors - before };
}

/** Past this magnitude a float32 result is an overflow in progress: another (equally valid) order of the same sums and products may give inf or NaN there. */
const OVERFLOW = 1e30;
const overflowed = (v: number): boolean => !Number.isFinite(v) || Math.abs(v) > OVERFLOW;

/** float32's machine epsilon (2^-23). */
const FLOAT32_EPS = 2 ** -23;

/**
 * Whether two result values agree within float32 tolerance; `atol` widens the absolute tolerance (a scaled comparison:
 * see disagreement).
 */
function close(a: unknown, b: unknown, atol = 0): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    // Both overflowing (inf, NaN from inf - inf, or past 1e30): the modes agree up to evaluation order.
    if (overflowed(a) && overflowed(b) && (Math.abs(a) > OVERFLOW || Math.abs(b) > OVERFLOW)) return true;
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
    return Math.abs(a - b) <= 1e-5 + atol + 1e-4 * Math.max(Math.abs(a), Math.abs(b));
  }
  return a === b;
}

/** The largest finite magnitude among `values` (0 when none). */
function finiteScale(values: readonly unknown[]): number {
  let m = 0;
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/**
 * Why two outcomes differ (null when they agree: same values within float32 tolerance, shapes and dtypes, or the same
 * error class). `scaled`: each result's values are sums of products (matrix products), compared within their float32
 * error bound, which scales with the operands rather than with each value: an element that cancels to 3.05 beside
 * elements of 1.7e7 carries an error of eps x 1.7e7 in any order of the sums. The bound used is 16 eps times the
 * result's largest finite magnitude (each order errs by up to n eps times the operands' scale, n <= 5 terms in the
 * fuzzer's shapes), on top of the elementwise tolerance.
 */
export function disagreement(a: Outcome, b: Outcome, valuesToo = true, scaled = false): string | null {
  if (a.kind !== b.kind) return `${describeOutcome(a)} vs ${describeOutcome(b)}`;
  if (a.kind === 'error' && b.kind === 'error') return a.cls === b.cls ? null : `${a.cls} vs ${b.cls}: ${a.message} | ${b.message}`;
  const [x, y] = [a as { leaves: Leaf[] }, b as { leaves: Leaf[] }];
  if (x.leaves.length !== y.leaves.length) return `${x.leaves.length} vs ${y.leaves.length} results`;
  for (let k = 0; k < x.leaves.length; k++) {
    const [p, q] = [x.leaves[k], y.leaves[k]];
    if (JSON.stringify(p.shape) !== JSON.stringify(q.shape) || p.dtype !== q.dtype) return `result ${k}: ${p.dtype} ${JSON.stringify(p.shape)} vs ${q.dtype} ${JSON.stringify(q.shape)}`;
    if (!valuesToo) continue;
    if (p.values.length !== q.values.length) return `result ${k}: ${p.values.length} vs ${q.values.length} values`;
    const atol = scaled ? 16 * FLOAT32_EPS * Math.max(finiteScale(p.values), finiteScale(q.values)) : 0;
    const j = p.values.findIndex((v, n) => !close(v, q.values[n], atol));
    if (j >= 0) return `result ${k} value ${j}: ${String(p.values[j])} vs ${String(q.values[j])}`;
  }
  return null;
}

export function describeOutcome(o: Outcome): string {
  return o.kind === 'ok' ? `ok ${o.leaves.map((l) => `${l.dtype ?? typeof l.values[0]}${JSON.stringify(l.shape ?? [])}`).join(',')}` : `${o.cls}: ${o.message}`;
}

/**
 * What a fuzz case found: nothing (ok or a library error), or a finding of one category ('harnessError': the fuzzer's
 * own bug; 'wrongValue': a checksummed file read as other values than it holds).
 */
export type Finding = 'nonLibraryError' | 'disagreement' | 'leak' | 'wrongValue';

export interface CaseResult {
  /** 'ok': a result; 'refused': a library error (the same in every mode). */
  status: 'ok' | 'refused' | Finding | 'harnessError';
  detail?: string;
}
