// linspace through GraphDef: num = 0 (empty, like tf.linspace) saves as a Const, since TF's LinSpace op rejects
// num = 0; a LinSpace node with num <= 0 in a loaded graph raises as TF's kernel does.
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

/** Saves `fn` traced with folding off (so linspace stays a node). */
function save(fn: () => ef.Tensor): ef.SavedFunctionArtifacts {
  const fold = ef.internal.passConfig.maxFoldElements;
  ef.internal.passConfig.maxFoldElements = 0;
  try {
    return ef.saveFunction(ef.trace(fn, { inputSignature: [] }));
  } finally {
    ef.internal.passConfig.maxFoldElements = fold;
  }
}
const ops = (a: ef.SavedFunctionArtifacts): string[] => (a.modelTopology.node as { op: string }[]).map((n) => n.op);

test('linspace(0, 1, 0) saves as an empty float32 Const (no LinSpace node) and loads back as shape [0]', () => {
  const a = save(() => ef.linspace(0, 1, 0));
  expect(ops(a)).not.toContain('LinSpace');
  const f = ef.loadFunction<ef.Tensor>(a);
  const y = f();
  expect([y.dtype, y.shape.asList(), Array.from(y.dataSync() as ArrayLike<number>)]).toEqual(['float32', [0], []]);
  ef.dispose(y);
  f.dispose();
});

test('linspace(0, 1, 3) saves as LinSpace and loads back', () => {
  const a = save(() => ef.linspace(0, 1, 3));
  expect(ops(a)).toContain('LinSpace');
  const f = ef.loadFunction<ef.Tensor>(a);
  const y = f();
  expect(y.arraySync()).toEqual([0, 0.5, 1]);
  ef.dispose(y);
  f.dispose();
});

test('a loaded LinSpace node with num = 0 raises (TF: "Requires num > 0"), leaking nothing', () => {
  const a = save(() => ef.linspace(0, 1, 3));
  // Weights in order start, stop, num (4 bytes each): set num to 0.
  const names = a.weightSpecs.map((s) => s.name);
  expect(names).toEqual(['start', 'stop', 'num']);
  const data = a.weightData.slice(0);
  new Int32Array(data, 8, 1)[0] = 0;
  const before = ef.memory().numTensors;
  const caught = thrown(() => ef.loadFunction<ef.Tensor>({ ...a, weightData: data })());
  expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
  expect((caught as Error).message).toMatch(/\(LinSpace\): LinSpace requires num > 0 \(got 0, expected num >= 1\)/);
  expect(ef.memory().numTensors).toBe(before);
});
