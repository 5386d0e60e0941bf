// jitCompile's executor lowering: runs of nodes with ONNX lowerings become one compiled segment (an ONNX Runtime session) each.
import { AVal, DType, Info, Kernels, PRIMITIVES, Primitive, Variable, assignVariable, backend, isStateful, readVariable, unimplemented, isPrimitive } from '@eagerflow/core';
import { wrapError } from '../executor';
import { Graph, Node, Value, isGraph } from '../graph';
import { unfuseEpilogues } from '../passes_epilogue';
import { hostLoopBeatsOrt } from '../fuse';
import { DEFAULT_OPSET, Part, blocker, buildModel, lowers, probeScope } from './model';
import { ORT_TYPE, OrtTensor, Session, ortNode, ortTensor } from './runtime';
import { WebSession, ortIsAsync } from './runtime_web';

/** `jitCompile` as the trace options give it. */
export type JitMode = boolean | 'strict';

interface SegmentParams {
  /** The source graph, wrapped so listings and constant scans do not treat it as a body. */
  readonly src: { readonly graph: Graph };
  readonly part: Part;
  readonly outAvals: readonly AVal[];
  /** Built on the first call: the session (onnxruntime-node), or the promise of one (onnxruntime-web). */
  readonly state: { session: Session | null; web: Promise<WebSession> | null; baked: Baked | null; rebuilds: number };
}

/**
 * Segment inputs written into the session as initializers: reads of variables nothing in the function assigns (a
 * loaded model's weights). ONNX Runtime prepacks and re-lays out constant weights once when it builds the session;
 * fed as inputs, it redid that every call (MobileNetV2 at batch 1: ~35 ms CPU a call against 10 ms for the same model
 * with its weights as initializers). `ids` are the baked values' data ids: a variable assigned between calls (from
 * outside) reads with another id, and the session is rebuilt with its new value.
 */
interface Baked {
  /** Positions of the segment's inputs baked in, and their data ids when the session was built. */
  readonly at: readonly number[];
  readonly ids: readonly object[];
  /** Positions still fed, in the order of the session's inputs `in0`, `in1`, ... */
  readonly fed: readonly number[];
}

/** A segment whose baked variables changed this many times feeds them from then on (no rebuild per call). */
const MAX_REBUILDS = 2;

/** The inputs of segment `p` that are reads of variables the graph never assigns (none if any node may assign one). */
function bakeable(p: SegmentParams): number[] {
  const g = p.src.graph;
  if (g.nodes.some((n) => n.prim.name !== 'read_variable' && isStateful(n.prim, n.params))) return [];
  const readOf = new Map<number, Node>();
  for (const n of g.nodes) if (n.prim.name === 'read_variable') readOf.set(n.outputs[0], n);
  return p.part.inputs.flatMap((v, j) => (readOf.has(v) ? [j] : []));
}

/** The session's graph and part with inputs `at` as constants holding the values `ins` has for them. */
function bakedModel(p: SegmentParams, ins: readonly Info[], at: readonly number[]): Uint8Array {
  const g = p.src.graph;
  const values = g.values.slice();
  for (const j of at) {
    const v = p.part.inputs[j];
    values[v] = { kind: 'const', dtype: values[v].dtype, shape: ins[j].shape.slice(), constant: ins[j] as unknown as backend.TfTensor };
  }
  const skip = new Set(at);
  const part: Part = { nodes: p.part.nodes, inputs: p.part.inputs.filter((_, j) => !skip.has(j)), outputs: p.part.outputs };
  return buildModel(new Graph(g.name, values, g.nodes, g.inputs, g.outputs), part, DEFAULT_OPSET, true);
}

function sameBaked(b: Baked, ins: readonly Info[]): boolean {
  for (let k = 0; k < b.at.length; k++) if (ins[b.at[k]].dataId !== b.ids[k]) return false;
  return true;
}

