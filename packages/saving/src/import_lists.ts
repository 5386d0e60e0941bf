// TensorList* and TensorArray*V3 ops read onto dense tensors: a list of n elements of one static shape is the tensor
// [n, ...element shape], so lists ride through ef.whileLoop as ordinary loop variables and stay differentiable.
import { PRIMITIVES, ReadScope, Tensor, TfImport, add, bind, concat, maximum, padWith, reshape, sliceWith, stack, subtract, zerosLike, PrimitiveName } from '@eagerflow/core';
import type { DType, InputRefView } from '@eagerflow/core';
import { ParsedNode } from './validate';
import type { ConstValue } from './weights';

const P = PRIMITIVES;
const one = (prim: PrimitiveName, ins: Tensor[], params: object = {}): Tensor => bind(P[prim], ins, params)[0];

/** Element shapes of lists made with an unknown one, inferred from what reads or writes them (by node). */
const inferred = new WeakMap<object, number[]>();
/**
 * Element shapes of known rank with unknown dims (-1), of lists whose full shape nothing names (a Keras RNN's
 * TensorArray of [batch, units] items with the batch unknown): such a list starts with size-1 dims there, and
 * SetItem broadcasts it to its items' run-time shape (see setItem).
 */
const partialShapes = new WeakMap<object, number[]>();
/**
 * Lists nothing reads (Keras' rnn leaves an unused TensorArray of unknown element rank): TF's function runtime prunes
 * them, so their element shape does not matter and they are made as empty lists of scalars.
 */
const unread = new WeakSet<object>();
/** TensorArrayV3 nodes of unknown element shape whose flow goes straight into TensorArraySplitV3 (which replaces it). */
const filledBySplit = new WeakSet<object>();
/**
 * TensorArrayV3 nodes of unknown element shape whose flow goes straight into TensorArrayScatterV3 (tf.map_fn's and
 * TensorArray.unstack's input arrays): the scatter builds the array from its value's shape when it runs.
 */
const filledByScatter = new WeakSet<object>();

const MAKERS = new Set(['TensorListReserve', 'EmptyTensorList', 'TensorArrayV3']);
const PASS = new Set(['Enter', 'Exit', 'Merge', 'Switch', 'NextIteration', 'Identity', 'TensorListSetItem', 'TensorListPushBack', 'TensorListResize', 'TensorArrayWriteV3', 'TensorArrayScatterV3']);
/** Ops that name the element shape of a list input: op -> [list input, element_shape input]. */
const SHAPED: Record<string, [number, number]> = { TensorListStack: [0, 1], TensorListGetItem: [0, 2], TensorListGather: [0, 2], TensorListPopBack: [0, 1], TensorListConcatV2: [0, 1] };
/** TF1 TensorArray reads whose element_shape attr names the element shape (tf.map_fn's stack): op -> [handle, flow]. */
const SHAPED_BY_ATTR: Record<string, readonly number[]> = { TensorArrayGatherV3: [0, 2] };

const full = (v: readonly number[] | undefined | null): v is number[] => v !== undefined && v !== null && v.every((d) => Number.isInteger(d) && d >= 0);

/** Loops: list input k leaves as output k (TF2's While/StatelessWhile carry lists as loop variables). */
const LOOPS = new Set(['While', 'StatelessWhile']);

/**
 * For each TensorListReserve (and TensorArrayV3) whose element shape is unknown: the first fully known
 * element shape among the ops its list flows into (through frames, TF2 loops and writes), from their
 * element_shape Consts or a Const item written into it. `constOf` gives a Const node's value by name.
 */
