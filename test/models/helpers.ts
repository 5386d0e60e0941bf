// Shared helpers of the real-model tests: @vladmandic/human's files, seeded inputs, tfjs-converter runs, comparisons, finite differences.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { GraphModel, loadGraphModel } from '@tensorflow/tfjs-converter';
import { Rng } from '../harness/rng';

export const MODELS_DIR = path.join(__dirname, '..', '..', 'node_modules', '@vladmandic', 'human', 'models');
export const modelPath = (name: string, dir = MODELS_DIR): string => path.join(dir, `${name}.json`);

/** The same files as tfjs ModelArtifacts in memory (what tf.io.fromMemory takes). */
export function artifactsOf(name: string, dir = MODELS_DIR): tf.io.ModelArtifacts {
  const json = JSON.parse(fs.readFileSync(modelPath(name, dir), 'utf8')) as { weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[] } & Record<string, unknown>;
  const data = Buffer.concat(json.weightsManifest.flatMap((g) => g.paths.map((p) => fs.readFileSync(path.join(dir, p)))));
  const { weightsManifest, ...rest } = json;
  return { ...rest, weightSpecs: weightsManifest.flatMap((g) => g.weights), weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.length) } as tf.io.ModelArtifacts;
}

/** Seeded uniform [lo, hi) values (the harness's mulberry32). */
export function seeded(n: number, seed: number, lo = 0, hi = 1): Float32Array {
  const r = new Rng(seed);
  return Float32Array.from({ length: n }, () => lo + (hi - lo) * r.next());
}

/** A seeded input of the model's input shape (unknown dims = `batch`): floats in [0, 1), or integer pixels in [0, 256) (uint8 images). */
export function inputFor(g: ef.LoadedFunction, seed: number, batch = 1): ef.Tensor {
  const dims = g.inputSignature[0].shape.dims as (number | null)[];
  const shape = dims.map((d) => d ?? batch);
  const u = seeded(shape.reduce((p, d) => p * d, 1), seed);
  return g.inputSignature[0].dtype === 'int32' ? ef.constant(Int32Array.from(u, (v) => Math.floor(256 * v)), 'int32', shape) : ef.constant(u, 'float32', shape);
}

export const asList = <X>(y: X | X[]): X[] => (Array.isArray(y) ? y : [y]);

/** Runs the converter on the same input; executeAsync handles control flow. Returns arrays in outputNodes order. */
export async function converterRun(model: GraphModel, x: ef.Tensor): Promise<{ shape: number[]; data: Float32Array }[]> {
  const out = asList(await model.executeAsync(x.toTfjs()));
  const res = out.map((t) => ({ shape: t.shape, data: Float32Array.from(t.dataSync() as ArrayLike<number>) }));
  out.forEach((t) => t.dispose());
  return res;
}

export const loadConverter = (name: string, dir = MODELS_DIR): Promise<GraphModel> => loadGraphModel(tf.io.fromMemory(artifactsOf(name, dir)));

/** The largest |a - b| relative to the output's scale (max |b|, at least 1e-6). */
export function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0;
  let scale = 1e-6;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
    scale = Math.max(scale, Math.abs(b[i]));
  }
  return a.length === b.length ? diff / scale : Infinity;
}

/** sum(w · y) over every output in float64 (the scalar a directional derivative is taken of). */
function project(ys: ef.Tensor[], ws: Float32Array[]): number {
  let s = 0;
  ys.forEach((y, k) => {
    const d = y.dataSync() as Float32Array;
    for (let i = 0; i < d.length; i++) s += ws[k][i] * d[i];
  });
  return s;
}

/**
 * The input gradient of L = sum_k w_k · y_k along a random direction v, by the tape and by central
 * differences (float64 sums; step h relative to the input's scale).
 */
