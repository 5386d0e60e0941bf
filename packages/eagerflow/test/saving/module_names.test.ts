// ef.Module name scopes against TF 2.21's names (fixture from scripts/tf-files/module_names.py): `nameScope`,
// `withNameScope(fn)` (TF's `with self.name_scope:`), `Module.withNameScope(method)` (TF's `@tf.Module.with_name_scope`),
// nested modules, lazily created variables, unnamed variables, variables created outside the scope.
import * as fs from 'fs';
import * as path from 'path';
import * as ef from 'eagerflow';

const FIXTURE = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tf_files', 'module_names.json');
interface Described { name: string; scope: string; variables: string[]; submodules: [string, string][] }
const TF = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { modules: Record<string, Described>; lazy_output: number[][] };

class Dense extends ef.Module {
  w: ef.Variable;
  b: ef.Variable;
  constructor(nIn: number, nOut: number, name?: string) {
    super({ name });
    [this.w, this.b] = this.withNameScope(() => [new ef.Variable(ef.ones([nIn, nOut]), { name: 'w' }), new ef.Variable(ef.zeros([nOut]), { name: 'b' })]);
  }

  call = ef.Module.withNameScope(function (this: Dense, x: ef.Tensor) {
    return ef.add(ef.matmul(x, this.w), this.b);
  });
}

class MLPBlock extends ef.Module {
  plain = new ef.Variable(1, { name: 'plain' });
  first!: Dense;
  second!: Dense;
  scale!: ef.Variable;
  unnamed!: ef.Variable;
  constructor(name?: string) {
    super({ name });
    this.withNameScope(() => {
      this.first = new Dense(2, 3);
      this.second = new Dense(3, 1, 'head');
      this.scale = new ef.Variable(2, { name: 'scale' });
      this.unnamed = new ef.Variable(0.5);
    });
  }
}

class Lazy extends ef.Module {
  w?: ef.Variable;
  inner?: Dense;
  call = ef.Module.withNameScope(function (this: Lazy, x: ef.Tensor) {
    if (this.w === undefined) {
      this.w = new ef.Variable(ef.ones([x.shape.dims![1]!, 2]), { name: 'w' });
      this.inner = new Dense(2, 1, 'inner');
    }
    return this.inner!.call(ef.matmul(x, this.w));
  });
}

/** TF's description of a module; EagerFlow's names are TF's without the ':0' output suffix. */
function describe(m: ef.Module): Described {
  return {
    name: m.name,
    scope: m.nameScope,
    variables: m.variables.map((v) => `${v.name}:0`),
    submodules: m.submodules.map((s) => [s.name, s.nameScope]),
  };
}

test('modules and their variables have TF 2.21 names: scopes, nesting, unnamed and unscoped variables, repeated names', () => {
  expect(describe(new Dense(2, 2))).toEqual(TF.modules.dense);
  expect(describe(new MLPBlock())).toEqual(TF.modules.mlp_block);
  expect(describe(new MLPBlock('my_block'))).toEqual(TF.modules.named_block);
  expect(describe(new Dense(1, 1))).toEqual(TF.modules.dense_again);
});

test('Module.withNameScope(method): variables and modules created on the first call are named inside the scope', () => {
  const lazy = new Lazy();
  const x = ef.ones([1, 3]);
  const y = lazy.call(x);
  expect(y.arraySync()).toEqual(TF.lazy_output);
  expect(describe(lazy)).toEqual(TF.modules.lazy);
  // The scope ends with the call: a Variable made afterwards is unscoped.
  expect(new ef.Variable(1, { name: 'after' }).name).toBe('after');
  [x, y].forEach((t) => t.dispose());
});

test('the scope is restored when the function throws; only the synchronous part of an async function is scoped; bad arguments', async () => {
  const m = new Dense(1, 1, 'd');
  expect(() => m.withNameScope(() => {
    throw new Error('boom');
  })).toThrow('boom');
  expect(new ef.Variable(1, { name: 'v' }).name).toBe('v');
  const [before, after] = await m.withNameScope(async () => {
    const first = new ef.Variable(1, { name: 'early' });
    await new Promise((r) => setTimeout(r, 1));
    return [first, new ef.Variable(1, { name: 'late' })];
  });
  expect([before.name, after.name]).toEqual(['d/early', 'late']);
  expect(new ef.Variable(1, { name: 'v' }).name).toBe('v');
  expect(() => ef.Module.withNameScope(3 as never)).toThrow(/Module.withNameScope: expected a method/);
  // Outside any scope, unnamed variables keep EagerFlow's unique Variable_N names.
  expect(new ef.Variable(1).name).toMatch(/^Variable_\d+$/);
});

test('scoped names reach the files: a SavedModel records the scoped variable names', async () => {
  const os = await import('os');
  const block = new MLPBlock();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-names-'));
  await ef.savedModel.save(block, dir);
  const loaded = await ef.savedModel.load(dir);
  expect(loaded.variables.map((v) => v.name).sort()).toEqual(TF.modules.mlp_block.variables.map((n) => n.replace(/:0$/, '')).sort());
  loaded.variables.forEach((v) => v.dispose());
  fs.rmSync(dir, { recursive: true, force: true });
});
