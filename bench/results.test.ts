// The benchmarks page writer (bench/results.js): sample BENCH-ROW lines become the tables of results.md and a
// well-formed SVG chart, without running any bench.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const results = require('./results.js') as {
  parseRows(text: string, source?: string): { rows: Record<string, unknown>[]; problems: string[] };
  renderMarkdown(o: object): string;
  renderSvg(rows: object[]): string;
  writeResults(dir: string, o: object): { md: string; svg: string; rows: number; problems: number };
};

const SAMPLE = [
  'eager-add-2x2: ef.add / tf.add cpu time = 1.10x (target <= 1.25)',
  'BENCH-ROW {"group":"eager dispatch (2x2)","name":"eager-add-2x2","backend":"cpu","ef":2.2,"tfjs":2,"ratio":1.1,"target":1.25}',
  'some other output',
  'BENCH-ROW {"group":"real models","name":"model-emotion","backend":"cpu","ef":1500,"converter":2000,"ort":900,"tf":1200}',
  'BENCH-ROW {"group":"kernels","name":"matmul <256> & co","backend":"wasm","ef":330,"tfjs":300}',
  'BENCH-ROW {"group":"kernels","name":"no time","backend":"wasm"}',
  'BENCH-ROW {not json',
].join('\n');
const MACHINE = { node: 'v22.0.0', cpu: 'Test CPU @ 2.0GHz', cores: 2, platform: 'linux 6.1 x64', memoryGB: 8, date: '2026-11-24T20:00:00Z' };

/** A minimal XML well-formedness check: balanced tags, one root, escaped text, quoted attributes. */
function checkXml(src: string): { root: string; tags: Record<string, number> } {
  const stack: string[] = [];
  const tags: Record<string, number> = {};
  let root = '';
  const re = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  for (let m = re.exec(src); m !== null; m = re.exec(src)) {
    const text = src.slice(last, m.index);
    if (/[<>]/.test(text) || /&(?!amp;|lt;|gt;|quot;|apos;)/.test(text)) throw new Error(`bad text before <${m[2]}>: ${text}`);
    last = re.lastIndex;
    const [, close, name, , self] = m;
    if (close) {
      if (stack.pop() !== name) throw new Error(`</${name}> does not close the open tag`);
      continue;
    }
    if (stack.length === 0) {
      if (root !== '') throw new Error('more than one root element');
      root = name;
    }
    tags[name] = (tags[name] ?? 0) + 1;
    if (!self) stack.push(name);
  }
  if (stack.length !== 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (src.slice(last).trim() !== '') throw new Error('text after the root element');
  return { root, tags };
}

test('BENCH-ROW lines are read; malformed ones are reported, not dropped silently', () => {
  const { rows, problems } = results.parseRows(SAMPLE, 'x.bench.js');
  expect(rows.map((r) => r.name)).toEqual(['eager-add-2x2', 'model-emotion', 'matmul <256> & co']);
  expect(problems).toHaveLength(2);
  expect(problems[0]).toMatch(/x\.bench\.js: a row needs group, name, backend and ef/);
  expect(problems[1]).toMatch(/unreadable row/);
});

test('results.md has the machine facts and one table per group with the columns that group measured', () => {
  const { rows, problems } = results.parseRows(SAMPLE, 'x.bench.js');
  const summary = [{ file: 'eager.bench.js', name: 'eager-add-2x2', ratio: 1.1, unit: 'x', target: 1.25 }];
  const md = results.renderMarkdown({ rows, summary, problems, crashed: ['webgl.bench.js'], machine: MACHINE });
  expect(md).toContain('Machine: Test CPU @ 2.0GHz, 2 cores, 8 GB, linux 6.1 x64; Node v22.0.0; run 2026-11-24T20:00:00Z.');
  expect(md).toContain('![EagerFlow vs the references, per benchmark and backend](results.svg)');
  const table = (group: string): string[] => {
    const lines = md.split('\n');
    const at = lines.indexOf(`## ${group}`);
    const end = lines.indexOf('', at + 2);
    return lines.slice(at + 2, end);
  };
  expect(table('eager dispatch (2x2)')).toEqual([
    '| benchmark | backend | EagerFlow (µs) | raw tfjs (µs) | ratio | target |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    '| eager-add-2x2 | cpu | 2.20 | 2.00 | 1.10x | <= 1.25 |',
  ]);
  // No ratio printed by the bench: EagerFlow over the first reference present (tfjs-converter here).
  expect(table('real models')).toEqual([
    '| benchmark | backend | EagerFlow (µs) | tfjs-converter (µs) | ONNX Runtime (µs) | TensorFlow (Python) (µs) | ratio |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    '| model-emotion | cpu | 1500 | 2000 | 900.0 | 1200 | 0.75x |',
  ]);
  expect(table('kernels')[2]).toBe('| matmul <256> & co | wasm | 330.0 | 300.0 | 1.10x |');
  expect(md).toContain('| eager.bench.js | eager-add-2x2 | 1.10x | <= 1.25x | ok |');
  expect(md).toContain('Crashed (no rows): webgl.bench.js.');
  expect(md).toContain('- x.bench.js: unreadable row');
});

test('the chart is well-formed SVG with one bar per timed system and escaped labels', () => {
  const { rows } = results.parseRows(SAMPLE);
  const svg = results.renderSvg(rows);
  const { root, tags } = checkXml(svg);
  expect(root).toBe('svg');
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  // Bars: 2 + 4 + 2; plus the background and one legend swatch for each of the 5 systems used.
  expect(tags.rect).toBe(8 + 1 + 5);
  expect(svg).toContain('matmul &lt;256&gt; &amp; co [wasm]');
  expect(svg).toContain('font-weight="bold">real models</text>');
  expect(svg).toContain('>0.75x<'); // EagerFlow on model-emotion, relative to tfjs-converter
  expect(svg).toContain('>0.45x<'); // ONNX Runtime on the same row
  expect(() => checkXml('<svg><g></svg>')).toThrow(/does not close/);
  expect(() => checkXml('<svg>a < b</svg>')).toThrow(/bad text/);
});

test('writeResults writes both files from the benches\' outputs', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-bench-'));
  try {
    const w = results.writeResults(dir, { outputs: [{ file: 'x.bench.js', stdout: SAMPLE }], machine: MACHINE });
    expect([w.rows, w.problems]).toEqual([3, 2]);
    expect(fs.readFileSync(w.md, 'utf8')).toContain('## kernels');
    expect(checkXml(fs.readFileSync(w.svg, 'utf8')).root).toBe('svg');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
