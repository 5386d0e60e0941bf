// Harness cases for the tf.image composites of issue 11 (flips, rot90, transpose, color, standardization, crops, pads,
// cropAndResize, extractPatches), against index-by-index float64 references.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec, TfCall, tfFloat, tfTensor as T } from './case';
import { Ref, sizeOf, unravel } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
const TF_image_adjustBrightness: TfCall = { fn: 'tf.image.adjust_brightness', cases: 'none', extra: [
    { name: 'delta 0.3', args: [IN.t2x2x3_2, 0.3] },
  ] };
const TF_image_adjustContrast: TfCall = { fn: 'tf.image.adjust_contrast', cases: 'none', extra: [
    { name: 'factor 1.7 (TF has no gradient)', args: [IN.t1x3x4x2, 1.7], grad: false },
  ] };
const TF_image_centralCrop: TfCall = { fn: 'tf.image.central_crop', cases: 'none', extra: [
    { name: '0.5', args: [IN.t3x4x1, 0.5] },
    { name: '0.3 rank 4', args: [IN.t1x3x4x2, 0.3] },
  ] };
const TF_image_convertImageDtype: TfCall = { expr: 'lambda x, d, s=False: tf.image.convert_image_dtype(x, tf.as_dtype(d), saturate=s)', why: "ef's dtype string becomes a tf.DType", cases: 'none', extra: [
    { name: 'int32 -> float32', args: [T([0, 1073741824, 2147483647, -5], 'int32', [2, 2, 1]), 'float32'] },
    { name: 'float32 -> int32 saturated', args: [T([0, 0.25, 1, -1, 2]), 'int32', true], grad: false },
    { name: 'float32 -> int32 unsaturated (out of range wraps to INT_MIN)', args: [T([0, 0.25, 1, -1, 2]), 'int32'], grad: false },
    { name: 'float32 -> float32', args: [T([0.5, 0.25, -1, 2], undefined, [2, 2, 1]), 'float32'] },
  ] };
const TF_image_cropAndResize: TfCall = { fn: 'tf.image.crop_and_resize', cases: 'none', params: ['x', 'b', 'i', 's'], options: { method: ['method', 'bilinear'], extrapolation_value: ['extrapolationValue', tfFloat(0)] }, extra: [
    { name: 'bilinear', args: [IN.t1x3x4x2, IN.t3x4, T([0, 0, 0], 'int32'), [3, 2]] },
    { name: 'nearest, extrapolation 2', args: [IN.t1x3x4x2, IN.t3x4, T([0, 0, 0], 'int32'), [2, 3], { method: 'nearest', extrapolationValue: tfFloat(2) }] },
  ] };
const TF_image_cropToBoundingBox: TfCall = { fn: 'tf.image.crop_to_bounding_box', cases: 'none', extra: [
    { name: 'rank 4', args: [IN.t1x3x4x2, 1, 1, 2, 2] },
  ] };
const TF_image_extractPatches: TfCall = { fn: 'tf.image.extract_patches', cases: 'none', extra: [
    { name: 'VALID', args: [IN.t1x3x4x2, [1, 2, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], 'VALID'] },
    { name: 'SAME rates 2', args: [IN.t1x3x4x2, [1, 2, 2, 1], [1, 2, 3, 1], [1, 2, 2, 1], 'SAME'] },
  ] };
const TF_image_flipLeftRight: TfCall = { fn: 'tf.image.flip_left_right', cases: 'none', extra: [
    { name: 'rank 4', args: [IN.t1x3x4x2] },
    { name: 'rank 3', args: [IN.t3x4x1] },
  ] };
const TF_image_flipUpDown: TfCall = { fn: 'tf.image.flip_up_down', cases: 'none', extra: [
    { name: 'rank 4', args: [IN.t1x3x4x2] },
    { name: 'rank 3', args: [IN.t3x4x1] },
  ] };
const TF_image_grayscaleToRgb: TfCall = { fn: 'tf.image.grayscale_to_rgb', cases: 'none', extra: [
    { name: '3x4', args: [IN.t3x4x1] },
  ] };
