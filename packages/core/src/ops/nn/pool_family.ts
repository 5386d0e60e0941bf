// The pool record factory: avg/max pool with their gradient records (avg grad -> avg pool; max grad <-> max grad-grad), 2-D and 3-D.
import type { Info, Kernels } from '../../backend/backend';
import { activeBackendName, isHostBackend, readInfoSync } from '../../backend/backend';
import type { AVal, Primitive } from '../primitive';
import type { OpRecord } from '../define_op';
import { Dims, dimsToString } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { bind } from '../bind';
import { Attrs, ReadScope, SpecNode, WriteScope, attr, typeAttrOf } from '../graphdef_spec';
import { tensorOfShapeNode, writeShapeOf } from '../array/reshape';
import { argError, checkArity, checkDTypes } from '../check';
import { withScratch } from '../kernel_util';
import { FLOAT32_MAX } from '../../values/dtype';
import { channelsLast, checkWindowList, fullList, lastShape, outSize, shapeSource, spatialAxes } from './conv_util';
import { argmaxOrFirst, padBefore, tapsToArgmax } from './argmax_taps';
import { samePads } from './padding';

export interface PoolParams {
  readonly ksize: readonly number[];
  readonly strides: readonly number[];
  readonly padding: 'SAME' | 'VALID';
  readonly dataFormat: string;
}
export interface PoolGradParams extends PoolParams {
  readonly inputShape: readonly (number | null)[];
}

export interface PoolKind<S extends string = string> {
  readonly n: number;
  /** IR suffix ('' for 2-D, '3d') and public names for errors. */
  readonly suffix: S;
  readonly avgOp: string;
  readonly maxOp: string;
  /** tfjs kernels and TF ops: [avg, avgGrad, max, maxGrad]. */
  readonly kernels: readonly [string, string, string, string];
  readonly tf: readonly [string, string, string, string];
  /** TF's MaxPoolGradGrad / MaxPool3DGradGrad op. */
  readonly gradGrad: string;
  readonly defFormat: string;
}

const poolOnly = (p: PoolParams): PoolParams => ({ ksize: p.ksize, strides: p.strides, padding: p.padding, dataFormat: p.dataFormat });

/** The pooled shape (channels kept). */
export function poolShape(op: string, n: number, x: Dims, p: PoolParams): Dims {
  if (x === null) return null;
  if (x.length !== n + 2) throw argError(op, `input must be rank ${n + 2}`, `shape [${x.map((d) => d ?? '?').join(', ')}]`, `rank ${n + 2}`, `Pass a batch of ${p.dataFormat} inputs.`);
  const out: (number | null)[] = x.slice();
  const axes = spatialAxes(p.dataFormat, n);
  for (let i = 0; i < n; i++) {
    // A VALID window larger than the input gives an empty output, like TensorFlow (not an error).
    out[axes[i]] = outSize(x[axes[i]], p.ksize[i], p.strides[i], 1, p.padding, i);
  }
  return out;
}

/** A pool gradient's dy (or pooled output) must have the pooled shape of the input (TF checks it; tfjs reads out of range). */
function checkPooledLike(op: string, n: number, input: Dims, got: Dims, what: string, p: PoolParams): void {
  const want = poolShape(op, n, input, p);
  if (want === null || got === null) return;
  if (want.length !== got.length || want.some((d, i) => d !== null && got[i] !== null && d !== got[i])) {
    throw argError(op, `${what} does not have the pooled shape of the input`, dimsToString(got), dimsToString(want), `Pass the gradient of the pool's output (shape ${dimsToString(want)}).`);
  }
}

/** The empty result of a pool whose output has a 0 dim (tfjs kernels fail on it), else null. */
function emptyPool(k: Kernels, op: string, n: number, x: Info, p: PoolParams): Info | null {
  const shape = poolShape(op, n, x.shape, p) as number[];
  return shape.indexOf(0) !== -1 ? (k.run('Fill', {}, { shape, value: 0, dtype: 'float32' }) as Info) : null;
}

const kattrs = (p: PoolParams): Record<string, unknown> => ({ filterSize: [...p.ksize], strides: [...p.strides], pad: p.padding.toLowerCase(), dimRoundingMode: undefined });

/** Valid (unpadded) taps of each output position along one dim. */
function validCounts(inp: number, k: number, s: number, out: number, same: boolean): number[] {
  const before = padBefore(inp, k, s, out, same);
  return Array.from({ length: out }, (_, o) => Math.min(o * s - before + k, inp) - Math.max(o * s - before, 0));
}

