// Loading: checks artifacts, rebuilds an EagerFlow graph from the GraphDef in a trace, wraps it as a callable.
import { Params, Tensor, TensorLike, TensorSpec, Variable, convert, paramsRecord, typeError } from '@eagerflow/core';
import { ConcreteFunction, Graph, GraphBuilder, RunLimits, isGraph, optimize, runLimitsOf, withBuilder } from '@eagerflow/function';
import { FORMAT_NAME, FORMAT_VERSION } from './format';
import { HostFunction, hostCallbacks } from './host';
import { isHostCallbackNode, readHostCallback } from './host_codec';
import { foldedOutput } from './constant_fold';
import { IMPORT_ROWS } from './imports';
import { currentReaderTable, readerFor as specReader } from './spec_io';
import type { NodeReader } from './reader';
import { GraphScope, LoadContext, OpReader, loadLimits } from './reader';
import { decodeStructure } from './structure';
import { InputRef, ParsedNode, array, isRecord, loadError, neededNodes, own, parseInputRef, record, show } from './validate';
import { decodeWeights } from './weights';
import { SignatureIO, checkSupported, customReader, inferSignature } from './graph_model';
import { LoadedSignature, positionalArgs, signatureOf } from './loaded_io';
import { inferListShapes } from './import_lists';
import { inlineConst } from './graphdef_decode';
import { TF1_CONTROL_OPS, foldControlFlow } from './tf1_frames';
import { foldReader } from './tf1_exec';
import { resourceControlReader } from './import_calls';
import { computedStridedSliceReader } from './import_strided_slice';
import type { ConstValue } from './weights';

/** Options of ef.loadFunction. */
export interface LoadOptions {
  /** Host functions by stable key (keys registered with ef.registerHostFunction need no entry). */
  hostFunctions?: Record<string, HostFunction>;
  /** Run-time limits of the loaded function (defaults: ef.loadLimits.maxRunElements and maxWhileIterations). */
  limits?: Partial<RunLimits>;
  /** Float weights (Consts of rank >= 1) become ef.Variables in `g.variables`, so gradients reach them (fine-tuning). */
  trainable?: boolean;
  /**
   * Runs the model on ONNX Runtime, like `ef.trace(fn, {jitCompile})` (docs/compile.md): `true` compiles
   * every op with a lowering (the rest run as JS steps between compiled segments), `'strict'` refuses ops
   * without one.
   */
  jitCompile?: boolean | 'strict';
}

/** A loaded function: call it like the original (tensor inputs in signature order). */
export interface LoadedFunction<R = unknown> {
  (...inputs: TensorLike[]): R;
  /** Inputs by name (`g({input_1: x})`), every name of `inputNames` once. */
  (inputs: Readonly<Record<string, TensorLike>>): R;
  /** Input names in signature order (as tfjs-converter's `inputNodes`). */
  readonly inputNames: readonly string[];
  /** Output names in result order (as tfjs-converter's `outputNodes`). */
  readonly outputNames: readonly string[];
  /** Input and output specs by name; unknown dims are null. */
  readonly signature: LoadedSignature;
  /** The rebuilt graph (printable). */
  readonly graph: Graph;
  /** The ConcreteFunction the callable runs (its `.graph` prints the same graph). */
  getConcreteFunction(): ConcreteFunction;
  /** Awaits async host callbacks. */
  callAsync(...inputs: TensorLike[] | [Readonly<Record<string, TensorLike>>]): Promise<R>;
  /** The rebuilt graph as a ConcreteFunction (print it, save it again, get its GraphDef). */
  readonly concreteFunction: ConcreteFunction;
  readonly inputSignature: TensorSpec[];
  /** The function's own variables (created from the saved values of variables it assigns). */
  readonly variables: Variable[];
  /** Run-time limits every call checks (largest tensor, while iterations); raise them for trusted files. */
  readonly limits: RunLimits;
  /** Releases the graph's constants and the variables. */
  dispose(): void;
}

/** Host callbacks are read by their marker attr; every other op by the records' specs and the import rows. */
const readerFor = (r: NodeReader): OpReader | undefined => {
  if (isHostCallbackNode(r.node)) return readHostCallback;
  const own = customReader(r.node.op) ?? foldReader(r.node) ?? resourceControlReader(r) ?? computedStridedSliceReader(r);
  if (own !== undefined) return own;
  return specReader(currentReaderTable(IMPORT_ROWS), r);
};

/** Nodes only read through their consumers (never inputs of a folded control-flow node). */
const LAZY_REFS = new Set(['Const', 'VarHandleOp', 'VariableV2', 'Variable', 'BroadcastArgs', 'BroadcastGradientArgs', 'NoOp']);

