// tf.image resampling composites built from gathers: cropAndResize (bilinear/nearest, differentiable in the image and the
// boxes like TF's CropAndResizeGradImage/Boxes) and extractPatches (TF's ExtractImagePatches layout).
import { composites } from '../api_spec';
import type { TensorLike } from '../../values/convert';
import { convert } from '../../values/convert';
import { tidy } from '../../backend/memory';
import type { Tensor } from '../../values/tensor';
import { describe } from '../../values/dtype';
import * as o from '../ops';
import * as BM from '../math/unary_functions';
import { Dim, dim, dimsOf, isKnown, padBy, rangeOf, reshapeTo, withRank, withLastDim } from '../array/symbolic_dims';
import { argError } from '../check';
import { dimsToString } from '../../values/shape';
import { bind } from '../bind';
import { releasing } from '../op_builder';
import type { Primitive } from '../primitive';
import { nonMaxSuppressionPadded as nmsPadded, nonMaxSuppressionWithScores as nmsScores } from './nms';

const floor: (x: TensorLike) => Tensor = o.wrapperOf(BM.floor);
const ceil: (x: TensorLike) => Tensor = o.wrapperOf(BM.ceil);

function staticImage(op: string, x: TensorLike): { t: Tensor; b: number; h: number; w: number; c: number } {
  const t = convert(op, x, 'float32').t;
  const d = t.dims;
  if (d === null || d.length !== 4) throw argError(op, 'images must be rank 4 ([batch, height, width, channels])', d === null ? 'unknown rank' : `shape ${dimsToString(d)}`, 'rank 4', 'Add a batch axis with ef.expandDims(image, 0).');
  if (d.some((v) => v === null)) throw argError(op, 'the image dims must be known', dimsToString(d), 'static sizes', 'Give the traced input a TensorSpec with its dims set.');
  if (t.dtype !== 'float32') throw argError(op, 'images must be float32', t.dtype, 'float32', "Cast first: ef.cast(images, 'float32').");
  const [b, h, w, c] = d as number[];
  return { t, b, h, w, c };
}

function pairOf(op: string, name: string, v: unknown, min: number): [number, number] {
  if (!Array.isArray(v) || v.length !== 2 || v.some((n) => typeof n !== 'number' || !Number.isInteger(n) || n < min)) {
    throw argError(op, `${name} must be two integers >= ${min}`, describe(v), `[h, w] with h, w >= ${min}`, `Pass e.g. [2, 2] for ${name}.`);
  }
  return v as [number, number];
}

/**
 * An image extent: static, or a run-time float32 scalar (an image traced with unknown dims). `last` is extent - 1;
 * float32 arithmetic on these integers rounds as the static path's doubles rounded to float32 do.
 */
type Extent = number | Tensor;
const last = (e: Extent): Extent => (typeof e === 'number' ? e - 1 : o.sub(e, 1));
const scaled = (e: Extent, f: number): Extent => (typeof e === 'number' ? f * (e - 1) : o.mul(o.sub(e, 1), f));
const over = (e: Extent, d: number): Extent => (typeof e === 'number' ? (e - 1) / d : o.div(o.sub(e, 1), d));

/** Source coordinates of the crop's rows (or columns) per box: [N, size] (TF's in_y / in_x). */
function coords(lo: Tensor, hi: Tensor, size: number, extent: Extent): Tensor {
  if (size === 1) return o.mul(o.add(lo, hi), scaled(extent, 0.5));
  const steps = o.reshape(o.range(0, size, 1, 'float32'), [1, size]);
  return o.add(o.mul(lo, last(extent)), o.mul(steps, o.mul(o.sub(hi, lo), over(extent, size - 1))));
}

const clipIndex = (v: Tensor, extent: Extent): Tensor => o.cast(o.clipByValue(v, 0, last(extent)), 'int32');

