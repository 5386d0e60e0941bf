// Image resize primitives (TF2 half-pixel bilinear / nearest) and their gradients, plus ef.image.resize.
import { showValue } from '../../values/dtype';
import { OpRecord, defineOp } from '../define_op';
import type { Info, Kernels } from '../../backend/backend';
import { AVal, Primitive } from '../primitive';
import { Dims, dimsToString } from '../../values/shape';
import { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { TensorLike, convert, release } from '../../values/convert';
import { unimplemented } from '../../errors/error_toolkit';
import * as o from '../ops';
import { tidy } from '../../backend/memory';
import { argError, checkArity, checkDTypes } from '../check';
import { ReadScope, WriteScope, attr, tfOpOf, typeAttrOf } from '../graphdef_spec';
import { tensorOfShapeNode, writeShapeOf } from '../array/reshape';
import { slice as sliceRecord } from '../array/slice_concat_gather';
import { lower } from '../onnx_lowerings';

export type ResizeMethod = 'bilinear' | 'nearest';

export interface ResizeParams {
  /** Output [height, width] (a gradient read from a file with unknown dims may not know them: null). */
  readonly size: readonly [number | null, number | null];
}

const KERNEL = { bilinear: 'ResizeBilinear', nearest: 'ResizeNearestNeighbor' } as const;

/** A rank-4 NHWC input's output shape at `size` (dims unknown stay unknown). */
function resizedShape(op: string, x: Dims, size: readonly (number | null)[]): Dims {
  if (x !== null && x.length !== 4) {
    throw argError(op, 'images must be rank 4 (batch, height, width, channels)', `shape ${dimsToString(x)}`, 'rank 4', 'Pass NHWC images (ef.image.resize also takes rank 3).');
  }
  return x === null ? [null, size[0], size[1], null] : [x[0], size[0], size[1], x[3]];
}

function resizeRecord<const N extends string>(method: ResizeMethod, name: N): OpRecord<N, ResizeParams> {
  return defineOp({
    name,
    infer(ins: AVal[], p: ResizeParams) {
      checkArity(name, ins, 1);
      checkDTypes(name, ins[0], method === 'bilinear' ? ['float32'] : ['float32', 'int32']);
      return [{ dtype: ins[0].dtype, shape: resizedShape(name, ins[0].shape, p.size) }];
    },
    impl: (k, [images], p) => [k.run(KERNEL[method], { images }, { size: [...p.size], alignCorners: false, halfPixelCenters: true }) as Info],
    // The adjoint of a linear resampling, as its own primitive (so it is recorded, traced and saved).
    vjp: (c, [x], _o, p) => [c[0] === null ? null : bind(method === 'bilinear' ? resizeBilinearGrad : resizeNearestGrad, [c[0], x], { size: p.size })[0]],
    saves: 'inputs',
    onnx: lower.resize(method === 'bilinear' ? 'linear' : 'nearest'),
    tf: {
      ops: [KERNEL[method]],
      write: (s, n, [x]) => [s.add(KERNEL[method], KERNEL[method], [x, s.ints('size', (n.params as ResizeParams).size as readonly number[])], resizeAttrs(s, n.inputs[0]))],
      read(r): Tensor[] {
        r.arity(2);
        checkTf2(r);
        const [h, w] = r.numbers(1, 'the size');
        return bind(method === 'bilinear' ? resizeBilinear : resizeNearest, [r.input(0)], { size: [h, w] });
      },
    },
  });
}

/** TF2 tf.image.resize attrs: align_corners=false, half_pixel_centers=true. */
function resizeAttrs(s: WriteScope, i: number): Record<string, ReturnType<typeof attr.bool>> {
  return { T: typeAttrOf(s, i), align_corners: attr.bool(false), half_pixel_centers: attr.bool(true) };
}

/** Only TF2 resizes are read (the TF1 modes would silently differ). */
function checkTf2(r: ReadScope): void {
  if (r.node.bool('align_corners', false) || !r.node.bool('half_pixel_centers', false)) {
    throw r.error('only align_corners=false, half_pixel_centers=true is supported', `align_corners=${r.node.bool('align_corners', false)}, half_pixel_centers=${r.node.bool('half_pixel_centers', false)}`, 'TF2 tf.image.resize attrs', 'Resize with tf.image.resize (TF2 semantics)');
  }
}

/**
 * The gradients save as ResizeBilinearGrad(dy, x) and ResizeNearestNeighborGrad(dy, size), where size
 * is Slice(Shape(x), [1], [2]); a Const size reads back with a zero image as the shape carrier.
 */
function resizeGradTf(method: ResizeMethod, rec: () => Primitive<ResizeParams>): NonNullable<Primitive['tf']> {
  const op = method === 'bilinear' ? 'ResizeBilinearGrad' : 'ResizeNearestNeighborGrad';
  return {
    ops: [op],
    write(s, n, [dy, x]) {
      if (method === 'bilinear') return [s.add(op, op, [dy, x], resizeAttrs(s, n.inputs[0]))];
      const sliceOp = tfOpOf(sliceRecord);
      const size = s.add(sliceOp, sliceOp, [writeShapeOf(s, x, n.inputs[1]), s.ints('begin', [1]), s.ints('size', [2])], { T: attr.type('int32'), Index: attr.type('int32') });
      return [s.add(op, op, [dy, size], resizeAttrs(s, n.inputs[0]))];
    },
    read(r): Tensor[] {
      r.arity(2);
      checkTf2(r);
      const dy = r.input(0);
      const d = dy.dims;
      const like = method === 'bilinear' ? r.input(1) : originalImage(r, d);
      return bind(rec() as Primitive, [dy, like], { size: [d?.[1] ?? null, d?.[2] ?? null] });
    },
  };
}

/** ResizeNearestNeighborGrad's size input: Slice(Shape(x), ...) gives x; a Const gives a zero image of that size. */
function originalImage(r: ReadScope, dy: (number | null)[] | null): Tensor {
  const slice = r.producer(1);
  const shape = slice?.op === tfOpOf(sliceRecord) && slice.inputs[0] !== undefined ? r.nodeOf(slice.inputs[0]) : undefined;
  const like = tensorOfShapeNode(r, shape);
  if (like !== null) return like;
  const [h, w] = r.numbers(1, 'the size');
  if (dy === null || dy[0] === null || dy[3] === null) throw r.error('a Const size needs static batch and channels', String(dy), 'known dims', 'Save with static image sizes');
  return o.zeros([dy[0], h, w, dy[3]]);
}

/** Row `o` of the [out, in] resampling matrix along one axis, TF2 half-pixel semantics. */
export function resampleMatrix(method: ResizeMethod, inSize: number, outSize: number): Float32Array {
  const m = new Float32Array(outSize * inSize);
  const scale = inSize / outSize;
  for (let r = 0; r < outSize; r++) {
    if (method === 'nearest') {
      m[r * inSize + Math.max(0, Math.min(Math.floor((r + 0.5) * scale), inSize - 1))] = 1;
      continue;
    }
    const f = (r + 0.5) * scale - 0.5;
    const lerp = f - Math.floor(f);
    m[r * inSize + Math.max(Math.floor(f), 0)] += 1 - lerp;
    m[r * inSize + Math.min(Math.ceil(f), inSize - 1)] += lerp;
  }
  return m;
}

/** dx = Mh^T · dy · Mw per (batch, channel): two batched matmuls on kernels (tfjs's grad kernels ignore half-pixel centers). */
function resizeAdjoint(k: Kernels, method: ResizeMethod, dy: Info, like: Info): Info {
  const [b, oh, ow, c] = dy.shape;
  const [, ih, iw] = like.shape;
  const mh = k.upload(resampleMatrix(method, ih, oh), [1, oh, ih], 'float32');
  const mw = k.upload(resampleMatrix(method, iw, ow), [1, ow, iw], 'float32');
  const t = k.run('Transpose', { x: dy }, { perm: [0, 3, 1, 2] }) as Info;
  const flat = k.run('Reshape', { x: t }, { shape: [b * c, oh, ow] }) as Info;
  const left = k.run('BatchMatMul', { a: mh, b: flat }, { transposeA: true, transposeB: false }) as Info;
  const both = k.run('BatchMatMul', { a: left, b: mw }, { transposeA: false, transposeB: false }) as Info;
  const back = k.run('Reshape', { x: both }, { shape: [b, c, ih, iw] }) as Info;
  const out = k.run('Transpose', { x: back }, { perm: [0, 2, 3, 1] }) as Info;
  for (const x of [mh, mw, t, flat, left, both, back]) k.free(x);
  return out;
}

function gradRecord<const N extends string>(method: ResizeMethod, name: N): OpRecord<N, ResizeParams> {
  return defineOp({
    name,
    infer(ins: AVal[], p: ResizeParams) {
      checkArity(name, ins, 2);
      checkDTypes(name, ins[0], ['float32'], 'grads');
      const dy = resizedShape(name, ins[0].shape, p.size);
      const x = ins[1].shape;
      if (x !== null && x.length !== 4) throw argError(name, 'the original image must be rank 4', `shape ${dimsToString(x)}`, 'rank 4', 'Pass the NHWC image that was resized.');
      // The gradient has the image's shape: its batch and channels are the grads' (TF checks them equal).
      if (x !== null && dy !== null && [0, 3].some((a) => x[a] !== null && dy[a] !== null && x[a] !== dy[a])) {
        throw argError(name, 'the original image and the grads differ in batch or channels', `image ${dimsToString(x)} and grads ${dimsToString(dy)}`, 'equal batch and channel dims', 'Pass the image that was resized.');
      }
      return [{ dtype: 'float32', shape: x === null ? dy && [dy[0], null, null, dy[3]] : [x[0], x[1], x[2], x[3]] }];
    },
    impl: (k, [dy, x]) => [resizeAdjoint(k, method, dy, x)],
    // Linear in dy: its adjoint is the forward resize; the original image only gives a shape.
    vjp: (c, _ins, _o, p) => [c[0] === null ? null : bind(method === 'bilinear' ? resizeBilinear : resizeNearest, [c[0]], p)[0], null],
    saves: 'none',
    tf: resizeGradTf(method, () => (method === 'bilinear' ? resizeBilinearGrad : resizeNearestGrad)),
  });
}

export const resizeBilinear = resizeRecord('bilinear', 'resize_bilinear');
export const resizeNearest = resizeRecord('nearest', 'resize_nearest');
export const resizeBilinearGrad = gradRecord('bilinear', 'resize_bilinear_grad');
export const resizeNearestGrad = gradRecord('nearest', 'resize_nearest_grad');

export interface ResizeOptions {
  /** 'bilinear' (default) or 'nearest' (TF's ResizeMethod.BILINEAR / NEAREST_NEIGHBOR). */
  method?: ResizeMethod;
  /** Fit inside `size` keeping the aspect ratio (needs static height and width). */
  preserveAspectRatio?: boolean;
  /** Not implemented: throws UnimplementedError when true. */
  antialias?: boolean;
}

function checkSize(size: unknown): [number, number] {
  if (!Array.isArray(size) || size.length !== 2 || !size.every((d) => Number.isInteger(d) && d > 0)) {
    throw argError('image.resize', 'size must be two positive integers', showValue(size), '[newHeight, newWidth]', 'Pass e.g. [224, 224].');
  }
  return [size[0], size[1]];
}

/** TF's preserve_aspect_ratio rule: scale by the smaller factor, round. */
function fitSize(op: string, x: Tensor, size: [number, number]): [number, number] {
  const d = x.dims;
  const [h, w] = d === null ? [null, null] : [d[d.length - 3], d[d.length - 2]];
  if (h === null || w === null) throw argError(op, 'preserveAspectRatio needs a static height and width', dimsToString(d), 'known height and width', 'Call setShape on the images first.');
  const scale = Math.min(size[0] / h, size[1] / w);
  return [Math.max(1, Math.round(h * scale)), Math.max(1, Math.round(w * scale))];
}

/**
 * Resizes NHWC images (rank 4, or rank 3 for one image) like TF2's tf.image.resize: half-pixel
 * centers; bilinear returns float32, nearest keeps the dtype. Differentiable.
 * @example
 * ef.reshape(ef.image.resize(ef.constant([[[1], [3]]]), [1, 4]), [4]).arraySync(); // [1, 1.5, 2.5, 3]
 */
export function resize(images: TensorLike, size: readonly number[], options: ResizeOptions = {}): Tensor {
  const method = options.method ?? 'bilinear';
  if (method !== 'bilinear' && method !== 'nearest') {
    throw unimplemented('image.resize', `method '${String(method)}' is not implemented`, `'${String(method)}'`, "'bilinear' or 'nearest'", 'Use one of those.');
  }
  if (options.antialias === true) throw unimplemented('image.resize', 'antialias is not implemented', 'true', 'false', 'Resize without antialias.');
  let target = checkSize(size);
  const a = convert('image.resize', images);
  try {
    const rank = a.t.rank;
    if (rank !== null && rank !== 3 && rank !== 4) throw argError('image.resize', 'images must be rank 3 or 4', dimsToString(a.t.dims), 'rank 3 (HWC) or 4 (NHWC)', 'Reshape the images.');
    if (options.preserveAspectRatio === true) target = fitSize('image.resize', a.t, target);
    return tidy(() => {
      let x = rank === 3 ? o.expandDims(a.t, 0) : a.t;
      if (method === 'bilinear' && x.dtype !== 'float32') x = o.cast(x, 'float32');
      const y = bind(method === 'bilinear' ? resizeBilinear : resizeNearest, [x], { size: target })[0];
      return rank === 3 ? o.squeeze(y, 0) : y;
    });
  } finally {
    release(a);
  }
}
