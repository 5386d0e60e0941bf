// The pooling records (tfjs-converter category "convolution"): avgPool2d/3d, maxPool2d/3d with gradient records, maxPoolWithArgmax.
import { lower } from '../onnx_lowerings';
import { gradLower } from '../onnx_grad_lowerings';
import { withOnnx } from '../onnx_spec';
import type { Info } from '../../backend/backend';
import type { AVal, Primitive } from '../primitive';
import type { ApiSpec } from '../api_spec';
import { api, arg } from '../api_spec';
import { attr, outputRef, typeAttrOf } from '../graphdef_spec';
import { bind } from '../bind';
import type { Tensor } from '../../values/tensor';
import * as o from '../ops';
import { argError, checkArity, checkDTypes } from '../check';
import { formatArg, fullList, intList, show, spatialList } from './conv_util';
import { PoolKind, PoolParams, poolFamily, poolShape, readPoolAttrs } from './pool_family';

const K2: PoolKind = {
  n: 2, suffix: '', avgOp: 'avgPool2d', maxOp: 'maxPool2d', defFormat: 'NHWC', gradGrad: 'MaxPoolGradGrad',
  kernels: ['AvgPool', 'AvgPoolGrad', 'MaxPool', 'MaxPoolGrad'], tf: ['AvgPool', 'AvgPoolGrad', 'MaxPool', 'MaxPoolGrad'],
};
const K3: PoolKind = {
  n: 3, suffix: '3d', avgOp: 'avgPool3d', maxOp: 'maxPool3d', defFormat: 'NDHWC', gradGrad: 'MaxPool3DGradGrad',
  kernels: ['AvgPool3D', 'AvgPool3DGrad', 'MaxPool3D', 'MaxPool3DGrad'], tf: ['AvgPool3D', 'AvgPool3DGrad', 'MaxPool3D', 'MaxPool3DGrad'],
};

function withApi<R extends object, A extends ApiSpec>(rec: R, a: A): Omit<R, 'api'> & { readonly api: A } {
  (rec as { api?: A }).api = a;
  return rec as Omit<R, 'api'> & { readonly api: A };
}

/** 'SAME' or 'VALID' (any case): pools take no explicit padding in tfjs. */
export function poolPadding(op: string, v: unknown): 'SAME' | 'VALID' {
  const s = typeof v === 'string' ? v.toUpperCase() : v;
  if (s !== 'SAME' && s !== 'VALID') throw argError(op, 'unsupported padding', show(v), "'SAME' or 'VALID'", "Pass padding: 'SAME' or 'VALID'.");
  return s;
}

/** Normalizes TF's ksize/strides forms (1, n or n+2 values) to spatial lists. */
function preparePool(n: number) {
  return (op: string, p: Record<string, unknown>): void => {
    p.ksize = spatialList(op, 'ksize', p.ksize as number[], n, p.dataFormat as string);
    p.strides = spatialList(op, 'strides', p.strides as number[], n, p.dataFormat as string);
  };
}

const poolArgs = [arg.tensor('input', 'float32'), arg.custom('ksize', intList('ksize')), arg.custom('strides', intList('strides')), arg.custom('padding', poolPadding)] as const;
const fmt2 = [arg.custom('dataFormat', formatArg(['NHWC', 'NCHW']), 'NHWC')] as const;
const fmt3 = [arg.custom('dataFormat', formatArg(['NDHWC', 'NCDHW']), 'NDHWC')] as const;

const P2 = poolFamily(K2);
const P3 = poolFamily(K3);

/**
 * 2-D average pooling (TF's AvgPool): padded taps are not counted, like TF.
 * @example ef.nn.avgPool2d(ef.reshape([1, 2, 3, 4], [1, 2, 2, 1]), 2, 2, 'VALID').arraySync(); // [[[[2.5]]]]
 */
