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
    expect(Array.from(new Msg().int(1, 2 ** 31).bytes())).toEqual([0x08, 0x80, 0x80, 0x80, 0x80, 0x08]);
  });

  test('large payloads kept by reference nest into the same bytes as small ones copied', () => {
    const big = Uint8Array.from({ length: 5000 }, (_, i) => i % 251);
    const inner = new Msg().int(2, 1).raw(9, big).int(3, 7);
    const outer = new Msg().str(1, 'g').msg(5, inner).msg(5, new Msg().int(1, 4)).int(6, 9);
    // The same message written by hand: tags, varint lengths, payloads.
    const varint = (v: number): number[] => (v < 0x80 ? [v] : [(v & 0x7f) | 0x80, ...varint(v >>> 7)]);
    const innerBytes = [0x10, 1, 0x4a, ...varint(5000), ...big, 0x18, 7];
    const want = [0x0a, 1, 103, 0x2a, ...varint(innerBytes.length), ...innerBytes, 0x2a, 2, 0x08, 4, 0x30, 9];
    expect(outer.size).toBe(want.length);
    expect(Array.from(outer.bytes())).toEqual(want);
  });
});

describe('a compiled train step', () => {
  /** An SGD step of a dense layer: forward, tape, and v.assignSub(lr * g) per variable. */
  function sgdStep(jitCompile: boolean, w: ef.Variable, b: ef.Variable) {
    return ef.trace((x: ef.Tensor, y: ef.Tensor) => {
      const tape = new ef.GradientTape();
      const loss = tape.record(() => ef.reduceMean(ef.square(ef.subtract(ef.add(ef.matmul(x, w), b), y))));
      const [gw, gb] = tape.gradient(loss, [w, b]) as ef.Tensor[];
      w.assignSub(ef.multiply(gw, 0.1));
      b.assignAdd(ef.multiply(gb, -0.1));
      return loss;
    }, { jitCompile });
  }

  test('folds assignSub/assignAdd into the session (the assignment only swaps in its output) and trains like the uncompiled step', () => {
    const x = ef.constant([[1, 2, 3], [4, 5, 6]]);
    const y = ef.constant([[1, 0], [0, 1]]);
    const init = [[0.1, -0.2], [0.3, 0.05], [-0.1, 0.2]];
    const [w1, b1, w2, b2] = [new ef.Variable(init), new ef.Variable([0.5, -0.5]), new ef.Variable(init), new ef.Variable([0.5, -0.5])];
    const compiled = sgdStep(true, w1, b1);
    const plain = sgdStep(false, w2, b2);
    const before = ef.memory().numTensors;
    for (let i = 0; i < 3; i++) {
      const [l1, l2] = [compiled(x, y) as ef.Tensor, plain(x, y) as ef.Tensor];
      const [a, b] = [l1.item() as number, l2.item() as number];
      expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-6 * Math.abs(b));
      ef.dispose([l1, l2]);
    }
    expect(ef.memory().numTensors).toBe(before);
    const near = (a: ef.Variable, b: ef.Variable): void => (a.value().arraySync() as number[]).flat().forEach((v, i) => expect(v).toBeCloseTo((b.value().arraySync() as number[]).flat()[i], 5));
    near(w1, w2);
    near(b1, b2);
    const ir = compiled.getConcreteFunction(x, y).experimentalGetCompilerIr();
    // One session holds the forward pass, the gradients and both updates; the assignments are plain swaps after it.
    expect(ir.match(/onnx_segment/g)).toHaveLength(1);
    expect(ir).toMatch(/onnx_segment\[[^\]]*matmul[^\]]*sub[^\]]*add\]/);
    expect(ir).not.toMatch(/assign_variable\[[^\]]*assign(Sub|Add)\]/);
    expect(ir.match(/assign_variable\[[^\]]*, assign\]/g)).toHaveLength(2);
    compiled.dispose();
    plain.dispose();
  });

  test('gradient matmuls of rank 2 lower to Gemm with transA / transB, not Transpose + MatMul', () => {
    const f = ef.trace((a: ef.Tensor, b: ef.Tensor) => [ef.matmul(a, b, true, false), ef.matmul(a, b, false, true)]);
    const a = ef.constant([[1, 2], [3, 4]]);
    const b = ef.constant([[5, 6], [7, 8]]);
    const model = ef.toOnnx(f.getConcreteFunction(a, b));
    const text = Buffer.from(model).toString('latin1');
    expect(text).toContain('Gemm');
    expect(text).not.toContain('Transpose');
    const g = ef.trace((p: ef.Tensor, q: ef.Tensor) => [ef.matmul(p, q, true, false), ef.matmul(p, q, false, true)], { jitCompile: 'strict' });
    const [ta, tb] = g(a, b) as ef.Tensor[];
    expect(ta.arraySync()).toEqual([[26, 30], [38, 44]]);
    expect(tb.arraySync()).toEqual([[17, 23], [39, 53]]);
    ef.dispose([ta, tb]);
    g.dispose();
  });
});

