// Import-side records for tfjs-converter's fused forms: Prelu, and conv + BiasAdd + activation on tfjs's fused conv
// kernels (one kernel, as tfjs-converter runs _FusedConv2D), each differentiable and written back as the TF op it was.
import { AVal, AttrValue, Info, PRIMITIVES, Primitive, ReadScope, Tensor, argError, attr, bind, greater, minimum, multiply, reduceLike, registerPrimitive, where, hostFusedConv, hostKernelsPay, hostMatMul, backend, PrimitiveName } from '@eagerflow/core';
import type { Kernels, LowerScope, OnnxCodec, SpecNode } from '@eagerflow/core';

const P = PRIMITIVES;

/**
 * PReLU as tfjs-converter's Prelu op computes it (x < 0 ? alpha·x : x): one record on tfjs's Prelu kernel
 * (one kernel where relu(x) + alpha·min(x, 0) took four), written back as Prelu. Gradients as Keras's
 * PReLU: dx = g where x > 0 else g·alpha; dalpha = g·min(x, 0) summed to alpha's shape.
 */
const preluRecord: Primitive = {
  name: 'prelu',
  effect: 'pure',
  infer(ins: AVal[]) {
    const [x, a] = ins;
    const ok = ins.length === 2 && x.dtype === 'float32' && a.dtype === 'float32';
    const rankOk = x.shape === null || a.shape === null || a.shape.length <= x.shape.length;
    if (!ok || !rankOk) {
      throw argError('prelu', 'x and alpha must be float32, alpha broadcasting to x', ins.map((v) => `${v.dtype} ${JSON.stringify(v.shape)}`).join(', '), 'float32 x and float32 alpha of rank <= rank(x)', 'Fix the Prelu node inputs.');
    }
    return [{ dtype: 'float32', shape: x.shape }];
  },
  impl: (k, [x, alpha]) => [hostPrelu(k, x, alpha) ?? (k.run('Prelu', { x, alpha }) as Info)],
  vjp: (c, [x, alpha], _o, _p, need) => {
    const g = c[0];
    if (g === null) return [null, null];
    return [
      need[0] ? where(greater(x, 0), g, multiply(g, alpha)) : null,
      need[1] ? reduceLike(multiply(g, minimum(x, 0)), alpha) : null,
    ];
  },
  saves: 'inputs',
  tf: { ops: [], write: (s, _n, [x, alpha]) => [s.add('Prelu', 'Prelu', [x, alpha], { T: attr.type('float32') })] },
  // ONNX PRelu is TF's formula with alpha broadcasting to x.
  onnx: { op: 'PRelu' },
};
registerPrimitive(preluRecord);

/**
 * On the cpu backend (not wasm: its own Prelu is faster), PReLU with an alpha over x's trailing dims (per channel, as models use it) in one host
 * pass: tfjs's cpu Prelu broadcasts through its slow per-element index loop. Same formula, same values.
 */
function hostPrelu(k: Kernels, x: Info, alpha: Info): Info | null {
  if (!hostKernelsPay() || x.dtype !== 'float32' || alpha.dtype !== 'float32') return null;
  const a = alpha.shape.slice(alpha.shape.findIndex((d) => d !== 1));
  const tail = x.shape.slice(x.shape.length - a.length);
  if (alpha.shape.every((d) => d === 1) || a.length > x.shape.length || a.some((d, i) => d !== tail[i])) return null;
  const [xv, av] = [backend.readInfoSync(x) as Float32Array, backend.readInfoSync(alpha) as Float32Array];
  const out = new Float32Array(xv.length);
  const na = av.length;
  for (let i = 0; i < xv.length; i++) out[i] = xv[i] < 0 ? av[i % na] * xv[i] : xv[i];
  return k.upload(out, [...x.shape], 'float32');
}
export const prelu = (x: Tensor, alpha: Tensor): Tensor => bind(preluRecord, [x, alpha], {})[0];

/** The activations tfjs's fused conv kernels apply, by TF's fused_ops name, with the record that defines each one's gradient. */
export const ACTIVATIONS: Record<string, { tfjs: string; prim: PrimitiveName | null }> = {
  Relu: { tfjs: 'relu', prim: 'relu' },
  Relu6: { tfjs: 'relu6', prim: 'relu6' },
  Elu: { tfjs: 'elu', prim: 'elu' },
  Sigmoid: { tfjs: 'sigmoid', prim: 'sigmoid' },
  LeakyRelu: { tfjs: 'leakyrelu', prim: 'leaky_relu' },
  Prelu: { tfjs: 'prelu', prim: null },
};

/** The epilogue both fused records apply after their head (conv or matmul) and its bias. */
interface Epilogue {
  /** TF's fused_ops after BiasAdd: '' (none) or a key of ACTIVATIONS. */
  readonly activation: string;
  /** LeakyRelu's alpha. */
  readonly leakyreluAlpha: number;
}

