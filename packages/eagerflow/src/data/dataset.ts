// ef.data.Dataset: TF's tf.data.Dataset API (sources, transformations, inspection, iteration).
import { argError, TensorSpec, describe, typeError } from '@eagerflow/core';
import { guarded, userIterator } from './iter';
import { ElementFn, filterIter, parallelMap, sequentialMap } from './element_fn';
import { Parts, fromGeneratorParts, fromTensorSlicesParts, fromTensorsParts, rangeParts, zipParts } from './sources';
import { batchParts, paddedBatchParts, PaddedOptions, unbatchParts } from './batching';
import { cacheParts, concatenateParts, enumerateParts, ignoreErrorsParts, prefetchParts, repeatParts, shardParts, shuffleParts, skipParts, takeParts } from './transforms';
import { DatasetKind, WindowOptions, flatMapParts, interleaveParts, windowParts } from './nested';
import { AUTOTUNE, Element, ElementSpec, UNKNOWN_CARDINALITY, checkCount, disposeElement, checkFunction, commonSpec, specString, toHost } from './structure';

/** How many calls `numParallelCalls: AUTOTUNE` keeps in flight (host callbacks are mostly I/O-bound waits). */
const AUTOTUNE_PARALLELISM = 8;
/** The prefetch depth `prefetch(AUTOTUNE)` uses. */
const AUTOTUNE_PREFETCH = 2;

/** `map` options: `numParallelCalls` (a number or `ef.data.AUTOTUNE`) and `deterministic`. */
export interface MapOptions {
  /** Elements processed concurrently (async callbacks overlap); `ef.data.AUTOTUNE` lets EagerFlow choose. */
  numParallelCalls?: number | null;
  /** With parallel calls: keep the input order (default true); false yields whichever finishes first. */
  deterministic?: boolean | null;
}

/** `interleave` options: `cycleLength`, `blockLength`, `numParallelCalls`, `deterministic`. */
export interface InterleaveOptions {
  cycleLength?: number | null;
  blockLength?: number;
  /** Above 1 (or AUTOTUNE): the open inner datasets read ahead concurrently; the order stays TF's deterministic one. */
  numParallelCalls?: number | null;
  deterministic?: boolean | null;
}

type ElementFunction = (...args: never[]) => unknown;

/**
 * A sequence of elements (tensors, or tuples/dicts of them) built from sources and transformations,
 * iterated with `for await`. Map and filter functions are traced once; host callbacks inside them
 * run per element.
 * @example
 * const ds = ef.data.Dataset.range(5).map((x: ef.Tensor) => ef.multiply(x, 2)).batch(2);
 * const batches = await ds.toArray();
 * (batches as ef.Tensor[]).map((b) => b.arraySync()); // [[0, 2], [4, 6], [8]]
 * ds.elementSpec.toString(); // 'TensorSpec(shape=(None,), dtype=tf.int32, name=None)'
 */
export class Dataset {
  /** @internal The dataset's spec, cardinality and iterator factory. */
  readonly _parts: Parts;

  constructor(parts: Parts) {
    this._parts = parts;
  }

  /** TensorSpecs of one element (same structure as the elements). */
  get elementSpec(): ElementSpec {
    return this._parts.spec;
  }

  /** The number of elements, or INFINITE_CARDINALITY (-1) / UNKNOWN_CARDINALITY (-2). */
  cardinality(): number {
    return this._parts.card;
  }

  /**
   * Like TF's repr of a dataset.
   * @example
   * String(ef.data.Dataset.range(3).batch(2)); // '<Dataset element_spec=TensorSpec(shape=(None,), dtype=tf.int32, name=None)>'
   */
  toString(): string {
    return `<Dataset element_spec=${specString(this.elementSpec)}>`;
  }

  /** Iterates the elements: `for await (const el of ds)`. */
  [Symbol.asyncIterator](): AsyncIterableIterator<Element> {
    return userIterator(this._parts.make(), (el) => el);
  }

