// Which compiled segments get intra-op threads (onnx/segment.ts `heavy`): a contraction or window kernel whose operands
// or results reach 4,096 elements, any value of 65,536, unknown dims, or a heavy body graph; a tiny matmul runs on one
// thread (two threads' spinning pool thread only burned a core there: 81 vs 24 us of CPU per cold call).
import * as ef from 'eagerflow';
import { heavy } from '../src/onnx/segment';
import type { Graph } from '../src/graph';

const graphOf = (f: (...a: ef.Tensor[]) => ef.Tensor, ...specs: ef.TensorSpec[]): Graph => ef.trace(f, { inputSignature: specs }).getConcreteFunction(...specs).graph as unknown as Graph;
const whole = (g: Graph): boolean => heavy(g, { nodes: g.nodes, inputs: g.inputs, outputs: g.outputs });
const spec = (...shape: (number | null)[]): ef.TensorSpec => new ef.TensorSpec(shape, 'float32');

describe('intra-op threads for compiled segments', () => {
  test('a small matmul (and its elementwise tail) is light; from 4,096-element operands it is heavy', () => {
    const small = (x: ef.Tensor): ef.Tensor => ef.tanh(ef.add(ef.matmul(x, x), 1));
    expect(whole(graphOf(small, spec(8, 8)))).toBe(false);
    expect(whole(graphOf(small, spec(63, 63)))).toBe(false);
    expect(whole(graphOf(small, spec(64, 64)))).toBe(true);
    expect(whole(graphOf((a, b) => ef.matmul(a, b), spec(128, 784), spec(784, 10)))).toBe(true);
  });

  test('convolutions and pools by their tensors; elementwise segments from 65,536 elements; unknown dims are heavy', () => {
    expect(whole(graphOf((x, k) => ef.nn.conv2d(x, k, 1, 'SAME'), spec(1, 8, 8, 2), spec(3, 3, 2, 2)))).toBe(false);
    expect(whole(graphOf((x, k) => ef.nn.conv2d(x, k, 1, 'SAME'), spec(16, 28, 28, 1), spec(3, 3, 1, 8)))).toBe(true);
    expect(whole(graphOf((x) => ef.nn.maxPool(x, 2, 2, 'VALID'), spec(1, 8, 8, 4)))).toBe(false);
    expect(whole(graphOf((x) => ef.exp(ef.add(x, 1)), spec(255, 256)))).toBe(false);
    expect(whole(graphOf((x) => ef.exp(ef.add(x, 1)), spec(256, 256)))).toBe(true);
    expect(whole(graphOf((a, b) => ef.matmul(a, b), spec(null, 8), spec(8, 8)))).toBe(true);
  });
});
