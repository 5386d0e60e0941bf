// ef.random: TF's seed rules, statistics of the draws, stateless determinism, traced calls that draw anew, save/load, dropout, errors and leaks.
import * as ef from 'eagerflow';
import { opsOf } from '../../../test/harness/saving';
import { PhiloxStream } from '../../core/src/ops/random/philox';

const vals = (t: ef.Tensor): number[] => { const v = Array.from(t.dataSync() as ArrayLike<number>); t.dispose(); return v; };
const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
const std = (v: number[]): number => { const m = mean(v); return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length); };
const N = 20000;

afterEach(() => ef.random.setSeed(null));

test('the generator is Philox4x32-10 (Random123 known answer for counter 0, key 0: block 0 of stream 0)', () => {
  const s = new PhiloxStream(0, 0, 0);
  expect([0, 1, 2, 3].map(() => s.nextU32().toString(16))).toEqual(['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']);
});

describe('seed rules (tf.random.set_seed)', () => {
  test('a global seed makes a program reproducible; two calls of one op differ', () => {
    const program = (): number[][] => [vals(ef.random.normal([4])), vals(ef.random.normal([4])), vals(ef.random.uniform([4], { seed: 3 })), vals(ef.random.uniform([4], { seed: 3 }))];
    ef.random.setSeed(42);
    const a = program();
    ef.random.setSeed(42);
    const b = program();
    expect(a).toEqual(b);
    expect(a[0]).not.toEqual(a[1]);
    expect(a[2]).not.toEqual(a[3]);
    ef.random.setSeed(43);
    expect(program()[0]).not.toEqual(a[0]);
  });
  test('an op seed without a global seed: calls differ, and the sequence repeats after setSeed resets the counters', () => {
    ef.random.setSeed(null);
    const a1 = vals(ef.random.uniform([3], { seed: 1 }));
    const a2 = vals(ef.random.uniform([3], { seed: 1 }));
    expect(a1).not.toEqual(a2);
    ef.random.setSeed(null);
    expect(vals(ef.random.uniform([3], { seed: 1 }))).toEqual(a1);
  });
  test('unseeded programs differ run to run', () => {
    ef.random.setSeed(null);
    const a = vals(ef.random.normal([8]));
    ef.random.setSeed(null);
    expect(vals(ef.random.normal([8]))).not.toEqual(a);
  });
});

describe('statistics within 5 sigma of the sample size', () => {
  test('normal: mean and stddev', () => {
    const v = vals(ef.random.normal([N], { mean: 2, stddev: 3, seed: 1 }));
    expect(Math.abs(mean(v) - 2)).toBeLessThan(5 * 3 / Math.sqrt(N));
    expect(Math.abs(std(v) - 3)).toBeLessThan(5 * 3 / Math.sqrt(2 * N));
  });
  test('uniform float: bounds, mean and variance; int32: bounds and every value hit', () => {
    const v = vals(ef.random.uniform([N], { minval: -1, maxval: 3, seed: 2 }));
    expect(Math.min(...v)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...v)).toBeLessThan(3);
    expect(Math.abs(mean(v) - 1)).toBeLessThan(5 * (4 / Math.sqrt(12)) / Math.sqrt(N));
    const t = ef.random.uniform([N], { minval: 2, maxval: 7, dtype: 'int32', seed: 2 });
    expect(t.dtype).toBe('int32');
    const iv = vals(t);
    expect(new Set(iv)).toEqual(new Set([2, 3, 4, 5, 6]));
    for (let k = 2; k < 7; k++) expect(Math.abs(iv.filter((x) => x === k).length / N - 0.2)).toBeLessThan(5 * Math.sqrt(0.16 / N));
  });
  test('truncatedNormal: within 2 stddev, variance of the truncated normal (0.7737 sigma^2)', () => {
    const v = vals(ef.random.truncatedNormal([N], { mean: 1, stddev: 2, seed: 3 }));
    expect(Math.min(...v)).toBeGreaterThanOrEqual(1 - 4 - 1e-5);
    expect(Math.max(...v)).toBeLessThanOrEqual(1 + 4 + 1e-5);
    expect(Math.abs(mean(v) - 1)).toBeLessThan(5 * 2 * 0.88 / Math.sqrt(N));
    expect(Math.abs(std(v) / 2 - Math.sqrt(0.77374))).toBeLessThan(0.02);
  });
  test('categorical: class frequencies follow softmax(logits)', () => {
    const logits = [[Math.log(0.2), Math.log(0.5), Math.log(0.3)]];
    const s = ef.random.categorical(logits, N, { seed: 4 });
    expect(s.shape.dims).toEqual([1, N]);
    expect(s.dtype).toBe('int32');
    const v = vals(s);
    [0.2, 0.5, 0.3].forEach((p, k) => expect(Math.abs(v.filter((x) => x === k).length / N - p)).toBeLessThan(5 * Math.sqrt(p * (1 - p) / N)));
  });
  test('shuffle permutes the first dimension', () => {
    const x = ef.reshape(ef.range(0, 50), [25, 2]);
    const y = ef.random.shuffle(x, { seed: 5 });
    const rows = (y.arraySync() as number[][]);
    expect(rows.map((r) => r[1] - r[0])).toEqual(Array(25).fill(1));
    expect(rows.map((r) => r[0]).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => 2 * i));
    expect(rows.map((r) => r[0])).not.toEqual(Array.from({ length: 25 }, (_, i) => 2 * i));
    ef.dispose([x, y]);
  });
});