/** The image as [batch, h, w, c] with h, w, c static, or read at run time (unknown dims; an unknown rank is checked to be 4 then). */
function imageDims(op: string, x: TensorLike): { t: Tensor; h: Extent; w: Extent; hw: Extent; c: Extent } {
  const t0 = convert(op, x, 'float32').t;
  const d = t0.dims;
  if (d !== null && d.length === 4 && d.slice(1).some((v) => v === null)) {
    if (t0.dtype !== 'float32') throw argError(op, 'images must be float32', t0.dtype, 'float32', "Cast first: ef.cast(images, 'float32').");
  } else if (d !== null && d.length === 4 && d[0] === null) {
    // Only the batch is unknown: h, w and c are static (the batch is never read).
    if (t0.dtype !== 'float32') throw argError(op, 'images must be float32', t0.dtype, 'float32', "Cast first: ef.cast(images, 'float32').");
    const [h, w, c] = d.slice(1) as number[];
    return { t: t0, h, w, hw: h * w, c };
  } else if (d !== null) {
    const { t, h, w, c } = staticImage(op, t0);
    return { t, h, w, hw: h * w, c };
  }
  // A reshape of the shape vector to [4] raises when the graph runs for another rank, and gives the image rank 4.
  const t = d === null ? o.reshapeWith(t0, o.reshape(o.shapeOf(t0), [4])) : t0;
  const at = (i: number): Tensor => o.reshape(o.slice(o.shapeOf(t), [i], [1]), []);
  const [hi, wi] = [at(1), at(2)];
  return { t, h: o.cast(hi, 'float32'), w: o.cast(wi, 'float32'), hw: o.mul(hi, wi), c: at(3) };
}

/**
 * cropAndResize(image, boxes, boxIndices, cropSize, {method, extrapolationValue}): crops of normalized boxes
 * [y1, x1, y2, x2] from `image` [batch, h, w, c], resampled to cropSize ([numBoxes, cropH, cropW, c]); samples outside the
 * image take extrapolationValue. Differentiable in the image and in the boxes (bilinear).
 * @example ef.image.cropAndResize([[[[1], [2]], [[3], [4]]]], [[0, 0, 1, 1]], [0], [1, 1]).arraySync(); // [[[[2.5]]]]
 */
