// Child process of tape_heap.test.ts (run with --expose-gc): a synchronous loop of traced-gradient steps, then the heap growth.
import * as ef from 'eagerflow';

const steps = Number(process.argv[2] ?? 100000);
const w = new ef.Variable(ef.constant([0.5, -0.25]));
const f = ef.trace((x: ef.Tensor) => ef.reduceSum(ef.square(ef.multiply(x, w.value()))));
const x = ef.constant([1, 2]);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('tape_heap_child: run node with --expose-gc');

function step(): void {
  const tape = new ef.GradientTape();
  const y = tape.record(() => f(x));
  (tape.gradient(y, w) as ef.Tensor).dispose();
  y.dispose();
}

// Warm-up (traces, caches), then the measured loop; nothing yields to the event loop in between.
for (let i = 0; i < 2000; i++) step();
gc();
const before = process.memoryUsage().heapUsed;
const tensors = ef.memory().numTensors;
for (let i = 0; i < steps; i++) step();
gc();
const after = process.memoryUsage().heapUsed;
process.stdout.write(JSON.stringify({ steps, grewBytes: after - before, leakedTensors: ef.memory().numTensors - tensors }));
