// The GraphDef JSON format (tfjs model.json `modelTopology`): types, dtype names and attr builders.
import { TF_DTYPE as TF_DTYPE_MAP } from '@eagerflow/core';
import type { DType, ShapeJson, TfDType } from '@eagerflow/core';

/**
 * The format EagerFlow writes into `userDefinedMetadata.eagerflow` (see docs/saving.md).
 * @example
 * ef.FORMAT_NAME; // 'eagerflow-graphdef'
 */
export const FORMAT_NAME = 'eagerflow-graphdef';
/**
 * The format version written; the loader reads versions up to this one.
 * @example
 * ef.FORMAT_VERSION; // 1
 */
export const FORMAT_VERSION = 1;

export { TF_DTYPE, attr, shapeJson } from '@eagerflow/core';
export type { AttrValue, Attrs, TfDType, NodeDef, ArgDef, FunctionDef, GraphDef } from '@eagerflow/core';

export interface TensorInfoJson {
  name: string;
  dtype: TfDType;
  tensorShape: ShapeJson;
}

/** The SignatureDef-like `signature` of model.json: inputs and outputs by key. */
export interface SignatureJson {
  inputs: Record<string, TensorInfoJson>;
  outputs: Record<string, TensorInfoJson>;
}

/** GraphDef versions written (TensorFlow 2.x producer numbers; the converter only reads them). */
export const VERSIONS = { producer: 1395, minConsumer: 12 };



/** TensorFlow's DataType enum numbers (protobuf JSON may carry numbers instead of names). */
const TF_ENUM: Record<number, TfDType> = { 1: 'DT_FLOAT', 3: 'DT_INT32', 7: 'DT_STRING', 8: 'DT_COMPLEX64', 10: 'DT_BOOL' };

/**
 * TensorFlow dtypes read as the nearest one tfjs has (what tfjs-converter does for imported models):
 * the integer types as int32, double and half as float32.
 */
const NARROWED: Record<string, DType> = {
  DT_INT64: 'int32', DT_INT16: 'int32', DT_INT8: 'int32', DT_UINT8: 'int32', DT_UINT16: 'int32', DT_DOUBLE: 'float32', DT_HALF: 'float32',
  2: 'float32', 4: 'int32', 5: 'int32', 6: 'int32', 9: 'int32', 17: 'int32', 19: 'float32',
};

const FROM_TF = new Map<string, DType>(Object.entries(TF_DTYPE_MAP).map(([k, v]) => [v, k as DType]));

/** Our dtype for a TF dtype name or enum number; undefined when unsupported. */
export function fromTfDType(x: unknown): DType | undefined {
  const name = typeof x === 'number' ? TF_ENUM[x] : x;
  const exact = typeof name === 'string' ? FROM_TF.get(name) : undefined;
  return exact ?? (typeof x === 'string' || typeof x === 'number' ? NARROWED[x] : undefined);
}




/** base64 -> UTF-8 text; null when the input is not base64. */
export function fromBase64(b64: string): string | null {
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

