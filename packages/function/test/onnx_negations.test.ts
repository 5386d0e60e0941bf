// A mean of negated values div(sum(neg(u)), c) written Div(ReduceSum(u), -c) (src/onnx/negations.ts): the values of
// the unfolded lowering (NaN, infinities), but for the sign of an all-zero mean, and the planner's choices.
import * as ef from 'eagerflow';
import type { Graph } from '../src/graph';
import type { FusedWriter } from '../src/onnx/contractions';
import { foldNegatedSums } from '../src/onnx/negations';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const arr = (t: ef.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>);
type Fn = ef.TracedFunction<(...a: ef.Tensor[]) => ef.Tensor[]>;

function planned(f: Fn, args: ef.Tensor[]): number {
  const g = (f.getConcreteFunction(...args) as unknown as { graph: Graph }).graph;
  const writers = new Map<Graph['nodes'][number], FusedWriter>();
  foldNegatedSums(g, g.nodes, g.outputs, writers, new Set());
  return writers.size;
}

test('rows of zeros of either sign, NaN, infinities and plain values: the unfolded lowering\'s values, but for the sign of a zero mean', () => {
  const rows = [
    [0, 0, 0],
    [-0, -0, -0],
    [0, -0, 0],
    [NaN, 1, 2],
    [Infinity, 1, 2],
    [-Infinity, Infinity, 1],
    [0.1, -2.5, 3.25],
  ];
  const u = ef.constant(rows.flat(), 'float32', [7, 3]);
  const means = (a: ef.Tensor, negated: (m: ef.Tensor) => ef.Tensor): ef.Tensor[] => {
    const m = ef.multiply(a, 1);
    return [ef.divide(ef.reduceSum(negated(m), -1), 3), ef.divide(ef.reduceSum(negated(ef.multiply(a, 2)), 0, true), 4)];
  };
  const folded = ef.trace((a: ef.Tensor): ef.Tensor[] => means(a, (m) => ef.negative(m)), { jitCompile: 'strict' }) as Fn;
  // The same means with every negation also returned: not folded (ONNX Runtime's ReduceSum of the negated values).
  const unfolded = ef.trace((a: ef.Tensor): ef.Tensor[] => {
    const kept: ef.Tensor[] = [];
    const out = means(a, (m) => {
      const n = ef.negative(m);
      kept.push(n);
      return n;
    });
    return [...out, ...kept];
  }, { jitCompile: 'strict' }) as Fn;
  const got = folded(u);
  const want = unfolded(u);
  expect(planned(folded, [u])).toBe(2);
  expect(planned(unfolded, [u])).toBe(0);
  got.forEach((t, k) => {
    const w = arr(want[k]);
    arr(t).forEach((v, i) => {
      // A sum of zeros is +0 either way, so an all-zero mean is -0 (+0 / -c) where the unfolded one is +0.
      expect(v === 0 ? 0 : v).toEqual(w[i] === 0 ? 0 : w[i]);
    });
  });
  [...got, ...want].forEach((t) => t.dispose());
  folded.dispose();
  unfolded.dispose();
  u.dispose();
});

test('not taken: the negation read elsewhere, a divisor that is not a constant', () => {
  const u = ef.constant([1, -2, 3, 4], 'float32', [2, 2]);
  const d = ef.constant([2, 4], 'float32', [2]);
  const f = (a: ef.Tensor, b: ef.Tensor): ef.Tensor[] => {
    const n = ef.negative(ef.multiply(a, 1));
    return [ef.divide(ef.reduceSum(n, -1), 3), n, ef.divide(ef.reduceSum(ef.negative(ef.multiply(a, 2)), -1), b)];
  };
  const jit = ef.trace(f, { jitCompile: 'strict' }) as Fn;
  const plain = ef.trace(f) as Fn;
  const got = jit(u, d);
  const want = plain(u, d);
  got.forEach((t, k) => expect(arr(t)).toEqual(arr(want[k])));
  [...got, ...want].forEach((t) => t.dispose());
  expect(planned(jit, [u, d])).toBe(0);
  jit.dispose();
  plain.dispose();
  [u, d].forEach((t) => t.dispose());
});