export function inferListShapes(nodes: readonly ParsedNode[], constOf: (name: string) => ConstValue | undefined): void {
  const makers = nodes.filter((n) => MAKERS.has(n.op));
  if (makers.length === 0) return;
  const users = new Map<string, { n: ParsedNode; k: number; index: number }[]>();
  for (const n of nodes) n.inputs.forEach((r, k) => users.set(r.node, [...(users.get(r.node) ?? []), { n, k, index: r.index }]));
  const byName = new Map(nodes.map((n) => [n.name, n] as const));
  // An element_shape Const: its dims (-1 unknown), or undefined for none or an unknown rank (a scalar -1).
  const constShape = (name: string | undefined): number[] | undefined => {
    const c = name === undefined ? undefined : constOf(name);
    return byName.get(name ?? '')?.op === 'Const' && c !== undefined && c.shape.length === 1 ? Array.from(c.data as ArrayLike<number>) : undefined;
  };
  const given = (m: ParsedNode): number[] | undefined => (m.op === 'TensorArrayV3' ? m.shape('element_shape')?.map((d) => d ?? -1) : constShape(m.inputs[0]?.node));
  for (const m of makers) {
    if ((users.get(m.name) ?? []).length === 0) unread.add(m);
    if (m.op === 'TensorArrayV3' && (users.get(m.name) ?? []).some(({ n, k, index }) => n.op === 'TensorArraySplitV3' && k === 3 && index === 1)) filledBySplit.add(m);
    if (m.op === 'TensorArrayV3' && (users.get(m.name) ?? []).some(({ n, k, index }) => n.op === 'TensorArrayScatterV3' && k === 3 && index === 1)) filledByScatter.add(m);
    // (node, output) pairs the list flows out of; null: any output (TF1 frames pass one value).
    const seen = new Set<string>([`${m.name}:*`]);
    const queue: [string, number | null][] = [[m.name, null]];
    let found: number[] | undefined;
    let partial = given(m);
    while (queue.length && found === undefined) {
      const [name, out] = queue.shift() as [string, number | null];
      for (const { n, k, index } of users.get(name) ?? []) {
        if (out !== null && index !== out) continue;
        const s = SHAPED[n.op];
        if (s !== undefined && s[0] === k) {
          const named = constShape(n.inputs[s[1]]?.node);
          found = [named].find(full);
          partial ??= named;
        }
        if (found === undefined && SHAPED_BY_ATTR[n.op]?.includes(k)) found = [n.shape('element_shape') as number[] | undefined].find(full);
        const item = n.op === 'TensorListSetItem' || n.op === 'TensorArrayWriteV3' ? n.inputs[2] : n.op === 'TensorListPushBack' ? n.inputs[1] : undefined;
        const itemConst = item === undefined ? undefined : constOf(item.node);
        if (found === undefined && itemConst !== undefined && byName.get(item?.node ?? '')?.op === 'Const' && (k === 0 || n.op === 'TensorArrayWriteV3')) found = [...itemConst.shape];
        if (found !== undefined) break;
        const next: [string, number | null] | undefined = LOOPS.has(n.op) ? [n.name, k] : PASS.has(n.op) ? [n.name, null] : undefined;
        if (next !== undefined && !seen.has(`${next[0]}:${next[1] ?? '*'}`)) {
          seen.add(`${next[0]}:${next[1] ?? '*'}`);
          queue.push(next);
        }
      }
    }
    if (found !== undefined) inferred.set(m, found);
    else if (partial !== undefined) partialShapes.set(m, partial);
  }
}

