// ef.savedModel.save: what TF reads is checked by scripts/tf-files/tf_reads_ef.py (ef_files.test.ts); here the
// structure of saved_model.pb and the refusals.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ef from 'eagerflow';

/** The parts of a decoded tensorflow.SavedModel (TF's snake_case fields) this file reads. */
interface SavedModelJson {
  meta_graphs: {
    meta_info_def: { tags: string[] };
    signature_def: Record<string, { method_name: string; inputs: Record<string, { name: string }>; outputs: Record<string, { name: string }> }>;
    object_graph_def: { nodes: { children: { local_name: string }[] }[] };
  }[];
}

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ef-sm-'));

test('saved_model.pb holds serving_default (tensorflow/serving/predict, TF names), the object graph and the variables bundle', async () => {
  class M extends ef.Module {
    v = new ef.Variable([1, 2], { name: 'v' });
    f = ef.trace((x: ef.Tensor) => ({ y: ef.multiply(x, this.v), z: ef.add(x, 1) }), { inputSignature: [new ef.TensorSpec([2], 'float32', 'x')] });
  }
  const m = new M();
  const dir = tmp();
  await ef.savedModel.save(m, dir, { signatures: m.f });
  const sm = ef.internal.decodeTfProto('tensorflow.SavedModel', fs.readFileSync(path.join(dir, 'saved_model.pb'))) as SavedModelJson;
  const mg = sm.meta_graphs[0];
  expect(mg.meta_info_def.tags).toEqual(['serve']);
  const sig = mg.signature_def.serving_default;
  expect(sig.method_name).toBe('tensorflow/serving/predict');
  expect(Object.keys(sig.inputs)).toEqual(['x']);
  expect(sig.inputs.x.name).toBe('serving_default_x:0');
  expect(Object.keys(sig.outputs).sort()).toEqual(['y', 'z']);
  expect(mg.object_graph_def.nodes[0].children.map((c) => c.local_name)).toEqual(['v', 'f', 'signatures']);
  expect(fs.readdirSync(path.join(dir, 'variables')).sort()).toEqual(['variables.data-00000-of-00001', 'variables.index']);
});

test('host callbacks are refused with an error naming them; non-modules are refused', async () => {
  class M extends ef.Module {
    f = ef.trace((x: ef.Tensor) => ef.numpyFunction((a: unknown) => a, [x], 'float32') as ef.Tensor, { inputSignature: [new ef.TensorSpec([2])] });
  }
  const m = new M();
  await expect(ef.savedModel.save(m, tmp(), { signatures: m.f })).rejects.toThrow(/calls host callbacks, which a SavedModel cannot hold/);
  await expect(ef.savedModel.save({ a: 1 } as unknown as ef.Module, tmp())).rejects.toThrow(ef.errors.InvalidArgumentError);
});