export interface FusedConvParams extends Epilogue {
  readonly conv: { readonly strides: readonly number[]; readonly padding: 'SAME' | 'VALID'; readonly dataFormat: 'NHWC'; readonly dilations: readonly number[] };
  readonly depthwise: boolean;
}

const convOf = (p: FusedConvParams): 'conv2d' | 'depthwise_conv2d' => (p.depthwise ? 'depthwise_conv2d' : 'conv2d');
const one = (prim: Primitive, ins: Tensor[], params: object): Tensor => bind(prim, ins, params)[0];

/**
 * act(conv(x, filter) + bias) on tfjs's FusedConv2D / FusedDepthwiseConv2D. Its gradient chains the conv,
 * bias_add and activation records' own rules (recomputing the pre-activation), so every order works.
 */
export const fusedConvRecord: Primitive<FusedConvParams> = {
  name: 'fused_conv2d',
  effect: 'pure',
  infer(ins: AVal[], p: FusedConvParams) {
    const want = p.activation === 'Prelu' ? 4 : 3;
    if (ins.length !== want || ins.slice(2).some((a) => a.dtype !== 'float32')) {
      throw argError('fusedConv2d', 'bias (and PReLU alpha) must be float32', ins.map((a) => `${a.dtype} ${JSON.stringify(a.shape)}`).join(', '), `${want} inputs: x, filter, bias${want === 4 ? ', alpha' : ''}`, 'Fix the _FusedConv2D node inputs.');
    }
    const outs = P[convOf(p)].infer(ins.slice(0, 2), p.conv);
    // TF's _FusedConv2D: the bias is a vector of one value per output channel (not anything that broadcasts).
    const o = outs[0].shape;
    const co = o === null ? null : o[o.length - 1];
    const b = ins[2].shape;
    if (b !== null && (b.length !== 1 || (b[0] !== null && co !== null && b[0] !== co))) {
      throw argError('fusedConv2d', 'bias must have one value per output channel', `bias shape ${JSON.stringify(b)}`, `[${co ?? 'outChannels'}]`, 'Fix the _FusedConv2D bias input.');
    }
    return outs;
  },
  impl(k, [x, filter, bias, alpha], p: FusedConvParams) {
    const attrs = { strides: [...p.conv.strides], pad: p.conv.padding.toLowerCase(), dataFormat: 'NHWC', dilations: [...p.conv.dilations], dimRoundingMode: undefined, activation: p.activation === '' ? 'linear' : ACTIVATIONS[p.activation].tfjs, leakyreluAlpha: p.leakyreluAlpha };
    const host = hostFusedConv(k, x, filter, bias, alpha, { ...p.conv, depthwise: p.depthwise, activation: attrs.activation, leakyreluAlpha: p.leakyreluAlpha });
    if (host !== null) return [host];
    const ins: Record<string, Info> = { x, filter, bias, ...(alpha ? { preluActivationWeights: alpha } : {}) };
    return [k.run(p.depthwise ? 'FusedDepthwiseConv2D' : 'FusedConv2D', ins, attrs) as Info];
  },
  vjp: (c, ins, [y], p: FusedConvParams, need) => epilogueVjp(c[0], P[convOf(p)], p.conv, ins, y, p, need),
  saves: 'both',
  tf: {
    ops: [],
    write(s, n, ins) {
      const p = n.params as FusedConvParams;
      const four = (v: readonly number[]): AttrValue => attr.ints([1, v[0], v[1], 1]);
      const head = { strides: four(p.conv.strides), padding: attr.str(p.conv.padding), data_format: attr.str('NHWC'), dilations: four(p.conv.dilations) };
      const attrs = fusedAttrs(head, p, ins.length);
      const op = p.depthwise ? 'FusedDepthwiseConv2dNative' : '_FusedConv2D';
      return [s.add(op, op, ins, attrs)];
    },
  },
};
registerPrimitive(fusedConvRecord as Primitive);

/** The ONNX activation after the bias, in NHWC (ONNX Runtime folds the layout transposes around it). */
function onnxActivation(s: LowerScope, p: FusedConvParams, z: string, alpha: string | undefined): string[] {
  const f = (v: number): string => s.scalar(v, 'float32');
  switch (p.activation) {
    case '': return [z];
    case 'Relu': return s.add('Relu', [z]);
    case 'Relu6': return s.add('Clip', [z, f(0), f(6)]);
    case 'Elu': return s.add('Elu', [z], { alpha: { f: 1 } });
    case 'Sigmoid': return s.add('Sigmoid', [z]);
    case 'LeakyRelu': return s.add('LeakyRelu', [z], { alpha: { f: p.leakyreluAlpha } });
    default: return s.add('PRelu', [z, alpha as string]);
  }
}

