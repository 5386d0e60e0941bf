// Consumer test (run by .ci/run after npm test): pack every workspace from a clean copy, install the tarballs into fresh projects, use them as a user would.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { root, npm, WORKSPACES, MAX_UNPACKED, QUIET, fixtures, step, startClock, lastFinished, run, check, makeProject, typecheck } = require('./consumer-project.js');

/** A clean clone of the working tree: tracked and unignored files only (no dist, no node_modules). */
function cleanCopy(dest) {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root).split('\0').filter((f) => f !== '');
  for (const f of files) {
    const src = path.join(root, f);
    if (!fs.existsSync(src)) continue; // deleted but not yet committed
    fs.mkdirSync(path.dirname(path.join(dest, f)), { recursive: true });
    fs.copyFileSync(src, path.join(dest, f));
  }
  check(!fs.existsSync(path.join(dest, 'packages', 'eagerflow', 'dist')), 'the clean copy has a dist', 'packages/eagerflow/dist', 'none');
}

/** Installs without scripts (so nothing is built), then `npm pack --workspaces`: each prepack must build its dist. */
function packAll(clone, packs) {
  run(npm, ['ci', '--ignore-scripts', ...QUIET], clone);
  const out = JSON.parse(run(npm, ['pack', '--workspaces', '--json', '--pack-destination', packs, ...QUIET], clone));
  const byName = {};
  for (const p of out) byName[p.name] = p;
  check(Object.keys(byName).sort().join() === Object.keys(WORKSPACES).sort().join(), 'npm pack made other packages', Object.keys(byName), Object.keys(WORKSPACES).join(', '));
  return byName;
}

