// The host-callback bridge for saving (the umbrella installs it): host_callback nodes are saved by stable key and rebound on load.
import { DType, InvalidArgumentError, Tensor, argError, flattenStructure, isDType, isPlainObject } from '@eagerflow/core';
import {
  HostCallbackParams, HostFlavor, Returns, applyHostCallback, hostCallback, hostFunctionKeyOf, hostFunctionOf, lookupHostFunction, makeParams,
  newHostFunctionRef,
} from '@eagerflow/callbacks';
import type { HostCallbackBridge, HostCallbackLoad } from '@eagerflow/saving';

/** The params saved besides key, flavor, Tout, shapes and stateful (JSON in the node's attrs). */
interface Extra {
  returns: Returns;
  name: string | null;
  nArgs?: number;
  kwargKeys?: readonly string[];
}

const FLAVORS: readonly string[] = ['pyFunction', 'numpyFunction', 'pyFunc', 'contrib'];

function bad(key: string, what: string, got: string, expected: string): InvalidArgumentError {
  return argError('loadFunction', `host callback '${key}': ${what}`, got, expected, 'Re-save the function.');
}

/** A contrib output structure: nested arrays/objects of dtype names matching Tout in tf.nest order. */
function checkStructure(key: string, s: unknown, Tout: readonly DType[]): void {
  let depth = 0;
  const walk = (x: unknown, d: number): void => {
    depth = Math.max(depth, d);
    if (d > 32) return;
    if (Array.isArray(x)) x.forEach((v) => walk(v, d + 1));
    else if (isPlainObject(x)) Object.values(x).forEach((v) => walk(v, d + 1));
    else if (!isDType(x)) throw bad(key, 'the output structure has a leaf that is not a dtype', JSON.stringify(x) ?? 'undefined', 'a dtype name');
  };
  walk(s, 0);
  if (depth > 32) throw bad(key, 'the output structure is nested too deeply', `depth ${depth}`, 'at most 32');
  const leaves = flattenStructure<unknown>(s, (x) => typeof x === 'string');
  if (leaves.length !== Tout.length || leaves.some((l, i) => l !== Tout[i])) throw bad(key, 'the output structure does not match Tout', `[${leaves.join(', ')}]`, `[${Tout.join(', ')}]`);
}

/** Checks the untrusted extra params of a saved callback. */
function readExtra(info: HostCallbackLoad, nInputs: number): Extra {
  const key = info.key;
  const e = info;
  const returns = e.returns;
  if (returns === 'single') {
    if (info.Tout.length !== 1) throw bad(key, "'single' returns need one output", `${info.Tout.length} outputs`, '1');
  } else if (returns !== 'list') {
    if (!isPlainObject(returns) || !Object.prototype.hasOwnProperty.call(returns, 'structure')) throw bad(key, 'returns is invalid', JSON.stringify(returns) ?? 'nothing', "'single', 'list' or { structure }");
    checkStructure(key, returns.structure, info.Tout);
  }
  const name = e.name ?? null;
  if (name !== null && typeof name !== 'string') throw bad(key, 'name is invalid', typeof name, 'a string or null');
  const out: Extra = { returns: returns as Returns, name };
  if (info.flavor === 'contrib') {
    const { nArgs, kwargKeys } = e;
    if (!Number.isInteger(nArgs) || (nArgs as number) < 0 || (nArgs as number) > nInputs) throw bad(key, 'nArgs is invalid', String(nArgs), `an integer from 0 to ${nInputs}`);
    if (!Array.isArray(kwargKeys) || kwargKeys.length !== nInputs - (nArgs as number) || kwargKeys.some((k) => typeof k !== 'string')) {
      throw bad(key, 'kwargKeys is invalid', JSON.stringify(kwargKeys)?.slice(0, 40) ?? 'nothing', `${nInputs - (nArgs as number)} key strings`);
    }
    Object.assign(out, { nArgs, kwargKeys });
  }
  return out;
}

/** What saving needs from @eagerflow/callbacks: recognize, describe, look up and rebind host_callback nodes. */
export const hostCallbackBridge: HostCallbackBridge = {
  isHostCallback: (name) => name === hostCallback.name,
  describe(params) {
    const p = params as HostCallbackParams;
    if (p.flavor === 'pyFunctionGrad') {
      throw argError(
        'saveFunction', 'a pyFunction gradient node cannot be saved', 'the gradient of a pyFunction taken by a tape inside the traced function',
        'forward callbacks only', "Save the forward function and take the gradient around the loaded function's call.",
      );
    }
    const extra: Extra = { returns: p.returns, name: p.name, ...(p.flavor === 'contrib' ? { nArgs: p.nArgs, kwargKeys: p.kwargKeys } : {}) };
    return { key: hostFunctionKeyOf(p.token), token: p.token.token, fn: hostFunctionOf(p.token) ?? null, flavor: p.flavor, Tout: p.Tout, stateful: p.stateful, outputShapes: p.shapes, ...extra };
  },
  lookup: (key) => lookupHostFunction(key),
  call(info, inputs: Tensor[]) {
    if (!FLAVORS.includes(info.flavor)) throw bad(info.key, 'unknown flavor', JSON.stringify(info.flavor), FLAVORS.join(', '));
    const extra = readExtra(info, inputs.length);
    const tout = { dtypes: [...info.Tout], single: extra.returns === 'single' };
    const shapes = info.outputShapes ? [...info.outputShapes] : info.Tout.map(() => null);
    // The ref keeps the key, so a loaded function saves again without hostFunctionKeys.
    const p = makeParams(info.flavor as HostFlavor, info.fn, tout, info.stateful, extra.name, { ...extra, shapes, token: newHostFunctionRef(info.fn, info.key) });
    return applyHostCallback(p, inputs);
  },
};
