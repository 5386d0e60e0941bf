// Mirror padding (tf.pad's REFLECT / SYMMETRIC) and its gradient, as index gathers and segment sums per axis.
import { showValue } from '../../values/dtype';
import type { Info, Kernels } from '../../backend/backend';
import { bind } from '../bind';
import { AVal, Primitive } from '../primitive';
import { ruleOps as o } from '../rule_ops';
import { dimsToString } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { argError } from '../check';
import { release, transposeKernel } from '../kernel_util';
import { ReadScope, SpecNode, WriteScope, attr, typeAttrOf } from '../graphdef_spec';
import { paddingsOf } from './pad';

export type PadMode = 'CONSTANT' | 'REFLECT' | 'SYMMETRIC';

export interface MirrorPadParams {
  readonly paddings: readonly (readonly [number, number])[];
  readonly mode: 'REFLECT' | 'SYMMETRIC';
}

/** Checks paddings against a (possibly partial) shape; returns the padded shape. */
function paddedShape(op: string, s: AVal['shape'], p: MirrorPadParams): AVal['shape'] {
  if (s === null) return null;
  const shown = p.paddings.every((q) => Array.isArray(q)) ? `[${p.paddings.map((q) => `[${q.join(', ')}]`).join(', ')}]` : showValue(p.paddings);
  if (s.length === 0 || s.length !== p.paddings.length) throw argError(op, 'paddings must have one [before, after] pair per dim of a tensor of rank >= 1', `${p.paddings.length} pairs for shape ${dimsToString(s)}`, `${Math.max(s.length, 1)} pairs`, 'Pass [before, after] for each dim.');
  if (p.paddings.some((q) => !Array.isArray(q) || q.length !== 2 || q.some((v) => !Number.isInteger(v) || v < 0))) throw argError(op, 'invalid paddings', shown, 'non-negative integer pairs', 'Pass counts >= 0.');
  const extra = p.mode === 'REFLECT' ? 1 : 0;
  return s.map((d, i) => {
    const [b, a] = p.paddings[i];
    if (d !== null && (b > d - extra || a > d - extra)) {
      throw argError(op, `paddings too large for axis ${i} in ${p.mode} mode`, `[${b}, ${a}] for dim ${d}`, `each at most ${d - extra}`, `${p.mode} copies existing values: pad at most the dim size${extra ? ' minus 1' : ''}.`);
    }
    return d === null ? null : d + b + a;
  });
}

/** Source index of each output position along one axis. */
function mirrorIndex(n: number, before: number, after: number, mode: MirrorPadParams['mode']): Int32Array {
  const out = new Int32Array(n + before + after);
  for (let j = 0; j < out.length; j++) {
    const i = j - before;
    out[j] = i < 0 ? (mode === 'REFLECT' ? -i : -i - 1) : i >= n ? (mode === 'REFLECT' ? 2 * (n - 1) - i : 2 * n - 1 - i) : i;
  }
  return out;
}

function gatherAxis(k: Kernels, x: Info, axis: number, idx: Int32Array): Info {
  const indices = k.upload(idx, [idx.length], 'int32');
  try {
    return k.run('GatherV2', { x, indices }, { axis, batchDims: 0 }) as Info;
  } finally {
    release(k, indices);
  }
}

/** Sums `g` along `axis` into `n` segments given by `idx` (the transpose of gatherAxis). */
function scatterAxis(k: Kernels, g: Info, axis: number, idx: Int32Array, n: number): Info {
  const r = g.shape.length;
  const perm = [axis, ...Array.from({ length: r }, (_, i) => i).filter((i) => i !== axis)];
  const inv = perm.map((_, i) => perm.indexOf(i));
  const ids = k.upload(idx, [idx.length], 'int32');
  const moved = transposeKernel(k, g, perm);
  const summed = k.run('UnsortedSegmentSum', { x: moved, segmentIds: ids }, { numSegments: n }) as Info;
  const out = transposeKernel(k, summed, inv);
  for (const t of [ids, moved, summed]) release(k, t);
  return out;
}

function eachAxis(k: Kernels, x: Info, p: MirrorPadParams, step: (cur: Info, axis: number, b: number, a: number) => Info, reverse: boolean): Info {
  const axes = p.paddings.map((_, i) => i).filter((i) => p.paddings[i][0] + p.paddings[i][1] > 0);
  if (reverse) axes.reverse();
  let cur = x;
  for (const axis of axes) {
    const next = step(cur, axis, p.paddings[axis][0], p.paddings[axis][1]);
    if (cur !== x) release(k, cur);
    cur = next;
  }
  return cur === x ? (k.run('Identity', { x }) as Info) : cur;
}


