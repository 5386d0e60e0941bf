// The error toolkit: every EagerFlow error is built here, in the house format `<api>: <what> (got <got>, expected <expected>). <fix>.`
import { InternalError, InvalidArgumentError, OpError, OpErrorOptions, UnimplementedError } from './errors';

/** An ef.errors class (OpError or a subclass). */
type OpErrorClass = new (message: string, options?: OpErrorOptions) => OpError;

/** The op that raised the error (null: none), and the underlying error, if any. */
type Options = string | null | OpErrorOptions;

/** `opName` given alone, or with a cause; missing `opName` defaults to the api. */
function options(api: string, o: Options): { opName: string | null; cause?: unknown } {
  if (o === null || typeof o === 'string') return { opName: o };
  const opName = o.opName === undefined ? api : o.opName;
  return o.cause === undefined ? { opName } : { opName, cause: o.cause };
}

/** The fix sentence ends with a period (callers may write it with or without one). */
function sentence(fix: string): string {
  return /[.!?]$/.test(fix) ? fix : `${fix}.`;
}

/**
 * The house message: `<api>: <what> (got <got>, expected <expected>). <fix>.`
 * @example
 * ef.internal.errorMessage('ef.reshape', 'the shape does not fit', '[4]', '6 elements', 'Pass a shape with 6 elements'); // 'ef.reshape: the shape does not fit (got [4], expected 6 elements). Pass a shape with 6 elements.'
 */
export function errorMessage(api: string, what: string, got: string, expected: string, fix: string): string {
  return `${api}: ${what} (got ${got}, expected ${expected}). ${sentence(fix)}`;
}

/**
 * A bad argument value (TensorFlow's InvalidArgumentError); the last argument is the op's name
 * (default: the api), or `{ opName, cause }`.
 */
export function argError(api: string, what: string, got: string, expected: string, fix: string, opName: Options = api): InvalidArgumentError {
  return opError(InvalidArgumentError, api, what, got, expected, fix, opName);
}

/**
 * Any ef.errors class in the house format (ResourceExhaustedError, FailedPreconditionError,
 * NotFoundError, UnknownError, ...); the last argument as for argError.
 * @example
 * ef.internal.opError(ef.errors.NotFoundError, 'load', 'w is missing', 'entries [v]', 'w', 'Save w').message; // 'load: w is missing (got entries [v], expected w). Save w.'
 */
export function opError<E extends OpError>(cls: new (message: string, options?: OpErrorOptions) => E, api: string, what: string, got: string, expected: string, fix: string, opName: Options = api): E {
  return new cls(errorMessage(api, what, got, expected, fix), options(api, opName));
}

/**
 * An error raised below `context`, re-raised with the context in front (`<context>: <message>`): the
 * class is `cls` (default: the OpError's own class, else InvalidArgumentError) and the cause is the
 * original error.
 * @example
 * ef.internal.contextError('Dataset.map', new Error('boom'), 'Dataset.map', ef.errors.UnknownError).message; // 'Dataset.map: boom'
 */
export function contextError(context: string, e: unknown, opName: string | null, cls?: OpErrorClass): OpError {
  const Cls = cls ?? (e instanceof OpError ? (e.constructor as OpErrorClass) : InvalidArgumentError);
  return new Cls(`${context}: ${e instanceof Error ? e.message : String(e)}`, { cause: e, opName });
}

/** An argument of the wrong kind (a JS TypeError, TensorFlow's TypeError); `cause` is the underlying error, if any. */
export function typeError(api: string, what: string, got: string, expected: string, fix: string, cause?: unknown): TypeError {
  return new TypeError(errorMessage(api, what, got, expected, fix), cause === undefined ? undefined : { cause });
}

/** Something EagerFlow supports nowhere or not on this backend (TensorFlow's UnimplementedError). */
export function unimplemented(api: string, what: string, got: string, expected: string, fix: string, opName: string | null = api): UnimplementedError {
  return opError(UnimplementedError, api, what, got, expected, fix, opName);
}

/**
 * A broken internal invariant: a bug in EagerFlow (or in a hand-built graph or pass), not a bad
 * argument (TensorFlow's InternalError).
 */
export function internalError(api: string, what: string): InternalError {
  return new InternalError(`${api}: ${what}. Internal error: an EagerFlow invariant does not hold; please report it with the code that triggered it.`, { opName: api });
}

/** What a missing-kernel error knows before the op that asked for the kernel is known. */
interface MissingKernel {
  readonly kernel: string;
  readonly backend: string;
  readonly have: readonly string[];
}

const MISSING = Symbol('ef.missingKernel');

/**
 * The active backend has no kernel `kernel`: names the op (or, until its caller names it, the
 * kernel), the backend, and the registered backends that have the kernel.
 */
export function missingKernel(op: string | null, kernel: string, backend: string, have: readonly string[]): UnimplementedError {
  const fix = have.length !== 0 ? `Switch with ef.setBackend('${have[0]}'), or register a '${kernel}' kernel for '${backend}'` : `Register a '${kernel}' kernel for '${backend}'`;
  const e = unimplemented(op ?? `kernel ${kernel}`, `backend '${backend}' has no '${kernel}' kernel`, `backend '${backend}'`, have.length !== 0 ? `a backend that has it: ${have.join(', ')}` : 'a backend that has it (none is registered)', fix, op);
  Object.defineProperty(e, MISSING, { value: { kernel, backend, have } satisfies MissingKernel });
  return e;
}

/** A missing-kernel error thrown below `op` (by the backend seam), named after the op; any other error as is. */
export function withOp(e: unknown, op: string): unknown {
  const m = e instanceof UnimplementedError && e.opName === null ? (e as unknown as { [MISSING]?: MissingKernel })[MISSING] : undefined;
  return m === undefined ? e : missingKernel(op, m.kernel, m.backend, m.have);
}
