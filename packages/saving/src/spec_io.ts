// The one generic GraphDef writer and reader: they interpret the `tf` spec each record carries.
import { Primitive, Tensor, TfAttr, TfDecl, TfImport, TfInput, TfSpec, WriteScope, allPrimitives, attr, bind, isCodec, outputRef, paramsRecord } from '@eagerflow/core';
import type { Node } from '@eagerflow/function';
import type { NodeReader } from './reader';

const range = (a: number, b: number): number[] => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
const isTensorInput = (i: TfInput): i is 'x' | 'xs' => i === 'x' || i === 'xs';

/** Writes one node with its record's spec; returns one reference per output. */
export function writeNode(s: WriteScope, n: Node): string[] | undefined {
  const spec = n.prim.tf;
  if (spec === undefined) return undefined;
  const ins = n.inputs.map((i) => (s as WriteScope & { ref(i: number): string }).ref(i));
  if (isCodec(spec)) return spec.write(s, n, ins);
  return writeDecl(s, n, ins, spec);
}

function writeDecl(s: WriteScope, n: Node, ins: string[], d: TfDecl): string[] {
  const p = paramsRecord(n.params);
  const inputs = d.inputs ?? n.inputs.map((): TfInput => 'x');
  const refs: string[] = [];
  // The record's tensor form (paramsAsInputs): its param inputs are tensors, written as they are.
  const asInputs = d.paramsAsInputs === true && ins.length > inputs.filter((i) => i === 'x').length;
  let k = 0;
  for (const inp of inputs) {
    if (inp === 'x') refs.push(ins[k++]);
    else if (inp === 'xs') while (k < ins.length) refs.push(ins[k++]);
    else refs.push(asInputs ? ins[k++] : writeParamInput(s, n, ins, inp, p[inp.param]));
  }
  const attrs: Record<string, ReturnType<typeof attr.bool>> = {};
  const declared = d.attrs ?? (d.noT ? {} : { T: { dtypeOf: 0 } as TfAttr });
  for (const [name, a] of Object.entries(declared)) {
    if ('dtypeOf' in a) attrs[name] = attr.type(s.dtype(n.inputs[a.dtypeOf]));
    else if ('count' in a) attrs[name] = attr.int(ins.length);
    else if ('fixed' in a) attrs[name] = a.fixed;
    else attrs[name] = attrValue(a.kind, p[a.param]);
  }
  const name = s.add(d.op, d.op, refs, attrs);
  return n.outputs.map((_, i) => outputRef(name, i));
}

function attrValue(kind: string, v: unknown): ReturnType<typeof attr.bool> {
  switch (kind) {
    case 'bool':
      return attr.bool(v as boolean);
    case 'int':
      return attr.int(v as number);
    case 'ints':
      return attr.ints((v as number[] | null) ?? []);
    case 'float':
      return attr.float(v as number);
    case 'type':
      return attr.type(v as 'float32');
    default:
      return attr.str(String(v));
  }
}

/** A param as a Const input (axes, shapes, paddings); null axes = every axis. */
function writeParamInput(s: WriteScope, n: Node, ins: string[], inp: Exclude<TfInput, 'x' | 'xs'>, v: unknown): string {
  const hint = inp.param;
  if (v === null && inp.nullMeans === 'all-axes') {
    const dims = s.aval(n.inputs[0]).shape;
    if (dims !== null) return s.ints(hint, range(0, dims.length));
    const rank = s.add('Rank', 'Rank', [ins[0]], { T: attr.type(s.dtype(n.inputs[0])) });
    return s.add('Range', 'Range', [s.ints('start', [0], []), rank, s.ints('delta', [1], [])], { Tidx: attr.type('int32') });
  }
  if (inp.shape === 'scalar') {
    return inp.dtype === 'float32' ? s.constant(hint, { dtype: 'float32', shape: [], data: Float32Array.of(v as number) }) : s.ints(hint, [v as number], []);
  }
  if (inp.shape === 'pairs') {
    const pairs = v as readonly (readonly number[])[];
    return s.ints(hint, pairs.flat(), [pairs.length, 2]);
  }
  return s.ints(hint, v as number[]);
}

/** Reads a node with a declarative spec: tensor inputs, Const params and attrs -> bind. */
function readDecl(r: NodeReader, prim: Primitive, d: TfDecl): Tensor[] {
  const inputs = d.inputs ?? [];
  const nParams = inputs.filter((i) => !isTensorInput(i)).length;
  const variadic = inputs.includes('xs');
  const tensorArgs = prim.api?.args.filter((x) => x.kind === 'tensor').length;
  const fixedCount = d.inputs === undefined ? (tensorArgs ?? null) : inputs.length;
  if (d.arity) r.arity(d.arity[0], d.arity[1]);
  else if (variadic) r.arity(nParams + 1, nParams + 4096);
  else if (fixedCount !== null) r.arity(fixedCount);
  const tensors: Tensor[] = [];
  const params: Record<string, unknown> = {};
  let k = 0;
  const plan = d.inputs ?? Array.from({ length: r.count }, (): TfInput => 'x');
  // A param input the graph computes (not a Const): the record's tensor form, every param input a tensor.
  const asInputs = d.paramsAsInputs === true && plan.some((inp, i) => !isTensorInput(inp) && i < r.count && r.producer(i)?.op !== 'Const');
  for (const inp of plan) {
    if (inp === 'x') tensors.push(r.input(k++));
    else if (inp === 'xs') {
      const end = r.count - (plan.length - 1 - plan.indexOf('xs'));
      while (k < end) tensors.push(r.input(k++));
    } else if (asInputs) tensors.push(r.input(k++));
    else params[inp.param] = readParamInput(r, inp, k++);
  }
  for (const [name, a] of Object.entries(d.attrs ?? {})) {
    if ('param' in a) params[a.param] = readAttr(r, name, a.kind, a.default);
    else if ('fixed' in a && a.readCheck && r.node.int(name, Number(a.fixed.i)) !== Number(a.fixed.i)) {
      throw r.error(`${name} is not supported`, String(r.node.int(name, 0)), String(a.fixed.i), `Rewrite the graph without ${name}`);
    }
  }
  return bind(prim, tensors, params);
}

