// ONNX lowerings beside the records (API section 15): the declarative spec, and the scope a lowering writes into.
import type { DType } from '../values/dtype';
import type { AVal } from './aval';
import type { ConstValue, SpecNode } from './graphdef_spec';

/** An ONNX attribute value (`onnx.AttributeProto`): ints and floats are told apart, as ONNX requires. */
export type OnnxAttr =
  | { readonly i: number }
  | { readonly f: number }
  | { readonly s: string }
  | { readonly ints: readonly number[] }
  | { readonly floats: readonly number[] }
  | { readonly t: ConstValue }
  /** A subgraph (`If` branches, `Loop` bodies), as the writer in packages/function/src/onnx builds it. */
  | { readonly g: object };

export type OnnxAttrs = Readonly<Record<string, OnnxAttr>>;

/** What a lowering may do in the ONNX graph being written (implemented by packages/function/src/onnx). */
export interface LowerScope {
  /** The static dtype and shape of graph value `i` (a node's `inputs`/`outputs` entries). */
  aval(i: number): AVal;
  /** Adds a node; returns its `nOut` output names (default 1). */
  add(op: string, inputs: readonly string[], attrs?: OnnxAttrs, nOut?: number): string[];
  /** An int64 initializer (axes, shapes, pads, starts). */
  int64s(values: readonly number[], shape?: readonly number[]): string;
  /** A scalar initializer of `dtype` (float32, int32 or bool). */
  scalar(value: number, dtype: DType): string;
  /** The ONNX opset the model imports (17 or later). */
  readonly opset: number;
  /** The host data of graph value `i` when it is a captured constant, else null (e.g. a divisor known to be non-zero). */
  constant?(i: number): Float32Array | Int32Array | Uint8Array | null;
}

/** A params key: checked against P where a spec is declared (`onnxSpec<P>`), plain strings on records. */
type Key<P> = unknown extends P ? string : keyof P & string;

/** One ONNX input of a declarative lowering: the record's next tensor input, or a param as an int64 initializer. */
export type OnnxInput<P = unknown> = 'x' | { readonly param: Key<P> };

/** One ONNX attr of a declarative lowering: from a param, or fixed. */
export type OnnxAttrSpec<P = unknown> = { readonly param: Key<P>; readonly kind: 'int' | 'ints' | 'float' | 'str' } | { readonly fixed: OnnxAttr };

/** A declarative lowering: one ONNX node; one generic writer interprets it. */
export interface OnnxDecl<P = unknown> {
  readonly op: string;
  /** The ONNX inputs in order; default: the record's tensor inputs. */
  readonly inputs?: readonly OnnxInput<P>[];
  readonly attrs?: Readonly<Record<string, OnnxAttrSpec<P>>>;
  /** Dtypes of the first (data) input ONNX Runtime's CPU kernel of `op` takes (default float32). */
  readonly dtypes?: readonly DType[];
}

/** An irregular lowering: writes any number of ONNX nodes; returns the names of the record's outputs. */
export interface OnnxCodec<P = unknown> {
  lower(s: LowerScope, n: SpecNode<P>, ins: readonly string[]): string[];
  /** Whether this node lowers (dtypes, static shapes the lowering needs); default: float32 inputs. */
  accepts?(s: LowerScope, n: SpecNode<P>): boolean;
}

export type OnnxSpec<P = unknown> = OnnxDecl<P> | OnnxCodec<P>;

export function isOnnxCodec(s: OnnxSpec): s is OnnxCodec {
  return typeof (s as OnnxCodec).lower === 'function';
}

/**
 * Declares a lowering checked against its params type: a renamed param is a compile error.
 * @example
 * // not-run
 * onnx: onnxSpec<ReduceParams>({ op: 'ReduceSum', ... })
 */
export function onnxSpec<P>(s: OnnxSpec<P>): OnnxSpec {
  return s as unknown as OnnxSpec;
}

/**
 * A family-made record with its ONNX lowering beside it (records written as object literals set `onnx:` directly).
 * Sets `onnx` on the record itself and returns it.
 * @example
 * // not-run
 * export const exp = withOnnx(unary('exp', 'Exp', ...), { op: 'Exp' });
 */
export function withOnnx<T extends { readonly name: string; readonly effect: 'pure' | 'stateful' }>(record: T, onnx: OnnxSpec): T {
  // Set on the record object itself: its GraphDef readers and vjps bind that object, so a copy would
  // leave imported and differentiated nodes without the lowering.
  (record as { onnx?: OnnxSpec }).onnx = onnx;
  return record;
}

/** Every dtype a lowering can pass to ONNX Runtime (strings and complex64 stay in JS steps). */
export const ONNX_DTYPES: readonly DType[] = ['float32', 'int32', 'bool'];

/** The input dtypes a lowering accepts for a node (the writer asks before lowering). */
export function onnxAccepts(spec: OnnxSpec, s: LowerScope, n: SpecNode): boolean {
  const all = [...n.inputs, ...n.outputs].every((i) => ONNX_DTYPES.includes(s.aval(i).dtype));
  if (!all) return false;
  if (isOnnxCodec(spec)) return spec.accepts ? spec.accepts(s, n) : n.inputs.every((i) => s.aval(i).dtype === 'float32');
  // `dtypes` is about the data input (the first); others (indices, conditions) have fixed dtypes.
  return n.inputs.length === 0 || (spec.dtypes ?? ['float32']).includes(s.aval(n.inputs[0]).dtype);
}
