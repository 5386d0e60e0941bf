// ef.summary writes the events TF 2.21 writes (fixtures/tf_events.json from scripts/tf-golden/summary_events.py):
// for each summary call the Event is byte-identical to TF's (wall_time aside), except PNG bytes, whose decoded
// pixels are compared (fast-png and libpng compress differently; both are lossless).
import * as ef from 'eagerflow';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeTfProto, tfProto } from '@eagerflow/saving';
import { EventObject, eventFile, readEvents, readRecordsSync, tempLogdir } from './helpers';

interface Call { kind: string; name: string; data: unknown; dtype: string; shape: number[]; options: Record<string, any> } // eslint-disable-line @typescript-eslint/no-explicit-any

// fast-png's types sit behind package.json "exports" (not read by this repo's node10 resolution).
const { decode: decodePng } = require('fast-png') as { decode(b: Uint8Array): { width: number; height: number; channels: number; depth: number; data: Uint8Array } };
const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'tf_events.json'), 'utf8'));

const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));

function callSummary(c: Call): boolean {
  const o = c.options;
  const data = typeof c.data === 'object' ? ef.constant(c.data as number[], c.dtype as ef.DType) : (c.data as number | string);
  const ok = ((): boolean => {
    switch (c.kind) {
      case 'scalar': return ef.summary.scalar(c.name, data, { step: o.step, description: o.description });
      case 'histogram': return ef.summary.histogram(c.name, data, { step: o.step, buckets: o.buckets, description: o.description });
      case 'image': return ef.summary.image(c.name, data, { step: o.step, maxOutputs: o.max_outputs });
      case 'text': return ef.summary.text(c.name, data, { step: o.step });
      case 'audio': return ef.summary.audio(c.name, data, { step: o.step, sampleRate: o.sample_rate, maxOutputs: o.max_outputs });
      default: throw new Error(c.kind);
    }
  })();
  if (data instanceof ef.Tensor) data.dispose();
  return ok;
}

const calls = fixture.calls as unknown as Call[];
const tfEvents = fixture.events as { event: EventObject; bytes: string }[];
let ours: EventObject[];
let raw: Uint8Array[];
let before: number;
let after: number;

beforeAll(() => {
  const dir = tempLogdir();
  const writer = ef.summary.createFileWriter(dir);
  before = ef.memory().numTensors;
  writer.asDefault(() => calls.forEach(callSummary));
  after = ef.memory().numTensors;
  writer.close();
  ours = readEvents(dir);
  raw = readRecordsSync(eventFile(dir));
});

test('the file starts like TF\'s: file_version brain.Event:2; one event per summary; no tensor kept', () => {
  expect(ours).toHaveLength(tfEvents.length);
  expect(ours[0].file_version).toBe('brain.Event:2');
  expect(tfEvents[0].event.file_version).toBe('brain.Event:2');
  expect(after).toBe(before);
});

const withoutWallTime = (bytes: Uint8Array): Uint8Array => {
  const type = tfProto('tensorflow.Event');
  const e = type.decode(bytes) as unknown as { wall_time?: number };
  delete e.wall_time;
  return encodeTfProto('tensorflow.Event', type.toObject(e as never) as Record<string, unknown>);
};

describe.each(calls.map((c, i) => [`${c.kind} '${c.name}'`, i] as const))('%s', (_label, i) => {
  test('the event matches TF 2.21\'s', () => {
    const mine = ours[i + 1];
    const theirs = tfEvents[i + 1];
    expect(typeof mine.wall_time).toBe('number');
    if (calls[i].kind !== 'image') {
      // Byte for byte (re-encoded without wall_time; TF's bytes were too).
      expect(Buffer.from(withoutWallTime(raw[i + 1])).toString('base64')).toBe(theirs.bytes);
      return;
    }
    const t = mine.summary.value[0].tensor;
    const tt = theirs.event.summary.value[0].tensor;
    expect(mine.step).toBe(Number(theirs.event.step));
    expect(mine.summary.value[0].tag).toBe(theirs.event.summary.value[0].tag);
    expect(mine.summary.value[0].metadata).toEqual({ plugin_data: { plugin_name: 'images' } });
    expect(t.tensor_shape.dim.map((d: { size: number }) => d.size)).toEqual(tt.tensor_shape.dim.map((d: { size: string }) => Number(d.size)));
    const strings = (t.string_val as Uint8Array[]).map((s) => Buffer.from(s));
    const tfStrings = (tt.string_val as string[]).map(b64);
    expect(strings.slice(0, 2).map(String)).toEqual(tfStrings.slice(0, 2).map((s) => Buffer.from(s).toString()));
    for (let k = 2; k < tfStrings.length; k++) {
      const a = decodePng(strings[k]);
      const b = decodePng(tfStrings[k]);
      expect([a.width, a.height, a.channels, a.depth]).toEqual([b.width, b.height, b.channels, b.depth]);
      expect(Array.from(a.data)).toEqual(Array.from(b.data));
    }
  });
});
