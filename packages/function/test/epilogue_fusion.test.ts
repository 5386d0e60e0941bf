// The epilogue pass: conv2d / depthwiseConv2d / matmul + bias + activation onto tfjs's fused kernels. Listings before
// and after, results bit-equal to the unfused ops on cpu, gradients (first and second order) through fused nodes,
// memory over 1,000 calls, the cases that must not fuse, a backend without the kernel, and exporters seeing unfused ops.
import * as ef from 'eagerflow';
import * as tf from '@tensorflow/tfjs-core';
import { secondGradient } from '../../../test/harness/tapes';

type T = ef.Tensor;
const I = ef.internal;

/** Calls of tfjs's cpu _FusedMatMul kernel, wrapped before any op runs (this file's module registry is its own). */
const fusedMatMulCalls = { n: 0 };
const cpuFusedMatMul = tf.getKernel('_FusedMatMul', 'cpu') as tf.KernelConfig;
tf.unregisterKernel('_FusedMatMul', 'cpu');
tf.registerKernel({ ...cpuFusedMatMul, kernelFunc: (args) => (fusedMatMulCalls.n++, cpuFusedMatMul.kernelFunc(args)) });
const graphOf = (f: ef.TracedFunction, ...args: unknown[]): ef.Graph => f.getConcreteFunction(...args).graph;
const prims = (g: ef.Graph): string[] => g.nodes.map((n) => n.prim.name);

/** Deterministic values in [-0.5, 0.5) (a linear congruential sequence). */
function data(shape: number[], seed: number): T {
  let s = seed;
  const n = shape.reduce((a, b) => a * b, 1);
  const v = Array.from({ length: n }, () => ((s = (s * 1103515245 + 12345) % 2147483648), s / 2147483648 - 0.5));
  return ef.reshape(ef.constant(v), shape);
}

const PRELU = I.allPrimitives().find((p) => p.name === 'prelu') as ef.internal.Primitive;
const prelu = (x: T, alpha: T): T => I.bind(PRELU, [x, alpha], {})[0];
const bits = (t: T): number[] => Array.from(t.dataSync() as ArrayLike<number>);

const W = data([3, 3, 2, 4], 1);
const DW = data([3, 3, 2, 2], 2);
const K = data([4, 3], 4);
const B4 = ef.constant([0.1, -0.2, 0.3, -0.4]);
const B3 = ef.constant([0.25, -0.5, 0.125]);
const ALPHA4 = ef.constant([0.1, 0.2, 0.3, 0.4]);
const ALPHA3 = ef.constant([0.1, 0.2, 0.3]);

/** Each activation the fused kernels take (TF's fused_ops name -> the unfused op). */
const ACTS: Record<string, (z: T, alpha: T) => T> = {
  none: (z) => z,
  Relu: (z) => ef.nn.relu(z),
  Relu6: (z) => ef.nn.relu6(z),
  Elu: (z) => ef.nn.elu(z),
  LeakyRelu: (z) => ef.nn.leakyRelu(z, 0.15),
  Sigmoid: (z) => ef.nn.sigmoid(z),
  Prelu: (z, a) => prelu(z, a),
};

