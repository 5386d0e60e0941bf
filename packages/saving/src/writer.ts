// GraphDef writer: a traced Graph -> GraphDef JSON nodes, a function library (cond/while bodies) and weights.
import { AVal, DType, FunctionFinish, HostSaveState, Variable, WriteScope, backend, internalError, isStateful, paramsRecord, isPrimitive } from '@eagerflow/core';
import { writeNode } from './spec_io';
import { writeHostCallback } from './host_codec';
import { HOST_CALLBACK_PRIMITIVE, hostCallbacks } from './host';
import { Graph, Node, isGraph } from '@eagerflow/function';
import { ArgDef, Attrs, FunctionDef, NodeDef, TF_DTYPE, attr } from './format';
import { ConstValue, WeightWriter } from './weights';
import { saveError } from './validate';

/** Options of ef.saveFunction. */
export interface SaveOptions {
  /**
   * Stable keys for host callbacks: token -> key (`{ pyfunc_0: 'myapp.decode' }`), or a Map keyed by
   * token or by the callback function. Keys given with `ef.registerHostFunction` need no entry.
   */
  hostFunctionKeys?: Record<string, string> | Map<unknown, string>;
  /**
   * SavedModel writing: every variable the graph reads becomes a resource variable (VarHandleOp +
   * ReadVariableOp) instead of a frozen constant, in nested bodies too.
   */
  resourceVariables?: boolean;
}

/** Writes one primitive's node(s); returns one tensor reference per output of the node. */
export type NodeWriter = (s: Scope, n: Node, ins: string[]) => string[];

/** One graph output or function output: a reference and its static type. */
export interface Out {
  readonly ref: string;
  readonly aval: AVal;
}

/** Unique TensorFlow node names (weights are looked up by name across the whole file). */
class Namer {
  private readonly used = new Set<string>();
  private readonly next = new Map<string, number>();

  fresh(hint: string): string {
    const base = hint.replace(/[^A-Za-z0-9_.\-/]/g, '_').replace(/^[^A-Za-z0-9.]/, 'n') || 'node';
    let name = base;
    let k = this.next.get(base) ?? 0;
    while (this.used.has(name)) name = `${base}_${++k}`;
    this.next.set(base, k);
    this.used.add(name);
    return name;
  }
}

/** The main graph or one library function being written: its nodes and value references. */
export class Scope implements WriteScope {
  readonly nodes: NodeDef[] = [];
  /** Stateful nodes: graph outputs get control edges to them so every runtime runs them. */
  readonly effects: string[] = [];
  private readonly refs = new Map<number, string>();
  private readonly frozen = new Map<Variable, string>();
  private readonly handles = new Map<Variable, string>();

  constructor(
    readonly w: GraphWriter,
    readonly graph: Graph,
    readonly prefix: string,
  ) {}

  aval(i: number): AVal {
    return this.graph.aval(i);
  }

  get graphName(): string {
    return this.graph.name;
  }

  get host(): HostSaveState {
    return this.w.host;
  }

  writeFunction(hint: string, graph: unknown, argAvals: AVal[], bind: number[], finish?: FunctionFinish): string {
    return this.w.writeFunction(hint, graph as Graph, argAvals, bind, finish as ((fs: Scope, outs: Out[], args: string[]) => Out[]) | undefined);
  }

  readVariable(v: Variable): string {
    if (!this.w.mutable.has(v) && this.w.options.resourceVariables !== true) return this.frozenRead(v);
    return this.add('ReadVariableOp', 'ReadVariableOp', [this.handle(v)], { dtype: attr.type(v.dtype) });
  }

  variableHandle(v: Variable): string {
    return this.handle(v);
  }

  dtype(i: number): DType {
    return this.graph.values[i].dtype;
  }

  setRef(i: number, ref: string): void {
    this.refs.set(i, ref);
  }

  /** The reference of value `i`; captured constants become Const nodes on first use. */
  ref(i: number): string {
    const known = this.refs.get(i);
    if (known !== undefined) return known;
    const v = this.graph.values[i];
    if (v.kind !== 'const' || v.constant === undefined) throw internalError('saveFunction', `value ${i} of '${this.graph.name}' is used before it is written`);
    const ref = this.constant('Const', constValue(v.dtype, v.constant));
    this.refs.set(i, ref);
    return ref;
  }

