// The repeat-call path of traced functions (issue 31's cold call path): a call with the same argument types as the
// last one runs the concrete function's CallState directly (no flattening, key or signature lookup). Every way out of
// it is tested here: new shapes, dtypes, weak flags and JS values retrace; tapes, outer traces, variables and
// runFunctionsEagerly take their own paths; bad inputs are errors that leak nothing; outputs keep their structure.
import * as ef from 'eagerflow';

const numTensors = (): number => ef.memory().numTensors;
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return null;
};
const values = (t: unknown): number[] => Array.from((t as ef.Tensor).dataSync() as ArrayLike<number>);

const warn = ef.retraceConfig.warn;
let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
  ef.retraceConfig.warn = (m) => warnings.push(m);
});
afterEach(() => {
  ef.retraceConfig.warn = warn;
});

describe('what retraces after repeat calls', () => {
  test('a new shape, dtype or weak flag retraces; the last types run the known function again', () => {
    const f = ef.trace((x: ef.Tensor) => ef.multiply(x, 3));
    const a = ef.constant([1, 2]);
    for (let i = 0; i < 3; i++) f(a).dispose();
    expect(f.tracingCount).toBe(1);
    const wider = ef.constant([1, 2, 3]);
    const ints = ef.constant([1, 2], 'int32');
    const weak = ef.abs(ef.constant([1, 2]));
    weak.weak = true;
    const outs = [f(wider), f(ints), f(weak), f(a), f(a)];
    expect(f.tracingCount).toBe(4);
    expect(outs.map((t) => [t.dtype, t.weak, ...values(t)])).toEqual([
      ['float32', false, 3, 6, 9], ['int32', false, 3, 6], ['float32', true, 3, 6], ['float32', false, 3, 6], ['float32', false, 3, 6],
    ]);
    ef.dispose([...outs, a, wider, ints, weak]);
    f.dispose();
  });

  test('a JS value argument is keyed by value: a new value retraces, the same one does not', () => {
    const f = ef.trace((x: ef.Tensor, k: number) => ef.multiply(x, k));
    const a = ef.constant([1, 2]);
    const outs = [f(a, 2), f(a, 2), f(a, 3), f(a, 2)];
    expect(outs.map(values)).toEqual([[2, 4], [2, 4], [3, 6], [2, 4]]);
    expect(f.tracingCount).toBe(2);
    // Fewer arguments than the last call: not a repeat call (the key differs).
    const g = ef.trace((x: ef.Tensor, y?: ef.Tensor) => (y === undefined ? ef.negative(x) : ef.add(x, y)));
    outs.push(g(a, a), g(a, a), g(a), g(a, a));
    expect(outs.slice(4).map(values)).toEqual([[2, 4], [2, 4], [-1, -2], [2, 4]]);
    expect(g.tracingCount).toBe(2);
    ef.dispose([...outs, a]);
  });

  test('JS primitives between tensors: the same values repeat, -0 is not 0, NaN is NaN, objects take the full path', () => {
    const f = ef.trace((k: unknown, x: ef.Tensor, flag: unknown, y: ef.Tensor) => {
      const scale = typeof k === 'number' ? (Object.is(k, -0) ? -1 : Number.isNaN(k) ? 5 : k) : 7;
      return ef.add(ef.multiply(x, scale), flag === true ? y : ef.negative(y));
    });
    const x = ef.constant([1, 2]);
    const y = ef.constant([10, 20]);
    const calls: [unknown, unknown, number[]][] = [
      [2, true, [12, 24]], [2, true, [12, 24]], [0, true, [10, 20]], [-0, true, [9, 18]], [-0, true, [9, 18]], [0, true, [10, 20]],
      [NaN, true, [15, 30]], [NaN, true, [15, 30]], [2, false, [-8, -16]], [2, 'yes', [-8, -16]], ['2', null, [-3, -6]], ['2', null, [-3, -6]],
      [undefined, true, [17, 34]], [2, true, [12, 24]],
    ];
    for (const [k, flag, want] of calls) {
      const out = f(k, x, flag, y);
      expect([k, flag, values(out)]).toEqual([k, flag, want]);
      out.dispose();
    }
    // One trace per distinct key: 2/true, 0, -0, NaN, 2/false, 2/'yes', '2'/null, undefined.
    expect(f.tracingCount).toBe(8);
    // An object argument is keyed by identity, an array by its contents: both take the full path every call.
    const g = ef.trace((o: { s: number }, x: ef.Tensor) => ef.multiply(x, o.s));
    const o = { s: 3 };
    expect([values(g(o, x)), values(g(o, x)), values(g({ s: 4 }, x))]).toEqual([[3, 6], [3, 6], [4, 8]]);
    expect(g.tracingCount).toBe(2);
    ef.dispose([x, y]);
  });

  test('a trace that creates a Variable after the first is still refused, and the known function keeps working', () => {
    const made: ef.Variable[] = [];
    const f = ef.trace((x: ef.Tensor) => {
      if (x.shape.rank === 2) made.push(new ef.Variable(ef.zeros([1])));
      return ef.add(x, 1);
    });
    const a = ef.constant([1, 2]);
    f(a).dispose();
    f(a).dispose();
    const before = numTensors();
    const m = ef.constant([[1, 2]]);
    const e = thrown(() => f(m));
    expect(e).toBeInstanceOf(TypeError);
    expect(String((e as Error).message)).toMatch(/Variable/);
    made.forEach((v) => v.dispose());
    m.dispose();
    expect(numTensors()).toBe(before);
    expect(values(f(a))).toEqual([2, 3]);
    expect(f.tracingCount).toBe(1);
    a.dispose();
  });

  test('retracing after many repeat calls still warns (the detector is idle, not off)', () => {
    const f = ef.trace((x: ef.Tensor) => ef.add(x, 1), { name: 'idleThenRetrace' });
    const a = ef.constant([1]);
    for (let i = 0; i < 30; i++) f(a).dispose();
    const shapes = [2, 3, 4, 5, 6].map((n) => ef.zeros([n]));
    shapes.forEach((s) => f(s).dispose());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^5 out of the last 10 calls to idleThenRetrace/);
    // A window changed while idle applies to the next call (as record(false) would see it).
    const { window, threshold } = ef.retraceConfig;
    try {
      for (let i = 0; i < 30; i++) f(a).dispose();
      ef.retraceConfig.window = 4;
      ef.retraceConfig.threshold = 3;
      f(a).dispose();
      [7, 8, 9].map((n) => ef.zeros([n])).forEach((s) => {
        f(s).dispose();
        s.dispose();
      });
      expect(warnings).toHaveLength(2);
      expect(warnings[1]).toMatch(/^3 out of the last 4 calls to idleThenRetrace/);
    } finally {
      Object.assign(ef.retraceConfig, { window, threshold });
    }
    ef.dispose([...shapes, a]);
  });
});

