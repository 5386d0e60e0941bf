// Issue 17: a seeded fuzz over traced programs whose callbacks return mis-shaped values: the right result or an ef.errors error, never a silently wrong value.
import * as ef from 'eagerflow';
import { Rng } from '../../../test/harness/rng';

type T = ef.Tensor;

/** A seeded uniform [0, 1) draw (the harness's mulberry32: the same programs every run). */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

/** One elementwise step: the ef op and its float64 reference (`c` is a constant vector of length n). */
interface Step {
  readonly name: string;
  readonly op: (y: T, c: T) => T;
  readonly ref: (y: number, c: number) => number;
}

const STEPS: Step[] = [
  { name: 'add c', op: (y, c) => ef.add(y, c), ref: (y, c) => y + c },
  { name: 'mul 0.5', op: (y) => ef.multiply(y, 0.5), ref: (y) => y * 0.5 },
  { name: 'sub c', op: (y, c) => ef.subtract(c, y), ref: (y, c) => c - y },
  { name: 'relu', op: (y) => ef.relu(y), ref: (y) => Math.max(y, 0) },
  { name: 'neg', op: (y) => ef.negative(y), ref: (y) => -y },
  { name: 'square', op: (y) => ef.square(y), ref: (y) => y * y },
  { name: 'sigmoid', op: (y) => ef.sigmoid(y), ref: (y) => 1 / (1 + Math.exp(-y)) },
  { name: 'max c', op: (y, c) => ef.maximum(y, c), ref: (y, c) => Math.max(y, c) },
  { name: 'tanh', op: (y) => ef.tanh(y), ref: (y) => Math.tanh(y) },
];

type Assert = 'setShape' | 'contribShape' | 'none';
type Flavor = 'pyFunction' | 'numpyFunction' | 'contrib';

interface Case {
  n: number;
  flavor: Flavor;
  assert: Assert;
  /** The shape the callback really returns ([n] when well-behaved). */
  returned: number[];
  steps: Step[];
  /** How the callback hands its value back. */
  form: 'tensor' | 'ndarray' | 'nested' | 'typed';
  k: number;
  roundTrip: boolean;
  /** Called inside tape.record (the graph is replayed op by op, not run by the executor). */
  underTape: boolean;
}

function makeCase(r: () => number): Case {
  const pick = <X>(xs: readonly X[]): X => xs[Math.floor(r() * xs.length)];
  const n = 1 + Math.floor(r() * 5);
  const flavor = pick<Flavor>(['pyFunction', 'numpyFunction', 'contrib']);
  const assert: Assert = flavor === 'contrib' ? pick<Assert>(['contribShape', 'setShape']) : pick<Assert>(['setShape', 'setShape', 'none']);
  // Mis-shaped only where a shape is asserted: with an unknown static shape any shape is legal.
  const wrong = [[n + 1], [n, 1], [1, n], [], [2 * n], ...(n > 1 ? [[n - 1]] : [])];
  const returned = assert !== 'none' && r() < 0.5 ? pick(wrong) : [n];
  const steps = Array.from({ length: 1 + Math.floor(r() * 8) }, () => pick(STEPS));
  const form = flavor === 'pyFunction' ? 'tensor' : pick(['ndarray', 'nested', 'typed'] as const);
  // A typed array is always 1-D: reshape the wrong shapes it cannot express.
  return { n, flavor, assert, returned: form === 'typed' && returned.length !== 1 ? [returned.reduce((a, b) => a * b, 1) + 1] : returned, steps, form, k: 1 + Math.floor(r() * 3), roundTrip: r() < 0.25, underTape: r() < 0.2 };
}

/** The callback's values for input values `xs`: x*k+1 per element, laid out in `shape`. */
function produced(xs: ArrayLike<number>, shape: number[], k: number): number[] {
  const size = shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: size }, (_, i) => xs[i % xs.length] * k + 1);
}

function hostValue(c: Case, xs: ArrayLike<number>): unknown {
  const vals = produced(xs, c.returned, c.k);
  if (c.form === 'tensor') return ef.reshape(ef.constant(vals), c.returned);
  if (c.form === 'typed') return Float32Array.from(vals);
  const nd = new ef.NDArray(Float32Array.from(vals), c.returned, 'float32');
  return c.form === 'ndarray' ? nd : nd.toArray();
}

