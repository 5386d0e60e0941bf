// `npm run release -- <version|patch|minor|major>`: bumps all five packages in lockstep, then `npm publish --dry-run --workspaces`.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const WORKSPACES = require('../package.json').workspaces.map((w) => path.basename(w));
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The next version: an explicit x.y.z[-pre], or patch/minor/major applied to `current`. */
function nextVersion(current, spec) {
  if (SEMVER.test(spec)) return spec;
  const m = SEMVER.exec(current);
  if (m === null) throw new Error(`release: the current version is not semver (got '${current}', expected x.y.z).`);
  const [maj, min, pat] = m.slice(1, 4).map(Number);
  if (spec === 'major') return `${maj + 1}.0.0`;
  if (spec === 'minor') return `${maj}.${min + 1}.0`;
  if (spec === 'patch') return m[4] ? `${maj}.${min}.${pat}` : `${maj}.${min}.${pat + 1}`;
  throw new Error(`release: bad version (got '${spec}', expected x.y.z, patch, minor or major). Example: npm run release -- patch`);
}

const readJson = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
const writeJson = (f, v) => fs.writeFileSync(f, `${JSON.stringify(v, null, 2)}\n`);

/** Sets `version` in the root and every workspace, and pins the workspaces' @eagerflow/* dependencies to it. */
function bump(version) {
  const files = [path.join(root, 'package.json'), ...WORKSPACES.map((w) => path.join(root, 'packages', w, 'package.json'))];
  for (const f of files) {
    const pkg = readJson(f);
    pkg.version = version;
    for (const dep of Object.keys(pkg.dependencies ?? {})) if (dep.startsWith('@eagerflow/')) pkg.dependencies[dep] = version;
    writeJson(f, pkg);
  }
  // The lockfile records workspace versions; refresh it without touching anything else.
  execFileSync(npm, ['install', '--package-lock-only', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

/** Refuses to release from a checkout with uncommitted changes (what ships must be what is committed). */
function checkClean(allowDirty) {
  const git = spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
  if (git.status !== 0 || allowDirty) return;
  if (git.stdout.trim() !== '') throw new Error(`release: the working tree has uncommitted changes (got:\n${git.stdout}expected a clean checkout). Commit or stash them, or pass --allow-dirty.`);
}

/** Puts the browser bundles' source maps into one separate archive (they are not in the npm tarball). */
function packSourceMaps(version) {
  const dist = path.join(root, 'packages', 'eagerflow', 'dist');
  const maps = fs.readdirSync(dist).filter((f) => f.endsWith('.map'));
  if (maps.length === 0) return null;
  const out = path.join(root, 'release', `eagerflow-${version}-sourcemaps.tgz`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  execFileSync('tar', ['-czf', out, '-C', dist, ...maps]);
  return path.relative(root, out);
}

function main(argv) {
  const spec = argv.find((a) => !a.startsWith('--'));
  if (spec === undefined) throw new Error('release: no version given (got nothing, expected x.y.z, patch, minor or major). Example: npm run release -- patch');
  checkClean(argv.includes('--allow-dirty'));
  const version = nextVersion(readJson(path.join(root, 'package.json')).version, spec);
  bump(version);
  console.log(`release: all packages at ${version}; dry-run publish (each prepack builds its dist):`);
  // npm refuses to publish a prerelease under `latest`; it goes to `next`.
  const tag = /-/.test(version) ? ['--tag', 'next'] : [];
  execFileSync(npm, ['publish', '--dry-run', '--workspaces', ...tag], { cwd: root, stdio: 'inherit' });
  const maps = packSourceMaps(version);
  if (maps !== null) console.log(`release: browser bundle source maps in ${maps} (attach it to the release; tarballs leave maps out)`);
  console.log(`release: dry run done. To publish for real: commit, tag v${version}, then npm publish --workspaces.`);
}

module.exports = { nextVersion };

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
