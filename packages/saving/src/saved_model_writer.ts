// ef.savedModel.save: a Module (or a traced function) as a TF 2.x SavedModel that TF 2.21's tf.saved_model.load,
// saved_model_cli and TF Serving read. Each function is written by the GraphDef writer (one op mapping table), then
// turned into a FunctionDef (captured variables as resource arguments, outputs named `node:<output_arg>:<k>`); the
// main graph holds the variables, one StatefulPartitionedCall per signature and a RestoreV2/SaveV2 saver.
import { DType, Tensor, Variable, isPlainObject } from '@eagerflow/core';
import { concreteOf, nodeFs } from '@eagerflow/function';
import type { AttrValue, FunctionDef, GraphDef, NodeDef } from './format';
import { TF_DTYPE, attr, shapeJson } from './format';
import { Module, isTracedFunction, moduleAttributes } from './module';
import { graphDefToProto } from './proto/graphdef_proto';
import { decodeTfProto, encodeTfProto } from './proto/tf_protos';
import { BundleTensor, DT, writeBundle } from './tensor_bundle';
import { bundleOf } from './tf_dtypes';
import { escapeLocalName } from './tf_checkpoint';
import { SAVED_MODEL_API as API, WrittenFn, argName, bad, capturedVariables, tensorJson, writeFunction } from './saved_model_functions';

const SERVING = 'tensorflow/serving/predict';

/** Options of ef.savedModel.save. */
export interface SavedModelSaveOptions {
  /** A traced function / ConcreteFunction (saved as `serving_default`), or `{key: fn}`. */
  signatures?: unknown;
}

type Obj = Record<string, unknown>;

function specValue(name: string | null, dtype: DType, shape: readonly (number | null)[] | null): Obj {
  return { tensor_spec_value: { name: name ?? '', shape: shapeProto(shape), dtype: DT_NUM[dtype] } };
}

const DT_NUM: Record<DType, number> = { float32: DT.FLOAT, int32: DT.INT32, bool: DT.BOOL, string: DT.STRING, complex64: DT.COMPLEX64 };

function shapeProto(shape: readonly (number | null)[] | null): Obj {
  return shape === null ? { unknown_rank: true } : { dim: shape.map((d) => ({ size: d ?? -1 })) };
}

const none = (): Obj => ({ none_value: {} });

function fullArgSpec(args: string[], kwonly: string[]): Obj {
  const list = (xs: string[]): Obj => ({ list_value: { values: xs.map((s) => ({ string_value: s })) } });
  return {
    named_tuple_value: {
      name: 'FullArgSpec',
      values: [
        { key: 'args', value: list(args) }, { key: 'varargs', value: none() }, { key: 'varkw', value: none() }, { key: 'defaults', value: none() },
        { key: 'kwonlyargs', value: list(kwonly) }, { key: 'kwonlydefaults', value: none() }, { key: 'annotations', value: { dict_value: {} } },
      ],
    },
  };
}

/** TF's structure of a function's outputs (tensor_spec_value leaves; lists and objects as list/dict values). */
function outputStructure(s: unknown, leaves: { dtype: DType; shape: (number | null)[] | null }[], names: string[]): Obj {
  let k = 0;
  const walk = (x: unknown): Obj => {
    if (x instanceof Tensor) {
      const o = leaves[k++];
      return specValue(names.length === 1 ? 'unknown' : 'unknown', o.dtype, o.shape);
    }
    if (Array.isArray(x)) return { list_value: { values: x.map(walk) } };
    if (isPlainObject(x)) {
      const keys = Object.keys(x).sort();
      const fields: Obj = {};
      for (const key of keys) fields[key] = walk((x as Obj)[key]);
      return { dict_value: { fields } };
    }
    return none();
  };
  return walk(s);
}

interface SavedNode {
  obj: unknown;
  kind: 'user' | 'list' | 'dict' | 'variable' | 'function' | 'signatures' | 'bare';
  children: { node_id: number; local_name: string }[];
  path: string[];
  fn?: WrittenFn;
}

/**
 * Saves `obj` (an ef.Module, or a traced function) as a TF 2.x SavedModel in `dir`: `saved_model.pb`
 * and `variables/variables.{index,data-00000-of-00001}`.
 */
