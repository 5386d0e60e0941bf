// ef.utils.Progbar prints what Keras 3's Progbar prints for the same calls and clock
// (fixtures/keras_progbar.json from scripts/tf-golden/progbar.py), on a TTY (one redrawn line) and off it.
import * as ef from 'eagerflow';
import * as fs from 'node:fs';
import * as path from 'node:path';

const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'keras_progbar.json'), 'utf8'));

interface Call { time: number; method: 'update' | 'add'; args: unknown[] }
interface Case { name: string; options: Record<string, unknown>; calls: Call[]; tty: string; plain: string }

function replay(c: Case, isTTY: boolean): string {
  let clock = fixture.start_time;
  let out = '';
  const o = c.options;
  const bar = new ef.utils.Progbar(o.target as number | null, {
    width: o.width as number | undefined,
    verbose: o.verbose as 0 | 1 | 2 | undefined,
    interval: o.interval as number | undefined,
    statefulMetrics: o.stateful_metrics as string[] | undefined,
    unitName: o.unit_name as string | undefined,
    stream: { write: (s: string) => { out += s; }, isTTY },
    now: () => clock,
  });
  for (const call of c.calls) {
    clock = call.time;
    const values = call.args[1] as [string, number][] | null;
    if (call.method === 'update') bar.update(call.args[0] as number, values, call.args[2] as boolean | undefined);
    else bar.add(call.args[0] as number, values);
  }
  return out;
}

describe.each((fixture.cases as Case[]).map((c) => [c.name, c] as const))('%s', (_name, c) => {
  test('on a TTY: the same redrawn line as Keras', () => expect(replay(c, true)).toBe(c.tty));
  test('off a TTY: the same plain lines as Keras', () => expect(replay(c, false)).toBe(c.plain));
});

test('metric values may be scalar tensors; no tensor is kept', () => {
  let out = '';
  const bar = new ef.utils.Progbar(2, { stream: { write: (s: string) => { out += s; } }, interval: 0, now: () => 0 });
  const loss = ef.constant(0.5);
  const before = ef.memory().numTensors;
  bar.update(1, [['loss', loss]]);
  bar.update(2, [['loss', 1.5]]);
  expect(ef.memory().numTensors).toBe(before);
  expect(out).toContain('loss: 0.5000');
  expect(out).toContain('loss: 1.5000');
  loss.dispose();
});

test('bad options are clear errors', () => {
  expect(() => new ef.utils.Progbar(-1)).toThrow(/target must be a non-negative number or null/);
  expect(() => new ef.utils.Progbar(5, { width: 2.5 })).toThrow(/width must be a non-negative integer/);
  expect(() => new ef.utils.Progbar(5, { verbose: 3 as 1 })).toThrow(/verbose must be 0, 1 or 2/);
});