/**
 * Makes sure segment `p` has its node session for inputs `ins`: built (baking what it may) on the first call, rebuilt
 * when a baked variable changed. Returns whether the session is new (its first run gets the warm-up). The session and
 * the positions it is fed are in `p.state` (no object per call: this runs on every compiled call).
 */
function ensureSession(p: SegmentParams, ins: readonly Info[]): boolean {
  const st = p.state;
  if (st.session !== null && st.baked !== null && !sameBaked(st.baked, ins)) {
    st.session.dispose();
    st.session = null;
    st.baked = null;
    st.rebuilds++;
  }
  if (st.session !== null) return false;
  const at = st.rebuilds < MAX_REBUILDS ? bakeable(p) : [];
  const model = at.length > 0 ? bakedModel(p, ins, at) : buildModel(p.src.graph, p.part, DEFAULT_OPSET, true);
  const session = new Session(model, outNames(p.part.outputs.length), `jitCompile '${p.src.graph.name}'`, heavy(p.src.graph, p.part));
  const skip = new Set(at);
  st.baked = at.length > 0 ? { at, ids: at.map((j) => ins[j].dataId as object), fed: ins.map((_, j) => j).filter((j) => !skip.has(j)) } : null;
  st.session = session;
  return true;
}

/** Feed and fetch names `in0`, `in1`, ... and `out0`, ... made once (not a template string per tensor per call). */
const IN_NAMES: string[] = [];
const OUT_NAMES: string[] = [];
const inName = (k: number): string => (IN_NAMES[k] ??= `in${k}`);
const outName = (k: number): string => (OUT_NAMES[k] ??= `out${k}`);

/** Feeds for the node session: the inputs at `fed` (all when null) as `in0`, `in1`, ... over their host data (no copy). */
function nodeFeeds(ins: readonly Info[], p: SegmentParams, fed: readonly number[] | null): Record<string, OrtTensor> {
  const feeds: Record<string, OrtTensor> = {};
  const values = p.src.graph.values;
  const n = fed === null ? ins.length : fed.length;
  for (let k = 0; k < n; k++) {
    const j = fed === null ? k : fed[k];
    const x = ins[j];
    feeds[inName(k)] = ortTensor(values[p.part.inputs[j]].dtype, backend.readInfoSync(x) as Float32Array, x.shape);
  }
  return feeds;
}

/** The browser path: the same model on onnxruntime-web, asynchronously (the executor awaits it in callAsync). */
async function runWeb(k: Kernels, ins: Info[], p: SegmentParams): Promise<Info[]> {
  p.state.web ??= WebSession.create(buildModel(p.src.graph, p.part, DEFAULT_OPSET, true), `jitCompile '${p.src.graph.name}'`).catch((e: unknown) => {
    p.state.web = null;
    throw e;
  });
  const session = await p.state.web;
  let res: Record<string, OrtTensor>;
  try {
    res = await session.run(feedsOf(ins, p, (dtype, data, dims) => session.tensor(ORT_TYPE[dtype], data, dims)));
  } catch {
    return replay(k, ins, p);
  }
  return adoptOutputs(k, res, p);
}

/** The segment's inputs as ORT tensors `in0`, `in1`, ... over their host data (no copy), made by `make`. */
function feedsOf(ins: readonly Info[], p: SegmentParams, make: (dtype: DType, data: Float32Array, dims: readonly number[]) => OrtTensor): Record<string, OrtTensor> {
  const feeds: Record<string, OrtTensor> = {};
  for (let j = 0; j < ins.length; j++) {
    const x = ins[j];
    feeds[inName(j)] = make(p.src.graph.values[p.part.inputs[j]].dtype, backend.readInfoSync(x) as Float32Array, x.shape);
  }
  return feeds;
}

/**
 * The session's outputs `out0`, `out1`, ... as backend values (their data as it is), shaped as the segment's
 * outputs are when those shapes are static: the model may return a value with one leading 1 more (a bias update's
 * [1, K] Gemm result for [K]: flatOutputs in buildModel), which needs no Reshape node.
 */