/** The blocks under test on weights [filter, bias, alpha]: the head op, its bias as biasAdd or as a broadcast add (either order). */
type Block = (x: T, w: T[], act: (z: T, a: T) => T) => T;
const CONV = [W, B4, ALPHA4];
const HEADS: Record<string, { x: number[]; fused: string; weights: T[]; block: Block }> = {
  conv2d: { x: [2, 6, 6, 2], fused: 'fused_conv2d', weights: CONV, block: (x, [f, b, a], act) => act(ef.nn.biasAdd(ef.nn.conv2d(x, f, 1, 'SAME'), b), a) },
  'conv2d strided VALID + add': { x: [1, 7, 7, 2], fused: 'fused_conv2d', weights: CONV, block: (x, [f, b, a], act) => act(ef.add(ef.nn.conv2d(x, f, 2, 'VALID'), b), a) },
  'conv2d dilated + add(bias, conv)': { x: [1, 7, 7, 2], fused: 'fused_conv2d', weights: CONV, block: (x, [f, b, a], act) => act(ef.add(b, ef.nn.conv2d(x, f, 1, 'SAME', { dilations: 2 })), a) },
  depthwiseConv2d: { x: [1, 5, 5, 2], fused: 'fused_conv2d', weights: [DW, B4, ALPHA4], block: (x, [f, b, a], act) => act(ef.nn.biasAdd(ef.nn.depthwiseConv2d(x, f, [1, 1], 'SAME'), b), a) },
  matmul: { x: [5, 4], fused: 'fused_matmul', weights: [K, B3, ALPHA3], block: (x, [k, b, a], act) => act(ef.add(ef.matmul(x, k), b), a) },
  'matmul transposed': { x: [4, 5], fused: 'fused_matmul', weights: [K, B3, ALPHA3], block: (x, [k, b, a], act) => act(ef.nn.biasAdd(ef.matmul(x, k, true, false), b), a) },
  'matmul transposeB': { x: [5, 4], fused: 'fused_matmul', weights: [ef.transpose(K), B3, ALPHA3], block: (x, [k, b, a], act) => act(ef.nn.biasAdd(ef.matmul(x, k, false, true), b), a) },
};

describe('listings before and after the pass', () => {
  test('conv2d + biasAdd + relu becomes one fused_conv2d; the pass inverts for exporters', () => {
    const f = ef.trace((x: T) => ef.nn.relu(ef.nn.biasAdd(ef.nn.conv2d(x, W, 1, 'SAME'), B4)), { name: 'convBlock' });
    const after = graphOf(f, new ef.TensorSpec([null, 5, 5, 2]));
    const before = I.unfuseEpilogues(after);
    expect(before.toString()).toMatchInlineSnapshot(`
"graph convBlock(x: f32[?,5,5,2]) {
  c0: f32[3,3,2,4] = const
  c1: f32[4] = const [ 0.1, -0.2, 0.3, -0.4]
  a: f32[?,5,5,4] = conv2d[strides=[1,1], padding="SAME", dataFormat="NHWC", dilations=[1,1]] x c0
  b: f32[?,5,5,4] = bias_add[dataFormat="NHWC"] a c1
  c: f32[?,5,5,4] = relu b
  return c
}"
`);
    expect(after.toString()).toMatchInlineSnapshot(`
"graph convBlock(x: f32[?,5,5,2]) {
  c0: f32[3,3,2,4] = const
  c1: f32[4] = const [ 0.1, -0.2, 0.3, -0.4]
  a: f32[?,5,5,4] = fused_conv2d[conv={"strides":[1,1],"padding":"SAME","dataFormat":"NHWC","dilations":[1,1]}, depthwise=false, activation="Relu", leakyreluAlpha=0.2] x c0 c1
  return a
}"
`);
    expect(I.verify(I.fuseEpilogues(before)).toString()).toBe(after.toString());
  });

  test('matmul + add of a [N] bias + leakyRelu becomes one fused_matmul (unknown batch)', () => {
    const f = ef.trace((x: T) => ef.nn.leakyRelu(ef.add(ef.matmul(x, K), B3), 0.1), { name: 'dense' });
    const after = graphOf(f, new ef.TensorSpec([null, 4]));
    expect(I.unfuseEpilogues(after).toString()).toMatchInlineSnapshot(`
"graph dense(x: f32[?,4]) {
  c0: f32[4,3] = const
  c1: f32[3] = const [ 0.25 , -0.5 , 0.125]
  a: f32[?,3] = matmul[transposeA=false, transposeB=false] x c0
  b: f32[?,3] = add a c1
  c: f32[?,3] = leaky_relu[alpha=0.1] b
  return c
}"
`);
    expect(after.toString()).toMatchInlineSnapshot(`
"graph dense(x: f32[?,4]) {
  c0: f32[4,3] = const
  c1: f32[3] = const [ 0.25 , -0.5 , 0.125]
  a: f32[?,3] = fused_matmul[transposeA=false, transposeB=false, activation="LeakyRelu", leakyreluAlpha=0.1] x c0 c1
  return a
}"
`);
  });
});

