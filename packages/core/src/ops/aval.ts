// The values every layer of the op machinery talks in, at the bottom of its dependency order: an abstract value
// (dtype and shape) and a record's params. The shape checks (check.ts), the spec modules (api_spec.ts,
// graphdef_spec.ts, onnx_spec.ts) and the record type (primitive.ts, which re-exports these) all read them from here,
// so the record type can name its specs without the specs importing the record type back.
import type { DType } from '../values/dtype';
import type { Dims } from '../values/shape';

/** A static description of a value: dtype and (possibly partial) shape. */
export interface AVal {
  dtype: DType;
  shape: Dims;
}

/**
 * A primitive's static params: any object type. Each record declares its own interface
 * (`Primitive<P extends object>`); bind, the tracer and the tape carry them as `Params`.
 */
export type Params = object;

/** Params read by key: how the generic machinery (graph nodes, printers, GraphDef/ONNX specs) sees any record's params. */
export type ParamsRecord = Readonly<Record<string, unknown>>;

/**
 * A record's params viewed by key (every params object is a plain object of named fields).
 * @example
 * ef.internal.paramsRecord({ axis: 1 }).axis; // 1
 */
export function paramsRecord(p: Params): ParamsRecord {
  return p as ParamsRecord;
}
