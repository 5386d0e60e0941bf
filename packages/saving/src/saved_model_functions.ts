// SavedModel functions: a concrete function written by the GraphDef writer (one op mapping table) becomes a
// FunctionDef: Placeholders and captured variables become arguments (variables as DT_RESOURCE), Consts get their
// values inline, inputs are renamed to FunctionDef style (`node:<output_arg>:<k>`, from TF's OpDefs), and nested
// cond/while bodies get names unique in the file.
import { DType, Tensor, TensorSpec, Variable, argError, flattenStructure, isPlainObject, paramsRecord } from '@eagerflow/core';
import { ConcreteFunction, Graph, isGraph } from '@eagerflow/function';
import protobuf from 'protobufjs/light.js';
import type { AttrValue, FunctionDef, NodeDef } from './format';
import { TF_DTYPE, shapeJson } from './format';
import { writeConcrete } from './graphdef';
import { threadResources } from './saved_model_resources';
import { HOST_CALLBACK_PRIMITIVE, hostCallbacks } from './host';
import { TF_OUTPUT_ARGS } from './proto/tf_output_args';
import { ConstValue } from './weights';

export const SAVED_MODEL_API = 'savedModel.save';

const b64 = (bytes: Uint8Array): string => protobuf.util.base64.encode(bytes, 0, bytes.length);
const b64str = (s: string): string => b64(new TextEncoder().encode(s));
const unb64 = (s: string): string => {
  const buf = new Uint8Array(protobuf.util.base64.length(s));
  protobuf.util.base64.decode(s, buf, 0);
  return new TextDecoder().decode(buf);
};

type Obj = Record<string, unknown>;

const isTensorLeaf = (x: unknown): boolean => x instanceof Tensor;

export function bad(what: string, got: string, expected: string, fix: string): Error {
  return argError(SAVED_MODEL_API, what, got, expected, fix);
}

/** Host callbacks anywhere in a graph (they cannot go into a SavedModel). */
function hostCallbackNames(g: Graph, out: string[] = []): string[] {
  const bridge = hostCallbacks.bridge;
  for (const n of g.nodes) {
    const isHost = bridge === null ? n.prim.name === HOST_CALLBACK_PRIMITIVE : bridge.isHostCallback(n.prim.name);
    if (isHost) out.push(`${n.prim.name} in '${g.name}'`);
    for (const p of Object.values(n.params)) if (isGraph(p)) hostCallbackNames(p, out);
  }
  return out;
}

/** A Const's value as a TensorProto in proto3-JSON form (tensor_content / string_val base64). */
export function tensorJson(v: ConstValue): Obj {
  const shape = { dim: v.shape.map((d) => ({ size: String(d) })) };
  if (v.dtype === 'string') return { dtype: 'DT_STRING', tensorShape: shape, stringVal: (v.data as string[]).map(b64str) };
  const d = v.data as Float32Array | Int32Array | Uint8Array;
  return { dtype: TF_DTYPE[v.dtype], tensorShape: shape, tensorContent: b64(new Uint8Array(d.buffer, d.byteOffset, d.byteLength)) };
}

function inlineConsts(nodes: NodeDef[], values: Map<string, ConstValue>): void {
  for (const n of nodes) {
    if (n.op !== 'Const') continue;
    const v = values.get(n.name);
    if (v !== undefined) (n.attr as Obj).value = { tensor: tensorJson(v) };
  }
}

/** The output arguments of a node's op with their lengths: [[argName, count], ...]. */
function outputArgs(n: NodeDef): [string, number][] {
  const spec = TF_OUTPUT_ARGS[n.op];
  if (spec === undefined) {
    if (n.op === 'NoOp' || NO_OUTPUTS.has(n.op)) return [];
    throw bad(`op '${n.op}' (node '${n.name}') is not a TensorFlow op`, n.op, 'ops of TF 2.21', 'Express the computation with ops that have a TensorFlow mapping.');
  }
  const attrs = (n.attr ?? {}) as Record<string, AttrValue & { list?: { type?: string[] } }>;
  return spec.map((a): [string, number] => {
    if (typeof a === 'string') return [a, 1];
    const at = attrs[a[1]];
    return [a[0], at?.i !== undefined ? Number(at.i) : (at?.list?.type?.length ?? 0)];
  });
}

/** Ops without outputs that the writer emits (their outputs are never referenced). */
const NO_OUTPUTS = new Set(['AssignVariableOp', 'AssignAddVariableOp', 'AssignSubVariableOp', 'SaveV2']);

