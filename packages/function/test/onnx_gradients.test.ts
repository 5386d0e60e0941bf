// Gradients through jitCompile: a tape over a compiled call records one node whose vjp is the compiled
// backward function; compiled gradients equal uncompiled ones (first and second order, a small conv net).
import * as ef from 'eagerflow';
import { recordFirstGradient } from '../../../test/harness/tapes';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const arr = (t: ef.Tensor | null): number[] => Array.from((t as ef.Tensor).dataSync() as ArrayLike<number>);
const close = (a: number[], tol = 1e-4): unknown => a.map((v) => expect.closeTo(v, -Math.log10(tol)));

/** A small conv net: conv 3x3 (2 -> 3 channels), relu, average pool, dense to 2 outputs, squared-error loss. */
const init = {
  filter: Float32Array.from({ length: 54 }, (_, i) => 0.4 * Math.sin(1.7 * i + 0.3)),
  dense: Float32Array.from({ length: 24 }, (_, i) => 0.3 * Math.cos(2.3 * i)),
};
function makeNet() {
  const filter = new ef.Variable(ef.constant(init.filter, 'float32', [3, 3, 2, 3]), { name: 'filter' });
  const dense = new ef.Variable(ef.constant(init.dense, 'float32', [12, 2]), { name: 'dense' });
  const loss = (x: ef.Tensor, y: ef.Tensor): ef.Tensor => {
    const h = ef.relu(ef.nn.conv2d(x, filter as unknown as ef.Tensor, 1, 'SAME'));
    const p = ef.nn.avgPool(h, 2, 2, 'VALID');
    const logits = ef.matmul(ef.reshape(p, [2, 12]), dense as unknown as ef.Tensor);
    return ef.reduceMean(ef.square(ef.subtract(logits, y)));
  };
  return { filter, dense, loss };
}

test('a tape over a compiled call records one node; gradients (variables and input) equal uncompiled ones', () => {
  const { filter, dense, loss } = makeNet();
  const x = ef.random.normal([2, 4, 4, 2], { seed: 3 });
  const y = ef.constant([[1, -1], [0.5, 2]]);
  const plain = ef.trace(loss);
  const jit = ef.trace(loss, { jitCompile: true });
  const grads = (f: typeof plain): number[][] => {
    const tape = new ef.GradientTape();
    const l = tape.record(() => {
      tape.watch(x);
      return f(x, y) as ef.Tensor;
    });
    const entries = (tape as unknown as { entries: { name: string }[] }).entries.map((e) => e.name);
    if (f === jit) expect(entries.filter((n) => n === 'jit_compiled_call').length).toBe(1);
    else expect(entries).not.toContain('jit_compiled_call');
    const gs = tape.gradient([l], [filter, dense, x]) as ef.Tensor[];
    const out = [arr(l), ...gs.map(arr)];
    [l, ...gs].forEach((t) => t.dispose());
    return out;
  };
  const want = grads(plain);
  const before = ef.memory().numTensors;
  const got = grads(jit);
  got.forEach((g, k) => expect(g).toEqual(close(want[k])));
  // The backward function is compiled too, and steady calls leak nothing.
  grads(jit);
  expect(ef.memory().numTensors).toBe(before);
  jit.dispose();
  plain.dispose();
  [x, y, filter, dense].forEach((t) => t.dispose());
});

