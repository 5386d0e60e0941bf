// ef.Module (tf.Module): an object whose attributes (Variables, Modules, traced functions, arrays and plain objects of
// them) are tracked; the object graph that TF-format checkpoints and SavedModels walk.
import { ConcreteFunction } from '@eagerflow/function';
import { Variable, argError, isPlainObject } from '@eagerflow/core';

interface ModuleState {
  name: string;
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
        const ok = Reflect.set(target, key, value, receiver);
        if (ok && typeof key === 'string') noticeAssignment(receiver as object, key, value);
        return ok;
      },
      defineProperty(target, key, desc): boolean {
        const ok = Reflect.defineProperty(target, key, desc);
        if (ok && typeof key === 'string' && 'value' in desc) noticeAssignment(proxy, key, desc.value);
        return ok;
      },
    });
    STATE.set(proxy, { name, deferred: new Map() });
    return proxy;
  }

  /** The module's name (the class name in snake_case unless given). */
  get name(): string {
    return stateOf(this).name;
  }

  /** The name scope of the module's variables (`name/`). */
  get nameScope(): string {
    return `${stateOf(this).name}/`;
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

function noticeAssignment(m: object, key: string, value: unknown): void {
  const s = STATE.get(m);
  const pending = s?.deferred.get(key);
  if (pending === undefined || value === undefined) return;
  s!.deferred.delete(key);
  pending(value);
}

/** Registers what to do when `m[key]` is assigned (a checkpoint restore waiting for the attribute); false if `m` is no Module. */
export function deferAttribute(m: object, key: string, run: (value: unknown) => void): boolean {
  const s = STATE.get(m);
  if (s === undefined) return false;
  s.deferred.set(key, run);
  return true;
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
