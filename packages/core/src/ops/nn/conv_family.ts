// The conv record factory: forward conv, input backprop and filter backprop records whose vjps are each other (any order).
import type { Info, Kernels } from '../../backend/backend';
import type { AVal, Primitive } from '../primitive';
import type { OpRecord } from '../define_op';
import type { Dims } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { ReadScope, SpecNode, WriteScope, attr, typeAttrOf } from '../graphdef_spec';
import { hostFusedConv } from './host_conv';
import { tensorOfShapeNode, writeShapeOf } from '../array/reshape';
import { argError, checkArity, checkDTypes } from '../check';
import { intValues } from '../kernel_util';
import { dimsToString } from '../../values/shape';
import {
  ConvParams, allOnes, channelAxis, channelsLast, convAttrs, dilateFilter, dilatedShape, kernelPad, lastShape, outSize, readConvAttrs, shapeSource, spatialAxes, undilateFilter,
} from './conv_util';

/** What distinguishes conv2d, depthwiseConv2d and conv3d. */
export interface ConvKind<I extends string = string> {
  /** Public op name (errors). */
  readonly op: string;
  /** IR name prefix ('conv2d' -> conv2d, conv2d_backprop_input, conv2d_backprop_filter). */
  readonly ir: I;
  readonly n: number;
  readonly depthwise: boolean;
  /** tfjs kernels (channels-last). */
  readonly kernels: readonly [string, string, string];
  /** TF GraphDef ops: forward, input backprop, filter backprop. */
  readonly tf: readonly [string, string, string];
  readonly defFormat: string;
  /** TF's explicit_paddings attr exists for this op. */
  readonly explicitAttr: boolean;
  /** TF attrs only some ops carry (use_cudnn_on_gpu). */
  readonly extraAttrs: Readonly<Record<string, ReturnType<typeof attr.bool>>>;
}

export interface BackpropInputParams extends ConvParams {
  readonly inputShape: readonly (number | null)[];
  /**
   * 'values': the third input is TF's `input_sizes` itself, an int32 vector read when the op runs (sizes the graph
   * computes, e.g. stack([batch, h * 2, w * 2, c])); otherwise an optional third input is a tensor of that shape.
   */
  readonly sizesFrom?: 'values';
}
export interface BackpropFilterParams extends ConvParams {
  readonly filterShape: readonly (number | null)[];
}

/** A conv kind's three records, named after its IR prefix `I`. */
export interface ConvFamily<I extends string = string> {
  readonly fwd: OpRecord<I, ConvParams>;
  readonly input: OpRecord<`${I}_backprop_input`, BackpropInputParams>;
  readonly filter: OpRecord<`${I}_backprop_filter`, BackpropFilterParams>;
}

const convOnly = (p: ConvParams): ConvParams => ({ strides: p.strides, padding: p.padding, dataFormat: p.dataFormat, dilations: p.dilations });

