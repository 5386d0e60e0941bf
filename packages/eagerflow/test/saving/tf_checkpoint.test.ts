// TF-format checkpoints and ef.Module against TF 2.21 (fixtures from scripts/tf-files/write_tf_files.py).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ef from 'eagerflow';

const DIR = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tf_files');
const EXPECTED = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8'));

const zeros = (shape: number[], dtype: ef.DType = 'float32'): ef.Variable => new ef.Variable(ef.zeros(shape, dtype));

class Dense extends ef.Module {
  w: ef.Variable;
  b: ef.Variable;
  constructor(nIn: number, nOut: number, name: string) {
    super({ name });
    this.w = zeros([nIn, nOut]);
    this.b = zeros([nOut]);
  }
}

/** The structure of the TF script's Net, with zeros (TF's float64/int64/float16 become float32/int32). */
class Net extends ef.Module {
  layers = [new Dense(3, 2, 'd0'), new Dense(2, 1, 'd1')];
  extras = { count: zeros([], 'int32'), flag: new ef.Variable([false, false]) };
  scale = zeros([]);
  half = zeros([2]);
  steps = zeros([3], 'int32');
  label = new ef.Variable('');
  frozen = new ef.Variable([0, 0], { trainable: false });
}

const arr = (v: ef.Variable): unknown => {
  const t = v.value();
  const out = t.arraySync();
  t.dispose();
  return out;
};

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ef-ckpt-'));
}

test('restores a checkpoint TF wrote (nested Modules, a list, a dict, float64/int64/float16/bool/string); assertConsumed passes', () => {
  const net = new Net();
  const step = zeros([], 'int32');
  const ckpt = new ef.train.Checkpoint({ model: net, step });
  const want = EXPECTED.ckpt_nested;
  const status = ckpt.restore(path.join(DIR, 'ckpt_nested', want.save_path));
  status.assertConsumed();
  const v = want.variables;
  expect(arr(net.layers[0].w)).toEqual(v['layers/0/w'].value.map((r: number[]) => r.map((x) => Math.fround(x))));
  expect(arr(net.layers[1].b)).toEqual(v['layers/1/b'].value);
  expect(arr(net.extras.count)).toBe(7);
  expect(arr(net.extras.flag)).toEqual([true, false]);
  expect(arr(net.scale)).toBe(2.5);
  expect(arr(net.half)).toEqual([1.5, -2]);
  expect(arr(net.steps)).toEqual([1, 2, 3]);
  expect(arr(net.label)).toBe('hello');
  expect(arr(step)).toBe(3);
  expect(arr(ckpt.saveCounter)).toBe(1);
  // tf.Module's orders.
  expect(net.trainableVariables.length).toBe(want.trainable.length);
  expect(net.variables.length).toBe(want.all.length);
  expect(net.submodules.map((m) => m.name)).toEqual(want.submodules);
});

test('ef.train.latestCheckpoint and a TF CheckpointManager directory', () => {
  const want = EXPECTED.ckpt_manager;
  const dir = path.join(DIR, 'ckpt_manager');
  expect(ef.train.latestCheckpoint(dir)).toBe(path.join(dir, want.latest));
  const v = zeros([2]);
  new ef.train.Checkpoint({ v }).restore(ef.train.latestCheckpoint(dir)!).assertConsumed();
  expect(arr(v)).toEqual(want.v);
  const m = new ef.train.CheckpointManager(new ef.train.Checkpoint({ v }), dir, { maxToKeep: 2 });
  expect(m.checkpoints).toEqual(want.kept.map((k: string) => path.join(dir, k)));
  expect(ef.train.latestCheckpoint(tmp())).toBeNull();
});

