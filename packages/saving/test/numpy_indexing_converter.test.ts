// Functions saved from numpy-style indexing (`x.at(...)`) run in tfjs-converter and read back into EagerFlow with
// the same values: a slice that shrinks axes while striding others is written as StridedSlice + Squeeze, since
// tfjs-core's strided kernel indexes the input with the shrunk output's coordinates.
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';

type Index = Parameters<ef.Tensor['at']>[number];
const CASES: Index[][] = [
  [0, '::2', '1:5'], [1, ':', -1], ['::2', 0], [-1, '1:', '::-1'], ['...', 2], [0, null, '2:'],
  ['...', '::2', 1], [1, '...', '::-2'], ['...', 0, '::3'], [null, 0, '...', '::2'], [-1, '::-2', -1], ['1::2', 0, '::-1'],
];

type Json = { modelTopology: { node: { op: string }[] } };
const opsOf = (a: unknown): string[] => (a as Json).modelTopology.node.map((n) => n.op);

describe('x.at(...) saved, in tfjs-converter', () => {
  const x = ef.reshape(ef.range(0, 3 * 5 * 6), [3, 5, 6]);
  afterAll(() => x.dispose());
  test.each(CASES.map((c) => [JSON.stringify(c), c] as const))('%s: static and unknown batch dims', async (_n, idx) => {
    const want = x.at(...idx);
    for (const spec of [ef.TensorSpec.fromTensor(x), new ef.TensorSpec([null, 5, null], 'float32')]) {
      const traced = ef.trace((t: ef.Tensor) => t.at(...idx));
      const cf = traced.getConcreteFunction(spec);
      const artifacts = ef.saveFunction(cf);
      const model = await loadGraphModel(tf.io.fromMemory(artifacts as unknown as tf.io.ModelArtifacts));
      const out = model.execute(x.toTfjs()) as tf.Tensor;
      const loaded = ef.loadFunction(artifacts);
      const back = loaded(x) as ef.Tensor;
      try {
        expect(out.shape).toEqual(want.shape.asList());
        expect(Array.from(out.dataSync())).toEqual(Array.from(want.dataSync() as Float32Array));
        expect(back.shape.asList()).toEqual(want.shape.asList());
        expect(Array.from(back.dataSync() as Float32Array)).toEqual(Array.from(want.dataSync() as Float32Array));
      } finally {
        out.dispose();
        model.dispose();
        ef.dispose([back]);
        cf.dispose();
        traced.dispose();
      }
    }
    want.dispose();
  });

  test('a shrink beside a stride other than 1 is written StridedSlice + Squeeze; a plain slice is one StridedSlice', () => {
    const form = (idx: Index[]): string[] => opsOf(ef.saveFunction(ef.trace((t: ef.Tensor) => t.at(...idx)).getConcreteFunction(ef.TensorSpec.fromTensor(x)))).filter((o) => o !== 'Placeholder' && o !== 'Const' && o !== 'Identity');
    expect(form([0, '::2', '1:5'])).toEqual(['StridedSlice', 'Squeeze']);
    expect(form([0, ':', '1:5'])).toEqual(['StridedSlice']);
    expect(form(['::2', '1:3'])).toEqual(['StridedSlice']);
  });
});
