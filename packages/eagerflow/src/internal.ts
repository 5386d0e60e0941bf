// ef.internal: the extension points and the machinery to inspect, named one by one (no name `ef` or `ef.errors` has). Unstable.
/**
 * What extending EagerFlow needs beyond the public surface: primitive records and the op table, `bind` and the
 * interpreter context, the error toolkit records use, the GraphDef and ONNX spec tables, the graph builder, IR,
 * passes and executor, the fusers' switches and counters, the host-callback registry and saving's wiring. These
 * names may change between minor releases: depend on them only to extend EagerFlow. The list is a snapshot
 * (`packages/eagerflow/test/internal_names.txt`).
 * @example
 * typeof ef.internal.bind; // 'function'
 */

// Records and the op table: every primitive record, the composites, the generated namespaces' entries, the
// API-spec builders and the record fields' types.
export { PRIMITIVES, COMPOSITES, TOP, MODULES, opEntries, allPrimitives, getRecord, recordByName, findRecord, isPrimitive, registerPrimitive } from '@eagerflow/core';
export { api, arg, composite, defineOp, makeOp, opNameOf, paramsRecord, paramsKey, isStateful, isFoldable } from '@eagerflow/core';
export type { Primitive, PrimitiveName, RecordNamed, OpDef, OpRecord, Info, Kernels, Attrs, Params, ParamsRecord, ScalarFact, VjpRule, AVal } from '@eagerflow/core';
export type { ApiSpec, Arg, CompositeSpec, Positional, OptionsOf, FnOf, EntriesOf } from '@eagerflow/core';
// The helpers gradient rules and composites are written with.
export { convert, broadcastLike, reduceLike, reshapeLike, MAX_RANK } from '@eagerflow/core';

// bind and the interpreter context (eager, tape, trace), the tape's own machinery.
export { bind, ctx, evalEager, avalOf, withoutTapes, freshId, backprop, prune } from '@eagerflow/core';
export type { TraceBuilder, TapeRecorder, TapeEntry } from '@eagerflow/core';

// The error toolkit records and APIs build their errors with.
export { errorMessage, argError, typeError, unimplemented, internalError, opError, contextError, withOp, toOpError, SymbolicTensorError } from '@eagerflow/core';
export type { OpErrorOptions } from '@eagerflow/core';

// The backend seam, variables' hooks and graph constants, print's output sink.
export { backend, variableHooks, readVariable, assignVariable, isVariableLike, pinGraphConstant, unpinGraphConstant, printOutput } from '@eagerflow/core';

// Nested structures (trace signatures, saved outputs).
export { nest, mapStructure, flattenStructure, packStructure, PathGuard } from '@eagerflow/core';
export type { Structure } from '@eagerflow/core';

// The spec tables: TensorFlow GraphDef (tf) and ONNX (onnx) fields of the records, and their builders.
export { tfSpec, tfOpOf, typeAttrOf, TF_DTYPE, attr, isCodec } from '@eagerflow/core';
export { onnxSpec, isOnnxCodec, withOnnx, onnxAccepts, ONNX_DTYPES, ONNX_TYPE } from '@eagerflow/core';
export type { TfSpec, TfCodec, TfDecl, TfInput, TfAttr, TfImport, AttrKind, SpecNode, SpecNodeDef, NodeView, InputRefView, WriteScope, ReadScope } from '@eagerflow/core';
export type { OnnxSpec, OnnxCodec, OnnxDecl, OnnxInput, OnnxAttr, OnnxAttrs, OnnxAttrSpec, LowerScope } from '@eagerflow/core';

// The graph builder and IR.
export { GraphBuilder, withBuilder, Tracer, isGraph, typeString, PrintContext, installGraphDefWriter } from '@eagerflow/function';
export type { Node, Value, Plan } from '@eagerflow/function';
// Passes.
export { optimize, deadCode, constantFold, commonSubexpressions, verify, passConfig, fuseEpilogues, unfuseEpilogues } from '@eagerflow/function';
export type { Pass } from '@eagerflow/function';
// The executor and control flow's records.
export { compile, run, runAsync, executorConfig, runLimitsOf, condPrimitive, whilePrimitive, replay, concreteOf } from '@eagerflow/function';
export type { RunLimits } from '@eagerflow/function';
// The fusers: switches, counters, generated sources and the scalar-fact checks.
export { fuseConfig, hostFuseStats, gpuFuseStats, fusedShaderSource, factAgrees, factDifferences, SPECIAL_VALUES } from '@eagerflow/function';
// ONNX Runtime Web for the browser.
export { ortWebConfig } from '@eagerflow/function';
export type { OrtWebModule } from '@eagerflow/function';

// The host-callback registry and the host_callback record's helpers.
export { hostCallback, applyHostCallback, replayHostCallback, makeParams } from '@eagerflow/callbacks';
export { HostFunctionRef, newHostFunctionRef, lookupHostFunction, hostFunctionKeyOf, hostFunctionOf, hostFunctionKeys, hostRegistrySize } from '@eagerflow/callbacks';
export type { HostCallbackOptions, HostCallbackParams, HostFlavor } from '@eagerflow/callbacks';

// Saving's wiring and tables: the GraphDef writer, the graph-model import rows and readers.
export { installSaving, installHostCallbackBridge, toGraphDef, IMPORT_ROWS, knownOps, readerTable } from '@eagerflow/saving';
export type { EagerFlowMetadata, SignatureJson, HostCallbackBridge, HostCallbackInfo, HostCallbackLoad } from '@eagerflow/saving';
// TF 2.x graphs (SavedModel MetaGraphs, frozen and concrete-function GraphDefs) as traced functions: what
// ef.savedModel.load builds on (function library calls, resource variables bound to ef.Variables).
export { readTfGraph, signatureFunction, libraryFunction, graphDefFromProto } from '@eagerflow/saving';
export type { TfGraph, GraphTensorSpec, GraphFunctionOptions, GraphDefJson } from '@eagerflow/saving';
// TF's protobuf messages (TF 2.21's schemas, from the TF wheel): what the SavedModel, checkpoint, Example and
// event-file readers and writers encode and decode with.
export { tfProto, decodeTfProto, encodeTfProto, graphDefToProto } from '@eagerflow/saving';
