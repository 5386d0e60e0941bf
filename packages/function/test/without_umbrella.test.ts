// @eagerflow/function, @eagerflow/callbacks and @eagerflow/saving used without the 'eagerflow' umbrella: replay works, saving host callbacks fails clearly until the bridge is installed.
import * as core from '@eagerflow/core';
import * as fn from '@eagerflow/function';
import * as cb from '@eagerflow/callbacks';
import * as sv from '@eagerflow/saving';
import { hostCallbacks } from '../../saving/src/host';
import { hostCallbackBridge } from '../../eagerflow/src/host_saving';

type T = core.Tensor;
const spec = new core.TensorSpec([null], 'float32');

afterEach(() => {
  hostCallbacks.bridge = null;
  for (const k of cb.hostFunctionKeys()) if (k.startsWith('test.')) cb.unregisterHostFunction(k);
});

test('this file really runs without the umbrella: nothing installed the host-callback bridge', () => {
  // Importing 'eagerflow' installs it; nothing here does.
  expect(hostCallbacks.bridge).toBeNull();
});

test('a tape around a traced pyFunction call replays the callback through its own tape (one call, not a recompute)', () => {
  let calls = 0;
  const cube = (a: T): T => (calls++, core.multiply(core.multiply(a, a), a));
  const f = fn.trace((x: T) => cb.pyFunction(cube, [x], 'float32') as T, { inputSignature: [spec] });
  f.getConcreteFunction();
  calls = 0;
  const x = core.constant([1, 2, 3]);
  const tape = new core.GradientTape();
  const y = tape.record(() => {
    tape.watch(x);
    return f(x);
  });
  const g = tape.gradient(y, x) as T;
  // d(x^3)/dx = 3x^2; the record's `replay` ran the callback once under its own tape, the gradient
  // replayed that tape (the generic vjp would call it a second time to recompute).
  expect(Array.from(g.dataSync() as ArrayLike<number>)).toEqual([3, 12, 27]);
  expect(calls).toBe(1);
  core.dispose([x, y, g]);
});

test('saving a host callback without the bridge fails clearly and leaks nothing; with the bridge it saves', () => {
  const double = cb.registerHostFunction('test.double', (a: core.NDArray) => a.map((v) => (v as number) * 2));
  const f = fn.trace((x: T) => cb.numpyFunction(double, [x], 'float32') as T, { inputSignature: [spec] });
  f.getConcreteFunction();
  const before = core.memory().numTensors;
  expect(() => sv.saveFunction(f)).toThrow(
    "saveFunction: host callbacks need @eagerflow/callbacks (got a host callback node and no bridge installed, expected the host-callback bridge the umbrella package installs). Import 'eagerflow' once (import * as ef from 'eagerflow'), which installs it.",
  );
  expect(core.memory().numTensors).toBe(before);
  sv.installHostCallbackBridge(hostCallbackBridge);
  const a = sv.saveFunction(f);
  expect(a.modelTopology.node.some((n) => n.op === 'test.double')).toBe(true);
});

test('loading a saved host callback without the bridge fails clearly; with it the callback is rebound', () => {
  const twice = (a: core.NDArray): core.NDArray => a.map((v) => (v as number) * 2);
  sv.installHostCallbackBridge(hostCallbackBridge);
  const double = cb.registerHostFunction('test.double', twice);
  const a = sv.saveFunction(fn.trace((x: T) => cb.numpyFunction(double, [x], 'float32') as T, { inputSignature: [spec] }));
  hostCallbacks.bridge = null;
  const before = core.memory().numTensors;
  expect(() => sv.loadFunction(a, { hostFunctions: { 'test.double': twice } })).toThrow(
    "loadFunction: host callbacks need @eagerflow/callbacks (got host function 'test.double' and no bridge installed, expected the host-callback bridge the umbrella package installs). Import 'eagerflow' once (import * as ef from 'eagerflow'), which installs it.",
  );
  expect(core.memory().numTensors).toBe(before);
  sv.installHostCallbackBridge(hostCallbackBridge);
  const g = sv.loadFunction<T>(a, { hostFunctions: { 'test.double': twice } });
  const y = g([1, 2.5]);
  expect(Array.from(y.dataSync() as ArrayLike<number>)).toEqual([2, 5]);
  y.dispose();
});

test('ConcreteFunction.toGraphDef needs @eagerflow/saving installed: a clear error before installSaving(), the GraphDef after', () => {
  const cf = fn.trace((x: T) => core.exp(x)).getConcreteFunction(spec);
  expect(() => cf.toGraphDef()).toThrow(core.FailedPreconditionError);
  expect(() => cf.toGraphDef()).toThrow(
    "ConcreteFunction.toGraphDef: no GraphDef writer is installed (got a program that did not install @eagerflow/saving, expected its writer installed). Import 'eagerflow' (it installs it), or call installSaving() from '@eagerflow/saving' once.",
  );
  sv.installSaving();
  expect(cf.toGraphDef().node.map((n) => n.op)).toEqual(['Placeholder', 'Exp', 'Identity']);
});
