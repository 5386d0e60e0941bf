// batch, paddedBatch, unbatch and window: elements grouped along a new leading dimension (or split off it).
import { DType, HostData, argError, NDArray, Tensor, TensorSpec, constant, describe, dimsToString, gather, isPlainObject, stack, tidy, typeError } from '@eagerflow/core';
import { DONE, Iter, item, iter, syncIter } from './iter';
import { Parts } from './sources';
import {
  DatasetSpec, Element, ElementSpec, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, disposeElement, leaves, mapLeaves, pack, specLeaves, specString,
} from './structure';

type Pulled = IteratorResult<Element, undefined>;

/**
 * The pull loop of pullMany and pullManySync: up to n elements (fewer at the end), each pull's result yielded to the
 * driver, which resumes with the element (or throws the failure in); if a pull fails, the ones already pulled are freed.
 */
function* pullLoop<P>(pull: () => P, n: number): Generator<P, Element[], Pulled> {
  const got: Element[] = [];
  try {
    while (got.length < n) {
      const r = yield pull();
      if (r.done) break;
      got.push(r.value);
    }
  } catch (e) {
    got.forEach(disposeElement);
    throw e;
  }
  return got;
}

/** Pulls up to n elements from an asynchronous upstream. */
async function pullMany(up: Iter, n: number): Promise<Element[]> {
  const loop = pullLoop(() => up.next(), n);
  let step = loop.next();
  while (!step.done) {
    let r: Pulled;
    try {
      r = await step.value;
    } catch (e) {
      step = loop.throw(e);
      continue;
    }
    step = loop.next(r);
  }
  return step.value;
}

/** pullMany over a synchronous upstream (no Promise per element). */
function pullManySync(pull: () => Pulled, n: number): Element[] {
  const loop = pullLoop(pull, n);
  let step = loop.next();
  while (!step.done) step = loop.next(step.value);
  return step.value;
}

function batchCard(card: number, n: number, dropRemainder: boolean): number {
  if (card < 0) return card;
  return Math.floor(card / n) + (card % n === 0 || dropRemainder ? 0 : 1);
}

/** The batched spec: a leading dim of n (dropRemainder) or null, then `dimsOf(i, spec)`. */
function batchedSpec(spec: ElementSpec, lead: number | null, dimsOf: (i: number, s: TensorSpec) => (number | null)[] | null): ElementSpec {
  return mapLeaves<ElementSpec>(spec, (s, i) => {
    const d = dimsOf(i, s as TensorSpec);
    return new TensorSpec(d === null ? null : [lead, ...d], (s as TensorSpec).dtype);
  });
}

export function batchParts(src: Parts, n: number, dropRemainder: boolean): Parts {
  return {
    spec: batchedSpec(src.spec, dropRemainder ? n : null, (_i, s) => s.shape.dims),
    card: batchCard(src.card, n, dropRemainder),
    make: () => {
      const up = src.make();
      const batchOf = (els: Element[]): IteratorResult<Element, undefined> => {
        if (els.length === 0 || (dropRemainder && els.length < n)) return (els.forEach(disposeElement), DONE);
        try {
          return item(stackElements(els));
        } finally {
          els.forEach(disposeElement);
        }
      };
      const upSync = up.nextSync;
      if (upSync !== undefined) return syncIter(() => batchOf(pullManySync(upSync, n)), () => up.close());
      return iter(async () => batchOf(await pullMany(up, n)), () => up.close());
    },
  };
}

/**
 * Stacks each component across the elements. Shapes are checked before any stack runs, and the
 * components stacked so far are freed if a later one fails (no tidy scope: batch is per-element hot).
 */
