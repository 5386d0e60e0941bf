// ef.whileLoop: an eager JS loop, or one `while` node whose cond/body graphs serve every iteration count.
import {
  AVal, Info, Primitive, Tensor, TensorLike, TensorShape,
  PRIMITIVES, argError, backend, internalError, bind, convert, ctx, describe, freshId, isStateful, typeError,
  registerPrimitive,
} from '@eagerflow/core';
import { GraphBuilder, traceSubgraph, withBuilder } from './builder';
import { ControlOps, WhileParams, checkOut, writeWhile } from './control_graphdef';
import { Graph } from './graph';
import { planOf, run } from './executor';
import { replay } from './replay';
import { whileOnnx } from './onnx/control';
import { whileVjp } from './while_grad';
import { checkIterations, runLimitsOf } from './run_limits';
import { TensorArray } from './tensor_array';

export interface WhileOptions {
  maximumIterations?: number | null;
}

function truthy(api: string, x: unknown): boolean {
  if (typeof x === 'boolean') return x;
  if (x instanceof Tensor) {
    if (x.dtype !== 'bool' || (x.size ?? 0) !== 1) {
      throw argError(api, 'condFn must return a scalar bool', `a ${x.dtype} tensor of shape ${x.shape.toString()}`, 'a scalar bool', 'Compare, e.g. ef.less(i, n).', 'while');
    }
    return x.item() as boolean;
  }
  throw typeError(api, 'condFn must return a boolean or a scalar bool tensor', describe(x), 'a boolean or a scalar bool tensor', 'Compare, e.g. ef.less(i, n).');
}

/** TensorFlow's ops for whileLoop: StatelessWhile, or While when the cond or body is stateful. */
const WHILE_OPS: ControlOps = ['StatelessWhile', 'While'];

export const whilePrimitive: Primitive<WhileParams> = {
  name: 'while',
  effect: 'pure',
  foldable: false,
  statefulWhen: (p) => [p.condGraph, p.bodyGraph].some((g) => g.nodes.some((n) => isStateful(n.prim, n.params))),
  infer: (_ins, p) => p.outAvals,
  impl(k, ins, p) {
    const condCaps = ins.slice(p.nVars, p.nVars + p.nCondCaps);
    const bodyCaps = ins.slice(p.nVars + p.nCondCaps);
    let vars: Info[] = ins.slice(0, p.nVars);
    let owned = false;
    const limits = planOf(p.condGraph).limits;
    try {
      for (let i = 0; p.maximumIterations === null || i < p.maximumIterations; i++) {
        const [c] = run(planOf(p.condGraph), [...vars, ...condCaps], k);
        const go = backend.readInfoSync(c)[0] !== 0;
        k.free(c);
        if (!go) break;
        checkIterations(i, limits);
        const next = run(planOf(p.bodyGraph), [...vars, ...bodyCaps], k);
        if (owned) vars.forEach((v) => k.free(v));
        vars = next;
        owned = true;
      }
    } catch (e) {
      if (owned) vars.forEach((v) => k.free(v));
      throw e;
    }
    return owned ? vars : vars.map((x) => k.run('Identity', { x }) as Info);
  },
  vjp: (cts, ins, outs, p) => whileVjp(cts, ins, outs, p, whileLoop),
  saves: 'none',
  replay: (ins, p) => replayWhile(ins, p),
  // The output types are on the left of the listing; the cond and body graphs are printed nested.
  // ONNX Loop, when every node of the cond and body graphs lowers.
  onnx: whileOnnx,
  printParams: (p) => `[nVars=${p.nVars}, nCondCaps=${p.nCondCaps}${p.maximumIterations === null ? '' : `, maximumIterations=${p.maximumIterations}`}]`,
  tf: {
    // while_v2's layout: loop vars, then cond and body captures riding along unchanged.
    ops: WHILE_OPS,
    write: (s, n, ins) => writeWhile(s, n, ins, WHILE_OPS),
    read(r): Tensor[] {
      const [c, body] = [r.node.func('cond'), r.node.func('body')];
      const outs = whileLoop((...vs) => r.callFunction(c, vs)[0], (...vs) => r.callFunction(body, vs), r.inputs());
      return checkOut(r, outs, 'T');
    },
  },
};
registerPrimitive(whilePrimitive as Primitive);

