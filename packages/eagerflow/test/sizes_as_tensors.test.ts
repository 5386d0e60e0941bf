// slice, pad, reshape and unsortedSegmentSum take their sizes as params (static) or as int32 tensor inputs (TF's own
// operands, for sizes only the graph knows): one record each. The tensor form eagerly equals the static form (values
// and gradients, checked by finite differences), traced with unknown dims, saved as GraphDef and loaded again,
// compiled (reshape: ONNX Reshape takes its shape as a tensor), and a bad run-time size raises naming the op.
import * as ef from 'eagerflow';

const i32 = (v: number[], shape?: number[]): ef.Tensor => ef.constant(v, 'int32', shape);
const vals = (t: ef.Tensor): number[] => Array.from(t.dataSync() as Float32Array);
const X = (): ef.Tensor => ef.constant(Array.from({ length: 12 }, (_, i) => Math.sin(i + 1)), 'float32', [4, 3]);

/** `t` as a size the graph computes: t + 0 * shape(x)[0] (a Const operand would be read back as the static form). */
const computed = (t: ef.Tensor, x: ef.Tensor): ef.Tensor => ef.add(t, ef.multiply(ef.reshape(ef.slice(ef.shape(x), [0], [1]), []), 0));

interface Row {
  name: string;
  /** The tensor form, its sizes as int32 tensors. */
  dyn: (x: ef.Tensor) => ef.Tensor;
  /** The static form of the same op. */
  fixed: (x: ef.Tensor) => ef.Tensor;
  prim: string;
}

const ROWS: Row[] = [
  { name: 'slice', prim: 'slice', dyn: (x) => ef.slice(x, computed(i32([1, 0]), x), i32([2, -1])), fixed: (x) => ef.slice(x, [1, 0], [2, -1]) },
  { name: 'pad', prim: 'pad', dyn: (x) => ef.pad(x, computed(i32([1, 0, 2, 1], [2, 2]), x)), fixed: (x) => ef.pad(x, [[1, 0], [2, 1]]) },
  { name: 'pad with a value', prim: 'pad', dyn: (x) => ef.pad(x, computed(i32([0, 1, 1, 0], [2, 2]), x), 'CONSTANT', 2.5), fixed: (x) => ef.pad(x, [[0, 1], [1, 0]], 'CONSTANT', 2.5) },
  { name: 'reshape', prim: 'reshape', dyn: (x) => ef.internal.bind(ef.internal.PRIMITIVES.reshape, [x, computed(i32([2, -1]), x)], {})[0], fixed: (x) => ef.reshape(x, [2, -1]) },
  { name: 'unsortedSegmentSum', prim: 'unsorted_segment_sum', dyn: (x) => ef.unsortedSegmentSum(x, i32([2, 0, -1, 2]), computed(ef.constant(3, 'int32'), x)), fixed: (x) => ef.unsortedSegmentSum(x, i32([2, 0, -1, 2]), 3) },
];

/** d loss(f(x)) / dx by central differences around x's values. */
function finiteDiff(f: (x: ef.Tensor) => ef.Tensor, x: number[], shape: number[]): number[] {
  const loss = (v: number[]): number => ef.tidy(() => weighted(f)(ef.constant(v, 'float32', shape)).item() as number);
  const h = 1e-2;
  return x.map((_, i) => {
    const [a, b] = [x.slice(), x.slice()];
    a[i] += h;
    b[i] -= h;
    return (loss(a) - loss(b)) / (2 * h);
  });
}

/** sum(y^2) / 2 + sum(y): every output counts, each with its own weight (its value). */
const weighted = (f: (x: ef.Tensor) => ef.Tensor) => (x: ef.Tensor): ef.Tensor => {
  const y = f(x);
  return ef.add(ef.multiply(ef.reduceSum(ef.square(y)), 0.5), ef.reduceSum(y));
};