/**
 * tfjs's AvgPoolGrad divides by the whole window even where SAME padding cut it (its forward divides
 * by the valid taps, like TF): rescale dy by window / valid taps first so the pair is consistent.
 */
function rescaleSame(k: Kernels, dy: Info, inShape: number[], p: PoolParams): Info | null {
  if (p.padding !== 'SAME') return null;
  const n = p.ksize.length;
  const counts = p.ksize.map((kk, i) => validCounts(inShape[i + 1], kk, p.strides[i], dy.shape[i + 1], true));
  const size = counts.reduce((a, c) => a * c.length, 1);
  const window = p.ksize.reduce((a, b) => a * b, 1);
  const f = new Float32Array(size);
  for (let flat = 0; flat < size; flat++) {
    let r = flat;
    let v = 1;
    for (let i = n - 1; i >= 0; i--) {
      v *= counts[i][r % counts[i].length];
      r = Math.floor(r / counts[i].length);
    }
    f[flat] = window / v;
  }
  const fac = k.upload(f, [1, ...counts.map((c) => c.length), 1], 'float32');
  const out = k.run('Multiply', { a: dy, b: fac }) as Info;
  k.free(fac);
  return out;
}

function avgGradImpl(kind: PoolKind, k: Kernels, dy: Info, shape: number[], p: PoolParams): Info {
  return channelsLast(k, p.dataFormat, [dy], ([dyl]) => {
    const inShape = lastShape(shape, p.dataFormat);
    const scaled = rescaleSame(k, dyl, inShape, p);
    const src = scaled ?? dyl;
    // The kernel reads only the input's shape (and dtype): pass dy's value with that shape.
    const out = k.run(kind.kernels[1], { dy: src, input: { ...src, shape: inShape } }, kattrs(p)) as Info;
    if (scaled !== null) k.free(scaled);
    return out;
  });
}

/** MaxPoolGradGrad: the cotangent of the input at each window's (first) argmax. */
function gradGradImpl(k: Kernels, x: Info, gg: Info, p: PoolParams): Info {
  return channelsLast(k, p.dataFormat, [x, gg], ([xl, ggl]) => {
    const [pooled, found] = k.run('MaxPoolWithArgmax', { x: xl }, { ...kattrs(p), includeBatchInIndex: true }) as Info[];
    const idx = argmaxOrFirst(k, xl, found, p.ksize, p.strides, p.padding);
    const flat = k.run('Reshape', { x: ggl }, { shape: [-1] }) as Info;
    const picked = k.run('GatherV2', { x: flat, indices: idx }, { axis: 0, batchDims: 0 }) as Info;
    for (const t of new Set([pooled, found, idx, flat])) k.free(t);
    return picked;
  });
}

/** MaxPoolGrad as TF defines it: dy summed into the (first) argmax of each window (on webgl without ScatterNd: argmax_taps.ts). */
function scatterToArgmax(k: Kernels, x: Info, dy: Info, p: PoolParams): Info {
  return channelsLast(k, p.dataFormat, [x, dy], ([xl, dyl]) => {
    const [pooled, found] = k.run('MaxPoolWithArgmax', { x: xl }, { ...kattrs(p), includeBatchInIndex: true }) as Info[];
    const idx = argmaxOrFirst(k, xl, found, p.ksize, p.strides, p.padding);
    if (found !== idx) k.free(found);
    if (activeBackendName() === 'webgl') {
      const out = tapsToArgmax(k, xl, dyl, idx, p.ksize, p.strides, p.padding);
      for (const t of [pooled, idx]) k.free(t);
      return out;
    }
    const size = xl.shape.reduce((a, b) => a * b, 1);
    const flatDy = k.run('Reshape', { x: dyl }, { shape: [-1] }) as Info;
    const flatIdx = k.run('Reshape', { x: idx }, { shape: [-1, 1] }) as Info;
    // ScatterNd sums duplicate indices in one pass (tfjs's cpu UnsortedSegmentSum is O(elements x segments)).
    const summed = k.run('ScatterNd', { indices: flatIdx, updates: flatDy }, { shape: [size] }) as Info;
    const out = k.run('Reshape', { x: summed }, { shape: xl.shape }) as Info;
    for (const t of [pooled, idx, flatDy, flatIdx, summed]) k.free(t);
    return out;
  });
}

/** A kernel runner that remembers every intermediate, to free them together. */
function tracker(k: Kernels): { run: (name: string, ins: Record<string, Info>, attrs?: Record<string, unknown>) => Info; free: () => void } {
  const temps: Info[] = [];
  return {
    run: (name, ins, attrs) => {
      const r = k.run(name, ins, attrs) as Info;
      temps.push(r);
      return r;
    },
    free: () => temps.forEach((t) => k.free(t)),
  };
}