function cropAndResize(image: TensorLike, boxes: TensorLike, boxIndices: TensorLike, cropSize: [number, number], options: { method?: 'bilinear' | 'nearest'; extrapolationValue?: number } = {}): Tensor {
  const op = 'image.cropAndResize';
  const [ch, cw] = pairOf(op, 'cropSize', cropSize, 1);
  const method = options.method ?? 'bilinear';
  if (method !== 'bilinear' && method !== 'nearest') throw argError(op, 'unsupported method', describe(method), "'bilinear' or 'nearest'", "Pass method: 'bilinear' or 'nearest'.");
  const extrapolation = options.extrapolationValue ?? 0;
  if (typeof extrapolation !== 'number') throw argError(op, 'extrapolationValue must be a number', describe(extrapolation), 'a number', 'Pass e.g. 0.');
  return tidy(() => {
    const { t, h, w, hw, c } = imageDims(op, image);
    let bx = convert(op, boxes, 'float32').t;
    let bi = convert(op, boxIndices, 'int32').t;
    if (bx.dims === null || bi.dims === null || (bx.dims.length === 2 && bx.dims[1] === null) || (bx.dims.length === 2 && bi.dims.length === 1 && (bx.dims[0] === null || bi.dims[0] === null))) [bx, bi] = checkedBoxes(bx, bi);
    const bd = bx.dims;
    if (bd === null || bd.length !== 2 || bd[1] !== 4) throw argError(op, 'boxes must be [numBoxes, 4]', dimsToString(bd), '[numBoxes, 4]', 'Pass one [y1, x1, y2, x2] row per box.');
    if (bx.dtype !== 'float32') throw argError(op, 'boxes must be float32', bx.dtype, 'float32', "Cast them: ef.cast(boxes, 'float32').");
    if (bi.dtype !== 'int32') throw argError(op, 'boxIndices must be int32', bi.dtype, 'int32', "Cast them: ef.cast(boxIndices, 'int32').");
    const id = bi.dims;
    if (id === null || id.length !== 1 || (id[0] !== null && bd[0] !== null && id[0] !== bd[0])) throw argError(op, 'boxIndices must be [numBoxes]', `${dimsToString(id)} for boxes ${dimsToString(bd)}`, `[${bd[0] ?? 'numBoxes'}]`, 'Pass one image index per box.');
    const col = (i: number): Tensor => o.slice(bx, [0, i], [-1, 1]);
    const ys = coords(col(0), col(2), ch, h);
    const xs = coords(col(1), col(3), cw, w);
    const inside = (v: Tensor, extent: Extent): Tensor => o.logicalAnd(o.greaterEqual(v, 0), o.lessEqual(v, last(extent)));
    const valid = o.logicalAnd(o.reshape(inside(ys, h), [-1, ch, 1, 1]), o.reshape(inside(xs, w), [-1, 1, cw, 1]));
    const flat = typeof c === 'number' ? o.reshape(t, [-1, c]) : o.reshapeWith(t, o.concat([o.ints([-1]), o.reshape(c, [1])], 0));
    const base = o.reshape(o.mul(bi, hw), [-1, 1, 1]);
    const wInt = typeof w === 'number' ? w : o.cast(w, 'int32');
    const take = (yi: Tensor, xi: Tensor): Tensor => o.gather(flat, o.add(o.add(base, o.expandDims(o.mul(yi, wInt), 2)), o.expandDims(xi, 1)), 0);
    let out: Tensor;
    if (method === 'nearest') {
      // std::round: half away from zero (in-range coordinates are non-negative).
      out = take(clipIndex(floor(o.add(ys, 0.5)), h), clipIndex(floor(o.add(xs, 0.5)), w));
    } else {
      const [y0, x0] = [floor(ys), floor(xs)];
      const [top, bottom, left, right] = [clipIndex(y0, h), clipIndex(ceil(ys), h), clipIndex(x0, w), clipIndex(ceil(xs), w)];
      const yl = o.expandDims(o.expandDims(o.sub(ys, y0), 2), 3);
      const xl = o.expandDims(o.expandDims(o.sub(xs, x0), 1), 3);
      const lerp = (a: Tensor, b: Tensor, f: Tensor): Tensor => o.add(a, o.mul(o.sub(b, a), f));
      out = lerp(lerp(take(top, left), take(top, right), xl), lerp(take(bottom, left), take(bottom, right), xl), yl);
    }
    return o.where(valid, out, o.fill([], extrapolation, 'float32'));
  });
}

/**
 * Boxes [N, 4] and box indices [N] of run-time shape, checked when the graph runs (TF's CropAndResize checks them
 * there): a rank forced by reshaping the shape vector, 4 columns, and as many indices as boxes (sliced both ways).
 */
function checkedBoxes(bx: Tensor, bi: Tensor): [Tensor, Tensor] {
  const b2 = bx.dims === null ? o.reshapeWith(bx, o.reshape(o.shapeOf(bx), [2])) : bx;
  const b4 = b2.dims !== null && b2.dims[1] === 4 ? b2 : o.reshape(withLastDim(b2, 4), [-1, 4]);
  const i1 = bi.dims === null ? o.reshapeWith(bi, o.reshape(o.shapeOf(bi), [1])) : bi;
  const n = o.slice(o.shapeOf(b4), [0], [1]);
  return [b4, o.sliceWith(o.sliceWith(i1, o.ints([0]), n), o.ints([0]), o.shapeOf(i1))];
}

/** TF's 4-element [1, a, b, 1] window arguments of extractPatches. */
function window4(op: string, name: string, v: unknown): [number, number] {
  if (!Array.isArray(v) || v.length !== 4 || v[0] !== 1 || v[3] !== 1 || v.some((n) => typeof n !== 'number' || !Number.isInteger(n) || n < 1)) {
    throw argError(op, `${name} must be [1, ${name}Rows, ${name}Cols, 1]`, describe(v), '[1, a, b, 1] with a, b >= 1', `Pass e.g. [1, 2, 2, 1] for ${name}.`);
  }
  return [v[1] as number, v[2] as number];
}

