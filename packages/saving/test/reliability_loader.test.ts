// Issue 17 §2: loader passes are linear in nodes + edges; loadLimits bounds edges; cycle messages stay short.
import * as ef from 'eagerflow';

type T = ef.Tensor;
type Artifacts = ReturnType<typeof ef.saveFunction>;

function base(): Artifacts {
  return ef.saveFunction(ef.trace((x: T) => ef.add(x, 1), { inputSignature: [new ef.TensorSpec([2])] }));
}

/**
 * Loads `a` within 10 s (generous: measured ~0.05 s; the quadratic passes needed minutes, whatever the machine) and
 * checks that the loaded function maps `x` to `want`.
 */
function expectLoadsFastAndRuns(a: Artifacts, x: number[], want: number[]): void {
  const t0 = process.hrtime.bigint();
  const f = ef.loadFunction<T>(a);
  expect(Number(process.hrtime.bigint() - t0) / 1e9).toBeLessThan(10);
  expect(f(x).arraySync()).toEqual(want);
  f.dispose();
}

describe('linear loading', () => {
  test('1e5 control inputs on one node load fast (quadratic took 180 s) and the function still runs', () => {
    const a = base();
    const id = a.modelTopology.node.find((n) => n.op === 'Identity') as { input: string[] };
    for (let i = 0; i < 1e5; i++) id.input.push(`^${id.input[0]}`);
    expectLoadsFastAndRuns(a, [1, 2], [2, 3]);
  });

  test('1e5 control inputs over 1e4 NoOps in a long dependency chain', () => {
    const a = base();
    const nodes = a.modelTopology.node as { name: string; op: string; input?: string[]; attr?: unknown }[];
    const id = nodes.find((n) => n.op === 'Identity') as { input: string[] };
    const add = nodes.find((n) => n.op === 'AddV2') as { name: string };
    // NoOps form a chain (each waits for the previous) and each also waits for the AddV2: 2 edges per node, x 10 each.
    let prev = add.name;
    for (let i = 0; i < 1e4; i++) {
      const name = `wait_${i}`;
      nodes.push({ name, op: 'NoOp', input: Array.from({ length: 10 }, (_, k) => `^${k % 2 ? prev : add.name}`) });
      prev = name;
    }
    id.input.push(`^${prev}`);
    expectLoadsFastAndRuns(a, [0, 1], [1, 2]);
  });

  test('loadLimits.maxEdges bounds the edges (data and control) interpreted, with a clear error', () => {
    const a = base();
    const id = a.modelTopology.node.find((n) => n.op === 'Identity') as { input: string[] };
    for (let i = 0; i < 50; i++) id.input.push(`^${id.input[0]}`);
    const saved = ef.loadLimits.maxEdges;
    expect(saved).toBe(1_000_000);
    ef.loadLimits.maxEdges = 40;
    const before = ef.memory().numTensors;
    try {
      expect(() => ef.loadFunction(a)).toThrow(/^loadFunction: the graph has too many edges to load \(the graph\) \(got more than 40 inputs \(data and control\) to interpret, expected at most 40\)\. Raise ef\.loadLimits\.maxEdges if the file is trusted\.$/);
      expect(() => ef.loadFunction(a)).toThrow(ef.errors.InvalidArgumentError);
    } finally {
      ef.loadLimits.maxEdges = saved;
    }
    expect(ef.memory().numTensors).toBe(before);
    const f = ef.loadFunction<T>(a);
    expect(f([1, 1]).arraySync()).toEqual([2, 2]);
    f.dispose();
  });

  test('a long cycle is reported with its first and last nodes and a count, not every name', () => {
    const a = base();
    const nodes = a.modelTopology.node as { name: string; op: string; input?: string[] }[];
    for (let i = 0; i < 500; i++) nodes.push({ name: `c${i}`, op: 'Identity', input: [`c${(i + 1) % 500}`] });
    let message = '';
    try {
      ef.loadFunction(a);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^loadFunction: the graph has a cycle \(got c0 -> c1 -> c2 -> c3 -> \.\.\. \(493 more\) -> c497 -> c498 -> c499 -> c0, expected an acyclic graph\)/);
    expect(message.length).toBeLessThan(400);
  });

  test('common subexpressions stay linear when many nodes share a first input, and still merge duplicates', () => {
    const n = 20_000;
    const f = ef.trace((x: T) => {
      const outs: T[] = [];
      const cs = Array.from({ length: n }, (_, i) => ef.constant(i));
      // n distinct reads of x, then the same n again (all duplicates), past the list-to-map switch.
      for (let r = 0; r < 2; r++) for (let i = 0; i < n; i++) outs.push(ef.add(x, cs[i]));
      return outs.reduce((a, b) => ef.add(a, b));
    }, { inputSignature: [new ef.TensorSpec([1])] });
    const t0 = process.hrtime.bigint();
    const cf = f.getConcreteFunction();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    expect(seconds).toBeLessThan(30);
    const adds = cf.graph.nodes.filter((node) => node.prim.name === 'add' && node.inputs[0] === cf.graph.inputs[0]);
    expect(adds.length).toBe(n);
    const x = ef.constant([0]);
    const y = f(x);
    const want = 2 * ((n * (n - 1)) / 2);
    // float32 accumulation over 40k terms: a relative tolerance.
    expect(Math.abs((y.item() as number) - want) / want).toBeLessThan(1e-4);
    ef.dispose([x, y]);
    f.dispose();
  }, 60_000);
});
