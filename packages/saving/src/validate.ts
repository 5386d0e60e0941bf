// Checked access to untrusted GraphDef JSON: every malformed piece becomes a clear loadFunction error.
import { DType, Dims, InvalidArgumentError, OpError, argError, contextError } from '@eagerflow/core';
import { AttrValue, fromBase64, fromTfDType } from './format';

/** The toolkit's argError for loadFunction (`loadFunction: <what> (got <got>, expected <expected>). <fix>.`). */
export function loadError(what: string, got: string, expected: string, fix: string): InvalidArgumentError {
  return argError('loadFunction', what, got, expected, fix);
}

/** The toolkit's argError for saveFunction. */
export function saveError(what: string, got: string, expected: string, fix: string): InvalidArgumentError {
  return argError('saveFunction', what, got, expected, fix);
}

function show(x: unknown): string {
  if (x === undefined) return 'nothing';
  if (x === null) return 'null';
  if (Array.isArray(x)) return `an array of length ${x.length}`;
  if (typeof x === 'object') return 'an object';
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}...` : x);
  return `${typeof x} ${String(x)}`;
}

export function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** A plain JSON object, or a loadError naming `where`. */
export function record(x: unknown, where: string, fix = 'Re-save the function with ef.saveFunction'): Record<string, unknown> {
  if (!isRecord(x)) throw loadError(`${where} must be an object`, show(x), 'a JSON object', fix);
  return x;
}

export function array(x: unknown, where: string, fix = 'Re-save the function with ef.saveFunction'): unknown[] {
  if (!Array.isArray(x)) throw loadError(`${where} must be an array`, show(x), 'a JSON array', fix);
  return x;
}

export function text(x: unknown, where: string): string {
  if (typeof x !== 'string' || x === '') throw loadError(`${where} must be a non-empty string`, show(x), 'a name', 'Fix the file');
  return x;
}

/** An own property (never the prototype chain: files may contain keys like "__proto__"). */
export function own(o: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** A reference to output `index` of node `node` (`^name` control inputs are kept apart). */
export interface InputRef {
  readonly node: string;
  readonly index: number;
  readonly text: string;
}

/** Named multi-output lists whose `node:name:k` spelling does not start at flat index 0. */
const NAMED_OUTPUT_OFFSETS: Record<string, number> = { r1: 1 };

export function parseInputRef(s: string, where: string): InputRef {
  const parts = s.split(':');
  const bad = (): Error => loadError(`${where}: malformed input reference`, show(s), "'node', 'node:k' or 'node:output:k'", 'Fix the node inputs');
  if (parts.length > 3 || parts[0] === '') throw bad();
  const idxText = parts.length === 1 ? '0' : parts[parts.length - 1];
  if (!/^\d{1,6}$/.test(idxText)) throw bad();
  const offset = parts.length === 3 ? (NAMED_OUTPUT_OFFSETS[parts[1]] ?? 0) : 0;
  return { node: parts[0], index: Number(idxText) + offset, text: s };
}

/** A node of the file, checked for shape: name, op, inputs (data and control) and attrs. */
export class ParsedNode {
  readonly name: string;
  readonly op: string;
  readonly inputs: InputRef[] = [];
  readonly controls: string[] = [];
  readonly attrs = new Map<string, AttrValue>();

  constructor(raw: unknown, where: string) {
    const o = record(raw, where);
    this.name = text(own(o, 'name'), `${where}.name`);
    this.op = text(own(o, 'op'), `${where}.op ('${this.name}')`);
    const here = `node '${this.name}' (${this.op})`;
    const input = own(o, 'input');
    if (input !== undefined) {
      for (const s of array(input, `${here}: input`)) {
        if (typeof s !== 'string') throw loadError(`${here}: every input must be a string`, show(s), "a reference like 'node:0'", 'Fix the node inputs');
        if (s.startsWith('^')) this.controls.push(parseInputRef(s.slice(1), here).node);
        else this.inputs.push(parseInputRef(s, here));
      }
    }
    const attr = own(o, 'attr');
    if (attr !== undefined) {
      for (const [k, v] of Object.entries(record(attr, `${here}: attr`))) this.attrs.set(k, record(v, `${here}: attr '${k}'`) as AttrValue);
    }
  }

  private where(key: string): string {
    return `node '${this.name}' (${this.op}): attr '${key}'`;
  }

  private bad(key: string, got: unknown, expected: string): Error {
    return loadError(`${this.where(key)} is invalid`, show(got), expected, 'Fix the attribute or re-save the function');
  }

  has(key: string): boolean {
    return this.attrs.has(key);
  }

  int(key: string, def?: number): number {
    const a = this.attrs.get(key);
    if (a === undefined) {
      if (def !== undefined) return def;
      throw loadError(`${this.where(key)} is missing`, 'nothing', 'an integer attribute', 'Add the attribute');
    }
    return toInt(a.i, () => this.bad(key, a.i, 'an integer'));
  }

  ints(key: string, def?: number[]): number[] {
    const a = this.attrs.get(key);
    if (a === undefined && def !== undefined) return def;
    const list = isRecord(a?.list) ? (a.list as Record<string, unknown>).i ?? [] : undefined;
    if (!Array.isArray(list)) throw this.bad(key, a, 'a list of integers');
    return list.map((x) => toInt(x, () => this.bad(key, x, 'integers')));
  }

  float(key: string, def?: number): number {
    const a = this.attrs.get(key);
    if (a === undefined && def !== undefined) return def;
    if (typeof a?.f !== 'number') throw this.bad(key, a?.f, 'a number');
    return a.f;
  }

  floats(key: string): number[] {
    const f = this.attrs.get(key)?.list?.f;
    return Array.isArray(f) && f.every((v) => typeof v === 'number') ? f : [];
  }

  bool(key: string, def: boolean): boolean {
    const a = this.attrs.get(key);
    if (a === undefined) return def;
    if (typeof a.b !== 'boolean') throw this.bad(key, a.b, 'a boolean');
    return a.b;
  }

  str(key: string, def?: string): string {
    const a = this.attrs.get(key);
    if (a === undefined && def !== undefined) return def;
    const s = typeof a?.s === 'string' ? fromBase64(a.s) : null;
    if (s === null) throw this.bad(key, a?.s, 'a base64 string');
    return s;
  }

  dtype(key: string, def?: DType): DType {
    const a = this.attrs.get(key);
    if (a === undefined && def !== undefined) return def;
    const d = fromTfDType(a?.type);
    if (d === undefined) throw this.bad(key, a?.type, 'DT_FLOAT, DT_INT32, DT_BOOL, DT_STRING or DT_COMPLEX64');
    return d;
  }

  dtypes(key: string): DType[] {
    return this.dtypesOrVariant(key).map((d) => {
      if (d === null) throw this.bad(key, 'DT_VARIANT', 'DT_FLOAT, DT_INT32, DT_BOOL, DT_STRING or DT_COMPLEX64');
      return d;
    });
  }

  dtypesOrVariant(key: string): (DType | null)[] {
    const a = this.attrs.get(key);
    const list = isRecord(a?.list) ? (a.list as Record<string, unknown>).type ?? [] : undefined;
    if (!Array.isArray(list)) throw this.bad(key, a, 'a list of dtypes');
    return list.map((x) => {
      if (x === 'DT_VARIANT') return null;
      const d = fromTfDType(x);
      if (d === undefined) throw this.bad(key, x, 'DT_FLOAT, DT_INT32, DT_BOOL, DT_STRING or DT_COMPLEX64');
      return d;
    });
  }

  shape(key: string): Dims | undefined {
    const a = this.attrs.get(key);
    if (a === undefined) return undefined;
    return toDims(a.shape, () => this.bad(key, a.shape, 'a TensorShapeProto'));
  }

  shapes(key: string): Dims[] | undefined {
    const a = this.attrs.get(key);
    if (a === undefined) return undefined;
    const list = isRecord(a.list) ? (a.list as Record<string, unknown>).shape ?? [] : undefined;
    if (!Array.isArray(list)) throw this.bad(key, a, 'a list of shapes');
    return list.map((s) => toDims(s, () => this.bad(key, s, 'TensorShapeProtos')));
  }

  func(key: string): string {
    const a = this.attrs.get(key);
    const name = isRecord(a?.func) ? (a.func as Record<string, unknown>).name : undefined;
    if (typeof name !== 'string' || name === '') throw this.bad(key, a?.func, '{ func: { name } }');
    return name;
  }
}

function toInt(x: unknown, bad: () => Error): number {
  const n = typeof x === 'number' ? x : typeof x === 'string' && /^-?\d{1,16}$/.test(x) ? Number(x) : NaN;
  if (!Number.isSafeInteger(n)) throw bad();
  return n;
}

/** A TensorShapeProto as dims (-1 -> unknown). */
function toDims(s: unknown, bad: () => Error): Dims {
  if (!isRecord(s)) throw bad();
  if (s.unknownRank === true) return null;
  const dim = s.dim ?? [];
  if (!Array.isArray(dim) || dim.length > 64) throw bad();
  return dim.map((d) => {
    const n = toInt(isRecord(d) ? (d.size ?? 0) : undefined, bad);
    if (n < -1 || n > 0x7fffffff) throw bad();
    return n === -1 ? null : n;
  });
}

export { show };

/** The nodes of a cycle (from where it closes), at most 8 names with a count of the rest. */
export function cyclePath(stack: string[], dep: string): string {
  const loop = stack.slice(stack.lastIndexOf(dep)).concat(dep);
  return loop.length <= 8 ? loop.join(' -> ') : `${loop.slice(0, 4).join(' -> ')} -> ... (${loop.length - 8} more) -> ${loop.slice(-4).join(' -> ')}`;
}

/** Adds the node to an error; our own loadErrors and op errors keep their class. */
export function withNode(e: unknown, n: ParsedNode): Error {
  if (e instanceof OpError && e.message.startsWith('loadFunction:')) return e;
  return contextError(`loadFunction: node '${n.name}' (${n.op}) cannot be loaded`, e, 'loadFunction', InvalidArgumentError);
}

const TABLE_FILLERS = new Set(['LookupTableImport', 'LookupTableImportV2', 'InitializeTable', 'InitializeTableV2']);

/**
 * The nodes of `pool` that `roots` depend on (data and control inputs), in pool order. A hash table needs the
 * nodes that fill it (TF1 runs them as table initializers, which no output depends on).
 */
export function neededNodes(pool: readonly ParsedNode[], roots: readonly string[]): ParsedNode[] {
  const byName = new Map(pool.map((n) => [n.name, n] as const));
  const fillers = new Map<string, string[]>();
  for (const n of pool) if (TABLE_FILLERS.has(n.op) && n.inputs.length > 0) fillers.set(n.inputs[0].node, [...(fillers.get(n.inputs[0].node) ?? []), n.name]);
  const seen = new Set<string>();
  const stack = roots.filter((r) => byName.has(r));
  while (stack.length) {
    const name = stack.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const n = byName.get(name) as ParsedNode;
    for (const r of n.inputs) if (!seen.has(r.node) && byName.has(r.node)) stack.push(r.node);
    for (const c of n.controls) if (!seen.has(c) && byName.has(c)) stack.push(c);
    for (const f of fillers.get(name) ?? []) if (!seen.has(f)) stack.push(f);
  }
  return pool.filter((n) => seen.has(n.name));
}

/**
 * A topological order of `nodes` (dependencies first) by iterative DFS, linear in nodes + edges: each node's
 * dependency list is built once, when it is entered. `resolve(dep, from)` gives the node a dependency names, or null
 * to pass it over (a function argument, a node outside the graph) and throws for a dangling one; `cycle(path, dep)`
 * throws for a dependency that closes a loop (`path` is the names on the DFS stack, `dep` the one seen again).
 */
export function topoOrder(
  nodes: readonly ParsedNode[],
  deps: (n: ParsedNode) => string[],
  resolve: (dep: string, from: ParsedNode) => ParsedNode | null,
  cycle: (path: string[], dep: string) => never,
): ParsedNode[] {
  const state = new Map<string, 1 | 2>();
  const out: ParsedNode[] = [];
  for (const root of nodes) {
    if (state.has(root.name)) continue;
    const stack: { node: ParsedNode; deps: string[]; next: number }[] = [{ node: root, deps: deps(root), next: 0 }];
    state.set(root.name, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.next >= top.deps.length) {
        stack.pop();
        state.set(top.node.name, 2);
        out.push(top.node);
        continue;
      }
      const dep = top.deps[top.next++];
      const node = resolve(dep, top.node);
      if (node === null) continue;
      const st = state.get(dep);
      if (st === 2) continue;
      if (st === 1) cycle(stack.map((e) => e.node.name), dep);
      state.set(dep, 1);
      stack.push({ node, deps: deps(node), next: 0 });
    }
  }
  return out;
}
