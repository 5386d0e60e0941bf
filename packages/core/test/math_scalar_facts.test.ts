// The scalar facts of issue 11's elementwise math records equal tfjs's cpu kernels bit for bit on special values (NaN, ±0, ±inf, halves), as fn, as generated expr, and fused in traces.
import * as ef from 'eagerflow';
import { fuseElementwise } from '../../function/src/fuse';
import type { Graph } from '../../function/src/graph';

const m = ef.math;
type Unary = (x: ef.TensorLike) => ef.Tensor;
type Binary = (x: ef.TensorLike, y: ef.TensorLike) => ef.Tensor;

const UNARY: [string, Unary][] = [
  ['acos', m.acos], ['acosh', m.acosh], ['asin', m.asin], ['asinh', m.asinh], ['atan', m.atan], ['atanh', m.atanh], ['tan', m.tan],
  ['ceil', m.ceil], ['floor', m.floor], ['round', m.round], ['expm1', m.expm1], ['log1p', m.log1p], ['reciprocal', m.reciprocal],
  ['rsqrt', m.rsqrt], ['erf', m.erf], ['log_sigmoid', m.logSigmoid],
];
const BINARY: [string, Binary][] = [
  ['atan2', m.atan2], ['floordiv', m.floordiv], ['floormod', m.floormod], ['squared_difference', m.squaredDifference], ['div_no_nan', m.divNoNan], ['xlogy', m.xlogy],
];

const SPECIAL = Float32Array.from([
  NaN, 0, -0, Infinity, -Infinity, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1, -1, 0.99999994, -0.99999994, 1e-30, -1e-30, 1e-45, -1e-45,
  3.4e38, -3.4e38, 7, -7, 3, -3, 0.75, 88.7, -88.7, 100, -100, 16.5, 8388607.5, 14.9, -14.9, 2, 1.0000001, 0.1, -0.3,
]);
const PAIRS = Float32Array.from([NaN, 0, -0, Infinity, -Infinity, 0.5, -0.5, 1, -1, 7, -7, 3, -3, 2.5, 1e-30, 3.4e38, -0.1]);

/** "same float32 value": Object.is (NaN equals NaN; +0 and -0 differ). */
function sameBits(got: ArrayLike<number>, want: ArrayLike<number>, what: string, inputs: string[]): void {
  const bad: string[] = [];
  for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) bad.push(`${inputs[i]} -> ${got[i]} (kernel ${want[i]})`);
  expect(`${what}: ${bad.slice(0, 5).join('; ')}`).toBe(`${what}: `);
}

const factOf = (prim: string): ef.internal.Primitive['scalar'] => ef.internal.recordByName(prim, 'math_scalar_facts').scalar;
const compile1 = (expr: string): ((a: number) => number) => new Function('a', `return ${expr};`) as (a: number) => number;
const compile2 = (expr: string): ((a: number, b: number) => number) => new Function('a', 'b', `return ${expr};`) as (a: number, b: number) => number;

describe('unary facts == tfjs cpu kernels', () => {
  test.each(UNARY)('%s', (prim, op) => {
    const fact = factOf(prim);
    expect(fact).toBeDefined();
    const kernel = op(SPECIAL);
    const want = kernel.dataSync() as Float32Array;
    kernel.dispose();
    const names = Array.from(SPECIAL, String);
    const byFn = Float32Array.from(SPECIAL, (v) => fact!.fn(v, 0));
    const expr = compile1(fact!.expr('a', ''));
    const byExpr = Float32Array.from(SPECIAL, (v) => expr(v));
    sameBits(byFn, want, `${prim} fn`, names);
    sameBits(byExpr, want, `${prim} expr`, names);
  });
});

describe('binary facts == tfjs cpu kernels (every pair of special values)', () => {
  const n = PAIRS.length;
  const xs = new Float32Array(n * n);
  const ys = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) [xs[i * n + j], ys[i * n + j]] = [PAIRS[i], PAIRS[j]];
  const names = Array.from(xs, (x, i) => `(${x}, ${ys[i]})`);
  test.each(BINARY)('%s', (prim, op) => {
    const fact = factOf(prim);
    expect(fact).toBeDefined();
    const kernel = op(xs, ys);
    const want = kernel.dataSync() as Float32Array;
    kernel.dispose();
    const expr = compile2(fact!.expr('a', 'b'));
    sameBits(Float32Array.from(xs, (x, i) => fact!.fn(x, ys[i])), want, `${prim} fn`, names);
    sameBits(Float32Array.from(xs, (x, i) => expr(x, ys[i])), want, `${prim} expr`, names);
  });
});

/** The primitives the executor's fusion pass folds into fused nodes of `g`. */
function fusedPrims(g: Graph): string[] {
  return fuseElementwise(g).nodes.filter((n) => n.prim.name === 'fused_elementwise').flatMap((n) => (n.params as { nodes: { prim: { name: string } }[] }).nodes.map((k) => k.prim.name));
}

describe('traced chains fuse the new ops and give the eager bits', () => {
  test.each(UNARY)('%s', (prim, op) => {
    const chain = (x: ef.Tensor): ef.Tensor => ef.multiply(op(ef.multiply(x, 1)), 1);
    const x = ef.constant(SPECIAL);
    const eager = chain(x);
    const fn = ef.trace(chain);
    const traced = fn(x);
    sameBits(traced.dataSync() as Float32Array, eager.dataSync() as Float32Array, `${prim} traced`, Array.from(SPECIAL, String));
    expect(fusedPrims(fn.getConcreteFunction(x).graph as unknown as Graph)).toContain(prim);
    ef.dispose([x, eager, traced]);
  });
  test.each(BINARY)('%s', (prim, op) => {
    const chain = (x: ef.Tensor, y: ef.Tensor): ef.Tensor => ef.multiply(op(ef.multiply(x, 1), y), 1);
    const x = ef.constant(PAIRS);
    const y = ef.constant(PAIRS.slice().reverse());
    const eager = chain(x, y);
    const fn = ef.trace(chain);
    const traced = fn(x, y);
    sameBits(traced.dataSync() as Float32Array, eager.dataSync() as Float32Array, `${prim} traced`, Array.from(PAIRS, String));
    expect(fusedPrims(fn.getConcreteFunction(x, y).graph as unknown as Graph)).toContain(prim);
    ef.dispose([x, y, eager, traced]);
  });
});
