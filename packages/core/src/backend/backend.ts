// The backend seam: the only module that imports @tensorflow/tfjs-core. Kernels, memory, backends.
/* eslint-disable @typescript-eslint/no-explicit-any */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import type { DType, HostData } from '../values/dtype';
import { internalError, missingKernel } from '../errors/error_toolkit';
import { fillKernelGaps, patchBackendInstance, splitComplex } from './kernel_gaps';

export type TfTensor = tf.Tensor;

/** What a kernel consumes and produces: a data handle with its shape and dtype (tf.Tensor is one). */
export interface Info {
  readonly dataId: object;
  readonly shape: number[];
  readonly dtype: string;
}

export type Attrs = Record<string, unknown>;

/** A way to run kernels: tracked by the tfjs engine (eager) or direct (graph executor). */
export interface Kernels {
  run(name: string, inputs: Record<string, Info>, attrs?: Attrs): Info | Info[];
  /** Frees an intermediate this runner produced. */
  free(x: Info): void;
  /** Uploads host values as a new value of this runner. */
  upload(values: HostData, shape: number[], dtype: DType): Info;
}

const EMPTY: Attrs = {};
// Production mode: no per-op debug checks and no "install tfjs-node" banner.
tf.enableProdMode();
const engine = tf.engine();
// tfjs-core's CommonJS build has no __esModule flag, so every `tf.x` read in the compiled code is a
// getter made by the import helper: the per-op paths read these once.
const TfTensorClass = tf.Tensor;
const tfTensor = tf.tensor;
const tfGetBackend = tf.getBackend;
const tfGetKernel = tf.getKernel;
warnIfSecondTfjsCopy();

/** What every EagerFlow load registers on globalThis, so copies can see each other. */
interface Copies {
  versions: string[];
  tensors: unknown[];
  cores: number;
  warned: boolean;
}

/**
 * Warns (once per process) when a second copy of @tensorflow/tfjs-core is loaded: copies share one
 * global engine, so tensors of one are not `instanceof` the other's and EagerFlow may run on the
 * other copy's kernels. Seen when the engine was made by another copy, or when another EagerFlow
 * load brought its own copy (the copies meet in a registry on globalThis). Also warns when
 * EagerFlow itself is loaded twice (its ESM build through import and its CommonJS build through require).
 */
function warnIfSecondTfjsCopy(): void {
  const g = globalThis as { [k: symbol]: Copies | undefined };
  const seen = (g[Symbol.for('eagerflow.tfjsCoreCopies')] ??= { versions: [], tensors: [], cores: 0, warned: false });
  seen.cores += 1;
  if (!seen.tensors.includes(tf.Tensor)) {
    seen.tensors.push(tf.Tensor);
    seen.versions.push(tf.version_core);
  }
  const foreignEngine = !(engine.ENV instanceof tf.Environment);
  if (seen.warned || (!foreignEngine && seen.tensors.length < 2 && seen.cores < 2)) return;
  seen.warned = true;
  const versions = foreignEngine ? `${seen.versions.join(', ')} and the one that created the tfjs engine first` : seen.versions.join(' and ');
  console.warn(
    foreignEngine || seen.tensors.length > 1
      ? `eagerflow: two copies of @tensorflow/tfjs-core are loaded (got versions ${versions}, expected one shared copy). ` +
          "Tensors of one copy are not tensors of the other, and ops may run on the other copy's kernels. " +
          'Run `npm ls @tensorflow/tfjs-core` to find them, align your tfjs packages with the peer range EagerFlow declares, then run `npm dedupe`.'
      : 'eagerflow: EagerFlow is loaded twice (got 2 copies of @eagerflow/core, expected one): its ES-module build through import and its CommonJS build through require, or two installed versions. ' +
          'Tensors of one copy are not ef.Tensors of the other. Load EagerFlow through one module system (import or require), and run `npm ls @eagerflow/core`, then `npm dedupe`.',
  );
}

/**
 * Kernels that only move, pick or copy elements (no arithmetic): on complex64 they run on the real and imaginary
 * parts, recombined, because tfjs's CPU backend lacks complex64 for several of them (Slice, Tile, Select, GatherV2:
 * "slice does not support complex64 tensors") while TensorFlow has them.
 */
