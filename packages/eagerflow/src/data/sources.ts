// Dataset sources: range, fromTensorSlices, fromTensors, fromGenerator, zip, and host-held elements.
import { argError, NDArray, Tensor, TensorSpec, constant, describe, dimsToString, gather, isPlainObject, keep, tidy, typeError } from '@eagerflow/core';
import { DONE, Iter, item, iter, syncIter } from './iter';
import {
  Element, ElementSpec, UNKNOWN_CARDINALITY, checkElement, registerOwned, releaseWhenCollected, checkFunction, cloneElement, leaves, mapLeaves, specOf, toElement,
} from './structure';

/** What a Dataset is made of: its spec, cardinality and a factory of fresh iterators. */
export interface Parts {
  spec: ElementSpec;
  card: number;
  make: () => Iter;
}

export function rangeParts(args: number[]): Parts {
  const bad = args.find((a) => typeof a !== 'number' || !Number.isInteger(a));
  if (args.length < 1 || args.length > 3 || bad !== undefined) {
    throw argError('Dataset.range', 'arguments must be 1 to 3 integers', describe(args), '(stop) or (start, stop, step)', 'Pass integers.');
  }
  const [start, stop, step] = args.length === 1 ? [0, args[0], 1] : [args[0], args[1], args[2] ?? 1];
  if (step === 0) throw argError('Dataset.range', 'step must not be zero', '0', 'a non-zero integer', 'Pass step 1 or -1.');
  const card = Math.max(0, Math.ceil((stop - start) / step));
  return {
    spec: new TensorSpec([], 'int32'),
    card,
    make: () => {
      let k = 0;
      return syncIter(() => (k < card ? item(constant(start + step * k++, 'int32')) : DONE));
    },
  };
}

/** Converts a structure of values to kept tensors (the dataset owns them for its lifetime). */
function owned(api: string, value: unknown): Element {
  const el = tidy(() => toElement(api, value));
  for (const t of leaves(el)) keep(t);
  registerOwned(leaves(el));
  return el;
}

export function fromTensorSlicesParts(value: unknown): Parts {
  const api = 'Dataset.fromTensorSlices';
  const el = owned(api, value);
  const ts = leaves(el);
  const n = ts.length === 0 ? null : ts[0].dims?.[0];
  for (const t of ts) {
    if (t.rank === 0 || t.dims?.[0] !== n) {
      ts.forEach((x) => x.dispose());
      throw argError(api, 'every component must have the same size in the first dimension', `shapes ${ts.map((x) => dimsToString(x.dims)).join(', ')}`, 'a common leading dim', 'Slice tensors of rank >= 1 with equal first dims.');
    }
  }
  const count = n as number;
  return held(ts, {
    spec: mapLeaves<ElementSpec>(el, (t) => new TensorSpec((t as Tensor).dims!.slice(1), (t as Tensor).dtype)),
    card: count,
    make: () => {
      let i = 0;
      return syncIter(() => {
        if (i >= count) return DONE;
        const k = i++;
        return item(tidy(() => mapLeaves<Element>(el, (t) => gather(t as Tensor, constant(k, 'int32')))));
      });
    },
  });
}

/** The parts own `ts`: they are freed once no dataset (no closure over these parts) is left. */
function held(ts: Tensor[], parts: Parts): Parts {
  releaseWhenCollected(parts, ts);
  return parts;
}

export function fromTensorsParts(value: unknown): Parts {
  const el = owned('Dataset.fromTensors', value);
  return held(leaves(el), {
    spec: specOf(el),
    card: 1,
    make: () => {
      let given = false;
      return iter(async () => (given ? DONE : ((given = true), item(cloneElement(el)))));
    },
  });
}

type Gen = Iterator<unknown> | AsyncIterator<unknown>;

