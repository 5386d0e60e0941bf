// tf.image composites built from existing ops: flips, rot90, transpose, grayscale conversions, brightness/contrast,
// perImageStandardization, centralCrop, crop/padToBoundingBox.
import { composite } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import { describe } from '../../values/dtype';
import * as o from '../ops';
import * as TR from '../array/manipulation';
import * as UNA from '../math/unary';
import { argError } from '../check';
import { unimplemented } from '../../errors/error_toolkit';
import { dimsToString } from '../../values/shape';
import { Dim, SymShape, dim, fillLike, isKnown, padBy, reshapeTo, shapeOf, sliceTo, splitLast, withLastDim, withRankBetween } from '../array/symbolic_dims';

const reverse: (x: TensorLike, axis: number | number[]) => Tensor = o.wrapperOf(TR.reverse);
const tile: (x: TensorLike, multiples: number[]) => Tensor = o.wrapperOf(TR.tile);
const sqrt: (x: TensorLike) => Tensor = o.wrapperOf(UNA.sqrt);

/**
 * The input as a rank-3 image or rank-4 batch. An unknown rank (traced with TensorSpec(null)) gives r = null and a copy
 * that checks the rank is 3 or 4 when the graph runs, as TF's run-time rank asserts do; the ops then use axes from the end.
 */
function imageOf(op: string, x: TensorLike, floatOnly = false): { t: Tensor; r: 3 | 4 | null } {
  const c = convert(op, x, 'float32').t;
  const r = c.rank;
  const t = r === null ? withRankBetween(c, 3, 4) : c;
  if (r !== 3 && r !== 4 && r !== null) throw argError(op, 'images must be rank 3 ([height, width, channels]) or rank 4 ([batch, height, width, channels])', `shape ${dimsToString(t.dims)}`, 'rank 3 or 4', 'Reshape the input to HWC or NHWC.');
  if (floatOnly && t.dtype !== 'float32') throw argError(op, 'images must be float32', t.dtype, 'float32', "Convert first, e.g. ef.divide(ef.cast(images, 'float32'), 255).");
  return { t, r };
}

/** An image's or batch's dims as [leading batch dims] and height, width, channels (Dims: symbolic_dims.ts). */
function imageDims(op: string, t: Tensor): { lead: SymShape; h: Dim; w: Dim; c: Dim } {
  const { head, last: [h, w, c] } = splitLast(op, shapeOf(t), 3);
  return { lead: head, h, w, c };
}

function intArg(op: string, name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw argError(op, `${name} must be an integer >= ${min}`, describe(v), `an integer >= ${min}`, `Pass a valid ${name}.`);
  return v;
}

/**
 * flipLeftRight(image): mirrors the width axis.
 * @example ef.image.flipLeftRight([[[1], [2]]]).arraySync(); // [[[2], [1]]]
 */
function flipLeftRight(image: TensorLike): Tensor {
  return tidy(() => reverse(imageOf('image.flipLeftRight', image).t, -2));
}

/**
 * flipUpDown(image): mirrors the height axis.
 * @example ef.image.flipUpDown([[[1]], [[2]]]).arraySync(); // [[[2]], [[1]]]
 */
function flipUpDown(image: TensorLike): Tensor {
  return tidy(() => reverse(imageOf('image.flipUpDown', image).t, -3));
}

/**
 * transpose(image): swaps height and width.
 * @example ef.image.transpose([[[1], [2]]]).arraySync(); // [[[1]], [[2]]]
 */
function transposeImage(image: TensorLike): Tensor {
  return tidy(() => {
    const { t, r } = imageOf('image.transpose', image);
    return swapHW(t, r);
  });
}

/** Height and width swapped (of an image of rank r; null: the rank only the run time knows). */
function swapHW(t: Tensor, r: 3 | 4 | null): Tensor {
  if (r !== null) return o.transpose(t, r === 3 ? [1, 0, 2] : [0, 2, 1, 3]);
  // An unknown rank: the batch dims merged into one, the swap, and the batch dims restored (Dims from shape(t)).
  const { lead, h, w, c } = imageDims('image.transpose', t);
  return reshapeTo(o.transpose(reshapeTo(t, [dim.prod(lead), h, w, c]), [0, 2, 1, 3]), [...lead, w, h, c]);
}

/**
 * rot90(image, k = 1): rotates counter-clockwise by k quarter turns (TF's order of reverse and transpose).
 * @example ef.image.rot90([[[1], [2]], [[3], [4]]]).arraySync(); // [[[2], [4]], [[1], [3]]]
 */
