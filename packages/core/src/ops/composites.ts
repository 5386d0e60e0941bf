// The hand-written composites and creation ops, with their public paths (the namespaces list them like records).
import { composite } from './api_spec';
import type { Tensor } from '../values/tensor';
import { TensorLike, convert } from '../values/convert';
import { bind } from './bind';
import type { Primitive } from './primitive';
import { releasing } from './op_builder';
import { typeError } from '../errors/error_toolkit';
import { whereCoords } from './math/segment_search';
import * as o from './ops';
import * as LOG from './math/compare';
import { convertAll } from './op_builder';
import { print } from './array/print';
import { resize, resizeBilinearTf1, resizeNearestNeighborTf1 } from './image/resize';
import { NN_COMPOSITES } from './nn/activations_composites';
import { CONV_COMPOSITES } from './nn/conv';
import { POOL_COMPOSITES } from './nn/pool';
import { NORM_COMPOSITES } from './nn/normalization';
import { LOSS_COMPOSITES } from './nn/losses';
import { MANIP_COMPOSITES } from './array/manipulation_composites';
import { RANDOM_COMPOSITES } from './random/draws';
import { LINALG_COMPOSITES } from './linalg/diag_band_products';
import { LINALG2_COMPOSITES } from './linalg/decompositions';
import { IMAGE_COMPOSITES } from './image/adjust_flip_crop';
import { IMAGE2_COMPOSITES } from './image/crop_resize_patches';
import { SIGNAL_COMPOSITES } from './signal/frame_window_stft';
import { RANDOM2_COMPOSITES } from './random/gamma';

/**
 * Public ops written by hand: true composites (softmax, reduceMean, stack, clipByValue) and the
 * creation ops whose arguments need more than a row (fill infers its dtype, range takes 1-3 bounds).
 */
/**
 * TensorFlow's where: `where(condition, x, y)` selects elementwise with broadcasting; `where(condition)`
 * gives the int32 coordinates of the true entries (one row per entry).
 * @example
 * ef.where([true, false], [1, 2], [3, 4]).arraySync(); // [1, 4]
 * ef.where([[true, false], [false, true]]).arraySync(); // [[0, 0], [1, 1]]
 */
function where(condition: TensorLike, x?: TensorLike, y?: TensorLike): Tensor {
  if (x === undefined && y === undefined) {
    const c = convert('where', condition);
    return releasing([c], () => bind(whereCoords as unknown as Primitive, [c.t], {})[0]);
  }
  if (x === undefined || y === undefined) throw typeError('where', 'x and y must be given together', 'only one of them', 'both or neither', 'Pass where(condition, x, y), or where(condition) for coordinates.');
  return o.where(condition, x, y);
}

/**
 * tf.math.logical_xor, written as TF writes it: (x OR y) AND NOT (x AND y).
 * @example ef.math.logicalXor([true, false, true, false], [true, true, false, false]).arraySync(); // [false, true, true, false]
 */
function logicalXor(x: TensorLike, y: TensorLike): Tensor {
  const cs = convertAll('logicalXor', [x, y], ['bool', 'bool']);
  return releasing(cs, () => {
    const [a, b] = cs.map((c) => c.t);
    const either = bind(LOG.logicalOr, [a, b], {})[0];
    const both = bind(LOG.logicalAnd, [a, b], {})[0];
    const notBoth = bind(LOG.logicalNot, [both], {})[0];
    const out = bind(LOG.logicalAnd, [either, notBoth], {})[0];
    [either, both, notBoth].forEach((t) => t.dispose());
    return out;
  });
}

export const COMPOSITES = {
  logicalXor: composite(['math.logicalXor'], logicalXor),
  where: composite(['where'], where),
  reduceMean: composite(['math.reduceMean', 'reduceMean'], o.reduceMean),
  softmax: composite(['nn.softmax', 'math.softmax', 'softmax'], o.softmax),
  stack: composite(['stack'], o.stack),
  clipByValue: composite(['clipByValue'], o.clipByValue),
  cast: composite(['cast'], o.cast),
  divide: composite(['math.divide', 'divide'], o.divide),
  pad: composite(['pad'], o.pad),
  fill: composite(['fill'], o.fill),
  zeros: composite(['zeros'], o.zeros),
  ones: composite(['ones'], o.ones),
  range: composite(['range'], o.range),
  print: composite(['print'], print),
  resize: composite(['image.resize'], resize),
  resizeBilinear: composite(['image.resizeBilinear'], resizeBilinearTf1),
  resizeNearestNeighbor: composite(['image.resizeNearestNeighbor'], resizeNearestNeighborTf1),
  ...NN_COMPOSITES,
  ...CONV_COMPOSITES,
  ...POOL_COMPOSITES,
  ...NORM_COMPOSITES,
  ...LOSS_COMPOSITES,
  ...MANIP_COMPOSITES,
  ...RANDOM_COMPOSITES,
  ...LINALG_COMPOSITES,
  ...LINALG2_COMPOSITES,
  ...IMAGE_COMPOSITES,
  ...IMAGE2_COMPOSITES,
  ...SIGNAL_COMPOSITES,
  ...RANDOM2_COMPOSITES,
};
