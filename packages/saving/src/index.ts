// @eagerflow/saving: traced functions saved and loaded as TensorFlow GraphDef JSON (tfjs model.json), runnable by
// tfjs-converter; tfjs graph models and TF1 graphs imported as traced functions.
import { installGraphDefWriter } from '@eagerflow/function';
import { toGraphDef } from './graphdef';

export { saveFunction, saveFunctionToDir, loadFunction } from './api';
export type { SavedFunctionArtifacts } from './api';
export type { LoadOptions, LoadedFunction } from './loader';
export type { SaveOptions } from './writer';
export { toGraphDef } from './graphdef';
export type { EagerFlowMetadata } from './graphdef';
export type { GraphDef, NodeDef, FunctionDef, AttrValue, SignatureJson } from './format';
export { FORMAT_NAME, FORMAT_VERSION } from './format';
export { IMPORT_ROWS } from './imports';
export { registerOp } from './graph_model';
export type { CustomOp, ModelSource } from './graph_model';
export { knownOps, readerTable } from './spec_io';
export { loadLimits } from './reader';
export { readTfGraph, signatureFunction, libraryFunction } from './graph_functions';
export type { TfGraph, GraphTensorSpec, GraphFunctionOptions } from './graph_functions';
export { graphDefFromProto } from './graphdef_decode';
export type { GraphDefJson } from './graphdef_decode';
export { installHostCallbackBridge } from './host';
export type { HostCallbackBridge, HostCallbackInfo, HostCallbackLoad } from './host';
export { graphDefToProto } from './proto/graphdef_proto';
export { EventFileWriter, encodeEvent } from './events/event_file';
export type { EventFileOptions } from './events/event_file';
export { scalarValue, histogramValue, histogramBuckets, imageValue, textValue, audioValue, encodeWav, floatToUint8 } from './events/summary_values';
export type { SummaryValue, SummaryArray } from './events/summary_values';

/**
 * Wires saving into @eagerflow/function: ConcreteFunction.toGraphDef writes with this package's writer. The
 * umbrella `eagerflow` calls it in its install list; call it once when using the packages without the umbrella.
 * @example
 * ef.internal.installSaving(); // (the umbrella already did)
 * ef.trace((x) => ef.exp(x)).getConcreteFunction(new ef.TensorSpec([2])).toGraphDef().node.length; // 3
 */
export function installSaving(): void {
  installGraphDefWriter((cf) => toGraphDef(cf));
}
export { Module, isTracedFunction } from './module';
export { latestCheckpoint, readCheckpointState, writeCheckpointState, restoreCheckpoint, writeCheckpoint, checkpointTensors, CheckpointReader, RestoreStatus } from './tf_checkpoint';
export type { TrackableHook } from './tf_checkpoint';
export { syncFs } from './node_files';
export { readBundleIndex, readBundleTensor, writeBundle, shardFile } from './tensor_bundle';
export type { BundleTensor, BundleIndex, BundleEntry } from './tensor_bundle';
export { encodeRecord, encodeRecords, readRecords, RecordUnframer, RECORD_HEADER_BYTES, RECORD_FOOTER_BYTES } from './io/tfrecord_framing';
export type { RecordUnframerOptions } from './io/tfrecord_framing';
export { tfProto, tfProtoEnum, decodeTfProto, encodeTfProto } from './proto/tf_protos';
export { tfValueAt } from './tf_dtypes';
export { crc32c, maskCrc, unmaskCrc, maskedCrc32c } from './proto/crc32c';
export { saveSavedModel } from './saved_model_writer';
export type { SavedModelSaveOptions } from './saved_model_writer';
export { loadSavedModel } from './saved_model_loader';
export type { LoadedSavedModel, LoadedSignature } from './saved_model_loader';
export { DEFAULT_BUFFER_SIZE, TFRecordWriter, checkCompression, checkSource, sourceBytes, sourceName, sourceRecords, nodeModule } from './io/record_io';
export type { CompressionType, RecordSource, TFRecordWriterOptions } from './io/record_io';
export { decodePng, encodePng, decodeJpeg } from './io/image_codec';
