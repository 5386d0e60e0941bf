// The cast record: below the ops hub (its gradient casts back with bind), so constant() can use it.
import { lower } from '../onnx_lowerings';
import { defineOp } from '../define_op';
import type { Info, Kernels } from '../../backend/backend';
import { withScratch } from '../kernel_util';
import { DType, isFloating } from '../../values/dtype';
import { AVal, Primitive } from '../primitive';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { attr, tfSpec } from '../graphdef_spec';
import { argError } from '../check';

export interface CastParams {
  readonly dtype: DType;
}

export const cast = defineOp({
  name: 'cast',
  onnx: lower.cast,
  infer(ins: AVal[], p: CastParams) {
    if (ins[0].dtype === 'string' || p.dtype === 'string') {
      throw argError('cast', 'cannot cast between string and other dtypes', `${ins[0].dtype} -> ${p.dtype}`, 'numeric or bool dtypes', 'Parse strings on the host (numpyFunction) instead.');
    }
    return [{ dtype: p.dtype, shape: ins[0].shape }];
  },
  impl: (k, [x], p: CastParams) => [x.dtype === 'float32' && p.dtype === 'int32' ? floatToInt(k, x) : (k.run('Cast', { x }, { dtype: p.dtype }) as Info)],
  // Casts its own cotangent back (bind, not the ops hub: constant() casts with this record, so it sits below ops).
  vjp: (c, [x], _o, p: CastParams): (Tensor | null)[] => [isFloating(x.dtype) && isFloating(p.dtype) ? bind(cast as unknown as Primitive, [c[0] as Tensor], { dtype: x.dtype })[0] : null],
  saves: 'none',
  tf: tfSpec<CastParams>({ op: 'Cast', attrs: { SrcT: { dtypeOf: 0 }, DstT: { param: 'dtype', kind: 'type' }, Truncate: { fixed: attr.bool(false) } } }),
});

/** float32 -> int32 truncates; NaN, ±inf and values outside int32 become INT_MIN, as TensorFlow's CPU cast does. */
function floatToInt(k: Kernels, x: Info): Info {
  return withScratch(k, (s) => {
    const inRange = s.run('Less', { a: s.run('Abs', { x }), b: s.scalar(2147483648) });
    const lowest = s.run('Fill', {}, { shape: x.shape, value: -2147483648, dtype: 'int32' });
    return s.run('Select', { condition: inRange, t: s.run('Cast', { x }, { dtype: 'int32' }), e: lowest });
  });
}
