// The ef.strings records: host kernels on the strings' bytes (tfjs has kernels for few string ops; its
// StringToHashBucketFast is FarmHash Fingerprint64 as TF's). Eager and traced alike; not differentiable (strings).
import { AVal, Info, Kernels, Primitive, argError, backend, broadcastConcrete, broadcastIndex, dimsToString, joinBytes, registerPrimitive, unimplemented } from '@eagerflow/core';
import type { DType, Dims } from '@eagerflow/core';

import { decodeUtf8, utf8Length, charOffsets } from './unicode_bytes';

export type Unit = 'BYTE' | 'UTF8_CHAR';
const bytesOf = (x: Info): Uint8Array[] => backend.readInfoBytesSync(x);
const upload = (k: Kernels, values: Uint8Array[], shape: number[]): Info => k.upload(values as unknown as string[], shape, 'string');

function checkString(op: string, x: AVal, which = 'input'): void {
  if (x.dtype !== 'string') throw argError(op, `${which} must be a string tensor`, x.dtype, 'string', "Pass a string tensor (ef.constant(['a', 'b'])), or convert numbers with ef.strings.asString.");
}

/** Static broadcast of shapes that may hold unknown dims (null when unknown). */
function broadcastStatic(op: string, shapes: Dims[]): Dims {
  if (shapes.some((s) => s === null)) return null;
  const ss = shapes as (number | null)[][];
  const r = Math.max(0, ...ss.map((s) => s.length));
  return Array.from({ length: r }, (_, i) => {
    const ds = ss.map((s) => s[s.length - r + i] ?? 1);
    const known = ds.filter((d): d is number => d !== null && d !== 1);
    if (new Set(known).size > 1) throw argError(op, 'shapes do not broadcast', ss.map((s) => dimsToString(s)).join(' and '), 'broadcast-compatible shapes', 'Make the shapes equal or 1 where they differ.');
    return known[0] ?? (ds.some((d) => d === null) ? null : 1);
  });
}

function pure<P extends object>(rec: Omit<Primitive<P>, 'effect' | 'vjp' | 'saves'>): Primitive<P> {
  const p = { ...rec, effect: 'pure', vjp: null, saves: 'none' } as Primitive<P>;
  registerPrimitive(p as unknown as Primitive);
  return p;
}

/** TF's StringJoin: inputs of one shape (or scalars), joined elementwise with `separator`. */
export const stringJoin = pure<{ readonly separator: string }>({
  name: 'string_join',
  infer(ins) {
    ins.forEach((x, i) => checkString('strings.join', x, `inputs[${i}]`));
    const shaped = ins.map((x) => x.shape).filter((s) => s === null || s.length > 0);
    return [{ dtype: 'string', shape: shaped.length === 0 ? [] : broadcastStatic('strings.join', shaped) }];
  },
  impl(k, ins, p) {
    const shapes = ins.map((x) => x.shape).filter((s) => s.length > 0);
    if (shapes.some((s) => s.join() !== shapes[0].join())) {
      throw argError('strings.join', 'inputs must have one shape (or be scalars)', shapes.map((s) => `[${s}]`).join(' and '), 'equal shapes', 'Broadcast them first, e.g. with ef.add.');
    }
    const { values, shape } = joinBytes(ins.map(bytesOf), ins.map((x) => x.shape), new TextEncoder().encode(p.separator));
    return [upload(k, values, shape)];
  },
});

/** TF's StringLength: bytes, or UTF-8 characters (lead bytes, as TF counts them). */
export const stringLength = pure<{ readonly unit: Unit }>({
  name: 'string_length',
  infer(ins) {
    checkString('strings.length', ins[0]);
    return [{ dtype: 'int32', shape: ins[0].shape }];
  },
  impl(k, [x], p) {
    const b = bytesOf(x);
    return [k.upload(Int32Array.from(b, (s) => (p.unit === 'BYTE' ? s.length : utf8Length(s))), [...x.shape], 'int32')];
  },
});