const LAYOUT_KERNELS = new Set(['Slice', 'StridedSlice', 'Tile', 'Select', 'GatherV2', 'GatherNd', 'Transpose', 'Pad', 'MirrorPad', 'Reverse', 'BroadcastTo', 'SplitV', 'Unpack', 'Pack', 'Concat', 'ScatterNd', 'TensorScatterUpdate', 'BatchToSpaceND', 'SpaceToBatchND', 'DepthToSpace', 'Reshape', 'Identity', 'ZerosLike']);

type KernelInput = Info | Info[];
const isComplex = (v: unknown): boolean => (v as Info | null)?.dtype === 'complex64';
/** Whether any input (or list element) is complex64: a plain loop, no arrays or closures (the executor's Identity and Reshape steps ask on every call). */
function hasComplex(inputs: Record<string, Info>): boolean {
  for (const key in inputs) {
    const v = (inputs as Record<string, KernelInput>)[key];
    if (!Array.isArray(v)) {
      if (v != null && v.dtype === 'complex64') return true;
      continue;
    }
    for (let i = 0; i < v.length; i++) if (isComplex(v[i])) return true;
  }
  return false;
}

/** Runs layout kernel `name` on the real and imaginary parts of its complex64 inputs and recombines; frees every intermediate. */
function runByParts(k: Kernels, name: string, inputs: Record<string, Info>, attrs: Attrs | undefined): Info | Info[] {
  const part = (kernel: 'Real' | 'Imag'): Info | Info[] => {
    const temps: Info[] = [];
    const pick = (v: Info): Info => {
      if (!isComplex(v)) return v;
      const t = k.run(kernel, { input: v }) as Info;
      temps.push(t);
      return t;
    };
    // Concat's inputs are the tensor list itself, the others a record of tensors (or lists).
    const ins = Array.isArray(inputs) ? (inputs as Info[]).map(pick) : Object.fromEntries(Object.entries(inputs as Record<string, KernelInput>).map(([key, v]) => [key, Array.isArray(v) ? v.map(pick) : pick(v)]));
    try {
      return k.run(name, ins as Record<string, Info>, attrs);
    } finally {
      temps.forEach((t) => k.free(t));
    }
  };
  const list = (x: Info | Info[] | null): Info[] => (x === null ? [] : Array.isArray(x) ? x : [x]);
  const re = part('Real');
  let im: Info | Info[] | null = null;
  try {
    im = part('Imag');
    const [rs, is] = [list(re), list(im)];
    const joined = rs.map((r, j) => k.run('Complex', { real: r, imag: is[j] }) as Info);
    return Array.isArray(re) ? joined : joined[0];
  } finally {
    [...list(re), ...list(im)].forEach((t) => k.free(t));
  }
}

/** Kernels through the tfjs engine: results are tracked tf.Tensors (tidy, memory()). */
export const engineKernels: Kernels = {
  run(name, inputs, attrs) {
    if (LAYOUT_KERNELS.has(name) && hasComplex(inputs)) return runByParts(engineKernels, name, inputs, attrs);
    try {
      return engine.runKernel(name, inputs as any, (attrs ?? EMPTY) as any) as any;
    } catch (e) {
      const active = getBackend();
      // A backend made active behind EagerFlow's back (tf.setBackend) gets its gaps filled on first need.
      if (tfGetKernel(name, active) === undefined && fillKernelGaps(active) && tfGetKernel(name, active) !== undefined) return engineKernels.run(name, inputs, attrs);
      // tfjs says "Kernel 'X' not registered for backend 'Y'" as a plain Error: make it an UnimplementedError.
      throw tfGetKernel(name, active) === undefined ? kernelMissing(name, active) : e;
    }
  },
  free(x) {
    (x as TfTensor).dispose();
  },
  upload(values, shape, dtype) {
    return makeTf(values as HostData, shape, dtype);
  },
};

/** UnimplementedError naming the kernel, the backend, and the registered backends that have it (the caller names the op). */
function kernelMissing(kernel: string, backendName: string): Error {
  const have = Object.keys(engine.registryFactory).filter((b) => b !== backendName && tfGetKernel(kernel, b) !== undefined);
  return missingKernel(null, kernel, backendName, have);
}

let directBackend: any = null;
let directBackendName = '';
const kernelCache = new Map<string, (args: any) => any>();

