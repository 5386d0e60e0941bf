// The op fuzzer's judge (outcome.ts): how it compares two modes' results, and the cases it once reported wrongly.
import * as ef from 'eagerflow';
import { type Outcome, disagreement } from './outcome';
import { opCase, runOpCase } from './op_fuzz';

// As in the fuzz child (child.ts): each case traces fresh functions, whose retrace warnings are not what is tested.
const warn = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = warn));

const ok = (values: number[]): Outcome => ({ kind: 'ok', leaves: [{ shape: [values.length], dtype: 'float32', values }] });

describe('scaled comparison of matrix products (compiled mode)', () => {
  test('an element that cancels beside large ones is compared within eps x the result scale, not its own', () => {
    // Seed 54 case 4353: Q R of an input holding 16777217 and 0.28; 3.0588 uncompiled, 3.0478 in ONNX Runtime.
    const eager = ok([0.28125, 16777216, 0.890625, 3.0588347911834717]);
    const compiled = ok([0.28125, 16777216, 0.890625, 3.047825574874878]);
    expect(disagreement(eager, compiled)).toBe('result 0 value 3: 3.0588347911834717 vs 3.047825574874878');
    expect(disagreement(eager, compiled, true, true)).toBeNull();
  });

  test('a value past the bound (16 eps x 1.7e7 = 32) is still a disagreement', () => {
    expect(disagreement(ok([16777216, 3.05]), ok([16777216, 40]), true, true)).toBe('result 0 value 1: 3.05 vs 40');
    // The scale is the finite magnitudes: an inf beside does not widen it.
    expect(disagreement(ok([Infinity, 1, 3.05]), ok([Infinity, 1, 3.5]), true, true)).toBe('result 0 value 2: 3.05 vs 3.5');
  });

  test.each([
    [54, 4353],
    [52, 1846],
    [55, 3352],
    [56, 1489],
  ])('the qr row of seed %i case %i (Q^T Q and Q R) agrees in all four modes', (seed, i) => {
    expect(runOpCase(opCase(seed, i))).toEqual({ status: 'ok' });
  });
});
