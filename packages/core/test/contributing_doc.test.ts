// docs/contributing.md: every example record line and case row in the doc is a real line of the source (so the doc cannot drift).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';

const root = path.resolve(__dirname, '../../..');
const doc = fs.readFileSync(path.join(root, 'docs/contributing.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Adding a case row'));
const blocks = [...section.matchAll(/```ts\n\/\/ not-run \(a (?:line|row) of[^\n]*?(test\/harness\/[\w.]+|cases_\w+\.ts)\)\n([\s\S]*?)```/g)];

test('the section has its example rows', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(3);
});

test.each(blocks.map((m) => [m[1], m[2]] as const))('the example from %s is in that file', (file, code) => {
  const source = fs.readFileSync(path.join(root, file.startsWith('test/') ? file : `test/harness/${file}`), 'utf8');
  for (const line of code.split('\n').filter((l) => l.trim() !== '')) expect(source).toContain(line);
});

const opSection = doc.slice(doc.indexOf('## Adding an op'), doc.indexOf('## Adding a case row'));
const recordBlocks = [...opSection.matchAll(/```ts\n\/\/ not-run \(a line of (packages\/core\/src\/[\w/.]+)\)\n([\s\S]*?)```/g)];

test('"Adding an op" has its record examples', () => {
  expect(recordBlocks.length).toBeGreaterThanOrEqual(2);
});

test.each(recordBlocks.map((m) => [m[1], m[2]] as const))('the record example from %s is in that file', (file, code) => {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  for (const line of code.split('\n').filter((l) => l.trim() !== '')) expect(source).toContain(line);
});

// "Adding an elementwise op is one record line plus one case row; a param op is one family row plus one case
// row": the doc's examples are the only hand-written lines that name their op. Every other line of
// packages/*/src and test/harness that mentions it is either TensorFlow's top-level export list in the
// umbrella (a reviewed public name), or the ops.ts wrapper other records' gradient rules call (`o.sinh`).
const EXAMPLES = [
  { ir: 'sinh', tf: 'Sinh', name: 'sinh', record: 'packages/core/src/ops/math/unary.ts', rows: 'test/harness/cases_elementwise.ts' },
  { ir: 'any', tf: 'Any', name: 'reduceAny', record: 'packages/core/src/ops/math/reduce_scan.ts', rows: 'test/harness/cases_reduction.ts' },
];

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Code lines (comments dropped, `Math.sinh` and other JS references dropped) that name the op. */
function mentions(ex: (typeof EXAMPLES)[number]): { file: string; line: string }[] {
  const roots = [...fs.readdirSync(path.join(root, 'packages')).map((p) => path.join(root, 'packages', p, 'src')), path.join(root, 'test/harness')];
  const word = new RegExp(`\\b${ex.name}\\b|'${ex.ir}'|'${ex.tf}'`);
  const out: { file: string; line: string }[] = [];
  for (const f of roots.filter((r) => fs.existsSync(r)).flatMap(tsFiles)) {
    const text = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ''));
    for (const line of text.split('\n')) {
      const code = line.replace(/(^|\s)\/\/.*$/, '').replace(/\bMath\.\w+/g, '');
      if (word.test(code)) out.push({ file: path.relative(root, f).split(path.sep).join('/'), line: line.trim() });
    }
  }
  return out;
}

// The lines of ops.ts that fill the late-bound table the wrapped records' gradient rules read (ops/rule_ops.ts).
const ruleOpsFill = new Set(
  (/provideRuleOps\(\{([\s\S]*?)\}\);/.exec(fs.readFileSync(path.join(root, 'packages/core/src/ops/ops.ts'), 'utf8'))?.[1] ?? '').split('\n').map((l) => l.trim()),
);

const docLines = doc.split('\n').map((l) => l.trim()).filter((l) => l !== '');

