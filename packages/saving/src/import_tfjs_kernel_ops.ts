// TF ops tfjs-converter runs that EagerFlow reads onto records on tfjs's own kernels (the code tfjs-converter
// executes): the ragged-tensor ops (RaggedRange, RaggedGather, RaggedTensorToTensor: ragged tensors live in a graph
// as their row splits and flat values, and these records take and give exactly those tensors) and
// ImageProjectiveTransformV3. No gradient (TF differentiates RaggedGather/RaggedTensorToTensor's values and the
// transform's images; here gradients through them are None).
import { Info, Primitive, TOP, Tensor, TfImport, argError, bind, dimsToString, registerPrimitive } from '@eagerflow/core';
import type { AVal, DType, Params, ReadScope } from '@eagerflow/core';
import { fromBase64 } from './format';
import type { ParsedNode } from './validate';

function hostRecord<P extends object>(rec: Omit<Primitive<P>, 'effect' | 'vjp' | 'saves'>): Primitive<P> {
  const p = { ...rec, effect: 'pure', vjp: null, saves: 'none' } as Primitive<P>;
  registerPrimitive(p as unknown as Primitive);
  return p;
}

function checkInt(op: string, x: AVal, what: string): void {
  if (x.dtype !== 'int32') throw argError(op, `${what} must be integers`, x.dtype, 'int32 (int64 in the graph)', 'Fix the graph.');
}

/** RaggedRange(starts, limits, deltas): [row splits, values] of one range per element. */
const raggedRange = hostRecord<Record<string, never>>({
  name: 'ragged_range',
  infer(ins) {
    const [s, l, d] = ins;
    if (s.dtype !== l.dtype || s.dtype !== d.dtype || (s.dtype !== 'int32' && s.dtype !== 'float32')) {
      throw argError('RaggedRange', 'starts, limits and deltas must share one numeric dtype', `${s.dtype}, ${l.dtype}, ${d.dtype}`, 'int32 or float32 for all three', 'Cast them to one dtype.');
    }
    for (const x of ins) if (x.shape !== null && x.shape.length > 1) throw argError('RaggedRange', 'starts, limits and deltas must be scalars or vectors', dimsToString(x.shape), 'rank 0 or 1', 'Fix the graph.');
    return [{ dtype: 'int32', shape: [null] }, { dtype: s.dtype, shape: [null] }];
  },
  impl: (k, [starts, limits, deltas]) => k.run('RaggedRange', { starts, limits, deltas }) as Info[],
});

/** RaggedGather(splits..., values, indices): the gathered rows' splits (outputRaggedRank of them) and values. */
const raggedGather = hostRecord<{ readonly paramsRaggedRank: number; readonly outputRaggedRank: number }>({
  name: 'ragged_gather',
  infer(ins, p) {
    const splits = ins.slice(0, p.paramsRaggedRank);
    const [values, indices] = ins.slice(p.paramsRaggedRank);
    splits.forEach((s) => checkInt('RaggedGather', s, 'params_nested_splits'));
    checkInt('RaggedGather', indices, 'indices');
    return [...Array.from({ length: p.outputRaggedRank }, () => ({ dtype: 'int32' as const, shape: [null] })), { dtype: values.dtype, shape: values.shape === null ? null : [null, ...values.shape.slice(1)] }];
  },
  impl: (k, ins, p) => {
    const splits = ins.slice(0, p.paramsRaggedRank);
    const [paramsDenseValues, indices] = ins.slice(p.paramsRaggedRank);
    return k.run('RaggedGather', { paramsNestedSplits: splits, paramsDenseValues, indices } as unknown as Record<string, Info>, { outputRaggedRank: p.outputRaggedRank }) as Info[];
  },
});