/** The output shape of a conv of x with filter shape f (checks channels and sizes). */
function convOutShape(kind: ConvKind, x: Dims, f: Dims, p: ConvParams): Dims {
  const r = kind.n + 2;
  for (const [what, s] of [['input', x], ['filter', f]] as const) {
    if (s !== null && s.length !== r) throw argError(kind.op, `${what} must be rank ${r}`, `shape [${s.join(', ')}]`, `rank ${r}`, what === 'input' ? `Pass a batch of ${p.dataFormat} inputs.` : 'Pass filters shaped [spatial..., inChannels, outChannels].');
  }
  if (x === null) return null;
  const ca = channelAxis(p.dataFormat, r);
  const ci = f === null ? null : f[kind.n];
  if (ci !== null && x[ca] !== null && ci !== x[ca]) {
    throw argError(kind.op, 'input channels do not match the filter', `${x[ca]} input channels and a filter for ${ci}`, `input channels == filter dim ${kind.n} (${ci})`, `Check dataFormat ('${p.dataFormat}') and the filter shape.`);
  }
  const out: (number | null)[] = [...x];
  spatialAxes(p.dataFormat, kind.n).forEach((a, i) => {
    const k = f === null ? null : f[i];
    const pads = typeof p.padding === 'string' ? 0 : p.padding[i][0] + p.padding[i][1];
    const inp = x[a];
    if (p.padding !== 'SAME' && inp !== null && k !== null && inp + pads < (k - 1) * p.dilations[i] + 1) {
      throw argError(kind.op, 'the filter is larger than the padded input', `input size ${inp} (+${pads} padding) for an effective filter size ${(k - 1) * p.dilations[i] + 1} in spatial dim ${i}`, 'input size + padding >= (filter size - 1) * dilation + 1', "Use padding 'SAME' or a smaller filter.");
    }
    out[a] = outSize(inp, k, p.strides[i], p.dilations[i], p.padding, i);
  });
  const co = f === null ? null : kind.depthwise ? (f[kind.n] === null || f[kind.n + 1] === null ? null : (f[kind.n] as number) * (f[kind.n + 1] as number)) : f[kind.n + 1];
  out[ca] = co;
  return out;
}

function checkFloat(kind: ConvKind, ins: AVal[]): void {
  checkDTypes(kind.op, ins[0], ['float32'], 'input');
  checkDTypes(kind.op, ins[1], ['float32'], 'filter');
}

/** Runs a tfjs conv kernel channels-last with the family's attrs. */
function runKernel(k: Kernels, kind: ConvKind, which: 0 | 1 | 2, ins: Record<string, Info>, p: ConvParams, extra: Record<string, unknown>): Info {
  const attrs: Record<string, unknown> = { strides: [...p.strides], pad: kernelPad(p.padding), ...extra };
  // Depthwise too: tfjs-webgpu's depthwise kernels read dataFormat (cpu and webgl ignore it).
  if (kind.n === 2) attrs.dataFormat = 'NHWC';
  if (kind.n === 3) attrs.dataFormat = 'NDHWC';
  return k.run(kind.kernels[which], ins, attrs) as Info;
}

function forwardImpl(kind: ConvKind, k: Kernels, x: Info, f: Info, p: ConvParams): Info {
  // Traced with unknown dims, the shape rule could not decide: check the real shapes before the kernel.
  convOutShape(kind, x.shape, f.shape, p);
  if (kind.n === 2 && p.dataFormat === 'NHWC' && (p.padding === 'SAME' || p.padding === 'VALID')) {
    const host = hostFusedConv(k, x, f, undefined, undefined, { strides: p.strides, dilations: p.dilations, padding: p.padding, depthwise: kind.depthwise, activation: 'linear', leakyreluAlpha: 0 });
    if (host !== null) return host;
  }
  return channelsLast(k, p.dataFormat, [x, null], ([xl]) => runKernel(k, kind, 0, { x: xl, filter: f }, p, { dilations: [...p.dilations] }));
}

/** Input backprop; dilations are applied to the filter (tfjs's backprop kernels take none). */
function inputImpl(kind: ConvKind, k: Kernels, dy: Info, f: Info, shape: number[], p: ConvParams): Info {
  checkBackpropShape(kind, dy.shape, convOutShape(kind, shape, f.shape, p), 'dy');
  const df = allOnes(p.dilations) ? f : dilateFilter(k, f, p.dilations);
  const ones = p.dilations.map(() => 1);
  const out = channelsLast(k, p.dataFormat, [dy, null], ([dyl]) =>
    runKernel(k, kind, 1, { dy: dyl, filter: df }, p, { inputShape: lastShape(shape, p.dataFormat), ...(kind.depthwise ? { dilations: ones } : {}) }));
  if (df !== f) k.free(df);
  return out;
}

