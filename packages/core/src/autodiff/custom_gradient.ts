// customGradient, grad and valueAndGrad: closure-style differentiation on top of GradientTape.
import { bind, ctx, recordOperation, withoutTapes } from '../ops/bind';
import type { Info } from '../backend/backend';
import type { Primitive } from '../ops/primitive';
import { describe, isFloating } from '../values/dtype';
import { Tensor, freshId } from '../values/tensor';
import { TensorLike, convert, release } from '../values/convert';
import { GradientTape } from './gradient_tape';
import { zerosFor } from './gradient_util';
import { dispose, tidy } from '../backend/memory';
import { isPlainObject } from '../values/structure';
import * as o from '../ops/ops';
import { typeError } from '../errors/error_toolkit';

export interface CustomGradientResult {
  /** The forward value(s). */
  value: Tensor | Tensor[];
  /** Maps one cotangent per value to one gradient (or null) per input of f. */
  grad: (...dys: Tensor[]) => TensorLike | null | (TensorLike | null)[];
}

/**
 * Wraps `f` so that tapes differentiate it with `grad` instead of the ops `f` ran (which are not
 * recorded). `grad` runs during the backward pass, so its own ops are recorded by outer tapes:
 * higher-order gradients see through it.
 * @example
 * const clipGrad = ef.customGradient((x) => ({ value: ef.identity(x), grad: (dy) => ef.clipByValue(dy, -1, 1) }));
 * const x = ef.constant(3);
 * ef.grad((v) => ef.multiply(clipGrad(v) as ef.Tensor, 10))(x).item(); // 1
 */
export function customGradient(f: (...xs: Tensor[]) => CustomGradientResult): (...xs: TensorLike[]) => Tensor | Tensor[] {
  if (typeof f !== 'function') throw typeError('customGradient', 'expected a function', describe(f), '(...xs) => ({ value, grad })', 'Pass the forward function.');
  return (...args: TensorLike[]) => {
    const xs = args.map((a) => convert('customGradient', a).t);
    const first = freshId();
    const res = withoutTapes(() => f(...xs));
    const values = checkResult(res);
    // Like TensorFlow, outputs are new tensors: an input (or any older tensor) returned as the value,
    // or one value returned twice, is copied so the recorded op never reads its own output.
    const seen = new Set<number>();
    const outs = values.map((v) => {
      const out = v.id < first || seen.has(v.id) ? withoutTapes(() => o.identity(v)) : v;
      seen.add(out.id);
      return out;
    });
    if (ctx.builder !== null) {
      // Traced: the graph keeps the rule as a node (a replay under tapes, or a tape inside the trace, uses it).
      const traced = bind(customNode(f, outs.length), [...outs, ...xs], {});
      return Array.isArray(res.value) ? traced : traced[0];
    }
    recordOperation('custom_gradient', xs, outs, (cts) => gradientsOf(res.grad, cts, outs, xs));
    return Array.isArray(res.value) ? outs : outs[0];
  };
}

/** The IR name of a traced custom gradient node (saving refuses it by this name: no TF form yet). */
const CUSTOM_GRADIENT = 'custom_gradient';

/**
 * A traced customGradient call: its inputs are f's values then f's arguments; its outputs pass the values
 * through, and its vjp runs f again on the arguments (the trace's own tensors are gone by then) and applies
 * that call's `grad`. Gradient never flows into the values: the ops f ran are not differentiated, as eagerly.
 */
function customNode(f: (...xs: Tensor[]) => CustomGradientResult, n: number): Primitive {
  return {
    name: CUSTOM_GRADIENT,
    effect: 'pure',
    foldable: false,
    infer: (ins) => ins.slice(0, n).map((a) => ({ dtype: a.dtype, shape: a.shape })),
    impl: (k, ins) => ins.slice(0, n).map((x) => k.run('Identity', { x }) as Info),
    vjp: (cts, ins) => {
      const xs = ins.slice(n);
      const again = withoutTapes(() => f(...xs));
      const values = checkResult(again);
      const grads = gradientsOf(again.grad, cts, values, xs);
      values.forEach((v) => {
        if (!xs.includes(v) && !grads.includes(v)) v.dispose();
      });
      return [...new Array<Tensor | null>(n).fill(null), ...grads];
    },
    saves: 'inputs',
  };
}

