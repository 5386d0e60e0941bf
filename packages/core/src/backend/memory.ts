// Memory: tidy, keep, dispose and memory(), over tfjs engine scopes and our Tensor wrappers.
import * as backend from './backend';
import { Tensor } from '../values/tensor';
import { graphBytes } from './graph_memory';
import { FailedPreconditionError, NotFoundError } from '../errors/errors';
import { opError, typeError } from '../errors/error_toolkit';

interface Disposable {
  isVariable?: boolean;
  dispose(): void;
}

/**
 * Collects the tfjs tensors (and, when `vars` is given, the Variables) inside a nested structure.
 * Iterative, with `seen` guarding shared and self-referencing parts: any depth, no stack overflow.
 */
function collect(root: unknown, out: backend.TfTensor[], seen: Set<unknown>, vars?: Disposable[]): void {
  const todo: unknown[] = [root];
  while (todo.length !== 0) {
    const x = todo.pop();
    if (x === null || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    if (x instanceof Tensor) {
      if (x._tf !== null) out.push(x._tf);
    } else if (backend.isTfTensor(x)) {
      out.push(x);
    } else if ((x as Disposable).isVariable) {
      vars?.push(x as Disposable);
    } else {
      const values = x instanceof Map ? Array.from(x.values()) : Array.isArray(x) ? x : Object.values(x);
      for (let i = values.length - 1; i >= 0; i--) todo.push(values[i]);
    }
  }
}

/**
 * Runs `fn` and disposes every tensor it created except those it returns.
 * @example
 * const before = ef.memory().numTensors;
 * const y = ef.tidy(() => ef.add(ef.multiply([1, 2], 2), 1));
 * ef.memory().numTensors - before; // 1 (only y)
 */
export function tidy<T>(fn: () => T): T;
export function tidy<T>(name: string, fn: () => T): T;
export function tidy<T>(a: string | (() => T), b?: () => T): T {
  const fn = typeof a === 'function' ? a : (b as () => T);
  if (typeof fn !== 'function') throw typeError('tidy', 'expected a function', typeof fn, '() => value', 'Pass ef.tidy(() => ...).');
  backend.startScope(typeof a === 'string' ? a : undefined);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    backend.endScope([]);
    throw e;
  }
  if (result instanceof Promise) {
    backend.endScope([]);
    // The refused Promise gets a handler: its later rejection must not end the process (unhandled).
    result.then(undefined, () => undefined);
    throw typeError('tidy', 'the function returned a Promise', 'an async function', 'a synchronous one', 'Run async work outside tidy and dispose explicitly.');
  }
  const keep: backend.TfTensor[] = [];
  collect(result, keep, new Set());
  backend.endScope(keep);
  return result;
}

/** Keeps a tensor alive past the enclosing tidy. */
export function keep<T extends Tensor>(t: T): T {
  if (t._tf !== null) backend.keepTf(t._tf);
  return t;
}

/** Disposes every tensor and variable in a structure (tidy, by contrast, never frees variables). */
export function dispose(x: unknown): void {
  const all: backend.TfTensor[] = [];
  const vars: Disposable[] = [];
  collect(x, all, new Set(), vars);
  for (const t of all) t.dispose();
  for (const v of vars) v.dispose();
}

/** What ef.memory() reports. */
export interface MemoryReport extends backend.MemoryInfo {
  /**
   * Bytes held by the constants of traced (and loaded) functions' graphs, counted once per buffer.
   * They are outside numBytes (an eager tensor a graph captured is counted in both while it lives);
   * `f.dispose()` frees them at once, otherwise they are freed after the function is garbage collected.
   */
  numGraphBytes: number;
}

/** The npm package that registers each tfjs backend, so a missing one can be named in the error. */
const BACKEND_PACKAGES: Readonly<Record<string, string>> = {
  cpu: '@tensorflow/tfjs-backend-cpu',
  webgl: '@tensorflow/tfjs-backend-webgl',
  wasm: '@tensorflow/tfjs-backend-wasm',
  webgpu: '@tensorflow/tfjs-backend-webgpu',
  tensorflow: '@tensorflow/tfjs-node',
};

