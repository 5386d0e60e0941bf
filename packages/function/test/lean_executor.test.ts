// The lean executor (issue 15): reused run arrays and fused-loop buffers never alias a result or a kept value,
// nothing grows over 1,000 calls on cpu and wasm, the repeat-call path retraces exactly when the full path
// would, the multi-lane fused loops equal the kernels for every length, and an `exact` fact is checked.
import * as ef from 'eagerflow';
import { sameFloat } from '../src/fact_check';

const P = ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>;

/** A graph with a fused group feeding a matmul and a second fused group, an input output and a repeated output. */
function mixed(x: ef.Tensor, w: ef.Tensor): ef.Tensor[] {
  const a = ef.relu(ef.add(ef.multiply(x, 0.5), 0.25));
  const m = ef.matmul(ef.reshape(a, [4, 4]), w);
  const b = ef.tanh(ef.subtract(ef.multiply(ef.reshape(m, [16]), a), 1));
  return [b, x, b, ef.slice(a, [2], [5])];
}

const seq = (n: number, f: (i: number) => number): Float32Array => Float32Array.from({ length: n }, (_, i) => f(i));

function noGrowth(label: string): void {
  const x = ef.constant(seq(16, (i) => Math.sin(i) * 3));
  const w = ef.reshape(ef.constant(seq(16, (i) => Math.cos(i))), [4, 4]);
  const f = ef.trace(mixed);
  const g = ef.trace((v: ef.Tensor) => ef.sigmoid(ef.multiply(v, v)));
  const step = (): void => {
    ef.dispose(f(x, w));
    g(x).dispose();
  };
  for (let i = 0; i < 10; i++) step();
  const before = ef.memory();
  for (let i = 0; i < 1000; i++) step();
  const after = ef.memory();
  expect([label, after.numTensors, after.numDataBuffers, after.numBytes]).toEqual([label, before.numTensors, before.numDataBuffers, before.numBytes]);
  // Same values as eager on this backend: bit for bit on cpu; on wasm the fused loop computes tanh as cpu's
  // kernel does, which differs from wasm's own Tanh kernel in the last bit for some inputs.
  const eager = mixed(x, w);
  const traced = f(x, w);
  eager.forEach((e, i) => {
    const [want, got] = [Array.from(e.dataSync() as ArrayLike<number>), Array.from(traced[i].dataSync() as ArrayLike<number>)];
    if (label === 'cpu') expect(got).toEqual(want);
    else got.forEach((v, j) => expect(Math.abs(v - want[j])).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(want[j]))));
  });
  ef.dispose([...eager, ...traced, x, w]);
  f.dispose();
  g.dispose();
}

describe('no growth over 1,000 traced calls', () => {
  afterAll(() => ef.setBackend('cpu'));
  test('cpu', async () => {
    await ef.setBackend('cpu');
    noGrowth('cpu');
  });
  test('wasm', async () => {
    await ef.setBackend('wasm');
    noGrowth('wasm');
    await ef.setBackend('cpu');
  });
});