/** Rewrites GraphDef-style inputs (`node`, `node:k`) of function nodes to FunctionDef style (`node:arg:k`, `argname`). */
function functionRefs(nodes: NodeDef[], args: Map<string, string>): (ref: string) => string {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  return (ref: string): string => {
    if (ref.startsWith('^')) return ref;
    const m = /^(.*?)(?::(\d+))?$/.exec(ref)!;
    const name = m[1];
    const k = Number(m[2] ?? 0);
    const arg = args.get(name);
    if (arg !== undefined) return arg;
    const n = byName.get(name);
    if (n === undefined) throw bad(`input '${ref}' refers to no node`, ref, 'a node of the function', 'Report this: the writer produced a dangling reference.');
    let at = 0;
    for (const [a, len] of outputArgs(n)) {
      if (k < at + len) return `${name}:${a}:${k - at}`;
      at += len;
    }
    throw bad(`input '${ref}' asks for output ${k} of '${n.op}'`, String(k), `fewer than ${at}`, 'Report this: the writer produced a bad reference.');
  };
}

/** One concrete function written as a FunctionDef, with what the object graph and signatures need. */
export interface WrittenFn {
  name: string;
  inputs: TensorSpec[];
  inputNames: string[];
  variables: Variable[];
  outputs: { dtype: DType; shape: (number | null)[] | null }[];
  /** Output names (keys of a returned object, else output_k) in the function's output order. */
  outputNames: string[];
  structured: unknown;
  library: FunctionDef[];
}


export function argName(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^[^a-z]/, 'a$&');
}

/** Writes `cf` as `__inference_<name>_<n>`: its Placeholders and captured variables become arguments. */
export function writeFunction(cf: ConcreteFunction, variableIds: Map<Variable, number>, what: string, uid: number): WrittenFn {
  const hosts = hostCallbackNames(cf.graph);
  if (hosts.length > 0) {
    throw bad(`${what} calls host callbacks, which a SavedModel cannot hold`, hosts.join(', '), 'a function of graph ops only', 'Save it with ef.saveFunction (host callbacks are stored by key there), or move the callback out of the function.');
  }
  const w = writeConcrete(cf, { resourceVariables: true });
  threadResources(w.graphDef.node, w.graphDef.library?.function ?? []);
  const fname = `__inference_${argName(cf.name)}_${uid}`;
  // Library functions (cond/while bodies) get names unique in the file.
  const rename = new Map(w.graphDef.library?.function?.map((f) => [f.signature.name, `${f.signature.name}_${uid}`]) ?? []);
  const renameFuncs = (nodes: NodeDef[]): void => {
    for (const n of nodes) {
      for (const v of Object.values(n.attr ?? {}) as (AttrValue & { func?: { name: string }; list?: { func?: { name: string }[] } })[]) {
        if (v.func?.name !== undefined && rename.has(v.func.name)) v.func.name = rename.get(v.func.name)!;
        for (const f of v.list?.func ?? []) if (rename.has(f.name)) f.name = rename.get(f.name)!;
      }
    }
  };
  const nodes = w.graphDef.node;
  inlineConsts(nodes, w.weights.values);
  const args = new Map<string, string>();
  const inputArg: Obj[] = [];
  const argAttr: Obj = {};
  const inputNames: string[] = [];
  const taken = new Set<string>();
  const uniqueArg = (base: string): string => {
    let n = base;
    for (let k = 1; taken.has(n); k++) n = `${base}_${k}`;
    taken.add(n);
    return n;
  };
  for (const n of nodes.filter((x) => x.op === 'Placeholder')) {
    const a = uniqueArg(argName(n.name));
    args.set(n.name, a);
    inputNames.push(n.name);
    inputArg.push({ name: a, type: (n.attr!.dtype as { type: string }).type });
    argAttr[String(inputArg.length - 1)] = { attr: { _user_specified_name: { s: b64str(n.name) }, _output_shapes: { list: { shape: [(n.attr!.shape as { shape: unknown }).shape] } } } };
  }
  const variables: Variable[] = [];
  const handles = nodes.filter((x) => x.op === 'VarHandleOp');
  for (const h of handles) {
    const shared = unb64(String((h.attr!.shared_name as { s: string }).s));
    const v = [...w.sharedNames].find(([, name]) => name === shared)?.[0];
    if (v === undefined || !variableIds.has(v)) throw bad(`${what} uses a variable that is not tracked by the saved object`, `variable '${shared}'`, 'variables reachable from the Module\'s attributes', 'Assign the variable to an attribute of the Module (or of one of its submodules).');
    const a = uniqueArg(`${argName(h.name)}_resource`);
    args.set(h.name, a);
    variables.push(v);
    inputArg.push({ name: a, type: 'DT_RESOURCE', handleData: [{ dtype: TF_DTYPE[v.dtype], shape: shapeJson(v.shape.dims) }] });
    argAttr[String(inputArg.length - 1)] = { attr: { _user_specified_name: { s: b64str('resource') } } };
  }
  const body = nodes.filter((x) => x.op !== 'Placeholder' && x.op !== 'VarHandleOp');
  const ref = functionRefs(body, args);
  renameFuncs(body);
  // Outputs: the writer's trailing Identity nodes, in output order.
  const outAvals = cf.graph.outputs.map((vi) => cf.graph.aval(vi));
  const outIds = body.slice(body.length - outAvals.length);
  const outputNames = namesOf(cf.structuredOutputs, outAvals.length);
  const fixed = body.map((n) => ({ ...n, input: (n.input ?? []).map((r) => (r.startsWith('^') && args.has(r.slice(1)) ? null : ref(r))).filter((r): r is string => r !== null) }));
  const ret: Record<string, string> = {};
  const outputArg = outAvals.map((a, k) => {
    const key = `identity${k === 0 ? '' : `_${k}`}`;
    ret[key] = `${outIds[k].name}:output:0`;
    return { name: key, type: TF_DTYPE[a.dtype] };
  });
  orderResourceUses(fixed, new Set(args.values()));
  const stateful = fixed.filter((n) => STATEFUL_OPS.has(n.op)).map((n) => n.name);
  const fdef: Obj = {
    signature: { name: fname, inputArg, outputArg, isStateful: handles.length > 0 || stateful.length > 0, controlOutput: stateful },
    nodeDef: fixed, ret, argAttr, controlRet: Object.fromEntries(stateful.map((s) => [s, s])),
  };
  const library: FunctionDef[] = [fdef as unknown as FunctionDef];
  for (const f of w.graphDef.library?.function ?? []) {
    inlineConsts(f.nodeDef ?? [], w.weights.values);
    const fargs = new Map((f.signature.inputArg ?? []).map((a) => [a.name, a.name]));
    const fnodes = f.nodeDef ?? [];
    const fref = functionRefs(fnodes, fargs);
    renameFuncs(fnodes);
    const ret2: Record<string, string> = {};
    for (const [k, v] of Object.entries(f.ret ?? {})) ret2[k] = fref(v);
    library.push({ ...f, signature: { ...f.signature, name: rename.get(f.signature.name)! }, nodeDef: fnodes.map((n) => ({ ...n, input: (n.input ?? []).map(fref) })), ret: ret2 });
  }
  return {
    name: fname, inputs: cf.inputSignature, inputNames, variables, outputs: outAvals.map((a) => ({ dtype: a.dtype, shape: a.shape })), outputNames, structured: cf.structuredOutputs, library,
  };
}

