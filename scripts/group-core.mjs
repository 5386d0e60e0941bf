// Groups packages/core/src by role (issue 18): values/, ops/, autodiff/, backend/, errors/ (records stay in
// primitives/<category>/; src/index.ts stays the package entry). Re-runnable: after merging a branch written
// against the flat layout, run it again (`node scripts/group-core.mjs`): it moves any top-level file still there
// (`git mv`), then rewrites every relative import that no longer resolves but names a module of the flat layout,
// and the paths that name core modules in configs, scripts, tests and docs. `--check` only reports (exit 1 when
// something would change).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(root, 'packages/core/src');
const check = process.argv.includes('--check');

/** Which role folder a top-level module of core/src belongs to (by its name without `.ts`). */
const ROLES = [
  ['values', /^(tensor|tensor_at|ndarray|dtype|shape|spec|convert|variable|format|print|print_values|structure)$/],
  ['ops', /^(ops|composites|composites_\w+|namespaces|api_spec|op_builder|table|primitive|bind|graphdef_spec)$/],
  ['autodiff', /^(tape|gradient_tape|custom_gradient|jacobian|gradient_util)$/],
  ['backend', /^(backend|memory|graph_memory)$/],
  ['errors', /^(errors|error_toolkit)$/],
];

function roleOf(name) {
  for (const [dir, re] of ROLES) if (re.test(name)) return dir;
  return null;
}

/** Where a flat-layout module (`packages/core/src/<name>`, no extension) lives now, or null. */
function movedTo(flatNoExt) {
  if (path.dirname(flatNoExt) !== SRC) return null;
  const name = path.basename(flatNoExt);
  const dir = roleOf(name);
  return dir === null ? null : path.join(SRC, dir, name);
}

const changes = [];

// 1. Move the top-level files.
const unknown = [];
for (const f of fs.readdirSync(SRC).filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
  const name = f.replace(/\.ts$/, '');
  const dir = roleOf(name);
  if (dir === null) {
    unknown.push(f);
    continue;
  }
  changes.push(`move packages/core/src/${f} -> ${dir}/${f}`);
  if (check) continue;
  fs.mkdirSync(path.join(SRC, dir), { recursive: true });
  execFileSync('git', ['mv', path.join(SRC, f), path.join(SRC, dir, f)], { cwd: root });
}
if (unknown.length) {
  console.error(`group-core: no role for packages/core/src/${unknown.join(', ')}: add it to ROLES in scripts/group-core.mjs`);
  process.exit(1);
}

// 2. Relative imports: a specifier that does not resolve from the file's folder but resolves in the flat
// layout (from the file's flat-layout folder, or its own folder) to a moved module is rewritten.
const resolves = (p) => ['.ts', '.tsx', '.js', '.mjs', '.d.ts', '/index.ts', '/index.js'].some((e) => fs.existsSync(p + e)) || (fs.existsSync(p) && fs.statSync(p).isFile());

function walk(d) {
  if (!fs.existsSync(d)) return [];
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) return [];
    const p = path.join(d, e.name);
    return e.isDirectory() ? walk(p) : /\.(ts|mts|js|mjs|cjs)$/.test(e.name) ? [p] : [];
  });
}

const codeRoots = ['packages', 'test', 'browser', 'bench', 'scripts', 'acceptance', 'examples'].map((d) => path.join(root, d));
const codeFiles = codeRoots.flatMap(walk);
const SPEC = /(['"])(\.\.?\/[^'"\n]*)\1/g;

for (const file of codeFiles) {
  const text = fs.readFileSync(file, 'utf8');
  const here = path.dirname(file);
  // A file now in a role folder was written next to index.ts.
  const flatHere = path.dirname(here) === SRC && ROLES.some(([d]) => path.basename(here) === d) ? SRC : here;
  const out = text.replace(SPEC, (m, q, spec) => {
    if (resolves(path.resolve(here, spec))) return m;
    for (const base of [flatHere, here]) {
      const flat = path.resolve(base, spec).replace(/\.(ts|js)$/, '');
      // A moved module, or (from a file now in a role folder) a module that did not move (primitives/...).
      const target = movedTo(flat) ?? (base !== here && flat.startsWith(SRC) ? flat : null);
      if (target === null || !resolves(target)) continue;
      let rel = path.relative(here, target).split(path.sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return `${q}${rel}${q}`;
    }
    return m;
  });
  if (out !== text) {
    changes.push(`imports ${path.relative(root, file)}`);
    if (!check) fs.writeFileSync(file, out);
  }
}

// 3. Paths naming core modules in configs, scripts, tests and docs (packages/core/src/<name>.ts, and the
// sideEffects entries ./src/<name>.ts, ./dist/<name>.js, ./dist/esm/<name>.js of packages/core/package.json).
const textFiles = [
  ...codeFiles.filter((f) => !f.startsWith(SRC)),
  ...['eslint.config.mjs', 'tsconfig.all.json', 'packages/core/package.json'].map((f) => path.join(root, f)),
  ...walk(path.join(root, 'docs')),
  ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(root, 'docs', f)),
  ...['README.md', 'CONTRIBUTING.md'].map((f) => path.join(root, f)),
].filter((f, i, all) => fs.existsSync(f) && all.indexOf(f) === i && f !== fileURLToPath(import.meta.url));

const rolePath = (name) => {
  const dir = roleOf(name);
  return dir === null ? null : `${dir}/${name}`;
};
for (const file of textFiles) {
  const text = fs.readFileSync(file, 'utf8');
  let out = text.replace(/packages\/core\/src\/(\w+)\.ts\b/g, (m, name) => {
    const p = rolePath(name);
    return p === null || !fs.existsSync(path.join(SRC, `${p}.ts`)) ? m : `packages/core/src/${p}.ts`;
  });
  if (file.endsWith(path.join('packages', 'core', 'package.json'))) {
    out = out.replace(/"\.\/(src|dist|dist\/esm)\/(\w+)\.(ts|js)"/g, (m, dir, name, ext) => {
      const p = rolePath(name);
      return p === null ? m : `"./${dir}/${p}.${ext}"`;
    });
  }
  if (out !== text) {
    changes.push(`paths ${path.relative(root, file)}`);
    if (!check) fs.writeFileSync(file, out);
  }
}

console.log(changes.length ? changes.join('\n') : 'group-core: nothing to do');
if (check && changes.length) process.exit(1);
