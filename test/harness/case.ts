// Case rows of the op harness (one row drives every checker), and seeded input generation shared by them.
import * as ef from 'eagerflow';
import type { DType } from 'eagerflow';
type PrimitiveName = ef.internal.PrimitiveName;
import { Ref, Value, sizeOf } from './ref';
import { Rng } from './rng';

/** How input values are drawn (all float draws are float32-exact). */
export type Gen =
  | 'normal' // uniform in [-2, 2)
  | 'positive' // uniform in [0.3, 2.5)
  | 'away' // |x| in [0.2, 2): keeps kinks (0) out of finite differences
  | 'unit' // uniform in (-0.9, 0.9)
  | 'int' // integers in [-5, 5)
  | 'index' // integers in [0, 3)
  | 'count' // integers in [1, 4)
  | 'bool'
  | 'string';

export interface InputSpec {
  shape: number[];
  dtype?: DType;
  gen?: Gen;
  /** Fixed values (row-major) instead of random ones. */
  values?: Value[];
}

/** What an op returns: one Tensor, several (an array), or named ones (like topK's `{ values, indices }`). */
export type Out = ef.Tensor | ef.Tensor[] | { [name: string]: ef.Tensor };
/** What a reference returns: the same structure as the op's result, in float64. */
export type RefOut = Ref | Ref[] | { [name: string]: Ref };

/** A public-API call under test; the harness passes the case's inputs as eager Tensors. */
export type OpFn = (...xs: ef.Tensor[]) => Out;

/** The backends a row can run on (the browser conformance page runs `webgl` and `webgpu`; Node and the page run `cpu`). */
export type Backend = 'cpu' | 'webgl' | 'webgpu';
export const BACKENDS: readonly Backend[] = ['cpu', 'webgl', 'webgpu'];

/** tfjs-webgl gaps found by the browser rows (shared by the rows that hit them). */
export const WEBGL_GAPS = {
  intDiv: "tfjs-webgl divides int32 in float and rounds (cpu and TensorFlow truncate toward zero)",
};

/**
 * tfjs-webgpu 4.22 gaps found by the browser rows, each reproduced with raw tfjs ops on webgpu
 * (ef.internal.backend.tfjs in the conformance page), so they are tfjs's, not EagerFlow's.
 */
export const WEBGPU_GAPS = {
  powInt: 'tfjs-webgpu computes int32 pow in float and truncates (tf.pow(int32 5, 2) is 24)',
  argMax1d: 'tfjs-webgpu returns shape [1] for argMax of a 1-D tensor (expected a scalar)',
  segmentSumInt: 'tfjs-webgpu unsortedSegmentSum of int32 data returns garbage (atomic adds on float bits)',
  prodKeepDims: "tfjs-webgpu's Prod ignores keepDims (tf.prod(x [2,3], -1, true) has shape [2])",
  reverseCum: 'tfjs-webgpu cumsum/cumprod with reverse: true fail or are wrong (tf.cumprod(x, -1, false, true) throws a createBuffer error)',
  noUnique: "tfjs-webgpu has no 'Unique' kernel",
  noNmsPadded: "tfjs-webgpu has no 'NonMaxSuppressionV4' kernel",
  fftPrecision: "tfjs-webgpu's FFT shader differs from cpu by up to 3e-4 relative (the row checks 1e-4)",
  intMean: 'tfjs-webgpu sums int32 in float32 for mean (tf.mean of [2^31-1, 2^31-1, 1] is 1431655808)',
  logZero: "SwiftShader's WGSL log(0) is -88.03 (the smallest float32 exponent), not -Infinity",
  castTranspose: "tfjs-webgpu's Transpose shader does not compile for a bool or int32 buffer cast to float32 (Cast relabels without converting)",
};

/**
 * The rows wrong on webgpu because of those gaps (by row name; every mode unless `modes`). Like a
 * row's `backends`, strict: the page runs them on webgpu and they must still fail or disagree.
 * (A row's `backends.only` describes cpu and webgl; webgpu is decided here.)
 */
