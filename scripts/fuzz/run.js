// `npm run fuzz` (and the bounded run in `npm test`): runs the op, loader and file-reader fuzzers in child processes with a time
// limit per case, so a crash or a hang is caught and reported with the case that caused it; prints the counts.
//
//   node scripts/fuzz/run.js [--fuzzer op|loader|files|all] [--cases N] [--seed S] [--from I] [--case-timeout MS] [--json FILE]
//
// Every case is reproducible alone: `node scripts/fuzz/run.js --fuzzer op --seed S --from I --cases 1 --verbose`.
// Exits 1 when any case found something (a non-library error, an eager/traced disagreement, a leak, a wrong value read
// from a checksummed file, a crash, a hang).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function parseArgs(argv) {
  const o = { fuzzer: 'all', cases: 1000, seed: 32, from: 0, caseTimeout: 30_000, json: null, verbose: false, maxReported: 50 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--fuzzer') o.fuzzer = next();
    else if (a === '--cases') o.cases = Number(next());
    else if (a === '--seed') o.seed = Number(next());
    else if (a === '--from') o.from = Number(next());
    else if (a === '--case-timeout') o.caseTimeout = Number(next());
    else if (a === '--json') o.json = next();
    else if (a === '--verbose') o.verbose = true;
    else throw new Error(`fuzz: unknown argument '${a}'`);
  }
  if (!['op', 'loader', 'files', 'all'].includes(o.fuzzer)) throw new Error(`fuzz: --fuzzer must be op, loader, files or all (got '${o.fuzzer}')`);
  if (!(Number.isInteger(o.cases) && o.cases > 0 && Number.isInteger(o.seed) && Number.isInteger(o.from) && o.from >= 0)) throw new Error('fuzz: --cases, --seed and --from must be integers');
  return o;
}

/** Runs cases [from, from + count) of one fuzzer, restarting the child after a crash or a hang. */
async function runFuzzer(fuzzer, o) {
  const counts = { cases: 0, ok: 0, refused: 0, nonLibraryError: 0, disagreement: 0, leak: 0, wrongValue: 0, crash: 0, hang: 0, harnessError: 0 };
  const findings = [];
  const t0 = Date.now();
  let next = o.from;
  const end = o.from + o.cases;
  const report = (i, status, detail) => {
    counts[status]++;
    if (findings.length < o.maxReported) findings.push({ i, status, detail, repro: `node scripts/fuzz/run.js --fuzzer ${fuzzer} --seed ${o.seed} --from ${i} --cases 1 --verbose` });
  };
  while (next < end) {
    const args = ['-r', path.join(root, 'scripts/fuzz/register-src.js'), path.join(root, 'test/fuzz/child.ts'), fuzzer, String(o.seed), String(next), String(end - next)];
    const env = { ...process.env, EF_FUZZ_VERBOSE: o.verbose ? '1' : '0' };
    const child = spawn(process.execPath, ['--max-old-space-size=2048', '--stack-size=984', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let current = -1;
    let buf = '';
    let stderr = '';
    let timer = null;
    let hung = false;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        hung = true;
        child.kill('SIGKILL');
      }, o.caseTimeout);
    };
    arm();
    child.stdout.on('data', (chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('S ')) {
          current = Number(line.slice(2));
          arm();
        } else if (line.startsWith('R ')) {
          const m = /^R (\d+) (\w+)(?: (.*))?$/.exec(line);
          if (!m) continue;
          const i = Number(m[1]);
          counts.cases++;
          const status = m[2];
          if (status === 'ok' || status === 'refused') counts[status]++;
          else report(i, status, m[3] ? JSON.parse(m[3]) : null);
          // Long runs say what they find as they find it.
          if (status !== 'ok' && status !== 'refused' && !o.verbose) console.log(`  ${status} at case ${i}: ${m[3] ?? ''}`);
          if (o.verbose) console.log(`${fuzzer} case ${i}: ${status} ${m[3] ?? ''}`);
          // Progress of long runs (their counts so far), every 10k cases.
          else if (counts.cases % 10_000 === 0) console.log(`fuzz ${fuzzer}: ${counts.cases} cases, ${Math.round((Date.now() - t0) / 1000)} s: ${JSON.stringify(counts)}`);
          next = i + 1;
          current = -1;
        }
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const code = await new Promise((resolve) => child.on('close', (c, sig) => resolve(sig ?? c)));
    clearTimeout(timer);
    if (code === 0 && current === -1) break;
    // The child died inside case `current` (or before its first case: a setup failure, reported once and fatal).
    if (current === -1) throw new Error(`fuzz: the ${fuzzer} child failed before a case (exit ${code}):\n${stderr}`);
    counts.cases++;
    report(current, hung ? 'hang' : 'crash', { detail: hung ? `no result within ${o.caseTimeout} ms` : `exit ${code}: ${stderr.trim().split('\n').slice(-6).join('\n')}` });
    next = current + 1;
  }
  return { fuzzer, seed: o.seed, from: o.from, ...counts, seconds: Math.round((Date.now() - t0) / 100) / 10, findings };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const fuzzers = o.fuzzer === 'all' ? ['op', 'loader', 'files'] : [o.fuzzer];
  const results = [];
  for (const f of fuzzers) {
    const r = await runFuzzer(f, o);
    results.push(r);
    const { findings, ...counts } = r;
    console.log(`fuzz ${f}: ${JSON.stringify(counts)}`);
    for (const x of findings) console.log(`  ${x.status} at case ${x.i}: ${JSON.stringify(x.detail)}\n    reproduce: ${x.repro}`);
  }
  if (o.json) fs.mkdirSync(path.dirname(path.resolve(o.json)), { recursive: true });
  if (o.json) fs.writeFileSync(o.json, `${JSON.stringify(results, null, 2)}\n`);
  const bad = results.some((r) => r.nonLibraryError + r.disagreement + r.leak + r.wrongValue + r.crash + r.hang + r.harnessError > 0);
  process.exitCode = bad ? 1 : 0;
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 2;
  });
}

module.exports = { runFuzzer, parseArgs };