describe('stateless family: a pure function of the seed pair', () => {
  test('same pair -> same values, eager and traced; another pair differs', () => {
    const ops = [
      (s: [number, number]) => ef.random.statelessNormal([5], { seed: s }),
      (s: [number, number]) => ef.random.statelessUniform([5], { seed: s, minval: 1, maxval: 2 }),
      (s: [number, number]) => ef.random.statelessTruncatedNormal([5], { seed: s }),
      (s: [number, number]) => ef.random.statelessCategorical([[0, 0, 0, 0]], 5, { seed: s }),
    ];
    for (const op of ops) {
      const a = vals(op([1, 2]));
      expect(vals(op([1, 2]))).toEqual(a);
      expect(vals(op([2, 1]))).not.toEqual(a);
      const f = ef.trace(() => op([1, 2]));
      expect(vals(f() as ef.Tensor)).toEqual(a);
      expect(vals(f() as ef.Tensor)).toEqual(a);
      f.dispose();
    }
  });
  test('statelessUniform stays in bounds with the right mean', () => {
    const v = vals(ef.random.statelessUniform([N], { seed: [7, 8], minval: 1, maxval: 2 }));
    expect(Math.min(...v)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...v)).toBeLessThan(2);
    expect(Math.abs(mean(v) - 1.5)).toBeLessThan(5 / Math.sqrt(12 * N));
  });
});

describe('traced functions', () => {
  test('each call draws anew (stateful nodes are never folded), and two normal() calls are not merged', () => {
    const f = ef.trace(() => [ef.random.normal([4], { seed: 1 }), ef.random.normal([4], { seed: 1 })]);
    const [a, b] = (f() as ef.Tensor[]).map(vals);
    const [c] = (f() as ef.Tensor[]).map(vals);
    expect(a).not.toEqual(b);
    expect(c).not.toEqual(a);
    const text = f.getConcreteFunction().graph.toString();
    expect(text.match(/random_standard_normal/g)?.length).toBe(2);
    f.dispose();
  });
  test('a traced program is reproducible under a global seed', () => {
    const run = (): number[] => {
      ef.random.setSeed(9);
      const f = ef.trace(() => ef.random.uniform([3]));
      const out = [...vals(f() as ef.Tensor), ...vals(f() as ef.Tensor)];
      f.dispose();
      return out;
    };
    const a = run();
    expect(run()).toEqual(a);
    expect(a.slice(0, 3)).not.toEqual(a.slice(3));
  });
  test('saved and loaded, the function still draws (seed attrs in GraphDef)', () => {
    const f = ef.trace(() => [ef.random.normal([3], { seed: 2 }), ef.random.uniform([2], { maxval: 9, dtype: 'int32', seed: 2 }), ef.random.statelessNormal([3], { seed: [1, 1] })]);
    const cf = f.getConcreteFunction();
    const art = ef.saveFunction(cf);
    // The stateless draw is pure: constant folding may (and does) turn it into a Const, like grappler.
    expect([...opsOf(art)]).toEqual(expect.arrayContaining(['RandomStandardNormal', 'RandomUniformInt']));
    const loaded = ef.loadFunction(art);
    const r1 = (loaded() as ef.Tensor[]).map(vals);
    const r2 = (loaded() as ef.Tensor[]).map(vals);
    expect(r1[0]).not.toEqual(r2[0]);
    expect(r1[2]).toEqual(r2[2]);
    expect(r1[2]).toEqual(vals(ef.random.statelessNormal([3], { seed: [1, 1] })));
    expect(r1[1].every((v) => Number.isInteger(v) && v >= 0 && v < 9)).toBe(true);
    cf.dispose();
    f.dispose();
  });
});

