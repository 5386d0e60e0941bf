// The browser side of the ONNX Runtime seam: onnxruntime-web, loaded on the first compiled call (never named
// here, so bundles that never compile do not carry it), sessions built and run asynchronously (callAsync).
import { UnimplementedError, internalError, unimplemented } from '@eagerflow/core';
import type { OrtTensor } from './runtime';

/** The parts of onnxruntime-web's module a compiled call uses. */
export interface OrtWebModule {
  InferenceSession: { create(model: Uint8Array, options: object): Promise<OrtWebSession> };
  Tensor: new (type: string, data: OrtTensor['data'], dims: readonly number[]) => OrtTensor;
  env: { wasm: { wasmPaths?: unknown; numThreads?: number } };
}

export interface OrtWebSession {
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}

/** Page settings read on the first compiled call (like EF_WASM_PATHS for the wasm backend). */
interface PageGlobals {
  /** onnxruntime-web already on the page (its script tag sets `ort`). */
  ort?: OrtWebModule;
  /** A loader for bundled apps: `globalThis.EF_ORT = () => import('onnxruntime-web')` (a lazily loaded chunk). */
  EF_ORT?: () => Promise<OrtWebModule>;
  /** Where onnxruntime-web's files are served (a directory URL ending in '/'): its script and its .wasm files. */
  EF_ORT_PATHS?: string;
  /** Execution providers, e.g. ['wasm']; default: WebGPU first when the page has an adapter, then wasm. */
  EF_ORT_PROVIDERS?: string[];
}

/**
 * How the script bundle fetches onnxruntime-web when the page has not loaded it (set by the browser
 * entry: a script tag for ort's own IIFE build, from EF_ORT_PATHS or next to eagerflow.js).
 * @example
 * typeof ef.internal.ortWebConfig; // 'object'
 */
export const ortWebConfig: { load: ((providers: readonly string[]) => Promise<OrtWebModule>) | null } = { load: null };

/** Whether compiled calls run on onnxruntime-web (anywhere but Node, where onnxruntime-node runs synchronously). */
export function ortIsAsync(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof proc?.versions?.node !== 'string';
}

let loaded: Promise<{ ort: OrtWebModule; providers: string[] }> | null = null;

/** WebGPU first when the page has an adapter (and no EF_ORT_PROVIDERS says otherwise), then wasm. */
async function providers(g: PageGlobals): Promise<string[]> {
  if (Array.isArray(g.EF_ORT_PROVIDERS)) return g.EF_ORT_PROVIDERS;
  const gpu = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } }).navigator?.gpu;
  const adapter = gpu === undefined ? null : await gpu.requestAdapter().catch(() => null);
  return adapter ? ['webgpu', 'wasm'] : ['wasm'];
}

/** The error when onnxruntime-web cannot be had: `why` says what went wrong. */
function noOrt(what: string, why: string): Error {
  return unimplemented(
    what,
    'jitCompile in the browser needs onnxruntime-web',
    `it could not be loaded: ${why}`,
    'onnxruntime-web on the page',
    "Load its script (ort.wasm.min.js) before compiling, set globalThis.EF_ORT_PATHS to the directory serving onnxruntime-web's dist files, or in a bundled app set globalThis.EF_ORT = () => import('onnxruntime-web') (docs/compile.md).",
  );
}

/** onnxruntime-web (once per page), configured: .wasm files from EF_ORT_PATHS, one thread unless cross-origin isolated. */
function ortWeb(what: string): Promise<{ ort: OrtWebModule; providers: string[] }> {
  loaded ??= (async () => {
    const g = globalThis as PageGlobals;
    const eps = await providers(g);
    const ort = g.ort?.InferenceSession ? g.ort : g.EF_ORT ? await g.EF_ORT() : ortWebConfig.load ? await ortWebConfig.load(eps) : null;
    if (ort === null) throw noOrt(what, 'no loader: the page has no `ort` and no EF_ORT');
    if (typeof g.EF_ORT_PATHS === 'string') ort.env.wasm.wasmPaths = g.EF_ORT_PATHS;
    if (!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated) ort.env.wasm.numThreads = 1;
    return { ort, providers: eps };
  })().catch((e: unknown) => {
    loaded = null;
    throw e instanceof UnimplementedError ? e : noOrt(what, e instanceof Error ? e.message.split('\n')[0] : String(e));
  });
  return loaded;
}

/** A session on onnxruntime-web: built on the first call, run asynchronously. */
export class WebSession {
  private constructor(
    private readonly ort: OrtWebModule,
    private readonly session: OrtWebSession,
  ) {}

  static async create(model: Uint8Array, what: string): Promise<WebSession> {
    const { ort, providers: eps } = await ortWeb(what);
    try {
      return new WebSession(ort, await ort.InferenceSession.create(model, { executionProviders: eps, graphOptimizationLevel: 'all' }));
    } catch (e) {
      throw internalError(what, `onnxruntime-web could not build a session for the lowered graph (${e instanceof Error ? e.message : String(e)}); trace without jitCompile, and report the graph listing (f.experimentalGetCompilerIr())`);
    }
  }

  tensor(type: string, data: OrtTensor['data'], dims: readonly number[]): OrtTensor {
    return new this.ort.Tensor(type, data, dims);
  }

  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>> {
    return this.session.run(feeds);
  }

  dispose(): void {
    void this.session.release().catch(() => undefined);
  }
}