describe('weights baked into the session', () => {
  test('reads of variables the function never assigns are initializers; a variable assigned between calls rebuilds the session with its value, and one that keeps changing is fed from then on', () => {
    const w = new ef.Variable(ef.constant([[1, 2], [3, 4]]));
    const b = new ef.Variable(ef.constant([0.5, -0.5]));
    const f = ef.trace((x: ef.Tensor) => ef.tanh(ef.add(ef.matmul(x, w), b)), { jitCompile: 'strict' });
    const plain = ef.trace((x: ef.Tensor) => ef.tanh(ef.add(ef.matmul(x, w), b)));
    const x = ef.constant([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.25]]);
    const before = ef.memory().numTensors;
    const check = (): void => {
      const [got, want] = [f(x) as ef.Tensor, plain(x) as ef.Tensor];
      expect(Array.from(got.dataSync() as Float32Array)).toEqual(Array.from(want.dataSync() as Float32Array).map((v) => expect.closeTo(v, 6)));
      ef.dispose([got, want]);
    };
    check();
    check();
    // Assigned from outside between calls, five times: past the rebuild limit the segment feeds them; every call sees the new values.
    for (let k = 1; k <= 5; k++) {
      const [nw, nb] = [ef.constant([[1 + k, 2], [3, 4 - k]]), ef.constant([0.5 * k, -0.5])];
      w.assign(nw);
      b.assign(nb);
      ef.dispose([nw, nb]);
      check();
      check();
    }
    expect(ef.memory().numTensors).toBe(before);
    // A function that assigns a variable bakes none (its reads change within the program).
    const step = ef.trace((v: ef.Tensor) => {
      b.assignAdd(ef.reduceSum(v, 0));
      return ef.matmul(v, w);
    }, { jitCompile: 'strict' });
    const y1 = step(x) as ef.Tensor;
    const bAfter = b.value().dataSync();
    expect(Array.from(bAfter as Float32Array)).toEqual([2.5 - 0.1, -0.5 + 0.45].map((v) => expect.closeTo(v, 6)));
    ef.dispose([y1, x, w, b]);
    [f, plain, step].forEach((g) => g.dispose());
  });
});

describe('compiled calls: outputs own their data (inputs are fed to ONNX Runtime without a copy)', () => {
  test('repeated calls give fresh outputs that survive their inputs being disposed; nothing leaks', () => {
    const f = ef.trace((a: ef.Tensor, b: ef.Tensor) => ef.tanh(ef.add(ef.matmul(a, b), 1)), { inputSignature: [new ef.TensorSpec([4, 4]), new ef.TensorSpec([4, 4])], jitCompile: true });
    const before = ef.memory().numTensors;
    const outs: ef.Tensor[] = [];
    const wants: number[][][] = [];
    for (let i = 0; i < 4; i++) {
      const a = ef.random.normal([4, 4], { seed: 10 + i });
      const b = ef.random.normal([4, 4], { seed: 20 + i });
      wants.push(ef.tidy(() => ef.tanh(ef.add(ef.matmul(a, b), 1)).arraySync() as number[][]));
      outs.push(f(a, b) as ef.Tensor);
      ef.dispose([a, b]);
    }
    // Each call's output is its own buffer, not an input's and not another call's.
    expect(new Set(outs.map((o) => o.dataSync())).size).toBe(4);
    outs.forEach((o, i) => {
      const got = o.arraySync() as number[][];
      got.flat().forEach((v, k) => expect(v).toBeCloseTo(wants[i].flat()[k], 5));
    });
    ef.dispose(outs);
    expect(ef.memory().numTensors).toBe(before);
    f.dispose();
  });
});
