// TF1's resizes (ef.image.resizeBilinear / resizeNearestNeighbor with alignCorners, halfPixelCenters) against
// TensorFlow 2.21's tf.compat.v1.image.resize_* (fixtures/tf_resize_legacy.json, written by scripts/tf-golden/resize_legacy.py):
// values and gradients eagerly, traced, and through saveFunction/loadFunction (the GraphDef attrs).
import * as ef from 'eagerflow';
import * as fs from 'fs';
import * as path from 'path';

interface Enc {
  dtype: string;
  shape: number[];
  data: number[];
}
interface Case {
  method: 'bilinear' | 'nearest';
  alignCorners: boolean;
  halfPixelCenters: boolean;
  size: [number, number];
  y: Enc;
  grad: Enc;
}
const FIX = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/tf_resize_legacy.json'), 'utf8')) as {
  x: Enc; cases: Case[]; intBilinear: Enc; intNearest: Enc; bothTrue: string; rank3: string;
};

function expectClose(t: ef.Tensor, e: Enc, what: string, tol = 2e-6): void {
  expect([what, t.dtype, t.shape.asList()]).toEqual([what, e.dtype, e.shape]);
  const got = Array.from(t.dataSync() as Float32Array);
  got.forEach((g, i) => {
    if (!(Math.abs(g - e.data[i]) <= tol * Math.max(1, Math.abs(e.data[i])))) throw new Error(`${what}[${i}]: got ${g}, TF ${e.data[i]}`);
  });
}
const x = (): ef.Tensor => ef.constant(FIX.x.data, 'float32', FIX.x.shape);
const fnOf = (c: Case) => (c.method === 'bilinear' ? ef.image.resizeBilinear : ef.image.resizeNearestNeighbor);
const name = (c: Case): string => `${c.method} align=${c.alignCorners} half=${c.halfPixelCenters} -> [${c.size.join(',')}]`;

function valueAndGrad(c: Case, f: (x: ef.Tensor) => ef.Tensor): [ef.Tensor, ef.Tensor] {
  const xt = x();
  const tape = new ef.GradientTape();
  const y = tape.record(() => {
    tape.watch(xt);
    return f(xt);
  });
  const n = c.y.shape.reduce((a, b) => a * b, 1);
  const w = ef.constant(Array.from({ length: n }, (_, i) => (i + 1) / 10), 'float32', c.y.shape);
  return [y, tape.gradient(y, xt, { outputGradients: w }) as ef.Tensor];
}

describe('TF1 resizes match tf.compat.v1.image.resize_*', () => {
  test.each(FIX.cases.map((c) => [name(c), c] as const))('eager %s: value and gradient', (_n, c) => {
    const opts = { alignCorners: c.alignCorners, halfPixelCenters: c.halfPixelCenters };
    const [y, g] = valueAndGrad(c, (t) => fnOf(c)(t, c.size, opts));
    expectClose(y, c.y, `${name(c)} y`);
    expectClose(g, c.grad, `${name(c)} grad`, 1e-5);
  });

  test('traced, and saved then loaded (the GraphDef carries align_corners / half_pixel_centers)', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined); // one trace per case retraces by design
    for (const c of FIX.cases.filter((k) => k.size[0] === 5 || k.size[0] === 2)) {
      const opts = { alignCorners: c.alignCorners, halfPixelCenters: c.halfPixelCenters };
      const f = ef.trace((t: ef.Tensor) => fnOf(c)(t, c.size, opts));
      expectClose(f(x()) as ef.Tensor, c.y, `traced ${name(c)}`);
      const loaded = ef.loadFunction(ef.saveFunction(f.getConcreteFunction(new ef.TensorSpec(FIX.x.shape, 'float32'))));
      expectClose(loaded(x()) as ef.Tensor, c.y, `loaded ${name(c)}`);
      const [, g] = valueAndGrad(c, (t) => loaded(t) as ef.Tensor);
      expectClose(g, c.grad, `loaded grad ${name(c)}`, 1e-5);
    }
    warn.mockRestore();
  });

  test('int images: bilinear gives float32, nearest keeps int32', () => {
    const xi = ef.constant(Array.from({ length: 12 }, (_, i) => i), 'int32', [1, 3, 4, 1]);
    expectClose(ef.image.resizeBilinear(xi, [5, 3], { alignCorners: true }), FIX.intBilinear, 'int bilinear');
    const yn = ef.image.resizeNearestNeighbor(xi, [5, 3]);
    expect(yn.dtype).toBe('int32');
    expect(Array.from(yn.dataSync() as Int32Array)).toEqual(FIX.intNearest.data);
  });

  test('bad options: both modes true, rank 3, bad size; no leaked tensors', () => {
    const xt = x();
    const rank3 = ef.zeros([3, 4, 2]);
    const before = ef.memory().numTensors;
    expect(FIX.bothTrue).toBe('InvalidArgumentError');
    expect(() => ef.image.resizeBilinear(xt, [3, 3], { alignCorners: true, halfPixelCenters: true })).toThrow(ef.errors.InvalidArgumentError);
    expect(() => ef.image.resizeBilinear(xt, [3, 3], { alignCorners: true, halfPixelCenters: true })).toThrow(/image.resizeBilinear: alignCorners and halfPixelCenters cannot both be true/);
    expect(FIX.rank3).toBe('InvalidArgumentError');
    expect(() => ef.image.resizeNearestNeighbor(rank3, [3, 3])).toThrow(/image.resizeNearestNeighbor: images must be rank 4/);
    expect(() => ef.image.resizeBilinear(xt, [0, 3])).toThrow(/image.resizeBilinear: size must be two positive integers/);
    expect(() => ef.image.resizeBilinear(xt, [3, 3], { alignCorners: 1 as unknown as boolean })).toThrow(TypeError);
    expect(ef.memory().numTensors).toBe(before);
  });
});
