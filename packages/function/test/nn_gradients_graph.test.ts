// Conv and pool gradients inside traced functions with an unknown batch: the backprop records read their shapes at run time (Shape(x) in GraphDef), save, load and run in tfjs-converter.
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { opsOf } from '../../../test/harness/saving';

type Loss = (x: ef.Tensor, f: ef.Tensor) => ef.Tensor;

/** d loss / d [x, f] through a tape (the function traced below). */
const gradsOf = (loss: Loss) => (x: ef.Tensor, f: ef.Tensor): ef.Tensor[] => {
  const tape = new ef.GradientTape();
  const y = tape.record(() => {
    tape.watch([x, f]);
    return loss(x, f);
  });
  return tape.gradient(y, [x, f]) as ef.Tensor[];
};

const seq = (shape: number[], k: number): ef.Tensor => ef.constant(Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * k)), 'float32', shape);

const CASES: [string, Loss, number[], number[], string[]][] = [
  ['conv2d SAME stride 2', (x, f) => ef.reduceSum(ef.square(ef.nn.conv2d(x, f, 2, 'SAME'))), [2, 5, 5, 2], [3, 3, 2, 3], ['Conv2DBackpropInput', 'Conv2DBackpropFilter', 'Shape']],
  ['depthwiseConv2d dilated', (x, f) => ef.reduceSum(ef.square(ef.nn.depthwiseConv2d(x, f, 1, 'VALID', { dilations: 2 }))), [2, 5, 5, 2], [2, 2, 2, 2], ['DepthwiseConv2dNativeBackpropInput', 'DepthwiseConv2dNativeBackpropFilter']],
  ['avgPool2d of a conv', (x, f) => ef.reduceSum(ef.square(ef.nn.avgPool2d(ef.nn.conv2d(x, f, 1, 'SAME'), 3, 2, 'SAME'))), [2, 5, 5, 2], [1, 1, 2, 2], ['AvgPoolGrad', 'Conv2DBackpropInput']],
];

describe('nn gradients traced with an unknown batch', () => {
  test.each(CASES)('%s: traced == eager, saved and loaded == eager, GraphDef holds the backprop ops', async (_name, loss, xs, fs, ops) => {
    const x = seq(xs, 0.7);
    const f = seq(fs, 1.3);
    const fn = gradsOf(loss);
    const want = fn(x, f);
    const traced = ef.trace(fn);
    const cf = traced.getConcreteFunction(new ef.TensorSpec([null, ...xs.slice(1)], 'float32'), ef.TensorSpec.fromTensor(f));
    const got = cf.call(x, f) as ef.Tensor[];
    const artifacts = ef.saveFunction(cf);
    const present = opsOf(artifacts);
    for (const op of ops) expect(`${op}: ${present.has(op)}`).toBe(`${op}: true`);
    const loaded = ef.loadFunction(artifacts);
    const again = loaded(x, f) as ef.Tensor[];
    // A batch of 1 through the same graph: the run-time shapes follow the input.
    const x1 = ef.slice(x, [0, 0, 0, 0], [1, -1, -1, -1]);
    const one = cf.call(x1, f) as ef.Tensor[];
    const oneEager = fn(x1, f);
    try {
      for (const outs of [got, again]) outs.forEach((t, i) => expect(Array.from(t.dataSync() as ArrayLike<number>)).toEqual(Array.from(want[i].dataSync() as ArrayLike<number>).map((v) => expect.closeTo(v, 4))));
      one.forEach((t, i) => expect(Array.from(t.dataSync() as ArrayLike<number>)).toEqual(Array.from(oneEager[i].dataSync() as ArrayLike<number>).map((v) => expect.closeTo(v, 4))));
    } finally {
      ef.dispose([x, f, x1, ...want, ...got, ...again, ...one, ...oneEager]);
      cf.dispose();
      traced.dispose();
    }
  });

  test('the input backprop with a run-time shape runs in tfjs-converter (Conv2DBackpropInput of Shape(x))', async () => {
    const x = seq([2, 4, 4, 1], 0.3);
    const dy = seq([2, 2, 2, 2], 0.5);
    const f = seq([2, 2, 1, 2], 0.9);
    const params = { strides: [2, 2], padding: 'SAME', dataFormat: 'NHWC', dilations: [1, 1], inputShape: [null, 4, 4, 1] };
    const fn = (g: ef.Tensor, w: ef.Tensor, like: ef.Tensor): ef.Tensor => ef.internal.bind(ef.internal.PRIMITIVES.conv2d_backprop_input, [g, w, like], params)[0];
    const traced = ef.trace(fn);
    const cf = traced.getConcreteFunction(new ef.TensorSpec([null, 2, 2, 2], 'float32'), ef.TensorSpec.fromTensor(f), new ef.TensorSpec([null, 4, 4, 1], 'float32'));
    const want = cf.call(dy, f, x) as ef.Tensor;
    const eager = ef.nn.conv2dTranspose(dy, f, [2, 4, 4, 1], 2, 'SAME');
    const artifacts = ef.saveFunction(cf);
    expect(opsOf(artifacts).has('Shape')).toBe(true);
    const model = await loadGraphModel(tf.io.fromMemory(artifacts as unknown as tf.io.ModelArtifacts));
    const out = model.execute([dy.toTfjs(), f.toTfjs(), x.toTfjs()]) as tf.Tensor;
    try {
      expect(Array.from(want.dataSync() as ArrayLike<number>)).toEqual(Array.from(eager.dataSync() as ArrayLike<number>));
      expect(Array.from(out.dataSync() as ArrayLike<number>)).toEqual(Array.from(want.dataSync() as ArrayLike<number>).map((v) => expect.closeTo(v, 4)));
    } finally {
      out.dispose();
      model.dispose();
      ef.dispose([x, dy, f, want, eager]);
      cf.dispose();
      traced.dispose();
    }
  });
});
