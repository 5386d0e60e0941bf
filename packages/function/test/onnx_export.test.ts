// ONNX export round trip: one op-table row per primitive with a lowering is traced, exported with
// ef.toOnnx, run by onnxruntime-node's public API, and must equal EagerFlow's eager result.
// EF_ONNX_ALL=1 exports every row.
import * as ef from 'eagerflow';
import { runOnnxModels } from './onnx_child';
import type { OnnxResult } from './onnx_child';
import { Rng, forwardCases, hashSeed, loweredRows, makeArgs, makeRefs, outputsOf, runsOn } from '../../../test/harness';
import type { ForwardCase } from '../../../test/harness';

const quiet = ef.retraceConfig.warn;
beforeAll(() => (ef.retraceConfig.warn = () => undefined));
afterAll(() => (ef.retraceConfig.warn = quiet));

const rows = loweredRows(forwardCases, process.env.EF_ONNX_ALL === '1' ? Infinity : 1, (c) => !c.eagerOnly && !c.variables && runsOn(c, 'cpu'));

interface Job {
  readonly c: ForwardCase;
  readonly model: string;
  readonly feeds: Record<string, { type: string; dims: number[]; data: (number | string)[] }>;
  readonly eager: { dims: number[]; data: number[] }[];
}
type Result = OnnxResult<number | string>;

/** Traces and exports a row; the eager outputs are what ONNX Runtime must reproduce. */
function exportRow(c: ForwardCase, refused: string[]): Job | null {
  const refs = makeRefs(c.inputs, new Rng(hashSeed(`${c.prim}/${c.name}`)));
  const { args, dispose } = makeArgs(c, refs);
  const f = ef.trace(c.op);
  const release = (ts: ef.Tensor[]): void => ts.forEach((t) => void (args.includes(t) || t.dispose()));
  try {
    // Graph outputs follow the flattened structure: named results in sorted key order (TF's nest).
    const raw = c.op(...args);
    const eagerOut = raw instanceof ef.Tensor || Array.isArray(raw) ? outputsOf(raw) : Object.keys(raw).sort().map((k) => raw[k]);
    const eager = eagerOut.map((t) => ({ dims: t.shape.asList() as number[], data: Array.from(t.dataSync(), Number) }));
    release(eagerOut);
    release(outputsOf(f(...args) as ReturnType<typeof c.op>));
    let model: string;
    try {
      model = Buffer.from(ef.toOnnx(f)).toString('base64');
    } catch (e) {
      // Only a clear UnimplementedError may refuse a row (an op without a lowering for its inputs).
      if (!(e instanceof ef.errors.UnimplementedError)) throw e;
      refused.push(`${c.name}: ${(e as Error).message.split(' (got ')[0]}`);
      return null;
    }
    const feeds: Job['feeds'] = {};
    // Non-finite values travel as strings (JSON has no NaN/Infinity).
    const wire = (v: number): number | string => (Number.isFinite(v) ? v : String(v));
    args.forEach((a, k) => (feeds[`in${k}`] = { type: a.dtype, dims: a.shape.asList() as number[], data: Array.from(a.dataSync() as ArrayLike<number>, (v) => wire(Number(v))) }));
    return { c, model, feeds, eager };
  } finally {
    f.dispose();
    dispose();
  }
}

function compare(job: Job, res: Result): string | null {
  if (res.error !== undefined) return `${job.c.name}: onnxruntime-node: ${res.error}`;
  const rtol = Math.max(job.c.rtol ?? 0, 1e-4);
  const atol = Math.max(job.c.atol ?? 0, 1e-5);
  for (let k = 0; k < job.eager.length; k++) {
    const got = res.outputs?.[`out${k}`];
    const want = job.eager[k];
    if (got === undefined) return `${job.c.name}: out${k} missing`;
    if (got.dims.join(',') !== want.dims.join(',')) return `${job.c.name}: out${k} shape [${got.dims}], eager [${want.dims}]`;
    for (let i = 0; i < want.data.length; i++) {
      const [g, w] = [Number(got.data[i]), want.data[i]];
      const same = Number.isNaN(w) ? Number.isNaN(g) : g === w || Math.abs(g - w) <= atol + rtol * Math.abs(w);
      if (!same) return `${job.c.name}: out${k}[${i}] = ${g}, eager ${w}`;
    }
  }
  return null;
}

test('exported ONNX models of the op-table rows run on onnxruntime-node with eager results', () => {
  expect(rows.length).toBeGreaterThan(60);
  const before = ef.memory().numTensors;
  const refused: string[] = [];
  const failures: string[] = [];
  const jobs = rows.map((c) => exportRow(c, refused)).filter((j): j is Job => j !== null);
  // The first row of each lowered primitive exports; the full table (EF_ONNX_ALL=1) also has rows on
  // dtypes/layouts without a lowering (strings, int32 matmul, NCHW), which toOnnx refuses by name.
  if (process.env.EF_ONNX_ALL === '1') console.log(`${jobs.length} rows exported, ${refused.length} refused:\n${refused.join('\n')}`);
  else expect(refused).toEqual([]);
  expect(ef.memory().numTensors).toBe(before);
  // One plain Node process runs every model through the public API (see run_onnx_models.cjs).
  const results: Result[] = runOnnxModels<number | string>(jobs);
  expect(results.length).toBe(jobs.length);
  jobs.forEach((j, k) => {
    const bad = compare(j, results[k]);
    if (bad !== null) failures.push(bad);
  });
  expect(failures).toEqual([]);
});
