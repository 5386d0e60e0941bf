// logical: comparisons, boolean ops and where (select), TensorFlow's Equal ... SelectV2.
import { lower } from '../onnx_lowerings';
import type { Info, Kernels } from '../../backend/backend';
import { api, arg } from '../api_spec';
import { ruleOps as o } from '../rule_ops';
import { ALL, broadcastOrThrow, checkArity, checkDTypes, checkSameDType } from '../check';
import { broadcastInfo, broadcastShape, complexByParts, sameShape } from '../kernel_util';
import { defineOp } from '../define_op';
import { g0 } from '../rule_helpers';

const SHAPE_ERROR = { incompatible_shape_error: { fixed: { b: true } } } as const;
export const equal = defineOp({ family: 'binary', name: 'equal', api: ['math.equal', 'equal'], dtypes: ALL, out: 'bool', tf: { op: 'Equal', attrs: { T: { dtypeOf: 0 }, ...SHAPE_ERROR } }, onnx: { dtypes: ['float32', 'int32', 'bool'] } });
export const notEqual = defineOp({ family: 'binary', name: 'not_equal', api: ['math.notEqual', 'notEqual'], dtypes: ALL, out: 'bool', tf: { op: 'NotEqual', attrs: { T: { dtypeOf: 0 }, ...SHAPE_ERROR } }, onnx: lower.notEqual });
export const less = defineOp({ family: 'binary', name: 'less', api: ['math.less', 'less'], out: 'bool', onnx: { dtypes: ['float32', 'int32'] } });
export const lessEqual = defineOp({ family: 'binary', name: 'less_equal', api: ['math.lessEqual', 'lessEqual'], out: 'bool', onnx: { op: 'LessOrEqual', dtypes: ['float32', 'int32'] } });
export const greater = defineOp({ family: 'binary', name: 'greater', api: ['math.greater', 'greater'], out: 'bool', onnx: { dtypes: ['float32', 'int32'] } });
export const greaterEqual = defineOp({ family: 'binary', name: 'greater_equal', api: ['math.greaterEqual', 'greaterEqual'], out: 'bool', onnx: { op: 'GreaterOrEqual', dtypes: ['float32', 'int32'] } });
export const logicalAnd = defineOp({ family: 'binary', name: 'logical_and', api: ['math.logicalAnd', 'logicalAnd'], dtypes: ['bool'], out: 'bool', onnx: { op: 'And', dtypes: ['bool'] } });
export const logicalOr = defineOp({ family: 'binary', name: 'logical_or', api: ['math.logicalOr', 'logicalOr'], dtypes: ['bool'], out: 'bool', onnx: { op: 'Or', dtypes: ['bool'] } });
export const logicalNot = defineOp({ family: 'unary', name: 'logical_not', api: ['math.logicalNot', 'logicalNot'], dtypes: ['bool'], onnx: { op: 'Not', dtypes: ['bool'] } });

/** where(cond, a, b): broadcasting select; gradient flows to the chosen side. */
export const select = defineOp({
  name: 'select',
  onnx: lower.where,
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
});

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




