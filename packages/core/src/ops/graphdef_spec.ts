// GraphDef specs beside the records: attr JSON, the declarative spec, and the scopes its writer/reader offer.
import type { DType } from '../values/dtype';
import type { Dims } from '../values/shape';
import type { AVal } from './aval';
import type { Tensor } from '../values/tensor';
import type { Variable } from '../values/variable';
import { internalError } from '../errors/error_toolkit';

export type TfDType = 'DT_FLOAT' | 'DT_INT32' | 'DT_BOOL' | 'DT_STRING' | 'DT_COMPLEX64';

/** `tensorflow.TensorShapeProto` in protobuf JSON: sizes are int64 strings, -1 is unknown. */
export interface ShapeJson {
  dim?: { size: string | number }[];
  unknownRank?: boolean;
}

export interface AttrList {
  s?: string[];
  i?: (string | number)[];
  f?: number[];
  b?: boolean[];
  type?: (string | number)[];
  shape?: ShapeJson[];
}

/** `tensorflow.AttrValue` in protobuf JSON (strings `s` are base64). */
export interface AttrValue {
  s?: string;
  i?: string | number;
  f?: number;
  b?: boolean;
  type?: string | number;
  shape?: ShapeJson;
  tensor?: { dtype: string; tensorShape: ShapeJson };
  func?: { name: string };
  list?: AttrList;
}

export type Attrs = Record<string, AttrValue>;

export const TF_DTYPE: Record<DType, TfDType> = {
  float32: 'DT_FLOAT',
  int32: 'DT_INT32',
  bool: 'DT_BOOL',
  string: 'DT_STRING',
  complex64: 'DT_COMPLEX64',
};

export function shapeJson(dims: Dims): ShapeJson {
  if (dims === null) return { unknownRank: true };
  return { dim: dims.map((d) => ({ size: String(d === null ? -1 : d) })) };
}

/** UTF-8 text -> base64 (protobuf JSON bytes), without Node's Buffer. */
export function toBase64(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin);
}

/** AttrValue builders. */
export const attr = {
  type: (d: DType): AttrValue => ({ type: TF_DTYPE[d] }),
  types: (ds: readonly DType[]): AttrValue => ({ list: { type: ds.map((d) => TF_DTYPE[d]) } }),
  shape: (dims: Dims): AttrValue => ({ shape: shapeJson(dims) }),
  shapes: (all: readonly Dims[]): AttrValue => ({ list: { shape: all.map(shapeJson) } }),
  int: (n: number): AttrValue => ({ i: String(n) }),
  ints: (ns: readonly number[]): AttrValue => ({ list: { i: ns.map(String) } }),
  float: (f: number): AttrValue => ({ f }),
  bool: (b: boolean): AttrValue => ({ b }),
  str: (s: string): AttrValue => ({ s: toBase64(s) }),
  func: (name: string): AttrValue => ({ func: { name } }),
  tensor: (d: DType, dims: readonly number[]): AttrValue => ({ tensor: { dtype: TF_DTYPE[d], tensorShape: shapeJson([...dims]) } }),
};

/** `node:k` for output k (`node` for output 0, TensorFlow's spelling). */
export function outputRef(node: string, k: number): string {
  return k === 0 ? node : `${node}:${k}`;
}

/** A constant's host value, as weights store it. */
export interface ConstValue {
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly data: Float32Array | Int32Array | Uint8Array | string[];
}

/** A graph node as a writer sees it (the saving package's Node satisfies it). */
export interface SpecNode<P = object> {
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly params: P;
}

/** What a writer may do in the scope it writes into (implemented by the saving package). */
export interface WriteScope {
  aval(i: number): AVal;
  dtype(i: number): DType;
  /** Adds a node; returns its name (the reference of output 0). */
  add(op: string, hint: string, inputs: string[], attrs?: Attrs): string;
  /** An int32 Const (static params: axes, shapes, perms). */
  ints(hint: string, values: readonly number[], shape?: readonly number[]): string;
  constant(hint: string, v: ConstValue): string;
  /** Writes a nested graph as a library function (control flow); see the saving package's GraphWriter. */
  writeFunction(hint: string, graph: unknown, argAvals: AVal[], bind: number[], finish?: FunctionFinish): string;
  /** The name of the graph being written (hints for nested functions). */
  readonly graphName: string;
  /** Stable keys for host callbacks and the set of keys written (host-callback records read these). */
  readonly host: HostSaveState;
  /** A read of `v`: a frozen Const when nothing in the function assigns it, else ReadVariableOp. */
  readVariable(v: Variable): string;
  /** The resource handle (VarHandleOp) of a variable the function assigns. */
  variableHandle(v: Variable): string;
}

