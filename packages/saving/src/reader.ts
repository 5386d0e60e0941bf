// GraphDef interpreter: checks untrusted nodes, orders them, and binds primitives into the active trace.
import { DType, ReadScope, Tensor, Variable, backend } from '@eagerflow/core';
import { withSiteLabel } from '@eagerflow/function';
import { HostFunction } from './host';
import { InputRef, ParsedNode, array, cyclePath, loadError, own, record, show, text, topoOrder, withNode } from './validate';
import { ConstValue } from './weights';
import { fromTfDType } from './format';
import { inlineConst } from './graphdef_decode';

/**
 * Limits that keep hostile files from exhausting time or memory while loading (raise them for trusted files):
 * `maxNodes` interpreted, `maxEdges` (data and control inputs), `maxDepth` of nested functions, `maxElements`
 * of static shapes; and the defaults of a loaded function's run-time limits (`f.limits`): `maxRunElements`
 * per produced tensor and `maxWhileIterations` per loop (docs/saving.md).
 * @example
 * ef.loadLimits.maxDepth; // 32
 */
export const loadLimits = { maxNodes: 200_000, maxEdges: 1_000_000, maxDepth: 32, maxElements: 1 << 26, maxRunElements: 1 << 24, maxWhileIterations: 100_000 };

/** Reads one TF op: returns one tensor per output (defined in op_readers.ts). */
export type OpReader = (r: NodeReader) => Tensor[];

/** State shared by every scope of one load. */
export class LoadContext {
  /** Eager constants made while loading (the trace pins what it captures; these are freed after). */
  readonly created: Tensor[] = [];
  readonly variables = new Map<string, Variable>();
  readonly functions = new Map<string, Record<string, unknown>>();
  private readonly active: string[] = [];
  private budget = loadLimits.maxNodes;
  /** Rewrites a body's nodes before it is ordered (the loader folds TF1 control flow frames here). */
  prepare: (nodes: ParsedNode[], where: string) => ParsedNode[] = (nodes) => nodes;
  /** A computed node's output folded to a constant at load (the loader sets constant_fold.ts's), else null. */
  fold: (scope: GraphScope, node: ParsedNode, index: number) => ConstValue | null = () => null;
  private edgeBudget = loadLimits.maxEdges;

  constructor(
    readonly weights: Map<string, ConstValue>,
    readonly hostFunctions: Map<string, HostFunction>,
    readonly readerFor: (r: NodeReader) => OpReader | undefined,
    /** loadFunction's `trainable`: float weights (rank >= 1 Consts) are read as Variables. */
    readonly trainable = false,
  ) {}

  /** A Const read as a tensor: a constant, or with `trainable` a float weight's Variable (scalars stay constants). */
  weightTensor(name: string, v: ConstValue): Tensor {
    if (!this.trainable || v.dtype !== 'float32' || v.shape.length === 0) return this.constTensor(v);
    let w = this.variables.get(name);
    if (w === undefined) {
      const value = Tensor.fromTf(backend.makeTf(v.data, [...v.shape], v.dtype));
      w = new Variable(value, { name });
      value.dispose();
      this.variables.set(name, w);
    }
    return w.value();
  }

  spend(where: string): void {
    if (--this.budget < 0) throw loadError(`the graph is too large to load (${where})`, `more than ${loadLimits.maxNodes} nodes to interpret`, `at most ${loadLimits.maxNodes}`, 'Raise ef.loadLimits.maxNodes if the file is trusted');
  }

  /** Counts a body's edges (data and control inputs) against loadLimits.maxEdges before it is ordered. */
  spendEdges(n: number, where: string): void {
    this.edgeBudget -= n;
    if (this.edgeBudget < 0) throw loadError(`the graph has too many edges to load (${where})`, `more than ${loadLimits.maxEdges} inputs (data and control) to interpret`, `at most ${loadLimits.maxEdges}`, 'Raise ef.loadLimits.maxEdges if the file is trusted');
  }

  /** An eager tensor holding a constant (captured, and pinned, by the trace that reads it). */
  constTensor(v: ConstValue): Tensor {
    const t = Tensor.fromTf(backend.makeTf(v.data, [...v.shape], v.dtype));
    this.created.push(t);
    return t;
  }

