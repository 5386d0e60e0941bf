// ef.SparseTensor and ef.sparse (toDense, fromDense, add, sparseDenseMatmul): against dense float64 references,
// gradients against dense matmul's, and TF's errors for bad indices and shapes.
import * as ef from 'eagerflow';

const sp = (): ef.SparseTensor => new ef.SparseTensor({ indices: [[0, 1], [1, 0], [2, 2]], values: [2, 3, -1], denseShape: [3, 3] });

test('toDense and fromDense round trip; defaultValue; strings keep their bytes', () => {
  const s = sp();
  expect(ef.sparse.toDense(s).arraySync()).toEqual([[0, 2, 0], [3, 0, 0], [0, 0, -1]]);
  expect(ef.sparse.toDense(s, { defaultValue: 9 }).arraySync()).toEqual([[9, 2, 9], [3, 9, 9], [9, 9, -1]]);
  const back = ef.sparse.fromDense(ef.sparse.toDense(s));
  expect(back.indices.arraySync()).toEqual(s.indices.arraySync());
  expect(back.values.arraySync()).toEqual(s.values.arraySync());
  expect(back.denseShape.arraySync()).toEqual([3, 3]);
  const str = new ef.SparseTensor([[1]], ef.constant([new Uint8Array([0xff])]), [2]);
  expect(ef.sparse.toDense(str).bytes().map((b) => Array.from(b))).toEqual([[], [0xff]]);
});

test('add: sparse + sparse sums duplicates in row-major order; sparse + dense is dense', () => {
  const a = sp();
  const b = new ef.SparseTensor({ indices: [[2, 2], [0, 0]], values: [1, 5], denseShape: [3, 3] });
  const c = ef.sparse.add(a, b) as ef.SparseTensor;
  expect(c).toBeInstanceOf(ef.SparseTensor);
  expect(c.indices.arraySync()).toEqual([[0, 0], [0, 1], [1, 0], [2, 2]]);
  expect(c.values.arraySync()).toEqual([5, 2, 3, 0]);
  expect((ef.sparse.add(ef.ones([3, 3]), a) as ef.Tensor).arraySync()).toEqual([[1, 3, 1], [4, 1, 1], [1, 1, 0]]);
});

test('sparseDenseMatmul equals the dense product, with adjoints, and differentiates like it', () => {
  const s = sp();
  const d = ef.constant([[1, 2], [3, 4], [5, 6]]);
  const dense = ef.sparse.toDense(s);
  expect(ef.sparse.sparseDenseMatmul(s, d).arraySync()).toEqual(ef.matmul(dense, d).arraySync());
  expect(ef.sparse.sparseDenseMatmul(s, d, { adjointA: true }).arraySync()).toEqual(ef.matmul(ef.transpose(dense), d).arraySync());
  const dt = ef.transpose(d);
  expect(ef.sparse.sparseDenseMatmul(s, dt, { adjointB: true }).arraySync()).toEqual(ef.matmul(dense, d).arraySync());
  const g1 = ef.grad((x: ef.Tensor) => ef.reduceSum(ef.square(ef.sparse.sparseDenseMatmul(s, x))))(d);
  const g2 = ef.grad((x: ef.Tensor) => ef.reduceSum(ef.square(ef.matmul(dense, x))))(d);
  expect((g1 as ef.Tensor).arraySync()).toEqual((g2 as ef.Tensor).arraySync());
});

test('bad input: mismatched components, out-of-range or repeated indices, wrong inner dimension', () => {
  expect(() => new ef.SparseTensor({ indices: [[0, 1]], values: [1, 2], denseShape: [2, 2] })).toThrow(/one value per index row/);
  expect(() => new ef.SparseTensor({ indices: [0, 1], values: [1], denseShape: [2] })).toThrow(/int32 \[N, rank\] matrix/);
  expect(() => ef.sparse.toDense(new ef.SparseTensor({ indices: [[0, 5]], values: [1], denseShape: [2, 2] }))).toThrow(/index 0 \[0, 5\] is out of bounds for dense shape \[2, 2\]/);
  expect(() => ef.sparse.toDense(new ef.SparseTensor({ indices: [[0, 1], [0, 1]], values: [1, 2], denseShape: [2, 2] }))).toThrow(/indices repeat/);
  expect(() => ef.sparse.sparseDenseMatmul(sp(), ef.ones([2, 2]))).toThrow(/inner dimensions do not match/);
  expect(() => ef.sparse.add(ef.ones([2]), ef.ones([2]))).toThrow(/at least one argument must be a SparseTensor/);
});
