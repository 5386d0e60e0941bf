// ES module build (dist/eagerflow.mjs, repository only): the script bundle's API with tfjs's WebGL backend inside,
// since a module has no globalThis.ef for the eagerflow-webgl.js add-on to register with.
import '@tensorflow/tfjs-backend-webgl';

export * from './entry';