function checkSignature(api: string, sig: unknown): ElementSpec {
  const ok = (s: unknown): boolean => s instanceof TensorSpec || (Array.isArray(s) && s.every(ok)) || (isPlainObject(s) && Object.values(s).every(ok));
  if (sig === undefined || !ok(sig)) {
    throw typeError(api, 'outputSignature must be a TensorSpec or a structure of them', describe(sig), `e.g. new ef.TensorSpec([null], 'float32')`, 'Pass {outputSignature}.');
  }
  return mapLeaves<ElementSpec>(sig, (s) => new TensorSpec((s as TensorSpec).shape, (s as TensorSpec).dtype));
}

export function fromGeneratorParts(genFn: unknown, options: { outputSignature?: unknown } | undefined): Parts {
  const api = 'Dataset.fromGenerator';
  checkFunction(api, genFn);
  const spec = checkSignature(api, options?.outputSignature);
  return {
    spec,
    card: UNKNOWN_CARDINALITY,
    make: () => {
      let gen: Gen | null = null;
      return iter(
        async () => {
          gen ??= (genFn as () => Gen)();
          if (gen === null || typeof gen !== 'object' || typeof gen.next !== 'function') {
            throw typeError(api, 'the generator function must return an iterator', describe(gen), 'a generator', 'Pass function* () {...} or async function* () {...}.');
          }
          const r = await gen.next();
          if (r.done) return DONE;
          const el = tidy(() => toElement(api, r.value, spec));
          try {
            checkElement(api, el, spec);
          } catch (e) {
            leaves(el).forEach((t) => t.dispose());
            throw e;
          }
          return item(el);
        },
        async () => void (await gen?.return?.()),
      );
    },
  };
}

/** zip: a tuple (array) or dict (object) of datasets; ends with the shortest. */
export function zipParts(datasets: unknown, partsOf: (d: unknown) => Parts | null): Parts {
  const api = 'Dataset.zip';
  const flat = Array.isArray(datasets) ? datasets : isPlainObject(datasets) ? Object.keys(datasets).sort().map((k) => datasets[k]) : null;
  const parts = flat?.map(partsOf);
  if (flat === null || flat.length === 0 || parts === undefined || parts.some((p) => p === null)) {
    throw typeError(api, 'expected a non-empty array or object of Datasets', describe(datasets), 'e.g. [ds1, ds2]', 'Pass datasets.');
  }
  const ps = parts as Parts[];
  const template = Array.isArray(datasets) ? ps.map(() => 0) : Object.fromEntries(Object.keys(datasets as object).map((k) => [k, 0]));
  let card = INF;
  for (const p of ps) {
    if (p.card === UNKNOWN_CARDINALITY) card = UNKNOWN_CARDINALITY;
    else if (card !== UNKNOWN_CARDINALITY && p.card !== INF && (card === INF || p.card < card)) card = p.card;
  }
  return {
    spec: packKeys<ElementSpec>(template, ps.map((p) => p.spec)),
    card,
    make: () => {
      const its = ps.map((p) => p.make());
      return iter(
        async () => {
          const got: Element[] = [];
          for (const it of its) {
            const r = await it.next();
            if (r.done) {
              got.forEach((el) => leaves(el).forEach((t) => t.dispose()));
              return DONE;
            }
            got.push(r.value);
          }
          return item(packKeys<Element>(template, got));
        },
        async () => void (await Promise.all(its.map((it) => it.close()))),
      );
    },
  };
}

const INF = -1;

/** Rebuilds a one-level tuple/dict template (values in sorted-key order for dicts). */
function packKeys<T>(template: unknown, values: unknown[]): T {
  if (Array.isArray(template)) return values as T;
  const keys = Object.keys(template as object);
  const sorted = [...keys].sort();
  return Object.fromEntries(keys.map((k) => [k, values[sorted.indexOf(k)]])) as T;
}

/** Elements held on the host (NDArrays), uploaded per iteration: windows hold no device memory. */
export function hostParts(rows: unknown[], spec: ElementSpec): Parts {
  return {
    spec,
    card: rows.length,
    make: () => {
      let i = 0;
      return iter(async () => (i < rows.length ? item(tidy(() => mapLeaves<Element>(rows[i++], (a) => constant(a as NDArray)))) : DONE));
    },
  };
}