test('save/write/restore round trip, numbering, state file and CheckpointManager maxToKeep', () => {
  const dir = tmp();
  const net = new Net();
  net.layers[0].w.assign(ef.constant([[1, 2], [3, 4], [5, 6]]));
  const ckpt = new ef.train.Checkpoint({ model: net });
  expect(ckpt.save(path.join(dir, 'ckpt'))).toBe(path.join(dir, 'ckpt-1'));
  expect(ckpt.save(path.join(dir, 'ckpt'))).toBe(path.join(dir, 'ckpt-2'));
  expect(ef.train.latestCheckpoint(dir)).toBe(path.join(dir, 'ckpt-2'));
  const net2 = new Net();
  const ck2 = new ef.train.Checkpoint({ model: net2 });
  ck2.restore(path.join(dir, 'ckpt-2')).assertConsumed();
  expect(arr(net2.layers[0].w)).toEqual([[1, 2], [3, 4], [5, 6]]);
  expect(arr(ck2.saveCounter)).toBe(2);

  const mdir = path.join(dir, 'managed');
  const v = new ef.Variable([0, 0]);
  const mgr = new ef.train.CheckpointManager(new ef.train.Checkpoint({ v }), mdir, { maxToKeep: 2 });
  for (let i = 0; i < 3; i++) {
    v.assign(ef.constant([i, i]));
    mgr.save();
  }
  expect(mgr.checkpoints.map((p) => path.basename(p))).toEqual(['ckpt-2', 'ckpt-3']);
  expect(fs.readdirSync(mdir).sort()).toEqual(['checkpoint', 'ckpt-2.data-00000-of-00001', 'ckpt-2.index', 'ckpt-3.data-00000-of-00001', 'ckpt-3.index']);
  expect(ef.train.latestCheckpoint(mdir)).toBe(path.join(mdir, 'ckpt-3'));
});

test('deferred restoration: variables and modules assigned after restore() get their saved values', () => {
  const dir = tmp();
  const net = new Net();
  net.layers[1].w.assign(ef.constant([[7], [8]]));
  net.scale.assign(ef.constant(4));
  const p = new ef.train.Checkpoint({ model: net }).write(path.join(dir, 'x'));

  class Lazy extends ef.Module {
    layers?: Dense[];
    scale?: ef.Variable;
  }
  const lazy = new Lazy({ name: 'net' });
  const status = new ef.train.Checkpoint({ model: lazy }).restore(p);
  expect(() => status.assertConsumed()).toThrow(ef.errors.FailedPreconditionError);
  lazy.scale = zeros([]);
  expect(arr(lazy.scale)).toBe(4);
  // A whole subtree assigned later: a list of Modules whose variables get their saved values.
  lazy.layers = [new Dense(3, 2, 'd0'), new Dense(2, 1, 'd1')];
  expect(arr(lazy.layers[1].w)).toEqual([[7], [8]]);
  expect(arr(lazy.layers[0].b)).toEqual([0, 0]);
  status.expectPartial();
});

test("deferred restoration into tracked arrays and objects (TF's ListWrapper/DictWrapper): elements pushed after restore() of TF's checkpoint get TF's values", () => {
  class Growing extends ef.Module {
    layers: Dense[] = [];
    extras: Record<string, ef.Variable> = {};
    scale = zeros([]);
    half = zeros([2]);
    steps = zeros([3], 'int32');
    label = new ef.Variable('');
    frozen = new ef.Variable([0, 0], { trainable: false });
  }
  const want = EXPECTED.ckpt_nested;
  const net = new Growing({ name: 'net' });
  const step = zeros([], 'int32');
  const status = new ef.train.Checkpoint({ model: net, step }).restore(path.join(DIR, 'ckpt_nested', want.save_path));
  expect(arr(net.scale)).toBe(2.5);
  expect(() => status.assertConsumed()).toThrow(/not matched to live objects.*model\/layers\/0/);
  // Pushed later, one at a time: each Dense is restored when it lands in the array.
  net.layers.push(new Dense(3, 2, 'd0'));
  expect(arr(net.layers[0].w)).toEqual(want.variables['layers/0/w'].value.map((r: number[]) => r.map((x) => Math.fround(x))));
  expect(arr(net.layers[0].b)).toEqual(want.variables['layers/0/b'].value);
  net.layers.push(new Dense(2, 1, 'd1'));
  expect(arr(net.layers[1].b)).toEqual(want.variables['layers/1/b'].value);
  // Keys added to a tracked object later.
  net.extras.count = zeros([], 'int32');
  net.extras.flag = new ef.Variable([false, false]);
  expect(arr(net.extras.count)).toBe(7);
  expect(arr(net.extras.flag)).toEqual([true, false]);
  status.assertConsumed();
  // The proxies stay arrays and plain objects; the module's variables include the pushed ones in TF's order.
  expect(Array.isArray(net.layers)).toBe(true);
  expect(net.variables.length).toBe(want.all.length);
});