describe('reused buffers never alias what the caller holds', () => {
  test('a kept result (and its host array) is unchanged by later calls; calls return distinct buffers', () => {
    const f = ef.trace((v: ef.Tensor) => ef.relu(ef.add(ef.multiply(v, 2), 1)));
    const x1 = ef.constant([1, -2, 3, -4, 5, -6, 7, -8, 9]);
    const x2 = ef.constant([-1, 2, -3, 4, -5, 6, -7, 8, -9]);
    const r1 = f(x1);
    const host1 = r1.dataSync() as Float32Array;
    const kept = Array.from(host1);
    const r2 = f(x2);
    const r3 = f(x1);
    expect(Array.from(r1.dataSync() as ArrayLike<number>)).toEqual(kept);
    expect(Array.from(host1)).toEqual(kept);
    expect(Array.from(r2.dataSync() as ArrayLike<number>)).toEqual([0, 5, 0, 9, 0, 13, 0, 17, 0]);
    expect(r3.dataSync()).not.toBe(r1.dataSync());
    // A host array the user kept after disposing its tensor is theirs: later calls do not write into it.
    r3.dispose();
    const again = f(x2);
    expect(Array.from(host1)).toEqual(kept);
    expect(Array.from(x1.dataSync() as ArrayLike<number>)).toEqual([1, -2, 3, -4, 5, -6, 7, -8, 9]);
    ef.dispose([r1, r2, again, x1, x2]);
    f.dispose();
  });

  test('a fused intermediate read by a later group is not handed out while a result still holds it', () => {
    const f = ef.trace(mixed);
    const x = ef.constant(seq(16, (i) => i - 8));
    const w = ef.eye(4);
    const first = f(x, w);
    const keep = first.map((t) => Array.from(t.dataSync() as ArrayLike<number>));
    const second = f(ef.multiply(x, -1), w);
    first.forEach((t, i) => expect(Array.from(t.dataSync() as ArrayLike<number>)).toEqual(keep[i]));
    // Each call's results have their own memory (the slice of a shares a's buffer, so a is never recycled).
    expect((second[0].dataSync() as Float32Array).buffer).not.toBe((first[0].dataSync() as Float32Array).buffer);
    expect((second[3].dataSync() as Float32Array).buffer).not.toBe((first[3].dataSync() as Float32Array).buffer);
    ef.dispose([...first, ...second, x, w]);
    f.dispose();
  });

  test('a traced function run again from its own callback (a nested run of one plan) keeps both runs apart', () => {
    let depth = 0;
    const f: (v: ef.Tensor) => ef.Tensor = ef.trace((v: ef.Tensor) => {
      const a = ef.add(ef.multiply(v, 3), 1);
      const cb = ef.pyFunction((t: ef.Tensor) => (depth++ < 1 ? f(t) : ef.multiply(t, 1)), [a], 'float32') as ef.Tensor;
      return ef.add(cb, a);
    });
    const x = ef.constant([1, 2, 3]);
    const before = ef.memory().numTensors;
    const y = f(x);
    // outer: a = 3x + 1, cb = f(a); inner: a' = 3a + 1, cb' = a', result 2a'; outer result 2(3a + 1) + a = 21x + 9
    expect(Array.from(y.dataSync() as ArrayLike<number>)).toEqual([30, 51, 72]);
    depth = 1;
    const z = f(x);
    expect(Array.from(z.dataSync() as ArrayLike<number>)).toEqual([8, 14, 20]);
    ef.dispose([y, z]);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose(x);
  });
});

describe('fused buffers reused', () => {
  /** Group A's result t is read only by group B (a matmul sits between them): t's buffer goes to the next call's A. */
  const twoGroups = (x: ef.Tensor, w: ef.Tensor): ef.Tensor => {
    const t = ef.exp(ef.multiply(ef.add(x, 1), 0.5));
    const m = ef.reshape(ef.matmul(w, w), [16]);
    return ef.add(ef.multiply(t, m), ef.sqrt(t));
  };

  test('on cpu a fused result only fused loops read is recycled, and results stay exact and unshared', () => {
    const f = ef.trace(twoGroups);
    const x = ef.constant(seq(16, (i) => i / 4 - 2));
    const w = ef.reshape(ef.constant(seq(16, (i) => Math.cos(i))), [4, 4]);
    const ir = f.getConcreteFunction(x, w).experimentalGetCompilerIr();
    expect(ir.match(/fused_elementwise/g)?.length).toBe(2);
    const want = twoGroups(x, w);
    const first = f(x, w);
    const kept = Array.from(first.dataSync() as ArrayLike<number>);
    const stats = { ...ef.internal.hostFuseStats };
    const others = Array.from({ length: 5 }, () => f(x, w));
    // Each call allocates its result; A's buffer comes back from the previous call's B.
    expect(ef.internal.hostFuseStats.reused - stats.reused).toBe(5);
    expect(ef.internal.hostFuseStats.allocated - stats.allocated).toBe(5);
    expect(Array.from(first.dataSync() as ArrayLike<number>)).toEqual(kept);
    expect(kept).toEqual(Array.from(want.dataSync() as ArrayLike<number>));
    others.forEach((o) => expect(Array.from(o.dataSync() as ArrayLike<number>)).toEqual(kept));
    expect(new Set(others.map((o) => (o.dataSync() as Float32Array).buffer)).size).toBe(5);
    ef.dispose([...others, first, want, x, w]);
    f.dispose();
  });
});