function rot90(image: TensorLike, k = 1): Tensor {
  const op = 'image.rot90';
  if (typeof k !== 'number' || !Number.isInteger(k)) throw argError(op, 'k must be an integer', describe(k), 'an integer', 'Pass e.g. 1.');
  return tidy(() => {
    const { t, r } = imageOf(op, image);
    const [h, w] = [-3, -2];
    const swap = (v: Tensor): Tensor => swapHW(v, r);
    switch (((k % 4) + 4) % 4) {
      case 1:
        return swap(reverse(t, w));
      case 2:
        return reverse(t, [h, w]);
      case 3:
        return reverse(swap(t), w);
      default:
        return o.identity(t);
    }
  });
}

/**
 * rgbToGrayscale(images): [..., 3] -> [..., 1] with TF's weights (0.2989, 0.587, 0.114).
 * @example ef.image.rgbToGrayscale([[[1, 1, 1]]]).arraySync(); // [[[0.9999]]]
 */
function rgbToGrayscale(images: TensorLike): Tensor {
  const op = 'image.rgbToGrayscale';
  return tidy(() => {
    const t = convert(op, images, 'float32').t;
    const c = t.dims === null ? null : t.dims[t.dims.length - 1];
    // An unknown last dim (or rank) is checked to be 3 when the graph runs (TF's tensordot with the weights raises there).
    if (c !== 3 && c !== null) throw argError(op, 'the last dim must be 3 (RGB)', dimsToString(t.dims), '(..., 3)', 'Pass RGB images.');
    if (t.dtype !== 'float32') throw argError(op, 'images must be float32', t.dtype, 'float32', "Convert first, e.g. ef.divide(ef.cast(images, 'float32'), 255).");
    return o.reduceSum(o.mul(c === null ? withLastDim(t, 3) : t, convert(op, [0.2989, 0.587, 0.114], 'float32').t), -1, true);
  });
}

/**
 * grayscaleToRgb(images): [..., 1] -> [..., 3] by repeating the channel.
 * @example ef.image.grayscaleToRgb([[[2]]]).arraySync(); // [[[2, 2, 2]]]
 */
function grayscaleToRgb(images: TensorLike): Tensor {
  const op = 'image.grayscaleToRgb';
  return tidy(() => {
    const t = convert(op, images, 'float32').t;
    const d = t.dims;
    // An unknown last dim (or rank) is checked to be 1 when the graph runs, and the channel broadcast to 3 (TF tiles by run-time multiples).
    if (d === null || (d.length >= 2 && d[d.length - 1] === null)) {
      // Three copies along the channel axis (not a product by ones: any dtype, as the eager tile).
      const one = withLastDim(d === null ? withRankBetween(t, 2, null) : t, 1);
      return o.concat([one, one, one], -1);
    }
    if (d.length < 2 || d[d.length - 1] !== 1) throw argError(op, 'the last dim must be 1 (grayscale)', dimsToString(d), '(..., 1) with rank >= 2', 'Pass grayscale images with a channel axis of size 1.');
    return tile(t, [...new Array<number>(d.length - 1).fill(1), 3]);
  });
}

/**
 * adjustBrightness(image, delta): image + delta (float images).
 * @example ef.image.adjustBrightness([[[0.5]]], 0.25).arraySync(); // [[[0.75]]]
 */
function adjustBrightness(image: TensorLike, delta: TensorLike): Tensor {
  return tidy(() => o.add(imageOf('image.adjustBrightness', image, true).t, delta));
}

/**
 * adjustContrast(images, contrastFactor): (x - mean) * contrastFactor + mean, the mean per image and channel over height and width.
 * @example ef.image.adjustContrast([[[1], [3]]], 2).arraySync(); // [[[0], [4]]]
 */
function adjustContrast(images: TensorLike, contrastFactor: TensorLike): Tensor {
  return tidy(() => {
    const { t } = imageOf('image.adjustContrast', images, true);
    const mean = o.reduceMean(t, [-3, -2], true);
    return o.add(o.mul(o.sub(t, mean), contrastFactor), mean);
  });
}

/**
 * perImageStandardization(image): (x - mean) / max(stddev, 1 / sqrt(N)) per image, N = height * width * channels.
 * @example ef.image.perImageStandardization([[[1], [3]]]).arraySync(); // [[[-1], [1]]]
 */