// The functions the executor calls per step (kernels, free, upload, reads, the host checks) test
// `directBackend !== null && engine.backendName === directBackendName` themselves and call this only on a change:
// while V8 interprets them (a process's first calls of a traced function) each call costs.
function backendForDirect(): any {
  // engine.backendName is what tf.getBackend() returns (read here without the call: every kernel call asks).
  let name = engine.backendName;
  if (!name) {
    void engine.backend;
    name = engine.backendName;
  }
  // Re-looked up while null: tfjs names an async backend (webgpu) active before it has started.
  // `registry` has no side effect; findBackend would start a second initialization, and tfjs then
  // reports the first `setBackend` as failed.
  if (name !== directBackendName || directBackend === null) {
    fillKernelGaps(name);
    directBackend = (engine as any).registry[name] ?? null;
    patchBackendInstance(name, directBackend);
    directBackendName = name;
    kernelCache.clear();
  }
  return directBackend;
}

/**
 * Kernels called directly on the backend, skipping the engine's per-op bookkeeping: the graph
 * executor's fast path. Results are untracked until `adopt` hands them to the engine.
 */
export const directKernels: Kernels = {
  run(name, inputs, attrs) {
    if (LAYOUT_KERNELS.has(name) && hasComplex(inputs)) return runByParts(directKernels, name, inputs, attrs);
    // The same backend as the last call (backendForDirect's own test, without the call).
    const backend = directBackend !== null && engine.backendName === directBackendName ? directBackend : backendForDirect();
    let fn = kernelCache.get(name);
    if (fn === undefined) {
      const k = tfGetKernel(name, directBackendName);
      if (!k) throw kernelMissing(name, directBackendName);
      fn = k.kernelFunc as (args: any) => any;
      kernelCache.set(name, fn);
    }
    const r = fn({ inputs, attrs: attrs ?? EMPTY, backend });
    // A plain result record (most kernels' one result) is untracked already; see untracked.
    return Array.isArray(r) || r.throwIfDisposed != null ? untracked(r, inputs, backend) : r;
  },
  free(x) {
    const backend = directBackend !== null && engine.backendName === directBackendName ? directBackend : backendForDirect();
    // No backend while an async one starts: a late free (an async callback's tail) cannot be routed.
    if (backend === null) return;
    if (backend.disposeData(x.dataId)) engine.removeDataId(x.dataId, backend);
  },
  upload(values, shape, dtype) {
    const backend = directBackend !== null && engine.backendName === directBackendName ? directBackend : backendForDirect();
    // complex64 data lives in a real and an imaginary tensor (a plain write would leave them missing): build it through
    // tf.complex and keep its data untracked like a kernel result.
    if (dtype === 'complex64') return untracked(complexTf(values as Float32Array, shape), {}, backend);
    // Backends store strings as UTF-8 bytes (what tf.tensor does for string values).
    const data = dtype === 'string' ? (values as (string | Uint8Array)[]).map((v) => (typeof v === 'string' ? tf.util.encodeString(v) : v)) : values;
    const dataId = backend.write(data, shape, dtype);
    return { dataId, shape, dtype };
  },
};

/**
 * A few cpu kernels (Abs, ...) return engine-tracked tf.Tensors even when called directly; the direct
 * runner's results are untracked values freed with `free`, so keep the data and drop the tracking
 * (otherwise every such intermediate in a graph would stay in the engine's tensor count).
 */
function untracked(r: any, inputs: Record<string, Info>, backend: any): any {
  if (Array.isArray(r)) return r.map((x) => untracked(x, inputs, backend));
  // Most kernels return plain {dataId, shape, dtype} records: without `throwIfDisposed` a value is no tf.Tensor by
  // tfjs's own instanceof test (its Symbol.hasInstance), which is then not called.
  if (r.throwIfDisposed == null || !(r instanceof TfTensorClass) || Object.values(inputs).includes(r)) return r;
  const info: Info = { dataId: r.dataId, shape: r.shape, dtype: r.dtype };
  backend.incRef(r.dataId);
  r.dispose();
  return info;
}

/** Hands an untracked kernel result to the engine as a tracked tf.Tensor (no copy). */
export function adopt(x: Info): TfTensor {
  // (The plain kernel records lack `throwIfDisposed`: tfjs's instanceof test, a function call, is skipped for them.)
  if ((x as { throwIfDisposed?: unknown }).throwIfDisposed != null && x instanceof TfTensorClass) return x;
  return engine.makeTensorFromTensorInfo(x as any, directBackend !== null && engine.backendName === directBackendName ? directBackend : backendForDirect());
}

