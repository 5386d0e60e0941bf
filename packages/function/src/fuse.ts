// Elementwise fusion (an executor lowering): runs of float32 elementwise nodes become one host loop.
import { AVal, Info, InvalidArgumentError, Kernels, Primitive, ScalarFact, argError, backend } from '@eagerflow/core';
import { Graph, Node } from './graph';
import { factAgrees } from './fact_check';
import { gpuFusable, gpuLanguage, runFusedGpu } from './fuse_gpu';

/** One step of a fused program: a scalar function over external inputs (k < nIn) or earlier steps. */
interface FusedStep {
  readonly fact: ScalarFact;
  readonly args: readonly number[];
}

interface FusedParams {
  readonly size: number;
  readonly shape: readonly number[];
  readonly nIn: number;
  readonly steps: readonly FusedStep[];
  /** Program indices of the group's outputs, in node-output order. */
  readonly results: readonly number[];
  /** The original nodes, run one kernel at a time off the host (webgl). */
  readonly nodes: readonly Node[];
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly outAvals: readonly AVal[];
  /** Which external inputs are scalars (broadcast over the group's shape). */
  readonly scalarIn: readonly boolean[];
  /** The static shape of each external input: the loop trusts it, so each call checks it. */
  readonly inShapes: readonly (readonly number[])[];
  /** Some input broadcasts along some (not all) dimensions: only the GPU programs index it. */
  readonly broadcast: boolean;
  /** The host loop's state, made on its first run: its kernel and the argument lists it is called with. */
  readonly host: HostState;
}

/**
 * The argument lists are reused by every call (the loop calls no user code, so runs never overlap) and
 * cleared after it, so they keep no array alive.
 */
interface HostState {
  kernel: Kernel | null;
  readonly data: ArrayLike<number>[];
  readonly outs: Float32Array[];
}

/** Runs the fused program on host arrays (cpu, wasm: backend.fusesOnHost), or the original kernels elsewhere. */
const fusedElementwise: Primitive<FusedParams> = {
  name: 'fused_elementwise',
  effect: 'pure',
  foldable: false,
  infer: (_ins, p) => p.outAvals.slice(),
  impl(k, ins, p) {
    // Host backends (cpu; wasm up to its measured size) run one loop over same-shape inputs; GPUs a generated shader.
    if (backend.isHostBackend()) return !p.broadcast && backend.fusesOnHost(p.size) ? runOnHost(k, ins, p) : runKernels(k, ins, p);
    const lang = gpuLanguage();
    if (lang !== null && gpuFusable(p)) {
      checkInputs(ins, p);
      return runFusedGpu(p, ins, lang);
    }
    return runKernels(k, ins, p);
  },
  vjp: null,
  saves: 'none',
  printParams: (p) => `[${p.nodes.slice(0, 16).map((n) => n.prim.name).join(',')}${p.nodes.length > 16 ? `,... (${p.nodes.length - 16} more)` : ''}]`,
};

type Kernel = (ins: ArrayLike<number>[], outs: Float32Array[], n: number) => void;
const compiled = new Map<string, Kernel>();
/**
 * `codegen`: set to false where code generation is not allowed (strict CSP): a slower closure loop runs.
 * `maxSteps`: a group holds at most this many nodes, so its generated source (and the time and stack
 * its compilation takes) stays bounded however long the chain.
 */
export const fuseConfig = { codegen: true, maxSteps: 256, smallSegmentsOnHost: true };

/**
 * Lanes per loop pass, each with the largest loop body (characters) it is used for: beyond these, the
 * optimizing compiler's code got slower than with fewer lanes (measured on chains of 48 to 256 steps).
 */
const LANES: readonly (readonly [number, number])[] = [[8, 16000], [4, 24000], [2, 24000]];