describe.each(ROWS)('$name with its sizes as tensors', (row) => {
  test('eager: the record bound with tensor inputs equals the static form, values and gradient (finite differences)', () => {
    const x = X();
    const [a, b] = [row.dyn(x), row.fixed(x)];
    expect(a.shape.asList()).toEqual(b.shape.asList());
    expect(vals(a)).toEqual(vals(b));
    const g = ef.grad(weighted(row.dyn))(x) as ef.Tensor;
    const gs = ef.grad(weighted(row.fixed))(x) as ef.Tensor;
    expect(vals(g)).toEqual(vals(gs));
    const fd = finiteDiff(row.dyn, vals(x), [4, 3]);
    vals(g).forEach((v, i) => expect(v).toBeCloseTo(fd[i], 2));
    ef.dispose([x, a, b, g, gs]);
  });

  test('traced with unknown dims ([null, 3]), its gradient too, equals eager', () => {
    const f = ef.trace((x: ef.Tensor) => row.dyn(x), { inputSignature: [new ef.TensorSpec([null, 3])] });
    const gf = ef.trace((x: ef.Tensor) => ef.grad(weighted(row.dyn))(x) as ef.Tensor, { inputSignature: [new ef.TensorSpec([null, 3])] });
    const x = X();
    const text = f.getConcreteFunction().graph.toString();
    expect(text).toMatch(new RegExp(`= ${row.prim}[[ ]`));
    const [a, b, g, gs] = [f(x) as ef.Tensor, row.fixed(x), gf(x) as ef.Tensor, ef.grad(weighted(row.fixed))(x) as ef.Tensor];
    expect(vals(a)).toEqual(vals(b));
    expect(vals(g)).toEqual(vals(gs));
    ef.dispose([x, a, b, g, gs]);
  });

  test('saved as GraphDef (the sizes a computed operand) and loaded again: the same values and gradient', () => {
    const f = ef.trace((x: ef.Tensor) => row.dyn(ef.multiply(x, 1)), { inputSignature: [new ef.TensorSpec([null, 3])] });
    const loaded = ef.loadFunction(ef.saveFunction(f));
    expect(loaded.concreteFunction.graph.toString()).toMatch(new RegExp(`= ${row.prim}[[ ]`));
    const x = X();
    const [a, b] = [loaded(x) as ef.Tensor, row.fixed(x)];
    expect(vals(a)).toEqual(vals(b));
    const g = ef.grad((t: ef.Tensor) => weighted((u) => loaded(u) as ef.Tensor)(t))(x) as ef.Tensor;
    expect(vals(g)).toEqual(vals(ef.grad(weighted(row.fixed))(x) as ef.Tensor));
    ef.dispose([x, a, b, g]);
    loaded.dispose();
  });
});

describe('sizes computed when the graph runs', () => {
  test('slice, pad and unsortedSegmentSum with sizes read from shape(x): traced [null, 3] equals eager for two batch sizes', () => {
    const fn = (x: ef.Tensor): ef.Tensor[] => {
      const n = ef.slice(ef.shape(x), [0], [1]);
      const half = ef.subtract(n, i32([1]));
      const top = ef.slice(x, i32([0, 0]), ef.concat([half, i32([-1])], 0));
      const padded = ef.pad(x, ef.stack([ef.concat([half, i32([0])], 0), i32([0, 1])], 1));
      const ids = ef.cast(ef.greater(ef.reshape(ef.slice(x, [0, 0], [-1, 1]), [-1]), 0), 'int32');
      const summed = ef.unsortedSegmentSum(x, ids, ef.reshape(n, []));
      return [top, padded, summed];
    };
    const f = ef.trace(fn, { inputSignature: [new ef.TensorSpec([null, 3])] });
    for (const rows of [2, 5]) {
      const x = ef.constant(Array.from({ length: rows * 3 }, (_, i) => i - 3), 'float32', [rows, 3]);
      const [got, want] = [f(x) as ef.Tensor[], fn(x)];
      got.forEach((t, i) => {
        expect(t.shape.asList()).toEqual(want[i].shape.asList());
        expect(vals(t)).toEqual(vals(want[i]));
      });
      ef.dispose([x, ...got, ...want]);
    }
  });

  test('jitCompile: reshape to a shape computed from shape(x) runs in one ONNX Runtime segment', () => {
    const fn = (x: ef.Tensor): ef.Tensor => ef.tanh(ef.reshape(ef.multiply(x, 2), ef.concat([ef.slice(ef.shape(x), [0], [1]), i32([3, 1])], 0)));
    const j = ef.trace(fn, { inputSignature: [new ef.TensorSpec([null, 3])], jitCompile: 'strict' });
    const ir = j.getConcreteFunction().experimentalGetCompilerIr();
    expect(ir).toMatch(/onnx_segment\[[^\]]*reshape/);
    for (const rows of [1, 4]) {
      const x = ef.constant(Array.from({ length: rows * 3 }, (_, i) => Math.cos(i)), 'float32', [rows, 3]);
      const [a, b] = [j(x) as ef.Tensor, fn(x)];
      expect(a.shape.asList()).toEqual([rows, 3, 1]);
      vals(a).forEach((v, i) => expect(v).toBeCloseTo(vals(b)[i], 6));
      ef.dispose([x, a, b]);
    }
  });
});

