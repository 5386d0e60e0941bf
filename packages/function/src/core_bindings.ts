// Copies of @eagerflow/core's bindings that the per-call path of traced functions reads.
//
// Core's CommonJS index re-exports through getter functions (TypeScript's export helpers), so every read of an imported
// name in this package's compiled code (`core_1.Tensor`, `core_1.ctx`) calls one. A call of a traced function reads a
// few of them per argument, step and output: while V8 still interprets that path (a process's first calls, issue 31's
// cold window) each read is a function call. These are plain module constants holding the same values (the bindings
// are constants in core).
import { Tensor, backend, ctx } from '@eagerflow/core';

export const TensorClass = Tensor;
/** The tracing and taping state (`ctx.builder`, `ctx.tapes`). */
export const callCtx = ctx;
/** The executor's default kernels (called directly on the backend). */
export const directKernels = backend.directKernels;
/** Hands a kernel result to the tfjs engine as a tracked tensor. */
export const adoptInfo = backend.adopt;
