// Growing TensorLists in TF1 while loops (hand-built GraphDefs), each run by ef.loadFunction and by tfjs-converter's
// GraphModel.executeAsync on the same artifacts: TensorListReserve(-1) + SetItem(resize_if_index_out_of_bounds) as
// TensorArray(dynamic_size=True) writes it, EmptyTensorList + PushBack/PopBack, Scatter/Gather/Concat/Split/Resize/
// Length; input gradients through them against central differences; bad lists fail with clear errors, without leaks.
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { A, Const, F, I, Node, artifacts as artifactsAt, node } from './helpers';

type T = ef.Tensor;
const V = { type: 'DT_VARIANT' };
const vals = (t: T): number[] => Array.from(t.dataSync() as ArrayLike<number>);
const artifacts = (nodes: Node[], consts: Record<string, Const>): tf.io.ModelArtifacts => artifactsAt(nodes, consts, '1.15');
const int = (values: number[], shape: number[] = [], pivot?: string): Const => ({ dtype: 'int32', shape, values, ...(pivot ? { pivot } : {}) });
const float = (v: number, pivot: string): Const => ({ dtype: 'float32', shape: [], values: [v], pivot });
const enter = (name: string, input: string, T: unknown, isConstant = false): Node => node(name, 'Enter', [input], { T, frame_name: A.s('f'), is_constant: A.b(isConstant), parallel_iterations: A.i(10) });

/**
 * for i in [0, n): lists = body(i, lists), as TF1's while frame 'f'. `lists` maps a loop variable to its initial
 * (outer) list; `body(ref)` gets the names of i and of each list inside the body and returns its nodes and each
 * list's next value. Returns the loop nodes; `f/exit_<name>` is each list of `exits` after the loop.
 */
function loop(n: number, lists: Record<string, string>, body: (ref: Record<string, string>) => { nodes: Node[]; next: Record<string, string> }, exits: string[]): { nodes: Node[]; consts: Record<string, Const> } {
  const names = Object.keys(lists);
  const ref: Record<string, string> = { i: 'f/body_i', ...Object.fromEntries(names.map((k) => [k, `f/sw_${k}:1`])) };
  const b = body(ref);
  return {
    nodes: [
      enter('f/enter_i', 'f/i0', I),
      enter('f/enter_n', 'f/n', I, true),
      ...names.map((k) => enter(`f/enter_${k}`, lists[k], V)),
      node('f/merge_i', 'Merge', ['f/enter_i', 'f/next_i'], { T: I, N: A.i(2) }),
      ...names.map((k) => node(`f/merge_${k}`, 'Merge', [`f/enter_${k}`, `f/next_${k}`], { T: V, N: A.i(2) })),
      node('f/less', 'Less', ['f/merge_i', 'f/enter_n'], { T: I }),
      node('f/cond', 'LoopCond', ['f/less']),
      node('f/sw_i', 'Switch', ['f/merge_i', 'f/cond'], { T: I }),
      ...names.map((k) => node(`f/sw_${k}`, 'Switch', [`f/merge_${k}`, 'f/cond'], { T: V })),
      node('f/body_i', 'Identity', ['f/sw_i:1'], { T: I }),
      node('f/add_i', 'AddV2', ['f/body_i', 'f/one'], { T: I }),
      ...b.nodes,
      node('f/next_i', 'NextIteration', ['f/add_i'], { T: I }),
      ...names.map((k) => node(`f/next_${k}`, 'NextIteration', [b.next[k]], { T: V })),
      ...exits.map((k) => node(`f/exit_${k}`, 'Exit', [`f/sw_${k}`], { T: V })),
    ],
    consts: { 'f/i0': int([0]), 'f/n': int([n]), 'f/one': int([1], [], 'f/body_i') },
  };
}