  /** The loaded function's own Variable for a VarHandleOp (by shared_name), made from its weight. */
  variable(node: ParsedNode): Variable {
    const shared = node.str('shared_name', node.name) || node.name;
    const known = this.variables.get(shared);
    if (known !== undefined) return known;
    const init = this.weights.get(shared);
    if (init === undefined) throw loadError(`variable '${shared}' has no initial value`, 'no weight of that name', `a weight named '${shared}'`, 'Re-save the function');
    const dtype = node.dtype('dtype', init.dtype);
    if (dtype !== init.dtype) throw loadError(`variable '${shared}' has the wrong weight dtype`, init.dtype, dtype, 'Fix the weight manifest');
    const value = Tensor.fromTf(backend.makeTf(init.data, [...init.shape], init.dtype));
    const v = new Variable(value, { name: shared });
    value.dispose();
    this.variables.set(shared, v);
    return v;
  }

  /** Interprets library function `name` on `args` inside the current trace; returns its outputs. */
  callFunction(name: string, args: Tensor[]): Tensor[] {
    const outs = this.callFunctionValues(name, args);
    if (outs.some((v) => v instanceof Variable)) throw loadError(`function '${name}' returns a resource`, 'a DT_RESOURCE output', 'tensor outputs', 'Call it through PartitionedCall');
    return outs as Tensor[];
  }

  /** callFunction where arguments and results may be resources (Variables bound to DT_RESOURCE args). */
  callFunctionValues(name: string, args: readonly ArgValue[]): ArgValue[] {
    const fdef = this.functions.get(name);
    if (fdef === undefined) throw loadError(`function '${name}' is not in the library`, `a reference to '${name}'`, `one of [${[...this.functions.keys()].slice(0, 8).join(', ')}]`, 'Add the function to modelTopology.library.function');
    if (this.active.includes(name)) throw loadError('the function library has a cycle', [...this.active, name].join(' -> '), 'functions that do not call themselves', 'Remove the recursive If/While reference');
    if (this.active.length >= loadLimits.maxDepth) throw loadError('functions are nested too deeply', `depth ${this.active.length + 1}`, `at most ${loadLimits.maxDepth}`, 'Flatten the control flow');
    this.active.push(name);
    try {
      return runFunction(this, name, fdef, args);
    } finally {
      this.active.pop();
    }
  }
}

/** A function argument or result: a tensor, or a resource variable (DT_RESOURCE). */
export type ArgValue = Tensor | Variable;

interface ArgSpec {
  name: string;
  /** null for DT_VARIANT: a TensorList, read as a dense tensor of its element dtype; 'resource' for DT_RESOURCE. */
  dtype: ReturnType<typeof fromTfDType> | null | 'resource';
}

function argList(x: unknown, where: string): ArgSpec[] {
  return array(x ?? [], where).map((a, k) => {
    const o = record(a, `${where}[${k}]`);
    const name = text(own(o, 'name'), `${where}[${k}].name`);
    const type = own(o, 'type');
    const dtype = type === 'DT_VARIANT' ? null : type === 'DT_RESOURCE' ? 'resource' : fromTfDType(type);
    if (dtype === undefined) throw loadError(`${where}[${k}] ('${name}') has an unsupported type`, show(type), 'DT_FLOAT, DT_INT32, DT_BOOL, DT_STRING, DT_COMPLEX64, DT_VARIANT (a TensorList) or DT_RESOURCE', 'Fix the function signature');
    return { name, dtype };
  });
}