function adoptOutputs(k: Kernels, res: Record<string, OrtTensor>, p: SegmentParams): Info[] {
  const out = new Array<Info>(p.outAvals.length);
  for (let j = 0; j < out.length; j++) {
    const r = res[outName(j)];
    out[j] = k.upload(r.data as Float32Array, staticOr(p.outAvals[j].shape, r.dims), p.outAvals[j].dtype);
  }
  return out;
}

/**
 * `want` when it is fully static and `dims` is it or it with one leading 1 (the only reshape flatOutputs leaves to
 * adoption); else a copy of `dims`, so a lowering that returned another shape of the same size shows as that shape
 * (the executor's output checks and the compiled-vs-uncompiled tests see it) instead of being silently reshaped.
 */
export function staticOr(want: readonly (number | null)[] | null, dims: readonly number[]): number[] {
  if (want === null) return dims.slice();
  const lead = dims.length === want.length + 1 && dims[0] === 1 ? 1 : 0;
  if (dims.length !== want.length + lead) return dims.slice();
  for (let d = 0; d < want.length; d++) if (want[d] !== dims[d + lead]) return dims.slice();
  return (want as number[]).slice();
}

const outNames = (n: number): string[] => Array.from({ length: n }, (_, k) => outName(k));

/** One compiled segment: feeds its inputs to the session, adopts its outputs (host memory both ways). */
const onnxSegment: Primitive<SegmentParams> = {
  name: 'onnx_segment',
  effect: 'pure',
  foldable: false,
  infer: (_ins, p) => p.outAvals.slice(),
  impl(k, ins, p) {
    // onnxruntime-web runs asynchronously: a Promise the executor awaits (callAsync; synchronous calls run uncompiled there).
    if (ortIsAsync()) return runWeb(k, ins, p) as unknown as Info[];
    const fresh = ensureSession(p, ins);
    const st = p.state;
    const session = st.session as Session;
    const feeds = nodeFeeds(ins, p, st.baked === null ? null : st.baked.fed);
    const t0 = fresh ? performance.now() : 0;
    let res: Record<string, OrtTensor>;
    try {
      res = session.run(feeds);
      if (fresh) warmUp(session, feeds, performance.now() - t0);
    } catch {
      return replay(k, ins, p);
    }
    return adoptOutputs(k, res, p);
  },
  vjp: null,
  saves: 'none',
  printParams: (p) => `[${p.part.nodes.map((n) => n.prim.name).join(',')}]`,
};

/**
 * After a session run failed: the segment's nodes run again through the kernels the function runs uncompiled, on the
 * same inputs (segments are pure). Where they fail too, the caller gets the error the function gives uncompiled (the
 * op, the value, the fix and the node's line) instead of ONNX Runtime's message: ONNX Runtime refuses what the
 * lowerings make it refuse where TensorFlow does (an index out of range, nonNegativeIndices; a slice out of bounds).
 * Where they succeed (ONNX Runtime refused what the records accept: an empty tensor of unknown dims in a kernel that
 * takes none), their outputs are the call's. Everything else the replay made is freed.
 */
function replay(k: Kernels, ins: readonly Info[], p: SegmentParams): Info[] {
  const g = p.src.graph;
  const env = new Map<number, Info>();
  g.values.forEach((v, i) => v.kind === 'const' && v.constant !== undefined && env.set(i, v.constant as unknown as Info));
  p.part.inputs.forEach((v, j) => env.set(v, ins[j]));
  const given = new Set<Info>(env.values());
  const made = new Set<Info>();
  let failed: unknown = null;
  for (const n of p.part.nodes) {
    try {
      const outs = n.prim.impl(k, n.inputs.map((v) => env.get(v) as Info), n.params) as Info[];
      n.outputs.forEach((o, j) => {
        env.set(o, outs[j]);
        if (!given.has(outs[j])) made.add(outs[j]);
      });
    } catch (e) {
      failed = wrapError(e, g, n);
      break;
    }
  }
  // The outputs are the caller's own: made here (taken out of the frees) or copies of inputs and constants.
  const outs = failed !== null ? [] : p.part.outputs.map((v) => {
    const x = env.get(v) as Info;
    if (made.delete(x)) return x;
    return k.run('Identity', { x }) as Info;
  });
  for (const m of made) k.free(m);
  if (failed !== null) throw failed;
  return outs;
}