/** TensorArray(dynamic_size=True): out = Reserve(-1); out[i] = x[i]² + 1 (SetItem, growing); Stack, and Length. */
function dynamicArrayModel(): tf.io.ModelArtifacts {
  const l = loop(3, { in: 'in_list', out: 'out_list' }, (r) => ({
    nodes: [
      node('f/item', 'TensorListGetItem', [r.in, r.i, 'f/shape_in'], { element_dtype: F }),
      node('f/sq', 'Mul', ['f/item', 'f/item'], { T: F }),
      node('f/val', 'AddV2', ['f/sq', 'f/onef'], { T: F }),
      node('f/set', 'TensorListSetItem', [r.out, r.i, 'f/val'], { element_dtype: F, resize_if_index_out_of_bounds: A.b(true) }),
    ],
    next: { in: r.in, out: 'f/set' },
  }), ['out']);
  return artifacts(
    [
      node('x', 'Placeholder', [], { dtype: F, shape: A.shape([3, 2]) }),
      node('in_list', 'TensorListFromTensor', ['x', 'elem'], { element_dtype: F, shape_type: I }),
      node('out_list', 'TensorListReserve', ['elem', 'minus1'], { element_dtype: F, shape_type: I }),
      ...l.nodes,
      node('y', 'TensorListStack', ['f/exit_out', 'elem'], { element_dtype: F, num_elements: A.i(-1) }),
      node('len', 'TensorListLength', ['f/exit_out']),
    ],
    { ...l.consts, elem: int([2], [1]), minus1: int([-1]), 'f/shape_in': int([2], [1], 'f/body_i'), 'f/onef': float(1, 'f/body_i') },
  );
}

/**
 * A Python list in autograph: out = EmptyTensorList; out.append(3·x[i]) (PushBack); then Stack and Length, and with
 * `pop` TensorListPopBack's (rest, last item) as TF defines them (tfjs-converter returns the item as output 0 and
 * mutates the list in place, so those outputs are checked by hand).
 */
function pushModel(pop = false): tf.io.ModelArtifacts {
  const l = loop(4, { in: 'in_list', out: 'out_list' }, (r) => ({
    nodes: [
      node('f/item', 'TensorListGetItem', [r.in, r.i, 'f/shape_in'], { element_dtype: F }),
      node('f/val', 'Mul', ['f/item', 'f/three'], { T: F }),
      node('f/push', 'TensorListPushBack', [r.out, 'f/val'], { element_dtype: F }),
    ],
    next: { in: r.in, out: 'f/push' },
  }), ['out']);
  const tail = pop
    ? [
        node('pop', 'TensorListPopBack', ['f/exit_out', 'elem'], { element_dtype: F }),
        node('last', 'Identity', ['pop:1'], { T: F }),
        node('rest', 'TensorListStack', ['pop', 'elem'], { element_dtype: F, num_elements: A.i(3) }),
        node('len', 'TensorListLength', ['pop']),
      ]
    : [node('all', 'TensorListStack', ['f/exit_out', 'elem'], { element_dtype: F, num_elements: A.i(4) }), node('len', 'TensorListLength', ['f/exit_out'])];
  return artifacts(
    [node('x', 'Placeholder', [], { dtype: F, shape: A.shape([4, 3]) }), node('in_list', 'TensorListFromTensor', ['x', 'elem'], { element_dtype: F, shape_type: I }), node('out_list', 'EmptyTensorList', ['elem', 'minus1'], { element_dtype: F, shape_type: I }), ...l.nodes, ...tail],
    { ...l.consts, elem: int([3], [1]), minus1: int([-1]), 'f/shape_in': int([3], [1], 'f/body_i'), 'f/three': float(3, 'f/body_i') },
  );
}

/**
 * Scatter (indices [2, 0, 3, 1]) -> a loop doubling each item in place -> Gather([3, 0]), Concat, Resize(2) + Stack,
 * (tfjs-converter's TensorListSplit reshapes each piece to the element shape without its length: Split is checked
 * against TF's definition by hand below.)
 */