export interface Metadata {
  name: string;
  outputs: unknown;
  hostFunctions: string[];
}

function readMetadata(x: unknown): Metadata | null {
  if (x === undefined || x === null) return null;
  const ef = own(record(x, 'artifacts.userDefinedMetadata'), 'eagerflow');
  if (ef === undefined) return null;
  const m = record(ef, 'userDefinedMetadata.eagerflow');
  if (own(m, 'format') !== FORMAT_NAME) throw loadError('userDefinedMetadata.eagerflow.format is not EagerFlow\'s', show(own(m, 'format')), JSON.stringify(FORMAT_NAME), 'Remove the eagerflow metadata or re-save the function');
  const v = own(m, 'version');
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > FORMAT_VERSION) {
    throw loadError('the file has an unsupported format version', show(v), `a version from 1 to ${FORMAT_VERSION}`, 'Load it with the EagerFlow release that wrote it, or re-save the function');
  }
  const keys = array(own(m, 'hostFunctions') ?? [], 'userDefinedMetadata.eagerflow.hostFunctions');
  if (keys.some((k) => typeof k !== 'string')) throw loadError('hostFunctions must list key strings', show(keys), 'an array of strings', 'Re-save the function');
  const name = own(m, 'name');
  return { name: typeof name === 'string' && name !== '' ? name : 'loaded', outputs: own(m, 'outputs'), hostFunctions: keys as string[] };
}

/** Every host-callback key the graph uses, each resolved to a function now (not when a branch runs). */
function resolveHostFunctions(keys: Set<string>, options: LoadOptions): Map<string, HostFunction> {
  const out = new Map<string, HostFunction>();
  const given = options.hostFunctions ?? {};
  if (!isRecord(given)) throw loadError('options.hostFunctions must be an object', show(given), '{ key: function }', 'Pass { hostFunctions: { myKey: fn } }');
  for (const key of keys) {
    const fn = own(given, key) ?? hostCallbacks.bridge?.lookup(key);
    if (typeof fn !== 'function') {
      throw loadError(`host function '${key}' is missing`, Object.keys(given).length ? `hostFunctions with keys [${Object.keys(given).join(', ')}]` : 'no function for it', `a function for '${key}'`, `Pass loadFunction(..., { hostFunctions: { '${key}': fn } }) or call ef.registerHostFunction('${key}', fn) first`);
    }
    if (hostCallbacks.bridge === null) throw loadError('host callbacks need @eagerflow/callbacks', `host function '${key}' and no bridge installed`, "the host-callback bridge the umbrella package installs", "Import 'eagerflow' once (import * as ef from 'eagerflow'), which installs it");
    out.set(key, fn as HostFunction);
  }
  return out;
}


function readSignature(x: unknown, main: ParsedNode[]): SignatureIO {
  const placeholders = main.filter((n) => n.op === 'Placeholder');
  const byName = new Map(placeholders.map((n) => [n.name, n] as const));
  const sig = record(x, 'artifacts.signature', 'Save with ef.saveFunction, which writes the signature');
  const entries = (key: 'inputs' | 'outputs'): [string, InputRef][] =>
    Object.entries(record(own(sig, key) ?? {}, `signature.${key}`)).map(([k, v]) => {
      const name = own(record(v, `signature.${key}.${k}`), 'name') ?? '';
      // A string only: String() of a deeply nested array would recurse until the stack overflows.
      if (typeof name !== 'string') throw loadError(`signature.${key}.${k}.name must be a string`, Array.isArray(name) ? `an array of length ${name.length}` : typeof name, "a tensor name like 'x:0'", 'Fix the signature');
      return [k, parseInputRef(name, `signature.${key}.${k}`)];
    });
  const inputs = entries('inputs').map(([key, ref]) => {
    const node = byName.get(ref.node);
    if (node === undefined || ref.index !== 0) throw loadError(`signature input '${key}' does not name a Placeholder`, `'${ref.text}'`, 'a Placeholder node', 'Fix the signature');
    byName.delete(ref.node);
    return { key, node, dtype: node.dtype('dtype'), shape: node.shape('shape') ?? null };
  });
  // Placeholders the signature does not list become extra inputs named by their node (tfjs-converter feeds them by name).
  const extras = [...byName.values()].map((node) => ({ key: node.name, node, dtype: node.dtype('dtype'), shape: node.shape('shape') ?? null }));
  const outputs = entries('outputs').map(([key, ref]) => ({ key, ref }));
  if (outputs.length === 0) throw loadError('the signature has no outputs', 'an empty signature.outputs', 'at least one output', 'Save with ef.saveFunction');
  return { inputs, outputs, extras };
}

