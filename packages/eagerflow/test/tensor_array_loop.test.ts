// ef.TensorArray as a loop variable of ef.whileLoop with a symbolic index (issue 28), against TensorFlow 2.21's own
// answers (fixtures/tf_idioms.json's tensorArray.loop, written by scripts/tf-golden/idioms.py's tensor_array_loop).
import * as ef from 'eagerflow';
import * as fs from 'fs';
import * as path from 'path';

interface Enc {
  dtype: string;
  shape: number[];
  data: number[];
}
interface Loop {
  squares: Enc;
  w: Enc;
  x: number;
  rows: Enc;
  rowsGrad: number;
  powers: Enc;
  powersGrad: number;
  pastEnd: string;
  dynamic: Enc;
  dynamicSize: number;
  dynamicGrad: number;
}
const FIX = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/tf_idioms.json'), 'utf8')) as { tensorArray: { loop: Loop } };

/** Exactly TF's float32 values. */
function expectTf(t: ef.Tensor, e: Enc, what: string): void {
  expect([what, t.dtype, t.shape.asList(), Array.from(t.dataSync() as Float32Array)]).toEqual([what, e.dtype, e.shape, e.data]);
}

describe('ef.TensorArray as an ef.whileLoop variable (TF: a tf.range loop writing a tf.TensorArray in a tf.function)', () => {
  const L = FIX.tensorArray.loop;
  const squares = (): ef.Tensor => {
    const [, ta] = ef.whileLoop((i) => ef.less(i, 5), (i, t) => [ef.add(i, 1), t.write(i, ef.cast(ef.multiply(i, i), 'float32'))], [ef.constant(0, 'int32'), new ef.TensorArray('float32', { size: 5 })]);
    return ta.stack();
  };
  // rows(x)[i] = [x*i + x*x, sin(x)*i]; powers(x) = [x, x^2, x^3, x^4] (read(i - 1) inside the loop).
  const rows = (x: ef.Tensor): ef.Tensor => {
    const [, ta] = ef.whileLoop((i) => ef.less(i, 4), (i, t) => {
      const f = ef.cast(i, 'float32');
      return [ef.add(i, 1), t.write(i, ef.stack([ef.add(ef.multiply(x, f), ef.multiply(x, x)), ef.multiply(ef.sin(x), f)]))];
    }, [ef.constant(0, 'int32'), new ef.TensorArray('float32', { size: 4, elementShape: [2] })]);
    return ta.stack();
  };
  const powers = (x: ef.Tensor): ef.Tensor => {
    const start = new ef.TensorArray('float32', { size: 4 }).write(0, x);
    const [, ta] = ef.whileLoop((i) => ef.less(i, 4), (i, t) => [ef.add(i, 1), t.write(i, ef.multiply(t.read(ef.subtract(i, 1)), x))], [ef.constant(1, 'int32'), start]);
    return ta.stack();
  };
  const lossesOf = (x: ef.Tensor): ef.Tensor[] => [ef.reduceSum(ef.multiply(rows(x), ef.reshape(ef.constant(L.w.data as number[], 'float32'), L.w.shape))), ef.reduceSum(powers(x))];
  test('eager: values and gradients as TF', () => {
    expectTf(squares(), L.squares, 'squares');
    // In a tidy only the result stays (nothing the loop or its probe trace made escapes it).
    const before = ef.memory().numTensors;
    const s = ef.tidy(() => squares());
    expect(ef.memory().numTensors).toBe(before + 1);
    s.dispose();
    const x = ef.constant(L.x);
    expectTf(rows(x), L.rows, 'rows');
    expectTf(powers(x), L.powers, 'powers');
    for (const [k, want] of [[0, L.rowsGrad], [1, L.powersGrad]] as const) {
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        return lossesOf(x)[k];
      });
      expect((tape.gradient(y, x) as ef.Tensor).item()).toBeCloseTo(want, 4);
    }
  });
  test('traced: one while node; values, gradients and finite differences as TF', () => {
    const sq = ef.trace(squares);
    expectTf(sq() as ef.Tensor, L.squares, 'traced squares');
    expect(sq.getConcreteFunction().graph.operations.map((o) => o.type)).toContain('while');
    const fr = ef.trace((v: ef.Tensor) => [rows(v), powers(v)]);
    const [r, p] = fr(ef.constant(L.x)) as ef.Tensor[];
    expectTf(r, L.rows, 'traced rows');
    expectTf(p, L.powers, 'traced powers');
    const loss = ef.trace((v: ef.Tensor) => lossesOf(v));
    for (const [k, want] of [[0, L.rowsGrad], [1, L.powersGrad]] as const) {
      const x = ef.constant(L.x);
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        return (loss(x) as ef.Tensor[])[k];
      });
      expect((tape.gradient(y, x) as ef.Tensor).item()).toBeCloseTo(want, 4);
      const h = 1e-2;
      const at = (v: number): number => ((loss(ef.constant(v)) as ef.Tensor[])[k].item() as number);
      expect((at(L.x + h) - at(L.x - h)) / (2 * h)).toBeCloseTo(want, 1);
    }
  });
  test('a write out of range fails when the graph runs (TF: InvalidArgumentError); bad writes are refused; nothing leaks', () => {
    expect(L.pastEnd).toBe('InvalidArgumentError');
    const pastEnd = ef.trace(() => ef.whileLoop((i) => ef.less(i, 4), (i, t) => [ef.add(i, 1), t.write(i, ef.cast(i, 'float32'))], [ef.constant(0, 'int32'), new ef.TensorArray('float32', { size: 3 })])[1].stack());
    pastEnd.getConcreteFunction();
    const before = ef.memory().numTensors;
    expect(() => pastEnd()).toThrow(ef.errors.InvalidArgumentError);
    expect(() => pastEnd()).toThrow(/out of range/);
    expect(ef.memory().numTensors).toBe(before);
    const [zero, int1, pair, one] = [ef.constant(0, 'int32'), ef.constant(1, 'int32'), ef.constant([1, 2]), ef.constant(1)];
    // The write comes first: a body that fails after making a tensor leaks it eagerly, as any eager JS code would.
    const loopWith = (v: ef.Tensor, ta: ef.TensorArray) => () => ef.whileLoop((i) => ef.less(i, 2), (i, t) => {
      const next = t.write(i, v);
      return [ef.add(i, 1), next];
    }, [zero, ta]);
    const eagerBefore = ef.memory().numTensors;
    expect(loopWith(int1, new ef.TensorArray('float32', { size: 2, elementShape: [] }))).toThrow(/dtype int32/);
    expect(loopWith(pair, new ef.TensorArray('float32', { size: 2, elementShape: [] }))).toThrow(ef.errors.InvalidArgumentError);
    expect(loopWith(pair, new ef.TensorArray('float32', { size: 2, elementShape: [] }))).toThrow(/element shape/);
    expect(loopWith(pair, new ef.TensorArray('float32', { size: 2 }).write(0, one))).toThrow(/element shape/);
    const other = new ef.TensorArray('float32', { size: 3, elementShape: [] });
    expect(() => ef.whileLoop((i) => ef.less(i, 2), (i) => [i, other], [zero, new ef.TensorArray('float32', { size: 2, elementShape: [] })])).toThrow(/another size or element shape/);
    expect(loopWith(one, new ef.TensorArray('float32', { size: 1 }))).toThrow(ef.errors.InvalidArgumentError);
    expect(loopWith(one, new ef.TensorArray('float32', { size: 1 }))).toThrow(/out of range/);
    expect(ef.memory().numTensors).toBe(eagerBefore);
    expect(() => ef.trace(loopWith(pair, new ef.TensorArray('float32', { size: 2, elementShape: [] })))()).toThrow(/element shape/);
  });
  test('one graph serves every loop count, and saves as a StatelessWhile that loads back', () => {
    // The count n is a graph input: unwritten elements stay zeros (TF's stack of a TensorArray gives zeros too).
    const f = ef.trace((x: ef.Tensor, n: ef.Tensor) => ef.whileLoop((i) => ef.less(i, n), (i, t) => [ef.add(i, 1), t.write(i, ef.multiply(x, ef.cast(i, 'float32')))], [ef.constant(0, 'int32'), new ef.TensorArray('float32', { size: 4, elementShape: [2] })])[1].stack(), {
      inputSignature: [new ef.TensorSpec([2], 'float32'), new ef.TensorSpec([], 'int32')],
    });
    const x = ef.constant([1, -2]);
    const want = (n: number): number[][] => [0, 1, 2, 3].map((i) => (i < n ? [i, -2 * i] : [0, 0]));
    for (const n of [0, 2, 4]) expect((f(x, ef.constant(n, 'int32')) as ef.Tensor).arraySync()).toEqual(want(n));
    const a = ef.saveFunction(f);
    expect(a.modelTopology.node.map((o) => o.op)).toContain('StatelessWhile');
    const g = ef.loadFunction<ef.Tensor>(a);
    for (const n of [1, 3]) expect(g(x, ef.constant(n, 'int32')).arraySync()).toEqual(want(n));
    expect(() => g(x, ef.constant(5, 'int32'))).toThrow(ef.errors.InvalidArgumentError);
  });
  test('dynamicSize: the loop grows the array (TF: dynamic_size=True), eager and traced, with gradients', () => {
    // x*x*i at i = 0..3 in an array of size 0 that grows.
    const grows = (x: ef.Tensor): ef.Tensor[] => {
      const [, ta] = ef.whileLoop((i) => ef.less(i, 4), (i, t) => [ef.add(i, 1), t.write(i, ef.multiply(ef.square(x), ef.cast(i, 'float32')))], [ef.constant(0, 'int32'), new ef.TensorArray('float32', { size: 0, dynamicSize: true })]);
      return [ta.stack(), ta.size()];
    };
    const traced = ef.trace(grows);
    for (const f of [grows, (x: ef.Tensor) => traced(x) as ef.Tensor[]]) {
      const x = ef.constant(L.x);
      const [stack, size] = f(x);
      expectTf(stack, L.dynamic, 'dynamic stack');
      expect(size.item()).toBe(L.dynamicSize);
      const tape = new ef.GradientTape();
      const y = tape.record(() => {
        tape.watch(x);
        return ef.reduceSum(f(x)[0]);
      });
      expect((tape.gradient(y, x) as ef.Tensor).item()).toBeCloseTo(L.dynamicGrad, 4);
    }
    // A negative index is refused when the graph runs.
    const negative = ef.trace((k: ef.Tensor) => ef.whileLoop((i) => ef.less(i, 1), (i, t) => [ef.add(i, 1), t.write(k, ef.constant(1))], [ef.constant(0, 'int32'), new ef.TensorArray('float32', { size: 0, dynamicSize: true })])[1].stack());
    expect(() => negative(ef.constant(-1, 'int32'))).toThrow(ef.errors.InvalidArgumentError);
  });
  test('an inner loop of a traced outer loop (its element shape learned inside the outer body)', () => {
    // sum over j = 0, 1 of [x*(i + j) for i in 0..2] = x * [1, 3, 5].
    const f = ef.trace((x: ef.Tensor) => ef.whileLoop((j) => ef.less(j, 2), (j, acc) => {
      const [, ta] = ef.whileLoop((i) => ef.less(i, 3), (i, t) => [ef.add(i, 1), t.write(i, ef.multiply(x, ef.cast(ef.add(i, j), 'float32')))], [ef.constant(0, 'int32'), new ef.TensorArray('float32', { size: 3 })]);
      return [ef.add(j, 1), ef.add(acc, ta.stack())];
    }, [ef.constant(0, 'int32'), ef.zeros([3])])[1]);
    expect((f(ef.constant(2)) as ef.Tensor).arraySync()).toEqual([2, 6, 10]);
  });
});
