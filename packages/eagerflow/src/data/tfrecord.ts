// ef.data.TFRecordDataset: the records of TFRecord files (paths in Node; ArrayBuffers, Blobs and fetch Responses
// anywhere) as scalar string tensors holding their bytes. Reading streams (bounded memory); framing, CRCs and
// decompression are @eagerflow/saving's (src/io/record_io.ts).
import { TensorSpec, argError, constant, describe } from '@eagerflow/core';
import { DEFAULT_BUFFER_SIZE, checkCompression, checkSource, sourceRecords } from '@eagerflow/saving';
import type { CompressionType, RecordSource } from '@eagerflow/saving';
import { Dataset, source as sourceDataset } from './dataset';
import { DONE, item, iter } from './iter';
import { UNKNOWN_CARDINALITY, checkCount } from './structure';

const API = 'ef.data.TFRecordDataset';

/** TFRecordDataset options, TF's keyword arguments. */
export interface TFRecordOptions {
  /** '' (default), 'GZIP' or 'ZLIB', as the files were written. */
  compressionType?: CompressionType | null;
  /** Bytes read from a file at a time (default 256 KiB, TF's). */
  bufferSize?: number | null;
  /** Files read at once, their records interleaved one by one in TF's deterministic order (default 1: in turn). */
  numParallelReads?: number | null;
}

interface TFRecordDatasetCtor {
  new (filenames: RecordSource | RecordSource[], options?: TFRecordOptions): Dataset;
  (filenames: RecordSource | RecordSource[], options?: TFRecordOptions): Dataset;
}

/**
 * The records of one or more TFRecord files as scalar string tensors (bytes: read them with `t.bytes()`),
 * checking TF's framing CRCs. A bad record is a DataLossError naming the file and record; after
 * `.ignoreErrors()` the rest of that file is skipped and reading goes on with the next file, as TF does.
 * @example
 * const bytes = ef.io.encodeTFRecords([new Uint8Array([1, 2]), new Uint8Array([3])]);
 * const ds = ef.data.TFRecordDataset([bytes.buffer]);
 * (await ds.toArray()).map((t) => Array.from((t as ef.Tensor).bytes()[0])); // [[1, 2], [3]]
 */
export const TFRecordDataset = function TFRecordDataset(filenames: RecordSource | RecordSource[], options: TFRecordOptions = {}): Dataset {
  const list = Array.isArray(filenames) ? filenames : [filenames];
  const sources = list.map((f, i) => checkSource(API, f, i));
  const compression = checkCompression(API, options.compressionType);
  const bufferSize = options.bufferSize === null || options.bufferSize === undefined || options.bufferSize === 0 ? DEFAULT_BUFFER_SIZE : checkCount(API, 'bufferSize', options.bufferSize, 1);
  const parallel = options.numParallelReads === null || options.numParallelReads === undefined ? 1 : checkCount(API, 'numParallelReads', options.numParallelReads, 1);
  const oneShot = sources.filter((s) => typeof Response !== 'undefined' && s instanceof Response);
  if (oneShot.length > 0 && new Set(oneShot).size !== oneShot.length) {
    throw argError(API, 'the same Response is listed twice', describe(oneShot[0]), 'each Response once (a body reads once)', 'Pass await response.arrayBuffer() to read the bytes several times.');
  }
  return sourceDataset(API, {
    spec: new TensorSpec([], 'string'),
    card: UNKNOWN_CARDINALITY,
    make: () => {
      // TF's interleave(cycle_length=numParallelReads, block_length=1) over one-file datasets: one record from
      // each open file in turn; a finished file's slot is refilled with the next file when the cycle returns to
      // it. A file that fails ends there (TF's TFRecordDataset moves to the next file after a DataLossError,
      // which is what ignoreErrors() sees).
      const slots: (AsyncGenerator<Uint8Array> | null)[] = new Array(parallel).fill(null);
      let at = 0;
      let nextFile = 0;
      let numOpen = 0;
      const advance = (): void => {
        at = (at + 1) % parallel;
      };
      const drop = (): void => {
        slots[at] = null;
        numOpen--;
        advance();
      };
      return iter(
        async () => {
          while (nextFile < sources.length || numOpen > 0) {
            const gen = slots[at];
            if (gen !== null) {
              let r: IteratorResult<Uint8Array>;
              try {
                r = await gen.next();
              } catch (e) {
                drop();
                throw e;
              }
              if (!r.done) {
                advance();
                return item(constant(r.value, 'string'));
              }
              drop();
            } else if (nextFile < sources.length) {
              slots[at] = sourceRecords(API, sources[nextFile], nextFile, compression, bufferSize);
              nextFile++;
              numOpen++;
            } else advance();
          }
          return DONE;
        },
        async () => {
          await Promise.all(slots.splice(0).map((g) => g?.return(undefined)));
        },
      );
    },
  });
} as TFRecordDatasetCtor;
