// A class mask of labels over a constant range(C) written as one Gather of a C x C bool identity
// (src/onnx/class_masks.ts): the same elements as the uncompiled trace, an out-of-range label still failing, and
// the planner's choices (not taken for ids other than a range, nor with the gathered labels read elsewhere).
import * as ef from 'eagerflow';
import type { Graph } from '../src/graph';
import type { FusedWriter } from '../src/onnx/contractions';
import { writeClassMasks } from '../src/onnx/class_masks';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const arr = (t: ef.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>);
type Fn = ef.TracedFunction<(...a: ef.Tensor[]) => ef.Tensor[]>;

/** The equal nodes of `f`'s traced graph the planner writes as a Gather, and how many nodes it absorbs. */
function planned(f: Fn, args: ef.Tensor[]): { masks: number; absorbed: number } {
  const g = (f.getConcreteFunction(...args) as unknown as { graph: Graph }).graph;
  const writers = new Map<Graph['nodes'][number], FusedWriter>();
  const absorbed = new Set<Graph['nodes'][number]>();
  writeClassMasks(g, g.nodes, g.outputs, writers, absorbed);
  return { masks: [...writers.keys()].filter((n) => n.prim.name === 'equal').length, absorbed: absorbed.size };
}

/** mask(labels, ids) as classMask spells it, and a product reading it. */
const maskOf = (ids: ef.Tensor) => (y: ef.Tensor, z: ef.Tensor): ef.Tensor[] => {
  const m = ef.equal(ef.expandDims(ef.gather(ids, y, 0), -1), ids);
  return [m, ef.where(m, z, 0)];
};

test('a sparse cross-entropy and its gradient: the mask is a Gather of the identity, elements as uncompiled', () => {
  const logits = ef.constant(Float32Array.from({ length: 60 }, (_, i) => Math.sin(i * 0.37) * 3), 'float32', [6, 10]);
  const labels = ef.constant([0, 9, 3, 3, 7, 1], 'int32', [6]);
  const f = (z: ef.Tensor, y: ef.Tensor): ef.Tensor[] => {
    const tape = new ef.GradientTape();
    tape.watch(z);
    const loss = tape.record(() => ef.reduceSum(ef.nn.sparseSoftmaxCrossEntropyWithLogits(y, ef.multiply(z, 1))));
    return [loss, tape.gradient(loss, z) as ef.Tensor];
  };
  const jit = ef.trace(f, { jitCompile: 'strict' }) as Fn;
  const plain = ef.trace(f) as Fn;
  const got = jit(logits, labels);
  const want = plain(logits, labels);
  got.forEach((t, k) => arr(t).forEach((v, i) => expect(Math.abs(v - arr(want[k])[i])).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(v)))));
  [...got, ...want].forEach((t) => t.dispose());
  expect(planned(jit, [logits, labels])).toEqual({ masks: 1, absorbed: 2 });
  // A label outside [0, C) still fails when the compiled function runs (ONNX Runtime's Gather bounds).
  const bad = ef.constant([0, 10, 3, 3, 7, 1], 'int32', [6]);
  const before = ef.memory().numTensors;
  expect(() => jit(logits, bad)).toThrow();
  expect(ef.memory().numTensors).toBe(before);
  jit.dispose();
  plain.dispose();
  [logits, labels, bad].forEach((t) => t.dispose());
});

test('the mask itself returned: element-equal; ids that are not a range, or gathered labels read elsewhere: not taken', () => {
  const y = ef.constant([2, 0, 1, 1], 'int32', [4]);
  const z = ef.constant(Float32Array.from({ length: 12 }, (_, i) => i - 5.5), 'float32', [4, 3]);
  const range = ef.constant([0, 1, 2], 'int32', [3]);
  const perm = ef.constant([0, 2, 1], 'int32', [3]);
  const readElsewhere = (a: ef.Tensor, b: ef.Tensor): ef.Tensor[] => {
    const picked = ef.gather(range, a, 0);
    return [ef.equal(ef.expandDims(picked, -1), range), ef.multiply(picked, 2), ef.multiply(b, 1)];
  };
  const cases: [(a: ef.Tensor, b: ef.Tensor) => ef.Tensor[], number][] = [[maskOf(range), 1], [maskOf(perm), 0], [readElsewhere, 0]];
  for (const [fn, masks] of cases) {
    const jit = ef.trace(fn, { jitCompile: 'strict' }) as Fn;
    const plain = ef.trace(fn) as Fn;
    const got = jit(y, z);
    const want = plain(y, z);
    got.forEach((t, k) => expect(arr(t)).toEqual(arr(want[k])));
    [...got, ...want].forEach((t) => t.dispose());
    expect(planned(jit, [y, z]).masks).toBe(masks);
    jit.dispose();
    plain.dispose();
  }
  [y, z, range, perm].forEach((t) => t.dispose());
});
