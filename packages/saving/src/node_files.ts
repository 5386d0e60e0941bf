// The synchronous filesystem seam for TF-format checkpoints (tf.train.Checkpoint's save/restore are synchronous):
// Node's fs and path via process.getBuiltinModule, so browser bundles still build.
import { FailedPreconditionError, NotFoundError, opError } from '@eagerflow/core';

export interface SyncFs {
  readFileSync(file: string): Uint8Array;
  writeFileSync(file: string, data: Uint8Array | string): void;
  existsSync(file: string): boolean;
  mkdirSync(dir: string, options: { recursive: true }): unknown;
  unlinkSync(file: string): void;
  renameSync(from: string, to: string): void;
  readdirSync(dir: string): string[];
  statSync(file: string): { isDirectory(): boolean };
  openSync(file: string, flags: 'r'): number;
  fstatSync(fd: number): { size: number };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
}

export interface SyncPath {
  join(...parts: string[]): string;
  dirname(p: string): string;
  basename(p: string): string;
  isAbsolute(p: string): boolean;
  relative(from: string, to: string): string;
}

/** Node's fs (sync) and path, or a clear error where there is no filesystem. */
export function syncFs(api: string): { fs: SyncFs; path: SyncPath } {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const get = proc?.getBuiltinModule;
  if (typeof get !== 'function') {
    throw opError(FailedPreconditionError, api, 'no filesystem here', "an environment without Node's process.getBuiltinModule", 'Node.js >= 20.19', 'Use the in-memory forms (Checkpoint.save() without a path) instead.', null);
  }
  return { fs: get.call(proc, 'node:fs') as SyncFs, path: get.call(proc, 'node:path') as SyncPath };
}

/** The bytes of `file`, or a NotFoundError naming it. */
export function readFileOrNotFound(fs: SyncFs, file: string, api: string, what: string, fix: string): Uint8Array {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') throw opError(NotFoundError, api, `${what} ${file} does not exist`, 'no such file', `the file ${file}`, fix, null);
    throw e;
  }
}