function stackElements(els: Element[]): Element {
  const cols = els.map(leaves);
  const first = cols[0];
  for (let c = 0; c < first.length; c++) {
    for (let k = 0; k < cols.length; k++) {
      if (!sameDims(cols[k][c].dims, first[c].dims)) {
        throw argError('Dataset.batch', `cannot batch tensors with different shapes in component ${c}`, `shape ${dimsToString(cols[k][c].dims)} in element ${k}`, `${dimsToString(first[c].dims)} as in element 0`, 'Use paddedBatch, or make the shapes equal.');
      }
    }
  }
  const stacked: Tensor[] = [];
  try {
    for (let c = 0; c < first.length; c++) {
      const column = new Array<Tensor>(cols.length);
      for (let k = 0; k < cols.length; k++) column[k] = cols[k][c];
      // tfjs's string kernels decode and re-encode UTF-8; string tensors hold bytes, so they stack on the host.
      stacked.push(first[c].dtype === 'string' ? constant(column.flatMap((t) => t.bytes()), 'string', [column.length, ...(first[c].dims as number[])]) : stack(column));
    }
    return pack<Element>(els[0], stacked);
  } catch (e) {
    for (const t of stacked) t.dispose();
    throw e;
  }
}

const sameDims = (a: readonly (number | null)[] | null, b: readonly (number | null)[] | null): boolean => a !== null && b !== null && a.length === b.length && a.every((d, i) => d === b[i]);

/** Leaves of `value` laid out like `spec` (an array leaf such as a shape is not split). */
function alongSpec(spec: ElementSpec, value: unknown, api: string, what: string): unknown[] {
  if (spec instanceof TensorSpec || spec instanceof DatasetSpec) return [value];
  if (Array.isArray(spec) && Array.isArray(value) && value.length === spec.length) return spec.flatMap((s, i) => alongSpec(s, value[i], api, what));
  if (isPlainObject(spec) && isPlainObject(value)) return Object.keys(spec).sort().flatMap((k) => alongSpec((spec as Record<string, ElementSpec>)[k], value[k], api, what));
  throw typeError(api, `${what} does not match the element structure`, describe(value), `the structure of ${specString(spec)}`, 'Give one entry per component.');
}

/** `paddedBatch` options: `paddedShapes`, `paddingValues`, `dropRemainder`. */
export interface PaddedOptions {
  paddedShapes?: unknown;
  paddingValues?: unknown;
  dropRemainder?: boolean;
}

export function paddedBatchParts(src: Parts, n: number, o: PaddedOptions): Parts {
  const api = 'Dataset.paddedBatch';
  const specs = specLeaves(src.spec) as TensorSpec[];
  const shapes = o.paddedShapes === undefined ? specs.map(() => null) : (alongSpec(src.spec, o.paddedShapes, api, 'paddedShapes') as ((number | null)[] | null)[]);
  const values = o.paddingValues === undefined ? specs.map(() => undefined) : isScalar(o.paddingValues) ? specs.map(() => o.paddingValues) : alongSpec(src.spec, o.paddingValues, api, 'paddingValues');
  shapes.forEach((sh, i) => {
    const r = specs[i].shape.rank;
    if (sh !== null && (!Array.isArray(sh) || (r !== null && sh.length !== r))) {
      throw argError(api, `paddedShapes entry ${i} does not fit the component`, describe(sh), `${r} dims like ${specs[i].shape}`, 'Give one dim (or null / -1) per axis.');
    }
  });
  const staticDims = (i: number, s: TensorSpec): (number | null)[] | null => {
    const sh = shapes[i];
    return sh === null ? s.shape.dims : sh.map((d) => (d === null || d < 0 ? null : d));
  };
  const dropRemainder = o.dropRemainder === true;
  return {
    spec: batchedSpec(src.spec, dropRemainder ? n : null, staticDims),
    card: batchCard(src.card, n, dropRemainder),
    make: () => {
      const up = src.make();
      return iter(async () => {
        const els = await pullMany(up, n);
        if (els.length === 0 || (dropRemainder && els.length < n)) return (els.forEach(disposeElement), DONE);
        try {
          const cols = els.map(leaves);
          return item(pack<Element>(els[0], specs.map((s, c) => padStack(api, cols.map((row) => row[c]), shapes[c], values[c], s.dtype))));
        } finally {
          els.forEach(disposeElement);
        }
      }, () => up.close());
    },
  };
}

const isScalar = (v: unknown): boolean => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';

