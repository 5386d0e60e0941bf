// relu's gradient reading relu's output (src/onnx/relu_masks.ts): the same elements as the uncompiled trace, NaN,
// infinities and signed zeros included, and the planner's choices (taken with the relu in the part, not without).
import * as ef from 'eagerflow';
import type { Graph } from '../src/graph';
import type { FusedWriter } from '../src/onnx/contractions';
import { readReluOutputs } from '../src/onnx/relu_masks';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const arr = (t: ef.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>);
type Fn = ef.TracedFunction<(...a: ef.Tensor[]) => ef.Tensor[]>;

/** relu(x) and the gradient of sum(relu(x) · dy) with respect to x: relu_grad(dy, x). */
const reluAndGrad = (x: ef.Tensor, dy: ef.Tensor): ef.Tensor[] => {
  const tape = new ef.GradientTape();
  tape.watch(x);
  const y = tape.record(() => ef.relu(x));
  const loss = tape.record(() => ef.reduceSum(ef.multiply(y, dy)));
  return [y, tape.gradient(loss, x) as ef.Tensor];
};

/** The relu_grad nodes of `f`'s traced graph the planner rewrites, over all its nodes or without its relus. */
function planned(f: Fn, args: ef.Tensor[], withoutRelu = false): number {
  const g = (f.getConcreteFunction(...args) as unknown as { graph: Graph }).graph;
  const writers = new Map<Graph['nodes'][number], FusedWriter>();
  readReluOutputs(g, withoutRelu ? g.nodes.filter((n) => n.prim.name !== 'relu') : g.nodes, writers, new Set());
  return [...writers.keys()].filter((n) => n.prim.name === 'relu_grad').length;
}

test('the mask from relu(x) is the mask from x: NaN, infinities and signed zeros in x and dy', () => {
  const xs = [NaN, -0, 0, Infinity, -Infinity, -2.5, 3, 1e-45, -1e-45, 7, -7, 0.5];
  const ds = [1, -1, -2, NaN, Infinity, -Infinity, NaN, -3, Infinity, -0, 0, 2];
  const x = ef.constant(xs, 'float32', [3, 4]);
  const dy = ef.constant(ds, 'float32', [3, 4]);
  const jit = ef.trace(reluAndGrad, { jitCompile: 'strict' }) as Fn;
  const plain = ef.trace(reluAndGrad) as Fn;
  [...jit(x, dy), ...plain(x, dy)].forEach((t) => t.dispose());
  const before = ef.memory().numTensors;
  const got = jit(x, dy);
  const want = plain(x, dy);
  // toEqual tells -0 from 0 and matches NaN with NaN: the gradient is TF's dy·(x > 0) element for element.
  expect(arr(got[1])).toEqual(arr(want[1]));
  expect(arr(want[1])).toEqual(ds.map((d, i) => d * (xs[i] > 0 ? 1 : 0)).map((v) => Math.fround(v)));
  [...got, ...want].forEach((t) => t.dispose());
  expect(ef.memory().numTensors).toBe(before);
  expect(planned(jit, [x, dy])).toBe(1);
  jit.dispose();
  plain.dispose();
  [x, dy].forEach((t) => t.dispose());
});

test('a dense layer with relu: the gradient of the weights and bias as uncompiled; no rewrite without the relu in the part', () => {
  const vals = (n: number, a: number, b: number): Float32Array => Float32Array.from({ length: n }, (_, i) => Math.sin(a * i + b));
  const x = ef.constant(vals(8 * 6, 0.7, 0.1), 'float32', [8, 6]);
  const w = ef.constant(vals(6 * 5, 1.1, 0.3), 'float32', [6, 5]);
  const b = ef.constant(vals(5, 0.9, 0.2), 'float32', [5]);
  const f = (p: ef.Tensor, q: ef.Tensor, r: ef.Tensor): ef.Tensor[] => {
    const tape = new ef.GradientTape();
    tape.watch(q);
    tape.watch(r);
    const loss = tape.record(() => ef.reduceSum(ef.square(ef.relu(ef.add(ef.matmul(p, q), r)))));
    return tape.gradient(loss, [q, r]) as ef.Tensor[];
  };
  const jit = ef.trace(f, { jitCompile: 'strict' }) as Fn;
  const plain = ef.trace(f) as Fn;
  const got = jit(x, w, b);
  const want = plain(x, w, b);
  got.forEach((t, k) => arr(t).forEach((v, i) => expect(Math.abs(v - arr(want[k])[i])).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(v)))));
  [...got, ...want].forEach((t) => t.dispose());
  expect(planned(jit, [x, w, b])).toBe(1);
  expect(planned(jit, [x, w, b], true)).toBe(0);
  jit.dispose();
  plain.dispose();
  [x, w, b].forEach((t) => t.dispose());
});
