// Every @vladmandic/human graph model loaded with { jitCompile: true }: how much of it compiles (ONNX Runtime
// sessions and the ops left as JS steps), max |compiled - uncompiled| relative to the output's largest value on a
// seeded input, and the time per call of both (medians). Prints a markdown table (docs/compile.md).
// Run: node bench/compile_models.js [model ...]
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const ef = require('eagerflow');
const { MODELS_DIR, median } = require('./harness');


function input(g, name) {
  const sig = g.inputSignature[0];
  const shape = sig.shape.dims.map((d) => d ?? (name === 'handtrack' ? 128 : 1));
  const u = ef.random.uniform(shape, { seed: 3 });
  if (sig.dtype !== 'int32') return u;
  const y = ef.cast(ef.multiply(u, 255), 'int32');
  u.dispose();
  return y;
}

function timeIt(fn, n) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

async function main() {
  const names = process.argv.length > 2 ? process.argv.slice(2) : fs.readdirSync(MODELS_DIR).filter((f) => f.endsWith('.json') && f !== 'models.json').map((f) => f.slice(0, -5));
  console.log('| model | compiled | rel. error | ef `jitCompile` | ef on tfjs-cpu |\n| --- | --- | --- | --- | --- |');
  for (const name of names) {
    const file = path.join(MODELS_DIR, `${name}.json`);
    const plain = await ef.loadFunction(file);
    const jit = await ef.loadFunction(file, { jitCompile: true });
    // Top-level nodes only (bodies of control-flow nodes print indented deeper).
    const lines = jit.getConcreteFunction().experimentalGetCompilerIr().split('\n').filter((l) => / = /.test(l) && /^ {2}\S/.test(l));
    const ops = lines.map((l) => (/= (\w+)/.exec(l) || [])[1]).filter((o) => o !== undefined && o !== 'const');
    const segments = ops.filter((o) => o === 'onnx_segment').length;
    const js = [...new Set(ops.filter((o) => o !== 'onnx_segment'))];
    const x = input(plain, name);
    const run = (g) => [g(x)].flat();
    const a = run(plain);
    const b = run(jit);
    let err = 0;
    let scale = 1e-6;
    a.forEach((t, k) => {
      const [u, v] = [t.dataSync(), b[k].dataSync()];
      for (let i = 0; i < u.length; i++) {
        err = Math.max(err, Math.abs(u[i] - v[i]));
        scale = Math.max(scale, Math.abs(u[i]));
      }
    });
    [...a, ...b].forEach((t) => t.dispose());
    const tj = timeIt(() => run(jit).forEach((t) => t.dispose()), 15);
    const tc = timeIt(() => run(plain).forEach((t) => t.dispose()), 3);
    const what = js.length === 0 ? `fully (${segments} session${segments === 1 ? '' : 's'})` : `${segments} segments; JS steps: ${js.join(', ')}`;
    console.log(`| ${name} | ${what} | ${(err / scale).toExponential(1)} | ${tj.toFixed(1)} ms | ${tc.toFixed(0)} ms |`);
    x.dispose();
    plain.dispose();
    jit.dispose();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