/** MirrorPad / MirrorPadGrad(x, paddings Const) with the mode attr, written and read. */
function mirrorTf(op: string, rec: () => Primitive<MirrorPadParams>): NonNullable<Primitive['tf']> {
  return {
    ops: [op],
    write(s: WriteScope, n: SpecNode, [x]: string[]) {
      const p = n.params as MirrorPadParams;
      const paddings = s.ints('paddings', p.paddings.flat(), [p.paddings.length, 2]);
      return [s.add(op, op, [x, paddings], { T: typeAttrOf(s, n.inputs[0]), Tpaddings: attr.type('int32'), mode: attr.str(p.mode) })];
    },
    read(r: ReadScope): Tensor[] {
      r.arity(2);
      const mode = r.node.str('mode', '');
      if (mode !== 'REFLECT' && mode !== 'SYMMETRIC') throw r.error('unknown mirror pad mode', JSON.stringify(mode), 'REFLECT or SYMMETRIC', 'Fix the mode attr');
      return bind(rec() as Primitive, [r.input(0)], { paddings: paddingsOf(r), mode });
    },
  };
}

/** mirror_pad: REFLECT excludes the edge value, SYMMETRIC repeats it (TensorFlow's MirrorPad). */
export const mirrorPad: Primitive<MirrorPadParams> = {
  name: 'mirror_pad',
  effect: 'pure',
  infer: (ins: AVal[], p: MirrorPadParams) => [{ dtype: ins[0].dtype, shape: paddedShape('pad', ins[0].shape, p) }],
  impl: (k, [x], p) => [eachAxis(k, x, p, (cur, axis, b, a) => gatherAxis(k, cur, axis, mirrorIndex(cur.shape[axis], b, a, p.mode)), false)],
  // Shaped like x by a checked reshape: traced with unknown dims the forward node (and its check) may be pruned, and
  // the tape's reduce to the source's shape would otherwise sum a wrongly sized cotangent silently.
  vjp: (c, [x], _o, p) => {
    const g = bind(mirrorPadGrad as Primitive, [c[0] as Tensor], p)[0];
    if (x.dims !== null && x.dims.every((d) => d !== null)) return [g];
    return [o.reshapeLike(g, x)];
  },
  saves: 'inputs',
  tf: mirrorTf('MirrorPad', () => mirrorPad),
};

/** mirror_pad_grad: folds the padded cotangent back onto the input (TensorFlow's MirrorPadGrad). */
export const mirrorPadGrad: Primitive<MirrorPadParams> = {
  name: 'mirror_pad_grad',
  effect: 'pure',
  infer(ins: AVal[], p: MirrorPadParams) {
    const s = ins[0].shape;
    if (s !== null && s.length !== p.paddings.length) throw argError('pad', 'the cotangent must have one dim per [before, after] pair', `shape ${dimsToString(s)} for ${p.paddings.length} pairs`, `rank ${p.paddings.length}`, 'Pass a cotangent shaped like the padded result.');
    const out = s === null ? null : s.map((d, i) => (d === null ? null : d - p.paddings[i][0] - p.paddings[i][1]));
    // TF's MirrorPadGrad checks the paddings against the unpadded dims as MirrorPad does (the forward node may be pruned).
    if (out !== null && out.some((d) => d !== null && d < 0)) throw argError('pad', 'the cotangent is smaller than the paddings', dimsToString(s), 'each dim at least its before + after padding', 'Pass a cotangent shaped like the padded result.');
    paddedShape('pad', out, p);
    return [{ dtype: ins[0].dtype, shape: out }];
  },
  impl: (k, [g], p) => [
    eachAxis(k, g, p, (cur, axis, b, a) => {
      const n = cur.shape[axis] - b - a;
      return scatterAxis(k, cur, axis, mirrorIndex(n, b, a, p.mode), n);
    }, true),
  ],
  vjp: (c, _x, _o, p) => [bind(mirrorPad as Primitive, [c[0] as Tensor], p)[0]],
  saves: 'none',
  tf: mirrorTf('MirrorPadGrad', () => mirrorPadGrad),
};
