// Host callbacks in saved functions: stored by stable key, rebound on load, never evaluated from the file; tfjs-converter via tf.registerOp.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, registerOp } from '@tensorflow/tfjs-converter';

type T = ef.Tensor;
const spec = (shape: (number | null)[] | null, dtype: ef.DType = 'float32'): ef.TensorSpec => new ef.TensorSpec(shape, dtype);
const twice = (x: ef.NDArray): ef.NDArray => x.map((v) => (v as number) * 2);
const tokenOf = (cf: ef.ConcreteFunction): string => cf.graph.operations.find((o) => o.type === 'host_callback')?.attrs.token as string;

afterEach(() => {
  for (const k of ef.internal.hostFunctionKeys()) if (k.startsWith('test.')) ef.unregisterHostFunction(k);
});

describe('saving callbacks by key', () => {
  test('a registered callback is saved as an op named by its key and loads with hostFunctions', () => {
    const double = ef.registerHostFunction('test.double', twice);
    const f = ef.trace((x: T) => ef.add(ef.numpyFunction(double, [x], 'float32'), 1), { inputSignature: [spec([null])] });
    const a = ef.saveFunction(f);
    const node = a.modelTopology.node.find((n) => n.op === 'test.double');
    expect(node?.attr?.Tout).toEqual({ list: { type: ['DT_FLOAT'] } });
    expect(a.userDefinedMetadata.eagerflow.hostFunctions).toEqual(['test.double']);
    ef.unregisterHostFunction('test.double');
    const calls: number[] = [];
    const g = ef.loadFunction<T>(a, { hostFunctions: { 'test.double': (x: ef.NDArray) => (calls.push(1), twice(x)) } });
    expect(g([1, 2]).arraySync()).toEqual([3, 5]);
    expect(g([0]).arraySync()).toEqual([1]);
    expect(calls.length).toBe(2);
  });

  test('callbacks round-trip through a directory', async () => {
    const double = ef.registerHostFunction('test.double', twice);
    const f = ef.trace((x: T) => ef.cond(ef.greater(ef.reduceSum(x), 0), () => ef.numpyFunction(double, [x], 'float32'), () => x), { inputSignature: [spec([2])] });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-saving-cb-'));
    try {
      await ef.saveFunctionToDir(f, dir);
      const g = await ef.loadFunction<T>(dir, { hostFunctions: { 'test.double': twice } });
      expect(g([1, 2]).arraySync()).toEqual([2, 4]);
      expect(g([-1, -2]).arraySync()).toEqual([-1, -2]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the key registry is the fallback at load time', () => {
    const double = ef.registerHostFunction('test.double', twice);
    const f = ef.trace((x: T) => ef.numpyFunction(double, [x], 'float32'), { inputSignature: [spec([2])] });
    const g = ef.loadFunction<T>(ef.saveFunction(f));
    expect(g([1, 2]).arraySync()).toEqual([2, 4]);
    expect(ef.saveFunction(g).userDefinedMetadata.eagerflow.hostFunctions).toEqual(['test.double']);
  });

  test('a callback without a stable key fails to save, saying how to give one', () => {
    const f = ef.trace((x: T) => ef.numpyFunction(twice, [x], 'float32'), { inputSignature: [spec([2])] });
    const token = tokenOf(f.getConcreteFunction());
    let err: Error | null = null;
    try {
      ef.saveFunction(f);
    } catch (e) {
      err = e as Error;
    }
    expect(err).toBeInstanceOf(ef.errors.InvalidArgumentError);
    expect(err?.message).toMatch(new RegExp(`^saveFunction: host callback '${token}' \\(numpyFunction\\) has no stable key \\(got .*, expected .*\\)\\. `));
    expect(err?.message).toContain("ef.registerHostFunction('myapp.myFunction', fn)");
    expect(err?.message).toContain(`hostFunctionKeys: { ${token}: 'myapp.myFunction' }`);
  });

  test('hostFunctionKeys names callbacks by token, or by function in a Map', () => {
    const f = ef.trace((x: T) => ef.numpyFunction(twice, [x], 'float32'), { inputSignature: [spec([2])] });
    const byToken = ef.saveFunction(f, { hostFunctionKeys: { [tokenOf(f.getConcreteFunction())]: 'test.twice' } });
    const byFn = ef.saveFunction(f, { hostFunctionKeys: new Map([[twice, 'test.twice']]) });
    expect(byFn.modelTopology).toEqual(byToken.modelTopology);
    expect(ef.loadFunction<T>(byToken, { hostFunctions: { 'test.twice': twice } })([3, 4]).arraySync()).toEqual([6, 8]);
    expect(() => ef.saveFunction(f, { hostFunctionKeys: { [tokenOf(f.getConcreteFunction())]: 'bad key' } })).toThrow(/not usable as an op name/);
    expect(() => ef.saveFunction(f, { hostFunctionKeys: new Map([[twice, 'Relu']]) })).toThrow(/host function key 'Relu' is a TensorFlow op name .*'myapp.Relu'/);
  });

  test('a missing function fails at load, naming the key, even inside an untaken branch', () => {
    const double = ef.registerHostFunction('test.double', twice);
    const f = ef.trace((x: T) => ef.cond(ef.greater(ef.reduceSum(x), 100), () => ef.numpyFunction(double, [x], 'float32'), () => x), { inputSignature: [spec([2])] });
    const a = ef.saveFunction(f);
    ef.unregisterHostFunction('test.double');
    expect(() => ef.loadFunction(a)).toThrow(/^loadFunction: host function 'test.double' is missing \(got no function for it, expected a function for 'test.double'\)\. Pass loadFunction\(\.\.\., \{ hostFunctions: \{ 'test.double': fn \} \}\)/);
    expect(() => ef.loadFunction(a, { hostFunctions: { other: twice } })).toThrow(/got hostFunctions with keys \[other\]/);
  });

  test('loading never evaluates code from the file: a key that looks like code is just a key', () => {
    const f = ef.trace((x: T) => ef.numpyFunction(twice, [x], 'float32'), { inputSignature: [spec([2])] });
    const key = 'globalThis.__efPwned=1;(()=>{globalThis.__efPwned=2})()';
    expect(() => ef.saveFunction(f, { hostFunctionKeys: new Map([[twice, key]]) })).toThrow(/not usable as an op name/);
    const a = ef.saveFunction(f, { hostFunctionKeys: new Map([[twice, 'test.twice']]) });
    const json = JSON.parse(JSON.stringify(a.modelTopology).split('test.twice').join('globalThis.__efPwned=1'));
    expect(() => ef.loadFunction({ ...a, modelTopology: json, userDefinedMetadata: {} })).toThrow(/host function 'globalThis.__efPwned=1' is missing/);
    expect((globalThis as { __efPwned?: unknown }).__efPwned).toBeUndefined();
  });

  test('pyFunction callbacks stay differentiable in the loaded function', () => {
    const cube = ef.registerHostFunction('test.cube', (v: T) => ef.multiply(v, ef.multiply(v, v)));
    const f = ef.trace((x: T) => ef.pyFunction(cube, [x], 'float32'), { inputSignature: [spec([2])] });
    const g = ef.loadFunction<T>(ef.saveFunction(f));
    const x = ef.constant([1, 2]);
    const tape = new ef.GradientTape();
    const y = tape.record(() => (tape.watch(x), ef.reduceSum(g(x))));
    expect(y.item()).toBe(9);
    expect((tape.gradient(y, x) as T).arraySync()).toEqual([3, 12]);
  });

  test('stateful callbacks without outputs run once per call, in program order', () => {
    const log: string[] = [];
    const note = ef.registerHostFunction('test.note', (x: ef.NDArray) => void log.push(`note ${x.toArray()}`));
    const f = ef.trace((x: T) => {
      ef.numpyFunction(note, [x], []);
      const y = ef.add(x, 1);
      ef.numpyFunction(note, [y], []);
      return y;
    }, { inputSignature: [spec([])] });
    const g = ef.loadFunction<T>(ef.saveFunction(f));
    log.length = 0;
    expect(g(1).item()).toBe(2);
    g(5);
    expect(log).toEqual(['note 1', 'note 2', 'note 5', 'note 6']);
  });

  test('contrib.framework.pyFunc keeps its kwargs and output structure', () => {
    const fn = ef.registerHostFunction('test.contrib', (a: ef.NDArray, kw: Record<string, ef.NDArray>) => ({ s: a.map((v) => (v as number) + (kw.b.data[0] as number)), n: [a.size] }));
    const f = ef.trace((a: T, b: T) => {
      const out = ef.contrib.framework.pyFunc(fn, [a], { b }, { s: 'float32', n: 'int32' }) as { s: T; n: T };
      return [out.s, out.n];
    }, { inputSignature: [spec([2]), spec([1])] });
    const g = ef.loadFunction<T[]>(ef.saveFunction(f));
    const [s, n] = g([1, 2], [10]);
    expect(s.arraySync()).toEqual([11, 12]);
    expect(n.arraySync()).toEqual([2]);
  });
});

describe('tfjs-converter runs saved callbacks after tf.registerOp(key, ...)', () => {
  test('the op gets the callback inputs and the Tout attr', async () => {
    const double = ef.registerHostFunction('test.double', twice);
    const f = ef.trace((x: T) => ef.sqrt(ef.numpyFunction(double, [ef.square(x)], 'float32')), { inputSignature: [spec([null])] });
    const a = ef.saveFunction(f);
    const seen: unknown[] = [];
    registerOp('test.double', (node) => {
      seen.push(node.attrs.Tout, node.attrs.flavor);
      return tf.mul(node.inputs[0], 2);
    });
    const model = await loadGraphModel(tf.io.fromMemory(a as unknown as tf.io.ModelArtifacts));
    const out = model.execute(tf.tensor([1, 3])) as tf.Tensor;
    expect(Array.from(out.dataSync() as ArrayLike<number>)).toEqual(Array.from((f(ef.constant([1, 3])) as T).dataSync() as ArrayLike<number>));
    // Attrs arrive parsed by the converter (strings lower-cased, dtype lists as names).
    expect(seen).toEqual([['float32'], 'numpyfunction']);
    out.dispose();
    model.dispose();
  });
});
