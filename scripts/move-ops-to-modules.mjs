// Moves core's op code into folders by TF module and family (issue 26): packages/core/src/primitives/<category>/
// and the flat packages/core/src/ops/{composites_*,runtime_*}.ts become ops/{math,nn,linalg,image,signal,random,array}/.
// The record plumbing (primitive, bind, api_spec, op_builder, table, namespaces, ops hub, GraphDef/ONNX specs, checks,
// the elementwise family builders, kernel helpers) stays at the top of ops/. Whole files move (`git mv`), so history
// and other branches' merges follow them by git's rename detection.
//
// Re-runnable: after merging a branch written against the old layout, run `node scripts/move-ops-to-modules.mjs`
// again. It moves any listed file still at its old path, puts a file the branch added in an old category folder
// into that category's module folder, and rewrites every relative import that no longer resolves but named a module
// of the old layout (from the file's old folder or its own), and the paths that name moved files in docs, configs
// and tests. `--check` only reports (exit 1 when something would change).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(root, 'packages/core/src');
const check = process.argv.includes('--check');

/** Old path -> new path, relative to packages/core/src, without `.ts`. */
export const MOVES = [
  // Record plumbing shared by every family: top of ops/.
  ['primitives/check', 'ops/check'],
  ['primitives/families', 'ops/elementwise'],
  ['primitives/kernel_util', 'ops/kernel_util'],
  // tf.math
  ['primitives/basic_math/unary', 'ops/math/unary'],
  ['primitives/basic_math/more', 'ops/math/unary_functions'],
  ['primitives/arithmetic/binary', 'ops/math/binary'],
  ['primitives/arithmetic/more', 'ops/math/binary_functions'],
  ['primitives/logical/compare', 'ops/math/compare'],
  ['primitives/transformation/cast', 'ops/math/cast'],
  ['primitives/reduction/reduce', 'ops/math/reduce'],
  ['primitives/reduction/more', 'ops/math/reduce_scan'],
  ['ops/composites_math', 'ops/math/reduce_composites'],
  ['primitives/segment/segment_sum', 'ops/math/segment_sum'],
  ['primitives/segment/more', 'ops/math/segment_search'],
  ['primitives/segment/bincount', 'ops/math/bincount'],
  // tf.nn
  ['primitives/basic_math/nn', 'ops/nn/activations'],
  ['ops/composites_nn', 'ops/nn/activations_composites'],
  ['primitives/convolution/convolution', 'ops/nn/conv'],
  ['primitives/convolution/conv_family', 'ops/nn/conv_family'],
  ['primitives/convolution/conv_util', 'ops/nn/conv_util'],
  ['primitives/convolution/host_conv', 'ops/nn/host_conv'],
  ['primitives/pooling/pooling', 'ops/nn/pool'],
  ['primitives/pooling/pool_family', 'ops/nn/pool_family'],
  ['primitives/pooling/argmax_taps', 'ops/nn/argmax_taps'],
  ['ops/composites_pool', 'ops/nn/pool_composites'],
  ['primitives/normalization/normalization', 'ops/nn/normalization'],
  ['ops/composites_norm', 'ops/nn/normalization_losses'],
  ['primitives/transformation/space_depth', 'ops/nn/space_depth'],
  // tf.linalg
  ['primitives/matrices/matmul', 'ops/linalg/matmul'],
  ['primitives/matrices/linalg', 'ops/linalg/square_matrix'],
  ['primitives/matrices/linalg_host', 'ops/linalg/host_kernels'],
  ['primitives/matrices/qr', 'ops/linalg/qr'],
  ['ops/composites_linalg', 'ops/linalg/diag_band_products'],
  ['ops/composites_linalg2', 'ops/linalg/decompositions'],
  ['ops/composites_einsum', 'ops/linalg/einsum'],
  ['ops/runtime_einsum', 'ops/linalg/runtime_einsum'],
  ['ops/runtime_linalg', 'ops/linalg/runtime_masks'],
  // tf.image
  ['primitives/image/resize', 'ops/image/resize'],
  ['primitives/image/nms', 'ops/image/nms'],
  ['ops/composites_image', 'ops/image/adjust_flip_crop'],
  ['ops/composites_image2', 'ops/image/crop_resize_patches'],
  ['ops/runtime_image', 'ops/image/runtime_crop'],
  // tf.signal
  ['primitives/spectral/fft', 'ops/signal/fft'],
  ['ops/composites_signal', 'ops/signal/frame_window_stft'],
  ['ops/runtime_signal', 'ops/signal/runtime_frame'],
  // tf.random
  ['primitives/random/draws', 'ops/random/draws'],
  ['primitives/random/gamma', 'ops/random/gamma'],
  ['primitives/random/gamma_grad', 'ops/random/gamma_grad'],
  ['primitives/random/philox', 'ops/random/philox'],
  ['primitives/random/sampling', 'ops/random/sampling'],
  ['primitives/random/seeds', 'ops/random/seeds'],
  ['ops/composites_random', 'ops/random/draws_composites'],
  ['ops/composites_random2', 'ops/random/gamma_composites'],
  // array ops (tf's array_ops / manip_ops)
  ['primitives/creation/fill', 'ops/array/creation'],
  ['primitives/graph/graph_ops', 'ops/array/identity'],
  ['primitives/transformation/reshape', 'ops/array/reshape'],
  ['primitives/transformation/pad', 'ops/array/pad'],
  ['primitives/transformation/mirror_pad', 'ops/array/mirror_pad'],
  ['primitives/transformation/more', 'ops/array/manipulation'],
  ['ops/composites_manip', 'ops/array/manipulation_composites'],
  ['ops/composites_manip2', 'ops/array/sort_repeat_roll'],
  ['primitives/slice_join/slice_join', 'ops/array/slice_concat_gather'],
  ['primitives/slice_join/more', 'ops/array/strided_slice'],
  ['primitives/slice_join/dynamic', 'ops/array/dynamic_sizes'],
  ['ops/runtime_shape', 'ops/array/runtime_shape'],
  ['ops/runtime_axes', 'ops/array/runtime_axes'],
  ['ops/runtime_util', 'ops/array/runtime_util'],
  // ops that lived in values/ (values/ imports no op file)
  ['values/tensor_at', 'ops/array/numpy_indexing'],
  ['values/print', 'ops/array/print'],
  // composites folded into their family's record file (phase 2 of issue 26)
  ['ops/random/gamma_composites', 'ops/random/gamma'],
  ['ops/random/draws_composites', 'ops/random/draws'],
  ['ops/nn/pool_composites', 'ops/nn/pool'],
  ['ops/math/reduce_composites', 'ops/math/reduce_scan'],
  ['ops/nn/normalization_losses', 'ops/nn/losses'],
];

