// UTF-8 as TF's string ops read it: characters counted by lead bytes (StringLength, Substr), and a decoder that
// replaces, skips or refuses each maximal invalid subsequence (UnicodeDecode's errors='replace' | 'ignore' | 'strict').
import { argError } from '@eagerflow/core';

const isCont = (c: number): boolean => (c & 0xc0) === 0x80;

/** Characters as TF counts them: bytes that are not continuation bytes. */
export function utf8Length(s: Uint8Array): number {
  let n = 0;
  for (const c of s) if (!isCont(c)) n++;
  return n;
}

/** Byte offsets of each character's start (lead bytes), then the length. */
export function charOffsets(s: Uint8Array): number[] {
  const out: number[] = [];
  s.forEach((c, i) => {
    if (!isCont(c) || i === 0) out.push(i);
  });
  out.push(s.length);
  return out;
}

/** One code point at `i`: [code point, bytes used], or [-1, bytes of the maximal invalid subpart]. */
function next(s: Uint8Array, i: number): [number, number] {
  const c = s[i];
  if (c < 0x80) return [c, 1];
  let need: number, cp: number, lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) [need, cp] = [1, c & 0x1f];
  else if (c >= 0xe0 && c <= 0xef) {
    [need, cp] = [2, c & 0x0f];
    if (c === 0xe0) lo = 0xa0;
    if (c === 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    [need, cp] = [3, c & 0x07];
    if (c === 0xf0) lo = 0x90;
    if (c === 0xf4) hi = 0x8f;
  } else return [-1, 1];
  for (let k = 1; k <= need; k++) {
    const b = s[i + k];
    if (b === undefined || b < lo || b > hi) return [-1, k];
    [lo, hi] = [0x80, 0xbf];
    cp = (cp << 6) | (b & 0x3f);
  }
  return [cp, need + 1];
}

/** The code points of UTF-8 bytes; invalid subsequences replaced, skipped or refused (row `row` for the message). */
export function decodeUtf8(s: Uint8Array, errors: 'replace' | 'ignore' | 'strict', replacement: number, row: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length;) {
    const [cp, used] = next(s, i);
    if (cp >= 0) out.push(cp);
    else if (errors === 'strict') {
      throw argError('strings.unicodeDecode', `invalid UTF-8 at byte ${i} of element ${row}`, `byte 0x${s[i].toString(16)}`, 'valid UTF-8', "Pass errors: 'replace' or 'ignore' to decode it anyway.");
    } else if (errors === 'replace') out.push(replacement);
    i += used;
  }
  return out;
}