function checkVars(api: string, vars: Tensor[], next: unknown): Tensor[] {
  if (!Array.isArray(next) || next.length !== vars.length) {
    throw typeError(api, `bodyFn must return an array of ${vars.length} loop variables`, describe(next), `an array of length ${vars.length}`, 'Return [v0, v1, ...] in the order of loopVars.');
  }
  return next.map((v, i) => {
    const t = v instanceof Tensor ? v : convert(api, v as TensorLike, vars[i].dtype).t;
    if (t.dtype !== vars[i].dtype) {
      throw typeError(api, `loop variable ${i} changed dtype`, t.dtype, vars[i].dtype, 'Cast inside bodyFn so each variable keeps its dtype.');
    }
    return t;
  });
}

/** A loop variable: a tensor (or a value made one), or an `ef.TensorArray`. */
export type LoopVar = TensorLike | TensorArray;
/** What the loop's functions get and the loop returns for each loop variable: a TensorArray stays one. */
export type LoopValues<V extends readonly LoopVar[]> = { [K in keyof V]: V[K] extends TensorArray ? TensorArray : Tensor };

/**
 * Repeats `bodyFn` while `condFn` holds. `condFn(...vars)` and `bodyFn(...vars)` get the loop variables. A loop
 * variable may be an `ef.TensorArray` of fixed size (TF's TensorArray loop variable): the body writes it with
 * the symbolic index (`ta.write(i, v)`) and returns the new array; it is carried as one dense tensor.
 * @example
 * ef.whileLoop((i) => ef.less(i, 5), (i) => [ef.add(i, 1)], [ef.constant(0)])[0].item(); // 5
 */
export function whileLoop<V extends readonly LoopVar[]>(condFn: (...vars: LoopValues<V>) => unknown, bodyFn: (...vars: LoopValues<V>) => unknown[], loopVars: readonly [...V], options: WhileOptions = {}): LoopValues<V> {
  const api = 'whileLoop';
  if (!Array.isArray(loopVars)) throw typeError(api, 'loopVars must be an array', describe(loopVars), 'an array of tensors', 'Pass [v0, v1, ...].');
  const arrays = (loopVars as readonly LoopVar[]).map((v) => (v instanceof TensorArray ? v : null));
  type Fn = (...vars: Tensor[]) => unknown;
  if (arrays.every((a) => a === null)) return whileTensors(condFn as unknown as Fn, bodyFn as unknown as (...vars: Tensor[]) => unknown[], loopVars as TensorLike[], options) as LoopValues<V>;
  // An array of unknown element shape learns it from the body's write, as TF infers it: the body traced once into
  // a throwaway graph.
  if (arrays.some((a) => a !== null && !a.hasDenseShape())) {
    const learned = probeElementShapes(bodyFn as unknown as (...a: unknown[]) => unknown, loopVars as readonly LoopVar[], arrays);
    arrays.forEach((a, i) => {
      if (a !== null) arrays[i] = a.withElementShape(learned[i]);
    });
  }
  // TensorArrays ride as their dense [size, ...elementShape] tensors; the functions see TensorArrays over them.
  const made: Tensor[] = [];
  try {
    const dense = (loopVars as readonly LoopVar[]).map((v, i) => {
      const a = arrays[i];
      if (a === null) return v as TensorLike;
      const d = a.toDense(api);
      if (d.made) made.push(d.dense);
      return d.dense;
    });
    const wrap = (vs: Tensor[]): (Tensor | TensorArray)[] => vs.map((v, i) => {
      const a = arrays[i];
      return a === null ? v : new TensorArray(a.dtype, { dynamicSize: a.dynamicSize }, v);
    });
    const unwrap = (res: unknown): unknown => (!Array.isArray(res) ? res : res.map((r: unknown, i) => {
      if (arrays[i] === null) return r;
      if (!(r instanceof TensorArray)) {
        throw typeError(api, `loop variable ${i} is a TensorArray: bodyFn must return a TensorArray there`, describe(r), 'a TensorArray (the result of ta.write(i, v))', 'Return the array write gave: ta = ta.write(i, v); return [..., ta].');
      }
      const { dense: d, made: fresh } = r.toDense(api);
      const want = (dense[i] as Tensor).dims;
      // A dynamicSize array may grow: its element shape must hold.
      const grows = (arrays[i] as TensorArray).dynamicSize;
      const shapeOf = (x: readonly (number | null)[]): TensorShape => new TensorShape(grows ? x.slice(1) : x.slice());
      if (d.dims === null || want === null || !shapeOf(d.dims).equals(shapeOf(want).dims)) {
        if (fresh) d.dispose();
        throw argError(api, `loop variable ${i}: the TensorArray bodyFn returned has another size or element shape`, `[size, ...elementShape] ${new TensorShape(d.dims).toString()}`, new TensorShape(want).toString(), 'Return the array ta.write gave (a fixed size and one element shape)', 'while');
      }
      return d;
    }));
    const cond = (...vs: Tensor[]): unknown => (condFn as unknown as (...a: unknown[]) => unknown)(...wrap(vs));
    const body = (...vs: Tensor[]): unknown[] => unwrap((bodyFn as unknown as (...a: unknown[]) => unknown)(...wrap(vs))) as unknown[];
    return wrap(whileTensors(cond, body, dense, options)) as unknown as LoopValues<V>;
  } finally {
    for (const t of made) t.dispose();
  }
}