export const WEBGPU_ROWS: Readonly<Record<string, { why: string; modes?: readonly ('eager' | 'traced' | 'gradient')[] }>> = {
  'pow int32 with a JS number': { why: WEBGPU_GAPS.powInt },
  'argMax axis 0 of [4]': { why: WEBGPU_GAPS.argMax1d },
  'argMax int32 picks the first of ties': { why: WEBGPU_GAPS.argMax1d },
  'unsortedSegmentSum int32': { why: WEBGPU_GAPS.segmentSumInt },
  'reduceProd axis -1 keepDims': { why: WEBGPU_GAPS.prodKeepDims },
  'reduceProd axes [0, 2] of rank 3': { why: WEBGPU_GAPS.reverseCum, modes: ['gradient'] },
  'reduceProd with a zero (gradient without division)': { why: WEBGPU_GAPS.reverseCum, modes: ['gradient'] },
  'cumsum axis 1 exclusive': { why: WEBGPU_GAPS.reverseCum, modes: ['gradient'] },
  'cumprod axis 1 exclusive': { why: WEBGPU_GAPS.reverseCum, modes: ['gradient'] },
  'cumprod axis -1 reverse': { why: WEBGPU_GAPS.reverseCum },
  'unique float32 in first-seen order': { why: WEBGPU_GAPS.noUnique },
  'unique int32': { why: WEBGPU_GAPS.noUnique },
  'nonMaxSuppressionPadded to 5': { why: WEBGPU_GAPS.noNmsPadded },
  'fft of a batch': { why: WEBGPU_GAPS.fftPrecision },
  'rfft odd, padded to 8': { why: WEBGPU_GAPS.fftPrecision },
  'irfft odd 7': { why: WEBGPU_GAPS.fftPrecision },
  'reduceMean int32 truncates toward zero, exactly': { why: WEBGPU_GAPS.intMean },
  'reduceMean int32 does not wrap the sum (TensorFlow)': { why: WEBGPU_GAPS.intMean },
  'reduceLogsumexp of -inf rows is -inf': { why: WEBGPU_GAPS.logZero },
  'reduceMin axes [0, 2] of rank 3': { why: WEBGPU_GAPS.castTranspose, modes: ['gradient'] },
};

export interface Tolerance {
  rtol?: number;
  atol?: number;
}

/**
 * TensorFlow's call for an op's golden fixtures: scripts/tf-golden/export_rows.js exports the rows' calls and
 * scripts/tf-golden/generate.py runs them through TensorFlow (packages/eagerflow/test/conformance/fixtures/<api>.json).
 * Either TF's function by module path (`fn`, with ef's arguments mapped by `params`, `keywords` and `options`),
 * or, where TF's form is a small expression (a dtype name, int32 indices, strides spelled out, a positional seed),
 * that expression (`expr`, a Python lambda over `tf` and `opt`) with `why`.
 */
export type TfCall = TfCallBase & ({ fn: string; expr?: undefined } | { expr: string; why: string; fn?: undefined });
interface TfCallBase {
  /**
   * The shared case set (scripts/tf-golden/table.py) the fixtures run: `unary` (edge values, denormals, a matrix,
   * scalar, empty, int32 and bool), a broadcasting binary op's `arith`, `compare` or `logic` grid, or `reduce`
   * (a tensor, axes and keepDims: ranks 0-3, special values, empty, int32, bool, bad axes), or `none` (`extra` only).
   */
  cases: 'unary' | 'arith' | 'compare' | 'logic' | 'reduce' | 'none';
  /** With `fn`: ef's positional parameters by name, optional ones with their default, when TF takes some by keyword. */
  params?: readonly (string | readonly [string, TfLiteral])[];
  /** With `fn`: TF's keyword arguments from ef's parameters (`{ keepdims: 'keep' }`); the other parameters go positionally. */
  keywords?: Readonly<Record<string, string>>;
  /**
   * With `fn` and `params`: ef's trailing options object (the argument after `params`), as TF keyword arguments:
   * `{ approximate: ['approximate', false] }` passes TF's `approximate=` from `options.approximate`, else the default.
   */
  options?: Readonly<Record<string, readonly [string, TfLiteral]>>;
  /** The op's own cases, after the shared ones. */
  extra?: readonly TfCase[];
}
/**
 * A row whose op has no TensorFlow fixture, with the reason (an EagerFlow-only helper primitive, complex64
 * values this suite does not encode, a side effect): the row says so instead of leaving `tfCall` out.
 */
