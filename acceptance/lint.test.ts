// Lint is part of `npm test`: ESLint (no `any` outside the seam, no import cycles, files <= 400 lines, tfjs only through the seam), the dead-export check and the file-name rule must be clean.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');
const lint = (...args: string[]) => spawnSync(process.execPath, [path.join(root, 'scripts/lint.mjs'), ...args], { cwd: root, encoding: 'utf8' });

test('the lint rules fire on planted violations (a cycle, an `any`, tfjs outside the seam, a 401-line file, a dead export, three bad file names, an `any` in the test harness; `any` in backend.ts is allowed)', () => {
  const r = lint('--self-check');
  expect(r.stdout.trim().split('\n')).toEqual([
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
  ]);
  expect(r.status).toBe(0);
}, 120_000);

test('npm run lint (eslint + dead-export check) reports nothing', () => {
  const r = lint();
  // On failure the message is the linters' own report: file, line, rule.
  expect(`${r.stdout}${r.stderr}`.trim()).toMatch(/^lint: clean/);
  expect(r.status).toBe(0);
}, 120_000);