function programSource(p: FusedParams, lane: (u: number) => string, suffix: (u: number) => string, lanes: number): string {
  const lines: string[] = [];
  const operand = (a: number, u: number): string => (a < p.nIn ? (p.scalarIn[a] ? `s${a}` : `x${a}[${lane(u)}]`) : `t${a - p.nIn}${suffix(u)}`);
  // A step no other step reads is only stored into a Float32Array output, and the store rounds to float32 as
  // Math.fround does: it needs no rounding call of its own.
  const read = new Set(p.steps.flatMap((st) => st.args));
  p.steps.forEach((st, k) => {
    const rounded = st.fact.exact !== true && read.has(p.nIn + k);
    for (let u = 0; u < lanes; u++) {
      const e = st.fact.expr(operand(st.args[0], u), st.args.length > 1 ? operand(st.args[1], u) : '');
      lines.push(`const t${k}${suffix(u)} = ${rounded ? `Math.fround(${e})` : e};`);
    }
  });
  for (let u = 0; u < lanes; u++) p.results.forEach((r, k) => lines.push(`o${k}[${lane(u)}] = t${r - p.nIn}${suffix(u)};`));
  return lines.join(' ');
}

/**
 * One loop over the elements evaluating the whole program, each step rounded to float32 like the
 * kernels it replaces (an `exact` fact's value already is one). The source is built only from the
 * records' expression templates.
 *
 * Each pass of the loop evaluates LANES neighbouring elements, step by step across the lanes: every
 * element is a long chain of dependent steps, and interleaved independent chains let the processor
 * overlap them (about 4x faster than one element at a time on a 48-step chain; same values, since
 * each element's arithmetic is unchanged). Long programs take fewer lanes, so the generated function
 * stays small enough for the optimizing compiler.
 */
function kernelFor(p: FusedParams): Kernel {
  const known = p.host.kernel;
  if (known !== null) return known;
  const head = Array.from({ length: p.nIn }, (_, k) => (p.scalarIn[k] ? `const s${k} = ins[${k}][0];` : `const x${k} = ins[${k}];`));
  const outs = p.results.map((_r, k) => `const o${k} = outs[${k}];`);
  const single = programSource(p, () => 'i', () => '', 1);
  const lanes = LANES.find(([u, budget]) => u * single.length <= budget && p.size >= u)?.[0] ?? 1;
  const wide = lanes === 1 ? '' : `for (; i + ${lanes} <= n; i += ${lanes}) { ${programSource(p, (u) => (u === 0 ? 'i' : `i + ${u}`), (u) => `_${u}`, lanes)} } `;
  const src = `${head.join(' ')} ${outs.join(' ')} let i = 0; ${wide}for (; i < n; i++) { ${single} }`;
  let fn = compiled.get(src);
  if (fn === undefined) {
    fn = new Function('ins', 'outs', 'n', src) as Kernel;
    // Bounded: a process tracing many different programs does not keep every kernel forever.
    if (compiled.size >= 4096) compiled.clear();
    compiled.set(src, fn);
  }
  p.host.kernel = fn;
  return fn;
}

/**
 * The same program as closures (no code generation), one step at a time over the whole array. A step's
 * buffer goes back to the spares after its last reader, so a long program holds only a few at once.
 */
function interpret(p: FusedParams, ins: ArrayLike<number>[], outs: Float32Array[], n: number): void {
  const vals: ArrayLike<number>[] = ins.slice();
  const last = new Array<number>(p.nIn + p.steps.length).fill(-1);
  p.steps.forEach((st, s) => st.args.forEach((a) => (last[a] = s)));
  p.results.forEach((r) => (last[r] = p.steps.length));
  for (let s = 0; s < p.steps.length; s++) {
    const { fact, args } = p.steps[s];
    const out = takeBuffer(n);
    const a = vals[args[0]];
    const b = args.length > 1 ? vals[args[1]] : a;
    const sa = args[0] < p.nIn && p.scalarIn[args[0]];
    const sb = args.length > 1 && args[1] < p.nIn && p.scalarIn[args[1]];
    for (let i = 0; i < n; i++) out[i] = fact.fn(sa ? a[0] : a[i], sb ? b[0] : b[i]);
    vals.push(out);
    for (const v of new Set(args)) if (v >= p.nIn && last[v] === s) giveBack(vals[v] as Float32Array);
    if (last[p.nIn + s] === -1) giveBack(out);
  }
  p.results.forEach((r, k) => outs[k].set(vals[r] as Float32Array));
  for (const r of new Set(p.results)) giveBack(vals[r] as Float32Array);
}

