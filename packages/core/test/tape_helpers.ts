// Shared helpers for the tape tests: leak checks around each scenario and value readers.
import * as ef from 'eagerflow';

type Counts = { numTensors: number; numDataBuffers: number };

function counts(): Counts {
  const m = ef.memory();
  return { numTensors: m.numTensors, numDataBuffers: m.numDataBuffers };
}

/** Runs `fn` inside ef.tidy and checks that no tensor or data buffer (a forgotten pin) is left behind. */
export function noLeak(fn: () => void): void {
  const before = counts();
  ef.tidy(fn);
  expect(counts()).toEqual(before);
}

/** The values of a gradient (null stays null). */
export function val(t: ef.Tensor | null | undefined): unknown {
  if (t === undefined) throw new Error('val: got undefined, expected a Tensor or null');
  return t === null ? null : t.arraySync();
}

/** Silences (and records) console.warn in each test of the file; returns a getter of the running test's spy. */
export function captureWarnings(): () => jest.SpyInstance {
  let spy: jest.SpyInstance | undefined;
  beforeEach(() => {
    spy = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => spy?.mockRestore());
  return () => spy as jest.SpyInstance;
}

/** Records `fn` (given the tape) on a fresh tape watching `watch`; returns the tape and fn's value. */
export function taped<T>(watch: unknown, fn: (tape: ef.GradientTape) => T, options: ef.GradientTapeOptions = {}): [ef.GradientTape, T] {
  const tape = new ef.GradientTape(options);
  const y = tape.record(() => {
    tape.watch(watch);
    return fn(tape);
  });
  return [tape, y];
}
