// Order and count transformations: repeat, take, skip, shard, enumerate, concatenate, cache, shuffle, prefetch.
import { Tensor, TensorSpec, constant } from '@eagerflow/core';
import { DONE, Iter, item, iter, viaTfjsData } from './iter';
import { Parts } from './sources';
import { Element, ElementSpec, INFINITE_CARDINALITY as INF, UNKNOWN_CARDINALITY as UNK, cloneElement, disposeElement, leaves, releaseWhenCollected } from './structure';

export function repeatParts(src: Parts, count: number): Parts {
  const card = count < 0 ? (src.card === 0 ? 0 : INF) : count === 0 ? 0 : src.card < 0 ? src.card : src.card * count;
  return {
    spec: src.spec,
    card,
    make: () => {
      let epoch = 0;
      let cur: Iter | null = null;
      let seen = false;
      return iter(async () => {
        for (;;) {
          if (count >= 0 && epoch >= count) return DONE;
          cur ??= src.make();
          const r = await cur.next();
          if (!r.done) return (seen = true), r;
          await cur.close();
          cur = null;
          epoch++;
          // An empty input would repeat forever: stop like TF.
          if (!seen) return DONE;
          seen = false;
        }
      }, async () => void (await cur?.close()));
    },
  };
}

export function takeParts(src: Parts, n: number): Parts {
  const card = n < 0 ? src.card : src.card === INF ? n : src.card === UNK ? UNK : Math.min(src.card, n);
  return {
    spec: src.spec,
    card,
    make: () => {
      const up = src.make();
      let k = 0;
      return iter(async () => (n >= 0 && k >= n ? DONE : (k++, up.next())), () => up.close());
    },
  };
}

/** Drops elements while `drop(index)` says so (skip drops a prefix; shard keeps every n-th). */
function dropping(src: Parts, card: number, drop: (i: number) => boolean | 'end'): Parts {
  return {
    spec: src.spec,
    card,
    make: () => {
      const up = src.make();
      let i = 0;
      return iter(async () => {
        for (;;) {
          const r = await up.next();
          if (r.done) return DONE;
          const d = drop(i++);
          if (d === false) return r;
          disposeElement(r.value);
        }
      }, () => up.close());
    },
  };
}

export function skipParts(src: Parts, n: number): Parts {
  const card = src.card < 0 ? src.card : n < 0 ? 0 : Math.max(0, src.card - n);
  return dropping(src, card, (i) => n < 0 || i < n);
}

export function shardParts(src: Parts, numShards: number, index: number): Parts {
  const card = src.card < 0 ? src.card : Math.floor(src.card / numShards) + (index < src.card % numShards ? 1 : 0);
  return dropping(src, card, (i) => i % numShards !== index);
}

export function enumerateParts(src: Parts, start: number): Parts {
  return {
    spec: [new TensorSpec([], 'int32'), src.spec] as ElementSpec,
    card: src.card,
    make: () => {
      const up = src.make();
      let i = start;
      return iter(async () => {
        const r = await up.next();
        return r.done ? DONE : item([constant(i++, 'int32'), r.value]);
      }, () => up.close());
    },
  };
}

export function concatenateParts(a: Parts, b: Parts, spec: ElementSpec): Parts {
  const card = a.card === INF || b.card === INF ? INF : a.card === UNK || b.card === UNK ? UNK : a.card + b.card;
  return {
    spec,
    card,
    make: () => {
      let cur: Iter = a.make();
      let second = false;
      return iter(async () => {
        const r = await cur.next();
        if (!r.done || second) return r;
        await cur.close();
        cur = b.make();
        second = true;
        return cur.next();
      }, () => cur.close());
    },
  };
}

/**
 * cache(): the first complete iteration records copies of the elements; later ones replay copies.
 * A partial first iteration records nothing (as TF). The cached tensors live as long as the dataset.
 */
export function cacheParts(src: Parts): Parts {
  let cached: Element[] | null = null;
  const kept: Tensor[] = [];
  const parts: Parts = {
    spec: src.spec,
    card: src.card,
    make: () => {
      if (cached !== null) {
        const rows = cached;
        let i = 0;
        return iter(async () => (i < rows.length ? item(cloneElement(rows[i++])) : DONE));
      }
      const up = src.make();
      const rec: Element[] = [];
      return iter(async () => {
        const r = await up.next();
        if (r.done) {
          if (cached === null) {
            cached = rec.splice(0);
            kept.push(...cached.flatMap(leaves));
          }
          return DONE;
        }
        rec.push(cloneElement(r.value));
        return r;
      }, async () => {
        rec.forEach(disposeElement);
        await up.close();
      });
    },
  };
  releaseWhenCollected(parts, kept);
  return parts;
}

/** Iteration seeds: TF's rule (a fixed seed gives the same orders each run; reshuffle draws a new one per epoch). */
export function shuffleParts(src: Parts, bufferSize: number, seed: number | null, reshuffle: boolean): Parts {
  const base = seed ?? Math.floor(Math.random() * 2 ** 31);
  let epoch = 0;
  return {
    spec: src.spec,
    card: src.card,
    make: () => {
      const s = reshuffle ? `${base}:${epoch++}` : `${base}`;
      return viaTfjsData(src.make(), (it) => it.shuffle(bufferSize, s));
    },
  };
}

export function prefetchParts(src: Parts, bufferSize: number): Parts {
  return { spec: src.spec, card: src.card, make: () => viaTfjsData(src.make(), (it) => it.prefetch(bufferSize)) };
}

/**
 * Drops the elements whose production failed (TF's ignore_errors): the error is swallowed (logged with
 * `logWarning`) and the next element is pulled. A TFRecord file that fails is skipped from there to its end.
 */
export function ignoreErrorsParts(src: Parts, logWarning: boolean): Parts {
  return {
    spec: src.spec,
    card: src.card === INF ? INF : UNK,
    make: () => {
      const up = src.make();
      return iter(async () => {
        for (;;) {
          try {
            return await up.next();
          } catch (e) {
            if (logWarning) console.warn(`Dataset.ignoreErrors: ignoring an error: ${(e as Error)?.message ?? String(e)}`);
          }
        }
      }, () => up.close());
    },
  };
}
