// String concatenation with broadcasting (TF's Add on strings), on the host: tfjs has no string Add kernel.
import type { Info, Kernels } from '../../backend/backend';
import { readInfoBytesSync } from '../../backend/backend';

/** For each flat index of `out`, the flat index of an input of shape `shape` broadcast to it (numpy rules). */
export function broadcastIndex(out: readonly number[], shape: readonly number[]): Int32Array {
  const n = out.reduce((a, b) => a * b, 1);
  const idx = new Int32Array(n);
  const lead = out.length - shape.length;
  const inStrides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  for (let f = 0; f < n; f++) {
    let rem = f;
    let at = 0;
    for (let d = out.length - 1; d >= 0; d--) {
      const c = rem % out[d];
      rem = (rem - c) / out[d];
      const j = d - lead;
      if (j >= 0 && shape[j] !== 1) at += c * inStrides[j];
    }
    idx[f] = at;
  }
  return idx;
}

/** The broadcast shape of concrete shapes (their infer already checked them). */
export function broadcastConcrete(shapes: readonly (readonly number[])[]): number[] {
  const r = Math.max(0, ...shapes.map((s) => s.length));
  // The dim other than 1 on each axis (a 0 too: an empty input broadcasts to an empty result), else 1.
  return Array.from({ length: r }, (_, i) => shapes.map((s) => s[s.length - r + i] ?? 1).find((d) => d !== 1) ?? 1);
}

/** Concatenates the bytes of the inputs elementwise (broadcasting), with `separator` between them. */
export function joinBytes(parts: readonly Uint8Array[][], shapes: readonly (readonly number[])[], separator: Uint8Array = new Uint8Array(0)): { values: Uint8Array[]; shape: number[] } {
  const shape = broadcastConcrete(shapes);
  const maps = shapes.map((s) => broadcastIndex(shape, s));
  const n = shape.reduce((a, b) => a * b, 1);
  const values: Uint8Array[] = new Array<Uint8Array>(n);
  for (let f = 0; f < n; f++) {
    const pieces = parts.map((p, k) => p[maps[k][f]]);
    const size = pieces.reduce((a, p) => a + p.length, 0) + separator.length * Math.max(0, pieces.length - 1);
    const buf = new Uint8Array(size);
    let at = 0;
    pieces.forEach((p, k) => {
      if (k > 0) {
        buf.set(separator, at);
        at += separator.length;
      }
      buf.set(p, at);
      at += p.length;
    });
    values[f] = buf;
  }
  return { values, shape };
}

/** a + b on string kernel values: elementwise concatenation with broadcasting (TF's Add). */
export function stringAdd(k: Kernels, a: Info, b: Info): Info {
  const { values, shape } = joinBytes([readInfoBytesSync(a), readInfoBytesSync(b)], [a.shape, b.shape]);
  return k.upload(values as unknown as string[], shape, 'string');
}
