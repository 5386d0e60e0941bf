// TensorFlow's non-max suppression ops as one record family: NonMaxSuppressionV2/V3/V4/V5 on tfjs's kernel, and
// CombinedNonMaxSuppression (per-class NMS over a batch, merged by score) on the host. Every threshold may be a Const
// or a value the graph computes (read when the op runs). Not differentiable (TF registers no gradient).
import { loadLimits } from './reader';
import { AVal, Info, Kernels, PRIMITIVES, Primitive, ReadScope, Tensor, argError, attr, backend, bind, outputRef, paramsRecord, registerPrimitive, tfOpOf } from '@eagerflow/core';
import type { WriteScope } from '@eagerflow/core';

const P = PRIMITIVES;

/** The per-box NMS versions by TF op: V3/V4/V5 are named by core's image.nonMaxSuppression* records. */
const V2 = 'NonMaxSuppressionV2';
const VERSIONS: Record<string, 2 | 3 | 4 | 5> = { [V2]: 2, [tfOpOf(P.non_max_suppression)]: 3, [tfOpOf(P.non_max_suppression_padded)]: 4, [tfOpOf(P.non_max_suppression_with_scores)]: 5 };
const COMBINED = 'CombinedNonMaxSuppression';

type Num = number | null;
/** A threshold param: its static value, or null when it is the tensor input `dynamic.indexOf(name) + 2`. */
interface NmsParams {
  readonly version: 2 | 3 | 4 | 5;
  readonly maxOutputSize: Num;
  readonly iouThreshold: Num;
  readonly scoreThreshold: Num;
  readonly softNmsSigma: Num;
  readonly padToMaxOutputSize: boolean;
  /** The params given as tensor inputs (after boxes and scores), in order. */
  readonly dynamic: readonly string[];
}

const describe = (ins: AVal[]): string => ins.map((a) => `${a.dtype} ${JSON.stringify(a.shape)}`).join(', ');

/** A written node's input for param `name`: the dynamic input it came from, or a new constant of its value. */
function paramInput(s: WriteScope, p: { readonly dynamic: readonly string[] }, ins: readonly string[], name: string, hint: string, dtype: 'int32' | 'float32'): string {
  const k = p.dynamic.indexOf(name);
  if (k >= 0) return ins[2 + k];
  const v = paramsRecord(p)[name] as number;
  return dtype === 'int32' ? s.ints(hint, [v], []) : s.constant(hint, { dtype: 'float32', shape: [], data: Float32Array.of(v) });
}

/** The params of one run: static ones, then the dynamic ones read from their tensors. */
function valuesOf<T extends { readonly dynamic: readonly string[] }>(p: T, extra: readonly Info[]): T {
  const out: Record<string, unknown> = { ...p };
  p.dynamic.forEach((name, k) => {
    const v = backend.readInfoSync(extra[k]) as ArrayLike<number>;
    if (extra[k].shape.length !== 0) throw argError('nonMaxSuppression', `${name} must be a scalar`, `shape [${extra[k].shape.join(', ')}]`, 'a scalar', `Make ${name} a scalar.`);
    out[name] = Number(v[0]);
  });
  return out as T;
}

function checkNms(p: NmsParams): void {
  const [m, iou, sigma] = [p.maxOutputSize as number, p.iouThreshold as number, p.softNmsSigma ?? 0];
  if (!Number.isInteger(m) || m < 0 || !(iou >= 0 && iou <= 1) || !(sigma >= 0)) {
    throw argError(`nonMaxSuppression (NonMaxSuppressionV${p.version})`, 'invalid parameters', `maxOutputSize=${m}, iouThreshold=${iou}, softNmsSigma=${sigma}`, 'an integer maxOutputSize >= 0, iouThreshold in [0, 1], softNmsSigma >= 0', 'Fix the NMS parameters (TensorFlow rejects these too).');
  }
}