describe('results equal the unfused ops bit for bit on cpu', () => {
  for (const [head, spec] of Object.entries(HEADS)) {
    test(head, () => {
      const x = data(spec.x, 7);
      for (const [name, act] of Object.entries(ACTS)) {
        const f = ef.trace((v: T, ...w: T[]) => spec.block(v, w, act));
        expect(prims(graphOf(f, x, ...spec.weights))).toEqual([spec.fused]);
        const fused = f(x, ...spec.weights) as T;
        const eager = spec.block(x, spec.weights, act);
        expect([name, bits(fused)]).toEqual([name, bits(eager)]);
        ef.dispose([fused, eager]);
      }
    });
  }
});

describe('a fused matmul on cpu runs the product in the host loop, bit for bit what tfjs\'s _FusedMatMul kernel gives', () => {
  // [64,256] x [256,128]: past the JavaScript loop's work bound, so the WebAssembly loop runs the product; the bias and
  // activation kernels are the ones tfjs's cpu _FusedMatMul runs after its BatchMatMul.
  const a = data([64, 256], 21);
  const w = data([256, 128], 22);
  const bias = data([128], 23);
  const alpha = data([128], 24);
  const tfjsFused = (activation: string, wt: T, transposeB: boolean): number[] =>
    tf.tidy(() => {
      const [ta, tw, tb, tal] = [a, wt, bias, alpha].map((t) => tf.tensor(t.dataSync() as Float32Array, t.shape.asList() as number[]));
      const y = tf.engine().runKernel('_FusedMatMul', { a: tf.reshape(ta, [1, 64, 256]), b: tf.reshape(tw, [1, ...tw.shape]), bias: tb, ...(activation === 'prelu' ? { preluActivationWeights: tal } : {}) }, { transposeA: false, transposeB, activation, leakyreluAlpha: 0.15 }) as tf.Tensor;
      return Array.from(y.dataSync());
    });
  const TFJS: Record<string, string> = { none: 'linear', Relu: 'relu', Relu6: 'relu6', Elu: 'elu', LeakyRelu: 'leakyrelu', Sigmoid: 'sigmoid', Prelu: 'prelu' };
  for (const transposeB of [false, true]) {
    test(`every activation, transposeB ${transposeB}`, () => {
      const wt = transposeB ? ef.transpose(w) : w;
      for (const [name, act] of Object.entries(ACTS)) {
        const f = ef.trace((x: T, k: T, b: T, al: T) => act(ef.add(ef.matmul(x, k, false, transposeB), b), al));
        expect(prims(graphOf(f, a, wt, bias, alpha))).toEqual(['fused_matmul']);
        const before = ef.memory().numTensors;
        const calls = fusedMatMulCalls.n;
        const y = f(a, wt, bias, alpha) as T;
        expect(fusedMatMulCalls.n).toBe(calls);
        expect([name, bits(y)]).toEqual([name, tfjsFused(TFJS[name], wt, transposeB)]);
        y.dispose();
        expect(ef.memory().numTensors).toBe(before);
      }
      if (transposeB) wt.dispose();
    });
  }
});

/** sum(w · out) with a fixed w, so every output counts differently. */
const weightedSum = (out: T): T => ef.reduceSum(ef.multiply(out, data(out.shape.dims as number[], 11)));

/** Gradients of sum(w · block(x)) wrt x and every captured weight (a fixed w so every output counts differently). */
function grads(run: (x: T) => T, x: T, weights: T[]): number[][] {
  const tape = new ef.GradientTape();
  const y = tape.record(() => {
    tape.watch(x);
    weights.forEach((w) => tape.watch(w));
    return weightedSum(run(x));
  });
  return (tape.gradient(y, [x, ...weights], { unconnectedGradients: 'zero' }) as T[]).map(bits);
}

