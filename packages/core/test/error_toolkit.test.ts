// The error toolkit: the house message format, the classes each builder throws, and a kernel missing on the backend as an UnimplementedError naming op, kernel, backend and the backends that have it.
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { thrown } from '../../../test/harness/thrown';

describe('builders', () => {
  test('errorMessage is `<api>: <what> (got <got>, expected <expected>). <fix>.` with one final period', () => {
    expect(ef.internal.errorMessage('ef.f', 'x is bad', '1', '2', 'Pass 2')).toBe('ef.f: x is bad (got 1, expected 2). Pass 2.');
    expect(ef.internal.errorMessage('ef.f', 'x is bad', '1', '2', 'Pass 2.')).toBe('ef.f: x is bad (got 1, expected 2). Pass 2.');
  });

  test('each builder returns its class with opName', () => {
    const a = ef.internal.argError('ef.f', 'w', 'g', 'e', 'Fix it', 'f_op');
    expect(a).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(a.opName).toBe('f_op');
    expect(ef.internal.argError('ef.f', 'w', 'g', 'e', 'Fix it').opName).toBe('ef.f');
    const t = ef.internal.typeError('ef.f', 'w', 'g', 'e', 'Fix it');
    expect(t).toBeInstanceOf(TypeError);
    expect(t.message).toBe('ef.f: w (got g, expected e). Fix it.');
    const u = ef.internal.unimplemented('ef.f', 'w', 'g', 'e', 'Fix it');
    expect(u).toBeInstanceOf(ef.errors.UnimplementedError);
    expect(u).toBeInstanceOf(ef.errors.OpError);
    const i = ef.internal.internalError('verify(g)', 'value 3 is defined twice');
    expect(i).toBeInstanceOf(ef.errors.InternalError);
    expect(i).toBeInstanceOf(ef.errors.OpError);
    expect(i.message).toBe('verify(g): value 3 is defined twice. Internal error: an EagerFlow invariant does not hold; please report it with the code that triggered it.');
  });

  test('opError builds any ef.errors class; argError and opError take { opName, cause }; contextError re-raises with context', () => {
    const cause = new Error('disk');
    const n = ef.internal.opError(ef.errors.NotFoundError, 'load', 'w is missing', 'entries [v]', 'w', 'Save w', { cause });
    expect(n).toBeInstanceOf(ef.errors.NotFoundError);
    expect(n.message).toBe('load: w is missing (got entries [v], expected w). Save w.');
    expect([n.opName, n.cause]).toEqual(['load', cause]);
    expect(ef.internal.opError(ef.errors.ResourceExhaustedError, 'f', 'w', 'g', 'e', 'Fix', null).opName).toBeNull();
    const a = ef.internal.argError('ef.f', 'w', 'g', 'e', 'Fix', { opName: 'op', cause });
    expect([a.opName, a.cause, a.message]).toEqual(['op', cause, 'ef.f: w (got g, expected e). Fix.']);
    const c = ef.internal.contextError('Dataset.map', new ef.errors.OutOfRangeError('end'), 'Dataset.map');
    expect(c).toBeInstanceOf(ef.errors.OutOfRangeError);
    expect(c.message).toBe('Dataset.map: end');
    const d = ef.internal.contextError('f', 'thrown text', 'f', ef.errors.UnknownError);
    expect([d instanceof ef.errors.UnknownError, d.message, d.cause]).toEqual([true, 'f: thrown text', 'thrown text']);
    expect(ef.internal.contextError('f', new RangeError('r'), null)).toBeInstanceOf(ef.errors.InvalidArgumentError);
  });

  test('internal invariants throw ef.errors.InternalError (a pass that breaks the graph)', () => {
    const g = ef.trace((x: ef.Tensor) => ef.add(ef.multiply(x, 2), 1)).getConcreteFunction(new ef.TensorSpec([2])).graph;
    const reversed = new ef.Graph(g.name, g.values, g.nodes.slice().reverse(), g.inputs, g.outputs);
    expect(() => ef.internal.verify(reversed)).toThrow(ef.errors.InternalError);
  });

  test('hand-formatted TypeErrors went through typeError unchanged', () => {
    expect(() => new ef.GradientTape().record(3 as unknown as () => void)).toThrow(
      new TypeError('GradientTape.record: expected a function (got 3, expected () => value). Pass tape.record(() => ...).'),
    );
  });
});

