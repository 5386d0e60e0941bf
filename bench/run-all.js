// Runs every bench/*.bench.js as its own node process and summarizes the ratio lines they print; a full run (no
// file filter) also writes bench/results.md and bench/results.svg from the BENCH-ROW lines (bench/results.js).
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { writeResults } = require('./results');

// `name: what = 0.93x (target <= 1.25)`; other units (`= 71.7 us/op (target <= 30.0)`) are summarized too.
const RATIO = /^(\S+(?: \[[\w-]+\])?): (.+) = (\d+(?:\.\d+)?) ?(x|[^\s(]+) \(target <= (\d+(?:\.\d+)?)\)/;
const only = process.argv.slice(2);
const files = fs
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const summary = [];
const outputs = [];
const crashedFiles = [];
let crashed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, [path.join(__dirname, file)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(r.stdout);
  outputs.push({ file, stdout: r.stdout ?? '' });
  if (r.status !== 0) {
    crashed++;
    crashedFiles.push(file);
    console.log(`!! ${file} exited with ${r.status ?? r.signal}`);
  }
  for (const line of r.stdout.split('\n')) {
    const m = RATIO.exec(line);
    if (m) summary.push({ file, name: m[1], ratio: Number(m[3]), unit: m[4], target: Number(m[5]) });
  }
}

console.log('\n== summary');
for (const s of summary) {
  const unit = s.unit === 'x' ? 'x' : ` ${s.unit}`;
  console.log(`${s.ratio <= s.target ? 'ok  ' : 'OVER'} ${s.name}: ${s.ratio.toFixed(2)}${unit} (target <= ${s.target}${unit})  [${s.file}]`);
}
const over = summary.filter((s) => s.ratio > s.target).length;
console.log(`${files.length} bench files, ${summary.length} measurements, ${over} over target, ${crashed} crashed`);
// The committed page describes a full run: a filtered run writes it only when asked (BENCH_RESULTS=1).
if (only.length === 0 || process.env.BENCH_RESULTS === '1') {
  const w = writeResults(__dirname, { outputs, summary, crashed: crashedFiles });
  console.log(`wrote ${path.relative(process.cwd(), w.md)} and ${path.relative(process.cwd(), w.svg)}: ${w.rows} rows${w.problems ? `, ${w.problems} unreadable` : ''}`);
}
// Over-target ratios fail only when asked (timings on shared machines are noisy); crashes always fail.
process.exitCode = crashed > 0 || (over > 0 && process.env.BENCH_STRICT === '1') ? 1 : 0;