function scatterModel(): tf.io.ModelArtifacts {
  const l = loop(4, { l: 'scattered' }, (r) => ({
    nodes: [
      node('f/item', 'TensorListGetItem', [r.l, r.i, 'f/shape_in'], { element_dtype: F }),
      node('f/twice', 'AddV2', ['f/item', 'f/item'], { T: F }),
      node('f/set', 'TensorListSetItem', [r.l, r.i, 'f/twice'], { element_dtype: F }),
    ],
    next: { l: 'f/set' },
  }), ['l']);
  return artifacts(
    [
      node('x', 'Placeholder', [], { dtype: F, shape: A.shape([4, 2]) }),
      node('scattered', 'TensorListScatterV2', ['x', 'idx', 'elem', 'minus1'], { element_dtype: F, shape_type: I }),
      ...l.nodes,
      node('gathered', 'TensorListGather', ['f/exit_l', 'gidx', 'elem'], { element_dtype: F }),
      // tfjs-converter reads ConcatV2's element shape from an attr (TF's V2 takes it as input 1): both are given.
      node('cat', 'TensorListConcatV2', ['f/exit_l', 'elem', 'lead'], { element_dtype: F, shape_type: I, element_shape: A.shape([2]) }),
      node('small', 'TensorListResize', ['f/exit_l', 'two']),
      node('small_stack', 'TensorListStack', ['small', 'elem'], { element_dtype: F, num_elements: A.i(2) }),
      node('g_out', 'Identity', ['gathered'], { T: F }),
      node('c_out', 'Identity', ['cat'], { T: F }),
    ],
    { ...l.consts, idx: int([2, 0, 3, 1], [4]), gidx: int([3, 0], [2]), elem: int([2], [1]), lead: int([-1]), two: int([2]), minus1: int([-1]), 'f/shape_in': int([2], [1], 'f/body_i') },
  );
}

/**
 * The TensorArray(dynamic_size=True) loop in TF2's functional form: StatelessWhile over (i, in_list, out_list) with
 * cond/body library functions (their Consts are weights too, as tfjs-converter writes them).
 */
function functionalWhileModel(): tf.io.ModelArtifacts {
  const fnConsts: Record<string, Const> = { 'c/n': int([3]), 'b/one': int([1]), 'b/shape': int([2], [1]) };
  const constNode = (name: string): Node => node(name, 'Const', [], { dtype: I, value: { tensor: { dtype: 'DT_INT32' } } });
  const arg = (name: string, type: string) => ({ name, type });
  const a = artifacts(
    [
      node('x', 'Placeholder', [], { dtype: F, shape: A.shape([3, 2]) }),
      node('in_list', 'TensorListFromTensor', ['x', 'elem'], { element_dtype: F, shape_type: I }),
      node('out_list', 'TensorListReserve', ['elem', 'minus1'], { element_dtype: F, shape_type: I }),
      node('while', 'StatelessWhile', ['i0', 'in_list', 'out_list'], { T: { list: { type: ['DT_INT32', 'DT_VARIANT', 'DT_VARIANT'] } }, cond: { func: { name: 'c' } }, body: { func: { name: 'b' } }, parallel_iterations: A.i(10) }),
      node('y', 'TensorListStack', ['while:2', 'elem'], { element_dtype: F, num_elements: A.i(-1) }),
    ],
    { elem: int([2], [1]), minus1: int([-1]), i0: int([0]), ...fnConsts },
  );
  const top = a.modelTopology as { node: Node[]; library?: unknown };
  top.node = top.node.filter((n) => !(n.name in fnConsts));
  const sig = (name: string, outs: [string, string][]) => ({ name, inputArg: [arg(`${name}_i`, 'DT_INT32'), arg(`${name}_a`, 'DT_VARIANT'), arg(`${name}_b`, 'DT_VARIANT')], outputArg: outs.map(([n, t]) => arg(n, t)) });
  top.library = {
    function: [
      { signature: sig('c', [['out', 'DT_BOOL']]), nodeDef: [constNode('c/n'), node('c/less', 'Less', ['c_i', 'c/n'], { T: I })], ret: { out: 'c/less:0' } },
      {
        signature: sig('b', [['o0', 'DT_INT32'], ['o1', 'DT_VARIANT'], ['o2', 'DT_VARIANT']]),
        nodeDef: [
          constNode('b/one'),
          constNode('b/shape'),
          node('b/item', 'TensorListGetItem', ['b_a', 'b_i', 'b/shape'], { element_dtype: F }),
          node('b/sq', 'Mul', ['b/item', 'b/item'], { T: F }),
          node('b/set', 'TensorListSetItem', ['b_b', 'b_i', 'b/sq'], { element_dtype: F, resize_if_index_out_of_bounds: A.b(true) }),
          node('b/next_i', 'AddV2', ['b_i', 'b/one'], { T: I }),
          node('b/same_a', 'Identity', ['b_a'], { T: { type: 'DT_VARIANT' } }),
        ],
        ret: { o0: 'b/next_i:0', o1: 'b/same_a:0', o2: 'b/set:0' },
      },
    ],
  };
  return a;
}