export async function saveSavedModel(obj: unknown, dir: string, options: SavedModelSaveOptions = {}): Promise<void> {
  if (typeof dir !== 'string' || dir === '') throw bad('expected a directory', typeof dir, 'a path', 'Pass where to write the SavedModel.');
  const rootIsFunction = isTracedFunction(obj);
  if (!(obj instanceof Module) && !rootIsFunction) {
    throw bad('expected an ef.Module or a traced function', obj === null ? 'null' : typeof obj, 'an instance of a class extending ef.Module, or ef.trace(fn, {inputSignature})', 'Put the variables and functions on an ef.Module.');
  }
  // The object graph, breadth first from the root (TF's order: children in attribute order, signatures last).
  const nodes: SavedNode[] = [];
  const ids = new Map<unknown, number>();
  const add = (x: unknown, kind: SavedNode['kind'], path: string[]): number => {
    const known = ids.get(x);
    if (known !== undefined && kind !== 'bare') return known;
    nodes.push({ obj: x, kind, children: [], path });
    if (kind !== 'bare') ids.set(x, nodes.length - 1);
    return nodes.length - 1;
  };
  // A function alone is saved as TF saves a module holding it: a root object with the function as `__call__`
  // and the variables it captures as attributes (TF's loader makes such a root callable).
  const root = rootIsFunction ? { __call__: obj, ...Object.fromEntries(capturedVariables(concreteOf(obj).graph).map((v, k) => [`variable_${k}`, v])) } : obj;
  add(root, 'user', []);
  const kindOf = (x: unknown): SavedNode['kind'] | null => {
    if (x instanceof Variable) return 'variable';
    if (x instanceof Module) return 'user';
    if (isTracedFunction(x)) return 'function';
    if (Array.isArray(x)) return 'list';
    if (isPlainObject(x)) return 'dict';
    return null;
  };
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    let entries: [string, unknown][] = [];
    if (i === 0 && rootIsFunction) entries = Object.entries(root as Record<string, unknown>);
    else if (n.kind === 'user') entries = moduleAttributes(n.obj as Module);
    else if (n.kind === 'list') entries = (n.obj as unknown[]).map((v, k) => [String(k), v]);
    else if (n.kind === 'dict') entries = Object.entries(n.obj as Obj);
    for (const [name, child] of entries) {
      const kind = kindOf(child);
      if (kind === null) continue;
      const id = add(child, kind, [...n.path, name]);
      n.children.push({ node_id: id, local_name: name });
    }
  }
  const variableIds = new Map<Variable, number>();
  nodes.forEach((n, i) => n.obj instanceof Variable && variableIds.set(n.obj, i));

  // Functions: each function node's concrete function (its signature trace, or its only trace).
  const library: FunctionDef[] = [];
  const concreteFns: Obj = {};
  let fnCounter = 0; // function names are numbered per file, so the same objects always write the same bytes
  const fnOf = new Map<unknown, WrittenFn>();
  const written = (f: unknown, what: string): WrittenFn => {
    let out = fnOf.get(f);
    if (out === undefined) {
      out = writeFunction(concreteOf(f), variableIds, what, ++fnCounter);
      fnOf.set(f, out);
      library.push(...out.library);
      concreteFns[out.name] = {
        bound_inputs: out.variables.map((v) => variableIds.get(v)!),
        canonicalized_input_signature: { tuple_value: { values: [{ tuple_value: { values: out.inputs.map((s, k) => specValue(s.name ?? out!.inputNames[k], s.dtype, s.shape.dims)) } }, { dict_value: {} }] } },
        output_signature: outputStructure(out.structured, out.outputs, out.outputNames),
      };
    }
    return out;
  };
  const fnNodes = nodes.map((n, i) => [n, i] as const).filter(([n]) => n.kind === 'function');
  for (const [n] of fnNodes) n.fn = written(n.obj, n.path.length ? `the function at '${n.path.join('.')}'` : 'the function');
  for (const [n] of fnNodes) {
    const id = add({}, 'bare', [...n.path, 'trace_0']);
    nodes[id].fn = n.fn;
    n.children.push({ node_id: id, local_name: 'trace_0' });
  }

  // Signatures: a wrapper per key taking the inputs by name and returning outputs by name (sorted, as TF flattens).
  const sigInput = options.signatures ?? (rootIsFunction ? obj : undefined);
  const sigMap: [string, unknown][] = sigInput === undefined ? [] : isPlainObject(sigInput) ? Object.entries(sigInput) : [['serving_default', sigInput]];
  const signatureDefs: Obj = {};
  const mainNodes: NodeDef[] = [];
  const varNodeName = new Map<Variable, string>();
  const usedNames = new Set<string>();
  const fresh = (base: string): string => {
    const clean = base.replace(/[^A-Za-z0-9_.\-/]/g, '_').replace(/^[^A-Za-z0-9.]/, 'v');
    let name = clean;
    for (let k = 1; usedNames.has(name); k++) name = `${clean}_${k}`;
    usedNames.add(name);
    return name;
  };
  for (const [v, id] of variableIds) {
    const name = fresh(nodes[id].path.join('/') || 'variable');
    varNodeName.set(v, name);
    mainNodes.push({ name, op: 'VarHandleOp', input: [], attr: { dtype: attr.type(v.dtype), shape: attr.shape(v.shape.dims), shared_name: attr.str(name), container: attr.str('') } });
  }
  let sigNode: number | null = null;
  if (sigMap.length > 0) {
    sigNode = add({}, 'signatures', ['signatures']);
    nodes[0].children.push({ node_id: sigNode, local_name: 'signatures' });
  }
  let callCount = 0;
  for (const [key, f] of sigMap) {
    if (!isTracedFunction(f)) throw bad(`signature '${key}' is not a traced function`, typeof f, 'ef.trace(fn, {inputSignature}) or a ConcreteFunction', 'Pass traced functions as signatures.');
    const target = written(f, `signature '${key}'`);
    const inNames = target.inputs.map((s, k) => s.name ?? target.inputNames[k]);
    if (new Set(inNames).size !== inNames.length) throw bad(`signature '${key}' has repeated input names`, inNames.join(', '), 'distinct names', 'Name the TensorSpecs of the inputSignature.');
    // The wrapper: inputs by name, then the captured variables; outputs in sorted-name order.
    const order = target.outputNames.map((n, k) => [n, k] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const uid = ++fnCounter;
    const wname = `__inference_signature_wrapper_${uid}`;
    // TF flattens the keyword inputs of a signature in sorted-name order: the wrapper's arguments follow it.
    const sorted = inNames.map((n, k) => [n, k] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, k]) => k);
    const inArgs = inNames.map(argName);
    const resArgs = target.variables.map((_, k) => `unknown${k ? `_${k - 1}` : ''}`);
    const wargs = [...inArgs, ...resArgs];
    const tin = [...target.inputs.map((s) => TF_DTYPE[s.dtype]), ...target.variables.map(() => 'DT_RESOURCE')];
    const call: NodeDef = {
      name: 'StatefulPartitionedCall', op: 'StatefulPartitionedCall', input: wargs,
      attr: { Tin: { list: { type: tin } } as AttrValue, Tout: { list: { type: target.outputs.map((o) => TF_DTYPE[o.dtype]) } } as AttrValue, f: { func: { name: target.name } } as AttrValue },
    };
    const ids2 = order.map(([, k], j) => ({ name: `Identity${j ? `_${j}` : ''}`, op: 'Identity', input: [`StatefulPartitionedCall:output:${k}`], attr: { T: attr.type(target.outputs[k].dtype) } }));
    library.push({
      signature: {
        name: wname,
        inputArg: [...sorted.map((k) => ({ name: inArgs[k], type: TF_DTYPE[target.inputs[k].dtype] })), ...target.variables.map((v, k) => ({ name: resArgs[k], type: 'DT_RESOURCE', handleData: [{ dtype: TF_DTYPE[v.dtype], shape: shapeJson(v.shape.dims) }] }))],
        outputArg: order.map((_, j) => ({ name: `identity${j ? `_${j}` : ''}`, type: TF_DTYPE[target.outputs[order[j][1]].dtype] })),
        isStateful: true,
        controlOutput: ['StatefulPartitionedCall'],
      },
      nodeDef: [call, ...ids2],
      ret: Object.fromEntries(ids2.map((n, j) => [`identity${j ? `_${j}` : ''}`, `${n.name}:output:0`])),
      controlRet: { StatefulPartitionedCall: 'StatefulPartitionedCall' },
    } as unknown as FunctionDef);
    concreteFns[wname] = {
      bound_inputs: target.variables.map((v) => variableIds.get(v)!),
      canonicalized_input_signature: { tuple_value: { values: [{ tuple_value: {} }, { dict_value: { fields: Object.fromEntries(target.inputs.map((s, k) => [inNames[k], specValue(inNames[k], s.dtype, s.shape.dims)])) } }] } },
      output_signature: { dict_value: { fields: Object.fromEntries(order.map(([n, k]) => [n, specValue(n, target.outputs[k].dtype, target.outputs[k].shape)])) } },
    };
    const bare = add({}, 'bare', ['signatures', key]);
    nodes[bare].fn = { ...target, name: wname, inputNames: inNames };
    nodes[sigNode!].children.push({ node_id: bare, local_name: key });
    // The main graph: a Placeholder per input, one call, the SignatureDef.
    const phs = target.inputs.map((s, k) => {
      const name = fresh(`${key}_${inNames[k]}`);
      mainNodes.push({ name, op: 'Placeholder', input: [], attr: { dtype: attr.type(s.dtype), shape: attr.shape(s.shape.dims) } });
      return name;
    });
    const callName = fresh(callCount++ === 0 ? 'StatefulPartitionedCall' : `StatefulPartitionedCall_${callCount - 1}`);
    mainNodes.push({
      ...call, name: callName, input: [...sorted.map((k) => phs[k]), ...target.variables.map((v) => varNodeName.get(v)!)],
      attr: {
        Tin: { list: { type: [...sorted.map((k) => TF_DTYPE[target.inputs[k].dtype]), ...target.variables.map(() => 'DT_RESOURCE')] } } as AttrValue,
        Tout: { list: { type: order.map(([, k]) => TF_DTYPE[target.outputs[k].dtype]) } } as AttrValue, f: { func: { name: wname } } as AttrValue,
      },
    });
    signatureDefs[key] = {
      inputs: Object.fromEntries(target.inputs.map((s, k) => [inNames[k], { name: `${phs[k]}:0`, dtype: DT_NUM[s.dtype], tensor_shape: shapeProto(s.shape.dims) }])),
      outputs: Object.fromEntries(order.map(([n, k], j) => [n, { name: `${callName}:${j}`, dtype: DT_NUM[target.outputs[k].dtype], tensor_shape: shapeProto(target.outputs[k].shape) }])),
      method_name: SERVING,
    };
  }
  mainNodes.push({ name: fresh('NoOp'), op: 'NoOp', input: [], attr: {} });
  signatureDefs.__saved_model_init_op = { outputs: { __saved_model_init_op: { name: 'NoOp', tensor_shape: { unknown_rank: true } } } };

  // The checkpoint: variables under their object-graph paths, with an object graph mirroring the SavedObjectGraph.
  const keyOf = (i: number): string => `${nodes[i].path.map(escapeLocalName).join('/')}/.ATTRIBUTES/VARIABLE_VALUE`;
  const tensors = new Map<string, BundleTensor>();
  const hasValues = nodes.map((n) => n.obj instanceof Variable);
  for (let i = nodes.length - 1; i >= 0; i--) if (nodes[i].children.some((c) => hasValues[c.node_id])) hasValues[i] = true;
  const ckptNodes = nodes.map((n, i) => {
    const out: Obj = {};
    if (n.children.length) out.children = n.children;
    if (n.obj instanceof Variable) {
      const value = n.obj.value();
      try {
        tensors.set(keyOf(i), bundleOf(value));
      } finally {
        value.dispose();
      }
      out.attributes = [{ name: 'VARIABLE_VALUE', full_name: n.obj.name, checkpoint_key: keyOf(i) }];
    }
    out.has_checkpoint_values = hasValues[i] ? { value: true } : {};
    return out;
  });
  tensors.set('_CHECKPOINTABLE_OBJECT_GRAPH', { dtype: DT.STRING, shape: [], data: [encodeTfProto('tensorflow.TrackableObjectGraph', { nodes: ckptNodes })] });

  // The saver (TF1 sessions, saved_model_cli run, TF Serving): RestoreV2 into every variable, SaveV2 of them all.
  const varList = [...variableIds.keys()];
  const strings = (name: string, xs: string[]): NodeDef => ({ name, op: 'Const', input: [], attr: { dtype: attr.type('string'), value: { tensor: tensorJson({ dtype: 'string', shape: [xs.length], data: xs }) } as AttrValue } });
  mainNodes.push({ name: 'saver_filename', op: 'Placeholder', input: [], attr: { dtype: attr.type('string'), shape: attr.shape([]) } });
  const keys = varList.map((v) => keyOf(variableIds.get(v)!));
  mainNodes.push(strings('save/tensor_names', keys), strings('save/shape_and_slices', keys.map(() => '')));
  const dtypes = { list: { type: varList.map((v) => TF_DTYPE[v.dtype]) } } as AttrValue;
  mainNodes.push({ name: 'save/RestoreV2', op: 'RestoreV2', input: ['saver_filename', 'save/tensor_names', 'save/shape_and_slices'], attr: { dtypes } });
  const assigns = varList.map((v, k) => {
    const name = `save/AssignVariableOp${k ? `_${k}` : ''}`;
    mainNodes.push({ name, op: 'AssignVariableOp', input: [varNodeName.get(v)!, `save/RestoreV2${k ? `:${k}` : ''}`], attr: { dtype: attr.type(v.dtype) } });
    return `^${name}`;
  });
  mainNodes.push({ name: 'save/restore_all', op: 'NoOp', input: assigns, attr: {} });
  const reads = varList.map((v, k) => {
    const name = `save/ReadVariableOp${k ? `_${k}` : ''}`;
    mainNodes.push({ name, op: 'ReadVariableOp', input: [varNodeName.get(v)!], attr: { dtype: attr.type(v.dtype) } });
    return name;
  });
  mainNodes.push({ name: 'save/SaveV2', op: 'SaveV2', input: ['saver_filename', 'save/tensor_names', 'save/shape_and_slices', ...reads], attr: { dtypes } });
  mainNodes.push({ name: 'save/control_dependency', op: 'Identity', input: ['saver_filename', '^save/SaveV2'], attr: { T: attr.type('string') } });

  // The SavedObjectGraph.
  const savedNodes = nodes.map((n) => {
    const out: Obj = {};
    if (n.children.length) out.children = n.children;
    const userObject = (identifier: string): Obj => ({ identifier, version: { producer: 1, min_consumer: 1 } });
    if (n.kind === 'user') out.user_object = userObject('_generic_user_object');
    else if (n.kind === 'list') out.user_object = userObject('trackable_list_wrapper');
    else if (n.kind === 'dict') out.user_object = userObject('trackable_dict_wrapper');
    else if (n.kind === 'signatures') out.user_object = userObject('signature_map');
    else if (n.kind === 'variable') {
      const v = n.obj as Variable;
      out.variable = { dtype: DT_NUM[v.dtype], shape: shapeProto(v.shape.dims), trainable: v.trainable, name: v.name };
    } else if (n.kind === 'function') {
      const f = n.fn!;
      const names = f.inputs.map((s, k) => s.name ?? f.inputNames[k]);
      out.function = {
        concrete_functions: [f.name],
        function_spec: { fullargspec: fullArgSpec(names, []), input_signature: { tuple_value: { values: f.inputs.map((s, k) => specValue(names[k], s.dtype, s.shape.dims)) } } },
      };
      out.dependencies = n.children.filter((c) => c.local_name === 'trace_0');
    } else if (n.kind === 'bare') {
      const f = n.fn!;
      const isSig = n.path[0] === 'signatures' && f.name.startsWith('__inference_signature_wrapper_');
      const names = isSig ? f.inputNames : f.inputs.map((s, k) => s.name ?? f.inputNames[k]);
      out.bare_concrete_function = {
        concrete_function_name: f.name, argument_keywords: names, allowed_positional_arguments: isSig ? 0 : names.length,
        function_spec: { fullargspec: isSig ? fullArgSpec([], names) : fullArgSpec(names, []), input_signature: none() },
      };
    }
    return out;
  });

  const graphDef: GraphDef = { node: mainNodes, library: { function: library }, versions: { producer: 1395, minConsumer: 12 } } as GraphDef;
  const graphProto = decodeTfProto('tensorflow.GraphDef', graphDefToProto(graphDef, API));
  const metaGraph = {
    meta_info_def: { meta_graph_version: 'eagerflow', tags: ['serve'], stripped_default_attrs: true },
    graph_def: graphProto,
    saver_def: { filename_tensor_name: 'saver_filename:0', save_tensor_name: 'save/control_dependency:0', restore_op_name: 'save/restore_all', max_to_keep: 5, sharded: false, keep_checkpoint_every_n_hours: 10000, version: 2 },
    collection_def: { saved_model_main_op: { node_list: { value: ['NoOp'] } } },
    signature_def: signatureDefs,
    object_graph_def: { nodes: savedNodes, concrete_functions: concreteFns },
  };
  const bytes = encodeTfProto('tensorflow.SavedModel', { saved_model_schema_version: 1, meta_graphs: [metaGraph] });
  const { index, data } = writeBundle(tensors);
  const { fs, path } = nodeFs(API);
  await fs.mkdir(path.join(dir, 'variables'), { recursive: true });
  await fs.writeFile(path.join(dir, 'variables', 'variables.data-00000-of-00001'), data);
  await fs.writeFile(path.join(dir, 'variables', 'variables.index'), index);
  await fs.writeFile(path.join(dir, 'saved_model.pb'), bytes);
}
