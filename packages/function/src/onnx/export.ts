// ONNX export (API section 15): ef.toOnnx / ef.saveOnnx write a traced function as one ONNX ModelProto.
import { describe, typeError, unimplemented, isPrimitive } from '@eagerflow/core';
import { Saveable, concreteOf } from '../saveable';
import { nodeFs } from '../node_fs';
import { unfuseEpilogues } from '../passes_epilogue';
import { DEFAULT_OPSET, buildModel, lowers, probeScope } from './model';

export interface OnnxExportOptions {
  /** The ONNX opset to import (default 18; 17 is the lowest the lowerings target). */
  opset?: number;
}

/**
 * A traced function (its signature trace, or its only trace) as ONNX ModelProto bytes: inputs `in0..`,
 * outputs `out0..`; captured constants and variables (their current values) become initializers.
 * @example
 * const f = ef.trace((x) => ef.relu(ef.multiply(x, 2)), { inputSignature: [new ef.TensorSpec([null])] });
 * ef.toOnnx(f).length > 0; // true
 */
export function toOnnx(f: Saveable, options: OnnxExportOptions = {}): Uint8Array {
  const opset = options.opset ?? DEFAULT_OPSET;
  if (!Number.isInteger(opset) || opset < 17) {
    throw typeError('toOnnx', 'opset is not supported', describe(opset), 'an integer >= 17', 'Pass { opset: 18 } or leave it out.');
  }
  const cf = concreteOf(f);
  const g = unfuseEpilogues(cf.graph);
  const probe = probeScope(g, opset);
  const missing = g.nodes.filter((n) => !isPrimitive(n.prim, 'read_variable') && !lowers(probe, n));
  if (missing.length > 0) {
    const names = [...new Set(missing.map((n) => n.prim.name))];
    throw unimplemented(
      'toOnnx', `'${cf.name}' has ops without an ONNX lowering for their inputs`, names.join(', '), 'ops with ONNX lowerings (host callbacks and variable assignments do not export)',
      'Move host callbacks and assignments out of the exported function, or run it with jitCompile: true (which keeps them as JS steps).',
      names[0],
    );
  }
  return buildModel(g, { nodes: g.nodes, inputs: g.inputs, outputs: g.outputs }, opset);
}

/**
 * Writes toOnnx's bytes to `path` (Node).
 * @example
 * // not-run
 * await ef.saveOnnx(f, 'model.onnx');
 */
export async function saveOnnx(f: Saveable, path: string, options: OnnxExportOptions = {}): Promise<void> {
  const bytes = toOnnx(f, options);
  await nodeFs('saveOnnx').fs.writeFile(path, bytes);
}
