// tf.image composites against TensorFlow 2.21: values and first-order gradients (fixed cotangent), from fixtures
// written by scripts/tf-golden/tf_image_fixture.py; plus the edge rules TF documents (rot90's k modulo 4, bad boxes).
import * as ef from 'eagerflow';
import { Enc, byName, expectClose as expectCloseTo, expectTfFixture, readFixture, tensorOf } from './tf_fixture_checks';

interface ImgCase {
  name: string;
  op: string;
  params: Record<string, unknown>;
  inputs: Enc[];
  output: Enc;
  wrt: number[];
  dy?: Enc;
  grads?: Enc[];
}

interface NmsCase {
  name: string;
  op: 'nonMaxSuppression' | 'nonMaxSuppressionWithScores' | 'nonMaxSuppressionPadded';
  params: { max: number; iouThreshold?: number; scoreThreshold?: number; softNmsSigma?: number; padToMaxOutputSize?: boolean };
  inputs: Enc[];
  outputs: Enc[];
}

const FIX = readFixture<{ tf_version: string; cases: ImgCase[]; nms: NmsCase[] }>('tf_image.json');

type P = Record<string, unknown>;
const box = (p: P): [number, number, number, number] => p.box as [number, number, number, number];
const OPS: Record<string, (xs: ef.Tensor[], p: P) => ef.Tensor> = {
  flipLeftRight: ([x]) => ef.image.flipLeftRight(x),
  flipUpDown: ([x]) => ef.image.flipUpDown(x),
  transpose: ([x]) => ef.image.transpose(x),
  rot90: ([x], p) => ef.image.rot90(x, p.k as number),
  rgbToGrayscale: ([x]) => ef.image.rgbToGrayscale(x),
  grayscaleToRgb: ([x]) => ef.image.grayscaleToRgb(x),
  adjustBrightness: ([x], p) => ef.image.adjustBrightness(x, p.delta as number),
  adjustContrast: ([x], p) => ef.image.adjustContrast(x, p.factor as number),
  perImageStandardization: ([x]) => ef.image.perImageStandardization(x),
  centralCrop: ([x], p) => ef.image.centralCrop(x, p.fraction as number),
  cropToBoundingBox: ([x], p) => ef.image.cropToBoundingBox(x, ...box(p)),
  padToBoundingBox: ([x], p) => ef.image.padToBoundingBox(x, ...box(p)),
  cropAndResize: ([x, b, i], p) => ef.image.cropAndResize(x, b, i, p.cropSize as [number, number], { method: p.method as 'bilinear' | 'nearest' | undefined, extrapolationValue: p.extrapolationValue as number | undefined }),
  extractPatches: ([x], p) => ef.image.extractPatches(x, p.sizes as number[], p.strides as number[], p.rates as number[], p.padding as 'SAME' | 'VALID'),
};

const expectClose = (t: ef.Tensor | null, want: Enc, tol: number, what: string): void => expectCloseTo(t, want, tol, tol, what);

test('the fixtures are TensorFlow 2.21 and cover every image op here', () => {
  expectTfFixture(FIX, OPS);
});

describe.each(byName(FIX.cases))('%s', (_name, c) => {
  test('value (and gradient) equal TensorFlow; nothing leaked', () => {
    const before = ef.memory().numTensors;
    ef.tidy(() => {
      const xs = c.inputs.map(tensorOf);
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        c.wrt.forEach((i) => tape.watch(xs[i]));
        return OPS[c.op](xs, c.params);
      });
      expectClose(y, c.output, 1e-5, 'output');
      if (c.grads === undefined) return;
      const total = tape.record(() => ef.reduceSum(ef.multiply(y, tensorOf(c.dy as Enc))));
      const gs = tape.gradient(total, c.wrt.map((i) => xs[i])) as ef.Tensor[];
      gs.forEach((g, k) => expectClose(g, (c.grads as Enc[])[k], 1e-4, `gradient ${k}`));
    });
    expect(ef.memory().numTensors).toBe(before);
  });
});

describe.each(byName(FIX.nms))('%s', (_name, c) => {
  test('selected indices (and scores / valid count) equal TensorFlow; nothing leaked', () => {
    const before = ef.memory().numTensors;
    ef.tidy(() => {
      const [b, s] = c.inputs.map(tensorOf);
      const { max, ...o } = c.params;
      const outs =
        c.op === 'nonMaxSuppression'
          ? [ef.image.nonMaxSuppression(b, s, max, o)]
          : c.op === 'nonMaxSuppressionWithScores'
            ? Object.values(ef.image.nonMaxSuppressionWithScores(b, s, max, o))
            : Object.values(ef.image.nonMaxSuppressionPadded(b, s, max, o));
      outs.forEach((t, i) => {
        expect(t.dtype).toBe(c.outputs[i].dtype);
        expectClose(t, c.outputs[i], 1e-6, `output ${i}`);
      });
    });
    expect(ef.memory().numTensors).toBe(before);
  });
});
