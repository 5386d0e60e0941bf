// One generic ONNX writer: nodes of a traced graph (a segment, or the whole graph) -> a ModelProto, read off the records' lowerings.
import { AVal, DType, Dims, Info, VarParams, LowerScope, ONNX_TYPE, OnnxAttr, OnnxAttrs, OnnxDecl, OnnxSpec, backend, internalError, isOnnxCodec, isStateful, onnxAccepts, paramsRecord, isPrimitive } from '@eagerflow/core';
import { Graph, Node, isGraph } from '../graph';
import { elideBroadcasts } from './broadcasts';
import { planFusions } from './contractions';
import { writeClassMasks } from './class_masks';
import { writeLogSoftmaxes } from './log_softmax';
import { foldNegatedSums } from './negations';
import { elideNoOpReshapes } from './no_op_reshapes';
import { readReluOutputs } from './relu_masks';
import { runLimitsOf } from '../run_limits';
import { ATTR_TYPE, F, Msg } from './proto';

/** The default opset: 18 (reductions take axes as an input everywhere). */
export const DEFAULT_OPSET = 18;

/** A part of a graph to write: its nodes in order, the values it reads and the values it returns. */
export interface Part {
  readonly nodes: readonly Node[];
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
}

/** The names and initializers one model shares across its graph and subgraphs. */
interface ModelState {
  k: number;
  readonly inits: Msg[];
  /** The initializer of each captured constant already written: a graph lowered twice (while's cond) shares them. */
  readonly consts: Map<Info, string>;
}

/** The scope the records' lowerings write into, collecting NodeProtos (of one graph or subgraph) and initializers. */
export class Scope implements LowerScope {
  constructor(
    readonly g: Graph,
    readonly opset: number,
    readonly nodes: Msg[] = [],
    private readonly model: ModelState = { k: 0, inits: [], consts: new Map() },
  ) {}

  get inits(): Msg[] {
    return this.model.inits;
  }

  /** A scope over another graph (a cond branch, a loop body) in the same model, writing into `nodes`. */
  on(g: Graph, nodes: Msg[] = this.nodes): Scope {
    return new Scope(g, this.opset, nodes, this.model);
  }

  aval(i: number): AVal {
    return this.g.aval(i);
  }

  fresh(hint: string): string {
    return `${hint}_${this.model.k++}`;
  }

  add(op: string, inputs: readonly string[], attrs: OnnxAttrs = {}, nOut = 1): string[] {
    const outs = Array.from({ length: nOut }, () => this.fresh(op.toLowerCase()));
    const m = new Msg();
    for (const i of inputs) m.str(F.node.input, i);
    for (const o of outs) m.str(F.node.output, o);
    m.str(F.node.name, outs[0]).str(F.node.opType, op);
    for (const [name, a] of Object.entries(attrs)) m.msg(F.node.attribute, attrProto(name, a));
    this.nodes.push(m);
    return outs;
  }

  int64s(values: readonly number[], shape: readonly number[] = [values.length]): string {
    const name = this.fresh('i64');
    const data = new BigInt64Array(values.map((v) => BigInt(Math.trunc(v))));
    this.inits.push(tensorProto(name, 7, shape, new Uint8Array(data.buffer)));
    return name;
  }

  /** The initializer holding captured constant `i` (written once per model). */
  constName(i: number): string {
    const v = this.g.values[i];
    if (v.kind !== 'const' || v.constant === undefined) throw internalError('onnx', `value ${i} is neither an input nor a constant of the part`);
    const known = this.model.consts.get(v.constant);
    if (known !== undefined) return known;
    const name = this.fresh('const');
    this.inits.push(constProto(name, v.dtype, v.constant.shape, hostArray(v.dtype, backend.readInfoSync(v.constant))));
    this.model.consts.set(v.constant, name);
    return name;
  }

  constant(i: number): Float32Array | Int32Array | Uint8Array | null {
    const v = this.g.values[i];
    return v.kind === 'const' && v.constant !== undefined ? hostArray(v.dtype, backend.readInfoSync(v.constant)) : null;
  }

