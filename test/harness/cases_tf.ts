// Harness cases for primitives added to match TensorFlow: mirror padding (and its gradient), the int32 mean.
import * as ef from 'eagerflow';
import { ErrorCase, ForwardCase, InputSpec, WEBGL_GAPS, TfCall, tfTensor as T, tfReduce } from './case';
import { Ref, sizeOf } from './ref';
import * as IN from './tf_inputs';

// TensorFlow's calls for the golden fixtures of this file's ops (each op's rows carry its call: `tfCall`).
export const TF_pad: TfCall = { fn: 'tf.pad', cases: 'none', params: ['x', 'p', ['mode', 'CONSTANT'], ['v', 0]], extra: [
    { name: 'constant', args: [T([1, 2]), [[1, 1]]] },
    { name: 'constant value 5', args: [T([1, 2]), [[1, 1]], 'CONSTANT', 5] },
    { name: 'matrix', args: [IN.t2x3, [[1, 0], [0, 2]]] },
    { name: 'reflect', args: [T([1, 2, 3]), [[2, 1]], 'REFLECT'] },
    { name: 'symmetric', args: [T([1, 2, 3]), [[2, 3]], 'SYMMETRIC'] },
    { name: 'reflect matrix', args: [IN.t2x3, [[1, 1], [2, 1]], 'REFLECT'] },
    { name: 'symmetric matrix', args: [IN.t2x3, [[1, 0], [3, 1]], 'SYMMETRIC'] },
    { name: 'reflect too wide', args: [T([1, 2, 3]), [[3, 0]], 'REFLECT'], grad: false },
    { name: 'symmetric too wide', args: [T([1, 2, 3]), [[4, 0]], 'SYMMETRIC'], grad: false },
    { name: 'scalar with no paddings', args: [T(1), []], grad: false },
    { name: 'negative padding', args: [T([1, 2]), [[-1, 0]]], grad: false },
    { name: 'wrong length', args: [IN.t2x3, [[1, 1]]], grad: false },
    { name: 'bad mode', args: [T([1]), [[1, 1]], 'WRAP'], grad: false },
    { name: 'int32 value', args: [T([1, 2], 'int32'), [[1, 0]], 'CONSTANT', 7], grad: false },
  ] };

const F = (shape: number[]): InputSpec => ({ shape });
type Mode = 'REFLECT' | 'SYMMETRIC';

function mirrorIndex(n: number, before: number, j: number, mode: Mode): number {
  const i = j - before;
  if (i < 0) return mode === 'REFLECT' ? -i : -i - 1;
  if (i >= n) return mode === 'REFLECT' ? 2 * (n - 1) - i : 2 * n - 1 - i;
  return i;
}

