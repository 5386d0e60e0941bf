// Data-dependent parameters: Fill dims, Range bounds, TopKV2 k, Tile/BroadcastTo shapes, resize sizes computed by the
// graph (detection post-processing). One record runs the op's own record with the params
// read from those tensors when it executes; gradients are the op's own, with the params of that run.
import { AVal, AttrValue, Info, ONNX_TYPE, Primitive, ReadScope, Tensor, backend, bind, recordByName, registerPrimitive, unimplemented } from '@eagerflow/core';
import type { DType, OnnxCodec } from '@eagerflow/core';
import type { NodeReader } from './reader';
import type { ParsedNode } from './validate';

type Kind = 'scalar' | 'vector' | 'pairs';

export interface DynamicParams {
  /** The record run with the params read at run time. */
  readonly target: string;
  /** Tensor inputs of the record (the first inputs); the rest are params, one per slot. */
  readonly nData: number;
  readonly slots: readonly { readonly param: string; readonly kind: Kind }[];
  readonly fixed: Readonly<Record<string, unknown>>;
  readonly outAvals: readonly AVal[];
  /** How it is written back: the TF op, its attrs, and the TF input order of [data..., params...]. */
  readonly tfOp: string;
  readonly tfAttrs: Readonly<Record<string, AttrValue>>;
  readonly tfOrder: readonly number[];
}

const paramsOf = (p: DynamicParams, values: ArrayLike<number>[]): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...p.fixed };
  p.slots.forEach((s, k) => {
    const v = Array.from(values[k], Number);
    out[s.param] = s.kind === 'scalar' ? v[0] : s.kind === 'pairs' ? Array.from({ length: v.length / 2 }, (_, i) => [v[2 * i], v[2 * i + 1]]) : v;
  });
  return out;
};

const targetOf = (p: DynamicParams): Primitive => recordByName(p.target, 'dynamic params');

/**
 * jitCompile: a Reshape whose shape the graph computes is ONNX Reshape with that shape as its input (ONNX takes it as a
 * tensor; allowzero: a 0 is a size, as in TF). Keras 3's squeeze-excite blocks reshape to [tf.shape(x)[0], 1, 1, C]: as
 * a JS step each one split EfficientNetB0 into 17 ONNX Runtime sessions (16 such blocks).
 */
const dynamicReshapeOnnx: OnnxCodec<DynamicParams> = {
  lower: (s, _n, [x, shape]) => s.add('Reshape', [x, ...s.add('Cast', [shape], { to: { i: 7 } })], { allowzero: { i: 1 } }),
  accepts: (s, n) => n.params.target === 'reshape' && n.params.nData === 1 && ONNX_TYPE[s.aval(n.inputs[0]).dtype] !== undefined,
};

/** Runs record `target` with params read from its param inputs (checked by the record's infer on the run's shapes). */
const dynamicParams: Primitive<DynamicParams> = {
  name: 'dynamic_params',
  effect: 'pure',
  foldable: false,
  infer: (_ins, p) => p.outAvals.map((a) => ({ ...a })),
  impl(k, ins, p) {
    const params = paramsOf(p, ins.slice(p.nData).map((i) => backend.readInfoSync(i) as ArrayLike<number>));
    const data = ins.slice(0, p.nData);
    const rec = targetOf(p);
    rec.infer(data.map((d) => ({ dtype: d.dtype as DType, shape: d.shape })), params);
    return rec.impl(k, data as Info[], params);
  },
  vjp(cts, ins, outs, p, needed) {
    const rec = targetOf(p);
    const pins = ins.slice(p.nData);
    if (rec.vjp === null) return ins.map(() => null);
    if (pins.some((t) => t.isSymbolic)) {
      throw unimplemented('loadFunction', `the gradient of ${p.tfOp} with shape parameters computed in the graph is only taken eagerly`, 'a traced gradient', 'a GradientTape around the call (eager)', 'Take the gradient outside ef.trace');
    }
    const params = paramsOf(p, pins.map((t) => t.dataSync() as ArrayLike<number>));
    return [...rec.vjp(cts, ins.slice(0, p.nData), outs, params, needed.slice(0, p.nData)), ...pins.map(() => null)];
  },
  saves: 'both',
  onnx: dynamicReshapeOnnx as OnnxCodec,
  printParams: (p) => `[${p.target}(${p.slots.map((s) => s.param).join(', ')} at run time)]`,
  tf: {
    ops: [],
    write(s, n, ins) {
      const p = n.params as DynamicParams;
      const name = s.add(p.tfOp, p.tfOp, p.tfOrder.map((k) => ins[k]), { ...p.tfAttrs });
      return n.outputs.map((_, k) => (k === 0 ? name : `${name}:${k}`));
    },
  },
};
registerPrimitive(dynamicParams as Primitive);

