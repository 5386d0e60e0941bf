// Folded TF1 control flow read onto EagerFlow's primitives: a while frame becomes ef.whileLoop, a Switch/Merge cond
// becomes ef.cond, so the loaded graph stays traceable, printable and differentiable.
import { Tensor } from '@eagerflow/core';
import { cond, whileLoop } from '@eagerflow/function';
import { GraphScope, NodeReader, OpReader } from './reader';
import { CondFold, FOLD_OUTPUT, WhileFold, foldOf } from './tf1_frames';
import { InputRef, ParsedNode, loadError, neededNodes } from './validate';

function checkScalarBool(t: Tensor, where: string, what: string): void {
  if (t.dtype !== 'bool' || (t.dims !== null && t.dims.length > 0 && t.size !== 1)) {
    throw loadError(`${where}: ${what} must be a scalar bool`, `a ${t.dtype} tensor of shape ${t.shape.toString()}`, 'a scalar bool', 'Fix the predicate of the control flow');
  }
}

/** A while frame as ef.whileLoop: the cond and body are the frame's nodes, interpreted in sub-scopes per trace. */
function readWhile(r: NodeReader, f: WhileFold): Tensor[] {
  r.inputs();
  const outer = r.scope;
  const where = `${outer.where}, while frame '${f.frame}'`;
  const at = (ref: InputRef): Tensor => outer.tensorAt(ref, where);
  const init = f.vars.map((v) => at(v.enter.inputs[0]));
  const fixed: [string, (Tensor | undefined)[]][] = f.invariants.map((e) => [e.name, [at(e.inputs[0])]]);
  const predRef = f.loopCond.inputs[0];
  if (predRef === undefined) throw loadError(`${where}: LoopCond '${f.loopCond.name}' has no input`, '0 inputs', '1', 'Fix the loop');
  const condNodes = neededNodes(f.inner, [predRef.node]);
  const bodyNodes = neededNodes(f.inner, f.vars.map((v) => v.next.node));
  const presets = (vs: Tensor[]): Map<string, (Tensor | undefined)[]> => {
    const m = new Map<string, (Tensor | undefined)[]>(fixed);
    f.vars.forEach((v, k) => {
      m.set(v.merge.name, [vs[k], undefined]);
      m.set(v.enter.name, [undefined]);
      if (v.switch !== undefined) m.set(v.switch.name, [undefined, vs[k]]);
    });
    m.set(f.loopCond.name, [undefined]);
    return m;
  };
  const outs = whileLoop(
    (...vs) => {
      const s = new GraphScope(outer.ctx, condNodes, `${where} (cond)`, new Map(), outer, presets(vs));
      s.run();
      const c = s.tensorAt(predRef, `LoopCond '${f.loopCond.name}'`);
      checkScalarBool(c, where, 'the loop condition');
      return c;
    },
    (...vs) => {
      const s = new GraphScope(outer.ctx, bodyNodes, `${where} (body)`, new Map(), outer, presets(vs));
      s.run();
      return f.vars.map((v, k) => {
        const t = s.tensorAt(v.next, `NextIteration of '${v.merge.name}'`);
        if (t.dtype !== vs[k].dtype) throw loadError(`${where}: loop variable '${v.merge.name}' changes dtype`, `${vs[k].dtype} then ${t.dtype}`, 'the same dtype every iteration', 'Cast in the loop body');
        return t;
      });
    },
    init,
  );
  return f.exits.map((x) => outs[x.k]);
}

/** A Switch/Merge cond as ef.cond: each side's nodes in a sub-scope; outputs are (value, value_index) per Merge. */
function readCond(r: NodeReader, f: CondFold): Tensor[] {
  const [pred] = r.inputs();
  const outer = r.scope;
  const where = `${outer.where}, cond on '${f.pred.text}'`;
  checkScalarBool(pred, where, 'the Switch predicate');
  const data = f.switches.map((s) => outer.tensorAt(s.inputs[0], where));
  const side = (b: 0 | 1) => (): Tensor[] => {
    const presets = new Map<string, (Tensor | undefined)[]>(f.switches.map((s, k) => [s.name, b === 0 ? [data[k], undefined] : [undefined, data[k]]]));
    const s = new GraphScope(outer.ctx, f.branches[b], `${where} (${b ? 'true' : 'false'} side)`, new Map(), outer, presets);
    s.run();
    return f.merges.flatMap((m) => [s.tensorAt(m.merge.inputs[m.live[b]], `Merge '${m.merge.name}'`), outer.ctx.constTensor({ dtype: 'int32', shape: [], data: Int32Array.of(m.live[b]) })]);
  };
  return cond(pred, side(1), side(0));
}

/** Readers of the synthetic nodes foldControlFlow makes (undefined for every other node). */
export function foldReader(n: ParsedNode): OpReader | undefined {
  if (n.op === FOLD_OUTPUT) return (r) => r.inputs();
  const f = foldOf(n);
  if (f === undefined) return undefined;
  return f.kind === 'while' ? (r) => readWhile(r, f) : (r) => readCond(r, f);
}
