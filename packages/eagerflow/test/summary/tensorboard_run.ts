// A fixed TensorBoard run written with ef.summary: scalars (eager and from a traced function with a tensor step),
// histograms, images, text, audio and a graph. scripts/tf-golden/tensorboard_read.py has TensorBoard's own
// reader load it (fixtures/tensorboard_read.json); tensorboard_read.test.ts writes it again and checks the
// fixture's digest, so the fixture stays current with the writer.
import { createHash } from 'node:crypto';
import * as ef from 'eagerflow';
import { decodeTfProto, encodeTfProto } from '@eagerflow/saving';
import { eventFile, readRecordsSync } from './helpers';

/** What the run writes, for the checks on TensorBoard's reading of it. */
export const RUN = {
  loss: [0, 1, 2, 3, 4].map((s) => ({ step: s, value: 1 / (s + 1) })),
  traced: [5, 6, 7].map((s) => ({ step: s, value: s * 0.5 })),
  weights: (step: number): number[] => Array.from({ length: 64 }, (_, i) => Math.sin(i * 0.37 + step) * (1 + step)),
  text: 'EagerFlow wrote this with **ef.summary.text**',
  toneHz: 440,
  sampleRate: 8000,
  frames: 400,
};

export function grayImages(): number[][][][] {
  return [0, 1].map((k) => Array.from({ length: 6 }, (_, y) => Array.from({ length: 8 }, (_, x) => [((x + y + k) % 8) / 7])));
}

export function rgbImage(): number[][][][] {
  return [Array.from({ length: 4 }, (_, y) => Array.from({ length: 5 }, (_, x) => [x * 50, y * 60, (x * y * 13) % 256]))];
}

export function tone(): number[] {
  return Array.from({ length: RUN.frames }, (_, i) => 0.8 * Math.sin((2 * Math.PI * RUN.toneHz * i) / RUN.sampleRate));
}

/** Writes the run into `logdir`; returns the event file's path. */
export function writeTensorBoardRun(logdir: string): string {
  const writer = ef.summary.createFileWriter(logdir);
  const model = ef.trace((x: ef.Tensor, w: ef.Tensor) => ef.relu(ef.matmul(x, w)));
  const traced = ef.trace((v: ef.Tensor, step: ef.Tensor) => {
    ef.summary.scalar('traced/loss', v, { step });
    return ef.identity(v);
  });
  writer.asDefault(() => {
    ef.tidy(() => {
      for (const { step, value } of RUN.loss) ef.summary.scalar('train/loss', value, { step });
      for (const step of [0, 1]) ef.summary.histogram('weights', ef.constant(RUN.weights(step)), { step });
      ef.summary.image('images/gray', ef.constant(grayImages()), { step: 0 });
      ef.summary.image('images/rgb', ef.constant(rgbImage(), 'int32'), { step: 0 });
      ef.summary.text('notes', RUN.text, { step: 0 });
      ef.summary.audio('tone', ef.reshape(ef.constant(tone()), [1, RUN.frames, 1]), { step: 0, sampleRate: RUN.sampleRate });
      ef.summary.graph(model.getConcreteFunction(new ef.TensorSpec([null, 3], 'float32', 'x'), new ef.TensorSpec([3, 2], 'float32', 'w')));
      for (const { step, value } of RUN.traced) traced(ef.constant(value), ef.constant(step, 'int32'));
    });
  });
  writer.close();
  return eventFile(logdir);
}

/** sha256 of the file's events with wall_time removed (the only field that differs between two writes). */
export function eventsDigest(file: string): string {
  const h = createHash('sha256');
  for (const record of readRecordsSync(file)) {
    const e = decodeTfProto('tensorflow.Event', record);
    delete e.wall_time;
    h.update(encodeTfProto('tensorflow.Event', e));
  }
  return h.digest('hex');
}