interface Entry {
  readonly target: string;
  /** TF input index of each data tensor, then of each param slot. */
  readonly data: readonly number[];
  readonly slots: readonly { readonly input: number; readonly param: string; readonly kind: Kind }[];
  fixed(r: ReadScope): Record<string, unknown>;
  out(r: ReadScope, data: Tensor[], slots: Tensor[]): AVal[];
  /** Producers of the first slot that the op's record reads as a pattern (Reshape(x, Shape(like))). */
  readonly patterns?: readonly string[];
}


const ENTRIES: Record<string, Entry> = {
  // TF2 resizes (half-pixel centers; the TF1 modes are read by import_detect) to a size the graph computes.
  ResizeBilinear: { target: 'resize_bilinear', data: [0], slots: [{ input: 1, param: 'size', kind: 'vector' }], fixed: () => ({}), out: (_r, [x]) => [{ dtype: x.dtype, shape: x.dims === null ? null : [x.dims[0], null, null, x.dims[3]] }] },
  ResizeNearestNeighbor: { target: 'resize_nearest', data: [0], slots: [{ input: 1, param: 'size', kind: 'vector' }], fixed: () => ({}), out: (_r, [x]) => [{ dtype: x.dtype, shape: x.dims === null ? null : [x.dims[0], null, null, x.dims[3]] }] },
};

/** Nodes whose shape params are computed (not Const, and not a pattern a record reads, like Reshape(x, Shape(like))). */
export function isDynamic(r: NodeReader): boolean {
  const e = ENTRIES[r.node.op];
  if (e === undefined || r.count <= Math.max(...e.slots.map((s) => s.input))) return false;
  return e.slots.some((s, k) => {
    const p = r.producer(s.input);
    return p === undefined || (p.op !== 'Const' && !(k === 0 && (e.patterns ?? []).includes(p.op)));
  });
}

/** Reads a node with computed params onto dynamic_params around its record. */
export function readDynamic(r: NodeReader): Tensor[] {
  const e = ENTRIES[r.node.op];
  const data = e.data.map((k) => r.input(k));
  const slots = e.slots.map((s) => r.input(s.input));
  slots.forEach((t, k) => {
    if (t.dtype !== 'int32' && t.dtype !== 'float32') throw r.error(`${e.slots[k].param} must be numeric`, t.dtype, 'int32', 'Fix the input');
  });
  const node = r.node as ParsedNode;
  const tfAttrs: Record<string, AttrValue> = {};
  for (const [k, v] of node.attrs) if (!k.startsWith('_')) tfAttrs[k] = v;
  const order = [...e.data, ...e.slots.map((s) => s.input)];
  const extra = Array.from({ length: r.count }, (_, i) => i).filter((i) => !order.includes(i));
  if (extra.length > 0) throw r.error('the op has inputs the dynamic reader does not take', `inputs ${extra.join(', ')}`, `${order.length} inputs`, 'Make the shape parameters Consts');
  const tfOrder = Array.from({ length: r.count }, (_, i) => order.indexOf(i));
  const params: DynamicParams = { target: e.target, nData: data.length, slots: e.slots.map((s) => ({ param: s.param, kind: s.kind })), fixed: e.fixed(r), outAvals: e.out(r, data, slots), tfOp: r.node.op, tfAttrs, tfOrder };
  return bind(dynamicParams as Primitive, [...data, ...slots], params);
}