export function readLibrary(x: unknown): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  if (x === undefined || x === null) return out;
  const fns = array(own(record(x, 'modelTopology.library'), 'function') ?? [], 'modelTopology.library.function');
  fns.forEach((f, k) => {
    const fd = record(f, `library.function[${k}]`);
    const name = own(record(own(fd, 'signature'), `library.function[${k}].signature`), 'name');
    if (typeof name !== 'string' || name === '' || out.has(name)) throw loadError(`library.function[${k}] has a missing or duplicate name`, show(name), 'a unique function name', 'Fix the library');
    out.set(name, fd);
  });
  return out;
}

/** Host keys used anywhere (main graph and library), for resolution before building. */
function hostKeys(main: ParsedNode[], library: Map<string, Record<string, unknown>>, meta: Metadata | null): Set<string> {
  const keys = new Set<string>(meta?.hostFunctions ?? []);
  for (const n of main) if (isHostCallbackNode(n)) keys.add(n.op);
  for (const [name, f] of library) {
    array(own(f, 'nodeDef') ?? [], `function '${name}'.nodeDef`).forEach((raw, k) => {
      const n = new ParsedNode(raw, `function '${name}'.nodeDef[${k}]`);
      if (isHostCallbackNode(n)) keys.add(n.op);
    });
  }
  return keys;
}

/** Loads in-memory artifacts (what ef.saveFunction returns, or a parsed model.json + weights). */
export function loadArtifacts(x: unknown, options: LoadOptions = {}): LoadedFunction {
  const a = record(x, 'the artifacts', 'Pass what ef.saveFunction returned, or a directory path');
  const topoRaw = own(a, 'modelTopology');
  if (topoRaw instanceof ArrayBuffer) throw loadError('a binary (protobuf) GraphDef is not supported', 'an ArrayBuffer modelTopology', 'GraphDef JSON', 'Convert the model to tfjs JSON (model.json)');
  const topo = record(topoRaw, 'artifacts.modelTopology', 'A graph model needs its GraphDef JSON topology');
  const main = array(own(topo, 'node'), 'modelTopology.node').map((n, k) => new ParsedNode(n, `modelTopology.node[${k}]`));
  const meta = readMetadata(own(a, 'userDefinedMetadata'));
  const library = readLibrary(own(topo, 'library'));
  // A converter graph model may have no signature: its inputs and outputs are inferred like the converter's.
  const sigRaw = signatureSource(a);
  const sig = sigRaw === undefined ? inferSignature(main) : readSignature(sigRaw, main);
  // Placeholders the signature does not list: the outputs run without them (pruned), or they are extra inputs.
  const body = sig.extras.length === 0 ? main : neededNodes(main, sig.outputs.map((o) => o.ref.node));
  const inputs = [...sig.inputs, ...sig.extras.filter((e) => body.includes(e.node))];
  const weights = decodeWeights(own(a, 'weightSpecs'), own(a, 'weightData'));
  return buildFunction({ main: body, library, weights, inputs, outputs: sig.outputs, meta, name: meta?.name ?? 'loaded', functions: [...library.keys()] }, options);
}

/** What buildFunction traces: the graph's nodes and library, its inputs and outputs. */
export interface GraphSource {
  main: ParsedNode[];
  library: Map<string, Record<string, unknown>>;
  weights: Map<string, ConstValue>;
  inputs: SignatureIO['inputs'];
  outputs: SignatureIO['outputs'];
  meta?: Metadata | null;
  name: string;
  /** Variables by VarHandleOp shared_name (or node name) that the caller owns (never disposed here, unless `ownsVariables`). */
  variables?: ReadonlyMap<string, Variable>;
  /** The function owns `variables`: its dispose (or a failed build) releases them. */
  ownsVariables?: boolean;
  /** Library functions run besides `main` (their ops are checked like main's). */
  functions?: string[];
  /** Runs the body in the trace instead of interpreting `main` (a library function's call). */
  body?: (ctx: LoadContext, inputs: Tensor[]) => Tensor[];
  /** The callable's result from its output tensors (default: one -> the tensor, several -> an array). */
  structure?: (outputs: Tensor[]) => unknown;
}

