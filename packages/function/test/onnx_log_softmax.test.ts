// logSoftmax's records written as ONNX LogSoftmax, and its gradient's (r / sum(exp)) · exp as r · Softmax
// (src/onnx/log_softmax.ts): values within a few float32 ulps of the uncompiled trace (ONNX Runtime's own exp and
// summation order), the same NaN and infinity positions, and the planner's choices (which patterns it takes).
import * as ef from 'eagerflow';
import type { Graph } from '../src/graph';
import type { FusedWriter } from '../src/onnx/contractions';
import { type Fn, arr, compiledAgainstPlain } from './compiled_pairs';
import { writeLogSoftmaxes } from '../src/onnx/log_softmax';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const vals = (n: number, a: number, b: number, scale = 1): Float32Array => Float32Array.from({ length: n }, (_, i) => Math.sin(a * i + b) * scale);

/** The records the planner writes another way over `f`'s traced graph (names, sorted), and how many it absorbs. */
function planned(f: Fn, args: ef.Tensor[]): { written: string[]; absorbed: number } {
  const g = (f.getConcreteFunction(...args) as unknown as { graph: Graph }).graph;
  const writers = new Map<Graph['nodes'][number], FusedWriter>();
  const absorbed = new Set<Graph['nodes'][number]>();
  writeLogSoftmaxes(g, g.nodes, g.outputs, writers, absorbed);
  return { written: [...writers.keys()].map((n) => n.prim.name).sort(), absorbed: absorbed.size };
}

/** Compiled (strict) and uncompiled results of `fn`: same NaN and infinity positions, finite values within `ulps` float32 ulps of max(1, |v|). */
function close(fn: (...a: ef.Tensor[]) => ef.Tensor[], args: ef.Tensor[], ulps = 8): Fn {
  return compiledAgainstPlain(fn, args, (t, want) => {
    const w = arr(want);
    arr(t).forEach((v, i) => {
      if (!Number.isFinite(w[i])) expect(v).toBe(w[i]);
      else expect(Math.abs(v - w[i])).toBeLessThanOrEqual(ulps * 2 ** -23 * Math.max(1, Math.abs(w[i])));
    });
  });
}

test('logSoftmax alone: LogSoftmax, with -inf, +inf, NaN and large logits in rows of their own', () => {
  const rows = [
    [0.5, -1, 2, 0.25],
    [-Infinity, 1, 2, -Infinity],
    [Infinity, 1, 2, 3],
    [NaN, 1, 2, 3],
    [1e30, -1e30, 3e29, 0],
    [-88, -100, -120, -90],
  ];
  const x = ef.constant(rows.flat(), 'float32', [6, 4]);
  const f = (a: ef.Tensor): ef.Tensor[] => [ef.nn.logSoftmax(ef.multiply(a, 1))];
  const jit = close(f, [x]);
  expect(planned(jit, [x])).toEqual({ written: ['sub'], absorbed: 6 });
  jit.dispose();
  x.dispose();
});

test('over a middle axis of a rank-3 value', () => {
  const x = ef.constant(vals(60, 0.9, 0.3, 4), 'float32', [3, 4, 5]);
  const jit = close((a: ef.Tensor): ef.Tensor[] => [ef.nn.logSoftmax(ef.multiply(a, 2), 1)], [x]);
  expect(planned(jit, [x]).written).toEqual(['sub']);
  jit.dispose();
  x.dispose();
});

test('a sparse softmax cross-entropy and its gradient: LogSoftmax, and g - sum(g) · Softmax', () => {
  const logits = ef.constant(vals(128 * 10, 0.37, 0.1, 3), 'float32', [128, 10]);
  const labels = ef.constant(Int32Array.from({ length: 128 }, (_, i) => (i * 7) % 10), 'int32', [128]);
  const f = (z: ef.Tensor, y: ef.Tensor): ef.Tensor[] => {
    const tape = new ef.GradientTape();
    tape.watch(z);
    const loss = tape.record(() => ef.reduceMean(ef.nn.sparseSoftmaxCrossEntropyWithLogits(y, ef.multiply(z, 1))));
    return [loss, tape.gradient(loss, z) as ef.Tensor];
  };
  const jit = close(f, [logits, labels]);
  // The gradient g + sum(-g) · softmax is written g - sum(g) · softmax (by the add, the product absorbed).
  expect(planned(jit, [logits, labels]).written).toEqual(['add', 'sub']);
  jit.dispose();
  [logits, labels].forEach((t) => t.dispose());
});

test('not taken: the sum of exps returned, a max over another axis, softmax (no log)', () => {
  const x = ef.constant(vals(24, 0.61, 0.2, 3), 'float32', [4, 6]);
  // logSoftmax's records spelled out, its sum of exps also returned.
  const sumKept = (a: ef.Tensor): ef.Tensor[] => {
    const z = ef.subtract(a, ef.stopGradient(ef.reduceMax(a, -1, true)));
    const s = ef.reduceSum(ef.exp(z), -1, true);
    return [ef.subtract(z, ef.log(s)), s];
  };
  // The max over axis 0, the sum over axis 1: a shift that is not logSoftmax's.
  const otherAxis = (a: ef.Tensor): ef.Tensor[] => {
    const z = ef.subtract(a, ef.stopGradient(ef.reduceMax(a, 0, true)));
    return [ef.subtract(z, ef.log(ef.reduceSum(ef.exp(z), -1, true)))];
  };
  const soft = (a: ef.Tensor): ef.Tensor[] => [ef.nn.softmax(ef.multiply(a, 1))];
  for (const f of [sumKept, otherAxis, soft]) {
    const jit = close(f, [x]);
    expect(planned(jit, [x])).toEqual({ written: [], absorbed: 0 });
    jit.dispose();
  }
  x.dispose();
});
