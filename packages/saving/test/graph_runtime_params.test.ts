// Importer parameters only the run time knows: SplitV by computed sizes (one -1 for the rest of the axis), StridedSlice
// with computed strides (checked to be 1 when the graph runs), and TF's Assert kept as a run-time check that raises
// InvalidArgumentError naming its node (tf.image's and tf.signal.frame's graphs on unknown sizes use all three).
import * as ef from 'eagerflow';
import { thrown } from '../../../test/harness/thrown';

type T = ef.Tensor;

describe('graph parameters read when the graph runs', () => {
  test('SplitV by sizes the graph computes (one -1 for the rest) and StridedSlice with computed strides, as TF runs them', () => {
    const F = { type: 'DT_FLOAT' };
    const I = { type: 'DT_INT32' };
    const ints = (name: string, v: number[], scalar = false) => ({ name, op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: scalar ? {} : { dim: [{ size: String(v.length) }] }, int_val: v } } } });
    // strides: Fill(one, stride) folds at load (a static stride); one * ((n // n) * stride) is only known when the graph runs.
    const graph = (stride: number, runTime = false) => ef.internal.readTfGraph({ node: [
      { name: 'x', op: 'Placeholder', attr: { dtype: F, shape: { shape: { dim: [{ size: '-1' }] } } } },
      { name: 'shape', op: 'Shape', input: ['x'], attr: { T: F, out_type: I } },
      ints('b0', [0]), ints('b1', [1]), ints('two', [2], true), ints('minus1', [-1], true), ints('axis', [0], true), ints('one', [1]), ints('stride', [stride], true),
      { name: 'n', op: 'StridedSlice', input: ['shape', 'b0', 'b1', 'b1'], attr: { T: I, Index: I, shrink_axis_mask: { i: 1 } } },
      { name: 'rest', op: 'Sub', input: ['n', 'two'], attr: { T: I } },
      { name: 'sizes', op: 'Pack', input: ['two', 'rest'], attr: { T: I, N: { i: 2 } } },
      { name: 'sp', op: 'SplitV', input: ['x', 'sizes', 'axis'], attr: { T: F, Tlen: I, num_split: { i: 2 } } },
      { name: 'sizes2', op: 'Pack', input: ['minus1', 'two'], attr: { T: I, N: { i: 2 } } },
      { name: 'sp2', op: 'SplitV', input: ['x', 'sizes2', 'axis'], attr: { T: F, Tlen: I, num_split: { i: 2 } } },
      { name: 'end', op: 'Pack', input: ['n'], attr: { T: I, N: { i: 1 } } },
      { name: 'nn', op: 'FloorDiv', input: ['n', 'n'], attr: { T: I } },
      { name: 'strideRt', op: 'Mul', input: ['nn', 'stride'], attr: { T: I } },
      runTime ? { name: 'strides', op: 'Mul', input: ['one', 'strideRt'], attr: { T: I } } : { name: 'strides', op: 'Fill', input: ['one', 'stride'], attr: { T: I, index_type: I } },
      { name: 'ss', op: 'StridedSlice', input: ['x', 'b1', 'end', 'strides'], attr: { T: F, Index: I } },
    ] } as never);
    const outputs = { a: { name: 'sp:0' }, b: { name: 'sp:1' }, c: { name: 'sp2:0' }, d: { name: 'sp2:1' }, e: { name: 'ss:0' } };
    for (const runTime of [false, true]) {
      const f = ef.internal.signatureFunction(graph(1, runTime), { inputs: { x: { name: 'x:0' } }, outputs }, { outputs: 'dict' });
      const out = f({ x: ef.constant([1, 2, 3, 4, 5]) }) as Record<string, T>;
      expect(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.arraySync()]))).toEqual({ a: [1, 2], b: [3, 4, 5], c: [1, 2, 3], d: [4, 5], e: [2, 3, 4, 5] });
      // Another length, the same function (the sizes are read when the graph runs).
      expect((f({ x: ef.constant([1, 2, 3]) }) as Record<string, T>).b.arraySync()).toEqual([3]);
      f.dispose();
    }
    // A folded stride of 2 with a computed end: every second element of x[1:n] (TF: [2, 4], then [2, 4, 6]).
    const s2 = ef.internal.signatureFunction(graph(2), { inputs: { x: { name: 'x:0' } }, outputs: { e: { name: 'ss:0' } } }, { outputs: 'dict' });
    expect((s2({ x: ef.constant([1, 2, 3, 4, 5]) }) as Record<string, T>).e.arraySync()).toEqual([2, 4]);
    expect((s2({ x: ef.constant([1, 2, 3, 4, 5, 6, 7]) }) as Record<string, T>).e.arraySync()).toEqual([2, 4, 6]);
    s2.dispose();
    // A run-time stride other than 1 is refused when the graph runs, naming the node.
    const g = ef.internal.signatureFunction(graph(2, true), { inputs: { x: { name: 'x:0' } }, outputs: { e: { name: 'ss:0' } } }, { outputs: 'dict' });
    const x = ef.constant([1, 2, 3, 4, 5]);
    const before = ef.memory().numTensors;
    expect(thrown(() => g({ x }))).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(() => g({ x })).toThrow(/'ss'.*unit strides/);
    expect(ef.memory().numTensors).toBe(before);
    x.dispose();
    g.dispose();
  });

  test('PadV2 whose constant_values the graph computes (TF: the max of x), with static and computed paddings; no gradient into the value', () => {
    const F = { type: 'DT_FLOAT' };
    const I = { type: 'DT_INT32' };
    const pairs = (name: string, v: number[]) => ({ name, op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: { dim: [{ size: '1' }, { size: '2' }] }, int_val: v } } } });
    const graph = ef.internal.readTfGraph({ node: [
      { name: 'x', op: 'Placeholder', attr: { dtype: F, shape: { shape: { dim: [{ size: '-1' }] } } } },
      { name: 'axis', op: 'Const', attr: { dtype: I, value: { tensor: { dtype: 'DT_INT32', tensor_shape: {}, int_val: [0] } } } },
      { name: 'c', op: 'Max', input: ['x', 'axis'], attr: { T: F, Tidx: I } },
      pairs('p', [1, 2]),
      { name: 'padded', op: 'PadV2', input: ['x', 'p', 'c'], attr: { T: F, Tpaddings: I } },
      // Paddings computed too: p2 = [[n, n]] - [[2, -1]] = [[n - 2, n + 1]] from shape(x): [[2, 5]] at n = 4.
      { name: 'shape', op: 'Shape', input: ['x'], attr: { T: F, out_type: I } },
      pairs('minus', [2, -1]),
      { name: 'sh2', op: 'Pack', input: ['shape', 'shape'], attr: { T: I, N: { i: 2 }, axis: { i: 1 } } },
      { name: 'p2', op: 'Sub', input: ['sh2', 'minus'], attr: { T: I } },
      { name: 'padded2', op: 'PadV2', input: ['x', 'p2', 'c'], attr: { T: F, Tpaddings: I } },
    ] } as never);
    const f = ef.internal.signatureFunction(graph, { inputs: { x: { name: 'x:0' } }, outputs: { a: { name: 'padded:0' }, b: { name: 'padded2:0' } } }, { outputs: 'dict' });
    const x = ef.constant([1, -2, 7, 3]);
    const before = ef.memory().numTensors;
    const out = f({ x }) as Record<string, T>;
    expect(out.a.arraySync()).toEqual([7, 1, -2, 7, 3, 7, 7]);
    expect(out.b.arraySync()).toEqual([7, 7, 1, -2, 7, 3, 7, 7, 7, 7, 7]);
    Object.values(out).forEach((t) => t.dispose());
    // TF's PadV2 gradient: dy sliced back for x, none for constant_values (so max(x) gets no gradient through it).
    const tape = new ef.GradientTape();
    let outs: T[] = [];
    const loss = tape.record(() => {
      tape.watch(x);
      const o = f({ x }) as Record<string, T>;
      outs = Object.values(o);
      return ef.reduceSum(o.a);
    });
    const g = tape.gradient(loss, x) as T;
    expect(g.arraySync()).toEqual([1, 1, 1, 1]);
    ef.dispose([g, loss, ...outs]);
    expect(ef.memory().numTensors).toBe(before);
    x.dispose();
    f.dispose();
  });

  test('an imported Assert whose condition fails when the graph runs raises InvalidArgumentError naming the node', () => {
    const g = ef.internal.readTfGraph({
      node: [
        { name: 'x', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' } } },
        { name: 'zero', op: 'Const', attr: { dtype: { type: 'DT_FLOAT' }, value: { tensor: { dtype: 'DT_FLOAT', tensor_shape: {}, float_val: [0] } } } },
        { name: 'ok', op: 'GreaterEqual', input: ['x', 'zero'], attr: { T: { type: 'DT_FLOAT' } } },
        { name: 'all', op: 'All', input: ['ok', 'axes'], attr: { Tidx: { type: 'DT_INT32' }, keep_dims: { b: false } } },
        { name: 'axes', op: 'Const', attr: { dtype: { type: 'DT_INT32' }, value: { tensor: { dtype: 'DT_INT32', tensor_shape: { dim: [{ size: 1 }] }, int_val: [0] } } } },
        { name: 'check', op: 'Assert', input: ['all', 'x'], attr: { T: { list: { type: ['DT_FLOAT'] } }, summarize: { i: 3 } } },
        { name: 'y', op: 'Sqrt', input: ['x', '^check'], attr: { T: { type: 'DT_FLOAT' } } },
      ],
    } as never);
    const f = ef.internal.signatureFunction(g, { inputs: { x: { name: 'x:0' } }, outputs: { y: { name: 'y:0' } } }, { outputs: 'dict' });
    const good = ef.constant([4, 9]);
    expect((f({ x: good }) as Record<string, T>).y.arraySync()).toEqual([2, 3]);
    const bad = ef.constant([4, -1]);
    const before = ef.memory().numTensors;
    const e = thrown(() => f({ x: bad }));
    expect(e).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(String(e)).toMatch(/Assert node 'check'.*assertion failed.*\[4 -1\]/);
    expect(ef.memory().numTensors).toBe(before);
    f.dispose();
  });
});
