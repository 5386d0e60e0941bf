// Checks each scalar fact against its own kernel on special values before the fuser may use it.
import { AVal, Info, Primitive, ScalarFact, backend } from '@eagerflow/core';

/**
 * Float32 special values: signed zeros, infinities, NaN, the float32 edge, denormals, int32 edges.
 * @example
 * ef.internal.SPECIAL_VALUES.includes(-0); // true
 */
export const SPECIAL_VALUES: readonly number[] = [0, -0, 1, -1, 0.5, -2.5, 3, Infinity, -Infinity, NaN, 3e38, -3e38, 1e-40, -1e-40, 2147483647, -2147483648, 88.5, -104];

const verdicts = new WeakMap<Primitive, boolean>();

/** Same float32 value, NaN equal to NaN and +0 distinct from -0. */
export function sameFloat(a: number, b: number): boolean {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
}

const show = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));

function arityOf(prim: Primitive): 1 | 2 {
  const v: AVal = { dtype: 'float32', shape: [2] };
  try {
    prim.infer([v], {});
    return 1;
  } catch {
    return 2;
  }
}

/** Ordinary float32 values besides the special ones: an `exact` fact must stay float32 on them too. */
const ORDINARY_VALUES: readonly number[] = [0.1, -1 / 3, 2.7, -1e10, 7.5e-6, 16777217, 0.75];

/** The operands: every special value (unary) or every pair of them (binary); ordinary ones for `exact` facts. */
function operands(arity: 1 | 2, exact: boolean): [Float32Array, Float32Array] {
  const s = Float32Array.from(exact ? [...SPECIAL_VALUES, ...ORDINARY_VALUES] : SPECIAL_VALUES);
  if (arity === 1) return [s, s];
  const a = new Float32Array(s.length * s.length);
  const b = new Float32Array(s.length * s.length);
  for (let i = 0; i < s.length; i++) for (let j = 0; j < s.length; j++) [a[i * s.length + j], b[i * s.length + j]] = [s[i], s[j]];
  return [a, b];
}

/** The kernel's float32 results on `a` (and `b`). */
function kernelResults(prim: Primitive, a: Float32Array, b: Float32Array, arity: 1 | 2): Float32Array {
  const k = backend.directKernels;
  const ins: Info[] = [k.upload(a, [a.length], 'float32'), ...(arity === 2 ? [k.upload(b, [b.length], 'float32')] : [])];
  try {
    const [out] = prim.impl(k, ins, {});
    const vals = Float32Array.from(backend.readInfoSync(out) as Float32Array);
    k.free(out);
    return vals;
  } finally {
    ins.forEach((x) => k.free(x));
  }
}

/**
 * The differences between `fact` (as a function and as generated code) and the kernel; empty when they agree.
 * @example
 * ef.internal.factDifferences(ef.internal.PRIMITIVES.add).length; // 0
 */
export function factDifferences(prim: Primitive, fact: ScalarFact = prim.scalar as ScalarFact): string[] {
  const arity = arityOf(prim);
  const exact = fact.exact === true;
  const [a, b] = operands(arity, exact);
  const want = kernelResults(prim, a, b, arity);
  const code = new Function('a', 'b', `return ${fact.expr('a', 'b')};`) as (a: number, b: number) => number;
  const out: string[] = [];
  for (let i = 0; i < want.length; i++) {
    const viaFn = Math.fround(fact.fn(a[i], b[i]));
    // The fused loop does not round an exact fact's value: it must be the kernel's float32 as it is.
    const viaCode = exact ? code(a[i], b[i]) : Math.fround(code(a[i], b[i]));
    if (!sameFloat(viaFn, want[i]) || !sameFloat(viaCode, want[i])) {
      out.push(`${prim.name}(${show(a[i])}${arity === 2 ? `, ${show(b[i])}` : ''}): kernel ${show(want[i])}, fact ${show(viaFn)}, code ${show(viaCode)}`);
    }
  }
  return out;
}

/**
 * Whether the fuser may replace `prim`'s kernel by its scalar fact: only when the fact gives the
 * kernel's result bit for bit on every special value (checked once per record, on the host backend
 * where the fused loop runs). A fused graph must never change a result.
 * @example
 * ef.internal.factAgrees(ef.internal.PRIMITIVES.exp); // true
 */
export function factAgrees(prim: Primitive): boolean {
  const known = verdicts.get(prim);
  if (known !== undefined) return known;
  let ok = false;
  try {
    ok = prim.scalar !== undefined && factDifferences(prim).length === 0;
  } catch {
    ok = false;
  }
  verdicts.set(prim, ok);
  return ok;
}
