// GradientTapes release their FinalizationRegistry cell when done (gradient, dispose, `using`): a synchronous loop
// of traced-gradient steps keeps a flat heap (before: 140-290 bytes per tape until the event loop turned).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as ef from 'eagerflow';

const root = path.resolve(__dirname, '..', '..', '..');
// EF_TAPE_HEAP_STEPS=100000 for the full loop (about 40 s); the default keeps the suite quick.
const STEPS = Number(process.env.EF_TAPE_HEAP_STEPS ?? 10000);

test(`${STEPS} synchronous traced-gradient steps: heap growth under 40 bytes per step, no tensors leaked`, () => {
  const r = spawnSync(process.execPath, ['--expose-gc', '-r', path.join(root, 'scripts/fuzz/register-src.js'), path.join(__dirname, 'tape_heap_child.ts'), String(STEPS)], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as { steps: number; grewBytes: number; leakedTensors: number };
  expect(out.leakedTensors).toBe(0);
  // Unregistered tapes: about 10 bytes per step measured (V8's own noise); registered ones grew 147.
  expect(out.grewBytes / out.steps).toBeLessThan(40);
});

describe('a tape leaves the registry when it is done', () => {
  const x = ef.constant(3);
  const registered = (t: ef.GradientTape): boolean => (t as unknown as { registered: boolean }).registered;
  const recorded = (t: ef.GradientTape): ef.Tensor => t.record(() => {
    t.watch(x);
    return ef.multiply(x, x);
  });

  test('after gradient on a non-persistent tape', () => {
    const tape = new ef.GradientTape();
    expect(registered(tape)).toBe(false);
    const y = recorded(tape);
    expect(registered(tape)).toBe(true);
    expect((tape.gradient(y, x) as ef.Tensor).dataSync()[0]).toBe(6);
    expect(registered(tape)).toBe(false);
  });

  test('on dispose of a persistent tape (not after its gradients)', () => {
    const tape = new ef.GradientTape({ persistent: true });
    const y = recorded(tape);
    tape.gradient(y, x);
    expect(registered(tape)).toBe(true);
    tape.dispose();
    expect(registered(tape)).toBe(false);
  });

  test('on Symbol.dispose (a `using` declaration)', () => {
    const tape = new ef.GradientTape({ persistent: true });
    recorded(tape);
    tape[Symbol.dispose]();
    expect(registered(tape)).toBe(false);
  });
});
