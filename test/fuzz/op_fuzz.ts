// The op fuzzer: random calls over the public ops, each run eager, traced, traced with every dim unknown, and compiled
// (jitCompile: ONNX Runtime sessions).
// Half the cases mutate a harness case row (its op with the row's arguments, on inputs of random shapes, dtypes
// and edge values: bad axes follow from the changed ranks); the rest call an op of the op table directly with
// random tensors and random extra arguments. See docs/fuzzing.md.
import * as ef from 'eagerflow';
import type { ForwardCase } from '../harness/case';
import { forwardCases } from '../harness/rows';
import { CaseResult, Pick, caseRng, disagreement, observe, picker } from './outcome';

type T = ef.Tensor;
type DT = ef.DType;

const DTYPES: readonly DT[] = ['float32', 'int32', 'bool', 'string', 'complex64'];
const EDGE_FLOATS = [0, -0, 1, -1, 0.5, -2.5, 3, NaN, Infinity, -Infinity, 3.4e38, -3.4e38, 1e-38, 1e-45, 65504, 2 ** 24 + 1];
const EDGE_INTS = [0, 1, -1, 2, 3, -3, 7, 2147483647, -2147483648, 65536];
const STRINGS = ['', 'a', 'bc', 'ünï', '0', ' '];

/** Ops whose values legitimately differ between calls (random draws): shape and dtype are compared, not values. */
const RANDOM = /random|dropout|shuffle|multinomial|categorical|gamma|poisson/i;

/** Rows that trace (no Variables created per call) and have inputs to mutate. */
const ROWS: readonly ForwardCase[] = forwardCases.filter((c) => !c.eagerOnly && !c.variables && c.inputs.length > 0);

/** Public ops by path (the table's functions; namespaces included). */
const OPS: readonly [string, (...a: unknown[]) => unknown][] = ef.internal.opEntries().filter(([p]) => p !== 'print') as [string, (...a: unknown[]) => unknown][];

/** APIs where a row documents that tracing with unknown dims cannot work (noUnknownDims): that mode is not compared. */
const NO_UNKNOWN_DIMS = new Set(forwardCases.filter((c) => c.noUnknownDims !== undefined).map((c) => c.api ?? c.prim));

interface TensorPlan {
  shape: number[];
  dtype: DT;
  values: unknown[];
}

function randomShape(pick: Pick): number[] {
  const rank = pick([0, 1, 1, 2, 2, 3, 3, 4, 5]);
  return Array.from({ length: rank }, () => pick([0, 1, 1, 2, 2, 3, 3, 4]));
}

/** A shape near `s`: a dim made 0, 1 or bigger, a dim added or dropped, or a fresh random shape. */
function mutateShape(s: number[], r: () => number, pick: Pick): number[] {
  const out = s.slice();
  switch (pick(['zero', 'one', 'grow', 'add', 'drop', 'fresh', 'scalar'] as const)) {
    case 'zero':
      if (out.length) out[Math.floor(r() * out.length)] = 0;
      return out;
    case 'one':
      if (out.length) out[Math.floor(r() * out.length)] = 1;
      return out;
    case 'grow':
      if (out.length) out[Math.floor(r() * out.length)] += 1;
      return out;
    case 'add':
      return out.length < 5 ? [pick([1, 2, 3]), ...out] : out;
    case 'drop':
      return out.slice(1);
    case 'scalar':
      return [];
    default:
      return randomShape(pick);
  }
}

function randomValue(dtype: DT, r: () => number, pick: Pick, edges: boolean): unknown {
  switch (dtype) {
    case 'int32':
      return edges && r() < 0.3 ? pick(EDGE_INTS) : Math.floor(r() * 7) - 2;
    case 'bool':
      return r() < 0.5;
    case 'string':
      return pick(STRINGS);
    default:
      return edges && r() < 0.3 ? pick(EDGE_FLOATS) : Math.round((r() * 6 - 3) * 64) / 64;
  }
}

function plan(shape: number[], dtype: DT, r: () => number, pick: Pick, edges: boolean): TensorPlan {
  const n = shape.reduce((a, b) => a * b, 1);
  const count = dtype === 'complex64' ? 2 * n : n;
  return { shape, dtype, values: Array.from({ length: count }, () => randomValue(dtype === 'complex64' ? 'float32' : dtype, r, pick, edges)) };
}

function materialize(p: TensorPlan): T {
  if (p.dtype === 'complex64') {
    const n = p.values.length / 2;
    return ef.tidy(() => ef.complex(ef.constant(p.values.slice(0, n) as number[], 'float32', p.shape), ef.constant(p.values.slice(n) as number[], 'float32', p.shape)));
  }
  return ef.constant(p.values as ef.TensorLike, p.dtype, p.shape);
}