/** TF's Substr: pos and len (one shape) broadcast against the input; a negative len runs to the end. */
export const stringSubstr = pure<{ readonly unit: Unit }>({
  name: 'string_substr',
  infer(ins) {
    checkString('strings.substr', ins[0]);
    for (const [i, w] of [[1, 'pos'], [2, 'len']] as const) {
      if (ins[i].dtype !== 'int32') throw argError('strings.substr', `${w} must be int32`, ins[i].dtype, 'int32', `Pass ${w} as integers.`);
    }
    const [ps, ls] = [ins[1].shape, ins[2].shape];
    if (ps !== null && ls !== null && (ps.length !== ls.length || ps.some((d, i) => d !== null && ls[i] !== null && d !== ls[i]))) {
      throw argError('strings.substr', 'pos and len must have the same shape', `${dimsToString(ps)} and ${dimsToString(ls)}`, 'equal shapes', 'Give pos and len the same shape.');
    }
    return [{ dtype: 'string', shape: broadcastStatic('strings.substr', [ins[0].shape, ps]) }];
  },
  impl(k, [x, pos, len], p) {
    if (pos.shape.join() !== len.shape.join()) throw argError('strings.substr', 'pos and len must have the same shape', `[${pos.shape}] and [${len.shape}]`, 'equal shapes', 'Give pos and len the same shape.');
    const shape = broadcastConcrete([x.shape, pos.shape]);
    const [xi, pi] = [broadcastIndex(shape, x.shape), broadcastIndex(shape, pos.shape)];
    const b = bytesOf(x);
    const [pv, lv] = [backend.readInfoSync(pos) as Int32Array, backend.readInfoSync(len) as Int32Array];
    const dec = new TextDecoder();
    const out = Array.from(xi, (at, f) => {
      const s = b[at];
      const offs = p.unit === 'BYTE' ? null : charOffsets(s);
      const n = offs === null ? s.length : offs.length - 1;
      let start = pv[pi[f]];
      if (start < -n || start > n) {
        throw argError('strings.substr', `pos ${start} out of range for string '${dec.decode(s)}' at index ${f}`, String(start), `a position in [${-n}, ${n}] (${p.unit === 'BYTE' ? 'bytes' : 'characters'})`, 'Clip pos to the string lengths.');
      }
      if (start < 0) start += n;
      const l = lv[pi[f]];
      const stop = l < 0 ? n : Math.min(n, start + l);
      return offs === null ? s.slice(start, stop) : s.slice(offs[start], offs[stop]);
    });
    return [upload(k, out, shape)];
  },
});

/** strtod's forms TF accepts: decimal, inf/infinity/nan, hex floats; whitespace around. */
function parseFloatTf(t: string): number | null {
  const s = t.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Math.fround(Number(s));
  const m = /^([+-]?)(inf|infinity|nan)$/i.exec(s);
  if (m !== null) return m[2].toLowerCase() === 'nan' ? NaN : m[1] === '-' ? -Infinity : Infinity;
  const h = /^([+-]?)0x([0-9a-f]*)\.?([0-9a-f]*)(?:p([+-]?\d+))?$/i.exec(s);
  if (h !== null && (h[2] + h[3]).length > 0) {
    const mant = parseInt(h[2] + h[3] || '0', 16) / 16 ** h[3].length;
    return Math.fround((h[1] === '-' ? -1 : 1) * mant * 2 ** Number(h[4] ?? 0));
  }
  return null;
}

/** TF's StringToNumber: float32 (strtod's forms) or int32 (decimal digits, in range). */
export const stringToNumber = pure<{ readonly outType: DType }>({
  name: 'string_to_number',
  infer(ins, p) {
    checkString('strings.toNumber', ins[0]);
    return [{ dtype: p.outType, shape: ins[0].shape }];
  },
  impl(k, [x], p) {
    const strs = backend.readInfoSync(x) as string[];
    const out = p.outType === 'int32' ? new Int32Array(strs.length) : new Float32Array(strs.length);
    strs.forEach((s, i) => {
      let v: number | null;
      if (p.outType === 'int32') {
        const t = s.trim();
        v = /^[+-]?\d+$/.test(t) ? Number(t) : null;
        if (v !== null && (v > 2147483647 || v < -2147483648)) v = null;
      } else v = parseFloatTf(s);
      if (v === null) throw argError('strings.toNumber', `StringToNumberOp could not correctly convert string: ${s}`, `'${s}'`, `a ${p.outType} number`, 'Clean the strings first (ef.strings.regexReplace).');
      out[i] = v;
    });
    return [k.upload(out, [...x.shape], p.outType)];
  },
});

