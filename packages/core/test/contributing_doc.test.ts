// docs/contributing.md: every example record line and case row in the doc is a real line of the source (so the doc cannot drift).
import * as fs from 'node:fs';
import * as path from 'node:path';

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
