// Reruns one op-fuzzer case with full stack traces: `node -r ./scripts/fuzz/register-src.js test/fuzz/debug_case.ts <seed> <case>`.
import * as ef from 'eagerflow';
import { opCase } from './op_fuzz';

const c = opCase(Number(process.argv[2]), Number(process.argv[3]));
console.log(c.describe);
const make = (p: { shape: number[]; dtype: ef.DType; values: unknown[] }): ef.Tensor => {
  if (p.dtype !== 'complex64') return ef.constant(p.values as ef.TensorLike, p.dtype, p.shape);
  const n = p.values.length / 2;
  return ef.complex(ef.constant(p.values.slice(0, n) as number[], 'float32', p.shape), ef.constant(p.values.slice(n) as number[], 'float32', p.shape));
};
const xs = c.inputs.map(make);
console.log('inputs:', c.inputs.map((p) => `${p.dtype}[${p.shape}] ${JSON.stringify(p.values)}`).join('\n  '));
for (const mode of ['eager', 'traced', 'traced with unknown dims', 'compiled']) {
  try {
    const f = ef.trace(c.fn as (...a: ef.Tensor[]) => ef.Tensor, { jitCompile: mode === 'compiled' });
    ef.internal.fuseConfig.smallSegmentsOnHost = mode !== 'compiled';
    const r = mode === 'eager' ? c.fn(...xs) : mode === 'traced' || mode === 'compiled' ? f(...xs) : f.getConcreteFunction(...xs.map((x) => new ef.TensorSpec(x.shape.asList().map(() => null), x.dtype))).call(...xs);
    console.log(`${mode}: ${String(r)}`);
  } catch (e) {
    console.log(`${mode}: ${e instanceof Error ? e.stack : String(e)}`);
  }
}