  /**
   * Iterates host values: scalars as JS values, other tensors as NDArrays (never tensors).
   * @example
   * const out = [];
   * for await (const v of ef.data.Dataset.range(3).asNumpyIterator()) out.push(v);
   * out; // [0, 1, 2]
   */
  asNumpyIterator(): AsyncIterableIterator<unknown> {
    return userIterator(this._parts.make(), (el) => {
      const host = toHost(el);
      disposeElement(el);
      return host;
    });
  }

  /**
   * Synchronous iteration, `for (const el of ds)`, where every stage of the pipeline is synchronous (range,
   * slices, traced maps and filters without async callbacks, batch, take, ...); otherwise a TypeError that
   * says to use `for await`. Inside a traced function a finite dataset iterated this way unrolls: each element
   * is a constant of the graph (TF's AutoGraph turns the loop into a dataset reduce instead).
   * @example
   * const out = [];
   * for (const x of ef.data.Dataset.range(3).map((v) => ef.multiply(v, 2))) out.push(x.item());
   * out; // [0, 2, 4]
   */
  [Symbol.iterator](): IterableIterator<Element> {
    const it = this._parts.make();
    const pull = it.nextSync;
    if (pull === undefined) {
      void it.close();
      throw typeError('Dataset', 'this pipeline is asynchronous (a file, generator, callback or prefetch stage)', 'for (const x of ds)', 'for await (const x of ds)', 'Iterate with for await, or use ds.reduce');
    }
    const out: IterableIterator<Element> = {
      next(): IteratorResult<Element, undefined> {
        let r: IteratorResult<Element, undefined>;
        try {
          r = pull();
        } catch (e) {
          void it.close();
          throw e;
        }
        if (r.done) void it.close();
        return r;
      },
      return(): IteratorResult<Element, undefined> {
        void it.close();
        return { done: true, value: undefined };
      },
      [Symbol.iterator]: () => out,
    };
    return out;
  }

  /**
   * TF's `Dataset.reduce(initialState, reduceFunc)`: folds the elements into a state (`reduceFn(state, element)`
   * returns the next state); the states in between are disposed. Resolves to the final state.
   * @example
   * const total = await ef.data.Dataset.range(5).reduce(ef.constant(0, 'int32'), (s, x) => ef.add(s, x));
   * total.item(); // 10
   */
  async reduce<S>(initialState: S, reduceFn: (state: S, element: never) => S): Promise<S> {
    checkFunction('Dataset.reduce', reduceFn);
    let state = initialState;
    for await (const el of this) {
      const next = reduceFn(state, el as never);
      if (state !== initialState && state !== next) disposeElement(state as Element);
      disposeElement(el);
      state = next;
    }
    return state;
  }

  /** All elements (the caller owns the tensors). */
  async toArray(): Promise<Element[]> {
    const out: Element[] = [];
    for await (const el of this) out.push(el);
    return out;
  }

  /** `range(stop)` or `range(start, stop, step = 1)`: int32 scalars. */
  static range(...args: number[]): Dataset {
    return source('Dataset.range', rangeParts(args));
  }

  /** Slices every component along its first dimension (a JS array of tensors is a tuple). */
  static fromTensorSlices(tensors: unknown): Dataset {
    return source('Dataset.fromTensorSlices', fromTensorSlicesParts(tensors));
  }

  /** One element: the given structure. */
  static fromTensors(tensors: unknown): Dataset {
    return source('Dataset.fromTensors', fromTensorsParts(tensors));
  }

  /**
   * Elements from a (sync or async) generator, converted to `outputSignature`'s dtypes and checked against its shapes.
   * @example
   * function* gen() { yield [1, 2]; yield [3]; }
   * const ds = ef.data.Dataset.fromGenerator(gen, { outputSignature: new ef.TensorSpec([null], 'int32') });
   * (await ds.toArray()).map((t) => (t as ef.Tensor).arraySync()); // [[1, 2], [3]]
   */
  static fromGenerator(generator: () => Iterator<unknown> | AsyncIterator<unknown>, options: { outputSignature: unknown }): Dataset {
    return source('Dataset.fromGenerator', fromGeneratorParts(generator, options));
  }