/** A random extra argument (axes, sizes, flags, options, nonsense). */
function extraArg(r: () => number, pick: Pick): unknown {
  switch (pick(['int', 'int', 'ints', 'bool', 'str', 'undef', 'opts', 'float', 'nested'] as const)) {
    case 'int':
      return pick([0, 1, -1, 2, -2, 3, 5, -7, 100]);
    case 'ints':
      return Array.from({ length: pick([0, 1, 2, 3, 4]) }, () => pick([0, 1, -1, 2, 3, -4]));
    case 'bool':
      return r() < 0.5;
    case 'str':
      return pick(['SAME', 'VALID', 'NHWC', 'NCHW', 'float32', 'int32', 'xy', 'ij', '', 'bilinear']);
    case 'undef':
      return undefined;
    case 'opts':
      return pick([{}, { axis: 1 }, { keepDims: true }, { axis: -1, exclusive: true }, { dtype: 'int32' }, { seed: 3 }, { indexing: 'ij' }]);
    case 'float':
      return pick([0.5, -1.5, NaN, Infinity, 1e-3]);
    default:
      return [[1, 2], [3]];
  }
}

export interface OpCase {
  /** What to print to reproduce it by hand. */
  readonly describe: string;
  readonly api: string;
  readonly fn: (...xs: T[]) => unknown;
  readonly inputs: TensorPlan[];
  /** Compare values across modes (not for random draws). */
  readonly values: boolean;
  /** Compare the unknown-dims mode (not where a row documents it cannot work). */
  readonly unknownDims: boolean;
}

/** Case `i` of `seed`. */
export function opCase(seed: number, i: number): OpCase {
  const r = caseRng(seed, i);
  const pick = picker(r);
  const edges = r() < 0.5;
  if (r() < 0.55) {
    const row = pick(ROWS);
    const api = row.api ?? row.prim;
    const inputs = row.inputs.map((spec) => {
      const mutate = r() < 0.5;
      const shape = mutate && r() < 0.7 ? mutateShape(spec.shape, r, pick) : spec.shape.slice();
      const dtype = mutate && r() < 0.35 ? pick(DTYPES) : spec.dtype ?? 'float32';
      if (!mutate && spec.values && !edges) return { shape, dtype, values: spec.values.slice() };
      return plan(shape, dtype, r, pick, edges);
    });
    return { describe: `row '${row.name}' on ${inputs.map((p) => `${p.dtype}[${p.shape}]`).join(', ')}`, api, fn: row.op as (...xs: T[]) => unknown, inputs, values: !RANDOM.test(api) && !RANDOM.test(row.name), unknownDims: row.noUnknownDims === undefined };
  }
  const [api, op] = pick(OPS);
  const n = pick([1, 1, 2, 2, 3]);
  const first = randomShape(pick);
  const firstType = r() < 0.6 ? 'float32' : pick(DTYPES);
  // Later tensors often share the first's shape and dtype (binary ops), else are random.
  const inputs = Array.from({ length: n }, (_, k) => (k === 0 || r() < 0.5 ? plan(first, k === 0 || r() < 0.7 ? firstType : pick(DTYPES), r, pick, edges) : plan(randomShape(pick), pick(DTYPES), r, pick, edges)));
  const extras = Array.from({ length: pick([0, 0, 1, 1, 2]) }, () => extraArg(r, pick));
  return {
    describe: `ef.${api}(${[...inputs.map((p) => `${p.dtype}[${p.shape}]`), ...extras.map((e) => JSON.stringify(e) ?? 'undefined')].join(', ')})`,
    api,
    fn: (...xs: T[]) => op(...xs, ...extras),
    inputs,
    values: !RANDOM.test(api),
    unknownDims: !NO_UNKNOWN_DIMS.has(api),
  };
}

/** Traces `fn` (a fresh function, disposed after) and calls it with exact shapes or every dim unknown. */
function tracedCall(fn: (...xs: T[]) => unknown, xs: T[], unknown: boolean): unknown {
  const f = ef.trace(fn as (...a: T[]) => T);
  try {
    if (!unknown) return f(...xs);
    return f.getConcreteFunction(...xs.map((x) => new ef.TensorSpec(x.shape.asList().map(() => null), x.dtype))).call(...xs);
  } finally {
    f.dispose();
  }
}

/**
 * Traces `fn` with jitCompile (a fresh function, disposed after) and calls it: the nodes with ONNX lowerings run in ONNX
 * Runtime sessions, small elementwise segments included (the small-segment rule would keep those on the host loop).
 */
function compiledCall(fn: (...xs: T[]) => unknown, xs: T[]): unknown {
  const f = ef.trace(fn as (...a: T[]) => T, { jitCompile: true });
  const small = ef.internal.fuseConfig.smallSegmentsOnHost;
  ef.internal.fuseConfig.smallSegmentsOnHost = false;
  try {
    return f(...xs);
  } finally {
    ef.internal.fuseConfig.smallSegmentsOnHost = small;
    f.dispose();
  }
}

