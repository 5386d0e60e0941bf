// A concrete function -> GraphDef JSON, signature, weights and EagerFlow metadata (what saveFunction writes).
import type { Graph } from '@eagerflow/function';
import { unfuseEpilogues } from '@eagerflow/function';
import { FORMAT_NAME, FORMAT_VERSION, GraphDef, NodeDef, SignatureJson, TF_DTYPE, VERSIONS, attr, shapeJson } from './format';
import { StructJson, encodeStructure } from './structure';
import { GraphWriter, SaveOptions, Scope } from './writer';
import { WeightSpec, WeightWriter } from './weights';
import type { Variable } from '@eagerflow/core';

/** What the writer reads of a concrete function (structural: concrete.ts calls the writer, not the reverse). */
export interface WritableFunction {
  readonly graph: Graph;
  readonly inputSignature: readonly { readonly name?: string | null }[];
  readonly name: string;
  readonly structuredOutputs: unknown;
}

/** EagerFlow's own metadata (`userDefinedMetadata.eagerflow`): format version and output structure. */
export interface EagerFlowMetadata {
  format: string;
  version: number;
  name: string;
  outputs: StructJson;
  hostFunctions: string[];
}

/** Everything saveFunction writes, before packaging as tfjs ModelArtifacts. */
export interface WrittenFunction {
  graphDef: GraphDef;
  signature: SignatureJson;
  weightSpecs: WeightSpec[];
  weightData: ArrayBuffer;
  metadata: EagerFlowMetadata;
  /** Constant values by Const node name, and each resource variable's shared_name. */
  weights: WeightWriter;
  sharedNames: ReadonlyMap<Variable, string>;
}

/** Writes a concrete function: Placeholders, the nodes, Identity outputs and the function library. */
export function writeConcrete(cf: WritableFunction, options: SaveOptions = {}): WrittenFunction {
  const g = unfuseEpilogues(cf.graph);
  const w = new GraphWriter(options, g);
  const s = new Scope(w, g, '');
  const signature: SignatureJson = { inputs: {}, outputs: {} };
  g.inputs.forEach((vi, k) => {
    const a = g.aval(vi);
    const name = w.names.fresh(cf.inputSignature[k]?.name ?? `input_${k}`);
    const node: NodeDef = { name, op: 'Placeholder', input: [], attr: { dtype: attr.type(a.dtype), shape: attr.shape(a.shape) } };
    s.nodes.push(node);
    s.setRef(vi, name);
    signature.inputs[name] = { name: `${name}:0`, dtype: TF_DTYPE[a.dtype], tensorShape: shapeJson(a.shape) };
  });
  w.writeNodes(s);
  const outs = g.outputs.map((vi) => ({ ref: s.ref(vi), aval: g.aval(vi) }));
  w.finishOutputs(s, outs, 'Identity').forEach((id, k) => {
    signature.outputs[`output_${k}`] = { name: `${id}:0`, dtype: TF_DTYPE[outs[k].aval.dtype], tensorShape: shapeJson(outs[k].aval.shape) };
  });
  const graphDef: GraphDef = { node: s.nodes, library: { function: w.functions }, versions: { ...VERSIONS } };
  const metadata: EagerFlowMetadata = { format: FORMAT_NAME, version: FORMAT_VERSION, name: cf.name, outputs: encodeStructure(cf.structuredOutputs), hostFunctions: [...w.hostKeys] };
  return { graphDef, signature, weightSpecs: w.weights.specs, weightData: w.weights.finish(), metadata, weights: w.weights, sharedNames: w.shared };
}

/**
 * The GraphDef JSON of a concrete function (what ConcreteFunction.prototype.toGraphDef returns).
 * @example
 * const cf = ef.trace((x) => ef.sin(x)).getConcreteFunction(new ef.TensorSpec([null]));
 * ef.internal.toGraphDef(cf).node.map((n) => n.op); // ["Placeholder", "Sin", "Identity"]
 */
export function toGraphDef(cf: WritableFunction, options: SaveOptions = {}): GraphDef {
  return writeConcrete(cf, options).graphDef;
}
