// Where ONNX would read another element than TensorFlow refuses to (a negative index counted from the end, a slice
// clamped into the axis), a compiled function refuses too, with the error it gives uncompiled: the lowerings make
// ONNX Runtime fail the run, and the segment replays its nodes on the uncompiled kernels for the error
// (onnx/segment.ts replay). Nothing leaks either way, and ONNX Runtime prints nothing of its own.
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as ef from 'eagerflow';
import { everySegmentInOnnxRuntime } from './onnx_hooks';
import { thrown } from '../../../test/harness/thrown';

type T = ef.Tensor;
const DIST = path.resolve(__dirname, '../../eagerflow/dist/index.js');

everySegmentInOnnxRuntime();

const arr = (t: T): number[] => Array.from(t.dataSync() as ArrayLike<number>);

/**
 * `fn` traced plain and with jitCompile, called on each argument list: equal values where the plain one succeeds, and
 * where it throws, the compiled one throws the same class with the same first line. The compiled function must really
 * run a segment, and no call may leak.
 */
function sameAsUncompiled(fn: (...xs: T[]) => T, calls: T[][]): { errors: Error[] } {
  const plain = ef.trace(fn);
  const jit = ef.trace(fn, { jitCompile: true });
  const errors: Error[] = [];
  for (const args of calls) {
    const before = ef.memory().numTensors;
    let want: number[] | Error;
    try {
      const y = plain(...args) as T;
      want = arr(y);
      y.dispose();
    } catch (e) {
      want = e as Error;
    }
    if (want instanceof Error) {
      const err = thrown(() => jit(...args));
      expect(err.constructor).toBe(want.constructor);
      expect(err.message.split('\n')[0]).toBe(want.message.split('\n')[0]);
      expect(err.message).toMatch(/while running graph '\w+', node: /);
      errors.push(err);
    } else {
      const y = jit(...args) as T;
      expect(arr(y)).toEqual(want);
      y.dispose();
    }
    expect(ef.memory().numTensors).toBe(before);
    expect(jit.getConcreteFunction(...args).experimentalGetCompilerIr()).toMatch(/onnx_segment/);
  }
  plain.dispose();
  jit.dispose();
  return { errors };
}

