// The documented departures from TensorFlow 2.21: each entry says what it allows, where, and why.
import type { Divergence, What } from './compare';
import type { PathName } from './paths';
import { ALLOWLIST_20B } from './allowlist_20b';
import { ALLOWLIST_20C } from './allowlist_20c';
import { ALLOWLIST_11M } from './allowlist_11m';

export interface Allowed {
  id: string;
  /** Ops it covers ('*' = every op). */
  ops: readonly string[] | '*';
  /** Kinds of difference it covers. */
  what: readonly What[];
  /** Only cases carrying this fixture tag. */
  tag?: string;
  /** Only these case names. */
  cases?: readonly string[];
  /** Only these paths (default all). */
  paths?: readonly PathName[];
  reason: string;
}

export const ALLOWLIST: readonly Allowed[] = [
  {
    id: 'softmax-inf-nan-onednn',
    ops: ['softmax'],
    what: ['value'],
    cases: ['with inf', 'with NaN'],
    reason: "TensorFlow 2.21's own answer depends on its build: these fixtures run Eigen's kernel (TF_ENABLE_ONEDNN_OPTS=0), where a row holding inf or NaN is all NaN; TF's default x86 build (oneDNN on) gives [1, inf, 2] -> [0, nan, 0] and [nan, 1, 2] -> [nan, 0, 0]. ef follows the default build (issue 28; fixtures/tf_idioms.json records both, test/tf_idioms.test.ts checks them). An all -inf row is NaN in both.",
  },
  {
    id: 'no-float64',
    ops: '*',
    what: ['dtype-float64'],
    reason: 'The contract has no float64: where TensorFlow returns float64 (tf.math.divide of int32), ef returns float32; values are compared after rounding TF\'s to float32.',
  },
  {
    id: 'int32-for-int64',
    ops: '*',
    what: ['dtype-int64'],
    reason: 'The contract has no int64: where TensorFlow returns int64, ef returns int32 with the same values.',
  },
  {
    id: 'denormals-kept',
    ops: '*',
    what: ['value', 'signed-zero'],
    tag: 'denormal',
    reason: 'TensorFlow\'s CPU kernels flush denormal float32 inputs and results to zero (FTZ/DAZ); the tfjs kernels, JavaScript and WebAssembly keep them. Only cases whose inputs are denormal differ.',
  },
  {
    id: 'denormal-intermediates',
    ops: ['divide', 'pow'],
    what: ['value'],
    cases: ['special grid'],
    paths: ['grad-2nd', 'traced-grad-2nd'],
    reason: 'Second-order gradients at x = inf / 3e38 pass through denormal intermediates (2 / 3e38 in divide\'s gradient, 1 / 3e38 in pow\'s): TensorFlow flushes them to 0 and then computes inf * 0 = NaN; ef keeps them and gets inf * tiny = inf. Same cause as denormals-kept.',
  },
  {
    id: 'sqrt-grad-zero-sign',
    ops: ['sqrt'],
    what: ['signed-zero'],
    cases: ['special values'],
    paths: ['grad-2nd', 'traced-grad-2nd'],
    reason: 'At x = inf the second-order gradient is a zero whose sign TensorFlow\'s SqrtGrad kernel does not define by IEEE rules: SqrtGrad(y = inf, dy = -0) returns +0 where (0.5 * dy) / y is -0. ef follows IEEE.',
  },
  {
    id: 'tf-transpose-negative-perm-gradient',
    ops: ['transpose'],
    what: ['no-raise'],
    cases: ['negative perm [-1, 0, 1]'],
    paths: ['grad', 'grad-2nd', 'traced-grad', 'traced-grad-2nd', 'traced-grad-unknown-dims'],
    reason: 'TensorFlow accepts a negative perm entry in the forward op but its gradient fails (invert_permutation refuses negative entries): a TensorFlow bug. ef differentiates it (the gradient is the transpose by the inverse permutation).',
  },
  {
    id: 'pruned-dead-op',
    ops: ['unsortedSegmentSum'],
    what: ['no-raise'],
    cases: ['zero segments'],
    paths: ['traced-grad-2nd'],
    reason: 'TensorFlow\'s eager second-order gradient raises in a gather whose result the final gradient does not use (out of range on an empty cotangent). A trace prunes such a dead op, as tf.function does, so the traced second-order gradient returns the (zero) result instead.',
  },
  {
    id: 'random-streams',
    ops: '*',
    what: ['value', 'signed-zero'],
    tag: 'random',
    reason: 'Random ops: TensorFlow draws from its Philox streams and ef from tfjs\'s generators seeded by TF\'s rules, so the same seed gives different numbers. Fixtures pin dtype and shape exactly; the values\' ranges, moments and seed determinism are tested in random_stats.test.ts.',
  },
  {
    id: 'signed-zero-of-max-min',
    ops: ['maximum', 'minimum', 'clipByValue'],
    what: ['signed-zero'],
    reason: 'Which zero maximum(0, -0) / minimum(0, -0) returns is unspecified in TensorFlow (it depends on the Eigen packet path); ef returns a zero of either sign.',
  },
];

/** Every cpu (and wasm) allowlist entry: the issue allowlists together. */
export const CPU_ALLOWLIST: readonly Allowed[] = [...ALLOWLIST, ...ALLOWLIST_20B, ...ALLOWLIST_20C, ...ALLOWLIST_11M];

/** The entry of `list` that allows divergence `d`, if any. */
export function allowedIn(list: readonly Allowed[], d: Divergence): Allowed | undefined {
  return list.find(
    (a) =>
      (a.ops === '*' || a.ops.includes(d.op)) &&
      a.what.includes(d.what) &&
      (a.tag === undefined || d.tags.includes(a.tag)) &&
      (a.cases === undefined || a.cases.includes(d.case)) &&
      (a.paths === undefined || a.paths.includes(d.path)),
  );
}

export function allowedBy(d: Divergence): Allowed | undefined {
  return allowedIn(CPU_ALLOWLIST, d);
}
