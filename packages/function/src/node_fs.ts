// The filesystem seam: Node's fs and path via process.getBuiltinModule (no static import, so browser bundles still build).
import type * as FsPromises from 'node:fs/promises';
import type * as Path from 'node:path';
import { FailedPreconditionError, opError } from '@eagerflow/core';

export interface NodeFs {
  fs: typeof FsPromises;
  path: typeof Path;
}

/** Node's fs/promises and path, or a clear error where there is no filesystem (browsers). */
export function nodeFs(api: string): NodeFs {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const get = proc?.getBuiltinModule;
  if (typeof get !== 'function') {
    throw opError(FailedPreconditionError, api, 'no filesystem here', "an environment without Node's process.getBuiltinModule", 'Node.js >= 20.16', 'Use ef.saveFunction / ef.loadFunction with in-memory artifacts instead.');
  }
  return { fs: get.call(proc, 'node:fs/promises') as typeof FsPromises, path: get.call(proc, 'node:path') as typeof Path };
}