function runFunction(ctx: LoadContext, name: string, fdef: Record<string, unknown>, args: readonly ArgValue[]): ArgValue[] {
  const where = `function '${name}'`;
  const sig = record(own(fdef, 'signature'), `${where}.signature`);
  const ins = argList(own(sig, 'inputArg'), `${where}.signature.inputArg`);
  const outs = argList(own(sig, 'outputArg'), `${where}.signature.outputArg`);
  if (ins.length !== args.length) throw loadError(`${where} is called with the wrong number of arguments`, `${args.length}`, `${ins.length} (its inputArg)`, 'Make the If/While inputs match the function signature');
  const bound = new Map<string, Tensor>();
  const resources = new Map<string, Variable>();
  ins.forEach((a, k) => {
    const v = args[k];
    if (bound.has(a.name) || resources.has(a.name)) throw loadError(`${where}: duplicate argument name '${a.name}'`, `'${a.name}' twice`, 'unique names', 'Rename the argument');
    if ((a.dtype === 'resource') !== v instanceof Variable) throw loadError(`${where}: argument '${a.name}' ${a.dtype === 'resource' ? 'is a resource' : 'is a tensor'}`, v instanceof Variable ? `variable '${v.name}'` : `a ${v.dtype} tensor`, a.dtype === 'resource' ? 'a resource variable (VarHandleOp)' : 'a tensor', 'Fix Tin or the function signature');
    if (v instanceof Variable) resources.set(a.name, v);
    else {
      if (a.dtype !== null && v.dtype !== a.dtype) throw loadError(`${where}: argument '${a.name}' has the wrong dtype`, v.dtype, `${a.dtype}`, 'Fix Tin/T or the function signature');
      bound.set(a.name, v);
    }
  });
  const nodes = array(own(fdef, 'nodeDef') ?? [], `${where}.nodeDef`).map((n, k) => new ParsedNode(n, `${where}.nodeDef[${k}]`));
  const scope = new GraphScope(ctx, nodes, where, bound, null, new Map(), resources);
  scope.run();
  const ret = record(own(fdef, 'ret') ?? {}, `${where}.ret`);
  return outs.map((o) => {
    const refText = own(ret, o.name);
    if (typeof refText !== 'string') throw loadError(`${where}: output '${o.name}' has no ret entry`, show(refText), "a reference like 'node:0'", 'Add it to ret');
    if (o.dtype === 'resource') return scope.variableOf(refTo(refText, where), `${where} output '${o.name}'`);
    const t = scope.outputAt(refTo(refText, where), `${where} output '${o.name}'`);
    if (o.dtype !== null && t.dtype !== o.dtype) throw loadError(`${where}: output '${o.name}' has the wrong dtype`, t.dtype, `${o.dtype}`, 'Fix the outputArg type');
    return t;
  });
}

function refTo(s: string, where: string): InputRef {
  const parts = s.split(':');
  const idx = parts.length > 1 ? parts[parts.length - 1] : '0';
  if (parts.length > 3 || parts[0] === '' || !/^\d{1,6}$/.test(idx)) throw loadError(`${where}: malformed tensor reference`, show(s), "'node:k'", 'Fix the reference');
  return { node: parts[0], index: Number(idx), text: s };
}

/** What one node produced: tensors, a resource variable, or a pattern-only value. */
interface Slot {
  readonly node: ParsedNode;
  outs?: Tensor[];
  variable?: Variable;
  /** Resource outputs by index (a call or loop passing variables through). */
  resources?: Map<number, Variable>;
}

/** A DT_RESOURCE Placeholder: a concrete function graph's captured variable (bound by name). */
const resourcePlaceholder = (n: ParsedNode): boolean => n.op === 'Placeholder' && n.attrs.get('dtype')?.type === 'DT_RESOURCE';
/** Nodes whose output 0 is a variable: resource handles, captured resources and TF1 reference variables. */
const isVariableNode = (n: ParsedNode): boolean => n.op === 'VarHandleOp' || n.op === 'VariableV2' || n.op === 'Variable' || resourcePlaceholder(n);
/** Ops that pass a resource input through to the same output (Identity of a handle). */
const RESOURCE_PASS = new Set(['Identity', 'IdentityN']);

/**
 * Ops interpreted only when a consumer reads their value: constants, resources, and the shape
 * helpers that consumers usually read as patterns (Reshape(x, Shape(like)), Sum(x, Range(0, Rank(x), 1))), and
 * new (pure) TensorLists, which TF's function runtime prunes when nothing reads them (a Keras RNN's unused
 * TensorArray of unknown element rank).
 */
const LAZY = new Set(['Const', 'VarHandleOp', 'VariableV2', 'Variable', 'BroadcastArgs', 'BroadcastGradientArgs', 'Shape', 'Rank', 'Range', 'NoOp', 'TensorListReserve', 'EmptyTensorList']);

/** One graph or function body: nodes by name, interpreted in dependency order. */
export class GraphScope {
  private readonly slots = new Map<string, Slot>();
  /** Nesting of on-demand (lazy) interpretation: bounded so a long chain cannot overflow the stack. */
  private lazyDepth = 0;
  readonly nodes: ParsedNode[];

