// The graph IR: a flat, typed SSA list of nodes over values, printed like a program.
import { AVal, DType, Dims, Params, Primitive, SHORT_NAME, paramsRecord, backend, formatNumpy, isStateful, unpinGraphConstant } from '@eagerflow/core';

/** Where a value comes from: a graph input, a captured constant, or a node output. */
export type ValueKind = 'input' | 'const' | 'node';

export interface Value {
  readonly kind: ValueKind;
  readonly dtype: DType;
  shape: Dims;
  /** For inputs: the parameter name. */
  readonly name?: string;
  /** For constants: the pinned tfjs tensor (owned by the graph). */
  readonly constant?: backend.TfTensor;
}

export interface Node {
  readonly prim: Primitive;
  readonly params: Params;
  readonly inputs: number[];
  readonly outputs: number[];
  /** The user's call site, captured while tracing (stack frames resolved lazily); `label` names where an importer read it from. */
  readonly site?: { stack?: string; label?: string };
}

const released = new WeakSet<Value>();

/** A traced function body: values, nodes in program order, inputs and outputs by value index. */
export class Graph {
  constructor(
    readonly name: string,
    readonly values: Value[],
    readonly nodes: Node[],
    readonly inputs: number[],
    readonly outputs: number[],
  ) {}

  /** Operations as plain records: `{ name, type, inputs, outputs, attrs }`. */
  get operations(): Operation[] {
    const names = new PrintContext(this);
    const counts = new Map<string, number>();
    return this.nodes.map((n) => {
      const k = counts.get(n.prim.name) ?? 0;
      counts.set(n.prim.name, k + 1);
      return {
        name: k === 0 ? n.prim.name : `${n.prim.name}_${k}`,
        type: n.prim.name,
        inputs: n.inputs.map((i) => names.operand(i)),
        outputs: n.outputs.map((i) => names.name(i)),
        attrs: printableParams(n.params),
        stateful: isStateful(n.prim, n.params),
      };
    });
  }

  toString(): string {
    return printGraph(this, new PrintContext(this), '');
  }

  aval(i: number): AVal {
    return { dtype: this.values[i].dtype, shape: this.values[i].shape };
  }

  /** Releases the constants this graph and its cond/while bodies pinned (once each). */
  dispose(): void {
    releaseConstants(this.constants());
  }

  /** The constant values of this graph and of every body graph in its nodes. */
  constants(): Value[] {
    const out = this.values.filter((v) => v.constant !== undefined);
    for (const n of this.nodes) {
      const params = paramsRecord(n.params);
      for (const k in params) {
        const p = params[k];
        if (isGraph(p)) out.push(...p.constants());
      }
    }
    return out;
  }
}

/** Unpins constants not released yet (graphs made by passes share their values). */
export function releaseConstants(values: readonly Value[]): void {
  for (const v of values) {
    if (v.constant && !released.has(v)) {
      released.add(v);
      unpinGraphConstant(v.constant);
    }
  }
}

export interface Operation {
  name: string;
  type: string;
  inputs: string[];
  outputs: string[];
  attrs: Record<string, unknown>;
  stateful: boolean;
}

/** A value is a graph the printer should nest (cond/while bodies). */
export function isGraph(x: unknown): x is Graph {
  return x instanceof Graph;
}

function printableParams(p: Params): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) {
    if (isGraph(v)) out[k] = `<graph ${v.name}>`;
    else if (v && typeof v === 'object' && 'name' in v && 'id' in v) out[k] = (v as { name: string }).name;
    else if (typeof v === 'function') out[k] = `<function>`;
    else out[k] = v;
  }
  return out;
}

/** Assigns printable names: inputs by parameter name, node outputs a, b, ..., aa, ab, ... */
export class PrintContext {
  private readonly names = new Map<number, string>();
  private readonly used = new Set<number>();
  constructor(readonly graph: Graph) {
    let k = 0;
    const taken = new Set<string>();
    graph.values.forEach((v, i) => {
      if (v.kind !== 'input') return;
      this.names.set(i, v.name ?? `arg${i}`);
      taken.add(v.name ?? `arg${i}`);
    });
    const fresh = (): string => {
      let name = letters(k++);
      while (taken.has(name)) name = letters(k++);
      return name;
    };
    for (const n of graph.nodes) for (const o of n.outputs) this.names.set(o, fresh());
    // Constants are numbered in order among those the graph still reads (folded-away ones are not shown).
    for (const n of graph.nodes) for (const i of n.inputs) this.used.add(i);
    for (const o of graph.outputs) this.used.add(o);
    let c = 0;
    graph.values.forEach((v, i) => {
      if (v.kind === 'const' && this.used.has(i) && !this.inlined(i)) this.names.set(i, `c${c++}`);
    });
  }

  /** Whether a node or the graph's outputs read value `i`. */
  isUsed(i: number): boolean {
    return this.used.has(i);
  }

