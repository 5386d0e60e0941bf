// The executor: a precomputed plan run in a short loop that frees every value after its last use.
import { AVal, EnsureShapeParams, Info, Kernels, OpError, PRIMITIVES, Params, Primitive, ensureShapeCheck, toOpError, typeError, withOp } from '@eagerflow/core';
import { Graph, Node, nodeLine } from './graph';
import { fuseElementwise, isFused, recycleFused } from './fuse';
import { RunLimits, checkElements, checkPlannedElements, runLimitsOf } from './run_limits';
import { checkInputs, checkOutputs, needsRuntimeCheck } from './runtime_checks';
import { userFrame } from './user_frame';
import { directKernels } from './core_bindings';

interface Step {
  readonly prim: Primitive;
  readonly params: Params;
  readonly ins: readonly number[];
  readonly outs: readonly number[];
  /** Values whose last reader is this step (freed right after it). */
  readonly free: readonly number[];
  readonly node: Node;
  /** Of `free`: fused results only fused loops read, whose buffers the next loops may reuse. */
  readonly recycle: ReadonlySet<number> | null;
  /** An input whose handle the step's output took over (its slot is cleared, not freed); -1: none (every step has the field: one object shape). */
  readonly moved: number;
  /** Input dtypes when some input shape was unknown at trace time: infer re-runs on the real shapes. */
  readonly recheck: readonly AVal['dtype'][] | null;
}

/**
 * ensure_shape whose input is read by no one else: the check alone, handing the input's handle to
 * the output (no Identity kernel), so a setShape costs one shape compare per call.
 */
const ensureMove: Primitive = {
  ...(PRIMITIVES.ensure_shape as Primitive),
  impl: (_k, ins, p) => {
    ensureShapeCheck(ins[0], p as EnsureShapeParams);
    return [ins[0]];
  },
};

/** A graph compiled for execution. */
export interface Plan {
  readonly graph: Graph;
  readonly steps: readonly Step[];
  readonly size: number;
  readonly consts: readonly (readonly [number, Info])[];
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  /** Outputs that need an owned copy (inputs, constants, or repeated outputs). */
  readonly copyOut: readonly boolean[];
  /** Run-time limits (loaded functions): every node's results are checked against them. */
  readonly limits: RunLimits | null;
  /** Node values that are another value's handle (checked ensure_shape of an input): never freed here. */
  readonly borrowed: ReadonlySet<number>;
  /** Idle per-run arrays (slots, each step's argument list), reused by the next run: calls allocate none. */
  readonly scratch: Scratch[];
}

/**
 * One run's working arrays. A run takes one from its plan's pool (or makes one: a nested or concurrent
 * run of the same plan gets its own) and puts it back cleared, so it keeps no value alive.
 */
interface Scratch {
  readonly slots: Info[];
  readonly args: Info[][];
}

/**
 * Executor lowerings applied to a graph before planning (not visible in graph listings). `fuse`:
 * elementwise fusion (host loops on cpu, generated shaders on webgl/webgpu); the conformance suite
 * turns it off to run every case unfused too. Read when a function is traced.
 */
export const executorConfig = { fuse: true };