/**
 * Hands a tracked tf.Tensor to a kernel runner as one of its own results: unchanged for the engine
 * runner; for the direct runner an untracked reference (the tracked tensor is released).
 */
export function intoKernels(k: Kernels, t: TfTensor): Info {
  if (k === engineKernels) return t;
  const info = k.run('Identity', { x: t }) as Info;
  t.dispose();
  return info;
}

const scalarPool = new Map<string, TfTensor>();
let pooledIds = 0;
/** At most this many distinct pooled scalars (per backend and dtype); beyond it ops upload as usual. */
export const scalarPoolLimit = { size: 256 };

/**
 * A shared, read-only scalar for a JS number an op converts (`ef.multiply(x, 2)`): uploaded once,
 * then reused, so gradient rules and eager ops do not upload `1` or `2` again and again. Pooled
 * scalars are library constants outside the engine's accounting (memory() does not count them);
 * they are never handed to users as results. Null when the pool is full.
 */
export function pooledScalar(value: number | boolean, dtype: 'float32' | 'int32' | 'bool'): TfTensor | null {
  const backend = backendForDirect();
  const key = `${directBackendName}|${dtype}|${Object.is(value, -0) ? '-0' : String(value)}`;
  const known = scalarPool.get(key);
  if (known !== undefined && !known.isDisposed) return known;
  if (scalarPool.size >= scalarPoolLimit.size) return null;
  const values = dtype === 'float32' ? Float32Array.of(Number(value)) : dtype === 'int32' ? Int32Array.of(Number(value)) : Uint8Array.of(value ? 1 : 0);
  const dataId = backend.write(values, [], dtype);
  const TensorCtor = TfTensorClass as unknown as new (shape: number[], dtype: string, dataId: object, id: number) => TfTensor;
  const t = new TensorCtor([], dtype, dataId, -1 - pooledIds++);
  scalarPool.set(key, t);
  return t;
}

/** Keeps the data of `x` alive independently of its tf.Tensor (the tape's and graphs' saved values). */
export function pin(x: Info): void {
  backendForDirect().incRef(x.dataId);
}

/** Releases a `pin`. */
export function unpin(x: Info): void {
  directKernels.free(x);
}

/** A new tracked tf.Tensor sharing `x`'s data (its own reference). */
export function share(x: Info): TfTensor {
  pin(x);
  return engine.makeTensorFromTensorInfo(x as any, backendForDirect());
}

/** The name of the backend kernels run on now ('' before any backend is up). */
export function activeBackendName(): string {
  if (directBackend === null || engine.backendName !== directBackendName) backendForDirect();
  return directBackend === null ? '' : directBackendName;
}

/**
 * Runs a generated GPU program on the active backend through tfjs's own program runner: a webgl
 * GPGPUProgram (runWebGLProgram: tfjs compiles, caches and binds it) or a webgpu WebGPUProgram
 * (runWebGPUProgram). The float32 result is untracked, freed with `directKernels.free`.
 */
export function runGpuProgram(program: object, inputs: Info[]): Info {
  const b = backendForDirect();
  if (directBackendName === 'webgl') return b.runWebGLProgram(program, inputs, 'float32') as Info;
  if (directBackendName === 'webgpu') return b.runWebGPUProgram(program, inputs, 'float32') as Info;
  throw internalError('fused_elementwise', `a generated GPU program was run on backend '${directBackendName}', which runs none`);
}

/**
 * True when values live in host memory that JS reads and writes cheaply as typed arrays: cpu (no copy)
 * and wasm (one copy out of and into its heap). Host passes (fused loops, exact int32 paths, value
 * checks) run there; on GPU backends the kernels run instead.
 */
export function isHostBackend(): boolean {
  if (directBackend === null || engine.backendName !== directBackendName) backendForDirect();
  return directBackend !== null && (directBackendName === 'cpu' || directBackendName === 'wasm');
}

/**
 * Per backend: the largest fused elementwise group (elements) that runs as one host loop; larger groups run
 * as their nodes' own kernels. wasm: measured in bench/wasm.bench.js (48-op chain with the multi-lane host
 * loop: 0.08x of the wasm kernels at 256 elements, 0.53x at 4096, 0.82x at 8192, 1.19x at 16384), see
 * docs/backends.md.
 */
