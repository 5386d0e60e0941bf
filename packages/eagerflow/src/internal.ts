// ef.internal: extension points and machinery (records, bind, graph builder, passes, GraphDef specs, registries). Unstable.
/**
 * Everything the packages export beyond the public surface: primitive records and the op table
 * (`PRIMITIVES`, `COMPOSITES`, `api`, `arg`, `tfSpec`), `bind` and the interpreter context, the
 * graph IR, passes and executor, GraphDef spec machinery, host-callback registries. These names may
 * change between minor releases: depend on them only to extend EagerFlow.
 * @example
 * typeof ef.internal.bind; // 'function'
 */
export * from '@eagerflow/core';
export * from '@eagerflow/function';
export * from '@eagerflow/callbacks';
export * from '@eagerflow/saving';
