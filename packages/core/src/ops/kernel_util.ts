// Kernel-level helpers for records whose TensorFlow semantics need more than one tfjs kernel.
import { Info, Kernels, isHostBackend, isTfTensor, readInfoSync } from '../backend/backend';
import type { DType } from '../values/dtype';

/**
 * The Transpose kernel, or Identity when `perm` keeps every axis in place (tfjs-core's transpose never
 * sends those to the kernel, and tfjs-webgpu's Transpose shader does not compile for rank 1).
 */
export function transposeKernel(k: Kernels, x: Info, perm: readonly number[]): Info {
  if (perm.every((p, i) => p === i)) return k.run('Identity', { x }) as Info;
  return k.run('Transpose', { x }, { perm: [...perm] }) as Info;
}

/** Runs kernels and frees every intermediate at `done()` except the ones `keep` hands out. */
export class Scratch {
  private readonly temps: Info[] = [];
  constructor(readonly k: Kernels) {}

  run(name: string, inputs: Record<string, Info>, attrs?: Record<string, unknown>): Info {
    const r = this.k.run(name, inputs, attrs) as Info;
    this.temps.push(r);
    return r;
  }

  scalar(v: number, dtype: DType = 'float32'): Info {
    const r = this.k.upload(dtype === 'int32' ? Int32Array.of(v) : Float32Array.of(v), [], dtype);
    this.temps.push(r);
    return r;
  }

  /** Host data as a tracked intermediate. */
  upload(values: Float32Array | Int32Array, shape: readonly number[], dtype: DType): Info {
    const r = this.k.upload(values, [...shape], dtype);
    this.temps.push(r);
    return r;
  }

  /** `x` broadcast to `shape` (itself when it already has it). */
  to(x: Info, shape: readonly number[]): Info {
    if (sameShape(x.shape, shape)) return x;
    const r = broadcastInfo(this.k, x, shape);
    this.temps.push(r);
    return r;
  }

  keep(x: Info): Info {
    const i = this.temps.indexOf(x);
    if (i >= 0) this.temps.splice(i, 1);
    return x;
  }

  done(): void {
    for (const t of this.temps.splice(0)) release(this.k, t);
  }
}

/**
 * Frees a kernel intermediate. Some cpu kernels (Abs, ...) return engine-tracked tensors even when
 * run directly; those are disposed through the engine so its tensor count drops too.
 */
export function release(k: Kernels, x: Info): void {
  if (isTfTensor(x)) x.dispose();
  else k.free(x);
}

/** Runs `body` with a Scratch; intermediates are freed also when it throws. */
export function withScratch(k: Kernels, body: (s: Scratch) => Info): Info {
  const s = new Scratch(k);
  try {
    return s.keep(body(s));
  } finally {
    s.done();
  }
}

/**
 * A real-valued kernel run on the real and imaginary parts of the complex64 inputs among `xs` (others are
 * passed as they are; `run` is told whether it is given the imaginary parts), recombined into complex64: for ops whose tfjs CPU
 * kernel lacks complex64 (Select, GatherV2, PadV2) while TensorFlow's has it. Intermediates are freed, also when
 * `run` throws.
 */
export function complexByParts(k: Kernels, xs: readonly Info[], run: (parts: Info[], imaginary: boolean) => Info): Info {
  const half = (kernel: 'Real' | 'Imag'): Info => {
    const parts = xs.map((x) => (x.dtype === 'complex64' ? (k.run(kernel, { input: x }) as Info) : x));
    try {
      return run(parts, kernel === 'Imag');
    } finally {
      parts.forEach((p, i) => p !== xs[i] && k.free(p));
    }
  };
  const re = half('Real');
  let im: Info | null = null;
  try {
    im = half('Imag');
    return k.run('Complex', { real: re, imag: im }) as Info;
  } finally {
    k.free(re);
    if (im !== null) k.free(im);
  }
}

