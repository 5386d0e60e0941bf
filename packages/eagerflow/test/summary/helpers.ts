// Reading event files back in tests: unframe with @eagerflow/saving's RecordUnframer (masked CRCs checked) and
// decode each tensorflow.Event.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RecordUnframer, decodeTfProto } from '@eagerflow/saving';

export type EventObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function tempLogdir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ef-summary-'));
}

/** The raw records of an event file. */
export function readRecordsSync(file: string): Uint8Array[] {
  const u = new RecordUnframer({ file });
  const out = u.push(new Uint8Array(fs.readFileSync(file)));
  return [...out, ...u.end()];
}

/** The single event file in `logdir`. */
export function eventFile(logdir: string): string {
  const files = fs.readdirSync(logdir).filter((f) => f.startsWith('events.out.tfevents.'));
  if (files.length !== 1) throw new Error(`expected one event file in ${logdir}, found ${files.join(', ')}`);
  return path.join(logdir, files[0]);
}

export function readEvents(logdir: string): EventObject[] {
  return readRecordsSync(eventFile(logdir)).map((r) => decodeTfProto<EventObject>('tensorflow.Event', r));
}