/** The element shape each TensorArray loop variable's body write gives it (null where unknown or not an array). */
function probeElementShapes(bodyFn: (...a: unknown[]) => unknown, loopVars: readonly LoopVar[], arrays: (TensorArray | null)[]): ((number | null)[] | null)[] {
  const b = new GraphBuilder('whileLoop_probe', ctx.builder instanceof GraphBuilder ? ctx.builder : null);
  try {
    return withBuilder(b, () => {
      const args = loopVars.map((v, i) => {
        if (arrays[i] !== null) return arrays[i];
        const t = convert('whileLoop', v as TensorLike).t;
        return b.addInput(t.dtype, t.dims, `v${i}`);
      });
      const res = bodyFn(...args);
      return arrays.map((a, i) => (a === null || !Array.isArray(res) || !(res[i] instanceof TensorArray) ? null : (res[i] as TensorArray).elementShape.dims));
    });
  } finally {
    b.abandon();
  }
}

/** whileLoop over tensors only. */
function whileTensors(condFn: (...vars: Tensor[]) => unknown, bodyFn: (...vars: Tensor[]) => unknown[], loopVars: TensorLike[], options: WhileOptions = {}): Tensor[] {
  const api = 'whileLoop';
  if (typeof condFn !== 'function' || typeof bodyFn !== 'function') throw typeError(api, 'condFn and bodyFn must be functions', `${describe(condFn)} and ${describe(bodyFn)}`, 'two functions', 'Pass (i) => ef.less(i, n) and (i) => [ef.add(i, 1)].');
  if (!Array.isArray(loopVars)) throw typeError(api, 'loopVars must be an array', describe(loopVars), 'an array of tensors', 'Pass [v0, v1, ...].');
  const max = options.maximumIterations ?? null;
  if (max !== null && !(Number.isInteger(max) && max >= 0)) throw typeError(api, 'maximumIterations must be a non-negative integer', describe(max), 'an integer >= 0 or null', 'Pass e.g. { maximumIterations: 100 }.');
  // Tensors with a larger id than `mark` were made by this loop (the caller cannot hold them).
  const mark = freshId();
  const made = (t: Tensor): boolean => t.id > mark;
  const vars = loopVars.map((v) => convert(api, v).t);
  if (ctx.builder !== null) return tracedWhile(condFn, bodyFn, vars, max);
  let cur = vars;
  try {
    for (let i = 0; max === null || i < max; i++) {
      const c = condFn(...cur);
      let go: boolean;
      try {
        go = truthy(api, c);
      } finally {
        if (c instanceof Tensor && made(c) && !cur.includes(c)) c.dispose();
      }
      if (!go) break;
      const next = checkVars(api, cur, bodyFn(...cur));
      // Loop-made values no longer carried are freed (the tape keeps what it saved); user tensors never are.
      for (const t of cur) if (made(t) && !next.includes(t)) t.dispose();
      cur = next;
    }
  } catch (e) {
    // A failing condFn or bodyFn: the loop-made values carried so far are freed too.
    for (const t of cur) if (made(t)) t.dispose();
    throw e;
  }
  // The caller owns every result: user tensors (and repeats) are returned as copies.
  const handed = new Set<Tensor>();
  return cur.map((t) => {
    if (made(t) && !handed.has(t)) {
      handed.add(t);
      return t;
    }
    return bind(PRIMITIVES.identity, [t], {})[0];
  });
}

