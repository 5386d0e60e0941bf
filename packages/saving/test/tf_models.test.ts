// Real model kinds exported by TensorFlow 2.21 + Keras 3 as SavedModels with unknown batch (and spatial/time) dims
// (scripts/tf-golden/tf_models.py): Keras applications (MobileNetV2, MobileNetV3Small, an EfficientNet), ResNet/
// DenseNet/Inception-style nets, a ViT patch embedding, a detection head with box decoding and NMS, a masked
// transformer block, audio front ends (STFT -> mel -> MFCC; frame/overlap_and_add, inverse STFT), while/cond with
// TensorLists, GRU/LSTM (sequences, bidirectional, masked), a 1-D conv net over unknown time, an embedding model and
// a UNet with computed transposed-conv shapes and a resize inside a cond. Each loads with ef.savedModel.load, runs at
// two batch/spatial sizes, eagerly and inside ef.trace, and matches TF's outputs and TF's gradients of
// sum(out * w) with respect to each float input.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ef from 'eagerflow';

type T = ef.Tensor;
const DIR = path.join(__dirname, 'fixtures', 'tf_models');

interface Ref { dtype: 'float32' | 'int32'; shape: number[]; offset: number }
interface Run { feeds: Record<string, Ref>; outputs: Record<string, Ref>; weights: Record<string, Ref>; grads: Record<string, Ref | null> }
interface Golden { inputs: Record<string, { dtype: string; shape: number[] }>; outputs: string[]; runs: Run[] }

const MODELS = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();

/** Outputs to 1e-4 and gradients to 1e-5 of the largest magnitude TF reports (the bounds). */
const OUT_TOL = 1e-4;
const GRAD_TOL = 1e-5;

function golden(name: string): { g: Golden; bin: Buffer } {
  return { g: JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Golden, bin: fs.readFileSync(path.join(DIR, `${name}.bin`)) };
}

function values(bin: Buffer, r: Ref): Float32Array | Int32Array {
  const n = r.shape.reduce((a, b) => a * b, 1);
  const bytes = bin.buffer.slice(bin.byteOffset + r.offset, bin.byteOffset + r.offset + 4 * n);
  return r.dtype === 'int32' ? new Int32Array(bytes) : new Float32Array(bytes);
}

const tensor = (bin: Buffer, r: Ref): T => ef.constant(values(bin, r), r.dtype, r.shape);

function close(got: T | null | undefined, bin: Buffer, want: Ref, what: string, tol: number): void {
  if (!got) throw new Error(`${what}: missing`);
  expect([what, got.dims]).toEqual([what, want.shape]);
  const g = got.dataSync() as Float32Array;
  const w = values(bin, want);
  let scale = 0;
  for (const v of w) scale = Math.max(scale, Math.abs(v));
  let err = 0;
  let at = -1;
  for (let i = 0; i < w.length; i++) {
    const e = Math.abs(g[i] - w[i]);
    if (!(e <= err)) [err, at] = [e, i];
  }
  // Relative to the largest magnitude TF reports (an all-zero tensor: absolute).
  if (!(err <= tol * (scale > 0 ? scale : 1))) throw new Error(`${what}: max error ${err} at ${at} (got ${g[at]}, want ${w[at]}), scale ${scale}, bound ${tol} * scale`);
}

type Call = (feeds: Record<string, T>) => Record<string, T>;

/** One run under a tape: TF's loss sum(out * w) over the float outputs, gradients to the float inputs. */
function check(name: string, call: Call, bin: Buffer, run: Run, what: string): void {
  const feeds = Object.fromEntries(Object.entries(run.feeds).map(([k, r]) => [k, tensor(bin, r)]));
  const tape = new ef.GradientTape({ persistent: true });
  let outs: Record<string, T> = {};
  const loss = tape.record(() => {
    for (const k of Object.keys(run.grads)) tape.watch(feeds[k]);
    outs = call(feeds);
    return Object.entries(run.weights).map(([k, w]) => ef.reduceSum(ef.multiply(outs[k], tensor(bin, w)))).reduce((a, b) => ef.add(a, b));
  });
  for (const [k, want] of Object.entries(run.outputs)) close(outs[k], bin, want, `${name} ${what} output ${k}`, OUT_TOL);
  for (const [k, want] of Object.entries(run.grads)) {
    const g = tape.gradient(loss, feeds[k]) as T | null;
    if (want === null) expect([k, g === null || ef.reduceMax(ef.abs(g)).dataSync()[0] === 0]).toEqual([k, true]);
    else close(g, bin, want, `${name} ${what} gradient of ${k}`, GRAD_TOL);
  }
}

const loaded = new Map<string, Promise<ef.savedModel.LoadedSavedModel>>();
const load = (name: string) => {
  if (!loaded.has(name)) loaded.set(name, ef.savedModel.load(path.join(DIR, name)));
  return loaded.get(name) as Promise<ef.savedModel.LoadedSavedModel>;
};

describe('SavedModels TF 2.21 exported from real model kinds: ef == TF (outputs and input gradients)', () => {
  test('the corpus is there: every model kind the issue names', () => {
    expect(MODELS.length).toBeGreaterThanOrEqual(20);
  });

  test.each(MODELS)('%s: loaded, called eagerly at two sizes == TF', async (name) => {
    const { g, bin } = golden(name);
    const m = await load(name);
    const sig = m.signatures.serving_default;
    expect(Object.keys(g.inputs).every((k) => sig.inputNames.includes(k))).toBe(true);
    for (const [i, run] of g.runs.entries()) ef.tidy(() => check(name, (feeds) => sig(feeds), bin, run, `run ${i}`));
  });

  test.each(MODELS)('%s: inside ef.trace (unknown dims) at two sizes == TF', async (name) => {
    const { g, bin } = golden(name);
    const sig = (await load(name)).signatures.serving_default;
    const keys = Object.keys(g.inputs).sort();
    const outKeys = g.outputs;
    // Traced once with the signature's unknown dims (null), then called at both sizes.
    const spec = keys.map((k) => new ef.TensorSpec(g.inputs[k].shape.map((d) => (d < 0 ? null : d)), g.inputs[k].dtype as ef.DType));
    const traced = ef.trace((...xs: T[]) => {
      const o = sig(Object.fromEntries(keys.map((k, i) => [k, xs[i]])));
      return outKeys.map((k) => o[k]);
    }, { inputSignature: spec });
    for (const [i, run] of g.runs.entries()) {
      ef.tidy(() => check(name, (feeds) => {
        const ys = traced(...keys.map((k) => feeds[k])) as T[];
        return Object.fromEntries(outKeys.map((k, j) => [k, ys[j]]));
      }, bin, run, `traced run ${i}`));
    }
  });
});