describe('paths the repeat call hands over to', () => {
  test('under a GradientTape the repeat call is recorded (gradients flow), and after it the direct path resumes', () => {
    const f = ef.trace((x: ef.Tensor) => ef.multiply(x, x));
    const x = ef.constant([1, 2, 3]);
    f(x).dispose();
    f(x).dispose();
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(x);
      return ef.reduceSum(f(x));
    });
    expect(values(tape.gradient(y, x))).toEqual([2, 4, 6]);
    expect(values(f(x))).toEqual([1, 4, 9]);
    expect(f.tracingCount).toBe(1);
  });

  test('inside another trace the repeat call records into the outer graph', () => {
    const inner = ef.trace((x: ef.Tensor) => ef.add(x, 10));
    const x = ef.constant([1, 2]);
    inner(x).dispose();
    inner(x).dispose();
    const outer = ef.trace((v: ef.Tensor) => ef.multiply(inner(v), 2));
    expect(values(outer(x))).toEqual([22, 24]);
    expect(values(outer(x))).toEqual([22, 24]);
    expect(inner.tracingCount).toBe(1);
    expect(outer.tracingCount).toBe(1);
  });

  test('runFunctionsEagerly after repeat calls runs the body on every call, and stops when turned off', () => {
    let runs = 0;
    const f = ef.trace((x: ef.Tensor) => {
      runs++;
      return ef.add(x, 1);
    });
    const x = ef.constant([1]);
    f(x).dispose();
    f(x).dispose();
    expect(runs).toBe(1);
    ef.config.runFunctionsEagerly(true);
    try {
      expect(values(f(x))).toEqual([2]);
      expect(values(f(x))).toEqual([2]);
      expect(runs).toBe(3);
    } finally {
      ef.config.runFunctionsEagerly(false);
    }
    expect(values(f(x))).toEqual([2]);
    expect(runs).toBe(3);
  });

  test('captured variables are read on every repeat call; a Variable argument takes the variable path', () => {
    const v = new ef.Variable(ef.constant([1, 1]));
    const f = ef.trace((x: ef.Tensor) => ef.add(x, v.value()));
    const x = ef.constant([1, 2]);
    expect(values(f(x))).toEqual([2, 3]);
    v.assign(ef.constant([5, 5]));
    expect(values(f(x))).toEqual([6, 7]);
    const g = ef.trace((x: ef.Tensor, w: ef.Variable) => ef.add(x, w.value()));
    expect(values(g(x, v))).toEqual([6, 7]);
    v.assign(ef.constant([0, 1]));
    expect(values(g(x, v))).toEqual([1, 3]);
    expect(values(f(x))).toEqual([1, 3]);
    expect([f.tracingCount, g.tracingCount]).toEqual([1, 1]);
  });
});

