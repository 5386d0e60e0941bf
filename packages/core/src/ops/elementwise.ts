// The elementwise families: a unary or binary record is one line (API paths, kernel / TF op, dtypes, vjp, scalar fact).
import { DType } from '../values/dtype';
import type { Info, Kernels } from '../backend/backend';
import { AVal, Params, Primitive, ScalarFact, VjpRule } from './primitive';
import { api, arg } from './api_spec';
import type { TfDecl } from './graphdef_spec';
import { broadcastOrThrow, checkArity, checkDTypes, checkSameDType } from './check';

export type Rule = VjpRule<Params>;

export type Impl = Primitive['impl'];

/** A unary record's API: one tensor `x` under the given paths. */
export const unaryApi = <const P extends readonly string[]>(paths: P) => api(paths, [arg.tensor('x')]);
/** A binary record's API: two broadcasting tensors; JS scalars may come from the pool. */
export const binaryApi = <const P extends readonly string[]>(paths: P) => api(paths, [arg.tensor('x'), arg.tensor('y')], [], { poolScalars: true });

/**
 * An elementwise unary record: `kernel` is the tfjs kernel and, unless `tf` says otherwise, the
 * TensorFlow op name it saves as; `impl` replaces the plain kernel call where TF's semantics differ.
 */
export function unary<const P extends readonly string[]>(
  name: string, kernel: string, paths: P, dtypes: readonly DType[], saves: Primitive['saves'], vjp: Rule | null, scalar?: ScalarFact, impl?: Impl, tf: TfDecl = { op: kernel },
): Omit<Primitive, 'api'> & { readonly api: ReturnType<typeof unaryApi<P>> } {
  return {
    scalar,
    name,
    effect: 'pure',
    infer(ins: AVal[]) {
      checkArity(name, ins, 1);
      checkDTypes(name, ins[0], dtypes);
      return [{ dtype: ins[0].dtype, shape: ins[0].shape }];
    },
    impl: impl ?? ((k: Kernels, ins: Info[]) => [k.run(kernel, { x: ins[0] }) as Info]),
    vjp,
    saves,
    api: unaryApi(paths),
    tf,
  };
}


/** An elementwise binary record (broadcasting); `kernel` doubles as the TF op name unless `tf` is given. */
export function binary<const P extends readonly string[]>(
  name: string, kernel: string, paths: P, dtypes: readonly DType[], saves: Primitive['saves'], vjp: Rule | null, outDType?: DType, scalar?: ScalarFact, impl?: Impl, tf: TfDecl = { op: kernel },
): Omit<Primitive, 'api'> & { readonly api: ReturnType<typeof binaryApi<P>> } {
  return {
    scalar,
    name,
    effect: 'pure',
    infer(ins: AVal[]) {
      checkArity(name, ins, 2);
      checkDTypes(name, ins[0], dtypes, 'x');
      checkSameDType(name, ins[0], ins[1]);
      return [{ dtype: outDType ?? ins[0].dtype, shape: broadcastOrThrow(name, ins[0].shape, ins[1].shape) }];
    },
    impl: impl ?? ((k: Kernels, ins: Info[]) => [k.run(kernel, { a: ins[0], b: ins[1] }) as Info]),
    vjp,
    saves,
    api: binaryApi(paths),
    tf,
  };
}