  /** Tuples (array) or dicts (object) of elements of several datasets, until the shortest ends. */
  static zip(datasets: Dataset[] | Record<string, Dataset>): Dataset {
    return source('Dataset.zip', zipParts(datasets, (d) => (d instanceof Dataset ? d._parts : null)));
  }

  private then(name: string, parts: Parts): Dataset {
    return source(name, parts);
  }

  /**
   * Applies `fn` (traced once with the element spec as input signature) to each element.
   * @example
   * const ds = ef.data.Dataset.range(3).map((x: ef.Tensor) => [x, ef.cast(x, 'float32')]);
   * ds.cardinality(); // 3
   */
  map(fn: ElementFunction, options: MapOptions = {}): Dataset {
    checkFunction('Dataset.map', fn);
    const n = options.numParallelCalls ?? 1;
    const parallel = n === AUTOTUNE ? AUTOTUNE_PARALLELISM : checkCount('Dataset.map', 'numParallelCalls', n, 1, true);
    const f = new ElementFn('Dataset.map', fn, this.elementSpec, parallel > 1);
    const deterministic = options.deterministic ?? true;
    const src = this._parts;
    return this.then('Dataset.map', {
      spec: f.outputSpec,
      card: src.card,
      make: () => (parallel > 1 ? parallelMap(src.make(), f, parallel, deterministic) : sequentialMap(src.make(), f)),
    });
  }

  /** Keeps the elements for which `predicate` (traced once) returns a scalar bool `true`. */
  filter(predicate: ElementFunction): Dataset {
    checkFunction('Dataset.filter', predicate);
    const f = new ElementFn('Dataset.filter', predicate, this.elementSpec, false);
    const out = f.outputSpec;
    // A bool of unknown shape (a numpyFunction's result) is accepted and checked per element, as TF does.
    if (!(out instanceof TensorSpec && out.dtype === 'bool' && (out.shape.rank === 0 || out.shape.rank === null))) {
      throw typeError('Dataset.filter', 'the predicate must return a scalar bool tensor', specString(out), 'TensorSpec(shape=(), dtype=bool)', 'Return e.g. ef.less(x, 3).');
    }
    const src = this._parts;
    return this.then('Dataset.filter', { spec: src.spec, card: UNKNOWN_CARDINALITY, make: () => filterIter(src.make(), f) });
  }

  /** Stacks `batchSize` consecutive elements; the batch dim is null unless `dropRemainder`. */
  batch(batchSize: number, options: { dropRemainder?: boolean } = {}): Dataset {
    checkCount('Dataset.batch', 'batchSize', batchSize, 1);
    return this.then('Dataset.batch', batchParts(this._parts, batchSize, options.dropRemainder === true));
  }

  /**
   * Batches elements of different shapes, padding each component to `paddedShapes` (null or -1: the batch's max).
   * @example
   * const ds = ef.data.Dataset.fromGenerator(function* () { yield [1]; yield [2, 3]; }, { outputSignature: new ef.TensorSpec([null], 'int32') });
   * const [b] = await ds.paddedBatch(2, { paddingValues: -1 }).toArray();
   * (b as ef.Tensor).arraySync(); // [[1, -1], [2, 3]]
   */
  paddedBatch(batchSize: number, options: PaddedOptions = {}): Dataset {
    checkCount('Dataset.paddedBatch', 'batchSize', batchSize, 1);
    return this.then('Dataset.paddedBatch', paddedBatchParts(this._parts, batchSize, options));
  }

  /** Splits each element's components along the first dimension into separate elements. */
  unbatch(): Dataset {
    return this.then('Dataset.unbatch', unbatchParts(this._parts));
  }