describe('compiled functions (jitCompile) on the repeat-call path', () => {
  test('repeat calls run the compiled plan; a tape still sees one compiled node with its gradient; a disposed input leaks nothing', () => {
    const f = ef.trace((x: ef.Tensor) => ef.tanh(ef.add(ef.matmul(x, x), 1)), { jitCompile: true });
    const x = ef.constant([[0.1, 0.2], [0.3, 0.4]]);
    const want = values(ef.tanh(ef.add(ef.matmul(x, x), 1)));
    for (let i = 0; i < 3; i++) {
      const y = f(x);
      values(y).forEach((v, j) => expect(v).toBeCloseTo(want[j], 5));
      y.dispose();
    }
    expect(f.getConcreteFunction(x).experimentalGetCompilerIr()).toContain('onnx_segment');
    const tape = new ef.GradientTape();
    const s = tape.record(() => {
      tape.watch(x);
      return ef.reduceSum(f(x));
    });
    const eager = new ef.GradientTape();
    const se = eager.record(() => {
      eager.watch(x);
      return ef.reduceSum(ef.tanh(ef.add(ef.matmul(x, x), 1)));
    });
    const [g, ge] = [values(tape.gradient(s, x)), values(eager.gradient(se, x))];
    g.forEach((v, j) => expect(v).toBeCloseTo(ge[j], 4));
    const gone = ef.constant([[1, 2], [3, 4]]);
    gone.dispose();
    const before = numTensors();
    expect(thrown(() => f(gone))).toBeInstanceOf(ef.errors.FailedPreconditionError);
    expect(numTensors()).toBe(before);
    expect(f.tracingCount).toBe(1);
    f.dispose();
  });
});

describe('inputs and outputs of the direct path', () => {
  test('a disposed input is a FailedPreconditionError naming it, nothing leaks, and the next call runs', () => {
    const f = ef.trace((x: ef.Tensor) => ef.exp(x));
    const a = ef.constant([0, 0]);
    f(a).dispose();
    f(a).dispose();
    const gone = ef.constant([1, 1]);
    gone.dispose();
    const before = numTensors();
    const e = thrown(() => f(gone));
    expect(e).toBeInstanceOf(ef.errors.FailedPreconditionError);
    expect(String((e as Error).message)).toMatch(/is disposed/);
    expect(numTensors()).toBe(before);
    expect(values(f(a))).toEqual([1, 1]);
    a.dispose();
  });

  test('structured, weak, empty and input outputs keep their form; a returned input is a copy the caller owns', () => {
    const f = ef.trace((x: ef.Tensor) => ({ y: ef.add(x, 1), n: null, xs: [x, ef.abs(2)] }));
    const x = ef.constant([1, 2]);
    let out = f(x) as { y: ef.Tensor; n: null; xs: ef.Tensor[] };
    for (let i = 0; i < 3; i++) {
      ef.dispose([out.y, ...out.xs]);
      out = f(x) as typeof out;
    }
    expect(Object.keys(out).sort()).toEqual(['n', 'xs', 'y']);
    expect(out.n).toBeNull();
    expect([values(out.y), values(out.xs[0]), values(out.xs[1])]).toEqual([[2, 3], [1, 2], [2]]);
    expect([out.y.weak, out.xs[0].weak, out.xs[1].weak]).toEqual([false, false, true]);
    x.dispose();
    expect(values(out.xs[0])).toEqual([1, 2]);
    ef.dispose([out.y, ...out.xs]);

    const none = ef.trace((t: ef.Tensor) => (t.shape.rank === 1 ? [] : null));
    const z = ef.constant([1]);
    expect([none(z), none(z), none(z)]).toEqual([[], [], []]);
    z.dispose();
  });

  test('complex64 through a layout kernel, and kernels that return tracked tensors, leak nothing over repeat calls', () => {
    const c = ef.complex(ef.constant([1, 2]), ef.constant([3, 4]));
    const id = ef.trace((x: ef.Tensor) => ef.identity(ef.reshape(x, [2, 1])));
    const abs = ef.trace((x: ef.Tensor) => ef.abs(x));
    const r = ef.constant([-1, 2]);
    id(c).dispose();
    abs(r).dispose();
    const before = numTensors();
    for (let i = 0; i < 5; i++) {
      const y = id(c);
      const [re, im, a] = [ef.math.real(y), ef.math.imag(y), abs(r)];
      expect([y.dtype, ...y.shape.asList()]).toEqual(['complex64', 2, 1]);
      expect([values(re), values(im), values(a)]).toEqual([[1, 2], [3, 4], [1, 2]]);
      ef.dispose([y, re, im, a]);
    }
    expect(numTensors()).toBe(before);
    c.dispose();
    r.dispose();
  });
});
