// Philox4x32-10 (Salmon et al. 2011): the counter-based generator behind the random ops, in exact uint32 JS arithmetic.

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;

/** High 32 bits of the 64-bit product of two uint32s, exact: a * (b >>> 16) and a * (b & 0xffff) fit in 2^49. */
function mulhi(a: number, b: number): number {
  return Math.floor((a * (b >>> 16) + Math.floor((a * (b & 0xffff)) / 0x10000)) / 0x10000) >>> 0;
}

/** One Philox4x32-10 block into `out`: 4 uint32 outputs for a 128-bit counter and a 64-bit key. */
function philoxBlock(c0: number, c1: number, c2: number, c3: number, k0: number, k1: number, out: Uint32Array): void {
  for (let r = 0; r < 10; r++) {
    const h0 = mulhi(M0, c0), l0 = Math.imul(M0, c0) >>> 0;
    const h1 = mulhi(M1, c2), l1 = Math.imul(M1, c2) >>> 0;
    c0 = (h1 ^ c1 ^ k0) >>> 0;
    c1 = l1;
    c2 = (h0 ^ c3 ^ k1) >>> 0;
    c3 = l0;
    k0 = (k0 + W0) >>> 0;
    k1 = (k1 + W1) >>> 0;
  }
  out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

/** Philox4x32-10 of a counter and key as arrays (for known-answer tests). */
export function philox4x32(counter: readonly number[], key: readonly number[]): number[] {
  const out = new Uint32Array(4);
  philoxBlock(counter[0] >>> 0, counter[1] >>> 0, counter[2] >>> 0, counter[3] >>> 0, key[0] >>> 0, key[1] >>> 0, out);
  return Array.from(out);
}

/**
 * A stream of numbers from Philox keyed by (k0, k1) on stream `stream`: block i is the counter
 * (i, stream low, stream high, 0). The same key and stream give the same numbers on every backend.
 */
export class PhiloxStream {
  private counter = 0;
  private readonly buf = new Uint32Array(4);
  private pos = 4;

  constructor(private readonly k0: number, private readonly k1: number, private readonly stream = 0) {}

  /** The next uint32. */
  nextU32(): number {
    if (this.pos === 4) {
      const s = this.stream;
      philoxBlock(this.counter >>> 0, s >>> 0, Math.floor(s / 0x100000000) >>> 0, 0, this.k0 >>> 0, this.k1 >>> 0, this.buf);
      this.counter++;
      this.pos = 0;
    }
    return this.buf[this.pos++];
  }

  /** Uniform double in [0, 1) from 53 random bits. */
  uniform(): number {
    const a = this.nextU32() >>> 5;
    const b = this.nextU32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** Standard normal (Box-Muller on two uniforms; 1 - u keeps log away from 0). */
  normal(): number {
    const u1 = 1 - this.uniform();
    const u2 = this.uniform();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  /** Standard normal truncated to [-2, 2] by rejection, like tf.random.truncated_normal. */
  truncatedNormal(): number {
    for (;;) {
      const z = this.normal();
      if (Math.abs(z) <= 2) return z;
    }
  }

  /** Uniform integer in [lo, hi) (hi > lo; the span fits in 2^32): rejection keeps it unbiased. */
  int(lo: number, hi: number): number {
    const span = hi - lo;
    const limit = Math.floor(0x100000000 / span) * span;
    for (;;) {
      const u = this.nextU32();
      if (u < limit) return lo + (u % span);
    }
  }
}