/** Checks the ops, traces the graph into a ConcreteFunction and wraps it as a LoadedFunction. */
export function buildFunction(src: GraphSource, options: LoadOptions = {}): LoadedFunction {
  const jit = jitModeOf(options);
  const { main, library, meta } = src;
  const table = currentReaderTable(IMPORT_ROWS);
  checkSupported(reachableNodes(main, library, src.functions ?? []), (op) => table.byOp.has(op) || TF1_CONTROL_OPS.includes(op), isHostCallbackNode);
  const hostFns = resolveHostFunctions(hostKeys(main, library, meta ?? null), options);
  const ctx = new LoadContext(src.weights, hostFns, readerFor, options.trainable === true);
  const given = new Set(src.ownsVariables === true ? [] : (src.variables?.values() ?? []));
  src.variables?.forEach((v, k) => ctx.variables.set(k, v));
  for (const [k, v] of library) ctx.functions.set(k, v);
  ctx.prepare = (nodes, where) => {
    inferListShapes(nodes, (name) => {
      const n = nodes.find((x) => x.name === name);
      return (n === undefined ? null : inlineConst(n.attrs.get('value'), where)) ?? src.weights.get(name);
    });
    return foldControlFlow(nodes, where, LAZY_REFS);
  };
  ctx.fold = foldedOutput;
  const builder = new GraphBuilder(src.name);
  let graph: Graph | null = null;
  const owned = (): Variable[] => [...ctx.variables.values()].filter((v) => !given.has(v));
  try {
    const placeholders = src.inputs.map((i) => builder.addInput(i.dtype, i.shape, i.key));
    const outs = withBuilder(builder, () => {
      if (src.body !== undefined) return src.body(ctx, placeholders);
      const args = new Map(src.inputs.map((i, k) => [i.node.name, placeholders[k]] as const));
      // Resource Placeholders stay: they are variables (options.variables by name), not inputs.
      const scope = new GraphScope(ctx, main.filter((n) => n.op !== 'Placeholder' || n.attrs.get('dtype')?.type === 'DT_RESOURCE'), 'the graph', args);
      scope.run();
      return src.outputs.map((o) => scope.outputAt(o.ref, `signature output '${o.key}'`));
    });
    const g = optimize(builder.finish(outs));
    graph = g;
    const limits = runLimitsFor(options);
    for (const body of [g, ...bodiesOf(g.nodes)]) runLimitsOf.set(body, limits);
    const symbolic = g.outputs.map((o, k) => new Tensor(null, g.values[o].dtype, g.values[o].shape, { owner: builder, index: o, label: src.outputs[k].key }));
    const structured = meta != null ? decodeStructure(meta.outputs, symbolic) : src.structure !== undefined ? src.structure(symbolic) : symbolic.length === 1 ? symbolic[0] : symbolic;
    const cf = new ConcreteFunction(g, placeholders, { structured, dtypes: symbolic.map((t) => t.dtype) }, [], 'loaded', src.inputs.map((i) => i.key), jit);
    return makeLoaded(cf, [...ctx.variables.values()], owned(), limits, src.outputs.map((o) => o.key));
  } catch (e) {
    builder.alive = false;
    releasePartial(builder);
    graph?.dispose();
    owned().forEach((v) => v.dispose());
    throw e;
  } finally {
    ctx.created.forEach((t) => t.dispose());
  }
}


/** `main` and the library functions its nodes reach (through func attrs, transitively). */
function* reachableNodes(main: ParsedNode[], library: Map<string, Record<string, unknown>>, roots: string[]): Generator<ParsedNode> {
  const seen = new Set<string>();
  const queue: ParsedNode[][] = [main];
  const visit = (f: unknown): void => {
    if (typeof f !== 'string' || seen.has(f) || !library.has(f)) return;
    seen.add(f);
    queue.push(array(own(library.get(f) as Record<string, unknown>, 'nodeDef') ?? [], `function '${f}'.nodeDef`).map((raw, k) => new ParsedNode(raw, `function '${f}'.nodeDef[${k}]`)));
  };
  roots.forEach(visit);
  while (queue.length) {
    const nodes = queue.pop() as ParsedNode[];
    for (const n of nodes) {
      yield n;
      for (const a of n.attrs.values()) {
        visit(a.func?.name);
        ((a.list as { func?: { name?: string }[] } | undefined)?.func ?? []).forEach((f) => visit(f.name));
      }
    }
  }
}

/** options.jitCompile, checked. */
function jitModeOf(options: LoadOptions): boolean | 'strict' {
  const j = options.jitCompile ?? false;
  if (j !== true && j !== false && j !== 'strict') throw loadError('options.jitCompile must be true, false or \'strict\'', show(j), "true, false or 'strict'", 'Pass { jitCompile: true }');
  return j;
}