/** Runs both on x (executeAsync on the converter side); equal shapes, values within 2e-6 relative. */
async function bothRun(a: tf.io.ModelArtifacts, x: number[], shape: number[]): Promise<{ g: ef.LoadedFunction; got: T[] }> {
  const g = ef.loadFunction(a);
  const model = await loadGraphModel(tf.io.fromMemory(a));
  const input = tf.tensor(x, shape);
  const want = [await model.executeAsync(input)].flat() as tf.Tensor[];
  const xt = ef.constant(x, 'float32', shape);
  const got = [g(xt) as T | T[]].flat();
  expect(got.length).toBe(want.length);
  got.forEach((t, k) => {
    expect(t.dims).toEqual(want[k].shape);
    expect(t.dtype).toBe(want[k].dtype);
    const [u, v] = [vals(t), Array.from(want[k].dataSync() as ArrayLike<number>)];
    const scale = Math.max(1e-6, ...v.map(Math.abs));
    u.forEach((e, i) => expect(Math.abs(e - v[i]) / scale).toBeLessThan(2e-6));
  });
  tf.dispose([input, ...want]);
  xt.dispose();
  model.dispose();
  return { g, got };
}

const X32 = [1, -2, 0.5, 3, -1, 0.25];
const X43 = [0.5, -1, 2, 1.5, 0.25, -0.75, 3, -2, 1, 0.1, 0.2, -0.3];
const X42 = [1, 2, -3, 4, 0.5, -6, 7, 8];

