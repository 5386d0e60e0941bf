// A small protobuf encoder for the ONNX messages a model needs. Field numbers from onnx/onnx.proto
// (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto): ModelProto, GraphProto, NodeProto,
// AttributeProto, TensorProto, ValueInfoProto, TypeProto.Tensor, TensorShapeProto, OperatorSetIdProto.

/** A growable byte buffer writing protobuf wire format (varints, length-delimited fields, fixed32). */
class Writer {
  private buf = new Uint8Array(64);
  n = 0;

  private ensure(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }

  varint(v: number): void {
    this.ensure(10);
    if (v >= 0 && v <= 0x7fffffff) {
      // The common case (tags, lengths, dims) without BigInt.
      let x = v;
      while (x >= 0x80) {
        this.buf[this.n++] = (x & 0x7f) | 0x80;
        x >>>= 7;
      }
      this.buf[this.n++] = x;
      return;
    }
    // Large and negative int64 values: two's complement over 10 bytes.
    let x = BigInt.asUintN(64, BigInt(Math.trunc(v)));
    while (x >= 0x80n) {
      this.buf[this.n++] = Number(x & 0x7fn) | 0x80;
      x >>= 7n;
    }
    this.buf[this.n++] = Number(x);
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }

  float(v: number): void {
    this.ensure(4);
    new DataView(this.buf.buffer).setFloat32(this.n, v, true);
    this.n += 4;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.n);
  }
}

/** Length-delimited payloads from this size on are kept by reference (a model's weights), not copied into each enclosing message. */
const BY_REFERENCE = 4096;

/**
 * A message under construction: fields written in the order they are added. Small fields go into a byte buffer;
 * large payloads (initializers) and submessages holding them stay chunks, concatenated once by `bytes()`, so a
 * model's weights are copied once however deep they sit (a 14 MB model was copied five times per level before).
 */
export class Msg {
  private w = new Writer();
  /** Finished chunks before the buffer's bytes. */
  private readonly chunks: Uint8Array[] = [];
  private chunkBytes = 0;

  /** The encoded size in bytes. */
  get size(): number {
    return this.chunkBytes + this.w.n;
  }

  int(field: number, v: number): this {
    this.w.tag(field, 0);
    this.w.varint(v);
    return this;
  }

  float(field: number, v: number): this {
    this.w.tag(field, 5);
    this.w.float(v);
    return this;
  }

  str(field: number, s: string): this {
    return this.raw(field, new TextEncoder().encode(s));
  }

  raw(field: number, b: Uint8Array): this {
    this.w.tag(field, 2);
    if (b.length < BY_REFERENCE) {
      this.w.bytes(b);
      return this;
    }
    this.w.varint(b.length);
    this.flush();
    this.push(b);
    return this;
  }

  msg(field: number, m: Msg): this {
    if (m.chunks.length === 0) return this.raw(field, m.w.finish());
    this.w.tag(field, 2);
    this.w.varint(m.size);
    this.flush();
    for (const c of m.chunks) this.push(c);
    if (m.w.n > 0) this.push(m.w.finish());
    return this;
  }

  /** A packed repeated varint field (int64s). */
  packedInts(field: number, vs: readonly number[]): this {
    const inner = new Writer();
    for (const v of vs) inner.varint(v);
    return this.raw(field, inner.finish());
  }

  /** A packed repeated float field. */
  packedFloats(field: number, vs: readonly number[]): this {
    const inner = new Writer();
    for (const v of vs) inner.float(v);
    return this.raw(field, inner.finish());
  }

  bytes(): Uint8Array {
    if (this.chunks.length === 0) return this.w.finish();
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    out.set(this.w.finish(), at);
    return out;
  }

  private push(c: Uint8Array): void {
    this.chunks.push(c);
    this.chunkBytes += c.length;
  }

  /** Moves the buffer's bytes into the chunks (before a chunk kept by reference). */
  private flush(): void {
    if (this.w.n === 0) return;
    this.push(this.w.finish());
    this.w = new Writer();
  }
}

/** Field numbers (onnx.proto). */
export const F = {
  model: { irVersion: 1, producerName: 2, producerVersion: 3, graph: 7, opsetImport: 8 },
  opset: { domain: 1, version: 2 },
  graph: { node: 1, name: 2, initializer: 5, input: 11, output: 12 },
  node: { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 },
  attr: { name: 1, f: 2, i: 3, s: 4, t: 5, g: 6, floats: 7, ints: 8, type: 20 },
  tensor: { dims: 1, dataType: 2, name: 8, rawData: 9 },
  valueInfo: { name: 1, type: 2 },
  type: { tensorType: 1 },
  tensorType: { elemType: 1, shape: 2 },
  shape: { dim: 1 },
  dim: { value: 1, param: 2 },
} as const;

/** `AttributeProto.AttributeType` (onnx.proto). */
export const ATTR_TYPE = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7 } as const;
