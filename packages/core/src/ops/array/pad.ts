// transformation: constant padding (Pad / PadV2); mirror padding is in mirror_pad.ts.
import { showValue } from '../../values/dtype';
import type { DType } from '../../values/dtype';
import { defineOp } from '../define_op';
import type { Info } from '../../backend/backend';
import { bind } from '../bind';
import { lower } from '../onnx_lowerings';
import { AVal, Primitive } from '../primitive';
import { ReadScope, attr, typeAttrOf } from '../graphdef_spec';
import { dimsToString } from '../../values/shape';
import type { Tensor } from '../../values/tensor';
import { argError, checkArity, checkSize, checkSizeTensor, unknownDimsOfRank } from '../check';
import { complexByParts, intValues } from '../kernel_util';
import { ruleOps as o } from '../rule_ops';
import { g0 } from '../rule_helpers';
import { DimRun, padWithValue, shapeOf, sliceTo } from './symbolic_dims';
import { stopGradient } from './identity';


export interface PadParams {
  readonly paddings: readonly (readonly [number, number])[];
  /** The fill value (tf.pad's constant_values; 0 when absent). */
  readonly constantValue?: number;
}

/**
 * pad(x): TF's Pad / PadV2. The [rank, 2] paddings are a param when static, or an int32 tensor input (TF's own
 * operand) when only the graph knows them: `pad(x, paddings)` binds `{ constantValue }` alone.
 */
export const pad = defineOp({
  name: 'pad',
  infer(ins: AVal[], p: PadParams) {
    const s = ins[0].shape;
    if (ins[0].dtype === 'int32' && !Number.isInteger(p.constantValue ?? 0)) throw argError('pad', 'constantValues does not fit int32', String(p.constantValue), 'an integer', 'Pass an integer fill value.');
    if (ins.length === 2) {
      checkSizeTensor('pad', ins[0], ins[1], 'paddings', true);
      return [{ dtype: ins[0].dtype, shape: unknownDimsOfRank(ins[0], ins[1]) }];
    }
    checkArity('pad', ins, 1);
    if (s !== null && (s.length === 0 || s.length !== p.paddings.length)) throw argError('pad', 'paddings must have one pair per dim of a tensor of rank >= 1', `${p.paddings.length} pairs for shape ${dimsToString(s)}`, `${Math.max(s.length, 1)}`, 'Pass [before, after] for each dim (TensorFlow cannot pad a scalar).');
    if (p.paddings.some((q) => !Array.isArray(q) || q.length !== 2 || q.some((v) => !Number.isInteger(v) || v < 0))) {
      const shown = p.paddings.every((q) => Array.isArray(q)) ? `[${p.paddings.map((q) => `[${q.join(', ')}]`).join(', ')}]` : showValue(p.paddings);
      throw argError('pad', 'invalid paddings', shown, 'non-negative integer paddings', 'Pass [before, after] pairs of counts >= 0 (use ef.slice to crop).');
    }
    const shape = s === null ? null : s.map((d, i) => (d === null ? null : d + p.paddings[i][0] + p.paddings[i][1]));
    checkSize('pad', shape);
    return [{ dtype: ins[0].dtype, shape }];
  },
  // A bool tensor is padded with the value as a bool (TF casts constant_values: 5 pads true, stored as 1).
  impl(k, [x, q], p: PadParams) {
    let paddings = p.paddings;
    if (q !== undefined) {
      // Paddings read when the op runs: the rule's checks on the values (the padded size before the kernel
      // allocates it: a traced sequenceMask of a length 2^31 - 1 padded a row that far and hung).
      checkSizeTensor('pad', { dtype: x.dtype as DType, shape: x.shape }, { dtype: 'int32', shape: q.shape }, 'paddings', true);
      const v = intValues(q);
      paddings = x.shape.map((_, i) => [v[2 * i], v[2 * i + 1]] as const);
      pad.infer([{ dtype: x.dtype as DType, shape: x.shape }], { paddings, constantValue: p.constantValue });
    }
    const padBy = (v: Info, value: number): Info => k.run('PadV2', { x: v }, { paddings: paddings.map((r) => [...r]), constantValue: value }) as Info;
    // complex64 (tfjs's cpu PadV2 has none): the real part padded with the value, the imaginary part with 0.
    if (x.dtype === 'complex64') return [complexByParts(k, [x], ([v], imaginary) => padBy(v, imaginary ? 0 : (p.constantValue ?? 0)))];
    return [padBy(x, x.dtype === 'bool' ? Number(Boolean(p.constantValue ?? 0)) : p.constantValue ?? 0)];
  },
  // TF's _PadGrad: the cotangent sliced at the befores (a paddings tensor's first column: a run of dims) to x's
  // dims (Dims: read from shape(x) when not static; a -1 size would keep the after-padding).
  vjp: (c, [x, q], _o, p: PadParams) => {
    if (q !== undefined) return [sliceTo(g0(c), [new DimRun(o.reshape(o.slice(q, [0, 0], [-1, 1]), [-1]))], shapeOf(x)), null];
    return [sliceTo(g0(c), p.paddings.map((r) => r[0]), shapeOf(x))];
  },
  // Only a paddings tensor (x's dims are static metadata).
  saves: 'sizes',
  onnx: lower.pad,
  // ef.pad (composites.ts) picks this record for 'CONSTANT' and mirror_pad for the other modes.
  tf: {
    ops: ['Pad', 'PadV2'],
    write: (s, n, [x, q]) => {
      const p = n.params as PadParams;
      const paddings = q ?? s.ints('paddings', p.paddings.flat(), [p.paddings.length, 2]);
      const attrs = { T: typeAttrOf(s, n.inputs[0]), Tpaddings: attr.type('int32') };
      if (!p.constantValue) return [s.add('Pad', 'Pad', [x, paddings], attrs)];
      const dtype = s.dtype(n.inputs[0]);
      const value = s.constant('constant_values', { dtype, shape: [], data: dtype === 'int32' ? Int32Array.of(p.constantValue) : Float32Array.of(p.constantValue) });
      return [s.add('PadV2', 'PadV2', [x, paddings, value], attrs)];
    },
    read: readPad,
  },
});