const slice4 = (begin: number[], end: number[], strides: number[]) => ({ begin, end, strides, beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0 });

/**
 * MaxPool3DGradGrad without an argmax kernel: walks the window taps in order and takes gg where a tap
 * first equals the pooled max (TF's first-argmax rule). Every kernel sees rank-4 views (webgl's
 * shaders fail to compile for some rank-5 pads and slices).
 */
function tapsGradGrad(k: Kernels, x: Info, y: Info, gg: Info, p: PoolParams): Info {
  return channelsLast(k, p.dataFormat, [x, y, gg], ([xl, yl, gl]) => {
    const t = tracker(k);
    const [N, D, H, W, C] = xl.shape;
    const [Od, Oh, Ow] = yl.shape.slice(1, 4);
    const [s0, s1, s2] = p.strides;
    const pads = p.ksize.map((kk, i) => (p.padding === 'SAME' ? samePads(xl.shape[i + 1], kk, p.strides[i], 1, [Od, Oh, Ow][i]) : [0, 0]));
    const [Dp, Hp, Wp] = [D + pads[0][0] + pads[0][1], H + pads[1][0] + pads[1][1], W + pads[2][0] + pads[2][1]];
    // Pad D on [N, D, H·W, C], then H and W on [N·Dp, H, W, C].
    const pad = (v: Info, value: number): Info => {
      const a = t.run('PadV2', { x: t.run('Reshape', { x: v }, { shape: [N, D, H * W, C] }) }, { paddings: [[0, 0], pads[0], [0, 0], [0, 0]], constantValue: value });
      return t.run('PadV2', { x: t.run('Reshape', { x: a }, { shape: [N * Dp, H, W, C] }) }, { paddings: [[0, 0], pads[1], pads[2], [0, 0]], constantValue: value });
    };
    // Tap (a, b, c) of every window: stride through D on [N, Dp, Hp·Wp, C], then H and W on [N·Od, Hp, Wp, C].
    const view = (v: Info, a: number, b: number, c: number): Info => {
      const d = t.run('StridedSlice', { x: t.run('Reshape', { x: v }, { shape: [N, Dp, Hp * Wp, C] }) }, slice4([0, a, 0, 0], [N, a + (Od - 1) * s0 + 1, Hp * Wp, C], [1, s0, 1, 1]));
      return t.run('StridedSlice', { x: t.run('Reshape', { x: d }, { shape: [N * Od, Hp, Wp, C] }) }, slice4([0, b, c, 0], [N * Od, b + (Oh - 1) * s1 + 1, c + (Ow - 1) * s2 + 1, C], [1, s1, s2, 1]));
    };
    const [xp, gp] = [pad(xl, -Infinity), pad(gl, 0)];
    const y4 = t.run('Reshape', { x: yl }, { shape: [N * Od, Oh, Ow, C] });
    let acc = t.run('ZerosLike', { x: y4 });
    let found = t.run('Cast', { x: acc }, { dtype: 'bool' });
    const [k0, k1, k2] = p.ksize;
    for (let a = 0; a < k0; a++) {
      for (let b = 0; b < k1; b++) {
        for (let c = 0; c < k2; c++) {
          const hit = t.run('LogicalAnd', { a: t.run('Equal', { a: view(xp, a, b, c), b: y4 }), b: t.run('LogicalNot', { x: found }) });
          acc = t.run('Select', { condition: hit, t: view(gp, a, b, c), e: acc });
          found = t.run('LogicalOr', { a: found, b: hit });
        }
      }
    }
    const result = k.run('Reshape', { x: acc }, { shape: [N, Od, Oh, Ow, C] }) as Info;
    t.free();
    return result;
  });
}

/** A pool kind's five records, named after its IR suffix `S` ('' or '3d'). */
export interface PoolFamily<S extends string = string> {
  readonly avg: OpRecord<`avg_pool${S}`, PoolParams>;
  readonly avgGrad: OpRecord<`avg_pool${S}_grad`, PoolGradParams>;
  readonly max: OpRecord<`max_pool${S}`, PoolParams>;
  readonly maxGrad: OpRecord<`max_pool${S}_grad`, PoolParams>;
  readonly maxGradGrad: OpRecord<`max_pool${S}_grad_grad`, PoolParams>;
}

const floatIn = (op: string, ins: AVal[], n: number): void => {
  checkArity(op, ins, n);
  ins.forEach((x, i) => checkDTypes(op, x, ['float32'], i === 0 ? 'input' : `input ${i}`));
};