const TF_image_nonMaxSuppression: TfCall = { fn: 'tf.image.non_max_suppression', cases: 'none', params: ['b', 's', 'm'], options: { iou_threshold: ['iouThreshold', 0.5], score_threshold: ['scoreThreshold', -Infinity] }, extra: [
    { name: 'iou 0.5', args: [IN.t6x4, T([0.9, 0.75, 0.6, 0.95, 0.5, 0.3]), 4], grad: false },
    { name: 'iou 0.9 score 0.55', args: [IN.t6x4, T([0.9, 0.75, 0.6, 0.95, 0.5, 0.3]), 10, { iouThreshold: 0.9, scoreThreshold: 0.55 }], grad: false },
  ] };
const TF_image_nonMaxSuppressionPadded: TfCall = { fn: 'tf.image.non_max_suppression_padded', cases: 'none', params: ['b', 's', 'm'], options: { pad_to_max_output_size: ['padToMaxOutputSize', false], iou_threshold: ['iouThreshold', 0.5], score_threshold: ['scoreThreshold', -Infinity] }, extra: [
    { name: 'padded', args: [IN.t6x4, T([0.9, 0.75, 0.6, 0.95, 0.5, 0.3]), 5, { scoreThreshold: 0.4, padToMaxOutputSize: true }], grad: false },
  ] };
const TF_image_nonMaxSuppressionWithScores: TfCall = { fn: 'tf.image.non_max_suppression_with_scores', cases: 'none', params: ['b', 's', 'm'], options: { soft_nms_sigma: ['softNmsSigma', tfFloat(0)], iou_threshold: ['iouThreshold', 0.5], score_threshold: ['scoreThreshold', -Infinity] }, extra: [
    { name: 'hard', args: [IN.t6x4, T([0.9, 0.75, 0.6, 0.95, 0.5, 0.3]), 5], grad: false },
    { name: 'soft sigma 0.5', args: [IN.t6x4, T([0.9, 0.75, 0.6, 0.95, 0.5, 0.3]), 6, { iouThreshold: tfFloat(1), scoreThreshold: 0.1, softNmsSigma: 0.5 }], grad: false },
  ] };
const TF_image_padToBoundingBox: TfCall = { fn: 'tf.image.pad_to_bounding_box', cases: 'none', extra: [
    { name: 'rank 3', args: [IN.t3x4x1, 1, 2, 5, 7] },
  ] };
const TF_image_perImageStandardization: TfCall = { fn: 'tf.image.per_image_standardization', cases: 'none', extra: [
    { name: 'rank 4', args: [IN.t1x3x4x2] },
    { name: 'constant image', args: [T([3, 3, 3, 3], undefined, [2, 2, 1])] },
  ] };
const TF_image_rgbToGrayscale: TfCall = { fn: 'tf.image.rgb_to_grayscale', cases: 'none', extra: [
    { name: '2x2', args: [IN.t2x2x3_2] },
  ] };
const TF_image_rot90: TfCall = { fn: 'tf.image.rot90', cases: 'none', params: ['x', ['k', 1]], extra: [
    { name: 'k 1', args: [IN.t1x3x4x2] },
    { name: 'k 2', args: [IN.t3x4x1, 2] },
    { name: 'k 3', args: [IN.t1x3x4x2, 3] },
    { name: 'k -1', args: [IN.t3x4x1, -1] },
  ] };
const TF_image_transpose: TfCall = { fn: 'tf.image.transpose', cases: 'none', extra: [
    { name: 'rank 4', args: [IN.t1x3x4x2] },
    { name: 'rank 3', args: [IN.t3x4x1] },
  ] };

const F = (shape: number[]): InputSpec => ({ shape, gen: 'normal' });
const build = (shape: number[], f: (idx: number[]) => number): Ref => new Ref(shape, Array.from({ length: sizeOf(shape) }, (_, i) => f(unravel(i, shape))), 'float32');
const at = (x: Ref, idx: number[]): number => {
  let flat = 0;
  for (let i = 0; i < idx.length; i++) flat = flat * x.shape[i] + idx[i];
  return x.num(flat);
};