const STATEFUL_OPS = new Set(['AssignVariableOp', 'AssignAddVariableOp', 'AssignSubVariableOp', 'ReadVariableOp', 'StatefulPartitionedCall', 'While', 'If']);

/** Output names: a returned object's keys (in flatten order), else output_0, output_1, ... */
function namesOf(structured: unknown, n: number): string[] {
  if (isPlainObject(structured) && Object.values(structured).every(isTensorLeaf)) {
    const keys = flattenStructure<string>(Object.fromEntries(Object.keys(structured).map((k) => [k, k])), (x) => typeof x === 'string');
    if (keys.length === n) return keys;
  }
  return Array.from({ length: n }, (_, k) => `output_${k}`);
}


/** The variables a function's graph reads or assigns (nested bodies included), in first-use order. */
export function capturedVariables(g: Graph, out: Set<Variable> = new Set()): Variable[] {
  for (const n of g.nodes) {
    const v = paramsRecord(n.params).variable;
    if (v instanceof Variable) out.add(v);
    for (const p of Object.values(n.params)) if (isGraph(p)) capturedVariables(p, out);
  }
  return [...out];
}

const RESOURCE_WRITES = new Set(['AssignVariableOp', 'AssignAddVariableOp', 'AssignSubVariableOp']);
const RESOURCE_READS = new Set(['ReadVariableOp']);

/**
 * TF's automatic control dependencies: uses of one resource keep program order (a read after an assignment
 * sees it, an assignment after a read does not change what was read), as control inputs between the nodes.
 */
function orderResourceUses(nodes: NodeDef[], resources: ReadonlySet<string>): void {
  const lastWrite = new Map<string, string>();
  const readsSince = new Map<string, string[]>();
  for (const n of nodes) {
    const isWrite = RESOURCE_WRITES.has(n.op);
    if (!isWrite && !RESOURCE_READS.has(n.op)) continue;
    const handle = n.input?.[0];
    if (handle === undefined || !resources.has(handle)) continue;
    const deps = [lastWrite.get(handle), ...(isWrite ? (readsSince.get(handle) ?? []) : [])].filter((d): d is string => d !== undefined);
    n.input = [...(n.input ?? []), ...deps.map((d) => `^${d}`)];
    if (isWrite) {
      lastWrite.set(handle, n.name);
      readsSince.set(handle, []);
    } else readsSince.set(handle, [...(readsSince.get(handle) ?? []), n.name]);
  }
}