export function compile(source: Graph): Plan {
  const graph = executorConfig.fuse ? fuseElementwise(source) : source;
  const last = new Map<number, number>();
  graph.nodes.forEach((n, k) => n.inputs.forEach((i) => last.set(i, k)));
  const keep = new Set<number>(graph.outputs);
  // ensure_shape outputs that are the caller's input (or a constant) itself: checked, never freed by us.
  const alias = new Set<number>();
  const owned = (i: number): boolean => graph.values[i].kind === 'node' && !keep.has(i) && !alias.has(i);
  const reusable = fusedOnlyValues(graph, keep);
  const steps: Step[] = graph.nodes.map((n, k) => {
    const free = new Set<number>();
    for (const i of n.inputs) if (last.get(i) === k && owned(i)) free.add(i);
    for (const o of n.outputs) if (!last.has(o) && owned(o)) free.add(o);
    // ensure_shape's impl checks the run-time shape itself (its output is its input): re-running its infer adds nothing.
    const recheck = n.prim !== PRIMITIVES.ensure_shape && needsRuntimeCheck(graph, n) ? n.inputs.map((i) => graph.values[i].dtype) : null;
    const recycle = (f: Set<number>): ReadonlySet<number> | null => {
      const r = [...f].filter((i) => reusable.has(i));
      return r.length === 0 ? null : new Set(r);
    };
    if (n.prim !== PRIMITIVES.ensure_shape) return { prim: n.prim, params: n.params, ins: n.inputs, outs: n.outputs, free: [...free], recycle: recycle(free), node: n, moved: -1, recheck };
    const [input] = n.inputs;
    const [output] = n.outputs;
    if (free.has(input) && !free.has(output)) {
      free.delete(input);
      return { prim: ensureMove, params: n.params, ins: n.inputs, outs: n.outputs, free: [...free], recycle: null, node: n, moved: input, recheck };
    }
    if (!owned(input) && !keep.has(output)) {
      alias.add(output);
      return { prim: ensureMove, params: n.params, ins: n.inputs, outs: n.outputs, free: [], recycle: null, node: n, moved: -1, recheck };
    }
    return { prim: n.prim, params: n.params, ins: n.inputs, outs: n.outputs, free: [...free], recycle: null, node: n, moved: -1, recheck };
  });
  const consts: [number, Info][] = [];
  graph.values.forEach((v, i) => v.kind === 'const' && consts.push([i, v.constant as Info]));
  const seen = new Set<number>();
  const copyOut = graph.outputs.map((o) => {
    const copy = graph.values[o].kind !== 'node' || seen.has(o);
    seen.add(o);
    return copy;
  });
  return { graph, steps, size: graph.values.length, consts, inputs: graph.inputs, outputs: graph.outputs, copyOut, limits: runLimitsOf.get(source) ?? null, borrowed: alias, scratch: [] };
}

/**
 * Results of fused groups that only fused groups read (no graph output, no other reader): their buffers
 * are in no one else's hands after the last read, so the executor hands them to the next fused loop.
 */
function fusedOnlyValues(graph: Graph, keep: ReadonlySet<number>): Set<number> {
  const made = new Set<number>();
  const otherReader = new Set<number>();
  for (const n of graph.nodes) {
    const fused = isFused(n);
    if (fused) n.outputs.forEach((o) => made.add(o));
    else n.inputs.forEach((i) => otherReader.add(i));
  }
  return new Set([...made].filter((v) => !keep.has(v) && !otherReader.has(v)));
}

const plans = new WeakMap<Graph, Plan>();

/** The compiled plan of a body graph (cond/while), compiled once. */
export function planOf(g: Graph): Plan {
  let p = plans.get(g);
  if (p === undefined) {
    p = compile(g);
    plans.set(g, p);
  }
  return p;
}

function prepare(plan: Plan, inputs: readonly Info[]): Scratch {
  const sc = plan.scratch.pop() ?? { slots: new Array<Info>(plan.size), args: plan.steps.map((st) => new Array<Info>(st.ins.length)) };
  const slots = sc.slots;
  for (let k = 0; k < plan.consts.length; k++) slots[plan.consts[k][0]] = plan.consts[k][1];
  for (let k = 0; k < plan.inputs.length; k++) slots[plan.inputs[k]] = inputs[k];
  return sc;
}

/**
 * The run's outputs (owned by the caller); its arrays are cleared (no value stays reachable from the plan) and go back
 * to the pool.
 */
function finish(plan: Plan, sc: Scratch, k: Kernels): Info[] {
  const slots = sc.slots;
  const outs = new Array<Info>(plan.outputs.length);
  for (let j = 0; j < outs.length; j++) {
    const v = slots[plan.outputs[j]];
    outs[j] = plan.copyOut[j] ? (k.run('Identity', { x: v }) as Info) : v;
  }
  slots.fill(undefined as unknown as Info);
  for (let s = 0; s < sc.args.length; s++) sc.args[s].fill(undefined as unknown as Info);
  if (plan.scratch.length < 2) plan.scratch.push(sc);
  return outs;
}

