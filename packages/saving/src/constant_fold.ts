// Load-time constant folding (TF grappler's ConstantFolding, what tfjs-converter's converter runs before writing a
// model): a node whose data inputs are all constants, or a Shape/Rank/Size of a tensor whose static shape is known, is
// evaluated once when a consumer reads it as a static parameter (an axis, a perm, a size...). Folding is on demand
// (GraphScope.constOf asks), bounded (FOLD_MAX_ELEMENTS per input and output), never runs stateful, random, resource,
// control-flow, function-calling or ef.registerOp ops; a node that fails to evaluate stays a graph computation.
import { Tensor, backend, tidy } from '@eagerflow/core';
import { withBuilder } from '@eagerflow/function';
import { GraphScope, NodeReader } from './reader';
import { ConstValue } from './weights';
import { isHostCallbackNode } from './host_codec';
import { unfoldableOps } from './spec_io';
import { isRegisteredOp } from './graph_model';
import { InputRef, ParsedNode, loadError } from './validate';

/** The most elements a folded value (and each value a fold reads) may have; larger ones stay graph computations. */
const FOLD_MAX_ELEMENTS = 1 << 16;
/** How deep folds may nest (a chain of computed constants); deeper chains are not folded. */
const FOLD_MAX_DEPTH = 256;

/**
 * Ops never folded that are not records (graph inputs, TF1 variables and control-flow frames, calls, callbacks); the
 * records' own effects decide the rest (`unfoldableOps`: variable reads and assignments, prints, stateful ops).
 */
const NEVER = new Set([
  'Placeholder', 'PlaceholderWithDefault', 'VarHandleOp', 'VariableV2', 'Variable', 'ResourceGather',
  'Assign', 'AssignAdd', 'AssignSub', 'VarIsInitializedOp', 'PartitionedCall', 'StatefulPartitionedCall', 'Case', 'StatelessCase',
  'Enter', 'Exit', 'Switch', 'Merge', 'NextIteration', 'LoopCond', 'ControlTrigger', 'NoOp', 'Assert', 'PrintV2',
  'PyFunc', 'EagerPyFunc', 'PyFuncStateless',
]);
const NEVER_PATTERN = /Random|Multinomial|Candidate|Shuffle|TensorList|TensorArray|HashTable|LookupTable|Iterator|Dataset|Stateful/;

/** Whether `n` may be folded at all (its inputs decide the rest). */
function foldable(n: ParsedNode): boolean {
  // Host callbacks (EagerFlow's py_function nodes) may have effects of their own.
  // Ops supplied by ef.registerOp may have effects too (TF-DF's model loading).
  if (NEVER.has(n.op) || NEVER_PATTERN.test(n.op) || unfoldableOps().has(n.op) || isHostCallbackNode(n) || isRegisteredOp(n.op)) return false;
  for (const a of n.attrs.values()) {
    const v = a as { func?: { name?: string } | null; list?: { func?: unknown[] } | null };
    if (v.func?.name !== undefined || (v.list?.func ?? []).length > 0) return false;
  }
  return true;
}

/** A node's folded outputs (null: not foldable), per scope: a function body's Shapes depend on its call's arguments. */
const cache = new WeakMap<GraphScope, Map<string, readonly ConstValue[] | null>>();
let depth = 0;

/** The value of output `index` of `n` (a node of `scope`) folded at load, or null when it is not a load-time constant. */
export function foldedOutput(scope: GraphScope, n: ParsedNode, index: number): ConstValue | null {
  let known = cache.get(scope);
  if (known === undefined) cache.set(scope, (known = new Map()));
  let outs = known.get(n.name);
  if (outs === undefined) {
    // Marked first: a cycle through constants reads "not foldable" (the graph's order check reports the cycle).
    known.set(n.name, null);
    outs = depth >= FOLD_MAX_DEPTH || !foldable(n) ? null : foldNode(scope, n);
    known.set(n.name, outs);
  }
  if (outs === null) return null;
  if (index >= outs.length) throw loadError(`node '${n.name}' (${n.op}) has ${outs.length} output${outs.length === 1 ? '' : 's'}`, `a reference to output ${index}`, `an output below ${outs.length}`, 'Fix the input reference');
  return outs[index];
}

const int32 = (data: number[], shape: number[]): ConstValue => ({ dtype: 'int32', shape, data: Int32Array.from(data) });

/** A static shape with every dim known, else null. */
function knownDims(t: Tensor): number[] | null {
  const d = t.dims;
  return d === null || d.some((x) => x === null) ? null : (d as number[]);
}

