// image: non-max suppression (TF's NonMaxSuppressionV3 / V4 padded / V5 with scores), on tfjs's kernels; not differentiable (TF has no gradient).
import type { Info } from '../../backend/backend';
import { defineOp } from '../define_op';
import { AVal } from '../primitive';
import { api, arg } from '../api_spec';
import { TfInput, attr, tfSpec } from '../graphdef_spec';
import { dimsToString } from '../../values/shape';
import { argError, checkArity, checkDTypes, FLOAT } from '../check';

export interface NmsParams {
  readonly maxOutputSize: number;
  readonly iouThreshold: number;
  readonly scoreThreshold: number;
}
export interface NmsScoresParams extends NmsParams {
  readonly softNmsSigma: number;
}
export interface NmsPaddedParams extends NmsParams {
  readonly padToMaxOutputSize: boolean;
}

/** Checks boxes [N, 4] and scores [N], and the thresholds TF validates. */
function checkNms(op: string, ins: AVal[], p: NmsParams): void {
  checkArity(op, ins, 2);
  checkDTypes(op, ins[0], FLOAT, 'boxes');
  checkDTypes(op, ins[1], FLOAT, 'scores');
  const [b, s] = [ins[0].shape, ins[1].shape];
  if (b !== null && (b.length !== 2 || (b[1] !== null && b[1] !== 4))) throw argError(op, 'boxes must be [numBoxes, 4]', dimsToString(b), '[numBoxes, 4]', 'Pass one [y1, x1, y2, x2] row per box.');
  if (s !== null && s.length !== 1) throw argError(op, 'scores must be 1-D', dimsToString(s), '[numBoxes]', 'Pass one score per box.');
  if (b !== null && s !== null && b[0] !== null && s[0] !== null && b[0] !== s[0]) throw argError(op, 'boxes and scores differ in count', `${dimsToString(b)} and ${dimsToString(s)}`, 'one score per box', 'Pass as many scores as boxes.');
  if (!Number.isInteger(p.maxOutputSize) || p.maxOutputSize < 0) throw argError(op, 'maxOutputSize must be an integer >= 0', String(p.maxOutputSize), 'an integer >= 0', 'Pass e.g. 10.');
  if (!(p.iouThreshold >= 0 && p.iouThreshold <= 1)) throw argError(op, 'iouThreshold must be in [0, 1]', String(p.iouThreshold), 'a number in [0, 1]', 'Pass e.g. 0.5.');
}

const opts = [arg.number('iouThreshold', 0.5), arg.number('scoreThreshold', -Infinity)] as const;
const inputs = <P extends NmsParams>(extra: readonly TfInput<P>[] = []): readonly TfInput<P>[] =>
  ['x', 'x', { param: 'maxOutputSize', shape: 'scalar', dtype: 'int32' }, { param: 'iouThreshold', shape: 'scalar', dtype: 'float32' }, { param: 'scoreThreshold', shape: 'scalar', dtype: 'float32' }, ...extra];
const kernelAttrs = (p: NmsParams): Record<string, unknown> => ({ maxOutputSize: p.maxOutputSize, iouThreshold: p.iouThreshold, scoreThreshold: p.scoreThreshold });

/** Indices of the kept boxes, by descending score (TF's NonMaxSuppressionV3). */
export const nonMaxSuppression = defineOp({
  name: 'non_max_suppression',
  infer(ins: AVal[], p: NmsParams) {
    checkNms('image.nonMaxSuppression', ins, p);
    return [{ dtype: 'int32', shape: [null] }];
  },
  impl: (k, [boxes, scores], p: NmsParams) => [k.run('NonMaxSuppressionV3', { boxes, scores }, kernelAttrs(p)) as Info],
  api: api(['image.nonMaxSuppression'], [arg.tensor('boxes', 'float32'), arg.tensor('scores', 'float32'), arg.int('maxOutputSize')], opts),
  tf: tfSpec<NmsParams>({ op: 'NonMaxSuppressionV3', inputs: inputs(), attrs: { T: { dtypeOf: 0 }, T_threshold: { fixed: attr.type('float32') } } }),
});

/** Kept indices and their (soft-NMS decayed) scores (TF's NonMaxSuppressionV5). */
export const nonMaxSuppressionWithScores = defineOp({
  name: 'non_max_suppression_with_scores',
  infer(ins: AVal[], p: NmsScoresParams) {
    checkNms('image.nonMaxSuppressionWithScores', ins, p);
    if (!(p.softNmsSigma >= 0)) throw argError('image.nonMaxSuppressionWithScores', 'softNmsSigma must be >= 0', String(p.softNmsSigma), 'a number >= 0 (0: hard NMS)', 'Pass e.g. 0.5.');
    return [{ dtype: 'int32', shape: [null] }, { dtype: 'float32', shape: [null] }];
  },
  impl: (k, [boxes, scores], p: NmsScoresParams) => k.run('NonMaxSuppressionV5', { boxes, scores }, { ...kernelAttrs(p), softNmsSigma: p.softNmsSigma }) as Info[],
  tf: tfSpec<NmsScoresParams>({ op: 'NonMaxSuppressionV5', inputs: inputs([{ param: 'softNmsSigma', shape: 'scalar', dtype: 'float32' }]), attrs: { T: { dtypeOf: 0 }, pad_to_max_output_size: { fixed: attr.bool(false) } } }),
});

/** Kept indices (zero-padded to maxOutputSize with `padToMaxOutputSize`) and how many are valid (TF's NonMaxSuppressionV4). */
export const nonMaxSuppressionPadded = defineOp({
  name: 'non_max_suppression_padded',
  infer(ins: AVal[], p: NmsPaddedParams) {
    checkNms('image.nonMaxSuppressionPadded', ins, p);
    return [{ dtype: 'int32', shape: [p.padToMaxOutputSize ? p.maxOutputSize : null] }, { dtype: 'int32', shape: [] }];
  },
  impl: (k, [boxes, scores], p: NmsPaddedParams) => k.run('NonMaxSuppressionV4', { boxes, scores }, { ...kernelAttrs(p), padToMaxOutputSize: p.padToMaxOutputSize }) as Info[],
  tf: tfSpec<NmsPaddedParams>({ op: 'NonMaxSuppressionV4', inputs: inputs(), attrs: { T: { dtypeOf: 0 }, T_threshold: { fixed: attr.type('float32') }, pad_to_max_output_size: { param: 'padToMaxOutputSize', kind: 'bool', default: false } } }),
});