describe('indices: TF refuses a negative index, ONNX would count it from the end', () => {
  test('gather: -1 and 3 on an axis of 3 refuse as uncompiled, valid ones give the same values', () => {
    const p = ef.constant([[10, 11], [20, 21], [30, 31]]);
    const idx = [[0, 2], [0, -1], [0, 3], [-3], [2, 1, 0]].map((v) => ef.constant(v, 'int32'));
    const { errors } = sameAsUncompiled((x, i) => ef.multiply(ef.gather(x, i), 2), idx.map((i) => [p, i]));
    expect(errors).toHaveLength(3);
    expect(errors[0]).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(errors[0].message).toMatch(/^gather: an index is out of range \(got index -1, expected indices in \[0, 3\)\)/);
    expect(errors[2].message).toMatch(/got index -3/);
    [p, ...idx].forEach((t) => t.dispose());
  });

  test('gather along axis 1, on int32 data', () => {
    const p = ef.constant([[1, 2, 3], [4, 5, 6]], 'int32');
    const idx = [[2, 0], [-2]].map((v) => ef.constant(v, 'int32'));
    const { errors } = sameAsUncompiled((x, i) => ef.gather(x, i, 1), idx.map((i) => [p, i]));
    expect(errors.map((e) => e.message.split('\n')[0])).toEqual([expect.stringMatching(/got index -2, expected indices in \[0, 3\)/)]);
    [p, ...idx].forEach((t) => t.dispose());
  });

  test('gatherNd: a component outside its dim refuses as uncompiled (tfjs checked only the flattened offset)', () => {
    const p = ef.constant([[1, 2], [3, 4]]);
    const idx = [[[1, 0], [0, 1]], [[1, -1]], [[-1, 0]], [[0, 2]], [[1]]].map((v) => ef.constant(v, 'int32'));
    const { errors } = sameAsUncompiled((x, i) => ef.gatherNd(x, i), idx.map((i) => [p, i]));
    expect(errors.map((e) => e.message.split('\n')[0])).toEqual(
      ['[1, -1]', '[-1, 0]', '[0, 2]'].map((t) => `gatherNd: an index is out of range (got indices[0] = ${t}, expected each component in [0, dim) of the params shape [2,2]). Clamp or fix the indices.`),
    );
    expect(errors[0]).toBeInstanceOf(ef.errors.InvalidArgumentError);
    // Eagerly too: [0, 2] read element 2 and [1, -1] element 1 before.
    expect(thrown(() => ef.gatherNd(p, idx[3])).message).toMatch(/indices\[0\] = \[0, 2\]/);
    [p, ...idx].forEach((t) => t.dispose());
  });

  test('sparse cross-entropy labels (written as a class-mask Gather): -1 and C refuse, where -1 read class C - 1', () => {
    const logits = ef.constant([[1, 2, 3], [3, 1, 2]]);
    const labels = [[0, 2], [0, -1], [3, 1]].map((v) => ef.constant(v, 'int32'));
    const loss = (l: T, y: T): T => ef.reduceMean(ef.nn.sparseSoftmaxCrossEntropyWithLogits(y, l));
    const { errors } = sameAsUncompiled(loss, labels.map((y) => [logits, y]));
    expect(errors.map((e) => e.message.split('\n')[0])).toEqual([expect.stringMatching(/got index -1, expected indices in \[0, 3\)/), expect.stringMatching(/got index 3/)]);
    [logits, ...labels].forEach((t) => t.dispose());
  });

  test('in a compiled train step: a bad label leaves the variables as they were', () => {
    const w = new ef.Variable(ef.constant([[0.5, -0.25, 1], [1, 0.5, -1]]));
    const step = ef.trace(
      (x: T, y: T) => {
        const tape = new ef.GradientTape();
        const loss = tape.record(() => ef.reduceMean(ef.nn.sparseSoftmaxCrossEntropyWithLogits(y, ef.matmul(x, w))));
        w.assignSub(ef.multiply(tape.gradient(loss, [w])[0] as T, 0.1));
        return loss;
      },
      { jitCompile: true },
    );
    const x = ef.constant([[1, 2], [3, 4]]);
    const good = ef.constant([0, 2], 'int32');
    const bad = ef.constant([1, -1], 'int32');
    const read = (): number[] => {
      const v = w.value();
      const a = arr(v);
      v.dispose();
      return a;
    };
    step(x, good).dispose();
    const after = read();
    const before = ef.memory().numTensors;
    expect(thrown(() => step(x, bad)).message).toMatch(/^gather: an index is out of range \(got index -1/);
    expect(ef.memory().numTensors).toBe(before);
    expect(read()).toEqual(after);
    step.dispose();
    [x, good, bad, w].forEach((t) => t.dispose());
  });
});

describe('slices with tensor begin and size: ONNX clamps them into the axis, TF refuses', () => {
  test('begin -1, a size past the end, begin past the end: the same errors as uncompiled; valid ones equal', () => {
    const x = ef.constant([1, 2, 3, 4, 5]);
    const cases = [
      [1, 3],
      [0, -1],
      [2, -1],
      [5, 0],
      [-1, 2],
      [3, 4],
      [6, -1],
      [1, -2],
    ].map(([b, z]) => [x, ef.constant([b], 'int32'), ef.constant([z], 'int32')]);
    const { errors } = sameAsUncompiled((t, b, z) => ef.multiply(ef.slice(t, b, z), 3), cases);
    expect(errors).toHaveLength(4);
    expect(errors.every((e) => e instanceof ef.errors.InvalidArgumentError && /^slice: slice out of bounds on axis 0/.test(e.message))).toBe(true);
    cases.forEach(([, b, z]) => [b, z].forEach((t) => t.dispose()));
    x.dispose();
  });

  test('rank 2: one bad axis is enough', () => {
    const x = ef.reshape(ef.range(0, 12), [3, 4]);
    const cases = [
      [[1, 1], [2, 3]],
      [[1, 1], [2, 4]],
      [[0, -1], [1, 1]],
    ].map(([b, z]) => [x, ef.constant(b, 'int32'), ef.constant(z, 'int32')]);
    const { errors } = sameAsUncompiled((t, b, z) => ef.add(ef.slice(t, b, z), 1), cases);
    expect(errors.map((e) => e.message.split('\n')[0])).toEqual([expect.stringMatching(/on axis 1/), expect.stringMatching(/on axis 1/)]);
    cases.forEach(([, b, z]) => [b, z].forEach((t) => t.dispose()));
    x.dispose();
  });
});

describe('run-time paddings and target shapes: ONNX crops and broadcasts both ways, TF refuses', () => {
  test('pad: a negative padding refuses as uncompiled (ONNX cropped: [1, 2, 3, 4] by [-1, 0] gave [2, 3, 4])', () => {
    const x = ef.constant([1, 2, 3, 4]);
    const cases = [[[1, 2]], [[-1, 0]], [[0, -2]]].map((q) => [x, ef.constant(q, 'int32')]);
    const { errors } = sameAsUncompiled((t, q) => ef.multiply(ef.pad(t, q), 2), cases);
    expect(errors.map((e) => e.message.split('\n')[0])).toEqual([expect.stringMatching(/^pad: invalid paddings \(got \[\[-1, 0\]\]/), expect.stringMatching(/^pad: invalid paddings \(got \[\[0, -2\]\]/)]);
    cases.forEach(([, q]) => q.dispose());
    x.dispose();
  });

  test('broadcastTo a run-time shape: [3] to [1] and to [3, 1] refuse (ONNX gave [3] and [3, 3]); [2, 3] and [1, 3] broadcast', () => {
    const x = ef.constant([1, 2, 3]);
    const cases = [[2, 3], [1], [3, 1], [1, 3], [3]].map((t) => [x, ef.constant(t, 'int32')]);
    const { errors } = sameAsUncompiled((t, shape) => ef.multiply(ef.broadcastTo(t, shape), 2), cases);
    expect(errors.map((e) => e.message.split('\n')[0])).toEqual([
      expect.stringMatching(/^broadcastTo: incompatible shapes: .*got \[3\] to \[1\]/),
      expect.stringMatching(/^broadcastTo: incompatible shapes: .*got \[3\] to \[3,1\]/),
    ]);
    cases.forEach(([, t]) => t.dispose());
    x.dispose();
  });
});

test('ONNX Runtime prints nothing of its own when it refuses a run (the error is thrown, once)', () => {
  const script = `const ef = require(${JSON.stringify(DIST)});
ef.internal.fuseConfig.smallSegmentsOnHost = false;
const f = ef.trace((p, i) => ef.gather(p, i), { jitCompile: true });
try { f(ef.constant([1, 2, 3]), ef.constant([5], 'int32')); } catch (e) { console.log('caught ' + e.constructor.name); }`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  expect(r.stdout.trim()).toBe('caught InvalidArgumentError');
  expect(r.stderr).toBe('');
});
