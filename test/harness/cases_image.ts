// Harness cases for the image resize primitives and their gradient primitives (TF2 half-pixel semantics, and TF1's modes).
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec } from './case';
import { Ref } from './ref';

const F = (shape: number[]): InputSpec => ({ shape, gen: 'normal' });
const I = (shape: number[]): InputSpec => ({ shape, dtype: 'int32', gen: 'int' });

/** TF1's sampling options (TF2's tf.image.resize: half-pixel centers). */
interface Mode {
  alignCorners: boolean;
  halfPixelCenters: boolean;
}
const TF2: Mode = { alignCorners: false, halfPixelCenters: true };

/** Source taps along one axis for output index o: [(index, weight)], straight from TF's kernels (float64). */
function taps(method: 'bilinear' | 'nearest', inSize: number, outSize: number, o: number, mode: Mode = TF2): [number, number][] {
  const scale = mode.alignCorners && outSize > 1 ? (inSize - 1) / (outSize - 1) : inSize / outSize;
  const src = (mode.halfPixelCenters ? o + 0.5 : o) * scale;
  if (method === 'nearest') return [[Math.max(0, Math.min(mode.alignCorners ? Math.round(src) : Math.floor(src), inSize - 1)), 1]];
  const f = mode.halfPixelCenters ? src - 0.5 : src;
  const lerp = f - Math.floor(f);
  return [[Math.max(Math.floor(f), 0), 1 - lerp], [Math.min(Math.ceil(f), inSize - 1), lerp]];
}

/** Forward resize of an NHWC Ref (rank 3 = one image). */
function resizeRef(method: 'bilinear' | 'nearest', size: [number, number], mode: Mode = TF2) {
  return (x: Ref): Ref => {
    const s = x.rank === 3 ? [1, ...x.shape] : x.shape;
    const [b, h, w, c] = s;
    const out: number[] = [];
    for (let n = 0; n < b; n++) for (let i = 0; i < size[0]; i++) for (let j = 0; j < size[1]; j++) for (let k = 0; k < c; k++) {
      let v = 0;
      for (const [yi, wy] of taps(method, h, size[0], i, mode)) for (const [xj, wx] of taps(method, w, size[1], j, mode)) v += wy * wx * x.num(((n * h + yi) * w + xj) * c + k);
      out.push(v);
    }
    const shape = x.rank === 3 ? [size[0], size[1], c] : [b, size[0], size[1], c];
    return new Ref(shape, out, method === 'bilinear' ? 'float32' : x.dtype);
  };
}

/** The adjoint: scatter dy back through the same taps onto the original image's shape. */
function gradRef(method: 'bilinear' | 'nearest') {
  return (dy: Ref, x: Ref): Ref => {
    const [b, oh, ow, c] = dy.shape;
    const [, h, w] = x.shape;
    const out = new Array<number>(b * h * w * c).fill(0);
    for (let n = 0; n < b; n++) for (let i = 0; i < oh; i++) for (let j = 0; j < ow; j++) for (let k = 0; k < c; k++) {
      const g = dy.num(((n * oh + i) * ow + j) * c + k);
      for (const [yi, wy] of taps(method, h, oh, i)) for (const [xj, wx] of taps(method, w, ow, j)) out[((n * h + yi) * w + xj) * c + k] += wy * wx * g;
    }
    return new Ref([b, h, w, c], out, 'float32');
  };
}

const P = ef.internal.PRIMITIVES;
const grad = (prim: ef.internal.Primitive, size: [number, number]) => (dy: ef.Tensor, x: ef.Tensor) => ef.internal.bind(prim, [dy, x], { size })[0];

