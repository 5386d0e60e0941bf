// ef.io.readFile / writeFile (tf.io.read_file / write_file) in Node: a file's bytes as a scalar string tensor.
import { NotFoundError, Tensor, TensorLike, argError, constant, describe, opError, typeError } from '@eagerflow/core';
import { nodeModule } from '@eagerflow/saving';

type NodeFs = typeof import('node:fs');

function fsOf(api: string): NodeFs {
  const fs = nodeModule<NodeFs>('node:fs');
  if (fs === undefined) throw argError(api, "needs Node's file system", 'an environment without node:fs (a browser?)', 'Node.js >= 20.19', 'In a browser, fetch the file and pass its ArrayBuffer.');
  return fs;
}

/**
 * The bytes of a file as a scalar string tensor (tf.io.read_file).
 * @example
 * const p = require('node:os').tmpdir() + '/ef_doc_file.bin';
 * ef.io.writeFile(p, ef.constant(new Uint8Array([1, 2, 255]), 'string'));
 * Array.from(ef.io.readFile(p).bytes()[0]); // [1, 2, 255]
 */
export function readFile(filename: string): Tensor {
  const api = 'ef.io.readFile';
  if (typeof filename !== 'string' || filename === '') throw typeError(api, 'filename must be a path', describe(filename), 'a non-empty string', "Pass e.g. 'image.png'.");
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(fsOf(api).readFileSync(filename));
  } catch (e) {
    if (e instanceof Error && (e as { code?: string }).code === undefined) throw e;
    throw opError(NotFoundError, api, `cannot read ${filename}`, (e as Error).message, 'a readable file', 'Check the path', { opName: api, cause: e });
  }
  return constant(bytes, 'string');
}

/** Writes the bytes of a scalar string tensor (or a Uint8Array / string) to a file (tf.io.write_file). */
export function writeFile(filename: string, contents: TensorLike | Uint8Array | string): void {
  const api = 'ef.io.writeFile';
  if (typeof filename !== 'string' || filename === '') throw typeError(api, 'filename must be a path', describe(filename), 'a non-empty string', "Pass e.g. 'image.png'.");
  let bytes: Uint8Array;
  if (contents instanceof Uint8Array) bytes = contents;
  else if (typeof contents === 'string') bytes = new TextEncoder().encode(contents);
  else if (contents instanceof Tensor && contents.dtype === 'string' && contents.rank === 0) bytes = contents.bytes()[0];
  else throw typeError(api, 'contents must be bytes', describe(contents), 'a scalar string tensor, a Uint8Array or a string', 'Pass e.g. ef.io.encodePng(image).');
  try {
    fsOf(api).writeFileSync(filename, bytes);
  } catch (e) {
    throw opError(NotFoundError, api, `cannot write ${filename}`, (e as Error).message, 'a writable path', 'Check that the directory exists', { opName: api, cause: e });
  }
}
