// Regressions for what fuzzing the loader found (issue 32): attrs checked like eager calls, model.json pathologies.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const dir = path.resolve(__dirname, '../../../node_modules/@vladmandic/human/models');
const json = JSON.parse(fs.readFileSync(path.join(dir, 'emotion.json'), 'utf8')) as J;
const bin = fs.readFileSync(path.join(dir, 'emotion.bin'));

/** The emotion model's artifacts (fresh copies to mutate). */
function emotion(): J {
  return { modelTopology: structuredClone(json.modelTopology), weightSpecs: structuredClone(json.weightsManifest[0].weights), weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length) };
}
const nodeOf = (a: J, op: string): J => (a.modelTopology.node as J[]).find((n) => n.op === op) as J;

/** Loading (and one call of) mutated artifacts fails with InvalidArgumentError matching `message`, leaking nothing. */
function refused(a: J, message: RegExp): void {
  const before = ef.memory().numTensors;
  let err: unknown = null;
  try {
    const g = ef.loadFunction(a);
    try {
      ef.tidy(() => void g(ef.zeros([1, 64, 64, 1])));
    } finally {
      g.dispose();
    }
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ef.errors.InvalidArgumentError);
  expect((err as Error).message).toMatch(message);
  expect(ef.memory().numTensors).toBe(before);
}

test('the unmutated model loads and runs (the mutations below are what fails)', () => {
  const g = ef.loadFunction(emotion());
  const y = g(ef.zeros([1, 64, 64, 1])) as ef.Tensor;
  expect(y.shape.asList()).toEqual([1, 7]);
  g.dispose();
});

describe('window attrs are checked like eager arguments, naming the node', () => {
  test.each([
    ['_FusedConv2D', 'strides', ['1', '1', '-100', '1'], /_FusedConv2D\): strides must be positive integers \(got \[1, 1, -100, 1\]/],
    ['_FusedConv2D', 'dilations', ['1', '-1', '-1', '1'], /dilations must be positive integers/],
    ['_FusedConv2D', 'strides', ['2', '1', '1', '1'], /strides must be 1 on the batch and channel dims/],
    ['MaxPool', 'ksize', ['1', '0', '2', '1'], /\(MaxPool\): ksize must be positive integers/],
    ['MaxPool', 'strides', ['1', '2', '2', '0'], /strides must be positive integers/],
    ['DepthwiseConv2dNative', 'strides', ['1', '0', '1', '1'], /\(DepthwiseConv2dNative\): strides must be positive integers/],
  ])('%s %s %j', (op, key, value, message) => {
    const a = emotion();
    nodeOf(a, op).attr[key] = { list: { i: value } };
    refused(a, message);
  });
});

describe('model.json pathologies: clear errors', () => {
  test('a 100k-deep nested output name: InvalidArgumentError, not RangeError', () => {
    let name: unknown = 'x';
    for (let i = 0; i < 100_000; i++) name = [name];
    const a = emotion();
    a.signature = { inputs: { x: { name: 'input_1:0', dtype: 'DT_FLOAT' } }, outputs: { y: { name, dtype: 'DT_FLOAT' } } };
    refused(a, /signature\.outputs\.y\.name must be a string/);
  });

  test('a non-array fused_ops list', () => {
    const a = emotion();
    nodeOf(a, '_FusedConv2D').attr.fused_ops = { list: { s: 'QmlhcwAA' } };
    refused(a, /attr 'fused_ops' is not a list of strings/);
  });

  test('a zero-size bias weight is refused at load, not by the kernel at call time', () => {
    const a = emotion();
    const bias = nodeOf(a, '_FusedConv2D').input[2] as string;
    const specs = a.weightSpecs as J[];
    const k = specs.findIndex((w) => w.name === bias);
    specs[k] = { ...specs[k], shape: [0] };
    refused(a, /bias must have one value per output channel \(got bias shape \[0\], expected \[32\]\)/);
  });
});

test('a loaded Tile asking for 1e9 elements is refused before its kernel runs (limits.maxElements), quickly and without leaks', () => {
  const fold = ef.internal.passConfig.maxFoldElements;
  ef.internal.passConfig.maxFoldElements = 0;
  const f = ef.trace((x: ef.Tensor) => ef.tile(x, [1, 2]), { inputSignature: [new ef.TensorSpec([2, 2])] });
  const saved = ef.saveFunction(f);
  ef.internal.passConfig.maxFoldElements = fold;
  f.dispose();
  // The multiples Const is the only weight: make it [1, 268435458] (what one flipped bit in the fuzzer gave).
  const bytes = new Int32Array(saved.weightData.slice(0));
  expect(Array.from(bytes)).toEqual([1, 2]);
  bytes[1] = 268435458;
  const g = ef.loadFunction({ ...saved, weightData: bytes.buffer });
  const x = ef.ones([2, 2]);
  const before = ef.memory().numTensors;
  const t0 = Date.now();
  expect(() => g(x)).toThrow(ef.errors.ResourceExhaustedError);
  expect(() => g(x)).toThrow(/would produce a tensor of shape \[2,536870916\]/);
  expect(Date.now() - t0).toBeLessThan(2000);
  expect(ef.memory().numTensors).toBe(before);
  g.dispose();
});