/**
 * extractPatches(images, sizes, strides, rates, padding): every [sizeRows, sizeCols] patch (dilated by rates) flattened
 * into the depth axis, as TF's ExtractImagePatches ([batch, outRows, outCols, sizeRows * sizeCols * channels]).
 * @example ef.image.extractPatches(ef.reshape(ef.range(4), [1, 2, 2, 1]), [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], 'VALID').arraySync(); // [[[[0, 1, 2, 3]]]]
 */
function extractPatches(images: TensorLike, sizes: number[], strides: number[], rates: number[], padding: 'SAME' | 'VALID'): Tensor {
  const op = 'image.extractPatches';
  const [kh, kw] = window4(op, 'sizes', sizes);
  const [sh, sw] = window4(op, 'strides', strides);
  const [rh, rw] = window4(op, 'rates', rates);
  const pad = typeof padding === 'string' ? padding.toUpperCase() : padding;
  if (pad !== 'SAME' && pad !== 'VALID') throw argError(op, 'unsupported padding', describe(padding), "'SAME' or 'VALID'", "Pass 'SAME' or 'VALID'.");
  return tidy(() => {
    const x = convert(op, images, 'float32').t;
    const d = x.dims;
    if (d !== null && d.length !== 4) throw argError(op, 'images must be rank 4 ([batch, height, width, channels])', `shape ${dimsToString(d)}`, 'rank 4', 'Add a batch axis with ef.expandDims(image, 0).');
    if (x.dtype !== 'float32') throw argError(op, 'images must be float32', x.dtype, 'float32', "Cast first: ef.cast(images, 'float32').");
    // One path for static and run-time sizes (Dims: symbolic_dims.ts): TF's output size and SAME padding, and the
    // patch gather indices (a constant list when the sizes are static, else broadcast run-time row and column positions).
    const t = withRank(x, 4);
    const [, h, w, c] = dimsOf(t);
    const [eh, ew] = [(kh - 1) * rh + 1, (kw - 1) * rw + 1];
    const out = (n: Dim, e: number, s: number): Dim => (pad === 'VALID' ? dim.max(dim.ceildiv(dim.sub(n, e - 1), s), 0) : dim.ceildiv(n, s));
    const [oh, ow] = [out(h, eh, sh), out(w, ew, sw)];
    const span = (on: Dim, e: number, s: number): Dim => dim.add(dim.mul(dim.sub(on, 1), s), e);
    const before = (n: Dim, e: number, s: number, on: Dim): Dim => (pad === 'VALID' ? 0 : dim.floordiv(dim.max(dim.sub(span(on, e, s), n), 0), 2));
    const [pt, pl] = [before(h, eh, sh, oh), before(w, ew, sw, ow)];
    const [hp, wp] = [dim.max(dim.add(h, pt), span(oh, eh, sh)), dim.max(dim.add(w, pl), span(ow, ew, sw))];
    const padded = padBy(t, [0, pt, pl, 0], [0, dim.sub(dim.sub(hp, h), pt), dim.sub(dim.sub(wp, w), pl), 0]);
    let idx: Tensor;
    if (isKnown(oh) && isKnown(ow) && isKnown(wp)) {
      const list: number[] = [];
      for (let i = 0; i < oh; i++) for (let j = 0; j < ow; j++) for (let a = 0; a < kh; a++) for (let b = 0; b < kw; b++) list.push((i * sh + a * rh) * wp + j * sw + b * rw);
      idx = convert(op, list, 'int32').t;
    } else {
      const rows = o.reshape(o.mul(rangeOf(oh), sh), [-1, 1, 1, 1]);
      const cols = o.reshape(o.mul(rangeOf(ow), sw), [1, -1, 1, 1]);
      const ka = o.reshape(o.ints(Array.from({ length: kh }, (_, i) => i * rh)), [1, 1, kh, 1]);
      const kb = o.reshape(o.ints(Array.from({ length: kw }, (_, i) => i * rw)), [1, 1, 1, kw]);
      idx = o.reshape(o.add(o.add(o.mul(o.add(rows, ka), dim.tensor(wp)), cols), kb), [-1]);
    }
    const taken = o.gather(reshapeTo(padded, [-1, dim.mul(hp, wp), c]), idx, 1);
    return reshapeTo(taken, [-1, oh, ow, dim.mul(c, kh * kw)]);
  });
}