/** A list made empty with n elements of `dtype` and the (given or inferred) element shape. */
function reserve(r: ReadScope, shapeInput: number | null, n: number, dtype: DType): Tensor {
  const given = shapeInput === null ? (r.node.shape('element_shape') ?? null) : r.numbers(shapeInput, 'the element shape');
  const partial = partialShapes.get(r.node);
  const shape = full(given as number[] | undefined) ? (given as number[]) : (inferred.get(r.node) ?? (filledBySplit.has(r.node) || filledByScatter.has(r.node) ? [0] : (partial?.map((d) => (d < 0 ? 1 : d)) ?? (unread.has(r.node) ? [] : undefined))));
  if (shape === undefined) {
    throw r.error('the element shape is not static', `element_shape ${JSON.stringify(given)}`, 'a fully known element shape (from the op or from what the list is read with)', 'Give the list a static element shape (e.g. tf.TensorArray(element_shape=...))');
  }
  // -1 (TensorListReserve's unknown count, EmptyTensorList): an empty list that SetItem/PushBack grow.
  if (!Number.isInteger(n) || n < -1) throw r.error('the number of elements must be a static count', String(n), 'a Const count >= 0, or -1 (a list that grows)', 'Make the list size static');
  const dims = [Math.max(n, 0), ...shape];
  r.checkSize(dims);
  const size = dims.reduce((a, b) => a * b, 1);
  const data = dtype === 'float32' ? new Float32Array(size) : dtype === 'bool' ? new Uint8Array(size) : new Int32Array(size);
  return (r as unknown as { scope: { ctx: { constTensor(v: ConstValue): Tensor } } }).scope.ctx.constTensor({ dtype, shape: dims, data });
}

/**
 * list[index] = item (TF's SetItem/Write): a scatter-update of one row, differentiable in list and item. With
 * `grow` (SetItem's resize_if_index_out_of_bounds, as TensorArray(dynamic_size=True) writes), a list shorter than
 * index + 1 is first padded with zero rows to that length.
 */
function setItem(r: ReadScope, list: Tensor, index: Tensor, item: Tensor, grow = false): Tensor {
  if (item.dtype !== list.dtype) throw r.error('the item dtype does not match the list', item.dtype, list.dtype, 'Cast the item');
  const grown = grow ? padRows(r, list, maximum(subtract(one('reshape', [index], { shape: [] }), subtract(length(list), 1)), 0)) : list;
  // A list of partly unknown element shape starts with size-1 dims there (reserve): broadcast to the item's shape
  // when it runs (a no-op once it has it). Lists of a static element shape equal to the item's skip this.
  const [ld, id] = [list.dims, item.dims];
  const same = ld !== null && id !== null && ld.length === id.length + 1 && id.every((d, i) => d !== null && d === ld[i + 1]);
  const target = same || list.dtype === 'bool' ? grown : add(grown, zerosLike(one('expand_dims', [item], { axis: 0 })));
  return one('tensor_scatter_nd_update', [target, one('reshape', [index], { shape: [1, 1] }), one('expand_dims', [item], { axis: 0 })]);
}

/** An int32 vector Const owned by the function being loaded. */
const ints = (r: ReadScope, v: readonly number[]): Tensor => (r as unknown as { scope: { ctx: { constTensor(v: ConstValue): Tensor } } }).scope.ctx.constTensor({ dtype: 'int32', shape: [v.length], data: Int32Array.from(v) });

/** `list` with `k` (an int32 scalar tensor, >= 0) zero rows appended. */
function padRows(r: ReadScope, list: Tensor, k: Tensor): Tensor {
  const rest = Array.from({ length: (list.rank ?? 1) - 1 }, () => ints(r, [0, 0]));
  return padWith(list, stack([concat([ints(r, [0]), reshape(k, [1])], 0), ...rest], 0));
}

/** TensorArrayV3(size): a Const size, or one the graph computes (tf.map_fn over a run-time batch): zero rows padded to it when it runs. */
function tensorArray(r: ReadScope): Tensor {
  const dtype = r.node.dtype('dtype');
  if (r.constScalar(0) !== null || r.producer(0)?.op === 'Const') return reserve(r, null, r.number(0, 'the size'), dtype);
  const size = r.input(0);
  if (size.dtype !== 'int32' || (size.rank !== null && size.rank !== 0)) throw r.error('the size must be an int32 scalar', `${size.dtype} of shape ${size.shape.toString()}`, 'an int32 scalar', 'Fix the size input');
  return padRows(r, reserve(r, null, 0, dtype), size);
}

/**
 * The array a TensorArrayScatterV3 writes into: its flow, or, for an array made without an element shape and filled
 * by this scatter, zeros of [its size, ...the value's element dims] (built from the value's shape when it runs).
 */