  scalar(value: number, dtype: DType): string {
    const name = this.fresh('c');
    this.inits.push(constProto(name, dtype, [], dtype === 'float32' ? new Float32Array([value]) : dtype === 'int32' ? new Int32Array([value]) : new Uint8Array([value ? 1 : 0])));
    return name;
  }
}

function attrProto(name: string, a: OnnxAttr): Msg {
  const m = new Msg().str(F.attr.name, name);
  if ('i' in a) return m.int(F.attr.i, a.i).int(F.attr.type, ATTR_TYPE.INT);
  if ('f' in a) return m.float(F.attr.f, a.f).int(F.attr.type, ATTR_TYPE.FLOAT);
  if ('s' in a) return m.str(F.attr.s, a.s).int(F.attr.type, ATTR_TYPE.STRING);
  if ('ints' in a) return m.packedInts(F.attr.ints, a.ints).int(F.attr.type, ATTR_TYPE.INTS);
  if ('floats' in a) return m.packedFloats(F.attr.floats, a.floats).int(F.attr.type, ATTR_TYPE.FLOATS);
  if ('g' in a) return m.msg(F.attr.g, a.g as Msg).int(F.attr.type, ATTR_TYPE.GRAPH);
  const t = a.t;
  return m.msg(F.attr.t, constProto(name, t.dtype, t.shape, t.data as Float32Array)).int(F.attr.type, ATTR_TYPE.TENSOR);
}

function tensorProto(name: string, dataType: number, dims: readonly number[], raw: Uint8Array): Msg {
  const m = new Msg();
  if (dims.length > 0) m.packedInts(F.tensor.dims, dims);
  return m.int(F.tensor.dataType, dataType).str(F.tensor.name, name).raw(F.tensor.rawData, raw);
}