function checkResult(res: unknown): Tensor[] {
  const r = res as Partial<CustomGradientResult> | null;
  if (r === null || typeof r !== 'object' || !('value' in r) || typeof r.grad !== 'function') {
    throw typeError('customGradient', 'f must return { value, grad }', describe(res), 'an object with a Tensor value and a grad function', 'Return { value: y, grad: (dy) => dx }.');
  }
  const values = Array.isArray(r.value) ? r.value : [r.value];
  for (const v of values) {
    if (!(v instanceof Tensor)) throw typeError('customGradient', 'value must be a Tensor or an array of Tensors', describe(v), 'a Tensor', 'Compute it with ef ops.');
  }
  return values as Tensor[];
}

function gradientsOf(grad: CustomGradientResult['grad'], cts: (Tensor | null)[], outs: Tensor[], xs: Tensor[]): (Tensor | null)[] {
  const dys = cts.map((c, i) => c ?? zerosFor(outs[i]));
  const g = grad(...dys);
  const gs = Array.isArray(g) ? g : [g];
  if (gs.length !== xs.length) {
    throw typeError('customGradient', 'grad returned the wrong number of gradients', String(gs.length), `${xs.length}, one per input of f`, 'Return one gradient (or null) per input, in order.');
  }
  return gs.map((v, i) => (v === null || v === undefined ? null : convert('customGradient', v as TensorLike, xs[i].dtype).t));
}

export interface ValueAndGrad<R> {
  value: R;
  /** One gradient per argument (null for integer arguments and unconnected ones). */
  grads: (Tensor | null)[];
  /** grads[0]. */
  grad: Tensor | null;
}

/**
 * Like grad, but also returns f's value: `{ value, grads, grad }`.
 * @example
 * const { value, grad } = ef.valueAndGrad((x) => ef.multiply(x, x))(3);
 * [value.item(), grad.item()]; // [9, 6]
 */
export function valueAndGrad<R>(f: (...xs: Tensor[]) => R): (...xs: TensorLike[]) => ValueAndGrad<R> {
  if (typeof f !== 'function') throw typeError('valueAndGrad', 'expected a function', describe(f), '(...xs) => Tensor', 'Pass the function to differentiate.');
  return (...args) => {
    const converted = args.map((a) => convert('valueAndGrad', a, 'float32'));
    const tape = new GradientTape();
    try {
      return tidy(() => {
        // TensorFlow: the same tensor passed twice is two arguments, each with its own gradient.
        const xs = converted.map((c, i) => (converted.findIndex((d) => d.t === c.t) < i ? o.identity(c.t) : c.t));
        const first = freshId();
        const value = tape.record(() => {
          tape.watch(xs.filter((x) => isFloating(x.dtype)));
          return f(...xs);
        });
        if (value === null || value === undefined) {
          throw typeError('valueAndGrad', `Cannot differentiate a function that returns ${String(value)}; did you forget to return a value from f?`, String(value), 'a Tensor', 'Return a Tensor from f.');
        }
        const grads = tape.gradient(value, xs) as (Tensor | null)[];
        return { value: owned(value, first), grads, grad: grads[0] ?? null };
      });
    } finally {
      tape.dispose(); // frees what it saved even when f or the gradient threw
      converted.forEach(release);
    }
  };
}

/** Copies tensors in `x` that existed before `first` (an argument returned as is), so the caller owns the value. */
function owned<R>(x: R, first: number): R {
  if (x instanceof Tensor) return (x.id < first ? o.identity(x) : x) as R;
  if (Array.isArray(x)) return x.map((v) => owned(v, first)) as R;
  if (isPlainObject(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, owned(v, first)])) as R;
  return x;
}

/**
 * Returns a function computing the gradient of `f`'s output (summed over its elements, and over
 * its outputs when it returns several) with respect to each argument: one Tensor for one argument,
 * an array for several.
 * @example
 * ef.grad((x) => ef.multiply(x, x))(ef.constant(3)).item(); // 6
 */
export function grad(f: (...xs: Tensor[]) => unknown): <A extends TensorLike[]>(...xs: A) => A extends [TensorLike] ? Tensor | null : (Tensor | null)[] {
  const vg = valueAndGrad(f);
  return <A extends TensorLike[]>(...xs: A) => {
    const { value, grads } = vg(...xs);
    dispose(value);
    return (xs.length === 1 ? grads[0] : grads) as A extends [TensorLike] ? Tensor | null : (Tensor | null)[];
  };
}
