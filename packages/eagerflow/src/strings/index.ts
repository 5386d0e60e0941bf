// ef.strings: TF's tf.strings basics on string tensors (records in string_records.ts). Elementwise string
// concatenation is ef.add (TF's Add on strings).
import { DType, Primitive, Tensor, TensorLike, argError, bind, convert, release, reshape, typeError } from '@eagerflow/core';
import { SparseTensor } from '../sparse/sparse_tensor';
import * as R from './string_records';
// Registers the StringSplit / StringNGrams records the GraphDef importer reads those TF ops onto.
import './string_converter_records';

type Unit = R.Unit;

function checkUnit(api: string, unit: unknown): Unit {
  if (unit !== 'BYTE' && unit !== 'UTF8_CHAR') throw argError(api, 'unit must be BYTE or UTF8_CHAR', String(unit), "'BYTE' or 'UTF8_CHAR'", "Pass unit: 'BYTE' (the default) or 'UTF8_CHAR'.");
  return unit;
}

/** Runs a record on converted arguments (strings first), releasing the conversions. */
function run(api: string, rec: Primitive, args: readonly [TensorLike, DType?][], params: object): Tensor[] {
  const cs = [];
  try {
    for (const [x, dt] of args) cs.push(convert(api, x, dt));
    return bind(rec, cs.map((c) => c.t), params);
  } finally {
    for (const c of cs) release(c);
  }
}

/**
 * TF's `tf.strings.join`: joins string tensors of one shape (or scalars) elementwise with `separator`.
 * @example
 * ef.strings.join([ef.constant(['a', 'b']), 'x'], '-').arraySync(); // ["a-x", "b-x"]
 */
export function join(inputs: readonly TensorLike[], separator = ''): Tensor {
  if (!Array.isArray(inputs) || inputs.length === 0) throw typeError('strings.join', 'inputs must be a non-empty array of string tensors', String(inputs), 'an array', 'Pass e.g. [a, b].');
  if (typeof separator !== 'string') throw typeError('strings.join', 'separator must be a string', String(separator), 'a string', "Pass e.g. ' '.");
  return run('strings.join', R.stringJoin as Primitive, inputs.map((x) => [x, 'string'] as [TensorLike, DType]), { separator })[0];
}

/**
 * TF's `tf.strings.length`: each string's length in bytes (`unit: 'BYTE'`, the default) or UTF-8 characters.
 * @example
 * ef.strings.length(ef.constant(['héllo', '']), 'UTF8_CHAR').arraySync(); // [5, 0]
 */
export function length(input: TensorLike, unit: Unit = 'BYTE'): Tensor {
  return run('strings.length', R.stringLength as Primitive, [[input, 'string']], { unit: checkUnit('strings.length', unit) })[0];
}

/**
 * TF's `tf.strings.substr(input, pos, len, unit)`: `pos` and `len` (int32, one shape) broadcast against the input;
 * a negative `pos` counts from the end, a negative `len` runs to the end; a `pos` past either end is an
 * InvalidArgumentError.
 * @example
 * ef.strings.substr(ef.constant(['hello', '日本語']), 1, 2, 'UTF8_CHAR').arraySync(); // ["el", "本語"]
 */
export function substr(input: TensorLike, pos: TensorLike, len: TensorLike, unit: Unit = 'BYTE'): Tensor {
  return run('strings.substr', R.stringSubstr as Primitive, [[input, 'string'], [pos, 'int32'], [len, 'int32']], { unit: checkUnit('strings.substr', unit) })[0];
}

/**
 * TF's `tf.strings.to_number`: parses each string as float32 (strtod's forms: `'1e3'`, `'inf'`, `'0x1p3'`) or
 * int32 (decimal). A string that does not parse is an InvalidArgumentError, as in TF.
 * @example
 * ef.strings.toNumber(ef.constant(['1.5', ' 7', '-inf'])).arraySync(); // [1.5, 7, -Infinity]
 */
export function toNumber(input: TensorLike, outType: 'float32' | 'int32' = 'float32'): Tensor {
  if (outType !== 'float32' && outType !== 'int32') throw argError('strings.toNumber', 'outType must be float32 or int32', String(outType), "'float32' or 'int32'", 'int64/float64 have no EagerFlow dtype: use int32/float32.');
  return run('strings.toNumber', R.stringToNumber as Primitive, [[input, 'string']], { outType })[0];
}

/**
 * TF's `tf.strings.regex_replace`: `pattern` is a JS RegExp (Unicode mode), the rewrite uses RE2's `\1` for
 * groups and `\0` for the whole match; `replaceGlobal` (default true) replaces every match, else the first.
 * @example
 * ef.strings.regexReplace(ef.constant(['foo12bar3']), '[0-9]+', '#').arraySync(); // ["foo#bar#"]
 */
export function regexReplace(input: TensorLike, pattern: string, rewrite: string, replaceGlobal = true): Tensor {
  if (typeof pattern !== 'string' || typeof rewrite !== 'string') throw typeError('strings.regexReplace', 'pattern and rewrite must be strings', `${typeof pattern} and ${typeof rewrite}`, 'strings', 'Pass the pattern as a string (not a RegExp).');
  return run('strings.regexReplace', R.stringRegexReplace as Primitive, [[input, 'string']], { pattern, rewrite, replaceGlobal: replaceGlobal === true })[0];
}

