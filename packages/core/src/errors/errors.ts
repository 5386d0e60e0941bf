// ef.errors: TensorFlow's OpError hierarchy, constructible by user code.

export interface OpErrorOptions {
  cause?: unknown;
  opName?: string | null;
}

/** Base class of errors raised while running an op (TensorFlow's `tf.errors.OpError`). */
export class OpError extends Error {
  readonly opName: string | null;
  override readonly cause: unknown;
  constructor(message: string, options: OpErrorOptions = {}) {
    super(message);
    // Our classes carry their names as data (minified bundles rename classes); a user's subclass keeps its own.
    this.name = ERROR_NAMES.get(new.target) ?? new.target.name;
    this.opName = options.opName ?? null;
    this.cause = options.cause;
  }
}

export class InvalidArgumentError extends OpError {}
export class UnknownError extends OpError {}
export class OutOfRangeError extends OpError {}
export class UnimplementedError extends OpError {}
export class FailedPreconditionError extends OpError {}
export class NotFoundError extends OpError {}
export class InternalError extends OpError {}
export class ResourceExhaustedError extends OpError {}
/** Unrecoverable data loss or corruption: a truncated or corrupted file (TensorFlow's `tf.errors.DataLossError`). */
export class DataLossError extends OpError {}

const ERROR_NAMES = new Map<object, string>([
  [OpError, 'OpError'],
  [InvalidArgumentError, 'InvalidArgumentError'],
  [UnknownError, 'UnknownError'],
  [OutOfRangeError, 'OutOfRangeError'],
  [UnimplementedError, 'UnimplementedError'],
  [FailedPreconditionError, 'FailedPreconditionError'],
  [NotFoundError, 'NotFoundError'],
  [InternalError, 'InternalError'],
  [ResourceExhaustedError, 'ResourceExhaustedError'],
  [DataLossError, 'DataLossError'],
]);

/** JS engine messages for allocations that cannot be made (a typed array or buffer too large). */
const NO_MEMORY = /Invalid typed array length|Array buffer allocation failed|Invalid array length|out of memory/i;

/**
 * The ef.errors class for an error a kernel raised: OpErrors and TypeErrors keep their class; an
 * allocation failure is a ResourceExhaustedError; any other plain Error from the kernels (tfjs
 * checks) is an InvalidArgumentError naming the op. The original is the `cause`. Eager and traced
 * calls map alike.
 * @example
 * ef.internal.toOpError(new Error('Operands could not be broadcast'), 'add') instanceof ef.errors.InvalidArgumentError; // true
 */
export function toOpError(e: unknown, op: string): unknown {
  if (!(e instanceof Error) || e instanceof OpError || e instanceof TypeError) return e;
  if (e instanceof RangeError && NO_MEMORY.test(e.message)) {
    return new ResourceExhaustedError(`${op}: OOM when allocating the result (got ${e.message}, expected a size the engine can allocate). Make the tensors smaller, or split the work into parts.`, { cause: e, opName: op });
  }
  if (e.constructor !== Error && !(e instanceof RangeError)) return e;
  if (/Kernel '[^']*' not registered/.test(e.message)) {
    return new UnimplementedError(`${op}: ${e.message} (got a backend without this kernel, expected one that has it). Use the cpu backend for this op.`, { cause: e, opName: op });
  }
  return new InvalidArgumentError(`${op}: ${e.message}`, { cause: e, opName: op });
}
