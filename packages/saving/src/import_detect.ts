// Detection-model ops: Pack and Split (TF1's ResizeBilinear modes are read by core's resize records).
import { PRIMITIVES, Primitive, ReadScope, Tensor, TfImport, bind, stack } from '@eagerflow/core';

const P = PRIMITIVES as unknown as Record<string, Primitive>;

/** Split(split_dim, value) into num_split equal pieces (the record's SplitV with static sizes). */
function readSplit(r: ReadScope): Tensor[] {
  r.arity(2);
  const x = r.input(1);
  const n = r.node.int('num_split');
  const rank = x.rank;
  let axis = r.number(0, 'split_dim');
  if (rank !== null && axis < 0) axis += rank;
  const d = x.dims?.[axis] ?? null;
  if (d === null || !(n >= 1) || d % n !== 0) throw r.error('num_split must divide a static axis size', `axis ${axis} of shape ${x.shape.toString()}, num_split=${n}`, 'a known size divisible by num_split', 'Give the input a static shape');
  return bind(P.split, [x], { sizes: Array.from({ length: n }, () => d / n), axis, numSplit: n });
}

/**
 * Pack (tf.stack) and Split (equal pieces); the NMS family's readers are on its records (import_nms.ts).
 * @example
 * ef.internal.IMPORT_ROWS.some((row) => row.ops.includes('Pack')); // true
 */
export const DETECT_IMPORT_ROWS: readonly TfImport[] = [
  {
    ops: ['Pack'],
    read(r) {
      r.arity(1, 4096);
      if (r.node.int('N', r.count) !== r.count) throw r.error('N does not match the inputs', `N=${r.node.int('N', r.count)} and ${r.count} inputs`, `N=${r.count}`, 'Fix the node');
      return [stack(r.inputs(), r.node.int('axis', 0))];
    },
  },
  { ops: ['Split'], read: readSplit },
];
