// TensorBundle and its SSTable against files TF 2.21 wrote (scripts/tf-files/write_tf_files.py): read, rewrite byte for byte.
import * as fs from 'fs';
import * as path from 'path';
import { readBundleIndex, readBundleTensor, shardFile, writeBundle, BundleTensor } from '../src/tensor_bundle';
import { readTable, writeTable } from '../src/sstable';

const DIR = path.join(__dirname, 'fixtures', 'tf_files');

function readAll(prefix: string): Map<string, BundleTensor> {
  const idx = readBundleIndex(fs.readFileSync(`${prefix}.index`), `${prefix}.index`);
  const shard = fs.readFileSync(shardFile(prefix, 0, idx.numShards));
  // In data-file order (TF writes tensors in the order they were added).
  const byOffset = [...idx.entries].sort((a, b) => a[1].offset - b[1].offset);
  return new Map(byOffset.map(([k, e]) => [k, readBundleTensor(k, e, shard, 'shard')]));
}

test('reads every entry of a TF checkpoint, and writes the same .index and .data bytes TF wrote', () => {
  for (const prefix of ['ckpt_nested/ckpt-1', 'ckpt_manager/ckpt-3', 'sm_module/variables/variables', 'sm_keras/variables/variables', 'sm_tf1/variables/variables']) {
    const p = path.join(DIR, prefix);
    const tensors = readAll(p);
    expect(tensors.size).toBeGreaterThan(0);
    const { index, data } = writeBundle(tensors);
    expect(Buffer.from(data).equals(fs.readFileSync(shardFile(p, 0, 1)))).toBe(true);
    expect(Buffer.from(index).equals(fs.readFileSync(`${p}.index`))).toBe(true);
  }
});

test('the table reader and writer round-trip many keys across blocks', () => {
  const entries: [string, Uint8Array][] = [];
  for (let i = 0; i < 3000; i++) entries.push([`key/${String(i).padStart(5, '0')}`, new Uint8Array(200).fill(i % 251)]);
  const back = readTable(writeTable(entries), 'mem');
  expect(back.length).toBe(3000);
  expect(back[1234][0]).toBe('key/01234');
  expect(back[1234][1][7]).toBe(1234 % 251);
});
