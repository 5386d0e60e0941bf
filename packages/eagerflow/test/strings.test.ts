// ef.strings and string ef.add against TensorFlow 2.21 (fixtures/tf_strings.json, written by
// scripts/tf-golden/strings.py): values byte for byte, eagerly and traced, and TF's errors.
import * as ef from 'eagerflow';
import * as fs from 'fs';
import * as path from 'path';

interface Enc {
  dtype: string;
  shape: number[];
  data: (number | string | number[])[];
}
interface SparseEnc {
  indices: Enc;
  values: Enc;
  denseShape: Enc;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const F = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/tf_strings.json'), 'utf8')) as Record<string, any>;
const bytes = (e: Enc): Uint8Array[] => e.data.map((b) => Uint8Array.from(b as number[]));
const num = (v: number | string): number => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : (v as number));
const errorClass = (name: string): new (...a: never[]) => Error => (name === 'TypeError' ? TypeError : ef.errors.InvalidArgumentError);

/** Exact: bytes for strings (substr by bytes may cut a character), Object.is for numbers. */
function expectTf(t: ef.Tensor, e: Enc, what: string): void {
  expect([what, t.dtype, t.shape.asList()]).toEqual([what, e.dtype, e.shape]);
  if (e.dtype === 'string') {
    expect([what, t.bytes().map((b) => Array.from(b))]).toEqual([what, e.data]);
  } else {
    expect([what, Array.from(t.dataSync() as Float32Array)]).toEqual([what, e.data.map((v) => num(v as number))]);
  }
}
function expectSparse(s: ef.Tensor | ef.SparseTensor, e: SparseEnc, what: string): void {
  expect(s).toBeInstanceOf(ef.SparseTensor);
  const sp = s as ef.SparseTensor;
  expectTf(sp.indices, e.indices, `${what}.indices`);
  expectTf(sp.values, e.values, `${what}.values`);
  expectTf(sp.denseShape, e.denseShape, `${what}.denseShape`);
}
const noLeak = (fn: () => void): void => {
  const before = ef.memory().numTensors;
  fn();
  expect(ef.memory().numTensors).toBe(before);
};

const words = (): ef.Tensor => ef.constant(F.words as string[]);

describe('string ef.add: elementwise concatenation with broadcasting (TF Add on strings)', () => {
  test('values', () => {
    expectTf(ef.add(words(), ef.constant('!')), F.add.same, 'same');
    expectTf(ef.add(ef.constant([['x'], ['y']]), ef.constant(['1', '2', '3'])), F.add.broadcast, 'broadcast');
    expectTf(ef.add('<', ef.constant(['1', '2', '3'])), F.add.scalarFirst, 'scalarFirst');
    const a = ef.constant(['a', 'b']);
    const b = ef.constant(['a', 'b', 'c']);
    noLeak(() => expect(() => ef.add(a, b)).toThrow(errorClass(F.add.badShapes)));
    // Empty inputs broadcast to an empty result (the op fuzzer: [0, 0, 4, 2] + itself read past the inputs).
    const e = ef.fill([0, 0, 4, 2], 'x');
    expect(ef.add(e, e).shape.asList()).toEqual([0, 0, 4, 2]);
    expect(ef.add(ef.fill([0, 1], 'x'), ef.fill([3], 'y')).shape.asList()).toEqual([0, 3]);
  });
  test('traced, and no gradient (a watched string tensor gets null, as TF gives None)', () => {
    const f = ef.trace((x: ef.Tensor, y: ef.Tensor) => ef.add(x, y));
    expectTf(f(ef.constant([['x'], ['y']]), ef.constant(['1', '2', '3'])) as ef.Tensor, F.add.broadcast, 'traced');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const x = ef.constant(['a']);
    const tape = new ef.GradientTape();
    const y = tape.record(() => {
      tape.watch(x);
      return ef.add(x, x);
    });
    expect(tape.gradient(y, x)).toBeNull();
    warn.mockRestore();
  });
});

