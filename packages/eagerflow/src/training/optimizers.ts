// ef.optimizers: SGD, Adam, AdamW, RMSprop and Adagrad with Keras 2.11+/3 update rules.
import { add, divide, maximum, multiply, pow, square, subtract, Tensor, TOP, argError } from '@eagerflow/core';

const { sqrt } = TOP;
import { Optimizer, OptimizerOptions, UpdateContext } from './optimizer';

function inUnit(api: string, name: string, v: number, closedAtOne = false): number {
  if (typeof v !== 'number' || !(v >= 0) || (closedAtOne ? v > 1 : v >= 1)) {
    throw argError(api, `${name} must be in [0, 1${closedAtOne ? ']' : ')'}`, String(v), 'e.g. 0.9', 'Pass a fraction.');
  }
  return v;
}

export interface SGDOptions extends OptimizerOptions {
  momentum?: number;
  nesterov?: boolean;
}

/**
 * Gradient descent with optional (Nesterov) momentum. With momentum `m = momentum * m - lr * g`;
 * `v += m` (Nesterov: `v += momentum * m - lr * g`).
 * @example
 * const v = new ef.Variable(1);
 * const opt = new ef.optimizers.SGD({ learningRate: 0.1, momentum: 0.9 });
 * opt.applyGradients([[ef.constant(1), v]]);
 * opt.applyGradients([[ef.constant(1), v]]);
 * v.value().item(); // 0.71
 */
export class SGD extends Optimizer {
  readonly momentum: number;
  readonly nesterov: boolean;
  constructor(options: SGDOptions = {}) {
    super(options, 0.01, 'SGD');
    this.momentum = inUnit('SGD', 'momentum', options.momentum ?? 0, true);
    this.nesterov = options.nesterov ?? false;
  }

  protected slotNames(): string[] {
    return this.momentum !== 0 ? ['momentum'] : [];
  }

  protected updateStep({ grad, variable, slots, lr }: UpdateContext): void {
    const step = multiply(grad, lr);
    if (this.momentum === 0) {
      variable.assignSub(step);
      return;
    }
    const m = subtract(multiply(slots.momentum, this.momentum), step);
    slots.momentum.assign(m);
    variable.assignAdd(this.nesterov ? subtract(multiply(m, this.momentum), step) : m);
  }
}

export interface AdamOptions extends OptimizerOptions {
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  amsgrad?: boolean;
}

/**
 * Adam (Kingma & Ba) as Keras writes it: `m += (g - m)(1 - beta1)`, `v += (g^2 - v)(1 - beta2)`,
 * `var -= m * alpha / (sqrt(v) + epsilon)` with `alpha = lr * sqrt(1 - beta2^t) / (1 - beta1^t)`;
 * `amsgrad` divides by the running maximum of v.
 * @example
 * const v = new ef.Variable(1);
 * const opt = new ef.optimizers.Adam({ learningRate: 0.1 });
 * opt.applyGradients([[ef.constant(2), v]]);
 * v.value().item(); // 0.9
 */
export class Adam extends Optimizer {
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
  readonly amsgrad: boolean;
  constructor(options: AdamOptions = {}, name = 'Adam') {
    super(options, 0.001, name);
    this.beta1 = inUnit(name, 'beta1', options.beta1 ?? 0.9);
    this.beta2 = inUnit(name, 'beta2', options.beta2 ?? 0.999);
    this.epsilon = options.epsilon ?? 1e-7;
    this.amsgrad = options.amsgrad ?? false;
  }

  protected slotNames(): string[] {
    return this.amsgrad ? ['momentum', 'velocity', 'velocity_hat'] : ['momentum', 'velocity'];
  }

  /** alpha for one applyGradients call, computed once for all its variables. */
  private alphaFor: { step: Tensor; alpha: Tensor } | null = null;

  private alpha(lr: Tensor, localStep: Tensor): Tensor {
    if (this.alphaFor?.step === localStep) return this.alphaFor.alpha;
    const b1p = pow(this.beta1, localStep);
    const b2p = pow(this.beta2, localStep);
    const alpha = divide(multiply(lr, sqrt(subtract(1, b2p))), subtract(1, b1p));
    this.alphaFor = { step: localStep, alpha };
    return alpha;
  }

  protected updateStep({ grad, variable, slots, lr, localStep }: UpdateContext): void {
    const alpha = this.alpha(lr, localStep);
    const m0 = slots.momentum.value();
    const v0 = slots.velocity.value();
    const m = add(m0, multiply(subtract(grad, m0), 1 - this.beta1));
    let v = add(v0, multiply(subtract(square(grad), v0), 1 - this.beta2));
    slots.momentum.assign(m);
    slots.velocity.assign(v);
    if (this.amsgrad) {
      v = maximum(slots.velocity_hat, v);
      slots.velocity_hat.assign(v);
    }
    variable.assignSub(divide(multiply(m, alpha), add(sqrt(v), this.epsilon)));
  }
}