/** The conv record's lowering on the fused node's x and filter (NHWC in and out, checked by its own `accepts`). */
const convLowering = (n: SpecNode<FusedConvParams>): { codec: OnnxCodec; node: SpecNode } => ({
  codec: P[convOf(n.params)].onnx as unknown as OnnxCodec,
  node: { inputs: n.inputs.slice(0, 2), outputs: n.outputs, params: n.params.conv },
});

/** jitCompile / toOnnx: the conv record's lowering, then Add(bias) and the activation. */
const fusedConvOnnx: OnnxCodec<FusedConvParams> = {
  lower(s, n, ins) {
    const { codec, node } = convLowering(n);
    const z = s.add('Add', [codec.lower(s, node, ins.slice(0, 2))[0], ins[2]]);
    return onnxActivation(s, n.params, z[0], ins[3]);
  },
  accepts(s, n) {
    const { codec, node } = convLowering(n);
    return n.inputs.every((i) => s.aval(i).dtype === 'float32') && (codec.accepts?.(s, node) ?? false);
  },
};
(fusedConvRecord as { onnx?: unknown }).onnx = fusedConvOnnx;

/** The fused record for a _FusedConv2D / FusedDepthwiseConv2dNative node tfjs's fused kernels run, or null (read it op by op). */
export function fusedConv2d(r: ReadScope, prim: 'conv2d' | 'depthwise_conv2d', conv: { strides: readonly number[]; padding: unknown; dataFormat: string; dilations: readonly number[] }, ops: string[]): Tensor | null {
  const act = ops.length === 2 ? ops[1] : '';
  const simple = conv.dataFormat === 'NHWC' && (conv.padding === 'SAME' || conv.padding === 'VALID') && ops[0] === 'BiasAdd' && ops.length <= 2 && (act === '' || act in ACTIVATIONS);
  const args = act === 'Prelu' ? 2 : 1;
  if (!simple || r.count !== 2 + args || r.node.int('num_args', args) !== args) return null;
  const params: FusedConvParams = {
    conv: { strides: conv.strides, padding: conv.padding as 'SAME' | 'VALID', dataFormat: 'NHWC', dilations: conv.dilations },
    depthwise: prim === 'depthwise_conv2d',
    activation: act,
    leakyreluAlpha: r.node.float('leakyrelu_alpha', 0.2),
  };
  return bind(fusedConvRecord as Primitive, r.inputs(0, 2 + args), params)[0];
}

export interface FusedMatMulParams extends Epilogue {
  readonly transposeA: boolean;
  readonly transposeB: boolean;
}

/**
 * The vjp of act(head(a, b) + bias) from the head, bias_add and activation records' own rules, recomputing the
 * pre-activation z (so every order works): [da, db, dbias] and, with a PReLU alpha, dalpha.
 */
function epilogueVjp(g: Tensor | null, head: Primitive, headParams: object, [a, b, bias, alpha]: Tensor[], y: Tensor, p: Epilogue, need: readonly boolean[]): (Tensor | null)[] {
  if (g === null) return [null, null, null, ...(alpha ? [null] : [])];
  const vjp = (prim: Primitive): NonNullable<Primitive['vjp']> => prim.vjp as NonNullable<Primitive['vjp']>;
  const z0 = one(head, [a, b], headParams);
  const z = one(P.bias_add, [z0, bias], { dataFormat: 'NHWC' });
  let dz: Tensor | null = g;
  let dAlpha: Tensor | null = null;
  if (p.activation === 'Prelu') [dz, dAlpha] = vjp(preluRecord)([g], [z, alpha], [y], {}, [true, need[3] ?? false]);
  else if (p.activation !== '') dz = vjp(P[ACTIVATIONS[p.activation].prim as PrimitiveName])([g], [z], [y], p.activation === 'LeakyRelu' ? { alpha: p.leakyreluAlpha } : {}, [true])[0];
  const [dz0, db] = vjp(P.bias_add)([dz], [z0, bias], [z], { dataFormat: 'NHWC' }, [true, need[2]]);
  const [da, dB] = vjp(head)([dz0], [a, b], [z0], headParams, [need[0], need[1]]);
  return [da, dB, db, ...(alpha ? [dAlpha] : [])];
}

/** A fused op's GraphDef attributes: T, the head's own (`head`), then the epilogue's (`inputs`: the node's input count). */
function fusedAttrs(head: Record<string, AttrValue>, p: Epilogue, inputs: number): Record<string, AttrValue> {
  const fusedOps = ['BiasAdd', ...(p.activation === '' ? [] : [p.activation])];
  return {
    T: attr.type('float32'), ...head, fused_ops: { list: { s: fusedOps.map((o) => attr.str(o).s as string) } }, num_args: attr.int(inputs - 2), epsilon: attr.float(0),
    leakyrelu_alpha: attr.float(p.leakyreluAlpha),
  };
}