/** A fresh session's first run up to which warm-up runs are added (milliseconds), and how many runs in all. */
const warmUpConfig = { belowMs: 2, runs: 3 };

/**
 * ONNX Runtime's first runs of a new session are slow (its arenas grow, kernels pack their weights): on a small
 * segment, tanh(x @ x + 1) on [8, 8], the second call took ~210 us and calls 3-15 40-60 us against ~25 us later.
 * The compiling call runs a cheap segment a few more times on its own inputs (segments are pure; the outputs are
 * dropped), so the calls after it start warm. A segment whose first run takes longer (a whole network) is not
 * repeated: its warm-up is a small part of its run, and the compiling call stays short.
 */
function warmUp(session: Session, feeds: Record<string, OrtTensor>, firstMs: number): void {
  if (firstMs >= warmUpConfig.belowMs) return;
  for (let i = 1; i < warmUpConfig.runs; i++) session.run(feeds);
}

/** Kernels whose work grows faster than their tensors (contractions, windows): worth intra-op threads. */
const HEAVY = new Set([
  'matmul', 'batch_matmul', 'conv2d', 'depthwise_conv2d', 'conv3d', 'avg_pool', 'max_pool', 'einsum',
  'conv2d_backprop_input', 'conv2d_backprop_filter', 'depthwise_conv2d_backprop_input', 'depthwise_conv2d_backprop_filter', 'avg_pool_grad', 'max_pool_grad',
]);
/** Elements from which an elementwise segment is worth intra-op threads. */
const HEAVY_ELEMENTS = 1 << 16;
/**
 * Elements from which one of a HEAVY kernel's operands or results makes it worth intra-op threads: below, a heavy
 * session's spinning pool thread only burns a core (a compiled tanh(x @ x + 1) on [8, 8]: calls 2-101 took 81 us of
 * CPU time per call on two threads, 24 us on one, at the same wall time).
 */
const HEAVY_OP_ELEMENTS = 1 << 12;

/** Elements of a value, Infinity when a dim is unknown. */
function elements(g: Graph, v: number): number {
  const shape = g.values[v].shape;
  if (shape === null || shape.some((d) => d === null)) return Infinity;
  return (shape as number[]).reduce((a, b) => a * b, 1);
}

/** Whether a segment does enough work per call for intra-op threads (unknown dims count as heavy). */
export function heavy(g: Graph, part: Part): boolean {
  return part.nodes.some(
    (n) =>
      (HEAVY.has(n.prim.name) && [...n.inputs, ...n.outputs].some((v) => elements(g, v) >= HEAVY_OP_ELEMENTS)) ||
      n.outputs.some((o) => elements(g, o) >= HEAVY_ELEMENTS) ||
      Object.values(n.params).some((b) => isGraph(b) && heavy(b, b)),
  );
}

/** Variable plumbing: JS steps by design (reads become segment inputs, assignments consume segment outputs). */
const PLUMBING = new Set(['read_variable', 'assign_variable']);

/** The variable a plumbing node reads or assigns. */
const variableOf = (n: Node): Variable => (n.params as unknown as { variable: Variable }).variable;

/** The record each read-modify-write assignment mode folds into. */
const ASSIGN_ARITHMETIC: Readonly<Record<string, Primitive | undefined>> = { assignAdd: PRIMITIVES.add as Primitive, assignSub: PRIMITIVES.sub as Primitive };