describe('growing TensorLists in while loops match tfjs-converter', () => {
  test('TensorListReserve(-1) grown by SetItem(resize_if_index_out_of_bounds), then Stack and Length', async () => {
    const before = ef.memory().numTensors;
    const { g, got } = await bothRun(dynamicArrayModel(), X32, [3, 2]);
    expect(vals(got[0])).toEqual(X32.map((e) => e * e + 1));
    expect(got[1].item()).toBe(3);
    // The grown list is a loop variable of unknown length: a pad by paddings computed in the loop (pad's tensor form).
    expect(g.graph.toString()).toMatch(/= pad \w+ \w+$/m);
    ef.dispose(got);
    g.dispose();
    expect(ef.memory().numTensors).toBe(before);
  });

  test('the same growing list in a TF2 functional StatelessWhile (cond/body library functions; by hand)', () => {
    // tfjs-converter 4.22's executeAsync throws on this model (a list element written in the body function is
    // disposed before TensorListStack reads it), so the values are checked by hand and the gradient by differences.
    const g = ef.loadFunction(functionalWhileModel());
    const xt = ef.constant(X32, 'float32', [3, 2]);
    const y = g(xt) as T;
    expect(y.dims).toEqual([3, 2]);
    expect(vals(y)).toEqual(X32.map((e) => Math.fround(e * e)));
    ef.dispose([xt, y]);
    const { tape, fd } = directional(g, X32, [3, 2]);
    expect(Math.abs(tape - fd)).toBeLessThanOrEqual(2e-3 * Math.abs(fd) + 1e-3);
    g.dispose();
  });

  test('EmptyTensorList grown by PushBack, then Stack and Length', async () => {
    const { g, got } = await bothRun(pushModel(), X43, [4, 3]);
    expect(vals(got[0])).toEqual(X43.map((e) => Math.fround(3 * Math.fround(e))));
    expect(got[1].item()).toBe(4);
    ef.dispose(got);
    g.dispose();
  });

  test('PopBack after the PushBack loop: the last item and the rest, as TF defines its outputs (by hand)', () => {
    const g = ef.loadFunction(pushModel(true));
    const xt = ef.constant(X43, 'float32', [4, 3]);
    const [last, rest, len] = g(xt) as T[];
    expect(vals(last)).toEqual(X43.slice(9).map((e) => Math.fround(3 * Math.fround(e))));
    expect(vals(rest)).toEqual(X43.slice(0, 9).map((e) => Math.fround(3 * Math.fround(e))));
    expect(len.item()).toBe(3);
    ef.dispose([xt, last, rest, len]);
    g.dispose();
  });

  test('ScatterV2, SetItem in a loop, Gather, ConcatV2, Resize (shrinking)', async () => {
    const { g, got } = await bothRun(scatterModel(), X42, [4, 2]);
    // scattered[idx[k]] = x[k]: rows [x1, x3, x0, x2], doubled in the loop.
    const rows = [1, 3, 0, 2].map((k) => X42.slice(2 * k, 2 * k + 2).map((e) => 2 * e));
    expect(g.outputNames).toEqual(['small_stack', 'g_out', 'c_out']);
    expect(vals(got[0])).toEqual([...rows[0], ...rows[1]]);
    expect(vals(got[1])).toEqual([...rows[3], ...rows[0]]);
    expect(vals(got[2])).toEqual(rows.flat());
    ef.dispose(got);
    g.dispose();
  });

  test('TensorListSplit into equal pieces, as TF defines it: element k is rows [k·len, (k+1)·len) (by hand)', () => {
    const a = artifacts(
      [node('x', 'Placeholder', [], { dtype: F, shape: A.shape([4, 2]) }), node('l', 'TensorListSplit', ['x', 'elem', 'lengths'], { element_dtype: F, shape_type: I }), node('y', 'TensorListStack', ['l', 'pair'], { element_dtype: F, num_elements: A.i(2) }), node('second', 'TensorListGetItem', ['l', 'one', 'pair'], { element_dtype: F })],
      { elem: int([-1, 2], [2]), lengths: int([2, 2], [2]), pair: int([2, 2], [2]), one: int([1]) },
    );
    const g = ef.loadFunction(a);
    const xt = ef.constant(X42, 'float32', [4, 2]);
    const [y, second] = g(xt) as T[];
    expect(y.dims).toEqual([2, 2, 2]);
    expect(vals(y)).toEqual(X42);
    expect(vals(second)).toEqual(X42.slice(4));
    ef.dispose([xt, y, second]);
    g.dispose();
  });

  test('Resize up and SetItem past the end pad with zero elements, as TF reads unset elements of a known shape (by hand)', () => {
    const a = artifacts(
      [
        node('x', 'Placeholder', [], { dtype: F, shape: A.shape([2, 2]) }),
        node('l', 'TensorListFromTensor', ['x', 'elem'], { element_dtype: F, shape_type: I }),
        node('big', 'TensorListResize', ['l', 'four']),
        node('y', 'TensorListStack', ['big', 'elem'], { element_dtype: F, num_elements: A.i(4) }),
        node('e', 'TensorListReserve', ['elem', 'minus1'], { element_dtype: F, shape_type: I }),
        node('set', 'TensorListSetItem', ['e', 'three', 'row'], { element_dtype: F, resize_if_index_out_of_bounds: A.b(true) }),
        node('z', 'TensorListStack', ['set', 'elem'], { element_dtype: F, num_elements: A.i(-1) }),
        // The element written at index 3: row 0 of x.
        node('row', 'GatherV2', ['x', 'zero', 'zero'], { Tparams: F, Tindices: I, Taxis: I, batch_dims: A.i(0) }),
        node('z_len', 'TensorListLength', ['set']),
      ],
      { elem: int([2], [1]), four: int([4]), three: int([3]), minus1: int([-1]), zero: int([0]) },
    );
    const g = ef.loadFunction(a);
    const xt = ef.constant([1, 2, 3, 4], 'float32', [2, 2]);
    const outs = g(xt) as T[];
    const by = Object.fromEntries(g.outputNames.map((n, k) => [n, outs[k]]));
    expect(vals(by.y)).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
    expect(vals(by.z)).toEqual([0, 0, 0, 0, 0, 0, 1, 2]);
    expect(by.z_len.item()).toBe(4);
    ef.dispose([xt, ...outs]);
    g.dispose();
  });

  test('saveFunction writes the grown lists back and the result runs again with the same values', async () => {
    for (const [make, x, shape] of [[dynamicArrayModel, X32, [3, 2]], [() => pushModel(true), X43, [4, 3]]] as const) {
      const g = ef.loadFunction(make());
      const again = ef.loadFunction(ef.saveFunction(g));
      const xt = ef.constant([...x], 'float32', [...shape]);
      const [a, b] = [[g(xt) as T | T[]].flat(), [again(xt) as T | T[]].flat()];
      a.forEach((t, k) => expect(vals(b[k])).toEqual(vals(t)));
      ef.dispose([xt, ...a, ...b]);
      g.dispose();
      again.dispose();
    }
  });
});