/** Output avals by version: V2/V3 indices; V4 indices and valid count; V5 indices, scores and valid count. */
function nmsOutputs(p: NmsParams): AVal[] {
  const n = p.padToMaxOutputSize && p.maxOutputSize !== null ? p.maxOutputSize : null;
  const idx: AVal = { dtype: 'int32', shape: [n] };
  const valid: AVal = { dtype: 'int32', shape: [] };
  return p.version <= 3 ? [idx] : p.version === 4 ? [idx, valid] : [idx, { dtype: 'float32', shape: [n] }, valid];
}

/**
 * Greedy (soft-)NMS as TF's NonMaxSuppressionV2..V5 define it: selected indices by descending score, their
 * decayed scores (V5), the count of valid ones (V4/V5), zero-padded to maxOutputSize with pad_to_max_output_size.
 */
const nms: Primitive<NmsParams> = {
  name: 'tf_non_max_suppression',
  effect: 'pure',
  foldable: false,
  infer(ins: AVal[], p: NmsParams) {
    const [b, s] = [ins[0]?.shape, ins[1]?.shape];
    const boxesOk = ins[0]?.dtype === 'float32' && (b === null || (b.length === 2 && (b[1] === null || b[1] === 4)));
    const scoresOk = ins[1]?.dtype === 'float32' && (s === null || s.length === 1);
    const countOk = b === null || s === null || b[0] === null || s[0] === null || b[0] === s[0];
    if (ins.length !== 2 + p.dynamic.length || !boxesOk || !scoresOk || !countOk) throw argError('nonMaxSuppression', 'boxes must be float32 [n, 4] and scores float32 [n]', describe(ins), 'float32 [n, 4] and float32 [n] (one score per box)', 'Pass boxes [n, 4] and scores [n].');
    if (p.dynamic.length === 0) checkNms(p);
    return nmsOutputs(p);
  },
  impl(k, [boxes, scores, ...extra], params: NmsParams) {
    const p = valuesOf(params, extra);
    checkNms(p);
    if (p.padToMaxOutputSize && (p.maxOutputSize as number) > loadLimits.maxRunElements) {
      throw argError(`nonMaxSuppression (NonMaxSuppressionV${p.version})`, 'the padded output would be too large', `maxOutputSize=${p.maxOutputSize}`, `at most ${loadLimits.maxRunElements}`, 'Lower max_output_size.');
    }
    const attrs = { maxOutputSize: p.maxOutputSize, iouThreshold: p.iouThreshold, scoreThreshold: p.scoreThreshold ?? -Infinity, softNmsSigma: p.softNmsSigma ?? 0 };
    const [idx, sc] = k.run('NonMaxSuppressionV5', { boxes, scores }, attrs) as Info[];
    const n = idx.shape[0];
    const m = p.maxOutputSize as number;
    const padded = !p.padToMaxOutputSize || n >= m ? [idx, sc] : [idx, sc].map((t) => {
      const o = k.run('PadV2', { x: t }, { paddings: [[0, m - n]], constantValue: 0 }) as Info;
      k.free(t);
      return o;
    });
    if (p.version <= 3) {
      k.free(padded[1]);
      return [padded[0]];
    }
    const valid = k.upload(Int32Array.of(n), [], 'int32');
    if (p.version === 4) {
      k.free(padded[1]);
      return [padded[0], valid];
    }
    return [...padded, valid];
  },
  vjp: (_c, ins) => ins.map(() => null),
  saves: 'none',
  tf: {
    ops: Object.keys(VERSIONS),
    // Core's image.nonMaxSuppression / ...Padded records read V3 and V4 with Const thresholds; this family reads
    // V2 (no core record), V5 (its third output and its padding), and any version whose thresholds are computed.
    matches: (r) => VERSIONS[r.node.op] === 2 || VERSIONS[r.node.op] === 5 || [2, 3, 4, 5].some((k) => k < r.count && r.constScalar(k) === null),
    write(s, n, ins) {
      const p = n.params as NmsParams;
      const op = Object.keys(VERSIONS).find((o) => VERSIONS[o] === p.version) as string;
      const param = (name: string, hint: string, dtype: 'int32' | 'float32'): string => paramInput(s, p, ins, name, hint, dtype);
      const inputs = [ins[0], ins[1], param('maxOutputSize', 'max_output_size', 'int32'), param('iouThreshold', 'iou_threshold', 'float32')];
      if (p.version >= 3) inputs.push(param('scoreThreshold', 'score_threshold', 'float32'));
      if (p.version === 5) inputs.push(param('softNmsSigma', 'soft_nms_sigma', 'float32'));
      const attrs = { T: attr.type('float32'), ...(p.version !== 5 ? { T_threshold: attr.type('float32') } : {}), ...(p.version >= 4 ? { pad_to_max_output_size: attr.bool(p.padToMaxOutputSize) } : {}) };
      const name = s.add(op, op, inputs, attrs);
      return n.outputs.map((_, k) => outputRef(name, k));
    },
    read: readNms,
  },
};