function constProto(name: string, dtype: DType, dims: readonly number[], data: Float32Array | Int32Array | Uint8Array): Msg {
  return tensorProto(name, ONNX_TYPE[dtype], dims, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

function valueInfo(name: string, aval: AVal | { readonly elemType: number; readonly shape: Dims }, withShape: boolean): Msg {
  const tt = new Msg().int(F.tensorType.elemType, 'elemType' in aval ? aval.elemType : ONNX_TYPE[aval.dtype]);
  if (withShape && aval.shape !== null) {
    const shape = new Msg();
    aval.shape.forEach((d, k) => shape.msg(F.shape.dim, d === null ? new Msg().str(F.dim.param, `${name}_d${k}`) : new Msg().int(F.dim.value, d)));
    tt.msg(F.tensorType.shape, shape);
  }
  return new Msg().str(F.valueInfo.name, name).msg(F.valueInfo.type, new Msg().msg(F.type.tensorType, tt));
}

/** A scope to ask lowerings whether nodes lower, without writing. */
export function probeScope(g: Graph, opset = DEFAULT_OPSET): LowerScope {
  return new Scope(g, opset);
}

/** Whether a node has a lowering that accepts it (dtypes, static shapes), and so may join a compiled segment. */
export function lowers(s: LowerScope, n: Node): boolean {
  const spec = n.prim.onnx;
  // Body graphs lower only through their node's own lowering (cond -> If, while -> Loop), which checks them.
  if (spec === undefined || (Object.values(n.params).some(isGraph) && !isOnnxCodec(spec))) return false;
  // An empty value (a static dim of 0) runs uncompiled: the records handle empty tensors as TF does, where ONNX
  // Runtime's kernels refuse them (a Conv with a 0 kernel dim, a Resize of an empty image) or shape them otherwise
  // (a moment over [0, 3] came out [0, 3], a meshgrid of a scalar and an empty vector [1, 1]); there is nothing to compute.
  if ([...n.inputs, ...n.outputs].some((v) => s.aval(v).shape?.includes(0) === true)) return false;
  // A size only the input values give (static inputs, an output dim unknown: a range's length from a tensor) runs
  // uncompiled, where the record checks it before allocating: ONNX Runtime would allocate it first. Run-time pads,
  // tilings and broadcast targets are checked in the graph (sizeGuard); loops and conds grow as their bodies say.
  const known = (v: number): boolean => s.aval(v).shape?.every((d) => d !== null) === true;
  if (!Object.values(n.params).some(isGraph) && n.inputs.every(known) && !n.outputs.every(known)) return false;
  return onnxAccepts(spec, s, n);
}

/** The first node of a body graph that keeps it from lowering: stateful (variables, callbacks) or without an accepting lowering. */
function firstBlocked(g: Graph, opset: number): Node | undefined {
  const probe = probeScope(g, opset);
  return g.nodes.find((n) => isStateful(n.prim, n.params) || !lowers(probe, n));
}

/** Whether every node of a body graph lowers, none is stateful (variables, callbacks), and no run limits apply. */
export function graphLowers(g: Graph, opset = DEFAULT_OPSET): boolean {
  return !runLimitsOf.has(g) && firstBlocked(g, opset) === undefined;
}

/** The innermost node that keeps `n` from lowering (an op inside a cond branch or loop body), for error messages. */
export function blocker(n: Node, opset = DEFAULT_OPSET): Node {
  for (const sub of Object.values(n.params).filter(isGraph)) {
    const inner = firstBlocked(sub, opset);
    if (inner !== undefined) return blocker(inner, opset);
  }
  return n;
}

function lowerNode(s: Scope, spec: OnnxSpec, n: Node, ins: string[]): string[] {
  if (isOnnxCodec(spec)) return spec.lower(s, n, ins);
  const d = spec as OnnxDecl;
  let k = 0;
  const inputs = d.inputs === undefined ? ins : d.inputs.map((x) => (x === 'x' ? ins[k++] : s.int64s(toInts(paramsRecord(n.params)[x.param]))));
  const attrs: Record<string, OnnxAttr> = {};
  for (const [name, a] of Object.entries(d.attrs ?? {})) {
    if ('fixed' in a) attrs[name] = a.fixed;
    else {
      const v = paramsRecord(n.params)[a.param];
      attrs[name] = a.kind === 'int' ? { i: v as number } : a.kind === 'ints' ? { ints: v as number[] } : a.kind === 'float' ? { f: v as number } : { s: String(v) };
    }
  }
  return s.add(d.op, inputs, attrs, n.outputs.length);
}

/** Host data as the typed array of `dtype` (kernels may hand back another array type, e.g. for pooled scalars). */
function hostArray(dtype: DType, data: unknown): Float32Array | Int32Array | Uint8Array {
  const Ctor = dtype === 'float32' ? Float32Array : dtype === 'int32' ? Int32Array : Uint8Array;
  return data instanceof Ctor ? data : Ctor.from(data as ArrayLike<number>);
}

const toInts = (v: unknown): number[] => (Array.isArray(v) ? (v as number[]) : [v as number]);

/**
 * Lowers `nodes` of `s.g` into `s`, `names` holding the ONNX names of values already known; constants become
 * initializers. `kept` are the values read after these nodes; contractions spread over several nodes are written as
 * one (contractions.ts), broadcasts their readers do themselves are left out (broadcasts.ts); logSoftmax and its
 * gradient products are LogSoftmax and Softmax nodes (log_softmax.ts); a class mask of labels is a Gather of an identity (class_masks.ts); sum(-u) / c is sum(u) / -c (negations.ts); relu's gradient reads relu's output (relu_masks.ts); reshapes to the shape a value has are
 * no nodes (no_op_reshapes.ts).
 */
function lowerNodes(s: Scope, nodes: readonly Node[], names: Map<number, string>, kept: readonly number[], flatOutputs = false): (v: number) => string {
  const nameOf = (v: number): string => {
    const known = names.get(v);
    if (known !== undefined) return known;
    const name = s.constName(v);
    names.set(v, name);
    return name;
  };
  const { writers, absorbed } = planFusions(s.g, nodes, kept, flatOutputs);
  writeLogSoftmaxes(s.g, nodes, kept, writers, absorbed);
  writeClassMasks(s.g, nodes, kept, writers, absorbed);
  foldNegatedSums(s.g, nodes, kept, writers, absorbed);
  elideBroadcasts(s.g, nodes, kept, writers, absorbed);
  readReluOutputs(s.g, nodes, writers, absorbed);
  elideNoOpReshapes(s.g, nodes, writers, absorbed);
  for (const n of nodes) {
    if (absorbed.has(n)) continue;
    const fused = writers.get(n);
    if (fused !== undefined) {
      const outs = fused(s, nameOf);
      n.outputs.forEach((o, k) => names.set(o, outs[k]));
      continue;
    }
    if (isPrimitive(n.prim, 'read_variable')) {
      // Export only (segments take reads as inputs): the variable's value now, as an initializer.
      const v = (n.params as unknown as VarParams).variable;
      const info = v._value.concrete('toOnnx');
      const name = s.fresh('var');
      s.inits.push(constProto(name, v.dtype, info.shape, hostArray(v.dtype, backend.readInfoSync(info))));
      names.set(n.outputs[0], name);
      continue;
    }
    const outs = lowerNode(s, n.prim.onnx as OnnxSpec, n, n.inputs.map(nameOf));
    n.outputs.forEach((o, k) => names.set(o, outs[k]));
  }
  return nameOf;
}

/** Lowers the whole of `s.g` into `s`, its inputs named `inputs`; returns the names of its outputs. */
export function lowerGraph(s: Scope, inputs: readonly string[]): string[] {
  const names = new Map<number, string>(s.g.inputs.map((v, k) => [v, inputs[k]]));
  const nameOf = lowerNodes(s, s.g.nodes, names, s.g.outputs);
  return s.g.outputs.map(nameOf);
}

/** One formal input or output of a subgraph: its name, its dtype (or ONNX element type), and its shape if known. */
export type Formal = readonly [string, DType | number, Dims?];

/**
 * The nodes written into `s` as a subgraph attribute (If branches, Loop bodies): `inputs` are its formal
 * inputs; `outputs` pass through Identity nodes to fresh names. Other names resolve in outer scopes.
 */
export function subgraph(s: Scope, name: string, inputs: readonly Formal[], outputs: readonly Formal[]): { g: Msg } {
  const outs = outputs.map(([v]) => s.add('Identity', [v])[0]);
  const graph = new Msg();
  for (const m of s.nodes) graph.msg(F.graph.node, m);
  graph.str(F.graph.name, s.fresh(name));
  const info = (n: string, t: DType | number, shape: Dims = null): Msg => valueInfo(n, { elemType: typeof t === 'number' ? t : ONNX_TYPE[t], shape }, shape !== null);
  for (const [n, t, shape] of inputs) graph.msg(F.graph.input, info(n, t, shape));
  outputs.forEach(([, t], k) => graph.msg(F.graph.output, info(outs[k], t)));
  return { g: graph };
}

/**
 * Writes a part of `g` as an ONNX ModelProto: inputs `in{k}`, outputs `out{k}`, captured constants as initializers.
 * Every node must lower (`lowers`); the caller decides the part. `flatOutputs`: an output of static shape may come
 * out in another shape of the same size (its reader reshapes it: compiled segments' adoptOutputs), not for export.
 */
export function buildModel(g: Graph, part: Part, opset = DEFAULT_OPSET, flatOutputs = false): Uint8Array {
  const s = new Scope(g, opset);
  const names = new Map<number, string>();
  const graph = new Msg();
  part.inputs.forEach((v, k) => names.set(v, `in${k}`));
  const nameOf = lowerNodes(s, part.nodes, names, part.outputs, flatOutputs);
  const outNames = part.outputs.map((v, k) => {
    const name = `out${k}`;
    const m = new Msg().str(F.node.input, nameOf(v)).str(F.node.output, name).str(F.node.name, name).str(F.node.opType, 'Identity');
    s.nodes.push(m);
    return name;
  });
  for (const m of s.nodes) graph.msg(F.graph.node, m);
  graph.str(F.graph.name, g.name || 'eagerflow');
  for (const m of s.inits) graph.msg(F.graph.initializer, m);
  part.inputs.forEach((v, k) => graph.msg(F.graph.input, valueInfo(`in${k}`, g.aval(v), true)));
  part.outputs.forEach((v, k) => graph.msg(F.graph.output, valueInfo(outNames[k], g.aval(v), false)));
  return new Msg()
    .int(F.model.irVersion, 8)
    .str(F.model.producerName, 'eagerflow')
    .str(F.model.producerVersion, '0.1.0')
    .msg(F.model.opsetImport, new Msg().str(F.opset.domain, '').int(F.opset.version, opset))
    .msg(F.model.graph, graph)
    .bytes();
}