  /**
   * Shuffles with a buffer of `bufferSize` elements (tfjs-data's shuffle buffer). A `seed` makes the
   * orders reproducible; `reshuffleEachIteration` (default true) draws a new order per epoch.
   */
  shuffle(bufferSize: number, options: { seed?: number | null; reshuffleEachIteration?: boolean | null } = {}): Dataset {
    checkCount('Dataset.shuffle', 'bufferSize', bufferSize, 1);
    const seed = options.seed ?? null;
    if (seed !== null) checkCount('Dataset.shuffle', 'seed', seed, 0);
    return this.then('Dataset.shuffle', shuffleParts(this._parts, bufferSize, seed, options.reshuffleEachIteration ?? true));
  }

  /** Repeats `count` times (forever when count is null, undefined or -1). */
  repeat(count: number | null = null): Dataset {
    const n = count === null ? -1 : checkCount('Dataset.repeat', 'count', count, 0, true);
    return this.then('Dataset.repeat', repeatParts(this._parts, n));
  }

  /** The first `count` elements (all when -1). */
  take(count: number): Dataset {
    return this.then('Dataset.take', takeParts(this._parts, checkCount('Dataset.take', 'count', count, 0, true)));
  }

  /** Drops the first `count` elements (all when -1). */
  skip(count: number): Dataset {
    return this.then('Dataset.skip', skipParts(this._parts, checkCount('Dataset.skip', 'count', count, 0, true)));
  }

  /** Computes up to `bufferSize` elements ahead (tfjs-data's prefetch ring buffer); `ef.data.AUTOTUNE` allowed. */
  prefetch(bufferSize: number): Dataset {
    const n = bufferSize === AUTOTUNE ? AUTOTUNE_PREFETCH : checkCount('Dataset.prefetch', 'bufferSize', bufferSize, 1);
    return this.then('Dataset.prefetch', prefetchParts(this._parts, n));
  }

  /** Records the elements of the first complete iteration in memory and replays them afterwards. */
  cache(filename = ''): Dataset {
    if (filename !== '') {
      throw argError('Dataset.cache', 'caching to a file is not supported', describe(filename), "''", 'Use cache() for an in-memory cache.');
    }
    return this.then('Dataset.cache', cacheParts(this._parts));
  }

  /** This dataset's elements followed by `other`'s (compatible structures and dtypes). */
  concatenate(other: Dataset): Dataset {
    const spec = other instanceof Dataset ? commonSpec(this.elementSpec, other.elementSpec) : null;
    if (spec === null) {
      const got = other instanceof Dataset ? specString(other.elementSpec) : describe(other);
      throw typeError('Dataset.concatenate', `the datasets' elements are not compatible`, got, specString(this.elementSpec), 'Concatenate datasets of the same structure and dtypes.');
    }
    return this.then('Dataset.concatenate', concatenateParts(this._parts, other._parts, spec));
  }

  /** Pairs each element with its index: `[i, element]`, i an int32 scalar from `start`. */
  enumerate(start = 0): Dataset {
    if (!Number.isInteger(start)) throw argError('Dataset.enumerate', 'start must be an integer', describe(start), 'an integer', 'Pass e.g. 0.');
    return this.then('Dataset.enumerate', enumerateParts(this._parts, start));
  }

  /** Maps each element to a Dataset (fn runs eagerly per element) and flattens them in order. */
  flatMap(fn: (...args: never[]) => Dataset): Dataset {
    checkFunction('Dataset.flatMap', fn);
    return this.then('Dataset.flatMap', flatMapParts(this._parts, fn as (...a: unknown[]) => unknown, DATASET));
  }

