// eagerflow: the umbrella package users import (`import * as ef from 'eagerflow'`); its names are listed one by one.
import { TOP, backend } from '@eagerflow/core';
import { installHostCallbackBridge, installSaving } from '@eagerflow/saving';
import { hostCallbackBridge } from './host_saving';
import * as errors from './errors';
import * as internal from './internal';

// Where the packages meet, in one visible list (each package wires itself; facts such as how a
// host_callback node replays under tapes are fields of the primitive records):
installSaving(); // ConcreteFunction.toGraphDef writes with @eagerflow/saving's writer (function x saving)
installHostCallbackBridge(hostCallbackBridge); // saving and loading host_callback nodes (saving x callbacks)
// ef.setBackend('wasm') loads tfjs's wasm backend (an optional peer) on first use. The specifier is a variable
// so that bundlers do not try to resolve the optional package (a web app that wants wasm imports it itself).
const WASM_PACKAGE = '@tensorflow/tfjs-backend-wasm';
backend.registerBackendLoader('wasm', () => import(/* webpackIgnore: true */ /* @vite-ignore */ WASM_PACKAGE));

// Ops: TensorFlow's top-level names, generated from the op table (test/public_api keeps this list in sync).
export const {
  abs, add, argMax, broadcastTo, cast, clipByValue, concat, cos, cosh, divide, ensureShape, equal, exp, expandDims, fill, gather,
  greater, greaterEqual, identity, less, lessEqual, log, logicalAnd, logicalNot, logicalOr, matmul, maximum, minimum, multiply,
  negative, notEqual, ones, onesLike, pad, pow, print, range, reduceMax, reduceMean, reduceSum, relu, reshape, shape, sigmoid,
  sign, sin, sinh, slice, softmax, sqrt, square, squeeze, stack, stopGradient, subtract, tanh, transpose, unsortedSegmentSum,
  where, zeros, zerosLike,
  // issue 11 (nn): TF's top-level layout ops.
  spaceToBatchNd, batchToSpaceNd,
  // issue 11 (math family)
  acos, acosh, asin, asinh, atan, atan2, atanh, floor, round, tan,
  addN, argMin, cumsum, reduceAll, reduceAny, reduceLogsumexp, reduceMin, reduceProd,
  gatherNd, linspace, oneHot, reverse, scatterNd, split, stridedSlice, tile, unstack,
  einsum, eye, norm, tensordot,
  argsort, clipByGlobalNorm, clipByNorm, meshgrid, rank, repeat, roll, sequenceMask, size, sort, tensorScatterNdAdd,
  searchsorted, tensorScatterNdUpdate, unique, booleanMask,
  // issue 11 (signal): complex64 construction
  complex,
} = TOP;

// TF module namespaces, errors, compat and contrib.
export { math, nn, image, linalg, random, signal } from '@eagerflow/core';
/** TensorFlow's error classes: `OpError` and its subclasses (`InvalidArgumentError`, `OutOfRangeError`, ...). */
export { errors };
/** Extension points and machinery (primitive records, `bind`, the graph IR, passes, registries): unstable between minor releases. */
export { internal };
export { compat, contrib } from '@eagerflow/callbacks';

// Tensors, shapes, variables, memory and backends.
export { Tensor, TensorShape, TensorSpec, NDArray, Variable, constant, convertToTensor, ndarray } from '@eagerflow/core';
export { tidy, keep, dispose, memory, setBackend, getBackend, ready } from '@eagerflow/core';
export type { DType, Dims, TensorLike, VariableOptions, Nested, HostData } from '@eagerflow/core';

// Gradients.
export { GradientTape, customGradient, grad, valueAndGrad, recordOperation } from '@eagerflow/core';
export type { GradientTapeOptions, GradientOptions, JacobianOptions, GradientResult, UnconnectedGradients, CustomGradientResult, ValueAndGrad } from '@eagerflow/core';

// Traced functions and control flow.
export { trace, ConcreteFunction, Graph, cond, whileLoop, traceConfig, retraceConfig, config, initScope, TensorArray } from '@eagerflow/function';
export type { TensorArrayOptions } from '@eagerflow/function';
export type { TraceOptions, TracedFunction, WhileOptions, Operation } from '@eagerflow/function';

// Host callbacks.
export { pyFunction, pyFunctionAsync, numpyFunction, pyFunc, registerHostFunction, unregisterHostFunction } from '@eagerflow/callbacks';
export type { TensorCallback, NDArrayCallback, OutputTypes } from '@eagerflow/callbacks';

// Saving and loading.
export { saveFunction, saveFunctionToDir, loadFunction, registerOp, loadLimits, FORMAT_NAME, FORMAT_VERSION } from '@eagerflow/saving';
export { toOnnx, saveOnnx } from '@eagerflow/function';
export type { OnnxExportOptions } from '@eagerflow/function';
export type { Saveable } from '@eagerflow/function';
export type { SavedFunctionArtifacts, LoadOptions, LoadedFunction, SaveOptions, GraphDef, CustomOp, ModelSource } from '@eagerflow/saving';

// The training kit (issue 14): Keras optimizers, schedules, initializers, losses and checkpoints.
export { optimizers, initializers, losses, train } from './training';
// TF's model files (issue 29): tf.Module.
export { Module } from '@eagerflow/saving';
export * as savedModel from './saved_model';

// Input pipelines (issue 13): tf.data on @tensorflow/tfjs-data.
import * as data from './data';
/** Input pipelines: `ef.data.Dataset` (tf.data) on @tensorflow/tfjs-data. */
export { data };

// TensorBoard summaries and Keras utilities (issue 30).
import * as summary from './summary';
import * as utils from './utils';
/** TensorBoard summaries (tf.summary): event files with scalars, histograms, images, text, audio and graphs. */
export { summary };
/** Keras-style utilities (tf.keras.utils): `Progbar`. */
export { utils };

// Records and examples (issue 30): tf.io's TFRecord writer, Example parsing, tensor and image codecs.
import * as io from './io';
/** `ef.io`: TFRecordWriter, parseExample and its feature specs, serializeTensor/parseTensor, image codecs, files. */
export { io };
import * as sparse from './sparse';
import * as strings from './strings';
/** `ef.strings`: join, split, length, substr, toNumber, regexReplace, toHashBucketFast, unicodeDecode, lower, upper (TF's tf.strings). */
export { strings };
/** `ef.sparse`: toDense, fromDense, add, sparseDenseMatmul on `ef.SparseTensor`s. */
export { sparse };
export { SparseTensor } from './sparse/sparse_tensor';
export type { SparseTensorInit } from './sparse/sparse_tensor';
