// The epilogue pass: conv2d / depthwiseConv2d / matmul + bias + activation onto tfjs's fused kernels, and its inverse for exporters.
import { Primitive, backend, isStateful, paramsRecord, isPrimitive } from '@eagerflow/core';
import { Graph, Node, Value, isGraph } from './graph';
import { ACTIVATIONS, FusedConvParams, FusedMatMulParams, fusedConvRecord, fusedMatMulRecord } from './fused_records';

/** The TF fused_ops name of each activation record the fused kernels apply. */
const ACT_OF_PRIM: Record<string, string> = Object.fromEntries(Object.entries(ACTIVATIONS).map(([tf, a]) => [a.prim ?? 'prelu', tf]));

/** The tfjs kernel each fused record runs, checked in the active backend's registry before rewriting. */
const KERNEL = { conv2d: 'FusedConv2D', depthwise_conv2d: 'FusedDepthwiseConv2D', matmul: '_FusedMatMul' } as const;
type Head = keyof typeof KERNEL;

/** What one fused node replaced (restored by unfuseEpilogues for GraphDef and ONNX export), by primitive and params. */
interface Step {
  readonly prim: Primitive;
  readonly params: Node['params'];
}
interface Chain {
  readonly head: Step;
  readonly bias: Step & { readonly biasFirst: boolean };
  readonly act: Step | null;
}
const chains = new WeakMap<object, Chain>();


/** Whether a conv / matmul node's params and shapes are what the fused kernels take. */
function headFits(g: Graph, n: Node): boolean {
  if (!(n.prim.name in KERNEL) || n.inputs.length !== 2 || n.inputs.some((i) => g.values[i].dtype !== 'float32')) return false;
  const [a, b] = n.inputs.map((i) => g.values[i].shape);
  if (isPrimitive(n.prim, 'matmul')) {
    // tfjs-backend-wasm 4.22's _FusedMatMul adds the bias at the wrong positions when an operand is transposed
    // (rows after the first; measured, docs/performance.md): there the unfused ops run.
    const pm = paramsRecord(n.params);
    const transposed = pm.transposeA === true || pm.transposeB === true;
    return a !== null && b !== null && a.length === 2 && b.length === 2 && !(transposed && backend.getBackend() === 'wasm');
  }
  const p = n.params as unknown as FusedConvParams['conv'];
  const strided = p.strides.some((v) => v !== 1) && p.dilations.some((v) => v !== 1);
  return a !== null && b !== null && a.length === 4 && b.length === 4 && p.dataFormat === 'NHWC' && (p.padding === 'SAME' || p.padding === 'VALID') && !strided;
}

/** The bias of `n` if it adds a rank-1 float32 bias along the last axis of value `x` (bias_add NHWC, or add exactly like it). */
function biasOf(g: Graph, n: Node, x: number): number | null {
  const shape = g.values[x].shape;
  const channels = shape === null ? null : shape[shape.length - 1];
  const fits = (b: number): boolean => {
    const s = g.values[b].shape;
    return g.values[b].dtype === 'float32' && s !== null && s.length === 1 && s[0] !== null && s[0] === channels;
  };
  if (isPrimitive(n.prim, 'bias_add')) return n.inputs[0] === x && paramsRecord(n.params).dataFormat === 'NHWC' && fits(n.inputs[1]) ? n.inputs[1] : null;
  // add(x, bias) broadcasts a [C] bias along x's last axis (C known): the same sums as bias_add, x's shape kept.
  if (!isPrimitive(n.prim, 'add') || n.inputs.length !== 2 || channels === null) return null;
  const other = n.inputs[0] === x ? n.inputs[1] : n.inputs[1] === x ? n.inputs[0] : null;
  return other !== null && other !== x && fits(other) ? other : null;
}

/**
 * Rewrites conv2d / depthwiseConv2d (NHWC, SAME/VALID) and rank-2 matmul followed by a bias on the last axis and an
 * optional relu, relu6, elu, leakyRelu, prelu or sigmoid into one fused_conv2d / fused_matmul node, where the active
 * backend registers tfjs's fused kernel. Only chains whose intermediates have one reader and are not returned.
 */
