// Runs exported ONNX models through onnxruntime-node's public API in a plain Node process (run_onnx_models.cjs:
// Jest's realm rejects the typed arrays the native binding hands back). Shared by the export and jitCompile tests.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

export interface OnnxFeed {
  type: string;
  dims: number[];
  data: (number | string)[];
}

/** One model's outputs by name, or the error ONNX Runtime raised (`D`: how the caller reads the data). */
export interface OnnxResult<D = number> {
  outputs?: Record<string, { dims: number[]; data: D[] }>;
  error?: string;
}

/** Each job's model (base64) run on its feeds; the child must write nothing to stderr. */
export function runOnnxModels<D = number>(jobs: readonly { model: string; feeds: Record<string, OnnxFeed> }[]): OnnxResult<D>[] {
  const child = spawnSync(process.execPath, [path.join(__dirname, 'run_onnx_models.cjs')], {
    input: JSON.stringify(jobs.map((j) => ({ model: j.model, feeds: j.feeds }))),
    maxBuffer: 1 << 28,
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as OnnxResult<D>[];
}