function foldNode(scope: GraphScope, n: ParsedNode): readonly ConstValue[] | null {
  depth++;
  try {
    const shapes = foldShapeOf(scope, n);
    if (shapes !== undefined) return shapes;
    const values: ConstValue[] = [];
    for (const ref of n.inputs) {
      const c = scope.constOf(ref);
      if (c === null || c.data.length > FOLD_MAX_ELEMENTS) return null;
      values.push(c);
    }
    return evaluate(scope, n, values);
  } finally {
    depth--;
  }
}

/** Shape, ShapeN, Rank and Size read the static shape of their input (undefined: not one of those ops). */
function foldShapeOf(scope: GraphScope, n: ParsedNode): readonly ConstValue[] | null | undefined {
  if (n.op !== 'Shape' && n.op !== 'ShapeN' && n.op !== 'Rank' && n.op !== 'Size') return undefined;
  const out: ConstValue[] = [];
  for (const ref of n.inputs) {
    const dims = staticDimsOf(scope, ref, n);
    if (dims === null) return null;
    if (n.op === 'Rank') {
      out.push(int32([dims.length], []));
      continue;
    }
    if (dims.some((d) => d === null)) return null;
    const known = dims as number[];
    out.push(n.op === 'Size' ? int32([known.reduce((a, b) => a * b, 1)], []) : int32(known, [known.length]));
  }
  return out;
}

/** The static dims of an input (null entries: unknown dims), or null when its rank is unknown. */
function staticDimsOf(scope: GraphScope, ref: InputRef, n: ParsedNode): readonly (number | null)[] | null {
  const c = scope.constOf(ref);
  if (c !== null) return c.shape;
  if (scope.isResource(ref)) return null;
  try {
    return scope.tensorAt(ref, `node '${n.name}' (${n.op})`).dims;
  } catch {
    // An input without a tensor value here (a pattern-only node): not folded; reading the node itself reports it.
    return null;
  }
}

/** Raised inside a fold when the reader asks for something the fold cannot give (a tensor that is not an input). */
class NotFoldable extends Error {}

/**
 * The scope a folded node's reader runs in: its inputs are the folded constants (as eager tensors), nothing else
 * is readable, so a reader that looks further (a pattern over producers) is simply not folded.
 */
class FoldScope extends GraphScope {
  private readonly byRef = new Map<string, { value: ConstValue; tensor?: Tensor }>();

  constructor(readonly outer: GraphScope, n: ParsedNode, values: readonly ConstValue[]) {
    super(outer.ctx, [], outer.where, new Map());
    n.inputs.forEach((ref, k) => this.byRef.set(`${ref.node}:${ref.index}`, { value: values[k] }));
  }

  private entry(ref: InputRef): { value: ConstValue; tensor?: Tensor } {
    const e = this.byRef.get(`${ref.node}:${ref.index}`);
    if (e === undefined) throw new NotFoldable();
    return e;
  }

  override has(name: string): boolean {
    return this.outer.has(name);
  }

  override node(name: string): ParsedNode | undefined {
    return this.outer.node(name);
  }

  override constOf(ref: InputRef): ConstValue | null {
    return this.byRef.get(`${ref.node}:${ref.index}`)?.value ?? null;
  }

  override tensorAt(ref: InputRef): Tensor {
    const e = this.entry(ref);
    e.tensor ??= Tensor.fromTf(backend.makeTf(e.value.data, [...e.value.shape], e.value.dtype));
    return e.tensor;
  }

  override outputAt(ref: InputRef): Tensor {
    return this.tensorAt(ref);
  }

  override isResource(): boolean {
    return false;
  }

  override refVariable(): null {
    return null;
  }

  override variableOf(): never {
    throw new NotFoldable();
  }
}

/** Runs the node's reader eagerly on its constant inputs; its outputs become host values. */
function evaluate(scope: GraphScope, n: ParsedNode, values: readonly ConstValue[]): readonly ConstValue[] | null {
  const fold = new FoldScope(scope, n, values);
  const r = new NodeReader(fold, n);
  const reader = scope.ctx.readerFor(r);
  if (reader === undefined) return null;
  try {
    return withBuilder(null, () =>
      tidy(() => {
        const outs = reader(r);
        if (r.resourceOutputs !== undefined) return null;
        const folded: ConstValue[] = [];
        for (const t of outs) {
          const dims = knownDims(t);
          if (dims === null || (t.size ?? Infinity) > FOLD_MAX_ELEMENTS) return null;
          const data = t.dataSync();
          folded.push({ dtype: t.dtype, shape: dims, data: Array.isArray(data) ? [...data] : (data as Float32Array).slice() });
        }
        return folded;
      }),
    );
  } catch (e) {
    // As grappler does, a node that cannot be evaluated now stays a graph computation: it raises (naming itself)
    // when the graph runs it, and a consumer needing it static says so.
    return null;
  }
}
