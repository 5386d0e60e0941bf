// tf.nn layout records (tfjs-converter category "transformation"): depthToSpace/spaceToDepth and spaceToBatchNd/batchToSpaceNd, each the other's gradient.
import type { Info, Kernels } from '../../backend/backend';
import { OpRecord, defineOp } from '../define_op';
import type { AVal, Primitive } from '../primitive';
import type { Dims } from '../../values/shape';
import { Tensor } from '../../values/tensor';
import { TensorLike, convert, release } from '../../values/convert';
import { api, arg } from '../api_spec';
import { ReadScope, SpecNode, TfCodec, WriteScope, attr, tfSpec } from '../graphdef_spec';
import { bind } from '../bind';
import { describe, showValue } from '../../values/dtype';
import { ALL, argError, checkArity, checkDTypes } from '../check';
import { channelsLast, formatArg } from './conv_util';
import { intValues } from '../kernel_util';
import { dimsToString } from '../../values/shape';

export interface BlockParams {
  readonly blockSize: number;
  readonly dataFormat: string;
}

const blockArg = arg.custom('blockSize', (op, v) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 2) throw argError(op, 'blockSize must be an integer >= 2', describe(v), 'an integer >= 2', 'Pass e.g. 2.');
  return v;
});
const fmtArg = arg.custom('dataFormat', formatArg(['NHWC', 'NCHW']), 'NHWC');

/** [N, H, W, C] of a rank-4 shape in `fmt` (checked). */
function nhwc(op: string, s: Dims, fmt: string): (number | null)[] | null {
  if (s === null) return null;
  if (s.length !== 4) throw argError(op, 'input must be rank 4', `shape [${s.join(', ')}]`, 'rank 4', `Pass a batch of ${fmt} images.`);
  return fmt === 'NCHW' ? [s[0], s[2], s[3], s[1]] : [...s];
}
const back = (d: (number | null)[], fmt: string): (number | null)[] => (fmt === 'NCHW' ? [d[0], d[3], d[1], d[2]] : d);
const mul = (a: number | null, b: number): number | null => (a === null ? null : a * b);

function d2sShape(op: string, s: Dims, p: BlockParams): Dims {
  const d = nhwc(op, s, p.dataFormat);
  if (d === null) return null;
  const b2 = p.blockSize * p.blockSize;
  if (d[3] !== null && d[3] % b2 !== 0) throw argError(op, 'channels must be divisible by blockSize²', `${d[3]} channels for blockSize ${p.blockSize}`, `a multiple of ${b2}`, 'Fix blockSize or the channels.');
  return back([d[0], mul(d[1], p.blockSize), mul(d[2], p.blockSize), d[3] === null ? null : d[3] / b2], p.dataFormat);
}

function s2dShape(op: string, s: Dims, p: BlockParams): Dims {
  const d = nhwc(op, s, p.dataFormat);
  if (d === null) return null;
  for (const v of [d[1], d[2]]) {
    if (v !== null && v % p.blockSize !== 0) throw argError(op, 'height and width must be divisible by blockSize', `[${d[1]}, ${d[2]}] for blockSize ${p.blockSize}`, `multiples of ${p.blockSize}`, 'Pad or crop the images first.');
  }
  return back([d[0], d[1] === null ? null : d[1] / p.blockSize, d[2] === null ? null : d[2] / p.blockSize, mul(d[3], p.blockSize * p.blockSize)], p.dataFormat);
}

/** SpaceToDepth with kernels (tfjs has none): [N, H/b, b, W/b, b, C] -> swap the inner pair -> [N, H/b, W/b, b·b·C]. */
function s2dKernel(k: Kernels, x: Info, b: number): Info {
  const [n, h, w, c] = x.shape;
  const r1 = k.run('Reshape', { x }, { shape: [n, h / b, b, w / b, b, c] }) as Info;
  const t = k.run('Transpose', { x: r1 }, { perm: [0, 1, 3, 2, 4, 5] }) as Info;
  const out = k.run('Reshape', { x: t }, { shape: [n, h / b, w / b, b * b * c] }) as Info;
  k.free(r1);
  k.free(t);
  return out;
}

