// TF 2.x graphs as traced functions: a GraphDef (binary, decoded, or JSON) with its function library, run the way
// TensorFlow's runtime runs a SavedModel's graphs: a signature (feeds and fetches of the main graph, pruned to what
// the fetches need) or one library FunctionDef, with resource variables bound to ef.Variables.
import type { DType, Dims } from '@eagerflow/core';
import { Tensor, Variable } from '@eagerflow/core';
import { GraphDefJson, graphDefFromProto } from './graphdef_decode';
import { LoadOptions, LoadedFunction, buildFunction, readLibrary } from './loader';
import { neededNodes } from './validate';
import type { ArgValue } from './reader';
import { fromTfDType } from './format';
import { InputRef, ParsedNode, array, loadError, own, parseInputRef, record, show } from './validate';

/** A TF graph ready to import: its main nodes and its function library. */
export interface TfGraph {
  readonly nodes: readonly ParsedNode[];
  readonly library: Map<string, Record<string, unknown>>;
  readonly json: GraphDefJson;
}

/**
 * Reads a TensorFlow GraphDef: the serialized `tensorflow.GraphDef` bytes, the message as protobufjs decodes it
 * (TF's snake_case fields, e.g. a MetaGraphDef's `graph_def`), or GraphDef JSON (protobuf JSON, as model.json's
 * modelTopology). Const tensors stay in the nodes (TensorProto) and are decoded when read.
 * @example
 * // not-run
 * const g = ef.internal.readTfGraph(fs.readFileSync('graph.pb'));
 */
export function readTfGraph(source: Uint8Array | Record<string, unknown>): TfGraph {
  // Decoded messages and JSON both go through the schema walk (it accepts either spelling of each field).
  const json = graphDefFromProto(source);
  const nodes = array(json.node ?? [], 'graph.node').map((n, k) => new ParsedNode(n, `graph.node[${k}]`));
  const library = readLibrary(json.library ?? null);
  return { nodes, library, json };
}

/** One signature tensor: `name` is the graph tensor (`node:k`); dtype and shape default to the node's attrs. */
export interface GraphTensorSpec {
  name: string;
  dtype?: DType;
  shape?: Dims;
}

/** Options of signatureFunction and libraryFunction (plus loadFunction's limits and jitCompile). */
export interface GraphFunctionOptions extends Pick<LoadOptions, 'limits' | 'jitCompile' | 'hostFunctions'> {
  /**
   * The variables behind the graph's resource handles, by VarHandleOp `shared_name` (or node name), by
   * VariableV2 name and by DT_RESOURCE Placeholder name (a concrete function graph's captures): reads see their current values, assignments update them, gradients reach them. The caller
   * owns them (the function's `dispose` leaves them alive).
   */
  variables?: ReadonlyMap<string, Variable> | Readonly<Record<string, Variable>>;
  /** The function's name (default: the signature key or the FunctionDef's name). */
  name?: string;
  /** 'list' (default): one output -> a Tensor, several -> an array in output order; 'dict': `{outputKey: Tensor}`. */
  outputs?: 'list' | 'dict';
}

function variableMap(v: GraphFunctionOptions['variables']): Map<string, Variable> {
  if (v === undefined) return new Map();
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v as Record<string, Variable>);
  for (const [k, x] of entries) {
    if (!(x instanceof Variable)) throw loadError(`options.variables['${k}'] is not an ef.Variable`, show(x), 'an ef.Variable', 'Pass new ef.Variable(value) for every resource handle');
  }
  return new Map(entries);
}

const structureOf = (mode: GraphFunctionOptions['outputs'], keys: string[]): ((ts: Tensor[]) => unknown) | undefined => {
  if (mode === undefined || mode === 'list') return undefined;
  if (mode !== 'dict') throw loadError("options.outputs must be 'list' or 'dict'", show(mode), "'list' or 'dict'", "Pass { outputs: 'dict' }");
  return (ts) => Object.fromEntries(keys.map((k, i) => [k, ts[i]]));
};