/** Per image (leading batch axis of a rank-4 Ref): mean and population std over every other axis. */
function stats(x: Ref, b: number, per = 1): [number, number] {
  const n = x.size / per;
  const vals = x.data.slice(b * n, (b + 1) * n).map(Number);
  const mean = vals.reduce((s, v) => s + v, 0) / n;
  return [mean, Math.sqrt(vals.reduce((s, v) => s + (v - mean) ** 2, 0) / n)];
}

/** TF's CropAndResize in float64 for one box coordinate axis: source position of output index i. */
function source(lo: number, hi: number, size: number, extent: number, i: number): number {
  return size > 1 ? lo * (extent - 1) + i * ((hi - lo) * (extent - 1)) / (size - 1) : 0.5 * (lo + hi) * (extent - 1);
}

function cropAndResizeRef(img: Ref, boxes: Ref, ind: Ref, [ch, cw]: [number, number], method: 'bilinear' | 'nearest', extrapolation: number): Ref {
  const [, h, w, c] = img.shape;
  return build([boxes.shape[0], ch, cw, c], ([n, i, j, k]) => {
    const [y1, x1, y2, x2] = [0, 1, 2, 3].map((q) => at(boxes, [n, q]));
    const b = ind.num(n);
    const y = source(y1, y2, ch, h, i);
    const x = source(x1, x2, cw, w, j);
    if (y < 0 || y > h - 1 || x < 0 || x > w - 1) return extrapolation;
    if (method === 'nearest') return at(img, [b, Math.round(y), Math.round(x), k]);
    const [t, bt, l, r] = [Math.floor(y), Math.ceil(y), Math.floor(x), Math.ceil(x)];
    const [yl, xl] = [y - t, x - l];
    const top = at(img, [b, t, l, k]) * (1 - xl) + at(img, [b, t, r, k]) * xl;
    const bottom = at(img, [b, bt, l, k]) * (1 - xl) + at(img, [b, bt, r, k]) * xl;
    return top * (1 - yl) + bottom * yl;
  });
}

function patchesRef(x: Ref, [kh, kw]: number[], [sh, sw]: number[], [rh, rw]: number[], same: boolean): Ref {
  const [bn, h, w, c] = x.shape;
  const [eh, ew] = [(kh - 1) * rh + 1, (kw - 1) * rw + 1];
  const [oh, ow] = same ? [Math.ceil(h / sh), Math.ceil(w / sw)] : [Math.ceil((h - eh + 1) / sh), Math.ceil((w - ew + 1) / sw)];
  const [pt, pl] = same ? [Math.floor(Math.max((oh - 1) * sh + eh - h, 0) / 2), Math.floor(Math.max((ow - 1) * sw + ew - w, 0) / 2)] : [0, 0];
  return build([bn, oh, ow, kh * kw * c], ([b, i, j, d]) => {
    const [a, rest] = [Math.floor(d / (kw * c)), d % (kw * c)];
    const [q, k] = [Math.floor(rest / c), rest % c];
    const [y, xx] = [i * sh + a * rh - pt, j * sw + q * rw - pl];
    return y < 0 || y >= h || xx < 0 || xx >= w ? 0 : at(x, [b, y, xx, k]);
  });
}