/** RE2's rewrite (`\0`..`\9`, `\\`) applied to one match. */
function rewriteWith(rewrite: string): (match: string, groups: (string | undefined)[]) => string {
  return (match, groups) => rewrite.replace(/\\(\d|\\)/g, (_m, g: string) => (g === '\\' ? '\\' : g === '0' ? match : (groups[Number(g) - 1] ?? '')));
}

/** TF's RegexReplace / StaticRegexReplace on JS RegExp (Unicode mode); the rewrite uses RE2's `\1`. */
export const stringRegexReplace = pure<{ readonly pattern: string; readonly rewrite: string; readonly replaceGlobal: boolean }>({
  name: 'string_regex_replace',
  infer(ins, p) {
    checkString('strings.regexReplace', ins[0]);
    compile(p.pattern, p.replaceGlobal);
    return [{ dtype: 'string', shape: ins[0].shape }];
  },
  impl(k, [x], p) {
    const re = compile(p.pattern, p.replaceGlobal);
    const rw = rewriteWith(p.rewrite);
    const strs = backend.readInfoSync(x) as string[];
    const out = strs.map((s) => s.replace(re, (m: string, ...rest: unknown[]) => rw(m, rest.slice(0, -2).filter((g) => typeof g !== 'object') as (string | undefined)[])));
    return [k.upload(out, [...x.shape], 'string')];
  },
});

function compile(pattern: string, global: boolean): RegExp {
  try {
    return new RegExp(pattern, global ? 'gu' : 'u');
  } catch (e) {
    throw argError('strings.regexReplace', `invalid pattern '${pattern}'`, (e as Error).message, 'a regular expression (JS RegExp syntax, Unicode mode)', 'Fix the pattern.', { cause: e });
  }
}

/** TF's StringToHashBucketFast (FarmHash Fingerprint64 mod numBuckets) on tfjs's kernel; int32 buckets. */
export const stringToHashBucketFast = pure<{ readonly numBuckets: number }>({
  name: 'string_to_hash_bucket_fast',
  infer(ins, p) {
    checkString('strings.toHashBucketFast', ins[0]);
    if (!Number.isInteger(p.numBuckets) || p.numBuckets < 1 || p.numBuckets > 2147483647) {
      throw argError('strings.toHashBucketFast', 'numBuckets must be an integer in [1, 2^31 - 1]', String(p.numBuckets), 'an integer >= 1', 'Pass e.g. 1000.');
    }
    return [{ dtype: 'int32', shape: ins[0].shape }];
  },
  impl: (k, [x], p) => {
    const flat = k.run('Reshape', { x }, { shape: [-1] }) as Info;
    const h = k.run('StringToHashBucketFast', { input: flat }, { numBuckets: p.numBuckets }) as Info;
    const out = k.run('Reshape', { x: h }, { shape: [...x.shape] }) as Info;
    k.free(flat);
    k.free(h);
    return [out];
  },
});

