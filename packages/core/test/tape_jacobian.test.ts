// jacobian and batchJacobian ported from TensorFlow's backprop_test.py (JacobianTest, BatchJacobianTest).
import * as ef from 'eagerflow';
import { captureWarnings, noLeak, val } from './tape_helpers';
import { recordFirstGradient } from '../../../test/harness/tapes';

let warn: jest.SpyInstance;
beforeEach(() => {
  warn = captureWarnings();
});
afterEach(() => warn.mockRestore());

const diag = (v: number[]): number[][] => v.map((d, i) => v.map((_, j) => (i === j ? d : 0)));

describe('jacobian', () => {
  test('JacobianTest._jacobian: z = x*x*y gives [diag(2xy), diag(x*x)] with shape target + source', () =>
    noLeak(() => {
      const x = ef.constant([1, 2]);
      const y = ef.constant([3, 4]);
      const g = new ef.GradientTape({ persistent: true });
      const z = g.record(() => (g.watch([x, y]), ef.multiply(ef.multiply(x, x), y)));
      const [jx, jy] = g.jacobian(z, [x, y]) as ef.Tensor[];
      expect(jx.shape.asList()).toEqual([2, 2]);
      expect(val(jx)).toEqual(diag([6, 16]));
      expect(val(jy)).toEqual(diag([1, 4]));
      expect(val(g.jacobian(z, x))).toEqual(diag([6, 16]));
      g.dispose();
    }));

  test('testPersistentTape: a non-persistent tape gives one jacobian, a second call throws', () =>
    noLeak(() => {
      const x = ef.constant([1, 2]);
      const g = new ef.GradientTape();
      const y = g.record(() => (g.watch(x), ef.multiply(x, x)));
      expect(val(g.jacobian(y, x))).toEqual(diag([2, 4]));
      expect(() => g.jacobian(y, x)).toThrow(/non-persistent/);
      expect(() => g.gradient(y, x)).toThrow(/non-persistent/);
    }));

  test('test_parallel_iterations: jacobian of matmul(x, x) has shape [2, 2, 2, 2] and the product rule values', () =>
    noLeak(() => {
      const xv = [[1, 2], [3, 4]];
      const x = ef.constant(xv);
      const g = new ef.GradientTape();
      const y = g.record(() => (g.watch(x), ef.matmul(x, x)));
      const j = g.jacobian(y, x) as ef.Tensor;
      expect(j.shape.asList()).toEqual([2, 2, 2, 2]);
      // d(XX)_ij / dX_kl = [i == k] X_lj + X_ik [j == l]
      const want = [0, 1].map((i) => [0, 1].map((jj) => [0, 1].map((k) => [0, 1].map((l) => (i === k ? xv[l][jj] : 0) + (jj === l ? xv[i][k] : 0)))));
      expect(val(j)).toEqual(want);
    }));

  test('test_indexed_slices: jacobian of gather has shape [2, 2, 3, 2] with ones where rows were taken', () =>
    noLeak(() => {
      const inp = ef.constant([[1, 2], [3, 4], [5, 6]]);
      const g = new ef.GradientTape();
      const out = g.record(() => (g.watch(inp), ef.gather(inp, [0, 2])));
      const j = g.jacobian(out, inp) as ef.Tensor;
      expect(j.shape.asList()).toEqual([2, 2, 3, 2]);
      const rows = [0, 2];
      const want = [0, 1].map((i) => [0, 1].map((c) => [0, 1, 2].map((r) => [0, 1].map((cc) => (r === rows[i] && cc === c ? 1 : 0)))));
      expect(val(j)).toEqual(want);
    }));

  test("an unconnected source gives null, or zeros of target.shape + source.shape with 'zero'", () =>
    noLeak(() => {
      const x = ef.constant([1, 2, 3]);
      const w = ef.constant([[1, 2]]);
      const g = new ef.GradientTape({ persistent: true });
      const y = g.record(() => (g.watch([x, w]), ef.multiply(x, 2)));
      expect(g.jacobian(y, w)).toBeNull();
      const z = g.jacobian(y, w, { unconnectedGradients: 'zero' }) as ef.Tensor;
      expect(z.shape.asList()).toEqual([3, 1, 2]);
      expect(val(z)).toEqual(new Array(3).fill([[0, 0]]));
      const { a, b } = g.jacobian(y, { a: x, b: w });
      expect(val(a)).toEqual(diag([2, 2, 2]));
      expect(b).toBeNull();
      expect(() => g.jacobian(y, x, { unconnectedGradients: 'nonsense' as ef.UnconnectedGradients })).toThrow(/Unknown value for unconnectedGradients/);
      g.dispose();
    }));

  test('scalar target, source as target, variables and empty targets', () => {
    const v = new ef.Variable([1, 2]);
    noLeak(() => {
      const g = new ef.GradientTape({ persistent: true });
      const [s, e] = g.record(() => [ef.reduceSum(ef.square(v)), ef.slice(ef.multiply(v, 1), [0], [0])]);
      expect(val(g.jacobian(s, v))).toEqual([2, 4]);
      expect(val(g.jacobian(v, v))).toEqual(diag([1, 1]));
      const je = g.jacobian(e, v) as ef.Tensor;
      expect(je.shape.asList()).toEqual([0, 2]);
      g.dispose();
    });
    v.dispose();
  });

  test('test_nested_jacobian: batchJacobian of a jacobian is [[2, 0], [0, 2]] per example', () =>
    noLeak(() => {
      const x = ef.ones([10, 2]);
      const g = new ef.GradientTape();
      const dyx = g.record(() => {
        g.watch(x);
        const gg = new ef.GradientTape();
        const y = gg.record(() => (gg.watch(x), ef.reduceSum(ef.square(x))));
        return gg.jacobian(y, x) as ef.Tensor;
      });
      expect(val(dyx)).toEqual(new Array(10).fill([2, 2]));
      const dyxx = g.batchJacobian(dyx, x);
      expect(val(dyxx)).toEqual(new Array(10).fill(diag([2, 2])));
    }));

  test('hessian via a jacobian of a gradient: x^3 + xy at (1, 2)', () =>
    noLeak(() => {
      const x = ef.constant([1, 2]);
      const { outer, value: grad } = recordFirstGradient(x, (v) => {
        const [a, b] = [ef.slice(v, [0], [1]), ef.slice(v, [1], [1])];
        return ef.reduceSum(ef.add(ef.pow(a, 3), ef.multiply(a, b)));
      }); // grad = [3a^2 + b, a]
      expect(val(grad)).toEqual([5, 1]);
      expect(val(outer.jacobian(grad, x))).toEqual([[6, 1], [1, 0]]);
    }));
});

