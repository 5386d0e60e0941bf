// logical: comparisons, boolean ops and where (select), TensorFlow's Equal ... SelectV2.
import { lower } from '../onnx_lowerings';
import { withOnnx } from '../onnx_spec';
import type { Info, Kernels } from '../../backend/backend';
import { Primitive } from '../primitive';
import { api, arg } from '../api_spec';
import { ruleOps as o } from '../rule_ops';
import { ALL, NUMERIC, broadcastOrThrow, checkArity, checkDTypes, checkSameDType } from '../check';
import { broadcastInfo, broadcastShape, complexByParts, sameShape } from '../kernel_util';
import { binary, unary } from '../elementwise';
import { g0 } from '../rule_helpers';

const SHAPE_ERROR = { incompatible_shape_error: { fixed: { b: true } } } as const;
export const equal = withOnnx(binary('equal', 'Equal', ['math.equal', 'equal'], ALL, 'none', null, 'bool', undefined, undefined, { op: 'Equal', attrs: { T: { dtypeOf: 0 }, ...SHAPE_ERROR } }), { op: 'Equal', dtypes: ['float32', 'int32', 'bool'] });
export const notEqual = withOnnx(binary('not_equal', 'NotEqual', ['math.notEqual', 'notEqual'], ALL, 'none', null, 'bool', undefined, undefined, { op: 'NotEqual', attrs: { T: { dtypeOf: 0 }, ...SHAPE_ERROR } }), lower.notEqual);
export const less = withOnnx(binary('less', 'Less', ['math.less', 'less'], NUMERIC, 'none', null, 'bool'), { op: 'Less', dtypes: ['float32', 'int32'] });
export const lessEqual = withOnnx(binary('less_equal', 'LessEqual', ['math.lessEqual', 'lessEqual'], NUMERIC, 'none', null, 'bool'), { op: 'LessOrEqual', dtypes: ['float32', 'int32'] });
export const greater = withOnnx(binary('greater', 'Greater', ['math.greater', 'greater'], NUMERIC, 'none', null, 'bool'), { op: 'Greater', dtypes: ['float32', 'int32'] });
export const greaterEqual = withOnnx(binary('greater_equal', 'GreaterEqual', ['math.greaterEqual', 'greaterEqual'], NUMERIC, 'none', null, 'bool'), { op: 'GreaterOrEqual', dtypes: ['float32', 'int32'] });
export const logicalAnd = withOnnx(binary('logical_and', 'LogicalAnd', ['math.logicalAnd', 'logicalAnd'], ['bool'], 'none', null, 'bool', undefined, undefined, { op: 'LogicalAnd', noT: true }), { op: 'And', dtypes: ['bool'] });
export const logicalOr = withOnnx(binary('logical_or', 'LogicalOr', ['math.logicalOr', 'logicalOr'], ['bool'], 'none', null, 'bool', undefined, undefined, { op: 'LogicalOr', noT: true }), { op: 'Or', dtypes: ['bool'] });
export const logicalNot = withOnnx(unary('logical_not', 'LogicalNot', ['math.logicalNot', 'logicalNot'], ['bool'], 'none', null, undefined, undefined, { op: 'LogicalNot', noT: true }), { op: 'Not', dtypes: ['bool'] });

/** where(cond, a, b): broadcasting select; gradient flows to the chosen side. */
export const select = {
  name: 'select',
  onnx: lower.where,
  effect: 'pure',
  infer(ins) {
    checkArity('where', ins, 3);
    checkDTypes('where', ins[0], ['bool'], 'condition');
    checkSameDType('where', ins[1], ins[2]);
    const s = broadcastOrThrow('where', broadcastOrThrow('where', ins[0].shape, ins[1].shape), ins[2].shape);
    return [{ dtype: ins[1].dtype, shape: s }];
  },
  impl(k, [c, a, b]) {
    const shape = broadcastShape(broadcastShape(c.shape, a.shape), b.shape);
    const [bc, ba, bb] = [c, a, b].map((x) => (sameShape(x.shape, shape) ? x : broadcastInfo(k, x, shape)));
    const select = ([t, e]: Info[]): Info => k.run('Select', { condition: bc, t, e }) as Info;
    const out = a.dtype === 'string' ? selectStrings(k, bc, ba, bb) : a.dtype === 'complex64' ? complexByParts(k, [ba, bb], select) : select([ba, bb]);
    for (const [x, orig] of [[bc, c], [ba, a], [bb, b]]) if (x !== orig) k.free(x);
    return [out];
  },
  vjp: (c, [cond]) => [null, o.where(cond, g0(c), 0), o.where(cond, 0, g0(c))],
  saves: 'inputs',
  // The condition takes no dtype hint: JS numbers become float32 and are refused like a float tensor.
  // ef.where (composites.ts) binds this for three arguments and where_coords for one.
  api: api([], [arg.tensor('condition', null), arg.tensor('x'), arg.tensor('y')]),
  tf: { op: 'SelectV2', attrs: { T: { dtypeOf: 1 } } },
} satisfies Primitive;

/** tfjs's Select has no string kernel: gather from [e..., t...] at i + n * cond (same-shape inputs). */
function selectStrings(k: Kernels, c: Info, t: Info, e: Info): Info {
  const n = c.shape.reduce((p, d) => p * d, 1);
  const temps: Info[] = [];
  const run = (name: string, ins: Record<string, Info>, attrs?: Record<string, unknown>): Info => {
    const r = k.run(name, ins, attrs) as Info;
    temps.push(r);
    return r;
  };
  const flat = (x: Info): Info => run('Reshape', { x }, { shape: [n] });
  const size = k.upload(Int32Array.of(n), [], 'int32');
  temps.push(size);
  const both = run('Concat', [flat(e), flat(t)] as unknown as Record<string, Info>, { axis: 0 });
  const offsets = run('Multiply', { a: run('Cast', { x: flat(c) }, { dtype: 'int32' }), b: size });
  const idx = run('Add', { a: run('Range', {}, { start: 0, stop: n, step: 1, dtype: 'int32' }), b: offsets });
  const picked = run('GatherV2', { x: both, indices: idx }, { axis: 0, batchDims: 0 });
  const out = k.run('Reshape', { x: picked }, { shape: c.shape }) as Info;
  for (const x of temps) k.free(x);
  return out;
}




