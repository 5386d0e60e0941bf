// Fused code equals unfused code: every scalar fact against its kernel on special values, and the fuser's refusal.
import * as ef from 'eagerflow';

const withFacts = Object.values(ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>).filter((p) => p.scalar !== undefined);

describe('scalar facts equal their kernels bit for bit', () => {
  test('there are facts to check', () => expect(withFacts.length).toBeGreaterThanOrEqual(15));
  test.each(withFacts.map((p) => [p.name, p] as const))('%s', (_n, prim) => {
    expect(ef.internal.factDifferences(prim)).toEqual([]);
    expect(ef.internal.factAgrees(prim)).toBe(true);
  });
});

describe('the fuser refuses a fact that differs from its kernel', () => {
  // Math.sign is the tempting fact for sign, but sign(-0) is -0 there and +0 in the kernel.
  const badSign: ef.internal.Primitive = { ...ef.internal.PRIMITIVES.sign, scalar: { fn: Math.sign, expr: (a: string) => `Math.sign(${a})` } };

  test('factDifferences names the differing inputs', () => {
    const diffs = ef.internal.factDifferences(badSign);
    expect(diffs).toEqual(['sign(-0): kernel 0, fact -0, code -0']);
    expect(ef.internal.factAgrees(badSign)).toBe(false);
  });

  test('a graph with the bad fact is not fused and keeps the kernel result', () => {
    const f = ef.trace((x: ef.Tensor) => {
      const [s] = ef.internal.bind(badSign, [ef.negative(x)], {});
      return ef.multiply(ef.exp(s), 2);
    });
    const x = ef.constant([0, 1, -2]);
    const cf = f.getConcreteFunction(x);
    const plan = ef.internal.compile(cf.graph);
    const prims = plan.steps.map((s) => s.prim.name);
    expect(prims).toContain('sign');
    expect(prims).toContain('fused_elementwise'); // exp and multiply still fuse
    const y = f(x);
    expect(Array.from(y.dataSync() as ArrayLike<number>)).toEqual([2, 2 * Math.exp(-1), 2 * Math.exp(1)].map(Math.fround));
    ef.dispose([x, y]);
    f.dispose();
  });
});