  /**
   * `presets` are values of nodes outside `nodes` by name, one entry per output (undefined: a dead
   * output, e.g. the untaken side of a Switch); names found nowhere here are looked up in `parent`.
   */
  constructor(
    readonly ctx: LoadContext,
    nodes: ParsedNode[],
    readonly where: string,
    readonly args: Map<string, Tensor>,
    readonly parent: GraphScope | null = null,
    readonly presets: ReadonlyMap<string, readonly (Tensor | undefined)[]> = new Map(),
    /** DT_RESOURCE arguments of a function body, bound to Variables. */
    readonly resources: ReadonlyMap<string, Variable> = new Map(),
  ) {
    nodes = ctx.prepare(nodes, where);
    this.nodes = nodes;
    let edges = 0;
    for (const n of nodes) edges += n.inputs.length + n.controls.length;
    ctx.spendEdges(edges, where);
    for (const n of nodes) {
      if (this.slots.has(n.name) || args.has(n.name) || resources.has(n.name)) throw loadError(`${where}: duplicate node name '${n.name}'`, `'${n.name}' twice`, 'unique node names', 'Rename one of the nodes');
      this.slots.set(n.name, { node: n });
    }
  }

  /** Whether `name` is readable here: a node, an argument, a preset or a name of the parent. */
  has(name: string): boolean {
    return this.slots.has(name) || this.args.has(name) || this.resources.has(name) || this.presets.has(name) || (this.parent?.has(name) ?? false);
  }

  /** Whether `name` comes from outside this body (a preset or the parent's). */
  private outside(name: string): boolean {
    return !this.slots.has(name) && (this.presets.has(name) || (this.parent?.has(name) ?? false));
  }

  /** Interprets every node in dependency order (file order where the dependencies allow). */
  run(): void {
    for (const n of this.order()) {
      this.ctx.spend(this.where);
      if (LAZY.has(n.op) || n.op === 'Placeholder') continue;
      const slot = this.slots.get(n.name) as Slot;
      if (RESOURCE_PASS.has(n.op) && (this.isResource({ node: n.name, index: 0, text: n.name }) || this.refVariable({ node: n.name, index: 0, text: n.name }) !== null)) continue;
      slot.outs = this.interpret(n, slot);
    }
  }

  private interpret(n: ParsedNode, slot?: Slot): Tensor[] {
    const r = new NodeReader(this, n);
    const reader = this.ctx.readerFor(r);
    if (reader === undefined) throw loadError(`node '${n.name}' has an unknown op '${n.op}'`, `op '${n.op}'`, 'an op listed in docs/saving.md (or a host function key)', 'Re-save the function with EagerFlow, or register the key as a host function');
    try {
      const outs = withSiteLabel(`${this.where}: node '${n.name}' (${n.op})`, () => reader(r));
      if (r.resourceOutputs !== undefined && slot !== undefined) slot.resources = r.resourceOutputs;
      return outs;
    } catch (e) {
      throw withNode(e, n);
    }
  }

  /** The TF1 reference variable a reference names (VariableV2, or Identity chains of one), else null. */
  refVariable(ref: InputRef): Variable | null {
    const slot = this.slots.get(ref.node);
    if (slot === undefined) return this.outside(ref.node) && !this.presets.has(ref.node) ? (this.parent as GraphScope).refVariable(ref) : null;
    const n = slot.node;
    if ((n.op === 'VariableV2' || n.op === 'Variable') && ref.index === 0) return this.variableOf(ref, n.name);
    if (n.op === 'Identity' && ref.index === 0 && n.inputs.length === 1) return this.refVariable(n.inputs[0]);
    return null;
  }

  /** Whether a reference names a resource: a variable op, a DT_RESOURCE argument, or one passed through. */
  isResource(ref: InputRef): boolean {
    if (this.resources.has(ref.node) || this.args.has(ref.node)) return this.resources.has(ref.node);
    const slot = this.slots.get(ref.node);
    if (slot === undefined) return this.outside(ref.node) && !this.presets.has(ref.node) && (this.parent as GraphScope).isResource(ref);
    const n = slot.node;
    if (n.op === 'VarHandleOp' || resourcePlaceholder(n)) return ref.index === 0;
    if (slot.resources?.has(ref.index)) return true;
    return RESOURCE_PASS.has(n.op) && n.inputs[ref.index] !== undefined && this.isResource(n.inputs[ref.index]);
  }

