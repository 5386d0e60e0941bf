// The tracing interpreter: records each bound primitive as a node and returns symbolic tensors.
import { AVal, DType, Dims, PRIMITIVES, Params, Primitive, Tensor, TraceBuilder, backend, bind, ctx, evalEager, pinGraphConstant, typeError } from '@eagerflow/core';
import type { SymbolicRef } from '@eagerflow/core';
import { Graph, Node, Value } from './graph';
import { optimize } from './passes';

/**
 * Tracing options. `captureSites` records where each node was created (shown when it fails at run
 * time); it costs ~15-20 us per op while tracing, so it is off by default (on with the environment
 * variable EF_TRACE_SITES=1): failures always name the failing node and the user's call of the traced function.
 */
export const traceConfig = {
  captureSites: typeof process !== 'undefined' && process.env !== undefined && process.env.EF_TRACE_SITES === '1',
  siteDepth: 6,
};

let siteLabel: string | undefined;

/**
 * Runs `fn` with `label` recorded on every node traced meanwhile (an importer names the source node, e.g. a
 * GraphDef node, so a run-time failure names it too). Nests: the innermost label wins.
 */
export function withSiteLabel<T>(label: string, fn: () => T): T {
  const prev = siteLabel;
  siteLabel = label;
  try {
    return fn();
  } finally {
    siteLabel = prev;
  }
}

/**
 * Captures the creating call stack cheaply: only the few frames between the user's code and here
 * (capturing full stacks per node made tracing ~4x slower).
 */
function callSite(): { stack?: string } {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = traceConfig.siteDepth;
  const site: { stack?: string } = {};
  // Frames from bind down are ours: the stack starts at the op wrapper that called bind.
  Error.captureStackTrace(site, bind);
  Error.stackTraceLimit = limit;
  return site;
}

/** Builds one graph; a child builder (cond/while body) captures its parent's values as inputs. */
export class GraphBuilder implements TraceBuilder {
  alive = true;
  readonly values: Value[] = [];
  readonly nodes: Node[] = [];
  readonly inputs: number[] = [];
  /** Parent-graph tensors this (child) graph reads, paired with their input index here. */
  readonly captures: { outer: Tensor; inner: number }[] = [];
  private readonly constOf = new Map<backend.TfTensor, number>();
  /** Parent values captured here, by the symbolic reference read (setShape moves a tensor to a new one). */
  private readonly captureOf = new Map<SymbolicRef, number>();
  /** The symbolic tensor of each value (by index), so a value keeps one identity (tape ids). */
  private readonly tensors: (Tensor | undefined)[] = [];

  constructor(
    readonly name: string,
    readonly parent: GraphBuilder | null = null,
  ) {}

  /** A new graph input (placeholder) of the given type. */
  addInput(dtype: DType, shape: Dims, name: string): Tensor {
    const i = this.values.length;
    this.values.push({ kind: 'input', dtype, shape, name });
    this.inputs.push(i);
    return this.tensorFor(i, name);
  }

  /** The symbolic tensor standing for value `i`. */
  tensorFor(i: number, label?: string): Tensor {
    let t = this.tensors[i];
    if (t === undefined) {
      const v = this.values[i];
      t = new Tensor(null, v.dtype, v.shape, { owner: this, index: i, label: label ?? `${this.name}/%${i}` });
      this.tensors[i] = t;
    }
    return t;
  }

  /** Resolves a tensor to a value of this graph: own values, captured constants or parent captures. */
  valueOf(t: Tensor): number {
    const sym = t._sym;
    if (sym === null) return this.captureConstant(t);
    if (sym.owner === this) return sym.index;
    if (!sym.owner.alive) {
      throw typeError(
        'ef.trace', `symbolic tensor '${sym.label}' was used after its trace ended`, `a tensor from the finished trace of '${sym.owner.name}'`,
        'an eager tensor or a value of the current trace',
        'Symbolic tensors only exist while a function is being traced: return values from the traced function instead of storing them outside.',
      );
    }
    if (this.parent === null || !this.isDescendantOf(sym.owner)) {
      throw typeError('ef.trace', `tensor '${sym.label}' belongs to another graph ('${sym.owner.name}') that '${this.name}' cannot read`, 'a tensor from an unrelated trace', `one from '${this.name}' or an enclosing function`, 'Pass it as an argument instead.');
    }
    return this.captureFromParent(t);
  }

