// The files EagerFlow writes for TF are the committed ones (EF_UPDATE_FIXTURES=1 rewrites them), and TF 2.21 read those
// very files: scripts/tf-files/tf_reads_ef.py recorded their hashes and its checks in tf_results.json.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { EF_FILES, hashes, writeEfFiles } from './ef_files';

test('the committed EagerFlow-written files are what the writers produce now', async () => {
  const dir = process.env.EF_UPDATE_FIXTURES === '1' ? EF_FILES : fs.mkdtempSync(path.join(os.tmpdir(), 'ef-files-'));
  if (dir === EF_FILES) {
    const keep = fs.existsSync(path.join(EF_FILES, 'tf_results.json')) ? fs.readFileSync(path.join(EF_FILES, 'tf_results.json')) : null;
    await writeEfFiles(dir);
    if (keep) fs.writeFileSync(path.join(EF_FILES, 'tf_results.json'), keep);
  } else await writeEfFiles(dir);
  expect(hashes(dir)).toEqual(hashes(EF_FILES));
});

test('TF 2.21 loaded exactly these files and every check passed (run scripts/tf-files/tf_reads_ef.py after changing the writers)', () => {
  const results = JSON.parse(fs.readFileSync(path.join(EF_FILES, 'tf_results.json'), 'utf8'));
  expect(results.hashes).toEqual(hashes(EF_FILES));
  expect(results.tf_version).toBe('2.21.0');
  const failed = results.checks.filter((c: { ok: boolean }) => !c.ok);
  expect(failed).toEqual([]);
  expect(results.checks.length).toBeGreaterThan(0);
});
