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
