// Load-time constant folding (constant_fold.ts): static parameters (axes, perms, sizes) that a graph computes from
// Consts, or from the Shape/Rank/Size of statically shaped tensors, are evaluated once when the graph loads, as TF's
// grappler and tfjs-converter's converter fold them; stateful and random ops never fold, folded values are bounded,
// and errors keep naming the graph's nodes.
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

type T = ef.Tensor;
const F = { type: 'DT_FLOAT' };
const I = { type: 'DT_INT32' };
const shapeAttr = (dims: number[]) => ({ shape: { dim: dims.map((d) => ({ size: String(d) })) } });
const ints = (name: string, v: number[], scalar = false) => ({ name, op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: scalar ? {} : { dim: [{ size: String(v.length) }] }, int_val: v } } } });
const placeholder = (name: string, dims: number[]) => ({ name, op: 'Placeholder', attr: { dtype: F, shape: shapeAttr(dims) } });

function load(nodes: unknown[], outputs: Record<string, string>, inputs: Record<string, string> = { x: 'x:0' }): ef.LoadedFunction {
  const graph = ef.internal.readTfGraph({ node: nodes } as never);
  const sig = { inputs: Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, { name: v }])), outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { name: v }])) };
  return ef.internal.signatureFunction(graph, sig, { outputs: 'dict' });
}

