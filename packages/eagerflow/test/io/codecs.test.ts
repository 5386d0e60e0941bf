// ef.io tensor and image codecs against TF 2.21 (fixtures of scripts/tf-golden/io_codecs.py): serializeTensor's
// bytes equal TF's serialize_tensor, parseTensor reads TF's (int64/float64/uint8/int16 by the dtype contract),
// decodeRaw, decodePng/encodePng (fast-png) exactly, decodeJpeg (jpeg-js) within a few levels of libjpeg-turbo; readFile/writeFile.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ef from 'eagerflow';

const fx = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'io', 'codecs.json'), 'utf8')) as {
  tensors: { dtype: string; shape: number[]; value: unknown; serialized: string }[];
  decode_raw: Record<string, unknown>;
  png: Record<string, unknown>[];
  jpeg: { jpeg: string; decoded: number[][][]; gray: number[][][] };
};
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe.each(fx.tensors.map((t) => [`${t.dtype} ${JSON.stringify(t.shape)}`, t] as const))('TensorProto %s', (_n, t) => {
  test('parseTensor reads TF\'s bytes', () => {
    const x = ef.io.parseTensor(unhex(t.serialized), t.dtype);
    expect(x.shape.dims).toEqual(t.shape);
    if (t.dtype === 'string') expect(x.bytes().map(hex)).toEqual(t.value);
    else if (t.dtype === 'float64') expect(Array.from(x.dataSync() as Float32Array)).toEqual((t.value as number[]).map(Math.fround));
    else expect(x.arraySync()).toEqual(t.value);
    x.dispose();
  });
  if (['float32', 'int32', 'bool', 'string'].includes(t.dtype)) {
    test('serializeTensor writes TF\'s bytes', () => {
      const x = ef.io.parseTensor(unhex(t.serialized), t.dtype);
      expect(hex(ef.io.serializeTensor(x))).toBe(t.serialized);
      x.dispose();
    });
  }
});

test('parseTensor: type mismatch, damaged bytes and int64 beyond int32 are InvalidArgumentErrors', () => {
  const f = fx.tensors[0].serialized;
  expect(() => ef.io.parseTensor(unhex(f), 'int32')).toThrow(/Type mismatch between parsed tensor \(float32\) and dtype \(int32\)/);
  expect(() => ef.io.parseTensor(unhex(f).subarray(0, 10), 'float32')).toThrow(ef.errors.InvalidArgumentError);
  const big = new Uint8Array([8, 9, 18, 4, 18, 2, 8, 1, 34, 8, 0, 0, 0, 0, 1, 0, 0, 0]); // int64 [1] holding 2^32
  expect(() => ef.io.parseTensor(big, 'int64')).toThrow(/int64 value 4294967296 at element 0 does not fit int32/);
});

test('decodeRaw matches TF\'s decode_raw', () => {
  const r = fx.decode_raw;
  const input = ef.constant((r.input as string[]).map(unhex));
  expect(ef.io.decodeRaw(input, 'int16').arraySync()).toEqual(r.int16);
  expect(ef.io.decodeRaw(input, 'int16', { littleEndian: false }).arraySync()).toEqual(r.int16_big);
  expect(ef.io.decodeRaw(input, 'uint8').arraySync()).toEqual(r.uint8);
  expect(ef.io.decodeRaw(ef.constant([new Uint8Array([0, 0, 0xc0, 0x3f])]), 'float32').arraySync()).toEqual(r.float32);
  expect(() => ef.io.decodeRaw(ef.constant([new Uint8Array(2), new Uint8Array(4)]), 'int16')).toThrow(/has length 4 that is not equal to the length of the first element 2/);
});

