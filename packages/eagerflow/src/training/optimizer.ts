// The Keras (TF 2.11+/3) optimizer base: learning rate, slots, clipping, weight decay, applyGradients and minimize.
import { add, cast, clipByValue, constant, dispose, divide, GradientTape, greater, maximum, minimum, multiply, reduceSum, square, subtract, Tensor, TensorLike, tidy, TOP, Variable, where, argError, typeError } from '@eagerflow/core';

const { sqrt } = TOP;
import { LearningRateSchedule } from './schedules';

/** Options every optimizer takes (Keras's names in camelCase). */
export interface OptimizerOptions {
  /** A number, a Variable (read at every step) or a schedule (called on `iterations`). */
  learningRate?: number | Variable | LearningRateSchedule;
  /** Clip each gradient to this L2 norm. */
  clipnorm?: number | null;
  /** Clip each gradient element to [-clipvalue, clipvalue]. */
  clipvalue?: number | null;
  /** Scale all gradients together so their global L2 norm is at most this. */
  globalClipnorm?: number | null;
  /** Decoupled weight decay: `v -= v * weightDecay * lr` before the update. */
  weightDecay?: number | null;
  name?: string;
}

/** A `[gradient, variable]` pair; a null gradient is skipped with a warning. */
export type GradVarPair = readonly [Tensor | null | undefined, Variable];

/** What an update step gets: the clipped gradient, the variable, its slots, the rate and the step count (float32, from 1). */
export interface UpdateContext {
  readonly grad: Tensor;
  readonly variable: Variable;
  readonly slots: Readonly<Record<string, Variable>>;
  readonly lr: Tensor;
  readonly localStep: Tensor;
}

const isVar = (v: unknown): v is Variable => v instanceof Variable || (typeof v === 'object' && v !== null && (v as { isVariable?: unknown }).isVariable === true);

function optionalPositive(api: string, name: string, v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v)) {
    throw argError(api, `${name} must be a non-negative number`, String(v), 'e.g. 1.0', 'Pass a number or leave it unset.');
  }
  return v;
}

/** Keras's clip_by_norm: `g * clip / max(||g||, clip)`, safe (no NaN gradient) at g = 0. */
function clipByNorm(g: Tensor, clip: number): Tensor {
  const l2sum = reduceSum(square(g));
  const pred = greater(l2sum, 0);
  const l2norm = where(pred, sqrt(where(pred, l2sum, 1)), l2sum);
  return divide(multiply(g, clip), maximum(l2norm, clip));
}

/** Keras's clip_by_global_norm: every gradient scaled by `clip * min(1 / globalNorm, 1 / clip)` (NaN if the norm is inf). */
function clipByGlobalNorm(gs: Tensor[], clip: number): Tensor[] {
  const norm = sqrt(gs.map((g) => reduceSum(square(g))).reduce((a, b) => add(a, b)));
  const scale = add(multiply(clip, minimum(divide(1, norm), 1 / clip)), subtract(norm, norm));
  return gs.map((g) => multiply(g, scale));
}

/**
 * Base class of ef.optimizers (Keras's Optimizer). Subclasses name their slots and write one update.
 * Slots are non-trainable Variables created on the first `applyGradients` for a variable (also when that
 * is the first trace of an ef.trace'd train step).
 */
export abstract class Optimizer {
  /** Steps applied so far (an int32 Variable, like Keras's `iterations`). */
  readonly iterations: Variable;
  readonly name: string;
  readonly clipnorm: number | null;
  readonly clipvalue: number | null;
  readonly globalClipnorm: number | null;
  readonly weightDecay: number | null;
  private readonly lrVar: Variable | null;
  private readonly ownsLr: boolean;
  private readonly schedule: LearningRateSchedule | null;
  private readonly slotsById = new Map<number, Record<string, Variable>>();
  private readonly slotList: Variable[] = [];
  private readonly built: Variable[] = [];
  private readonly noDecay = new Set<number>();

  constructor(options: OptimizerOptions, defaultLr: number, name: string) {
    const api = name;
    this.name = options.name ?? name;
    this.clipnorm = optionalPositive(api, 'clipnorm', options.clipnorm);
    this.clipvalue = optionalPositive(api, 'clipvalue', options.clipvalue);
    this.globalClipnorm = optionalPositive(api, 'globalClipnorm', options.globalClipnorm);
    this.weightDecay = optionalPositive(api, 'weightDecay', options.weightDecay);
    if ([this.clipnorm, this.clipvalue, this.globalClipnorm].filter((c) => c !== null).length > 1) {
      throw argError(api, 'only one of clipnorm, clipvalue and globalClipnorm can be set', `clipnorm=${this.clipnorm}, clipvalue=${this.clipvalue}, globalClipnorm=${this.globalClipnorm}`, 'one', 'Keep the one you want.');
    }
    const lr = options.learningRate ?? defaultLr;
    this.schedule = lr instanceof LearningRateSchedule ? lr : null;
    if (isVar(lr)) {
      this.lrVar = lr;
      this.ownsLr = false;
    } else if (this.schedule === null) {
      if (typeof lr !== 'number' || !Number.isFinite(lr)) {
        throw argError(api, 'learningRate must be a number, a Variable or a schedule', typeof lr === 'number' ? String(lr) : typeof lr, 'e.g. 0.001', 'Pass a finite number or an ef.optimizers.schedules instance.');
      }
      this.lrVar = new Variable(lr, { trainable: false, name: `${this.name}/learning_rate`, dtype: 'float32' });
      this.ownsLr = true;
    } else {
      this.lrVar = null;
      this.ownsLr = false;
    }
    this.iterations = new Variable(0, { trainable: false, name: `${this.name}/iterations`, dtype: 'int32' });
  }

