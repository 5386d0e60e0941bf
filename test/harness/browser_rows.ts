// The case rows as the browser conformance page runs them (bundled by browser/rows.ts): eager, traced and gradient results as plain JSON.
import * as ef from 'eagerflow';
import { Backend, ForwardCase, Out, gradInputs, isTensor, leaves, loweredRows, makeArgs, makeRefs, refLeaves } from './case';
import { map } from './ref';
import { Rng, hashSeed } from './rng';
import { forwardCases } from './rows';

/** The rows every Node checker iterates (rows.ts; index.ts pulls in Jest, this file must run in a page). */
export const rows: ForwardCase[] = forwardCases;

/** How the page runs a row: eagerly, traced (graph on the backend), and the tape gradient of a seeded weighted sum. */
export type RowMode = 'eager' | 'traced' | 'gradient';
export const ROW_MODES: readonly RowMode[] = ['eager', 'traced', 'gradient'];

export interface PlainTensor {
  dtype: string;
  shape: number[];
  data: (number | boolean | string | { special: string })[];
}
export interface RowResult {
  value?: PlainTensor[];
  error?: string;
  leaked?: number;
}

function plain(t: ef.Tensor): PlainTensor {
  const data = Array.from(t.dataSync() as ArrayLike<number | boolean | string>, (x) => (typeof x === 'number' && !Number.isFinite(x) ? { special: String(x) } : x));
  return { dtype: t.dtype, shape: t.shape.asList() as number[], data };
}

/** Whether a row has a result in `mode` (traced skips eagerOnly rows; gradient needs a float input and output). */
export function rowRunsIn(c: ForwardCase, mode: RowMode): boolean {
  if (mode === 'traced') return !c.eagerOnly;
  if (mode === 'gradient') return wrtOf(c).length > 0;
  return true;
}

function seeded(c: ForwardCase): Rng {
  return new Rng(hashSeed(`${c.prim}/${c.name}`));
}

function wrtOf(c: ForwardCase): number[] {
  const rng = seeded(c);
  return gradInputs(c, c.ref(...makeRefs(c.inputs, rng)));
}

/** d/dx sum_k <og_k, out_k(x)> over the float outputs, og_k seeded from the row's name. */
function gradient(c: ForwardCase, args: ef.Tensor[]): ef.Tensor[] {
  const rng = seeded(c);
  const want = c.ref(...makeRefs(c.inputs, rng));
  const floats = refLeaves(want).refs.map((r) => r.dtype === 'float32');
  const ogs = refLeaves(want).refs.filter((r) => r.dtype === 'float32').map((r) => map(r, () => rng.uniform(-1, 1), 'float32'));
  const sources = gradInputs(c, want).map((i) => args[i]);
  const tape = new ef.GradientTape();
  const y = tape.record(() => {
    tape.watch(sources.filter((s) => !(s instanceof ef.Variable)));
    return leaves(c.op(...args), isTensor, refLeaves(want).keys).filter((_, k) => floats[k]);
  });
  const og = ogs.map((r) => ef.constant(r.data as number[], 'float32', r.shape));
  return tape.gradient(y, sources, { outputGradients: og, unconnectedGradients: 'zero' }) as ef.Tensor[];
}

function runOnce(c: ForwardCase, mode: RowMode, args: ef.Tensor[]): ef.Tensor[] {
  if (mode === 'gradient') return gradient(c, args);
  const keys = refLeaves(c.ref(...makeRefs(c.inputs, seeded(c)))).keys;
  if (mode === 'eager') return leaves(c.op(...args), isTensor, keys);
  const vars = args.some((a) => (a as unknown) instanceof ef.Variable);
  const f = ef.trace(vars ? () => c.op(...args) : c.op);
  try {
    return leaves((vars ? f() : f(...args)) as Out, isTensor, keys);
  } finally {
    f.dispose();
  }
}

/**
 * How results are read: `sync` (dataSync) or `async` (await data(): webgpu, whose synchronous read
 * goes through a canvas and returns zeros in headless SwiftShader).
 */
export type ReadMode = 'sync' | 'async';

async function plainAsync(t: ef.Tensor): Promise<PlainTensor> {
  const vals = (await t.data()) as ArrayLike<number | boolean | string>;
  const data = Array.from(vals, (x) => (typeof x === 'number' && !Number.isFinite(x) ? { special: String(x) } : x));
  return { dtype: t.dtype, shape: t.shape.asList() as number[], data };
}

