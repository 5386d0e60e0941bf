// The few saving samples the case rows cannot express (each says why); everything else is saved from the harness rows.
import * as ef from 'eagerflow';

export interface Sample {
  prim: ef.internal.PrimitiveName;
  name: string;
  /** Why this is a sample and not a case row. */
  why: string;
  fn: (...xs: ef.Tensor[]) => ef.Tensor | ef.Tensor[];
  inputs: () => ef.Tensor[];
  /** Trace specs (default: the inputs' exact shapes). */
  specs?: () => ef.TensorSpec[];
  /** TensorFlow ops the saved GraphDef must contain. */
  ops: string[];
  /** Why @tensorflow/tfjs-converter cannot run it (absent: it must run there with the same results). */
  noConverter?: string;
}

const c = (v: ef.TensorLike, dtype?: ef.DType): ef.Tensor => ef.constant(v, dtype);
const M = (): ef.Tensor => c([[0.5, -1.25, 2], [3, -0.75, 1.5]]);
const V = (): ef.Tensor => c([1.5, -2, 0.25]);

const counter = new ef.Variable([0, 0, 0], { name: 'counter' });

/** Rows trace with exact shapes (save checks) or with every dim unknown (rank kept): not these signatures. */
const PARTIAL = 'needs a partially known input signature: rows are saved with exact shapes, where the like-op lowers to static ops';
const NO_BGA = 'the loss\'s gradient over unknown dims holds BroadcastGradientArgs, which the converter lacks';
const UNKNOWN_RANK = 'needs an unknown-rank signature (TensorSpec(null)); the unknown-dims mode keeps the rank';

