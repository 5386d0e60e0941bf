// The TF file readers on mutated TF-written files (bit flips, truncations, insertions, zeroed runs): every case either
// reads the original values or fails with an ef.errors class (bundles: DataLossError) - never a TypeError/RangeError,
// a hang or a wrong value. EF_FUZZ_CASES scales the case count (scripts/tf-files/fuzz_readers.sh runs thousands).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ef from 'eagerflow';
import { readBundleIndex, readBundleTensor, shardFile } from '../../../saving/src/tensor_bundle';
import { Rng } from '../../../../test/harness/rng';
import { fileBases, fileCase, runFileCase } from '../../../../test/fuzz/file_fuzz';

const DIR = path.join(__dirname, '..', '..', '..', 'saving', 'test', 'fixtures', 'tf_files');
const CASES = Number(process.env.EF_FUZZ_CASES ?? 150);

/** A seeded generator's draws in [0, 1) (the harness's mulberry32), so a failing case is reproducible from its index. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

function mutate(bytes: Uint8Array, r: () => number): Uint8Array {
  const out = Uint8Array.from(bytes);
  const at = Math.floor(r() * bytes.length);
  switch (Math.floor(r() * 4)) {
    case 0: out[at] ^= 1 << Math.floor(r() * 8); return out;
    case 1: return out.subarray(0, at);
    case 2: return Uint8Array.from([...out.subarray(0, at), Math.floor(r() * 256), ...out.subarray(at)]);
    default: out.fill(0, at, Math.min(out.length, at + 1 + Math.floor(r() * 16))); return out;
  }
}

function readAll(index: Uint8Array, shard: Uint8Array): Map<string, string> {
  const idx = readBundleIndex(index, 'x.index');
  return new Map([...idx.entries].map(([k, e]) => {
    const t = readBundleTensor(k, e, shard, 'x.data');
    return [k, JSON.stringify([t.dtype, t.shape, Array.isArray(t.data) ? t.data.map((d) => Array.from(d)) : Array.from(t.data)])];
  }));
}

test.each(['ckpt_nested/ckpt-1', 'sm_keras/variables/variables'])('mutated %s .index and .data: the original values or a DataLossError', (prefix) => {
  const p = path.join(DIR, prefix);
  const index = new Uint8Array(fs.readFileSync(`${p}.index`));
  const shard = new Uint8Array(fs.readFileSync(shardFile(p, 0, 1)));
  const want = readAll(index, shard);
  const outcomes = { same: 0, dataLoss: 0 };
  for (let i = 0; i < CASES; i++) {
    const r = rng(i + 1);
    const onIndex = i % 2 === 0;
    try {
      const got = onIndex ? readAll(mutate(index, r), shard) : readAll(index, mutate(shard, r));
      expect([i, [...got]]).toEqual([i, [...want]]);
      outcomes.same++;
    } catch (e) {
      if (!(e instanceof ef.errors.DataLossError) && !(e instanceof ef.errors.UnimplementedError)) throw new Error(`case ${i}: ${(e as Error).name}: ${(e as Error).message}`);
      outcomes.dataLoss++;
    }
  }
  expect(outcomes.dataLoss).toBeGreaterThan(CASES / 2);
});

test('mutated saved_model.pb: loads or fails with an ef.errors class', async () => {
  const src = path.join(DIR, 'sm_module');
  const pb = new Uint8Array(fs.readFileSync(path.join(src, 'saved_model.pb')));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-fuzz-'));
  fs.cpSync(src, dir, { recursive: true });
  const n = Math.max(10, Math.floor(CASES / 6));
  let failed = 0;
  for (let i = 0; i < n; i++) {
    fs.writeFileSync(path.join(dir, 'saved_model.pb'), mutate(pb, rng(1000 + i)));
    try {
      await ef.savedModel.load(dir);
    } catch (e) {
      if (!(e instanceof ef.errors.OpError)) throw new Error(`case ${i}: ${(e as Error).name}: ${(e as Error).message}`);
      failed++;
    }
  }
  expect(failed).toBeGreaterThan(0);
});

test("file fuzzer case 25653 (two bit flips made a Keras root's `variables` attribute a non-list): refused with a library error, not a TypeError", async () => {
  await fileBases();
  const before = ef.memory().numTensors;
  expect(await runFileCase(fileCase(32, 25653))).toEqual(expect.objectContaining({ status: 'refused' }));
  expect(ef.memory().numTensors).toBe(before);
});