/** Why `name` is not available and which package to install and import (names the package when known). */
function unknownBackend(name: string, cause: unknown): NotFoundError {
  const registered = backend.registeredBackends();
  const pkg = BACKEND_PACKAGES[name];
  const where = name === 'webgl' ? " A bundled web app gets it with 'eagerflow' (its browser entry); Node has no WebGL, use 'cpu' there." : '';
  const fix = pkg === undefined ? 'Import the backend package first or pick a registered one.' : `Install and import the package that registers it: npm i ${pkg}, then import '${pkg}' before ef.setBackend('${name}').${where}`;
  return opError(NotFoundError, 'setBackend', `unknown backend '${name}'`, `'${name}'`, registered.map((r) => `'${r}'`).join(' or ') || 'a registered backend', fix, { cause });
}

/** Why a backend package could not be loaded: not installed (names the npm command), or its own error. */
function missingPackage(name: string, cause: unknown): NotFoundError {
  const pkg = BACKEND_PACKAGES[name] ?? name;
  const text = cause instanceof Error ? cause.message : String(cause);
  const code = (cause as { code?: unknown } | null)?.code;
  const notInstalled = code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' || /Cannot find (module|package)|Failed to resolve module/.test(text);
  return notInstalled
    ? opError(NotFoundError, 'setBackend', `backend '${name}' needs the package ${pkg}, which is not installed`, `'${name}'`, `an installed ${pkg}`, `Install it: npm i ${pkg} (an optional peer dependency of eagerflow), then call ef.setBackend('${name}') again; a bundled web app also imports it: import '${pkg}'.`, { cause })
    : opError(NotFoundError, 'setBackend', `loading ${pkg} for backend '${name}' failed`, `'${name}'`, 'the package to load', `${text.split('\n')[0]}. Check that ${pkg} matches your @tensorflow/tfjs-core version (npm ls @tensorflow/tfjs-core).`, { cause });
}

/**
 * `{ numTensors, numBytes, numDataBuffers, numGraphBytes }` of the active backend.
 * @example
 * const f = ef.trace((x: ef.Tensor) => ef.add(x, ef.ones([1000])));
 * f(ef.zeros([1000]));
 * const held = ef.memory().numGraphBytes;
 * f.dispose();
 * held - ef.memory().numGraphBytes; // 4000
 */
export function memory(): MemoryReport {
  const m = backend.memory();
  return { numTensors: m.numTensors, numBytes: m.numBytes, numDataBuffers: m.numDataBuffers, numGraphBytes: graphBytes() };
}

/** True in Node.js (no WebGL there, whatever is imported). */
function inNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions === 'object' && process.versions !== null && typeof process.versions.node === 'string' && typeof (globalThis as { document?: unknown }).document === 'undefined';
}

/**
 * Switches the backend: 'cpu', 'wasm' (tfjs-backend-wasm, an optional peer loaded on first use), or
 * 'webgl' / 'webgpu' in a browser with WebGL2 / WebGPU.
 * @example
 * await ef.setBackend('cpu'); // true
 */
export async function setBackend(name: 'cpu' | 'wasm' | 'webgl' | 'webgpu' | string): Promise<boolean> {
  if (name === 'webgl' && inNode()) {
    throw opError(NotFoundError, 'setBackend', 'WebGL is not available in Node.js', "'webgl'", "'cpu' in Node", "Node has no WebGL: EagerFlow runs on the cpu backend here; use 'webgl' in a browser with WebGL2 (a bundled web app gets it with 'eagerflow' (its browser entry) and the peer dependency (npm i @tensorflow/tfjs-backend-webgl); a script tag with dist/eagerflow.js).");
  }
  try {
    await backend.loadBackendPackage(name);
  } catch (cause) {
    throw missingPackage(name, cause);
  }
  let ok: boolean;
  try {
    ok = await backend.setBackend(name);
  } catch (cause) {
    throw unknownBackend(name, cause);
  }
  if (!ok) {
    const gpu = name === 'webgpu' ? " WebGPU needs navigator.gpu with an adapter: a browser that has it, on a secure page (https:, or http://localhost / http://127.0.0.1); the console says why." : '';
    throw opError(FailedPreconditionError, 'setBackend', `backend '${name}' could not be initialized`, `'${name}'`, "'cpu', 'wasm' or, in a browser, 'webgl' (WebGL2) or 'webgpu' (WebGPU)", `Use 'cpu'; for 'wasm' check that its .wasm files are served where the page expects them (docs/backends.md); for 'webgl' use a browser where WebGL2 works.${gpu}`);
  }
  return ok;
}

export const getBackend = (): string => backend.getBackend();
export const ready = (): Promise<void> => backend.ready();