  private isDescendantOf(owner: unknown): boolean {
    for (let b = this.parent; b !== null; b = b.parent) if (b === owner) return true;
    return false;
  }

  private captureFromParent(t: Tensor): number {
    const ref = t._sym as SymbolicRef;
    const known = this.captureOf.get(ref);
    if (known !== undefined) return known;
    const parent = this.parent as GraphBuilder;
    const outer = t._sym?.owner === parent ? t : parent.tensorFor(parent.valueOf(t));
    const i = this.values.length;
    this.values.push({ kind: 'input', dtype: t.dtype, shape: t.dims, name: `capture_${this.captures.length}` });
    this.captures.push({ outer, inner: i });
    this.captureOf.set(ref, i);
    return i;
  }

  private captureConstant(t: Tensor): number {
    const tf = t.concrete('ef.trace');
    const known = this.constOf.get(tf);
    if (known !== undefined) return known;
    pinGraphConstant(tf);
    const i = this.values.length;
    this.values.push({ kind: 'const', dtype: t.dtype, shape: tf.shape, constant: tf });
    this.constOf.set(tf, i);
    return i;
  }

  add(prim: Primitive, inputs: Tensor[], params: Params): Tensor[] {
    const ins = new Array<number>(inputs.length);
    const avals = new Array<AVal>(inputs.length);
    for (let k = 0; k < inputs.length; k++) {
      ins[k] = this.valueOf(inputs[k]);
      avals[k] = { dtype: inputs[k].dtype, shape: inputs[k].dims };
    }
    const outAvals = prim.infer(avals, params);
    const outs = outAvals.map((a) => {
      this.values.push({ kind: 'node', dtype: a.dtype, shape: a.shape });
      return this.values.length - 1;
    });
    const site = traceConfig.captureSites ? callSite() : undefined;
    this.nodes.push({ prim, params, inputs: ins, outputs: outs, site: siteLabel === undefined ? site : { ...site, label: siteLabel } });
    const result = new Array<Tensor>(outs.length);
    for (let k = 0; k < outs.length; k++) {
      const v = this.values[outs[k]];
      const t = new Tensor(null, v.dtype, v.shape, { owner: this, index: outs[k], label: k === 0 ? prim.name : `${prim.name}:${k}` });
      this.tensors[outs[k]] = t;
      result[k] = t;
    }
    return result;
  }

  /**
   * `t.setShape(dims)` refined t's shape beyond what inference derived: the refinement is an
   * ensure_shape node (checked at run time where the value enters, kept by save/load), and `t`
   * now stands for its output, so later nodes read the checked value.
   */
  refine(t: Tensor, dims: Dims): SymbolicRef | null {
    const sym = t._sym;
    if (!this.alive || sym === null || sym.owner !== this) return null;
    const [checked] = this.add(PRIMITIVES.ensure_shape as Primitive, [t], { dims });
    const index = (checked._sym as SymbolicRef).index;
    this.tensors[index] = t;
    return { owner: this, index, label: sym.label };
  }

  /** Ends a failed trace: its symbolic tensors die and the constants it pinned are released. */
  abandon(): void {
    this.alive = false;
    new Graph(this.name, this.values, this.nodes, [], []).dispose();
  }

  /** Ends the trace: later use of its symbolic tensors is an error. */
  finish(outputs: Tensor[]): Graph {
    const outs = outputs.map((t) => this.valueOf(t));
    outputs.forEach((t, k) => {
      if (t.dims !== null && this.values[outs[k]].kind === 'node') this.values[outs[k]].shape = t.dims;
    });
    this.alive = false;
    return new Graph(this.name, this.values, this.nodes, this.inputs.concat(this.captures.map((c) => c.inner)), outs);
  }

