// Image resize primitives (TF2 half-pixel bilinear / nearest) and their gradients, plus ef.image.resize.
import { showValue } from '../../values/dtype';
import { OpRecord, defineOp } from '../define_op';
import type { Info, Kernels } from '../../backend/backend';
import { AVal, Primitive } from '../primitive';
import { Dims, dimsToString } from '../../values/shape';
import { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { TensorLike, convert, release } from '../../values/convert';
import { typeError, unimplemented } from '../../errors/error_toolkit';
import * as o from '../ops';
import { tidy } from '../../backend/memory';
import { argError, checkArity, checkDTypes, checkSize as checkElements } from '../check';
import { intValues, withScratch } from '../kernel_util';
import { ReadScope, WriteScope, attr, tfOpOf, typeAttrOf } from '../graphdef_spec';
import { tensorOfShapeNode, writeShapeOf } from '../array/reshape';
import { slice as sliceRecord } from '../array/slice_concat_gather';
import { lower } from '../onnx_lowerings';

export type ResizeMethod = 'bilinear' | 'nearest';

export interface ResizeParams {
  /** Output [height, width] (a gradient read from a file with unknown dims may not know them: null). */
  readonly size: readonly [number | null, number | null];
  /** TF1's modes (tf.compat.v1.image.resize_*): absent means TF2's (false). */
  readonly alignCorners?: boolean;
  /** Absent means TF2's (true); TF1's raw ops default to false. */
  readonly halfPixelCenters?: boolean;
}

/** The sampling mode of a resize's params (TF2's when absent). */
export function modeOf(p: ResizeParams): { alignCorners: boolean; halfPixelCenters: boolean } {
  return { alignCorners: p.alignCorners ?? false, halfPixelCenters: p.halfPixelCenters ?? true };
}

/** The params that carry a mode: TF2's leaves them out (so the records' params stay as before). */
function withMode(size: ResizeParams['size'], m: { alignCorners: boolean; halfPixelCenters: boolean }): ResizeParams {
  return m.alignCorners || !m.halfPixelCenters ? { size, ...m } : { size };
}

const KERNEL = { bilinear: 'ResizeBilinear', nearest: 'ResizeNearestNeighbor' } as const;

/** A rank-4 NHWC input's output shape at `size` (dims unknown stay unknown). */
function resizedShape(op: string, x: Dims, size: readonly (number | null)[]): Dims {
  if (x !== null && x.length !== 4) {
    throw argError(op, 'images must be rank 4 (batch, height, width, channels)', `shape ${dimsToString(x)}`, 'rank 4', 'Pass NHWC images (ef.image.resize also takes rank 3).');
  }
  return x === null ? [null, size[0], size[1], null] : [x[0], size[0], size[1], x[3]];
}

/**
 * Nearest resizing of int32 images as a gather: tfjs's kernel carries the values through float32, so 2147483647 came
 * out -2147483648 (TF copies the pixels). The same kernel resizes an image of pixel numbers (exact in float32 up to
 * 2^24 pixels) to pick each output pixel's source, and the images' pixels are gathered by those numbers.
 */
function nearestInt32(k: Kernels, images: Info, size: readonly number[], p: ResizeParams): Info {
  const [n, h, w, c] = images.shape;
  return withScratch(k, (s) => {
    const numbers = s.upload(Float32Array.from({ length: h * w }, (_, i) => i), [1, h, w, 1], 'float32');
    const picked = s.run(KERNEL.nearest, { images: numbers }, { size: [...size], ...modeOf(p) });
    const idx = s.run('Reshape', { x: s.run('Cast', { x: picked }, { dtype: 'int32' }) }, { shape: [size[0] * size[1]] });
    const flat = s.run('Reshape', { x: images }, { shape: [n, h * w, c] });
    return s.run('Reshape', { x: s.run('GatherV2', { x: flat, indices: idx }, { axis: 1, batchDims: 0 }) }, { shape: [n, size[0], size[1], c] });
  });
}

/**
 * A resize record. The output [height, width] is a param when static, or an int32 [2] tensor input (TF's own operand)
 * when only the graph knows it: `resize(images, size)` binds the mode with `size: [null, null]`.
 */
function resizeRecord<const N extends string>(method: ResizeMethod, name: N): OpRecord<N, ResizeParams> {
  const rec = defineOp({
    name,
    infer(ins: AVal[], p: ResizeParams) {
      if (ins.length === 2) {
        checkDTypes(name, ins[1], ['int32'], 'size');
        const z = ins[1].shape;
        if (z !== null && (z.length !== 1 || (z[0] !== null && z[0] !== 2))) throw argError(name, 'size must be an int32 vector of 2 values', `shape ${dimsToString(z)}`, 'shape [2]', 'Pass [height, width].');
      } else checkArity(name, ins, 1);
      checkDTypes(name, ins[0], method === 'bilinear' ? ['float32'] : ['float32', 'int32']);
      return [{ dtype: ins[0].dtype, shape: resizedShape(name, ins[0].shape, ins.length === 2 ? [null, null] : p.size) }];
    },
    impl(k, [images, z], p) {
      let size = p.size as readonly number[];
      if (z !== undefined) {
        // The size read when the op runs, checked before the kernel.
        size = Array.from(intValues(z));
        if (size.length !== 2 || size.some((d) => !Number.isInteger(d) || d <= 0)) throw argError(name, 'size must be 2 positive integers', showValue(size), '[height, width] > 0', 'Fix the size.');
        checkElements(name, [images.shape[0], size[0], size[1], images.shape[3]]);
      }
      if (method === 'nearest' && images.dtype === 'int32') return [nearestInt32(k, images, size, p)];
      return [k.run(KERNEL[method], { images }, { size: [...size], ...modeOf(p) }) as Info];
    },
    // The adjoint of a linear resampling, as its own primitive (so it is recorded, traced and saved); a size tensor's
    // output size is the cotangent's (the gradient reads it from dy, as TF's ResizeBilinearGrad does).
    vjp: (c, [x, z], _o, p) => {
      const dx = c[0] === null ? null : bind(method === 'bilinear' ? resizeBilinearGrad : resizeNearestGrad, [c[0], x], withMode(z === undefined ? p.size : [null, null], modeOf(p)))[0];
      return z === undefined ? [dx] : [dx, null];
    },
    saves: 'inputs',
    onnx: lower.resize(method === 'bilinear' ? 'linear' : 'nearest'),
    tf: {
      ops: [KERNEL[method]],
      write: (s, n, [x, z]) => [s.add(KERNEL[method], KERNEL[method], [x, z ?? s.ints('size', (n.params as ResizeParams).size as readonly number[])], resizeAttrs(s, n.inputs[0], n.params as ResizeParams))],
      read(r): Tensor[] {
        r.arity(2);
        const mode = readMode(r);
        // A size the graph computes: the tensor form.
        if (r.producer(1)?.op !== 'Const') return bind(rec as Primitive, [r.input(0), r.input(1)], withMode([null, null], mode));
        const [h, w] = r.numbers(1, 'the size');
        return bind(rec as Primitive, [r.input(0)], withMode([h, w], mode));
      },
    },
  });
  return rec;
}

/** The resize attrs of the params' mode (TF2's tf.image.resize: align_corners=false, half_pixel_centers=true). */
function resizeAttrs(s: WriteScope, i: number, p: ResizeParams): Record<string, ReturnType<typeof attr.bool>> {
  const m = modeOf(p);
  return { T: typeAttrOf(s, i), align_corners: attr.bool(m.alignCorners), half_pixel_centers: attr.bool(m.halfPixelCenters) };
}

/** A read node's mode (TF's attr defaults are false, false); both true is refused, as TF's kernels do. */
function readMode(r: ReadScope): { alignCorners: boolean; halfPixelCenters: boolean } {
  const m = { alignCorners: r.node.bool('align_corners', false), halfPixelCenters: r.node.bool('half_pixel_centers', false) };
  if (m.alignCorners && m.halfPixelCenters) {
    throw r.error('align_corners and half_pixel_centers cannot both be true', 'align_corners=true, half_pixel_centers=true', 'at most one of them true', 'Resize with one mode');
  }
  return m;
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
      const attrs = resizeAttrs(s, n.inputs[0], n.params as ResizeParams);
      if (method === 'bilinear') return [s.add(op, op, [dy, x], attrs)];
      const sliceOp = tfOpOf(sliceRecord);
      const size = s.add(sliceOp, sliceOp, [writeShapeOf(s, x, n.inputs[1]), s.ints('begin', [1]), s.ints('size', [2])], { T: attr.type('int32'), Index: attr.type('int32') });
      return [s.add(op, op, [dy, size], attrs)];
    },
    read(r): Tensor[] {
      r.arity(2);
      const mode = readMode(r);
      const dy = r.input(0);
      const d = dy.dims;
      const like = method === 'bilinear' ? r.input(1) : originalImage(r, d);
      return bind(rec() as Primitive, [dy, like], withMode([d?.[1] ?? null, d?.[2] ?? null], mode));
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

/**
 * The [out, in] resampling matrix along one axis, as TF's kernels sample (TF2's half-pixel centers by default;
 * TF1's align_corners scales by (in - 1) / (out - 1), and its legacy mode samples at o·in/out).
 */
export function resampleMatrix(method: ResizeMethod, inSize: number, outSize: number, mode = { alignCorners: false, halfPixelCenters: true }): Float32Array {
  const m = new Float32Array(outSize * inSize);
  const scale = mode.alignCorners && outSize > 1 ? (inSize - 1) / (outSize - 1) : inSize / outSize;
  const half = mode.halfPixelCenters;
  for (let r = 0; r < outSize; r++) {
    if (method === 'nearest') {
      const src = (half ? r + 0.5 : r) * scale;
      const near = Math.min(mode.alignCorners ? Math.round(src) : Math.floor(src), inSize - 1);
      m[r * inSize + Math.max(0, near)] = 1;
      continue;
    }
    const f = half ? (r + 0.5) * scale - 0.5 : r * scale;
    const lerp = f - Math.floor(f);
    m[r * inSize + Math.max(Math.floor(f), 0)] += 1 - lerp;
    m[r * inSize + Math.min(Math.ceil(f), inSize - 1)] += lerp;
  }
  return m;
}

/** dx = Mh^T · dy · Mw per (batch, channel): two batched matmuls on kernels (tfjs's grad kernels ignore half-pixel centers). */
function resizeAdjoint(k: Kernels, method: ResizeMethod, dy: Info, like: Info, p: ResizeParams): Info {
  const [b, oh, ow, c] = dy.shape;
  const [, ih, iw] = like.shape;
  const mh = k.upload(resampleMatrix(method, ih, oh, modeOf(p)), [1, oh, ih], 'float32');
  const mw = k.upload(resampleMatrix(method, iw, ow, modeOf(p)), [1, ow, iw], 'float32');
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
    impl: (k, [dy, x], p) => [resizeAdjoint(k, method, dy, x, p)],
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

function checkSize(size: unknown, api = 'image.resize'): [number, number] {
  if (!Array.isArray(size) || size.length !== 2 || !size.every((d) => Number.isInteger(d) && d > 0)) {
    throw argError(api, 'size must be two positive integers', showValue(size), '[newHeight, newWidth]', 'Pass e.g. [224, 224].');
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

/** TF1's raw resize options (tf.compat.v1.image.resize_bilinear / resize_nearest_neighbor). */
export interface ResizeTf1Options {
  /** Corner pixels of input and output aligned: scale (in - 1) / (out - 1). Default false. */
  alignCorners?: boolean;
  /** Sample at pixel centers (TF2's tf.image.resize mode). Default false (TF1's legacy o·in/out). */
  halfPixelCenters?: boolean;
}

function tf1Resize(api: string, method: ResizeMethod, images: TensorLike, size: readonly number[], options: ResizeTf1Options): Tensor {
  const mode = { alignCorners: options.alignCorners ?? false, halfPixelCenters: options.halfPixelCenters ?? false };
  for (const [k, v] of Object.entries(mode)) {
    if (typeof v !== 'boolean') throw typeError(api, `${k} must be a boolean`, showValue(v), 'true or false', `Pass ${k}: true or false.`);
  }
  if (mode.alignCorners && mode.halfPixelCenters) {
    throw argError(api, 'alignCorners and halfPixelCenters cannot both be true', 'alignCorners: true, halfPixelCenters: true', 'at most one of them true', 'Pass halfPixelCenters: true alone for TF2 sampling, or alignCorners: true alone.');
  }
  const target = checkSize(size, api);
  const a = convert(api, images);
  try {
    if (a.t.rank !== null && a.t.rank !== 4) throw argError(api, 'images must be rank 4', dimsToString(a.t.dims), 'rank 4 (NHWC)', 'Add a batch axis with ef.expandDims(images, 0).');
    return tidy(() => {
      const x = method === 'bilinear' && a.t.dtype !== 'float32' ? o.cast(a.t, 'float32') : a.t;
      return bind(method === 'bilinear' ? resizeBilinear : resizeNearest, [x], withMode(target, mode))[0];
    });
  } finally {
    release(a);
  }
}

/**
 * TF1's `tf.compat.v1.image.resize_bilinear`: rank-4 NHWC images to `size`, float32 out, with TF1's sampling
 * options (both false by default, TF1's legacy mode; `{halfPixelCenters: true}` is TF2's `ef.image.resize`).
 * Differentiable.
 * @example
 * const x = ef.reshape(ef.constant([0, 3]), [1, 1, 2, 1]);
 * ef.reshape(ef.image.resizeBilinear(x, [1, 4]), [4]).arraySync(); // [0, 1.5, 3, 3]
 * ef.reshape(ef.image.resizeBilinear(x, [1, 4], { alignCorners: true }), [4]).arraySync(); // [0, 1, 2, 3]
 */
export function resizeBilinearTf1(images: TensorLike, size: readonly number[], options: ResizeTf1Options = {}): Tensor {
  return tf1Resize('image.resizeBilinear', 'bilinear', images, size, options);
}

/**
 * TF1's `tf.compat.v1.image.resize_nearest_neighbor`: rank-4 NHWC images to `size`, dtype kept, with TF1's
 * sampling options (both false by default). Differentiable.
 * @example
 * const x = ef.reshape(ef.constant([0, 3], 'int32'), [1, 1, 2, 1]);
 * ef.reshape(ef.image.resizeNearestNeighbor(x, [1, 3], { alignCorners: true }), [3]).arraySync(); // [0, 3, 3]
 */
export function resizeNearestNeighborTf1(images: TensorLike, size: readonly number[], options: ResizeTf1Options = {}): Tensor {
  return tf1Resize('image.resizeNearestNeighbor', 'nearest', images, size, options);
}
