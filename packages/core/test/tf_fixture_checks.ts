// Shared by the TF-fixture tests (image_tf, linalg_tf, signal_tf): reading a fixture file, decoding fixture tensors,
// comparing with tolerances, and the first- and second-order gradient check (a fixed cotangent; second order is the
// gradient of the sum of the first).
import * as fs from 'fs';
import * as path from 'path';
import * as ef from 'eagerflow';

export interface Enc {
  /** float32 when absent. */
  dtype?: 'float32' | 'int32';
  shape: number[];
  data: number[];
}

export const tensorOf = (e: Enc): ef.Tensor => ef.reshape(ef.constant(e.data, e.dtype ?? 'float32'), e.shape);

/** A fixture file of this folder's fixtures/ (written by a scripts/tf-golden/ generator). */
export function readFixture<F>(file: string): F {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', file), 'utf8')) as F;
}

/** A fixture's cases as [name, case] rows, for describe.each('%s', ...). */
export const byName = <C extends { name: string }>(cases: readonly C[]): (readonly [string, C])[] => cases.map((c) => [c.name, c] as const);

/** The fixture was written by TensorFlow 2.21 and its cases cover exactly the ops a test runs. */
export function expectTfFixture(fix: { tf_version: string; cases: readonly { op: string }[] }, ops: object): void {
  expect(fix.tf_version).toBe('2.21.0');
  expect(new Set(fix.cases.map((c) => c.op))).toEqual(new Set(Object.keys(ops)));
}

export function expectClose(t: ef.Tensor | null, want: Enc, rtol: number, atol: number, what: string): void {
  expect(t).not.toBeNull();
  expect(t?.dims).toEqual(want.shape);
  const got = Array.from(t?.dataSync() as Float32Array);
  const bad = got.map((g, i) => [i, g, want.data[i]]).filter(([, g, w]) => !(Math.abs(g - w) <= atol + rtol * Math.abs(w)));
  if (bad.length > 0) throw new Error(`${what}: ${bad.length} of ${got.length} entries differ, first [${bad[0].join(', ')}] (index, got, TF)`);
}

export interface GradCase {
  inputs: Enc[];
  dy?: Enc[];
  grads?: Enc[];
  second?: Enc[];
}

/** Gradients of sum(dy · f(xs)) and of the sum of those gradients, against TF's; nothing may leak. */
export function expectTfGradients(run: (xs: ef.Tensor[]) => ef.Tensor[], c: GradCase, tol: { first: [number, number]; second: [number, number] }): void {
  const before = ef.memory().numTensors;
  ef.tidy(() => {
    const xs = c.inputs.map(tensorOf);
    const outer = new ef.GradientTape();
    const { g1, s } = outer.record(() => {
      xs.forEach((x) => outer.watch(x));
      const inner = new ef.GradientTape();
      const total = inner.record(() => {
        xs.forEach((x) => inner.watch(x));
        return run(xs).reduce((acc, y, i) => ef.add(acc, ef.reduceSum(ef.multiply(y, tensorOf((c.dy as Enc[])[i])))), ef.constant(0));
      });
      const grads = inner.gradient(total, xs) as ef.Tensor[];
      return { g1: grads, s: grads.reduce((acc, g) => ef.add(acc, ef.reduceSum(g)), ef.constant(0)) };
    });
    g1.forEach((g, i) => expectClose(g, (c.grads as Enc[])[i], tol.first[0], tol.first[1], `gradient ${i}`));
    const g2 = outer.gradient(s, xs) as (ef.Tensor | null)[];
    g2.forEach((g, i) => expectClose(g ?? ef.zerosLike(xs[i]), (c.second as Enc[])[i], tol.second[0], tol.second[1], `second-order gradient ${i}`));
  });
  expect(ef.memory().numTensors).toBe(before);
}
