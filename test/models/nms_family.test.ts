// The NMS record family in hand-built graph models, against tfjs-converter on the same artifacts (executeAsync):
// NonMaxSuppressionV2, and V3/V4/V5 whose thresholds the graph computes (read when the op runs); which reader takes
// which node; saveFunction round trips; run-time parameter errors without leaks. CombinedNonMaxSuppression (which
// tfjs-converter does not run) against TensorFlow 2.21's outputs (fixture) and hand-derived values.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { A, Const, F, I, Node, artifacts, node } from './helpers';

type T = ef.Tensor;
const vals = (t: T): number[] => Array.from(t.dataSync() as ArrayLike<number>);
const f32 = (...values: number[]): Const => ({ dtype: 'float32', shape: [], values });
const i32 = (...values: number[]): Const => ({ dtype: 'int32', shape: [], values });

const BOXES = [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9, 0, 10, 1, 11, 0, 10.1, 1, 11.1, 0, 100, 1, 101];
const SCORES = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3];

/** Runs both on boxes/scores; equal shapes and values. Returns EagerFlow's outputs and the loaded function. */
async function same(a: tf.io.ModelArtifacts): Promise<{ g: ef.LoadedFunction; got: T[] }> {
  const g = ef.loadFunction(a);
  const model = await loadGraphModel(tf.io.fromMemory(a));
  const ins = [tf.tensor(BOXES, [6, 4]), tf.tensor(SCORES)];
  const want = [await model.executeAsync(ins)].flat() as tf.Tensor[];
  const efIns = [ef.constant(BOXES, 'float32', [6, 4]), ef.constant(SCORES)];
  const got = [g(...efIns) as T | T[]].flat();
  expect(got.length).toBe(want.length);
  got.forEach((t, k) => {
    expect(t.dims).toEqual(want[k].shape);
    expect(vals(t)).toEqual(Array.from(want[k].dataSync() as ArrayLike<number>));
  });
  tf.dispose([...ins, ...want]);
  ef.dispose(efIns);
  model.dispose();
  return { g, got };
}

/** zero_f and zero_i: 0 * sum(scores), known only when the graph runs (Consts alone would be folded at load). */
function runTimeZeros(nodes: Node[], consts: Record<string, Const>, scoresRank: number): void {
  Object.assign(consts, { axes: { dtype: 'int32', shape: [scoresRank], values: Array.from({ length: scoresRank }, (_, i) => i) }, zero: f32(0) });
  nodes.push(node('sum', 'Sum', ['scores', 'axes'], { T: F, Tidx: I, keep_dims: A.b(false) }), node('zero_f', 'Mul', ['sum', 'zero'], { T: F }), node('zero_i', 'Cast', ['zero_f'], { SrcT: F, DstT: I, Truncate: A.b(false) }));
}

/**
 * An NMS node whose thresholds are computed: max = a + b (int32), iou = 2 · h, score = 2 · s, sigma = 2 · q
 * (each a Mul/AddV2 of a Const and b plus a zero computed from the scores, so only known when the graph runs);
 * `fixed` keeps those names as plain Consts instead.
 */
function nmsModel(op: string, p: { max: number; iou: number; thr?: number; sigma?: number; pad?: boolean }, fixed = false, outs?: string[]): tf.io.ModelArtifacts {
  const v = Number(op.slice(-1));
  const consts: Record<string, Const> = {};
  const nodes: Node[] = [node('boxes', 'Placeholder', [], { dtype: F, shape: A.shape([6, 4]) }), node('scores', 'Placeholder', [], { dtype: F, shape: A.shape([6]) })];
  const param = (name: string, value: number, int: boolean): string => {
    if (fixed) {
      consts[name] = int ? i32(value) : f32(value);
      return name;
    }
    consts[`${name}_a`] = int ? i32(value - 1) : f32(value / 2);
    consts[`${name}_b`] = int ? i32(1) : f32(2);
    // b + a zero read from the scores: a value only the run time knows (Consts alone are folded at load).
    nodes.push(node(`${name}_rt`, 'AddV2', [`${name}_b`, int ? 'zero_i' : 'zero_f'], { T: int ? I : F }));
    nodes.push(node(name, int ? 'AddV2' : 'Mul', [`${name}_a`, `${name}_rt`], { T: int ? I : F }));
    return name;
  };
  if (!fixed) runTimeZeros(nodes, consts, 1);
  const ins = ['boxes', 'scores', param('max', p.max, true), param('iou', p.iou, false)];
  if (v >= 3) ins.push(param('thr', p.thr ?? 0, false));
  if (v === 5) ins.push(param('sigma', p.sigma ?? 0, false));
  nodes.push(node('nms', op, ins, { T: F, ...(v >= 4 ? { pad_to_max_output_size: A.b(p.pad ?? false) } : {}), ...(v !== 5 ? { T_threshold: F } : {}) }));
  const o = outs ?? (v <= 3 ? ['nms'] : v === 4 ? ['nms', 'nms:1'] : ['nms', 'nms:1']);
  o.forEach((ref, k) => nodes.push(node(`out${k}`, 'Identity', [ref], { T: v === 5 && k === 1 ? F : I })));
  return artifacts(nodes, consts);
}

