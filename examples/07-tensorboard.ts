// A training run the TF way, end to end: TFRecord files of tf.train.Examples -> an ef.data pipeline -> a small
// model trained by a traced step -> a Keras progress bar, TensorBoard logs (loss per batch from inside the traced
// step, loss per epoch, weight histograms, the model's graph) and checkpoints (the last two kept).
// `node -r ./scripts/register-ts.js examples/07-tensorboard.ts [--logdir DIR] [--epochs N]`, then
// `tensorboard --logdir DIR` (docs/tensorboard.md shows what it looks like).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};

const FEATURES = 4;
const TRUE_W = [2, -3, 0.5, 1];
const TRUE_B = 0.7;

/** A seeded generator (mulberry32), so the data and the run repeat. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Synthetic regression data, y = x . TRUE_W + TRUE_B + noise. */
function makeRows(n: number, seed: number): { x: number[]; y: number }[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const x = Array.from({ length: FEATURES }, () => r() * 2 - 1);
    return { x, y: x.reduce((s, v, j) => s + v * TRUE_W[j], TRUE_B) + (r() - 0.5) * 0.1 };
  });
}

/** Writes the rows as `shards` TFRecord files of tf.train.Examples (features `x`: 4 floats, `y`: 1 float). */
function writeShards(dir: string, rows: { x: number[]; y: number }[], shards: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let k = 0; k < shards; k++) {
    const file = path.join(dir, `train-${String(k).padStart(5, '0')}-of-${String(shards).padStart(5, '0')}.tfrecord`);
    const writer = new ef.io.TFRecordWriter(file);
    rows.filter((_, i) => i % shards === k).forEach(({ x, y }) => {
      const example = new ef.train.Example({
        features: new ef.train.Features({
          feature: {
            x: new ef.train.Feature({ floatList: { value: x } }),
            y: new ef.train.Feature({ floatList: { value: [y] } }),
          },
        }),
      });
      writer.write(example.serializeToString());
    });
    writer.close();
    files.push(file);
  }
  return files;
}

/** The input pipeline: records -> parsed Examples -> [x, y] -> shuffled batches. */
function pipeline(files: string[], batchSize: number): ef.data.Dataset {
  const spec = {
    x: ef.io.FixedLenFeature([FEATURES], 'float32'),
    y: ef.io.FixedLenFeature([1], 'float32'),
  };
  return ef.data.TFRecordDataset(files)
    .map((record: ef.Tensor) => {
      const f = ef.io.parseSingleExample(record, spec) as Record<string, ef.Tensor>;
      return [f.x, f.y];
    })
    .shuffle(256, { seed: 7 })
    .batch(batchSize);
}

/** A 4-8-1 MLP as Variables. */
function makeModel(): { params: ef.Variable[]; forward: (x: ef.Tensor) => ef.Tensor } {
  const [w1, b1, w2, b2] = ef.tidy(() => [
    new ef.Variable(ef.initializers.glorotUniform({ seed: 1 })([FEATURES, 8]), { name: 'dense/kernel' }),
    new ef.Variable(ef.initializers.zeros()([8]), { name: 'dense/bias' }),
    new ef.Variable(ef.initializers.glorotUniform({ seed: 2 })([8, 1]), { name: 'dense_1/kernel' }),
    new ef.Variable(ef.initializers.zeros()([1]), { name: 'dense_1/bias' }),
  ]);
  const forward = (x: ef.Tensor): ef.Tensor => ef.add(ef.matmul(ef.tanh(ef.add(ef.matmul(x, w1), b1)), w2), b2);
  return { params: [w1, b1, w2, b2], forward };
}

/** Keeps the last `maxToKeep` checkpoints of `ckpt` in `dir` (ckpt-<n>.json + ckpt-<n>.bin), as tf.train.CheckpointManager. */
class CheckpointFiles {
  private readonly kept: string[] = [];
  constructor(private readonly ckpt: ef.train.Checkpoint, private readonly dir: string, private readonly maxToKeep: number) {
    fs.mkdirSync(dir, { recursive: true });
  }

  save(n: number): string {
    const prefix = path.join(this.dir, `ckpt-${n}`);
    const saved = this.ckpt.save();
    fs.writeFileSync(`${prefix}.json`, JSON.stringify(saved.weightSpecs));
    fs.writeFileSync(`${prefix}.bin`, new Uint8Array(saved.weightData));
    this.kept.push(prefix);
    while (this.kept.length > this.maxToKeep) {
      const old = this.kept.shift() as string;
      fs.rmSync(`${old}.json`);
      fs.rmSync(`${old}.bin`);
    }
    fs.writeFileSync(path.join(this.dir, 'checkpoint'), `model_checkpoint_path: "${path.basename(prefix)}"\n`);
    return prefix;
  }