describe('a bad run-time size raises InvalidArgumentError naming the op, with nothing leaked', () => {
  const c = { size: i32([2, -1]), ids: i32([0, 1, 2, 3]), pairs: i32([2, 2]), none: i32([], [0]) };
  const cases: [string, (x: ef.Tensor, k: ef.Tensor) => ef.Tensor, number[], RegExp][] = [
    ['slice', (x, k) => ef.slice(x, k, c.size), [3, 0], /^slice: slice out of bounds on axis 0/],
    ['pad', (x, k) => ef.pad(x, ef.reshape(k, c.pairs)), [1, -1, 0, 0], /^pad: invalid paddings/],
    ['reshape', (x, k) => ef.reshape(x, k), [5, -1], /^reshape: cannot reshape/],
    ['unsortedSegmentSum', (x, k) => ef.unsortedSegmentSum(x, c.ids, ef.reshape(k, c.none)), [2], /^unsortedSegmentSum: a segment id is out of range/],
  ];
  test.each(cases)('%s: eager and traced with unknown dims', (_name, op, bad, message) => {
    const x = X();
    const k = i32(bad);
    const f = ef.trace(op, { inputSignature: [new ef.TensorSpec([null, 3]), new ef.TensorSpec([null], 'int32')] });
    f.getConcreteFunction();
    // The eager call's reshape of k (pad, unsortedSegmentSum) succeeds first: run it once so its result is counted.
    const before = ef.memory().numTensors;
    expect(() => f(x, k)).toThrow(message);
    expect(() => f(x, k)).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors).toBe(before);
    expect(() => ef.tidy(() => op(x, k))).toThrow(message);
    expect(() => ef.tidy(() => op(x, k))).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose([x, k]);
  });

  test('eager: the op itself leaks nothing when its tensor sizes are bad', () => {
    const x = X();
    const bad: [() => ef.Tensor, RegExp][] = [
      [() => ef.slice(x, i32([3, 0]), c.size), /^slice: /],
      [() => ef.pad(x, i32([1, -1, 0, 0], [2, 2])), /^pad: /],
      [() => ef.unsortedSegmentSum(x, c.ids, i32([2], [])), /^unsortedSegmentSum: /],
    ];
    for (const [call, message] of bad) {
      const before = ef.memory().numTensors;
      let thrown: unknown = null;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ef.errors.InvalidArgumentError);
      expect(String((thrown as Error).message)).toMatch(message);
      // Only the call's own size argument (made by this test before the op ran) is new.
      expect(ef.memory().numTensors).toBe(before + 1);
    }
    x.dispose();
  });
});

