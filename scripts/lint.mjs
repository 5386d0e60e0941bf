// `npm run lint`: ESLint (eslint.config.mjs: no `any` outside the seam, no import cycles, max 400 lines, tfjs only
// through the seam; over the sources and, without the seam rule, over tests, harness, browser, bench, examples,
// scripts and .ci), the repository-wide import-circle count (scripts/import-circles.js) and the dead-export check
// (ts-unused-exports over tsconfig.all.json: every workspace's sources, tests, examples and benchmarks); prints every
// finding, exits 1 if there is one.
// `--self-check` instead lints planted violations (scripts/lint-fixtures + a long file) and exits 1 unless
// every rule fires, so a resolver or parser misconfiguration cannot make the real run silently clean.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { TOOLING } from '../eslint.config.mjs';
import { badFileNames, nameProblem } from './file_name_rule.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function eslint() {
  const linter = new ESLint({ cwd: root });
  // The planted violations (scripts/lint-fixtures) are --self-check's, not findings.
  const planted = resolve(root, 'scripts/lint-fixtures') + '/';
  const results = (await linter.lintFiles(['packages/*/src/**/*.ts', ...TOOLING])).filter((r) => !r.filePath.startsWith(planted));
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  const text = problems ? (await linter.loadFormatter('stylish')).format(results) : '';
  return { problems, text, files: results.length };
}

/** Import circles over the whole repository, type-only imports included (scripts/import-circles.js). */
function circles() {
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/import-circles.js')], { cwd: root, encoding: 'utf8' });
  return { ok: r.status === 0, text: `${r.stdout}${r.stderr}`.trim() };
}

// Public entry points (each package's src/index.ts) are the API; tests, browser helpers and fixtures may
// export helpers freely. Exported types are checked by tsc's declaration emit instead (--allowUnusedTypes).
const PUBLIC_ENTRIES = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).workspaces.map((w) => `${w}/src/index.ts`);
const NOT_REPORTED = [...PUBLIC_ENTRIES, 'packages/eagerflow/src/internal.ts', 'training/optimizers_ns.ts', '/test/', 'test/', 'browser/', 'acceptance/', 'examples/', 'bench/', 'scripts/', '.ci/', 'jest.config.ts', 'packages/eagerflow/browser/'];

function deadExports(tsconfig = 'tsconfig.all.json', notReported = NOT_REPORTED) {
  const bin = resolve(root, 'node_modules/ts-unused-exports/bin/ts-unused-exports');
  const args = [bin, tsconfig, '--allowUnusedTypes', '--findCompletelyUnusedFiles', '--showLineNumber', `--excludePathsFromReport=${notReported.join(';')}`];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  return { ok: r.status === 0, text: `${r.stdout}${r.stderr}`.trim() };
}

/** The rule ids found in the planted fixtures, one `file: rule` line each, sorted. */
async function selfCheck() {
  const linter = new ESLint({ cwd: root });
  const results = await linter.lintFiles(['scripts/lint-fixtures/*.ts']);
  // 401 code lines plus blank lines and comments (which max-lines skips) in a file of the linted tree.
  const long = ['// long fixture', ...Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};\n\n// note`)].join('\n');
  results.push(...(await linter.lintText(long, { filePath: resolve(root, 'packages/core/src/__long_fixture__.ts') })));
  const short = Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i};\n// note\n`).join('\n');
  results.push(...(await linter.lintText(short, { filePath: resolve(root, 'packages/core/src/__short_fixture__.ts') })));
  const seam = 'export const f = (x: any): number => x;\n';
  results.push(...(await linter.lintText(seam, { filePath: resolve(root, 'packages/core/src/backend/backend.ts') })));
  // Tests and tooling are linted too: an `any` in the test harness is a finding.
  results.push(...(await linter.lintText(seam, { filePath: resolve(root, 'test/harness/__any_fixture__.ts') })));
  const lines = results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(root.length + 1)}: ${m.ruleId}`));
  const dead = deadExports('scripts/lint-fixtures/dead/tsconfig.json', ['dead/entry.ts']);
  for (const m of dead.text.matchAll(/lint-fixtures\/dead\/(\w+\.ts)\[\d+,\d+\]: (.+)/g)) lines.push(`scripts/lint-fixtures/dead/${m[1]}: dead export ${m[2]}`);
  // File names (scripts/file_name_rule.mjs), planted as paths: three bad names and a good one.
  for (const f of ['more.ts', 'composites_linalg2.ts', 'allowlist_20c.ts', 'strided_slice.ts'].map((n) => `scripts/lint-fixtures/names/${n}`)) {
    if (nameProblem(f) !== null) lines.push(`${f}: file-name`);
  }
  return [...new Set(lines)].sort();
}

if (process.argv.includes('--self-check')) {
  const found = await selfCheck();
  console.log(found.join('\n'));
  const want = [
    'packages/core/src/__long_fixture__.ts: max-lines',
    'scripts/lint-fixtures/cycle_a.ts: import-x/no-cycle',
    'scripts/lint-fixtures/cycle_b.ts: @typescript-eslint/no-explicit-any',
    'scripts/lint-fixtures/cycle_b.ts: import-x/no-cycle',
    'scripts/lint-fixtures/cycle_b.ts: no-restricted-imports',
    'scripts/lint-fixtures/cycle_b.ts: no-restricted-properties',
    'scripts/lint-fixtures/dead/lib.ts: dead export dead',
    'scripts/lint-fixtures/names/allowlist_20c.ts: file-name',
    'scripts/lint-fixtures/names/composites_linalg2.ts: file-name',
    'scripts/lint-fixtures/names/more.ts: file-name',
    'test/harness/__any_fixture__.ts: @typescript-eslint/no-explicit-any',
  ];
  process.exit(JSON.stringify(found) === JSON.stringify(want) ? 0 : 1);
}

const e = await eslint();
const d = deadExports();
const c = circles();
const names = badFileNames(root);
if (e.problems) console.log(`eslint: ${e.problems} problem(s)\n${e.text}`);
if (!d.ok) console.log(`dead exports (ts-unused-exports):\n${d.text}`);
if (!c.ok) console.log(`import circles (scripts/import-circles.js):\n${c.text}`);
if (names.length) console.log(`file names (scripts/file_name_rule.mjs):\n${names.join('\n')}`);
if (e.problems || !d.ok || !c.ok || names.length) process.exit(1);
console.log(`lint: clean (eslint over ${e.files} files: sources, tests, harness, browser, bench, examples, scripts, .ci; no dead exports; file names say what they hold; ${c.text.split('\n').pop()})`);