/** RaggedTensorToTensor(shape, values, default_value, row partitions...): the dense tensor, padded with the default. */
const raggedTensorToTensor = hostRecord<{ readonly rowPartitionTypes: readonly string[]; readonly rank: number | null }>({
  name: 'ragged_tensor_to_tensor',
  infer(ins, p) {
    const [, values, dflt] = ins;
    if (dflt.dtype !== values.dtype) throw argError('RaggedTensorToTensor', 'default_value must have the values dtype', `${dflt.dtype} and ${values.dtype}`, 'one dtype', 'Cast the default value.');
    ins.slice(3).forEach((t) => checkInt('RaggedTensorToTensor', t, 'row_partition_tensors'));
    return [{ dtype: values.dtype, shape: p.rank === null ? null : Array.from({ length: p.rank }, () => null) }];
  },
  impl: (k, [shape, values, defaultValue, ...rowPartitionTensors], p) => [
    k.run('RaggedTensorToTensor', { shape, values, defaultValue, rowPartitionTensors } as unknown as Record<string, Info>, { rowPartitionTypes: [...p.rowPartitionTypes] }) as Info,
  ],
});

/** ImageProjectiveTransformV3 params: tfjs's Transform attrs. */
interface TransformParams {
  readonly interpolation: 'nearest' | 'bilinear';
  readonly fillMode: 'constant' | 'reflect' | 'wrap' | 'nearest';
  readonly fillValue: number;
  readonly outputShape: readonly [number, number];
}

/** ImageProjectiveTransformV3(images, transforms): each NHWC image resampled through its 8-number projective transform. */
const imageTransform = hostRecord<TransformParams>({
  name: 'image_projective_transform',
  infer(ins, p) {
    const [x, t] = ins;
    if (x.shape !== null && x.shape.length !== 4) throw argError('ImageProjectiveTransformV3', 'images must be 4-D NHWC', dimsToString(x.shape), 'rank 4', 'Fix the graph.');
    if (t.dtype !== 'float32' || (t.shape !== null && (t.shape.length !== 2 || (t.shape[1] !== null && t.shape[1] !== 8)))) {
      throw argError('ImageProjectiveTransformV3', 'transforms must be float32 [1 or batch, 8]', `${t.dtype} ${dimsToString(t.shape)}`, 'float32 [N, 8]', 'Fix the graph.');
    }
    const [n, m] = [x.shape?.[0] ?? null, t.shape?.[0] ?? null];
    if (n !== null && m !== null && m !== 1 && m !== n) throw argError('ImageProjectiveTransformV3', 'transforms must have 1 row or one per image', `${m} rows for ${n} images`, `1 or ${n} rows`, 'Fix the graph.');
    return [{ dtype: x.dtype, shape: [x.shape?.[0] ?? null, p.outputShape[0], p.outputShape[1], x.shape?.[3] ?? null] }];
  },
  // One image per kernel call: tfjs-core 4.x's cpu Transform returns after the first image of a batch (the rest
  // would be the fill value).
  impl: (k, [image, transforms], p) => {
    const [n, h, w, c] = image.shape;
    if (n === 0) return [k.upload(new Float32Array(0), [0, p.outputShape[0], p.outputShape[1], c], image.dtype as DType)];
    const attrs = { interpolation: p.interpolation, fillMode: p.fillMode, fillValue: p.fillValue, outputShape: [...p.outputShape] };
    const temps: Info[] = [];
    try {
      const outs = Array.from({ length: n }, (_, b) => {
        const one = k.run('Slice', { x: image }, { begin: [b, 0, 0, 0], size: [1, h, w, c] }) as Info;
        const t = transforms.shape[0] === 1 ? transforms : (k.run('Slice', { x: transforms }, { begin: [b, 0], size: [1, 8] }) as Info);
        temps.push(one, ...(t === transforms ? [] : [t]));
        const out = k.run('Transform', { image: one, transforms: t }, attrs) as Info;
        return out;
      });
      if (outs.length === 1) return outs;
      temps.push(...outs);
      return [k.run('Concat', outs as unknown as Record<string, Info>, { axis: 0 }) as Info];
    } finally {
      temps.forEach((t) => k.free(t));
    }
  },
});

const bindP = <P extends object>(rec: Primitive<P>, ins: Tensor[], params: P): Tensor[] => bind(rec as unknown as Primitive, ins, params as unknown as Params);

