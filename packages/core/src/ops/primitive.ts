// The primitive record: everything about one primitive in one place (infer, kernel, vjp, effect).
import type { Info, Kernels } from '../backend/backend';
import type { Tensor } from '../values/tensor';
import type { ApiSpec } from './api_spec';
import type { TfSpec } from './graphdef_spec';
import type { OnnxSpec } from './onnx_spec';
import type { AVal, Params } from './aval';

// The bottom module's names, where the records have always imported them.
export type { AVal, Params, ParamsRecord } from './aval';
export { paramsRecord } from './aval';

/** An elementwise primitive's per-element arithmetic: as a function and as an expression template. */
export interface ScalarFact {
  readonly fn: (a: number, b: number) => number;
  readonly expr: (a: string, b: string) => string;
  /**
   * The same arithmetic as a shader expression, for the fused GPU programs (webgl's GLSL and webgpu's
   * WGSL read this one template). The dialect is what both languages share: f32 operand names,
   * float literals with a decimal point, + - * /, comparisons and || &&, the builtins exp log sqrt
   * sin cos tan asin acos atan abs floor ceil sign min max, tfjs's isnan, and the ef_ helpers each
   * GPU program defines (ef_sel(c, t, f), ef_nan(), ef_rsqrt, ef_atan2, ef_tanh, ef_round). It follows
   * tfjs's own GPU kernel snippets (their NaN checks included). Absent: such nodes stay unfused on GPUs.
   */
  readonly gpu?: (a: string, b: string) => string;
  /**
   * The expression's value is already a float32 whenever its operands are (max, min, abs, neg, floor,
   * relu...): the fused host loop skips the float32 rounding after it. The fact check verifies it.
   */
  readonly exact?: true;
}

/**
 * Gradient rule: output cotangents (null = zero) -> input cotangents (null = none), with our own ops.
 * `needed[i]` is false when no source depends on input i: the rule may return null there (TensorFlow's
 * skip_input_indices), e.g. a constant factor of a multiply.
 */
// (Declared through a method so records with specific params fit the generic table: bivariance.)
export type VjpRule<P> = {
  rule(cts: (Tensor | null)[], inputs: Tensor[], outputs: Tensor[], params: P, needed: readonly boolean[]): (Tensor | null)[];
}['rule'];

export interface Primitive<P extends object = Params> {
  /** IR name, as printed in graphs. */
  readonly name: string;
  /** `stateful` nodes are never dropped, merged or reordered past each other. */
  readonly effect: 'pure' | 'stateful';
  /** For primitives whose effect depends on params (host callbacks, control flow with stateful bodies). */
  statefulWhen?(params: P): boolean;
  /** Constant folding may evaluate it at trace time (pure and cheap). Default: effect === 'pure'. */
  readonly foldable?: boolean;
  /** Shape/dtype rule; throws an InvalidArgumentError naming the op on bad input. */
  infer(inputs: AVal[], params: P): AVal[];
  /** Runs the kernel(s). Must free any intermediate it creates. */
  impl(k: Kernels, inputs: Info[], params: P): Info[];
  /** The gradient rule, or null when the primitive is not differentiable (documented per record). */
  readonly vjp: VjpRule<P> | null;
  /**
   * Which values the vjp reads (the tape keeps only these alive). 'sizes': the inputs after the first (the int32
   * size operands of a record that takes its sizes as params or as tensors: slice's begin, pad's paddings).
   */
  readonly saves: 'none' | 'inputs' | 'outputs' | 'both' | 'sizes';
  /**
   * For float32 elementwise primitives: the per-element function (and the same as a JS expression
   * over operand names), with the exact arithmetic of the tfjs cpu kernel. The executor may fuse
   * runs of such nodes into one host loop.
   */
  readonly scalar?: ScalarFact;
  /** Formats params for the graph listing; default prints JSON-able params. */
  printParams?(params: P): string;
  /** The public op this record is (paths, arguments, options): the generic builder makes its wrapper. */
  readonly api?: ApiSpec;
  /** How the record reads and writes as TensorFlow GraphDef (declarative, or a write/read codec). */
  readonly tf?: TfSpec;
  /** How the record lowers to ONNX (API section 15): declarative, or a lowering function; absent = JS step. */
  readonly onnx?: OnnxSpec;
  /**
   * How a traced graph's node of this primitive re-enters the current context when the graph is
   * replayed (tapes around a traced call, a trace inlining another): default `bind(prim, inputs, params)`.
   * Control flow replays its bodies, host callbacks record their call, variable reads name the variable.
   */
  replay?(inputs: Tensor[], params: P): Tensor[];
}

/** Whether a node of `prim` with `params` is stateful (never dropped, merged or reordered). */
export function isStateful(prim: Primitive, params: Params): boolean {
  return prim.effect === 'stateful' || (prim.statefulWhen !== undefined && prim.statefulWhen(params));
}

/** Whether constant folding may evaluate a node at compile time. */
export function isFoldable(prim: Primitive, params: Params): boolean {
  return !isStateful(prim, params) && (prim.foldable ?? true);
}

/** Params are compared by value for CSE; this is the canonical key. */
export function paramsKey(params: Params): string {
  // eslint-disable-next-line no-unreachable-loop
  for (const _k in params) return stringifyParams(params);
  return '';
}

function stringifyParams(params: Params): string {
  return JSON.stringify(params, (_k, v) => (v && typeof v === 'object' && 'id' in v && !Array.isArray(v) ? `#${(v as { id: unknown }).id}` : v));
}