/** d/dx of sum(d/dx sum(w · block(x))): second order through nested tapes. */
function second(run: (x: T) => T, x: T): number[] {
  const zero = { unconnectedGradients: 'zero' } as const;
  return bits(secondGradient(x, (v) => weightedSum(run(v)), { then: (dx) => ef.reduceSum(ef.square(dx)), inner: zero, outer: zero }) as T);
}

const close = (a: number[], b: number[], tol: number): void => {
  expect(a.length).toBe(b.length);
  const worst = Math.max(0, ...a.map((v, i) => Math.abs(v - b[i]) / (tol + Math.abs(b[i]))));
  expect(worst).toBeLessThan(1);
};

describe('gradients flow through the unfused rules', () => {
  for (const [head, spec] of Object.entries(HEADS)) {
    test(`${head}: a tape around the traced call equals the unfused eager gradients, first order bit for bit and second order`, () => {
      const x = data(spec.x, 9);
      for (const [name, act] of Object.entries(ACTS)) {
        const f = ef.trace((v: T, ...w: T[]) => spec.block(v, w, act));
        expect(prims(graphOf(f, x, ...spec.weights))).toEqual([spec.fused]);
        const ws = spec.weights;
        expect([name, grads((v) => f(v, ...ws) as T, x, ws)]).toEqual([name, grads((v) => spec.block(v, ws, act), x, ws)]);
        // Second order: the fused vjp recomputes the pre-activation, so sums may round differently.
        close(second((v) => f(v, ...ws) as T, x), second((v) => spec.block(v, ws, act), x), 1e-5);
      }
    });
  }

  test('against central finite differences in float64 (conv2d + bias + elu)', () => {
    const x = data([1, 4, 4, 2], 5);
    const f = ef.trace((v: T) => ef.reduceSum(ef.square(ef.nn.elu(ef.nn.biasAdd(ef.nn.conv2d(v, W, 1, 'SAME'), B4)))));
    const tape = new ef.GradientTape();
    const y = tape.record(() => (tape.watch(x), f(x) as T));
    const g = bits(tape.gradient(y, x) as T);
    // A float64 reference of the same block, differentiated numerically at a few positions.
    const [xs, ws, bs] = [bits(x), bits(W), bits(B4)];
    const loss = (v: number[]): number => {
      let s = 0;
      for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let o = 0; o < 4; o++) {
        let z = bs[o];
        for (let di = 0; di < 3; di++) for (let dj = 0; dj < 3; dj++) for (let c = 0; c < 2; c++) {
          const [r, q] = [i + di - 1, j + dj - 1];
          if (r >= 0 && r < 4 && q >= 0 && q < 4) z += v[(r * 4 + q) * 2 + c] * ws[((di * 3 + dj) * 2 + c) * 4 + o];
        }
        const e = z >= 0 ? z : Math.exp(z) - 1;
        s += e * e;
      }
      return s;
    };
    for (const k of [0, 5, 13, 22, 31]) {
      const h = 1e-6;
      const [up, dn] = [xs.slice(), xs.slice()];
      up[k] += h;
      dn[k] -= h;
      expect(g[k]).toBeCloseTo((loss(up) - loss(dn)) / (2 * h), 4);
    }
  });

  test('a tape inside the traced body gives the unfused gradient', () => {
    const x = data([1, 5, 5, 2], 3);
    const block = (v: T): T => ef.nn.sigmoid(ef.nn.biasAdd(ef.nn.conv2d(v, W, 1, 'SAME'), B4));
    const body = (v: T): T => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => (tape.watch(v), ef.reduceSum(ef.square(block(v)))));
      return tape.gradient(y, v) as T;
    };
    const f = ef.trace(body);
    close(bits(f(x) as T), bits(body(x)), 1e-6);
    // A traced call nested in a traced body inlines the fused node; its vjp still runs the unfused rules.
    const inner = ef.trace(block);
    const outer = ef.trace((v: T) => {
      const tape = new ef.GradientTape();
      const y = tape.record(() => (tape.watch(v), ef.reduceSum(ef.square(inner(v) as T))));
      return tape.gradient(y, v) as T;
    });
    close(bits(outer(x) as T), bits(body(x)), 1e-6);
    expect(prims(graphOf(outer, x))).toContain('fused_conv2d');
  });
});