/** Replaces a nested function's outputs (loop counters, passed-through captures). */
export type FunctionFinish = (fs: WriteScope, outs: { ref: string; aval: AVal }[], args: string[]) => { ref: string; aval: AVal }[];

/** Host-callback saving state of one saveFunction call. */
export interface HostSaveState {
  /** The stable key for a callback token (from hostFunctionKeys or the registry); null when none. */
  keyFor(token: string, fn: unknown, registered: string | null): string | null;
  readonly keys: Set<string>;
}

/** A parsed NodeDef's attrs, checked on access (the saving package's ParsedNode satisfies it). */
export interface SpecNodeDef {
  readonly name: string;
  readonly op: string;
  has(key: string): boolean;
  int(key: string, def?: number): number;
  ints(key: string, def?: number[]): number[];
  float(key: string, def?: number): number;
  /** A list-of-floats attr (`list.f`); [] when absent or malformed. */
  floats(key: string): number[];
  bool(key: string, def: boolean): boolean;
  str(key: string, def?: string): string;
  dtype(key: string, def?: DType): DType;
  dtypes(key: string): DType[];
  /** A list of dtypes where DT_VARIANT (a TensorList, read as a dense tensor of its element dtype) is null. */
  dtypesOrVariant(key: string): (DType | null)[];
  shape(key: string): Dims | undefined;
  shapes(key: string): Dims[] | undefined;
  func(key: string): string;
}

/** A reference to a node output (`node:k`). */
export interface InputRefView {
  readonly node: string;
  readonly index: number;
  readonly text: string;
}

/** Another node of the graph being loaded, seen from a reader (for patterns). */
export interface NodeView {
  readonly op: string;
  readonly name: string;
  readonly inputs: readonly InputRefView[];
}

/** What a reader may do with one node being loaded (implemented by the saving package). */
export interface ReadScope {
  readonly node: SpecNodeDef;
  readonly count: number;
  arity(min: number, max?: number): void;
  input(k: number): Tensor;
  inputs(from?: number, to?: number): Tensor[];
  /** Input k as static numbers: it must be a Const. */
  numbers(k: number, what: string): number[];
  number(k: number, what: string): number;
  /** The node producing input k (patterns like Reshape(x, Shape(like))); undefined for arguments. */
  producer(k: number): NodeView | undefined;
  /** The node a reference names; undefined for arguments. */
  nodeOf(ref: InputRefView): NodeView | undefined;
  /** The tensor a reference names. */
  tensorOf(ref: InputRefView, where: string): Tensor;
  /** The raw reference text of input k. */
  refText(k: number): string;
  /** A scalar Const's value at input k, or null. */
  constScalar(k: number): { dtype: DType; value: number | string } | null;
  /** Rejects static shapes whose element count would exhaust memory while loading. */
  checkSize(dims: readonly number[]): void;
  /** The limit on elements of one tensor (loadLimits.maxElements). */
  readonly maxElements: number;
  /** The loaded function's Variable for resource input k (a VarHandleOp). */
  variable(k: number): Variable;
  /** Calls a library function (control flow bodies). */
  callFunction(name: string, args: Tensor[]): Tensor[];
  /** Host functions given to loadFunction, by key. */
  hostFunction(key: string): ((...args: never[]) => unknown) | undefined;
  error(what: string, got: string, expected: string, fix: string): Error;
}

/** How a param travels in GraphDef: as a Const input or an attr. */
export type AttrKind = 'bool' | 'int' | 'ints' | 'float' | 'str' | 'type';

/** A params key: checked against P where a spec is declared (`tfSpec<P>`), plain strings on records. */
type Key<P> = unknown extends P ? string : keyof P & string;

