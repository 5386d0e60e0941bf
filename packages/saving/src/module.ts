// ef.Module (tf.Module): an object whose attributes (Variables, Modules, traced functions, arrays and plain objects of
// them) are tracked; the object graph that TF-format checkpoints and SavedModels walk.
import { ConcreteFunction } from '@eagerflow/function';
import { Variable, argError, currentNameScope, inNameScope, isPlainObject } from '@eagerflow/core';

interface ModuleState {
  name: string;
  /** The full name scope, fixed at construction: the enclosing scope then `name/` (TF's `name_scope.name`). */
  scope: string;
  /** Attribute name -> what a restore that ran before the attribute existed wants done when it is assigned. */
  deferred: Map<string, (value: unknown) => void>;
}

const STATE = new WeakMap<object, ModuleState>();

/** TF's camel_to_snake: the default module name from the class name (`MyDense` -> `my_dense`). */
function camelToSnake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

/** A traced function (ef.trace) or a ConcreteFunction, as a Module attribute. */
export function isTracedFunction(x: unknown): boolean {
  if (x instanceof ConcreteFunction) return true;
  return typeof x === 'function' && ('_tracer' in x || (x as { concreteFunction?: unknown }).concreteFunction instanceof ConcreteFunction);
}

/**
 * `tf.Module`: attributes that are Variables, Modules, traced functions, or arrays and plain objects
 * of them are tracked. `variables`, `trainableVariables` and `submodules` list them in TF's order (a
 * module's own attributes by name, values inside them in nest order, then each submodule's the same
 * way), each once. Assigning a tracked attribute after a checkpoint's `restore()` gives it the saved
 * value (deferred restoration).
 * @example
 * class Dense extends ef.Module {
 *   w = new ef.Variable([[1, 2], [3, 4]]);
 *   b = new ef.Variable([0, 0], { trainable: false });
 * }
 * class Net extends ef.Module {
 *   layer = new Dense();
 *   scale = new ef.Variable(2);
 * }
 * const net = new Net();
 * net.name; // 'net'
 * net.variables.length; // 3
 * net.trainableVariables.length; // 2
 * net.submodules.map((m) => m.name); // ['dense']
 */