function program(c: Case, consts: number[], key: string): (x: T) => T {
  const host = (a: unknown): unknown => hostValue(c, (a as T | ef.NDArray) instanceof ef.NDArray ? (a as ef.NDArray).data as Float32Array : (a as T).dataSync() as Float32Array);
  // Saved functions name their callbacks by a registered key.
  const cb = c.roundTrip ? ef.registerHostFunction(key, host as never) : host;
  return (x: T) => {
    let y: T;
    if (c.flavor === 'pyFunction') y = ef.pyFunction(cb as (a: T) => T, [x], 'float32');
    else if (c.flavor === 'numpyFunction') y = ef.numpyFunction(cb as (a: ef.NDArray) => ef.NDArray, [x], 'float32');
    else y = ef.contrib.framework.pyFunc(cb as never, [x], {}, 'float32', c.assert === 'contribShape' ? [c.n] : null) as T;
    if (c.assert === 'setShape') y.setShape([c.n]);
    const cv = ef.constant(consts);
    for (const s of c.steps) y = s.op(y, cv);
    return y;
  };
}

function reference(c: Case, xs: number[], consts: number[]): number[] {
  return xs.map((x, i) => c.steps.reduce((y, s) => Math.fround(s.ref(y, consts[i])), Math.fround(x * c.k + 1)));
}

function close(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= 1e-4 * Math.max(1, Math.abs(b[i])) || (Number.isNaN(v) && Number.isNaN(b[i])));
}

describe('seeded fuzz: mis-shaped callback results are never silently wrong', () => {
  const N = 160;
  test(`${N} traced programs (seed 17): right value or an ef.errors error, nothing leaked`, () => {
    const r = rng(17);
    const tally = { right: 0, refused: 0, wrongShapeCases: 0 };
    for (let t = 0; t < N; t++) {
      const c = makeCase(r);
      const xs = Array.from({ length: c.n }, () => Math.round((r() * 4 - 2) * 100) / 100);
      const consts = Array.from({ length: c.n }, () => Math.round((r() * 2 - 1) * 100) / 100);
      const fn = ef.trace(program(c, consts, `test.fuzz.${t}`), { inputSignature: [new ef.TensorSpec([r() < 0.5 ? null : c.n])] });
      const f = c.roundTrip ? ef.loadFunction<T>(ef.saveFunction(fn)) : fn;
      const x = ef.constant(xs);
      const before = ef.memory().numTensors;
      const misShaped = c.returned.length !== 1 || c.returned[0] !== c.n;
      if (misShaped) tally.wrongShapeCases++;
      let got: number[] | null = null;
      let error: unknown = null;
      try {
        const tape = new ef.GradientTape();
        const y = c.underTape ? tape.record(() => {
          tape.watch(x);
          return f(x);
        }) : f(x);
        got = Array.from(y.dataSync() as ArrayLike<number>);
        y.dispose();
      } catch (e) {
        error = e;
      }
      const label = `case ${t}: ${JSON.stringify({ ...c, steps: c.steps.map((s) => s.name) })}`;
      if (error !== null) {
        if (!(error instanceof ef.errors.OpError)) throw new Error(`${label}: not an ef.errors error: ${String(error)}`);
        if (!misShaped) throw new Error(`${label}: a well-shaped callback failed: ${(error as Error).message}`);
        tally.refused++;
      } else {
        if (misShaped) throw new Error(`${label}: a mis-shaped result was accepted, giving ${JSON.stringify(got)}`);
        const want = reference(c, xs, consts);
        if (!close(got as number[], want)) throw new Error(`${label}: wrong value ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
        tally.right++;
      }
      if (ef.memory().numTensors !== before) throw new Error(`${label}: leaked ${ef.memory().numTensors - before} tensors`);
      x.dispose();
      f.dispose();
      if (f !== fn) fn.dispose();
      if (c.roundTrip) ef.unregisterHostFunction(`test.fuzz.${t}`);
    }
    // The mix exercised both outcomes.
    expect(tally.right + tally.refused).toBe(N);
    expect(tally.wrongShapeCases).toBeGreaterThan(30);
    expect(tally.refused).toBe(tally.wrongShapeCases);
    expect(tally.right).toBeGreaterThan(60);
  });
});
