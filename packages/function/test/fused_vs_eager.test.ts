// A traced function never changes a result: random elementwise chains over special values, eager vs traced (fused), values and gradients.
import * as ef from 'eagerflow';
import { sameFloat, SPECIAL_VALUES } from '../src/fact_check';
import { Rng } from '../../../test/harness/rng';

type Op = (a: ef.Tensor, b: ef.Tensor) => ef.Tensor;
const UNARY: [string, (a: ef.Tensor) => ef.Tensor][] = [
  ['negative', ef.negative], ['abs', ef.abs], ['sign', ef.sign], ['exp', ef.exp], ['log', ef.log], ['sqrt', ef.sqrt],
  ['square', ef.square], ['sin', ef.sin], ['cos', ef.cos], ['tanh', ef.tanh], ['sinh', ef.sinh], ['cosh', ef.cosh],
  ['sigmoid', ef.sigmoid], ['relu', ef.relu],
];
const BINARY: [string, Op][] = [
  ['add', ef.add], ['subtract', ef.subtract], ['multiply', ef.multiply], ['divide', ef.divide], ['pow', ef.pow],
  ['maximum', ef.maximum], ['minimum', ef.minimum], ['where(a > b)', (a, b) => ef.where(ef.greater(a, b), a, b)],
];

/** A seeded uniform [0, 1) draw (the harness's mulberry32: the same programs every run). */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

interface Chain {
  name: string;
  fn: (x: ef.Tensor, y: ef.Tensor) => ef.Tensor;
}

function chain(seed: number): Chain {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const steps = Array.from({ length: 2 + Math.floor(r() * 6) }, () => (r() < 0.5 ? { u: pick(UNARY) } : { b: pick(BINARY), other: Math.floor(r() * 3) }));
  const name = steps.map((s) => ('u' in s && s.u ? s.u[0] : (s as { b: [string, Op] }).b[0])).join(' > ');
  const fn = (x: ef.Tensor, y: ef.Tensor): ef.Tensor => {
    let cur = x;
    const vals = [x, y];
    for (const s of steps) {
      if ('u' in s && s.u) cur = s.u[1](cur);
      else {
        const st = s as { b: [string, Op]; other: number };
        cur = st.b[1](cur, st.other === 2 ? cur : vals[st.other]);
      }
      vals.push(cur);
    }
    return cur;
  };
  return { name, fn };
}

const specials = SPECIAL_VALUES.filter((v) => Math.abs(v) < 1e9 || !Number.isFinite(v) || Math.abs(v) > 1e30);
const xs = Float32Array.from(specials);
const ys = Float32Array.from(specials.map((_, i) => specials[(i * 7 + 3) % specials.length]));

function same(a: ArrayLike<number>, b: ArrayLike<number>): string | null {
  for (let i = 0; i < a.length; i++) if (!sameFloat(a[i], b[i])) return `[${i}] eager ${Object.is(a[i], -0) ? '-0' : a[i]}, traced ${Object.is(b[i], -0) ? '-0' : b[i]} (x ${xs[i]}, y ${ys[i]})`;
  return null;
}

function gradOf(fn: Chain['fn'], x: ef.Tensor, y: ef.Tensor): ef.Tensor[] {
  const tape = new ef.GradientTape();
  const out = tape.record(() => (tape.watch([x, y]), fn(x, y)));
  return tape.gradient(out, [x, y], { unconnectedGradients: 'zero' }) as ef.Tensor[];
}

const CHAINS = Array.from({ length: 300 }, (_, i) => chain(1000 + i));

test('300 random elementwise chains: traced (fused) values and gradients equal eager bit for bit', () => {
  const warn = ef.retraceConfig.warn;
  ef.retraceConfig.warn = () => undefined;
  const x = ef.constant(xs);
  const y = ef.constant(ys);
  const bad: string[] = [];
  try {
    for (const c of CHAINS) {
      const eager = ef.tidy(() => Array.from(c.fn(x, y).dataSync() as ArrayLike<number>));
      const f = ef.trace(c.fn);
      const traced = ef.tidy(() => Array.from(f(x, y).dataSync() as ArrayLike<number>));
      f.dispose();
      const d = same(eager, traced);
      if (d) bad.push(`${c.name}: ${d}`);
      const ge = ef.tidy(() => gradOf(c.fn, x, y).map((g) => Array.from(g.dataSync() as ArrayLike<number>)));
      const g = ef.trace((a: ef.Tensor, b: ef.Tensor) => gradOf(c.fn, a, b));
      const gt = ef.tidy(() => (g(x, y) as ef.Tensor[]).map((t) => Array.from(t.dataSync() as ArrayLike<number>)));
      g.dispose();
      ge.forEach((e, i) => {
        const dg = same(e, gt[i]);
        if (dg) bad.push(`${c.name} (gradient wrt ${i === 0 ? 'x' : 'y'}): ${dg}`);
      });
    }
  } finally {
    ef.dispose([x, y]);
    ef.retraceConfig.warn = warn;
  }
  expect(bad).toEqual([]);
});
