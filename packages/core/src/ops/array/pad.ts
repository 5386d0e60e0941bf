// transformation: constant padding (Pad / PadV2); mirror padding is in mirror_pad.ts.
import { showValue } from '../../values/dtype';
import type { Info } from '../../backend/backend';
import { bind } from '../bind';
import { lower } from '../onnx_lowerings';
import { AVal, Primitive } from '../primitive';
import { ReadScope, attr, typeAttrOf } from '../graphdef_spec';
import { dimsToString } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { argError, checkSize } from '../check';
import { g0 } from '../rule_helpers';
import { shapeOf, sliceTo } from './symbolic_dims';


export interface PadParams {
  readonly paddings: readonly (readonly [number, number])[];
  /** The fill value (tf.pad's constant_values; 0 when absent). */
  readonly constantValue?: number;
}

export const pad = {
  name: 'pad',
  effect: 'pure',
  infer(ins: AVal[], p: PadParams) {
    const s = ins[0].shape;
    if (s !== null && (s.length === 0 || s.length !== p.paddings.length)) throw argError('pad', 'paddings must have one pair per dim of a tensor of rank >= 1', `${p.paddings.length} pairs for shape ${dimsToString(s)}`, `${Math.max(s.length, 1)}`, 'Pass [before, after] for each dim (TensorFlow cannot pad a scalar).');
    if (ins[0].dtype === 'int32' && !Number.isInteger(p.constantValue ?? 0)) throw argError('pad', 'constantValues does not fit int32', String(p.constantValue), 'an integer', 'Pass an integer fill value.');
    if (p.paddings.some((q) => !Array.isArray(q) || q.length !== 2 || q.some((v) => !Number.isInteger(v) || v < 0))) {
      const shown = p.paddings.every((q) => Array.isArray(q)) ? `[${p.paddings.map((q) => `[${q.join(', ')}]`).join(', ')}]` : showValue(p.paddings);
      throw argError('pad', 'invalid paddings', shown, 'non-negative integer paddings', 'Pass [before, after] pairs of counts >= 0 (use ef.slice to crop).');
    }
    const shape = s === null ? null : s.map((d, i) => (d === null ? null : d + p.paddings[i][0] + p.paddings[i][1]));
    checkSize('pad', shape);
    return [{ dtype: ins[0].dtype, shape }];
  },
  // A bool tensor is padded with the value as a bool (TF casts constant_values: 5 pads true, stored as 1).
  impl: (k, [x], p: PadParams) => [k.run('PadV2', { x }, { paddings: p.paddings.map((q) => [...q]), constantValue: x.dtype === 'bool' ? Number(Boolean(p.constantValue ?? 0)) : p.constantValue ?? 0 }) as Info],
  vjp: (c, [x], _o, p: PadParams) => {
    const befores = p.paddings.map((q) => q[0]);
    // The cotangent sliced at the befores to x's dims (Dims: read from shape(x) when not static; a -1 size would
    // keep the after-padding).
    return [sliceTo(g0(c), befores, shapeOf(x))];
  },
  saves: 'none',
  onnx: lower.pad,
  // ef.pad (composites.ts) picks this record for 'CONSTANT' and mirror_pad for the other modes.
  tf: {
    ops: ['Pad', 'PadV2'],
    write: (s, n, [x]) => {
      const p = n.params as PadParams;
      const paddings = s.ints('paddings', p.paddings.flat(), [p.paddings.length, 2]);
      const attrs = { T: typeAttrOf(s, n.inputs[0]), Tpaddings: attr.type('int32') };
      if (!p.constantValue) return [s.add('Pad', 'Pad', [x, paddings], attrs)];
      const dtype = s.dtype(n.inputs[0]);
      const value = s.constant('constant_values', { dtype, shape: [], data: dtype === 'int32' ? Int32Array.of(p.constantValue) : Float32Array.of(p.constantValue) });
      return [s.add('PadV2', 'PadV2', [x, paddings, value], attrs)];
    },
    read: readPad,
  },
} satisfies Primitive<PadParams>;

/** Pad, or PadV2 with its constant value. */
const bindP = (p: Primitive, ins: Tensor[], params: Record<string, unknown>): Tensor[] => bind(p, ins, params);

function readPad(r: ReadScope): Tensor[] {
  r.arity(2, 3);
  const constantValue = r.count === 3 ? r.number(2, 'the pad value') : 0;
  return bindP(pad, [r.input(0)], { paddings: paddingsOf(r), constantValue });
}

/** A paddings Const input as [before, after] pairs (checked: non-negative, not huge). */
export function paddingsOf(r: ReadScope): [number, number][] {
  const flat = r.numbers(1, 'the paddings');
  if (flat.length % 2 !== 0) throw r.error('paddings must be [rank, 2]', `${flat.length} values`, 'pairs', 'Fix the paddings Const');
  if (flat.some((v) => v < 0 || v > r.maxElements)) throw r.error('paddings must be non-negative and not huge', `[${flat.slice(0, 8).join(', ')}]`, 'small non-negative integers', 'Fix the paddings Const');
  return Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]] as [number, number]);
}
