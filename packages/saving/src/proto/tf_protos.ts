// TensorFlow's protobuf messages (TF 2.21's own schemas, exported from the TF wheel by scripts/tf-protos/) through
// protobufjs's reflection runtime: `tfProto('tensorflow.Example').decode(bytes)`. Field names are TF's (snake_case).
import protobuf from 'protobufjs/light.js';
import { TF_PROTOS_SCHEMA } from './tf_protos_schema';

let root: protobuf.Root | undefined;

/** The protobufjs Type of one of TF's messages by its full name, e.g. 'tensorflow.SavedModel'. */
export function tfProto(fullName: string): protobuf.Type {
  root ??= protobuf.Root.fromJSON(TF_PROTOS_SCHEMA as protobuf.INamespace);
  return root.lookupType(fullName);
}

/** The protobufjs Enum of one of TF's enums by its full name, e.g. 'tensorflow.DataType'. */
export function tfProtoEnum(fullName: string): protobuf.Enum {
  root ??= protobuf.Root.fromJSON(TF_PROTOS_SCHEMA as protobuf.INamespace);
  return root.lookupEnum(fullName);
}

/** Decodes `bytes` as `fullName` into a plain object (int64 as JS numbers, enums as numbers, bytes as Uint8Array). */
export function decodeTfProto<T = Record<string, unknown>>(fullName: string, bytes: Uint8Array): T {
  const type = tfProto(fullName);
  return type.toObject(type.decode(bytes), { longs: Number, enums: Number, bytes: Uint8Array as unknown as typeof String, defaults: false, arrays: true, objects: true }) as T;
}

/** Encodes a plain object (TF's snake_case field names) as `fullName`. */
export function encodeTfProto(fullName: string, value: Record<string, unknown>): Uint8Array {
  const type = tfProto(fullName);
  return type.encode(type.fromObject(value)).finish();
}
