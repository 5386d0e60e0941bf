// The bounded fuzz run of `npm test` (about a minute on one core): the three fuzzers in child processes with a time limit
// per case (scripts/fuzz/run.js), a fixed seed; every finding fails the test with the command that reproduces it.
// The long run is `npm run fuzz` (100k cases per fuzzer); its last result is in docs/fuzzing.md.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const SEED = Number(process.env.EF_FUZZ_SEED ?? 32);

interface Result {
  fuzzer: string;
  cases: number;
  ok: number;
  refused: number;
  nonLibraryError: number;
  disagreement: number;
  leak: number;
  wrongValue: number;
  crash: number;
  hang: number;
  findings: { i: number; status: string; detail: unknown; repro: string }[];
}

function run(fuzzer: 'op' | 'loader' | 'files', cases: number): Result {
  const out = path.join(root, 'test-output', `fuzz-${fuzzer}.json`);
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/fuzz/run.js'), '--fuzzer', fuzzer, '--cases', String(cases), '--seed', String(SEED), '--json', out], { cwd: root, encoding: 'utf8', timeout: 150_000 });
  if (r.status === 2 || r.error) throw new Error(`fuzz ${fuzzer} did not run: ${r.error?.message ?? r.stderr}`);
  return (JSON.parse(fs.readFileSync(out, 'utf8')) as Result[])[0];
}

function expectClean(r: Result, minOk = r.cases / 10): void {
  const findings = r.findings.map((f) => `${f.status} at case ${f.i}: ${JSON.stringify(f.detail)}\n  reproduce: ${f.repro}`).join('\n');
  expect({ nonLibraryError: r.nonLibraryError, disagreement: r.disagreement, leak: r.leak, wrongValue: r.wrongValue, crash: r.crash, hang: r.hang, findings }).toEqual({ nonLibraryError: 0, disagreement: 0, leak: 0, wrongValue: 0, crash: 0, hang: 0, findings: '' });
  // Both outcomes are exercised: results and library errors.
  expect(r.ok).toBeGreaterThan(minOk);
  expect(r.refused).toBeGreaterThan(r.cases / 10);
}

test('op fuzzer: 4000 random calls, eager == traced == traced with unknown dims, library errors only, no leaks, crashes or hangs', () => {
  const r = run('op', Number(process.env.EF_FUZZ_OP_CASES ?? 4000));
  expectClean(r);
}, 180_000);

test('loader fuzzer: 800 mutated saved functions and graph models load or fail with library errors, no leaks, crashes or hangs', () => {
  const r = run('loader', Number(process.env.EF_FUZZ_LOADER_CASES ?? 800));
  expectClean(r);
}, 180_000);

test('file-reader fuzzer: 600 mutated SavedModels, checkpoints, TFRecord/event files, Examples and TensorProtos read or fail with library errors, never other values, no leaks, crashes or hangs', () => {
  const r = run('files', Number(process.env.EF_FUZZ_FILES_CASES ?? 600));
  // Most mutations of checksummed files are refused (DataLossError); some still read (a flip in a gzip header, an Example's value).
  expectClean(r, r.cases / 40);
}, 180_000);