  /**
   * Evaluates a symbolic value that depends on no graph input, eagerly (variable initializers
   * inside a trace, like TensorFlow's init_scope). Returns null when it depends on an input.
   */
  evaluate(t: Tensor): Tensor | null {
    if (t._sym === null || t._sym.owner !== this) return null;
    const env = new Map<number, Tensor>();
    const producer = new Map<number, Node>();
    for (const n of this.nodes) for (const o of n.outputs) producer.set(o, n);
    const saved = ctx.builder;
    ctx.builder = null;
    try {
      const leaf = (i: number): Tensor | null | undefined => {
        const have = env.get(i);
        if (have) return have;
        const v = this.values[i];
        if (v.kind === 'input') return null;
        if (v.kind !== 'const') return undefined;
        const c = v.constant as backend.TfTensor;
        if (!c.isDisposed) return Tensor.fromTf(c);
        // A captured temporary (e.g. a number an op converted) was disposed; its data is pinned.
        const shared = new Tensor(backend.share(c), v.dtype);
        env.set(i, shared);
        return shared;
      };
      // Iterative post-order over producers (a long chain must not overflow the stack).
      const get = (target: number): Tensor | null => {
        const stack = [target];
        while (stack.length !== 0) {
          const i = stack[stack.length - 1];
          const known = leaf(i);
          if (known === null) return null;
          if (known !== undefined) {
            stack.pop();
            continue;
          }
          const n = producer.get(i) as Node;
          const missing = n.inputs.filter((j) => leaf(j) === undefined);
          if (n.inputs.some((j) => leaf(j) === null)) return null;
          if (missing.length !== 0) {
            stack.push(...missing);
            continue;
          }
          const outs = evalEager(n.prim, n.inputs.map((j) => leaf(j) as Tensor), n.params);
          n.outputs.forEach((o, k) => env.set(o, outs[k]));
          stack.pop();
        }
        return leaf(target) as Tensor;
      };
      const result = get(t._sym.index);
      for (const [i, x] of env) if (x !== result && i !== t._sym.index) x.dispose();
      return result;
    } finally {
      ctx.builder = saved;
    }
  }
}

/** Runs `fn` with `builder` as the active tracing interpreter (null: eager) and no outer tapes. */
export function withBuilder<T>(builder: GraphBuilder | null, fn: () => T): T {
  const savedBuilder = ctx.builder;
  const savedTapes = ctx.tapes;
  ctx.builder = builder;
  ctx.tapes = [];
  try {
    return fn();
  } finally {
    ctx.builder = savedBuilder;
    ctx.tapes = savedTapes;
  }
}

/** A traced body of the current trace (cond branch, loop cond or body). */
export interface Subgraph<R> {
  graph: Graph;
  /** Tensors of the enclosing trace the body reads (extra inputs of its node). */
  captures: Tensor[];
  result: R;
  outs: Tensor[];
}

/**
 * Traces `fn` on placeholders of `avals` as a child of the current trace; `outputsOf` turns its
 * result into output tensors (inside the child trace). A failure releases what the body pinned.
 */
export function traceSubgraph<R>(name: string, avals: AVal[], fn: (...args: Tensor[]) => R, outputsOf: (result: R, args: Tensor[]) => Tensor[]): Subgraph<R> {
  const parent = ctx.builder as GraphBuilder;
  const b = new GraphBuilder(`${parent.name}_${name}`, parent);
  const args = avals.map((s, i) => b.addInput(s.dtype, s.shape, `v${i}`));
  try {
    const result = withBuilder(b, () => fn(...args));
    const outs = withBuilder(b, () => outputsOf(result, args));
    const graph = optimize(b.finish(outs));
    return { graph, captures: b.captures.map((c) => c.outer), result, outs };
  } catch (e) {
    b.abandon();
    throw e;
  }
}
