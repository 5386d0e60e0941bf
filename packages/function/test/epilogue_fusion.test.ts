import * as ef from 'eagerflow';
const graphOf = (f: ef.TracedFunction, ...args: unknown[]): ef.Graph => f.getConcreteFunction(...args).graph;
function data(shape: number[], seed: number): ef.Tensor {
  let s = seed;
  const n = shape.reduce((a, b) => a * b, 1);
  const v = Array.from({ length: n }, () => ((s = (s * 1103515245 + 12345) % 2147483648), s / 2147483648 - 0.5));
  return ef.reshape(ef.constant(v), shape);
}
test('probe', () => {
  const w = data([3, 3, 2, 4], 1);
  const b = ef.constant([0.1, -0.2, 0.3, -0.4]);
  const f = ef.trace((x: ef.Tensor) => ef.nn.relu(ef.nn.biasAdd(ef.nn.conv2d(x, w, 1, 'SAME'), b)), { name: 'convBlock' });
  console.log(graphOf(f, new ef.TensorSpec([1, 5, 5, 2])).toString());
  const x = data([1, 5, 5, 2], 3);
  const y = f(x) as ef.Tensor;
  const y2 = ef.nn.relu(ef.nn.biasAdd(ef.nn.conv2d(x, w, 1, 'SAME'), b));
  console.log(Array.from(y.dataSync()).every((v, i) => Object.is(v, y2.dataSync()[i])));
  const m = ef.trace((x: ef.Tensor, k: ef.Tensor) => ef.nn.sigmoid(ef.add(ef.matmul(x, k), ef.constant([1, 2, 3]))), { name: 'dense' });
  console.log(graphOf(m, new ef.TensorSpec([null, 4]), new ef.TensorSpec([4, 3])).toString());
  console.log(graphOf(m, new ef.TensorSpec([2, 4]), new ef.TensorSpec([4, 3])).toString());
});
