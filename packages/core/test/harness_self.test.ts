// The op harness checks itself: coverage fails for an op without rows, strict "no" fields fail when stale, structures and tolerances resolve.
import * as ef from 'eagerflow';
import { ForwardCase, apiOf, checkFails, forwardCases, outLeaves, ref, toleranceOf, tracedUnknownDims } from '../../../test/harness';
import { NOT_OPS, publicOps, umbrellaTensorFunctions } from '../../../test/harness/public_ops';

describe('publicOps(): the list coverage is keyed on', () => {
  const ops = publicOps();
  test('holds composites and wrappers, not internals or non-ops', () => {
    expect(ops).toEqual(expect.arrayContaining(['softmax', 'clipByValue', 'stack', 'reduceMean', 'negative', 'constant']));
    for (const internal of ['neg', 'bind', 'pyFunction', 'whileLoop', 'trace', 'tidy', 'Tensor']) expect(ops).not.toContain(internal);
  });
  test('an op whose rows are removed shows up as missing (as logSoftmax would without a row)', () => {
    const without = forwardCases.filter((c) => apiOf(c) !== 'softmax');
    const missing = ops.filter((op) => !without.some((c) => apiOf(c) === op));
    expect(missing).toEqual(['softmax']);
  });
  test('NOT_OPS only names real exports, each with a reason', () => {
    const exported = umbrellaTensorFunctions();
    for (const [name, why] of Object.entries(NOT_OPS)) {
      expect(exported).toContain(name);
      expect(why.length).toBeGreaterThan(10);
    }
  });
});

describe('strict fields and structures', () => {
  const works: ForwardCase = { prim: 'exp', name: 'self-test exp', tfCall: { none: 'a self-test row' }, inputs: [{ shape: [2] }], op: (x) => ef.exp(x), ref: (x) => x, noUnknownDims: 'stale on purpose' };
  test('a noUnknownDims row that works traced with unknown dims fails the check', () => {
    expect(() => checkFails(works, tracedUnknownDims)).toThrow();
  });
  test('a row whose op and reference return different structures is reported', () => {
    const t = ef.constant([1]);
    expect(() => outLeaves([t], { values: ref.ref([1]) }, 'row')).toThrow(/returned array of 1, the reference \{values\}/);
    expect(outLeaves({ b: t, a: t }, { a: ref.ref([1]), b: ref.ref([1]) }, 'row')).toHaveLength(2);
    t.dispose();
  });
  test('per-backend tolerances override the row, which overrides the default', () => {
    const c: ForwardCase = { ...works, rtol: 1e-3, tol: { webgl: { atol: 1e-2 } } };
    expect(toleranceOf(c, 'webgl', { rtol: 1, atol: 1 })).toEqual({ rtol: 1e-3, atol: 1e-2 });
    expect(toleranceOf(c, 'cpu', { rtol: 1, atol: 1 })).toEqual({ rtol: 1e-3, atol: 1 });
  });
});