test.each(EXAMPLES)('adding $name is its record line and its case rows ($record)', (ex) => {
  const found = mentions(ex);
  const record = found.filter((m) => m.file === ex.record && m.line.startsWith('export const') && m.line.includes(`'${ex.ir}'`));
  // One record line, quoted in the doc.
  expect(record.length).toBe(1);
  expect(docLines).toContain(record[0].line);
  // Case rows: lines of the rows file that bind the op's primitive; one of them is quoted in the doc.
  const rows = found.filter((m) => m.file === ex.rows);
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) expect(r.line).toContain(`prim: '${ex.ir}'`);
  expect(rows.some((r) => docLines.includes(r.line))).toBe(true);
  const others = found.filter((m) => m !== record[0] && !rows.includes(m));
  const wrapperUsed = found.some((m) => m.line.includes(`o.${ex.name}(`));
  const allowed = (m: { file: string; line: string }): boolean =>
    // TensorFlow's top-level names in the umbrella's one explicit export list.
    (m.file === 'packages/eagerflow/src/index.ts' && !m.line.includes('(')) ||
    // The internal wrapper gradient rules call, when another record's rule calls it.
    (m.file === 'packages/core/src/ops/ops.ts' && wrapperUsed && m.line.startsWith(`export const ${ex.name}:`)) ||
    // ...and, when the record calling it is one ops.ts wraps, its typed entry in the late-bound table those records
    // read (ops/rule_ops.ts) and ops.ts's line filling that table.
    (m.file === 'packages/core/src/ops/rule_ops.ts' && wrapperUsed && m.line.startsWith(`${ex.name}:`)) ||
    (m.file === 'packages/core/src/ops/ops.ts' && wrapperUsed && ruleOpsFill.has(m.line)) ||
    // Another record's gradient rule calling it.
    (/^packages\/core\/src\/ops\/\w+\//.test(m.file) && m.line.includes(`o.${ex.name}(`) && !m.line.includes(`'${ex.ir}'`)) ||
    // A composite elsewhere (the graph importer's) calling the public op through core's TOP table.
    (m.line.includes(`TOP.${ex.name}(`) && !m.line.includes(`'${ex.ir}'`));
  expect(others.filter((m) => !allowed(m))).toEqual([]);
});

// "A composite", followed end to end: a temporary copy of the repository gets exactly the doc's edits (adding
// tf.nn.log_poisson_loss), runs the regeneration steps that need no Python (the rows' export, docs/ops.md), takes
// TensorFlow's values from the committed fixture (after checking the fixture was generated from the very row the
// copy exports), and runs that op's checks: its harness row eager, traced, with unknown dims, gradient and second
// order, its public-op coverage, and its values against TensorFlow. Refresh the fixture (needs Python and TF 2.21):
//   EF_TF_PYTHON=/path/to/.venv-tf/bin/python npx jest packages/core/test/contributing_doc.test.ts
const COMPOSITE_FIXTURE = path.join(root, 'packages/core/test/fixtures/contributing_log_poisson_loss.json');
const compositeSection = doc.slice(doc.indexOf('### A composite'), doc.indexOf('## Where things live'));
const edits = [...compositeSection.matchAll(/```ts\n\/\/ not-run \(add to ([\w/.]+), (before|after) the line `([^`\n]+)`\)\n([\s\S]*?)```/g)].map((m) => ({
  file: m[1],
  where: m[2] as 'before' | 'after',
  anchor: m[3],
  code: m[4],
}));

/** The doc's edit applied to a file's text: its block inserted before or after the one line equal to the anchor. */
function applyEdit(text: string, e: (typeof edits)[number]): string {
  const lines = text.split('\n');
  const at = lines.flatMap((l, i) => (l.trim() === e.anchor.trim() ? [i] : []));
  if (at.length !== 1) throw new Error(`docs/contributing.md: ${e.file} has ${at.length} lines equal to \`${e.anchor}\` (the doc's edit needs exactly one)`);
  const block = e.code.replace(/\n$/, '').split('\n');
  lines.splice(e.where === 'before' ? at[0] : at[0] + 1, 0, ...block);
  return lines.join('\n');
}

/** A copy of the sources, tests, scripts, docs and configs (node_modules linked, not copied). */
function copyRepository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-contributing-'));
  const skip = new Set(['node_modules', 'dist', 'test-output', '.git']);
  for (const entry of ['packages', 'test', 'scripts', 'docs', 'jest.config.ts', 'package.json', 'tsconfig.json', 'tsconfig.base.json']) {
    fs.cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true, filter: (src) => !skip.has(path.basename(src)) });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

