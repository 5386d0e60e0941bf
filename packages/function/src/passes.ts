// Graph passes (pure Graph -> Graph): constant folding, common subexpressions, dead code; a verifier.
import { Tensor, backend, evalEager, internalError, isFoldable, isStateful, paramsKey, paramsRecord, pinGraphConstant } from '@eagerflow/core';
import { Graph, Node, Value, isGraph } from './graph';
import { fuseEpilogues } from './passes_epilogue';
import { needsRuntimeCheck } from './runtime_checks';

/** Verification after every pass: on under jest (tests), off otherwise (it costs trace time). */
export const passConfig = {
  verify: typeof process !== 'undefined' && process.env !== undefined && process.env.JEST_WORKER_ID !== undefined,
  /** Fold only results up to this many elements (bigger constants stay computed at run time). */
  maxFoldElements: 1 << 16,
};

const subgraphs = new WeakMap<object, boolean>();
/** Whether a node carries graphs (cond/while bodies); cached per params object (passes run often). */
function hasSubgraph(n: Node): boolean {
  let has = subgraphs.get(n.params);
  if (has === undefined) {
    has = false;
    const p = paramsRecord(n.params);
    for (const k in p) if (isGraph(p[k])) has = true;
    subgraphs.set(n.params, has);
  }
  return has;
}

/** The node with inputs renamed through `remap` (the same node when nothing changes). */
function renamed(n: Node, remap: Map<number, number>): Node {
  if (remap.size === 0) return n;
  let changed = false;
  const inputs = n.inputs.map((i) => {
    const j = remap.get(i);
    if (j === undefined) return i;
    changed = true;
    return j;
  });
  return changed ? { ...n, inputs } : n;
}

/**
 * Removes pure nodes whose outputs nobody reads; stateful nodes always stay, and so do nodes whose shape rule could
 * not run when traced (an input of unknown dims or rank): their run-time check is what an eager call would have
 * raised, so pruning them would let the graph succeed where eager fails (a mirror pad whose output only a null
 * gradient follows, say).
 */
export function deadCode(g: Graph): Graph {
  const live = new Set<number>(g.outputs);
  const keep: boolean[] = new Array(g.nodes.length).fill(false);
  for (let i = g.nodes.length - 1; i >= 0; i--) {
    const n = g.nodes[i];
    if (isStateful(n.prim, n.params) || n.outputs.some((o) => live.has(o)) || checkedAtRunTime(g, n)) {
      keep[i] = true;
      for (const j of n.inputs) live.add(j);
    }
  }
  return new Graph(g.name, g.values, g.nodes.filter((_, i) => keep[i]), g.inputs, g.outputs);
}

/** A node that may still fail when the graph runs: its static check saw unknown dims (and it checks, unlike shape reads). */
function checkedAtRunTime(g: Graph, n: Node): boolean {
  return !UNCHECKED.has(n.prim.name) && needsRuntimeCheck(g, n);
}

/** Nodes that cannot fail on any input shape (reading a shape or rank): pruned as usual. */
const UNCHECKED = new Set(['shape', 'identity', 'stop_gradient']);

/** Candidates sharing a first input: a short list, or (past LIST_MAX) a map by full key. */
interface Bucket {
  list: Node[];
  keyed: Map<string, Node> | null;
}

/** Past this many candidates per first input, lookups go through a key map (linear, not quadratic, on hostile graphs). */
const LIST_MAX = 32;

function fullKey(n: Node): string {
  return `${n.prim.name}|${n.inputs.join(',')}|${paramsKey(n.params)}`;
}

/** The earlier identical node in `bucket`, or null (and `node` joins the bucket). */
function findOrAdd(bucket: Bucket, node: Node): Node | null {
  if (bucket.keyed === null) {
    const prev = bucket.list.find((c) => sameNode(c, node));
    if (prev !== undefined) return prev;
    bucket.list.push(node);
    if (bucket.list.length > LIST_MAX) {
      bucket.keyed = new Map();
      // First one wins, as in the list.
      for (const c of bucket.list) if (!bucket.keyed.has(fullKey(c))) bucket.keyed.set(fullKey(c), c);
    }
    return null;
  }
  const key = fullKey(node);
  const prev = bucket.keyed.get(key);
  if (prev !== undefined && sameNode(prev, node)) return prev;
  if (prev === undefined) bucket.keyed.set(key, node);
  return null;
}