/** Where a file a branch adds in an old category folder goes. */
const FOLDERS = {
  arithmetic: 'math', basic_math: 'math', logical: 'math', reduction: 'math', segment: 'math',
  convolution: 'nn', pooling: 'nn', normalization: 'nn', matrices: 'linalg', image: 'image', spectral: 'signal',
  random: 'random', creation: 'array', graph: 'array', transformation: 'array', slice_join: 'array',
};

const abs = (p) => path.join(SRC, p);
const moved = new Map(MOVES.map(([o, n]) => [abs(o), abs(n)]));
const changes = [];

// 1. Files a branch added in an old category folder join the table (same name, in the module folder).
const oldDir = abs('primitives');
if (fs.existsSync(oldDir)) {
  for (const cat of fs.readdirSync(oldDir, { withFileTypes: true })) {
    if (!cat.isDirectory()) continue;
    for (const f of fs.readdirSync(path.join(oldDir, cat.name)).filter((f) => f.endsWith('.ts'))) {
      const o = path.join(oldDir, cat.name, f.replace(/\.ts$/, ''));
      if (moved.has(o)) continue;
      const mod = FOLDERS[cat.name];
      if (!mod) {
        console.error(`move-ops-to-modules: no module folder for primitives/${cat.name}/: add it to FOLDERS`);
        process.exit(1);
      }
      moved.set(o, abs(`ops/${mod}/${f.replace(/\.ts$/, '')}`));
    }
  }
}
const movedFrom = new Map([...moved].map(([o, n]) => [n, o]));

const resolvesTo = (p) => {
  for (const e of ['.ts', '.tsx', '.js', '.mjs', '.d.ts', '/index.ts', '/index.js']) if (fs.existsSync(p + e)) return p + e;
  return fs.existsSync(p) && fs.statSync(p).isFile() ? p : null;
};

function walk(d) {
  if (!fs.existsSync(d)) return [];
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) return [];
    const p = path.join(d, e.name);
    return e.isDirectory() ? walk(p) : /\.(ts|mts|js|mjs|cjs)$/.test(e.name) ? [p] : [];
  });
}