/** The loop indexes every input by the group's shape: a mis-shaped input would read past its data. */
function checkInputs(ins: Info[], p: FusedParams): void {
  for (let j = 0; j < ins.length; j++) {
    const have = ins[j].shape;
    const want = p.inShapes[j];
    let same = have.length === want.length;
    for (let d = 0; same && d < want.length; d++) same = have[d] === want[d];
    if (!same) throw inputShapeError(p, j, have);
  }
}

function inputShapeError(p: FusedParams, j: number, have: readonly number[]): InvalidArgumentError {
  const reader = p.nodes.find((n) => n.inputs.includes(p.inputs[j]));
  const want = `[${p.inShapes[j].join(',')}]`;
  return argError(
    reader?.prim.name ?? 'fused_elementwise', `input has shape [${have.join(',')}] at run time, but the graph was built for its static shape ${want}`, `[${have.join(',')}]`, want,
    'A shape given from outside the graph (setShape, a callback, a file) was wrong: fix it, or leave the dimension unknown (null).',
  );
}


/**
 * Spare host buffers by length, for loop results and the closure loop's steps: on wasm a result's buffer
 * is free once uploaded (the upload copies it); on cpu the executor returns a fused result that only
 * other fused loops read after its last read (`recycleFused`). Bounded in count and bytes.
 */
const spare = new Map<number, Float32Array[]>();
const spareLimit = { perLength: 4, bytes: 16 << 20 };
let spareBytes = 0;
/** The buffers loops allocated: only these may come back (never a kernel's array, which a view may share). */
const ours = new WeakSet<Float32Array>();

/** Host loop buffers reused from the spares and newly allocated: read by tests. */
export const hostFuseStats = { reused: 0, allocated: 0 };

function takeBuffer(n: number): Float32Array {
  const list = spare.get(n);
  const b = list?.pop();
  if (b !== undefined) {
    spareBytes -= b.byteLength;
    hostFuseStats.reused++;
    return b;
  }
  hostFuseStats.allocated++;
  const fresh = new Float32Array(n);
  ours.add(fresh);
  return fresh;
}

function giveBack(b: Float32Array): void {
  if (!ours.has(b) || spareBytes + b.byteLength > spareLimit.bytes) return;
  let list = spare.get(b.length);
  if (list === undefined) spare.set(b.length, (list = []));
  if (list.length >= spareLimit.perLength) return;
  list.push(b);
  spareBytes += b.byteLength;
}

/** Whether `n` is a fused group (whose loop neither keeps nor shares the arrays it reads). */
export function isFused(n: Node): boolean {
  return n.prim === (fusedElementwise as Primitive);
}

/** Frees a fused result whose every reader was a fused loop, keeping its buffer for the next loop (cpu). */
export function recycleFused(k: Kernels, x: Info): void {
  if (k !== backend.directKernels) return k.free(x);
  const vals = backend.freeForReuse(x);
  if (vals instanceof Float32Array) giveBack(vals);
}

function runOnHost(k: Kernels, ins: Info[], p: FusedParams): Info[] {
  checkInputs(ins, p);
  const n = p.size;
  const { data, outs } = p.host;
  for (let j = 0; j < ins.length; j++) data[j] = backend.readInfoSync(ins[j]) as Float32Array;
  for (let j = 0; j < outs.length; j++) outs[j] = takeBuffer(n);
  let kernel: Kernel | null = null;
  if (fuseConfig.codegen) {
    try {
      kernel = kernelFor(p);
    } catch {
      fuseConfig.codegen = false;
    }
  }
  try {
    if (kernel !== null) kernel(data, outs, n);
    else interpret(p, data, outs, n);
    const res = new Array<Info>(outs.length);
    for (let j = 0; j < outs.length; j++) res[j] = k.upload(outs[j], p.shape.slice(), 'float32');
    if (backend.uploadCopies()) for (let j = 0; j < outs.length; j++) giveBack(outs[j]);
    return res;
  } finally {
    data.fill(EMPTY);
    outs.fill(EMPTY);
  }
}
const EMPTY = new Float32Array(0);

