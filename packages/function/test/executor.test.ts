// The executor and symbolic tensors: no leaks, wrapped run-time errors, shapes (ensureShape, setShape), symbolic misuse.
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

const counts = (): [number, number] => {
  const m = ef.memory() as { numTensors: number; numDataBuffers?: number };
  return [m.numTensors, m.numDataBuffers ?? 0];
};

/** Calls `run` once to warm the trace cache, then checks calls leak nothing (in a tidy, and disposing results). */
function expectNoLeaks(run: () => unknown): void {
  ef.dispose(run() as ef.Tensor);
  const before = counts();
  ef.tidy(() => {
    run();
  });
  expect(counts()).toEqual(before);
  const out = run();
  ef.dispose(out as ef.Tensor);
  expect(counts()).toEqual(before);
}

describe('memory: the executor frees intermediates at their last use', () => {
  const x = ef.constant([[0.5, -1], [2, 3]]);
  const v = new ef.Variable([1, 2]);

  test('a chain of ops with several outputs', () => {
    const f = ef.trace((a: ef.Tensor) => {
      const e = ef.exp(ef.multiply(a, 0.5));
      const s = ef.reduceSum(ef.tanh(e), 1);
      return { s, m: ef.reduceMax(e), again: s };
    });
    expectNoLeaks(() => f(x));
  });

  test('returning inputs and captured constants', () => {
    const c = ef.constant([1, 2]);
    const f = ef.trace((a: ef.Tensor) => [a, c, ef.add(a, 1)]);
    expectNoLeaks(() => f(x));
  });

  test('variable reads and assigns', () => {
    const f = ef.trace((a: ef.Tensor) => {
      v.assignAdd(ef.reduceSum(a, 0));
      return ef.multiply(v, 2);
    });
    expectNoLeaks(() => f(x));
  });

  test('cond and whileLoop', () => {
    const f = ef.trace((a: ef.Tensor, n: ef.Tensor) => {
      const y = ef.cond(ef.greater(ef.reduceSum(a), 0), () => ef.square(a), () => ef.negative(a));
      return ef.whileLoop((i: ef.Tensor) => ef.less(i, n), (i: ef.Tensor, acc: ef.Tensor) => [ef.add(i, 1), ef.add(acc, y)], [ef.constant(0), ef.zerosLike(y)])[1];
    });
    const [three, zero, negX] = [ef.constant(3), ef.constant(0), ef.negative(x)];
    expectNoLeaks(() => f(x, three));
    expectNoLeaks(() => f(negX, zero));
  });

  test('NDArray and nested-array arguments converted per call', () => {
    const f = ef.trace((a: ef.Tensor) => ef.add(a, 1), { inputSignature: [new ef.TensorSpec([null])] });
    expectNoLeaks(() => f([1, 2, 3] as unknown as ef.Tensor));
    const g = ef.trace((a: ef.Tensor) => ef.add(a, 1));
    const nd = ef.ndarray([1, 2], [2], 'float32');
    expectNoLeaks(() => g(nd as unknown as ef.Tensor));
  });

  test('a failing call leaks nothing', () => {
    const f = ef.trace((a: ef.Tensor) => ef.ensureShape(ef.exp(ef.multiply(a, 2)), [2]), { inputSignature: [new ef.TensorSpec([null])] });
    const bad = ef.constant([1, 2, 3]);
    ef.dispose(f(ef.constant([1, 2])));
    const before = counts();
    expect(() => f(bad)).toThrow();
    expect(counts()).toEqual(before);
  });

  test('tracing leaks nothing; disposing the traced function releases its captured constants', () => {
    const arg = ef.constant([1, 2, 3]);
    const before = counts();
    const f = ef.trace((a: ef.Tensor) => ef.add(a, ef.constant([10, 20, 30])));
    const out = f(arg);
    expect(out.arraySync()).toEqual([11, 22, 33]);
    out.dispose();
    expect(counts()[0]).toBe(before[0]);
    f.dispose();
    expect(counts()).toEqual(before);
  });
});

describe('run-time failures', () => {
  const make = () => ef.trace((x: ef.Tensor) => ef.ensureShape(ef.multiply(x, 2), [3]), { inputSignature: [new ef.TensorSpec([null])], name: 'checked' });

  test('ensureShape fails at run time for a shape the trace allowed', () => {
    const f = make();
    expect(f(ef.constant([1, 2, 3])).arraySync()).toEqual([2, 4, 6]);
    expect(() => f(ef.constant([1, 2]))).toThrow(ef.errors.InvalidArgumentError);
  });

  test('the error keeps its class and cause, and names the failing node and the call site', () => {
    const f = make();
    const caught = thrown(() => f(ef.constant([1, 2])));
    expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
    const err = caught as ef.errors.OpError;
    expect(err.opName).toBe('ensure_shape');
    expect(err.cause).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(err.message).toMatch(/^ensureShape: shape of tensor \[2\] is not compatible with expected shape \[3\] \(got \[2\], expected \[3\]\)/);
    expect(err.message).toContain("while running graph 'checked', node: b: f32[3] = ensure_shape[dims=[3]] a");
    expect(err.message).toMatch(/called from: .*executor\.test\.ts:\d+:\d+/);
  });

  test('with traceConfig.captureSites the message says where the op was defined', () => {
    const saved = ef.traceConfig.captureSites;
    ef.traceConfig.captureSites = true;
    try {
      const f = ef.trace((a: ef.Tensor) => ef.ensureShape(a, [1]));
      expect(() => f(ef.constant([1, 2], 'float32'))).toThrow();
    } finally {
      ef.traceConfig.captureSites = saved;
    }
  });

  test('run-time errors are not sticky: the next call works', () => {
    const f = make();
    expect(() => f(ef.constant([1]))).toThrow(/ensureShape/);
    expect(f(ef.constant([1, 1, 1])).arraySync()).toEqual([2, 2, 2]);
    expect(() => f(ef.constant([1]))).toThrow(/ensureShape/);
    expect(f.tracingCount).toBe(1);
  });

  test('a failure inside a cond branch names the node of the branch graph', () => {
    const f = ef.trace((a: ef.Tensor) => ef.cond(ef.greater(ef.reduceSum(a), 0), () => ef.ensureShape(a, [1]), () => a), { inputSignature: [new ef.TensorSpec([null])] });
    expect(f(ef.constant([-1, -2])).arraySync()).toEqual([-1, -2]);
    expect(() => f(ef.constant([1, 2]))).toThrow(/ensure_shape\[dims=\[1\]\] capture_0/);
    expect(f(ef.constant([5])).arraySync()).toEqual([5]);
  });
});