  /** The learning rate's holder: a Variable (assign to change it) or the schedule. */
  get learningRate(): Variable | LearningRateSchedule {
    return (this.schedule ?? this.lrVar) as Variable | LearningRateSchedule;
  }

  /** Sets a numeric learning rate (like Keras's `optimizer.learning_rate = x`); a schedule cannot be overwritten. */
  set learningRate(value: number | TensorLike) {
    if (this.lrVar === null) {
      throw argError(this.name, 'learningRate is a schedule', `an assignment of ${String(value)}`, 'none', 'Create a new optimizer to replace a schedule.');
    }
    this.lrVar.assign(value as TensorLike);
  }

  /** The learning rate for the next step, as a float32 scalar tensor (the schedule at `iterations`). */
  currentLearningRate(): Tensor {
    if (this.schedule !== null) return this.schedule(this.iterations);
    return cast(this.lrVar as Variable, 'float32');
  }

  /** Slot names this optimizer keeps per variable, in creation order. */
  protected abstract slotNames(): string[];

  /** Initial value of a slot (Adagrad's accumulator starts at initialAccumulatorValue). */
  protected slotInitialValue(_slot: string): number {
    return 0;
  }

  /** One variable's update (Keras's update_step). */
  protected abstract updateStep(c: UpdateContext): void;

  /** Creates the slots of variables that have none yet (Keras's build). */
  build(varList: readonly Variable[]): void {
    for (const v of varList) {
      if (this.slotsById.has(v.id)) continue;
      const shape = v.shape.asList() as number[];
      const slots: Record<string, Variable> = {};
      for (const s of this.slotNames()) {
        const init = constant(new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(this.slotInitialValue(s)), 'float32', shape);
        // The Variable shares the data: drop the temporary's own handle (eager; inside a trace it is a host value too).
        slots[s] = new Variable(init, { trainable: false, name: `${this.name}/${v.name}/${s}` });
        init.dispose();
        this.slotList.push(slots[s]);
      }
      this.slotsById.set(v.id, slots);
      this.built.push(v);
    }
  }

  /** The variables this optimizer has slots for, in the order it built them (Keras's `_trainable_variables`). */
  builtVariables(): Variable[] {
    return this.built.slice();
  }

  /** A variable's slot (`'momentum'`, `'velocity'`, ...), or undefined before its first update. */
  getSlot(variable: Variable, slot: string): Variable | undefined {
    return this.slotsById.get(variable.id)?.[slot];
  }

  /** All slots of a variable by name (Checkpoint saves them under the variable's path), or undefined before build. */
  slotsOf(variable: Variable): Readonly<Record<string, Variable>> | undefined {
    return this.slotsById.get(variable.id);
  }

  /** The learning-rate Variable this optimizer created from a number (saved by Checkpoint), else null. */
  get ownedLearningRate(): Variable | null {
    return this.ownsLr ? this.lrVar : null;
  }

  /** Keras's exclude_from_weight_decay: these variables are never decayed. */
  excludeFromWeightDecay(varList: readonly Variable[]): void {
    for (const v of varList) this.noDecay.add(v.id);
  }

  /** iterations, the learning-rate Variable (when the optimizer owns it), then every slot in creation order. */
  variables(): Variable[] {
    return [this.iterations, ...(this.ownsLr ? [this.lrVar as Variable] : []), ...this.slotList];
  }

  /**
   * Applies `[gradient, variable]` pairs: clips, decays weights, updates each variable and increments
   * `iterations`. Null gradients are skipped with a warning (an error when all are null).
   * @example
   * const v = new ef.Variable([1, 2]);
   * const opt = new ef.optimizers.SGD({ learningRate: 0.1 });
   * opt.applyGradients([[ef.constant([1, 1]), v]]);
   * v.value().arraySync(); // [0.9, 1.9]
   */
  applyGradients(pairs: Iterable<GradVarPair>): Variable {
    const { grads, vars } = this.filterPairs(pairs);
    this.build(vars);
    tidy(() => {
      const lr = this.currentLearningRate();
      const clipped = this.clip(grads);
      if (this.weightDecay !== null && this.weightDecay > 0) {
        const wd = this.weightDecay;
        for (const v of vars) if (!this.noDecay.has(v.id)) v.assign(subtract(v, multiply(v, multiply(lr, wd))));
      }
      const localStep = cast(add(this.iterations, 1), 'float32');
      vars.forEach((variable, i) => this.updateStep({ grad: clipped[i], variable, slots: this.slotsById.get(variable.id) as Record<string, Variable>, lr, localStep }));
      this.iterations.assignAdd(1);
    });
    return this.iterations;
  }

