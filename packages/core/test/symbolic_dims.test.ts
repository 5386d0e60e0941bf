// Symbolic dims (ops/array/symbolic_dims.ts): Dim arithmetic folds to numbers for static shapes (so static graphs get
// no shape computation at all) and builds shape-tensor nodes for run-time ones; composites written once against Dims
// compute what eager computes when traced with null dims, and a size that only turns out wrong at run time raises
// InvalidArgumentError (never a wrong value).
import * as ef from 'eagerflow';
import { DimRun, SymbolicDim, dim, dimsOf, shapeOf, shapeTensor } from '../src/ops/array/symbolic_dims';

const graphOf = (f: ef.TracedFunction, ...specs: ef.TensorSpec[]): string => f.getConcreteFunction(...specs).graph.toString();
const nulls = (rank: number): ef.TensorSpec => new ef.TensorSpec(new Array<null>(rank).fill(null));

describe('Dim arithmetic', () => {
  test('numbers fold (floor division and mod with TF floor semantics, identities on symbolic dims)', () => {
    expect([dim.add(2, 3), dim.sub(2, 3), dim.mul(4, 5), dim.floordiv(-7, 2), dim.mod(-7, 3), dim.ceildiv(7, 2), dim.max(2, 9), dim.min(2, 9)]).toEqual([5, -1, 20, -4, 2, 4, 9, 2]);
    expect([dim.ifPositive(0, 7), dim.ifPositive(3, 7), dim.lt(1, 2), dim.lt(2, 1), dim.prod([2, 3, 4]), dim.prod([])]).toEqual([0, 7, 1, 0, 24, 1]);
    expect([dim.equal(3, 3), dim.equal(3, 4)]).toEqual([true, false]);
    ef.trace(
      (x: ef.Tensor) => {
        const [n] = dimsOf(x);
        expect(n).toBeInstanceOf(SymbolicDim);
        // Identities keep the symbolic dim itself; zero absorbs; equality is undecidable unless it is the same dim.
        expect([dim.add(n, 0), dim.mul(n, 1), dim.mul(n, 0), dim.floordiv(n, 1), dim.equal(n, n), dim.equal(n, 3)]).toEqual([n, n, 0, n, true, null]);
        expect(dim.add(n, 1)).toBeInstanceOf(SymbolicDim);
        return x;
      },
      { inputSignature: [nulls(1)] },
    )(ef.ones([2]));
  });

  test('shapeOf: numbers where static, symbolic dims where not, one run for an unknown rank; shapeTensor reads them back', () => {
    const f = ef.trace(
      (x: ef.Tensor) => {
        const s = dimsOf(x);
        expect(s.map((d) => typeof d)).toEqual(['object', 'number']);
        return shapeTensor([...s, dim.mul(s[0], 2)]);
      },
      { inputSignature: [new ef.TensorSpec([null, 3])] },
    );
    expect((f(ef.ones([5, 3])) as ef.Tensor).arraySync()).toEqual([5, 3, 10]);
    const g = ef.trace(
      (x: ef.Tensor) => {
        const s = shapeOf(x);
        expect(s.length === 1 && s[0] instanceof DimRun).toBe(true);
        return shapeTensor([1, ...s]);
      },
      { inputSignature: [new ef.TensorSpec(null)] },
    );
    expect((g(ef.ones([2, 4])) as ef.Tensor).arraySync()).toEqual([1, 2, 4]);
  });
});

describe('one path for static and run-time shapes', () => {
  const frame = (x: ef.Tensor): ef.Tensor => ef.signal.frame(x, 3, 2, { padEnd: true });
  const crop = (x: ef.Tensor): ef.Tensor => ef.image.centralCrop(x, 0.5);

  test('static shapes: no shape computation in the graph (Dims fold at trace time)', () => {
    for (const [f, spec] of [[frame, new ef.TensorSpec([2, 7])], [crop, new ef.TensorSpec([6, 4, 1])]] as const) {
      const g = graphOf(ef.trace(f), spec);
      expect(g).not.toMatch(/= shape /);
      expect(g).not.toMatch(/_dyn/);
    }
  });

  test('null dims: the shape is read at run time and the values equal eager ones', () => {
    for (const [f, x] of [[frame, ef.random.uniform([2, 7])], [crop, ef.random.uniform([6, 4, 1])]] as const) {
      const traced = ef.trace(f, { inputSignature: [nulls(x.rank as number)] });
      expect(graphOf(traced, nulls(x.rank as number))).toMatch(/= shape /);
      expect((traced(x) as ef.Tensor).arraySync()).toEqual(f(x).arraySync());
    }
  });

  test('unknown rank: the same composites on run-time shape runs', () => {
    const x = ef.random.uniform([2, 3, 7]);
    const traced = ef.trace((t: ef.Tensor) => ef.signal.frame(t, 3, 2, { axis: 1 }), { inputSignature: [new ef.TensorSpec(null)] });
    expect((traced(x) as ef.Tensor).arraySync()).toEqual(ef.signal.frame(x, 3, 2, { axis: 1 }).arraySync());
  });
});