export const avgPool2d = withApi(withOnnx(P2.avg, lower.pool('AveragePool')), api(['nn.avgPool2d'], poolArgs, fmt2, { prepare: preparePool(2) }));
export const avgPool2dGrad = withOnnx(P2.avgGrad, gradLower.avgPoolGrad);
/** 2-D max pooling (TF's MaxPool). */
export const maxPool2d = withApi(withOnnx(P2.max, lower.pool('MaxPool')), api(['nn.maxPool2d'], poolArgs, fmt2, { prepare: preparePool(2) }));
export const maxPool2dGrad = withOnnx(P2.maxGrad, gradLower.maxPoolGrad);
export const maxPool2dGradGrad = P2.maxGradGrad;
export const avgPool3d = withApi(P3.avg, api(['nn.avgPool3d'], poolArgs, fmt3, { prepare: preparePool(3) }));
export const avgPool3dGrad = P3.avgGrad;
export const maxPool3d = withApi(P3.max, api(['nn.maxPool3d'], poolArgs, fmt3, { prepare: preparePool(3) }));
export const maxPool3dGrad = P3.maxGrad;
export const maxPool3dGradGrad = P3.maxGradGrad;

export interface ArgmaxParams extends PoolParams {
  readonly includeBatchInIndex: boolean;
}

/** The flat (batch-inclusive) argmax: adds b·H·W·C where TF's index leaves the batch out. */
function flatArgmax(argmax: Tensor, x: Tensor, p: ArgmaxParams): Tensor {
  if (p.includeBatchInIndex) return argmax;
  const d = x.dims as number[];
  const per = d[1] * d[2] * d[3];
  return o.add(argmax, o.reshape(o.mul(o.range(0, d[0], 1, 'int32'), per), [d[0], 1, 1, 1]));
}

/** maxPoolWithArgmax: { output, argmax } with TF's flat NHWC indices (int32 here). */
export const maxPoolWithArgmax = {
  name: 'max_pool_with_argmax',
  effect: 'pure',
  infer(ins: AVal[], p: ArgmaxParams) {
    checkArity('maxPoolWithArgmax', ins, 1);
    checkDTypes('maxPoolWithArgmax', ins[0], ['float32'], 'input');
    const s = poolShape('maxPoolWithArgmax', 2, ins[0].shape, p);
    return [{ dtype: 'float32', shape: s }, { dtype: 'int32', shape: s }];
  },
  impl: (k, [x], p: ArgmaxParams) => k.run('MaxPoolWithArgmax', { x }, { filterSize: [...p.ksize], strides: [...p.strides], pad: p.padding.toLowerCase(), includeBatchInIndex: p.includeBatchInIndex }) as Info[],
  // TF's MaxPoolGradWithArgmax: scatter the cotangent to the argmax positions (a segment sum, so any order).
  vjp(c, [x], [, argmax], p: ArgmaxParams) {
    const g = c[0];
    if (g === null) return [null];
    const d = x.dims as number[];
    const size = d.reduce((a, b) => a * b, 1);
    return [o.reshape(o.unsortedSegmentSum(o.reshape(g, [-1]), o.reshape(flatArgmax(argmax, x, p), [-1]), size), d)];
  },
  saves: 'both',
  tf: {
    ops: ['MaxPoolWithArgmax'],
    write(s, n, [x]) {
      const p = n.params as ArgmaxParams;
      const node = s.add('MaxPoolWithArgmax', 'MaxPoolWithArgmax', [x], {
        T: typeAttrOf(s, n.inputs[0]), Targmax: attr.type('int32'), ksize: attr.ints(fullList(p.ksize, 'NHWC')), strides: attr.ints(fullList(p.strides, 'NHWC')),
        padding: attr.str(p.padding), include_batch_in_index: attr.bool(p.includeBatchInIndex),
      });
      return [node, outputRef(node, 1)];
    },
    read(r): Tensor[] {
      r.arity(1);
      return bind(maxPoolWithArgmax as unknown as Primitive, [r.input(0)], { ...readPoolAttrs(r, 2, 'NHWC'), includeBatchInIndex: r.node.bool('include_batch_in_index', false) });
    },
  },
} satisfies Primitive<ArgmaxParams>;
