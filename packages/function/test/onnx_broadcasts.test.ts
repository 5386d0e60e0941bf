// broadcast_to left out of compiled segments when its readers broadcast themselves (src/onnx/broadcasts.ts): the
// same elements as the uncompiled trace, and the planner's choices (which broadcasts it leaves out, which it keeps).
import * as ef from 'eagerflow';
import type { Graph } from '../src/graph';
import { elideBroadcasts } from '../src/onnx/broadcasts';
import type { FusedWriter } from '../src/onnx/contractions';
import { type Fn, arr, compiledAgainstPlain } from './compiled_pairs';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const vals = (n: number, a: number, b: number): Float32Array => Float32Array.from({ length: n }, (_, i) => Math.sin(a * i + b));

/** How many broadcast_to nodes the traced graph of `f` has, and how many the planner leaves out. */
function elided(f: Fn, ...args: ef.Tensor[]): { broadcasts: number; elided: number } {
  const g = (f.getConcreteFunction(...args) as unknown as { graph: Graph }).graph;
  const writers = new Map<Graph['nodes'][number], FusedWriter>();
  elideBroadcasts(g, g.nodes, g.outputs, writers, new Set());
  return { broadcasts: g.nodes.filter((n) => n.prim.name === 'broadcast_to').length, elided: writers.size };
}

/**
 * Compiled (strict) and uncompiled results must be the same elements (results at `summed` are sums, which ONNX
 * Runtime adds in another order: to 1e-6); returns the compiled function.
 */
function same(fn: (...a: ef.Tensor[]) => ef.Tensor[], args: ef.Tensor[], summed: number[] = []): Fn {
  return compiledAgainstPlain(fn, args, (t, want, k) => {
    expect(t.shape.asList()).toEqual(want.shape.asList());
    if (summed.includes(k)) arr(t).forEach((v, i) => expect(Math.abs(v - arr(want)[i])).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(v))));
    else expect(arr(t)).toEqual(arr(want));
  });
}

test('broadcasts read by products, sums, quotients and selects of the full shape are left out', () => {
  const a = ef.constant(vals(8, 0.7, 0.1), 'float32', [8, 1]);
  const r = ef.constant(vals(5, 0.3, 0.4), 'float32', [5]);
  const b = ef.constant(vals(40, 0.9, 0.2), 'float32', [8, 5]);
  const f = (p: ef.Tensor, q: ef.Tensor, x: ef.Tensor): ef.Tensor[] => {
    const wide = ef.broadcastTo(p, [8, 5]);
    const row = ef.broadcastTo(q, [8, 5]);
    const cond = ef.greater(x, 0);
    return [ef.multiply(wide, x), ef.add(x, wide), ef.divide(row, ef.add(x, 2)), ef.where(cond, row, ef.multiply(x, 3))];
  };
  const jit = same(f, [a, r, b]);
  expect(elided(jit, a, r, b)).toEqual({ broadcasts: 2, elided: 2 });
  jit.dispose();
  [a, r, b].forEach((t) => t.dispose());
});

test('broadcasts read by a reduction, returned, or meeting only other broadcasts stay Expand', () => {
  const a = ef.constant(vals(8, 0.7, 0.1), 'float32', [8, 1]);
  const c = ef.constant(vals(5, 0.5, 0.6), 'float32', [1, 5]);
  const b = ef.constant(vals(40, 0.9, 0.2), 'float32', [8, 5]);
  const f = (p: ef.Tensor, q: ef.Tensor, x: ef.Tensor): ef.Tensor[] => {
    const summed = ef.broadcastTo(ef.multiply(p, 2), [8, 5]);
    const returned = ef.broadcastTo(ef.multiply(p, 3), [8, 5]);
    const both = ef.add(ef.broadcastTo(p, [8, 5]), ef.broadcastTo(q, [8, 5]));
    return [ef.reduceSum(summed, 0), ef.multiply(summed, x), returned, both];
  };
  const jit = same(f, [a, c, b], [0]);
  expect(elided(jit, a, c, b)).toEqual({ broadcasts: 4, elided: 0 });
  jit.dispose();
  [a, c, b].forEach((t) => t.dispose());
});