/**
 * A signature of a TF graph as a traced function, like a SavedModel's `signature_def` run by TF's session:
 * `inputs` feed Placeholders (by `node:0`), `outputs` fetch tensors; only the nodes the outputs need run (the
 * saver and initializer subgraphs stay out), calls into the function library run as nested graphs, and resource
 * handles read and update `options.variables`. The result is differentiable (to the inputs and the variables).
 * @example
 * // not-run
 * const g = ef.internal.readTfGraph(metaGraph.graph_def);
 * const f = ef.internal.signatureFunction(g, { inputs: { x: { name: 'serving_default_x:0' } }, outputs: { y: { name: 'StatefulPartitionedCall:0' } } }, { variables: { w, b } });
 */
export function signatureFunction(graph: TfGraph, signature: { inputs: Record<string, GraphTensorSpec>; outputs: Record<string, GraphTensorSpec> }, options: GraphFunctionOptions & { ownsVariables?: boolean } = {}): LoadedFunction {
  const sig = record(signature, 'signature');
  const byName = new Map(graph.nodes.map((n) => [n.name, n] as const));
  const ref = (spec: unknown, where: string): InputRef => {
    const name = own(record(spec, where), 'name');
    if (typeof name !== 'string') throw loadError(`${where}.name must be a tensor name`, show(name), "'node:0'", 'Pass the signature tensor name');
    const r = parseInputRef(name, where);
    if (!byName.has(r.node)) throw loadError(`${where} names a node the graph does not have`, `'${name}'`, 'a node of the main graph', 'Check the signature against the graph');
    return r;
  };
  const inputs = Object.entries(record(own(sig, 'inputs') ?? {}, 'signature.inputs')).map(([key, spec]) => {
    const r = ref(spec, `signature.inputs.${key}`);
    const node = byName.get(r.node) as ParsedNode;
    if (r.index !== 0 || (node.op !== 'Placeholder' && node.op !== 'PlaceholderWithDefault')) throw loadError(`signature input '${key}' is not a Placeholder`, `'${r.text}' (${node.op})`, 'a Placeholder output', 'Feed Placeholders only');
    const s = spec as GraphTensorSpec;
    return { key, node, dtype: s.dtype ?? node.dtype('dtype'), shape: s.shape !== undefined ? s.shape : (node.shape('shape') ?? null) };
  });
  const outputs = Object.entries(record(own(sig, 'outputs') ?? {}, 'signature.outputs')).map(([key, spec]) => ({ key, ref: ref(spec, `signature.outputs.${key}`) }));
  // A dict result flattens in sorted key order (as TF's nest does): the outputs follow it.
  if (options.outputs === 'dict') outputs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (outputs.length === 0) throw loadError('the signature has no outputs', 'an empty signature.outputs', 'at least one output', 'Fetch at least one tensor');
  const fed = new Set(inputs.map((i) => i.node.name));
  // Fed nodes are cut: what they read (a PlaceholderWithDefault's default) does not run.
  const main = neededNodes(graph.nodes.map((n) => (fed.has(n.name) && n.op !== 'Placeholder' ? placeholderOf(n) : n)), outputs.map((o) => o.ref.node));
  // DT_RESOURCE Placeholders (a concrete function graph's captured variables) are bound from options.variables.
  const unfed = main.filter((n) => n.op === 'Placeholder' && !fed.has(n.name) && n.attrs.get('dtype')?.type !== 'DT_RESOURCE');
  if (unfed.length > 0) throw loadError(`the outputs need Placeholder${unfed.length > 1 ? 's' : ''} the signature does not feed`, unfed.map((n) => `'${n.name}'`).join(', '), 'every needed Placeholder in signature.inputs', 'Add them to the inputs');
  return buildFunction(
    { main, library: graph.library, weights: new Map(), inputs, outputs, name: options.name ?? 'signature', variables: variableMap(options.variables), ownsVariables: options.ownsVariables, structure: structureOf(options.outputs, outputs.map((o) => o.key)) },
    options,
  );
}