/**
 * APIs whose compiled values are compared only on finite inputs, each a documented gap (docs/fuzzing.md, "Compiled
 * mode"): ONNX Runtime's Conv and linear Resize multiply zero padding and zero weights by their operands, so an
 * infinite value there makes NaN (0 x inf) where TF's kernels skip the padded taps (conv2d) or the unweighted pixel
 * (resize); TF's own dilated depthwise convolution (space-to-batch, zero padded) does make that NaN, and tfjs's
 * kernel, which the uncompiled function runs, does not.
 */
const COMPILED_FINITE_ONLY = /^(nn\.(conv1d|conv2d|conv3d|depthwiseConv2d|separableConv2d|conv2dTranspose|convolution|atrousConv2d)|image\.(resize|resizeBilinear))$/;

/**
 * Sums and products whose compiled values are compared only on inputs within +-1e30 (docs/fuzzing.md, "Compiled mode"): ONNX
 * Runtime adds in another order than the uncompiled kernels, and a sum holding +-3.4e38 cancels to a value set by
 * the order (TF's reduce_mean of such an input read 0.0 like ONNX Runtime's, the uncompiled kernel 699050.625):
 * both are float32 sums within their error bound, n·eps·sum|x|.
 */
const COMPILED_ORDERED_SUMS = /^nn\.(avgPool|avgPool2d|avgPool3d|pool)$|^(math\.)?(reduceSum|reduceMean|reduceProd|reduceEuclideanNorm|reduceLogSumExp|cumsum|norm|addN)$|^nn\.moments$|^(math\.)?reduceVariance$|^(math\.)?reduceStd$/;

/**
 * Sorts whose compiled values are compared only on NaN-free inputs (docs/fuzzing.md, "Compiled mode"): TF orders NaN
 * below every number; tfjs's TopK kernel (uncompiled) and ONNX Runtime's TopK (compiled) each order it otherwise.
 */
const COMPILED_NAN_FREE = /^(sort|argsort|math\.topK|topK|nn\.topK)$/;

/**
 * Matrix products whose compiled values are compared within the float32 error bound of a product (docs/fuzzing.md,
 * "Compiled mode"): ONNX Runtime's MatMul sums in another order than the uncompiled kernels, and an element that
 * cancels (the qr row's Q R beside an input of 16777217) differs by up to eps times the operands' magnitude, not its own.
 */
const COMPILED_PRODUCTS = /^(linalg\.)?(matmul|matvec|tensordot|einsum|qr)$/;

const nanFree = (c: OpCase): boolean => c.inputs.every((p) => (p.values as unknown[]).every((v) => !Number.isNaN(v)));

/** Whether every float input value is finite (and within `bound`). */
const within = (c: OpCase, bound = Number.MAX_VALUE): boolean => c.inputs.every((p) => p.dtype === 'int32' || p.dtype === 'bool' || (p.values as unknown[]).every((v) => typeof v !== 'number' || Math.abs(v) <= bound));

/** Whether the compiled mode's values are compared for case `c` (the documented gaps above aside: all). */
const compiledValues = (c: OpCase): boolean =>
  (!COMPILED_FINITE_ONLY.test(c.api) || within(c)) && (!COMPILED_ORDERED_SUMS.test(c.api) || within(c, 1e30)) && (!COMPILED_NAN_FREE.test(c.api) || nanFree(c));

/** Runs one case in the four modes and judges it. */
export function runOpCase(c: OpCase): CaseResult {
  const xs = c.inputs.map(materialize);
  try {
    const modes = [
      ['eager', () => c.fn(...xs)],
      ['traced', () => tracedCall(c.fn, xs, false)],
      ...(c.unknownDims ? [['traced with unknown dims', () => tracedCall(c.fn, xs, true)]] : []),
      ['compiled', () => compiledCall(c.fn, xs)],
    ] as [string, () => unknown][];
    const seen = modes.map(([name, run]) => ({ name, ...observe(run) }));
    for (const s of seen) {
      if (s.outcome.kind === 'error' && !s.outcome.library) return { status: 'nonLibraryError', detail: `${s.name}: ${s.outcome.cls}: ${s.outcome.message}` };
    }
    for (const s of seen) if (s.leaked !== 0) return { status: 'leak', detail: `${s.name}: ${s.leaked} tensors (${s.outcome.kind === 'error' ? `${s.outcome.cls}: ${s.outcome.message}` : 'ok'})` };
    for (const s of seen.slice(1)) {
      const compiled = s.name === 'compiled';
      const why = disagreement(seen[0].outcome, s.outcome, c.values && (!compiled || compiledValues(c)), compiled && COMPILED_PRODUCTS.test(c.api));
      if (why !== null) return { status: 'disagreement', detail: `eager vs ${s.name}: ${why}` };
    }
    return { status: seen[0].outcome.kind === 'ok' ? 'ok' : 'refused' };
  } finally {
    xs.forEach((x) => x.dispose());
  }
}
