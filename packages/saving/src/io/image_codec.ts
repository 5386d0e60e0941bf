// ef.io.decodePng / encodePng (fast-png) and decodeJpeg (jpeg-js): TF's tf.io image codecs in Node and browsers.
// uint8 pixels are int32 in [0, 255] by the dtype contract; encodePng also takes float32 in [0, 1] (scaled by
// 255 and rounded, as tf.image.convert_image_dtype with saturation), the same convention as ef.summary.image.
import { Tensor, TensorLike, argError, constant, describe, typeError } from '@eagerflow/core';
import { decode as pngDecode, encode as pngEncode, convertIndexedToRgb } from 'fast-png';
// jpeg-js's decoder module alone (its index also pulls in the encoder, which ef.io does not use).
import jpegDecode from 'jpeg-js/lib/decoder.js';

function contentsOf(api: string, contents: unknown): Uint8Array {
  if (contents instanceof Uint8Array) return contents;
  if (contents instanceof ArrayBuffer) return new Uint8Array(contents);
  if (contents instanceof Tensor && contents.dtype === 'string' && contents.rank === 0) return contents.bytes()[0];
  throw typeError(api, 'contents must be the encoded image', describe(contents), 'a Uint8Array, ArrayBuffer or scalar string tensor', 'Pass e.g. await ef.io.readFile(path).');
}

/** Converts interleaved pixels from `from` to `to` channels (gray <-> RGB, alpha added as opaque or dropped). */
function convertChannels(px: ArrayLike<number>, n: number, from: number, to: number, max: number): number[] {
  if (from === to) return Array.from(px);
  const out = new Array<number>(n * to);
  for (let i = 0; i < n; i++) {
    const s = i * from;
    const gray = from <= 2;
    const r = px[s];
    const g = gray ? r : px[s + 1];
    const b = gray ? r : px[s + 2];
    const a = from === 2 ? px[s + 1] : from === 4 ? px[s + 3] : max;
    const o = i * to;
    if (to === 1 || to === 2) {
      out[o] = gray ? r : Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      if (to === 2) out[o + 1] = a;
    } else {
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      if (to === 4) out[o + 3] = a;
    }
  }
  return out;
}

function checkChannels(api: string, c: unknown, allowed: number[]): number {
  if (typeof c !== 'number' || !allowed.includes(c)) throw argError(api, 'unsupported channels', describe(c), allowed.join(', '), '0 keeps the image\'s own channels.');
  return c;
}

/**
 * Decodes a PNG (fast-png) to an int32 [height, width, channels] tensor of 0..255 (TF's uint8), or 0..65535 with
 * dtype 'uint16'; `channels` 0 keeps the file's, 1/2/3/4 convert. Palette images expand to RGB(A).
 * @example
 * const png = ef.io.encodePng(ef.constant([[[255, 0, 0]], [[0, 0, 255]]], 'int32'));
 * ef.io.decodePng(png).arraySync(); // [[[255, 0, 0]], [[0, 0, 255]]]
 */
export function decodePng(contents: Uint8Array | ArrayBuffer | Tensor, options: { channels?: number; dtype?: 'uint8' | 'uint16' } = {}): Tensor {
  const api = 'ef.io.decodePng';
  const bytes = contentsOf(api, contents);
  const channels = checkChannels(api, options.channels ?? 0, [0, 1, 2, 3, 4]);
  const wide = options.dtype === 'uint16';
  let png: ReturnType<typeof pngDecode>;
  try {
    png = pngDecode(bytes);
  } catch (e) {
    throw argError(api, `cannot decode ${bytes.length} bytes as a PNG`, (e as Error).message, 'the bytes of a PNG file', "Pass a PNG file's bytes", { opName: api, cause: e });
  }
  let data: ArrayLike<number> = png.data;
  let from = png.channels;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    from = png.palette[0]?.length ?? 3;
  }
  const depth = png.palette ? 8 : png.depth;
  const n = png.width * png.height;
  // TF: 16-bit PNGs read as uint8 keep the high byte; 8-bit (and lower) read as uint16 scale by 257.
  const scaled = Array.from(data, (v) => (depth === 16 ? (wide ? v : v >> 8) : depth < 8 ? Math.round((v * 255) / (2 ** depth - 1)) * (wide ? 257 : 1) : wide ? v * 257 : v));
  const to = channels === 0 ? from : channels;
  const out = convertChannels(scaled, n, from, to, wide ? 65535 : 255);
  return constant(Int32Array.from(out), 'int32', [png.height, png.width, to]);
}

/**
 * Decodes a JPEG (jpeg-js) to an int32 [height, width, channels] tensor of 0..255. `channels` 0 (default) and 3
 * give RGB, 1 grayscale. jpeg-js's IDCT differs from TF's libjpeg-turbo by a few levels per pixel (measured: max 6, mean 1.9).
 */
export function decodeJpeg(contents: Uint8Array | ArrayBuffer | Tensor, options: { channels?: number } = {}): Tensor {
  const api = 'ef.io.decodeJpeg';
  const bytes = contentsOf(api, contents);
  const channels = checkChannels(api, options.channels ?? 0, [0, 1, 3]);
  let img: { width: number; height: number; data: Uint8Array };
  try {
    img = jpegDecode(bytes, { useTArray: true, formatAsRGBA: false });
  } catch (e) {
    throw argError(api, `cannot decode ${bytes.length} bytes as a JPEG`, (e as Error).message ?? String(e), 'the bytes of a JPEG file', "Pass a JPEG file's bytes", { opName: api, cause: e });
  }
  const n = img.width * img.height;
  const to = channels === 0 ? 3 : channels;
  return constant(Int32Array.from(convertChannels(img.data, n, 3, to, 255)), 'int32', [img.height, img.width, to]);
}

/**
 * A PNG of an [height, width, channels] image (channels 1-4): int32 in [0, 255] (TF's uint8) or float32 in [0, 1];
 * returns the file's bytes as a scalar string tensor, as tf.io.encode_png.
 */
export function encodePng(image: TensorLike, options: { compression?: number } = {}): Tensor {
  const api = 'ef.io.encodePng';
  const x = image instanceof Tensor ? image : constant(image as never);
  try {
    const dims = x.shape.dims as number[];
    if (dims.length !== 3 || dims[2] < 1 || dims[2] > 4) throw argError(api, 'image must be [height, width, channels] with 1 to 4 channels', `shape ${x.shape}`, '[h, w, 1|2|3|4]', 'Index one image of a batch first.');
    const vals = x.dataSync() as Float32Array | Int32Array;
    const px = new Uint8Array(vals.length);
    const float = x.dtype === 'float32';
    if (x.dtype !== 'int32' && !float) throw typeError(api, 'image dtype must be int32 (0..255) or float32 (0..1)', x.dtype, 'int32 or float32', 'Cast the image.');
    for (let i = 0; i < vals.length; i++) {
      const v = float ? Math.round(Math.min(1, Math.max(0, vals[i])) * 255) : vals[i];
      if (!float && (v < 0 || v > 255 || !Number.isInteger(v))) throw argError(api, `pixel ${i} is ${v}, outside uint8's 0..255`, String(v), 'int32 values in [0, 255]', 'Clip or rescale the image.');
      px[i] = v;
    }
    const level = options.compression ?? -1;
    const bytes = pngEncode({ width: dims[1], height: dims[0], data: px, channels: dims[2], depth: 8 }, { zlib: { level: level < 0 ? 6 : Math.min(9, level) } } as never);
    return constant(bytes, 'string');
  } finally {
    if (x !== image) x.dispose();
  }
}