/** Reads input k as a static number (a Const) or, when the graph computes it, as a dynamic param tensor. */
function paramOf(r: ReadScope, k: number, name: string, dtype: 'int32' | 'float32', dyn: { names: string[]; tensors: Tensor[] }): Num {
  const c = r.constScalar(k);
  if (c !== null) return r.number(k, name);
  const t = r.input(k);
  if (t.dtype !== dtype && !(dtype === 'float32' && t.dtype === 'int32')) throw r.error(`${name} must be ${dtype}`, t.dtype, dtype, `Cast ${name}`);
  if (t.rank !== null && t.rank !== 0) throw r.error(`${name} must be a scalar`, t.shape.toString(), 'a scalar', `Make ${name} a scalar`);
  dyn.names.push(name);
  dyn.tensors.push(t);
  return null;
}

function readNms(r: ReadScope): Tensor[] {
  const v = VERSIONS[r.node.op];
  r.arity(v === 2 ? 4 : v === 5 ? 6 : 5);
  const dyn = { names: [] as string[], tensors: [] as Tensor[] };
  const params: NmsParams = {
    version: v,
    maxOutputSize: paramOf(r, 2, 'maxOutputSize', 'int32', dyn),
    iouThreshold: paramOf(r, 3, 'iouThreshold', 'float32', dyn),
    scoreThreshold: v >= 3 ? paramOf(r, 4, 'scoreThreshold', 'float32', dyn) : -Infinity,
    softNmsSigma: v === 5 ? paramOf(r, 5, 'softNmsSigma', 'float32', dyn) : 0,
    padToMaxOutputSize: v >= 4 ? r.node.bool('pad_to_max_output_size', false) : false,
    dynamic: dyn.names,
  };
  return bind(nms as Primitive, [r.input(0), r.input(1), ...dyn.tensors], params);
}
registerPrimitive(nms as Primitive);

interface CombinedParams {
  readonly maxOutputSizePerClass: Num;
  readonly maxTotalSize: Num;
  readonly iouThreshold: Num;
  readonly scoreThreshold: Num;
  readonly padPerClass: boolean;
  readonly clipBoxes: boolean;
  readonly dynamic: readonly string[];
}

/** The detections per batch row: max_total_size, or with pad_per_class min(max_total_size, per class · classes). */
const detections = (p: CombinedParams, classes: number): number => (p.padPerClass ? Math.min(p.maxTotalSize as number, Math.min(2147483647, (p.maxOutputSizePerClass as number) * classes)) : (p.maxTotalSize as number));

function checkCombined(p: CombinedParams): void {
  const [m, t, iou] = [p.maxOutputSizePerClass as number, p.maxTotalSize as number, p.iouThreshold as number];
  if (!Number.isInteger(m) || m < 0 || !Number.isInteger(t) || t <= 0 || !(iou >= 0 && iou <= 1)) {
    throw argError('combinedNonMaxSuppression', 'invalid parameters', `maxOutputSizePerClass=${m}, maxTotalSize=${t}, iouThreshold=${iou}`, 'integers maxOutputSizePerClass >= 0 and maxTotalSize > 0, iouThreshold in [0, 1]', 'Fix the NMS parameters (TensorFlow rejects these too).');
  }
}

const fr = Math.fround;