describe('ef.strings', () => {
  test('join', () => {
    const row = ef.constant(['1', '2', '3']);
    expectTf(ef.strings.join([row, ef.constant(['a', 'b', 'c'])], '-'), F.join.two, 'two');
    expectTf(ef.strings.join(['p', row, 's']), F.join.scalar, 'scalar');
    const a = ef.constant(['a', 'b']);
    const b = ef.constant(['a', 'b', 'c']);
    noLeak(() => expect(() => ef.strings.join([a, b])).toThrow(errorClass(F.join.badShapes)));
  });
  test('length: bytes and UTF-8 characters; bad unit and non-string input', () => {
    expectTf(ef.strings.length(words()), F.length.BYTE, 'BYTE');
    expectTf(ef.strings.length(words(), 'UTF8_CHAR'), F.length.UTF8_CHAR, 'UTF8_CHAR');
    const bad = ef.constant([Uint8Array.from([97, 98, 255, 99])]);
    expectTf(ef.strings.length(bad, 'UTF8_CHAR'), F.invalidUtf8Length, 'invalid UTF-8 length');
    const w = words();
    const n = ef.constant([1, 2], 'int32');
    noLeak(() => {
      expect(() => ef.strings.length(w, 'CHAR' as 'BYTE')).toThrow(errorClass(F.length.badUnit));
      expect(() => ef.strings.length(w, 'CHAR' as 'BYTE')).toThrow(/strings.length: unit must be BYTE or UTF8_CHAR/);
      expect(() => ef.strings.length(n)).toThrow(errorClass(F.length.nonString));
      expect(() => ef.strings.length(n)).toThrow(/strings.length: input must be a string tensor/);
    });
  });
  test('substr: bytes, characters, negative pos, broadcast pos/len, errors', () => {
    const sub = (): ef.Tensor => ef.constant(['hello', 'héllo', '日本語', 'ab']);
    const S = F.substr;
    expectTf(ef.strings.substr(sub(), 1, 3), S.BYTE, 'BYTE');
    expectTf(ef.strings.substr(sub(), 1, 2, 'UTF8_CHAR'), S.UTF8_CHAR, 'UTF8_CHAR');
    expectTf(ef.strings.substr(sub(), -2, 5), S.negPos, 'negPos');
    expectTf(ef.strings.substr(sub(), -2, 1, 'UTF8_CHAR'), S.negPosChar, 'negPosChar');
    expectTf(ef.strings.substr(sub(), ef.constant([0, 1, 2, 0], 'int32'), ef.constant([1, 2, 3, 9], 'int32'), 'UTF8_CHAR'), S.posVec, 'posVec');
    expectTf(ef.strings.substr(ef.constant(['abcdef', 'ghijkl']), ef.constant([[0], [2]], 'int32'), ef.constant([[1], [3]], 'int32')), S.broadcast, 'broadcast');
    expectTf(ef.strings.substr(ef.constant(['abc']), 3, 2), S.posAtEnd, 'posAtEnd');
    expect(ef.strings.substr(ef.constant(['abc', 'abc']), ef.constant([0, 1], 'int32'), ef.constant([-1, -2], 'int32')).arraySync()).toEqual(['abc', 'bc']);
    const abc = ef.constant(['abc']);
    const [p, l] = [ef.constant([[0], [2]], 'int32'), ef.constant([1, 2], 'int32')];
    const six = ef.constant(['abcdef', 'ghijkl']);
    noLeak(() => {
      expect(() => ef.strings.substr(abc, 4, 1)).toThrow(errorClass(S.posPastEnd));
      expect(() => ef.strings.substr(abc, 4, 1)).toThrow(/strings.substr: pos 4 out of range for string 'abc' at index 0/);
      expect(() => ef.strings.substr(six, p, l)).toThrow(errorClass(S.posLenShapes));
    });
  });
  test('toNumber: float32 (strtod forms) and int32; unparsable strings throw', () => {
    expectTf(ef.strings.toNumber(ef.constant(F.toNumber.inputs as string[])), F.toNumber.float32, 'float32');
    expectTf(ef.strings.toNumber(ef.constant(['12', '-3', ' 4 ', '+5']), 'int32'), F.toNumber.int32, 'int32');
    const [f, i, big] = [ef.constant(['abc']), ef.constant(['1.5']), ef.constant(['3000000000'])];
    noLeak(() => {
      expect(() => ef.strings.toNumber(i, 'int32')).toThrow(errorClass(F.toNumber.intBad));
      expect(() => ef.strings.toNumber(f)).toThrow(errorClass(F.toNumber.floatBad));
      expect(() => ef.strings.toNumber(f)).toThrow(/StringToNumberOp could not correctly convert string: abc/);
      expect(() => ef.strings.toNumber(big, 'int32')).toThrow(errorClass(F.toNumber.intOverflow));
    });
  });
  test('regexReplace: global, first, RE2 groups, whole match, Unicode; a bad pattern throws', () => {
    const rx = (): ef.Tensor => ef.constant(['aaa bbb', 'foo123bar45', 'héllo']);
    const X = F.regexReplace;
    expectTf(ef.strings.regexReplace(rx(), '[0-9]+', '#'), X.global, 'global');
    expectTf(ef.strings.regexReplace(rx(), '[a-z]', '_', false), X.first, 'first');
    expectTf(ef.strings.regexReplace(rx(), '(\\w+) (\\w+)', '\\2 \\1'), X.groups, 'groups');
    expectTf(ef.strings.regexReplace(rx(), 'o+', '<\\0>'), X.wholeMatch, 'wholeMatch');
    expectTf(ef.strings.regexReplace(rx(), 'é', 'e'), X.unicode, 'unicode');
    expectTf(ef.strings.regexReplace(rx(), 'h.l', 'X'), X.dot, 'dot');
    const t = rx();
    noLeak(() => expect(() => ef.strings.regexReplace(t, '(', 'x')).toThrow(errorClass(X.badPattern)));
  });
  test("toHashBucketFast: TF's FarmHash Fingerprint64 buckets exactly", () => {
    const H = F.toHashBucketFast;
    const hb = ef.constant(bytes(H.inputs));
    expectTf(ef.strings.toHashBucketFast(hb, 1000), H.b1000, 'b1000');
    expectTf(ef.strings.toHashBucketFast(hb, 2 ** 31 - 1), H.b2e31m1, 'b2^31-1');
    expectTf(ef.strings.toHashBucketFast(hb, 1), H.b1, 'b1');
    expectTf(ef.strings.toHashBucketFast(ef.reshape(hb, [7, 1]), 1000), { ...H.b1000, shape: [7, 1] }, 'rank 2');
    noLeak(() => expect(() => ef.strings.toHashBucketFast(hb, 0)).toThrow(errorClass(H.zeroBuckets)));
  });
  test('split: scalar -> 1-D, 1-D -> SparseTensor (whitespace, sep, maxsplit)', () => {
    const P = F.split;
    expectTf(ef.strings.split(ef.constant('  a b  c ')) as ef.Tensor, P.scalarWs, 'scalarWs');
    expectTf(ef.strings.split(ef.constant('a,b,,c'), ',') as ef.Tensor, P.scalarSep, 'scalarSep');
    expectTf(ef.strings.split(ef.constant('a,b,,c'), ',', { maxsplit: 2 }) as ef.Tensor, P.scalarMax, 'scalarMax');
    expectTf(ef.strings.split(ef.constant('a<>b<>c'), '<>') as ef.Tensor, P.multiCharSep, 'multiCharSep');
    expectSparse(ef.strings.split(ef.constant(['a b', '', ' c  d e'])), P.vecWs, 'vecWs');
    expectSparse(ef.strings.split(ef.constant(['a,b', '', ',c,']), ','), P.vecSep, 'vecSep');
    const m = ef.constant([['a']]);
    noLeak(() => expect(() => ef.strings.split(m)).toThrow(/strings.split: input must be 1-D here/));
  });
  test('unicodeDecode: scalar, 1-D as SparseTensor, invalid UTF-8 replaced / ignored / refused', () => {
    const U = F.unicodeDecode;
    expectTf(ef.strings.unicodeDecode(ef.constant('héllo 日本'), 'UTF-8') as ef.Tensor, U.scalar, 'scalar');
    expectSparse(ef.strings.unicodeDecode(ef.constant(['hé', '', '日本語']), 'UTF-8'), U.vec, 'vec');
    const bad = ef.constant(Uint8Array.from([97, 98, 255, 99]), 'string');
    expectTf(ef.strings.unicodeDecode(bad, 'UTF-8') as ef.Tensor, U.replace, 'replace');
    expectTf(ef.strings.unicodeDecode(bad, 'UTF-8', { errors: 'ignore' }) as ef.Tensor, U.ignore, 'ignore');
    noLeak(() => {
      expect(() => ef.strings.unicodeDecode(bad, 'UTF-8', { errors: 'strict' })).toThrow(errorClass(U.strict));
      expect(() => ef.strings.unicodeDecode(bad, 'UTF-8', { errors: 'strict' })).toThrow(/invalid UTF-8 at byte 2 of element 0/);
      expect(() => ef.strings.unicodeDecode(bad, 'LATIN-9')).toThrow(/only UTF-8 input is decoded/);
    });
  });
  test('lower / upper: ASCII by default, Unicode with utf-8', () => {
    const L = F.lowerUpper;
    expectTf(ef.strings.lower(ef.constant(['HeLLo', 'ÉCOLE', 'ÀB'])), L.lower, 'lower');
    expectTf(ef.strings.upper(ef.constant(['HeLLo', 'école', 'àb'])), L.upper, 'upper');
    expectTf(ef.strings.lower(ef.constant(['HeLLo', 'ÉCOLE', 'ÀB']), 'utf-8'), L.lowerUtf8, 'lowerUtf8');
    expectTf(ef.strings.upper(ef.constant(['HeLLo', 'école', 'àb']), 'utf-8'), L.upperUtf8, 'upperUtf8');
  });
  test('inside ef.trace: the same values as eager and as a tf.function', () => {
    const f = ef.trace((x: ef.Tensor) => ef.strings.length(ef.strings.join([x, ef.strings.substr(x, 0, 2)], '|'), 'UTF8_CHAR'));
    expectTf(f(ef.constant(['héllo', 'ab'])) as ef.Tensor, F.traced, 'traced');
    const g = ef.trace((x: ef.Tensor) => (ef.strings.split(x, ',') as ef.SparseTensor).values);
    expect((g(ef.constant(['a,b', 'c'])) as ef.Tensor).arraySync()).toEqual(['a', 'b', 'c']);
  });
});
