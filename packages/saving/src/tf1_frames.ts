// TF1 control flow (Switch/Merge/Enter/Exit/NextIteration/LoopCond): every node's frame and cond context, found by
// propagation as TensorFlow's executor assigns them, and each top-level while frame or cond folded into one synthetic node.
import { InputRef, ParsedNode, loadError, topoOrder } from './validate';

/** The TF1 dataflow control ops (their Ref* variants are TF1 reference types, which graph models never hold). */
export const TF1_CONTROL_OPS: readonly string[] = ['Enter', 'Exit', 'LoopCond', 'Merge', 'NextIteration', 'Switch'];
const CONTROL = new Set(TF1_CONTROL_OPS);

/** A while frame: loop variables (Merge fed by Enter and NextIteration), invariants, the predicate, the Exits. */
export interface WhileFold {
  readonly kind: 'while';
  readonly frame: string;
  readonly vars: readonly { merge: ParsedNode; enter: ParsedNode; next: InputRef; switch: ParsedNode | undefined }[];
  /** Enters that feed no loop Merge (is_constant ones): read as the same value every iteration. */
  readonly invariants: readonly ParsedNode[];
  readonly loopCond: ParsedNode;
  /** Every other node of the frame (nested frames and conds included, folded when a body is built). */
  readonly inner: readonly ParsedNode[];
  /** Output k of the folded node (read by Exit node exits[k].node) is the final value of loop variable exits[k].k. */
  readonly exits: readonly { node: ParsedNode; k: number }[];
}

/** A cond (one predicate): the Switches on it, each branch's nodes, and the Merges joining the branches. */
export interface CondFold {
  readonly kind: 'cond';
  readonly pred: InputRef;
  readonly switches: readonly ParsedNode[];
  readonly branches: readonly [ParsedNode[], ParsedNode[]];
  /** Per Merge, which input is live on the false (0) and true (1) side. */
  readonly merges: readonly { merge: ParsedNode; live: readonly [number, number] }[];
}

const folds = new WeakMap<ParsedNode, WhileFold | CondFold>();

/** The fold a synthetic node stands for (undefined for every file node). */
export const foldOf = (n: ParsedNode): WhileFold | CondFold | undefined => folds.get(n);

/** The synthetic op that passes a folded node's outputs on under the original Exit/Merge name. */
export const FOLD_OUTPUT = '_EfFoldOutput';

type Ctx = readonly string[];
const W = (frame: string): string => `W\u0000${frame}`;
const C = (pred: string, side: number): string => `C\u0000${pred}\u0000${side}`;
const isW = (e: string | undefined): boolean => e !== undefined && e.startsWith('W\u0000');
/** A cond entry's group key (the predicate), or null. */
const condKey = (e: string | undefined): string | null => (e !== undefined && e.startsWith('C\u0000') ? e.slice(0, e.lastIndexOf('\u0000')) : null);
const sideOf = (e: string): number => Number(e.slice(e.lastIndexOf('\u0000') + 1));
const show = (c: Ctx): string => (c.length === 0 ? 'the top level' : c.map((e) => (isW(e) ? `while frame '${e.slice(2)}'` : `the ${sideOf(e) ? 'true' : 'false'} side of the Switch on '${e.split('\u0000')[1]}'`)).join(' > '));
const isPrefix = (a: Ctx, b: Ctx): boolean => a.length <= b.length && a.every((e, i) => e === b[i]);
const refText = (r: InputRef): string => `${r.node}:${r.index}`;

function err(where: string, what: string, got: string, expected: string, fix: string): Error {
  return loadError(`${where}: ${what}`, got, expected, fix);
}

/** Context propagation over the nodes (back edges NextIteration -> Merge left out of the order). */
class Contexts {
  private readonly byName = new Map<string, ParsedNode>();
  readonly own = new Map<string, Ctx>();

  constructor(
    readonly nodes: ParsedNode[],
    readonly where: string,
  ) {
    for (const n of nodes) this.byName.set(n.name, n);
    for (const n of this.order()) this.own.set(n.name, this.compute(n));
  }

  node(name: string): ParsedNode | undefined {
    return this.byName.get(name);
  }

  /** Whether a Switch's predicate comes from a LoopCond (a loop's exit/continue switch). */
  isLoopSwitch(n: ParsedNode): boolean {
    return n.op === 'Switch' && this.byName.get(n.inputs[1]?.node ?? '')?.op === 'LoopCond';
  }