const blockTf = (op: string) => tfSpec<BlockParams>({ op, attrs: { T: { dtypeOf: 0 }, block_size: { param: 'blockSize', kind: 'int' }, data_format: { param: 'dataFormat', kind: 'str', default: 'NHWC' } } });

/** depthToSpace(input, blockSize, {dataFormat}): TF's DCR layout. */
export const depthToSpace: OpRecord<'depth_to_space', BlockParams, ReturnType<typeof d2sApi>> = defineOp({
  name: 'depth_to_space',
  infer: (ins: AVal[], p: BlockParams) => (checkArity('depthToSpace', ins, 1), checkDTypes('depthToSpace', ins[0], ['float32', 'int32']), [{ dtype: ins[0].dtype, shape: d2sShape('depthToSpace', ins[0].shape, p) }]),
  impl: (k, [x], p: BlockParams) => (d2sShape('depthToSpace', x.shape, p), [channelsLast(k, p.dataFormat, [x], ([xl]) => k.run('DepthToSpace', { x: xl }, { blockSize: p.blockSize, dataFormat: 'NHWC' }) as Info)]),
  vjp: (c, _x, _y, p: BlockParams) => [bind(spaceToDepth as unknown as Primitive, [c[0] as Tensor], p)[0]],
  saves: 'none',
  api: d2sApi(),
  tf: blockTf('DepthToSpace'),
});
function d2sApi() {
  return api(['nn.depthToSpace'], [arg.tensor('input'), blockArg], [fmtArg]);
}

/** spaceToDepth(input, blockSize, {dataFormat}): the inverse of depthToSpace. */
export const spaceToDepth: OpRecord<'space_to_depth', BlockParams, ReturnType<typeof s2dApi>> = defineOp({
  name: 'space_to_depth',
  infer: (ins: AVal[], p: BlockParams) => (checkArity('spaceToDepth', ins, 1), checkDTypes('spaceToDepth', ins[0], ['float32', 'int32']), [{ dtype: ins[0].dtype, shape: s2dShape('spaceToDepth', ins[0].shape, p) }]),
  impl: (k, [x], p: BlockParams) => (s2dShape('spaceToDepth', x.shape, p), [channelsLast(k, p.dataFormat, [x], ([xl]) => s2dKernel(k, xl, p.blockSize))]),
  vjp: (c, _x, _y, p: BlockParams) => [bind(depthToSpace as unknown as Primitive, [c[0] as Tensor], p)[0]],
  saves: 'none',
  api: s2dApi(),
  tf: blockTf('SpaceToDepth'),
});
function s2dApi() {
  return api(['nn.spaceToDepth'], [arg.tensor('input'), blockArg], [fmtArg]);
}

export interface SpaceBatchParams {
  readonly blockShape: readonly number[];
  readonly pairs: readonly (readonly [number, number])[];
  /**
   * 'values': the paddings (crops) are the second input, an int32 [m, 2] tensor read when the op runs (TF computes
   * them from the input's run-time shape for dilated convs on unknown spatial dims); `pairs` is then empty.
   */
  readonly pairsFrom?: 'values';
}