  static restore(ckpt: ef.train.Checkpoint, prefix: string): void {
    const bin = fs.readFileSync(`${prefix}.bin`);
    ckpt.restore({ weightSpecs: JSON.parse(fs.readFileSync(`${prefix}.json`, 'utf8')), weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) });
  }
}

async function main(): Promise<void> {
  const logdir = arg('logdir', fs.mkdtempSync(path.join(os.tmpdir(), 'ef-tensorboard-')));
  const epochs = Number(arg('epochs', '5'));
  const batchSize = 32;
  const files = writeShards(path.join(logdir, 'data'), makeRows(512, 30), 4);
  console.log(`wrote ${files.length} TFRecord files of tf.train.Examples in ${path.join(logdir, 'data')}`);
  const ds = pipeline(files, batchSize);
  const stepsPerEpoch = Math.ceil(512 / batchSize);

  const { params, forward } = makeModel();
  const optimizer = new ef.optimizers.Adam({ learningRate: 0.05 });
  const writer = ef.summary.createFileWriter(path.join(logdir, 'train'));
  const trainStep = ef.trace((x: ef.Tensor, y: ef.Tensor) => {
    const tape = new ef.GradientTape();
    const loss = tape.record(() => ef.losses.meanSquaredError(y, forward(x)));
    const grads = tape.gradient(loss, params);
    optimizer.applyGradients(grads.map((g, i) => [g, params[i]] as [ef.Tensor, ef.Variable]));
    // Written at every call, with the optimizer's step counter read at run time.
    ef.summary.scalar('batch/loss', loss, { step: optimizer.iterations });
    return loss;
  });
  const ckpt = new ef.train.Checkpoint({ model: params, optimizer });
  const manager = new CheckpointFiles(ckpt, path.join(logdir, 'checkpoints'), 2);

  await writer.asDefault(async () => {
    ef.summary.graph(ef.trace(forward).getConcreteFunction(new ef.TensorSpec([null, FEATURES], 'float32', 'x')));
    ef.summary.text('run', `MLP ${FEATURES}-8-1, Adam(0.05), batch ${batchSize}, ${epochs} epochs`, { step: 0 });
    for (let epoch = 1; epoch <= epochs; epoch++) {
      console.log(`Epoch ${epoch}/${epochs}`);
      const bar = new ef.utils.Progbar(stepsPerEpoch);
      let sum = 0;
      let seen = 0;
      let step = 0;
      for await (const [x, y] of ds as AsyncIterable<[ef.Tensor, ef.Tensor]>) {
        const loss = trainStep(x, y);
        const value = Number(loss.dataSync()[0]);
        sum += value * (x.dims as number[])[0];
        seen += (x.dims as number[])[0];
        bar.update(++step, [['loss', value]]);
        ef.dispose([x, y, loss]);
      }
      ef.summary.scalar('epoch/loss', sum / seen, { step: epoch });
      for (const p of params) ef.summary.histogram(p.name, p.value(), { step: epoch });
      manager.save(epoch);
    }
  });
  writer.close();

  // Restore the last checkpoint into fresh variables: the same predictions.
  const last = fs.readFileSync(path.join(logdir, 'checkpoints', 'checkpoint'), 'utf8').match(/"(.*)"/)?.[1] as string;
  const fresh = makeModel();
  CheckpointFiles.restore(new ef.train.Checkpoint({ model: fresh.params, optimizer: new ef.optimizers.Adam({ learningRate: 0.05 }) }), path.join(logdir, 'checkpoints', last));
  const probe = ef.constant([[0.5, -0.5, 0.25, 1]]);
  const [a, b] = [Number(forward(probe).dataSync()[0]), Number(fresh.forward(probe).dataSync()[0])];
  const truth = [0.5, -0.5, 0.25, 1].reduce((s, v, j) => s + v * TRUE_W[j], TRUE_B);
  console.log(`prediction at [0.5, -0.5, 0.25, 1]: ${a.toFixed(3)} (truth ${truth.toFixed(3)}); restored from ${last}: ${b.toFixed(3)}`);
  console.log(`checkpoints kept: ${fs.readdirSync(path.join(logdir, 'checkpoints')).filter((f) => f.endsWith('.bin')).join(', ')}`);
  console.log(`TensorBoard logs: ${path.relative(logdir, writer.path)} in ${logdir} (tensorboard --logdir ${logdir})`);
  if (Math.abs(a - b) > 1e-6) throw new Error('the restored model predicts differently');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
