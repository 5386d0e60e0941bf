// GraphDef JSON (tfjs model.json's proto3-JSON form: camelCase fields, int64 as strings, enums by name, bytes as
// base64) -> `tensorflow.GraphDef` protobuf bytes, by walking TF's own schema: message field names map from
// camelCase to TF's snake_case, map keys (attr names such as `T`, `_output_shapes`) stay as they are, and
// protobufjs's fromObject takes the enum names, int64 strings and base64 bytes.
import protobuf from 'protobufjs/light.js';
import type { GraphDef } from '@eagerflow/core';
import { InvalidArgumentError, opError } from '@eagerflow/core';
import { tfProto } from './tf_protos';

const camel = (s: string): string => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function toSchemaNames(api: string, type: protobuf.Type, obj: unknown, path: string): Record<string, unknown> {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw opError(InvalidArgumentError, api, `${path} is not a ${type.name} object`, Array.isArray(obj) ? 'an array' : String(obj), `a ${type.fullName.slice(1)} in proto3 JSON form`, 'Pass ConcreteFunction.toGraphDef()\'s result unchanged.');
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj as Record<string, unknown>)) {
    if (value === undefined) continue;
    const field = type.fields[key] ?? type.fieldsArray.find((f) => camel(f.name) === key);
    if (field === undefined) {
      throw opError(InvalidArgumentError, api, `${path}.${key} is not a field of ${type.fullName.slice(1)}`, key, `one of ${type.fieldsArray.map((f) => camel(f.name)).join(', ')}`, 'Pass ConcreteFunction.toGraphDef()\'s result unchanged.');
    }
    field.resolve();
    const sub = field.resolvedType;
    const at = `${path}.${key}`;
    if (!(sub instanceof protobuf.Type)) out[field.name] = value;
    else if (field.map) out[field.name] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toSchemaNames(api, sub, v, `${at}[${k}]`)]));
    else if (field.repeated) out[field.name] = (value as unknown[]).map((v, i) => toSchemaNames(api, sub, v, `${at}[${i}]`));
    else out[field.name] = toSchemaNames(api, sub, value, at);
  }
  return out;
}

/**
 * Encodes a GraphDef JSON (what `ConcreteFunction.toGraphDef()` returns) as `tensorflow.GraphDef` bytes, the
 * form TensorBoard's graph dashboard, `tf.compat.v1.GraphDef.FromString` and SavedModels hold.
 * @example
 * const cf = ef.trace((x) => ef.exp(x)).getConcreteFunction(new ef.TensorSpec([2]));
 * const bytes = ef.internal.graphDefToProto(cf.toGraphDef());
 * ef.internal.decodeTfProto('tensorflow.GraphDef', bytes).node.map((n) => n.op); // ["Placeholder", "Exp", "Identity"]
 */
export function graphDefToProto(graphDef: GraphDef, api = 'graphDefToProto'): Uint8Array {
  const type = tfProto('tensorflow.GraphDef');
  return type.encode(type.fromObject(toSchemaNames(api, type, graphDef, 'graphDef'))).finish();
}