describe('a kernel missing on the active backend', () => {
  const KERNEL = 'EfTestOnlyKernel';
  const OTHER = 'ef_test_other';
  // A primitive whose kernel exists only on another (registered, never activated) backend.
  const prim: ef.internal.Primitive = {
    name: 'ef_test_missing',
    effect: 'pure',
    infer: (ins) => [ins[0]],
    impl: (k, [x]) => [k.run(KERNEL, { x }) as ef.internal.Info],
    vjp: null,
    saves: 'none',
  };
  const expected = (op: string): string =>
    `${op}: backend 'cpu' has no '${KERNEL}' kernel (got backend 'cpu', expected a backend that has it: ${OTHER}). Switch with ef.setBackend('${OTHER}'), or register a '${KERNEL}' kernel for 'cpu'.`;

  beforeAll(() => {
    tf.registerBackend(OTHER, () => null as unknown as tf.KernelBackend, -100);
    tf.registerKernel({ kernelName: KERNEL, backendName: OTHER, kernelFunc: () => ({ dataId: {}, shape: [], dtype: 'float32' }) });
  });
  afterAll(() => {
    tf.unregisterKernel(KERNEL, OTHER);
    tf.removeBackend(OTHER);
  });

  test('eagerly: UnimplementedError naming the op, the kernel, the backend and the backends that have it; nothing leaks', () => {
    expect(ef.getBackend()).toBe('cpu');
    const x = ef.constant([1, 2]);
    const before = ef.memory().numTensors;
    const err = thrown(() => ef.internal.bind(prim, [x], {}));
    expect(err).toBeInstanceOf(ef.errors.UnimplementedError);
    expect((err as ef.errors.OpError).message).toBe(expected('ef_test_missing'));
    expect((err as ef.errors.OpError).opName).toBe('ef_test_missing');
    expect(ef.memory().numTensors).toBe(before);
    x.dispose();
  });

  test('inside a traced function (direct kernels): the same error, with the graph node', () => {
    const f = ef.trace((x: ef.Tensor) => ef.internal.bind(prim, [ef.add(x, 1)], {})[0]);
    const x = ef.constant([1, 2]);
    const err = thrown(() => f(x));
    expect(err).toBeInstanceOf(ef.errors.UnimplementedError);
    const msg = (err as Error).message;
    expect(msg.startsWith(expected('ef_test_missing'))).toBe(true);
    expect(msg).toMatch(/while running graph '.*', node: .*ef_test_missing/);
    x.dispose();
  });

  test('a kernel no backend has says so', () => {
    const none: ef.internal.Primitive = { ...prim, name: 'ef_test_nowhere', impl: (k, [x]) => [k.run('EfTestNoSuchKernel', { x }) as ef.internal.Info] };
    expect(() => ef.internal.bind(none, [ef.constant(1)], {})).toThrow(
      "ef_test_nowhere: backend 'cpu' has no 'EfTestNoSuchKernel' kernel (got backend 'cpu', expected a backend that has it (none is registered)). Register a 'EfTestNoSuchKernel' kernel for 'cpu'.",
    );
  });
});

describe('core builds its errors with the toolkit', () => {
  // NDArray's index and length checks are JS RangeErrors (like a typed array's); every other error of core
  // goes through errors/error_toolkit.ts (house format, TensorFlow's classes).
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');
  const src = path.resolve(__dirname, '../src');
  const files = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : [path.join(d, e.name)]));

  test('no hand-built Error or TypeError outside errors/', () => {
    const sites: string[] = [];
    for (const f of files(src).filter((f) => f.endsWith('.ts') && !f.startsWith(path.join(src, 'errors')))) {
      fs.readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
        if (/\bnew (Type)?Error\(/.test(line.replace(/\/\/.*$/, '')) && !/new Error\(\)\.stack/.test(line)) sites.push(`${path.relative(src, f)}:${i + 1}`);
      });
    }
    expect(sites).toEqual([]);
  });

  test('an unknown shape as a list is an InvalidArgumentError in the house format', () => {
    expect(() => new ef.TensorShape(null).asList()).toThrow(ef.errors.InvalidArgumentError);
    expect(() => new ef.TensorShape(null).asList()).toThrow(
      'TensorShape.asList: as_list() is not defined on an unknown TensorShape (got a shape of unknown rank, expected a known rank). Use setShape or ensureShape to give a rank.',
    );
  });
});
