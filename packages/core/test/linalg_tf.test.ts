// tf.linalg decompositions against TensorFlow 2.21: values, first-order gradients (fixed cotangent) and second order
// (the gradient of the sum of the first-order gradients), from fixtures written by scripts/tf-golden/tf_linalg_fixture.py.
import * as ef from 'eagerflow';
import { Enc, byName, expectClose, expectTfFixture, expectTfGradients, readFixture, tensorOf } from './tf_fixture_checks';

interface LinCase {
  name: string;
  op: string;
  options: Record<string, unknown>;
  inputs: Enc[];
  outputs: Enc[];
  dy?: Enc[];
  grads?: Enc[];
  second?: Enc[];
}

const FIX = readFixture<{ tf_version: string; cases: LinCase[] }>('tf_linalg.json');

type Run = (xs: ef.Tensor[], o: Record<string, unknown>) => ef.Tensor[];
const OPS: Record<string, Run> = {
  cholesky: ([a]) => [ef.linalg.cholesky(a)],
  inv: ([a], o) => [ef.linalg.inv(a, o)],
  det: ([a]) => [ef.linalg.det(a)],
  slogdet: ([a]) => {
    const { sign, logAbsDeterminant } = ef.linalg.slogdet(a);
    return [sign, logAbsDeterminant];
  },
  logdet: ([a]) => [ef.linalg.logdet(a)],
  triangularSolve: ([a, b], o) => [ef.linalg.triangularSolve(a, b, o)],
  solve: ([a, b], o) => [ef.linalg.solve(a, b, o)],
  qr: ([a], o) => {
    const { q, r } = ef.linalg.qr(a, o);
    return [q, r];
  },
  lstsq: ([a, b], o) => [ef.linalg.lstsq(a, b, (o.l2Regularizer as number | undefined) ?? 0)],
  choleskySolve: ([a, b]) => [ef.linalg.choleskySolve(a, b)],
};

test('the fixtures are TensorFlow 2.21', () => {
  expectTfFixture(FIX, OPS);
});

describe.each(byName(FIX.cases))('%s', (_name, c) => {
  test('values equal TensorFlow', () => {
    const before = ef.memory().numTensors;
    ef.tidy(() => {
      const ys = OPS[c.op](c.inputs.map(tensorOf), c.options);
      ys.forEach((y, i) => expectClose(y, c.outputs[i], 1e-4, 1e-5, `output ${i}`));
    });
    expect(ef.memory().numTensors).toBe(before);
  });

  if (c.grads === undefined) return;
  test('first- and second-order gradients equal TensorFlow', () => expectTfGradients((xs) => OPS[c.op](xs, c.options), c, { first: [2e-3, 2e-4], second: [1e-2, 1e-3] }));
});