  private filterPairs(pairs: Iterable<GradVarPair>): { grads: Tensor[]; vars: Variable[] } {
    const api = `${this.name}.applyGradients`;
    const list = pairs !== null && typeof pairs === 'object' && Symbol.iterator in pairs ? [...pairs] : null;
    if (list === null) throw typeError(api, 'expected an array of [gradient, variable] pairs', typeof pairs, 'an iterable of [gradient, variable] pairs', 'Pass e.g. grads.map((g, i) => [g, vars[i]]).');
    const grads: Tensor[] = [];
    const vars: Variable[] = [];
    const missing: string[] = [];
    for (const p of list) {
      if (!Array.isArray(p) || p.length !== 2 || !isVar(p[1])) {
        throw typeError(api, 'each entry must be a [gradient, variable] pair', Array.isArray(p) ? `an array of ${p.length} with ${isVar(p[1]) ? 'a Variable' : typeof p[1]} second` : typeof p, '[Tensor | null, ef.Variable]', 'Zip gradients with their variables.');
      }
      const [g, v] = p;
      if (g === null || g === undefined) {
        missing.push(v.name);
        continue;
      }
      this.checkGrad(api, g, v);
      grads.push(g);
      vars.push(v);
    }
    if (grads.length === 0) {
      throw argError(api, 'no gradients provided for any variable', `null for [${missing.join(', ')}]`, 'at least one gradient', 'Check that the loss depends on the variables and was recorded on the tape.');
    }
    if (missing.length !== 0) console.warn(`${api}: Gradients do not exist for variables [${missing.join(', ')}] when minimizing the loss; they are not updated.`);
    return { grads, vars };
  }

  private checkGrad(api: string, g: Tensor, v: Variable): void {
    if (!(g instanceof Tensor)) throw typeError(api, `gradient for ${v.name} is not a Tensor`, typeof g, 'an ef.Tensor', 'Pass tape.gradient results.');
    if (g.dtype !== 'float32' || v.dtype !== 'float32') {
      throw argError(api, 'only float32 variables and gradients can be updated', `gradient ${g.dtype} for variable ${v.name} of ${v.dtype}`, 'float32', 'Exclude non-float variables from the list.');
    }
    if (!g.shape.isCompatibleWith(v.shape)) {
      throw argError(api, `gradient shape does not match variable ${v.name}`, g.shape.toString(), v.shape.toString(), 'Pair each gradient with its own variable.');
    }
  }

  private clip(grads: Tensor[]): Tensor[] {
    if (this.clipnorm !== null && this.clipnorm > 0) return grads.map((g) => clipByNorm(g, this.clipnorm as number));
    if (this.globalClipnorm !== null && this.globalClipnorm > 0) return clipByGlobalNorm(grads, this.globalClipnorm);
    if (this.clipvalue !== null && this.clipvalue > 0) return grads.map((g) => clipByValue(g, -(this.clipvalue as number), this.clipvalue as number));
    return grads;
  }

  /**
   * Computes the gradients of `loss` (a function recorded on `tape` or a new tape, or a tensor the given
   * tape recorded) with respect to `varList` and applies them. Returns the loss value.
   * @example
   * const w = new ef.Variable(3);
   * const opt = new ef.optimizers.SGD({ learningRate: 0.25 });
   * opt.minimize(() => ef.square(w), [w]).item(); // 9
   * w.value().item(); // 1.5
   */
  minimize(loss: (() => TensorLike) | Tensor, varList: readonly Variable[] | (() => readonly Variable[]), options: { tape?: GradientTape } = {}): Tensor {
    const api = `${this.name}.minimize`;
    let tape = options.tape;
    let value: Tensor;
    if (typeof loss === 'function') {
      tape ??= new GradientTape();
      const t = tape;
      value = t.record(() => constant(loss()));
    } else if (tape === undefined) {
      throw argError(api, 'a loss tensor needs the tape that recorded it', 'a Tensor and no tape', '{tape}', 'Pass a loss function, or {tape} with the tape that computed the loss.');
    } else value = loss;
    const vars = typeof varList === 'function' ? varList() : varList;
    const grads = tape.gradient(value, [...vars]) as (Tensor | null)[];
    try {
      this.applyGradients(vars.map((v, i) => [grads[i], v] as const));
    } finally {
      dispose(grads);
    }
    return value;
  }

  /** Frees iterations, an owned learning-rate Variable and every slot. */
  dispose(): void {
    for (const v of this.variables()) v.dispose();
  }
}