/**
 * int32 multiply with TensorFlow's wrap-around: tfjs multiplies in float64 and loses low bits past
 * 2^53, so on the host (cpu) the product is Math.imul. Elsewhere the backend's int32 is a float anyway.
 */
export function intMultiply(k: Kernels, a: Info, b: Info): Info {
  if (!isHostBackend()) return k.run('Multiply', { a, b }) as Info;
  const shape = broadcastShape(a.shape, b.shape);
  return withScratch(k, (s) => {
    // Scalars are read as they are (pooled scalars must not be broadcast through the engine).
    const x = readInfoSync(a.shape.length === 0 ? a : s.to(a, shape)) as Int32Array;
    const y = readInfoSync(b.shape.length === 0 ? b : s.to(b, shape)) as Int32Array;
    const n = shape.reduce((p, d) => p * d, 1);
    const out = new Int32Array(n);
    const [sx, sy] = [x.length === 1 && a.shape.length === 0, y.length === 1 && b.shape.length === 0];
    for (let i = 0; i < n; i++) out[i] = Math.imul(sx ? x[0] : x[i], sy ? y[0] : y[i]);
    return k.upload(out, shape, 'int32');
  });
}

/** Host values of a (small) int32 kernel value, for checks TensorFlow makes on values (ids, exponents). */
export function intValues(x: Info): Int32Array {
  return readInfoSync(x) as Int32Array;
}

/** Broadcasts a kernel value to `shape` (tfjs has no BroadcastTo kernel: reshape + Tile). */
export function broadcastInfo(k: Kernels, x: Info, shape: readonly number[]): Info {
  const lead = shape.length - x.shape.length;
  const padded = lead > 0 ? [...new Array<number>(lead).fill(1), ...x.shape] : x.shape;
  const src = lead > 0 ? (k.run('Reshape', { x }, { shape: padded }) as Info) : x;
  const reps = shape.map((d, i) => (padded[i] === d ? 1 : d));
  const out = reps.every((r) => r === 1) ? (k.run('Identity', { x: src }) as Info) : (k.run('Tile', { x: src }, { reps }) as Info);
  if (src !== x) k.free(src);
  return out;
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function broadcastShape(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = i < n - a.length ? 1 : a[i - (n - a.length)];
    const y = i < n - b.length ? 1 : b[i - (n - b.length)];
    out[i] = x === 1 ? y : x;
  }
  return out;
}

/**
 * On the cpu backend, `fn` over float32 values in one host pass (as the fused loop runs a scalar fact),
 * where the kernel composition would take several passes; null on other backends or shapes.
 * Binary inputs that broadcast otherwise than one shape or a rank-0 scalar are tiled to the result shape first.
 */
export function hostElementwise(k: Kernels, ins: readonly Info[], fn: (a: number, b: number) => number): Info | null {
  if (!isHostBackend() || ins.some((t) => t.dtype !== 'float32')) return null;
  const [a, b] = ins;
  if (b !== undefined && !sameShape(a.shape, b.shape) && a.shape.length !== 0 && b.shape.length !== 0) {
    // Operands that broadcast otherwise: both tiled to the result's shape first, then the same loop.
    const shape = broadcastShape(a.shape, b.shape);
    const fa = broadcastInfo(k, a, shape);
    const fb = broadcastInfo(k, b, shape);
    try {
      return hostElementwise(k, [fa, fb], fn);
    } finally {
      if (fa !== a) k.free(fa);
      if (fb !== b) k.free(fb);
    }
  }
  const va = readInfoSync(a) as Float32Array;
  const vb = b === undefined ? va : (readInfoSync(b) as Float32Array);
  const shape = b !== undefined && a.shape.length === 0 ? b.shape : a.shape;
  const n = shape.reduce((p, d) => p * d, 1);
  const out = new Float32Array(n);
  // A rank-0 side repeats its one value.
  const [sa, sb] = [va.length === n ? 1 : 0, vb.length === n ? 1 : 0];
  for (let i = 0; i < n; i++) out[i] = fn(va[i * sa], vb[i * sb]);
  return k.upload(out, [...shape], 'float32');
}