  name(i: number): string {
    return this.names.get(i) ?? `%${i}`;
  }

  /** Scalar constants are printed inline where they are read. */
  inlined(i: number): boolean {
    const v = this.graph.values[i];
    return v.kind === 'const' && v.constant !== undefined && v.constant.shape.length === 0;
  }

  /** How a value appears as an operand: scalar constants inline. */
  operand(i: number): string {
    if (this.inlined(i)) {
      const v = this.graph.values[i];
      return formatNumpy(v.dtype, [], backend.readInfoSync(v.constant as backend.TfTensor));
    }
    return this.name(i);
  }
}

function letters(k: number): string {
  let s = '';
  let n = k;
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return s;
}

/** `f32[?,3]`, `i32[]`, `f32[*]` for unknown rank. */
export function typeString(v: AVal): string {
  const dims = v.shape === null ? '*' : v.shape.map((d) => (d === null ? '?' : String(d))).join(',');
  return `${SHORT_NAME[v.dtype]}[${dims}]`;
}

function paramString(n: Node): string {
  if (n.prim.printParams) return n.prim.printParams(n.params);
  const entries = Object.entries(n.params).filter(([, v]) => !isGraph(v) && v !== undefined);
  if (entries.length === 0) return '';
  return `[${entries.map(([k, v]) => `${k}=${typeof v === 'object' && v !== null && 'name' in v ? (v as { name: string }).name : JSON.stringify(v)}`).join(', ')}]`;
}

function printGraph(g: Graph, ctx: PrintContext, indent: string): string {
  const args = g.inputs.map((i) => `${ctx.name(i)}: ${typeString(g.aval(i))}`).join(', ');
  const lines = [`${indent}graph ${g.name}(${args}) {`];
  g.values.forEach((v, i) => {
    if (v.kind !== 'const' || !ctx.isUsed(i) || ctx.inlined(i)) return;
    const c = v.constant as backend.TfTensor;
    const big = c.shape.reduce((a, b) => a * b, 1) > 8;
    const shown = big ? '' : ` ${formatNumpy(v.dtype, c.shape, backend.readInfoSync(c)).replace(/^array\((.*?)(, dtype=\w+)?\)$/s, '$1').replace(/\s+/g, ' ')}`;
    lines.push(`${indent}  ${ctx.name(i)}: ${typeString(g.aval(i))} = const${shown}`);
  });
  for (const n of g.nodes) lines.push(...printNode(g, n, ctx, indent + '  '));
  lines.push(`${indent}  return ${g.outputs.map((o) => ctx.operand(o)).join(', ')}`);
  lines.push(`${indent}}`);
  return lines.join('\n');
}

function printNode(g: Graph, n: Node, ctx: PrintContext, indent: string): string[] {
  const lhs = n.outputs.map((o) => `${ctx.name(o)}: ${typeString(g.aval(o))}`).join(', ');
  const rhs = `${n.prim.name}${paramString(n)}${n.inputs.length ? ' ' : ''}${n.inputs.map((i) => ctx.operand(i)).join(' ')}`;
  const io = isStateful(n.prim, n.params) ? '   !io' : '';
  const head = `${indent}${lhs ? `${lhs} = ` : ''}${rhs}${io}`;
  const subs = Object.values(n.params).filter(isGraph);
  if (subs.length === 0) return [head];
  return [`${head} {`, ...subs.map((s) => printGraph(s, new PrintContext(s), indent + '  ')), `${indent}}`];
}

/** Operands and outputs an error message shows per node; the rest is counted, not listed. */
const SHOWN = 16;
/** Longest node line in an error message (long params are cut, with a count of what was left out). */
const MAX_LINE = 400;

/** `a b c ... (N more)`. */
function listed(items: readonly number[], show: (i: number) => string): string[] {
  const out = items.slice(0, SHOWN).map(show);
  if (items.length > SHOWN) out.push(`... (${items.length - SHOWN} more)`);
  return out;
}

/** One line for a node (used in error messages), bounded in length however large the node. */
export function nodeLine(g: Graph, n: Node): string {
  const ctx = new PrintContext(g);
  const lhs = listed(n.outputs, (o) => `${ctx.name(o)}: ${typeString(g.aval(o))}`).join(', ');
  const operands = listed(n.inputs, (i) => ctx.operand(i)).join(' ');
  let params = paramString(n);
  if (params.length > MAX_LINE / 2) params = `${params.slice(0, MAX_LINE / 2)}... (${params.length - MAX_LINE / 2} more characters)]`;
  const line = `${lhs ? `${lhs} = ` : ''}${n.prim.name}${params}${operands ? ' ' : ''}${operands}${isStateful(n.prim, n.params) ? '   !io' : ''}`;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}... (${line.length - MAX_LINE} more characters)` : line;
}

