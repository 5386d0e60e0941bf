// ESLint flat config: the design's promises as rules (no `any` outside the backend seam, no import cycles, files under 400 lines).
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const { createNodeResolver } = importX;

// Everything that is not a package's source: package tests, the case harness, acceptance tests, browser code and
// bundles' entries, benchmarks, examples, scripts, CI, and the root configs.
export const TOOLING = [
  'packages/*/test/**/*.{ts,js,cjs,mjs}', 'packages/*/browser/**/*.{ts,js}', 'test/**/*.ts', 'acceptance/**/*.ts', 'browser/**/*.{ts,js}',
  'bench/**/*.js', 'examples/**/*.{ts,js}', 'scripts/**/*.{ts,js,mjs}', '.ci/**/*.{ts,js,cjs,mjs}', '*.{ts,mjs}',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-output/**'] },
  // Directives for rules this config does not enable (backend.ts's file-wide `any` allowance, which the
  // override below also states) are not findings.
  { linterOptions: { reportUnusedDisableDirectives: 'off' } },
  {
    // scripts/lint-fixtures: planted violations that `scripts/lint.mjs --self-check` expects to be found.
    files: ['packages/*/src/**/*.ts', 'scripts/lint-fixtures/**/*.ts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    settings: {
      // Workspace packages are separate layers: cycles are checked inside a package; across packages the
      // dependency rules (function -> core, callbacks -> core, saving -> function -> core) make a circle impossible.
      'import-x/core-modules': ['@eagerflow/core', '@eagerflow/function', '@eagerflow/callbacks', '@eagerflow/saving', 'eagerflow'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      // tfjs is reached through named functions of the seam (packages/core/src/backend/backend.ts) only.
      'no-restricted-imports': ['error', { patterns: [{ group: ['@tensorflow/*'], message: 'Only packages/core/src/backend/backend.ts imports tfjs: add a named seam function there.' }] }],
      'no-restricted-properties': ['error', { object: 'backend', property: 'tfjs', message: 'Add a named seam function to packages/core/src/backend/backend.ts instead of reaching into tfjs.' }],
    },
  },
  {
    // ef.data is the seam to @tensorflow/tfjs-data (iterators, shuffle buffer, CSV reader); tfjs-core stays behind backend.ts.
    files: ['packages/eagerflow/src/data/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@tensorflow/*', '!@tensorflow/tfjs-data', '!@tensorflow/tfjs-data/**'], message: 'Only packages/core/src/backend/backend.ts imports tfjs-core.' }] }] },
  },
  {
    // The backend seam is the one place that talks to tfjs and its untyped internals (backend.ts, and
    // kernel_gaps.ts beside it: the kernels it registers on backends that lack them).
    files: ['packages/core/src/backend/backend.ts', 'packages/core/src/backend/kernel_gaps.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-restricted-imports': 'off' },
  },
  {
    // Tests, the harness, browser code, benchmarks, examples, scripts and CI: the same rules except the tfjs seam
    // (tests compare with tfjs and its converter directly; bench measures raw tfjs). CommonJS require() counts for
    // cycles here. Type-only imports are not seen by import-x/no-cycle: scripts/import-circles.js counts those.
    files: TOOLING,
    ignores: ['scripts/lint-fixtures/**'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    settings: {
      'import-x/core-modules': ['@eagerflow/core', '@eagerflow/function', '@eagerflow/callbacks', '@eagerflow/saving', 'eagerflow'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] })],
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.js', '.mjs', '.cjs'] },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true, commonjs: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
);