  private interpretLazy(n: ParsedNode): Tensor[] {
    if (this.lazyDepth >= 256) throw loadError(`${this.where}: a chain of shape helpers is too long`, `more than 256 nested Shape/Rank/Range reads at '${n.name}'`, 'short chains', 'Simplify the graph');
    this.lazyDepth++;
    try {
      return this.interpret(n);
    } finally {
      this.lazyDepth--;
    }
  }

  /**
   * A topological order by iterative DFS; dangling inputs and cycles are errors. Linear in nodes +
   * edges: each node's dependency list is built once, when it is entered.
   */
  private order(): ParsedNode[] {
    const deps = (n: ParsedNode): string[] => {
      const d = new Array<string>(n.inputs.length + n.controls.length);
      for (let k = 0; k < n.inputs.length; k++) d[k] = n.inputs[k].node;
      for (let k = 0; k < n.controls.length; k++) d[n.inputs.length + k] = n.controls[k];
      return d;
    };
    const resolve = (dep: string, from: ParsedNode): ParsedNode | null => {
      if (this.args.has(dep) || this.resources.has(dep) || this.outside(dep)) return null;
      const slot = this.slots.get(dep);
      if (slot === undefined) throw loadError(`${this.where}: node '${from.name}' reads a node that does not exist`, `input '${dep}'`, 'the name of a node in the same graph or function', 'Fix the dangling input');
      return slot.node;
    };
    return topoOrder(this.nodes, deps, resolve, (path, dep) => {
      throw loadError(`${this.where} has a cycle`, cyclePath(path, dep), 'an acyclic graph', 'Remove the edge that closes the loop (use While for loops)');
    });
  }

  node(name: string): ParsedNode | undefined {
    return this.slots.get(name)?.node ?? (this.presets.has(name) ? undefined : this.parent?.node(name));
  }

  /**
   * The constant a reference names: a Const node, or a computed node folded at load (constants only, or the Shape,
   * Rank or Size of a statically known shape); null when its value is only known when the graph runs.
   */
  constOf(ref: InputRef): ConstValue | null {
    const slot = this.slots.get(ref.node);
    if (slot === undefined && this.outside(ref.node)) return this.presets.has(ref.node) ? null : (this.parent as GraphScope).constOf(ref);
    if (slot === undefined) return null;
    if (slot.node.op !== 'Const') return this.ctx.fold(this, slot.node, ref.index);
    if (ref.index !== 0) throw loadError(`Const '${ref.node}' has one output`, `a reference to output ${ref.index}`, 'output 0', 'Fix the input reference');
    const inline = inlineConst(slot.node.attrs.get('value'), `${this.where}: Const '${ref.node}'`);
    if (inline !== null) return inline;
    const v = this.ctx.weights.get(ref.node);
    if (v === undefined) throw loadError(`Const '${ref.node}' has no weight`, 'no weightSpecs entry of that name', `a weight named '${ref.node}'`, 'The weights do not belong to this model.json: re-save the function');
    const dtype = slot.node.dtype('dtype', v.dtype);
    if (dtype !== v.dtype) throw loadError(`Const '${ref.node}' has the wrong weight dtype`, v.dtype, `${dtype} (its dtype attr)`, 'Fix the weight manifest');
    return v;
  }

  variableOf(ref: InputRef, where: string): Variable {
    const bound = this.resources.get(ref.node);
    if (bound !== undefined) return bound;
    const slot = this.slots.get(ref.node);
    if (slot === undefined && this.parent !== null && !this.presets.has(ref.node) && this.parent.has(ref.node)) return this.parent.variableOf(ref, where);
    if (slot?.resources?.has(ref.index)) return slot.resources.get(ref.index) as Variable;
    if (slot !== undefined && RESOURCE_PASS.has(slot.node.op) && slot.node.inputs[ref.index] !== undefined && this.isResource(slot.node.inputs[ref.index])) return this.variableOf(slot.node.inputs[ref.index], where);
    if (slot === undefined || !isVariableNode(slot.node)) throw loadError(`${where}: the resource input is not a variable`, `'${ref.text}'${slot === undefined ? '' : ` (${slot.node.op})`}`, 'a VarHandleOp, a VariableV2 or a DT_RESOURCE argument bound to a variable', 'Fix the input');
    slot.variable ??= this.ctx.variable(slot.node);
    return slot.variable;
  }