export const fusionOnHost: Record<string, number> = { cpu: Infinity, wasm: 8192 };

/**
 * Frees `x` and, on cpu (whose data are the very arrays it was given), returns its host array when that
 * was the last reference: the caller may reuse it. Elsewhere, or while another reference remains, null.
 */
export function freeForReuse(x: Info): HostData | null {
  const b = directBackend !== null && engine.backendName === directBackendName ? directBackend : backendForDirect();
  if (b === null || directBackendName !== 'cpu') {
    directKernels.free(x);
    return null;
  }
  const vals = b.data.get(x.dataId)?.values as HostData | undefined;
  const gone = b.disposeData(x.dataId) as boolean;
  if (gone) engine.removeDataId(x.dataId, b);
  return gone && vals !== undefined ? vals : null;
}

/** Whether uploads copy the given array into the backend's own memory (wasm): the array is free again at once. */
export function uploadCopies(): boolean {
  if (directBackend === null || engine.backendName !== directBackendName) backendForDirect();
  return directBackend !== null && directBackendName === 'wasm';
}

/** Whether a fused elementwise loop over `size` elements runs on the host on the active backend. */
export function fusesOnHost(size: number): boolean {
  if (directBackend === null || engine.backendName !== directBackendName) backendForDirect();
  return directBackend !== null && size <= (fusionOnHost[directBackendName] ?? -1);
}

export function isTfTensor(x: unknown): x is TfTensor {
  return x instanceof TfTensorClass;
}

export function makeTf(values: HostData, shape: number[], dtype: DType): TfTensor {
  return dtype === 'complex64' ? complexTf(values as Float32Array, shape) : tfTensor(values as any, shape, dtype);
}

/** A complex64 tensor from interleaved (real, imag) host values (tf.tensor refuses complex64 data). */
function complexTf(values: Float32Array, shape: number[]): TfTensor {
  const [re, im] = splitComplex(values);
  return tf.tidy(() => tf.complex(tfTensor(re, shape, 'float32'), tfTensor(im, shape, 'float32')));
}

export function readSync(x: TfTensor): HostData {
  return x.dataSync() as unknown as HostData;
}

/** Reads any kernel value (tracked or not, even a disposed tf.Tensor whose data is pinned). */
export function readInfoSync(x: Info): HostData {
  const b = directBackend !== null && engine.backendName === directBackendName ? directBackend : backendForDirect();
  if (directBackendName === 'cpu') {
    // cpu's readSync returns its stored float32 and int32 arrays themselves: read them without its three calls (host
    // loops read every input this way on every call). Other dtypes (bool: a converted copy; complex64) go through it.
    const d = b.data.get(x.dataId);
    const v = d?.values;
    if ((d?.dtype === 'float32' && v instanceof Float32Array) || (d?.dtype === 'int32' && v instanceof Int32Array)) return v;
  }
  const vals = b.readSync(x.dataId);
  if (x.dtype === 'string') {
    const dec = new TextDecoder();
    return Array.from(vals as Uint8Array[], (b) => (typeof b === 'string' ? b : dec.decode(b)));
  }
  return vals as HostData;
}

/** The bytes of a string kernel value's elements, row-major (readInfoSync decodes them as UTF-8). */
export function readInfoBytesSync(x: Info): Uint8Array[] {
  const vals = backendForDirect().readSync(x.dataId) as (Uint8Array | string)[];
  const enc = new TextEncoder();
  return Array.from(vals, (b) => (typeof b === 'string' ? enc.encode(b) : b));
}

/** The bytes of a string tensor's elements, row-major (tfjs stores strings as bytes; dataSync decodes them as UTF-8). */
export function readBytesSync(x: TfTensor): Uint8Array[] {
  const vals = engine.readSync(x.dataId) as unknown as (Uint8Array | string)[];
  const enc = new TextEncoder();
  return Array.from(vals, (b) => (typeof b === 'string' ? enc.encode(b) : b));
}

/** A string tensor whose elements are the given bytes (kept as given: no UTF-8 round trip). */
export function makeBytesTf(values: Uint8Array[], shape: number[]): TfTensor {
  return tfTensor(values as any, shape, 'string');
}

