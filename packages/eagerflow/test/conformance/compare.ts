// Compares an ef outcome with TensorFlow's fixture: dtype, shape, values (NaN, ±inf, signed zero) and errors.
import * as ef from 'eagerflow';
import { Case, EncTensor, values } from './fixtures';
import { Got, Outcome, PathName } from './paths';

/** What differs; the allowlist matches on this. */
export type What =
  | 'raises' // ef raised where TF returned a value
  | 'no-raise' // ef returned where TF raised
  | 'error-class' // ef raised something other than an ef.errors class or TypeError
  | 'dtype-float64' // TF returned float64, ef float32 (the contract has no float64)
  | 'dtype-int64' // TF returned int64, ef int32
  | 'dtype'
  | 'shape'
  | 'value'
  | 'signed-zero'
  | 'leak'; // the eager call left tensors behind (checked on every case, failing or not)

export interface Divergence {
  op: string;
  case: string;
  tags: readonly string[];
  path: PathName;
  what: What;
  detail: string;
}

const FORWARD: readonly PathName[] = ['eager', 'traced', 'traced-unknown-dims', 'traced-unknown-rank'];

export interface Tolerances {
  forward: { rtol: number; atol: number };
  grad: { rtol: number; atol: number };
}

/** float32 on cpu and wasm (browser/tf_fixtures.test.ts has webgl's). */
export const TOL: Tolerances = { forward: { rtol: 1e-5, atol: 1e-6 }, grad: { rtol: 1e-4, atol: 1e-5 } };

const MAPPED: Record<string, [string, What]> = { float64: ['float32', 'dtype-float64'], int64: ['int32', 'dtype-int64'] };

/** ef's error classes and TypeError are accepted for any TF error (TF raises InvalidArgumentError, ValueError or TypeError). */
export function acceptableError(e: unknown): boolean {
  return e instanceof ef.errors.OpError || e instanceof TypeError;
}

function describeError(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.message.split('\n')[0].slice(0, 160)}` : String(e);
}

type Emit = (what: What, detail: string) => void;

function sameNumber(a: number, e: number, tol: { rtol: number; atol: number }, emit: Emit, i: number): void {
  if (Number.isNaN(e) || Number.isNaN(a)) {
    if (Number.isNaN(e) !== Number.isNaN(a)) emit('value', `[${i}] got ${a}, expected ${e}`);
    return;
  }
  if (!Number.isFinite(e) || !Number.isFinite(a)) {
    if (a !== e) emit('value', `[${i}] got ${a}, expected ${e}`);
    return;
  }
  if (a === 0 && e === 0) {
    if (Object.is(a, -0) !== Object.is(e, -0)) emit('signed-zero', `[${i}] got ${Object.is(a, -0) ? '-0' : '0'}, expected ${Object.is(e, -0) ? '-0' : '0'}`);
    return;
  }
  if (Math.abs(a - e) > tol.atol + tol.rtol * Math.abs(e)) emit('value', `[${i}] got ${a}, expected ${e}`);
}

/** Compares one tensor; emits each kind of difference once (first offending element). */
export function compareTensor(got: Got, want: EncTensor, tol: { rtol: number; atol: number }, emit: Emit): void {
  const [dtype, mappedWhat] = MAPPED[want.dtype] ?? [want.dtype, null];
  if (mappedWhat !== null && got.dtype === dtype) emit(mappedWhat, `TF ${want.dtype}, ef ${got.dtype}`);
  if (got.dtype !== dtype) return emit('dtype', `got ${got.dtype}, expected ${dtype}`);
  if (got.shape.join(',') !== want.shape.join(',')) return emit('shape', `got [${got.shape}], expected [${want.shape}]`);
  const exp = values(want);
  const seen = new Set<What>();
  const once: Emit = (w, d) => {
    if (!seen.has(w)) emit(w, d);
    seen.add(w);
  };
  for (let i = 0; i < exp.length; i++) {
    const e = exp[i];
    const a = got.data[i];
    if (typeof e === 'number') sameNumber(a as number, dtype === 'float32' ? Math.fround(e) : e, dtype === 'float32' ? tol : { rtol: 0, atol: 0 }, once, i);
    else if (a !== e) once('value', `[${i}] got ${String(a)}, expected ${String(e)}`);
  }
}

function expectedOf(c: Case, path: PathName): EncTensor[] | 'error' | null {
  if ('error' in c.expect) return FORWARD.includes(path) ? 'error' : null;
  if (FORWARD.includes(path)) return 'values' in c.expect ? c.expect.values : [c.expect.value];
  if (!c.grad) return null;
  if (c.grad.error) return 'error';
  return (path === 'grad' || path === 'traced-grad' || path === 'traced-grad-unknown-dims' ? c.grad.first : c.grad.second) ?? null;
}

/** Whether `path` applies to `c` at all (gradients only where the fixture has them). */
export function applies(c: Case, path: PathName): boolean {
  return expectedOf(c, path) !== null;
}

export function compareOutcome(op: string, c: Case, path: PathName, out: Outcome, tols: Tolerances = TOL): Divergence[] {
  const found: Divergence[] = [];
  const emit: Emit = (what, detail) => found.push({ op, case: c.name, tags: c.tags, path, what, detail });
  const want = expectedOf(c, path);
  if (want === null) return found;
  if (want === 'error') {
    if (out.ok) emit('no-raise', `TF raised ${'error' in c.expect ? c.expect.error.class : c.grad?.error?.class}; ef returned shape [${out.values[0]?.shape}]`);
    else if (!acceptableError(out.error)) emit('error-class', describeError(out.error));
    return found;
  }
  if (!out.ok) {
    emit('raises', describeError(out.error));
    return found;
  }
  const tol = FORWARD.includes(path) ? tols.forward : tols.grad;
  if (out.values.length !== want.length) emit('shape', `got ${out.values.length} results, expected ${want.length}`);
  else want.forEach((w, i) => compareTensor(out.values[i], w, tol, (what, d) => emit(what, want.length > 1 ? `${FORWARD.includes(path) ? 'output' : 'input'} ${i}: ${d}` : d)));
  return found;
}
