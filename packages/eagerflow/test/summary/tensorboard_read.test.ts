// TensorBoard 2.21's own reader on what ef.summary writes (fixtures/tensorboard_read.json, from
// scripts/tf-golden/tensorboard_read.py): every scalar, histogram, image, text, audio and the graph arrives under
// its tag with its steps and values. The fixture is current: this test writes the same run again and compares
// the digest of its events (wall_time aside) with the one TensorBoard read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import { floatToUint8, histogramBuckets } from '@eagerflow/saving';
import { tempLogdir } from './helpers';
import { RUN, eventsDigest, grayImages, rgbImage, tone, writeTensorBoardRun } from './tensorboard_run';

const read = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'tensorboard_read.json'), 'utf8'));
const f32 = (x: number): number => Math.fround(x);

test('the fixture is current: the writer writes today what TensorBoard read', () => {
  const a = writeTensorBoardRun(tempLogdir());
  const b = writeTensorBoardRun(tempLogdir());
  expect(eventsDigest(a)).toBe(eventsDigest(b)); // deterministic but for wall_time
  // If this fails after a writer change: npx tsc -b && /work/main/.venv-tf/bin/python scripts/tf-golden/tensorboard_read.py
  expect(eventsDigest(a)).toBe(read.digest);
  expect(read.file_name_ok).toBe(true);
});

test('TensorBoard files every tag under its plugin', () => {
  expect(read.tensor_tags).toEqual(expect.arrayContaining(['train/loss', 'traced/loss', 'weights', 'images/gray', 'images/rgb', 'notes', 'tone']));
  const plugins = Object.fromEntries(Object.entries(read.tags).map(([k, v]) => [k, (v as { plugin: string }).plugin]));
  expect(plugins).toEqual({ 'train/loss': 'scalars', 'traced/loss': 'scalars', weights: 'histograms', 'images/gray': 'images', 'images/rgb': 'images', notes: 'text', tone: 'audio' });
});

test('scalars: eager and traced (tensor step) values at their steps', () => {
  expect(read.tags['train/loss'].events).toEqual(RUN.loss.map(({ step, value }) => ({ step, value: f32(value) })));
  expect(read.tags['traced/loss'].events).toEqual(RUN.traced.map(({ step, value }) => ({ step, value: f32(value) })));
});

test('histograms: the buckets of the data', () => {
  expect(read.tags.weights.events.map((e: { step: number }) => e.step)).toEqual([0, 1]);
  for (const e of read.tags.weights.events) {
    const want = histogramBuckets(RUN.weights(e.step).map(f32), 30);
    expect(e.value.flat()).toEqual(Array.from(want));
    expect(e.value.reduce((s: number, r: number[]) => s + r[2], 0)).toBe(64);
  }
});

test('images: sizes and the pixels TF decodes from the PNGs', () => {
  const gray = read.tags['images/gray'].events[0];
  expect(gray.step).toBe(0);
  expect([gray.value.width, gray.value.height]).toEqual([8, 6]);
  expect(gray.value.images.map((im: { shape: number[] }) => im.shape)).toEqual([[6, 8, 1], [6, 8, 1]]);
  expect(gray.value.images.map((im: { pixels: number[] }) => im.pixels)).toEqual(grayImages().map((im) => im.flat(2).map((v) => floatToUint8(f32(v)))));
  const rgb = read.tags['images/rgb'].events[0];
  expect(rgb.value.images).toEqual([{ shape: [4, 5, 3], pixels: rgbImage()[0].flat(2) }]);
});

test('text and audio', () => {
  expect(read.tags.notes.events).toEqual([{ step: 0, value: RUN.text }]);
  const [clip] = read.tags.tone.events[0].value;
  expect([clip.sample_rate, clip.shape]).toEqual([RUN.sampleRate, [RUN.frames, 1]]);
  const want = tone().map((v) => Math.max(-32768, Math.min(32767, Math.round(f32(v) * 32768))) + 0); // + 0: -0 -> 0
  expect(clip.samples_int16).toEqual(want);
});

test('graph: TensorBoard reads the traced function\'s nodes', () => {
  expect(read.has_graph).toBe(true);
  const model = ef.trace((x: ef.Tensor, w: ef.Tensor) => ef.relu(ef.matmul(x, w)));
  const gd = model.getConcreteFunction(new ef.TensorSpec([null, 3], 'float32', 'x'), new ef.TensorSpec([3, 2], 'float32', 'w')).toGraphDef();
  expect(read.graph_nodes).toEqual(gd.node.map((n) => ({ name: n.name, op: n.op, input: n.input ?? [] })));
});