/**
 * `v.assignAdd(x)` / `v.assignSub(x)` become a read of v, an add / sub and a plain assign, so the arithmetic
 * joins the compiled segment that computes x and the assignment only swaps in the segment's output buffer.
 * An optimizer step otherwise ran every variable's update as a tfjs-cpu kernel after the session: in an MLP
 * 784-256-256-10 SGD step that was about a third of the step's time (measured with --cpu-prof).
 */
function foldAssignArithmetic(g: Graph): Graph {
  const folds = g.nodes.some((n) => isPrimitive(n.prim, 'assign_variable') && (n.params as { mode?: string }).mode !== 'assign');
  if (!folds) return g;
  const values: Value[] = g.values.slice();
  const fresh = (dtype: DType, shape: Value['shape']): number => values.push({ kind: 'node', dtype, shape }) - 1;
  const nodes: Node[] = [];
  // The value each variable was last read into, while no assignment (or other stateful step) came since.
  const lastRead = new Map<Variable, number>();
  for (const n of g.nodes) {
    const mode = (n.params as { mode?: string }).mode;
    const arith = isPrimitive(n.prim, 'assign_variable') ? ASSIGN_ARITHMETIC[mode as string] : undefined;
    if (arith === undefined) {
      nodes.push(n);
      if (isPrimitive(n.prim, 'read_variable')) lastRead.set(variableOf(n), n.outputs[0]);
      else if (isPrimitive(n.prim, 'assign_variable')) lastRead.delete(variableOf(n));
      else if (isStateful(n.prim, n.params)) lastRead.clear();
      continue;
    }
    const v = variableOf(n);
    const x = g.values[n.inputs[0]];
    let cur = lastRead.get(v);
    if (cur === undefined) {
      cur = fresh(v.dtype, v._value.dims === null ? x.shape : v._value.dims.slice());
      nodes.push({ prim: readVariable as unknown as Primitive, params: { variable: v }, inputs: [], outputs: [cur], site: n.site });
    }
    lastRead.delete(v);
    const next = fresh(v.dtype, x.shape);
    nodes.push(
      { prim: arith, params: {}, inputs: [cur, n.inputs[0]], outputs: [next], site: n.site },
      { prim: assignVariable as unknown as Primitive, params: { ...n.params, mode: 'assign' }, inputs: [next], outputs: [], site: n.site },
    );
  }
  return new Graph(g.name, values, nodes, g.inputs, g.outputs);
}

/**
 * Whether a plumbing or stateful node must stay behind the nodes already placed after the open segment.
 * A variable read only waits for assignments of the same variable (and for other stateful steps, such as
 * host callbacks, which may assign it); other ordered nodes wait for any stateful node there.
 */
function waitsFor(n: Node, after: readonly Node[]): boolean {
  if (isPrimitive(n.prim, 'read_variable')) {
    const v = variableOf(n);
    return after.some((a) => (isPrimitive(a.prim, 'assign_variable') ? variableOf(a) === v : !isPrimitive(a.prim, 'read_variable') && isStateful(a.prim, a.params)));
  }
  return after.some((a) => isStateful(a.prim, a.params) || PLUMBING.has(a.prim.name));
}

/**
 * Groups nodes into compiled segments. A node without a lowering that does not depend on the open
 * segment is hoisted before it (stateful order kept); one that does closes the segment after it.
 */