function strides(shape: number[]): number[] {
  const s = new Array<number>(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

/** For each padded position, the flat input index it copies (float64 reference of tf.pad's mirror modes). */
function sources(shape: number[], paddings: [number, number][], mode: Mode): { out: number[]; src: number[] } {
  const out = shape.map((d, i) => d + paddings[i][0] + paddings[i][1]);
  const [so, si] = [strides(out), strides(shape)];
  const src = Array.from({ length: sizeOf(out) }, (_, flat) =>
    out.reduce((acc, _d, ax) => acc + mirrorIndex(shape[ax], paddings[ax][0], Math.floor(flat / so[ax]) % out[ax], mode) * si[ax], 0),
  );
  return { out, src };
}

function mirrorRef(x: Ref, paddings: [number, number][], mode: Mode): Ref {
  const { out, src } = sources(x.shape, paddings, mode);
  return new Ref(out, src.map((i) => x.data[i]), x.dtype);
}

function foldRef(g: Ref, shape: number[], paddings: [number, number][], mode: Mode): Ref {
  const { src } = sources(shape, paddings, mode);
  const data = new Array<number>(sizeOf(shape)).fill(0);
  src.forEach((i, j) => (data[i] += g.data[j] as number));
  return new Ref(shape, data, 'float32');
}

function mirrorCase(name: string, shape: number[], paddings: [number, number][], mode: Mode): ForwardCase[] {
  const padded = shape.map((d, i) => d + paddings[i][0] + paddings[i][1]);
  return [
    { prim: 'mirror_pad', api: 'pad', tfCall: TF_pad, tfOps: ['MirrorPad'], name: `pad ${mode} ${name}`, inputs: [F(shape)], op: (x) => ef.pad(x, paddings, mode), ref: (x) => mirrorRef(x, paddings, mode) },
    {
      prim: 'mirror_pad_grad',
      api: 'pad', tfCall: TF_pad,
      tfOps: ['MirrorPadGrad'],
      noConverter: 'tfjs-converter has no MirrorPadGrad (the gradient of a mirror pad saved inside a function)',
      name: `pad ${mode} gradient ${name}`,
      inputs: [F(shape), F(padded)],
      op: (x, g) =>
        ef.tidy(() => {
          const tape = new ef.GradientTape();
          const y = tape.record(() => (tape.watch(x), ef.pad(x, paddings, mode)));
          return tape.gradient(y, x, { outputGradients: g }) as ef.Tensor;
        }),
      ref: (_x, g) => foldRef(g, shape, paddings, mode),
      grad: [1],
    },
  ];
}

export const tfCases: ForwardCase[] = [
  ...mirrorCase('vector', [4], [[2, 1]], 'REFLECT'),
  ...mirrorCase('vector', [3], [[2, 3]], 'SYMMETRIC'),
  ...mirrorCase('matrix', [2, 3], [[1, 1], [2, 1]], 'REFLECT'),
  ...mirrorCase('matrix', [2, 3], [[1, 0], [3, 1]], 'SYMMETRIC'),
  { prim: 'mirror_pad', api: 'pad', tfCall: TF_pad, name: 'pad REFLECT with no padding copies', inputs: [F([2, 2])], op: (x) => ef.pad(x, [[0, 0], [0, 0]], 'REFLECT'), ref: (x) => x },
  {
    prim: 'int_mean',
    api: 'reduceMean', tfCall: tfReduce('tf.math.reduce_mean'),
    tfOps: ['Mean'],
    noConverter: "tfjs-converter's int32 Mean returns float32 (TensorFlow's stays int32 and truncates)",
    backends: { only: ['cpu'], why: WEBGL_GAPS.intDiv },
    name: 'reduceMean int32 truncates toward zero, exactly',
    inputs: [{ shape: [2, 3], dtype: 'int32', values: [2147483647, 1, -3, 5, 2, -2147483648] }],
    op: (x) => ef.reduceMean(x, 1),
    ref: () => new Ref([2], [715827881, -715827880], 'int32'),
  },
  {
    prim: 'int_mean',
    api: 'reduceMean', tfCall: tfReduce('tf.math.reduce_mean'),
    tfOps: ['Mean'],
    noConverter: "tfjs-converter's int32 Mean returns float32 (TensorFlow's stays int32 and truncates)",
    name: 'reduceMean int32 of negatives rounds toward zero',
    inputs: [{ shape: [4], dtype: 'int32', values: [-1, -2, -2, 0] }],
    op: (x) => ef.reduceMean(x),
    ref: () => new Ref([], [-1], 'int32'),
  },
  {
    prim: 'int_mean',
    api: 'reduceMean', tfCall: tfReduce('tf.math.reduce_mean'),
    tfOps: ['Mean'],
    noConverter: "tfjs-converter's int32 Mean returns float32 (TensorFlow's stays int32 and truncates)",
    backends: { only: ['cpu'], why: WEBGL_GAPS.intDiv },
    name: 'reduceMean int32 does not wrap the sum (TensorFlow)',
    inputs: [{ shape: [3], dtype: 'int32', values: [2147483647, 2147483647, 5] }],
    op: (x) => ef.reduceMean(x, 0, true),
    ref: () => new Ref([1], [1431655766], 'int32'),
  },
];

export const tfErrors: ErrorCase[] = [
  {
    prim: 'int_mean',
    name: 'reduceMean int32 axis out of range',
    inputs: [{ shape: [2], dtype: 'int32' }],
    run: (x) => ef.reduceMean(x, 1),
    op: 'reduceMean',
    got: 'axis 1 for a rank-1 tensor',
    expected: 'an integer in [-1, 1)',
  },
  { prim: 'mirror_pad', name: 'pad REFLECT wider than the dim', inputs: [F([3])], run: (x) => ef.pad(x, [[3, 0]], 'REFLECT'), op: 'pad', got: '[3, 0] for dim 3', expected: 'each at most 2' },
  { prim: 'mirror_pad', name: 'pad SYMMETRIC of a scalar', inputs: [F([])], run: (x) => ef.pad(x, [], 'SYMMETRIC'), op: 'pad', got: '0 pairs for shape []', expected: '1 pairs' },
  { prim: 'mirror_pad', name: 'pad with an unknown mode', inputs: [F([2])], run: (x) => ef.pad(x, [[1, 1]], 'WRAP' as 'CONSTANT' | 'REFLECT' | 'SYMMETRIC'), op: 'pad', got: '"WRAP"', expected: "'CONSTANT', 'REFLECT' or 'SYMMETRIC'" },
];