function perImageStandardization(image: TensorLike): Tensor {
  const op = 'image.perImageStandardization';
  return tidy(() => {
    const { t } = imageOf(op, image, true);
    // N = H * W * C, read at run time when a dim or the rank is unknown (TF's num_pixels from the run-time shape).
    const { h, w, c } = imageDims(op, t);
    const n = dim.prod([h, w, c]);
    const axes = [-3, -2, -1];
    const mean = o.reduceMean(t, axes, true);
    const centered = o.sub(t, mean);
    // max(std, 1/sqrt(N)) as sqrt(max(variance, 1/N)): equal, and a constant image gets TF's finite gradient (no 0/0 in sqrt's).
    return o.div(centered, sqrt(o.maximum(o.reduceMean(o.square(centered), axes, true), isKnown(n) ? 1 / n : o.div(1, o.cast(n.t, 'float32')))));
  });
}

/**
 * cropToBoundingBox(image, offsetHeight, offsetWidth, targetHeight, targetWidth): the given window.
 * @example ef.image.cropToBoundingBox([[[1], [2]], [[3], [4]]], 1, 0, 1, 2).arraySync(); // [[[3], [4]]]
 */
function cropToBoundingBox(image: TensorLike, offsetHeight: number, offsetWidth: number, targetHeight: number, targetWidth: number): Tensor {
  const op = 'image.cropToBoundingBox';
  const [oh, ow] = [intArg(op, 'offsetHeight', offsetHeight, 0), intArg(op, 'offsetWidth', offsetWidth, 0)];
  const [th, tw] = [intArg(op, 'targetHeight', targetHeight, 1), intArg(op, 'targetWidth', targetWidth, 1)];
  return tidy(() => {
    const { t } = imageOf(op, image);
    const { lead, h, w } = imageDims(op, t);
    // A box outside an image of run-time size raises when the graph runs (the slice's bounds check).
    if ((isKnown(h) && oh + th > h) || (isKnown(w) && ow + tw > w)) throw argError(op, 'the box must lie inside the image', `offset (${oh}, ${ow}) + target (${th}, ${tw}) for a ${String(h)}x${String(w)} image`, 'offset + target <= image size', 'Use a smaller box or offset.');
    return sliceTo(t, [...fillLike(lead, 0), oh, ow, 0], [...fillLike(lead, -1), th, tw, -1]);
  });
}

/**
 * padToBoundingBox(image, offsetHeight, offsetWidth, targetHeight, targetWidth): zero-pads to the target size.
 * @example ef.image.padToBoundingBox([[[1]]], 1, 0, 2, 1).arraySync(); // [[[0]], [[1]]]
 */
function padToBoundingBox(image: TensorLike, offsetHeight: number, offsetWidth: number, targetHeight: number, targetWidth: number): Tensor {
  const op = 'image.padToBoundingBox';
  const [oh, ow] = [intArg(op, 'offsetHeight', offsetHeight, 0), intArg(op, 'offsetWidth', offsetWidth, 0)];
  const [th, tw] = [intArg(op, 'targetHeight', targetHeight, 1), intArg(op, 'targetWidth', targetWidth, 1)];
  return tidy(() => {
    const { t } = imageOf(op, image);
    const { lead, h, w } = imageDims(op, t);
    // A target too small for an image of run-time size raises when the graph runs (the pad's negative-padding check).
    if ((isKnown(h) && th < oh + h) || (isKnown(w) && tw < ow + w)) throw argError(op, 'the target must hold the image at the offset', `offset (${oh}, ${ow}) + image ${String(h)}x${String(w)} in a ${th}x${tw} target`, 'target >= offset + image size', 'Use a larger target or smaller offset.');
    return padBy(t, [...fillLike(lead, 0), oh, ow, 0], [...fillLike(lead, 0), dim.sub(th - oh, h), dim.sub(tw - ow, w), 0]);
  });
}

/**
 * centralCrop(image, centralFraction): the centered window of that fraction of height and width (TF's rounding).
 * @example ef.image.centralCrop(ef.ones([4, 4, 1]), 0.5).shape.dims; // [2, 2, 1]
 */
