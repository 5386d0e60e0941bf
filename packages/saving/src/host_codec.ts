// Host callbacks in GraphDef: a node whose op is the callback's stable key, written and read through the bridge.
import { Dims, Params, SpecNode, Tensor, WriteScope, attr, outputRef } from '@eagerflow/core';
import { HOST_EXTRA, HOST_FIELDS, HOST_MARK, HostCallbackInfo, hostCallbacks } from './host';
import type { NodeReader } from './reader';
import { IMPORT_ROWS } from './imports';
import { currentReaderTable, knownOps } from './spec_io';
import { ParsedNode } from './validate';
import { saveError } from './validate';

/** The stable key of a callback: hostFunctionKeys (by token or function), else its registered key. */
function keyOf(info: HostCallbackInfo, s: WriteScope): string {
  const key = s.host.keyFor(info.token, info.fn, info.key);
  if (typeof key !== 'string' || key === '') {
    throw saveError(
      `host callback '${info.token}' (${info.flavor}) has no stable key`,
      'a callback known only by its per-process token',
      'a key that names it across processes',
      `Register it with ef.registerHostFunction('myapp.myFunction', fn) before tracing, or pass saveFunction(f, { hostFunctionKeys: { ${info.token}: 'myapp.myFunction' } })`,
    );
  }
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.\-/>]*$/.test(key)) {
    throw saveError(`host function key ${JSON.stringify(key)} is not usable as an op name`, JSON.stringify(key), 'letters, digits and _ . - / > (TensorFlow op name characters)', "Use a key like 'myapp.decode'");
  }
  if (RESERVED.has(key) || isKnownOp(key)) throw saveError(`host function key '${key}' is a TensorFlow op name`, `'${key}'`, 'a key no TensorFlow op uses', "Prefix it, e.g. 'myapp." + key + "'");
  return key;
}

const isKnownOp = (op: string): boolean => knownOps(currentReaderTable(IMPORT_ROWS)).includes(op);

/** Op names a callback key must not take (the converter and loaders would run the real op). */
const RESERVED = new Set<string>(['Const', 'Placeholder']);

/** The bridge's extra fields (JSON-able by contract). */
function extraOf(info: HostCallbackInfo): Record<string, unknown> {
  return Object.fromEntries(Object.entries(info).filter(([k, v]) => !HOST_FIELDS.includes(k) && v !== undefined));
}

/** A host callback: a node whose op is its stable key (tf.registerOp(key, ...) runs it in the converter). */
export function writeHostCallback(s: WriteScope, n: SpecNode, ins: string[]): string[] {
  const bridge = hostCallbacks.bridge;
  if (bridge === null) throw saveError('host callbacks need @eagerflow/callbacks', 'a host callback node and no bridge installed', "the host-callback bridge the umbrella package installs", "Import 'eagerflow' once (import * as ef from 'eagerflow'), which installs it");
  const info = bridge.describe(n.params as Params);
  const key = keyOf(info, s);
  s.host.keys.add(key);
  const shapes: Dims[] = info.outputShapes ? [...info.outputShapes] : n.outputs.map((o) => s.aval(o).shape);
  const name = s.add(key, key, ins.slice(), {
    Tin: attr.types(n.inputs.map((i) => s.dtype(i))),
    Tout: attr.types(info.Tout),
    flavor: attr.str(info.flavor),
    is_stateful: attr.bool(info.stateful),
    _output_shapes: attr.shapes(shapes),
    [HOST_MARK]: attr.bool(true),
    [HOST_EXTRA]: attr.str(JSON.stringify(extraOf(info))),
  });
  return n.outputs.map((_, k) => outputRef(name, k));
}

/** JSON data from an attr (never code); undefined when malformed. */
function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}


/** A host callback: the op is the key; the function comes from loadFunction's hostFunctions. */
export function readHostCallback(r: NodeReader): Tensor[] {
  const key = r.node.op;
  const fn = r.scope.ctx.hostFunctions.get(key);
  const bridge = hostCallbacks.bridge;
  if (fn === undefined || bridge === null) throw r.error(`host function '${key}' is not available`, 'no function for the key', `a function for '${key}'`, `Pass loadFunction(..., { hostFunctions: { '${key}': fn } })`);
  const Tout = r.node.dtypes('Tout');
  const outputShapes = r.node.shapes('_output_shapes') ?? null;
  if (outputShapes !== null && outputShapes.length !== Tout.length) throw r.error('_output_shapes does not match Tout', `${outputShapes.length} shapes`, `${Tout.length}`, 'Fix the attrs');
  const extra = r.node.has(HOST_EXTRA) ? parseJson(r.node.str(HOST_EXTRA)) : {};
  if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) throw r.error(`attr '${HOST_EXTRA}' is not a JSON object`, r.node.str(HOST_EXTRA).slice(0, 40), 'a JSON object', 'Re-save the function');
  const info = { ...(extra as Record<string, unknown>), key, fn, flavor: r.node.str('flavor', 'numpyFunction'), Tout, stateful: r.node.bool('is_stateful', true), outputShapes };
  const outs = bridge.call(info, r.inputs());
  if (outs.length !== Tout.length) throw r.error('the callback node has the wrong number of outputs', `${outs.length}`, `${Tout.length} (Tout)`, 'Fix the attrs');
  return outs;
}

export const isHostCallbackNode = (n: ParsedNode): boolean => n.bool(HOST_MARK, false);
