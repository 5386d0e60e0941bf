// The benchmarks page: turns the `BENCH-ROW {json}` lines the benches print (bench/harness.js record) and the ratio
// summary into bench/results.md (a table per group, with the machine's facts) and bench/results.svg (a bar chart).
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The systems a row may time, in column order: key, column title, bar colour. */
const SYSTEMS = [
  { key: 'ef', title: 'EagerFlow', color: '#1f77b4' },
  { key: 'tfjs', title: 'raw tfjs', color: '#ff7f0e' },
  { key: 'converter', title: 'tfjs-converter', color: '#2ca02c' },
  { key: 'ort', title: 'ONNX Runtime', color: '#9467bd' },
  { key: 'tf', title: 'TensorFlow (Python)', color: '#8c564b' },
];
const PREFIX = 'BENCH-ROW ';

const isTime = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * The rows in `text` (one `BENCH-ROW {json}` per line, anything else ignored): { rows, problems }. A row needs string
 * group, name and backend and an `ef` time; other systems' times, ratio and target are optional numbers.
 */
function parseRows(text, source = '') {
  const rows = [];
  const problems = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(PREFIX)) continue;
    let row;
    try {
      row = JSON.parse(line.slice(PREFIX.length));
    } catch (e) {
      problems.push(`${source}: unreadable row (${e.message}): ${line.slice(0, 120)}`);
      continue;
    }
    const strings = ['group', 'name', 'backend'].every((k) => typeof row[k] === 'string' && row[k] !== '');
    const times = SYSTEMS.every((s) => row[s.key] === undefined || isTime(row[s.key]));
    const extras = ['ratio', 'target'].every((k) => row[k] === undefined || (typeof row[k] === 'number' && Number.isFinite(row[k])));
    if (!strings || !isTime(row.ef) || !times || !extras) {
      problems.push(`${source}: a row needs group, name, backend and ef (microseconds); got ${line.slice(PREFIX.length, PREFIX.length + 160)}`);
      continue;
    }
    rows.push({ ...row, source });
  }
  return { rows, problems };
}

/** The reference a row's ratio is read against: raw tfjs, else tfjs-converter, ONNX Runtime, TensorFlow. */
function referenceOf(row) {
  const s = SYSTEMS.slice(1).find((x) => isTime(row[x.key]) && row[x.key] > 0);
  return s === undefined ? null : s;
}

/** The row's ratio: the bench's own when it printed one, else EagerFlow over the reference. */
function ratioOf(row) {
  if (typeof row.ratio === 'number') return row.ratio;
  const ref = referenceOf(row);
  return ref === null ? null : row.ef / row[ref.key];
}