export function segmentGraph(traced: Graph, mode: JitMode): Graph {
  // ONNX Runtime fuses on its own: it compiles the unfused conv / matmul, bias and activation.
  const g = foldAssignArithmetic(unfuseEpilogues(traced));
  // Node: a missing onnxruntime-node is an error now; the browser's onnxruntime-web loads on the first call.
  if (!ortIsAsync()) ortNode(`jitCompile '${g.name}'`);
  const probe = probeScope(g);
  const out: Node[] = [];
  let before: Node[] = [];
  let seg: Node[] = [];
  let after: Node[] = [];
  const segOut = new Set<number>();
  const afterOut = new Set<number>();
  const flush = (): void => {
    out.push(...before);
    // Small cheap elementwise runs stay nodes (the executor fuses them into one host loop, faster than an ORT call).
    if (seg.length > 0) out.push(...(mode === true && hostLoopBeatsOrt(g, seg) ? seg : [segmentNode(g, seg, [...after, ...rest()])]));
    out.push(...after);
    before = [];
    seg = [];
    after = [];
    segOut.clear();
    afterOut.clear();
  };
  let idx = 0;
  const rest = (): Node[] => g.nodes.slice(idx);
  for (; idx < g.nodes.length; idx++) {
    const n = g.nodes[idx];
    const reads = (s: Set<number>): boolean => n.inputs.some((i) => s.has(i));
    if (lowers(probe, n)) {
      if (reads(afterOut)) flush();
      seg.push(n);
      n.outputs.forEach((o) => segOut.add(o));
      continue;
    }
    if (mode === 'strict' && !PLUMBING.has(n.prim.name)) throw strictError(g, n);
    const ordered = isStateful(n.prim, n.params) || PLUMBING.has(n.prim.name);
    if (reads(segOut) || reads(afterOut) || (ordered && waitsFor(n, after))) {
      after.push(n);
      n.outputs.forEach((o) => afterOut.add(o));
    } else before.push(n);
  }
  flush();
  return new Graph(g.name, g.values, out, g.inputs, g.outputs);
}

/** jitCompile: 'strict' refusing a node: names the op (the one inside a cond branch or loop body that keeps it from lowering). */
function strictError(g: Graph, n: Node): Error {
  const inner = blocker(n);
  const where = inner === n ? '' : ` (inside '${n.prim.name}', which becomes ONNX ${n.prim.name === 'cond' ? 'If' : 'Loop'} only when every op of its bodies lowers)`;
  const dtypes = inner !== n ? '' : ` on ${n.inputs.map((i) => g.values[i].dtype).join(', ') || 'no inputs'}`;
  return unimplemented(`jitCompile '${g.name}'`, `op '${inner.prim.name}'${where} has no ONNX lowering for these inputs`, `'${inner.prim.name}'${dtypes}`, 'ops with ONNX lowerings (docs/compile.md)', "Use jitCompile: true to run it as a JS step between compiled segments, or trace without jitCompile.", inner.prim.name);
}

/** Releases the ONNX Runtime sessions of a segmented graph's compiled segments (they hold native memory and threads). */
export function disposeSessions(g: Graph): void {
  for (const n of g.nodes) {
    if (n.prim !== (onnxSegment as unknown as Primitive)) continue;
    const st = (n.params as SegmentParams).state;
    st.session?.dispose();
    st.session = null;
    st.baked = null;
    void st.web?.then((w) => w.dispose(), () => undefined);
    st.web = null;
  }
}

function segmentNode(g: Graph, nodes: Node[], later: readonly Node[]): Node {
  const produced = new Set(nodes.flatMap((n) => n.outputs));
  const inputs: number[] = [];
  for (const n of nodes) for (const i of n.inputs) if (!produced.has(i) && g.values[i].kind !== 'const' && !inputs.includes(i)) inputs.push(i);
  const needed = new Set([...g.outputs, ...later.flatMap((n) => n.inputs)]);
  const outputs = nodes.flatMap((n) => n.outputs).filter((o) => needed.has(o));
  const part: Part = { nodes, inputs, outputs };
  const params: SegmentParams = { src: { graph: g }, part, outAvals: outputs.map((o) => g.aval(o)), state: { session: null, web: null, baked: null, rebuilds: 0 } };
  return { prim: onnxSegment as unknown as Primitive, params, inputs, outputs, site: nodes[nodes.length - 1].site };
}