function filterImpl(kind: ConvKind, k: Kernels, x: Info, dy: Info, shape: number[], p: ConvParams): Info {
  checkBackpropShape(kind, dy.shape, convOutShape(kind, x.shape, shape, p), 'dy');
  const dilated = !allOnes(p.dilations);
  const fs = dilated ? dilatedShape(shape, p.dilations) : shape;
  const ones = p.dilations.map(() => 1);
  const moved = p.dataFormat.startsWith('NC');
  const [xl, dyl] = moved ? [x, dy].map((t) => k.run('Transpose', { x: t }, { perm: [0, ...Array.from({ length: kind.n }, (_, i) => i + 2), 1] }) as Info) : [x, dy];
  const g = runKernel(k, kind, 2, { x: xl, dy: dyl }, p, { filterShape: fs, ...(kind.depthwise ? { dilations: ones } : {}) });
  if (moved) [xl, dyl].forEach((t) => k.free(t));
  if (!dilated) return g;
  const out = undilateFilter(k, g, p.dilations);
  k.free(g);
  return out;
}

/** Merges a static shape param with a `like` input's dims (run-time shape source). */
function mergedShape(stat: readonly (number | null)[], like: AVal | undefined): Dims {
  if (like === undefined) return [...stat];
  if (like.shape === null) return stat.length ? [...stat] : null;
  return like.shape.map((d, i) => d ?? stat[i] ?? null);
}