/** Pad, or PadV2 with its constant value. */
const bindP = (p: Primitive, ins: Tensor[], params: Record<string, unknown>): Tensor[] => bind(p, ins, params);

/** Binds pad with int32 [rank, 2] `paddings` as a tensor (paddings only the graph knows), filled with `constantValue`. */
export const padWith = (x: Tensor, paddings: Tensor, constantValue = 0): Tensor => bindP(pad, [x, paddings], constantValue === 0 ? {} : { constantValue })[0];

/** Pads `x` with `constantValue`: the paddings are a Const (a param) or computed (the tensor form). */
const padRead = (r: ReadScope, x: Tensor, constantValue: number): Tensor =>
  r.producer(1)?.op !== 'Const' ? padWith(x, r.input(1), constantValue) : bindP(pad, [x], { paddings: paddingsOf(r), constantValue })[0];

function readPad(r: ReadScope): Tensor[] {
  r.arity(2, 3);
  // PadV2 whose constant_values the graph computes (padWithValue); like TF's PadV2 gradient, none flows into them.
  if (r.count === 3 && r.producer(2)?.op !== 'Const') {
    const x = r.input(0);
    return [padWithValue(x, (t) => padRead(r, t, 0), bind(stopGradient, [o.cast(r.input(2), x.dtype)], {})[0])];
  }
  return [padRead(r, r.input(0), r.count === 3 ? r.number(2, 'the pad value') : 0)];
}

/** A paddings Const input as [before, after] pairs (checked: non-negative, not huge). */
export function paddingsOf(r: ReadScope): [number, number][] {
  const flat = r.numbers(1, 'the paddings');
  if (flat.length % 2 !== 0) throw r.error('paddings must be [rank, 2]', `${flat.length} values`, 'pairs', 'Fix the paddings Const');
  if (flat.some((v) => v < 0 || v > r.maxElements)) throw r.error('paddings must be non-negative and not huge', `[${flat.slice(0, 8).join(', ')}]`, 'small non-negative integers', 'Fix the paddings Const');
  return Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]] as [number, number]);
}