  /** A graph or function output: looks through the Identity nodes outputs are written with. */
  outputAt(ref: InputRef, where: string): Tensor {
    let r = ref;
    for (let hops = 0; hops < 8; hops++) {
      const n = this.slots.get(r.node)?.node;
      if (n === undefined || n.op !== 'Identity' || n.inputs.length !== 1 || r.index !== 0) break;
      r = n.inputs[0];
    }
    return this.tensorAt(r, where);
  }

  /** The tensor a reference names (arguments, constants or interpreted outputs). */
  tensorAt(ref: InputRef, where: string): Tensor {
    const arg = this.args.get(ref.node);
    if (arg !== undefined) {
      if (ref.index !== 0) throw loadError(`${where}: argument '${ref.node}' has one value`, `'${ref.text}'`, `'${ref.node}'`, 'Fix the reference');
      return arg;
    }
    const slot = this.slots.get(ref.node);
    if (slot === undefined && this.outside(ref.node)) return this.presetAt(ref, where);
    if (slot === undefined) throw loadError(`${where} reads a node that does not exist`, `'${ref.text}'`, 'the name of a node', 'Fix the dangling reference');
    if (slot.outs === undefined && slot.node.op === 'Const') slot.outs = [this.ctx.weightTensor(ref.node, this.constOf(ref) as ConstValue)];
    // A TF1 reference variable (or an Identity of one: it aliases the buffer) read where it is read, as TF's refs do.
    if (slot.outs === undefined) {
      const v = this.refVariable(ref);
      if (v !== null) return v.value();
    }
    if (slot.outs === undefined && LAZY.has(slot.node.op) && slot.node.op !== 'VarHandleOp') slot.outs = this.interpretLazy(slot.node);
    if (slot.outs === undefined) throw loadError(`${where} reads node '${slot.node.name}' (${slot.node.op}), which has no tensor value`, `'${ref.text}'`, 'a tensor-valued node', `${slot.node.op} is only supported as a direct input of the ops that use it`);
    if (ref.index >= slot.outs.length) throw loadError(`${where} reads output ${ref.index} of '${slot.node.name}' (${slot.node.op})`, `'${ref.text}'`, `an output below ${slot.outs.length}`, 'Fix the output index');
    return slot.outs[ref.index];
  }

  /** A value from outside the body: a preset (dead outputs are errors) or the parent's. */
  private presetAt(ref: InputRef, where: string): Tensor {
    const outs = this.presets.get(ref.node);
    if (outs === undefined) return (this.parent as GraphScope).tensorAt(ref, where);
    const t = outs[ref.index];
    if (t === undefined) throw loadError(`${where} reads '${ref.text}', which is never live there`, `'${ref.text}' (a dead output of control flow)`, ref.index < outs.length ? 'a live output (e.g. Switch:1 inside a loop body)' : `an output below ${outs.length}`, 'Fix the control flow edges');
    return t;
  }
}

const constViews = new WeakMap<ParsedNode, ParsedNode>();

/** A folded node as a Const (no value attr: its value is read through constOf). */
function constView(n: ParsedNode): ParsedNode {
  let v = constViews.get(n);
  if (v === undefined) constViews.set(n, (v = new ParsedNode({ name: n.name, op: 'Const' }, `node '${n.name}' (folded ${n.op})`)));
  return v;
}

/** Per-node view for op readers: inputs, static params from Consts, producers for patterns. */
export class NodeReader implements ReadScope {
  /** Resource outputs a reader produced (calls and loops passing variables through), by output index. */
  resourceOutputs?: Map<number, Variable>;

  constructor(
    readonly scope: GraphScope,
    readonly node: ParsedNode,
  ) {}

  get count(): number {
    return this.node.inputs.length;
  }

  arity(min: number, max = min): void {
    const n = this.count;
    if (n < min || n > max) throw loadError(`node '${this.node.name}' (${this.node.op}) has the wrong number of inputs`, `${n}`, min === max ? `${min}` : `${min} to ${max}`, 'Fix the node inputs');
  }