/** Builds one family: three records whose vjps call each other, so gradients of any order are convs. */
export function convFamily<const I extends string>(kind: ConvKind<I>): ConvFamily<I> {
  const fam = {} as { fwd: Primitive<ConvParams>; input: Primitive<BackpropInputParams>; filter: Primitive<BackpropFilterParams> };
  const inputOf = (dy: Tensor, f: Tensor, like: Tensor, p: ConvParams): Tensor => {
    const s = shapeSource(like);
    return bind(fam.input as unknown as Primitive, [dy, f, ...s.like], { ...convOnly(p), inputShape: s.dims })[0];
  };
  const filterOf = (x: Tensor, dy: Tensor, like: Tensor, p: ConvParams): Tensor => {
    const s = shapeSource(like);
    return bind(fam.filter as unknown as Primitive, [x, dy, ...s.like], { ...convOnly(p), filterShape: s.dims })[0];
  };
  const fwdOf = (x: Tensor, f: Tensor, p: ConvParams): Tensor => bind(fam.fwd as unknown as Primitive, [x, f], convOnly(p))[0];
  const [tfFwd, tfIn, tfF] = kind.tf;
  const attrsOf = (s: WriteScope, n: SpecNode<unknown>, i: number) => ({ T: typeAttrOf(s, n.inputs[i]), ...convAttrs(n.params as ConvParams, kind.explicitAttr), ...kind.extraAttrs });
  const sizesOf = (s: WriteScope, n: SpecNode<unknown>, ins: string[], key: string, hint: string): string =>
    ins.length === 3 ? ((n.params as BackpropInputParams).sizesFrom === 'values' ? ins[2] : writeShapeOf(s, ins[2], n.inputs[2])) : s.ints(hint, (n.params as Record<string, number[]>)[key]);
  fam.fwd = {
    name: kind.ir,
    effect: 'pure',
    infer(ins, p) {
      checkArity(kind.op, ins, 2);
      checkFloat(kind, ins);
      return [{ dtype: 'float32', shape: convOutShape(kind, ins[0].shape, ins[1].shape, p) }];
    },
    impl: (k, [x, f], p) => [forwardImpl(kind, k, x, f, p)],
    vjp: (c, [x, f], _o, p, need) => [need[0] ? inputOf(c[0] as Tensor, f, x, p) : null, need[1] ? filterOf(x, c[0] as Tensor, f, p) : null],
    saves: 'inputs',
    tf: { ops: [tfFwd], write: (s, n, ins) => [s.add(tfFwd, tfFwd, ins, attrsOf(s, n, 0))], read: (r) => (r.arity(2), bind(fam.fwd as unknown as Primitive, [r.input(0), r.input(1)], readConvAttrs(r, kind.n, kind.defFormat))) },
  };
  fam.input = {
    name: `${kind.ir}_backprop_input`,
    effect: 'pure',
    infer(ins, p) {
      checkFloat(kind, ins);
      const shape = p.sizesFrom === 'values' ? sizedInputShape(kind, ins, p) : mergedShape(p.inputShape, ins[2]);
      const want = convOutShape(kind, shape, ins[1].shape, p);
      checkBackpropShape(kind, ins[0].shape, want, 'dy');
      return [{ dtype: 'float32', shape }];
    },
    // A null batch in inputShape (read from a stacked shape whose batch the graph computes) is dy's batch.
    impl: (k, [dy, f, like], p) => [inputImpl(kind, k, dy, f, like ? (p.sizesFrom === 'values' ? sizeValues(kind, like) : like.shape) : p.inputShape.map((d, i) => (i === 0 && d === null ? dy.shape[0] : d)) as number[], p)],
    vjp: (c, [dy, f, like], _o, p, need) => [need[0] ? fwdOf(c[0] as Tensor, f, p) : null, need[1] ? filterOf(c[0] as Tensor, dy, f, p) : null, ...(like ? [null] : [])],
    saves: 'inputs',
    tf: { ops: [tfIn], write: (s, n, ins) => [s.add(tfIn, tfIn, [sizesOf(s, n, ins, 'inputShape', 'input_sizes'), ins[1], ins[0]], { ...attrsOf(s, n, 0), ...(kind.n === 3 ? { Tshape: attr.type('int32') } : {}) })], read: (r) => readBackprop(r, kind, fam.input, 'input') },
  };
  fam.filter = {
    name: `${kind.ir}_backprop_filter`,
    effect: 'pure',
    infer(ins, p) {
      checkDTypes(kind.op, ins[0], ['float32'], 'input');
      checkDTypes(kind.op, ins[1], ['float32'], 'dy');
      const shape = mergedShape(p.filterShape, ins[2]);
      checkBackpropShape(kind, ins[1].shape, convOutShape(kind, ins[0].shape, shape, p), 'dy');
      return [{ dtype: 'float32', shape }];
    },
    impl: (k, [x, dy, like], p) => [filterImpl(kind, k, x, dy, like ? like.shape : (p.filterShape as number[]), p)],
    vjp: (c, [x, dy, like], _o, p, need) => [need[0] ? inputOf(dy, c[0] as Tensor, x, p) : null, need[1] ? fwdOf(x, c[0] as Tensor, p) : null, ...(like ? [null] : [])],
    saves: 'inputs',
    tf: { ops: [tfF], write: (s, n, ins) => [s.add(tfF, tfF, [ins[0], sizesOf(s, n, ins, 'filterShape', 'filter_sizes'), ins[1]], attrsOf(s, n, 0))], read: (r) => readBackprop(r, kind, fam.filter, 'filter') },
  };
  return fam as unknown as ConvFamily<I>;
}

/** The dims an input backprop knows when its sizes are a run-time tensor: dy's batch and the filter's input channels. */
function sizedInputShape(kind: ConvKind, ins: AVal[], p: BackpropInputParams): Dims {
  const r = kind.n + 2;
  const v = ins[2];
  checkDTypes(kind.op, v, ['int32'], 'input_sizes');
  if (v.shape !== null && (v.shape.length !== 1 || (v.shape[0] !== null && v.shape[0] !== r))) {
    throw argError(kind.op, `input_sizes must be a vector of ${r} sizes`, `shape ${dimsToString(v.shape)}`, `[${r}]`, `Pass the full ${p.dataFormat} input shape.`);
  }
  const out: (number | null)[] = p.inputShape.length === r ? [...p.inputShape] : new Array<number | null>(r).fill(null);
  out[0] ??= ins[0].shape?.[0] ?? null;
  const ca = channelAxis(p.dataFormat, r);
  out[ca] ??= ins[1].shape?.[kind.n] ?? null;
  return out;
}

