// Script-bundle entry (dist/eagerflow.js): the whole ef API on tfjs's cpu backend. WebGL and wasm are add-ons fetched
// from next to this script on the first `await ef.setBackend('webgl')` / `await ef.setBackend('wasm')`:
// eagerflow-webgl.js (webgl-entry.ts) and eagerflow-wasm.js (wasm-entry.ts); WebGPU is the add-on
// eagerflow-webgpu.js (webgpu-entry.ts), loaded by the page.
import { NotFoundError, backend } from '@eagerflow/core';
import { ortWebConfig } from '@eagerflow/function';
import type { OrtWebModule } from '@eagerflow/function';

import * as publicApi from '../src/index';

export * from '../src/index';

/**
 * The bundle is minified without esbuild's keepNames (which cost ~22 KB gzipped): so that messages still say
 * `Variable`, not a minified name, every exported class (ef.X, ef.errors.X, ef.optimizers.X, ...) gets its
 * public name back once, here.
 */
function nameClasses(ns: object, depth: number): void {
  for (const [key, v] of Object.entries(ns)) {
    if (typeof v === 'function' && /^[A-Z]/.test(key) && v.prototype !== undefined && v.name !== key) Object.defineProperty(v, 'name', { value: key, configurable: true });
    else if (v !== null && typeof v === 'object' && depth > 0 && key !== 'internal') nameClasses(v as object, depth - 1);
  }
}
nameClasses(publicApi, 2);

/** This script's URL, read while it runs (document.currentScript is gone once setBackend is awaited); null in the ES module build. */
const scriptUrl = typeof document === 'undefined' ? null : ((document.currentScript as HTMLScriptElement | null)?.src ?? null);

interface WasmAddon {
  setWasmPaths(paths: unknown): void;
}

/** The directory add-ons are fetched from: next to this script; for the ES module build, `EF_WASM_PATHS` when it is a directory, else the page's. */
function addonDir(): string {
  const paths = (globalThis as { EF_WASM_PATHS?: unknown }).EF_WASM_PATHS;
  return scriptUrl ? new URL('.', scriptUrl).href : typeof paths === 'string' ? paths : '';
}

/** Adds the classic script `file` (an add-on next to this bundle) to the page and resolves once it ran. */
function loadScript(file: string, fix: string): Promise<void> {
  const src = `${addonDir()}${file}`;
  return addScript(src, () => new NotFoundError(`setBackend: the add-on ${file} did not load (got no script at ${src}, expected ${file} next to eagerflow.js). ${fix}`, { opName: 'setBackend' }));
}

/** Adds a classic script to the page and resolves once it ran (`missing`: the error when it does not load). */
function addScript(src: string, missing: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = () => resolve();
    s.onerror = () => reject(missing());
    document.head.appendChild(s);
  });
}

/** Loads tfjs's WebGL backend: the add-on dist/eagerflow-webgl.js (~90 KB gzipped, kept out of this bundle), which registers it. */
async function loadWebgl(): Promise<void> {
  if ((globalThis as { efWebgl?: unknown }).efWebgl === undefined) await loadScript('eagerflow-webgl.js', 'Serve dist/eagerflow-webgl.js beside the bundle (the npm package ships it there).');
}

/**
 * Loads tfjs's wasm backend: the add-on dist/eagerflow-wasm.js (its JS glue, ~150 KB, kept out of this bundle) from
 * next to this script (for the ES module build, which has no script URL: from `globalThis.EF_WASM_PATHS` when it is
 * a directory, else relative to the page). The .wasm files come from `EF_WASM_PATHS` when the page sets it (a
 * directory URL ending in '/', or tfjs's file map), else from beside the add-on (build.js writes both there).
 */
async function loadWasm(): Promise<void> {
  const g = globalThis as { EF_WASM_PATHS?: unknown; efWasm?: WasmAddon };
  const paths = g.EF_WASM_PATHS;
  const dir = addonDir();
  if (g.efWasm === undefined) await loadScript('eagerflow-wasm.js', 'Serve dist/eagerflow-wasm.js and the .wasm files beside the bundle, or set globalThis.EF_WASM_PATHS to their directory.');
  const addon = g.efWasm as WasmAddon;
  if (paths !== undefined) addon.setWasmPaths(paths);
  else if (dir !== '') addon.setWasmPaths(dir);
}
backend.registerBackendLoader('wasm', loadWasm);
// In the ES module build webgl is inside (esm-entry.ts): registered, so this loader is never asked.
backend.registerBackendLoader('webgl', loadWebgl);

/**
 * jitCompile's onnxruntime-web, fetched on the first compiled call (never part of this bundle): its own script
 * build (ort.wasm.min.js; ort.webgpu.min.js when the session will use WebGPU) from `globalThis.EF_ORT_PATHS`,
 * else from next to this script, and its .wasm files from the same directory. onnxruntime-web's files are not
 * in the npm package: serve node_modules/onnxruntime-web/dist (docs/compile.md).
 */
async function loadOrt(providers: readonly string[]): Promise<OrtWebModule> {
  const g = globalThis as { EF_ORT_PATHS?: unknown; ort?: OrtWebModule };
  const dir = typeof g.EF_ORT_PATHS === 'string' ? g.EF_ORT_PATHS : scriptUrl ? new URL('.', scriptUrl).href : '';
  const src = `${dir}${providers.includes('webgpu') ? 'ort.webgpu.min.js' : 'ort.wasm.min.js'}`;
  await addScript(src, () => new NotFoundError(`jitCompile: onnxruntime-web did not load (got no script at ${src}, expected onnxruntime-web's dist files there). Serve node_modules/onnxruntime-web/dist/ and set globalThis.EF_ORT_PATHS to its URL, or copy its files next to eagerflow.js.`, { opName: 'jitCompile' }));
  const ort = g.ort as OrtWebModule;
  ort.env.wasm.wasmPaths ??= dir;
  return ort;
}
ortWebConfig.load = loadOrt;