/** Facts about the machine the numbers came from. */
function machineFacts(now = new Date()) {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpu: cpus.length > 0 ? cpus[0].model.trim() : 'unknown',
    cores: cpus.length,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
    date: now.toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

const fmtTime = (v) => (v === undefined ? '' : v >= 1000 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const fmtRatio = (v) => (v === null || v === undefined ? '' : `${v.toFixed(2)}x`);
const cell = (s) => String(s).replace(/\|/g, '\\|');

/** results.md: machine facts, the chart, one table per group (only the systems that group measured), the ratio summary. */
function renderMarkdown({ rows, summary = [], problems = [], crashed = [], machine, chart = 'results.svg' }) {
  const out = [];
  out.push('# Benchmark results', '');
  out.push('Written by `npm run bench` (bench/run-all.js) from the `BENCH-ROW` lines the benches print. Do not edit by hand.', '');
  out.push(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGB} GB, ${machine.platform}; Node ${machine.node}; run ${machine.date}.`, '');
  out.push('Times are medians in microseconds per call (CPU time of this process unless a bench says otherwise; lower is better). The ratio is EagerFlow over the reference column the bench compares against (raw tfjs, tfjs-converter, ONNX Runtime or TensorFlow); the target is the issue\'s bound for it. The machine is shared, so single ratios move by 10-20% between runs.', '');
  if (rows.length > 0) out.push(`![EagerFlow vs the references, per benchmark and backend](${chart})`, '');
  const groups = [...new Set(rows.map((r) => r.group))];
  for (const g of groups) {
    const rs = rows.filter((r) => r.group === g);
    const systems = SYSTEMS.filter((s) => rs.some((r) => r[s.key] !== undefined));
    const hasTarget = rs.some((r) => typeof r.target === 'number');
    out.push(`## ${cell(g)}`, '');
    const head = ['benchmark', 'backend', ...systems.map((s) => `${s.title} (µs)`), 'ratio', ...(hasTarget ? ['target'] : [])];
    out.push(`| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i < 2 ? '---' : '---:')).join(' | ')} |`);
    for (const r of rs) {
      const ratio = ratioOf(r);
      const over = typeof r.target === 'number' && ratio !== null && ratio > r.target;
      const cells = [cell(r.name), cell(r.backend), ...systems.map((s) => fmtTime(r[s.key])), fmtRatio(ratio) + (over ? ' (over)' : ''), ...(hasTarget ? [typeof r.target === 'number' ? `<= ${r.target}` : ''] : [])];
      out.push(`| ${cells.join(' | ')} |`);
    }
    out.push('');
  }
  if (summary.length > 0) {
    out.push('## Every ratio line', '', '| bench file | measurement | value | target | |', '| --- | --- | ---: | ---: | --- |');
    for (const s of summary) {
      const unit = s.unit === 'x' ? 'x' : ` ${s.unit}`;
      out.push(`| ${cell(s.file)} | ${cell(s.name)} | ${s.ratio.toFixed(2)}${unit} | <= ${s.target}${unit} | ${s.ratio <= s.target ? 'ok' : 'over'} |`);
    }
    out.push('');
  }
  if (crashed.length > 0) out.push(`Crashed (no rows): ${crashed.map(cell).join(', ')}.`, '');
  if (problems.length > 0) out.push('Rows that could not be read:', '', ...problems.map((p) => `- ${cell(p)}`), '');
  return out.join('\n');
}

const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * results.svg: one block per row (benchmark and backend), one bar per system it timed, each as a multiple of the
 * row's reference (raw tfjs, else the first other system; 1.0 is the dashed line). Bars past 3x are clipped.
 */
function renderSvg(rows, { title = 'EagerFlow vs raw tfjs, tfjs-converter, ONNX Runtime, TensorFlow (time per call relative to the reference; lower is better)' } = {}) {
  const MAX = 3;
  const [labelW, plotW, barH, gap, top, left] = [330, 420, 11, 9, 58, 10];
  const used = SYSTEMS.filter((s) => rows.some((r) => r[s.key] !== undefined));
  // Rows grouped (groups in order of first appearance), each group under its own heading line.
  const groups = [...new Set(rows.map((r) => r.group))];
  const blocks = groups.flatMap((g) => rows.filter((r) => r.group === g)).map((r) => ({ r, bars: SYSTEMS.filter((s) => r[s.key] !== undefined) }));
  const headH = 18;
  const height = top + groups.length * headH + blocks.reduce((h, b) => h + b.bars.length * barH + gap, 0) + 30;
  const width = left + labelW + plotW + 80;
  const x0 = left + labelW;
  const scale = plotW / MAX;
  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${left}" y="18" font-size="13" font-weight="bold">${xml(title)}</text>`);
  used.forEach((s, i) => {
    const lx = left + i * 150;
    parts.push(`<rect x="${lx}" y="30" width="12" height="12" fill="${s.color}"/>`, `<text x="${lx + 16}" y="40">${xml(s.title)}</text>`);
  });
  let y = top;
  let lastGroup = null;
  for (const { r, bars } of blocks) {
    const ref = referenceOf(r);
    if (lastGroup !== r.group) {
      parts.push(`<text x="${left}" y="${y + 12}" font-weight="bold">${xml(r.group)}</text>`);
      y += headH;
      lastGroup = r.group;
    }
    const label = `${r.name} [${r.backend}]`;
    parts.push(`<text x="${x0 - 6}" y="${y + barH - 2}" text-anchor="end">${xml(label.length > 60 ? `${label.slice(0, 57)}...` : label)}</text>`);
    for (const s of bars) {
      const rel = ref === null ? 1 : r[s.key] / r[ref.key];
      const w = Math.max(1, Math.min(rel, MAX) * scale);
      parts.push(`<rect x="${x0}" y="${y}" width="${w.toFixed(1)}" height="${barH - 1}" fill="${s.color}"><title>${xml(`${s.title}: ${fmtTime(r[s.key])} us per call`)}</title></rect>`);
      parts.push(`<text x="${(x0 + w + 4).toFixed(1)}" y="${y + barH - 2}">${xml(`${rel.toFixed(2)}x${rel > MAX ? ' (clipped)' : ''}`)}</text>`);
      y += barH;
    }
    y += gap;
  }
  const one = x0 + scale;
  parts.push(`<line x1="${one}" y1="${top - 6}" x2="${one}" y2="${y}" stroke="#444444" stroke-dasharray="4 3"/>`);
  parts.push(`<text x="${one}" y="${y + 14}" text-anchor="middle">1.0x (reference)</text>`);
  parts.push(`<line x1="${x0}" y1="${top - 6}" x2="${x0}" y2="${y}" stroke="#444444"/>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** Writes results.md and results.svg into `dir` from the benches' output; returns their paths. */
function writeResults(dir, { outputs, summary = [], crashed = [], machine = machineFacts() }) {
  const rows = [];
  const problems = [];
  for (const { file, stdout } of outputs) {
    const p = parseRows(stdout, file);
    rows.push(...p.rows);
    problems.push(...p.problems);
  }
  const md = path.join(dir, 'results.md');
  const svg = path.join(dir, 'results.svg');
  fs.writeFileSync(md, renderMarkdown({ rows, summary, problems, crashed, machine, chart: path.basename(svg) }));
  fs.writeFileSync(svg, renderSvg(rows));
  return { md, svg, rows: rows.length, problems: problems.length };
}

module.exports = { SYSTEMS, parseRows, ratioOf, machineFacts, renderMarkdown, renderSvg, writeResults };
