// Browser entry: the whole ef API plus the tfjs WebGL backend, so `await ef.setBackend('webgl')` works in a page.
// wasm is the add-on eagerflow-wasm.js (wasm-entry.ts), fetched from next to this script on the first
// `await ef.setBackend('wasm')`; WebGPU is the add-on eagerflow-webgpu.js (webgpu-entry.ts), loaded by the page.
import '@tensorflow/tfjs-backend-webgl';
import { NotFoundError, backend } from '@eagerflow/core';
import { ortWebConfig } from '@eagerflow/function';
import type { OrtWebModule } from '@eagerflow/function';

export * from '../src/index';

/** This script's URL, read while it runs (document.currentScript is gone once setBackend('wasm') is awaited); null in the ES module build. */
const scriptUrl = typeof document === 'undefined' ? null : ((document.currentScript as HTMLScriptElement | null)?.src ?? null);

interface WasmAddon {
  setWasmPaths(paths: unknown): void;
}

/** Adds a classic script to the page and resolves once it ran (`missing`: the error when it does not load). */
function loadScript(src: string, missing: () => Error = () => new NotFoundError(`setBackend: the wasm add-on did not load (got no script at ${src}, expected eagerflow-wasm.js next to eagerflow.js). Serve dist/eagerflow-wasm.js and the .wasm files beside the bundle, or set globalThis.EF_WASM_PATHS to their directory.`, { opName: 'setBackend' })): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = () => resolve();
    s.onerror = () => reject(missing());
    document.head.appendChild(s);
  });
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
  const dir = scriptUrl ? new URL('.', scriptUrl).href : typeof paths === 'string' ? paths : '';
  if (g.efWasm === undefined) await loadScript(`${dir}eagerflow-wasm.js`);
  const addon = g.efWasm as WasmAddon;
  if (paths !== undefined) addon.setWasmPaths(paths);
  else if (dir !== '') addon.setWasmPaths(dir);
}
backend.registerBackendLoader('wasm', loadWasm);

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
  await loadScript(src, () => new NotFoundError(`jitCompile: onnxruntime-web did not load (got no script at ${src}, expected onnxruntime-web's dist files there). Serve node_modules/onnxruntime-web/dist/ and set globalThis.EF_ORT_PATHS to its URL, or copy its files next to eagerflow.js.`, { opName: 'jitCompile' }));
  const ort = g.ort as OrtWebModule;
  ort.env.wasm.wasmPaths ??= dir;
  return ort;
}
ortWebConfig.load = loadOrt;
