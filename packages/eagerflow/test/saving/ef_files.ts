// What EagerFlow writes for TF 2.21 to read (scripts/tf-files/tf_reads_ef.py): the same objects every time, so the
// committed files under packages/saving/test/fixtures/ef_files/ are checked to be what the writers produce today.
import * as fs from 'fs';
import * as path from 'path';
import * as crypto from 'crypto';
import * as ef from 'eagerflow';

export const EF_FILES = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'ef_files');

class Dense extends ef.Module {
  w: ef.Variable;
  b: ef.Variable;
  constructor(w: number[][], b: number[], name: string) {
    super({ name });
    this.w = new ef.Variable(w);
    this.b = new ef.Variable(b);
  }
}

/** Mirrored by tf_reads_ef.py's Net: nested modules, a list, a dict, float32/int32/bool/string, a non-trainable variable. */
class Net extends ef.Module {
  layers = [new Dense([[1, 2], [3, 4], [5, 6]], [0.5, -0.5], 'd0'), new Dense([[1], [-1]], [2], 'd1')];
  extras = { count: new ef.Variable(7, { dtype: 'int32' }), flag: new ef.Variable([true, false]) };
  label = new ef.Variable('héllo');
  frozen = new ef.Variable([0.25, 0.75], { trainable: false });
}

/** A Module with two variables and a signature (mirrors write_tf_files.py's Affine). */
class Affine extends ef.Module {
  w = new ef.Variable([[1, -1], [0.5, 2], [0, 1]], { name: 'w' });
  b = new ef.Variable([0.1, -0.2], { name: 'b' });
  call = ef.trace((x: ef.Tensor) => ef.relu(ef.add(ef.matmul(x, this.w), this.b)), { inputSignature: [new ef.TensorSpec([null, 3], 'float32', 'x')] });
}

/** Two signatures (one returning an object), a non-signature function, a stateful counter and a while loop reading k in a cond inside its body. */
class Multi extends ef.Module {
  k = new ef.Variable(3, { name: 'k' });
  count = new ef.Variable(0, { dtype: 'int32', name: 'count' });
  scale = ef.trace((x: ef.Tensor) => ef.multiply(x, this.k), { inputSignature: [new ef.TensorSpec([null], 'float32', 'x')] });
  combine = ef.trace((a: ef.Tensor, b: ef.Tensor) => {
    this.count.assignAdd(1);
    return { sum: ef.add(a, b), prod: ef.multiply(ef.multiply(a, b), this.k), calls: this.count.value() };
  }, { inputSignature: [new ef.TensorSpec([null], 'float32', 'a'), new ef.TensorSpec([null], 'float32', 'b')] });
  helper = ef.trace((x: ef.Tensor) => ef.subtract(ef.square(x), this.k), { inputSignature: [new ef.TensorSpec([2], 'float32', 'x')] });
  loop = ef.trace((x: ef.Tensor, n: ef.Tensor) => {
    const [, acc] = ef.whileLoop((i: ef.Tensor) => ef.less(i, n), (i: ef.Tensor, acc: ef.Tensor) => [ef.add(i, 1), ef.cond(ef.greater(ef.reduceSum(acc), 10), () => ef.multiply(acc, 0.5), () => ef.add(ef.multiply(acc, 2), ef.divide(this.k, 3)))], [ef.constant(0, 'int32'), x]) as ef.Tensor[];
    return acc;
  }, { inputSignature: [new ef.TensorSpec([null], 'float32', 'x'), new ef.TensorSpec([], 'int32', 'n')] });
}

/** Writes every EagerFlow-made file into `dir`. */
export async function writeEfFiles(dir: string): Promise<void> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const net = new Net();
  const step = new ef.Variable(3, { dtype: 'int32' });
  const ckpt = new ef.train.Checkpoint({ model: net, step });
  ckpt.save(path.join(dir, 'ckpt', 'ckpt'));
  net.extras.count.assign(ef.constant(8, 'int32'));
  ckpt.save(path.join(dir, 'ckpt', 'ckpt'));
  const affine = new Affine();
  await ef.savedModel.save(affine, path.join(dir, 'sm_affine'), { signatures: affine.call });
  const multi = new Multi();
  await ef.savedModel.save(multi, path.join(dir, 'sm_multi'), { signatures: { serving_default: multi.combine, scale: multi.scale, loop: multi.loop } });
  await fineTuned(dir);
  // A traced function alone, and a TF SavedModel loaded here and saved again (restored functions are re-savable).
  const k = new ef.Variable([2, 3], { name: 'k' });
  await ef.savedModel.save(ef.trace((x: ef.Tensor) => ef.multiply(x, k), { inputSignature: [new ef.TensorSpec([2], 'float32', 'x')] }), path.join(dir, 'sm_function'));
  const tfModel = await ef.savedModel.load(path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tf_files', 'sm_two_sigs'));
  await ef.savedModel.save(tfModel as unknown as ef.Module, path.join(dir, 'sm_resaved'), { signatures: { combine: tfModel.combine, scale: tfModel.scale } });
}

/** docs/saving.md's worked example: TF's SavedModel loaded, fine-tuned with Adam, saved again (TF then serves it). */
async function fineTuned(dir: string): Promise<void> {
  const m = await ef.savedModel.load(path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tf_files', 'sm_module'));
  const call = m.__call__ as (x: ef.Tensor) => ef.Tensor;
  const opt = new ef.optimizers.Adam({ learningRate: 0.05 });
  const x = ef.constant([[1, 2, 3], [4, 5, 6], [-1, 0, 1]]);
  const y = ef.constant([[1, 0], [2, 1], [0, 3]]);
  for (let step = 0; step < 20; step++) {
    const tape = new ef.GradientTape();
    const loss = tape.record(() => ef.reduceMean(ef.square(ef.subtract(call(x), y))));
    const grads = tape.gradient(loss, m.trainableVariables) as ef.Tensor[];
    opt.applyGradients(grads.map((g, i) => [g, m.trainableVariables[i]] as [ef.Tensor, ef.Variable]));
  }
  class Tuned extends ef.Module {
    w = m.w as ef.Variable;
    b = m.b as ef.Variable;
    call = ef.trace((x: ef.Tensor) => ef.relu(ef.add(ef.matmul(x, this.w), this.b)), { inputSignature: [new ef.TensorSpec([null, 3], 'float32', 'x')] });
  }
  const tuned = new Tuned();
  await ef.savedModel.save(tuned, path.join(dir, 'sm_finetuned'), { signatures: tuned.call });
  const arr = (v: ef.Variable): unknown => v.value().arraySync();
  fs.writeFileSync(path.join(dir, 'finetuned.json'), `${JSON.stringify({ w: arr(tuned.w), b: arr(tuned.b), x: x.arraySync(), y: tuned.call(x).arraySync() })}\n`);
}

/** SHA-256 of every file under `dir` (relative path -> hex), except TF's results. */
export function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const f of fs.readdirSync(d).sort()) {
      const p = path.join(d, f);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (f !== 'tf_results.json') out[path.relative(dir, p)] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}