/** Python's str.split(None, maxsplit) on ASCII whitespace (TF's StringSplitV2 without a separator). */
function splitWhitespace(s: string, maxsplit: number): string[] {
  const out: string[] = [];
  let rest = s.replace(/^[ \t\n\v\f\r]+/, '');
  while (rest.length > 0) {
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(rest);
      break;
    }
    const m = /[ \t\n\v\f\r]+/.exec(rest);
    if (m === null) {
      out.push(rest);
      break;
    }
    out.push(rest.slice(0, m.index));
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

function splitSep(s: string, sep: string, maxsplit: number): string[] {
  const parts = s.split(sep);
  return maxsplit < 0 || parts.length <= maxsplit + 1 ? parts : [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(sep)];
}

/** Rows of a 1-D input as a sparse [indices, values, denseShape] (TF's sparse form of a ragged result). */
function sparseRows<T>(k: Kernels, rows: T[][], dtype: DType, values: (flat: T[]) => Info): Info[] {
  const n = rows.reduce((a, r) => a + r.length, 0);
  const idx = new Int32Array(2 * n);
  let at = 0;
  rows.forEach((r, i) => r.forEach((_, j) => {
    idx[2 * at] = i;
    idx[2 * at + 1] = j;
    at++;
  }));
  const width = Math.max(0, ...rows.map((r) => r.length));
  void dtype;
  return [k.upload(idx, [n, 2], 'int32'), values(rows.flat() as T[]), k.upload(Int32Array.from([rows.length, width]), [2], 'int32')];
}

/** TF's StringSplitV2 on a 1-D input: [indices, values, denseShape]. */
export const stringSplit = pure<{ readonly sep: string | null; readonly maxsplit: number }>({
  name: 'string_split',
  infer(ins) {
    checkString('strings.split', ins[0]);
    const s = ins[0].shape;
    if (s !== null && s.length !== 1) throw argError('strings.split', 'input must be 1-D here', dimsToString(s), 'a scalar or a 1-D tensor', 'Split rows one at a time (ragged results of rank > 2 have no dense or sparse form here).');
    return [{ dtype: 'int32', shape: [null, 2] }, { dtype: 'string', shape: [null] }, { dtype: 'int32', shape: [2] }];
  },
  impl(k, [x], p) {
    const strs = backend.readInfoSync(x) as string[];
    const rows = strs.map((s) => (p.sep === null || p.sep === '' ? splitWhitespace(s, p.maxsplit) : splitSep(s, p.sep, p.maxsplit)));
    return sparseRows(k, rows, 'string', (flat) => k.upload(flat, [flat.length], 'string'));
  },
});

/** TF's UnicodeDecode (UTF-8) on a 1-D input: code points as [indices, values, denseShape]. */
export const unicodeDecode = pure<{ readonly errors: 'replace' | 'ignore' | 'strict'; readonly replacementChar: number }>({
  name: 'unicode_decode',
  infer(ins) {
    checkString('strings.unicodeDecode', ins[0]);
    const s = ins[0].shape;
    if (s !== null && s.length !== 1) throw argError('strings.unicodeDecode', 'input must be 1-D here', dimsToString(s), 'a scalar or a 1-D tensor', 'Decode rows one at a time.');
    return [{ dtype: 'int32', shape: [null, 2] }, { dtype: 'int32', shape: [null] }, { dtype: 'int32', shape: [2] }];
  },
  impl(k, [x], p) {
    const rows = bytesOf(x).map((b, i) => decodeUtf8(b, p.errors, p.replacementChar, i));
    return sparseRows(k, rows, 'int32', (flat) => k.upload(Int32Array.from(flat), [flat.length], 'int32'));
  },
});

/** TF's StringLower / StringUpper: ASCII letters only (encoding ''), or full Unicode case mapping ('utf-8'). */
function caseRecord(name: string, api: string, upper: boolean): Primitive<{ readonly encoding: string }> {
  return pure<{ readonly encoding: string }>({
    name,
    infer(ins, p) {
      checkString(api, ins[0]);
      if (p.encoding !== '' && p.encoding.toLowerCase() !== 'utf-8') throw unimplemented(api, `encoding '${p.encoding}' is not supported`, `'${p.encoding}'`, "'' (ASCII) or 'utf-8'", 'Use one of those.');
      return [{ dtype: 'string', shape: ins[0].shape }];
    },
    impl(k, [x], p) {
      if (p.encoding !== '') {
        const strs = backend.readInfoSync(x) as string[];
        return [k.upload(strs.map((s) => (upper ? s.toUpperCase() : s.toLowerCase())), [...x.shape], 'string')];
      }
      const [lo, hi, shift] = upper ? [97, 122, -32] : [65, 90, 32];
      const out = bytesOf(x).map((s) => s.map((c) => (c >= lo && c <= hi ? c + shift : c)));
      return [upload(k, out, [...x.shape])];
    },
  });
}
export const stringLower = caseRecord('string_lower', 'strings.lower', false);
export const stringUpper = caseRecord('string_upper', 'strings.upper', true);