  /** The context of output `index` of `name` (values from outside these nodes are top level). */
  out(name: string, index: number): Ctx {
    const n = this.byName.get(name);
    const c = this.own.get(name);
    if (n === undefined || c === undefined) return [];
    return n.op === 'Switch' && !this.isLoopSwitch(n) ? [...c, C(refText(n.inputs[1]), index)] : c;
  }

  private deps(n: ParsedNode): string[] {
    const back = (r: InputRef): boolean => n.op === 'Merge' && this.byName.get(r.node)?.op === 'NextIteration';
    return [...n.inputs.filter((r) => !back(r)).map((r) => r.node), ...n.controls].filter((d) => this.byName.has(d));
  }

  private order(): ParsedNode[] {
    return topoOrder(this.nodes, (n) => this.deps(n), (d) => this.byName.get(d) as ParsedNode, (stack, d) => {
      const path = [...stack.slice(stack.indexOf(d)), d];
      throw err(this.where, 'the graph has a cycle that is not a TF1 while loop', path.slice(0, 8).join(' -> '), 'cycles only through NextIteration -> Merge', 'Fix the edges of the loop');
    });
  }

  private compute(n: ParsedNode): Ctx {
    const here = `node '${n.name}' (${n.op})`;
    const first = (): Ctx => {
      if (n.inputs.length === 0) throw err(this.where, `${here} has no input`, '0 inputs', 'a data input', 'Fix the node inputs');
      return this.out(n.inputs[0].node, n.inputs[0].index);
    };
    switch (n.op) {
      case 'Enter':
        return [...first(), W(n.str('frame_name', ''))];
      case 'Exit':
      case 'NextIteration':
      case 'LoopCond': {
        const c = first();
        if (!isW(c[c.length - 1])) throw err(this.where, `${here} is not inside a while frame`, `its input is in ${show(c)}`, 'an input inside the frame (Enter ... Exit)', 'Fix the loop edges');
        return n.op === 'Exit' ? c.slice(0, -1) : c;
      }
      case 'Switch':
        if (n.inputs.length !== 2) throw err(this.where, `${here} must have 2 inputs (data, pred)`, `${n.inputs.length}`, '2', 'Fix the node inputs');
        return this.join(n, [this.out(n.inputs[0].node, n.inputs[0].index), this.out(n.inputs[1].node, n.inputs[1].index)]);
      case 'Merge':
        return this.merge(n, here);
      default:
        return this.join(n, [...n.inputs.map((r) => this.out(r.node, r.index)), ...n.controls.map((c) => this.out(c, 0))]);
    }
  }

  /** The deepest of the inputs' contexts; every other must enclose it. */
  private join(n: ParsedNode, cs: Ctx[]): Ctx {
    let deepest: Ctx = [];
    for (const c of cs) if (c.length > deepest.length) deepest = c;
    const bad = cs.find((c) => !isPrefix(c, deepest));
    if (bad !== undefined) {
      throw err(this.where, `node '${n.name}' (${n.op}) reads values from mismatched control-flow contexts`, `${show(bad)} and ${show(deepest)}`, 'inputs from one frame and cond side (or enclosing ones)', 'Pass values into a frame with Enter and out with Exit, and out of a cond with Merge');
    }
    return deepest;
  }

  /** A loop Merge (Enter + NextIteration) is in its frame; a cond Merge joins the two sides of one Switch. */
  private merge(n: ParsedNode, here: string): Ctx {
    const fromNext = n.inputs.filter((r) => this.byName.get(r.node)?.op === 'NextIteration');
    const rest = n.inputs.filter((r) => !fromNext.includes(r));
    if (rest.length === 0) throw err(this.where, `${here} has no live input`, n.inputs.length === 0 ? 'no inputs' : 'only NextIteration inputs', 'an Enter (loop) or one input per side of a Switch (cond)', 'Fix the Merge inputs');
    if (fromNext.length > 0) {
      if (fromNext.length !== 1 || rest.length !== 1 || this.byName.get(rest[0].node)?.op !== 'Enter') {
        throw err(this.where, `${here} is not a loop Merge`, `inputs [${n.inputs.map((r) => r.text).join(', ')}]`, 'one Enter and one NextIteration', 'Fix the loop edges');
      }
      return this.out(rest[0].node, rest[0].index);
    }
    const cs = rest.map((r) => this.out(r.node, r.index));
    const base = cs[0].slice(0, -1);
    const key = condKey(cs[0][cs[0].length - 1]);
    const sides = cs.map((c) => (condKey(c[c.length - 1]) === key && key !== null && isPrefix(base, c) && c.length === base.length + 1 ? sideOf(c[c.length - 1]) : -1));
    if (key === null || sides.includes(-1)) {
      throw err(this.where, `${here} joins values that are not the two sides of one Switch`, cs.map(show).join('; '), 'one input from each side of one Switch', 'Fix the cond: Merge(false side, true side)');
    }
    for (const side of [0, 1]) {
      const k = sides.filter((s) => s === side).length;
      if (k !== 1) throw err(this.where, `${here} has ${k === 0 ? 'no live input' : 'two live inputs'} when the predicate is ${side ? 'true' : 'false'}`, `inputs [${n.inputs.map((r) => r.text).join(', ')}]`, 'exactly one input from each side of the Switch', 'Fix the Merge inputs');
    }
    return base;
  }
}