export class Module {
  constructor(options: { name?: string } = {}) {
    const name = options.name ?? camelToSnake(new.target.name || 'module');
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_.\-/]*$/.test(name)) {
      throw argError('Module', 'the name is not a valid scope name', JSON.stringify(name) ?? String(name), 'letters, digits, _ . - / (not starting with a digit)', "Pass { name: 'my_module' }.");
    }
    const proxy = new Proxy(this, {
      set(target, key, value, receiver): boolean {
        const tracked = trackContainers(value);
        const ok = Reflect.set(target, key, tracked, receiver);
        if (ok && typeof key === 'string') noticeAssignment(receiver as object, key, tracked);
        return ok;
      },
      defineProperty(target, key, desc): boolean {
        const d = withTrackedValue(target, key, desc);
        const ok = Reflect.defineProperty(target, key, d);
        if (ok && typeof key === 'string' && 'value' in d) noticeAssignment(proxy, key, d.value);
        return ok;
      },
    });
    STATE.set(proxy, { name, scope: `${currentNameScope()}${name}/`, deferred: new Map() });
    return proxy;
  }

  /** The module's name (the class name in snake_case unless given). */
  get name(): string {
    return stateOf(this).name;
  }

  /**
   * The module's name scope, TF's `module.name_scope.name`: the scope in effect when the module was constructed
   * followed by `name/` (`'outer/dense/'` for a module built inside `outer`'s scope). Variables created inside
   * `withNameScope` take it as a prefix, as TF names them (`'outer/dense/w'`; EagerFlow's names leave out TF's
   * `:0` output suffix, as `ef.savedModel.load` does).
   */
  get nameScope(): string {
    return stateOf(this).scope;
  }

  /**
   * Runs `fn` inside the module's name scope (TF's `with self.name_scope:`): Variables it creates are named
   * `nameScope + name` (or `nameScope + 'Variable'` when unnamed), and Modules it constructs nest their scopes in it.
   * Returns what `fn` returns. Only the synchronous part of `fn` runs in the scope (an async function's code after
   * its first `await` does not).
   * @example
   * class Dense extends ef.Module {
   *   w: ef.Variable;
   *   constructor() {
   *     super();
   *     this.w = this.withNameScope(() => new ef.Variable([[1]], { name: 'w' }));
   *   }
   * }
   * new Dense().w.name; // 'dense/w'
   */
  withNameScope<T>(fn: () => T): T {
    return inNameScope(stateOf(this).scope, fn);
  }

  /**
   * Wraps a method so that it runs inside its module's name scope (TF's `@tf.Module.with_name_scope` decorator):
   * `call = ef.Module.withNameScope(function (this: MyModule, x) { ... })`.
   * @example
   * class Lazy extends ef.Module {
   *   w?: ef.Variable;
   *   call = ef.Module.withNameScope(function (this: Lazy, x: ef.Tensor) {
   *     this.w ??= new ef.Variable(ef.ones([x.shape.dims![1]!, 2]), { name: 'w' });
   *     return ef.matmul(x, this.w);
   *   });
   * }
   * const m = new Lazy();
   * m.call(ef.ones([1, 3])).arraySync(); // [[3, 3]]
   * m.w!.name; // 'lazy/w'
   */
  static withNameScope<This extends Module, A extends unknown[], R>(method: (this: This, ...args: A) => R): (this: This, ...args: A) => R {
    if (typeof method !== 'function') throw argError('Module.withNameScope', 'expected a method', typeof method, 'a function', 'Pass the method to wrap: ef.Module.withNameScope(function (this: M, x) { ... }).');
    return function (this: This, ...args: A): R {
      return inNameScope(stateOf(this).scope, () => method.apply(this, args));
    };
  }

  /** Every Variable of this module and its submodules, once each, in TF's order. */
  get variables(): Variable[] {
    return flattenModule(this, (x): x is Variable => x instanceof Variable);
  }

  /** The trainable ones of `variables`. */
  get trainableVariables(): Variable[] {
    return this.variables.filter((v) => v.trainable);
  }

  /** Every Module below this one (not itself), once each, in TF's order. */
  get submodules(): Module[] {
    return flattenModule(this, (x): x is Module => x instanceof Module);
  }
}

function stateOf(m: object): ModuleState {
  const s = STATE.get(m);
  if (s === undefined) throw argError('Module', 'this object is not a constructed ef.Module', typeof m, 'an instance of a class extending ef.Module', 'Call super() in the constructor.');
  return s;
}

/** Deferred restorations waiting on a key: of a Module (its state's map) or of a tracked container (this map). */
const CONTAINER_DEFERRED = new WeakMap<object, Map<string, (value: unknown) => void>>();

function deferredOf(x: object): Map<string, (value: unknown) => void> | undefined {
  return STATE.get(x)?.deferred ?? CONTAINER_DEFERRED.get(x);
}

function noticeAssignment(m: object, key: string, value: unknown): void {
  const deferred = deferredOf(m);
  const pending = deferred?.get(key);
  if (pending === undefined || value === undefined) return;
  deferred!.delete(key);
  pending(value);
}

/**
 * TF's ListWrapper/DictWrapper: an array or plain object assigned to a Module attribute (and the arrays and plain
 * objects inside it) is replaced by a Proxy of itself that notices elements set later (`push`, `m.list[2] = x`,
 * `m.dict.k = x`), so a checkpoint restored before they existed restores them when they arrive. The Proxy is still
 * an array (Array.isArray) or a plain object; changes made through another reference to the original are not seen.
 */
