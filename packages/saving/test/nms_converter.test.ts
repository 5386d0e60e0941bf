// The saved NonMaxSuppressionV3/V4/V5 nodes run in tfjs-converter (a dynamic op: executeAsync) with ef's results.
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';

const BOXES = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1], [0, 100, 1, 101]];
const SCORES = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3];

const FNS: [string, (b: ef.Tensor, s: ef.Tensor) => ef.Tensor[]][] = [
  ['nonMaxSuppression', (b, s) => [ef.image.nonMaxSuppression(b, s, 4, { iouThreshold: 0.5 })]],
  ['nonMaxSuppressionWithScores', (b, s) => Object.values(ef.image.nonMaxSuppressionWithScores(b, s, 5, { scoreThreshold: 0.4, softNmsSigma: 0.5 }))],
  ['nonMaxSuppressionPadded', (b, s) => Object.values(ef.image.nonMaxSuppressionPadded(b, s, 5, { scoreThreshold: 0.4, padToMaxOutputSize: true }))],
];

test.each(FNS)('%s: saved, run by tfjs-converter (executeAsync), equals ef', async (_name, fn) => {
  const b = ef.constant(BOXES);
  const s = ef.constant(SCORES);
  const cf = ef.trace(fn).getConcreteFunction(ef.TensorSpec.fromTensor(b), ef.TensorSpec.fromTensor(s));
  const want = cf.call(b, s) as ef.Tensor[];
  const model = await loadGraphModel(tf.io.fromMemory(ef.saveFunction(cf) as unknown as tf.io.ModelArtifacts));
  const raw = await model.executeAsync([b.toTfjs(), s.toTfjs()]);
  const got = Array.isArray(raw) ? raw : [raw];
  expect(got.map((t) => t.arraySync())).toEqual(want.map((t) => t.arraySync()));
  tf.dispose(got);
  model.dispose();
  ef.dispose([...want, b, s]);
  cf.dispose();
});
