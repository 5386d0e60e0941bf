// reshapes to the shape a value already has are written as no ONNX node (src/onnx/no_op_reshapes.ts): the same
// elements as the uncompiled trace, returned or read further, and the planner's choices.
import * as ef from 'eagerflow';
import type { Graph } from '../src/graph';
import type { FusedWriter } from '../src/onnx/contractions';
import { elideNoOpReshapes } from '../src/onnx/no_op_reshapes';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const arr = (t: ef.Tensor): number[] => Array.from(t.dataSync() as ArrayLike<number>);
type Fn = ef.TracedFunction<(...a: ef.Tensor[]) => ef.Tensor[]>;

test('a reshape to its own shape is no node, read further or returned; a reshape to another shape stays', () => {
  const x = ef.constant([1, -2, NaN, -0, 5, Infinity], 'float32', [3, 2]);
  const f = (a: ef.Tensor): ef.Tensor[] => {
    const m = ef.multiply(a, 2);
    const same = ef.reshape(m, [3, 2]);
    return [ef.add(same, 1), ef.reshape(ef.subtract(a, 1), [3, 2]), ef.reshape(m, [2, 3]), ef.reshape(m, [-1, 2])];
  };
  const jit = ef.trace(f, { jitCompile: 'strict' }) as Fn;
  const plain = ef.trace(f) as Fn;
  [...jit(x), ...plain(x)].forEach((t) => t.dispose());
  const before = ef.memory().numTensors;
  const got = jit(x);
  const want = plain(x);
  got.forEach((t, k) => {
    expect(t.shape.asList()).toEqual(want[k].shape.asList());
    expect(arr(t)).toEqual(arr(want[k]));
  });
  [...got, ...want].forEach((t) => t.dispose());
  expect(ef.memory().numTensors).toBe(before);
  const g = (jit.getConcreteFunction(x) as unknown as { graph: Graph }).graph;
  const writers = new Map<Graph['nodes'][number], FusedWriter>();
  elideNoOpReshapes(g, g.nodes, writers, new Set());
  const reshapes = g.nodes.filter((n) => n.prim.name === 'reshape');
  // [3, 2] -> [3, 2] twice (one read by add, one returned) and [-1, 2] (static [3, 2]); [3, 2] -> [2, 3] stays.
  expect(reshapes).toHaveLength(4);
  expect([...writers.keys()].map((n) => staticOut(g, n))).toEqual([[3, 2], [3, 2], [3, 2]]);
  jit.dispose();
  plain.dispose();
  x.dispose();
});

const staticOut = (g: Graph, n: Graph['nodes'][number]): readonly (number | null)[] | null => g.values[n.outputs[0]].shape;
