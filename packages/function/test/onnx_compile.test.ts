// jitCompile and ONNX export against the op-table rows: every forward case whose primitive has an ONNX
// lowering runs compiled (ONNX Runtime) and must equal the float64 reference, with no leaks.
import * as ef from 'eagerflow';
import { forwardCases, forwardSuite, loweredRows } from '../../../test/harness';
import type { Mode } from '../../../test/harness/modes';
import { Msg } from '../src/onnx/proto';

const lowered = new Set(Object.values(ef.internal.PRIMITIVES as Record<string, { name: string; onnx?: unknown }>).filter((p) => p.onnx !== undefined).map((p) => p.name));
// One row per lowered primitive keeps the suite fast (each run builds a session); the whole
// table runs with EF_ONNX_ALL=1 (534 rows passed when this was written).
const rows = loweredRows(forwardCases, process.env.EF_ONNX_ALL === '1' ? Infinity : 1);

/** One compiled trace per row, shared by the harness's runs (one session per row); disposed at the end. */
const traces = new Map<unknown, ef.TracedFunction<Parameters<Mode['run']>[0]>>();
const compiled: Mode = {
  name: 'jitCompile',
  run(fn, inputs) {
    let f = traces.get(fn);
    if (f === undefined) {
      f = ef.trace(fn, { jitCompile: true });
      traces.set(fn, f);
    }
    const warn = ef.retraceConfig.warn;
    ef.retraceConfig.warn = () => undefined;
    try {
      return f(...inputs);
    } finally {
      ef.retraceConfig.warn = warn;
    }
  },
};
afterAll(() => traces.forEach((f) => f.dispose()));

forwardSuite(compiled, rows);

test('the op-table rows with lowerings are many, and their graphs really run on ONNX Runtime', () => {
  expect(lowered.size).toBeGreaterThan(60);
  const f = ef.trace((x: ef.Tensor, w: ef.Tensor) => ef.relu(ef.add(ef.matmul(x, w), 1)), { jitCompile: true });
  const x = ef.constant([[1, 2], [3, 4]]);
  const w = ef.constant([[1, -1], [0.5, -2]]);
  expect((f(x, w) as ef.Tensor).arraySync()).toEqual([[3, 0], [6, 0]]);
  expect(f.getConcreteFunction(x, w).experimentalGetCompilerIr()).toMatch(/onnx_segment\[matmul,add,relu\]/);
});

describe('protobuf encoder', () => {
  test('varints, negative int64, packed ints, floats and strings are wire-format bytes', () => {
    expect(Array.from(new Msg().int(1, 300).bytes())).toEqual([0x08, 0xac, 0x02]);
    expect(Array.from(new Msg().int(3, -1).bytes())).toEqual([0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(Array.from(new Msg().packedInts(8, [1, 2, 150]).bytes())).toEqual([0x42, 4, 1, 2, 0x96, 0x01]);
    expect(Array.from(new Msg().float(2, 1).bytes())).toEqual([0x15, 0, 0, 0x80, 0x3f]);
    expect(Array.from(new Msg().str(4, 'ab').bytes())).toEqual([0x22, 2, 97, 98]);
  });
});
