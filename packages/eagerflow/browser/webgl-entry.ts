// Add-on script for the script bundle: tfjs's WebGL backend (its kernels and shader programs), registered with the
// page's `ef` and tfjs-core. eagerflow.js loads it from next to itself on the first `await ef.setBackend('webgl')`,
// so the bundle stays small (~90 KB gzipped of WebGL code that cpu- and wasm-only pages never fetch).
import '@tensorflow/tfjs-backend-webgl';

(globalThis as { efWebgl?: unknown }).efWebgl = true;