/** One TF input of a declarative spec: a tensor input of the record, or a param written as a Const. */
export type TfInput<P = unknown> =
  | 'x'
  | 'xs'
  | {
      readonly param: Key<P>;
      readonly shape: 'scalar' | 'vector' | 'pairs';
      readonly dtype?: 'int32' | 'float32';
      /** `null` is written as Range(0, Rank(x), 1) (or every axis when the rank is known) and read back. */
      readonly nullMeans?: 'all-axes';
      /** The values are a shape: the reader rejects ones too large to allocate. */
      readonly check?: 'dims';
    };

/** One TF attr of a declarative spec: from a param, from an input's dtype, or fixed. */
export type TfAttr<P = unknown> =
  | { readonly param: Key<P>; readonly kind: AttrKind; readonly default?: unknown }
  | { readonly dtypeOf: number }
  /** The number of list inputs (ConcatV2's N). */
  | { readonly count: true }
  /** Always written; `readCheck` makes the reader refuse other values (batch_dims). */
  | { readonly fixed: AttrValue; readonly readCheck?: true };

/** A declarative GraphDef spec: one generic writer and one generic reader interpret it. */
export interface TfDecl<P = unknown> {
  readonly op: string;
  /** Other TF ops read as this primitive (Add for AddV2, Snapshot for Identity...). */
  readonly readAlso?: readonly string[];
  /** The TF inputs in order; default: the record's tensor inputs ('x' each). */
  readonly inputs?: readonly TfInput<P>[];
  /** TF attrs; default `{ T: { dtypeOf: 0 } }` unless `noT`. */
  readonly attrs?: Readonly<Record<string, TfAttr<P>>>;
  /** Whether the op has no `T` attr (LogicalAnd...). */
  readonly noT?: boolean;
  /** Input count the reader accepts (default: inputs.length, or any for 'xs'). */
  readonly arity?: readonly [number, number];
  /**
   * The params written as Const inputs may instead be tensor inputs of the record, as TF takes them (Slice's
   * begin/size, Reshape's shape): a node with a param input that is not a Const reads as the record with every
   * param input as a tensor (after the 'x' ones, in TF's order), and such a node writes those tensors there.
   */
  readonly paramsAsInputs?: true;
}

/** An irregular op: its write and read side by side. */
export interface TfCodec<P = unknown> {
  /** TF op names this codec reads (the first is what it usually writes). */
  readonly ops: readonly string[];
  write(s: WriteScope, n: SpecNode<P>, ins: string[]): string[];
  /** Reads one node of any of `ops`; binds primitives inside the active trace. */
  read?(r: ReadScope): Tensor[];
  /**
   * Only nodes this predicate accepts are read here (patterns such as Reshape(x, Shape(like)); with
   * empty `ops`, any op: host callbacks are keyed by attrs). Other readers of the op come after.
   */
  readonly matches?: (r: ReadScope) => boolean;
}

/** A record's GraphDef spec: declarative, or a codec. */
export type TfSpec<P = unknown> = TfDecl<P> | TfCodec<P>;

export function isCodec(s: TfSpec): s is TfCodec {
  return typeof (s as TfCodec).write === 'function';
}

/**
 * Declares a record's GraphDef spec checked against its params type: a renamed param is a compile error.
 * @example
 * // not-run
 * tf: tfSpec<PadParams>({ op: 'Pad', inputs: ['x', { param: 'paddings', shape: 'pairs' }] })
 */
export function tfSpec<P>(s: TfSpec<P>): TfSpec {
  return s as unknown as TfSpec;
}

/** Import-only TF ops: rows that point at a reader (aliases, patterns, fused forms). */
export interface TfImport {
  readonly ops: readonly string[];
  read(r: ReadScope): Tensor[];
}

/**
 * The TF op a record writes (its declarative spec's op, or its codec's first op). A spec that writes or
 * matches another record's op names it through that record, so each TF op name is typed once, beside
 * its record (a test scans the sources for strays).
 * @example
 * ef.internal.tfOpOf(ef.internal.PRIMITIVES.add); // 'AddV2'
 */
export function tfOpOf(p: { readonly name: string; readonly tf?: TfSpec }): string {
  const s = p.tf;
  const op = s === undefined ? undefined : isCodec(s) ? s.ops[0] : s.op;
  if (op === undefined) throw internalError('tfOpOf', `primitive '${p.name}' has no GraphDef spec naming a TF op`);
  return op;
}

/** The `T`-style attr of value `i`. */
export function typeAttrOf(s: WriteScope, i: number): AttrValue {
  return attr.type(s.dtype(i));
}
