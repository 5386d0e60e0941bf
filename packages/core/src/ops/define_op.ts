// defineOp: the one record builder. A record states its name and what differs; the rest derives (kernel, TF and ONNX
// op names from the IR name, infer/impl/api from an elementwise or reduction family).
import type { DType } from '../values/dtype';
import type { Info, Kernels } from '../backend/backend';
import type { Tensor } from '../values/tensor';
import { AVal, Params, Primitive, ScalarFact, VjpRule } from './primitive';
import { api, arg } from './api_spec';
import type { ApiSpec } from './api_spec';
import type { TfSpec } from './graphdef_spec';
import type { OnnxDecl, OnnxSpec } from './onnx_spec';
import { FLOAT, NUMERIC, broadcastOrThrow, checkArity, checkDTypes, checkSameDType } from './check';
import { sameShape } from './kernel_util';
import { isHostBackend } from '../backend/backend';
import { ReduceParams, reduceApi, reduceTf, reducedDims, reducedShape, runtimeAxes } from './math/reduce_axes';
import { internalError } from '../errors/error_toolkit';

/** An ONNX lowering as a record states it: `true` = the ONNX op of the record's TF op name; a declaration's `op` defaults to it too. */
export type OnnxField = OnnxSpec | true | (Omit<OnnxDecl, 'op'> & { readonly op?: string });

/** The fields every record may state; the builder derives what is left out. */
export interface OpBase<P extends object> {
  /** IR name (snake_case), as printed in graphs. The tfjs kernel and the TF op default to its PascalCase. */
  readonly name: string;
  /** Default 'pure'. */
  readonly effect?: 'pure' | 'stateful';
  statefulWhen?(params: P): boolean;
  readonly foldable?: boolean;
  /** The gradient rule; default null (not differentiable). */
  readonly vjp?: VjpRule<P> | null;
  /** Which values the vjp reads; default 'none' without a vjp, else 'both' (a rule never finds a value freed). */
  readonly saves?: Primitive['saves'];
  readonly scalar?: ScalarFact;
  printParams?(params: P): string;
  readonly tf?: TfSpec;
  readonly onnx?: OnnxField;
  replay?(inputs: Tensor[], params: P): Tensor[];
}

/** A record with its own shape rule and kernel code. */
export interface OpDef<P extends object> extends OpBase<P> {
  infer(inputs: AVal[], params: P): AVal[];
  impl(k: Kernels, inputs: Info[], params: P): Info[];
  readonly api?: ApiSpec;
}

/** The elementwise and reduction families: infer, impl, api and the TF form derive from these fields. */
interface FamilyDef<P extends object> extends OpBase<P> {
  /** The tfjs kernel (default: PascalCase of the name); null when `impl` and `tf` say both. */
  readonly kernel?: string | null;
  /** Accepted input dtypes (default: float32 for unary, float32 and int32 for binary ops and reductions). */
  readonly dtypes?: readonly DType[];
  /** The name errors use (default: the IR name; for reductions the last segment of the first API path). */
  readonly op?: string;
  /** Kernel code other than the plain kernel call. */
  impl?(k: Kernels, inputs: Info[], params: P): Info[];
}

/** One tensor `x` -> one tensor of its shape. `api`: the public paths. */
export interface UnaryDef extends FamilyDef<Params> {
  readonly family: 'unary';
  readonly api: readonly string[];
  /** Output dtype (default: the input's). */
  readonly out?: DType;
}

/** Two broadcasting tensors -> one. `api`: the public paths (arguments x, y), or a full declaration naming them. */
export interface BinaryDef extends FamilyDef<Params> {
  readonly family: 'binary';
  readonly api: readonly string[] | ApiSpec;
  readonly out?: DType;
}

/** `(x, axis = null, keepDims = false)` over the tfjs kernel's { axis, keepDims }. */
export interface ReduceDef extends FamilyDef<ReduceParams> {
  readonly family: 'reduce';
  readonly api: readonly string[];
  /** What a reduction over nothing gives (TensorFlow's identity element); tfjs kernels give NaN or garbage. */
  readonly empty?: (dtype: DType) => number | boolean;
  /** A host loop replacing the kernel on the cpu backend. */
  readonly host?: (x: Info, axes: number[]) => Int32Array | Float32Array;
}

