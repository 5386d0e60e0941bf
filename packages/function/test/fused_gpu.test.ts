// The fused GPU programs' sources: each record's shader template against its scalar fact (the template dialect evaluated in JS),
// the generated GLSL/WGSL for a fused group, and the cache by structure. The shaders themselves run in browser/conformance.test.ts and browser/gpu_fusion.test.ts.
import * as ef from 'eagerflow';

type Prim = ef.internal.Primitive & { scalar: { fn: (a: number, b: number) => number; gpu?: (a: string, b: string) => string } };
const PRIMS = ef.internal.PRIMITIVES as unknown as Record<string, Prim>;
const withGpu = Object.values(PRIMS).filter((p) => p.scalar?.gpu !== undefined);

/**
 * The template dialect as JS: the shared builtins and the ef_ helpers, each the GLSL/WGSL
 * definition in fuse_gpu.ts written again (round: banker's rounding; tanh: tfjs's exp form).
 */
const DIALECT = `
const { exp, log, sqrt, sin, cos, tan, asin, acos, atan, abs, floor, ceil, sign, min, max } = Math;
const isnan = Number.isNaN;
const ef_sel = (c, t, f) => (c ? t : f);
const ef_nan = () => NaN;
const ef_rsqrt = (x) => 1 / Math.sqrt(x);
const ef_atan2 = Math.atan2;
const ef_tanh = (x) => { const e2x = Math.exp(-2 * Math.abs(x)); return Math.sign(x) * (1 - e2x) / (1 + e2x); };
const ef_round = (x) => { const b = Math.floor(x); return x - b < 0.5 ? b : x - b > 0.5 ? Math.ceil(x) : b % 2 === 0 ? b : b + 1; };
`;

/** Points inside each op's domain (away from its edges), and second operands away from zero. */
const DOMAIN: Record<string, [number, number]> = { log: [0.1, 5], sqrt: [0, 5], acos: [-0.95, 0.95], asin: [-0.95, 0.95], acosh: [1.05, 5], atanh: [-0.9, 0.9], log1p: [-0.5, 5], reciprocal: [0.3, 4], rsqrt: [0.2, 5], tan: [-1.2, 1.2] };
const isUnary = (p: Prim): boolean => {
  try {
    p.infer([{ dtype: 'float32', shape: [2] }], {});
    return true;
  } catch {
    return false;
  }
};
const points = (lo: number, hi: number): number[] => Array.from({ length: 41 }, (_, i) => lo + ((hi - lo) * i) / 40 + 1e-3);

