// ef.internal is an explicit list of the extension points (packages/eagerflow/src/internal.ts), reviewed as a snapshot:
// internal_names.txt holds its values (the runtime keys) and its types; none is a name `ef` or `ef.errors` already has.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';

const SOURCE = path.join(__dirname, '../src/internal.ts');
const SNAPSHOT = path.join(__dirname, 'internal_names.txt');

/** The type-only names internal.ts exports (`export type { A, B } from '...'`). */
function typeNames(source: string): string[] {
  return [...source.matchAll(/^export type \{([^}]*)\} from '[^']+';$/gm)].flatMap((m) => m[1].split(',').map((n) => n.trim())).filter((n) => n !== '');
}

test('ef.internal is the reviewed list of extension points (values and types)', () => {
  const source = fs.readFileSync(SOURCE, 'utf8');
  // Named one by one: a package's new export does not join ef.internal by itself.
  expect(source).not.toMatch(/^export \*/m);
  const values = Object.keys(ef.internal).sort();
  const types = typeNames(source).sort();
  const want = `${[...values, ...types.map((t) => `type ${t}`)].join('\n')}\n`;
  if (process.env.EF_UPDATE_DOCS === '1') fs.writeFileSync(SNAPSHOT, want);
  expect(fs.readFileSync(SNAPSHOT, 'utf8')).toBe(want);
  expect(new Set([...values, ...types]).size).toBe(values.length + types.length);
});

test('ef.internal has no name that ef or ef.errors already has', () => {
  const publicNames = new Set([...Object.keys(ef), ...Object.keys(ef.errors)]);
  const publicTypes = fs.readFileSync(path.join(__dirname, '../src/index.ts'), 'utf8');
  const source = fs.readFileSync(SOURCE, 'utf8');
  expect(Object.keys(ef.internal).filter((n) => publicNames.has(n))).toEqual([]);
  // ef's own type exports (export type { ... }) are not repeated either.
  const efTypes = new Set(typeNames(publicTypes));
  expect(efTypes.size).toBeGreaterThan(20);
  expect(typeNames(source).filter((t) => efTypes.has(t) || publicNames.has(t))).toEqual([]);
});