describe('batchJacobian', () => {
  test('BatchJacobianTest._batch_jacobian: stack of diag(2 x[i] y[i])', () =>
    noLeak(() => {
      const x = ef.constant([[1, 2], [3, 4]]);
      const y = ef.constant([[3, 4], [5, 6]]);
      const g = new ef.GradientTape();
      const z = g.record(() => (g.watch(x), ef.multiply(ef.multiply(x, x), y)));
      const bj = g.batchJacobian(z, x);
      expect(bj.shape.asList()).toEqual([2, 2, 2]);
      expect(val(bj)).toEqual([diag([6, 16]), diag([30, 48])]);
      expect(() => g.batchJacobian(z, x)).toThrow(/non-persistent/);
    }));

  test('test_parallel_iterations: batchJacobian of matmul(x, w) is w transposed for each example', () =>
    noLeak(() => {
      const x = ef.constant([[1, 2], [3, 4]]);
      const w = ef.constant([[1, 2, 3, 4], [5, 6, 7, 8]]);
      const g = new ef.GradientTape();
      const y = g.record(() => (g.watch(x), ef.matmul(x, w)));
      const wt = [[1, 5], [2, 6], [3, 7], [4, 8]];
      expect(val(g.batchJacobian(y, x))).toEqual([wt, wt]);
    }));

  test('higher-rank targets and sources: [batch] + target.shape[1:] + source.shape[1:]', () =>
    noLeak(() => {
      const x = ef.constant([[[1, 2, 3]], [[4, 5, 6]]]); // [2, 1, 3]
      const g = new ef.GradientTape();
      const y = g.record(() => (g.watch(x), ef.reshape(ef.multiply(ef.reduceSum(x, 2), [[1, 10]]), [2, 2, 1]))); // [2, 2, 1]
      const bj = g.batchJacobian(y, x);
      expect(bj.shape.asList()).toEqual([2, 2, 1, 1, 3]);
      expect(val(bj)).toEqual([0, 1].map(() => [[[[1, 1, 1]]], [[[10, 10, 10]]]]));
    }));

  test('testBadShape: different batch sizes throw "Need first dimension"', () =>
    noLeak(() => {
      const x = ef.ones([2, 3]);
      const g = new ef.GradientTape();
      const y = g.record(() => (g.watch(x), ef.concat([x, x], 0)));
      expect(() => g.batchJacobian(y, x)).toThrow(/GradientTape.batchJacobian: Need first dimension of target shape \(4, 3\) and source shape \(2, 3\) to match/);
    }));

  test('testBadInputRank and testBadOutputRank: rank-1 source or target throws "must have rank at least 2"', () =>
    noLeak(() => {
      const g = new ef.GradientTape({ persistent: true });
      const x1 = ef.ones([2]);
      const x2 = ef.ones([2, 2]);
      const [y2, y1] = g.record(() => (g.watch([x1, x2]), [ef.multiply(x1, ef.ones([2, 2])), ef.reduceSum(x2, 1)]));
      expect(() => g.batchJacobian(y2, x1)).toThrow(/GradientTape.batchJacobian: source must have rank at least 2 \(got shape \(2,\)/);
      expect(() => g.batchJacobian(y1, x2)).toThrow(/GradientTape.batchJacobian: target must have rank at least 2 \(got shape \(2,\)/);
      g.dispose();
    }));

  test('test_degenerate_shape: zeros([1, 0]) gives shape [1, 0, 0]', () =>
    noLeak(() => {
      const x = ef.zeros([1, 0]);
      const g = new ef.GradientTape({ persistent: true });
      const y = g.record(() => (g.watch(x), ef.pow(x, 2)));
      expect(g.batchJacobian(y, x).shape.asList()).toEqual([1, 0, 0]);
      g.dispose();
    }));

  test('a constant (unconnected) output gives zeros, as in TensorFlow', () =>
    noLeak(() => {
      const x = ef.ones([3, 2]);
      const c = ef.ones([3, 4]);
      const g = new ef.GradientTape({ persistent: true });
      const y = g.record(() => (g.watch(x), ef.multiply(c, 2)));
      const bj = g.batchJacobian(y, x);
      expect(bj.shape.asList()).toEqual([3, 4, 2]);
      expect(bj.dtype).toBe('float32');
      expect(val(bj)).toEqual(new Array(3).fill(new Array(4).fill([0, 0])));
      g.dispose();
    }));
});