/** TF's IOU of two boxes (any corner order) at offsets i and j, in float32 steps; 0 when either has no area. */
function iou(b: Float32Array, i: number, j: number): number {
  const [y1i, x1i, y2i, x2i] = [Math.min(b[i], b[i + 2]), Math.min(b[i + 1], b[i + 3]), Math.max(b[i], b[i + 2]), Math.max(b[i + 1], b[i + 3])];
  const [y1j, x1j, y2j, x2j] = [Math.min(b[j], b[j + 2]), Math.min(b[j + 1], b[j + 3]), Math.max(b[j], b[j + 2]), Math.max(b[j + 1], b[j + 3])];
  const ai = fr(fr(y2i - y1i) * fr(x2i - x1i));
  const aj = fr(fr(y2j - y1j) * fr(x2j - x1j));
  if (ai <= 0 || aj <= 0) return 0;
  const inter = fr(Math.max(fr(Math.min(y2i, y2j) - Math.max(y1i, y1j)), 0) * Math.max(fr(Math.min(x2i, x2j) - Math.max(x1i, x1j)), 0));
  return fr(inter / fr(fr(ai + aj) - inter));
}

/**
 * One batch row as TF computes it: hard NMS per class (score > threshold; IOU > threshold suppresses), each class
 * filling min(maxOutputSizePerClass, n) slots (unfilled: box 0s, score -1, class -1), all slots sorted by descending
 * score, and the first min(valid, keep) taken (so with scores below -1 a placeholder can come first, as in TF).
 */
function combinedRow(boxes: Float32Array, scores: Float32Array, n: number, q: number, classes: number, p: CombinedParams, keep: number) {
  const perClass = Math.min(p.maxOutputSizePerClass as number, n);
  const slots: { at: number; score: number; cls: number }[] = [];
  let valid = 0;
  for (let c = 0; c < classes; c++) {
    // Candidates by descending score (ties: lower box index first; TF's heap leaves tie order unspecified).
    const cand = Array.from({ length: n }, (_, i) => i).filter((i) => scores[i * classes + c] > (p.scoreThreshold as number));
    cand.sort((a, b) => scores[b * classes + c] - scores[a * classes + c] || a - b);
    const selected: number[] = [];
    for (const i of cand) {
      if (selected.length >= perClass) break;
      const at = (i * q + (q > 1 ? c : 0)) * 4;
      if (selected.some((s) => iou(boxes, at, s) > (p.iouThreshold as number))) continue;
      selected.push(at);
      slots.push({ at, score: scores[i * classes + c], cls: c });
    }
    valid += selected.length;
    for (let k = selected.length; k < perClass; k++) slots.push({ at: -1, score: -1, cls: -1 });
  }
  slots.sort((a, b) => b.score - a.score);
  return slots.slice(0, Math.min(valid, keep));
}

/**
 * CombinedNonMaxSuppression: boxes [batch, n, q, 4] (q = 1 or classes), scores [batch, n, classes] -> per batch
 * row the top detections over all classes: boxes (clipped to [0, 1] with clip_boxes), scores, classes (float),
 * zero-padded to the detection count, and how many are valid.
 */
