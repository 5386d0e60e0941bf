// relu's gradient is one record, relu_grad (TF's ReluGrad: dy·(x > 0)); its own gradient is TF's ReluGradGrad
// (relu_grad(ddy, x) for dy, zeros for x), so relu'' is a connected zero. Eager, traced and jitCompile agree. The
// expected values of the first test are TF 2.21's for the same nested tapes (including the -0s of the products).
import * as ef from 'eagerflow';

const arr = (t: ef.Tensor | null): number[] => Array.from((t as ef.Tensor).dataSync() as ArrayLike<number>);

/** Gradient of sum(relu(x)·w) for x and w, and d/dx of sum(d/dx · v) (relu'' path), in one tape nest. */
function grads(x: ef.Tensor, w: ef.Tensor, v: ef.Tensor): ef.Tensor[] {
  const outer = new ef.GradientTape({ persistent: true });
  const [gx, gw] = outer.record(() => {
    outer.watch(x);
    outer.watch(w);
    const inner = new ef.GradientTape();
    inner.watch(x);
    const y = inner.record(() => ef.reduceSum(ef.multiply(ef.relu(x), w)));
    return inner.gradient(y, [x, w]) as ef.Tensor[];
  });
  const s = outer.record(() => ef.reduceSum(ef.multiply(gx, v)));
  const [hx, hw] = outer.gradient(s, [x, w]) as (ef.Tensor | null)[];
  outer.dispose();
  if (hx === null || hw === null) throw new Error('relu second derivative is disconnected');
  return [gx, gw, hx, hw];
}

const X = [2, 0.5, 0, -1, -3, 1.25];
const W = [1.5, -2, 0.25, 3, -0.5, 4];
const V = [0.5, 1, -1, 2, 0.25, -3];

test("relu's gradient is TF's ReluGrad: dy where x > 0, else 0 (also at 0 and NaN); relu'' is a connected 0", () => {
  ef.tidy(() => {
    const x = ef.constant([...X, NaN]);
    const w = ef.constant([...W, 1]);
    const [gx, gw, hx, hw] = grads(x, w, ef.constant([...V, 1]));
    expect(arr(gx)).toEqual([1.5, -2, 0, 0, -0, 4, 0]);
    expect(arr(gw).slice(0, 6)).toEqual([2, 0.5, 0, 0, 0, 1.25]);
    expect(arr(hx)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // d/dw of sum(relu_grad(w, x)·v) = v·(x > 0): the dy side of ReluGradGrad.
    expect(arr(hw)).toEqual([0.5, 1, -0, 0, 0, -3, 0]);
  });
});

test('traced and jitCompile first and second order gradients equal eager ones; nothing leaks', () => {
  const x = ef.constant(X);
  const w = ef.constant(W);
  const v = ef.constant(V);
  const eager = ef.tidy(() => grads(x, w, v).map(arr));
  for (const jitCompile of [false, true]) {
    const f = ef.trace((a: ef.Tensor, b: ef.Tensor, c: ef.Tensor) => grads(a, b, c), { jitCompile });
    const out = f(x, w, v) as ef.Tensor[];
    expect(out.map(arr)).toEqual(eager);
    ef.dispose(out);
    const before = ef.memory().numTensors;
    ef.dispose(f(x, w, v) as ef.Tensor[]);
    expect(ef.memory().numTensors).toBe(before);
  }
  ef.dispose([x, w, v]);
});

test('a traced relu gradient is one ReluGrad node (no Sign/Select mask) in the concrete graph', () => {
  const w = ef.constant(W);
  const f = ef.trace((a: ef.Tensor) => {
    const tape = new ef.GradientTape();
    tape.watch(a);
    const y = tape.record(() => ef.reduceSum(ef.multiply(ef.relu(a), w)));
    return tape.gradient(y, a) as ef.Tensor;
  });
  const cf = f.getConcreteFunction(new ef.TensorSpec([6], 'float32'));
  const ops = cf.graph.nodes.map((n) => n.prim.name);
  expect(ops).toContain('relu_grad');
  expect(ops).not.toContain('sign');
  w.dispose();
});