/**
 * Adam with decoupled weight decay (Loshchilov & Hutter); Keras's default `weightDecay` is 0.004.
 * @example
 * const opt = new ef.optimizers.AdamW({ learningRate: 0.01 });
 * opt.weightDecay; // 0.004
 */
export class AdamW extends Adam {
  constructor(options: AdamOptions = {}) {
    if (options.weightDecay === null) {
      throw argError('AdamW', 'weightDecay cannot be null', 'null', 'a number; default 0.004', 'Use ef.optimizers.Adam for no weight decay.', null);
    }
    super({ ...options, weightDecay: options.weightDecay ?? 0.004 }, 'AdamW');
  }
}

export interface RMSpropOptions extends OptimizerOptions {
  rho?: number;
  momentum?: number;
  epsilon?: number;
  centered?: boolean;
}

/**
 * RMSprop (Keras 3): `acc = rho * acc + (1 - rho) g^2`, `inc = lr * g / sqrt(acc + eps)` (centered:
 * `sqrt(acc - avg^2 + eps)`), then `var -= inc` or through momentum `mom = momentum * mom + inc`.
 * @example
 * const v = new ef.Variable(1);
 * new ef.optimizers.RMSprop({ learningRate: 0.01 }).applyGradients([[ef.constant(1), v]]);
 * Math.abs(v.value().item() - (1 - 0.01 / Math.sqrt(0.1 + 1e-7))) < 1e-6; // true
 */
export class RMSprop extends Optimizer {
  readonly rho: number;
  readonly momentum: number;
  readonly epsilon: number;
  readonly centered: boolean;
  constructor(options: RMSpropOptions = {}) {
    super(options, 0.001, 'RMSprop');
    this.rho = inUnit('RMSprop', 'rho', options.rho ?? 0.9);
    this.momentum = inUnit('RMSprop', 'momentum', options.momentum ?? 0, true);
    this.epsilon = options.epsilon ?? 1e-7;
    this.centered = options.centered ?? false;
  }

  protected slotNames(): string[] {
    return ['velocity', ...(this.momentum > 0 ? ['momentum'] : []), ...(this.centered ? ['average_gradient'] : [])];
  }

  protected updateStep({ grad, variable, slots, lr }: UpdateContext): void {
    const rho = this.rho;
    const vel = add(multiply(slots.velocity, rho), multiply(square(grad), 1 - rho));
    slots.velocity.assign(vel);
    let denominator = add(vel, this.epsilon);
    if (this.centered) {
      const avg = add(multiply(slots.average_gradient, rho), multiply(grad, 1 - rho));
      slots.average_gradient.assign(avg);
      denominator = add(subtract(vel, square(avg)), this.epsilon);
    }
    const increment = divide(multiply(lr, grad), sqrt(denominator));
    if (this.momentum > 0) {
      const mom = add(multiply(slots.momentum, this.momentum), increment);
      slots.momentum.assign(mom);
      variable.assignSub(mom);
    } else variable.assignSub(increment);
  }
}

export interface AdagradOptions extends OptimizerOptions {
  initialAccumulatorValue?: number;
  epsilon?: number;
}

/**
 * Adagrad (Keras 3): `acc += g^2` (acc starts at initialAccumulatorValue, default 0.1),
 * `var -= lr * g / sqrt(acc + epsilon)`.
 * @example
 * const v = new ef.Variable(1);
 * new ef.optimizers.Adagrad({ learningRate: 0.1 }).applyGradients([[ef.constant(1), v]]);
 * Math.abs(v.value().item() - (1 - 0.1 / Math.sqrt(1.1 + 1e-7))) < 1e-6; // true
 */
export class Adagrad extends Optimizer {
  readonly initialAccumulatorValue: number;
  readonly epsilon: number;
  constructor(options: AdagradOptions = {}) {
    super(options, 0.001, 'Adagrad');
    const init = options.initialAccumulatorValue ?? 0.1;
    if (typeof init !== 'number' || !(init >= 0)) {
      throw argError('Adagrad', 'initialAccumulatorValue must be non-negative', String(init), 'e.g. 0.1', 'Pass a number >= 0.');
    }
    this.initialAccumulatorValue = init;
    this.epsilon = options.epsilon ?? 1e-7;
  }

  protected slotNames(): string[] {
    return ['accumulator'];
  }

  protected override slotInitialValue(): number {
    return this.initialAccumulatorValue;
  }

  protected updateStep({ grad, variable, slots, lr }: UpdateContext): void {
    const acc = add(slots.accumulator, square(grad));
    slots.accumulator.assign(acc);
    variable.assignSub(divide(multiply(lr, grad), sqrt(add(acc, this.epsilon))));
  }
}

export { Optimizer } from './optimizer';
export type { OptimizerOptions, GradVarPair, UpdateContext } from './optimizer';