const combined: Primitive<CombinedParams> = {
  name: 'combined_non_max_suppression',
  effect: 'pure',
  foldable: false,
  infer(ins: AVal[], p: CombinedParams) {
    const [b, s] = [ins[0]?.shape, ins[1]?.shape];
    const classes = s?.[2] ?? null;
    const ok = ins[0]?.dtype === 'float32' && ins[1]?.dtype === 'float32' && (b === null || (b.length === 4 && (b[3] === null || b[3] === 4))) && (s === null || s.length === 3);
    const qOk = b === null || b[2] === null || classes === null || b[2] === 1 || b[2] === classes;
    const same = b === null || s === null || [0, 1].every((d) => b[d] === null || s[d] === null || b[d] === s[d]);
    if (ins.length !== 2 + p.dynamic.length || !ok || !qOk || !same) {
      throw argError('combinedNonMaxSuppression', 'boxes must be float32 [batch, n, q, 4] (q = 1 or classes) and scores float32 [batch, n, classes]', describe(ins), 'float32 [batch, n, q, 4] and [batch, n, classes]', 'Fix the CombinedNonMaxSuppression inputs.');
    }
    if (p.dynamic.length === 0) checkCombined(p);
    const known = p.maxTotalSize !== null && (!p.padPerClass || (p.maxOutputSizePerClass !== null && classes !== null));
    const d = known ? detections(p, classes ?? 0) : null;
    const batch = b?.[0] ?? s?.[0] ?? null;
    return [
      { dtype: 'float32', shape: [batch, d, 4] },
      { dtype: 'float32', shape: [batch, d] },
      { dtype: 'float32', shape: [batch, d] },
      { dtype: 'int32', shape: [batch] },
    ];
  },
  impl(k: Kernels, [boxes, scores, ...extra], params: CombinedParams) {
    const p = valuesOf(params, extra);
    checkCombined(p);
    const [batch, n, q] = boxes.shape;
    const classes = scores.shape[2];
    const d = detections(p, classes);
    if (batch * d * 4 > loadLimits.maxRunElements) {
      throw argError('combinedNonMaxSuppression', 'the output would be too large', `${batch} x ${d} detections`, `at most ${loadLimits.maxRunElements} output elements`, 'Lower max_total_size (TensorFlow warns above 1e6).');
    }
    const [bv, sv] = [backend.readInfoSync(boxes) as Float32Array, backend.readInfoSync(scores) as Float32Array];
    const [ob, os, oc, ov] = [new Float32Array(batch * d * 4), new Float32Array(batch * d), new Float32Array(batch * d), new Int32Array(batch)];
    const clip = (v: number): number => (p.clipBoxes ? Math.max(Math.min(v, 1), 0) : v);
    for (let b = 0; b < batch; b++) {
      const rows = combinedRow(bv.subarray(b * n * q * 4, (b + 1) * n * q * 4), sv.subarray(b * n * classes, (b + 1) * n * classes), n, q, classes, p, d);
      ov[b] = rows.length;
      const bb = bv.subarray(b * n * q * 4);
      rows.forEach((r, j) => {
        for (let e = 0; e < 4; e++) ob[(b * d + j) * 4 + e] = clip(r.at < 0 ? 0 : bb[r.at + e]);
        os[b * d + j] = r.score;
        oc[b * d + j] = r.cls;
      });
    }
    return [k.upload(ob, [batch, d, 4], 'float32'), k.upload(os, [batch, d], 'float32'), k.upload(oc, [batch, d], 'float32'), k.upload(ov, [batch], 'int32')];
  },
  vjp: (_c, ins) => ins.map(() => null),
  saves: 'none',
  tf: {
    ops: [COMBINED],
    write(s, n, ins) {
      const p = n.params as CombinedParams;
      const param = (name: string, hint: string, dtype: 'int32' | 'float32'): string => paramInput(s, p, ins, name, hint, dtype);
      const inputs = [ins[0], ins[1], param('maxOutputSizePerClass', 'max_output_size_per_class', 'int32'), param('maxTotalSize', 'max_total_size', 'int32'), param('iouThreshold', 'iou_threshold', 'float32'), param('scoreThreshold', 'score_threshold', 'float32')];
      const name = s.add(COMBINED, COMBINED, inputs, { pad_per_class: attr.bool(p.padPerClass), clip_boxes: attr.bool(p.clipBoxes) });
      return n.outputs.map((_, k) => outputRef(name, k));
    },
    read(r) {
      r.arity(6);
      const dyn = { names: [] as string[], tensors: [] as Tensor[] };
      const params: CombinedParams = {
        maxOutputSizePerClass: paramOf(r, 2, 'maxOutputSizePerClass', 'int32', dyn),
        maxTotalSize: paramOf(r, 3, 'maxTotalSize', 'int32', dyn),
        iouThreshold: paramOf(r, 4, 'iouThreshold', 'float32', dyn),
        scoreThreshold: paramOf(r, 5, 'scoreThreshold', 'float32', dyn),
        padPerClass: r.node.bool('pad_per_class', false),
        clipBoxes: r.node.bool('clip_boxes', true),
        dynamic: dyn.names,
      };
      return bind(combined as Primitive, [r.input(0), r.input(1), ...dyn.tensors], params);
    },
  },
};
registerPrimitive(combined as Primitive);