/** d/dv sum(w·y) along v by the tape and by central differences (float64 sums), for the first float output. */
function directional(g: ef.LoadedFunction, x: number[], shape: number[], h = 1e-3): { tape: number; fd: number } {
  const v = x.map((_, i) => Math.cos(1 + 2 * i));
  const first = (xt: T): T => {
    const ys = [g(xt) as T | T[]].flat();
    const y = ys.find((t) => t.dtype === 'float32') as T;
    ys.filter((t) => t !== y).forEach((t) => t.dispose());
    return y;
  };
  const f = (xs: number[]): number => ef.tidy(() => (vals(first(ef.constant(xs, 'float32', shape))).reduce((s, e, i) => s + e * Math.sin(3 + i), 0)));
  const xt = ef.constant(x, 'float32', shape);
  const tape = new ef.GradientTape();
  const loss = tape.record(() => {
    tape.watch(xt);
    const y = ef.reshape(first(xt), [-1]);
    return ef.reduceSum(ef.multiply(y, ef.constant(Array.from({ length: y.size as number }, (_, i) => Math.sin(3 + i)))));
  });
  const grad = vals(tape.gradient(loss, xt) as T);
  const fd = (f(x.map((e, i) => e + h * v[i])) - f(x.map((e, i) => e - h * v[i]))) / (2 * h);
  ef.dispose([xt, loss]);
  return { tape: grad.reduce((s, e, i) => s + e * v[i], 0), fd };
}

describe('lists whose element shape is only partly known (a Keras RNN\'s TensorArray of [batch, units])', () => {
  /**
   * x: [batch, 3] with batch unknown. Reserve(element_shape [-1, 3], 2); SetItem 0 <- x, 1 <- 2x; Stack -> [2, batch, 3].
   * Beside it a Reserve of unknown element rank (a scalar -1) that nothing reads, as Keras' rnn leaves one: TF's
   * function runtime prunes it, so it must not stop the load.
   */
  const model = (): tf.io.ModelArtifacts => ({ ...artifacts(
    [
      node('x', 'Placeholder', [], { dtype: F, shape: A.shape([-1, 3]) }),
      node('two_x', 'Mul', ['x', 'two'], { T: F }),
      node('list', 'TensorListReserve', ['partial', 'n'], { element_dtype: F, shape_type: I }),
      node('dead', 'TensorListReserve', ['unknown_rank', 'n'], { element_dtype: F, shape_type: I }),
      node('set0', 'TensorListSetItem', ['list', 'zero', 'x'], { element_dtype: F }),
      node('set1', 'TensorListSetItem', ['set0', 'one', 'two_x'], { element_dtype: F }),
      node('y', 'TensorListStack', ['set1', 'partial'], { element_dtype: F, num_elements: A.i(2) }),
    ],
    { partial: int([-1, 3], [2]), unknown_rank: int([-1]), n: int([2]), zero: int([0]), one: int([1]), two: { dtype: 'float32', shape: [], values: [2] } },
  ), signature: { inputs: { x: { name: 'x:0' } }, outputs: { y: { name: 'y:0' } } } });

  test.each([[2], [5]])('batch %i: outputs and input gradients, eager and traced with the batch unknown', (batch) => {
    const g = ef.loadFunction(model());
    const xs = Array.from({ length: batch * 3 }, (_, i) => Math.sin(i + 1));
    const traced = ef.trace((x: T) => g(x) as T, { inputSignature: [new ef.TensorSpec([null, 3], 'float32')] });
    for (const f of [(x: T) => g(x) as T, traced]) {
      const x = ef.constant(xs, 'float32', [batch, 3]);
      const w = ef.constant(Array.from({ length: 2 * batch * 3 }, (_, i) => Math.cos(i)), 'float32', [2, batch, 3]);
      const tape = new ef.GradientTape();
      let y = x;
      const loss = tape.record(() => {
        tape.watch(x);
        y = f(x);
        return ef.reduceSum(ef.multiply(y, w));
      });
      expect(y.dims).toEqual([2, batch, 3]);
      expect(vals(y)).toEqual([...xs, ...xs.map((v) => 2 * v)].map((v) => Math.fround(v)));
      const dx = tape.gradient(loss, x) as T;
      const wv = vals(w);
      vals(dx).forEach((v, i) => expect(v).toBeCloseTo(wv[i] + 2 * wv[batch * 3 + i], 5));
    }
    g.dispose();
  });
});