export const SAMPLES: Sample[] = [
  { prim: 'sum', name: 'reduceSum all, unknown rank', why: UNKNOWN_RANK, fn: (x) => ef.reduceSum(x), inputs: () => [M()], specs: () => [new ef.TensorSpec(null)], ops: ['Sum', 'Rank', 'Range'] },
  { prim: 'reshape_like', name: 'reshapeLike', why: PARTIAL, fn: (x, like) => ef.internal.reshapeLike(x, like), inputs: () => [M(), ef.zeros([3, 2])], specs: () => [new ef.TensorSpec([2, 3]), new ef.TensorSpec([null, 2])], ops: ['Reshape', 'Shape'] },
  { prim: 'broadcast_like', name: 'broadcastLike', why: PARTIAL, fn: (x, like) => ef.internal.broadcastLike(x, like), inputs: () => [V(), M()], specs: () => [new ef.TensorSpec([3]), new ef.TensorSpec([null, 3])], ops: ['BroadcastTo', 'BroadcastArgs'] },
  {
    prim: 'reduce_like', name: 'reduceLike (static axes)', why: PARTIAL, fn: (x, like) => ef.internal.reduceLike(x, like), inputs: () => [M(), c([[1, 2, 3]])],
    specs: () => [new ef.TensorSpec([null, 3]), new ef.TensorSpec([1, 3])], ops: ['Sum', 'Reshape', 'Shape'],
  },
  {
    prim: 'reduce_like', name: 'reduceLike (unknown dims)', why: 'the only graph holding BroadcastGradientArgs; rows saved with exact shapes lower it away',
    fn: (x, like) => ef.internal.reduceLike(x, like), inputs: () => [M(), c([[1, 2, 3]])],
    specs: () => [new ef.TensorSpec([null, null]), new ef.TensorSpec([null, null])], ops: ['BroadcastGradientArgs'],
    noConverter: 'the converter has no BroadcastGradientArgs (reduce_like over dims unknown when saving)',
  },
  { prim: 'shape', name: 'shape', why: 'a Shape node exists only for unknown dims (known shapes become a Const)', fn: (x) => ef.shape(x), inputs: () => [M()], specs: () => [new ef.TensorSpec([null, 3])], ops: ['Shape'] },
  { prim: 'ensure_shape', name: 'ensureShape known', why: 'EnsureShape stays in the graph only when the input dims are not already known', fn: (x) => ef.ensureShape(x, [2, 3]), inputs: () => [M()], specs: () => [new ef.TensorSpec([null, 3])], ops: ['EnsureShape'] },
  {
    prim: 'ensure_shape', name: 'ensureShape with an unknown dim', why: 'needs an unknown-rank signature', fn: (x) => ef.ensureShape(x, [null, 3]), inputs: () => [M()], specs: () => [new ef.TensorSpec(null)], ops: ['EnsureShape'],
    noConverter: "the converter's EnsureShape reads the shape from a second input, which cannot hold unknown dims",
  },
  {
    prim: 'print', name: 'print', why: 'print rows capture the printed text eagerly (eagerOnly); this saves a graph with a Print node', fn: (x) => (ef.print('x is', x), ef.add(x, 1)),
    inputs: () => [V()], ops: ['Print'],
  },
  {
    prim: 'assign_variable', name: 'assignAdd then read', why: 'changes a variable on every call: rows must give the same result each call', fn: (x) => (counter.assignAdd(x), counter.value()),
    inputs: () => [c([1, 2, 3])], ops: ['VarHandleOp', 'AssignAddVariableOp', 'ReadVariableOp'],
    noConverter: 'the converter has no resource variables (VarHandleOp, ReadVariableOp, AssignAddVariableOp)',
  },
  { prim: 'split', name: 'split in 3, unknown axis size', why: 'an unknown axis size saves the count as TF\'s Split (rows with unknown dims keep SplitV sizes only when known)', fn: (x) => ef.split(x, 3, 1), inputs: () => [M()], specs: () => [new ef.TensorSpec([null, null])], ops: ['Split'] },
  { prim: 'split', name: 'split sizes with -1, unknown axis size', why: 'the -1 stays in SplitV\'s sizes only when the axis size is unknown', fn: (x) => ef.split(x, [1, -1], 1), inputs: () => [M()], specs: () => [new ef.TensorSpec([null, null])], ops: ['SplitV'] },
  {
    prim: 'slice', name: 'gradient of pad with unknown dims', why: 'a traced gradient: the pad gradient slices by Shape(x) at run time (TF\'s _PadGrad)', fn: (x) => gradOf((t) => ef.pad(t, [[1, 0], [0, 2]]), x),
    inputs: () => [M()], specs: () => [new ef.TensorSpec([null, null])], ops: ['Slice', 'Shape'], noConverter: NO_BGA,
  },
  {
    prim: 'pad', name: 'gradient of slice with unknown dims', why: 'a traced gradient: the slice gradient pads by Shape(x) - Shape(y) - begin (TF\'s _SliceGrad)', fn: (x) => gradOf((t) => ef.slice(t, [0, 1], [-1, 1]), x),
    inputs: () => [M()], specs: () => [new ef.TensorSpec([null, null])], ops: ['Pad', 'Shape'], noConverter: NO_BGA,
  },
  {
    prim: 'scatter_nd', name: 'tensorScatterNdAdd with unknown dims', why: 'the scatter reads Shape(tensor) at run time only when the dims are unknown (rows with unknown dims need a converter-free check)',
    fn: (t, i, u) => ef.tensorScatterNdAdd(t, i, u), inputs: () => [M(), c([[1], [0]], 'int32'), c([[1, 2, 3], [4, 5, 6]])], specs: () => [new ef.TensorSpec([null, null]), new ef.TensorSpec([null, 1], 'int32'), new ef.TensorSpec([null, null])], ops: ['ScatterNd', 'Shape'],
  },
];

/** The gradient of sum(f(x)²) (a cotangent 2·f(x), so the gradient is not all ones). */
function gradOf(f: (x: ef.Tensor) => ef.Tensor, x: ef.Tensor): ef.Tensor {
  const tape = new ef.GradientTape();
  const y = tape.record(() => {
    tape.watch([x]);
    const z = f(x);
    return ef.reduceSum(ef.square(z));
  });
  return (tape.gradient(y, [x]) as ef.Tensor[])[0];
}