describe('the repeat-call path', () => {
  test('retraces for a new shape or dtype, and reuses the function for a seen one', () => {
    const f = ef.trace((v: ef.Tensor) => ef.multiply(v, 2));
    const a = ef.constant([1, 2, 3]);
    const b = ef.constant([1, 2, 3, 4]);
    const c = ef.constant([1, 2, 3], 'int32');
    const d = ef.constant([[1, 2, 3]]);
    const outs = [f(a), f(a), f(b), f(a), f(c), f(c), f(d), f(a)];
    expect(f.tracingCount).toBe(4);
    expect(outs.map((t) => [t.dtype, ...t.shape.asList()])).toEqual([
      ['float32', 3], ['float32', 3], ['float32', 4], ['float32', 3], ['int32', 3], ['int32', 3], ['float32', 1, 3], ['float32', 3],
    ]);
    const v = new ef.Variable(ef.constant([5, 6, 7]));
    const fromVar = f(v as unknown as ef.Tensor);
    expect(Array.from(fromVar.dataSync() as ArrayLike<number>)).toEqual([10, 12, 14]);
    expect(f.tracingCount).toBe(5);
    // After dispose, a call traces afresh (no stale concrete function).
    f.dispose();
    f(a).dispose();
    expect(f.tracingCount).toBe(6);
    ef.dispose([...outs, a, b, c, d, fromVar]);
    v.dispose();
    f.dispose();
  });

  test('run-time shape checks still name the node on the repeat path', () => {
    const f = ef.trace((v: ef.Tensor) => {
      v.setShape([3]);
      return ef.exp(ef.add(v, 1));
    });
    const ok = ef.constant([1, 2, 3]);
    f(ok).dispose();
    f(ok).dispose();
    expect(f.tracingCount).toBe(1);
    ef.dispose(ok);
    f.dispose();
  });
});

test('a setShape on an input of unknown size checks the run-time shape on every call (its step re-runs no infer)', () => {
  const f = ef.trace(
    (v: ef.Tensor) => {
      v.setShape([4]);
      return ef.exp(ef.add(v, 1));
    },
    { inputSignature: [new ef.TensorSpec([null])] },
  );
  const good = ef.constant([1, 2, 3, 4]);
  const bad = ef.constant([1, 2, 3]);
  for (let i = 0; i < 3; i++) f(good).dispose();
  const before = ef.memory().numTensors;
  for (let i = 0; i < 2; i++) {
    expect(() => f(bad)).toThrow(ef.errors.InvalidArgumentError);
    expect(() => f(bad)).toThrow(/shape of tensor \[3\] is not compatible with expected shape \[4\]/);
  }
  expect(ef.memory().numTensors).toBe(before);
  const y = f(good);
  expect(Array.from(y.dataSync() as Float32Array)).toEqual([2, 3, 4, 5].map((v) => Math.fround(Math.exp(v))));
  expect(f.tracingCount).toBe(1);
  ef.dispose([y, good, bad]);
  f.dispose();
});