describe('sort and tensordot: one path for every rank, known or not', () => {
  const unknownRank = new ef.TensorSpec(null);
  const close = (got: ef.Tensor, want: ef.Tensor): void => {
    expect(got.dims).toEqual(want.dims);
    const [g, w] = [Array.from(got.dataSync() as Float32Array), Array.from(want.dataSync() as Float32Array)];
    expect(Math.max(0, ...g.map((v, i) => Math.abs(v - w[i])))).toBeLessThan(1e-5);
  };

  test.each([
    ['a vector, last axis', [7], -1],
    ['a matrix, axis 0', [5, 3], 0],
    ['rank 3, the middle axis', [2, 4, 3], 1],
    ['rank 3, axis -2', [2, 4, 3], -2],
    ['rank 4, axis 0', [3, 2, 2, 2], 0],
  ] as const)('sort/argsort of %s traced with an unknown rank == static (ascending and descending, float and int32)', (_n, shape, axis) => {
    const x = ef.random.uniform([...shape], { minval: -10, maxval: 10 });
    const xi = ef.cast(ef.floor(x), 'int32');
    for (const direction of ['ASCENDING', 'DESCENDING'] as const) {
      for (const v of [x, xi]) {
        const f = ef.trace((t: ef.Tensor) => [ef.sort(t, axis, { direction }), ef.argsort(t, axis, { direction })], { inputSignature: [new ef.TensorSpec(null, v.dtype)] });
        const [s, a] = f(v) as ef.Tensor[];
        expect(s.arraySync()).toEqual(ef.sort(v, axis, { direction }).arraySync());
        // Ties (int32) keep their order in both, as TF's stable TopKV2.
        expect(a.arraySync()).toEqual(ef.argsort(v, axis, { direction }).arraySync());
      }
    }
    // The gradient of the unknown-rank function (taken around the call, as for any traced function) == the static one.
    const w = ef.reshape(ef.range(0, x.size as number), [...shape]);
    const grad = (f: (t: ef.Tensor) => ef.Tensor): ef.Tensor => {
      const tape = new ef.GradientTape();
      tape.watch(x);
      const y = tape.record(() => f(x));
      return tape.gradient(y, x, { outputGradients: w }) as ef.Tensor;
    };
    const traced = ef.trace((t: ef.Tensor) => ef.sort(t, axis), { inputSignature: [unknownRank] });
    close(grad((t) => traced(t) as ef.Tensor), grad((t) => ef.sort(t, axis)));
  });

  test('sort with a static shape builds no shape computation; an unknown rank reads it when the graph runs', () => {
    const f = ef.trace((t: ef.Tensor) => ef.sort(t, 0));
    const s = graphOf(f, new ef.TensorSpec([4, 3]));
    expect(s).not.toMatch(/= shape /);
    expect(s).toMatch(/top_k\[k=4/);
    expect(graphOf(f, unknownRank)).toMatch(/= shape /);
    // An axis past the rank: refused now for a known rank, when the graph runs for an unknown one.
    expect(() => ef.sort(ef.ones([2, 3]), 2)).toThrow(/got axis 2 for a rank-2 tensor/);
    const bad = ef.trace((t: ef.Tensor) => ef.sort(t, 2), { inputSignature: [unknownRank] });
    expect(() => bad(ef.ones([2, 3]))).toThrow(ef.errors.InvalidArgumentError);
  });

  test.each([
    ['matrix product (axes 1)', [3, 4], [4, 2], 1],
    ['contract the leading dims', [4, 3], [4, 2], [[0], [0]]],
    ['two axes, out of order', [2, 3, 4], [4, 5, 3], [[1, 2], [2, 0]]],
    ['negative axes', [2, 3, 4], [3, 4, 2], [[-2, -1], [0, 1]]],
    ['an outer product (axes 0)', [2, 3], [4], 0],
  ] as const)('tensordot, %s, traced with unknown ranks == static, with gradients', (_n, sa, sb, axes) => {
    const [a, b] = [ef.random.uniform([...sa]), ef.random.uniform([...sb])];
    const ax = axes as number | [number[], number[]];
    const run = (p: ef.Tensor, q: ef.Tensor): ef.Tensor[] => {
      const tape = new ef.GradientTape({ persistent: true });
      tape.watch(p);
      tape.watch(q);
      const y = tape.record(() => ef.tensordot(p, q, ax));
      // d(sum(y²)/2) = y: the cotangent given directly (a reduce's gradient needs a known rank).
      return [y, tape.gradient(y, p, { outputGradients: y }) as ef.Tensor, tape.gradient(y, q, { outputGradients: y }) as ef.Tensor];
    };
    const want = run(a, b);
    const got = ef.trace(run, { inputSignature: [unknownRank, unknownRank] })(a, b) as ef.Tensor[];
    got.forEach((g, k) => close(g, want[k]));
  });

  test('tensordot with repeated axes is refused (TF: a transpose with a repeated perm)', () => {
    expect(() => ef.tensordot(ef.ones([2, 2]), ef.ones([2, 2]), [[0, 0], [0, 1]])).toThrow(/contracted dims must pair up/);
  });
});

describe('a size that only turns out wrong at run time raises InvalidArgumentError', () => {
  const cases: [string, (...xs: ef.Tensor[]) => ef.Tensor, ef.TensorSpec[], ef.Tensor[]][] = [
    ['setDiag with a diagonal of the wrong length', (a, d) => ef.linalg.setDiag(a, d), [nulls(2), nulls(1)], [ef.ones([3, 3]), ef.ones([2])]],
    ['einsum with mismatched label sizes', (a, b) => ef.einsum('ij,jk->ik', a, b), [nulls(2), nulls(2)], [ef.ones([2, 3]), ef.ones([4, 2])]],
    ['tensordot with mismatched contracted dims', (a, b) => ef.tensordot(a, b, [[0], [0]]), [nulls(2), nulls(2)], [ef.ones([2, 6]), ef.ones([3, 4])]],
    ['repeat with a count per element of the wrong length', (a) => ef.repeat(a, [1, 2, 3], 0), [nulls(1)], [ef.ones([2])]],
    ['cross of 4-vectors', (a) => ef.linalg.cross(a, a), [nulls(2)], [ef.ones([2, 4])]],
    ['booleanMask with a mask of the wrong length', (a, m) => ef.booleanMask(a, ef.greater(m, 0)), [nulls(2), nulls(1)], [ef.ones([3, 2]), ef.ones([4])]],
  ];
  test.each(cases)('%s', (_name, f, specs, xs) => {
    const traced = ef.trace(f, { inputSignature: specs });
    const before = ef.memory().numTensors;
    expect(() => traced(...xs)).toThrow(ef.errors.InvalidArgumentError);
    expect(ef.memory().numTensors).toBe(before);
  });
});

describe('fill to run-time dims (TF\'s Fill takes its dims as a tensor)', () => {
  test('traced with dims from shape(x): the values eager gives, one trace for every size, and the value\'s gradient', () => {
    const f = ef.trace((x: ef.Tensor, v: ef.Tensor) => ef.fill([ef.shape(x).at(0), 2], v), { inputSignature: [nulls(1), new ef.TensorSpec([])] });
    for (const n of [1, 3]) {
      const got = f(ef.ones([n]), ef.constant(1.5));
      expect(got.shape.asList()).toEqual([n, 2]);
      expect(got.arraySync()).toEqual(ef.fill([n, 2], 1.5).arraySync());
    }
    const g = ef.trace((x: ef.Tensor, v: ef.Tensor) => {
      const tape = new ef.GradientTape();
      tape.watch(v);
      const y = tape.record(() => ef.reduceSum(ef.fill([ef.shape(x).at(0)], v)));
      return tape.gradient(y, v) as ef.Tensor;
    }, { inputSignature: [nulls(1), new ef.TensorSpec([])] });
    expect(g(ef.ones([4]), ef.constant(0.5)).arraySync()).toBe(4);
    // A 1-D int32 tensor as the whole shape, int32 fill.
    const h = ef.trace((s: ef.Tensor) => ef.fill(s, 7, 'int32'), { inputSignature: [new ef.TensorSpec([2], 'int32')] });
    expect(h(ef.constant([2, 1], 'int32')).arraySync()).toEqual([[7], [7]]);
  });
});