  /** Input reference k (a missing one is an error, never undefined). */
  ref(k: number): InputRef {
    const ref = this.node.inputs[k];
    if (ref === undefined) throw loadError(`node '${this.node.name}' (${this.node.op}) has too few inputs`, `${this.count}`, `an input at position ${k}`, 'Fix the node inputs');
    return ref;
  }

  input(k: number): Tensor {
    return this.scope.tensorAt(this.ref(k), `node '${this.node.name}' (${this.node.op})`);
  }

  inputs(from = 0, to = this.count): Tensor[] {
    const out: Tensor[] = [];
    for (let k = from; k < to; k++) out.push(this.input(k));
    return out;
  }

  /**
   * The node producing input k (for patterns such as Reshape(x, Shape(like))). A node folded at load reads as the
   * Const it folds to, as TF's grappler leaves it in the graph (constant_fold.ts); a Shape stays itself, since the
   * patterns over it (Reshape(x, Shape(like)), StridedSliceGrad(Shape(x), ...)) read the tensor it measures.
   */
  producer(k: number): ParsedNode | undefined {
    const ref = this.ref(k);
    if (this.scope.args.has(ref.node)) return undefined;
    const n = this.scope.node(ref.node);
    return n === undefined || n.op === 'Const' || n.op === 'Shape' || this.scope.constOf(ref) === null ? n : constView(n);
  }

  /** Input k as a static list of numbers: it must be a Const. */
  numbers(k: number, what: string): number[] {
    const ref = this.ref(k);
    const c = this.scope.constOf(ref);
    if (c === null || c.dtype === 'string' || c.dtype === 'complex64' || c.shape.length > 2) {
      throw loadError(`node '${this.node.name}' (${this.node.op}): ${what} must be a numeric Const`, `input '${ref.text}'`, 'a Const node', 'EagerFlow reads static parameters (axes, shapes, perms) from Const inputs');
    }
    return Array.from(c.data as ArrayLike<number>);
  }

  nodeOf(ref: InputRef): ParsedNode | undefined {
    return this.scope.args.has(ref.node) ? undefined : this.scope.node(ref.node);
  }

  tensorOf(ref: InputRef, where: string): Tensor {
    return this.scope.tensorAt(ref, where);
  }

  refText(k: number): string {
    return this.ref(k).text;
  }

  constScalar(k: number): { dtype: DType; value: number | string } | null {
    const c = this.scope.constOf(this.ref(k));
    if (c === null || c.data.length !== 1) return null;
    return { dtype: c.dtype, value: c.data[0] };
  }

  /** Rejects static shapes whose element count would exhaust memory while loading (or folding). */
  checkSize(dims: readonly number[]): void {
    const n = dims.reduce((a, d) => a * Math.max(d, 1), 1);
    if (dims.some((d) => !Number.isInteger(d) || d < -1) || n > loadLimits.maxElements) {
      throw this.error('the static shape is invalid or too large', `[${dims.slice(0, 8).join(', ')}]`, `integer dims with at most ${loadLimits.maxElements} elements`, 'Fix the shape Const');
    }
  }

  get maxElements(): number {
    return loadLimits.maxElements;
  }

  variable(k: number): Variable {
    return this.scope.variableOf(this.ref(k), this.node.name);
  }

  /** Whether input k is a resource (a variable handle). */
  isResource(k: number): boolean {
    return this.scope.isResource(this.ref(k));
  }

  /** Inputs from..to as call arguments: tensors, and Variables for resource inputs. */
  values(from = 0, to = this.count): ArgValue[] {
    const out: ArgValue[] = [];
    for (let k = from; k < to; k++) out.push(this.isResource(k) ? this.variable(k) : this.input(k));
    return out;
  }

  callFunction(name: string, args: Tensor[]): Tensor[] {
    return this.scope.ctx.callFunction(name, args);
  }

  hostFunction(key: string): ((...args: never[]) => unknown) | undefined {
    return this.scope.ctx.hostFunctions.get(key);
  }

  /** Input k as one static number. */
  number(k: number, what: string): number {
    const v = this.numbers(k, what);
    if (v.length !== 1) throw loadError(`node '${this.node.name}' (${this.node.op}): ${what} must be a scalar`, `${v.length} values`, '1 value', 'Fix the Const');
    return v[0];
  }

  error(what: string, got: string, expected: string, fix: string): Error {
    return loadError(`node '${this.node.name}' (${this.node.op}): ${what}`, got, expected, fix);
  }
}