describe('what must not fuse', () => {
  const x = data([1, 5, 5, 2], 3);
  const cases: Record<string, [(v: T) => T | T[], string[]]> = {
    'the biased value is used twice': [(v) => { const z = ef.nn.biasAdd(ef.nn.conv2d(v, W, 1, 'SAME'), B4); return ef.add(ef.nn.relu(z), z); }, ['fused_conv2d', 'relu', 'add']],
    'the conv output is used twice': [(v) => { const c = ef.nn.conv2d(v, W, 1, 'SAME'); return ef.multiply(ef.nn.biasAdd(c, B4), c); }, ['conv2d', 'bias_add', 'mul']],
    'the conv output is returned': [(v) => { const c = ef.nn.conv2d(v, W, 1, 'SAME'); return [c, ef.nn.relu(ef.nn.biasAdd(c, B4))]; }, ['conv2d', 'bias_add', 'relu']],
    'the biased value is returned too': [(v) => { const z = ef.nn.biasAdd(ef.nn.conv2d(v, W, 1, 'SAME'), B4); return [z, ef.nn.relu(z)]; }, ['fused_conv2d', 'relu']],
    'a bias that broadcasts on more than the last axis': [(v) => ef.add(ef.nn.conv2d(v, W, 1, 'SAME'), ef.ones([5, 1, 4])), ['conv2d', 'add']],
    'a one-element bias broadcast over 4 channels': [(v) => ef.add(ef.nn.conv2d(v, W, 1, 'SAME'), ef.ones([1])), ['conv2d', 'add']],
    'NCHW biasAdd': [(v) => ef.nn.biasAdd(ef.nn.conv2d(v, W, 1, 'SAME'), ef.ones([5]), { dataFormat: 'NCHW' }), ['conv2d', 'bias_add']],
    'an activation the kernels lack (tanh)': [(v) => ef.tanh(ef.nn.biasAdd(ef.nn.conv2d(v, W, 1, 'SAME'), B4)), ['fused_conv2d', 'tanh']],
    'a batched (rank 3) matmul': [(v) => ef.add(ef.matmul(ef.reshape(v, [1, 25, 2]), ef.ones([1, 2, 3])), B3), ['reshape', 'matmul', 'add']],
  };
  for (const [name, [fn, want]] of Object.entries(cases)) {
    test(name, () => {
      const f = ef.trace(fn);
      expect(prims(graphOf(f, x))).toEqual(want);
      const got = ([] as T[]).concat(f(x) as T | T[]);
      const eager = ([] as T[]).concat(fn(x));
      expect(got.map(bits)).toEqual(eager.map(bits));
    });
  }

  test('a backend without the fused kernel keeps the unfused ops', () => {
    const tfjs = I.backend.tfjs;
    const config = tfjs.getKernel('_FusedMatMul', 'cpu') as ReturnType<typeof tfjs.getKernel> & object;
    tfjs.unregisterKernel('_FusedMatMul', 'cpu');
    try {
      const f = ef.trace((v: T) => ef.nn.relu(ef.add(ef.matmul(v, K), B3)));
      expect(prims(graphOf(f, data([2, 4], 1)))).toEqual(['matmul', 'add', 'relu']);
    } finally {
      tfjs.registerKernel(config);
    }
    const g = ef.trace((v: T) => ef.nn.relu(ef.add(ef.matmul(v, K), B3)));
    expect(prims(graphOf(g, data([2, 4], 1)))).toEqual(['fused_matmul']);
  });
});