/** Pads each tensor to the target shape with `value` and stacks them, assembled on the host. */
function padStack(api: string, ts: Tensor[], shape: (number | null)[] | null, value: unknown, dtype: DType): Tensor {
  const rank = ts[0].rank as number;
  const target = Array.from({ length: rank }, (_, a) => {
    const fixed = shape?.[a];
    const max = Math.max(...ts.map((t) => t.dims![a] as number));
    if (fixed !== undefined && fixed !== null && fixed >= 0 && max > fixed) {
      throw argError(api, `an element is larger than paddedShapes on axis ${a}`, `${max}`, `at most ${fixed}`, 'Enlarge paddedShapes.');
    }
    return fixed !== undefined && fixed !== null && fixed >= 0 ? fixed : max;
  });
  const size = target.reduce((a, b) => a * b, 1);
  const fill = value ?? (dtype === 'string' ? '' : dtype === 'bool' ? false : 0);
  const data = makeHost(dtype, size * ts.length, fill);
  ts.forEach((t, k) => copyInto(t.dataSync() as HostData, t.dims as number[], data, target, k * size));
  return constant(new NDArray(data, [ts.length, ...target], dtype));
}

function makeHost(dtype: DType, n: number, fill: unknown): HostData {
  if (dtype === 'string') return new Array<string>(n).fill(String(fill));
  const a = dtype === 'int32' ? new Int32Array(n) : dtype === 'bool' ? new Uint8Array(n) : new Float32Array(n);
  return a.fill(Number(fill));
}

/** Copies a row-major block of shape `src` into a larger row-major block `dst` at `offset`. */
function copyInto(from: HostData, src: number[], to: HostData, dst: number[], offset: number): void {
  const idx = new Array<number>(src.length).fill(0);
  for (let i = 0; i < from.length; i++) {
    let off = 0;
    for (let a = 0; a < src.length; a++) off = off * dst[a] + idx[a];
    (to as unknown[])[offset + off] = (from as unknown[])[i];
    for (let a = src.length - 1; a >= 0 && ++idx[a] === src[a]; a--) idx[a] = 0;
  }
}

export function unbatchParts(src: Parts): Parts {
  const specs = specLeaves(src.spec) as TensorSpec[];
  const bad = specs.find((s) => s.shape.rank === 0);
  if (bad !== undefined) throw argError('Dataset.unbatch', 'components must have rank >= 1', `${bad}`, 'a batched component', 'Unbatch only batched datasets.');
  const firsts = specs.map((s) => (s.shape.dims === null ? null : s.shape.dims[0]));
  const b = firsts.every((d) => d !== null && d === firsts[0]) ? (firsts[0] as number) : null;
  const card = src.card === INFINITE_CARDINALITY || src.card === UNKNOWN_CARDINALITY ? src.card : b !== null ? src.card * b : UNKNOWN_CARDINALITY;
  return {
    spec: mapLeaves<ElementSpec>(src.spec, (s) => new TensorSpec((s as TensorSpec).shape.dims?.slice(1) ?? null, (s as TensorSpec).dtype)),
    card,
    make: () => {
      const up = src.make();
      let cur: Element | null = null;
      let i = 0;
      let n = 0;
      return iter(async () => {
        while (cur === null || i >= n) {
          if (cur !== null) disposeElement(cur);
          cur = null;
          const r = await up.next();
          if (r.done) return DONE;
          cur = r.value;
          i = 0;
          n = rowsOf(cur);
        }
        const el = cur;
        const k = i++;
        return item(tidy(() => mapLeaves<Element>(el, (t) => gather(t as Tensor, constant(k, 'int32')))));
      }, async () => {
        if (cur !== null) disposeElement(cur);
        await up.close();
      });
    },
  };
}

function rowsOf(el: Element): number {
  const ds = leaves(el).map((t) => t.dims![0] as number);
  if (ds.some((d) => d !== ds[0])) {
    disposeElement(el);
    throw argError('Dataset.unbatch', 'components have different batch sizes', `${ds.join(', ')}`, 'equal leading dims', 'Batch components together.');
  }
  return ds[0];
}