function traceGraph(name: 'cond' | 'body', fn: (...a: Tensor[]) => unknown, avals: AVal[]): { graph: Graph; captures: Tensor[]; outs: Tensor[] } {
  return traceSubgraph(name, avals, fn, (res, args) => (name === 'cond' ? [condResult(res)] : checkVars('whileLoop', args, res)));
}

function condResult(res: unknown): Tensor {
  const t = typeof res === 'boolean' ? convert('whileLoop', res).t : res;
  if (!(t instanceof Tensor) || t.dtype !== 'bool' || (t.dims !== null && t.dims.length > 0 && t.size !== 1)) {
    throw typeError('whileLoop', 'condFn must return a scalar bool tensor', t instanceof Tensor ? `a ${t.dtype} tensor of shape ${t.shape.toString()}` : describe(res), 'a scalar bool', 'Compare, e.g. ef.less(i, n).');
  }
  return t;
}

/** Traces cond and body once; loop-variable shapes that change are relaxed (unknown dims). */
function tracedWhile(condFn: (...v: Tensor[]) => unknown, bodyFn: (...v: Tensor[]) => unknown[], vars: Tensor[], max: number | null): Tensor[] {
  let avals: AVal[] = vars.map((v) => ({ dtype: v.dtype, shape: v.dims }));
  for (let attempt = 0; attempt < 3; attempt++) {
    const body = traceGraph('body', bodyFn, avals);
    const relaxed = avals.map((a, i) => ({ dtype: a.dtype, shape: new TensorShape(a.shape).mostSpecificCommonSupertype(new TensorShape(body.outs[i].dims)).dims }));
    if (relaxed.some((r, i) => !new TensorShape(r.shape).equals(avals[i].shape)) && attempt < 2) {
      body.graph.dispose();
      avals = relaxed;
      continue;
    }
    let c: ReturnType<typeof traceGraph>;
    try {
      c = traceGraph('cond', condFn, avals);
    } catch (e) {
      body.graph.dispose();
      throw e;
    }
    const params: WhileParams = { condGraph: c.graph, bodyGraph: body.graph, nVars: vars.length, nCondCaps: c.captures.length, maximumIterations: max, outAvals: avals };
    return bind(whilePrimitive as Primitive, [...vars, ...c.captures, ...body.captures], params);
  }
  throw internalError('whileLoop', 'loop variable shapes did not settle in 3 traces of the body');
}

/** Replays a while node: the loop again, its bodies replayed into the current context. */
function replayWhile(ins: Tensor[], p: WhileParams): Tensor[] {
  const condCaps = ins.slice(p.nVars, p.nVars + p.nCondCaps);
  const bodyCaps = ins.slice(p.nVars + p.nCondCaps);
  const limits = runLimitsOf.get(p.condGraph) ?? null;
  let i = 0;
  return whileLoop(
    (...vs) => {
      const c = replay(p.condGraph, [...vs, ...condCaps])[0];
      // Like the executor: the loop fails when its condition still holds after the limit's iterations.
      if (limits !== null && i >= limits.maxWhileIterations && c.item() === true) {
        c.dispose();
        checkIterations(i, limits);
      }
      i++;
      return c;
    },
    (...vs) => replay(p.bodyGraph, [...vs, ...bodyCaps]),
    ins.slice(0, p.nVars),
    { maximumIterations: p.maximumIterations },
  );
}

