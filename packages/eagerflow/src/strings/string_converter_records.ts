// TF1's StringSplit (each byte of the delimiter splits, empty tokens skipped by default) and StringNGrams (ragged
// n-grams): the two string ops tfjs-converter runs beyond ef.strings, on tfjs's own kernels (the same code
// tfjs-converter executes). The GraphDef importer reads the TF ops onto these records; they have no ef.* name.
import { Info, Primitive, argError, dimsToString, registerPrimitive } from '@eagerflow/core';

function pure<P extends object>(rec: Omit<Primitive<P>, 'effect' | 'vjp' | 'saves'>): Primitive<P> {
  return { ...rec, effect: 'pure', vjp: null, saves: 'none' } as Primitive<P>;
}

/** TF's StringSplit(input, delimiter): [indices, values, denseShape] of each 1-D input string split at any delimiter byte. */
const stringSplitBytes = pure<{ readonly skipEmpty: boolean }>({
  name: 'string_split_bytes',
  infer(ins) {
    const [x, d] = ins;
    if (x.dtype !== 'string' || d.dtype !== 'string') throw argError('StringSplit', 'input and delimiter must be string tensors', `${x.dtype} and ${d.dtype}`, 'string and string', 'Fix the graph.');
    if (x.shape !== null && x.shape.length !== 1) throw argError('StringSplit', 'input must be 1-D', dimsToString(x.shape), 'a 1-D string tensor', 'Reshape the input to 1-D.');
    if (d.shape !== null && d.shape.length !== 0) throw argError('StringSplit', 'delimiter must be a scalar', dimsToString(d.shape), 'a scalar string', 'Pass one delimiter string.');
    return [{ dtype: 'int32', shape: [null, 2] }, { dtype: 'string', shape: [null] }, { dtype: 'int32', shape: [2] }];
  },
  impl: (k, [input, delimiter], p) => k.run('StringSplit', { input, delimiter }, { skipEmpty: p.skipEmpty }) as Info[],
});

/** StringNGrams params (TF's attrs). */
interface NGramsParams {
  readonly separator: string;
  readonly nGramWidths: readonly number[];
  readonly leftPad: string;
  readonly rightPad: string;
  readonly padWidth: number;
  readonly preserveShortSequences: boolean;
}

/** TF's StringNGrams(data, data_splits): the n-grams of each ragged row of strings, and their row splits. */
const stringNGrams = pure<NGramsParams>({
  name: 'string_ngrams',
  infer(ins, p) {
    const [x, splits] = ins;
    if (x.dtype !== 'string' || splits.dtype !== 'int32') throw argError('StringNGrams', 'data must be strings and data_splits integers', `${x.dtype} and ${splits.dtype}`, 'string and int32 (or int64)', 'Fix the graph.');
    if (x.shape !== null && x.shape.length !== 1) throw argError('StringNGrams', 'data must be 1-D (the flat values of a ragged tensor)', dimsToString(x.shape), 'a 1-D string tensor', 'Pass the flat values.');
    if (p.nGramWidths.some((w) => !Number.isInteger(w) || w < 1)) throw argError('StringNGrams', 'ngram_widths must be positive integers', `[${p.nGramWidths}]`, 'integers >= 1', 'Fix the widths.');
    return [{ dtype: 'string', shape: [null] }, { dtype: 'int32', shape: splits.shape }];
  },
  impl: (k, [data, dataSplits], p) => k.run('StringNGrams', { data, dataSplits }, {
    separator: p.separator, nGramWidths: [...p.nGramWidths], leftPad: p.leftPad, rightPad: p.rightPad, padWidth: p.padWidth, preserveShortSequences: p.preserveShortSequences,
  }) as Info[],
});

// Registered at load (the module's effect: strings/index.ts imports it for it).
[stringSplitBytes, stringNGrams].forEach((p) => registerPrimitive(p as unknown as Primitive));