/** runRow reading its results with `await data()`. */
async function runRowAsync(c: ForwardCase, mode: RowMode): Promise<RowResult> {
  const { args, dispose } = makeArgs(c, makeRefs(c.inputs, seeded(c)));
  const before = ef.memory().numTensors;
  let outs: ef.Tensor[] = [];
  try {
    outs = ef.tidy(() => runOnce(c, mode, args));
    const value = await Promise.all(outs.map(plainAsync));
    ef.dispose(outs);
    return { value, leaked: ef.memory().numTensors - before };
  } catch (e) {
    ef.dispose(outs);
    return { error: `${(e as Error).name}: ${(e as Error).message}`, leaked: ef.memory().numTensors - before };
  } finally {
    dispose();
  }
}

/** Runs one row in one mode on the current backend: plain results (or the error) and tensors leaked. */
export function runRow(c: ForwardCase, mode: RowMode): RowResult {
  const { args, dispose } = makeArgs(c, makeRefs(c.inputs, seeded(c)));
  const before = ef.memory().numTensors;
  try {
    const value = ef.tidy(() => runOnce(c, mode, args).map(plain));
    return { value, leaked: ef.memory().numTensors - before };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}`, leaked: ef.memory().numTensors - before };
  } finally {
    dispose();
  }
}

/**
 * Every row in every mode it has, on `backend`: results keyed by `<mode>: <row name>`. Rows restricted
 * to other backends run too (the test requires them to fail there: strict, like noConverter).
 */
export async function runRows(backend: Backend, opts: { modes?: readonly RowMode[]; read?: ReadMode } = {}): Promise<Record<string, RowResult>> {
  const modes = opts.modes ?? ROW_MODES;
  await ef.setBackend(backend);
  await ef.ready();
  if (ef.getBackend() !== backend) throw new Error(`rows: asked for backend '${backend}', got '${ef.getBackend()}'`);
  const warn = ef.retraceConfig.warn;
  const write = ef.internal.printOutput.write;
  ef.retraceConfig.warn = () => undefined;
  ef.internal.printOutput.write = () => undefined;
  const out: Record<string, RowResult> = {};
  try {
    for (const c of rows) {
      for (const mode of modes) {
        if (rowRunsIn(c, mode)) out[`${mode}: ${c.name}`] = opts.read === 'async' ? await runRowAsync(c, mode) : runRow(c, mode);
      }
    }
  } finally {
    ef.retraceConfig.warn = warn;
    ef.internal.printOutput.write = write;
  }
  return out;
}

/** A compiled row: its result with `jitCompile` (awaited with callAsync), the plain traced result, and ONNX Runtime sessions used. */
export interface CompiledRowResult {
  compiled: RowResult;
  traced: RowResult;
  segments: number;
}

/** Rows whose primitive lowers to ONNX: the first `perPrim` of each (traced rows only). */
export function compiledRows(perPrim: number): ForwardCase[] {
  return loweredRows(rows, perPrim, (c) => !c.eagerOnly && !c.variables);
}

/** One row traced with jitCompile and called with `await f.callAsync(...)` (onnxruntime-web in a page). */
async function runCompiledRow(c: ForwardCase): Promise<{ result: RowResult; segments: number }> {
  const { args, dispose } = makeArgs(c, makeRefs(c.inputs, seeded(c)));
  const keys = refLeaves(c.ref(...makeRefs(c.inputs, seeded(c)))).keys;
  const f = ef.trace(c.op, { jitCompile: true });
  let outs: ef.Tensor[] = [];
  let segments = 0;
  try {
    outs = leaves((await f.callAsync(...args)) as Out, isTensor, keys);
    segments = (f.getConcreteFunction(...args).experimentalGetCompilerIr().match(/onnx_segment/g) ?? []).length;
    const value = outs.map(plain);
    ef.dispose(outs);
    outs = [];
    return { result: { value }, segments };
  } catch (e) {
    ef.dispose(outs);
    return { result: { error: `${(e as Error).name}: ${(e as Error).message}` }, segments };
  } finally {
    f.dispose();
    dispose();
  }
}

/** Runs compiledRows(perPrim) on the cpu backend: compiled (onnxruntime-web) and traced, keyed by row name. */
export async function runCompiledRows(perPrim: number): Promise<Record<string, CompiledRowResult>> {
  await ef.setBackend('cpu');
  const warn = ef.retraceConfig.warn;
  ef.retraceConfig.warn = () => undefined;
  const out: Record<string, CompiledRowResult> = {};
  try {
    for (const c of compiledRows(perPrim)) {
      const before = ef.memory().numTensors;
      const { result, segments } = await runCompiledRow(c);
      result.leaked = ef.memory().numTensors - before;
      out[c.name] = { compiled: result, traced: runRow(c, 'traced'), segments };
    }
  } finally {
    ef.retraceConfig.warn = warn;
  }
  return out;
}
