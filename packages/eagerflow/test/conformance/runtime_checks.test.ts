// The run-time shape handling added for the conformance suite's unknown-dims and unknown-rank paths: a traced op
// whose shapes only the run time knows computes from the actual shape, equals the eager result, and raises a clear
// InvalidArgumentError for a shape TF rejects there; no path leaves tensors behind.
import * as ef from 'eagerflow';
import { unknownDims } from './paths';
import { thrown } from '../../../../test/harness/thrown';

type Fn = (...xs: ef.Tensor[]) => ef.Tensor;

/** f traced with every input of unknown rank (or unknown dims), called on xs; the trace is disposed. */
function traced(f: Fn, xs: ef.Tensor[], rank: 'unknown rank' | 'unknown dims'): ef.Tensor {
  const specs = rank === 'unknown rank' ? xs.map((x) => new ef.TensorSpec(null, x.dtype)) : unknownDims(xs);
  const t = ef.trace(f, { inputSignature: specs });
  try {
    return (t as unknown as Fn)(...xs);
  } finally {
    t.dispose();
  }
}

const x34 = (): ef.Tensor => ef.reshape(ef.range(0, 24), [2, 3, 4]);

beforeAll(() => {
  ef.retraceConfig.warn = () => undefined;
});

describe.each(['unknown rank', 'unknown dims'] as const)('traced with %s', (mode) => {
  const cases: [string, Fn, () => ef.Tensor[]][] = [
    ['sort along axis 0', (x) => ef.sort(x, 0), () => [ef.constant([[3, 1], [2, 5], [1, 4]])]],
    ['argsort along axis 1 of rank 3, descending', (x) => ef.argsort(x, 1, { direction: 'DESCENDING' }), () => [ef.constant([[[3, 1], [2, 5]], [[1, 4], [0, 9]]])]],
    ['image.transpose of a batch', (x) => ef.image.transpose(x), () => [ef.reshape(ef.range(0, 12), [1, 2, 3, 2])]],
    ['image.rot90 k=1 of an image', (x) => ef.image.rot90(x, 1), () => [ef.reshape(ef.range(0, 12), [2, 3, 2])]],
    ['image.flipLeftRight', (x) => ef.image.flipLeftRight(x), () => [x34()]],
    ['image.rgbToGrayscale', (x) => ef.image.rgbToGrayscale(x), () => [ef.reshape(ef.range(0, 12), [2, 2, 3])]],
    ['image.grayscaleToRgb', (x) => ef.image.grayscaleToRgb(x), () => [ef.reshape(ef.range(0, 4), [2, 2, 1])]],
    ['image.perImageStandardization', (x) => ef.image.perImageStandardization(x), () => [x34()]],
    ['image.cropToBoundingBox', (x) => ef.image.cropToBoundingBox(x, 1, 1, 1, 2), () => [x34()]],
    ['image.padToBoundingBox', (x) => ef.image.padToBoundingBox(x, 1, 0, 4, 3), () => [x34()]],
    ['image.centralCrop 0.5', (x) => ef.image.centralCrop(x, 0.5), () => [ef.reshape(ef.range(0, 50), [5, 5, 2])]],
    ['signal.frame with padEnd', (x) => ef.signal.frame(x, 3, 2, { padEnd: true, padValue: 7 }), () => [ef.reshape(ef.range(0, 14), [2, 7])]],
    ['signal.frame along axis 0', (x) => ef.signal.frame(x, 2, 1, { axis: 0 }), () => [ef.reshape(ef.range(0, 8), [4, 2])]],
    ['signal.overlapAndAdd', (x) => ef.signal.overlapAndAdd(x, 2), () => [ef.reshape(ef.range(0, 12), [2, 2, 3])]],
    ['linalg.diag', (x) => ef.linalg.diag(x), () => [ef.constant([[-1, 2], [3, -4]])]],
    ['image.cropAndResize bilinear', (x, b, i) => ef.image.cropAndResize(x, b, i, [2, 3]), () => [ef.reshape(ef.range(0, 24), [2, 3, 4, 1]), ef.constant([[0, 0, 1, 1], [0.2, 0.1, 0.9, 1.2]]), ef.constant([1, 0], 'int32')]],
    ['einsum batch matmul', (x, y) => ef.einsum('bij,bjk->bik', x, y), () => [ef.reshape(ef.range(0, 12), [2, 2, 3]), ef.reshape(ef.range(0, 12), [2, 3, 2])]],
    ['einsum trace and transpose', (x) => ef.einsum('iij->ji', x), () => [ef.reshape(ef.range(0, 18), [3, 3, 2])]],
    ['einsum of three operands', (x, y, z) => ef.einsum('ij,jk,k->i', x, y, z), () => [ef.reshape(ef.range(0, 6), [2, 3]), ef.reshape(ef.range(0, 12), [3, 4]), ef.constant([1, -1, 2, 0])]],
    ['image.extractPatches SAME with rates', (x) => ef.image.extractPatches(x, [1, 2, 2, 1], [1, 2, 3, 1], [1, 2, 2, 1], 'SAME'), () => [ef.reshape(ef.range(0, 60), [1, 5, 6, 2])]],
    ['image.extractPatches VALID', (x) => ef.image.extractPatches(x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1], 'VALID'), () => [ef.reshape(ef.range(0, 60), [2, 5, 3, 2])]],
    ['linalg.lstsq of a tall matrix', (a, b) => ef.linalg.lstsq(a, b), () => [ef.constant([[1, 0], [0, 1], [1, 1]]), ef.constant([[1], [1], [2.5]])]],
    ['linalg.lstsq of a wide matrix, l2 0.1', (a, b) => ef.linalg.lstsq(a, b, 0.1), () => [ef.constant([[1, 2, 0], [0, 1, 1]]), ef.constant([[1], [2]])]],
    ['tensordot with axis lists (negative, out of order)', (x, y) => ef.tensordot(x, y, [[-1, 1], [0, 1]]), () => [x34(), ef.reshape(ef.range(0, 60), [4, 3, 5])]],
  ];
  test.each(cases)('%s equals the eager result', (_name, f, make) => {
    const xs = make();
    const before = ef.memory().numTensors;
    const want = f(...xs);
    const got = traced(f, xs, mode);
    expect(got.shape.asList()).toEqual(want.shape.asList());
    expect(got.arraySync()).toEqual(want.arraySync());
    ef.dispose([got, want]);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose(xs);
  });

  const bad: [string, Fn, () => ef.Tensor[], RegExp][] = [
    ['sort along an axis past the rank', (x) => ef.sort(x, 2), () => [ef.constant([[3, 1], [2, 5]])], /slice|axis/],
    ['image.rgbToGrayscale of 4 channels', (x) => ef.image.rgbToGrayscale(x), () => [ef.zeros([2, 2, 4])], /slice/],
    ['image.rgbToGrayscale of 1 channel', (x) => ef.image.rgbToGrayscale(x), () => [ef.zeros([2, 2, 1])], /slice/],
    ['image.grayscaleToRgb of 2 channels', (x) => ef.image.grayscaleToRgb(x), () => [ef.zeros([2, 2, 2])], /slice/],
    ['image.cropToBoundingBox outside the image', (x) => ef.image.cropToBoundingBox(x, 2, 0, 2, 2), () => [x34()], /slice/],
    ['image.padToBoundingBox into a smaller target', (x) => ef.image.padToBoundingBox(x, 0, 0, 1, 4), () => [x34()], /pad/],
    ['image.cropAndResize with more box indices than boxes', (x, b, i) => ef.image.cropAndResize(x, b, i, [2, 2]), () => [ef.zeros([2, 3, 4, 1]), ef.constant([[0, 0, 1, 1]]), ef.constant([1, 0], 'int32')], /slice/],
    ['image.cropAndResize with boxes of 3 columns', (x, b, i) => ef.image.cropAndResize(x, b, i, [2, 2]), () => [ef.zeros([2, 3, 4, 1]), ef.constant([[0, 0, 1]]), ef.constant([0], 'int32')], /slice/],
    ['einsum with a contracted size 1 against 3', (x, y) => ef.einsum('ij,jk->ik', x, y), () => [ef.ones([2, 1]), ef.ones([3, 2])], /slice|matmul|inner/],
    ['einsum of three operands with a label of size 1 against 3', (x, y, z) => ef.einsum('ij,jk,k->i', x, y, z), () => [ef.ones([2, 3]), ef.ones([3, 4]), ef.ones([1])], /slice/],
    ['tensordot with an axis past the rank', (x, y) => ef.tensordot(x, y, [[3], [0]]), () => [x34(), ef.ones([4, 2])], /slice|axis|axes/],
    ['signal.overlapAndAdd of a vector', (x) => ef.signal.overlapAndAdd(x, 2), () => [ef.zeros([4])], /slice|rank/],
  ];
  test.each(bad)('%s raises an InvalidArgumentError', (_name, f, make, msg) => {
    const xs = make();
    const before = ef.memory().numTensors;
    const caught = thrown(() => traced(f, xs, mode).dispose());
    expect(caught).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(String((caught as Error).message)).toMatch(msg);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose(xs);
  });
});

test.each([
  ['image.flipLeftRight of a matrix', (x: ef.Tensor) => ef.image.flipLeftRight(x), [2, 3]],
  ['image.transpose of rank 5', (x: ef.Tensor) => ef.image.transpose(x), [1, 1, 2, 2, 1]],
  ['image.adjustContrast of a matrix', (x: ef.Tensor) => ef.image.adjustContrast(x, 2), [2, 3]],
] as const)('traced with an unknown rank, %s raises when the graph runs (rank 3 or 4 only)', (_name, f, shape) => {
  const x = ef.zeros([...shape]);
  const before = ef.memory().numTensors;
  expect(() => traced(f as Fn, [x], 'unknown rank').dispose()).toThrow(ef.errors.InvalidArgumentError);
  expect(ef.memory().numTensors).toBe(before);
  x.dispose();
});