export const imageCases: ForwardCase[] = [
  { prim: 'resize_bilinear', api: 'image.resize', tfOps: ['ResizeBilinear'], name: 'resize bilinear upsample', inputs: [F([2, 3, 4, 2])], op: (x) => ef.image.resize(x, [5, 7]), ref: resizeRef('bilinear', [5, 7]) },
  { prim: 'resize_bilinear', api: 'image.resize', tfOps: ['ResizeBilinear'], name: 'resize bilinear downsample, one image', inputs: [F([6, 5, 1])], op: (x) => ef.image.resize(x, [3, 2]), ref: resizeRef('bilinear', [3, 2]) },
  { prim: 'resize_bilinear', api: 'image.resize', tfOps: ['ResizeBilinear'], name: 'resize bilinear of int32 gives float32', inputs: [I([1, 2, 3, 1])], op: (x) => ef.image.resize(x, [3, 4]), ref: resizeRef('bilinear', [3, 4]) },
  { prim: 'resize_bilinear', api: 'image.resize', tfOps: ['ResizeBilinear'], name: 'resize bilinear preserveAspectRatio fits inside the size', noUnknownDims: 'preserveAspectRatio computes the size from the static height and width', inputs: [F([1, 4, 8, 1])], op: (x) => ef.image.resize(x, [4, 4], { preserveAspectRatio: true }), ref: resizeRef('bilinear', [2, 4]) },
  { prim: 'resize_nearest', api: 'image.resize', tfOps: ['ResizeNearestNeighbor'], name: 'resize nearest upsample', inputs: [F([1, 3, 2, 2])], op: (x) => ef.image.resize(x, [4, 5], { method: 'nearest' }), ref: resizeRef('nearest', [4, 5]) },
  { prim: 'resize_nearest', api: 'image.resize', tfOps: ['ResizeNearestNeighbor'], name: 'resize nearest downsample int32 keeps dtype', inputs: [I([2, 5, 4, 1])], op: (x) => ef.image.resize(x, [2, 3], { method: 'nearest' }), ref: resizeRef('nearest', [2, 3]) },
  { prim: 'resize_bilinear', api: 'image.resizeBilinear', tfOps: ['ResizeBilinear'], name: 'TF1 resizeBilinear legacy sampling', inputs: [F([2, 3, 4, 2])], op: (x) => ef.image.resizeBilinear(x, [5, 7]), ref: resizeRef('bilinear', [5, 7], { alignCorners: false, halfPixelCenters: false }) },
  { prim: 'resize_bilinear', api: 'image.resizeBilinear', tfOps: ['ResizeBilinear'], name: 'TF1 resizeBilinear alignCorners', inputs: [F([1, 4, 3, 1])], op: (x) => ef.image.resizeBilinear(x, [3, 5], { alignCorners: true }), ref: resizeRef('bilinear', [3, 5], { alignCorners: true, halfPixelCenters: false }) },
  { prim: 'resize_nearest', api: 'image.resizeNearestNeighbor', tfOps: ['ResizeNearestNeighbor'], name: 'TF1 resizeNearestNeighbor alignCorners', inputs: [F([1, 3, 4, 2])], op: (x) => ef.image.resizeNearestNeighbor(x, [5, 3], { alignCorners: true }), ref: resizeRef('nearest', [5, 3], { alignCorners: true, halfPixelCenters: false }) },
  { prim: 'resize_nearest', api: 'image.resizeNearestNeighbor', tfOps: ['ResizeNearestNeighbor'], name: 'TF1 resizeNearestNeighbor legacy, int32', inputs: [I([1, 5, 4, 1])], op: (x) => ef.image.resizeNearestNeighbor(x, [2, 3]), ref: resizeRef('nearest', [2, 3], { alignCorners: false, halfPixelCenters: false }) },
  { prim: 'resize_bilinear_grad', api: 'image.resize', tfOps: ['ResizeBilinearGrad'], noConverter: 'tfjs-converter has no ResizeBilinearGrad', name: 'resize bilinear grad (adjoint)', inputs: [F([2, 5, 3, 2]), F([2, 3, 4, 2])], op: grad(P.resize_bilinear_grad, [5, 3]), ref: gradRef('bilinear'), grad: [0] },
  { prim: 'resize_nearest_grad', api: 'image.resize', tfOps: ['ResizeNearestNeighborGrad'], noConverter: 'tfjs-converter has no ResizeNearestNeighborGrad', name: 'resize nearest grad (adjoint)', inputs: [F([1, 2, 5, 1]), F([1, 4, 3, 1])], op: grad(P.resize_nearest_grad, [2, 5]), ref: gradRef('nearest'), grad: [0] },
];

export const imageErrors: ErrorCase[] = [
  { prim: 'resize_bilinear', name: 'resize of a rank-2 tensor', inputs: [F([3, 4])], run: (x) => ef.image.resize(x, [2, 2]), op: 'image.resize', got: '[3,4]', expected: 'rank 3 (HWC) or 4 (NHWC)' },
  { prim: 'resize_bilinear', name: 'resize to a bad size', inputs: [F([1, 3, 4, 1])], run: (x) => ef.image.resize(x, [0, 2]), op: 'image.resize', got: '[0,2]', expected: '[newHeight, newWidth]' },
  { prim: 'resize_bilinear', name: 'resize with antialias is unimplemented', inputs: [F([1, 2, 2, 1])], run: (x) => ef.image.resize(x, [1, 1], { antialias: true }), cls: ef.errors.UnimplementedError, op: 'image.resize', got: 'true', expected: 'false' },
  { prim: 'resize_bilinear', name: 'resize with an unknown method', inputs: [F([1, 2, 2, 1])], run: (x) => ef.image.resize(x, [1, 1], { method: 'bicubic' as 'nearest' }), cls: ef.errors.UnimplementedError, op: 'image.resize', got: "'bicubic'", expected: "'bilinear' or 'nearest'" },
  { prim: 'resize_nearest', name: 'resize nearest of strings', inputs: [{ shape: [1, 1, 1, 1], dtype: 'string', gen: 'string' }], run: (x) => ef.image.resize(x, [2, 2], { method: 'nearest' }), op: 'resize_nearest', got: 'string', expected: 'float32 or int32' },
  { prim: 'resize_bilinear_grad', name: 'resize grad with int32 grads', inputs: [I([1, 2, 2, 1]), F([1, 1, 1, 1])], run: grad(P.resize_bilinear_grad, [2, 2]), op: 'resize_bilinear_grad', got: 'int32', expected: 'float32' },
  { prim: 'resize_nearest_grad', name: 'resize nearest grad of a rank-3 image', inputs: [F([1, 2, 2, 1]), F([1, 1, 1])], run: grad(P.resize_nearest_grad, [2, 2]), op: 'resize_nearest_grad', got: 'shape [1,1,1]', expected: 'rank 4' },
];