function trackContainers(x: unknown, depth = 0): unknown {
  if (x === null || typeof x !== 'object' || depth > 64 || CONTAINER_DEFERRED.has(x)) return x;
  if (!Array.isArray(x) && !isPlainObject(x)) return x;
  const target = x as Record<string, unknown>;
  for (const k of Object.keys(target)) {
    const inner = trackContainers(target[k], depth + 1);
    if (inner !== target[k]) target[k] = inner;
  }
  const proxy: object = new Proxy(target, {
    defineProperty(t, key, desc): boolean {
      const d = withTrackedValue(t, key, desc);
      const ok = Reflect.defineProperty(t, key, d);
      if (ok && typeof key === 'string' && 'value' in d) noticeAssignment(proxy, key, d.value);
      return ok;
    },
  });
  CONTAINER_DEFERRED.set(proxy, new Map());
  return proxy;
}

/**
 * The descriptor with its value's containers tracked; a non-configurable property keeps its value (a Proxy may not
 * report another value for it than the one defined).
 */
function withTrackedValue(target: object, key: string | symbol, desc: PropertyDescriptor): PropertyDescriptor {
  if (!('value' in desc)) return desc;
  const configurable = desc.configurable ?? Reflect.getOwnPropertyDescriptor(target, key)?.configurable ?? false;
  return configurable ? { ...desc, value: trackContainers(desc.value) } : desc;
}

/**
 * Registers what to do when `m[key]` is assigned (a checkpoint restore waiting for the attribute or element);
 * false if `m` is neither a Module nor a container tracked by one.
 */
export function deferAttribute(m: object, key: string, run: (value: unknown) => void): boolean {
  const deferred = deferredOf(m);
  if (deferred === undefined) return false;
  deferred.set(key, run);
  return true;
}

/** A Module's attribute that is a tracked array or plain object, even one holding nothing trackable yet (else undefined). */
export function trackedContainerAt(m: object, key: string): object | undefined {
  if (!(m instanceof Module) && !CONTAINER_DEFERRED.has(m)) return undefined;
  const v = (m as Record<string, unknown>)[key];
  return v !== null && typeof v === 'object' && CONTAINER_DEFERRED.has(v) ? v : undefined;
}

/** Whether `x` may be a tracked attribute value (recursively: arrays and plain objects of trackables). */
function isTrackable(x: unknown): boolean {
  if (x instanceof Variable || x instanceof Module || isTracedFunction(x)) return true;
  if (Array.isArray(x)) return x.some(isTrackable);
  if (isPlainObject(x)) return Object.values(x).some(isTrackable);
  return false;
}

/** A module's tracked attributes in insertion order (TF's checkpoint children order). */
export function moduleAttributes(m: Module): [string, unknown][] {
  return Object.entries(m).filter(([, v]) => isTrackable(v));
}

/** tf.nest's flatten order: arrays in order, plain objects by sorted key. */
function nestLeaves(x: unknown, out: unknown[], depth = 0): void {
  if (depth > 64) return;
  if (Array.isArray(x)) for (const y of x) nestLeaves(y, out, depth + 1);
  else if (isPlainObject(x)) for (const k of Object.keys(x).sort()) nestLeaves((x as Record<string, unknown>)[k], out, depth + 1);
  else out.push(x);
}

/** TF's Module._flatten: own attributes by sorted name (nest leaves inside), then each submodule's, depth first. */
function flattenModule<T>(root: Module, pick: (x: unknown) => x is T): T[] {
  const seen = new Set<unknown>([root]);
  const out: T[] = [];
  const stack = new Set<Module>();
  const walk = (m: Module): void => {
    const subs: Module[] = [];
    for (const key of Object.keys(m).sort()) {
      const leaves: unknown[] = [];
      nestLeaves((m as unknown as Record<string, unknown>)[key], leaves);
      for (const leaf of leaves) {
        if (seen.has(leaf)) continue;
        seen.add(leaf);
        if (pick(leaf)) out.push(leaf);
        if (leaf instanceof Module) subs.push(leaf);
      }
    }
    stack.add(m);
    for (const s of subs) if (!stack.has(s)) walk(s);
    stack.delete(m);
  };
  walk(root);
  return out;
}