/** Merges identical pure nodes (same primitive, params and inputs). */
export function commonSubexpressions(g: Graph): Graph {
  // Candidates are grouped by their first input, then compared field by field (no key strings
  // unless a group grows large).
  const byHead = new Map<number, Bucket>();
  const remap = new Map<number, number>();
  const r = (i: number): number => remap.get(i) ?? i;
  const nodes: Node[] = [];
  for (const n of g.nodes) {
    const node = renamed(n, remap);
    if (isStateful(n.prim, n.params) || hasSubgraph(n)) {
      nodes.push(node);
      continue;
    }
    const head = node.inputs.length ? node.inputs[0] : -1;
    let bucket = byHead.get(head);
    if (bucket === undefined) {
      bucket = { list: [], keyed: null };
      byHead.set(head, bucket);
    }
    const prev = findOrAdd(bucket, node);
    if (prev !== null) {
      n.outputs.forEach((o, k) => remap.set(o, prev.outputs[k]));
      continue;
    }
    nodes.push(node);
  }
  return new Graph(g.name, g.values, nodes, g.inputs, g.outputs.map(r));
}

function sameNode(a: Node, b: Node): boolean {
  if (a.prim !== b.prim || a.inputs.length !== b.inputs.length) return false;
  for (let i = 0; i < a.inputs.length; i++) if (a.inputs[i] !== b.inputs[i]) return false;
  return a.params === b.params || paramsKey(a.params) === paramsKey(b.params);
}

/** Evaluates pure foldable nodes whose inputs are all constants, at compile time. */
export function constantFold(g: Graph): Graph {
  const values: Value[] = g.values.slice();
  const remap = new Map<number, number>();
  const r = (i: number): number => remap.get(i) ?? i;
  const nodes: Node[] = [];
  for (const n of g.nodes) {
    const node = renamed(n, remap);
    const inputs = node.inputs;
    const foldable = isFoldable(n.prim, n.params) && !hasSubgraph(n) && inputs.every((i) => values[i].kind === 'const');
    const folded = foldable ? tryFold(node, values) : null;
    if (folded === null) {
      nodes.push(node);
      continue;
    }
    folded.forEach((tf, k) => {
      values.push({ kind: 'const', dtype: values[n.outputs[k]].dtype, shape: tf.shape, constant: tf });
      remap.set(n.outputs[k], values.length - 1);
    });
  }
  return new Graph(g.name, values, nodes, g.inputs, g.outputs.map(r));
}

function tryFold(n: Node, values: Value[]): backend.TfTensor[] | null {
  // A captured constant's tf.Tensor may be disposed (e.g. by a tidy inside the trace); its data is pinned.
  const shared: Tensor[] = [];
  const ins = n.inputs.map((i) => {
    const c = values[i].constant as backend.TfTensor;
    if (!c.isDisposed) return Tensor.fromTf(c);
    const t = new Tensor(backend.share(c), values[i].dtype);
    shared.push(t);
    return t;
  });
  let outs: Tensor[];
  try {
    outs = evalEager(n.prim, ins, n.params);
  } finally {
    shared.forEach((t) => t.dispose());
  }
  if (outs.some((t) => (t.size ?? 0) > passConfig.maxFoldElements)) {
    outs.forEach((t) => t.dispose());
    return null;
  }
  return outs.map((t) => {
    const tf = t.concrete('constantFold');
    pinGraphConstant(tf);
    tf.dispose();
    return tf;
  });
}

/** Checks SSA well-formedness and that stateful nodes kept their identity and order. */
export function verify(g: Graph, before?: Graph): Graph {
  const defined = new Set<number>();
  g.values.forEach((v, i) => v.kind !== 'node' && defined.add(i));
  g.nodes.forEach((n, k) => {
    for (const i of n.inputs) if (!defined.has(i)) throw internalError(`verify(${g.name})`, `node ${k} (${n.prim.name}) reads value ${i} before it is defined`);
    for (const o of n.outputs) {
      if (defined.has(o)) throw internalError(`verify(${g.name})`, `value ${o} is defined twice`);
      defined.add(o);
    }
  });
  for (const o of g.outputs) if (!defined.has(o)) throw internalError(`verify(${g.name})`, `output ${o} is never defined`);
  if (before) {
    const a = before.nodes.filter((n) => isStateful(n.prim, n.params));
    const b = g.nodes.filter((n) => isStateful(n.prim, n.params));
    if (a.length !== b.length || a.some((n, i) => n.prim !== b[i].prim || n.params !== b[i].params)) {
      throw internalError(`verify(${g.name})`, `a pass dropped, merged or reordered a stateful node`);
    }
  }
  return g;
}

export type Pass = (g: Graph) => Graph;
const DEFAULT_PASSES: readonly Pass[] = [constantFold, commonSubexpressions, deadCode, fuseEpilogues];

/** Runs the passes in order, verifying after each one when enabled. */
export function optimize(g: Graph, passes: readonly Pass[] = DEFAULT_PASSES): Graph {
  let cur = passConfig.verify ? verify(g) : g;
  for (const p of passes) {
    const next = p(cur);
    cur = passConfig.verify ? verify(next, cur) : next;
  }
  return cur;
}
