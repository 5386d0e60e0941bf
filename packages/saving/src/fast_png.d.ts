// Types of fast-png's encode/decode as this package uses them: fast-png publishes its types behind package.json
// "exports", which TypeScript's node10 module resolution (tsconfig.base.json) does not read.
declare module 'fast-png' {
  export interface PngImageData {
    width: number;
    height: number;
    data: Uint8Array | Uint8ClampedArray | Uint16Array;
    depth?: 8 | 16;
    channels?: number;
  }
  export interface DecodedPng {
    width: number;
    height: number;
    data: Uint8Array | Uint16Array;
    depth: number;
    channels: number;
  }
  export function encode(png: PngImageData, options?: { zlib?: { level?: number } }): Uint8Array;
  export function decode(data: ArrayBufferLike | ArrayBufferView, options?: { checkCrc?: boolean }): DecodedPng;
}
