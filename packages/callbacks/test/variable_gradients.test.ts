// Extension: gradients through a pyFunction reach the Variables its callback reads (TensorFlow gives None), eagerly, traced and under minimize.
import * as ef from 'eagerflow';

/** y = sum(x * w) + sum(w^2) computed inside the callback: dy/dx = w, dy/dw = x + 2w. */
const layer = (w: ef.Variable) => (x: ef.Tensor) => ef.add(ef.reduceSum(ef.multiply(x, w)), ef.reduceSum(ef.square(w)));
const X = [1, 2, 3];
const W = [0.5, -1, 2];
const dW = X.map((x, i) => x + 2 * W[i]);

test('eager: tape.gradient(y, [x, w]) gives both when the callback reads w', () => {
  const x = ef.constant(X);
  const w = new ef.Variable(W);
  const tape = new ef.GradientTape();
  const y = tape.record(() => {
    tape.watch(x);
    return ef.pyFunction(layer(w), [x], 'float32');
  });
  const [gx, gw] = tape.gradient(y, [x, w]) as ef.Tensor[];
  expect(Array.from(gx.dataSync() as ArrayLike<number>)).toEqual(W);
  expect(Array.from(gw.dataSync() as ArrayLike<number>)).toEqual(dW);
});

test('eager: the variable gets its gradient even when no input is watched, and the tape lists it as watched', () => {
  const x = ef.constant(X);
  const w = new ef.Variable(W, { name: 'w_inside' });
  const tape = new ef.GradientTape();
  const y = tape.record(() => ef.multiply(ef.pyFunction(layer(w), [x], 'float32'), 2));
  expect(tape.watchedVariables().map((v) => v.name)).toEqual(['w_inside']);
  const gw = tape.gradient(y, w) as ef.Tensor;
  expect(Array.from(gw.dataSync() as ArrayLike<number>)).toEqual(dW.map((d) => 2 * d));
});

test('eager: watchAccessedVariables false and non-trainable variables get null, as outside callbacks', () => {
  const x = ef.constant(X);
  const w = new ef.Variable(W);
  const frozen = new ef.Variable(W, { trainable: false });
  const t1 = new ef.GradientTape({ watchAccessedVariables: false });
  const y1 = t1.record(() => { t1.watch(x); return ef.pyFunction(layer(w), [x], 'float32'); });
  expect(t1.gradient(y1, [w])).toEqual([null]);
  const t2 = new ef.GradientTape();
  const y2 = t2.record(() => { t2.watch(x); return ef.pyFunction(layer(frozen), [x], 'float32'); });
  const [gx, gf] = t2.gradient(y2, [x, frozen]) as (ef.Tensor | null)[];
  expect(gf).toBeNull();
  expect(Array.from((gx as ef.Tensor).dataSync() as ArrayLike<number>)).toEqual(W);
});

test('traced, with the tape inside the traced function: gradients for w computed by the graph, one trace', () => {
  const w = new ef.Variable(W);
  const unread = new ef.Variable([1, 1]);
  const f = ef.trace((x: ef.Tensor) => {
    const tape = new ef.GradientTape();
    const y = tape.record(() => { tape.watch(x); return ef.pyFunction(layer(w), [x], 'float32'); });
    return tape.gradient(y, [x, w, unread]) as ef.Tensor[];
  });
  for (let k = 0; k < 2; k++) {
    const [gx, gw, gu] = f(ef.constant(X));
    expect(Array.from(gx.dataSync() as ArrayLike<number>)).toEqual(W);
    expect(Array.from(gw.dataSync() as ArrayLike<number>)).toEqual(dW);
    // Inside a trace the callback's reads are unknown until it runs: a Variable source it does not read gets zeros.
    expect(Array.from(gu.dataSync() as ArrayLike<number>)).toEqual([0, 0]);
  }
  expect(f.tracingCount).toBe(1);
});

test('a tape outside a traced call that runs a pyFunction reading w', () => {
  const w = new ef.Variable(W);
  const f = ef.trace((x: ef.Tensor) => ef.pyFunction(layer(w), [x], 'float32'));
  const x = ef.constant(X);
  f(x).dispose();
  const tape = new ef.GradientTape();
  const y = tape.record(() => f(x));
  expect(Array.from((tape.gradient(y, w) as ef.Tensor).dataSync() as ArrayLike<number>)).toEqual(dW);
});

test('optimizer.minimize trains a variable read only inside a pyFunction, eagerly and in a traced step', () => {
  const target = ef.constant([1, -2, 3]);
  const fit = (w: ef.Variable) => () => ef.pyFunction((t: ef.Tensor) => ef.reduceSum(ef.square(ef.subtract(w, t))), [target], 'float32');
  const we = new ef.Variable([0, 0, 0]);
  const wt = new ef.Variable([0, 0, 0]);
  const oe = new ef.optimizers.SGD({ learningRate: 0.25 });
  const ot = new ef.optimizers.SGD({ learningRate: 0.25 });
  const step = ef.trace(() => ot.minimize(fit(wt), [wt]));
  for (let i = 0; i < 3; i++) {
    ef.tidy(() => { oe.minimize(fit(we), [we]); });
    ef.tidy(() => { step(); });
  }
  // w -= 0.25 * 2 (w - t): halves the distance each step -> t * (1 - 1/8).
  expect(Array.from(we.value().dataSync() as ArrayLike<number>)).toEqual([0.875, -1.75, 2.625]);
  expect(Array.from(wt.value().dataSync() as ArrayLike<number>)).toEqual([0.875, -1.75, 2.625]);
  expect(step.tracingCount).toBe(1);
});

test('no leaks: eager and traced gradients through a callback reading a variable', () => {
  const w = new ef.Variable(W);
  const x = ef.constant(X);
  const eager = () => {
    const tape = new ef.GradientTape();
    const y = tape.record(() => ef.pyFunction(layer(w), [x], 'float32'));
    const g = tape.gradient(y, w) as ef.Tensor;
    y.dispose();
    return g;
  };
  const traced = ef.trace(eager);
  eager().dispose();
  traced().dispose();
  const before = ef.memory().numTensors;
  for (let i = 0; i < 20; i++) {
    eager().dispose();
    traced().dispose();
  }
  expect(ef.memory().numTensors).toBe(before);
});
