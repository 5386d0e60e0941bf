// The tensors TF 2.x's summary ops write (TensorBoard's scalars/histograms/images/text/audio plugins), computed
// on the host from a summary's data: the `tensorflow.Summary.Value` objects (TF's field names) an Event holds.
// Each follows TensorBoard 2.21's summary_v2 (tensorboard/plugins/*/summary_v2.py) and TF's kernels it calls;
// tests compare them with the event files TF 2.21 writes (packages/eagerflow/test/summary/fixtures).
import { encode as pngEncode } from 'fast-png';

/** Host data of a summary's input: what a numpyFunction callback receives (row-major). */
export interface SummaryArray {
  dtype: string;
  shape: number[];
  data: ArrayLike<number> | readonly (string | Uint8Array)[];
}

/** A `tensorflow.Summary.Value` in protobufjs's object form (TF's snake_case names, bytes as Uint8Array). */
export type SummaryValue = Record<string, unknown>;

const utf8 = new TextEncoder();
const bytesOf = (s: string | Uint8Array): Uint8Array => (typeof s === 'string' ? utf8.encode(s) : s);
const shapeProto = (shape: readonly number[]): Record<string, unknown> => ({ dim: shape.map((size) => ({ size })) });

/** `SummaryMetadata` with TensorBoard's plugin name; `content` is the plugin's serialized `*PluginData`. */
function metadata(pluginName: string, content?: Uint8Array): Record<string, unknown> {
  return { plugin_data: content === undefined ? { plugin_name: pluginName } : { plugin_name: pluginName, content } };
}

function stringTensor(values: readonly (string | Uint8Array)[], shape: readonly number[]): Record<string, unknown> {
  return { dtype: 'DT_STRING', tensor_shape: shapeProto(shape), string_val: values.map(bytesOf) };
}

/** scalars plugin: a float32 scalar in `tensor_content` (tf.summary.scalar casts to float32). */
export function scalarValue(tag: string, value: number): SummaryValue {
  const content = new Uint8Array(4);
  new DataView(content.buffer).setFloat32(0, value, true);
  return { tag, tensor: { dtype: 'DT_FLOAT', tensor_shape: {}, tensor_content: content }, metadata: metadata('scalars') };
}

/**
 * TensorBoard 2.21's histogram buckets (summary_v2._buckets): `[k, 3]` rows `[left, right, count]` in float64.
 * Empty data (or bucketCount 0): bucketCount rows of zeros. One distinct value: every edge is that value and
 * the last bucket holds all the data. Otherwise bucketCount equal-width buckets from min to max (the index is
 * floor((x - min) / width) clamped to the last bucket), edges from TF's linspace with the last edge set to max.
 */
export function histogramBuckets(data: ArrayLike<number>, bucketCount = 30): Float64Array {
  const k = Math.max(0, bucketCount);
  const out = new Float64Array(k * 3);
  const n = data.length;
  if (n === 0 || k === 0) return out;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = data[i];
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const range = max - min;
  if (range === 0) {
    for (let b = 0; b < k; b++) out.set([max, max, 0], b * 3);
    out[k * 3 - 1] = n;
    return out;
  }
  const width = range / k;
  for (let i = 0; i < n; i++) {
    // tf.cast(tf.floor(...), int32) then tf.minimum(idx, k - 1).
    const idx = Math.min(Math.floor((data[i] - min) / width), k - 1);
    out[idx * 3 + 2] += 1;
  }
  // TF's LinSpace kernel: start + step * i for i < num - 1, then stop; summary_v2 then sets the last edge to max.
  const step = (max - min) / k;
  const edge = (i: number): number => (i === k ? max : min + step * i);
  for (let b = 0; b < k; b++) {
    out[b * 3] = edge(b);
    out[b * 3 + 1] = edge(b + 1);
  }
  return out;
}

