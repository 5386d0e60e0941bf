// @eagerflow/function: the tracing function compiler (ef.trace), graph IR, passes and executor.
import { installVariableHooks } from './trace';

export { trace } from './api';
export type { TraceOptions, TracedFunction } from './trace';
export { Tracer } from './trace';
export { ConcreteFunction, installGraphDefWriter } from './concrete';
export { Graph, PrintContext, isGraph, typeString } from './graph';
export type { Operation, Node, Value } from './graph';
export { GraphBuilder, traceConfig, withBuilder, withSiteLabel } from './builder';
export { optimize, deadCode, constantFold, commonSubexpressions, verify, passConfig } from './passes';
export type { Pass } from './passes';
export { fuseEpilogues, unfuseEpilogues } from './passes_epilogue';
export { fusedConv2d, prelu } from './fused_records';
export { compile, run, runAsync, executorConfig } from './executor';
export { fusedShaderSource, gpuFuseStats } from './fuse_gpu';
export { fuseConfig, hostFuseStats } from './fuse';
export { factAgrees, factDifferences, SPECIAL_VALUES } from './fact_check';
export type { Plan } from './executor';
export { replay } from './replay';
export { cond, condPrimitive } from './control_flow';
export { whileLoop, whilePrimitive } from './while_loop';
export type { WhileOptions } from './while_loop';
export { retraceConfig } from './retrace_warning';
export { config, initScope } from './run_eagerly';
export { TensorArray } from './tensor_array';
export type { TensorArrayOptions } from './tensor_array';
export { runLimitsOf } from './run_limits';
export type { RunLimits } from './run_limits';
export { concreteOf } from './saveable';
export type { Saveable } from './saveable';
export { nodeFs } from './node_fs';
export { toOnnx, saveOnnx } from './onnx/export';
export type { OnnxExportOptions } from './onnx/export';
export { ortWebConfig } from './onnx/runtime_web';
export type { OrtWebModule } from './onnx/runtime_web';

// What this package wires into core, in one place (everything else is a field of its primitive records).
installVariableHooks();