const codeRoots = ['packages', 'test', 'browser', 'bench', 'scripts', 'acceptance', 'examples', 'docs'].map((d) => path.join(root, d));
const SPEC = /(['"])(\.\.?\/[^'"\n]*)\1/g;
const noExt = (p) => p.replace(/\.(ts|js)$/, '');
const newPathOf = (p) => {
  // Follows a chain (composites_random -> random/draws_composites -> random/draws).
  let n = moved.get(noExt(p)) ?? null;
  for (let i = 0; n !== null && moved.has(n) && i < 4; i++) n = moved.get(n);
  return n;
};

/** Rewrites the relative specifiers of `text`, a file that will live at `file` and was written at `writtenAt`. */
function rewrite(text, file, writtenAt, before) {
  const here = path.dirname(file);
  return text.replace(SPEC, (m, q, spec) => {
    const ext = /\.(ts|js)$/.exec(spec)?.[0] ?? '';
    let target;
    if (before) {
      // Before the move: every specifier resolves in the old layout.
      const t = resolvesTo(path.resolve(path.dirname(writtenAt), spec));
      if (t === null) return m;
      const n = newPathOf(t);
      if (n === null && writtenAt === file) return m;
      target = n ?? noExt(t);
    } else {
      if (resolvesTo(path.resolve(here, spec)) !== null) return m;
      target = null;
      for (const base of [path.dirname(writtenAt), here]) {
        const n = newPathOf(path.resolve(base, spec));
        if (n !== null && resolvesTo(n) !== null) {
          target = n;
          break;
        }
        // From a moved file: a module that did not move, named relative to the file's old folder.
        const same = noExt(path.resolve(base, spec));
        if (base !== here && resolvesTo(same) !== null) {
          target = same;
          break;
        }
      }
      if (target === null) return m;
    }
    let rel = path.relative(here, target).split(path.sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `${q}${rel}${ext}${q}`;
  });
}

const pending = [...moved].filter(([o, n]) => fs.existsSync(`${o}.ts`) && !fs.existsSync(`${n}.ts`));

// 2. Imports, rewritten before the files move (every specifier still resolves), then the moves.
if (pending.length) {
  const pendingNew = new Map(pending.map(([o, n]) => [`${o}.ts`, `${n}.ts`]));
  for (const file of codeRoots.flatMap(walk)) {
    const text = fs.readFileSync(file, 'utf8');
    const dest = pendingNew.get(file) ?? file;
    const out = rewrite(text, dest, file, true);
    if (out !== text) {
      changes.push(`imports ${path.relative(root, file)}`);
      if (!check) fs.writeFileSync(file, out);
    }
  }
  for (const [o, n] of pending) {
    changes.push(`move ${path.relative(SRC, o)}.ts -> ${path.relative(SRC, n)}.ts`);
    if (check) continue;
    fs.mkdirSync(path.dirname(n), { recursive: true });
    execFileSync('git', ['mv', `${o}.ts`, `${n}.ts`], { cwd: root });
  }
  if (!check) for (const d of new Set(pending.map(([o]) => path.dirname(o)))) if (fs.existsSync(d) && fs.readdirSync(d).length === 0) fs.rmdirSync(d);
  if (!check && fs.existsSync(oldDir) && fs.readdirSync(oldDir).length === 0) fs.rmdirSync(oldDir);
}

// 3. After a merge: specifiers that no longer resolve but named an old-layout module.
if (!check || !pending.length) {
  for (const file of codeRoots.flatMap(walk)) {
    const text = fs.readFileSync(file, 'utf8');
    const out = rewrite(text, file, movedFrom.has(noExt(file)) ? `${movedFrom.get(noExt(file))}.ts` : file, false);
    if (out !== text) {
      changes.push(`imports ${path.relative(root, file)}`);
      if (!check) fs.writeFileSync(file, out);
    }
  }
}

// 4. Paths naming moved files in configs, scripts, tests and docs (packages/core/src/<old>.ts, and the
// sideEffects entries ./src/<old>.ts, ./dist/<old>.js, ./dist/esm/<old>.js of packages/core/package.json).
const self = fileURLToPath(import.meta.url);
const textFiles = [
  ...codeRoots.flatMap(walk),
  ...walk(path.join(root, '.ci')),
  ...['eslint.config.mjs', 'tsconfig.lint.json', 'packages/core/package.json', 'README.md', 'CONTRIBUTING.md'].map((f) => path.join(root, f)),
  ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(root, 'docs', f)),
].filter((f, i, all) => fs.existsSync(f) && all.indexOf(f) === i && f !== self && !f.startsWith(SRC));
const byOld = new Map([...moved].map(([o, n]) => [path.relative(SRC, o), path.relative(SRC, n)]));
for (const file of textFiles) {
  const text = fs.readFileSync(file, 'utf8');
  const out = text.replace(/(packages\/core\/src\/|"\.\/src\/|"\.\/dist\/(?:esm\/)?)((?:ops|primitives|values)\/[\w/]+)\.(ts|js)\b/g, (m, pre, p, ext) => {
    const n = byOld.get(p);
    return n === undefined ? m : `${pre}${n}.${ext}`;
  });
  if (out !== text) {
    changes.push(`paths ${path.relative(root, file)}`);
    if (!check) fs.writeFileSync(file, out);
  }
}

console.log(changes.length ? changes.join('\n') : 'move-ops-to-modules: nothing to do');
if (check && changes.length) process.exit(1);