/** The signature: artifacts.signature, else userDefinedMetadata.signature (where tfjs-converter also looks). */
function signatureSource(a: Record<string, unknown>): unknown {
  const top = own(a, 'signature');
  if (top !== undefined) return top;
  const meta = own(a, 'userDefinedMetadata');
  return isRecord(meta) ? own(meta, 'signature') : undefined;
}

/** Every cond/while body graph under `nodes` (Graph.dispose releases only a graph's own constants). */
function bodiesOf(nodes: readonly { params: Params }[]): Set<Graph> {
  const bodies = new Set<Graph>();
  const visit = (nodes: readonly { params: Params }[]): void => {
    for (const n of nodes) {
      for (const p of Object.values(paramsRecord(n.params))) {
        if (isGraph(p) && !bodies.has(p)) {
          bodies.add(p);
          visit(p.nodes);
        }
      }
    }
  };
  visit(nodes);
  return bodies;
}

/** Unpins what a failed load captured: the main builder's constants and finished body graphs. */
function releasePartial(b: GraphBuilder): void {
  new Graph(b.name, b.values, [], [], []).dispose();
  bodiesOf(b.nodes).forEach((g) => g.dispose());
}

/** Converts call arguments to the signature's dtypes and checks their shapes. */
function inputsFor(cf: ConcreteFunction, args: TensorLike[], temps: Tensor[]): Tensor[] {
  const sig = cf.inputSignature;
  if (args.length !== sig.length) throw typeError(`loaded function '${cf.name}'`, 'wrong number of inputs', String(args.length), `${sig.length}: ${sig.map(String).join(', ')}`, 'Pass the tensors in signature order.');
  return args.map((x, k) => {
    const c = convert(`loaded function '${cf.name}'`, x, sig[k].dtype);
    if (c.temp) temps.push(c.t);
    if (c.t.dtype !== sig[k].dtype || !sig[k].shape.isCompatibleWith(c.t.shape)) {
      throw typeError(`loaded function '${cf.name}'`, `input ${k} (${sig[k].name}) does not match the signature`, `${c.t.dtype} ${c.t.shape.toString()}`, sig[k].toString(), 'Cast or reshape the input.');
    }
    return c.t;
  });
}

/** The limits a load's calls run under: the options' values, else the defaults in loadLimits. */
function runLimitsFor(options: LoadOptions): RunLimits {
  const given = options.limits ?? {};
  if (!isRecord(given)) throw loadError('options.limits must be an object', show(given), '{ maxElements?, maxWhileIterations? }', 'Pass e.g. { limits: { maxWhileIterations: 1e7 } }');
  const pick = (key: keyof RunLimits, def: number): number => {
    const v = own(given, key) ?? def;
    if (typeof v !== 'number' || !(v >= 0)) throw loadError(`options.limits.${key} must be a non-negative number`, show(v), 'a number >= 0 (Infinity for no limit)', 'Fix the option');
    return v;
  };
  return { maxElements: pick('maxElements', loadLimits.maxRunElements), maxWhileIterations: pick('maxWhileIterations', loadLimits.maxWhileIterations) };
}

function makeLoaded(cf: ConcreteFunction, variables: Variable[], owned: Variable[], limits: RunLimits, outputNames: string[]): LoadedFunction {
  const fname = `loaded function '${cf.name}'`;
  const fn = ((...args: unknown[]) => {
    const temps: Tensor[] = [];
    try {
      return cf.callFlat(inputsFor(cf, positionalArgs(fname, args, cf.names), temps), []);
    } finally {
      temps.forEach((t) => t.dispose());
    }
  }) as LoadedFunction;
  const callAsync = async (...args: unknown[]): Promise<unknown> => {
    const temps: Tensor[] = [];
    try {
      return await cf.callFlatAsync(inputsFor(cf, positionalArgs(fname, args, cf.names), temps), []);
    } finally {
      temps.forEach((t) => t.dispose());
    }
  };
  const signature = signatureOf(cf, cf.names, outputNames);
  Object.defineProperties(fn, {
    inputNames: { value: Object.freeze([...cf.names]) },
    outputNames: { value: Object.freeze([...outputNames]) },
    signature: { value: signature },
    graph: { get: () => cf.graph },
    getConcreteFunction: { value: () => cf },
    callAsync: { value: callAsync },
    concreteFunction: { value: cf },
    inputSignature: { get: () => cf.inputSignature },
    variables: { value: variables },
    limits: { value: limits },
    dispose: {
      value: () => {
        bodiesOf(cf.graph.nodes).forEach((g) => g.dispose());
        cf.dispose();
        owned.forEach((v) => v.dispose());
      },
    },
    name: { value: cf.name },
  });
  return fn;
}
