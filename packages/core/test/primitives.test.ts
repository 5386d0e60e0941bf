// Every primitive through one harness: forward vs float64 reference under every mode, errors, gradients, leaks.
import * as ef from 'eagerflow';
import {
  NO_ERROR_CASES,
  checkError,
  checkErrorUnknownDims,
  checkGradient,
  checkSecondOrder,
  errorCases,
  forwardCases,
  forwardSuite,
  gradInputs,
  makeRefs,
  modes,
  primitiveTable,
  Rng,
  hashSeed,
  apiOf,
} from '../../../test/harness';
import { NOT_OPS, publicOps, umbrellaTensorFunctions } from '../../../test/harness/public_ops';

const names = Object.keys(ef.internal.PRIMITIVES);
const differentiable = names.filter((n) => primitiveTable[n].vjp !== null);

/** Cases whose gradient is checked (float output and at least one float input). */
const gradCases = forwardCases.filter((c) => {
  const want = c.ref(...makeRefs(c.inputs, new Rng(hashSeed(c.name))));
  return gradInputs(c, want).length > 0;
});

describe('coverage: the suite fails when a primitive or a public op has no cases', () => {
  test.each(names)('%s has forward cases', (name) => {
    expect(forwardCases.filter((c) => c.prim === name).length).toBeGreaterThan(0);
  });
  test.each(differentiable)('%s (differentiable) has gradient cases', (name) => {
    expect(gradCases.filter((c) => c.prim === name).length).toBeGreaterThan(0);
  });
  test.each(names)('%s has error cases or a documented reason for none', (name) => {
    const n = errorCases.filter((c) => c.prim === name).length;
    expect(n > 0 || NO_ERROR_CASES[name as ef.internal.PrimitiveName] !== undefined).toBe(true);
  });
  test.each(publicOps())('public op %s has a case row', (op) => {
    expect(forwardCases.filter((c) => apiOf(c) === op).length).toBeGreaterThan(0);
  });
  test('every documented non-op (NOT_OPS) is really an exported function returning Tensors', () => {
    const exported = umbrellaTensorFunctions();
    expect(Object.keys(NOT_OPS).filter((n) => !exported.includes(n))).toEqual([]);
  });
  test('case names are unique', () => {
    const all = [...forwardCases, ...errorCases].map((c) => c.name);
    expect(all.length).toBe(new Set(all).size);
  });
});

for (const mode of modes) forwardSuite(mode);

describe('errors: InvalidArgumentError naming op, got and expected; nothing leaked', () => {
  test.each(errorCases.map((c) => [c.name, c] as const))('%s', (_name, c) => checkError(c));
});

describe('gradients: GradientTape vs central differences of the float64 reference', () => {
  test.each(gradCases.map((c) => [c.name, c] as const))('%s', (_name, c) => checkGradient(c));
});

describe('second order: nested tapes vs finite differences (Hessian-vector products)', () => {
  const cases = gradCases.filter((c) => c.secondOrder !== false);
  test.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => checkSecondOrder(c));
});

describe('errors traced with unknown dims: the same error class as eagerly, nothing leaked', () => {
  test.each(errorCases.map((c) => [c.name, c] as const))('%s', (_name, c) => checkErrorUnknownDims(c));
});