  add(op: string, hint: string, inputs: string[], attrs: Attrs = {}): string {
    const name = this.w.names.fresh(`${this.prefix}${hint}`);
    const node: NodeDef = { name, op, input: inputs, attr: attrs };
    this.nodes.push(node);
    return name;
  }

  constant(hint: string, v: ConstValue): string {
    const name = this.add('Const', hint, [], { dtype: attr.type(v.dtype), value: attr.tensor(v.dtype, v.shape) });
    this.w.weights.add(name, v);
    return name;
  }

  /** An int32 Const (static params: axes, shapes, perms). */
  ints(hint: string, values: readonly number[], shape: readonly number[] = [values.length]): string {
    return this.constant(hint, { dtype: 'int32', shape, data: Int32Array.from(values) });
  }

  effect(name: string): void {
    this.effects.push(name);
  }

  /** A read of a variable nobody assigns in the function: frozen to its current value. */
  frozenRead(v: Variable): string {
    let ref = this.frozen.get(v);
    if (ref === undefined) {
      ref = this.constant(v.name, constValue(v.dtype, v._value.concrete('saveFunction')));
      this.frozen.set(v, ref);
    }
    return ref;
  }

  /** A resource handle (VarHandleOp) for a variable the function assigns. */
  handle(v: Variable): string {
    let ref = this.handles.get(v);
    if (ref === undefined) {
      const shared = this.w.sharedName(v);
      ref = this.add('VarHandleOp', shared, [], { dtype: attr.type(v.dtype), shape: attr.shape(v.shape.dims), shared_name: attr.str(shared), container: attr.str('') });
      this.handles.set(v, ref);
    }
    return ref;
  }
}

/** A constant's host value read from a (possibly pinned) kernel value. */
function constValue(dtype: DType, t: backend.TfTensor): ConstValue {
  if (dtype === 'complex64') throw saveError('complex64 constants cannot be saved yet', 'a complex64 constant', 'float32, int32, bool or string constants', 'Build complex values inside the function from float32 parts');
  return { dtype, shape: t.shape.slice(), data: asDTypeArray(dtype, backend.readInfoSync(t)) };
}

/**
 * tfjs's cpu Cast from int32 or bool to a type without encoding loss keeps the source buffer (an
 * Int32Array labelled float32): convert to the dtype's own array before writing its bytes.
 */
function asDTypeArray(dtype: DType, data: ConstValue['data']): ConstValue['data'] {
  if (dtype === 'float32' && !(data instanceof Float32Array)) return Float32Array.from(data as ArrayLike<number>);
  if (dtype === 'int32' && !(data instanceof Int32Array)) return Int32Array.from(data as ArrayLike<number>);
  return data;
}

/** Writes a whole traced function: the main graph scope plus every nested body as a library function. */
export class GraphWriter {
  readonly names = new Namer();
  readonly weights = new WeightWriter();
  readonly functions: FunctionDef[] = [];
  readonly hostKeys = new Set<string>();
  readonly host: HostSaveState = { keys: this.hostKeys, keyFor: (token, fn, registered) => hostKeyFor(this.options, token, fn, registered) };
  /** Variables some node assigns: saved as resource variables (VarHandleOp); others are frozen. */
  readonly mutable: Set<Variable>;
  /** Each resource variable's shared_name (the VarHandleOp attribute). */
  readonly shared = new Map<Variable, string>();

  constructor(
    readonly options: SaveOptions,
    root: Graph,
  ) {
    this.mutable = assignedVariables(root, new Set());
  }

  sharedName(v: Variable): string {
    let s = this.shared.get(v);
    if (s === undefined) {
      s = this.names.fresh(v.name);
      this.shared.set(v, s);
      this.weights.add(s, constValue(v.dtype, v._value.concrete('saveFunction')));
    }
    return s;
  }