/** A list-of-strings attr (`list.s`, base64 in the parsed GraphDef); [] when absent. */
function strs(r: ReadScope, key: string): string[] {
  const s = (r.node as unknown as ParsedNode).attrs.get(key)?.list?.s;
  const out = Array.isArray(s) ? s.map((b) => (typeof b === 'string' ? fromBase64(b) : null)) : [];
  if (out.some((v) => v === null)) throw r.error(`attr '${key}' is malformed`, JSON.stringify(s), 'a list of strings', 'Fix the graph');
  return out as string[];
}

/** RaggedTensorToTensor's output rank: the ragged rank (partitions other than FIRST_DIM_SIZE) + the values' rank. */
function denseRank(r: ReadScope, types: string[]): number | null {
  const v = r.input(1).rank;
  return v === null ? null : types.filter((t) => t !== 'FIRST_DIM_SIZE').length + v;
}

/** Rows reading the TF ops onto the records above. */
export const TFJS_KERNEL_IMPORT_ROWS: readonly TfImport[] = [
  {
    ops: ['ImageProjectiveTransformV3', 'ImageProjectiveTransformV2'],
    read: (r) => {
      r.arity(r.node.op === 'ImageProjectiveTransformV3' ? 4 : 3);
      const [h, w] = r.numbers(2, 'output_shape');
      const fill = r.count === 4 ? r.constScalar(3) : { dtype: 'float32' as const, value: 0 };
      if (fill === null || typeof fill.value !== 'number') throw r.error('the fill value must be a numeric scalar Const', `input '${r.refText(3)}'`, 'a scalar Const', 'Fix the graph');
      const interp = r.node.str('interpolation').toLowerCase();
      const mode = r.node.str('fill_mode', 'CONSTANT').toLowerCase();
      if (interp !== 'nearest' && interp !== 'bilinear') throw r.error('interpolation must be NEAREST or BILINEAR', interp.toUpperCase(), 'NEAREST or BILINEAR', 'Re-export the graph');
      if (mode !== 'constant' && mode !== 'reflect' && mode !== 'wrap' && mode !== 'nearest') throw r.error('fill_mode must be CONSTANT, REFLECT, WRAP or NEAREST', mode.toUpperCase(), 'one of those', 'Re-export the graph');
      return bindP(imageTransform, r.inputs(0, 2), { interpolation: interp, fillMode: mode, fillValue: fill.value, outputShape: [h, w] });
    },
  },
  { ops: ['RaggedRange'], read: (r) => (r.arity(3), bindP(raggedRange, r.inputs(), {})) },
  {
    ops: ['RaggedGather'],
    read: (r) => {
      const paramsRaggedRank = r.node.int('PARAMS_RAGGED_RANK', r.count - 2);
      const outputRaggedRank = r.node.int('OUTPUT_RAGGED_RANK', paramsRaggedRank);
      r.arity(paramsRaggedRank + 2);
      return bindP(raggedGather, r.inputs(), { paramsRaggedRank, outputRaggedRank });
    },
  },
  {
    ops: ['RaggedTensorToTensor'],
    read: (r) => {
      const rowPartitionTypes = strs(r, 'row_partition_types');
      r.arity(3 + rowPartitionTypes.length);
      if (rowPartitionTypes.some((t) => t !== 'ROW_SPLITS' && t !== 'FIRST_DIM_SIZE' && t !== 'VALUE_ROWIDS')) {
        throw r.error('RaggedTensorToTensor reads ROW_SPLITS, VALUE_ROWIDS and FIRST_DIM_SIZE partitions', `[${rowPartitionTypes}]`, 'those partition types', 'Re-export the graph');
      }
      const rank = denseRank(r, rowPartitionTypes);
      const ins = r.inputs();
      // TF writes an unknown shape as the scalar -1 (tfjs's kernel wants one -1 per dim).
      if (ins[0].rank === 0) {
        if (rank === null) throw r.error('RaggedTensorToTensor needs the values\' rank when shape is unknown', `values '${r.refText(1)}' of unknown rank`, 'values of known rank', 'Export with a known values rank');
        ins[0] = TOP.fill([rank], -1, 'int32');
      }
      return bindP(raggedTensorToTensor, ins, { rowPartitionTypes, rank });
    },
  },
];
