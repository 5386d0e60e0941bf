// jitCompile's failure paths, through the runtime seam (the onnxruntime-node binding is replaced by a
// mock here): a missing runtime and a session that fails to build give clear errors, a run that fails where the
// uncompiled kernels do not gives their values, and none leaks.
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

const fake = { mode: 'missing' as 'missing' | 'bad-session' | 'bad-run' };
jest.mock('onnxruntime-node/dist/binding', () => {
  if (fake.mode === 'missing') throw new Error("Cannot find module 'onnxruntime-node/dist/binding'");
  class InferenceSession {
    loadModel(): void {
      if (fake.mode === 'bad-run') return;
      throw new Error('[ONNXRuntimeError] : 10 : INVALID_GRAPH : This is an invalid model.');
    }
    run(): never {
      throw new Error('Non-zero status code returned while running Exp node. Status Message: an ONNX Runtime failure');
    }
    dispose(): void {}
  }
  return { binding: { InferenceSession, initOrtOnce: () => undefined } };
});

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

test('without onnxruntime-node, a jitCompile call throws an UnimplementedError saying how to get it', () => {
  const x = ef.constant([1, 2]);
  const before = ef.memory().numTensors;
  const f = ef.trace((t: ef.Tensor) => ef.exp(t), { jitCompile: true });
  const err = thrown(() => f(x));
  expect(err).toBeInstanceOf(ef.errors.UnimplementedError);
  expect(err.message).toMatch(/jitCompile 'traced'/);
  expect(err.message).toMatch(/onnxruntime-node/);
  expect(err.message).toMatch(/npm install onnxruntime-node/);
  // The uncompiled function is the way out, and still works.
  const g = ef.trace((t: ef.Tensor) => ef.exp(t));
  const y = g(x) as ef.Tensor;
  expect(Array.from(y.dataSync() as ArrayLike<number>)).toEqual([Math.exp(1), Math.exp(2)].map((v) => expect.closeTo(v, 5)));
  y.dispose();
  f.dispose();
  g.dispose();
  expect(ef.memory().numTensors).toBe(before);
  x.dispose();
});

test('a session that fails to build throws an InternalError naming the function, ORT message and the way out', () => {
  fake.mode = 'bad-session';
  const x = ef.constant([1, 2]);
  const before = ef.memory().numTensors;
  const f = ef.trace((t: ef.Tensor) => ef.relu(ef.multiply(t, 3)), { jitCompile: 'strict' });
  const err = thrown(() => f(x));
  expect(err).toBeInstanceOf(ef.errors.InternalError);
  expect(err.message).toMatch(/jitCompile 'traced'/);
  expect(err.message).toMatch(/INVALID_GRAPH/);
  expect(err.message).toMatch(/trace without jitCompile/);
  expect(ef.memory().numTensors).toBe(before);
  f.dispose();
  x.dispose();
});

test('a run ONNX Runtime fails where the uncompiled kernels succeed: the call returns their values, nothing leaked', () => {
  fake.mode = 'bad-run';
  ef.internal.fuseConfig.smallSegmentsOnHost = false;
  try {
    const x = ef.constant([1, 2]);
    const before = ef.memory().numTensors;
    const f = ef.trace((t: ef.Tensor) => ef.exp(ef.multiply(t, 3)), { jitCompile: 'strict' });
    // The segment's nodes are replayed on the kernels (every run of the mock fails): the same values as uncompiled.
    for (let i = 0; i < 2; i++) {
      const y = f(x) as ef.Tensor;
      expect(Array.from(y.dataSync() as ArrayLike<number>)).toEqual([Math.fround(Math.exp(3)), Math.fround(Math.exp(6))].map((v) => expect.closeTo(v, 1)));
      y.dispose();
    }
    expect(f.getConcreteFunction(x).experimentalGetCompilerIr()).toMatch(/onnx_segment\[mul,exp\]/);
    expect(ef.memory().numTensors).toBe(before);
    f.dispose();
    x.dispose();
  } finally {
    ef.internal.fuseConfig.smallSegmentsOnHost = true;
  }
});
