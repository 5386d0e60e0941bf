// Saving and loading traced functions: structures, control flow, variables, gradients, signatures, disk, leaks, converter.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';

type T = ef.Tensor;
const spec = (shape: (number | null)[] | null, dtype: ef.DType = 'float32'): ef.TensorSpec => new ef.TensorSpec(shape, dtype);
const arr = (x: unknown): unknown =>
  x instanceof ef.Tensor ? x.arraySync() : Array.isArray(x) ? x.map(arr) : x !== null && typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, arr(v)])) : x;
const roundTrip = <R = T>(f: ef.Saveable): ef.LoadedFunction<R> => ef.loadFunction<R>(ef.saveFunction(f));
const opsOf = (a: ef.SavedFunctionArtifacts): string[] => a.modelTopology.node.map((n) => n.op);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-saving-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs a saved function in tfjs-converter (executeAsync handles control flow); returns plain arrays. */
async function inConverter(a: ef.SavedFunctionArtifacts, inputs: T[]): Promise<unknown[]> {
  const model = await loadGraphModel(tf.io.fromMemory(a as unknown as tf.io.ModelArtifacts));
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    const out = await model.executeAsync(inputs.map((t) => t.toTfjs()));
    const list = Array.isArray(out) ? out : [out];
    const values = list.map((t) => t.arraySync());
    list.forEach((t) => t.dispose());
    return values;
  } finally {
    console.warn = warn;
    model.dispose();
  }
}