export interface TfNone {
  none: string;
}

/**
 * A literal argument of a TF fixture case (NaN, infinities and -0 are exported losslessly; an options object
 * passes through as a dict; `tfFloat(1)` is Python's 1.0 where TF's result dtype depends on it).
 */
export type TfLiteral = number | boolean | string | null | readonly TfLiteral[] | { readonly [key: string]: TfLiteral | undefined };
/** A tensor argument of a TF fixture case: row-major (or nested) data, dtype (default float32), optional shape. */
export interface TfTensor {
  tensor: TfLiteral;
  dtype?: DType | 'string';
  shape?: readonly number[];
}
/** One TF fixture case: ef's positional arguments; `grad: false` records no gradients; tags feed the allowlist. */
export interface TfCase {
  name: string;
  args: readonly (TfTensor | TfLiteral)[];
  grad?: boolean;
  tags?: readonly string[];
}
/**
 * A reduction's TF call: ef's (x, axis = null, keepDims = false) passed as TF's (x, axis=, keepdims=); the shared
 * `reduce` cases, or only the op's own (`own`).
 */
export const tfReduce = (fn: string, own?: readonly TfCase[]): TfCall => ({
  fn,
  ...(own ? { cases: 'none' as const, extra: own } : { cases: 'reduce' as const }),
  params: ['x', ['axis', null], ['keep', false]],
  keywords: { axis: 'axis', keepdims: 'keep' },
});
/** A tensor argument (scripts/tf-golden/table.py's T). */
export const tfTensor = (tensor: TfLiteral, dtype?: DType | 'string', shape?: readonly number[]): TfTensor => ({ tensor, dtype, shape });
/** A list-of-tensors argument (table.py's L: concat, stack, addN). */
export const tfTensors = (...tensors: TfTensor[]): TfLiteral => ({ tensors: tensors as unknown as TfLiteral });
/** A float literal whose value is integral (JS has one number type; TF's `fill(dims, 1.0)` is float32, `fill(dims, 1)` int32). */
export const tfFloat = (value: number): TfLiteral => ({ float: value });
/** The row of an op without a TF fixture, and why (TfNone). */
export const tfNone = (why: string): TfNone => ({ none: why });

export interface ForwardCase extends Tolerance {
  /**
   * TensorFlow's call for the fixtures of the row's public op (`api`), the same on every row of the op; or
   * `tfNone(why)` for an op without TF fixtures. Every row carries one (golden_rows.test.ts).
   */
  tfCall: TfCall | TfNone;
  /** The primitive this case exercises (checked: the op must bind it). */
  prim: PrimitiveName;
  /**
   * The public op this row covers, as its path on `ef` ('softmax', later 'math.cumsum'). Coverage is
   * keyed on these (see publicOps()): every public op needs a row. Default: `prim`.
   */
  api?: string;
  name: string;
  inputs: InputSpec[];
  op: OpFn;
  /** Independent float64 reference; its dtypes, shapes and structure are the expected ones. */
  ref: (...xs: Ref[]) => RefOut;
  /** TensorFlow GraphDef op names the row's saved graph must contain (traced with exact shapes, folding off). */
  tfOps?: string[];
  /** Why @tensorflow/tfjs-converter cannot run the saved graph (absent: it must, with the same results; present: it must fail). */
  noConverter?: string;
  /** Why tracing with all dims unknown (TensorSpec of nulls) cannot work for this row (absent: it must equal eager). */
  noUnknownDims?: string;
  /**
   * Backends the row is right on (default: all of BACKENDS), with the reason, optionally only for some
   * browser modes ('eager', 'traced', 'gradient'; default all). Strict: the page still runs the row on
   * the other backends, and it must fail or disagree there, so a fixed backend makes the suite say so.
   */
  backends?: { only: Backend[]; why: string; modes?: ('eager' | 'traced' | 'gradient')[] };
  /** Per-backend tolerance overrides (webgl computes in GLSL float32: transcendentals differ a little). */
  tol?: Partial<Record<Backend, Tolerance>>;
  /** Inputs to differentiate; default every float32 input when the output is float32. `false` = none. */
  grad?: number[] | false;
  /** The function whose finite differences give the expected gradient (default `ref`; stopGradient uses zeros). */
  gradRef?: (...xs: Ref[]) => Ref;
  /** Also check a Hessian-vector product through nested tapes (default true when the gradient is checked). */
  secondOrder?: boolean;
  /** Every input is wrapped in an ef.Variable (passed as a Tensor to `op`; unwrap with `asVariable`). */
  variables?: boolean;
  /** Not traceable as written (creates variables per call): eager mode only. */
  eagerOnly?: boolean;
  rtol?: number;
  atol?: number;
}

