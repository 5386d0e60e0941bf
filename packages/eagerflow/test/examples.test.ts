// The demos behind `npm start` run against the built package and print TensorFlow-style results; demos and tooling tests type-check.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

test('npm start (examples/run-all.js) runs every demo and prints eager results', () => {
  const r = spawnSync(process.execPath, [path.join(root, 'examples', 'run-all.js')], { cwd: root, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>');
  expect(r.stdout).toMatch(/(\d+)\/\1 demos ran\./);
  // examples/07-tensorboard.ts: TFRecords -> ef.data -> training with a Progbar, TensorBoard logs and checkpoints.
  expect(r.stdout).toMatch(/wrote 4 TFRecord files of tf\.train\.Examples/);
  expect(r.stdout).toMatch(/16\/16\S* \S*━{20}/);
  expect(r.stdout).toContain('checkpoints kept: ckpt-4.bin, ckpt-5.bin');
  expect(r.stdout).toMatch(/TensorBoard logs: train\/events\.out\.tfevents\.\d+\./);
});

test('the TypeScript demos and the tooling tests type-check (strict) against the published types', () => {
  // tsconfig.tests.json: examples/*.ts, acceptance/, browser/ and packages/eagerflow/test/ (Jest only strips types).
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.tests.json')], { cwd: root, encoding: 'utf8' });
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
});