describe('NonMaxSuppressionV2..V5 with computed thresholds match tfjs-converter', () => {
  test.each([
    ['NonMaxSuppressionV2', { max: 4, iou: 0.5 }],
    ['NonMaxSuppressionV2', { max: 2, iou: 0.9 }],
    ['NonMaxSuppressionV3', { max: 5, iou: 0.5, thr: 0.4 }],
    ['NonMaxSuppressionV4', { max: 5, iou: 0.5, thr: 0.4, pad: true }],
    ['NonMaxSuppressionV4', { max: 3, iou: 0.7, thr: 0.55, pad: false }],
    ['NonMaxSuppressionV5', { max: 5, iou: 0.5, thr: 0.4, sigma: 0 }],
    ['NonMaxSuppressionV5', { max: 6, iou: 1, thr: 0.2, sigma: 0.5 }],
  ] as const)('%s %j', async (op, p) => {
    const before = ef.memory().numTensors;
    const { g, got } = await same(nmsModel(op, p));
    // Computed thresholds: the family's record reads them when it runs.
    expect(g.graph.toString()).toContain('tf_non_max_suppression');
    // By hand (V2, IoU 0.5, no score threshold): 3 then 0 (boxes 4, 1, 2 overlap them by IoU 0.82), then 5.
    if (op === 'NonMaxSuppressionV2' && p.iou === 0.5) expect(vals(got[0])).toEqual([3, 0, 5]);
    // The saved graph keeps the computed inputs and runs again, in EagerFlow and in tfjs-converter.
    const saved = ef.saveFunction(g);
    expect((saved.modelTopology as { node: { op: string }[] }).node.map((n) => n.op)).toContain(op);
    const again = await same(saved as unknown as tf.io.ModelArtifacts);
    again.got.forEach((t, k) => expect(vals(t)).toEqual(vals(got[k])));
    ef.dispose([...got, ...again.got]);
    g.dispose();
    again.g.dispose();
    expect(ef.memory().numTensors).toBe(before);
  });

  test('V3/V4 with Const thresholds read as core image.nonMaxSuppression records; V5 and V2 by the family', async () => {
    const read = (op: string): string => {
      const g = ef.loadFunction(nmsModel(op, { max: 5, iou: 0.5, thr: 0.4 }, true));
      const s = g.graph.toString();
      g.dispose();
      return s;
    };
    expect(read('NonMaxSuppressionV3')).toMatch(/= non_max_suppression\[/);
    expect(read('NonMaxSuppressionV4')).toMatch(/= non_max_suppression_padded\[/);
    expect(read('NonMaxSuppressionV5')).toContain('tf_non_max_suppression');
    expect(read('NonMaxSuppressionV2')).toContain('tf_non_max_suppression');
    const { g, got } = await same(nmsModel('NonMaxSuppressionV2', { max: 4, iou: 0.5 }, true));
    expect(vals(got[0])).toEqual([3, 0, 5]);
    ef.dispose(got);
    g.dispose();
  });

  test('V5 valid_outputs (output 2, which tfjs-converter does not compute) is the count TF defines', () => {
    const g = ef.loadFunction(nmsModel('NonMaxSuppressionV5', { max: 5, iou: 0.5, thr: 0.4, pad: true }, false, ['nms', 'nms:1', 'nms:2']));
    const xs = [ef.constant(BOXES, 'float32', [6, 4]), ef.constant(SCORES)];
    const [idx, sc, valid] = g(...xs) as T[];
    expect(vals(idx)).toEqual([3, 0, 0, 0, 0]);
    expect(vals(sc)).toEqual([Math.fround(0.95), Math.fround(0.9), 0, 0, 0]);
    expect(valid.item()).toBe(2);
    ef.dispose([...xs, idx, sc, valid]);
    g.dispose();
  });

  test.each([
    ['an IoU threshold above 1', { max: 3, iou: 1.5, thr: 0 }, /iouThreshold=1\.5/],
    ['a negative max_output_size', { max: -2, iou: 0.5, thr: 0 }, /maxOutputSize=-2/],
  ] as const)('a computed %s fails when the op runs, naming the op and values, without leaking', (_what, p, msg) => {
    const g = ef.loadFunction(nmsModel('NonMaxSuppressionV3', p));
    const xs = [ef.constant(BOXES, 'float32', [6, 4]), ef.constant(SCORES)];
    const before = ef.memory().numTensors;
    expect(() => g(...xs)).toThrow(/nonMaxSuppression \(NonMaxSuppressionV3\).*invalid parameters/s);
    expect(() => g(...xs)).toThrow(msg);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose(xs);
    g.dispose();
  });

  test('the indices have no gradient (null), as in TF', () => {
    const g = ef.loadFunction(nmsModel('NonMaxSuppressionV5', { max: 5, iou: 0.5, thr: 0.4, sigma: 0.5 }));
    const xs = [ef.constant(BOXES, 'float32', [6, 4]), ef.constant(SCORES)];
    const tape = new ef.GradientTape();
    const y = tape.record(() => (xs.forEach((x) => tape.watch(x)), ef.reduceSum((g(...xs) as T[])[1])));
    expect(tape.gradient(y, xs)).toEqual([null, null]);
    ef.dispose([...xs, y]);
    g.dispose();
  });
});

interface CombinedCase {
  name: string;
  boxes: { shape: number[]; data: number[] };
  scores: { shape: number[]; data: number[] };
  maxPerClass: number;
  maxTotal: number;
  iou: number;
  score: number;
  padPerClass: boolean;
  clipBoxes: boolean;
  outputs: { shape: number[]; data: number[] }[];
}

const FIXTURE = path.join(__dirname, 'fixtures', 'combined_nms.json');

function combinedModel(c: CombinedCase, computed: boolean): tf.io.ModelArtifacts {
  const consts: Record<string, Const> = {};
  const nodes: Node[] = [node('boxes', 'Placeholder', [], { dtype: F, shape: A.shape(c.boxes.shape) }), node('scores', 'Placeholder', [], { dtype: F, shape: A.shape(c.scores.shape) })];
  const param = (name: string, value: number, int: boolean): string => {
    if (!computed) {
      consts[name] = int ? i32(value) : f32(value);
      return name;
    }
    consts[`${name}_a`] = int ? i32(value) : f32(value);
    nodes.push(node(name, 'AddV2', [`${name}_a`, int ? 'zero_i' : 'zero_f'], { T: int ? I : F }));
    return name;
  };
  if (computed) runTimeZeros(nodes, consts, c.scores.shape.length);
  const ins = ['boxes', 'scores', param('per', c.maxPerClass, true), param('total', c.maxTotal, true), param('iou', c.iou, false), param('thr', c.score, false)];
  nodes.push(node('nms', 'CombinedNonMaxSuppression', ins, { pad_per_class: A.b(c.padPerClass), clip_boxes: A.b(c.clipBoxes) }));
  ['nms', 'nms:1', 'nms:2', 'nms:3'].forEach((r, k) => nodes.push(node(`out${k}`, 'Identity', [r], { T: k === 3 ? I : F })));
  return artifacts(nodes, consts);
}

describe('CombinedNonMaxSuppression matches TensorFlow 2.21', () => {
  const cases = (JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { cases: CombinedCase[] }).cases;
  test.each(cases.flatMap((c) => [[c.name, c, false], [`${c.name} (computed thresholds)`, c, true]] as const))('%s', (_n, c, computed) => {
    const before = ef.memory().numTensors;
    const g = ef.loadFunction(combinedModel(c, computed));
    const xs = [ef.constant(c.boxes.data, 'float32', c.boxes.shape), ef.constant(c.scores.data, 'float32', c.scores.shape)];
    const outs = g(...xs) as T[];
    outs.forEach((t, k) => {
      expect(t.dims).toEqual(c.outputs[k].shape);
      expect(vals(t)).toEqual(c.outputs[k].data.map((v) => (k === 3 ? v : Math.fround(v))));
    });
    const again = ef.loadFunction(ef.saveFunction(g));
    const outs2 = again(...xs) as T[];
    outs2.forEach((t, k) => expect(vals(t)).toEqual(vals(outs[k])));
    ef.dispose([...xs, ...outs, ...outs2]);
    g.dispose();
    again.dispose();
    expect(ef.memory().numTensors).toBe(before);
  });

  test('by hand: two classes over shared boxes, clipped, merged by score, zero-padded', () => {
    // Box 0 [0,0,1,1], box 1 [0,0.1,1,1.1] (IoU 0.82 with box 0), box 2 [0.5,0.5,1.5,1.5]. Class 0 keeps 0 (0.9) and
    // 2 (0.3); class 1 keeps 1 (0.8) and suppresses 0 (0.7). Merged: 0.9 (c0, box 0), 0.8 (c1, box 1), 0.3 (c0, box 2).
    const c: CombinedCase = {
      name: 'hand', boxes: { shape: [1, 3, 1, 4], data: [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0.5, 0.5, 1.5, 1.5] },
      scores: { shape: [1, 3, 2], data: [0.9, 0.7, 0.2, 0.8, 0.3, 0.1] }, maxPerClass: 2, maxTotal: 4, iou: 0.5, score: 0.25, padPerClass: false, clipBoxes: true, outputs: [],
    };
    const g = ef.loadFunction(combinedModel(c, false));
    const xs = [ef.constant(c.boxes.data, 'float32', c.boxes.shape), ef.constant(c.scores.data, 'float32', c.scores.shape)];
    const [b, s, cl, v] = g(...xs) as T[];
    expect(vals(b)).toEqual([0, 0, 1, 1, 0, Math.fround(0.1), 1, 1, 0.5, 0.5, 1, 1, 0, 0, 0, 0]);
    expect(vals(s)).toEqual([0.9, 0.8, 0.3, 0].map(Math.fround));
    expect(vals(cl)).toEqual([0, 1, 0, 0]);
    expect(vals(v)).toEqual([3]);
    ef.dispose([...xs, b, s, cl, v]);
    g.dispose();
  });

  test('a max_total_size too large to allocate fails when the op runs, naming it, without leaking', () => {
    const c = { name: 'huge', boxes: { shape: [1, 2, 1, 4], data: [0, 0, 1, 1, 0, 0, 0.5, 0.5] }, scores: { shape: [1, 2, 1], data: [0.9, 0.8] }, maxPerClass: 2, maxTotal: 2e9, iou: 0.5, score: 0, padPerClass: false, clipBoxes: true, outputs: [] };
    const g = ef.loadFunction(combinedModel(c, true));
    const xs = [ef.constant(c.boxes.data, 'float32', c.boxes.shape), ef.constant(c.scores.data, 'float32', c.scores.shape)];
    const before = ef.memory().numTensors;
    expect(() => g(...xs)).toThrow(/combinedNonMaxSuppression.*too large.*max_total_size/s);
    expect(ef.memory().numTensors).toBe(before);
    ef.dispose(xs);
    g.dispose();
  });

  test('boxes with a q that is neither 1 nor the class count fail at load, naming the op', () => {
    const c = { name: 'bad', boxes: { shape: [1, 3, 2, 4], data: [] }, scores: { shape: [1, 3, 3], data: [] }, maxPerClass: 2, maxTotal: 4, iou: 0.5, score: 0, padPerClass: false, clipBoxes: true, outputs: [] };
    expect(() => ef.loadFunction(combinedModel(c, false))).toThrow(/combinedNonMaxSuppression.*q = 1 or classes/s);
  });
});
