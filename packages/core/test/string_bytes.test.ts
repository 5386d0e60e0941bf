// String tensors hold bytes: ef.constant takes Uint8Array elements, Tensor.bytes() returns them unchanged
// (including bytes that are not UTF-8), and dataSync still decodes text.
import * as ef from 'eagerflow';

const nonUtf8 = new Uint8Array([0xff, 0x00, 0xfe, 0x80]);

test('a Uint8Array with dtype string is one bytes scalar; bytes() returns it exactly', () => {
  const t = ef.constant(nonUtf8, 'string');
  expect(t.dtype).toBe('string');
  expect(t.shape.dims).toEqual([]);
  expect(t.bytes().map((b) => Array.from(b))).toEqual([[0xff, 0x00, 0xfe, 0x80]]);
  t.dispose();
});

test('nested arrays of Uint8Arrays are a string tensor; strings mixed in are UTF-8; shape fills', () => {
  const t = ef.constant([[nonUtf8, new Uint8Array([104, 105])], [new Uint8Array(0), 'é' as unknown as Uint8Array]]);
  expect(t.shape.dims).toEqual([2, 2]);
  expect(t.bytes().map((b) => Array.from(b))).toEqual([[0xff, 0, 0xfe, 0x80], [104, 105], [], [0xc3, 0xa9]]);
  expect((t.dataSync() as string[])[1]).toBe('hi');
  const f = ef.constant([new Uint8Array([1])], 'string', [3]);
  expect(f.bytes().map((b) => Array.from(b))).toEqual([[1], [1], [1]]);
  ef.dispose([t, f]);
});

test('bytes() of a text tensor is its UTF-8; the copies are the caller\'s', () => {
  const t = ef.constant(['ab', 'ü']);
  const b = t.bytes();
  expect(b.map((x) => Array.from(x))).toEqual([[97, 98], [0xc3, 0xbc]]);
  b[0][0] = 0;
  expect(t.bytes()[0][0]).toBe(97);
  t.dispose();
});

test('bad input: bytes() of a numeric tensor, ragged or mixed bytes arrays are TypeErrors; nothing leaks', () => {
  const before = ef.memory().numTensors;
  const x = ef.constant([1, 2]);
  expect(() => x.bytes()).toThrow(/bytes\(\) reads string tensors, got a float32 tensor/);
  x.dispose();
  expect(() => ef.constant([[new Uint8Array(1)], [new Uint8Array(1), new Uint8Array(1)]])).toThrow(/ragged nested array at \[1\]/);
  expect(() => ef.constant([new Uint8Array(1), 3 as unknown as Uint8Array])).toThrow(/mixed nested array at \[1\]/);
  expect(() => ef.constant([new Uint8Array(1)], 'float32')).toThrow(TypeError);
  expect(ef.memory().numTensors).toBe(before);
});