function readParamInput(r: NodeReader, inp: Exclude<TfInput, 'x' | 'xs'>, k: number): unknown {
  if (inp.nullMeans === 'all-axes') {
    const p = r.producer(k);
    if (p?.op === 'Range') {
      const rank = r.nodeOf(p.inputs[1] ?? { node: '', index: 0, text: '' });
      if (rank?.op === 'Rank' && rank.inputs[0]?.text === r.refText(0)) return null;
    }
  }
  const what = `the ${inp.param}`;
  if (inp.shape === 'scalar') return r.number(k, what);
  const values = r.numbers(k, what);
  if (inp.check === 'dims') r.checkSize(values);
  if (inp.shape === 'pairs') {
    if (values.length % 2 !== 0) throw r.error(`${inp.param} must be [rank, 2]`, `${values.length} values`, 'pairs', `Fix the ${inp.param} Const`);
    return Array.from({ length: values.length / 2 }, (_, i) => [values[2 * i], values[2 * i + 1]]);
  }
  return values;
}

function readAttr(r: NodeReader, name: string, kind: string, def: unknown): unknown {
  switch (kind) {
    case 'bool':
      return r.node.bool(name, (def as boolean | undefined) ?? false);
    case 'int':
      return r.node.int(name, def as number | undefined);
    case 'ints':
      return r.node.ints(name, def as number[] | undefined);
    case 'float':
      return r.node.float(name, def as number | undefined);
    case 'type':
      return r.node.dtype(name);
    default:
      return r.node.str(name, def as string | undefined);
  }
}

/** One way to read a TF op: a record's spec, or an import-only row. */
interface Candidate {
  readonly matches?: (r: NodeReader) => boolean;
  read(r: NodeReader): Tensor[];
}

/** TF op -> candidates in order (pattern readers first), and wildcard readers (host callbacks). */
export interface ReaderTable {
  readonly byOp: Map<string, Candidate[]>;
  readonly wildcards: Candidate[];
}

function addCandidate(t: ReaderTable, op: string, c: Candidate): void {
  const list = t.byOp.get(op) ?? [];
  // Pattern readers (with `matches`) are tried before the op's plain reader.
  if (c.matches) list.unshift(c);
  else list.push(c);
  t.byOp.set(op, list);
}

function candidatesOf(prim: Primitive, spec: TfSpec, t: ReaderTable): void {
  if (!isCodec(spec)) {
    const c: Candidate = { read: (r) => readDecl(r, prim, spec) };
    for (const op of [spec.op, ...(spec.readAlso ?? [])]) addCandidate(t, op, c);
    return;
  }
  const read = spec.read;
  if (read === undefined) return;
  const c: Candidate = { matches: spec.matches, read };
  if (spec.ops.length === 0) t.wildcards.push(c);
  for (const op of spec.ops) addCandidate(t, op, c);
}

/** The TF ops a record reads (its declarative op and aliases, or a codec's ops). */
const tfOpsOf = (spec: TfSpec): readonly string[] => (isCodec(spec) ? spec.ops : [spec.op, ...(spec.readAlso ?? [])]);

/** unfoldableOps' set for the records registered now (rebuilt when a package registers more). */
let unfoldable: { count: number; ops: Set<string> } | null = null;

/**
 * The TF ops of records constant folding must not evaluate at load: effects (stateful, or stateful for some params)
 * and records marked not foldable (variables, prints, checks). Derived from the records, so a new stateful record
 * is never folded without a list to update.
 */
export function unfoldableOps(): ReadonlySet<string> {
  const prims = allPrimitives();
  if (unfoldable?.count === prims.length) return unfoldable.ops;
  const ops = new Set<string>();
  for (const prim of prims) {
    if (prim.tf && (prim.effect !== 'pure' || prim.statefulWhen !== undefined || prim.foldable === false)) for (const op of tfOpsOf(prim.tf)) ops.add(op);
  }
  unfoldable = { count: prims.length, ops };
  return ops;
}

/** Builds the reader table from every registered record and the import-only rows. */
export function readerTable(imports: readonly TfImport[]): ReaderTable {
  const t: ReaderTable = { byOp: new Map(), wildcards: [] };
  for (const prim of allPrimitives()) if (prim.tf) candidatesOf(prim, prim.tf, t);
  for (const row of imports) for (const op of row.ops) addCandidate(t, op, { read: row.read });
  return t;
}

let cached: { count: number; table: ReaderTable } | null = null;

/** The reader table for the records registered now (rebuilt when a package registers more). */
export function currentReaderTable(imports: readonly TfImport[]): ReaderTable {
  const count = allPrimitives().length;
  if (cached === null || cached.count !== count) cached = { count, table: readerTable(imports) };
  return cached.table;
}

/** The reader for one node, or undefined when no record or row reads its op. */
export function readerFor(t: ReaderTable, r: NodeReader): ((r: NodeReader) => Tensor[]) | undefined {
  for (const c of t.wildcards) if (c.matches?.(r)) return c.read;
  for (const c of t.byOp.get(r.node.op) ?? []) if (!c.matches || c.matches(r)) return c.read;
  return undefined;
}

/** Every TF op some record writes or reads (docs/saving.md's table is generated from it). */
export function knownOps(t: ReaderTable): string[] {
  return [...t.byOp.keys()].sort();
}


