// A Reshape whose shape the graph computes (Keras 3's squeeze-excite: [tf.shape(x)[0], 1, 1, C]) compiles into the
// ONNX Runtime segment with jitCompile (ONNX Reshape takes the shape as a tensor) instead of splitting it.
import * as ef from 'eagerflow';

const i32 = (values: number[]) => ({ tensor: { dtype: 'DT_INT32', tensorShape: { dim: [{ size: String(values.length) }] }, intVal: values } });
const scalar = (v: number) => ({ tensor: { dtype: 'DT_INT32', tensorShape: {}, intVal: [v] } });

/** x [?, 4] -> tanh(reshape(x * 2, [shape(x)[0], 2, 2])): the Reshape's shape is a Pack of a StridedSlice of Shape. */
function artifacts(): object {
  const node = [
    { name: 'x', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' }, shape: { shape: { dim: [{ size: '-1' }, { size: '4' }] } } } },
    { name: 'two', op: 'Const', attr: { dtype: { type: 'DT_FLOAT' }, value: { tensor: { dtype: 'DT_FLOAT', tensorShape: {}, floatVal: [2] } } } },
    { name: 'scaled', op: 'Mul', input: ['x', 'two'], attr: { T: { type: 'DT_FLOAT' } } },
    { name: 'shape', op: 'Shape', input: ['x'], attr: { T: { type: 'DT_FLOAT' }, out_type: { type: 'DT_INT32' } } },
    { name: 'b0', op: 'Const', attr: { dtype: { type: 'DT_INT32' }, value: i32([0]) } },
    { name: 'b1', op: 'Const', attr: { dtype: { type: 'DT_INT32' }, value: i32([1]) } },
    { name: 'batch', op: 'StridedSlice', input: ['shape', 'b0', 'b1', 'b1'], attr: { T: { type: 'DT_INT32' }, Index: { type: 'DT_INT32' }, shrink_axis_mask: { i: '1' }, begin_mask: { i: '0' }, end_mask: { i: '0' }, ellipsis_mask: { i: '0' }, new_axis_mask: { i: '0' } } },
    { name: 'c2', op: 'Const', attr: { dtype: { type: 'DT_INT32' }, value: scalar(2) } },
    { name: 'dims', op: 'Pack', input: ['batch', 'c2', 'c2'], attr: { T: { type: 'DT_INT32' }, N: { i: '3' }, axis: { i: '0' } } },
    { name: 'r', op: 'Reshape', input: ['scaled', 'dims'], attr: { T: { type: 'DT_FLOAT' }, Tshape: { type: 'DT_INT32' } } },
    { name: 'y', op: 'Tanh', input: ['r'], attr: { T: { type: 'DT_FLOAT' } } },
  ];
  return { modelTopology: { node, versions: { producer: 1 } }, format: 'graph-model', signature: { inputs: { x: { name: 'x:0' } }, outputs: { y: { name: 'y:0' } } }, weightSpecs: [], weightData: new ArrayBuffer(0) };
}

test('jitCompile: a Reshape to a shape computed in the graph runs inside the one ONNX Runtime segment, with the uncompiled values', () => {
  const plain = ef.loadFunction(artifacts());
  const jit = ef.loadFunction(artifacts(), { jitCompile: 'strict' });
  const ir = jit.getConcreteFunction().experimentalGetCompilerIr();
  // The Reshape reads as reshape's tensor form (its shape a computed operand), lowered inside the one segment.
  expect(ir).toMatch(/onnx_segment\[[^\]]*reshape/);
  expect(ir.match(/= onnx_segment/g)).toHaveLength(1);
  expect(ir).not.toMatch(/= reshape /);
  for (const n of [1, 3]) {
    const x = ef.constant(Array.from({ length: n * 4 }, (_, i) => Math.sin(i)), 'float32', [n, 4]);
    const [a, b] = [plain(x) as ef.Tensor, jit(x) as ef.Tensor];
    expect(b.shape.asList()).toEqual([n, 2, 2]);
    expect(Array.from(b.dataSync() as Float32Array)).toEqual(Array.from(a.dataSync() as Float32Array).map((v) => expect.closeTo(v, 6)));
    ef.dispose([x, a, b]);
  }
});
