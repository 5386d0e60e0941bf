// TF's Assert(condition, data...): the run-time checks of tf.debugging and of tf.image's ops on unknown sizes. A loaded
// graph keeps each one as a stateful node that raises InvalidArgumentError naming the TF node when its condition is
// false when the graph runs (TF's message shows up to `summarize` entries of each data tensor), so a bad run-time size
// stops the call instead of giving a wrong result.
import { Primitive, TfImport, argError, backend, bind, registerPrimitive } from '@eagerflow/core';
import type { AVal, Info, Params, ReadScope, Tensor } from '@eagerflow/core';

interface AssertParams {
  /** The TF node's name (the error names it). */
  readonly node: string;
  /** How many entries of each data tensor the message shows. */
  readonly summarize: number;
  /** What failed (TF's Assert: 'assertion failed'; the importer's own run-time checks say what they check). */
  readonly what?: string;
}

const shown = (v: ArrayLike<unknown>, n: number): string => {
  const xs = Array.from(v, (x) => (x instanceof Uint8Array ? new TextDecoder().decode(x) : String(x)));
  return `[${xs.slice(0, n).join(' ')}${xs.length > n ? ' ...' : ''}]`;
};

const tfAssert = ((): Primitive<AssertParams> => {
  const p = {
    name: 'tf_assert',
    effect: 'stateful',
    foldable: false,
    vjp: null,
    saves: 'none',
    infer(ins: AVal[], q: AssertParams) {
      if (ins.length === 0 || ins[0].dtype !== 'bool') {
        throw argError(`Assert node '${q.node}'`, 'the condition must be a bool tensor', ins.length === 0 ? 'no inputs' : ins[0].dtype, 'bool', 'Check the graph: Assert takes a bool condition first.');
      }
      return [];
    },
    impl(_k: unknown, [cond, ...data]: Info[], q: AssertParams) {
      const c = backend.readInfoSync(cond) as ArrayLike<number | boolean>;
      for (let i = 0; i < c.length; i++) {
        if (!c[i]) {
          const values = data.map((d) => shown(backend.readInfoSync(d) as ArrayLike<unknown>, q.summarize)).join(', ');
          throw argError(`Assert node '${q.node}'`, q.what ?? 'assertion failed when the graph ran', values === '' ? 'a false condition' : values, 'a true condition', "The inputs break a check the graph makes (TF raises the same InvalidArgumentError); check the input's shape and values.");
        }
      }
      return [];
    },
  } as unknown as Primitive<AssertParams>;
  registerPrimitive(p as unknown as Primitive);
  return p;
})();

/**
 * A run-time check the importer adds for a node whose parameter it can only check when the graph runs: `cond` (bool)
 * must hold, else InvalidArgumentError naming the node and `what`.
 */
export function assertAtRunTime(r: ReadScope, cond: Tensor, what: string): void {
  bind(tfAssert as unknown as Primitive, [cond], { node: r.node.name, summarize: 3, what } as unknown as Params);
}

/** Rows reading TF's Assert. */
export const ASSERT_IMPORT_ROWS: readonly TfImport[] = [
  {
    ops: ['Assert'],
    read: (r) => {
      r.arity(1, Infinity);
      const summarize = r.node.int('summarize', 3);
      return (bind(tfAssert as unknown as Primitive, r.inputs(), { node: r.node.name, summarize } as unknown as Params), []);
    },
  },
];