const pairsArg = (what: string) => (op: string, v: unknown): [number, number][] => {
  if (!Array.isArray(v) || v.some((p) => !Array.isArray(p) || p.length !== 2 || p.some((d) => !Number.isInteger(d) || d < 0))) {
    throw argError(op, `${what} must be [before, after] pairs of non-negative integers`, showValue(v), `one pair per block dim, e.g. [[0, 0], [1, 1]]`, `Pass ${what} as TensorFlow does.`);
  }
  return v as [number, number][];
};
/** The public argument: pairs, or an int32 [m, 2] tensor of them (the `dynamic` form reads it; the check sees arrays only). */
const pairsParam = (what: string) => pairsArg(what) as (op: string, v: unknown) => [number, number][] | Tensor;
const blockShapeOf = (op: string, v: unknown): number[] => {
  if (!Array.isArray(v) || v.length === 0 || v.some((d) => !Number.isInteger(d) || d < 1)) throw argError(op, 'blockShape must list positive integers', showValue(v), 'e.g. [2, 2]', 'Pass one block size per spatial dim.');
  return v as number[];
};
const blockShapeArg = arg.custom('blockShape', blockShapeOf);

/** The two records by direction (set below their definitions: their API specs refer to them). */
const PAIR_RECORDS = {} as { s2b: Primitive; b2s: Primitive };

/** spaceToBatchNd / batchToSpaceNd with the paddings (crops) an int32 [m, 2] tensor: read when the op runs. */
const byPairsTensor = (which: 's2b' | 'b2s') => (op: string, args: readonly unknown[]): Tensor | undefined => {
  const [x, block, pairs] = args;
  if (!(pairs instanceof Tensor) || args.length > 3) return undefined;
  const blockShape = blockShapeOf(op, block);
  const c = convert(op, x as TensorLike);
  try {
    return bind(PAIR_RECORDS[which], [c.t, pairs], { blockShape, pairs: [], pairsFrom: 'values' })[0];
  } finally {
    release(c);
  }
};

/** The shape of spaceToBatchNd (toBatch) or batchToSpaceNd (from batch). */
function spaceBatchShape(op: string, s: Dims, p: SpaceBatchParams, toBatch: boolean): Dims {
  const m = p.blockShape.length;
  if (p.pairsFrom === 'values') return spaceBatchShapeOfBatch(op, s, p, toBatch);
  if (p.pairs.length !== m) throw argError(op, `${toBatch ? 'paddings' : 'crops'} must have one pair per block dim`, `${p.pairs.length} pairs`, `${m} pairs`, 'Match blockShape.');
  if (s === null) return null;
  if (s.length < m + 1) throw argError(op, 'input rank is too small for blockShape', `shape [${s.join(', ')}]`, `rank >= ${m + 1}`, 'Check blockShape.');
  const prod = p.blockShape.reduce((a, b) => a * b, 1);
  const out = [...s];
  if (toBatch) {
    out[0] = mul(s[0], prod);
  } else {
    if (s[0] !== null && s[0] % prod !== 0) throw argError(op, 'batch must be divisible by the product of blockShape', `batch ${s[0]}`, `a multiple of ${prod}`, 'Check blockShape.');
    out[0] = s[0] === null ? null : s[0] / prod;
  }
  p.blockShape.forEach((b, i) => {
    const d = s[i + 1];
    const [a, c] = p.pairs[i];
    if (d === null) return void (out[i + 1] = null);
    if (toBatch && (d + a + c) % b !== 0) throw argError(op, 'padded spatial size must be divisible by the block', `size ${d} + paddings [${a}, ${c}] in dim ${i + 1} for block ${b}`, `a multiple of ${b}`, 'Fix paddings.');
    out[i + 1] = toBatch ? (d + a + c) / b : d * b - a - c;
    if ((out[i + 1] as number) < 0) throw argError(op, 'crops exceed the spatial size', `size ${d * b} cropped by [${a}, ${c}]`, `crops <= ${d * b}`, 'Fix crops.');
  });
  return out;
}