export function fuseEpilogues(g: Graph): Graph {
  const uses = new Map<number, number>();
  const readers = new Map<number, number>();
  g.nodes.forEach((n, k) => n.inputs.forEach((i) => (uses.set(i, (uses.get(i) ?? 0) + 1), readers.set(i, k))));
  for (const o of g.outputs) uses.set(o, (uses.get(o) ?? 0) + 1);
  const only = (v: number): number | null => (uses.get(v) === 1 && readers.has(v) ? (readers.get(v) as number) : null);
  const drop = new Set<number>();
  const replace = new Map<number, Node>();
  const ok = new Map<Head, boolean>();
  g.nodes.forEach((head, k) => {
    if (!headFits(g, head) || isStateful(head.prim, head.params)) return;
    const hk = head.prim.name as Head;
    const bk = only(head.outputs[0]);
    if (bk === null || drop.has(bk)) return;
    const bias = g.nodes[bk];
    const b = biasOf(g, bias, head.outputs[0]);
    if (b === null) return;
    if (!ok.has(hk)) ok.set(hk, backend.hasKernel(KERNEL[hk]));
    if (!ok.get(hk)) return;
    const ak = only(bias.outputs[0]);
    const actNode = ak === null ? null : g.nodes[ak];
    const act = actNode !== null && actNode.inputs[0] === bias.outputs[0] && actNode.prim.name in ACT_OF_PRIM && actNode.inputs.slice(1).every((i) => g.values[i].dtype === 'float32') ? actNode : null;
    const activation = act === null ? '' : ACT_OF_PRIM[act.prim.name];
    const last = act ?? bias;
    const inputs = [...head.inputs, b, ...(act !== null && act.prim.name === 'prelu' ? [act.inputs[1]] : [])];
    const leakyreluAlpha = act !== null && isPrimitive(act.prim, 'leaky_relu') ? (paramsRecord(act.params).alpha as number) : 0.2;
    const params =
      hk === 'matmul'
        ? ({ transposeA: paramsRecord(head.params).transposeA === true, transposeB: paramsRecord(head.params).transposeB === true, activation, leakyreluAlpha } satisfies FusedMatMulParams)
        : ({ conv: convParams(head), depthwise: hk === 'depthwise_conv2d', activation, leakyreluAlpha } satisfies FusedConvParams);
    const prim = (hk === 'matmul' ? fusedMatMulRecord : fusedConvRecord) as unknown as Primitive;
    const step = (n: Node): Step => ({ prim: n.prim, params: n.params });
    chains.set(params, { head: step(head), bias: { ...step(bias), biasFirst: bias.inputs[0] === b && bias.inputs[1] === head.outputs[0] }, act: act === null ? null : step(act) });
    drop.add(k).add(bk);
    if (act !== null) drop.add(ak as number);
    replace.set(act === null ? bk : (ak as number), { prim, params, inputs, outputs: [last.outputs[0]], site: last.site });
  });
  if (replace.size === 0) return g;
  const nodes = g.nodes.flatMap((n, k) => (replace.has(k) ? [replace.get(k) as Node] : drop.has(k) ? [] : [n]));
  return new Graph(g.name, g.values, nodes, g.inputs, g.outputs);
}

function convParams(n: Node): FusedConvParams['conv'] {
  const p = n.params as unknown as FusedConvParams['conv'];
  return { strides: p.strides, padding: p.padding, dataFormat: 'NHWC', dilations: p.dilations };
}

/**
 * The graph with every node fuseEpilogues made put back as the conv / matmul, bias and activation it replaced (on its
 * current inputs, with new values for the intermediates: a fused node may have been inlined into another graph), in
 * cond/while bodies too: what GraphDef and ONNX export write, and what ONNX Runtime compiles.
 */
export function unfuseEpilogues(g: Graph): Graph {
  let values: Value[] | null = null;
  const fresh = (like: number): number => {
    values ??= g.values.slice();
    values.push({ kind: 'node', dtype: g.values[like].dtype, shape: g.values[like].shape });
    return values.length - 1;
  };
  let changed = false;
  const nodes = g.nodes.flatMap((n): Node[] => {
    const chain = chains.get(n.params);
    if (chain === undefined) {
      const bodies = Object.entries(paramsRecord(n.params)).filter(([, v]) => isGraph(v));
      if (bodies.length === 0) return [n];
      const params: Record<string, unknown> = { ...n.params };
      let inner = false;
      for (const [key, body] of bodies) {
        params[key] = unfuseEpilogues(body as Graph);
        inner ||= params[key] !== body;
      }
      changed ||= inner;
      return inner ? [{ ...n, params }] : [n];
    }
    changed = true;
    const { head, bias, act } = chain;
    // The bias and activation keep the fused value's shape and dtype.
    const h = fresh(n.outputs[0]);
    const z = act === null ? n.outputs[0] : fresh(n.outputs[0]);
    const out: Node[] = [
      { ...head, inputs: n.inputs.slice(0, 2), outputs: [h], site: n.site },
      { prim: bias.prim, params: bias.params, inputs: bias.biasFirst ? [n.inputs[2], h] : [h, n.inputs[2]], outputs: [z], site: n.site },
    ];
    if (act !== null) out.push({ ...act, inputs: [z, ...n.inputs.slice(3)], outputs: n.outputs, site: n.site });
    return out;
  });
  return changed ? new Graph(g.name, values ?? g.values, nodes, g.inputs, g.outputs) : g;
}