describe('Generator', () => {
  test('two generators of one seed draw the same sequence; calls differ; setSeed does not touch them', () => {
    const g1 = ef.random.Generator.fromSeed(11), g2 = ef.random.Generator.fromSeed(11);
    const a = vals(g1.normal([4]));
    ef.random.setSeed(5);
    expect(vals(g2.normal([4]))).toEqual(a);
    expect(vals(g1.normal([4]))).not.toEqual(a);
    const u = vals(g1.uniform([N], { minval: 0, maxval: 1 }));
    expect(Math.abs(mean(u) - 0.5)).toBeLessThan(5 / Math.sqrt(12 * N));
  });
});

describe('nn.dropout', () => {
  test('keeps about 1 - rate of the entries, scaled by 1 / (1 - rate); rate 0 returns x', () => {
    const x = ef.ones([N]);
    const v = vals(ef.nn.dropout(x, { rate: 0.25, seed: 1 }));
    const kept = v.filter((t) => t !== 0);
    expect(kept.every((t) => Math.abs(t - 4 / 3) < 1e-6)).toBe(true);
    expect(Math.abs(kept.length / N - 0.75)).toBeLessThan(5 * Math.sqrt(0.1875 / N));
    expect(vals(ef.nn.dropout([1, 2, 3], { rate: 0 }))).toEqual([1, 2, 3]);
    x.dispose();
  });
  test('noiseShape broadcasts one mask over rows', () => {
    const x = ef.ones([50, 4]);
    const y = ef.nn.dropout(x, { rate: 0.5, noiseShape: [1, 4], seed: 3 });
    const rows = y.arraySync() as number[][];
    for (const r of rows) expect(r).toEqual(rows[0]);
    ef.dispose([x, y]);
  });
  test('the gradient flows through the kept entries only (dy/dx = mask / (1 - rate))', () => {
    const x = ef.constant(Array.from({ length: 100 }, (_, i) => i / 10));
    const tape = new ef.GradientTape();
    let y = x;
    const loss = tape.record(() => { tape.watch(x); y = ef.nn.dropout(x, { rate: 0.5, seed: 2 }); return ef.reduceSum(y); });
    const g = tape.gradient(loss, x) as ef.Tensor;
    const yv = Array.from(y.dataSync() as ArrayLike<number>), gv = Array.from(g.dataSync() as ArrayLike<number>), xv = Array.from(x.dataSync() as ArrayLike<number>);
    gv.forEach((d, i) => expect(d).toBeCloseTo(yv[i] === 0 && xv[i] !== 0 ? 0 : 2, 6));
    expect(gv.some((d) => d === 0) && gv.some((d) => d === 2)).toBe(true);
    ef.dispose([x, y, g, loss]);
  });
});

describe('errors: clear messages, nothing leaked', () => {
  const bad: [string, () => unknown, RegExp][] = [
    ['negative dim', () => ef.random.normal([-1, 2]), /random\.normal/],
    ['non-integer seed', () => ef.random.normal([2], { seed: 1.5 }), /seed must be an integer/],
    ['int32 uniform without maxval', () => ef.random.uniform([2], { dtype: 'int32' }), /needs maxval/],
    ['int32 uniform with maxval <= minval', () => ef.random.uniform([2], { dtype: 'int32', minval: 3, maxval: 3 }), /minval < maxval/],
    ['normal int32', () => ef.random.normal([2], { dtype: 'int32' }), /unsupported dtype/],
    ['categorical 1-D logits', () => ef.random.categorical([1, 2], 3), /2-D/],
    ['categorical negative samples', () => ef.random.categorical([[1, 2]], -1), /numSamples/],
    ['shuffle of a scalar', () => ef.random.shuffle(3), /at least one dimension/],
    ['stateless without a seed pair', () => ef.random.statelessNormal([2], { seed: [1] as unknown as [number, number] }), /pair of integers/],
    ['dropout rate 1', () => ef.nn.dropout([1, 2], { rate: 1 }), /rate must be in \[0, 1\)/],
    ['setSeed of a string', () => ef.random.setSeed('a' as unknown as number), /seed must be an integer/],
  ];
  test.each(bad)('%s', (_n, fn, msg) => {
    const before = ef.memory().numTensors;
    expect(fn).toThrow(msg);
    expect(ef.memory().numTensors).toBe(before);
  });
  test('draws leak nothing', () => {
    const before = ef.memory().numTensors;
    ef.dispose([ef.random.normal([3], { mean: 1, stddev: 2 }), ef.random.uniform([3], { minval: 1, maxval: 2 }), ef.random.categorical([[0, 1]], 2), ef.nn.dropout([1, 2], { rate: 0.5 })]);
    expect(ef.memory().numTensors).toBe(before);
  });
});