/** TF's input_sizes read when the op runs (checked: n + 2 non-negative sizes). */
function sizeValues(kind: ConvKind, v: Info): number[] {
  const sizes = Array.from(intValues(v));
  const r = kind.n + 2;
  if (v.shape.length !== 1 || sizes.length !== r || sizes.some((d) => d < 0)) {
    throw argError(kind.op, `input_sizes must be ${r} non-negative sizes`, `[${sizes.join(', ')}] (shape [${v.shape.join(', ')}])`, `${r} sizes >= 0`, 'Fix the sizes the graph computes.');
  }
  return sizes;
}

function checkBackpropShape(kind: ConvKind, got: Dims, want: Dims, what: string): void {
  if (got === null || want === null) return;
  const bad = got.length !== want.length || got.some((d, i) => d !== null && want[i] !== null && d !== want[i]);
  if (bad) {
    throw argError(kind.op, `${what} does not match the conv's output shape`, `[${got.map((d) => d ?? '?').join(', ')}]`, `[${want.map((d) => d ?? '?').join(', ')}]`, 'Check outputShape, strides and padding.');
  }
}

/** Reads a backprop node: sizes as a Const, or Shape(t) (then t is the run-time shape source). */
/**
 * Input sizes stacked from scalars where only the batch is computed (Keras Conv2DTranspose on an unknown
 * batch: Pack(StridedSlice(Shape(x)), h, w, c)): [null, h, w, c], the batch taken from dy when it runs.
 */
function stackedBatchSizes(r: ReadScope, k: number): (number | null)[] | null {
  const pack = r.producer(k);
  if (pack === undefined || pack.op !== 'Pack' || pack.inputs.length < 3) return null;
  const parts = pack.inputs.map((ref) => r.tensorOf(ref, `node '${pack.name}'`));
  if (parts.some((t, i) => t.rank !== 0 || (i > 0 && t.isSymbolic))) return null;
  return parts.map((t, i) => (i === 0 && t.isSymbolic ? null : Number((t.dataSync() as ArrayLike<number>)[0])));
}

function readBackprop(r: ReadScope, kind: ConvKind, rec: Primitive<BackpropInputParams> | Primitive<BackpropFilterParams>, which: 'input' | 'filter'): Tensor[] {
  r.arity(3);
  const conv = readConvAttrs(r, kind.n, kind.defFormat);
  const k = which === 'input' ? 0 : 1;
  const src = r.producer(k);
  const like = [tensorOfShapeNode(r, src)].filter((t): t is Tensor => t !== null);
  // Input sizes the graph computes (not a Const, Shape(t) or a stack with only the batch computed): a run-time input.
  let known: number[] | null = null;
  if (which === 'input' && !like.length && src?.op !== 'Const' && stackedBatchSizes(r, k) === null) {
    const sizes = r.input(k);
    if (sizes.isSymbolic) return bind(rec as unknown as Primitive, [r.input(2), r.input(1), sizes], { ...conv, inputShape: [], sizesFrom: 'values' });
    known = Array.from(sizes.dataSync() as ArrayLike<number>, Number);
  }
  const dims = like.length ? (like[0].dims ?? []).map((d) => d) : known ?? (which === 'input' ? stackedBatchSizes(r, k) : null) ?? r.numbers(k, `the ${which} sizes`);
  if (!like.length) r.checkSize(dims.map((d) => d ?? 1));
  const key = which === 'input' ? 'inputShape' : 'filterShape';
  const ins = which === 'input' ? [r.input(2), r.input(1)] : [r.input(0), r.input(2)];
  return bind(rec as unknown as Primitive, [...ins, ...like], { ...conv, [key]: dims });
}