test('second order through a compiled function equals uncompiled and a float64 hand computation', () => {
  // f(x) = sum(tanh(x * w)) with x, w vectors: d/dx (sum_i d f/dx_i) = sum over i of w_i^2 * tanh''(x_i w_i).
  const w = ef.constant([0.5, -1.5, 2]);
  const fn = (x: ef.Tensor): ef.Tensor => ef.reduceSum(ef.tanh(ef.multiply(x, w)));
  const x = ef.constant([0.3, -0.2, 0.1]);
  const names: string[][] = [];
  const second = (f: (x: ef.Tensor) => unknown): number[] => {
    const { outer, value: g } = recordFirstGradient(x, (v) => f(v) as ef.Tensor, {
      then: (dx, y) => {
        y.dispose();
        return ef.reduceSum(dx);
      },
    });
    names.push((outer as unknown as { entries: { name: string }[] }).entries.map((e) => e.name));
    const h = outer.gradient(g, x) as ef.Tensor;
    const out = arr(h);
    g.dispose();
    h.dispose();
    return out;
  };
  const jit = ef.trace(fn, { jitCompile: true });
  const plain = ef.trace(fn);
  const ws = [0.5, -1.5, 2];
  const hand = [0.3, -0.2, 0.1].map((v, i) => {
    const t = Math.tanh(v * ws[i]);
    return ws[i] * ws[i] * -2 * t * (1 - t * t);
  });
  expect(second(plain)).toEqual(close(hand, 1e-5));
  expect(second(jit)).toEqual(close(hand, 1e-5));
  // The outer tape saw the compiled forward and the compiled backward as one node each (no tanh inside).
  expect(names[1].filter((n) => n === 'jit_compiled_call').length).toBe(2);
  expect(names[1]).not.toContain('tanh');
  expect(names[0]).toContain('tanh');
  jit.dispose();
  plain.dispose();
  [w, x].forEach((t) => t.dispose());
});

test('a compiled train step (tape inside the traced function) updates variables like the uncompiled one', () => {
  const nets = [makeNet(), makeNet()];
  const steps = nets.map(({ filter, dense, loss }, k) =>
    ef.trace(
      (x: ef.Tensor, y: ef.Tensor) => {
        const tape = new ef.GradientTape();
        const l = tape.record(() => loss(x, y));
        const [gf, gd] = tape.gradient(l, [filter, dense]) as ef.Tensor[];
        filter.assignSub(ef.multiply(gf, 0.1));
        dense.assignSub(ef.multiply(gd, 0.1));
        return l;
      },
      { jitCompile: k === 1 },
    ),
  );
  const x = ef.constant(Float32Array.from({ length: 64 }, (_, i) => Math.sin(0.9 * i)), 'float32', [2, 4, 4, 2]);
  const y = ef.constant([[1, -1], [0.5, 2]]);
  const losses: number[][] = [[], []];
  for (let i = 0; i < 3; i++) {
    steps.forEach((s, k) => {
      const l = s(x, y) as ef.Tensor;
      losses[k].push(arr(l)[0]);
      l.dispose();
    });
  }
  expect(losses[1]).toEqual(close(losses[0]));
  expect(losses[0][2]).toBeLessThan(losses[0][0]);
  const value = (v: ef.Variable): number[] => {
    const t = v.value();
    const a = arr(t);
    t.dispose();
    return a;
  };
  expect(value(nets[1].filter)).toEqual(close(value(nets[0].filter)));
  expect(value(nets[1].dense)).toEqual(close(value(nets[0].dense)));
  // Forward, backward (conv2d_backprop_filter, avg_pool_grad) and the updates' math are one native segment;
  // only the variable reads and assignments stay JS steps.
  const ir = steps[1].getConcreteFunction(x, y).experimentalGetCompilerIr();
  const steps1 = ir.split('\n').map((l) => /^\s+(?:[\w, :[\]\d]+ = )?(\w+)/.exec(l)?.[1]).filter((k): k is string => k !== undefined && k !== 'return');
  expect(steps1.filter((k) => k !== 'read_variable' && k !== 'assign_variable')).toEqual(['onnx_segment']);
  expect(ir).toMatch(/onnx_segment\[[^\]]*conv2d_backprop_filter[^\]]*\]/);
  steps.forEach((s) => s.dispose());
  nets.forEach((n) => [n.filter, n.dense].forEach((v) => v.dispose()));
  [x, y].forEach((t) => t.dispose());
});