export interface ErrorCase {
  prim: PrimitiveName;
  /** The public op whose bad input this row feeds (default: `prim`). */
  api?: string;
  name: string;
  inputs: InputSpec[];
  /** Must throw; anything it converts from JS values must not leak. */
  run: (...xs: ef.Tensor[]) => unknown;
  /** Expected class (default ef.errors.InvalidArgumentError). */
  cls?: new (...args: never[]) => Error;
  /** The message must start with `<op>:` and contain `got <got>` and `expected <expected>`. */
  op: string;
  got: string;
  expected: string;
}

/** Unwraps a Variable the harness passed where `op` expects a Tensor (cases with `variables: true`). */
export function asVariable(t: ef.Tensor): ef.Variable {
  return t as unknown as ef.Variable;
}

function draw(gen: Gen, rng: Rng): Value {
  switch (gen) {
    case 'normal':
      return rng.uniform(-2, 2);
    case 'positive':
      return rng.uniform(0.3, 2.5);
    case 'away':
      return rng.awayFromZero(0.2, 2);
    case 'unit':
      return rng.uniform(-0.9, 0.9);
    case 'int':
      return rng.int(-5, 5);
    case 'index':
      return rng.int(0, 3);
    case 'count':
      return rng.int(1, 4);
    case 'bool':
      return rng.next() < 0.5;
    case 'string':
      return ['a', 'bc', 'd', ''][rng.int(0, 4)];
  }
}

function defaultGen(dtype: DType): Gen {
  return dtype === 'int32' ? 'int' : dtype === 'bool' ? 'bool' : dtype === 'string' ? 'string' : 'normal';
}

/** Draws the inputs of a case as float64 references (values exactly representable in the dtype). */
export function makeRefs(specs: InputSpec[], rng: Rng): Ref[] {
  return specs.map((s) => {
    const dtype = s.dtype ?? 'float32';
    const n = sizeOf(s.shape);
    const data = s.values ? s.values.slice() : Array.from({ length: n }, () => draw(s.gen ?? defaultGen(dtype), rng));
    if (data.length !== n) throw new Error(`harness: ${data.length} values for shape [${s.shape}]`);
    return new Ref(s.shape.slice(), dtype === 'float32' ? data.map((v) => Math.fround(Number(v))) : data, dtype);
  });
}

/** An eager tensor holding a reference's values (float64 values are rounded to float32). */
export function toTensor(r: Ref): ef.Tensor {
  return ef.constant(r.data as ef.TensorLike, r.dtype, r.shape);
}

/** Builds the op arguments: Tensors, or Variables (passed as Tensors) for `variables` cases. */
export function makeArgs(c: ForwardCase, refs: Ref[]): { args: ef.Tensor[]; dispose: () => void } {
  const tensors = refs.map(toTensor);
  const args = tensors.map((t) => (c.variables ? (new ef.Variable(t) as unknown as ef.Tensor) : t));
  return {
    args,
    dispose: () => {
      for (const a of args) ef.dispose(a);
      for (const t of tensors) t.dispose();
    },
  };
}