/** The shape when the pairs are a run-time tensor: the batch (from the static block), spatial dims unknown. */
function spaceBatchShapeOfBatch(op: string, s: Dims, p: SpaceBatchParams, toBatch: boolean): Dims {
  const m = p.blockShape.length;
  if (s === null) return null;
  if (s.length < m + 1) throw argError(op, 'input rank is too small for blockShape', `shape [${s.join(', ')}]`, `rank >= ${m + 1}`, 'Check blockShape.');
  const prod = p.blockShape.reduce((a, b) => a * b, 1);
  if (!toBatch && s[0] !== null && s[0] % prod !== 0) throw argError(op, 'batch must be divisible by the product of blockShape', `batch ${s[0]}`, `a multiple of ${prod}`, 'Check blockShape.');
  return s.map((d, i) => (i === 0 ? (d === null ? null : toBatch ? d * prod : d / prod) : i <= m ? null : d));
}

/** Checks a run-time pairs input's aval: int32 [m, 2]. */
function checkPairsInput(op: string, v: AVal, p: SpaceBatchParams, what: string): void {
  checkDTypes(op, v, ['int32'], what);
  const m = p.blockShape.length;
  const s = v.shape;
  if (s !== null && (s.length !== 2 || (s[0] !== null && s[0] !== m) || (s[1] !== null && s[1] !== 2))) {
    throw argError(op, `${what} must be [${m}, 2]: one [before, after] pair per block dim`, `shape ${dimsToString(s)}`, `[${m}, 2]`, 'Match blockShape.');
  }
}

/** The params with the pairs read from a run-time input (checked by the shape rule before the kernel). */
function withPairs(op: string, p: SpaceBatchParams, v: Info | undefined): SpaceBatchParams {
  if (p.pairsFrom !== 'values' || v === undefined) return p;
  return { blockShape: p.blockShape, pairs: pairsArg(op === 'spaceToBatchNd' ? 'paddings' : 'crops')(op, pairsOf(Array.from(intValues(v)))) };
}

/**
 * SpaceToBatchND / BatchToSpaceND: Const paddings (crops) are params; computed ones (TF's dilated convs on unknown
 * spatial dims: required_space_to_batch_paddings of the run-time shape) are a tensor input read when the op runs.
 */
function spaceBatchTf(op: string, pairsName: string, rec: () => Primitive<SpaceBatchParams>): TfCodec {
  const what = pairsName === 'Tpaddings' ? 'paddings' : 'crops';
  return {
    ops: [op],
    write(s: WriteScope, n: SpecNode<unknown>, ins: string[]): string[] {
      const p = n.params as SpaceBatchParams;
      const pairs = p.pairsFrom === 'values' ? ins[1] : s.ints('pairs', p.pairs.flat(), [p.pairs.length, 2]);
      return [s.add(op, op, [ins[0], s.ints('blockShape', p.blockShape), pairs], { T: attr.type(s.dtype(n.inputs[0])), Tblock_shape: attr.type('int32'), [pairsName]: attr.type('int32') })];
    },
    read(r: ReadScope): Tensor[] {
      r.arity(3);
      const blockShape = r.numbers(1, 'the blockShape');
      if (r.producer(2)?.op !== 'Const') {
        const v = r.input(2);
        if (v.isSymbolic) return bind(rec() as unknown as Primitive, [r.input(0), v], { blockShape, pairs: [], pairsFrom: 'values' });
        return bind(rec() as unknown as Primitive, [r.input(0)], { blockShape, pairs: pairsOf(Array.from(v.dataSync() as ArrayLike<number>, Number)) });
      }
      return bind(rec() as unknown as Primitive, [r.input(0)], { blockShape, pairs: pairsOf(r.numbers(2, `the ${what}`)) });
    },
  };
}
const pairsOf = (v: readonly number[]): [number, number][] => Array.from({ length: v.length / 2 }, (_, i): [number, number] => [v[2 * i], v[2 * i + 1]]);

/** One data input, plus the pairs tensor when they are read at run time. */
function checkSpaceBatch(op: string, ins: AVal[], p: SpaceBatchParams): void {
  checkArity(op, ins, p.pairsFrom === 'values' ? 2 : 1);
  checkDTypes(op, ins[0], ALL.filter((d) => d !== 'string'));
  if (p.pairsFrom === 'values') checkPairsInput(op, ins[1], p, op === 'spaceToBatchNd' ? 'paddings' : 'crops');
}

