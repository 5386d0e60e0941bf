// jpeg-js ships types for its index only; its decoder module (CommonJS, `module.exports = decode`) has the index's decode.
declare module 'jpeg-js/lib/decoder.js' {
  import type { decode } from 'jpeg-js';
  const decoder: typeof decode;
  export default decoder;
}