/** The group a node folds into at this level ('' = stays), from its own and its outputs' contexts. */
function groupOf(cx: Contexts, n: ParsedNode): string {
  const own = cx.own.get(n.name) ?? [];
  if (own.length > 0) return isW(own[0]) ? own[0] : (condKey(own[0]) as string);
  if (n.op === 'Exit') return cx.out(n.inputs[0].node, n.inputs[0].index)[0];
  if (n.op === 'Switch' && !cx.isLoopSwitch(n)) return condKey(C(refText(n.inputs[1]), 0)) as string;
  if (n.op === 'Merge') return condKey(cx.out(n.inputs[0].node, n.inputs[0].index)[0]) as string;
  return '';
}

/**
 * The nodes with every top-level while frame and cond replaced by one synthetic node (its inputs: the
 * outside values the group reads) and each Exit / cond Merge by a FOLD_OUTPUT node reading it.
 */
export function foldControlFlow(nodes: ParsedNode[], where: string, lazyOps: ReadonlySet<string>): ParsedNode[] {
  if (!nodes.some((n) => CONTROL.has(n.op))) return nodes;
  const cx = new Contexts(nodes, where);
  const groups = new Map<string, ParsedNode[]>();
  const out: ParsedNode[] = [];
  for (const n of nodes) {
    const g = groupOf(cx, n);
    if (g === '') out.push(n);
    else groups.set(g, [...(groups.get(g) ?? []), n]);
  }
  const names = new Set(nodes.map((n) => n.name));
  for (const [key, members] of groups) {
    const fold = isW(key) ? whileFold(cx, key, members, where) : condFold(cx, members, where);
    let name = `${isW(key) ? key.slice(2) : fold.kind === 'cond' ? fold.pred.node : key}/_ef_${fold.kind}`;
    while (names.has(name)) name += '_';
    names.add(name);
    const inside = new Set(members.map((m) => m.name));
    const ext = new Map<string, InputRef>();
    const controls = new Set<string>();
    if (fold.kind === 'cond') ext.set(refText(fold.pred), fold.pred);
    for (const m of members) {
      for (const r of m.inputs) {
        const p = cx.node(r.node);
        if (!inside.has(r.node) && p !== undefined && !lazyOps.has(p.op)) ext.set(refText(r), r);
      }
      for (const c of m.controls) if (!inside.has(c) && cx.node(c) !== undefined) controls.add(c);
    }
    const synth = new ParsedNode({ name, op: fold.kind === 'while' ? '_EfWhileFrame' : '_EfCond', input: [...[...ext.values()].map(refText), ...[...controls].map((c) => `^${c}`)] }, where);
    folds.set(synth, fold);
    out.push(synth);
    const outputs = fold.kind === 'while' ? fold.exits.map((x, k) => ({ n: x.node, ins: [`${name}:${k}`] })) : fold.merges.map((m, k) => ({ n: m.merge, ins: [`${name}:${2 * k}`, `${name}:${2 * k + 1}`] }));
    for (const o of outputs) out.push(new ParsedNode({ name: o.n.name, op: FOLD_OUTPUT, input: o.ins }, where));
  }
  return out;
}