export function readAsync(x: TfTensor): Promise<HostData> {
  return x.data() as unknown as Promise<HostData>;
}

export function isDisposed(x: TfTensor): boolean {
  return x.isDisposed;
}

/** Engine scopes (what `tidy` is built on). */
export function startScope(name?: string): void {
  engine.startScope(name);
}

export function endScope(keepers: TfTensor[]): void {
  engine.endScope(keepers as any);
}

export function keepTf(x: TfTensor): TfTensor {
  return tf.keep(x);
}

/** The live tensors the innermost engine scope tracks (what a synchronous stretch since startScope created). */
export function scopeTensors(): TfTensor[] {
  const scope = engine.state.activeScope;
  return scope === null || scope === undefined ? [] : scope.track.filter((t) => !t.isDisposed);
}

/** A tracked tensor with `x`'s values in `shape` (same size). */
export function reshapeTf(x: TfTensor, shape: number[]): TfTensor {
  return tf.reshape(x, shape);
}

/** A tracked tensor of `shape` filled with the one value of the one-element `x`. */
export function fillFromTf(x: TfTensor, shape: number[]): TfTensor {
  return tf.tidy(() => tf.broadcastTo(tf.reshape(x, []), shape));
}

export interface MemoryInfo {
  numTensors: number;
  numBytes: number;
  numDataBuffers: number;
}

export function memory(): MemoryInfo {
  const m = tf.memory();
  return { numTensors: m.numTensors, numBytes: m.numBytes, numDataBuffers: m.numDataBuffers };
}

export async function setBackend(name: string): Promise<boolean> {
  fillKernelGaps(name);
  const ok = await tf.setBackend(name);
  if (ok) patchBackendInstance(name, engine.findBackend(name));
  return ok;
}

/** The active backend's name; initializes the default one (cpu in Node) on first use. */
export function getBackend(): string {
  if (!tfGetBackend()) void engine.backend;
  return tfGetBackend();
}

/** Whether the active backend registers the tfjs kernel `name` (graph passes rewrite onto a kernel only where it exists). */
export function hasKernel(name: string): boolean {
  const b = getBackend();
  return b !== '' && tfGetKernel(name, b) !== undefined;
}

export function ready(): Promise<void> {
  return tf.ready();
}

export function setBackendSync(name: string): boolean {
  const ok = engine.findBackend(name) != null || tf.findBackend(name) != null;
  if (ok) void tf.setBackend(name);
  return ok;
}

/**
 * The tfjs-core namespace, for interop helpers and tests that compare against raw tfjs. A namespace
 * re-export, not a const: bundlers then keep only the members used (`import { add }` stays small). The script
 * bundle (packages/eagerflow/browser/build.js) swaps this line for an object of the members its add-ons import.
 */
export * as tfjs from '@tensorflow/tfjs-core';

/** Names of the registered tfjs backends (cpu first). */
export function registeredBackends(): string[] {
  return Object.keys(tf.engine().registryFactory).sort((a, b) => (a === 'cpu' ? -1 : b === 'cpu' ? 1 : a.localeCompare(b)));
}

export { KERNEL_GAPS, hostFallbackCounts, resetHostFallbackCounts } from './kernel_gaps';

const loaders = new Map<string, () => Promise<unknown>>();

/**
 * Registers how to load the package of backend `name` on first `setBackend(name)` (the umbrella's lazy
 * `import('@tensorflow/tfjs-backend-wasm')`, an optional peer): the package registers its backend itself.
 */
export function registerBackendLoader(name: string, load: () => Promise<unknown>): void {
  loaders.set(name, load);
}

/** Loads backend `name`'s package when it is not registered yet and a loader is known; false when there is nothing to load. */
export async function loadBackendPackage(name: string): Promise<boolean> {
  const load = loaders.get(name);
  if (load === undefined || tf.findBackendFactory(name) != null) return false;
  await load();
  fillKernelGaps(name);
  return true;
}

/** Registers a backend factory under `name` unless one is already registered (the browser entry's lazy WebGL). */
export function registerBackendOnce(name: string, factory: () => Promise<unknown>, priority: number): void {
  if (tf.findBackendFactory(name) == null) tf.registerBackend(name, factory as () => Promise<tf.KernelBackend>, priority);
}