/** Every tarball: dist (CommonJS, ESM, types), README, LICENSE; no sources, no maps; the five within the size budget. */
function checkTarballs(packed) {
  let total = 0;
  for (const [name, p] of Object.entries(packed)) {
    const files = p.files.map((f) => f.path);
    for (const need of ['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/esm/package.json']) {
      check(files.includes(need), `${name}'s tarball lacks ${need}`, files.length + ' files', need);
    }
    const stray = files.filter((f) => f.startsWith('src/') || f.endsWith('.map') || f.endsWith('.tsbuildinfo') || /(^|\/)tests?\//.test(f));
    check(stray.length === 0, `${name}'s tarball ships sources, maps or tests`, stray, 'none');
    console.log(`consumer: tarball ${p.filename}: ${(p.size / 1024).toFixed(0)} KB packed, ${(p.unpackedSize / 1024).toFixed(0)} KB unpacked, ${files.length} files`);
    total += p.unpackedSize;
  }
  const license = fs.readFileSync(path.join(root, 'LICENSE'), 'utf8');
  check(license.includes('Apache License') && license.includes('Version 2.0, January 2004'), 'LICENSE is not Apache-2.0', license.slice(0, 60), 'the Apache-2.0 text');
  console.log(`consumer: five tarballs unpacked: ${(total / 1024 / 1024).toFixed(2)} MB (limit ${MAX_UNPACKED / 1024 / 1024} MB)`);
  check(total <= MAX_UNPACKED, 'the tarballs are too big unpacked', `${total} bytes`, `<= ${MAX_UNPACKED}`);
}

/** `npm run release -- 0.1.1-rc.0`: lockstep bump (package.json files and lockfile), then a dry-run publish of all five. */
function checkRelease(clone, packed) {
  const version = '9.8.7-rc.0';
  const log = run(npm, ['run', 'release', '--', version], clone);
  const names = Object.keys(WORKSPACES);
  for (const [name, dir] of Object.entries(WORKSPACES)) {
    const pkg = JSON.parse(fs.readFileSync(path.join(clone, 'packages', dir, 'package.json'), 'utf8'));
    check(pkg.version === version, `release did not bump ${name}`, pkg.version, version);
    for (const [dep, v] of Object.entries(pkg.dependencies ?? {})) if (dep.startsWith('@eagerflow/')) check(v === version, `release left ${name} -> ${dep} behind`, v, version);
    check(log.includes(`${name}@${version}`) || log.includes(`${packed[name].name}@${version}`), `the dry-run publish did not include ${name}`, log.slice(-400), `${name}@${version}`);
  }
  const lock = JSON.parse(fs.readFileSync(path.join(clone, 'package-lock.json'), 'utf8'));
  for (const dir of Object.values(WORKSPACES)) check(lock.packages[`packages/${dir}`].version === version, `the lockfile keeps packages/${dir} at the old version`, lock.packages[`packages/${dir}`].version, version);
  const maps = path.join(clone, 'release', `eagerflow-${version}-sourcemaps.tgz`);
  const listed = run('tar', ['-tzf', maps], clone).trim().split('\n').sort();
  // The bundles' maps and the three add-ons' (wasm glue, WebGL, WebGPU).
  const wantMaps = ['eagerflow-wasm.js.map', 'eagerflow-webgl.js.map', 'eagerflow-webgpu.js.map', 'eagerflow.js.map', 'eagerflow.mjs.map'];
  check(listed.join() === wantMaps.join(), 'the source-map archive is wrong', listed, wantMaps.join(', '));
  step(`npm run release -- ${version}: ${names.length} packages bumped in lockstep, dry-run publish ok, source maps in release/${path.basename(maps)}`);
}


/** program.ts as CommonJS and as an ES module, transpiled by TypeScript the way a user's build would. */
function emitProgram(dir) {
  const ts = require('typescript');
  const src = fs.readFileSync(path.join(fixtures, 'program.ts'), 'utf8');
  for (const [ext, module] of [['cjs', ts.ModuleKind.CommonJS], ['mjs', ts.ModuleKind.ESNext]]) {
    const out = ts.transpileModule(src, { compilerOptions: { module, target: ts.ScriptTarget.ES2022 } }).outputText;
    fs.writeFileSync(path.join(dir, `program.${ext}`), out);
  }
  const checks = fs.readFileSync(path.join(fixtures, 'node-checks.js'), 'utf8');
  fs.writeFileSync(path.join(dir, 'node-checks.cjs'), `${checks}\nmodule.exports = { nodeChecks };\n`);
  fs.writeFileSync(path.join(dir, 'node-checks.mjs'), `${checks}\nexport { nodeChecks };\n`);
  for (const f of ['main.cjs', 'main.mjs', 'program.ts']) fs.copyFileSync(path.join(fixtures, f), path.join(dir, f));
  fs.copyFileSync(path.join(fixtures, 'program.ts'), path.join(dir, 'program.mts'));
}


function nodeProject(work, packs, packed) {
  const dir = path.join(work, 'node-app');
  makeProject(dir, packs, packed, { devDependencies: { '@types/node': require(path.join(root, 'node_modules', '@types', 'node', 'package.json')).version } });
  step('node-app installed (eagerflow tarball + @types/node)');
  emitProgram(dir);
  process.stdout.write(run(process.execPath, ['main.cjs', work], dir));
  process.stdout.write(run(process.execPath, ['main.mjs', work], dir));
  typecheck(dir, 'node', { module: 'NodeNext', moduleResolution: 'NodeNext' }, ['program.ts', 'program.mts']);
}

module.exports = { _checkRelease: checkRelease, _nodeProject: nodeProject };

// The whole consumer test is bounded, so a hang fails with the step it hung in instead of eating CI's time limit.
const LIMIT_S = 20 * 60;

async function main() {
  startClock();
  setTimeout(() => {
    console.error(`consumer: over ${LIMIT_S} s; the last step that finished: ${lastFinished()}`);
    process.exit(1);
  }, LIMIT_S * 1000).unref();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-consumer-'));
  try {
    const clone = path.join(work, 'clone');
    const packs = path.join(work, 'packs');
    fs.mkdirSync(packs, { recursive: true });
    cleanCopy(clone);
    step('clean copy of the working tree made');
    const packed = packAll(clone, packs);
    step('npm ci --ignore-scripts, then npm pack --workspaces (prepack built every dist)');
    checkTarballs(packed);
    checkRelease(clone, packed);
    nodeProject(work, packs, packed);
    await require('./consumer-web.js').webProject(work, packs, packed);
    step('all consumer checks passed');
  } finally {
    if (process.env.EF_KEEP_CONSUMER !== '1') fs.rmSync(work, { recursive: true, force: true });
    else console.log(`consumer: kept ${work}`);
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