function centralCrop(image: TensorLike, centralFraction: number): Tensor {
  const op = 'image.centralCrop';
  if (typeof centralFraction !== 'number' || !(centralFraction > 0 && centralFraction <= 1)) throw argError(op, 'centralFraction must be in (0, 1]', describe(centralFraction), 'a number in (0, 1]', 'Pass e.g. 0.5.');
  return tidy(() => {
    const { t } = imageOf(op, image);
    if (centralFraction === 1) return o.identity(t);
    const { lead, h, w } = imageDims(op, t);
    // The starts trunc((n - n f) / 2); a run-time n computes them in float32 (TF in float64: the two agree unless
    // (n - n f) / 2 lies within float32 rounding of an integer).
    const start = (n: Dim): Dim =>
      dim.apply(n, (v) => Math.trunc((v - v * centralFraction) / 2), (v) => {
        const f = o.cast(v, 'float32');
        return o.cast(o.div(o.sub(f, o.mul(f, centralFraction)), 2), 'int32');
      });
    const [hs, ws] = [start(h), start(w)];
    return sliceTo(t, [...fillLike(lead, 0), hs, ws, 0], [...fillLike(lead, -1), dim.sub(h, dim.mul(hs, 2)), dim.sub(w, dim.mul(ws, 2)), -1]);
  });
}

/** The dtypes convertImageDtype converts between (tfjs has no uint8/uint16/float16/float64 tensors). */
const IMAGE_DTYPES = ['float32', 'int32'] as const;
const INT32_MAX = 2147483647;
// The largest float32 below 2^31: float32(2^31 - 1) rounds up to 2^31, which no int32 holds.
const INT32_MAX_F32 = 2147483520;

/**
 * convertImageDtype(image, dtype, saturate = false): TF's tf.image.convert_image_dtype for EagerFlow's dtypes. An integer
 * image holds [0, MAX] of its dtype, a float image [0, 1]: int32 -> float32 multiplies by 1 / (2^31 - 1), float32 -> int32
 * multiplies by 2^31 - 1 + 0.5 (TF's rounding guard) and casts (`saturate` clips into int32's range first), and the same
 * dtype returns the image. tfjs has no uint8: for 8-bit pixel values in an int32 or float32 tensor, divide by 255.
 * @example ef.image.convertImageDtype(ef.constant([[[1073741824]]], 'int32'), 'float32').arraySync(); // [[[0.5]]]
 */
function convertImageDtype(image: TensorLike, dtype: (typeof IMAGE_DTYPES)[number], saturate = false): Tensor {
  const op = 'image.convertImageDtype';
  if (!(IMAGE_DTYPES as readonly unknown[]).includes(dtype)) {
    const fix = dtype === ('uint8' as unknown) ? "tfjs has no uint8 tensors; for 8-bit pixel values use ef.divide(ef.cast(image, 'float32'), 255)." : "Pass 'float32' or 'int32'.";
    throw unimplemented(op, 'dtype must be a dtype EagerFlow images can have', describe(dtype), "'float32' or 'int32'", fix);
  }
  if (typeof saturate !== 'boolean') throw argError(op, 'saturate must be a boolean', describe(saturate), 'true or false', 'Pass saturate: true to clip before casting.');
  const t = convert(op, image, 'float32').t;
  if (t.dtype !== 'float32' && t.dtype !== 'int32') throw argError(op, 'the image must be a float or integer image', t.dtype, 'float32 or int32', "Cast first, e.g. ef.cast(image, 'float32').");
  return tidy(() => {
    if (t.dtype === dtype) return o.identity(t);
    if (t.dtype === 'int32') return o.mul(o.cast(t, 'float32'), 1 / INT32_MAX);
    const scaled = o.mul(t, INT32_MAX + 0.5);
    return o.cast(saturate ? o.clipByValue(scaled, -2147483648, INT32_MAX_F32) : scaled, 'int32');
  });
}

export const IMAGE_COMPOSITES = {
  convertImageDtype: composite(['image.convertImageDtype'], convertImageDtype),
  flipLeftRight: composite(['image.flipLeftRight'], flipLeftRight),
  flipUpDown: composite(['image.flipUpDown'], flipUpDown),
  transposeImage: composite(['image.transpose'], transposeImage),
  rot90: composite(['image.rot90'], rot90),
  rgbToGrayscale: composite(['image.rgbToGrayscale'], rgbToGrayscale),
  grayscaleToRgb: composite(['image.grayscaleToRgb'], grayscaleToRgb),
  adjustBrightness: composite(['image.adjustBrightness'], adjustBrightness),
  adjustContrast: composite(['image.adjustContrast'], adjustContrast),
  perImageStandardization: composite(['image.perImageStandardization'], perImageStandardization),
  cropToBoundingBox: composite(['image.cropToBoundingBox'], cropToBoundingBox),
  padToBoundingBox: composite(['image.padToBoundingBox'], padToBoundingBox),
  centralCrop: composite(['image.centralCrop'], centralCrop),
};