/** The public op a row covers. */
export function apiOf(c: ForwardCase): string {
  return c.api ?? c.prim;
}

/** Whether a row is expected to be right on `backend` (in `mode`, when the restriction names modes). */
export function runsOn(c: ForwardCase, backend: Backend, mode?: 'eager' | 'traced' | 'gradient'): boolean {
  if (backend === 'webgpu') {
    const gap = WEBGPU_ROWS[c.name];
    return gap === undefined || (mode !== undefined && gap.modes !== undefined && !gap.modes.includes(mode));
  }
  const b = c.backends;
  if (b === undefined || b.only.includes(backend)) return true;
  return mode !== undefined && b.modes !== undefined && !b.modes.includes(mode);
}

/** The row's tolerance on `backend`: per-backend override, else the row's own, else `base`. */
export function toleranceOf(c: ForwardCase, backend: Backend, base: Required<Tolerance>): Required<Tolerance> {
  const o = c.tol?.[backend];
  return { rtol: o?.rtol ?? c.rtol ?? base.rtol, atol: o?.atol ?? c.atol ?? base.atol };
}

/** The leaves of a result in a fixed order (array order; object keys in the reference's order). */
export function leaves<T>(v: T | T[] | { [k: string]: T }, isLeaf: (x: unknown) => x is T, keys?: string[]): T[] {
  if (isLeaf(v)) return [v];
  if (Array.isArray(v)) return v;
  const o = v as { [k: string]: T };
  return (keys ?? Object.keys(o)).map((k) => o[k]);
}

export const isRef = (x: unknown): x is Ref => x instanceof Ref;
export const isTensor = (x: unknown): x is ef.Tensor => x instanceof ef.Tensor;

/** The reference's leaves (Refs) and, for named results, their keys. */
export function refLeaves(r: RefOut): { refs: Ref[]; keys?: string[] } {
  if (isRef(r) || Array.isArray(r)) return { refs: leaves(r, isRef) };
  const keys = Object.keys(r);
  return { refs: leaves(r, isRef, keys), keys };
}

/** The op's output leaves, after checking its structure matches the reference's. */
export function outLeaves(out: Out, want: RefOut, what: string): ef.Tensor[] {
  const shape = (v: unknown): string => (isRef(v) || isTensor(v) ? 'one' : Array.isArray(v) ? `array of ${v.length}` : `{${Object.keys(v as object).sort()}}`);
  if (shape(out) !== shape(want)) throw new Error(`${what}: the op returned ${shape(out)}, the reference ${shape(want)}`);
  return leaves(out, isTensor, refLeaves(want).keys);
}

/** Indices of the inputs whose gradient a case checks (empty when it checks none). */
export function gradInputs(c: ForwardCase, expected: RefOut): number[] {
  if (c.grad === false || !refLeaves(expected).refs.some((r) => r.dtype === 'float32')) return [];
  if (c.grad !== undefined) return c.grad;
  return c.inputs.map((s, i) => ((s.dtype ?? 'float32') === 'float32' ? i : -1)).filter((i) => i >= 0);
}

/**
 * The first `perPrim` cases `keep` accepts of each primitive with an ONNX lowering (the jitCompile and export
 * suites run a few rows per lowered primitive; Infinity runs them all).
 */
export function loweredRows(cases: readonly ForwardCase[], perPrim: number, keep: (c: ForwardCase) => boolean = () => true): ForwardCase[] {
  const lowered = new Set(Object.values(ef.internal.PRIMITIVES as Record<string, { name: string; onnx?: unknown }>).filter((p) => p.onnx !== undefined).map((p) => p.name));
  const seen = new Map<string, number>();
  return cases.filter((c) => {
    if (!lowered.has(c.prim) || !keep(c)) return false;
    const k = seen.get(c.prim) ?? 0;
    seen.set(c.prim, k + 1);
    return k < perPrim;
  });
}