/** Greedy hard NMS in float64 (TF's rules: score > threshold kept, IoU > threshold suppressed, ties by index). */
function nmsRef(boxes: Ref, scores: Ref, max: number, iou: number, scoreT: number): number[] {
  const box = (i: number): number[] => {
    const [y1, x1, y2, x2] = [0, 1, 2, 3].map((q) => at(boxes, [i, q]));
    return [Math.min(y1, y2), Math.min(x1, x2), Math.max(y1, y2), Math.max(x1, x2)];
  };
  const overlap = (a: number[], b: number[]): number => {
    const inter = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
    const area = (r: number[]): number => (r[2] - r[0]) * (r[3] - r[1]);
    return inter <= 0 ? 0 : inter / (area(a) + area(b) - inter);
  };
  const order = Array.from({ length: scores.size }, (_, i) => i).filter((i) => scores.num(i) > scoreT).sort((a, b) => scores.num(b) - scores.num(a) || a - b);
  const kept: number[] = [];
  for (const i of order) if (kept.length < max && kept.every((k) => overlap(box(k), box(i)) <= iou)) kept.push(i);
  return kept;
}
const NMS_BOXES: InputSpec = { shape: [6, 4], values: [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9, 0, 10, 1, 11, 0, 10.1, 1, 11.1, 1, 101, 0, 100] };
const NMS_SCORES: InputSpec = { shape: [6], values: [0.9, 0.75, 0.6, 0.95, 0.5, 0.3] };
const I32 = (v: number[]): Ref => new Ref([v.length], v, 'int32');
const DYNAMIC = "the converter's NonMaxSuppression ops are dynamic: the harness's execute() refuses them (executeAsync would run them)";

const BOXES: InputSpec = { shape: [3, 4], values: [0.1, 0.2, 0.8, 0.9, 0.45, -0.2, 1.3, 0.6, 0.9, 0.7, 0.2, 0.1] };
const BIDX: InputSpec = { shape: [3], dtype: 'int32', values: [0, 1, 1] };