describe('multi-lane fused loops', () => {
  const chain = (v: ef.Tensor): ef.Tensor => {
    let y = v;
    for (let i = 0; i < 4; i++) {
      const e = ef.nn.relu6(ef.multiply(y, 1.7));
      const f = ef.floor(ef.multiply(y, 2.5));
      y = ef.maximum(ef.round(ef.add(ef.sin(e), ef.multiply(f, 0.125))), ef.negative(ef.abs(y)));
      y = ef.subtract(ef.tanh(y), ef.math.ceil(ef.minimum(y, 0.3)));
    }
    return y;
  };

  test('every length 1..19 (lanes and the tail loop) equals the unfused kernels bit for bit', () => {
    const f = ef.trace(chain);
    for (let n = 1; n <= 19; n++) {
      const x = ef.constant(seq(n, (i) => Math.sin(i * 1.3) * 4 + (i % 3 === 0 ? 0.5 : 0)));
      const cf = f.getConcreteFunction(x);
      expect(cf.experimentalGetCompilerIr()).toContain('fused_elementwise');
      const want = chain(x).dataSync() as Float32Array;
      const got = f(x).dataSync() as Float32Array;
      for (let i = 0; i < n; i++) if (!sameFloat(got[i], want[i])) throw new Error(`n=${n} [${i}]: traced ${got[i]}, eager ${want[i]}`);
      ef.dispose(x);
    }
    f.dispose();
  });

  test('a group of 256 steps (fewer lanes, bounded source) equals the unfused kernels', () => {
    const long = (v: ef.Tensor): ef.Tensor => {
      let y = v;
      for (let i = 0; i < 64; i++) y = ef.sigmoid(ef.nn.relu6(ef.add(ef.multiply(y, 1.01), -0.003 * i)));
      return y;
    };
    const f = ef.trace(long);
    const x = ef.constant(seq(37, (i) => i / 5 - 3));
    const want = long(x).dataSync() as Float32Array;
    const got = f(x).dataSync() as Float32Array;
    expect(Array.from(got)).toEqual(Array.from(want));
    ef.dispose(x);
    f.dispose();
  });
});

describe('the closure loop (no code generation, e.g. under a strict CSP)', () => {
  test('equals the kernels bit for bit and reuses its step buffers', () => {
    const chain = (v: ef.Tensor): ef.Tensor => ef.nn.relu6(ef.sin(ef.add(ef.multiply(v, 1.3), ef.math.ceil(ef.multiply(v, 0.7)))));
    const x = ef.constant(seq(21, (i) => i / 3 - 3.5));
    ef.internal.fuseConfig.codegen = false;
    try {
      const f = ef.trace(chain);
      const want = chain(x).dataSync() as Float32Array;
      const stats = { ...ef.internal.hostFuseStats };
      const got = f(x).dataSync() as Float32Array;
      for (let i = 0; i < 21; i++) expect(sameFloat(got[i], want[i])).toBe(true);
      f(x).dispose();
      // Step buffers go back after their last reader: after the first few, every step reuses one.
      expect(ef.internal.hostFuseStats.reused - stats.reused).toBeGreaterThanOrEqual(6);
      f.dispose();
    } finally {
      ef.internal.fuseConfig.codegen = true;
      x.dispose();
    }
  });
});

describe('exact facts', () => {
  test('the facts marked exact are those whose value is a float32 already', () => {
    const exact = Object.values(P).filter((p) => p.scalar?.exact === true).map((p) => p.name).sort();
    expect(exact).toEqual(['abs', 'ceil', 'floor', 'floordiv', 'maximum', 'minimum', 'neg', 'relu', 'relu6', 'relu_grad', 'round', 'sign']);
  });

  test('a fact wrongly marked exact is refused by the check (its unrounded value differs from the kernel)', () => {
    const mul = P.mul;
    const badMul: ef.internal.Primitive = { ...mul, scalar: { ...(mul.scalar as NonNullable<ef.internal.Primitive['scalar']>), exact: true } };
    const diffs = ef.internal.factDifferences(badMul);
    expect(diffs.length).toBeGreaterThan(0);
    expect(diffs).toContain('mul(3, 0.10000000149011612): kernel 0.30000001192092896, fact 0.30000001192092896, code 0.30000000447034836');
    expect(ef.internal.factAgrees(badMul)).toBe(false);
  });
});
