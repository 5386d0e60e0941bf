// The filesystem seam: Node's fs and path via process.getBuiltinModule (no static import, so browser bundles still build).
import { FailedPreconditionError, opError } from '@eagerflow/core';

/**
 * The parts of Node's fs/promises and path that saving and ONNX export use, typed here so that the
 * declarations need no @types/node (a web app type-checks without it).
 */
export interface NodeFs {
  fs: {
    mkdir(dir: string, options: { recursive: true }): Promise<unknown>;
    writeFile(file: string, data: Uint8Array | string): Promise<void>;
    readFile(file: string): Promise<Uint8Array>;
    stat(file: string): Promise<{ isDirectory(): boolean }>;
  };
  path: { join(...parts: string[]): string; dirname(p: string): string };
}

/** Node's fs/promises and path, or a clear error where there is no filesystem (browsers). */
export function nodeFs(api: string): NodeFs {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const get = proc?.getBuiltinModule;
  if (typeof get !== 'function') {
    throw opError(FailedPreconditionError, api, 'no filesystem here', "an environment without Node's process.getBuiltinModule", 'Node.js >= 20.19', 'Use ef.saveFunction / ef.loadFunction with in-memory artifacts instead.');
  }
  return { fs: get.call(proc, 'node:fs/promises') as NodeFs['fs'], path: get.call(proc, 'node:path') as NodeFs['path'] };
}
