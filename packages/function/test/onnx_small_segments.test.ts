// jitCompile's small-segment rule: cheap elementwise runs on small tensors stay on the fused host loop (faster than an ORT call).
import * as ef from 'eagerflow';

const segments = (f: ef.TracedFunction, x: ef.Tensor): number => (f.getConcreteFunction(x).experimentalGetCompilerIr().match(/onnx_segment/g) ?? []).length;
const cheap = (v: ef.Tensor): ef.Tensor => {
  let y = v;
  for (let i = 0; i < 16; i++) y = ef.relu(ef.add(ef.multiply(y, 0.9), 0.1));
  return y;
};
const withTanh = (v: ef.Tensor): ef.Tensor => {
  let y = v;
  for (let i = 0; i < 8; i++) y = ef.tanh(ef.add(ef.multiply(y, 0.9), 0.1));
  return y;
};
const input = (n: number): ef.Tensor => ef.constant(Float32Array.from({ length: n }, (_, i) => Math.sin(i) * 2));

describe('jitCompile: true keeps small cheap elementwise segments on the fused host loop', () => {
  test('the 48-op relu/add/multiply chain on [256] runs fused on the host, with the same bits as without jitCompile', () => {
    const x = input(256);
    const jit = ef.trace(cheap, { jitCompile: true });
    const plain = ef.trace(cheap);
    expect(segments(jit, x)).toBe(0);
    expect(jit.getConcreteFunction(x).experimentalGetCompilerIr()).toMatch(/fused/);
    const [a, b] = [jit(x) as ef.Tensor, plain(x) as ef.Tensor];
    expect(Array.from(a.dataSync() as ArrayLike<number>)).toEqual(Array.from(b.dataSync() as ArrayLike<number>));
    ef.dispose([a, b, x]);
    jit.dispose();
    plain.dispose();
  });

  test('larger tensors, transcendental chains and strict mode compile to ONNX Runtime', () => {
    const [small, big] = [input(256), input(8192)];
    const jit = ef.trace(cheap, { jitCompile: true });
    expect(segments(jit, big)).toBe(1);
    const tanhJit = ef.trace(withTanh, { jitCompile: true });
    expect(segments(tanhJit, small)).toBe(1);
    const strict = ef.trace(cheap, { jitCompile: 'strict' });
    expect(segments(strict, small)).toBe(1);
    const [a, b] = [tanhJit(small) as ef.Tensor, ef.trace(withTanh)(small) as ef.Tensor];
    const [av, bv] = [a.dataSync() as Float32Array, b.dataSync() as Float32Array];
    for (let i = 0; i < av.length; i++) expect(av[i]).toBeCloseTo(bv[i], 5);
    ef.dispose([a, b, small, big]);
    [jit, tanhJit, strict].forEach((f) => f.dispose());
  });

  test('the rule can be turned off (ef.internal.fuseConfig.smallSegmentsOnHost)', () => {
    const x = input(256);
    ef.internal.fuseConfig.smallSegmentsOnHost = false;
    try {
      const jit = ef.trace(cheap, { jitCompile: true });
      expect(segments(jit, x)).toBe(1);
      jit.dispose();
    } finally {
      ef.internal.fuseConfig.smallSegmentsOnHost = true;
    }
    x.dispose();
  });
});