describe.each(fx.png.map((p) => [p.name as string, p] as const))('PNG %s TF encoded', (name, p) => {
  test('decodePng gives TF\'s pixels, for every channels choice', () => {
    const bytes = unhex(p.png as string);
    expect(ef.io.decodePng(bytes).arraySync()).toEqual(p.decoded);
    for (const ch of [1, 3, 4]) {
      const got = ef.io.decodePng(bytes, { channels: ch }).arraySync() as number[][][];
      const want = p[`channels${ch}`] as number[][][];
      // RGB -> gray: libpng's weights differ from the Rec.601 ones by at most one level.
      const close = got.flat(2).every((v, i) => Math.abs(v - want.flat(2)[i]) <= 1);
      expect(close).toBe(true);
    }
    if (name === 'rgb16') expect(ef.io.decodePng(bytes, { dtype: 'uint16' }).arraySync()).toEqual(p.uint16);
  });
  if (name !== 'rgb16') {
    test('encodePng then decodePng is lossless (int32 and float32 images)', () => {
      const img = ef.constant(p.decoded as number[][][], 'int32');
      const png = ef.io.encodePng(img);
      expect(png.dtype).toBe('string');
      expect(ef.io.decodePng(png).arraySync()).toEqual(p.decoded);
      const asFloat = ef.divide(ef.cast(img, 'float32'), 255);
      expect(ef.io.decodePng(ef.io.encodePng(asFloat)).arraySync()).toEqual(p.decoded);
    });
  }
});

test('decodeJpeg is within a few levels of TF\'s libjpeg-turbo decode (max 8, mean 2.5)', () => {
  const bytes = unhex(fx.jpeg.jpeg);
  const rgb = ef.io.decodeJpeg(bytes).arraySync() as number[][][];
  const diffs = (a: number[][][], b: number[][][]): number[] => a.flat(2).map((v, i) => Math.abs(v - b.flat(2)[i]));
  const diff = (a: number[][][], b: number[][][]): number => Math.max(...diffs(a, b));
  const mean = (d: number[]): number => d.reduce((x, y) => x + y, 0) / d.length;
  expect(ef.io.decodeJpeg(bytes).shape.dims).toEqual([16, 16, 3]);
  // Measured: max 6, mean 1.86 levels (jpeg-js's IDCT and color conversion are not libjpeg-turbo's).
  expect(diff(rgb, fx.jpeg.decoded)).toBeLessThanOrEqual(8);
  expect(mean(diffs(rgb, fx.jpeg.decoded))).toBeLessThan(2.5);
  const gray = ef.io.decodeJpeg(bytes, { channels: 1 }).arraySync() as number[][][];
  expect(diff(gray, fx.jpeg.gray)).toBeLessThanOrEqual(8);
  expect(mean(diffs(gray, fx.jpeg.gray))).toBeLessThan(2.5);
});

test('bad images: clear InvalidArgumentErrors; encodePng range checks', () => {
  expect(() => ef.io.decodePng(new Uint8Array([1, 2, 3]))).toThrow(/cannot decode 3 bytes as a PNG/);
  expect(() => ef.io.decodeJpeg(new Uint8Array([1, 2, 3]))).toThrow(/cannot decode 3 bytes as a JPEG/);
  expect(() => ef.io.decodePng(unhex(fx.png[0].png as string), { channels: 5 })).toThrow(/unsupported channels/);
  expect(() => ef.io.encodePng(ef.constant([[[300]]], 'int32'))).toThrow(/outside uint8's 0\.\.255/);
  expect(() => ef.io.encodePng(ef.constant([1, 2], 'int32'))).toThrow(/\[height, width, channels\]/);
});

test('readFile and writeFile round-trip bytes; a missing file is a NotFoundError', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ef-io-'));
  const p = path.join(dir, 'x.png');
  const png = ef.io.encodePng(ef.constant([[[1, 2, 3]]], 'int32'));
  ef.io.writeFile(p, png);
  expect(hex(ef.io.readFile(p).bytes()[0])).toBe(hex(png.bytes()[0]));
  expect(ef.io.decodePng(ef.io.readFile(p)).arraySync()).toEqual([[[1, 2, 3]]]);
  expect(() => ef.io.readFile(path.join(dir, 'missing'))).toThrow(ef.errors.NotFoundError);
  fs.rmSync(dir, { recursive: true, force: true });
});