/**
 * act(matmul(a, b) + bias) on tfjs's _FusedMatMul (rank-2 operands, a rank-1 bias on the last axis), made by the
 * epilogue pass (passes_epilogue.ts). Its gradient chains the matmul, bias_add and activation records' own rules
 * (recomputing the pre-activation), so every order works.
 */
export const fusedMatMulRecord: Primitive<FusedMatMulParams> = {
  name: 'fused_matmul',
  effect: 'pure',
  infer(ins: AVal[], p: FusedMatMulParams) {
    const want = p.activation === 'Prelu' ? 4 : 3;
    if (ins.length !== want || ins.some((a) => a.dtype !== 'float32')) {
      throw argError('fusedMatMul', 'a, b, bias (and PReLU alpha) must be float32', ins.map((a) => `${a.dtype} ${JSON.stringify(a.shape)}`).join(', '), `${want} float32 inputs: a, b, bias${want === 4 ? ', alpha' : ''}`, 'Fix the fused matmul inputs.');
    }
    return P.matmul.infer(ins.slice(0, 2), { transposeA: p.transposeA, transposeB: p.transposeB });
  },
  impl(k, [a, b, bias, alpha], p: FusedMatMulParams) {
    const host = hostFusedMatMul(k, a, b, bias, alpha, p);
    if (host !== null) return [host];
    const attrs = { transposeA: p.transposeA, transposeB: p.transposeB, activation: p.activation === '' ? 'linear' : ACTIVATIONS[p.activation].tfjs, leakyreluAlpha: p.leakyreluAlpha };
    // tfjs's kernels take rank-3 operands (its fused.matMul op reshapes before running them; wasm reads shape[2]).
    const [a3, b3] = [a, b].map((t) => k.run('Reshape', { x: t }, { shape: [1, ...t.shape] }) as Info);
    const y3 = k.run('_FusedMatMul', { a: a3, b: b3, bias, ...(alpha ? { preluActivationWeights: alpha } : {}) }, attrs) as Info;
    const y = k.run('Reshape', { x: y3 }, { shape: y3.shape.slice(1) }) as Info;
    [a3, b3, y3].forEach((t) => k.free(t));
    return [y];
  },
  vjp: (c, ins, [y], p: FusedMatMulParams, need) => epilogueVjp(c[0], P.matmul, { transposeA: p.transposeA, transposeB: p.transposeB }, ins, y, p, need),
  saves: 'both',
  tf: {
    ops: [],
    write(s, n, ins) {
      const p = n.params as FusedMatMulParams;
      const attrs = fusedAttrs({ transpose_a: attr.bool(p.transposeA), transpose_b: attr.bool(p.transposeB) }, p, ins.length);
      return [s.add('_FusedMatMul', '_FusedMatMul', ins, attrs)];
    },
  },
};
registerPrimitive(fusedMatMulRecord as Primitive);

/** The kernel tfjs's cpu _FusedMatMul runs for each activation after its bias add (its applyActivation). */
const ACTIVATION_KERNELS: Record<string, string> = { Relu: 'Relu', Relu6: 'Relu6', Elu: 'Elu', Sigmoid: 'Sigmoid', LeakyRelu: 'LeakyRelu', Prelu: 'Prelu' };

/**
 * On cpu, act(a @ b + bias) as tfjs's cpu _FusedMatMul computes it (its BatchMatMul, then its Add kernel, then the
 * activation's kernel), with the product in the host matmul loop (WebAssembly: bit-identical to BatchMatMul, several
 * times faster: a [64,256] x [256,128] dense layer ~6.7 ms -> ~1 ms); null where tfjs's kernel runs (other backends,
 * products the loop does not take).
 */
function hostFusedMatMul(k: Kernels, a: Info, b: Info, bias: Info, alpha: Info | undefined, p: FusedMatMulParams): Info | null {
  if (!hostKernelsPay()) return null;
  const product = hostMatMul(k, a, b, p.transposeA, p.transposeB, []);
  if (product === null) return null;
  const z = k.run('Add', { a: product, b: bias }) as Info;
  k.free(product);
  if (p.activation === '') return z;
  const name = ACTIVATION_KERNELS[p.activation];
  const y = (p.activation === 'Prelu' ? k.run(name, { x: z, alpha: alpha as Info }) : k.run(name, { x: z }, p.activation === 'LeakyRelu' ? { alpha: p.leakyreluAlpha } : {})) as Info;
  k.free(z);
  return y;
}