function scatterTarget(r: ReadScope): Tensor {
  const maker = r.producer(3);
  if (maker === undefined || !filledByScatter.has(maker) || inferred.has(maker)) return r.input(3);
  const x = r.input(2);
  if (x.rank === null || x.rank < 1) throw r.error('the scattered value needs a known rank >= 1', x.shape.toString(), '[n, ...element dims]', 'Give the value a static rank');
  const size = r.tensorOf(maker.inputs[0], `node '${maker.name}'`);
  const none = getItem(zerosLike(x), ints(r, []));
  return padRows(r, none, one('reshape', [size], { shape: [] }));
}

/** The element rank of a dense list (its rank - 1); lists always have a static rank here. */
const elementRank = (r: ReadScope, list: Tensor): number => {
  if (list.rank === null) throw r.error('the list has no static element rank', 'an unknown rank', 'a list of a known element shape', 'Give the list a static element shape');
  return list.rank - 1;
};

/** PushBack: the list with one more row (concat: gradients split back to list and item). */
function pushBack(r: ReadScope, list: Tensor, item: Tensor): Tensor {
  if (item.dtype !== list.dtype) throw r.error('the item dtype does not match the list', item.dtype, list.dtype, 'Cast the item');
  if (item.rank !== null && item.rank !== elementRank(r, list)) throw r.error('the item shape does not match the list elements', item.shape.toString(), `rank ${elementRank(r, list)}`, 'Push items of the element shape');
  return concat([list, one('expand_dims', [item], { axis: 0 })], 0);
}

/** PopBack: [the list without its last row, that row]; an empty list fails at load (static) or when it runs (slice out of bounds). */
function popBack(r: ReadScope, list: Tensor): Tensor[] {
  const e = elementRank(r, list);
  if (list.dims?.[0] === 0) throw r.error('cannot pop from an empty list', 'a list of 0 elements', 'a list with at least one element', 'Push an element before popping');
  const last = reshape(subtract(length(list), 1), [1]);
  const rest = sliceWith(list, ints(r, new Array(e + 1).fill(0)), concat([last, ints(r, new Array(e).fill(-1))], 0));
  const row = sliceWith(list, concat([last, ints(r, new Array(e).fill(0))], 0), ints(r, [1, ...new Array(e).fill(-1)]));
  return [rest, one('squeeze', [row], { axes: [0] })];
}

/** Resize: truncated to `size` rows, or padded with zero rows up to it. */
function resize(r: ReadScope, list: Tensor, size: Tensor): Tensor {
  const e = elementRank(r, list);
  const n = reshape(size, []);
  const padded = padRows(r, list, maximum(subtract(n, length(list)), 0));
  return sliceWith(padded, ints(r, new Array(e + 1).fill(0)), concat([reshape(n, [1]), ints(r, new Array(e).fill(-1))], 0));
}

/** Concat: the elements joined along their first axis ([n, d0, ...] -> [n·d0, ...]), and each one's length d0. */
function concatList(r: ReadScope, list: Tensor): Tensor[] {
  const d = list.dims;
  if (d === null || d.length < 2 || d.slice(2).some((v) => v === null) || d[1] === null) throw r.error(`${r.node.op} needs elements of rank >= 1 with static dims after the first`, `a list of shape ${list.shape.toString()}`, '[n, d0, ...static dims]', 'Give the list a static element shape');
  const joined = one('reshape', [list], { shape: [-1, ...(d.slice(2) as number[])] });
  // One length per element (a run-time count of them): d0 added to zeros shaped like the first column.
  const col = one('reshape', [one('slice', [one('reshape', [list], { shape: [-1, (d.slice(1) as number[]).reduce((a, b) => a * b, 1)] })], { begin: [0, 0], size: [-1, 1] })], { shape: [-1] });
  return [joined, add(zerosLike(one('cast', [col], { dtype: 'int32' })), d[1])];
}

const getItem = (list: Tensor, index: Tensor): Tensor => one('gather', [list, index], { axis: 0 });