  /**
   * Maps elements to Datasets and interleaves them: `blockLength` elements from each of `cycleLength` at a time.
   * @example
   * const ds = ef.data.Dataset.range(1, 6).interleave((x: ef.Tensor) => ef.data.Dataset.fromTensors(x).repeat(6), { cycleLength: 2, blockLength: 4 });
   * const out = [];
   * for await (const v of ds.asNumpyIterator()) out.push(v);
   * out; // [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5]
   */
  interleave(fn: (...args: never[]) => Dataset, options: InterleaveOptions = {}): Dataset {
    checkFunction('Dataset.interleave', fn);
    const c = options.cycleLength ?? AUTOTUNE;
    const cycle = c === AUTOTUNE ? defaultCycleLength() : checkCount('Dataset.interleave', 'cycleLength', c, 1);
    const block = checkCount('Dataset.interleave', 'blockLength', options.blockLength ?? 1, 1);
    const n = options.numParallelCalls ?? 1;
    const parallel = n === AUTOTUNE || checkCount('Dataset.interleave', 'numParallelCalls', n, 1) > 1;
    return this.then('Dataset.interleave', interleaveParts('Dataset.interleave', this._parts, fn as (...a: unknown[]) => unknown, cycle, block, DATASET, parallel));
  }

  /**
   * Windows of `size` elements, each a Dataset (or a structure of Datasets, one per component).
   * @example
   * const ds = ef.data.Dataset.range(7).window(3, { shift: 2 }).flatMap((w: ef.data.Dataset) => w.batch(3));
   * (await ds.toArray()).map((t) => (t as ef.Tensor).arraySync()); // [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
   */
  window(size: number, options: WindowOptions = {}): Dataset {
    checkCount('Dataset.window', 'size', size, 1);
    const shift = checkCount('Dataset.window', 'shift', options.shift ?? size, 1);
    const stride = checkCount('Dataset.window', 'stride', options.stride ?? 1, 1);
    return this.then('Dataset.window', windowParts(this._parts, size, shift, stride, options.dropRemainder === true, DATASET));
  }

  /**
   * Drops the elements whose production fails (TF's `ignore_errors`): a map function that throws, a corrupted
   * TFRecord file (the rest of that file is skipped, as TF does). `logWarning` logs each ignored error.
   * @example
   * const inverse = (x: ef.Tensor) => ef.pyFunction((v: ef.Tensor) => {
   *   if (v.item() === 0) throw new ef.errors.InvalidArgumentError('no inverse of 0');
   *   return ef.divide(1, v);
   * }, [x], 'float32');
   * const ds = ef.data.Dataset.fromTensorSlices(ef.constant([1, 0, 2])).map(inverse).ignoreErrors();
   * (await ds.toArray()).map((t) => (t as ef.Tensor).item()); // [1, 0.5]
   */
  ignoreErrors(options: { logWarning?: boolean } = {}): Dataset {
    return this.then('Dataset.ignoreErrors', ignoreErrorsParts(this._parts, options.logWarning === true));
  }

  /** Every `numShards`-th element starting at `index`. */
  shard(numShards: number, index: number): Dataset {
    checkCount('Dataset.shard', 'numShards', numShards, 1);
    if (!Number.isInteger(index) || index < 0 || index >= numShards) {
      throw argError('Dataset.shard', 'index must be in [0, numShards)', describe(index), `an integer in [0, ${numShards})`, 'Pass a shard index below numShards.');
    }
    return this.then('Dataset.shard', shardParts(this._parts, numShards, index));
  }
}

/** A dataset whose failures name `name` (an OutOfRangeError there ends it cleanly). */
export function source(name: string, parts: Parts): Dataset {
  const make = parts.make;
  return new Dataset({ ...parts, make: () => guarded(name, make()) });
}

/** TF uses the number of CPU cores. */
function defaultCycleLength(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  return nav?.hardwareConcurrency ?? 2;
}

/** What nested datasets (flatMap, interleave, window) need of this class. */
const DATASET: DatasetKind = { is: (x): x is Dataset => x instanceof Dataset, make: (parts) => new Dataset(parts) };