/** TF attrs of a pool node. */
function poolAttrs(s: WriteScope, n: SpecNode<unknown>, i: number): Attrs {
  const p = n.params as PoolParams;
  return { T: typeAttrOf(s, n.inputs[i]), ksize: attr.ints(fullList(p.ksize, p.dataFormat)), strides: attr.ints(fullList(p.strides, p.dataFormat)), padding: attr.str(p.padding), data_format: attr.str(p.dataFormat) };
}

/** Reads ksize/strides/padding/data_format of a pool node. */
export function readPoolAttrs(r: ReadScope, n: number, defFormat: string): PoolParams {
  const fmt = r.node.str('data_format', defFormat);
  const pick = (key: string): number[] => {
    const l = r.node.ints(key);
    if (l.length !== n + 2) throw r.error(`${key} has the wrong length`, `[${l.join(', ')}]`, `${n + 2} values`, 'Fix the node attrs');
    checkWindowList(r, key, l, n, fmt);
    return spatialAxes(fmt, n).map((a) => l[a]);
  };
  const padding = r.node.str('padding', 'VALID');
  if (padding !== 'SAME' && padding !== 'VALID') throw r.error('unsupported padding', `'${padding}'`, "'SAME' or 'VALID'", 'Fix the node attrs');
  return { ksize: pick('ksize'), strides: pick('strides'), padding, dataFormat: fmt };
}

/**
 * TF's max pool starts each window from the lowest finite float and skips NaN: a window of -inf and NaN alone gives
 * -3.4028235e38, where tfjs's kernels give -inf. The pooled values floored at that float (every other value is above).
 */
function atLeastLowest(k: Kernels, y: Info): Info {
  if (isHostBackend()) {
    // On the host the values are at hand: most pools have no such window, and then cost one scan (no kernel).
    const v = readInfoSync(y) as Float32Array;
    let low = false;
    for (let i = 0; i < v.length && !low; i++) low = v[i] === -Infinity;
    if (!low) return y;
  }
  try {
    return withScratch(k, (s) => s.run('Maximum', { a: y, b: s.scalar(-FLOAT32_MAX) }));
  } finally {
    k.free(y);
  }
}