test('errors: missing checkpoint, shape mismatch naming the path, corrupted files', () => {
  const dir = tmp();
  expect(() => new ef.train.Checkpoint({ v: zeros([2]) }).restore(path.join(dir, 'nope'))).toThrow(ef.errors.NotFoundError);
  const p = new ef.train.Checkpoint({ model: { w: zeros([2]) } }).write(path.join(dir, 'c'));
  expect(() => new ef.train.Checkpoint({ model: { w: zeros([3]) } }).restore(p)).toThrow(/model\/w does not match its saved value/);
  const data = fs.readFileSync(`${p}.data-00000-of-00001`);
  data[0] ^= 1;
  fs.writeFileSync(`${p}.data-00000-of-00001`, data);
  const ckpt = new ef.train.Checkpoint({ model: { w: zeros([2]) } });
  ckpt.saveCounter;
  const before = ef.memory().numTensors;
  expect(() => ckpt.restore(p)).toThrow(/CRC32C of 'model\/w\/.ATTRIBUTES\/VARIABLE_VALUE' does not match/);
  expect(() => ckpt.restore(p)).toThrow(ef.errors.DataLossError);
  expect(ef.memory().numTensors).toBe(before);
  fs.writeFileSync(`${p}.index`, fs.readFileSync(`${p}.index`).subarray(0, 30));
  expect(() => ckpt.restore(p)).toThrow(/c.index is corrupted: shorter than a table footer/);
});

test('optimizer state in a TF-format checkpoint: iterations, learning rate and slots (as TF slot variables) restore into a fresh optimizer', () => {
  const dir = tmp();
  const w = new ef.Variable([1, -1], { name: 'w' });
  const opt = new ef.optimizers.Adam({ learningRate: 0.1 });
  for (let i = 0; i < 3; i++) opt.applyGradients([[ef.constant([0.3, -0.7]), w]]);
  const p = new ef.train.Checkpoint({ model: { w }, optimizer: opt }).write(path.join(dir, 'opt'));
  const w2 = new ef.Variable([0, 0], { name: 'w' });
  const opt2 = new ef.optimizers.Adam({ learningRate: 0.1 });
  new ef.train.Checkpoint({ model: { w: w2 }, optimizer: opt2 }).restore(p).assertConsumed();
  expect(arr(opt2.iterations)).toBe(3);
  const slots = Object.keys(opt.slotsOf(w) ?? {});
  expect(slots.sort()).toEqual(['momentum', 'velocity']);
  for (const slot of slots) expect(arr(opt2.getSlot(w2, slot)!)).toEqual(arr(opt.getSlot(w, slot)!));
  opt.applyGradients([[ef.constant([0.1, 0.2]), w]]);
  opt2.applyGradients([[ef.constant([0.1, 0.2]), w2]]);
  expect(arr(w2)).toEqual(arr(w));
});

test("dtype rules: TF's int64/float64/uint8 values load as int32/float32 when they fit, else an InvalidArgumentError naming the variable", async () => {
  const { hostValues } = await import('../../../saving/src/tf_dtypes');
  const i64 = new BigInt64Array([5n, -7n]);
  expect(Array.from(hostValues({ dtype: 9, shape: [2], data: new Uint8Array(i64.buffer) }, 'model/n', 'restore').data as Int32Array)).toEqual([5, -7]);
  const big = new BigInt64Array([2n ** 40n]);
  expect(() => hostValues({ dtype: 9, shape: [1], data: new Uint8Array(big.buffer) }, 'model/big', 'restore')).toThrow(/model\/big holds 1099511627776, which does not fit int32/);
  const f64 = new Float64Array([1e39]);
  expect(() => hostValues({ dtype: 2, shape: [1], data: new Uint8Array(f64.buffer) }, 'model/f', 'restore')).toThrow(ef.errors.InvalidArgumentError);
  expect(Array.from(hostValues({ dtype: 4, shape: [2], data: Uint8Array.from([255, 3]) }, 'u', 'restore').data as Int32Array)).toEqual([255, 3]);
});