function runStep(step: Step, ins: Info[], slots: Info[], k: Kernels, plan: Plan): Info[] | Promise<Info[]> {
  for (let j = 0; j < ins.length; j++) ins[j] = slots[step.ins[j]];
  if (step.recheck === null) {
    if (plan.limits !== null) checkPlannedElements(step.outs.map((i) => plan.graph.values[i]), plan.limits);
    return step.prim.impl(k, ins, step.params);
  }
  const outs = checkInputs(step.prim, step.params, step.recheck, ins);
  if (plan.limits !== null) checkPlannedElements(outs, plan.limits);
  const res = step.prim.impl(k, ins, step.params);
  if (!isThenable(res)) checkOutputs(step.prim, outs, res as Info[]);
  return res;
}

/** Stores a step's results, frees the values it was the last to read, and checks the run's element limit. */
function store(plan: Plan, step: Step, res: Info[], slots: Info[], k: Kernels): void {
  for (let j = 0; j < step.outs.length; j++) slots[step.outs[j]] = res[j];
  if (step.moved !== -1) slots[step.moved] = undefined as unknown as Info;
  for (let j = 0; j < step.free.length; j++) {
    const i = step.free[j];
    if (step.recycle !== null && step.recycle.has(i)) recycleFused(k, slots[i]);
    else k.free(slots[i]);
    slots[i] = undefined as unknown as Info;
  }
  if (plan.limits !== null) checkElements(res, plan.limits);
}

/**
 * runAsync's step loop (run has the same loop without the generator): runs the plan's steps in order and returns the
 * outputs. A step that returns a Promise (an async host callback) is yielded with its step; the driver resumes the loop
 * with the resolved outputs or throws into it, and a failure anywhere frees the run's values and names the failing node.
 */
function* steps(plan: Plan, inputs: readonly Info[], k: Kernels): Generator<[Step, Promise<Info[]>], Info[], Info[]> {
  const sc = prepare(plan, inputs);
  const slots = sc.slots;
  let s = 0;
  try {
    for (; s < plan.steps.length; s++) {
      const step = plan.steps[s];
      const res = runStep(step, sc.args[s], slots, k, plan);
      const outs = isThenable(res) ? yield [step, res as Promise<Info[]>] : (res as Info[]);
      store(plan, step, outs, slots, k);
    }
    return finish(plan, sc, k);
  } catch (e) {
    throw failed(e, plan, slots, k, s);
  }
}

/**
 * Runs the plan; returned infos are owned by the caller. `k` picks direct or engine kernels.
 *
 * The same loop as `steps`, written out without the generator: every synchronous call of a traced function runs it,
 * and a generator object and its resumptions cost the most while V8 still interprets the call path (a process's first
 * calls: issue 31's cold window). For the same reason the common step (no run-time limits, no shape re-check, nothing
 * moved or recycled) is runStep and store written out inline: the kernel call and two short loops, no helper calls.
 * A step returning a Promise fails the run as `steps` does when the driver throws into it.
 */
export function run(plan: Plan, inputs: readonly Info[], k: Kernels = directKernels): Info[] {
  const sc = prepare(plan, inputs);
  const slots = sc.slots;
  const all = plan.steps;
  const n = all.length;
  const plain = plan.limits === null;
  let s = 0;
  try {
    for (; s < n; s++) {
      const step = all[s];
      if (!plain || step.recheck !== null || step.moved !== -1 || step.recycle !== null) {
        const res = runStep(step, sc.args[s], slots, k, plan);
        if (isThenable(res)) throw asyncInSyncRun(step, res as Promise<Info[]>, k);
        store(plan, step, res as Info[], slots, k);
        continue;
      }
      const ins = sc.args[s];
      const from = step.ins;
      for (let j = 0; j < from.length; j++) ins[j] = slots[from[j]];
      const res = step.prim.impl(k, ins, step.params);
      if (!Array.isArray(res) && isThenable(res)) throw asyncInSyncRun(step, res as Promise<Info[]>, k);
      const outs = step.outs;
      for (let j = 0; j < outs.length; j++) slots[outs[j]] = res[j];
      const free = step.free;
      for (let j = 0; j < free.length; j++) {
        k.free(slots[free[j]]);
        slots[free[j]] = undefined as unknown as Info;
      }
    }
    return finish(plan, sc, k);
  } catch (e) {
    throw failed(e, plan, slots, k, s);
  }
}

