// Nested gradient tapes for the second-order tests of every package (one helper instead of a copy per test file).
import * as ef from 'eagerflow';

type GradientOptions = Parameters<ef.GradientTape['gradient']>[2];

/** How the first-order gradient is taken and what the outer tape records of it. */
export interface NestedOptions {
  /** Maps the inner gradient (and f(x)) to the tensor the outer tape records; the gradient itself by default. */
  then?: (dx: ef.Tensor, y: ef.Tensor) => ef.Tensor;
  /** Options of the inner `gradient` call. */
  inner?: GradientOptions;
}

/** What {@link recordFirstGradient} hands back: the outer tape (still able to differentiate) and what it recorded. */
export interface OuterRecord {
  outer: ef.GradientTape;
  value: ef.Tensor;
}

/**
 * Records a first-order gradient under an outer tape, for a second-order gradient, a Hessian or a Jacobian of it:
 * the outer tape watches `x`, an inner tape differentiates `f(x)` with respect to `x`, and `then` maps that
 * gradient to the tensor the outer tape records.
 */
export function recordFirstGradient(x: ef.Tensor, f: (x: ef.Tensor) => ef.Tensor, options: NestedOptions = {}): OuterRecord {
  const { then = (dx: ef.Tensor) => dx, inner: innerOptions } = options;
  const outer = new ef.GradientTape();
  const value = outer.record(() => {
    outer.watch(x);
    const inner = new ef.GradientTape();
    const y = inner.record(() => {
      inner.watch(x);
      return f(x);
    });
    return then(inner.gradient(y, x, innerOptions) as ef.Tensor, y);
  });
  return { outer, value };
}

/**
 * d/dx of then(d f(x) / dx) through two nested tapes; `then` defaults to the sum (the Hessian's row sums),
 * `outer` are the options of the outer `gradient` call.
 */
export function secondGradient(
  x: ef.Tensor,
  f: (x: ef.Tensor) => ef.Tensor,
  options: NestedOptions & { outer?: GradientOptions } = {},
): ef.Tensor | null {
  const { outer, value } = recordFirstGradient(x, f, { then: (dx) => ef.reduceSum(dx), ...options });
  return outer.gradient(value, x, options.outer);
}