/** histograms plugin: the `[k, 3]` float64 buckets in `tensor_content`. */
export function histogramValue(tag: string, data: ArrayLike<number>, bucketCount = 30): SummaryValue {
  const buckets = histogramBuckets(data, bucketCount);
  const content = new Uint8Array(buckets.length * 8);
  const view = new DataView(content.buffer);
  buckets.forEach((v, i) => view.setFloat64(i * 8, v, true));
  return {
    tag,
    tensor: { dtype: 'DT_DOUBLE', tensor_shape: shapeProto([buckets.length / 3, 3]), tensor_content: content },
    metadata: metadata('histograms'),
  };
}

/**
 * tf.image.convert_image_dtype(float32 -> uint8, saturate=True): x * 255.5 in float32, clamped to [0, 255],
 * truncated toward zero.
 */
export function floatToUint8(x: number): number {
  const scaled = Math.fround(x * 255.5);
  if (!(scaled > 0)) return 0; // negative and NaN
  return scaled >= 255 ? 255 : Math.trunc(scaled);
}

/**
 * images plugin: `[width, height, png...]` strings for the first `maxOutputs` images of NHWC uint8 pixels
 * (1 to 4 channels), as tf.image.encode_png does it (PNG through fast-png; lossless, so the pixels match TF's
 * though the compressed bytes may not).
 */
export function imageValue(tag: string, pixels: Uint8Array, shape: readonly number[], maxOutputs = 3): SummaryValue {
  const [n, h, w, c] = shape;
  const count = Math.min(n, Math.max(0, maxOutputs));
  const per = h * w * c;
  const pngs: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    pngs.push(pngEncode({ width: w, height: h, channels: c, depth: 8, data: pixels.subarray(i * per, (i + 1) * per) }));
  }
  return { tag, tensor: stringTensor([String(w), String(h), ...pngs], [2 + count]), metadata: metadata('images') };
}

/** text plugin: the string tensor as it is. */
export function textValue(tag: string, values: readonly (string | Uint8Array)[], shape: readonly number[]): SummaryValue {
  return { tag, tensor: stringTensor(values, shape), metadata: metadata('text') };
}

/** TF's FloatToInt16Sample (core/lib/wav/wav_io.cc): roundf(x * 32768) clamped to int16. */
function int16Sample(x: number): number {
  const y = Math.fround(x * 32768);
  const r = Math.sign(y) * Math.floor(Math.abs(y) + 0.5); // roundf: halves away from zero
  return Math.min(Math.max(r, -32768), 32767);
}

/** tf.audio.encode_wav: a 16-bit PCM WAV (44-byte RIFF header) of `[frames, channels]` float samples. */
export function encodeWav(samples: ArrayLike<number>, offset: number, frames: number, channels: number, sampleRate: number): Uint8Array {
  const dataBytes = frames * channels * 2;
  const out = new Uint8Array(44 + dataBytes);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string): void => { for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i); };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true); // fmt chunk size
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, channels, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * channels * 2, true); // byte rate
  v.setUint16(32, channels * 2, true); // block align
  v.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
  for (let i = 0; i < frames * channels; i++) v.setInt16(44 + i * 2, int16Sample(samples[offset + i]), true);
  return out;
}

// TensorBoard's AudioPluginData {version: 0, encoding: WAV (11)} serialized (field 2, varint 11): the plugin's
// proto is TensorBoard's, not TF's, so its two bytes are written here; the TF fixture checks them.
const AUDIO_WAV_CONTENT = new Uint8Array([0x10, 0x0b]);

/** audio plugin: `[k, 2]` strings `[wav, label]` (labels empty) for the first `maxOutputs` clips of `[n, t, c]`. */
export function audioValue(tag: string, samples: ArrayLike<number>, shape: readonly number[], sampleRate: number, maxOutputs = 3): SummaryValue {
  const [n, t, c] = shape;
  const count = Math.min(n, Math.max(0, maxOutputs));
  const cells: Uint8Array[] = [];
  for (let i = 0; i < count; i++) cells.push(encodeWav(samples, i * t * c, t, c, sampleRate), new Uint8Array(0));
  return { tag, tensor: stringTensor(cells, [count, 2]), metadata: metadata('audio', AUDIO_WAV_CONTENT) };
}