function whileFold(cx: Contexts, key: string, members: ParsedNode[], where: string): WhileFold {
  const frame = key.slice(2);
  const level = (n: ParsedNode): boolean => (cx.own.get(n.name) ?? []).length === 1;
  const at = (op: string): ParsedNode[] => members.filter((m) => m.op === op && level(m));
  const fw = `${where}: while frame '${frame}'`;
  const conds = at('LoopCond');
  if (conds.length !== 1) throw loadError(`${fw} has ${conds.length} LoopCond nodes`, `${conds.length}`, 'exactly 1', 'Fix the loop: one LoopCond feeds every Switch of the frame');
  const loopCond = conds[0];
  const enters = at('Enter');
  const merges = at('Merge').filter((m) => m.inputs.some((r) => cx.node(r.node)?.op === 'NextIteration'));
  const switches = members.filter((m) => m.op === 'Switch' && cx.isLoopSwitch(m) && level(m));
  const vars = merges.map((merge) => {
    const enter = cx.node(merge.inputs.find((r) => cx.node(r.node)?.op === 'Enter')?.node ?? '') as ParsedNode;
    const nextNode = cx.node(merge.inputs.find((r) => cx.node(r.node)?.op === 'NextIteration')?.node ?? '') as ParsedNode;
    if (!enters.includes(enter)) throw loadError(`${fw}: Merge '${merge.name}' is fed by an Enter of another frame`, `'${enter.name}'`, `an Enter with frame_name '${frame}'`, 'Fix the loop edges');
    if (nextNode.inputs.length !== 1) throw loadError(`${fw}: NextIteration '${nextNode.name}' must have one input`, `${nextNode.inputs.length}`, '1', 'Fix the node');
    if ((cx.own.get(nextNode.name) ?? []).length !== 1) throw loadError(`${fw}: NextIteration '${nextNode.name}' belongs to another frame`, show(cx.own.get(nextNode.name) ?? []), `while frame '${frame}'`, 'Fix the loop edges');
    const sw = switches.filter((s) => s.inputs[0].node === merge.name);
    if (sw.length > 1) throw loadError(`${fw}: Merge '${merge.name}' feeds ${sw.length} Switches`, `${sw.length}`, 'at most 1', 'Fix the loop');
    return { merge, enter, next: nextNode.inputs[0], switch: sw[0] };
  });
  const used = new Set(vars.map((v) => v.enter));
  const exitNodes = members.filter((m) => m.op === 'Exit' && (cx.own.get(m.name) ?? []).length === 0);
  const exits = exitNodes.map((x) => {
    const k = vars.findIndex((v) => v.switch !== undefined && x.inputs[0].node === v.switch.name && x.inputs[0].index === 0);
    if (k < 0) throw loadError(`${fw}: Exit '${x.name}' does not read output 0 of a loop Switch`, `'${x.inputs[0].text}'`, 'Switch:0 of a loop variable', 'Fix the loop edges');
    return { node: x, k };
  });
  const control = new Set<ParsedNode>([loopCond, ...enters, ...merges, ...switches, ...exitNodes, ...at('NextIteration')]);
  return { kind: 'while', frame, vars, invariants: enters.filter((e) => !used.has(e)), loopCond, inner: members.filter((m) => !control.has(m)), exits };
}

function condFold(cx: Contexts, members: ParsedNode[], where: string): CondFold {
  const sw = members.find((m) => m.op === 'Switch' && (cx.own.get(m.name) ?? []).length === 0) as ParsedNode | undefined;
  const merges = members.filter((m) => m.op === 'Merge' && (cx.own.get(m.name) ?? []).length === 0);
  if (sw === undefined) throw loadError(`${where}: a cond has no Switch at its level`, members[0].name, 'a Switch(data, pred)', 'Fix the cond');
  const key = condKey(C(refText(sw.inputs[1]), 0));
  const switches = members.filter((m) => m.op === 'Switch' && (cx.own.get(m.name) ?? []).length === 0 && condKey(C(refText(m.inputs[1]), 0)) === key);
  const branches: [ParsedNode[], ParsedNode[]] = [[], []];
  for (const m of members) {
    const c = cx.own.get(m.name) ?? [];
    if (c.length > 0) branches[sideOf(c[0])].push(m);
  }
  return {
    kind: 'cond',
    pred: sw.inputs[1],
    switches,
    branches,
    merges: merges.map((merge) => {
      const sides = merge.inputs.map((r) => sideOf(cx.out(r.node, r.index)[0]));
      return { merge, live: [sides.indexOf(0), sides.indexOf(1)] as const };
    }),
  };
}
