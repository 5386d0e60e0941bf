// The file-name rule of `npm run lint`: a file's name says what it holds, not when it arrived. Rejected: a `more`
// word (`more.ts`, `ops_more.py`), a name ending in a digit (`composites_linalg2.ts`, `ops11.bench.js`) and an issue id
// (`ops_11m.py`, `allowlist_20c.ts`, `issue26.ts`). Names are checked without their extensions; fixture data
// (named after the op it holds, `nn.relu6.json`) and `.d.ts` module declarations (named after an npm package) are
// not source names.
import { execFileSync } from 'node:child_process';

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|py|sh)$/;

/** Why `file` (a repository-relative path) has a bad name, or null. */
export function nameProblem(file) {
  const base = file.split('/').pop();
  if (!SOURCE.test(base) || base.endsWith('.d.ts') || file.split('/').includes('fixtures')) return null;
  const stem = base.slice(0, base.indexOf('.') < 0 ? undefined : base.indexOf('.'));
  if (/(^|[_-])more($|[_-])/i.test(stem)) return `'more' says when the code arrived, not what it holds`;
  // `_11m`, `_20c`, `i26_`, `issue-26` (a leading reading order, `01-eager.ts`, is not an issue id).
  if (/(^|_)i?\d+[a-z]?($|_)/i.test(stem) || /issue[_-]?\d/i.test(stem)) return 'an issue id names when the code arrived, not what it holds';
  if (/\d$/.test(stem)) return 'a trailing digit numbers a file instead of naming what it holds';
  return null;
}

/** The repository's files (tracked and new, not ignored) with bad names, one `path: reason` line each. */
export function badFileNames(root) {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !f.includes('node_modules/'));
  return [...new Set(files)].flatMap((f) => {
    const why = nameProblem(f);
    return why === null ? [] : [`${f}: ${why}`];
  });
}