  writeNodes(s: Scope): void {
    for (const n of s.graph.nodes) {
      const before = s.nodes.length;
      const bridge = hostCallbacks.bridge;
      const isHost = bridge === null ? n.prim.name === HOST_CALLBACK_PRIMITIVE : bridge.isHostCallback(n.prim.name);
      const outs = writeNode(s, n) ?? (isHost ? writeHostCallback(s, n, n.inputs.map((i) => s.ref(i))) : undefined);
      if (outs === undefined && n.prim.name === 'custom_gradient') {
        // Never drop it silently (the loaded function would differentiate the forward ops instead).
        throw saveError(
          'a function with an ef.customGradient cannot be saved yet: its gradient would be lost', `a custom_gradient node in '${s.graph.name}'`,
          "a function without custom gradients (TF keeps them as _gradient_op_type with the gradient function in the library; EagerFlow's format does not yet)",
          'Save the function without ef.customGradient (compute the gradient you want in the forward ops), or keep using it unsaved',
        );
      }
      if (outs === undefined) {
        throw saveError(`primitive '${n.prim.name}' has no GraphDef mapping`, `a '${n.prim.name}' node in '${s.graph.name}'`, 'a primitive listed in docs/saving.md', 'Express the computation with ops that have a mapping');
      }
      n.outputs.forEach((o, k) => s.setRef(o, outs[k]));
      // A stateful primitive's op is the last node its writer adds (frozen variable reads add a Const).
      const last = s.nodes[s.nodes.length - 1];
      if (isStateful(n.prim, n.params) && s.nodes.length > before && last.op !== 'Const') s.effect(last.name);
    }
  }

  /** Identity nodes for outputs, with control edges to every stateful node of the scope. */
  finishOutputs(s: Scope, outs: Out[], hint: string): string[] {
    const deps = [...new Set(s.effects)].map((e) => `^${e}`);
    return outs.map((o) => s.add('Identity', hint, [o.ref, ...deps], { T: attr.type(o.aval.dtype) }));
  }

  /**
   * Writes `graph` as a library function taking `argAvals`; graph input k reads argument `bind[k]`.
   * `finish` may replace the outputs (loop counters, passed-through captures).
   */
  writeFunction(hint: string, graph: Graph, argAvals: AVal[], bind: number[], finish?: (fs: Scope, outs: Out[], args: string[]) => Out[]): string {
    const fname = this.names.fresh(hint);
    const fs = new Scope(this, graph, `${fname}/`);
    const args = argAvals.map((_, k) => this.names.fresh(`${fname.toLowerCase().replace(/[^a-z0-9_]/g, '_')}_arg_${k}`));
    graph.inputs.forEach((vi, k) => fs.setRef(vi, args[bind[k]]));
    this.writeNodes(fs);
    let outs: Out[] = graph.outputs.map((vi) => ({ ref: fs.ref(vi), aval: graph.aval(vi) }));
    if (finish) outs = finish(fs, outs, args);
    const ids = this.finishOutputs(fs, outs, 'Identity');
    const ret: Record<string, string> = {};
    const outputArg: ArgDef[] = outs.map((o, k) => ({ name: `output_${k}`, type: TF_DTYPE[o.aval.dtype] }));
    ids.forEach((id, k) => (ret[`output_${k}`] = `${id}:0`));
    const inputArg: ArgDef[] = args.map((name, k) => ({ name, type: TF_DTYPE[argAvals[k].dtype] }));
    const isStatefulFn = graph.nodes.some((n) => isStateful(n.prim, n.params));
    this.functions.push({ signature: { name: fname, inputArg, outputArg, isStateful: isStatefulFn }, nodeDef: fs.nodes, ret });
    return fname;
  }
}

/** Variables assigned anywhere in the graph or its nested bodies. */
function assignedVariables(g: Graph, out: Set<Variable>): Set<Variable> {
  for (const n of g.nodes) {
    const v = paramsRecord(n.params).variable;
    if (v !== undefined && (v as { _slot?: unknown })._slot !== undefined) {
      throw saveError('a variable passed as an argument cannot be saved', `variable argument '${(v as Variable).name}'`, 'variables captured by the function', 'Capture the variable from an enclosing scope (closure) instead of passing it as an argument');
    }
    if (isPrimitive(n.prim, 'assign_variable') && v instanceof Variable) out.add(v);
    for (const p of Object.values(n.params)) if (isGraph(p)) assignedVariables(p, out);
  }
  return out;
}

/** The stable key of a callback: hostFunctionKeys (by token or function), else its registered key. */
function hostKeyFor(options: SaveOptions, token: string, fn: unknown, registered: string | null): string | null {
  const keys = options.hostFunctionKeys;
  let key: string | null | undefined;
  if (keys instanceof Map) key = keys.get(token) ?? (fn ? keys.get(fn) : undefined);
  else if (keys !== undefined && Object.prototype.hasOwnProperty.call(keys, token)) key = keys[token];
  key ??= registered;
  return typeof key === 'string' ? key : null;
}

