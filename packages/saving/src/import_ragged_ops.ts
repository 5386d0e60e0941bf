// TF's ragged-tensor ops tfjs-converter runs (RaggedRange, RaggedGather, RaggedTensorToTensor) as records on tfjs's
// own kernels (the code tfjs-converter executes), and the import rows reading the TF ops onto them. Ragged tensors
// live in a graph as their row splits and flat values; these records take and give exactly those tensors.
// Host-side and data-dependent: no gradient (TF differentiates RaggedGather/RaggedTensorToTensor's values; here
// gradients through them are None).
import { Info, Primitive, TOP, Tensor, TfImport, argError, bind, dimsToString, registerPrimitive } from '@eagerflow/core';
import type { AVal, Params, ReadScope } from '@eagerflow/core';
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
export const raggedRange = hostRecord<Record<string, never>>({
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
export const raggedGather = hostRecord<{ readonly paramsRaggedRank: number; readonly outputRaggedRank: number }>({
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
export const raggedTensorToTensor = hostRecord<{ readonly rowPartitionTypes: readonly string[]; readonly rank: number | null }>({
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

/** Rows reading TF's ragged ops onto the records above. */
export const RAGGED_IMPORT_ROWS: readonly TfImport[] = [
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
