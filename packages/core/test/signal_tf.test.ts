// tf.signal against TensorFlow 2.21: values, first-order gradients (fixed cotangents) and second order (the gradient of
// the sum of the first-order gradients), from fixtures written by scripts/tf-golden/tf_signal_fixture.py.
import * as ef from 'eagerflow';
import { Enc, byName, expectClose, expectTfFixture, expectTfGradients, readFixture, tensorOf } from './tf_fixture_checks';

interface SigCase {
  name: string;
  op: string;
  params: Record<string, number | boolean>;
  inputs: Enc[];
  outputs: Enc[];
  dy?: Enc[];
  grads?: Enc[];
  second?: Enc[];
  tf_grad_error?: string;
}

const FIX = readFixture<{ tf_version: string; cases: SigCase[] }>('tf_signal.json');

type P = SigCase['params'];
const parts = (z: ef.Tensor): ef.Tensor[] => [ef.math.real(z), ef.math.imag(z)];
const len = (p: P): [number] | undefined => (p.fftLength === undefined ? undefined : [p.fftLength as number]);
const OPS: Record<string, (xs: ef.Tensor[], p: P) => ef.Tensor[]> = {
  fft: ([a, b]) => parts(ef.signal.fft(ef.complex(a, b))),
  ifft: ([a, b]) => parts(ef.signal.ifft(ef.complex(a, b))),
  rfft: ([x], p) => parts(ef.signal.rfft(x, len(p))),
  irfft: ([a, b], p) => [ef.signal.irfft(ef.complex(a, b), len(p))],
  hannWindow: (_x, p) => [ef.signal.hannWindow(p.n as number, { periodic: p.periodic as boolean | undefined })],
  hammingWindow: (_x, p) => [ef.signal.hammingWindow(p.n as number, { periodic: p.periodic as boolean | undefined })],
  frame: ([x], p) => [ef.signal.frame(x, p.len as number, p.step as number, { padEnd: p.padEnd as boolean | undefined, padValue: p.padValue as number | undefined, axis: p.axis as number | undefined })],
  overlapAndAdd: ([x], p) => [ef.signal.overlapAndAdd(x, p.step as number)],
  inverseStft: ([a, b], p) => [ef.signal.inverseStft(ef.complex(a, b), p.len as number, p.step as number, { fftLength: p.fftLength as number | undefined, windowFn: p.inv === true ? ef.signal.inverseStftWindowFn(p.step as number) : undefined })],
  inverseStftWindowFn: (_x, p) => [ef.signal.inverseStftWindowFn(p.step as number)(p.len as number)],
  stft: ([x], p) => parts(ef.signal.stft(x, p.len as number, p.step as number, { fftLength: p.fftLength as number | undefined, padEnd: p.padEnd as boolean | undefined })),
  complexMultiply: ([a, b, c, d]) => parts(ef.multiply(ef.complex(a, b), ef.complex(c, d))),
  complexExp: ([a, b]) => parts(ef.exp(ef.complex(a, b))),
};

test('the fixtures are TensorFlow 2.21 and cover every signal op here', () => {
  expectTfFixture(FIX, OPS);
});

describe.each(byName(FIX.cases))('%s', (_name, c) => {
  test('values equal TensorFlow; nothing leaked', () => {
    const before = ef.memory().numTensors;
    ef.tidy(() => OPS[c.op](c.inputs.map(tensorOf), c.params).forEach((y, i) => expectClose(y, c.outputs[i], 1e-5, 2e-5, `output ${i}`)));
    expect(ef.memory().numTensors).toBe(before);
  });
  if (c.grads === undefined) return;
  test('first- and second-order gradients equal TensorFlow', () => expectTfGradients((xs) => OPS[c.op](xs, c.params), c, { first: [1e-4, 1e-4], second: [1e-4, 1e-4] }));
});
