// Browser bench cases (page side): each { name, target?, baseline?, overheadTarget?, gpus?, requires?, reps?, warmup?, batches?, rounds?, syncRead?, setup(ef) -> state, step(ef, state) -> Tensor }.
// `gpus` (default ['webgl']): the GPU backends a case is timed on besides cpu.
// bench/webgl.bench.js times `step` on webgl and on cpu and prints `name: webgl/cpu time = N.NNx (target <= T)`;
// a case with `baseline` also prints its time over the baseline case's on each backend, with `overheadTarget` on webgl.
/* global globalThis */
(function (root) {
  'use strict';
  const rand = (n, seed) => {
    let s = seed;
    return Float32Array.from({ length: n }, () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296) * 2 - 1);
  };

  /**
   * A host callback in a GPU pipeline, traced: add(x, 1) -> body -> reduceSum, on a [256, 256] float32 x.
   * The add makes the callback's input fresh GPU data every call and reduceSum consumes its output on
   * the GPU, so the data movement a callback causes is paid every call (a bare identity would reuse
   * the host copy tfjs caches after the first read). The scalar result is read with dataSync(): async
   * reads poll a fence, which adds several ms of jitter to these ~10 ms calls on SwiftShader.
   */
  const callbackCase = (name, body, extra) => ({
    name,
    warmup: 3,
    reps: 10,
    batches: 5,
    rounds: 5,
    syncRead: true,
    requires: (ef) => ['trace', 'pyFunction', 'numpyFunction'].every((n) => typeof ef[n] === 'function'),
    setup: (ef) => ({ f: ef.trace((x) => ef.reduceSum(body(ef, ef.add(x, 1)))), x: ef.constant(rand(256 * 256, 4), 'float32', [256, 256]) }),
    step: (ef, s) => s.f(s.x),
    ...extra,
  });
  const BASELINE = 'webgl-callback-baseline-identity-256x256';
  const CHAIN_RAW = 'gpu-raw-tfjs-chain-48-ops-256x256';
  const chainSetup = (ef) => ({ x: ef.constant(rand(256 * 256, 5), 'float32', [256, 256]), c1: ef.constant(0.9), c2: ef.constant(0.1) });

  root.efBenchCases = [
    {
      // ef.matmul on webgl against tfjs-cpu's BatchMatMul kernel (raw tfjs on the cpu leg), what ef on cpu ran when this
      // bound was set: ef's own cpu matmul is now a WebAssembly loop (host_matmul.ts) that outruns SwiftShader's
      // software WebGL at this size, which says nothing about a GPU.
      name: 'webgl-matmul-512',
      target: 1.0,
      reps: 1,
      setup: (ef) => {
        const tf = ef.internal.backend.tfjs;
        const [a, b] = [rand(512 * 512, 1), rand(512 * 512, 2)];
        const raw = [tf.tensor(a, [512, 512]), tf.tensor(b, [512, 512])];
        return { a: ef.constant(a, 'float32', [512, 512]), b: ef.constant(b, 'float32', [512, 512]), raw, dispose: () => raw.forEach((t) => t.dispose()) };
      },
      step: (ef, s) => (ef.getBackend() === 'cpu' ? ef.internal.backend.tfjs.engine().runKernel('BatchMatMul', { a: s.raw[0], b: s.raw[1] }, { transposeA: false, transposeB: false }) : ef.matmul(s.a, s.b)),
    },
    {
      name: 'webgl-traced-chain-20-ops-256x256',
      // 20 cheap elementwise ops on 64K elements through one traced call (dispatch + bandwidth bound).
      target: 1.0,
      reps: 5,
      requires: (ef) => typeof ef.trace === 'function',
      setup: (ef) => {
        const f = ef.trace((x) => {
          let y = x;
          for (let i = 0; i < 5; i++) y = ef.tanh(ef.add(ef.multiply(y, 1.01), ef.sin(y)));
          return y;
        });
        return { f, x: ef.constant(rand(256 * 256, 3), 'float32', [256, 256]) };
      },
      step: (ef, s) => s.f(s.x),
    },
    // Issue 15: the 48-op chain (multiply, add, relu) x 16 on [256,256], traced (one fused shader) vs raw tfjs eager
    // (tf.mul/add/relu through ef.internal.backend.tfjs, in a tidy), on webgl and webgpu.
    {
      name: CHAIN_RAW,
      gpus: ['webgl', 'webgpu'],
      reps: 5,
      batches: 5,
      rounds: 5,
      syncRead: ['cpu', 'webgl'],
      setup: (ef) => {
        const tf = ef.internal.backend.tfjs;
        return { x: tf.tensor(rand(256 * 256, 5), [256, 256]), c1: tf.scalar(0.9), c2: tf.scalar(0.1), dispose: () => undefined };
      },
      step: (ef, s) => {
        const tf = ef.internal.backend.tfjs;
        return tf.tidy(() => {
          let y = s.x;
          for (let i = 0; i < 16; i++) y = tf.relu(tf.add(tf.mul(y, s.c1), s.c2));
          return y;
        });
      },
    },
    {
      name: 'gpu-traced-chain-48-ops-256x256',
      gpus: ['webgl', 'webgpu'],
      baseline: CHAIN_RAW,
      overheadTarget: 0.25,
      reps: 5,
      batches: 5,
      rounds: 5,
      syncRead: ['cpu', 'webgl'],
      requires: (ef) => typeof ef.trace === 'function',
      setup: (ef) => {
        const s = chainSetup(ef);
        s.f = ef.trace((v) => {
          let y = v;
          for (let i = 0; i < 16; i++) y = ef.relu(ef.add(ef.multiply(y, s.c1), s.c2));
          return y;
        });
        return s;
      },
      step: (ef, s) => s.f(s.x),
    },
    // Host callbacks: the identity baseline, a pyFunction doing one ef op, a numpyFunction doing the same on the host.
    callbackCase(BASELINE, (ef, t) => ef.identity(t)),
    callbackCase('webgl-callback-inline-mul2-256x256', (ef, t) => ef.multiply(t, 2), { baseline: BASELINE, overheadTarget: 1.5 }),
    callbackCase('webgl-callback-pyFunction-mul2-256x256', (ef, t) => ef.pyFunction((v) => ef.multiply(v, 2), [t], 'float32'), {
      baseline: BASELINE,
      overheadTarget: 1.5,
    }),
    callbackCase('webgl-callback-numpyFunction-mul2-256x256', (ef, t) => ef.numpyFunction((a) => a.map((v) => v * 2), [t], 'float32'), {
      baseline: BASELINE,
      overheadTarget: 2.5,
    }),
  ];
})(typeof window !== 'undefined' ? window : globalThis);