describe('round trips', () => {
  test('structured outputs, several inputs and JS values come back as the original returned them', () => {
    const f = ef.trace((x: T, n: T) => ({ sum: ef.add(x, ef.cast(n, 'float32')), parts: [ef.square(x), 'label', 7, null], nan: NaN }), { inputSignature: [spec([null]), spec([], 'int32')] });
    const g = roundTrip<Record<string, unknown>>(f);
    const x = ef.constant([1, 2]);
    const n = ef.constant(3, 'int32');
    expect(arr(g(x, n))).toEqual(arr(f(x, n)));
    expect(Object.keys(g(x, n))).toEqual(['sum', 'parts', 'nan']);
    expect(g([1, 2], 3).sum).toBeInstanceOf(ef.Tensor);
  });

  test('the loaded graph prints like the original', () => {
    const f = ef.trace((x: T) => ef.relu(ef.add(ef.multiply(x, 2), 1)), { name: 'double', inputSignature: [spec([null])] });
    const g = roundTrip(f);
    expect(g.concreteFunction.toString()).toBe(f.getConcreteFunction().toString());
    expect(g.inputSignature.map(String)).toEqual(f.getConcreteFunction().inputSignature.map(String));
  });

  test('a traced function is saved through its only trace or its signature; several traces need a choice', () => {
    const f = ef.trace((x: T) => ef.exp(x));
    expect(() => ef.saveFunction(f)).toThrow(/has 0 traces .*inputSignature/);
    f(ef.constant([1]));
    expect(arr(roundTrip(f)([0]))).toEqual([1]);
    f(ef.constant([[1]]));
    expect(() => ef.saveFunction(f)).toThrow(/has 2 traces \(got 2 concrete functions, expected exactly one\)/);
    expect(arr(roundTrip(f.getConcreteFunction(spec([1, 1])))([[0]]))).toEqual([[1]]);
    expect(() => ef.saveFunction((() => 1) as never)).toThrow(/expected an ef.trace function or a ConcreteFunction/);
  });

  test('toGraphDef gives the GraphDef JSON of a concrete function', () => {
    const cf = ef.trace((x: T) => ef.matmul(x, x, false, true)).getConcreteFunction(spec([2, 2]));
    const g = cf.toGraphDef();
    expect(g.node.map((n) => n.op)).toEqual(['Placeholder', 'MatMul', 'Identity']);
    expect(g.node[1].attr?.transpose_b).toEqual({ b: true });
    expect(g.node[0].attr?.shape).toEqual({ shape: { dim: [{ size: '2' }, { size: '2' }] } });
    expect(g.versions.producer).toBeGreaterThan(0);
  });

  test('a loaded function saves again with the same results', () => {
    const f = ef.trace((x: T) => ef.sigmoid(ef.reduceSum(x, 0)), { inputSignature: [spec([null, 2])] });
    const again = roundTrip(roundTrip(f));
    expect(arr(again([[1, 2], [3, 4]]))).toEqual(arr(f(ef.constant([[1, 2], [3, 4]]))));
  });

  test('save to a directory and load it back (model.json + one weights file)', async () => {
    const w = ef.constant([[1, 2], [3, 4]]);
    const f = ef.trace((x: T) => ef.matmul(x, w), { inputSignature: [spec([null, 2])] });
    const dir = path.join(tmp, 'matmul');
    const files = await ef.saveFunctionToDir(f, dir);
    expect(fs.readdirSync(dir).sort()).toEqual(['group1-shard1of1.bin', 'model.json']);
    expect(files.modelJson).toBe(path.join(dir, 'model.json'));
    const json = JSON.parse(fs.readFileSync(files.modelJson, 'utf8'));
    expect(json.format).toBe('graph-model');
    expect(json.weightsManifest[0].weights).toEqual([{ name: 'Const', shape: [2, 2], dtype: 'float32' }]);
    expect(json.userDefinedMetadata.eagerflow).toMatchObject({ format: 'eagerflow-graphdef', version: 1 });
    const g = await ef.loadFunction<T>(dir);
    expect(g([[1, 0]]).arraySync()).toEqual([[1, 2]]);
  });

  test('calls are checked against the signature; JS values are converted', () => {
    const g = roundTrip(ef.trace((x: T) => ef.add(x, 1), { inputSignature: [spec([null, 2])] }));
    expect(g([[1, 2]]).arraySync()).toEqual([[2, 3]]);
    expect(() => g()).toThrow(/wrong number of inputs \(got 0, expected 1/);
    expect(() => g(ef.constant([[1, 2]], 'int32'))).toThrow(/does not match the signature \(got int32 \(1, 2\), expected TensorSpec/);
    expect(() => g([1, 2, 3])).toThrow(/does not match the signature \(got float32 \(3,\)/);
  });

  test('save, load, call and dispose leak no tensors', () => {
    const f = ef.trace((x: T) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.tanh(x), () => ef.square(x)), { inputSignature: [spec([3])] });
    f.getConcreteFunction();
    const x = ef.constant([1, -2, 0.5]);
    const before = ef.memory().numTensors;
    ef.tidy(() => {
      const g = roundTrip(f);
      g(x);
      g.dispose();
    });
    expect(ef.memory().numTensors).toBe(before);
  });

  test('a loaded function can be called inside another trace and with callAsync', async () => {
    const g = roundTrip(ef.trace((x: T) => ef.multiply(x, 3), { inputSignature: [spec([null])] }));
    const h = ef.trace((x: T) => ef.add(g(x) as T, 1));
    expect((h(ef.constant([1, 2])) as T).arraySync()).toEqual([4, 7]);
    expect(((await g.callAsync([2])) as T).arraySync()).toEqual([6]);
  });
});

describe('control flow is saved the TensorFlow way', () => {
  const condFn = ef.trace((x: T) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.multiply(x, 2), () => ef.negative(x)), { inputSignature: [spec([null])] });
  const whileFn = ef.trace(
    (x: T, n: T) => ef.whileLoop((i: T) => ef.less(i, n), (i: T, acc: T) => [ef.add(i, 1), ef.add(ef.multiply(acc, 1.5), x)], [ef.constant(0, 'int32'), ef.zerosLike(x)])[1],
    { inputSignature: [spec([2]), spec([], 'int32')] },
  );
  const cases: [string, [T]][] = [['positive', [ef.constant([1, 2])]], ['negative', [ef.constant([-1, -2])]]];

  test('cond -> StatelessIf with then/else library functions', () => {
    const a = ef.saveFunction(condFn);
    expect(opsOf(a)).toContain('StatelessIf');
    const fns = a.modelTopology.library?.function ?? [];
    const node = a.modelTopology.node.find((n) => n.op === 'StatelessIf');
    expect(fns.map((f) => f.signature.name).sort()).toEqual([node?.attr?.then_branch, node?.attr?.else_branch].map((b) => (b as { func?: { name?: string } } | undefined)?.func?.name).sort());
    const g = ef.loadFunction<T>(a);
    for (const [, xs] of cases) expect(g(...xs).arraySync()).toEqual((condFn(...xs) as T).arraySync());
  });

  test.each(cases)('tfjs-converter runs the saved cond (%s branch)', async (_n, xs) => {
    expect(await inConverter(ef.saveFunction(condFn), xs)).toEqual([(condFn(...xs) as T).arraySync()]);
  });

  test('whileLoop -> StatelessWhile with cond/body functions; one load serves every count', async () => {
    const a = ef.saveFunction(whileFn);
    expect(opsOf(a)).toContain('StatelessWhile');
    const g = ef.loadFunction<T>(a);
    for (const n of [0, 1, 4]) {
      const args: [T, T] = [ef.constant([1, -2]), ef.constant(n, 'int32')];
      const want = (whileFn(...args) as T).arraySync();
      expect(g(...args).arraySync()).toEqual(want);
      expect(await inConverter(a, args)).toEqual([want]);
    }
  });

  test('maximumIterations becomes a loop counter (TensorFlow while_v2 layout)', async () => {
    const f = ef.trace((x: T) => ef.whileLoop((v: T) => ef.less(ef.reduceSum(v), 100), (v: T) => [ef.multiply(v, 2)], [x], { maximumIterations: 3 })[0], { inputSignature: [spec([2])] });
    const a = ef.saveFunction(f);
    const g = ef.loadFunction<T>(a);
    const x = ef.constant([1, 2]);
    expect(g(x).arraySync()).toEqual([8, 16]);
    expect(await inConverter(a, [x])).toEqual([[8, 16]]);
    expect(g(ef.constant([40, 40])).arraySync()).toEqual([80, 80]);
  });

  test('nested control flow: a cond inside a while body', async () => {
    const f = ef.trace(
      (x: T) => ef.whileLoop((i: T) => ef.less(i, 4), (i: T, v: T) => [ef.add(i, 1), ef.cond(ef.equal(ef.cast(i, 'float32'), 2), () => ef.multiply(v, 10), () => ef.add(v, 1))], [ef.constant(0, 'int32'), x])[1],
      { inputSignature: [spec([])] },
    );
    const a = ef.saveFunction(f);
    const g = ef.loadFunction<T>(a);
    expect(g(1).item()).toBe((f(ef.constant(1)) as T).item());
    expect(await inConverter(a, [ef.constant(1)])).toEqual([(f(ef.constant(1)) as T).item()]);
  });

  test('stateful branches become If; prints run once per call, in order', () => {
    const lines: string[] = [];
    const write = ef.internal.printOutput.write;
    ef.internal.printOutput.write = (l) => void lines.push(l);
    try {
      const f = ef.trace((x: T) => {
        ef.print('start');
        const y = ef.cond(ef.greater(x, 0), () => (ef.print('pos', x), ef.add(x, 1)), () => ef.subtract(x, 1));
        ef.print('end', y);
        return y;
      }, { inputSignature: [spec([])] });
      const a = ef.saveFunction(f);
      expect(opsOf(a)).toContain('If');
      const g = ef.loadFunction<T>(a);
      lines.length = 0;
      g(2);
      g(-1);
      expect(lines).toEqual(['start', 'pos 2', 'end 3', 'start', 'end -2']);
    } finally {
      ef.internal.printOutput.write = write;
    }
  });

  test('cond and whileLoop round-trip through a directory too', async () => {
    await ef.saveFunctionToDir(condFn, path.join(tmp, 'cond'));
    await ef.saveFunctionToDir(whileFn, path.join(tmp, 'while'));
    const [gc, gw] = [await ef.loadFunction<T>(path.join(tmp, 'cond')), await ef.loadFunction<T>(path.join(tmp, 'while'))];
    for (const [, xs] of cases) expect(gc(...xs).arraySync()).toEqual((condFn(...xs) as T).arraySync());
    const args: [T, T] = [ef.constant([1, -2]), ef.constant(3, 'int32')];
    expect(gw(...args).arraySync()).toEqual((whileFn(...args) as T).arraySync());
  });

  test('gradients flow through a loaded cond and whileLoop (tape around the call)', () => {
    const grad = (f: (...a: T[]) => unknown, xs: T[]): number[] =>
      ef.tidy(() => {
        const tape = new ef.GradientTape();
        const y = tape.record(() => (tape.watch(xs[0]), ef.reduceSum(f(...xs) as T)));
        return Array.from((tape.gradient(y, xs[0]) as T).dataSync() as ArrayLike<number>);
      });
    const gc = roundTrip(condFn);
    for (const [, xs] of cases) expect(grad(gc, xs)).toEqual(grad(condFn, xs));
    const gw = roundTrip(whileFn);
    const args: [T, T] = [ef.constant([1, -2]), ef.constant(3, 'int32')];
    expect(grad(gw, args)).toEqual(grad(whileFn, args));
  });

  test('second-order gradients through a loaded function', () => {
    const f = ef.trace((x: T) => ef.tanh(ef.multiply(x, x)), { inputSignature: [spec([2])] });
    const hess = (h: (x: T) => unknown): number[] =>
      ef.tidy(() => {
        const x = ef.constant([0.3, -0.7]);
        const outer = new ef.GradientTape();
        const g = outer.record(() => {
          outer.watch(x);
          const inner = new ef.GradientTape();
          const y = inner.record(() => (inner.watch(x), ef.reduceSum(h(x) as T)));
          return ef.reduceSum(inner.gradient(y, x) as T);
        });
        return Array.from((outer.gradient(g, x) as T).dataSync() as ArrayLike<number>);
      });
    const got = hess(roundTrip(f));
    hess(f).forEach((v, i) => expect(got[i]).toBeCloseTo(v, 5));
  });
});

describe('variables', () => {
  test('a variable only read is frozen to its value at save time (the converter runs it)', async () => {
    const v = new ef.Variable([1, 2], { name: 'scale' });
    const f = ef.trace((x: T) => ef.multiply(x, v), { inputSignature: [spec([2])] });
    const a = ef.saveFunction(f);
    expect(a.weightSpecs.map((s) => s.name)).toEqual(['scale']);
    v.assign([10, 20]);
    const x = ef.constant([1, 1]);
    expect(ef.loadFunction<T>(a)(x).arraySync()).toEqual([1, 2]);
    expect(await inConverter(a, [x])).toEqual([[1, 2]]);
    expect((f(x) as T).arraySync()).toEqual([10, 20]);
  });

  test('an assigned variable becomes the loaded function\'s own variable (resource ops)', () => {
    const total = new ef.Variable([0, 0], { name: 'total' });
    const f = ef.trace((x: T) => {
      total.assignAdd(x);
      return ef.multiply(total.value(), 2);
    }, { inputSignature: [spec([2])] });
    const a = ef.saveFunction(f);
    expect(opsOf(a)).toEqual(expect.arrayContaining(['VarHandleOp', 'AssignAddVariableOp', 'ReadVariableOp']));
    const g = ef.loadFunction<T>(a);
    expect(g.variables.map((x) => x.name)).toEqual(['total']);
    expect(g([1, 2]).arraySync()).toEqual([2, 4]);
    expect(g([1, 2]).arraySync()).toEqual([4, 8]);
    expect(total.value().arraySync()).toEqual([0, 0]);
    expect(g.variables[0].value().arraySync()).toEqual([2, 4]);
  });

  test('variables passed as arguments cannot be saved (with how to fix)', () => {
    const f = ef.trace((v: ef.Variable, x: T) => ef.add(v, x));
    const cf = f.getConcreteFunction(new ef.Variable([1]), spec([1]));
    expect(() => ef.saveFunction(cf)).toThrow(/variable passed as an argument cannot be saved .*Capture the variable/);
  });
});
