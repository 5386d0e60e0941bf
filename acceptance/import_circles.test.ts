// Import circles over the whole repository (scripts/import-circles.js): every import counts (type-only ones, `export
// ... from`, require, import()), in every folder (packages, tests, harness, browser, bench, scripts, .ci). The
// circles still to break are listed in KNOWN_CIRCLES, which may only shrink (and is empty: zero circles).
import * as path from 'node:path';

interface Circles {
  importGraph(planted?: boolean): Map<string, string[]>;
  importCircles(graph?: Map<string, string[]>): string[][];
  circleFindings(circles?: string[][], known?: string[][]): { unknown: string[][]; stale: string[][] };
  layerFindings(graph?: Map<string, string[]>, rules?: { from: string; notTo: string }[]): [string, string][];
  KNOWN_CIRCLES: string[][];
  LAYER_RULES: { from: string; notTo: string }[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const circles: Circles = require(path.resolve(__dirname, '../scripts/import-circles.js'));

/** The size of KNOWN_CIRCLES when it was last shortened: lower these as circles are broken, never raise them. */
const KNOWN_AT_MOST = { circles: 0, files: 0 };

test('the repository has no import circle beyond the known ones, and every known one still stands as listed', () => {
  const { unknown, stale } = circles.circleFindings();
  expect({ unknown, stale }).toEqual({ unknown: [], stale: [] });
});

test('the known circles only shrink', () => {
  const known = circles.KNOWN_CIRCLES;
  expect(known.length).toBeLessThanOrEqual(KNOWN_AT_MOST.circles);
  expect(known.reduce((n, c) => n + c.length, 0)).toBeLessThanOrEqual(KNOWN_AT_MOST.files);
  // Entries are sorted file lists of real circles (at least two files), none inside another.
  for (const c of known) {
    expect(c).toEqual([...c].sort());
    expect(c.length).toBeGreaterThanOrEqual(2);
  }
  expect(new Set(known.flat()).size).toBe(known.flat().length);
});

test('the scan finds the planted circles: a value circle and a type-only one (which ESLint import-x/no-cycle skips)', () => {
  const planted = circles.importCircles(circles.importGraph(true)).filter((c) => c[0].startsWith('scripts/lint-fixtures/'));
  expect(planted).toEqual([
    ['scripts/lint-fixtures/cycle_a.ts', 'scripts/lint-fixtures/cycle_b.ts'],
    ['scripts/lint-fixtures/type_cycle_a.ts', 'scripts/lint-fixtures/type_cycle_b.ts'],
  ]);
});

test('a circle that grew past its entry, a new one and a broken one are findings', () => {
  const known = [['a.ts', 'b.ts'], ['c.ts', 'd.ts']];
  expect(circles.circleFindings([['a.ts', 'b.ts', 'e.ts'], ['f.ts', 'g.ts']], known)).toEqual({
    unknown: [['a.ts', 'b.ts', 'e.ts'], ['f.ts', 'g.ts']],
    stale: known,
  });
  // Tarjan over a small graph: a three-file circle, a self-import, a file outside any circle.
  const graph = new Map([
    ['x.ts', ['y.ts']],
    ['y.ts', ['z.ts']],
    ['z.ts', ['x.ts']],
    ['self.ts', ['self.ts']],
    ['leaf.ts', []],
  ]);
  expect(circles.importCircles(graph)).toEqual([['self.ts'], ['x.ts', 'y.ts', 'z.ts']]);
});

test('values/ (tensors, variables, printing) imports nothing from the op folders', () => {
  expect(circles.LAYER_RULES).toContainEqual({ from: 'packages/core/src/values/', notTo: 'packages/core/src/ops/' });
  expect(circles.layerFindings()).toEqual([]);
  // The check finds a crossing, type-only or not.
  const graph = new Map([
    ['packages/core/src/values/variable.ts', ['packages/core/src/ops/bind.ts', 'packages/core/src/values/tensor.ts']],
    ['packages/core/src/ops/late_ops.ts', ['packages/core/src/values/variable.ts']],
  ]);
  expect(circles.layerFindings(graph)).toEqual([['packages/core/src/values/variable.ts', 'packages/core/src/ops/bind.ts']]);
});