export function directionalCheck(g: ef.LoadedFunction, x: ef.Tensor, seed: number, h: number): { tape: number; fd: number } {
  const ys0 = asList(g(x) as ef.Tensor | ef.Tensor[]);
  const ws = ys0.map((y, k) => seeded(y.size as number, seed + 100 + k, -1, 1));
  ys0.forEach((y) => y.dispose());
  const v = seeded(x.size as number, seed + 7, -1, 1);
  const tape = new ef.GradientTape();
  const loss = tape.record(() => {
    tape.watch(x);
    const ys = asList(g(x) as ef.Tensor | ef.Tensor[]);
    return ys.map((y, k) => ef.reduceSum(ef.multiply(y, ef.constant(ws[k], 'float32', y.dims as number[])))).reduce((a, b) => ef.add(a, b));
  });
  const grad = tape.gradient(loss, x) as ef.Tensor;
  const gd = grad.dataSync() as Float32Array;
  let along = 0;
  for (let i = 0; i < v.length; i++) along += gd[i] * v[i];
  const xd = x.dataSync() as Float32Array;
  const shifted = (sign: number): number => {
    const xs = ef.constant(Float32Array.from(xd, (e, i) => e + sign * h * v[i]), 'float32', x.dims as number[]);
    const ys = asList(g(xs) as ef.Tensor | ef.Tensor[]);
    const s = project(ys, ws);
    ys.forEach((y) => y.dispose());
    xs.dispose();
    return s;
  };
  const fd = (shifted(1) - shifted(-1)) / (2 * h);
  [loss, grad].forEach((t) => t.dispose());
  return { tape: along, fd };
}

/** A hand-written converter graph model: nodes (attrs in GraphDef JSON) and float32 Consts by name. */
export function graphModel(nodes: Record<string, unknown>[], consts: Record<string, { shape: number[]; values: number[] }>, signature?: unknown): tf.io.ModelArtifacts {
  const specs = Object.entries(consts).map(([name, c]) => ({ name, shape: c.shape, dtype: 'float32' as const }));
  const data = Float32Array.from(Object.values(consts).flatMap((c) => c.values));
  const constNodes = Object.keys(consts).map((name) => ({ name, op: 'Const', attr: { dtype: { type: 'DT_FLOAT' }, value: { tensor: { dtype: 'DT_FLOAT' } } } }));
  return { format: 'graph-model', generatedBy: '2.x', convertedBy: 'TensorFlow.js Converter v4', modelTopology: { node: [...constNodes, ...nodes], versions: { producer: 1 } }, weightSpecs: specs, weightData: data.buffer, ...(signature ? { signature } : {}) } as tf.io.ModelArtifacts;
}

/** GraphDef attr helpers. */
export const A = {
  s: (v: string) => ({ s: Buffer.from(v).toString('base64') }),
  strs: (vs: string[]) => ({ list: { s: vs.map((v) => Buffer.from(v).toString('base64')) } }),
  ints: (vs: number[]) => ({ list: { i: vs.map(String) } }),
  i: (v: number) => ({ i: String(v) }),
  f: (v: number) => ({ f: v }),
  b: (v: boolean) => ({ b: v }),
  T: { type: 'DT_FLOAT' },
  shape: (dims: number[]) => ({ shape: { dim: dims.map((d) => ({ size: String(d) })) } }),
};

/** A GraphDef node of a hand-built model. */
export type Node = { name: string; op: string; input?: string[]; attr?: Record<string, unknown> };
/** A float32/int32 weight of a hand-built model (a Const node; `pivot` hangs it off a frame or cond by a control input). */
export type Const = { dtype: 'float32' | 'int32'; shape: number[]; values: number[]; pivot?: string };
export const F = { type: 'DT_FLOAT' };
export const I = { type: 'DT_INT32' };
export const node = (name: string, op: string, input: string[] = [], attr: Record<string, unknown> = {}): Node => ({ name, op, input, attr });

/** tfjs ModelArtifacts of a hand-built GraphDef with float32/int32 Consts (weights in the manifest). */
export function artifacts(nodes: Node[], consts: Record<string, Const>, generatedBy = '2.x'): tf.io.ModelArtifacts {
  const specs = Object.entries(consts).map(([name, c]) => ({ name, shape: c.shape, dtype: c.dtype }));
  const parts = Object.values(consts).map((c) => new Uint8Array((c.dtype === 'int32' ? Int32Array.from(c.values) : Float32Array.from(c.values)).buffer));
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((o, p) => (data.set(p, o), o + p.length), 0);
  const constNodes = Object.entries(consts).map(([name, c]) => {
    const dt = c.dtype === 'int32' ? 'DT_INT32' : 'DT_FLOAT';
    // Consts inside a frame or cond hang off its pivot by a control input, as TensorFlow writes them.
    return { name, op: 'Const', input: c.pivot ? [`^${c.pivot}`] : [], attr: { dtype: { type: dt }, value: { tensor: { dtype: dt } } } };
  });
  return { format: 'graph-model', generatedBy, convertedBy: 'hand-built', modelTopology: { node: [...constNodes, ...nodes], versions: { producer: 1 } }, weightSpecs: specs, weightData: data.buffer } as tf.io.ModelArtifacts;
}
