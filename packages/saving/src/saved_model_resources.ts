// SavedModel functions: resource variables read or assigned inside cond/while bodies are threaded through the
// control-flow ops as DT_RESOURCE arguments (as TF's cond_v2/while_v2 write them), so every body uses the one
// restored variable instead of a VarHandleOp of its own (which TF's eager runtime could not resolve).
import type { ArgDef, AttrValue, FunctionDef, NodeDef } from './format';

const CALL_ATTRS = ['cond', 'body', 'then_branch', 'else_branch'];
const WHILES = new Set(['While', 'StatelessWhile']);
const IFS = new Set(['If', 'StatelessIf']);

type Attr = AttrValue & { func?: { name: string }; list?: { type?: string[]; shape?: unknown[] }; s?: string };

const callees = (n: NodeDef): string[] => CALL_ATTRS.map((a) => (n.attr?.[a] as Attr | undefined)?.func?.name).filter((x): x is string => x !== undefined);
const sharedOf = (n: NodeDef): string => String((n.attr?.shared_name as Attr | undefined)?.s ?? '');

/**
 * Rewrites `top` (the function's own nodes) and `library` in place: each library function gets a resource
 * argument per variable it (or a body it calls) uses, its VarHandleOps become those arguments, While/If nodes
 * pass the handles (While bodies return them unchanged), and `top` gets a VarHandleOp for every variable a body
 * needs (the caller turns those into the function's resource arguments).
 */
export function threadResources(top: NodeDef[], library: FunctionDef[]): void {
  const fns = new Map(library.map((f) => [f.signature.name, f]));
  // shared_name (base64, as in the attr) -> a VarHandleOp node to copy dtype/shape from.
  const handleAttrs = new Map<string, NodeDef>();
  for (const n of [...top, ...library.flatMap((f) => f.nodeDef ?? [])]) if (n.op === 'VarHandleOp') handleAttrs.set(sharedOf(n), n);
  // What each function needs: its own handles, its callees' needs; the two functions of one call site agree.
  const needs = new Map<string, Set<string>>(library.map((f) => [f.signature.name, new Set((f.nodeDef ?? []).filter((n) => n.op === 'VarHandleOp').map(sharedOf))]));
  const sites = [...top, ...library.flatMap((f) => f.nodeDef ?? [])].filter((n) => callees(n).length > 0);
  const parentOf = new Map<NodeDef, string | null>();
  for (const n of top) parentOf.set(n, null);
  for (const f of library) for (const n of f.nodeDef ?? []) parentOf.set(n, f.signature.name);
  for (let changed = true; changed;) {
    changed = false;
    for (const site of sites) {
      const union = new Set(callees(site).flatMap((c) => [...(needs.get(c) ?? [])]));
      for (const c of callees(site)) for (const s of union) if (!needs.get(c)!.has(s)) (needs.get(c)!.add(s), (changed = true));
      const parent = parentOf.get(site);
      if (parent) for (const s of union) if (!needs.get(parent)!.has(s)) (needs.get(parent)!.add(s), (changed = true));
    }
  }
  const order = (set: Set<string>): string[] => [...set].sort();
  // Each function: resource arguments, its VarHandleOps replaced by them.
  const argOf = new Map<string, Map<string, string>>();
  for (const f of library) {
    const list = order(needs.get(f.signature.name)!);
    if (list.length === 0) continue;
    const base = f.signature.name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
    const names = new Map(list.map((s, k) => [s, `${base}_resource_${k}`]));
    argOf.set(f.signature.name, names);
    f.signature.inputArg = [...(f.signature.inputArg ?? []), ...list.map((s) => ({ name: names.get(s)!, type: 'DT_RESOURCE' as ArgDef['type'] }))];
    const own = new Map((f.nodeDef ?? []).filter((n) => n.op === 'VarHandleOp').map((n) => [n.name, names.get(sharedOf(n))!]));
    f.nodeDef = (f.nodeDef ?? []).filter((n) => n.op !== 'VarHandleOp');
    for (const n of f.nodeDef) n.input = (n.input ?? []).map((r) => own.get(r.replace(/:0$/, '')) ?? r);
  }
  // The top level: a handle node for every variable a body needs.
  const topHandles = new Map(top.filter((n) => n.op === 'VarHandleOp').map((n) => [sharedOf(n), n.name]));
  const topRef = (s: string): string => {
    let name = topHandles.get(s);
    if (name === undefined) {
      const like = handleAttrs.get(s)!;
      name = `${like.name.split('/').pop()}_handle_${topHandles.size}`;
      top.unshift({ name, op: 'VarHandleOp', input: [], attr: like.attr });
      topHandles.set(s, name);
    }
    return name;
  };
  // Call sites pass the handles (in the callees' argument order).
  for (const site of sites) {
    const cs = callees(site);
    const list = order(needs.get(cs[0]) ?? new Set());
    if (list.length === 0) continue;
    const parent = parentOf.get(site) ?? null;
    const refs = list.map((s) => (parent === null ? topRef(s) : argOf.get(parent)!.get(s)!));
    const control = (site.input ?? []).filter((r) => r.startsWith('^'));
    const data = (site.input ?? []).filter((r) => !r.startsWith('^'));
    site.input = [...data, ...refs, ...control];
    const attr = site.attr as Record<string, Attr>;
    if (WHILES.has(site.op)) {
      site.op = 'While';
      attr.T = { list: { type: [...(attr.T?.list?.type ?? []), ...list.map(() => 'DT_RESOURCE')] } } as Attr;
      if (attr.output_shapes?.list?.shape) attr.output_shapes = { list: { shape: [...attr.output_shapes.list.shape, ...list.map(() => ({}))] } } as Attr;
      // The body returns the handles unchanged.
      const body = fns.get(attr.body!.func!.name)!;
      const names = argOf.get(body.signature.name)!;
      const n0 = (body.signature.outputArg ?? []).length;
      body.signature.outputArg = [...(body.signature.outputArg ?? []), ...list.map((_, k) => ({ name: `output_${n0 + k}`, type: 'DT_RESOURCE' as ArgDef['type'] }))];
      list.forEach((s, k) => ((body.ret ??= {})[`output_${n0 + k}`] = names.get(s)!));
    } else if (IFS.has(site.op)) {
      site.op = 'If';
      attr.Tin = { list: { type: [...(attr.Tin?.list?.type ?? []), ...list.map(() => 'DT_RESOURCE')] } } as Attr;
    }
  }
}
