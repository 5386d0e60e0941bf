// Every case row of the op harness saved and loaded (GraphDef ops, memory and disk, gradients) and run by tfjs-converter; plus the few SAMPLES rows cannot express.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { GraphModel, loadGraphModel } from '@tensorflow/tfjs-converter';
import { forwardCases, gradInputs, makeRefs, Rng, hashSeed } from '../../../test/harness';
import { checkLoadedGradient, checkSaveLoad, concreteOf, expectSameOutputs, flatOutputs, opsOf, quiet, savableRows } from '../../../test/harness/saving';
import { checkConverter } from '../../../test/harness/converter';
import { SAMPLES, Sample } from './saving_samples';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-saving-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const rows = savableRows(forwardCases);
const named = rows.map((c) => [c.name, c] as const);
const silenceConsole = (): void => {
  let warn: typeof console.warn;
  let log: typeof console.log;
  beforeAll(() => {
    [warn, log] = [console.warn, console.log];
    console.warn = () => undefined;
    console.log = () => undefined;
  });
  afterAll(() => {
    console.warn = warn;
    console.log = log;
  });
};

describe('rows: saved GraphDef holds tfOps; loaded from memory and disk equals the float64 reference', () => {
  test.each(named)('%s', (name, c) => checkSaveLoad(c, path.join(tmp, name.replace(/[^\w]+/g, '_'))));
});

describe('rows: gradients through a loaded function equal those through the original', () => {
  const withGrads = rows
    .map((c) => [c.name, c, gradInputs(c, c.ref(...makeRefs(c.inputs, new Rng(hashSeed(`${c.prim}/${c.name}`)))))] as const)
    // Variables are frozen into the saved graph (constants), so only tensor arguments have gradients there.
    .filter(([, c, wrt]) => wrt.length > 0 && !c.variables);
  test.each(withGrads)('%s', (_name, c, wrt) => checkLoadedGradient(c, [...wrt]));
});

describe('rows: tfjs-converter runs the saved graph with the same results (or fails as the row documents)', () => {
  silenceConsole();
  test.each(named)('%s', (_name, c) => checkConverter(c));
});

const samples: [string, Sample][] = SAMPLES.map((s) => [`${s.prim}: ${s.name}`, s]);

describe('SAMPLES (what rows cannot express): saved ops, identical results after loading, converter', () => {
  silenceConsole();
  test.each(samples)('%s', async (name, s) => {
    const inputs = s.inputs();
    const cf = concreteOf(s.fn, s.specs ? s.specs() : inputs.map((t) => ef.TensorSpec.fromTensor(t)));
    const artifacts = ef.saveFunction(cf);
    const ops = opsOf(artifacts);
    for (const op of s.ops) expect(`${op}: ${ops.has(op)}`).toBe(`${op}: true`);
    const dir = path.join(tmp, `sample_${name.replace(/[^\w]+/g, '_')}`);
    await ef.saveFunctionToDir(cf, dir);
    const want = flatOutputs(quiet(() => cf.call(...inputs)));
    const loaded = ef.loadFunction(artifacts);
    const fromDisk = await ef.loadFunction(dir);
    expectSameOutputs(flatOutputs(quiet(() => loaded(...inputs))), want, 'memory');
    expectSameOutputs(flatOutputs(quiet(() => fromDisk(...inputs))), want, 'disk');
    const before = ef.memory().numTensors;
    ef.tidy(() => void quiet(() => loaded(...inputs)));
    expect(ef.memory().numTensors).toBe(before);
    if (s.noConverter === undefined) {
      const model: GraphModel = await loadGraphModel(tf.io.fromMemory(artifacts as unknown as tf.io.ModelArtifacts));
      const raw = model.execute(inputs.map((t) => t.toTfjs()));
      expectSameOutputs((Array.isArray(raw) ? raw : [raw]).map((t) => ef.Tensor.fromTf(t as tf.Tensor)), want, 'converter');
      model.dispose();
    }
    loaded.dispose();
    fromDisk.dispose();
  });
});

test('every primitive of the core table has a GraphDef writer and a row or sample whose saved graph is checked for its TF op', () => {
  const checked = new Set([...rows.filter((c) => (c.tfOps ?? []).length > 0).map((c) => c.prim), ...SAMPLES.map((s) => s.prim)]);
  for (const name of Object.keys(ef.internal.PRIMITIVES)) {
    expect((ef.internal.PRIMITIVES as Record<string, ef.internal.Primitive>)[name].tf).toBeDefined();
    expect(`${name}: ${checked.has(name as ef.internal.PrimitiveName)}`).toBe(`${name}: true`);
  }
});