/**
 * TF's `tf.strings.to_hash_bucket_fast`: FarmHash Fingerprint64 of each string mod `numBuckets` (TF's exact
 * values), as int32 (TF: int64).
 * @example
 * ef.strings.toHashBucketFast(ef.constant(['hello']), 1000).arraySync(); // [296]
 */
export function toHashBucketFast(input: TensorLike, numBuckets: number): Tensor {
  return run('strings.toHashBucketFast', R.stringToHashBucketFast as Primitive, [[input, 'string']], { numBuckets })[0];
}

/** A 1-D result row set as SparseTensor, or the single row of a scalar input as a 1-D tensor. */
function rowsResult(api: string, rec: Primitive, input: TensorLike, params: object): Tensor | SparseTensor {
  const c = convert(api, input, 'string');
  try {
    const rank = c.t.rank;
    if (rank === 0) {
      const row = reshape(c.t, [1]);
      try {
        const [i, v, s] = bind(rec, [row], params);
        i.dispose();
        s.dispose();
        return v;
      } finally {
        row.dispose();
      }
    }
    const [indices, values, denseShape] = bind(rec, [c.t], params);
    return new SparseTensor(indices, values, denseShape);
  } finally {
    release(c);
  }
}

/** `ef.strings.split` options. */
export interface SplitOptions {
  /** At most this many splits per string (the rest stays in the last piece); -1 (default) for all. */
  maxsplit?: number;
}

/**
 * TF's `tf.strings.split(input, sep)`: a scalar gives a 1-D string tensor of its pieces; a 1-D input gives a
 * SparseTensor (TF's `result_type='SparseTensor'` form of its RaggedTensor: row, position indices). No `sep`
 * (or `''`) splits on whitespace runs and drops empty pieces; a `sep` keeps empty pieces.
 * @example
 * ef.strings.split(ef.constant('a,b,,c'), ',').arraySync(); // ["a", "b", "", "c"]
 */
export function split(input: TensorLike, sep: string | null = null, options: SplitOptions = {}): Tensor | SparseTensor {
  if (sep !== null && typeof sep !== 'string') throw typeError('strings.split', 'sep must be a string or null', String(sep), 'a string', "Pass e.g. ','.");
  const maxsplit = options.maxsplit ?? -1;
  if (!Number.isInteger(maxsplit)) throw typeError('strings.split', 'maxsplit must be an integer', String(maxsplit), 'an integer (-1 for no limit)', 'Pass e.g. 2.');
  return rowsResult('strings.split', R.stringSplit as Primitive, input, { sep, maxsplit });
}

/** `ef.strings.unicodeDecode` options. */
export interface UnicodeDecodeOptions {
  /** 'replace' (default): each invalid subsequence becomes `replacementChar`; 'ignore' drops it; 'strict' throws. */
  errors?: 'replace' | 'ignore' | 'strict';
  /** Default U+FFFD (65533). */
  replacementChar?: number;
}

/**
 * TF's `tf.strings.unicode_decode(input, 'UTF-8')`: code points (int32). A scalar gives a 1-D tensor; a 1-D
 * input gives a SparseTensor (TF's RaggedTensor as `to_sparse()` has it). Only UTF-8 is decoded.
 * @example
 * ef.strings.unicodeDecode(ef.constant('hé'), 'UTF-8').arraySync(); // [104, 233]
 */
export function unicodeDecode(input: TensorLike, inputEncoding: string, options: UnicodeDecodeOptions = {}): Tensor | SparseTensor {
  if (typeof inputEncoding !== 'string' || !/^utf-?8$/i.test(inputEncoding)) {
    throw argError('strings.unicodeDecode', 'only UTF-8 input is decoded', String(inputEncoding), "'UTF-8'", 'Transcode the strings to UTF-8 first.');
  }
  const errors = options.errors ?? 'replace';
  if (errors !== 'replace' && errors !== 'ignore' && errors !== 'strict') throw argError('strings.unicodeDecode', 'errors must be replace, ignore or strict', String(errors), "'replace' | 'ignore' | 'strict'", "Pass errors: 'replace'.");
  return rowsResult('strings.unicodeDecode', R.unicodeDecode as Primitive, input, { errors, replacementChar: options.replacementChar ?? 65533 });
}

/**
 * TF's `tf.strings.lower`: ASCII letters only by default (TF's `encoding=''`), every letter with `'utf-8'`.
 * @example
 * ef.strings.lower(ef.constant(['ÉCOLE']), 'utf-8').arraySync(); // ["école"]
 */
export function lower(input: TensorLike, encoding = ''): Tensor {
  return run('strings.lower', R.stringLower as Primitive, [[input, 'string']], { encoding })[0];
}

/**
 * TF's `tf.strings.upper`: ASCII letters only by default (TF's `encoding=''`), every letter with `'utf-8'`.
 * @example
 * ef.strings.upper(ef.constant(['école']), 'utf-8').arraySync(); // ["ÉCOLE"]
 */
export function upper(input: TensorLike, encoding = ''): Tensor {
  return run('strings.upper', R.stringUpper as Primitive, [[input, 'string']], { encoding })[0];
}