/** spaceToBatchNd(input, blockShape, paddings) (TF's SpaceToBatchND). */
export const spaceToBatchNd: OpRecord<'space_to_batch_nd', SpaceBatchParams, ReturnType<typeof s2bApi>> = defineOp({
  name: 'space_to_batch_nd',
  infer: (ins: AVal[], p: SpaceBatchParams) => (checkSpaceBatch('spaceToBatchNd', ins, p), [{ dtype: ins[0].dtype, shape: spaceBatchShape('spaceToBatchNd', ins[0].shape, p, true) }]),
  impl(k, [x, v], p: SpaceBatchParams) {
    const q = withPairs('spaceToBatchNd', p, v);
    spaceBatchShape('spaceToBatchNd', x.shape, q, true);
    return [k.run('SpaceToBatchND', { x }, { blockShape: [...q.blockShape], paddings: q.pairs.map((e) => [...e]) }) as Info];
  },
  vjp: (c, [, v], _y, p: SpaceBatchParams) => (v === undefined ? [bind(batchToSpaceNd as unknown as Primitive, [c[0] as Tensor], p)[0]] : [bind(batchToSpaceNd as unknown as Primitive, [c[0] as Tensor, v], p)[0], null]),
  saves: 'inputs',
  api: s2bApi(),
  tf: spaceBatchTf('SpaceToBatchND', 'Tpaddings', () => spaceToBatchNd as unknown as Primitive<SpaceBatchParams>),
});
function s2bApi() {
  return api(['nn.spaceToBatchNd', 'spaceToBatchNd'], [arg.tensor('input'), blockShapeArg, arg.custom('paddings', pairsParam('paddings'), undefined, 'pairs')], [], { dynamic: byPairsTensor('s2b') });
}

/** batchToSpaceNd(input, blockShape, crops) (TF's BatchToSpaceND). */
export const batchToSpaceNd: OpRecord<'batch_to_space_nd', SpaceBatchParams, ReturnType<typeof b2sApi>> = defineOp({
  name: 'batch_to_space_nd',
  infer: (ins: AVal[], p: SpaceBatchParams) => (checkSpaceBatch('batchToSpaceNd', ins, p), [{ dtype: ins[0].dtype, shape: spaceBatchShape('batchToSpaceNd', ins[0].shape, p, false) }]),
  impl(k, [x, v], p: SpaceBatchParams) {
    const q = withPairs('batchToSpaceNd', p, v);
    spaceBatchShape('batchToSpaceNd', x.shape, q, false);
    return [k.run('BatchToSpaceND', { x }, { blockShape: [...q.blockShape], crops: q.pairs.map((e) => [...e]) }) as Info];
  },
  vjp: (c, [, v], _y, p: SpaceBatchParams) => (v === undefined ? [bind(spaceToBatchNd as unknown as Primitive, [c[0] as Tensor], p)[0]] : [bind(spaceToBatchNd as unknown as Primitive, [c[0] as Tensor, v], p)[0], null]),
  saves: 'inputs',
  api: b2sApi(),
  tf: spaceBatchTf('BatchToSpaceND', 'Tcrops', () => batchToSpaceNd as unknown as Primitive<SpaceBatchParams>),
});
function b2sApi() {
  return api(['nn.batchToSpaceNd', 'batchToSpaceNd'], [arg.tensor('input'), blockShapeArg, arg.custom('crops', pairsParam('crops'), undefined, 'pairs')], [], { dynamic: byPairsTensor('b2s') });
}
PAIR_RECORDS.s2b = spaceToBatchNd as unknown as Primitive;
PAIR_RECORDS.b2s = batchToSpaceNd as unknown as Primitive;
