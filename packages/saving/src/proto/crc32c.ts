// CRC32C (Castagnoli) from SheetJS's crc-32 package, and TF's masked form (tensorflow/core/lib/hash/crc32c.h: Mask),
// which TFRecord framing, TensorBundle data and event files use.
import CRC32C from 'crc-32/crc32c.js';

/** CRC32C of `bytes` as an unsigned 32-bit number. */
export function crc32c(bytes: Uint8Array): number {
  return CRC32C.buf(bytes) >>> 0;
}

const MASK_DELTA = 0xa282ead8;

/** TF's masked CRC: rotate right by 15 bits and add a constant (so a CRC of data holding CRCs stays well spread). */
export function maskCrc(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + MASK_DELTA) >>> 0;
}

/** The inverse of maskCrc. */
export function unmaskCrc(masked: number): number {
  const rot = (masked - MASK_DELTA) >>> 0;
  return ((rot >>> 17) | (rot << 15)) >>> 0;
}

/** Masked CRC32C of `bytes`. */
export function maskedCrc32c(bytes: Uint8Array): number {
  return maskCrc(crc32c(bytes));
}

/** CRC32C of the bytes after those whose CRC is `crc` (crc32c(a ++ b) === crc32cExtend(crc32c(a), b)). */
export function crc32cExtend(crc: number, bytes: Uint8Array): number {
  return CRC32C.buf(bytes, crc | 0) >>> 0;
}
