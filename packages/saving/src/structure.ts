// The structure of a function's outputs (arrays, objects, JS values around tensors) as checked JSON.
import { Tensor, flattenStructure, isPlainObject, packStructure } from '@eagerflow/core';
import { loadError, saveError, show } from './validate';

/** One node of a saved output structure. */
export type StructJson =
  | { t: 'tensor' }
  | { t: 'list'; items: StructJson[] }
  | { t: 'dict'; entries: [string, StructJson][] }
  | { t: 'value'; v: string | number | boolean | null }
  | { t: 'number'; s: 'NaN' | 'Infinity' | '-Infinity' }
  | { t: 'undefined' };

/** Encodes a traced function's structured outputs (symbolic tensors become `{ t: 'tensor' }`). */
export function encodeStructure(x: unknown): StructJson {
  if (x instanceof Tensor) return { t: 'tensor' };
  if (Array.isArray(x)) return { t: 'list', items: x.map(encodeStructure) };
  if (isPlainObject(x)) return { t: 'dict', entries: Object.keys(x).map((k) => [k, encodeStructure(x[k])]) };
  if (x === undefined) return { t: 'undefined' };
  if (typeof x === 'number' && !Number.isFinite(x)) return { t: 'number', s: String(x) as 'NaN' };
  if (x === null || typeof x === 'string' || typeof x === 'boolean' || typeof x === 'number') return { t: 'value', v: x };
  throw saveError('the function returns a value that cannot be saved', typeof x === 'object' ? (x as object).constructor?.name ?? 'an object' : typeof x, 'tensors, numbers, strings, booleans, null, arrays and plain objects', 'Return only tensors and plain JS values');
}

class Leaf {}

const MAX_DEPTH = 64;

function decode(j: unknown, depth: number): unknown {
  const bad = (what: string): Error => loadError(`the output structure is invalid: ${what}`, show(j), "nodes like { t: 'tensor' } or { t: 'list', items }", 'Re-save the function');
  if (depth > MAX_DEPTH) throw bad('nested too deeply');
  if (j === null || typeof j !== 'object' || Array.isArray(j)) throw bad('a node is not an object');
  const o = j as Record<string, unknown>;
  switch (o.t) {
    case 'tensor':
      return new Leaf();
    case 'undefined':
      return undefined;
    case 'value':
      if (o.v === null || ['string', 'number', 'boolean'].includes(typeof o.v)) return o.v;
      throw bad('a value is not a JSON scalar');
    case 'number':
      if (o.s === 'NaN' || o.s === 'Infinity' || o.s === '-Infinity') return Number(o.s);
      throw bad('a special number is not NaN or +-Infinity');
    case 'list':
      if (!Array.isArray(o.items)) throw bad('a list has no items array');
      return o.items.map((x) => decode(x, depth + 1));
    case 'dict': {
      if (!Array.isArray(o.entries)) throw bad('a dict has no entries array');
      const seen = new Set<string>();
      const out: [string, unknown][] = [];
      for (const e of o.entries) {
        if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || seen.has(e[0])) throw bad('a dict entry is not a unique [key, value] pair');
        seen.add(e[0]);
        out.push([e[0], decode(e[1], depth + 1)]);
      }
      // fromEntries defines own properties (a "__proto__" key stays a plain key).
      return Object.fromEntries(out);
    }
    default:
      throw bad(`unknown node kind ${show(o.t)}`);
  }
}

/** Rebuilds the structure with `outputs` (in flattened order) at the tensor leaves; checks the count. */
export function decodeStructure(j: unknown, outputs: Tensor[]): unknown {
  const s = decode(j, 0);
  const isLeaf = (x: unknown): boolean => x instanceof Leaf;
  const leaves = flattenStructure<unknown>(s, isLeaf);
  const n = leaves.filter(isLeaf).length;
  if (n !== outputs.length) throw loadError('the output structure does not match the outputs', `${n} tensor leaves`, `${outputs.length} (one per signature output)`, 'Re-save the function');
  let k = 0;
  return packStructure(s, leaves.map((x) => (isLeaf(x) ? outputs[k++] : x)), isLeaf);
}
