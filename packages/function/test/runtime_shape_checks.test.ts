// Run-time shape checks: a graph traced with unknown dims re-checks each op on the real shapes and raises like eager code.
import * as ef from 'eagerflow';
import { checkOutputs } from '../src/runtime_checks';
import { thrown } from '../../../test/harness/thrown';

const spec = (rank: number, dtype: ef.DType = 'float32'): ef.TensorSpec => new ef.TensorSpec(new Array<null>(rank).fill(null), dtype);

interface Row {
  name: string;
  op: string;
  fn: (...xs: ef.Tensor[]) => ef.Tensor;
  args: () => ef.Tensor[];
  specs: ef.TensorSpec[];
}

const c = (v: ef.TensorLike, d?: ef.DType): ef.Tensor => ef.constant(v, d);
const ROWS: Row[] = [
  { name: 'where (issue example)', op: 'where', fn: (a, b, d) => ef.where(a, b, d), args: () => [c([true, false]), c([1, 2, 3]), c([4, 5, 6])], specs: [spec(1, 'bool'), spec(1), spec(1)] },
  { name: 'broadcastTo', op: 'broadcastTo', fn: (x) => ef.broadcastTo(x, [2, 2]), args: () => [c([1, 2, 3])], specs: [spec(1)] },
  { name: 'add', op: 'add', fn: (a, b) => ef.add(a, b), args: () => [c([[1, 2, 3]]), c([1, 2])], specs: [spec(2), spec(1)] },
  { name: 'maximum', op: 'maximum', fn: (a, b) => ef.maximum(a, b), args: () => [c([1, 2, 3]), c([1, 2])], specs: [spec(1), spec(1)] },
  { name: 'matmul', op: 'matmul', fn: (a, b) => ef.matmul(a, b), args: () => [c([[1, 2, 3]]), c([[1, 2]])], specs: [spec(2), spec(2)] },
  { name: 'concat', op: 'concat', fn: (a, b) => ef.concat([a, b], 0), args: () => [c([[1, 2]]), c([[1, 2, 3]])], specs: [spec(2), spec(2)] },
  { name: 'stack', op: 'concat', fn: (a, b) => ef.stack([a, b]), args: () => [c([1, 2]), c([1, 2, 3])], specs: [spec(1), spec(1)] },
  { name: 'slice', op: 'slice', fn: (x) => ef.slice(x, [1], [3]), args: () => [c([1, 2, 3])], specs: [spec(1)] },
  { name: 'reshape', op: 'reshape', fn: (x) => ef.reshape(x, [2, 2]), args: () => [c([1, 2, 3])], specs: [spec(1)] },
  { name: 'unsortedSegmentSum ids', op: 'unsortedSegmentSum', fn: (x, i) => ef.unsortedSegmentSum(x, i, 2), args: () => [c([1, 2, 3]), c([0, 1], 'int32')], specs: [spec(1), spec(1, 'int32')] },
  // Segment ids are values: only the run checks them (TF's CPU kernels raise on ids >= numSegments).
  { name: 'unsortedSegmentMax id out of range', op: 'unsortedSegmentMax', fn: (x, i) => ef.math.unsortedSegmentMax(x, i, 2), args: () => [c([1, 2, 3]), c([0, 2, 1], 'int32')], specs: [spec(1), spec(1, 'int32')] },
  { name: 'unsortedSegmentMin id out of range', op: 'unsortedSegmentMin', fn: (x, i) => ef.math.unsortedSegmentMin(x, i, 2), args: () => [c([1, 2, 3]), c([0, -1, 7], 'int32')], specs: [spec(1), spec(1, 'int32')] },
  { name: 'unsortedSegmentProd id out of range', op: 'unsortedSegmentProd', fn: (x, i) => ef.math.unsortedSegmentProd(x, i, 2), args: () => [c([[1, 2], [3, 4]]), c([3, 0], 'int32')], specs: [spec(2), spec(1, 'int32')] },
  { name: 'squeeze', op: 'squeeze', fn: (x) => ef.squeeze(x, 0), args: () => [c([[1, 2], [3, 4]])], specs: [spec(2)] },
  { name: 'argMax of an empty axis', op: 'argMax', fn: (x) => ef.argMax(x, 0), args: () => [ef.zeros([0, 2])], specs: [spec(2)] },
  { name: 'pad REFLECT too wide', op: 'pad', fn: (x) => ef.pad(x, [[3, 0]], 'REFLECT'), args: () => [c([1, 2, 3])], specs: [spec(1)] },
];

describe('unknown dims: the real shapes are checked at run time', () => {
  beforeAll(() => {
    ef.retraceConfig.warn = () => undefined;
  });

  test.each(ROWS.map((r) => [r.name, r] as const))('%s raises InvalidArgumentError naming the op, like eager, and leaks nothing', (_n, r) => {
    const args = r.args();
    const eager = thrown(() => r.fn(...args));
    expect(eager).toBeInstanceOf(ef.errors.InvalidArgumentError);
    const f = ef.trace(r.fn, { inputSignature: r.specs });
    f.getConcreteFunction(...r.specs); // traces fine: the dims are unknown
    const before = ef.memory().numTensors;
    const traced = thrown(() => f(...args));
    expect(ef.memory().numTensors).toBe(before);
    expect(traced).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect((traced as Error).message.startsWith(`${r.op}:`)).toBe(true);
    expect((traced as Error).message).toContain('while running graph');
    f.dispose();
    ef.dispose(args);
  });

  test('matching shapes still run, with the static result shapes refined by the real ones', () => {
    const f = ef.trace((a: ef.Tensor, b: ef.Tensor, d: ef.Tensor) => ef.where(a, b, d), { inputSignature: [spec(1, 'bool'), spec(1), spec(1)] });
    const out = f(c([true, false, true]), c([1, 2, 3]), c([4, 5, 6]));
    expect(out.arraySync()).toEqual([1, 5, 3]);
    ef.dispose(out);
    f.dispose();
  });
});

describe('a kernel result of the wrong shape is an error, never a silent reinterpretation', () => {
  test('checkOutputs names the op', () => {
    const prim = ef.internal.PRIMITIVES.neg as ef.internal.Primitive;
    const wrong = { dataId: {}, shape: [2, 6], dtype: 'float32' };
    expect(() => checkOutputs(prim, [{ dtype: 'float32', shape: [2, 2] }], [wrong])).toThrow(ef.errors.InvalidArgumentError);
    expect(() => checkOutputs(prim, [{ dtype: 'float32', shape: [2, 2] }], [wrong])).toThrow(/^neg: the kernel produced a result of the wrong shape \(got \[2,6\], expected \[2,2\]\)/);
    expect(() => checkOutputs(prim, [{ dtype: 'float32', shape: [null, 6] }], [wrong])).not.toThrow();
  });
});

describe('graph intermediates from kernels that return tracked tensors', () => {
  test('a traced reduceSum(abs(x)) leaves nothing behind call after call (cpu Abs returns an engine tensor)', () => {
    const f = ef.trace((a: ef.Tensor) => ef.reduceSum(ef.abs(a)));
    const x = c([1.5, -2]);
    f(x).dispose();
    const before = ef.memory();
    for (let i = 0; i < 5; i++) {
      const y = f(x);
      expect(y.item()).toBe(3.5);
      y.dispose();
    }
    expect(ef.memory()).toEqual(before);
    f.dispose();
    x.dispose();
  });
});
