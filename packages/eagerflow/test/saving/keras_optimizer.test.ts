// Keras 3 optimizer state in TF checkpoints, both ways (scripts/tf-files/keras_optimizer.py): EagerFlow restores what
// TF 2.21 wrote for Keras's Adam, Adam(amsgrad), SGD(momentum), RMSprop(centered, momentum) and Adagrad and continues
// exactly as Keras does; TF restores what EagerFlow writes into Keras optimizers (its verdict, tf_results.json, is
// checked to be about the files the writer produces now). EF_UPDATE_FIXTURES=1 rewrites EagerFlow's files.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ef from 'eagerflow';

const FIX = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures');
const TF_DIR = path.join(FIX, 'tf_files', 'ckpt_keras_opt');
const EF_DIR = path.join(FIX, 'ef_keras_opt');
interface Rec { w: number[]; b: number; iterations: number; variables: Record<string, number | number[]>; after_step3: { w: number[]; b: number } }
const TF = JSON.parse(fs.readFileSync(path.join(TF_DIR, 'keras_opt.json'), 'utf8')) as { grads: [number[], number][]; init: [number[], number]; optimizers: Record<string, Rec> };

const MAKE: Record<string, () => ef.optimizers.Optimizer> = {
  adam: () => new ef.optimizers.Adam({ learningRate: 0.1 }),
  adam_amsgrad: () => new ef.optimizers.Adam({ learningRate: 0.1, amsgrad: true }),
  sgd_momentum: () => new ef.optimizers.SGD({ learningRate: 0.1, momentum: 0.9 }),
  rmsprop_centered: () => new ef.optimizers.RMSprop({ learningRate: 0.1, momentum: 0.5, centered: true }),
  adagrad: () => new ef.optimizers.Adagrad({ learningRate: 0.1 }),
};

const arr = (v: ef.Variable): number | number[] => {
  const t = v.value();
  try {
    return t.arraySync() as number | number[];
  } finally {
    t.dispose();
  }
};

function step(opt: ef.optimizers.Optimizer, w: ef.Variable, b: ef.Variable, k: number): void {
  const [gw, gb] = TF.grads[k];
  const [tw, tb] = [ef.constant(gw), ef.constant(gb)];
  opt.applyGradients([[tw, w], [tb, b]]);
  [tw, tb].forEach((t) => t.dispose());
}

/** The optimizer's variables as Keras names them (`iteration`, `learning_rate`, `w_0_momentum`, ...). */
function kerasNamed(opt: ef.optimizers.Optimizer, vars: Record<string, ef.Variable>): Record<string, number | number[]> {
  const out: Record<string, number | number[]> = { iteration: arr(opt.iterations) };
  const lr = opt.learningRate;
  if (lr instanceof ef.Variable) out.learning_rate = arr(lr);
  for (const [n, v] of Object.entries(vars)) for (const [slot, s] of Object.entries(opt.slotsOf(v) ?? {})) out[`${n}_0_${slot}`] = arr(s);
  return out;
}

const close = (a: unknown, b: unknown): void => {
  const [x, y] = [[a].flat() as number[], [b].flat() as number[]];
  expect(x.length).toBe(y.length);
  x.forEach((v, i) => expect(v).toBeCloseTo(y[i], 5));
};

describe.each(Object.keys(MAKE))('Keras 3 %s', (name) => {
  test("restores TF's checkpoint (Keras 3's object graph: _iterations, _variables, _trainable_variables, slot lists) and continues as Keras", () => {
    const want = TF.optimizers[name];
    const w = new ef.Variable([0, 0], { name: 'w' });
    const b = new ef.Variable(0, { name: 'b' });
    const opt = MAKE[name]();
    new ef.train.Checkpoint({ model: { w, b }, optimizer: opt }).restore(path.join(TF_DIR, name)).assertConsumed();
    close(arr(w), want.w);
    close(arr(b), want.b);
    expect(arr(opt.iterations)).toBe(want.iterations);
    const got = kerasNamed(opt, { w, b });
    expect(Object.keys(got).sort()).toEqual(Object.keys(want.variables).sort());
    for (const [k, v] of Object.entries(want.variables)) close(got[k], v);
    step(opt, w, b, 2);
    close(arr(w), want.after_step3.w);
    close(arr(b), want.after_step3.b);
  });

  test('writes what TF restores into a Keras optimizer (tf_results.json is about these exact files, every check passed)', () => {
    const dir = process.env.EF_UPDATE_FIXTURES === '1' ? EF_DIR : fs.mkdtempSync(path.join(os.tmpdir(), 'ef-kopt-'));
    fs.mkdirSync(dir, { recursive: true });
    const w = new ef.Variable(TF.init[0], { name: 'w' });
    const b = new ef.Variable(TF.init[1], { name: 'b' });
    const opt = MAKE[name]();
    step(opt, w, b, 0);
    step(opt, w, b, 1);
    // save() (not write()) records save_counter, which TF's restore creates and assert_consumed then asks for.
    const prefix = new ef.train.Checkpoint({ model: { w, b }, optimizer: opt }).save(path.join(dir, name));
    const rec: Rec = { w: arr(w) as number[], b: arr(b) as number, iterations: arr(opt.iterations) as number, variables: kerasNamed(opt, { w, b }), after_step3: { w: [], b: 0 } };
    step(opt, w, b, 2);
    rec.after_step3 = { w: arr(w) as number[], b: arr(b) as number };
    const valuesFile = path.join(EF_DIR, 'ef_values.json');
    if (process.env.EF_UPDATE_FIXTURES === '1') {
      const all = fs.existsSync(valuesFile) ? JSON.parse(fs.readFileSync(valuesFile, 'utf8')) : { optimizers: {} };
      all.optimizers[name] = rec;
      fs.writeFileSync(valuesFile, `${JSON.stringify(all, null, 1)}\n`);
    }
    const results = JSON.parse(fs.readFileSync(path.join(EF_DIR, 'tf_results.json'), 'utf8')) as { files: Record<string, string>; checks: Record<string, Record<string, unknown>> };
    const sha = (f: string): string => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
    for (const f of [`${name}-1.index`, `${name}-1.data-00000-of-00001`]) expect([f, sha(path.join(path.dirname(prefix), f))]).toEqual([f, results.files[f]]);
    expect(results.checks[name]).toEqual({ assert_consumed: true, iterations: true, slots: true, weights: true, step3: true, ok: true });
  });
});