describe('load-time constant folding', () => {
  test('a GatherV2 axis computed from Consts (StridedSlice(Range(0, Rank, 1))) and a Transpose perm from Rank(x) of an unknown-batch x', () => {
    const f = load([
      placeholder('x', [-1, 3]),
      ints('start', [0], true), ints('rank', [2], true), ints('delta', [1], true),
      { name: 'range', op: 'Range', input: ['start', 'rank', 'delta'], attr: { Tidx: I } },
      ints('b', [-1]), ints('e', [0]), ints('s', [1]),
      { name: 'axis', op: 'StridedSlice', input: ['range', 'b', 'e', 's'], attr: { T: I, Index: I, end_mask: { i: 1 }, shrink_axis_mask: { i: 1 } } },
      ints('idx', [2, 0]),
      { name: 'g', op: 'GatherV2', input: ['x', 'idx', 'axis'], attr: { Tparams: F, Tindices: I, Taxis: I, batch_dims: { i: 0 } } },
      // perm = Range(Rank(x) - 1, -1, -1): the reversed axes, from x's static rank (its batch is unknown).
      { name: 'r', op: 'Rank', input: ['x'], attr: { T: F } },
      ints('one', [1], true), ints('minus1', [-1], true),
      { name: 'last', op: 'Sub', input: ['r', 'one'], attr: { T: I } },
      { name: 'perm', op: 'Range', input: ['last', 'minus1', 'minus1'], attr: { Tidx: I } },
      { name: 't', op: 'Transpose', input: ['x', 'perm'], attr: { T: F, Tperm: I } },
    ], { g: 'g:0', t: 't:0' });
    // The folded parameters are static in the loaded graph: a gather on axis 1, a transpose by [1, 0].
    const text = f.graph.toString();
    expect(text).toMatch(/gather\[axis=1/);
    expect(text).toMatch(/transpose\[perm=\[1,0\]\]/);
    for (const rows of [2, 5]) {
      const data = Array.from({ length: rows * 3 }, (_, i) => i);
      const out = f({ x: ef.constant(data, 'float32', [rows, 3]) }) as Record<string, T>;
      expect(out.g.arraySync()).toEqual(Array.from({ length: rows }, (_, r) => [data[r * 3 + 2], data[r * 3]]));
      expect(out.t.dims).toEqual([3, rows]);
    }
    f.dispose();
  });

  test('Shape and Size of a statically shaped tensor fold; a Shape with an unknown dim stays a graph computation', () => {
    const f = load([
      placeholder('x', [-1, 4]),
      placeholder('w', [2, 3]),
      { name: 'sw', op: 'Size', input: ['w'], attr: { T: F, out_type: I } },
      ints('zero', [0], true),
      // k = Size(w) - 6 + 2 = 2 (static), TopKV2 reads it as its static k.
      ints('four', [4], true),
      { name: 'k', op: 'Sub', input: ['sw', 'four'], attr: { T: I } },
      { name: 'top', op: 'TopKV2', input: ['x', 'k'], attr: { T: F, sorted: { b: true } } },
      // Reshape(x, Shape(x)[1:] with a -1 in front): reads x's unknown batch when the graph runs.
      { name: 'sx', op: 'Shape', input: ['x'], attr: { T: F, out_type: I } },
      ints('b1', [1]), ints('e1', [2]), ints('s1', [1]), ints('m1', [-1]),
      { name: 'tail', op: 'StridedSlice', input: ['sx', 'b1', 'e1', 's1'], attr: { T: I, Index: I } },
      { name: 'shp', op: 'ConcatV2', input: ['m1', 'tail', 'zero'], attr: { T: I, N: { i: 2 }, Tidx: I } },
      { name: 'y', op: 'Reshape', input: ['x', 'shp'], attr: { T: F, Tshape: I } },
    ], { top: 'top:0', y: 'y:0' }, { x: 'x:0', w: 'w:0' });
    expect(f.graph.toString()).toMatch(/top_k\[k=2/);
    const x = ef.constant([1, 5, 2, 4, 9, 0, 3, 7], 'float32', [2, 4]);
    const out = f({ x, w: ef.zeros([2, 3]) }) as Record<string, T>;
    expect(out.top.arraySync()).toEqual([[5, 4], [9, 7]]);
    expect(out.y.arraySync()).toEqual(x.arraySync());
    f.dispose();
  });

  test('random and stateful ops never fold: a perm drawn at random is refused at load, naming the node', () => {
    const e = thrown(() => load([
      placeholder('x', [2, 3]),
      ints('shape', [2]),
      { name: 'u', op: 'RandomUniform', input: ['shape'], attr: { T: I, dtype: F, seed: { i: 1 }, seed2: { i: 2 } } },
      { name: 'p', op: 'Cast', input: ['u'], attr: { SrcT: F, DstT: I, Truncate: { b: false } } },
      { name: 't', op: 'Transpose', input: ['x', 'p'], attr: { T: F, Tperm: I } },
    ], { t: 't:0' }));
    expect(e).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(String(e)).toMatch(/node 't' \(Transpose\).*perm.*input 'p'/s);
  });

  test('folding is bounded: a static parameter computed through a value larger than the fold limit is not folded', () => {
    const nodes = (n: number) => [
      placeholder('x', [2, 3]),
      ints('dims', [n]), ints('zero', [0], true), ints('axes', [0]),
      { name: 'big', op: 'Fill', input: ['dims', 'zero'], attr: { T: I, index_type: I } },
      { name: 'axis', op: 'Sum', input: ['big', 'axes'], attr: { T: I, Tidx: I, keep_dims: { b: false } } },
      { name: 'y', op: 'Cumsum', input: ['x', 'axis'], attr: { T: F, Tidx: I, exclusive: { b: false }, reverse: { b: false } } },
    ];
    // 2^16 elements fold (the limit) ...
    const f = load(nodes(1 << 16), { y: 'y:0' });
    expect((f({ x: ef.constant([1, 2, 3, 4, 5, 6], 'float32', [2, 3]) }) as Record<string, T>).y.arraySync()).toEqual([[1, 2, 3], [5, 7, 9]]);
    f.dispose();
    // ... one more is a graph computation, so the axis is not static.
    expect(() => load(nodes((1 << 16) + 1), { y: 'y:0' })).toThrow(/node 'y' \(Cumsum\).*axis must be a numeric Const.*input 'axis'/s);
  });

  test('a node that cannot be evaluated is not folded: it stays in the graph, and its own error names it, without leaks', () => {
    // Reshape of a 6-element Const to [4]: not foldable, so the Transpose's perm is not static either.
    const nodes = [
      placeholder('x', [2, 3]),
      { name: 'c', op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: { dim: [{ size: '6' }] }, int_val: [1, 0, 0, 0, 0, 0] } } } },
      ints('four', [4]),
      { name: 'bad', op: 'Reshape', input: ['c', 'four'], attr: { T: I, Tshape: I } },
      { name: 'y', op: 'AddV2', input: ['x', 'x'], attr: { T: F } },
      { name: 'z', op: 'Cast', input: ['bad'], attr: { SrcT: I, DstT: F, Truncate: { b: false } } },
    ];
    const before = ef.memory().numTensors;
    const e = thrown(() => load(nodes, { y: 'y:0', z: 'z:0' }));
    expect(e).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(String(e)).toMatch(/'bad' \(Reshape\)/);
    expect(ef.memory().numTensors).toBe(before);
  });

  test('Shapes fold per call of a library function: the same FunctionDef at two static shapes', () => {
    const fdef = {
      signature: { name: 'flat', inputArg: [{ name: 'a', type: 'DT_FLOAT' }], outputArg: [{ name: 'out', type: 'DT_FLOAT' }] },
      nodeDef: [
        { name: 'n', op: 'Size', input: ['a'], attr: { T: F, out_type: I } },
        { name: 'one', op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: { dim: [{ size: '1' }] }, int_val: [1] } } } },
        { name: 'shp', op: 'Reshape', input: ['n:output:0', 'one:output:0'], attr: { T: I, Tshape: I } },
        { name: 'r', op: 'Reshape', input: ['a', 'shp:output:0'], attr: { T: F, Tshape: I } },
        { name: 'k', op: 'TopKV2', input: ['r:output:0', 'n:output:0'], attr: { T: F, sorted: { b: true } } },
      ],
      ret: { out: 'k:values:0' },
    };
    const graph = ef.internal.readTfGraph({
      node: [
        placeholder('x', [2, 2]), placeholder('v', [3]),
        { name: 'c1', op: 'PartitionedCall', input: ['x'], attr: { Tin: { list: { type: ['DT_FLOAT'] } }, Tout: { list: { type: ['DT_FLOAT'] } }, f: { func: { name: 'flat' } } } },
        { name: 'c2', op: 'PartitionedCall', input: ['v'], attr: { Tin: { list: { type: ['DT_FLOAT'] } }, Tout: { list: { type: ['DT_FLOAT'] } }, f: { func: { name: 'flat' } } } },
      ],
      library: { function: [fdef] },
    } as never);
    const f = ef.internal.signatureFunction(graph, { inputs: { x: { name: 'x:0' }, v: { name: 'v:0' } }, outputs: { a: { name: 'c1:0' }, b: { name: 'c2:0' } } }, { outputs: 'dict' });
    expect(f.graph.toString()).toMatch(/top_k\[k=4[^]*top_k\[k=3/);
    const out = f({ x: ef.constant([3, 1, 4, 2], 'float32', [2, 2]), v: ef.constant([0, 2, 1]) }) as Record<string, T>;
    expect([out.a.arraySync(), out.b.arraySync()]).toEqual([[4, 3, 2, 1], [2, 1, 0]]);
    f.dispose();
  });
});
