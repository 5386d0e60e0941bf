// Lint for the error toolkit: package sources build their errors with packages/core/src/errors/error_toolkit.ts
// (argError / typeError / unimplemented / internalError / opError / contextError), never `new XxxError(<message>)` by hand.
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');
const TOOLKIT = path.join('packages', 'core', 'src', 'errors') + path.sep;

/**
 * The true exceptions, each `file: a text of the line`, with why:
 * - NDArray's index and length checks are JS RangeErrors, like a typed array's own.
 * - The executor re-raises a non-OpError with the graph's node line appended; when the error's own
 *   constructor cannot be called that way, a plain Error keeps the message and the cause.
 */
const ALLOWED: readonly [string, string][] = [
  ['packages/core/src/values/ndarray.ts', 'new RangeError(`NDArray'],
  ['packages/function/src/executor.ts', 'new Error(e.message + detail, { cause: e })'],
];

/**
 * `new SomethingError(...)` with an argument: a bare `new Error()` only captures a stack, and a class
 * outside ef.errors (SymbolicTensorError) takes the toolkit's `errorMessage(...)`.
 */
const HAND_BUILT = /\bnew [A-Z]?\w*Error\((?!\)|errorMessage\()/;

/** The hand-built error sites of one file's text, as `file:line`. */
function sites(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*(\*|\/\*)/.test(code) || !HAND_BUILT.test(code)) return;
    if (ALLOWED.some(([f, t]) => f === file && line.includes(t))) return;
    out.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
  });
  return out;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

test('the check fires on planted hand-built errors and lets toolkit calls and allowed sites through', () => {
  const planted = [
    "throw new TypeError(`f: bad (got ${x}, expected 1). Fix it.`);",
    "  throw new InvalidArgumentError('f: bad', { opName: 'f' });",
    'const e = new Error(msg);',
    "throw argError('f', 'bad', 'x', '1', 'Fix it');",
    '// throw new Error("in a comment")',
    ' * new TypeError(in a doc comment)',
    'const caller = userFrame(new Error());',
    "throw new SymbolicTensorError(errorMessage('f', 'bad', 'x', '1', 'Fix it'));",
  ].join('\n');
  expect(sites('packages/x/src/planted.ts', planted).map((s) => s.split(':')[1])).toEqual(['1', '2', '3']);
  expect(sites('packages/function/src/executor.ts', '      out = new Error(e.message + detail, { cause: e });')).toEqual([]);
});

test('no package source outside the error toolkit builds an error message by hand', () => {
  const found: string[] = [];
  for (const pkg of fs.readdirSync(path.join(root, 'packages'))) {
    const src = path.join(root, 'packages', pkg, 'src');
    if (!fs.existsSync(src)) continue;
    for (const f of sources(src)) {
      const rel = path.relative(root, f);
      if (rel.startsWith(TOOLKIT)) continue;
      found.push(...sites(rel.split(path.sep).join('/'), fs.readFileSync(f, 'utf8')));
    }
  }
  expect(found).toEqual([]);
  // Every allowed site still exists (an allowlist entry outlives its reason otherwise).
  for (const [f, t] of ALLOWED) expect(fs.readFileSync(path.join(root, f), 'utf8')).toContain(t);
});