describe('static shapes inside a trace', () => {
  test('Tensor.setShape refines the static shape', () => {
    const f = ef.trace(
      (x: ef.Tensor) => {
        x.setShape([2, null]);
        return ef.add(x, 1);
      },
      { inputSignature: [new ef.TensorSpec([null, 3])] },
    );
    const cf = f.getConcreteFunction();
    expect(cf.outputs[0].shape.dims).toEqual([2, 3]);
    // The refinement is asserted, not inferred: it is checked at run time where it enters.
    expect(cf.graph.toString()).toContain('a: f32[2,3] = ensure_shape[dims=[2,3]] x');
    expect(cf.graph.toString()).toContain('b: f32[2,3] = add a 1.0');
    expect(() => f(ef.ones([3, 3]))).toThrow(ef.errors.InvalidArgumentError);
  });

  test('setShape with an incompatible shape is an error', () => {
    const f = ef.trace((a: ef.Tensor) => {
      a.setShape([2, 3]);
      return a;
    });
    expect(() => f(ef.constant([1]))).toThrow(/^Tensor\.setShape: shape \(2, 3\) is not compatible with the tensor's shape \(1,\) \(got \(2, 3\), expected a shape compatible with \(1,\)\)/);
    expect(f.tracingCount).toBe(0);
  });

  test('ef.ensureShape refines at trace time and rejects an incompatible static shape', () => {
    const f = ef.trace((a: ef.Tensor) => ef.ensureShape(a, [null, 2]), { inputSignature: [new ef.TensorSpec(null)] });
    expect(f.getConcreteFunction().outputs[0].shape.dims).toEqual([null, 2]);
    const g = ef.trace((a: ef.Tensor) => ef.ensureShape(a, [3]));
    expect(() => g(ef.constant([1, 2]))).toThrow(ef.errors.InvalidArgumentError);
  });
});

describe('symbolic tensors', () => {
  test.each([
    ['arraySync', (t: ef.Tensor) => t.arraySync()],
    ['item', (t: ef.Tensor) => t.item()],
    ['dataSync', (t: ef.Tensor) => t.dataSync()],
    ['numpy', (t: ef.Tensor) => t.numpy()],
  ])('reading values with %s while tracing explains tracing and what to do', (name, read) => {
    const f = ef.trace((x: ef.Tensor) => {
      read(x);
      return x;
    });
    const caught = thrown(() => f(ef.constant([1, 2])));
    expect(caught).toBeInstanceOf(ef.internal.SymbolicTensorError);
    expect(caught).toBeInstanceOf(TypeError);
    const msg = (caught as Error).message;
    expect(msg).toMatch(new RegExp(`^Tensor\\.${name}: cannot read the values of symbolic tensor 'x' while tracing \\(got a symbolic float32 tensor of shape \\(2,\\), expected an eager tensor\\)\\.`));
    expect(msg).toContain('Inside ef.trace the function body runs once to record a graph');
    expect(msg).toContain('ef.cond / ef.whileLoop');
    expect(f.tracingCount).toBe(0);
  });

  test('symbolic tensors print their name, shape and dtype (toString, console.log); a string context throws (issue 28)', () => {
    const seen: string[] = [];
    const f = ef.trace((x: ef.Tensor) => {
      seen.push(x.toString());
      expect(() => String(x)).toThrow(/used as a JS string inside a trace/);
      return x;
    });
    f(ef.constant([[1, 2]]));
    expect(seen).toEqual(["<ef.Tensor 'x' shape=(1, 2) dtype=float32>"]);
  });

  test('a symbolic tensor leaked out of its trace and passed to an op is a clear error', () => {
    let leaked: ef.Tensor | null = null;
    const f = ef.trace((a: ef.Tensor) => {
      leaked = ef.add(a, 1);
      return a;
    });
    f(ef.constant(1));
    const stale = leaked as unknown as ef.Tensor;
    expect(() => ef.multiply(stale, 2)).toThrow(/^mul: cannot read the values of symbolic tensor 'add(:0)?' after its trace ended/);
    const g = ef.trace((a: ef.Tensor) => ef.add(a, stale));
    expect(() => g(ef.constant(1))).toThrow(/^ef\.trace: symbolic tensor 'add(:0)?' was used after its trace ended \(got a tensor from the finished trace of 'traced', expected .*\)\. .*return values from the traced function/);
  });

  test('symbolic outputs of a concrete function are only descriptions', () => {
    const f = ef.trace((a: ef.Tensor) => ef.exp(a));
    const out = f.getConcreteFunction(new ef.TensorSpec([2])).outputs[0];
    expect(out.isSymbolic).toBe(true);
    expect(() => out.arraySync()).toThrow(ef.internal.SymbolicTensorError);
  });
});