/** Builds the avg/max pool records of one rank. */
export function poolFamily<const S extends string>(kind: PoolKind<S>): PoolFamily<S> {
  const fam = {} as { avg: Primitive<PoolParams>; avgGrad: Primitive<PoolGradParams>; max: Primitive<PoolParams>; maxGrad: Primitive<PoolParams>; maxGradGrad: Primitive<PoolParams> };
  const b = (rec: object, ins: Tensor[], params: object): Tensor => bind(rec as Primitive, ins, params as Record<string, unknown>)[0];
  const [tfAvg, tfAvgGrad, tfMax, tfMaxGrad] = kind.tf;
  const run = (k: Kernels, which: number, ins: Info[], p: PoolParams, names: string[]): Info =>
    channelsLast(k, p.dataFormat, ins, (xs) => {
      const named: Record<string, Info> = {};
      for (let i = 0; i < names.length; i++) named[names[i]] = xs[i];
      return k.run(kind.kernels[which], named, kattrs(p)) as Info;
    });
  const rd = (r: ReadScope): PoolParams => readPoolAttrs(r, kind.n, kind.defFormat);
  fam.avg = {
    name: `avg_pool${kind.suffix}`,
    effect: 'pure',
    infer: (ins, p) => (floatIn(kind.avgOp, ins, 1), [{ dtype: 'float32', shape: poolShape(kind.avgOp, kind.n, ins[0].shape, p) }]),
    impl: (k, [x], p) => [emptyPool(k, kind.avgOp, kind.n, x, p) ?? run(k, 0, [x], p, ['x'])],
    vjp: (c, [x], _y, p) => {
      const s = shapeSource(x);
      return [b(fam.avgGrad, [c[0] as Tensor, ...s.like], { ...poolOnly(p), inputShape: s.dims })];
    },
    saves: 'inputs',
    tf: { ops: [tfAvg], write: (s, n, ins) => [s.add(tfAvg, tfAvg, ins, poolAttrs(s, n, 0))], read: (r) => (r.arity(1), [b(fam.avg, [r.input(0)], rd(r))]) },
  };
  fam.avgGrad = {
    name: `avg_pool${kind.suffix}_grad`,
    effect: 'pure',
    infer(ins, p) {
      checkDTypes(kind.avgOp, ins[0], ['float32'], 'dy');
      const like = ins[1]?.shape;
      const shape = like === undefined ? [...p.inputShape] : like === null ? null : like.map((d, i) => d ?? p.inputShape[i] ?? null);
      checkPooledLike(kind.avgOp, kind.n, shape, ins[0].shape, 'dy', p);
      return [{ dtype: 'float32', shape }];
    },
    impl: (k, [dy, like], p) => [avgGradImpl(kind, k, dy, like ? like.shape : (p.inputShape as number[]), p)],
    vjp: (c, [, like], _y, p) => [b(fam.avg, [c[0] as Tensor], poolOnly(p)), ...(like ? [null] : [])],
    saves: 'none',
    tf: {
      ops: [tfAvgGrad],
      write: (s, n, ins) => [s.add(tfAvgGrad, tfAvgGrad, [ins.length === 2 ? writeShapeOf(s, ins[1], n.inputs[1]) : s.ints('orig_input_shape', (n.params as PoolGradParams).inputShape as number[]), ins[0]], poolAttrs(s, n, 0))],
      read(r) {
        r.arity(2);
        const src = r.producer(0);
        const like = [tensorOfShapeNode(r, src)].filter((t): t is Tensor => t !== null);
        const dims = like.length ? [...(like[0].dims ?? [])] : r.numbers(0, 'the input shape');
        return [b(fam.avgGrad, [r.input(1), ...like], { ...rd(r), inputShape: dims })];
      },
    },
  };
  fam.max = {
    name: `max_pool${kind.suffix}`,
    effect: 'pure',
    infer: (ins, p) => (floatIn(kind.maxOp, ins, 1), [{ dtype: 'float32', shape: poolShape(kind.maxOp, kind.n, ins[0].shape, p) }]),
    impl: (k, [x], p) => [emptyPool(k, kind.maxOp, kind.n, x, p) ?? atLeastLowest(k, run(k, 2, [x], p, ['x']))],
    vjp: (c, [x], [y], p) => [b(fam.maxGrad, [x, y, c[0] as Tensor], poolOnly(p))],
    saves: 'both',
    tf: { ops: [tfMax], write: (s, n, ins) => [s.add(tfMax, tfMax, ins, poolAttrs(s, n, 0))], read: (r) => (r.arity(1), [b(fam.max, [r.input(0)], rd(r))]) },
  };
  const threeIn = (op: string) => (s: WriteScope, n: SpecNode<unknown>, ins: string[]) => [s.add(op, op, ins, { ...poolAttrs(s, n, 0), ...(kind.n === 3 ? { TInput: typeAttrOf(s, n.inputs[0]) } : {}) })];
  fam.maxGrad = {
    name: `max_pool${kind.suffix}_grad`,
    effect: 'pure',
    infer(ins, p) {
      floatIn(kind.maxOp, ins, 3);
      checkPooledLike(kind.maxOp, kind.n, ins[0].shape, ins[1].shape, 'the pooled output', p);
      checkPooledLike(kind.maxOp, kind.n, ins[0].shape, ins[2].shape, 'dy', p);
      return [{ dtype: 'float32', shape: ins[0].shape }];
    },
    // 2-D: scatter dy to each window's first argmax (tfjs's MaxPoolGrad picks other positions for overlapping SAME windows).
    impl: (k, [x, y, dy], p) => [kind.n === 3 ? run(k, 3, [dy, x, y], p, ['dy', 'input', 'output']) : scatterToArgmax(k, x, dy, p)],
    // TF: MaxPoolGrad's gradient is MaxPoolGradGrad for the cotangent, zeros for the pool's input and output.
    vjp: (c, [x, y], _o, p) => [null, null, b(fam.maxGradGrad, [x, y, c[0] as Tensor], poolOnly(p))],
    saves: 'inputs',
    tf: { ops: [tfMaxGrad], write: threeIn(tfMaxGrad), read: (r) => (r.arity(3), [b(fam.maxGrad, r.inputs(), rd(r))]) },
  };
  const gg = kind.gradGrad;
  fam.maxGradGrad = {
    name: `max_pool${kind.suffix}_grad_grad`,
    effect: 'pure',
    infer: (ins, p) => (floatIn(kind.maxOp, ins, 3), [{ dtype: 'float32', shape: poolShape(kind.maxOp, kind.n, ins[0].shape, p) }]),
    impl: (k, [x, y, g], p) => [kind.n === 2 ? gradGradImpl(k, x, g, p) : tapsGradGrad(k, x, y, g, p)],
    vjp: (c, [x, y], _o, p) => [null, null, b(fam.maxGrad, [x, y, c[0] as Tensor], poolOnly(p))],
    saves: 'inputs',
    tf: { ops: [gg], write: threeIn(gg), read: (r) => (r.arity(3), [b(fam.maxGradGrad, r.inputs(), rd(r))]) },
  };
  return fam as unknown as PoolFamily<S>;
}