export interface NmsOptions {
  iouThreshold?: number;
  scoreThreshold?: number;
}

function nmsParams(op: string, maxOutputSize: number, o: NmsOptions): { maxOutputSize: number; iouThreshold: number; scoreThreshold: number } {
  const num = (name: string, v: unknown, def: number): number => {
    if (v === undefined) return def;
    if (typeof v !== 'number') throw argError(op, `${name} must be a number`, describe(v), 'a number', `Pass a number for ${name}.`);
    return v;
  };
  if (typeof maxOutputSize !== 'number' || !Number.isInteger(maxOutputSize)) throw argError(op, 'maxOutputSize must be an integer', describe(maxOutputSize), 'an integer >= 0', 'Pass e.g. 10.');
  return { maxOutputSize, iouThreshold: num('iouThreshold', o.iouThreshold, 0.5), scoreThreshold: num('scoreThreshold', o.scoreThreshold, -Infinity) };
}

/**
 * nonMaxSuppressionWithScores(boxes, scores, maxOutputSize, {iouThreshold, scoreThreshold, softNmsSigma}):
 * `{selectedIndices, selectedScores}` (TF's NonMaxSuppressionV5; softNmsSigma > 0 decays overlapping scores).
 * @example ef.image.nonMaxSuppressionWithScores([[0, 0, 1, 1], [0, 0, 1, 0.9]], [0.9, 0.8], 2).selectedIndices.arraySync(); // [0]
 */
function nonMaxSuppressionWithScores(boxes: TensorLike, scores: TensorLike, maxOutputSize: number, options: NmsOptions & { softNmsSigma?: number } = {}): { selectedIndices: Tensor; selectedScores: Tensor } {
  const op = 'image.nonMaxSuppressionWithScores';
  const p = { ...nmsParams(op, maxOutputSize, options), softNmsSigma: options.softNmsSigma ?? 0 };
  const cs = [convert(op, boxes, 'float32'), convert(op, scores, 'float32')];
  return releasing(cs, () => {
    const [selectedIndices, selectedScores] = bind(nmsScores as Primitive, [cs[0].t, cs[1].t], p);
    return { selectedIndices, selectedScores };
  });
}

/**
 * nonMaxSuppressionPadded(boxes, scores, maxOutputSize, {iouThreshold, scoreThreshold, padToMaxOutputSize}):
 * `{selectedIndices, validOutputs}` (TF's NonMaxSuppressionV4: zero-padded to maxOutputSize when asked).
 * @example ef.image.nonMaxSuppressionPadded([[0, 0, 1, 1]], [0.9], 3, { padToMaxOutputSize: true }).selectedIndices.arraySync(); // [0, 0, 0]
 */
function nonMaxSuppressionPadded(boxes: TensorLike, scores: TensorLike, maxOutputSize: number, options: NmsOptions & { padToMaxOutputSize?: boolean } = {}): { selectedIndices: Tensor; validOutputs: Tensor } {
  const op = 'image.nonMaxSuppressionPadded';
  const pad = options.padToMaxOutputSize ?? false;
  if (typeof pad !== 'boolean') throw argError(op, 'padToMaxOutputSize must be a boolean', describe(pad), 'true or false', 'Pass padToMaxOutputSize: true or false.');
  const p = { ...nmsParams(op, maxOutputSize, options), padToMaxOutputSize: pad };
  const cs = [convert(op, boxes, 'float32'), convert(op, scores, 'float32')];
  return releasing(cs, () => {
    const [selectedIndices, validOutputs] = bind(nmsPadded as Primitive, [cs[0].t, cs[1].t], p);
    return { selectedIndices, validOutputs };
  });
}

export const IMAGE2_COMPOSITES = composites('image', { nonMaxSuppressionWithScores, nonMaxSuppressionPadded, cropAndResize, extractPatches });
