// ef.io: TensorFlow's tf.io for records and examples: TFRecord writing, Example parsing, tensor and image codecs.
import { encodeRecords } from '@eagerflow/saving';

export { TFRecordWriter } from '@eagerflow/saving';
export type { TFRecordWriterOptions, CompressionType, RecordSource } from '@eagerflow/saving';

/**
 * The bytes of a TFRecord file (uncompressed) holding `records`, built in memory: for browsers, tests, or
 * a fetch body. Strings are UTF-8.
 * @example
 * ef.io.encodeTFRecords([new Uint8Array([1]), 'ab']).length; // 17 + 18
 */
export function encodeTFRecords(records: Iterable<Uint8Array | string>): Uint8Array {
  const enc = new TextEncoder();
  return encodeRecords(Array.from(records, (r) => (typeof r === 'string' ? enc.encode(r) : r)));
}
export { FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, parseExample, parseSingleExample, parseSequenceExample, parseSingleSequenceExample } from './parse_example';
export type { FeatureSpec, FixedLenFeatureSpec, FixedLenSequenceFeatureSpec, VarLenFeatureSpec, SequenceFeatures } from './parse_example';
export { serializeTensor, parseTensor, decodeRaw } from './tensor_codec';
export { decodePng, encodePng, decodeJpeg } from '@eagerflow/saving';
export { readFile, writeFile } from './files';