describe('input gradients through growing lists match central differences', () => {
  test.each([
    ['Reserve(-1) + growing SetItem + Stack', dynamicArrayModel, X32, [3, 2]],
    ['EmptyTensorList + PushBack + PopBack (the popped item)', () => pushModel(true), X43, [4, 3]],
    ['EmptyTensorList + PushBack + Stack', () => pushModel(false), X43, [4, 3]],
    ['Scatter + SetItem + Gather', scatterModel, X42, [4, 2]],
  ] as const)('%s', (_name, make, x, shape) => {
    const g = ef.loadFunction(make());
    const { tape, fd } = directional(g, [...x], [...shape]);
    expect(Math.abs(tape)).toBeGreaterThan(1e-2);
    expect(Math.abs(tape - fd)).toBeLessThanOrEqual(2e-3 * Math.abs(fd) + 1e-3);
    g.dispose();
  });
});

describe('lists that cannot be dense fail with clear errors, without leaks', () => {
  test('TensorListSplit with unequal lengths (a ragged list) fails at load, naming the op', () => {
    const a = artifacts(
      [node('x', 'Placeholder', [], { dtype: F, shape: A.shape([3, 2]) }), node('l', 'TensorListSplit', ['x', 'elem', 'lengths'], { element_dtype: F, shape_type: I }), node('y', 'TensorListStack', ['l', 'elem'], { element_dtype: F })],
      { elem: int([-1], [1]), lengths: int([1, 2], [2]) },
    );
    expect(() => ef.loadFunction(a)).toThrow(/TensorListSplit.*equal Const lengths.*\[1, 2\]/s);
  });

  test('PopBack from a list that is empty at load fails at load, naming the problem', () => {
    const a = artifacts(
      [node('x', 'Placeholder', [], { dtype: F, shape: A.shape([2]) }), node('l', 'EmptyTensorList', ['elem', 'minus1'], { element_dtype: F, shape_type: I }), node('pop', 'TensorListPopBack', ['l', 'elem'], { element_dtype: F }), node('y', 'AddV2', ['pop:1', 'x'], { T: F })],
      { elem: int([2], [1]), minus1: int([-1]) },
    );
    const before = ef.memory().numTensors;
    expect(() => ef.loadFunction(a)).toThrow(/TensorListPopBack.*cannot pop from an empty list/s);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('PushBack of an item of another rank fails at load', () => {
    const a = artifacts(
      [node('x', 'Placeholder', [], { dtype: F, shape: A.shape([2, 2]) }), node('l', 'EmptyTensorList', ['elem', 'minus1'], { element_dtype: F, shape_type: I }), node('p', 'TensorListPushBack', ['l', 'x'], { element_dtype: F }), node('y', 'TensorListStack', ['p', 'elem'], { element_dtype: F })],
      { elem: int([2], [1]), minus1: int([-1]) },
    );
    expect(() => ef.loadFunction(a)).toThrow(/item shape does not match the list elements/);
  });
});
