// The public ops the suite must cover, derived from the op table, and NOT_YET: the ones without fixtures so far, each with why.
import * as ef from 'eagerflow';

/** The function at a public path ('add', 'nn.conv2d'), or undefined. */
export function opAt(path: string): unknown {
  let at: unknown = ef;
  for (const part of path.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
  return at;
}

/**
 * Every public op once, by its canonical name: the top-level name if it has one, else its first
 * TF path (`math.floordiv`). One op = one function, however many paths alias it. Fixture files
 * are named by the canonical name; a fixture under any alias also covers the op.
 */
export function publicOps(): { name: string; paths: string[] }[] {
  const byFn = new Map<unknown, string[]>();
  for (const [p, fn] of ef.internal.opEntries()) byFn.set(fn, [...(byFn.get(fn) ?? []), p]);
  return [...byFn.values()].map((paths) => ({ name: paths.find((p) => !p.includes('.')) ?? paths[0], paths }));
}

/**
 * Public ops without TensorFlow fixtures, by canonical name, each with why. Empty: every public op
 * has fixtures (the suite fails when one has none). Only an op with nothing numeric to compare may
 * stand here.
 */
export const NOT_YET: Readonly<Record<string, string>> = {
  print: 'a side effect: writes its arguments to the console when run and returns nothing, so there is no output to compare with TensorFlow (tf.print writes to stderr in its own format)',
  'complex': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'math.real': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'math.imag': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'signal.fft': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'signal.ifft': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'signal.rfft': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'signal.irfft': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'signal.stft': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'signal.inverseStft': 'complex64 in or out: this suite encodes no complex64 tensors; TF 2.21 values and 1st/2nd-order gradients in packages/core/test/signal_tf.test.ts (fixtures by scripts/tf-golden/tf_signal_fixture.py)',
  'signal.inverseStftWindowFn': 'returns a function (the window for inverseStft), not a tensor; its windows are checked against TF 2.21 in packages/core/test/signal_tf.test.ts',
};
