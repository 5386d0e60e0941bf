// crc-32 ships types for its CRC32 entry only; its CRC32C entry (a CommonJS module) has the same interface.
declare module 'crc-32/crc32c.js' {
  const CRC32C: {
    buf(data: number[] | Uint8Array, seed?: number): number;
    bstr(data: string, seed?: number): number;
    str(data: string, seed?: number): number;
  };
  export default CRC32C;
}