function runKernels(k: Kernels, ins: Info[], p: FusedParams): Info[] {
  const env = new Map<number, Info>();
  p.inputs.forEach((v, i) => env.set(v, ins[i]));
  const made: Info[] = [];
  for (const node of p.nodes) {
    const outs = node.prim.impl(k, node.inputs.map((v) => env.get(v) as Info), node.params);
    node.outputs.forEach((o, j) => env.set(o, outs[j]));
    made.push(...outs);
  }
  const results = p.outputs.map((o) => env.get(o) as Info);
  for (const m of made) if (!results.includes(m)) k.free(m);
  return results;
}

function fullyKnown(shape: AVal['shape']): shape is number[] {
  return shape !== null && shape.every((d) => d !== null);
}

function sameDims(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/** Same rank, each dimension equal or 1 (a GPU program's input may broadcast so; the host loop's may not). */
function broadcastsTo(a: readonly number[], out: readonly number[]): boolean {
  return a.length === out.length && a.every((d, i) => d === out[i] || d === 1);
}

/** Whether `node` can join a fused group of shape `shape`. */
function fusible(g: Graph, node: Node): number[] | null {
  if (node.prim.scalar === undefined || node.outputs.length !== 1) return null;
  // The fused host loop: there the fact must equal the kernel on special values.
  if (backend.isHostBackend() && !factAgrees(node.prim)) return null;
  // The GPU backends run a generated shader: the record needs its shader template.
  const gpu = gpuLanguage() !== null;
  if (gpu && node.prim.scalar.gpu === undefined) return null;
  const out = g.values[node.outputs[0]];
  if (out.dtype !== 'float32' || !fullyKnown(out.shape)) return null;
  for (const i of node.inputs) {
    const v = g.values[i];
    if (v.dtype !== 'float32' || !fullyKnown(v.shape)) return null;
    if (!(v.shape.length === 0 || sameDims(v.shape, out.shape) || (gpu && broadcastsTo(v.shape, out.shape)))) return null;
  }
  return out.shape;
}

/** Replaces contiguous runs (>= 2 nodes) of fusible nodes with one fused node each. */
export function fuseElementwise(g: Graph): Graph {
  const readers = new Map<number, number>();
  g.nodes.forEach((n, idx) => n.inputs.forEach((i) => readers.set(i, Math.max(readers.get(i) ?? -1, idx))));
  const outputs = new Set(g.outputs);
  const nodes: Node[] = [];
  let run: Node[] = [];
  let runShape: number[] | null = null;
  let runEnd = 0;
  const flush = (): void => {
    if (run.length >= 2) nodes.push(fuseRun(g, run, runShape as number[], readers, outputs, runEnd));
    else nodes.push(...run);
    run = [];
    runShape = null;
  };
  g.nodes.forEach((n, idx) => {
    const shape = fusible(g, n);
    if (shape === null || (runShape !== null && !sameDims(shape, runShape)) || run.length >= fuseConfig.maxSteps) {
      flush();
      if (shape === null) return void nodes.push(n);
    }
    run.push(n);
    runShape = shape;
    runEnd = idx;
  });
  flush();
  return nodes.length === g.nodes.length ? g : new Graph(g.name, g.values, nodes, g.inputs, g.outputs);
}

function fuseRun(g: Graph, run: Node[], shape: number[], readers: Map<number, number>, graphOutputs: Set<number>, end: number): Node {
  const produced = new Map<number, number>();
  const inputs: number[] = [];
  const ref = (v: number): number => {
    const p = produced.get(v);
    if (p !== undefined) return p;
    let k = inputs.indexOf(v);
    if (k === -1) {
      inputs.push(v);
      k = inputs.length - 1;
    }
    return -1 - k;
  };
  const raw = run.map((n, s) => {
    const args = n.inputs.map(ref);
    produced.set(n.outputs[0], s);
    return { fact: n.prim.scalar as ScalarFact, args };
  });
  const nIn = inputs.length;
  const steps = raw.map((st) => ({ fact: st.fact, args: st.args.map((a) => (a < 0 ? -1 - a : nIn + a)) }));
  const outs = run.map((n) => n.outputs[0]).filter((o) => graphOutputs.has(o) || (readers.get(o) ?? -1) > end);
  const params: FusedParams = {
    size: shape.reduce((a, b) => a * b, 1),
    shape,
    nIn,
    steps,
    results: outs.map((o) => nIn + (produced.get(o) as number)),
    nodes: run,
    inputs,
    outputs: outs,
    outAvals: outs.map((o) => g.aval(o)),
    scalarIn: inputs.map((v) => g.values[v].shape?.length === 0 && shape.length !== 0),
    inShapes: inputs.map((v) => (g.values[v].shape as number[]).slice()),
    broadcast: inputs.some((v) => {
      const d = g.values[v].shape as number[];
      return d.length !== 0 && !sameDims(d, shape);
    }),
    host: { kernel: null, data: new Array<ArrayLike<number>>(inputs.length), outs: new Array<Float32Array>(outs.length) },
  };
  return { prim: fusedElementwise as Primitive, params, inputs, outputs: outs, site: run[run.length - 1].site };
}

/**
 * jitCompile's small-segment rule (`jitCompile: true`; 'strict' always compiles; off with
 * `ef.internal.fuseConfig.smallSegmentsOnHost = false`): whether the fused host loop runs `nodes` (a candidate ONNX segment) faster
 * than one ONNX Runtime call, whose fixed cost is ~12-15 us on this kind of machine. Only on tfjs-cpu, and only
 * for a segment the host loop runs whole (>= 2 fusible float32 elementwise nodes of one known shape). The host
 * estimate is elements x the per-element cost of each fact: ~0.5 ns for arithmetic and comparisons, ~15 ns for
 * a JS Math transcendental (exp, log, tanh, ...), which ORT's vectorized kernels beat at any size. Measured on
 * the 48-op chain (bench/compile.bench.js; docs/compile.md): relu/add/multiply on [256] ran 6 us fused vs 22 us
 * compiled, on [4096] 77 vs 51 us; with tanh in the chain ORT was faster already on [256] (15 vs 35 us).
 */
export function hostLoopBeatsOrt(g: Graph, nodes: readonly Node[]): boolean {
  if (!fuseConfig.smallSegmentsOnHost || backend.getBackend() !== 'cpu' || nodes.length < 2) return false;
  const shape = fusible(g, nodes[0]);
  if (shape === null || !nodes.every((n) => { const s = fusible(g, n); return s !== null && sameDims(s, shape); })) return false;
  const elements = shape.reduce((a, b) => a * b, 1);
  const ns = nodes.reduce((sum, n) => sum + (costlyMath((n.prim.scalar as ScalarFact).expr('a', 'b')) ? 15 : 0.5), 0);
  return (elements * ns) / 1000 < ORT_CALL_US;
}

/** One ONNX Runtime session call's fixed cost in microseconds (measured: a 1-element segment, onnxruntime-node 1.30). */
const ORT_CALL_US = 12;
/** Math calls that cost about as much as arithmetic; any other (exp, log, tanh, sqrt, ...) is a transcendental. */
const CHEAP_MATH = new Set(['fround', 'max', 'min', 'abs', 'floor', 'ceil', 'round', 'sign', 'trunc']);

/** Whether a fact's JS expression calls a Math function that costs ~15 ns per element (exp, log, tanh, ...). */
function costlyMath(expr: string): boolean {
  return (expr.match(/Math\.\w+/g) ?? []).some((call) => !CHEAP_MATH.has(call.slice('Math.'.length)));
}