export const image2Cases: ForwardCase[] = [
  { prim: 'reverse', api: 'image.flipLeftRight', tfCall: TF_image_flipLeftRight, name: 'flipLeftRight rank 3', inputs: [F([3, 4, 2])], op: (x) => ef.image.flipLeftRight(x), ref: (x) => build([3, 4, 2], ([i, j, c]) => at(x, [i, 3 - j, c])), tfOps: ['ReverseV2'] },
  { prim: 'reverse', api: 'image.flipUpDown', tfCall: TF_image_flipUpDown, name: 'flipUpDown rank 4', inputs: [F([2, 3, 4, 1])], op: (x) => ef.image.flipUpDown(x), ref: (x) => build([2, 3, 4, 1], ([b, i, j, c]) => at(x, [b, 2 - i, j, c])), tfOps: ['ReverseV2'] },
  { prim: 'transpose', api: 'image.transpose', tfCall: TF_image_transpose, name: 'image.transpose rank 4', inputs: [F([2, 3, 4, 1])], op: (x) => ef.image.transpose(x), ref: (x) => build([2, 4, 3, 1], ([b, i, j, c]) => at(x, [b, j, i, c])), tfOps: ['Transpose'] },
  { prim: 'reverse', api: 'image.rot90', tfCall: TF_image_rot90, name: 'rot90 k=1 rank 3', inputs: [F([3, 4, 1])], op: (x) => ef.image.rot90(x), ref: (x) => build([4, 3, 1], ([i, j, c]) => at(x, [j, 3 - i, c])), tfOps: ['ReverseV2', 'Transpose'] },
  { prim: 'reverse', api: 'image.rot90', tfCall: TF_image_rot90, name: 'rot90 k=2 rank 4', inputs: [F([1, 2, 3, 2])], op: (x) => ef.image.rot90(x, 2), ref: (x) => build([1, 2, 3, 2], ([b, i, j, c]) => at(x, [b, 1 - i, 2 - j, c])), tfOps: ['ReverseV2'] },
  { prim: 'reverse', api: 'image.rot90', tfCall: TF_image_rot90, name: 'rot90 k=-1 (= 3) rank 3', inputs: [F([2, 3, 1])], op: (x) => ef.image.rot90(x, -1), ref: (x) => build([3, 2, 1], ([i, j, c]) => at(x, [1 - j, i, c])), tfOps: ['ReverseV2', 'Transpose'] },
  { prim: 'sum', api: 'image.rgbToGrayscale', tfCall: TF_image_rgbToGrayscale, name: 'rgbToGrayscale', inputs: [F([2, 3, 3])], op: (x) => ef.image.rgbToGrayscale(x), ref: (x) => build([2, 3, 1], ([i, j]) => 0.2989 * at(x, [i, j, 0]) + 0.587 * at(x, [i, j, 1]) + 0.114 * at(x, [i, j, 2])), rtol: 1e-5 },
  { prim: 'tile', api: 'image.grayscaleToRgb', tfCall: TF_image_grayscaleToRgb, name: 'grayscaleToRgb', inputs: [F([2, 2, 1])], op: (x) => ef.image.grayscaleToRgb(x), ref: (x) => build([2, 2, 3], ([i, j]) => at(x, [i, j, 0])), tfOps: ['Tile'] },
  { prim: 'add', api: 'image.adjustBrightness', tfCall: TF_image_adjustBrightness, name: 'adjustBrightness', inputs: [F([2, 3, 3])], op: (x) => ef.image.adjustBrightness(x, 0.3), ref: (x) => build([2, 3, 3], (idx) => at(x, idx) + 0.3), tfOps: ['AddV2'] },
  { prim: 'mul', api: 'image.convertImageDtype', tfCall: TF_image_convertImageDtype, name: 'convertImageDtype int32 -> float32 (scaled by 1 / (2^31 - 1))', inputs: [{ shape: [2, 2, 1], dtype: 'int32', values: [0, 1073741824, 2147483647, -5] }], op: (x) => ef.image.convertImageDtype(x, 'float32'), ref: (x) => build([2, 2, 1], (idx) => at(x, idx) / 2147483647), tfOps: ['Cast', 'Mul'] },
  { prim: 'cast', api: 'image.convertImageDtype', tfCall: TF_image_convertImageDtype, name: 'convertImageDtype float32 -> int32, saturated', inputs: [{ shape: [5], values: [0, 0.25, 1, -1, 2] }], op: (x) => ef.image.convertImageDtype(x, 'int32', true), ref: () => new Ref([5], [0, 536870912, 2147483520, -2147483648, 2147483520], 'int32'), grad: false },
  { prim: 'identity', api: 'image.convertImageDtype', tfCall: TF_image_convertImageDtype, name: 'convertImageDtype float32 -> float32 is the image', inputs: [F([2, 2, 3])], op: (x) => ef.image.convertImageDtype(x, 'float32'), ref: (x) => build([2, 2, 3], (idx) => at(x, idx)) },
  { prim: 'sub', api: 'image.adjustContrast', tfCall: TF_image_adjustContrast, name: 'adjustContrast rank 4', inputs: [F([2, 3, 4, 2])], op: (x) => ef.image.adjustContrast(x, 1.7), ref: (x) => build([2, 3, 4, 2], ([b, i, j, c]) => { let m = 0; for (let p = 0; p < 3; p++) for (let q = 0; q < 4; q++) m += at(x, [b, p, q, c]) / 12; return (at(x, [b, i, j, c]) - m) * 1.7 + m; }), rtol: 1e-5, atol: 1e-6 },
  { prim: 'sqrt', api: 'image.perImageStandardization', tfCall: TF_image_perImageStandardization, name: 'perImageStandardization rank 4', inputs: [F([2, 3, 4, 2])], op: (x) => ef.image.perImageStandardization(x), ref: (x) => build([2, 3, 4, 2], (idx) => { const [m, s] = stats(x, idx[0], 2); return (at(x, idx) - m) / Math.max(s, 1 / Math.sqrt(24)); }), rtol: 1e-4, atol: 1e-5 },
  { prim: 'slice', api: 'image.centralCrop', tfCall: TF_image_centralCrop, name: 'centralCrop 0.5 of 5x7', inputs: [F([5, 7, 2])], op: (x) => ef.image.centralCrop(x, 0.5), ref: (x) => build([3, 5, 2], ([i, j, c]) => at(x, [i + 1, j + 1, c])) },
  { prim: 'slice', api: 'image.cropToBoundingBox', tfCall: TF_image_cropToBoundingBox, name: 'cropToBoundingBox rank 4', inputs: [F([2, 3, 4, 1])], op: (x) => ef.image.cropToBoundingBox(x, 1, 1, 2, 2), ref: (x) => build([2, 2, 2, 1], ([b, i, j, c]) => at(x, [b, i + 1, j + 1, c])), tfOps: ['Slice'] },
  { prim: 'pad', api: 'image.padToBoundingBox', tfCall: TF_image_padToBoundingBox, name: 'padToBoundingBox rank 3', inputs: [F([3, 4, 2])], op: (x) => ef.image.padToBoundingBox(x, 1, 2, 5, 7), ref: (x) => build([5, 7, 2], ([i, j, c]) => (i >= 1 && i < 4 && j >= 2 && j < 6 ? at(x, [i - 1, j - 2, c]) : 0)), tfOps: ['Pad'] },
  { prim: 'gather', api: 'image.cropAndResize', tfCall: TF_image_cropAndResize, name: 'cropAndResize bilinear (image and boxes differentiable)', inputs: [F([2, 3, 4, 2]), BOXES, BIDX], op: (x, b, i) => ef.image.cropAndResize(x, b, i, [3, 2]), ref: (x, b, i) => cropAndResizeRef(x, b, i, [3, 2], 'bilinear', 0), grad: [0, 1], tfOps: ['GatherV2'], rtol: 1e-4, atol: 1e-5 },
  { prim: 'gather', api: 'image.cropAndResize', tfCall: TF_image_cropAndResize, name: 'cropAndResize nearest, extrapolation 2', inputs: [F([2, 3, 4, 1]), BOXES, BIDX], op: (x, b, i) => ef.image.cropAndResize(x, b, i, [2, 3], { method: 'nearest', extrapolationValue: 2 }), ref: (x, b, i) => cropAndResizeRef(x, b, i, [2, 3], 'nearest', 2), grad: [0] },
  { prim: 'gather', api: 'image.extractPatches', tfCall: TF_image_extractPatches, name: 'extractPatches VALID 2x3 stride [2, 1]', inputs: [F([1, 5, 6, 2])], op: (x) => ef.image.extractPatches(x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1], 'VALID'), ref: (x) => patchesRef(x, [2, 3], [2, 1], [1, 1], false) },
  { prim: 'gather', api: 'image.extractPatches', tfCall: TF_image_extractPatches, name: 'extractPatches SAME rates 2', inputs: [F([2, 5, 6, 1])], op: (x) => ef.image.extractPatches(x, [1, 2, 2, 1], [1, 2, 3, 1], [1, 2, 2, 1], 'SAME'), ref: (x) => patchesRef(x, [2, 2], [2, 3], [2, 2], true) },
  { prim: 'non_max_suppression', api: 'image.nonMaxSuppression', tfCall: TF_image_nonMaxSuppression, name: 'nonMaxSuppression iou 0.5 (a flipped box)', inputs: [NMS_BOXES, NMS_SCORES], op: (b, sc) => ef.image.nonMaxSuppression(b, sc, 4), ref: (b, sc) => I32(nmsRef(b, sc, 4, 0.5, -Infinity)), grad: false, tfOps: ['NonMaxSuppressionV3'], noConverter: DYNAMIC },
  { prim: 'non_max_suppression', api: 'image.nonMaxSuppression', tfCall: TF_image_nonMaxSuppression, name: 'nonMaxSuppression iou 0.9, score 0.55, max 2', inputs: [NMS_BOXES, NMS_SCORES], op: (b, sc) => ef.image.nonMaxSuppression(b, sc, 2, { iouThreshold: 0.9, scoreThreshold: 0.55 }), ref: (b, sc) => I32(nmsRef(b, sc, 2, 0.9, 0.55)), grad: false, tfOps: ['NonMaxSuppressionV3'], noConverter: DYNAMIC },
  { prim: 'non_max_suppression_with_scores', api: 'image.nonMaxSuppressionWithScores', tfCall: TF_image_nonMaxSuppressionWithScores, name: 'nonMaxSuppressionWithScores (hard)', inputs: [NMS_BOXES, NMS_SCORES], op: (b, sc) => { const r = ef.image.nonMaxSuppressionWithScores(b, sc, 5); return { selectedIndices: r.selectedIndices, selectedScores: r.selectedScores }; }, ref: (b, sc) => { const k = nmsRef(b, sc, 5, 0.5, -Infinity); return { selectedIndices: I32(k), selectedScores: new Ref([k.length], k.map((i) => sc.num(i)), 'float32') }; }, grad: false, tfOps: ['NonMaxSuppressionV5'], noConverter: DYNAMIC },
  { prim: 'non_max_suppression_padded', api: 'image.nonMaxSuppressionPadded', tfCall: TF_image_nonMaxSuppressionPadded, name: 'nonMaxSuppressionPadded to 5', inputs: [NMS_BOXES, NMS_SCORES], op: (b, sc) => { const r = ef.image.nonMaxSuppressionPadded(b, sc, 5, { scoreThreshold: 0.4, padToMaxOutputSize: true }); return { selectedIndices: r.selectedIndices, validOutputs: r.validOutputs }; }, ref: (b, sc) => { const k = nmsRef(b, sc, 5, 0.5, 0.4); return { selectedIndices: I32([...k, ...new Array<number>(5 - k.length).fill(0)]), validOutputs: new Ref([], [k.length], 'int32') }; }, grad: false, tfOps: ['NonMaxSuppressionV4'], noConverter: DYNAMIC },
];

