// Issue 17 §3-§5: refused async functions end quietly; long chains, deep and cyclic structures; capped messages; run-time limits of loaded functions.
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as ef from 'eagerflow';

type T = ef.Tensor;
const DIST = path.resolve(__dirname, '../../eagerflow/dist/index.js');

/**
 * Runs `body` in a fresh Node process on the built package (jest itself intercepts unhandled
 * rejections): returns its exit code and output. Node exits with 1 on an unhandled rejection.
 */
function runNode(body: string): { status: number | null; out: string } {
  const script = `const ef = require(${JSON.stringify(DIST)});\n${body}\nsetTimeout(() => console.log('alive'), 50);`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('a refused async function is the end of it (no unhandled rejection)', () => {
  test('the check can fail: an unhandled rejection ends the child with code 1', () => {
    const r = runNode("Promise.reject(new Error('control'));");
    expect(r.status).toBe(1);
    expect(r.out).not.toContain('alive');
  });

  test.each([
    ['ef.tidy', "ef.tidy(async () => { throw new Error('late'); })"],
    ['GradientTape.record', "new ef.GradientTape().record(async () => { throw new Error('late'); })"],
    ['ef.trace', "ef.trace(async (x) => { throw new Error('late'); })(ef.constant(1))"],
    ['ef.tidy, rejecting after an await', "ef.tidy(async () => { await new Promise((r) => setTimeout(r, 5)); throw new Error('later'); })"],
    ['ef.trace, rejecting after an await', "ef.trace(async (x) => { await null; throw new Error('later'); })(ef.constant(1))"],
  ])('%s: a TypeError now, and the process lives on', (_name, call) => {
    const r = runNode(`try { ${call}; } catch (e) { console.log('caught', e.constructor.name, /returned a Promise/.test(e.message)); }`);
    expect(r.out).toContain('caught TypeError true');
    expect(r.out).toContain('alive');
    expect(r.status).toBe(0);
  });
});

describe('long elementwise chains run (fused groups are bounded)', () => {
  test('150k alternating multiply/negative ops: every call gives the right value', () => {
    const n = 150_000;
    const h = ef.trace((x: T) => {
      let y = x;
      for (let i = 0; i < n; i++) y = i % 2 ? ef.negative(y) : ef.multiply(y, 1);
      return y;
    });
    const x = ef.constant([1, 2]);
    expect(h(x).arraySync()).toEqual([1, 2]);
    expect(h(x).arraySync()).toEqual([1, 2]);
    h.dispose();
    x.dispose();
  });

  test('an odd-length chain of 2001 ops with a scalar constant: groups split at 256 and chain correctly', () => {
    const f = ef.trace((x: T) => {
      let y = x;
      for (let i = 0; i < 2001; i++) y = ef.add(y, 0.5);
      return y;
    });
    const x = ef.constant([0, 1, 2]);
    const listing = f.getConcreteFunction(x).toString();
    expect(listing.split('\n').filter((l) => l.includes('= add ')).length).toBe(2001);
    const groups = f.getConcreteFunction(x).plan.steps.map((st) => (st.params as { nodes?: unknown[] }).nodes?.length ?? 1);
    expect(groups.length).toBe(8);
    expect(Math.max(...groups)).toBe(256);
    expect(groups.reduce((a, b) => a + b, 0)).toBe(2001);
    expect(f(x).arraySync()).toEqual([1000.5, 1001.5, 1002.5]);
    f.dispose();
    x.dispose();
  });
});

describe('deep and self-referencing structures', () => {
  test.each([
    ['an array that contains itself', (): unknown => { const a: unknown[] = [1]; a.push(a); return a; }],
    ['an object that contains itself', (): unknown => { const o: Record<string, unknown> = { t: ef.constant(1) }; o.self = o; return o; }],
    ['a cycle two levels down', (): unknown => { const inner: unknown[] = []; const outer = { list: [inner] }; inner.push(outer); return [outer]; }],
  ])('a traced function given %s: a TypeError that says so', (_name, make) => {
    const f = ef.trace((x: unknown) => (Array.isArray(x) ? ef.constant(0) : ef.constant(1)));
    const arg = make();
    expect(() => f(arg as never)).toThrow(TypeError);
    expect(() => f(arg as never)).toThrow(/^ef\.trace: the structure contains itself at x[.[][\w\]]*.* \(got a self-referencing array or object/);
    expect(f.tracingCount).toBe(0);
    f.dispose();
  });

  test('a traced function returning a cyclic structure: a TypeError, nothing leaks', () => {
    const before = ef.memory().numTensors;
    const f = ef.trace((x: T) => {
      const out: Record<string, unknown> = { y: ef.add(x, 1) };
      out.me = out;
      return out;
    });
    const x = ef.constant([1]);
    expect(() => f(x)).toThrow(/^ef\.trace \(the return value\): the structure contains itself at \.me/);
    x.dispose();
    expect(ef.memory().numTensors).toBe(before);
  });

  test('deeply nested (non-cyclic) arguments are walked without recursion', () => {
    let deep: unknown = ef.constant([3]);
    for (let i = 0; i < 20_000; i++) deep = i % 2 ? [deep] : { d: deep };
    const f = ef.trace((x: unknown) => {
      let cur = x as Record<string, unknown> | unknown[];
      for (let i = 0; i < 20_000; i++) cur = (Array.isArray(cur) ? cur[0] : cur.d) as typeof cur;
      return ef.multiply(cur as unknown as T, 2);
    });
    expect(f(deep as never).arraySync()).toEqual([6]);
    f.dispose();
  });

  test('tidy returning a 100k-deep structure, and a Variable made inside a trace from a 20k-op chain', () => {
    const before = ef.memory().numTensors;
    const kept = ef.tidy(() => {
      let deep: unknown = ef.constant([1]);
      for (let i = 0; i < 100_000; i++) deep = [deep];
      ef.constant(2);
      return deep;
    });
    expect(ef.memory().numTensors).toBe(before + 1);
    ef.dispose(kept);
    expect(ef.memory().numTensors).toBe(before);
    let v: ef.Variable | null = null;
    const f = ef.trace((x: T) => {
      if (v === null) {
        let c = ef.add(ef.constant(0), 0);
        for (let i = 0; i < 20_000; i++) c = ef.add(c, 1);
        v = new ef.Variable(c);
      }
      return ef.add(x, v.value());
    });
    const x = ef.constant(1);
    expect(f(x).item()).toBe(20_001);
    ef.dispose([x, v]);
    f.dispose();
  });

  test('ef.constant of a self-referencing or too deeply nested array: a TypeError (rank above 254)', () => {
    const a: unknown[] = [];
    a.push(a);
    expect(() => ef.constant(a as never)).toThrow(/^constant: nested array is too deep \(got more than 254 levels of nesting, expected a rank of at most 254\)/);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => ef.constant(deep as never)).toThrow(TypeError);
    let ok: unknown = 5;
    for (let i = 0; i < 200; i++) ok = [ok];
    expect(ef.constant(ok as never).shape.rank).toBe(200);
    expect(() => ef.constant([[1, 2], [3, [4]]] as never)).toThrow(/^constant: ragged or mixed nested array at \[1\]\[1\]/);
  });
});

describe('error messages are capped', () => {
  test('a failing callback with 200 inputs: the node line lists 16 and counts the rest', () => {
    const f = ef.trace((...xs: T[]) => ef.numpyFunction(() => { throw new RangeError('boom'); }, xs, 'float32'));
    const xs = Array.from({ length: 200 }, (_, i) => ef.constant(i));
    let message = '';
    try {
      f(...xs);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/boom/);
    expect(message).toContain('... (184 more)');
    const line = message.split('\n').find((l) => l.includes('while running graph')) as string;
    expect(line.length).toBeLessThan(500);
    ef.dispose(xs);
    f.dispose();
  });
});