/** A step returned a Promise in a synchronous run: whatever it eventually produces is freed (nobody awaits it); the error says to callAsync. */
function asyncInSyncRun(step: Step, res: Promise<Info[]>, k: Kernels): Error {
  void res.then((late) => late.forEach((x) => k.free(x)), () => undefined);
  return typeError('ef.trace', `'${step.prim.name}' returned a Promise in a synchronous call`, 'a Promise', 'values', 'Call the traced function with await f.callAsync(...) when a callback is async.');
}

/** Like run, awaiting steps that return Promises (async host callbacks). */
export async function runAsync(plan: Plan, inputs: readonly Info[], k: Kernels = directKernels): Promise<Info[]> {
  const it = steps(plan, inputs, k);
  let r = it.next();
  while (!r.done) {
    let outs: Info[];
    try {
      outs = await r.value[1];
    } catch (e) {
      r = it.throw(e);
      continue;
    }
    r = it.next(outs);
  }
  return r.value;
}

/**
 * After step `s` failed: frees the run's values and returns the error naming the failing node. The run's arrays are
 * dropped, not pooled (an abandoned async step may still hold its arguments).
 */
function failed(e: unknown, plan: Plan, slots: Info[], k: Kernels, s: number): unknown {
  cleanup(plan, slots, k);
  return wrapError(e, plan.graph, plan.steps[s]?.node);
}

function isThenable(x: unknown): boolean {
  return x !== null && typeof x === 'object' && typeof (x as { then?: unknown }).then === 'function';
}

/** Frees every node value still alive after a failure. */
function cleanup(plan: Plan, slots: Info[], k: Kernels): void {
  plan.graph.values.forEach((v, i) => {
    if (v.kind === 'node' && slots[i] !== undefined && !plan.borrowed.has(i)) {
      try {
        k.free(slots[i]);
      } catch {
        /* already freed */
      }
      slots[i] = undefined as unknown as Info;
    }
  });
}

const WRAPPED = Symbol('ef.wrapped');

/** Adds the failing node's line and the user's call site; keeps the error class and cause. */
export function wrapError(raw: unknown, graph: Graph, node: Node | undefined): unknown {
  if (!(raw instanceof Error) || node === undefined || (raw as { [WRAPPED]?: boolean })[WRAPPED]) return raw;
  // Kernel errors get their ef.errors class here, as in eager calls (evalEager maps them alike); a
  // kernel missing on this backend is named after the op.
  const e = withOp(toOpError(raw, node.prim.name), node.prim.name) as Error;
  const site = userFrame(node.site);
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const caller = userFrame(new Error());
  Error.stackTraceLimit = limit;
  const detail =
    `\n  while running graph '${graph.name}', node: ${nodeLine(graph, node)}` +
    (node.site?.label ? `\n  read from ${node.site.label}` : '') +
    (site ? `\n  defined at: ${site}` : '\n  (set ef.traceConfig.captureSites = true before tracing to see where this op was defined)') +
    (caller ? `\n  called from: ${caller}` : '');
  let out: Error;
  if (e instanceof OpError) {
    const Ctor = e.constructor as new (m: string, o: { cause?: unknown; opName?: string | null }) => OpError;
    out = new Ctor(e.message + detail, { cause: e.cause ?? e, opName: e.opName ?? node.prim.name });
  } else {
    const Ctor = (e.constructor as new (m: string, o?: { cause?: unknown }) => Error) ?? Error;
    try {
      out = new Ctor(e.message + detail, { cause: e });
    } catch {
      out = new Error(e.message + detail, { cause: e });
    }
  }
  (out as { [WRAPPED]?: boolean })[WRAPPED] = true;
  return out;
}