const e = (prim: ErrorCase['prim'], api: string, name: string, inputs: InputSpec[], run: ErrorCase['run'], op: string, got: string, expected: string): ErrorCase => ({ prim, api, name, inputs, run, op, got, expected });

export const image2Errors: ErrorCase[] = [
  e('reverse', 'image.flipLeftRight', 'flipLeftRight of a matrix', [F([2, 3])], (x) => ef.image.flipLeftRight(x), 'image.flipLeftRight', 'shape [2,3]', 'rank 3 or 4'),
  e('reverse', 'image.rot90', 'rot90 with a fractional k', [F([2, 2, 1])], (x) => ef.image.rot90(x, 0.5), 'image.rot90', '0.5', 'an integer'),
  e('sum', 'image.rgbToGrayscale', 'rgbToGrayscale of 4 channels', [F([2, 2, 4])], (x) => ef.image.rgbToGrayscale(x), 'image.rgbToGrayscale', '[2,2,4]', '(..., 3)'),
  e('tile', 'image.grayscaleToRgb', 'grayscaleToRgb of 3 channels', [F([2, 2, 3])], (x) => ef.image.grayscaleToRgb(x), 'image.grayscaleToRgb', '[2,2,3]', '(..., 1)'),
  e('add', 'image.adjustBrightness', 'adjustBrightness of int32 images', [{ shape: [1, 2, 1], dtype: 'int32', gen: 'int' }], (x) => ef.image.adjustBrightness(x, 1), 'image.adjustBrightness', 'int32', 'float32'),
  { ...e('cast', 'image.convertImageDtype', 'convertImageDtype to uint8 (no tfjs dtype)', [F([1, 1, 1])], (x) => ef.image.convertImageDtype(x, 'uint8' as 'int32'), 'image.convertImageDtype', '"uint8"', "'float32' or 'int32'"), cls: ef.errors.UnimplementedError },
  e('cast', 'image.convertImageDtype', 'convertImageDtype of a bool image', [{ shape: [1, 1, 1], dtype: 'bool', gen: 'bool' }], (x) => ef.image.convertImageDtype(x, 'float32'), 'image.convertImageDtype', 'bool', 'float32 or int32'),
  e('sub', 'image.adjustContrast', 'adjustContrast of a vector', [F([4])], (x) => ef.image.adjustContrast(x, 2), 'image.adjustContrast', 'shape [4]', 'rank 3 or 4'),
  e('sqrt', 'image.perImageStandardization', 'perImageStandardization of a matrix', [F([2, 2])], (x) => ef.image.perImageStandardization(x), 'image.perImageStandardization', 'shape [2,2]', 'rank 3 or 4'),
  e('slice', 'image.centralCrop', 'centralCrop fraction 0', [F([4, 4, 1])], (x) => ef.image.centralCrop(x, 0), 'image.centralCrop', '0', 'a number in (0, 1]'),
  e('slice', 'image.cropToBoundingBox', 'cropToBoundingBox outside the image', [F([3, 3, 1])], (x) => ef.image.cropToBoundingBox(x, 2, 0, 2, 2), 'image.cropToBoundingBox', 'offset (2, 0) + target (2, 2) for a 3x3 image', 'offset + target <= image size'),
  e('pad', 'image.padToBoundingBox', 'padToBoundingBox target too small', [F([3, 3, 1])], (x) => ef.image.padToBoundingBox(x, 1, 0, 3, 3), 'image.padToBoundingBox', 'offset (1, 0) + image 3x3 in a 3x3 target', 'target >= offset + image size'),
  e('gather', 'image.cropAndResize', 'cropAndResize boxes of 3 coordinates', [F([1, 2, 2, 1]), F([2, 3]), { shape: [2], dtype: 'int32', values: [0, 0] }], (x, b, i) => ef.image.cropAndResize(x, b, i, [2, 2]), 'image.cropAndResize', '[2,3]', '[numBoxes, 4]'),
  e('gather', 'image.cropAndResize', 'cropAndResize unknown method', [F([1, 2, 2, 1]), F([1, 4]), { shape: [1], dtype: 'int32', values: [0] }], (x, b, i) => ef.image.cropAndResize(x, b, i, [2, 2], { method: 'bicubic' as 'nearest' }), 'image.cropAndResize', '"bicubic"', "'bilinear' or 'nearest'"),
  e('gather', 'image.cropAndResize', 'cropAndResize cropSize 0', [F([1, 2, 2, 1]), F([1, 4]), { shape: [1], dtype: 'int32', values: [0] }], (x, b, i) => ef.image.cropAndResize(x, b, i, [0, 2]), 'image.cropAndResize', 'array of length 2', '[h, w] with h, w >= 1'),
  e('non_max_suppression', 'image.nonMaxSuppression', 'nonMaxSuppression boxes of 3 coordinates', [F([2, 3]), F([2])], (b, sc) => ef.image.nonMaxSuppression(b, sc, 1), 'image.nonMaxSuppression', '[2,3]', '[numBoxes, 4]'),
  e('non_max_suppression', 'image.nonMaxSuppression', 'nonMaxSuppression iouThreshold 2', [F([2, 4]), F([2])], (b, sc) => ef.image.nonMaxSuppression(b, sc, 1, { iouThreshold: 2 }), 'image.nonMaxSuppression', '2', 'a number in [0, 1]'),
  e('non_max_suppression_with_scores', 'image.nonMaxSuppressionWithScores', 'nonMaxSuppressionWithScores score count', [F([2, 4]), F([3])], (b, sc) => ef.image.nonMaxSuppressionWithScores(b, sc, 1).selectedIndices, 'image.nonMaxSuppressionWithScores', '[2,4] and [3]', 'one score per box'),
  e('non_max_suppression_padded', 'image.nonMaxSuppressionPadded', 'nonMaxSuppressionPadded negative maxOutputSize', [F([2, 4]), F([2])], (b, sc) => ef.image.nonMaxSuppressionPadded(b, sc, -1).selectedIndices, 'image.nonMaxSuppressionPadded', '-1', 'an integer >= 0'),
  e('gather', 'image.extractPatches', 'extractPatches bad padding', [F([1, 3, 3, 1])], (x) => ef.image.extractPatches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], 'FULL' as 'SAME'), 'image.extractPatches', '"FULL"', "'SAME' or 'VALID'"),
  e('gather', 'image.extractPatches', 'extractPatches sizes not [1, a, b, 1]', [F([1, 3, 3, 1])], (x) => ef.image.extractPatches(x, [2, 2], [1, 1, 1, 1], [1, 1, 1, 1], 'VALID'), 'image.extractPatches', 'array of length 2', '[1, a, b, 1]'),
];