describe('memory and exporters', () => {
  test('no tensor growth over 1,000 calls (and under a tape)', () => {
    const f = ef.trace((v: T, w: T) => ef.nn.relu6(ef.nn.biasAdd(ef.nn.conv2d(v, w, 1, 'SAME'), B4)));
    const x = data([1, 4, 4, 2], 3);
    ef.dispose(f(x, W) as T);
    expect(prims(graphOf(f, x, W))).toEqual(['fused_conv2d']);
    const before = ef.memory().numTensors;
    for (let i = 0; i < 1000; i++) ef.dispose(f(x, W) as T);
    for (let i = 0; i < 20; i++) ef.tidy(() => void grads((v) => f(v, W) as T, x, [W]));
    expect(ef.memory().numTensors).toBe(before);
  });

  test('GraphDef and ONNX export write the unfused ops; jitCompile runs them', () => {
    const f = ef.trace((v: T) => ef.nn.sigmoid(ef.add(ef.matmul(v, K), B3)), { inputSignature: [new ef.TensorSpec([null, 4])] });
    const cf = f.getConcreteFunction(new ef.TensorSpec([null, 4]));
    expect(prims(cf.graph)).toEqual(['fused_matmul']);
    const ops = cf.toGraphDef().node.map((n) => n.op);
    expect(ops).toEqual(expect.arrayContaining(['MatMul', 'AddV2', 'Sigmoid']));
    expect(ops).not.toContain('_FusedMatMul');
    expect(ef.toOnnx(f).length).toBeGreaterThan(0);
    const x = data([3, 4], 1);
    const j = ef.trace((v: T) => ef.nn.sigmoid(ef.add(ef.matmul(v, K), B3)), { jitCompile: 'strict' });
    close(bits(j(x) as T), bits(f(x) as T), 1e-6);
  });

  test('a fused node inlined into another trace (and a cond branch) unfuses onto that graph\'s own values', () => {
    const inner = ef.trace((v: T) => ef.nn.relu(ef.nn.biasAdd(ef.nn.conv2d(v, W, 1, 'SAME'), B4)));
    const outer = ef.trace((v: T) => {
      const y = ef.multiply(ef.add(v, 1), 2);
      return ef.cond(ef.greater(ef.reduceSum(v), 0), () => inner(y) as T, () => ef.nn.elu(ef.nn.biasAdd(ef.nn.conv2d(y, W, 1, 'SAME'), B4)));
    });
    const x = data([1, 4, 4, 2], 3);
    const g = graphOf(outer, x);
    const branches = g.nodes.flatMap((n) => Object.values(n.params).filter((p): p is ef.Graph => p instanceof ef.Graph));
    expect(branches.map(prims)).toEqual([['fused_conv2d'], ['fused_conv2d']]);
    const un = I.unfuseEpilogues(g);
    const unBranches = un.nodes.flatMap((n) => Object.values(n.params).filter((p): p is ef.Graph => p instanceof ef.Graph));
    unBranches.forEach((b) => I.verify(b));
    expect(unBranches.map(prims)).toEqual([['conv2d', 'bias_add', 'relu'], ['conv2d', 'bias_add', 'elu']]);
    const ops = outer.getConcreteFunction(x).toGraphDef();
    const all = JSON.stringify(ops);
    expect(all).toContain('"Conv2D"');
    expect(all).not.toContain('_FusedConv2D');
  });
});

test('on wasm the fused kernels run too, equal to the unfused ops within float32 rounding', async () => {
  await ef.setBackend('wasm');
  try {
    for (const [head, spec] of Object.entries(HEADS)) {
      const x = data(spec.x, 7);
      const f = ef.trace((v: T, ...w: T[]) => spec.block(v, w, ACTS.Elu));
      // tfjs-wasm's _FusedMatMul misplaces the bias when an operand is transposed: those stay unfused there.
      const want = head.startsWith('matmul trans') ? ['matmul', 'bias_add', 'elu'] : [spec.fused];
      expect([head, prims(graphOf(f, x, ...spec.weights))]).toEqual([head, want]);
      // XNNPACK's fused epilogue rounds differently from the separate kernels (measured worst: 2.4e-7 here).
      close(bits(f(x, ...spec.weights) as T), bits(spec.block(x, spec.weights, ACTS.Elu)), 1e-6);
    }
  } finally {
    await ef.setBackend('cpu');
  }
});