/** The number of elements, as an int32 scalar. */
const length = (list: Tensor): Tensor => one('reshape', [one('slice', [one('shape', [list])], { begin: [0], size: [1] })], { shape: [] });

/** Checks a stacked list against num_elements (-1: any). */
function stacked(r: ReadScope, list: Tensor): Tensor {
  const n = r.node.int('num_elements', -1);
  const have = list.dims?.[0] ?? null;
  if (n !== -1 && have !== null && n !== have) throw r.error('num_elements does not match the list', `a list of ${have}`, `${n}`, 'Fix num_elements');
  return one('identity', [list]);
}

/** Split's Const lengths, also through the Cast TF1's TensorArray.split puts after them (to int64). */
function constLengths(r: ReadScope): number[] {
  const p = r.producer(2);
  const src = p?.op === 'Cast' && p.inputs.length === 1 ? r.nodeOf(p.inputs[0]) : undefined;
  if (src?.op !== 'Const') return r.numbers(2, 'lengths');
  return Array.from(r.tensorOf((p as { inputs: readonly InputRefView[] }).inputs[0], 'lengths').dataSync() as ArrayLike<number>, Number);
}

/** Split: a tensor cut into elements of the Const lengths along axis 0 (equal lengths: dense lists hold one element shape). */
function split(r: ReadScope, x: Tensor): Tensor {
  const lengths = constLengths(r);
  const d = x.dims;
  const total = lengths.reduce((a, b) => a + b, 0);
  if (lengths.length === 0 || lengths.some((v) => v !== lengths[0]) || d === null || d.slice(1).some((v) => v === null) || (d[0] !== null && d[0] !== total)) {
    throw r.error(`${r.node.op} needs equal Const lengths summing to the first dim of a statically shaped tensor`, `lengths [${lengths.join(', ')}] for shape ${x.shape.toString()}`, 'equal lengths (ragged lists are not supported)', 'Split into equal pieces');
  }
  return one('reshape', [x], { shape: [lengths.length, lengths[0], ...(d.slice(1) as number[])] });
}

/** Scatter(V2): a new list with list[indices[k]] = tensor[k]; its size is max(indices) + 1 (V2: at least num_elements). */
function scatter(r: ReadScope, x: Tensor, v2: boolean): Tensor {
  const n = v2 ? r.number(3, 'num_elements') : -1;
  const idx = r.constScalar(1) === null && r.producer(1)?.op === 'Const' ? r.numbers(1, 'indices') : null;
  const size = Math.max(n, idx === null ? -1 : Math.max(-1, ...idx) + 1);
  const d = x.dims;
  if (size < 0 || d === null || d.slice(1).some((v) => v === null)) {
    throw r.error('TensorListScatter needs a static list size and element shape', `indices ${idx === null ? 'computed' : `[${idx.join(', ')}]`}, num_elements ${n}, tensor shape ${x.shape.toString()}`, 'Const indices or num_elements, and a statically shaped tensor', 'Make the indices (or num_elements) Consts');
  }
  const dims = [size, ...(d.slice(1) as number[])];
  r.checkSize(dims);
  const zeros = one('fill', [], { shape: dims, value: 0, dtype: x.dtype });
  return one('tensor_scatter_nd_update', [zeros, one('expand_dims', [r.input(1)], { axis: 1 }), x]);
}

/**
 * TensorList* (TF2 lists: tf.map_fn, TensorArray in tf.function) and TensorArray*V3 (TF1 tensor arrays,
 * whose flow value carries the dense array) on dense tensors.
 * @example
 * ef.internal.IMPORT_ROWS.some((row) => row.ops.includes('TensorListReserve')); // true
 */