/** A unary record's API: one tensor `x` under the given paths. */
export const unaryApi = <const P extends readonly string[]>(paths: P) => api(paths, [arg.tensor('x')]);
/** A binary record's API: two broadcasting tensors; JS scalars may come from the pool. */
export const binaryApi = <const P extends readonly string[]>(paths: P) => api(paths, [arg.tensor('x'), arg.tensor('y')], [], { poolScalars: true });

/** What defineOp returns: a record whose name and API keep their literal types (namespaces type the public functions from them). */
export type OpRecord<N extends string, P extends object, A = undefined> = Omit<Primitive<P>, 'name' | 'api'> & { readonly name: N; readonly api: A };

/**
 * Defines one primitive record. A record states only what differs from the derived defaults:
 * kernel and TF op = PascalCase(name), ONNX op (`onnx: true`) = the TF op, effect 'pure', vjp null, saves from the vjp; a `family` derives infer, impl and api.
 * @example
 * // not-run
 * export const exp = defineOp({ family: 'unary', name: 'exp', api: ['math.exp', 'exp'], saves: 'outputs', vjp: (c, _x, [y]) => [o.mul(g0(c), y)], onnx: true });
 */
export function defineOp<const N extends string, const Paths extends readonly string[]>(def: UnaryDef & { readonly name: N; readonly api: Paths }): OpRecord<N, Params, ReturnType<typeof unaryApi<Paths>>>;
export function defineOp<const N extends string, const Paths extends readonly string[]>(def: BinaryDef & { readonly name: N; readonly api: Paths }): OpRecord<N, Params, ReturnType<typeof binaryApi<Paths>>>;
export function defineOp<const N extends string, const S extends ApiSpec>(def: BinaryDef & { readonly name: N; readonly api: S }): OpRecord<N, Params, S>;
export function defineOp<const N extends string, const Paths extends readonly string[]>(def: ReduceDef & { readonly name: N; readonly api: Paths }): OpRecord<N, ReduceParams, ReturnType<typeof reduceApi<Paths>>>;
export function defineOp<P extends object, const N extends string, const A extends ApiSpec | undefined = undefined>(def: OpDef<P> & { readonly name: N; readonly api?: A; readonly family?: undefined }): OpRecord<N, P, A>;
export function defineOp(def: OpDef<never> | UnaryDef | BinaryDef | ReduceDef): Primitive {
  const fam = 'family' in def ? def : null;
  const spec = fam === null ? (def as OpDef<never>).api : fam.family === 'unary' ? unaryApi(fam.api) : fam.family === 'reduce' ? reduceApi(fam.api) : isSpec(fam.api) ? fam.api : binaryApi(fam.api);
  const vjp = def.vjp ?? null;
  const derived: Record<string, unknown> = { effect: def.effect ?? 'pure', vjp, saves: def.saves ?? (vjp === null ? 'none' : 'both'), api: spec };
  if (fam !== null) Object.assign(derived, familyParts(fam, spec as ApiSpec));
  derived.onnx = onnxOf(def.onnx, (derived.tf ?? def.tf) as TfSpec | undefined);
  // A fresh object built by adding properties in one order (no delete: a record whose properties were deleted
  // drops to V8's dictionary mode, and bind reads infer/impl on every eager call).
  const rec: Record<string, unknown> = {};
  const given = def as unknown as Record<string, unknown>;
  for (const k of RECORD_ORDER) {
    const v = k in derived ? derived[k] : given[k];
    if (v !== undefined) rec[k] = v;
  }
  for (const k of Object.keys(given)) if (!(k in rec) && !RECORD_ORDER.includes(k) && !FAMILY_FIELDS.includes(k) && given[k] !== undefined) rec[k] = given[k];
  return rec as unknown as Primitive;
}

/** The record fields, in the order every record object is built with. */
const RECORD_ORDER: readonly string[] = ['name', 'effect', 'infer', 'impl', 'vjp', 'saves', 'scalar', 'api', 'tf', 'onnx', 'foldable', 'statefulWhen', 'printParams', 'replay'];

/** The fields only the builder reads (not part of the record). */
const FAMILY_FIELDS: readonly string[] = ['family', 'kernel', 'dtypes', 'op', 'out', 'empty', 'host'];

const isSpec = (a: readonly string[] | ApiSpec): a is ApiSpec => !Array.isArray(a);