describe('"A composite" followed end to end in a temporary copy (adds nn.logPoissonLoss)', () => {
  let copy = '';
  beforeAll(() => {
    copy = copyRepository();
  });
  afterAll(() => {
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  });

  test('the doc gives the function, its table entry and its one row, as edits that apply', () => {
    expect(edits.map((e) => e.file)).toEqual(['packages/core/src/ops/nn/losses.ts', 'packages/core/src/ops/nn/losses.ts', 'test/harness/cases_norm.ts']);
    for (const e of edits) {
      const file = path.join(copy, e.file);
      fs.writeFileSync(file, applyEdit(fs.readFileSync(file, 'utf8'), e));
    }
    // Nothing else names the op: the doc's edits are the whole change.
    const named = ['packages/core/src', 'packages/eagerflow/src', 'test/harness'].flatMap((d) => tsFiles(path.join(copy, d))).filter((f) => fs.readFileSync(f, 'utf8').includes('logPoissonLoss'));
    expect(named.map((f) => path.relative(copy, f)).sort()).toEqual(['packages/core/src/ops/nn/losses.ts', 'test/harness/cases_norm.ts']);
  });

  test("the files the section's commands name exist (generator, suites, snapshots)", () => {
    const named = [...new Set([...compositeSection.matchAll(/(?:packages|scripts|test|browser)\/[\w/.-]+\.(?:ts|py|json|js|md|txt)\b/g)].map((m) => m[0]))];
    expect(named.length).toBeGreaterThanOrEqual(10);
    // The op's own fixture is the one file the walkthrough creates.
    const created = 'packages/eagerflow/test/conformance/fixtures/nn.logPoissonLoss.json';
    expect(named.filter((f) => f !== created && !fs.existsSync(path.join(root, f)))).toEqual([]);
  });

  test('its TF golden fixture was generated from the row the copy exports', () => {
    const out = path.join(copy, 'rows.json');
    execFileSync(process.execPath, [path.join(copy, 'scripts/tf-golden/export_rows.js'), out], { cwd: copy, stdio: 'pipe' });
    const call = (JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>)['nn.logPoissonLoss'];
    expect(call).toMatchObject({ fn: 'tf.nn.log_poisson_loss' });
    const fixtures = path.join(copy, 'packages/eagerflow/test/conformance/fixtures');
    if (process.env.EF_TF_PYTHON) {
      // The doc's step 4, with Python: the committed generator writes the fixture from the exported row.
      execFileSync(process.env.EF_TF_PYTHON, [path.join(copy, 'scripts/tf-golden/generate.py'), fixtures, 'nn.logPoissonLoss'], { cwd: copy, stdio: 'pipe' });
      fs.copyFileSync(path.join(fixtures, 'nn.logPoissonLoss.json'), COMPOSITE_FIXTURE);
    }
    const fixture = JSON.parse(fs.readFileSync(COMPOSITE_FIXTURE, 'utf8')) as { op: string; call: unknown; cases: { name: string }[] };
    expect(fixture.op).toBe('nn.logPoissonLoss');
    expect(fixture.call).toEqual(call);
    expect(fixture.cases.map((c) => c.name)).toEqual(['rate one', 'matrix', 'full loss', 'shape mismatch']);
    fs.copyFileSync(COMPOSITE_FIXTURE, path.join(fixtures, 'nn.logPoissonLoss.json'));
  });

  test('docs/ops.md regenerates with it, and its checks pass: the row eager, traced, gradient; coverage; TensorFlow values', () => {
    const report = path.join(copy, 'jest.json');
    const files = ['packages/eagerflow/test/op_table.test.ts', 'packages/core/test/primitives.test.ts', 'packages/eagerflow/test/conformance/conformance.test.ts'];
    const pattern = 'logPoissonLoss|docs/ops.md is generated|fixtures cover the public ops';
    let failed = '';
    try {
      execFileSync(process.execPath, [path.join(root, 'node_modules/jest/bin/jest.js'), '--ci', '--runInBand', '--rootDir', copy, '--json', '--outputFile', report, '-t', pattern, ...files.map((f) => path.join(copy, f))], {
        cwd: copy,
        env: { ...process.env, EF_UPDATE_DOCS: '1' },
        stdio: 'pipe',
      });
    } catch (e) {
      failed = String((e as { stderr?: Buffer }).stderr ?? e).slice(-4000);
    }
    expect(failed).toBe('');
    const results = JSON.parse(fs.readFileSync(report, 'utf8')) as { numFailedTests: number; testResults: { assertionResults: { fullName: string; status: string }[] }[] };
    expect(results.numFailedTests).toBe(0);
    const passed = results.testResults.flatMap((r) => r.assertionResults).filter((a) => a.status === 'passed').map((a) => a.fullName);
    const ours = passed.filter((n) => n.includes('logPoissonLoss'));
    for (const want of [/eager/i, /traced/i, /gradients/, /second order/, /public op nn\.logPoissonLoss has a case row/, /nn\.logPoissonLoss matches TensorFlow/]) {
      expect([want.source, ours.some((n) => want.test(n))]).toEqual([want.source, true]);
    }
    expect(passed.some((n) => n.includes('fixtures cover the public ops'))).toBe(true);
    expect(fs.readFileSync(path.join(copy, 'docs/ops.md'), 'utf8')).toMatch(/\| `nn\.logPoissonLoss` \| composite `logPoissonLoss` \|/);
    // About 20 s of CPU (the child jest transforms the copy's sources cold); the limit leaves room for a loaded machine.
  }, 240_000);
});
