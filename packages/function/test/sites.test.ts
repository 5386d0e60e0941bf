// Run-time failures name the node, the call of the traced function and (opt-in) where the op was defined.
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

test('with captureSites, a failing node says where it was defined', () => {
  const saved = ef.traceConfig.captureSites;
  ef.traceConfig.captureSites = true;
  try {
    const f = ef.trace((x: ef.Tensor) => ef.ensureShape(ef.add(x, 1), [3]), { inputSignature: [new ef.TensorSpec([null])] });
    const x = ef.constant([1, 2]);
    const e = thrown(() => f(x));
    x.dispose();
    expect(e).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(e.message).toMatch(/node: .* = ensure_shape\[dims=\[3\]\]/);
    expect(e.message).toMatch(/defined at: .*sites\.test\.ts:9:/);
    expect(e.message).toMatch(/called from: .*sites\.test\.ts:11:/);
  } finally {
    ef.traceConfig.captureSites = saved;
  }
});

test('without captureSites the message says how to get the definition site', () => {
  const f = ef.trace((x: ef.Tensor) => ef.ensureShape(x, [3]), { inputSignature: [new ef.TensorSpec([null])] });
  const x = ef.constant([1, 2]);
  const e = thrown(() => f(x));
  x.dispose();
  expect(e.message).toContain('captureSites = true');
  expect(e.message).toMatch(/called from: .*sites\.test\.ts/);
});