describe('tile, range, broadcastTo, fill and the resizes take computed operands as tensor inputs too (the importer reads them so)', () => {
  const P = ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>;
  const bind1 = (name: string, ins: ef.Tensor[], params: Record<string, unknown> = {}): ef.Tensor => ef.internal.bind(P[name], ins, params)[0];
  /** n = shape(x)[0] as an int32 scalar (a size only the graph knows). */
  const rows = (x: ef.Tensor): ef.Tensor => ef.reshape(ef.slice(ef.shape(x), [0], [1]), []);
  const rowsVec = (x: ef.Tensor): ef.Tensor => ef.slice(ef.shape(x), [0], [1]);

  const cases: [string, (x: ef.Tensor) => ef.Tensor, (x: ef.Tensor) => ef.Tensor][] = [
    ['tile by [shape(x)[0], 2]', (x) => bind1('tile', [x, ef.concat([rowsVec(x), i32([2])], 0)]), (x) => ef.tile(x, [x.shape.asList()[0] as number, 2])],
    ['range(0, shape(x)[0] * 3) as float32', (x) => ef.add(ef.reshape(x, [-1]), bind1('range', [ef.constant(0), ef.cast(ef.multiply(rows(x), 3), 'float32'), ef.constant(1)], { dtype: 'float32' })), (x) => ef.add(ef.reshape(x, [-1]), ef.range(0, x.size, 1, 'float32'))],
    ['resizeBilinear to [shape(x)[0] + 1, 5]', (x) => bind1('resize_bilinear', [ef.reshape(x, [1, -1, 3, 1]), ef.concat([ef.add(rowsVec(x), i32([1])), i32([5])], 0)], { size: [null, null] }), (x) => ef.image.resize(ef.reshape(x, [1, -1, 3, 1]), [(x.shape.asList()[0] as number) + 1, 5])],
    ['resizeNearestNeighbor to [2 * shape(x)[0], 2]', (x) => bind1('resize_nearest', [ef.reshape(x, [1, -1, 3, 1]), ef.concat([ef.multiply(rowsVec(x), i32([2])), i32([2])], 0)], { size: [null, null] }), (x) => ef.image.resize(ef.reshape(x, [1, -1, 3, 1]), [2 * (x.shape.asList()[0] as number), 2], { method: 'nearest' })],
  ];
  cases.push(
    ['broadcastTo [2, shape(x)[0], 3]', (x) => bind1('broadcast_to', [x, ef.concat([i32([2]), rowsVec(x), i32([3])], 0)]), (x) => ef.broadcastTo(x, [2, x.shape.asList()[0] as number, 3])],
    ['fill [shape(x)[0], 2] with sum(x)', (x) => ef.add(bind1('fill', [ef.concat([rowsVec(x), i32([2])], 0), ef.reduceSum(x)]), 0), (x) => ef.fill([x.shape.asList()[0] as number, 2], ef.reduceSum(x))],
  );
  cases.push([
    'topK with k = shape(x)[1] - 1 (TopKV2 with a computed k)',
    (x) => ef.internal.bind(P.top_k, [x, ef.reshape(ef.subtract(ef.slice(ef.shape(x), [1], [1]), i32([1])), [])], { k: 0, sorted: true })[0],
    (x) => ef.math.topK(x, 2).values,
  ]);
  test.each(cases)('%s: eager, traced [null, 3], saved and loaded equal the static form; gradients too', (_name, dyn, fixed) => {
    const f = ef.trace(dyn, { inputSignature: [new ef.TensorSpec([null, 3])] });
    const loaded = ef.loadFunction(ef.saveFunction(f));
    expect(loaded.concreteFunction.graph.toString()).not.toContain('dynamic_params');
    for (const n of [2, 4]) {
      const x = ef.constant(Array.from({ length: n * 3 }, (_, i) => Math.sin(i)), 'float32', [n, 3]);
      const want = fixed(x);
      for (const got of [dyn(x), f(x) as ef.Tensor, loaded(x) as ef.Tensor]) {
        expect(got.shape.asList()).toEqual(want.shape.asList());
        vals(got).forEach((v, i) => expect(v).toBeCloseTo(vals(want)[i], 5));
        got.dispose();
      }
      const gw = ef.grad(weighted(fixed))(x) as ef.Tensor;
      for (const g of [ef.grad(weighted(dyn))(x) as ef.Tensor, ef.grad(weighted((t) => loaded(t) as ef.Tensor))(x) as ef.Tensor]) {
        vals(g).forEach((v, i) => expect(v).toBeCloseTo(vals(gw)[i], 4));
        g.dispose();
      }
      ef.dispose([x, want, gw]);
    }
    loaded.dispose();
  });
});