/** A fed PlaceholderWithDefault as a plain Placeholder (its default is not read). */
function placeholderOf(n: ParsedNode): ParsedNode {
  const raw: Record<string, unknown> = { name: n.name, op: 'Placeholder', attr: Object.fromEntries(n.attrs) };
  return new ParsedNode(raw, `node '${n.name}'`);
}

/**
 * One FunctionDef of the library as a traced function, as TF runs a restored function: its tensor arguments
 * become the inputs, and `captures` bind its last arguments (TF's captured inputs: Variables for DT_RESOURCE
 * arguments, tensors otherwise). Input shapes come from the arguments' `_output_shapes` attrs unless
 * `inputShapes` gives them (null dims are unknown).
 * @example
 * // not-run
 * const f = ef.internal.libraryFunction(g, '__inference_serve_37', { captures: [w, b] });
 */
export function libraryFunction(graph: TfGraph, fname: string, options: GraphFunctionOptions & { captures?: readonly ArgValue[]; inputShapes?: readonly Dims[] } = {}): LoadedFunction {
  const fdef = graph.library.get(fname);
  if (fdef === undefined) throw loadError(`function '${fname}' is not in the library`, `'${fname}'`, `one of [${[...graph.library.keys()].slice(0, 8).join(', ')}]`, 'Pass a FunctionDef name of the graph');
  const sig = record(own(fdef, 'signature'), `function '${fname}'.signature`);
  const args = array(own(sig, 'inputArg') ?? [], `function '${fname}'.signature.inputArg`).map((a) => record(a, `function '${fname}' inputArg`));
  const outs = array(own(sig, 'outputArg') ?? [], `function '${fname}'.signature.outputArg`).map((a) => String(own(record(a, 'outputArg'), 'name')));
  const captures = options.captures ?? [];
  const nIn = args.length - captures.length;
  if (nIn < 0) throw loadError(`function '${fname}' has fewer arguments than captures`, `${captures.length} captures`, `at most ${args.length}`, 'Pass the captured inputs only');
  const argAttrs = record(own(fdef, 'argAttr') ?? {}, `function '${fname}'.argAttr`);
  const inputs = args.slice(0, nIn).map((a, k) => {
    const name = String(own(a, 'name'));
    const dtype = fromTfDType(own(a, 'type'));
    if (dtype === undefined) throw loadError(`function '${fname}': input '${name}' has an unsupported type`, show(own(a, 'type')), 'a tensor dtype (resources must be captures)', 'Pass resource arguments in captures');
    const given = options.inputShapes?.[k];
    const shapes = new ParsedNode({ name, op: 'Arg', attr: (own(record(own(argAttrs, String(k)) ?? {}, 'argAttr'), 'attr') ?? {}) as Record<string, unknown> }, `function '${fname}' argAttr ${k}`).shapes('_output_shapes');
    const node = new ParsedNode({ name, op: 'Placeholder' }, name);
    return { key: name, node, dtype, shape: given !== undefined ? given : (shapes?.[0] ?? null) };
  });
  const outputs = outs.map((key, k) => ({ key, ref: { node: fname, index: k, text: `${fname}:${k}` } }));
  if (options.outputs === 'dict' && outs.some((k, i) => i > 0 && outs[i - 1] > k)) throw loadError(`function '${fname}': outputs: 'dict' needs output names in sorted order`, outs.join(', '), 'sorted output_arg names', "Use outputs: 'list'");
  return buildFunction(
    {
      main: [],
      library: graph.library,
      weights: new Map(),
      inputs,
      outputs,
      name: options.name ?? fname,
      functions: [fname],
      variables: variableMap(options.variables),
      structure: structureOf(options.outputs, outs),
      body: (ctx, xs) =>
        ctx.callFunctionValues(fname, [...xs, ...captures]).map((v, k) => {
          if (v instanceof Variable) throw loadError(`function '${fname}' returns a resource (output ${k})`, `variable '${v.name}'`, 'tensor outputs', 'Read the variable in the function');
          return v;
        }),
    },
    options,
  );
}
