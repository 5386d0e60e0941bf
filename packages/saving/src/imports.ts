// Import-only TF ops: rows that read TensorFlow ops no record writes, pointing at primitives.
import { PRIMITIVES, Tensor, TfImport, bind, softmax } from '@eagerflow/core';
import { DETECT_IMPORT_ROWS } from './import_detect';
import { FUSED_IMPORT_ROWS } from './import_fused';
import { LIST_IMPORT_ROWS } from './import_lists';
import { CALL_IMPORT_ROWS } from './import_calls';
import { CONVERTER_IMPORT_ROWS } from './import_converter_ops';
import { HASH_TABLE_IMPORT_ROWS } from './import_hash_tables';
import { ASSERT_IMPORT_ROWS } from './import_assert';
import { TFJS_KERNEL_IMPORT_ROWS } from './import_tfjs_kernel_ops';
// The NMS family (NonMaxSuppressionV2..V5, CombinedNonMaxSuppression) registers its records.
import './import_nms';

const P = PRIMITIVES;

/**
 * TF ops read but never written: rank as shape(shape(x)), v1 Select, and the shape helpers that
 * are only valid as parts of patterns their consumers read (Reshape(x, Shape(like)) and so on).
 * @example
 * ef.internal.IMPORT_ROWS.some((row) => row.ops.includes('Rank')); // true
 */
export const IMPORT_ROWS: readonly TfImport[] = [
  { ops: ['Rank'], read: (r) => (r.arity(1), bind(P.reshape, bind(P.shape, bind(P.shape, [r.input(0)], {}), {}), { shape: [] })) },
  {
    ops: ['Select'],
    read(r): Tensor[] {
      r.arity(3);
      const [c, t] = [r.input(0).rank, r.input(1).rank];
      if (c === 1 && t !== null && t > 1) throw r.error('Select with a vector condition (row selection) is not supported', `a rank-1 condition for rank-${t} values`, 'a condition of the values shape, or a scalar', 'Use SelectV2 (broadcasting)');
      return bind(P.select, r.inputs(), {});
    },
  },
  { ops: ['NoOp'], read: () => [] },
  // Composites written by TensorFlow as one op: read as EagerFlow's composite (same values, its gradient).
  { ops: ['Softmax'], read: (r) => (r.arity(1), [softmax(r.input(0), -1)]) },
  {
    ops: ['BroadcastArgs'],
    read: (r) => {
      throw r.error('BroadcastArgs is only read as the shape input of BroadcastTo', 'another consumer', 'BroadcastTo(x, BroadcastArgs(Shape(x), Shape(like)))', 'Rewrite the graph');
    },
  },
  {
    ops: ['BroadcastGradientArgs'],
    read: (r) => {
      throw r.error('BroadcastGradientArgs is only read as the axes of Sum', 'another consumer', 'Sum(x, BroadcastGradientArgs(Shape(like), Shape(x)):0)', 'Rewrite the graph');
    },
  },
  // Grappler's fused ops and tfjs-converter's own ops (import_fused.ts).
  ...FUSED_IMPORT_ROWS,
  // Pack/Split, and TensorList*/TensorArray*V3 on dense tensors (import_detect.ts, import_lists.ts).
  ...DETECT_IMPORT_ROWS,
  ...LIST_IMPORT_ROWS,
  // Function calls, resource-variable helpers and TF1 reference variables (import_calls.ts).
  ...CALL_IMPORT_ROWS,
  // Ops tfjs-converter runs that no record writes (import_converter_ops.ts).
  ...CONVERTER_IMPORT_ROWS,
  ...HASH_TABLE_IMPORT_ROWS,
  ...ASSERT_IMPORT_ROWS,
  ...TFJS_KERNEL_IMPORT_ROWS,
];
