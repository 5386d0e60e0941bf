// ef.data: TensorFlow's tf.data input pipelines (Dataset, text and CSV sources, cardinality constants).
import { makeCsvDataset } from './text';

export { Dataset } from './dataset';
export type { MapOptions, InterleaveOptions } from './dataset';
export type { PaddedOptions } from './batching';
export type { WindowOptions } from './nested';
export type { CsvOptions } from './text';
export { TextLineDataset } from './text';
export { TFRecordDataset } from './tfrecord';
export type { TFRecordOptions } from './tfrecord';
export { AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, DatasetSpec } from './structure';
export type { Element, ElementSpec } from './structure';

/**
 * tf.data.experimental: makeCsvDataset.
 * @example
 * typeof ef.data.experimental.makeCsvDataset; // 'function'
 */
export const experimental = {
  /** Reads CSV files into batches of column tensors (tf.data.experimental.make_csv_dataset). */
  makeCsvDataset,
};
