// Import circles over the whole repository: every TypeScript and JavaScript file git tracks (packages, tests,
// the harness, browser code, bench, examples, scripts, .ci), every import counted - type-only imports, `export
// ... from`, `import('...')` (also in types), `require('...')` - with the workspace packages ('eagerflow',
// '@eagerflow/<name>') resolved to their sources as Jest and tsconfig.all.json resolve them. ESLint's
// import-x/no-cycle skips type-only imports, so it cannot see half of these; this script is the check that does.
// `node scripts/import-circles.js` prints each circle (a strongly connected component of the import graph) and
// exits 1 if one is not on KNOWN_CIRCLES (below; empty since issue 26) or an entry there is gone, or if a
// file crosses a layer (LAYER_RULES: values/ imports nothing from ops/);
// `--json` prints the circles as JSON (sorted file lists, sorted by first file) and exits 0. `npm run lint` runs it.
// scripts/lint-fixtures is left out: it holds a planted circle for the linter's self-check.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const ts = require('typescript');

const root = path.resolve(__dirname, '..');
const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const PLANTED = 'scripts/lint-fixtures/';
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];

/** The repository's code files (repository-relative paths), tracked or new but not ignored; `planted` keeps scripts/lint-fixtures. */
function codeFiles(planted = false) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  return out.split('\n').filter((f) => CODE.test(f) && (planted || !f.startsWith(PLANTED)) && !f.includes('node_modules/') && fs.existsSync(path.join(root, f)));
}

/** The workspace packages by name ('eagerflow', '@eagerflow/core', ...) -> their source entry. */
function workspaceEntries() {
  const entries = new Map();
  for (const w of require(path.join(root, 'package.json')).workspaces) {
    const name = JSON.parse(fs.readFileSync(path.join(root, w, 'package.json'), 'utf8')).name;
    entries.set(name, `${w}/src/index.ts`);
  }
  return entries;
}

/** The file a specifier names (repository-relative), or null for an external module. */
function resolveSpecifier(from, spec, files, entries) {
  if (entries.has(spec)) return entries.get(spec);
  if (!spec.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => `${base}/index${e}`)];
  // A compiled-name import ('./x.js' written for './x.ts') resolves to the source.
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'));
  return candidates.find((c) => files.has(c)) ?? null;
}

/** Every file -> the repository files it imports (any kind of import). */
function importGraph(planted = false) {
  const list = codeFiles(planted);
  const files = new Set(list);
  const entries = workspaceEntries();
  const graph = new Map();
  for (const f of list) {
    const text = fs.readFileSync(path.join(root, f), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const to = new Set();
    for (const { fileName } of importedFiles) {
      const target = resolveSpecifier(f, fileName, files, entries);
      if (target !== null) to.add(target);
    }
    graph.set(f, [...to].sort());
  }
  return graph;
}

/** The import circles: strongly connected components with more than one file, or a file importing itself (Tarjan). */
function importCircles(graph = importGraph()) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (v) => {
    // Iterative depth-first search (the graph is deep enough to overflow a recursive one on small stacks).
    const work = [[v, 0]];
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const [u, i] = top;
      const out = graph.get(u) ?? [];
      if (i < out.length) {
        top[1]++;
        const w = out[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(u, Math.min(low.get(u), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(u)));
      }
      if (low.get(u) === index.get(u)) {
        const scc = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          scc.push(w);
        } while (w !== u);
        if (scc.length > 1 || (graph.get(u) ?? []).includes(u)) circles.push(scc.sort());
      }
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * The circles still to break, each exactly as it stands (sorted files). The list may only shrink: the check fails
 * on a circle that is not here or is bigger than its entry, and on an entry that no longer is a circle (delete it
 * or replace it by the smaller circle left), and acceptance/import_circles.test.ts pins the total. Empty since
 * issue 26 broke core's two (the ops.ts hub, whose records' gradient rules now read ops/rule_ops.ts's late-bound
 * table, and the type-only knot, whose shared types now sit in ops/aval.ts): every import circle is an error.
 */
const KNOWN_CIRCLES = [];

/** What is wrong against KNOWN_CIRCLES: circles not on it (new, or grown past their entry) and entries that are no longer circles. */
function circleFindings(circles = importCircles(), known = KNOWN_CIRCLES) {
  const key = (c) => c.join('\n');
  const found = new Set(circles.map(key));
  return {
    unknown: circles.filter((c) => !known.some((k) => key(k) === key(c))),
    stale: known.filter((k) => !found.has(key(k))),
  };
}

/**
 * Imports that cross a layer the wrong way: `values/` (tensors, variables, printing) imports nothing from the op
 * folders (issue 26: tensor methods, conversion casts and variable reads and assignments reach their records
 * through the late-bound tables that ops/late_ops.ts fills). Each finding is `[importer, imported]`.
 */
const LAYER_RULES = [{ from: 'packages/core/src/values/', notTo: 'packages/core/src/ops/' }];

function layerFindings(graph = importGraph(), rules = LAYER_RULES) {
  const out = [];
  for (const [f, to] of graph) {
    for (const r of rules) if (f.startsWith(r.from)) for (const t of to) if (t.startsWith(r.notTo)) out.push([f, t]);
  }
  return out.sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

module.exports = { importGraph, importCircles, circleFindings, layerFindings, KNOWN_CIRCLES, LAYER_RULES };

if (require.main === module) {
  const graph = importGraph();
  const circles = importCircles(graph);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(circles, null, 2));
  } else {
    const { unknown, stale } = circleFindings(circles);
    for (const c of circles) console.log(`circle of ${c.length} files${unknown.includes(c) ? ' (NOT on the known list)' : ' (known, to break)'}:\n  ${c.join('\n  ')}`);
    for (const k of stale) console.log(`known circle no longer there (remove it from KNOWN_CIRCLES or put the smaller circle left in its place):\n  ${k.join('\n  ')}`);
    const crossings = layerFindings(graph);
    for (const [f, t] of crossings) console.log(`layer crossed: ${f} imports ${t} (values/ reaches ops only through the late-bound tables of ops/late_ops.ts)`);
    console.log(`${circles.length} import circle(s), ${unknown.length} not on the known list, ${stale.length} stale known entr${stale.length === 1 ? 'y' : 'ies'}, ${crossings.length} layer crossing(s)`);
    process.exit(unknown.length > 0 || stale.length > 0 || crossings.length > 0 ? 1 : 0);
  }
}
