// The TensorFlow differential suite on the wasm backend: every fixture case on every path, compared with TensorFlow 2.21's
// values under the same tolerances and allowlist as on cpu (docs/conformance.md is cpu's report; wasm must add nothing).
import * as ef from 'eagerflow';
import { loadFixtures } from './load_fixtures';
import { runOp } from './run_op';

const fixtures = loadFixtures();

beforeAll(async () => {
  ef.retraceConfig.warn = () => undefined;
  await ef.setBackend('wasm');
});

afterAll(() => ef.setBackend('cpu'));

describe('TensorFlow 2.21 conformance on wasm', () => {
  test('runs on wasm', () => expect(ef.getBackend()).toBe('wasm'));

  for (const fx of fixtures) {
    test(`${fx.op} matches TensorFlow on wasm`, () => {
      const run = runOp(fx.op, fx);
      expect(run.failed.map((d) => `${d.op} | ${d.case} | ${d.path} | ${d.what}: ${d.detail}`)).toEqual([]);
    });
  }
});