describe('shader templates equal their scalar facts (the dialect evaluated in float64)', () => {
  test('the templates cover the common float32 elementwise ops', () => {
    const names = withGpu.map((p) => p.name);
    for (const n of ['add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'neg', 'exp', 'log', 'tanh', 'sigmoid', 'relu', 'relu6', 'elu', 'selu', 'softplus', 'sqrt', 'square', 'sin', 'cos']) expect(names).toContain(n);
  });

  test.each(withGpu.map((p) => [p.name, p] as const))('%s', (name, prim) => {
    const gpu = prim.scalar.gpu as (a: string, b: string) => string;
    const code = new Function('a', 'b', `${DIALECT} return ${gpu('a', 'b')};`) as (a: number, b: number) => number;
    const [lo, hi] = DOMAIN[name] ?? [-3, 3];
    const bs = isUnary(prim) ? [0] : [0.7, -1.9, 2.3];
    const bad: string[] = [];
    for (const a of points(lo, hi)) {
      for (const b of bs) {
        const want = prim.scalar.fn(a, b);
        const got = code(a, b);
        if (!(Math.abs(got - want) <= 1e-6 + 1e-6 * Math.abs(want)) && !(Number.isNaN(got) && Number.isNaN(want))) bad.push(`${name}(${a}, ${b}): template ${got}, fact ${want}`);
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  test('NaN stays NaN where tfjs GPU kernels check for it', () => {
    for (const n of ['relu', 'relu6', 'exp', 'log', 'sin', 'cos', 'maximum', 'minimum', 'sign']) {
      const code = new Function('a', 'b', `${DIALECT} return ${(PRIMS[n].scalar.gpu as (a: string, b: string) => string)('a', 'b')};`);
      expect(`${n}: ${code(NaN, 1)}`).toBe(`${n}: NaN`);
    }
  });
});

describe('generated GLSL and WGSL for a fused group', () => {
  const chain = (x: ef.Tensor, s: ef.Tensor): ef.Tensor => ef.tanh(ef.add(ef.multiply(ef.relu(x), s), ef.exp(ef.negative(x))));
  const fusedParams = (f: ef.TracedFunction, ...args: ef.Tensor[]): Parameters<typeof ef.internal.fusedShaderSource>[0] => {
    const plan = f.getConcreteFunction(...args).plan;
    const fused = plan.steps.filter((s) => s.prim.name === 'fused_elementwise');
    expect(fused.length).toBe(1);
    return fused[0].params as unknown as Parameters<typeof ef.internal.fusedShaderSource>[0];
  };

  test('one shader per output, spelled from the records templates, cached by structure', () => {
    const x = ef.constant([[1, -2, 3], [0.5, -0.25, 4]]);
    const s = ef.constant([[2, 2, 2], [3, 3, 3]]);
    const f = ef.trace(chain);
    const g = ef.trace(chain);
    const p = fusedParams(f as unknown as ef.TracedFunction, x, s);
    const glsl = ef.internal.fusedShaderSource(p, p.results[0], 'glsl');
    expect(glsl).toContain('float v0 = getFx0AtOutCoords();');
    expect(glsl).toContain('ef_sel(isnan(v0), v0, ef_sel(v0 < 0.0, 0.0, v0))'); // relu's template
    expect(glsl).toContain('ef_tanh(');
    expect(glsl).toContain('setOutput(t5);');
    const wgsl = ef.internal.fusedShaderSource(p, p.results[0], 'wgsl');
    expect(wgsl).toContain('let v0 = getFx0ByOutputCoords(coords);');
    expect(wgsl).toContain('setOutputAtIndex(index, t5);');
    expect(wgsl).toContain('fn ef_sel(c : bool, t : f32, f : f32) -> f32 { return select(f, t, c); }');
    // A second trace of the same chain generates nothing new.
    const before = ef.internal.gpuFuseStats.generated;
    const q = fusedParams(g as unknown as ef.TracedFunction, x, s);
    expect(q).not.toBe(p);
    expect(ef.internal.fusedShaderSource(q, q.results[0], 'glsl')).toBe(glsl);
    expect(ef.internal.fusedShaderSource(q, q.results[0], 'wgsl')).toBe(wgsl);
    expect(ef.internal.gpuFuseStats.generated).toBe(before);
    ef.dispose([x, s]);
    f.dispose();
    g.dispose();
  });

  test('each output reads only the steps it needs', () => {
    const f = ef.trace((x: ef.Tensor) => {
      const e = ef.exp(ef.multiply(x, 0.5));
      const s = ef.sigmoid(ef.add(e, 1));
      return [ef.reduceSum(e), s];
    });
    const x = ef.constant([1, 2, 3]);
    const p = fusedParams(f as unknown as ef.TracedFunction, x);
    expect(p.results.length).toBe(2);
    const first = ef.internal.fusedShaderSource(p, p.results[0], 'glsl');
    expect(first).not.toContain('exp(-1.0 *'); // the sigmoid is not computed for exp's output
    expect(ef.internal.fusedShaderSource(p, p.results[1], 'glsl')).toContain('exp(-1.0 *');
    x.dispose();
    f.dispose();
  });

  test('on cpu, inputs broadcasting along some dimensions stay out of the host loop', () => {
    const f = ef.trace((a: ef.Tensor, b: ef.Tensor) => ef.relu(ef.add(ef.multiply(a, 2), b)));
    const a = ef.constant([[1, 2], [3, 4]]);
    const b = ef.constant([[1], [2]]);
    const plan = f.getConcreteFunction(a, b).plan;
    expect(plan.steps.map((s) => s.prim.name)).toEqual(['mul', 'add', 'relu']);
    ef.dispose([a, b]);
    f.dispose();
  });
});