export const LIST_IMPORT_ROWS: readonly TfImport[] = [
  {
    ops: ['TensorListReserve'],
    read: (r) => {
      r.arity(2);
      const dtype = r.node.dtype('element_dtype');
      if (r.constScalar(1) !== null || r.producer(1)?.op === 'Const') return [reserve(r, 0, r.number(1, 'num_elements'), dtype)];
      // A count computed by the graph (tf.TensorArray(size=tf.shape(x)[0])): zero rows padded to it when it runs.
      return [padRows(r, reserve(r, 0, 0, dtype), one('reshape', [r.input(1)], { shape: [] }))];
    },
  },
  { ops: ['TensorListFromTensor'], read: (r) => (r.arity(2), [one('identity', [r.input(0)])]) },
  { ops: ['TensorListGetItem'], read: (r) => (r.arity(2, 3), [getItem(r.input(0), r.input(1))]) },
  { ops: ['EmptyTensorList'], read: (r) => (r.arity(2), [reserve(r, 0, -1, r.node.dtype('element_dtype'))]) },
  { ops: ['TensorListSetItem'], read: (r) => (r.arity(3), [setItem(r, r.input(0), r.input(1), r.input(2), r.node.bool('resize_if_index_out_of_bounds', false))]) },
  { ops: ['TensorListPushBack'], read: (r) => (r.arity(2), [pushBack(r, r.input(0), r.input(1))]) },
  { ops: ['TensorListPopBack'], read: (r) => (r.arity(1, 2), popBack(r, r.input(0))) },
  { ops: ['TensorListResize'], read: (r) => (r.arity(2), [resize(r, r.input(0), r.input(1))]) },
  { ops: ['TensorListConcat', 'TensorListConcatV2'], read: (r) => (r.arity(1, 3), concatList(r, r.input(0))) },
  { ops: ['TensorListSplit'], read: (r) => (r.arity(3), [split(r, r.input(0))]) },
  { ops: ['TensorListScatter'], read: (r) => (r.arity(3), [scatter(r, r.input(0), false)]) },
  { ops: ['TensorListScatterV2'], read: (r) => (r.arity(4), [scatter(r, r.input(0), true)]) },
  { ops: ['TensorListStack'], read: (r) => (r.arity(1, 2), [stacked(r, r.input(0))]) },
  { ops: ['TensorListGather'], read: (r) => (r.arity(2, 3), [getItem(r.input(0), r.input(1))]) },
  { ops: ['TensorListLength'], read: (r) => (r.arity(1), [length(r.input(0))]) },
  { ops: ['TensorListElementShape'], read: (r) => (r.arity(1), [one('slice', [one('shape', [r.input(0)])], { begin: [1], size: [-1] })]) },
  // TF1 TensorArrays: outputs [handle, flow]; the flow (last input of every op) is the dense array.
  { ops: ['TensorArrayV3'], read: (r) => (r.arity(1), ((t: Tensor) => [t, t])(tensorArray(r))) },
  { ops: ['TensorArrayWriteV3'], read: (r) => (r.arity(4), [setItem(r, r.input(3), r.input(1), r.input(2))]) },
  { ops: ['TensorArrayReadV3'], read: (r) => (r.arity(3), [getItem(r.input(2), r.input(1))]) },
  { ops: ['TensorArrayGatherV3'], read: (r) => (r.arity(3), [getItem(r.input(2), r.input(1))]) },
  { ops: ['TensorArrayScatterV3'], read: (r) => (r.arity(4), [one('tensor_scatter_nd_update', [scatterTarget(r), one('expand_dims', [r.input(1)], { axis: 1 }), r.input(2)])]) },
  { ops: ['TensorArraySizeV3'], read: (r) => (r.arity(2), [length(r.input(1))]) },
  { ops: ['TensorArrayCloseV3'], read: (r) => (r.arity(1), []) },
  // Split(handle, value, lengths, flow) / Concat(handle, flow): equal lengths only (a dense array holds one element shape).
  { ops: ['TensorArraySplitV3'], read: (r) => (r.arity(4), [split(r, r.input(1))]) },
  { ops: ['TensorArrayConcatV3'], read: (r) => (r.arity(2), concatList(r, r.input(1))) },
];