/** `logical_and` -> `LogicalAnd`: the kernel and TF op a name derives. */
const pascalOf = (name: string): string => name.replace(/(^|_)([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());

/** The TF op name a record saves as, when it has a declarative TF spec. */
function tfOpName(tf: TfSpec | undefined): string | undefined {
  return tf !== undefined && 'op' in tf ? tf.op : undefined;
}

function onnxOf(o: OnnxField | undefined, tf: TfSpec | undefined): OnnxSpec | undefined {
  if (o === undefined) return undefined;
  if (o !== true && ('lower' in o || o.op !== undefined)) return o as OnnxSpec;
  const op = tfOpName(tf);
  if (op === undefined) throw internalError('defineOp', 'an ONNX lowering without op needs a declarative TF spec to take the op name from');
  return (o === true ? { op } : { ...o, op }) as OnnxSpec;
}

/** infer, impl and tf of a family record. */
function familyParts(d: UnaryDef | BinaryDef | ReduceDef, spec: ApiSpec): Pick<Primitive, 'infer' | 'impl'> & { tf?: TfSpec } {
  const kernel = d.kernel === undefined ? pascalOf(d.name) : d.kernel;
  // Errors name elementwise ops by IR name (as TF's kernels do), reductions by their public name.
  const op = d.op ?? (d.family === 'reduce' ? (lastSegment(spec.paths[0]) ?? d.name) : d.name);
  const boolOnly = d.dtypes !== undefined && d.dtypes.length === 1 && d.dtypes[0] === 'bool';
  if (kernel === null && (d.impl === undefined || d.tf === undefined)) throw internalError(d.name, 'a record without a kernel needs both impl and tf');
  const kernelName = kernel as string;
  if (d.family === 'reduce') {
    const dtypes = d.dtypes ?? NUMERIC;
    const { empty, host } = d;
    return {
      infer(ins: AVal[], p: ReduceParams) {
        checkArity(op, ins, 1);
        checkDTypes(op, ins[0], dtypes);
        return [{ dtype: ins[0].dtype, shape: reducedShape(op, ins[0], p) }];
      },
      impl: (d.impl as Primitive['impl'] | undefined) ?? ((k: Kernels, [x]: Info[], p: ReduceParams) => {
        const axes = runtimeAxes(x, p);
        // An empty input without the kernel (tfjs-webgl's reductions raise on it): the identity, or an empty result.
        if (empty && x.shape.includes(0)) return [k.run('Fill', {}, { shape: reducedDims(x, axes, p.keepDims), value: empty(x.dtype as DType), dtype: x.dtype }) as Info];
        if (host && isHostBackend()) return [k.upload(host(x, axes), reducedDims(x, axes, p.keepDims), x.dtype as DType)];
        return [k.run(kernelName, { x }, { axis: axes, keepDims: p.keepDims }) as Info];
      }) as Primitive['impl'],
      tf: d.tf ?? reduceTf(kernelName, boolOnly),
    };
  }
  const tf = d.tf ?? (boolOnly ? { op: kernelName, noT: true } : { op: kernelName });
  const out = d.out;
  if (d.family === 'unary') {
    const dtypes = d.dtypes ?? FLOAT;
    return {
      infer(ins: AVal[]) {
        checkArity(op, ins, 1);
        checkDTypes(op, ins[0], dtypes);
        return [{ dtype: out ?? ins[0].dtype, shape: ins[0].shape }];
      },
      impl: d.impl ?? ((k: Kernels, ins: Info[]) => [k.run(kernelName, { x: ins[0] }) as Info]),
      tf,
    };
  }
  const dtypes = d.dtypes ?? NUMERIC;
  const first = spec.args[0].name;
  const run = d.impl ?? ((k: Kernels, ins: Info[]) => [k.run(kernelName, { a: ins[0], b: ins[1] }) as Info]);
  return {
    infer(ins: AVal[]) {
      checkArity(op, ins, 2);
      checkDTypes(op, ins[0], dtypes, first);
      checkSameDType(op, ins[0], ins[1]);
      return [{ dtype: out ?? ins[0].dtype, shape: broadcastOrThrow(op, ins[0].shape, ins[1].shape) }];
    },
    impl(k: Kernels, ins: Info[], p: Params) {
      // Traced with unknown dims, infer could not check: TF raises InvalidArgumentError at run time too.
      if (!sameShape(ins[0].shape, ins[1].shape)) broadcastOrThrow(op, ins[0].shape, ins[1].shape);
      return run(k, ins, p);
    },
    tf,
  };
}

const lastSegment = (p: string | undefined): string | undefined => (p === undefined ? undefined : p.slice(p.lastIndexOf('.') + 1));

/** Kernel code of a record (a family record's `impl` replacing the plain kernel call). */
export type Impl = Primitive['impl'];
